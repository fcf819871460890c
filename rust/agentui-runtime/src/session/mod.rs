//! The conversation runtime: one conversation with one agent, its client tools, interrupts and
//! observers.
//!
//! A [`ConversationSession`] runs one run at a time through its `&mut self` methods, in event
//! order. What user input changes while a run streams (surfaces, tools, interrupts) sits behind
//! short locks the run takes per event or per request (`SharedParts`), so input applies at
//! once and keeps its place among the events; the [`Conversation`](crate::Conversation) actor
//! builds on that. Listeners are called inline after each mutation, so all of them see the same
//! sequence. Tool handlers run on their own tasks, but their results are applied by the session
//! loop, never by the handlers.
//!
//! One run ([`Conversation::send_message`](crate::Conversation::send_message)): append the user
//! message, send `RunAgentInput` (tools from the registry), stream and apply the events, execute
//! the live client tool calls once each, append their results as tool messages, and, when the
//! run finished and results were added, start the follow-up run automatically (bounded by
//! `max_follow_up_runs`).
//!
//! **State resync (lesson 7).** A `STATE_DELTA` that cannot apply leaves the state as it was,
//! emits [`ConversationDelta::StateResyncNeeded`] and sets [`needs_resync`](ConversationSession::needs_resync).
//! The next run then carries the kept state as `RunAgentInput.state` together with
//! `forwardedProps.agentuiStateResync = true`, which tells the agent to adopt that state as the
//! baseline (or answer with a `STATE_SNAPSHOT`); the flag clears once that input is sent, and a
//! `STATE_SNAPSHOT` clears it at any time.

mod app_catalogs;
mod consent;
mod error;
mod executor;
mod ids;
mod interrupts;
mod listener;
pub mod outbox;
mod policy;
mod restore;
pub(crate) use restore::Takeover;
mod runner;
mod tools;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use futures_util::FutureExt;
use std::time::Duration;

use serde_json::{Map, Value};

pub use app_catalogs::{AppCatalogError, AppFunction, MAX_APP_CATALOGS, MAX_APP_CATALOG_BYTES, MAX_APP_FUNCTIONS};
pub use consent::{Consent, DECLINED_BY_USER, MAX_PENDING_CONSENT};
pub use error::SessionError;
pub use executor::{result_message, result_text, ToolFailure, ToolLedger, ToolOutcome};
pub use interrupts::{legacy_interrupt, InterruptBook, InterruptError, ResumeAnswers, LEGACY_INTERRUPT_EVENT};
pub use listener::{
    ListenerId, RunPhase, SessionListener, SessionUpdate, SessionWarning, SessionWarningKind, ToolCallPhase,
    ToolCallUpdate,
};
pub use outbox::{PendingReason, PendingSend, PendingSendKind, IDEMPOTENCY_KEY_PROP};
pub use policy::{AllowRegistered, ToolDecision, ToolPolicy};
pub use tools::{ClientTool, ToolError, ToolFuture, ToolHandler, ToolInvocation, ToolRegistry, ToolRegistryError};

use crate::a2ui_bridge::{A2uiBridge, AgentFunctionAnswer, AgentFunctionCall, BridgeAction, BridgeLimits};
use crate::attachment::{self, Attachment, AttachmentError, AttachmentPolicy};
use crate::budget::SurfaceBudget;
use crate::observe::ConversationDelta;
pub use crate::observe::{ConsentAnswer, ConsentRequest};
use crate::shared_conversation::{held_here, lock_noted, ConversationGuard, NotedGuard, SharedConversation};
use agentui_a2ui::catalog::CatalogRegistry;
use agentui_a2ui::functions::UrlPolicy;
use agentui_a2ui::{Limits as A2uiLimits, Localization, SurfaceGroup};
use agentui_agui::message::{ContentPart, Context, Interrupt, Message, MessageContent, Role};
use agentui_agui::pipeline::PipelineOptions;
use agentui_agui::reducer::ConversationState;
use agentui_agui::transport::{
    retry_decision, CancelToken, HttpTransport, RetryDecision, RetryPolicy, TransportOptions,
};
use agentui_agui::MemoryBudget;
use agentui_agui::PeerEra;
use agentui_markdown::{MarkdownOptions, Profile};
use ids::IdGenerator;
use listener::Listeners;
use outbox::{Outbox, OutboxEntry, OutboxPayload};

/// The `forwardedProps` key that asks the agent to resynchronise state (see the module notes).
pub const STATE_RESYNC_PROP: &str = "agentuiStateResync";

/// How a session behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionOptions {
    /// The thread to continue; a fresh id when `None`.
    pub thread_id: Option<String>,
    pub transport: TransportOptions,
    pub pipeline: PipelineOptions,
    /// Bound on one tool handler, unless the tool sets its own.
    pub tool_timeout: Duration,
    /// Follow-up runs one `run` may start automatically to deliver tool results.
    pub max_follow_up_runs: usize,
    pub context: Vec<Context>,
    pub forwarded_props: Option<Value>,
    /// Bounds on what the agent can make this conversation hold. Applied over
    /// `pipeline.limits`, `transport.sse_limits` and the A2UI engine's limits when the session
    /// is made.
    pub budget: MemoryBudget,
    /// The user's locale and time zone, which the A2UI formatting functions follow
    /// (`formatNumber`, `formatCurrency`, `formatDate`, `pluralize`). en-US and UTC by default.
    pub localization: Localization,
    /// The MIME types the app sends as attachments (sizes come from `budget`).
    pub attachments: AttachmentPolicy,
    /// The URL schemes the app allows: `openUrl` from surfaces, surface media, and the links
    /// (with the `openUrl` rule) and images (with the media rule) of Markdown. http and https by
    /// default.
    pub url_policy: UrlPolicy,
    /// Whether chat messages carry a Markdown tree, and whether its images are shown.
    pub chat_markdown: ChatMarkdown,
    /// Whether each request tells the agent which A2UI catalogs this app renders
    /// (`a2uiClientCapabilities`, one context entry). Off for an app that shows no A2UI: the
    /// agent is then not invited to send any, and no request pays for the entry.
    pub advertise_a2ui: bool,
}

/// An app's switch on the Markdown of chat messages: on, images off by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatMarkdown {
    /// Off: messages carry no tree (an app that draws its text itself), and no parse is done.
    pub enabled: bool,
    /// Markdown images in chat text; when on, their URLs go through the media rule of the
    /// session's URL policy. Off: their alt text is shown.
    pub images: bool,
}

impl Default for ChatMarkdown {
    fn default() -> Self {
        ChatMarkdown { enabled: true, images: false }
    }
}

impl SessionOptions {
    /// These options with the budget applied to the limits it covers.
    fn budgeted(mut self) -> Self {
        self.pipeline.limits = self.budget.agui_limits(self.pipeline.limits);
        self.transport.sse_limits = self.budget.sse_limits();
        self
    }
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            thread_id: None,
            transport: TransportOptions::default(),
            pipeline: PipelineOptions::default(),
            tool_timeout: Duration::from_secs(30),
            max_follow_up_runs: 5,
            context: Vec::new(),
            forwarded_props: None,
            budget: MemoryBudget::default(),
            localization: Localization::default(),
            attachments: AttachmentPolicy::default(),
            url_policy: UrlPolicy::default(),
            chat_markdown: ChatMarkdown::default(),
            advertise_a2ui: true,
        }
    }
}

/// What one client tool call came to, for the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallReport {
    pub tool_call_id: String,
    pub tool_name: String,
    pub outcome: ToolOutcome,
}

// The bindings see a report as the update that ends the call: phase `Succeeded` with the result
// text, or `Failed`.
#[cfg(feature = "uniffi")]
uniffi::custom_type!(ToolCallReport, ToolCallUpdate, {
    lower: |report| ToolCallUpdate {
        tool_call_id: report.tool_call_id,
        tool_name: report.tool_name,
        phase: match report.outcome {
            Ok(value) => ToolCallPhase::Succeeded { result: result_text(&value) },
            Err(failure) => ToolCallPhase::Failed { failure },
        },
    },
    try_lift: |update| {
        let outcome = match update.phase {
            ToolCallPhase::Succeeded { result } => Ok(Value::String(result)),
            ToolCallPhase::Failed { failure } => Err(failure),
            other => return Err(uniffi::deps::anyhow::anyhow!("not the end of a call: {other:?}")),
        };
        Ok(ToolCallReport { tool_call_id: update.tool_call_id, tool_name: update.tool_name, outcome })
    },
});

/// The result of one run ([`Conversation::send_message`](crate::Conversation::send_message) and the
/// like) and its follow-ups.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct RunSummary {
    pub thread_id: String,
    /// The run ids the client requested, the first run and then every follow-up.
    pub run_ids: Vec<String>,
    /// Where the last run ended: `Finished` or `Interrupted`.
    pub phase: RunPhase,
    /// Every call the client answered during these runs, in the order the agent asked.
    pub tool_calls: Vec<ToolCallReport>,
    pub pending_interrupts: Vec<Interrupt>,
    /// Tool results are waiting for a run that the follow-up bound did not allow;
    /// [`Conversation::continue_run`](crate::Conversation::continue_run) sends them.
    pub follow_up_limit_reached: bool,
    pub needs_resync: bool,
    pub warnings: Vec<SessionWarning>,
}

/// Cancels the run in flight of the session it came from; usable from any task or thread.
#[derive(Debug, Clone)]
pub struct SessionCanceller {
    current: Arc<Mutex<CancelToken>>,
}

impl SessionCanceller {
    /// Stop the run in flight (and its follow-ups), if any. Handlers still running are aborted
    /// and nothing executes afterwards.
    pub fn cancel(&self) {
        self.current.lock().unwrap_or_else(|p| p.into_inner()).cancel();
    }
}

/// What a user action led to.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ActionResult {
    /// The action went to the agent in a new run.
    Ran(Box<RunSummary>),
    /// The app should open this URL (scheme policy already applied).
    OpenUrl(String),
    /// A local function ran; nothing went to the agent.
    Handled,
}

/// One conversation with one AG-UI agent.
pub struct ConversationSession {
    transport: HttpTransport,
    options: SessionOptions,
    thread_id: String,
    /// The one copy of the conversation; its observers read it for snapshots.
    conversation: SharedConversation,
    policy: Arc<dyn ToolPolicy>,
    ledger: ToolLedger,
    /// Calls waiting for the user's consent, and the tools granted (see `consent.rs`).
    consent: consent::ConsentBook,
    current_cancel: Arc<Mutex<CancelToken>>,
    phase: RunPhase,
    ids: IdGenerator,
    /// What input changes during a run: surfaces, tools, interrupts, listeners.
    shared: SharedParts,
    /// `forwardedProps` members the next run carries once (a user action, an agent function
    /// call).
    next_forwarded: Map<String, Value>,
    /// Context entries the next run carries once (an agent function call).
    next_context: Vec<Context>,
    /// Messages and actions waiting for the agent, oldest first.
    outbox: Outbox,
    /// The key of the entry the run in flight delivers, until the agent answered its request.
    delivering: Option<String>,
    /// Tool call phases restored from a store, for the first snapshot observers get.
    restored_tool_calls: Vec<ToolCallUpdate>,
    /// The catalogs and functions the app added (`add_app_catalogs`).
    app_catalogs: app_catalogs::AppCatalogs,
    /// Where the conversation's large media are when a store holds them (read back for each
    /// request); `None` without a store file.
    stored_media: Option<Arc<crate::store::StoredMedia>>,
}

/// The parts of a session that input changes while a run streams. Each sits behind its own
/// short lock, which the run also takes per event or per request, so a mutator waits at most
/// for the event being applied, never for the run.
#[derive(Clone)]
pub(crate) struct SharedParts {
    /// The A2UI surfaces this conversation's agent created.
    pub a2ui: Arc<Mutex<A2uiBridge>>,
    /// Read when a request is built: a tool registered during a run is in the next request.
    pub registry: Arc<Mutex<ToolRegistry>>,
    pub interrupts: Arc<Mutex<InterruptBook>>,
    pub listeners: Listeners,
    /// Set when a run or a write panicked: what it left behind cannot be trusted, so every
    /// later call is refused with [`SessionError::Internal`].
    pub poisoned: Arc<Mutex<Option<String>>>,
    /// Mints the `functionCallId`s of `callAgentFunction`s (unique per process and session).
    pub call_ids: Arc<Mutex<IdGenerator>>,
}

/// Locks `mutex`, taking over the data of a holder that panicked: every holder here leaves the
/// data consistent between its steps, and a panic poisons the session through its own flag.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl SharedParts {
    fn poisoned_detail(&self) -> Option<String> {
        lock(&self.poisoned).clone()
    }

    pub fn check_poisoned(&self) -> Result<(), SessionError> {
        match self.poisoned_detail() {
            Some(detail) => Err(SessionError::Internal {
                detail: format!("the session is unusable after an internal error: {detail}"),
            }),
            None => Ok(()),
        }
    }

    pub fn poison(&self, detail: String) {
        *lock(&self.poisoned) = Some(detail);
    }

    /// Locks the surfaces for user input. A call from inside the conversation's own work on this
    /// thread (an app's A2UI function the engine runs under this lock) is refused: it would wait
    /// for itself.
    fn lock_bridge_for(&self, call: &'static str) -> Result<NotedGuard<'_, A2uiBridge>, SessionError> {
        if held_here(&self.a2ui) {
            return Err(SessionError::Reentrant { call });
        }
        Ok(lock_noted(&self.a2ui))
    }

    /// Writes user input into a surface's data model; its surface changes go to the listeners
    /// under the same lock, so they keep their place among the run's events. The engine's
    /// refusal is [`SessionError::A2ui`]; a poisoned session is [`SessionError::Internal`].
    pub fn set_value(&self, surface_id: &str, path: &str, value: Value) -> Result<(), SessionError> {
        self.check_poisoned()?;
        let mut a2ui = self.lock_bridge_for("set_value")?;
        let outcome = match catch_unwind(AssertUnwindSafe(|| a2ui.set_value(surface_id, path, value))) {
            Ok(result) => result.map_err(SessionError::A2ui)?,
            Err(_) => {
                drop(a2ui);
                self.poison("a surface write panicked".to_owned());
                return Err(SessionError::Internal { detail: "a surface write panicked".to_owned() });
            }
        };
        for event in outcome.events {
            self.listeners.emit(SessionUpdate::Surface(event));
        }
        drop(a2ui);
        self.listeners.input_end(surface_id);
        Ok(())
    }

    /// The local part of a user gesture: checked (a disabled node refuses) and resolved from
    /// the values the user sees now.
    /// `extensions`: the v1.0 action's `metadata.extensions` (empty: none).
    pub fn user_action(
        &self,
        surface_id: &str,
        instance_id: &str,
        extensions: Map<String, Value>,
    ) -> Result<BridgeAction, SessionError> {
        self.check_poisoned()?;
        let mut a2ui = self.lock_bridge_for("dispatch_action")?;
        match catch_unwind(AssertUnwindSafe(|| a2ui.user_action(surface_id, instance_id, extensions))) {
            Ok(result) => result.map_err(SessionError::A2ui),
            Err(_) => {
                drop(a2ui);
                self.poison("a user action panicked".to_owned());
                Err(SessionError::Internal { detail: "a user action panicked".to_owned() })
            }
        }
    }

    /// The local part of a v1.0 `callAgentFunction`: a fresh `functionCallId`, checked and
    /// counted as waiting by the engine, shaped for the run that carries it.
    pub fn call_agent_function(&self, surface_id: &str, call: Value) -> Result<AgentFunctionCall, SessionError> {
        self.check_poisoned()?;
        let mut a2ui = self.lock_bridge_for("call_agent_function")?;
        let id = lock(&self.call_ids).next("call");
        match catch_unwind(AssertUnwindSafe(|| a2ui.call_agent_function(surface_id, &id, call))) {
            Ok(result) => result.map_err(SessionError::A2ui),
            Err(_) => {
                drop(a2ui);
                self.poison("an agent function call panicked".to_owned());
                Err(SessionError::Internal { detail: "an agent function call panicked".to_owned() })
            }
        }
    }

    /// The agent's answer to `function_call_id` if it came; the call is forgotten either way.
    pub fn finish_agent_function(&self, function_call_id: &str) -> Option<AgentFunctionAnswer> {
        lock(&self.a2ui).finish_agent_function(function_call_id)
    }

    pub fn register_tool(&self, tool: ClientTool) -> Result<(), SessionError> {
        Ok(lock(&self.registry).register(tool)?)
    }

    pub fn unregister_tool(&self, name: &str) -> bool {
        lock(&self.registry).unregister(name)
    }

    pub fn resolve_interrupt(&self, id: &str, payload: Option<Value>) -> Result<(), SessionError> {
        Ok(lock(&self.interrupts).resolve(id, payload)?)
    }

    pub fn cancel_interrupt(&self, id: &str) -> Result<(), SessionError> {
        Ok(lock(&self.interrupts).cancel(id)?)
    }
}

impl std::fmt::Debug for ConversationSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConversationSession")
            .field("transport", &self.transport)
            .field("thread_id", &self.thread_id)
            .field("messages", &self.conversation.lock().messages().len())
            .field("tools", &lock(&self.shared.registry).names().map(str::to_owned).collect::<Vec<_>>())
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

impl ConversationSession {
    /// A session talking to the agent at `url`, sending `headers` (e.g. authorization) with
    /// every request.
    pub fn connect(url: &str, headers: &[(String, String)], options: SessionOptions) -> Result<Self, SessionError> {
        let options = options.budgeted();
        let transport = HttpTransport::new(url, headers, options.transport.clone())?;
        Ok(Self::with_transport(transport, options))
    }

    pub fn with_transport(mut transport: HttpTransport, options: SessionOptions) -> Self {
        let options = options.budgeted();
        transport.set_sse_limits(options.transport.sse_limits);
        let group = SurfaceGroup::new(CatalogRegistry::with_basic(), options.budget.a2ui_limits(A2uiLimits::default()))
            .with_localization(options.localization.clone())
            .with_url_policy(options.url_policy.clone());
        let a2ui = A2uiBridge::with_limits(group, options.budget.bridge_limits(BridgeLimits::default()));
        let mut ids = IdGenerator::new();
        let thread_id = options.thread_id.clone().unwrap_or_else(|| ids.next("thread"));
        ConversationSession {
            transport,
            options,
            thread_id,
            conversation: SharedConversation::default(),
            policy: Arc::new(AllowRegistered),
            ledger: ToolLedger::default(),
            consent: consent::ConsentBook::default(),
            current_cancel: Arc::new(Mutex::new(CancelToken::new())),
            phase: RunPhase::Idle,
            ids,
            shared: SharedParts {
                a2ui: Arc::new(Mutex::new(a2ui)),
                registry: Arc::new(Mutex::new(ToolRegistry::new())),
                interrupts: Arc::new(Mutex::new(InterruptBook::default())),
                listeners: Listeners::default(),
                poisoned: Arc::new(Mutex::new(None)),
                call_ids: Arc::new(Mutex::new(IdGenerator::new())),
            },
            next_forwarded: Map::new(),
            next_context: Vec::new(),
            outbox: Outbox::default(),
            delivering: None,
            restored_tool_calls: Vec::new(),
            app_catalogs: app_catalogs::AppCatalogs::default(),
            stored_media: None,
        }
    }

    /// Where the conversation's large media are kept, when a store holds them.
    pub(crate) fn stored_media(&self) -> Option<&Arc<crate::store::StoredMedia>> {
        self.stored_media.as_ref()
    }

    pub(crate) fn set_stored_media(&mut self, media: Option<Arc<crate::store::StoredMedia>>) {
        self.stored_media = media;
    }

    /// The A2UI surfaces of this conversation (resolved nodes, data models). Held briefly:
    /// a run applies its events under the same lock.
    pub fn a2ui(&self) -> MutexGuard<'_, A2uiBridge> {
        lock(&self.shared.a2ui)
    }

    /// Register custom catalogs or change limits before the agent creates surfaces.
    pub fn a2ui_mut(&mut self) -> MutexGuard<'_, A2uiBridge> {
        lock(&self.shared.a2ui)
    }

    /// Adds the app's own A2UI catalogs (catalog JSON text, as an agent would read it) and the
    /// functions it implements for catalog functions (of these catalogs or of ones registered
    /// before). Every run from then on advertises the catalogs in `a2uiClientCapabilities`, so
    /// the agent may create surfaces with them; a call of a function runs the app's
    /// implementation (an `Err` from it is the call's failure: the property is `null`, and an
    /// agent's `callRendererFunction` gets `EXECUTION_ERROR`). A function runs under the
    /// surfaces' lock: it must not call back into the conversation.
    ///
    /// Call it before the first run (and before a store restores the conversation's surfaces).
    /// Everything is checked first and a refusal changes nothing: at most [`MAX_APP_CATALOGS`]
    /// catalogs of [`MAX_APP_CATALOG_BYTES`] each, at most [`MAX_APP_FUNCTIONS`] functions,
    /// each declared by its catalog and given once, no catalog id the conversation knows.
    pub fn add_app_catalogs(
        &mut self,
        catalogs_json: &[String],
        functions: Vec<AppFunction>,
    ) -> Result<(), AppCatalogError> {
        let mut a2ui = lock(&self.shared.a2ui);
        self.app_catalogs.add(a2ui.group_mut(), app_catalogs::CatalogSources::Texts(catalogs_json), functions)
    }

    /// [`add_app_catalogs`](Self::add_app_catalogs) with the catalogs as JSON values (an app's
    /// typed catalogs): the same checks, and the same size bound, on their compact JSON text's
    /// length. Both forms count together towards [`MAX_APP_CATALOGS`].
    pub fn add_app_catalog_values(
        &mut self,
        catalogs: &[serde_json::Value],
        functions: Vec<AppFunction>,
    ) -> Result<(), AppCatalogError> {
        let mut a2ui = lock(&self.shared.a2ui);
        self.app_catalogs.add(a2ui.group_mut(), app_catalogs::CatalogSources::Values(catalogs), functions)
    }

    pub(crate) fn shared(&self) -> &SharedParts {
        &self.shared
    }

    /// Runs the agent on a user action resolved before (see [`SharedParts::user_action`]):
    /// `forwarded_props` go with this run only.
    pub(crate) async fn run_action(&mut self, forwarded_props: Map<String, Value>) -> Result<RunSummary, SessionError> {
        self.check_poisoned()?;
        let key = self.ids.next("action");
        let action = forwarded_props.get(crate::a2ui_bridge::A2UI_ACTION_PROP).and_then(|a| a.get("userAction"));
        let field =
            |name: &str| action.and_then(|a| a.get(name)).and_then(Value::as_str).unwrap_or_default().to_owned();
        let kind = PendingSendKind::Action { surface_id: field("surfaceId"), action_name: field("name") };
        self.enqueue(OutboxEntry {
            pending: PendingSend {
                key: key.clone(),
                kind,
                attempts: 0,
                last_error: None,
                reason: PendingReason::Unreached,
            },
            payload: OutboxPayload::Action(forwarded_props),
        });
        self.deliver_through(&key).await
    }

    /// Runs the agent on a `callAgentFunction` prepared before (see
    /// [`SharedParts::call_agent_function`]): its `forwardedProps` member and context entry go
    /// with this run only. Not through the outbox: the caller waits for the answer, so a call
    /// that cannot reach the agent fails now instead of waiting to be delivered to nobody.
    pub(crate) async fn run_agent_function(
        &mut self,
        forwarded_props: Map<String, Value>,
        context: Context,
    ) -> Result<RunSummary, SessionError> {
        self.check_poisoned()?;
        self.next_forwarded.extend(forwarded_props);
        self.next_context.push(context);
        self.drive_guarded().await
    }

    /// Continue from a stored conversation. Its tool calls are history: they are never
    /// executed, whether answered or not.
    pub fn restore(&mut self, history: Vec<Message>, state: Option<Value>) {
        let mut conversation = self.conversation.lock();
        *conversation = ConversationState::new(history, state);
        *lock(&self.shared.interrupts) = InterruptBook::default();
        self.shared.listeners.messages_reset();
        self.shared.listeners.delta(ConversationDelta::StateReplaced(conversation.state().clone()));
        drop(conversation);
        self.shared.listeners.delta(ConversationDelta::Interrupts(Vec::new()));
    }

    /// How the chat view builds the Markdown of messages: the session's URL policy, its budget's
    /// Markdown bounds, the app's switch; `None` when the app turned it off.
    pub fn chat_markdown(&self) -> Option<Arc<MarkdownOptions>> {
        let switch = self.options.chat_markdown;
        switch.enabled.then(|| {
            Arc::new(MarkdownOptions {
                images: switch.images,
                limits: self.options.budget.markdown_limits(),
                ..MarkdownOptions::new(Profile::Chat, Arc::new(self.options.url_policy.clone()))
            })
        })
    }

    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// The conversation, locked: hold it briefly (a run applies each event under this lock,
    /// and observers take it for their snapshots).
    pub fn conversation(&self) -> ConversationGuard<'_> {
        self.conversation.lock()
    }

    pub(crate) fn shared_conversation(&self) -> &SharedConversation {
        &self.conversation
    }

    /// A copy of the messages.
    pub fn messages(&self) -> Vec<Message> {
        self.conversation.lock().messages().to_vec()
    }

    /// A copy of the state.
    pub fn state(&self) -> Value {
        self.conversation.lock().state().clone()
    }

    /// Replace the state locally; the next run sends it.
    pub fn set_state(&mut self, state: Value) {
        let mut conversation = self.conversation.lock();
        conversation.set_state(state);
        self.shared.listeners.delta(ConversationDelta::StateReplaced(conversation.state().clone()));
        drop(conversation);
        self.shared.listeners.batch_end();
    }

    /// Whether a state delta failed to apply and the next run will ask for a resync.
    pub fn needs_resync(&self) -> bool {
        self.conversation.lock().needs_resync()
    }

    pub fn phase(&self) -> &RunPhase {
        &self.phase
    }

    /// The client tools (a copy: a registration during a run goes to the next request).
    pub fn tools(&self) -> ToolRegistry {
        lock(&self.shared.registry).clone()
    }

    // The session's own input, for the crate's tests: the actor calls `SharedParts` itself.
    #[cfg(test)]
    pub(crate) fn register_tool(&mut self, tool: ClientTool) -> Result<(), SessionError> {
        self.shared.register_tool(tool)
    }

    // The session's own input, for the crate's tests: the actor calls `SharedParts` itself.
    #[cfg(test)]
    pub(crate) fn unregister_tool(&mut self, name: &str) -> bool {
        self.shared.unregister_tool(name)
    }

    /// Decide per call whether a registered tool may run (the default allows all).
    pub fn set_tool_policy(&mut self, policy: Arc<dyn ToolPolicy>) {
        self.policy = policy;
    }

    /// Call ids the client has taken, across all runs of this session.
    pub fn tool_ledger(&self) -> &ToolLedger {
        &self.ledger
    }

    pub fn add_listener(&mut self, listener: Arc<dyn SessionListener>) -> ListenerId {
        self.shared.listeners.add(listener)
    }

    pub fn remove_listener(&mut self, id: ListenerId) -> bool {
        self.shared.listeners.remove(id)
    }

    /// A handle that cancels this session's run in flight from elsewhere.
    pub fn canceller(&self) -> SessionCanceller {
        SessionCanceller { current: self.current_cancel.clone() }
    }

    pub fn set_context(&mut self, context: Vec<Context>) {
        self.options.context = context;
    }

    pub fn set_forwarded_props(&mut self, props: Option<Value>) {
        self.options.forwarded_props = props;
    }

    pub fn pending_interrupts(&self) -> Vec<Interrupt> {
        lock(&self.shared.interrupts).pending().to_vec()
    }

    /// Answer an interrupt; the next run carries it in `resume`. An expired interrupt or a
    /// payload its `responseSchema` rejects is refused.
    // The session's own input, for the crate's tests: the actor calls `SharedParts` itself.
    #[cfg(test)]
    pub(crate) fn resolve_interrupt(&mut self, id: &str, payload: Option<Value>) -> Result<(), SessionError> {
        self.shared.resolve_interrupt(id, payload)
    }

    // The session's own input, for the crate's tests: the actor calls `SharedParts` itself.
    #[cfg(test)]
    pub(crate) fn cancel_interrupt(&mut self, id: &str) -> Result<(), SessionError> {
        self.shared.cancel_interrupt(id)
    }

    /// Send `text` as a user message and run until the agent is done with it.
    pub(crate) async fn run(&mut self, text: impl Into<String>) -> Result<RunSummary, SessionError> {
        let mut message = Message::new(self.ids.next("user"), Role::User);
        message.content = Some(MessageContent::Text(text.into()));
        self.run_message(message).await
    }

    /// Send `text` with `attachments` as one user message of content parts. Every attachment is
    /// checked and encoded (on a blocking thread) before the message joins the outbox, so a
    /// refused one leaves nothing sent and nothing queued.
    pub(crate) async fn run_with_attachments(
        &mut self,
        text: String,
        attachments: Vec<Attachment>,
    ) -> Result<RunSummary, SessionError> {
        self.check_poisoned()?;
        if attachments.is_empty() {
            return self.run(text).await;
        }
        let era = PeerEra::new(self.options.pipeline.peer_max_protocol_version.as_deref());
        if era.flattens_content() {
            return Err(SessionError::Attachment(AttachmentError::NotSupportedByAgent {
                name: attachments[0].name.clone(),
                version: self.options.pipeline.peer_max_protocol_version.clone().unwrap_or_default(),
            }));
        }
        let policy = self.options.attachments.clone();
        let budget = self.options.budget;
        // The conversation's media bound first: a message that would cross it is refused before
        // anything is read, and nothing of it is added.
        let held = self.conversation.lock().messages().iter().map(crate::store::media_bytes).sum::<u64>();
        attachment::check_conversation_media(&attachments, held, &budget)?;
        let parts = tokio::task::spawn_blocking(move || attachment::encode_parts(&text, attachments, &policy, &budget))
            .await
            .map_err(|e| SessionError::Internal { detail: format!("encoding attachments failed: {e}") })??;
        let mut message = Message::new(self.ids.next("user"), Role::User);
        message.content = Some(MessageContent::Parts(parts));
        self.run_message(message).await
    }

    /// Like [`run`](Self::run) with a message the caller built (e.g. with content parts).
    pub(crate) async fn run_message(&mut self, message: Message) -> Result<RunSummary, SessionError> {
        self.check_poisoned()?;
        let key = message.id.clone();
        let text = match &message.content {
            Some(MessageContent::Text(text)) => text.clone(),
            Some(MessageContent::Parts(parts)) => parts
                .iter()
                .filter_map(|p| match p {
                    ContentPart::Text(t) => Some(t.text.as_str()),
                    _ => None,
                })
                .collect(),
            _ => String::new(),
        };
        self.enqueue(OutboxEntry {
            pending: PendingSend {
                key: key.clone(),
                kind: PendingSendKind::Message { message_id: key.clone(), text },
                attempts: 0,
                last_error: None,
                reason: PendingReason::Unreached,
            },
            payload: OutboxPayload::Message(Some(Arc::new(message))),
        });
        self.deliver_through(&key).await
    }

    /// Delivers the messages and actions waiting for the agent, oldest first, each in its own
    /// run. `Ok(None)` when nothing waits; the last entry's run otherwise.
    pub(crate) async fn deliver_pending(&mut self) -> Result<Option<RunSummary>, SessionError> {
        self.check_poisoned()?;
        let Some(last) = self.outbox.entries().last().map(|e| e.pending.key.clone()) else {
            return Ok(None);
        };
        self.deliver_through(&last).await.map(Some)
    }

    /// What waits for the agent, oldest first.
    pub fn pending_sends(&self) -> Vec<PendingSend> {
        self.outbox.pending()
    }

    /// The host's word on the network, from the transport options.
    pub fn connectivity(&self) -> agentui_agui::transport::Connectivity {
        self.options.transport.connectivity.clone()
    }

    /// Whether anything waits for the agent (without copying the entries).
    pub fn has_pending_sends(&self) -> bool {
        !self.outbox.is_empty()
    }

    /// Whether what waits is sent again without the app (see [`outbox`]): false when nothing
    /// waits or the oldest entry waits for new credentials.
    pub fn retries_pending_on_its_own(&self) -> bool {
        self.outbox.retries_on_its_own()
    }

    /// Drops the entry waiting under `key`, and its stored row: it is never sent. A message that
    /// had not joined the conversation yet is gone with it; one that had (an attempt was made)
    /// stays there. False when nothing waits under `key` (already delivered, or never queued).
    pub(crate) fn discard_pending(&mut self, key: &str) -> bool {
        if self.outbox.remove(key).is_none() {
            return false;
        }
        self.outbox_changed();
        true
    }

    /// The calls waiting for the user's consent, oldest first, and the tools granted for the rest
    /// of the conversation.
    pub fn consent(&self) -> (Vec<ConsentRequest>, Vec<String>) {
        (self.consent.requests().to_vec(), self.consent.grants().to_vec())
    }

    /// The user's answer to the consent request of call `tool_call_id`: allowed, the handler
    /// runs now (an `AllowAlways` also grants its tool); declined, the agent gets the declined
    /// result ([`DECLINED_BY_USER`]). The result goes back in a follow-up run, started as for
    /// any client result once no other request waits; `None` while some still do.
    pub(crate) async fn answer_consent(
        &mut self,
        tool_call_id: &str,
        answer: ConsentAnswer,
    ) -> Result<Option<RunSummary>, SessionError> {
        self.check_poisoned()?;
        let report = self.settle_consent(tool_call_id, answer).await?;
        if self.consent.has_pending() {
            return Ok(None);
        }
        let mut summary = self.drive_guarded().await?;
        summary.tool_calls.insert(0, report);
        Ok(Some(summary))
    }

    /// The tool call phases a restore brought back (empty otherwise); taken once.
    pub(crate) fn take_restored_tool_calls(&mut self) -> Vec<ToolCallUpdate> {
        std::mem::take(&mut self.restored_tool_calls)
    }

    fn enqueue(&mut self, entry: OutboxEntry) {
        self.outbox.push(entry);
        self.outbox_changed();
    }

    fn outbox_changed(&self) {
        self.shared.listeners.emit(SessionUpdate::Outbox(self.outbox.entries().cloned().collect()));
        self.shared.listeners.batch_end();
    }

    /// Delivers the entries up to and including `key`, oldest first, and returns the run of
    /// `key`. Stops at the first that cannot reach the agent: it and those after it wait.
    async fn deliver_through(&mut self, key: &str) -> Result<RunSummary, SessionError> {
        loop {
            let Some(front) = self.outbox.front().cloned() else {
                return Err(SessionError::Internal { detail: format!("no message or action waits under '{key}'") });
            };
            let front_key = front.pending.key.clone();
            let last = front_key == key;
            let result = self.attempt(front).await;
            let error = match result {
                Ok(summary) if last => return Ok(summary),
                Ok(_) => continue,
                Err(error) => error,
            };
            if self.outbox.contains(&front_key) {
                // The agent did not take it.
                if let SessionError::Transport(e) = &error {
                    let reason = match retry_decision(e, RetryPolicy::DeliverPending) {
                        RetryDecision::RetryLater => Some(PendingReason::Unreached),
                        RetryDecision::WaitForApp => Some(PendingReason::Unauthorized),
                        RetryDecision::GiveUp => None,
                    };
                    if let Some(reason) = reason {
                        if let Some(entry) = self.outbox.front_mut() {
                            entry.pending.attempts = entry.pending.attempts.saturating_add(1);
                            entry.pending.last_error = Some(e.to_string());
                            entry.pending.reason = reason;
                        }
                        self.outbox_changed();
                        return Err(error);
                    }
                }
                // Refused for good, or cancelled: sending it again would not change that.
                self.outbox.remove(&front_key);
                self.outbox_changed();
                if !last {
                    let message = format!("'{front_key}' was not delivered: {error}");
                    self.shared.listeners.delta(ConversationDelta::Warning(SessionWarning {
                        kind: SessionWarningKind::Undelivered,
                        message,
                    }));
                }
            }
            if last || error == SessionError::Cancelled {
                return Err(error);
            }
        }
    }

    /// One run delivering `entry`: a message joins the conversation on its first attempt; every
    /// attempt names the entry's key.
    async fn attempt(&mut self, entry: OutboxEntry) -> Result<RunSummary, SessionError> {
        match entry.payload {
            OutboxPayload::Message(Some(message)) => {
                // The outbox lets go of it first (listeners too), so the message is moved, not
                // copied, when it is the last holder: an attachment's parts are large. One batch
                // with the message's joining, so a store never has it in neither place.
                if let Some(front) = self.outbox.front_mut() {
                    front.payload = OutboxPayload::Message(None);
                }
                self.shared.listeners.emit(SessionUpdate::Outbox(self.outbox.entries().cloned().collect()));
                let message = Arc::try_unwrap(message).unwrap_or_else(|shared| (*shared).clone());
                let mut conversation = self.conversation.lock();
                conversation.append_local_message(message.clone());
                self.shared.listeners.delta(ConversationDelta::MessageAdded(message));
                drop(conversation);
                self.shared.listeners.batch_end();
            }
            OutboxPayload::Message(None) => {}
            OutboxPayload::Action(props) => self.next_forwarded.extend(props),
        }
        self.next_forwarded.insert(IDEMPOTENCY_KEY_PROP.to_owned(), Value::String(entry.pending.key.clone()));
        self.delivering = Some(entry.pending.key);
        let result = self.drive_guarded().await;
        self.delivering = None;
        result
    }

    /// The agent answered the request of the run in flight: the entry it carries is delivered.
    /// Written at once, so a crash after this point does not send it again.
    pub(super) fn delivered(&mut self) {
        if let Some(key) = self.delivering.take() {
            self.outbox.remove(&key);
            self.outbox_changed();
        }
    }

    /// Run without a new user message: after answering interrupts, or to deliver tool results
    /// the follow-up bound held back.
    pub(crate) async fn continue_run(&mut self) -> Result<RunSummary, SessionError> {
        self.check_poisoned()?;
        self.drive_guarded().await
    }

    /// Whether a panic left this session unusable (every call then fails with
    /// [`SessionError::Internal`]).
    pub fn is_poisoned(&self) -> bool {
        self.shared.poisoned_detail().is_some()
    }

    fn check_poisoned(&self) -> Result<(), SessionError> {
        self.shared.check_poisoned()
    }

    /// Runs with a panic caught: the session is poisoned (a panic mid-run leaves the
    /// conversation, the surfaces and the tool ledger out of step) and the caller gets a typed
    /// error instead of a crash or a half-updated session that goes on.
    async fn drive_guarded(&mut self) -> Result<RunSummary, SessionError> {
        match AssertUnwindSafe(self.drive()).catch_unwind().await {
            Ok(result) => result,
            Err(payload) => {
                let detail = panic_message(payload.as_ref());
                self.shared.poison(format!("a run panicked: {detail}"));
                self.set_phase(RunPhase::Failed { error: format!("internal error: {detail}") });
                Err(SessionError::Internal { detail: format!("a run panicked: {detail}") })
            }
        }
    }

    /// A phase change ends a batch: what led to it is written before the run goes on (the user's
    /// message before the request, everything before the end).
    fn set_phase(&mut self, phase: RunPhase) {
        self.tell_phase(phase);
        self.shared.listeners.batch_end();
    }

    /// A phase change without the batch's end (the caller ends it once it released the
    /// conversation, which a store reads at a batch's end).
    fn tell_phase(&mut self, phase: RunPhase) {
        self.phase = phase.clone();
        self.shared.listeners.delta(ConversationDelta::RunPhase(phase));
    }

    fn warn(&self, warnings: &mut Vec<SessionWarning>, kind: SessionWarningKind, message: String) {
        let w = SessionWarning { kind, message };
        // Bounded like the conversation's own warnings.
        if warnings.len() < self.options.pipeline.limits.max_warnings {
            warnings.push(w.clone());
        }
        self.shared.listeners.delta(ConversationDelta::Warning(w));
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}
