//! A conversation with one agent: a thin object over `agentui_runtime::Conversation`, which
//! owns the state, serialises runs and applies input at once. Nothing is mirrored here: reads
//! ask the runtime, and what a UI shows is pulled from it (`ViewSubscription`, `SurfaceFeed`),
//! all as the runtime's own types.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use agentui_a2ui::SurfaceDiff;
use agentui_json::value::NodeValue;
use agentui_runtime::attachment::Attachment;
use agentui_runtime::session::{ActionResult, Consent, ConsentAnswer, RunSummary};
use agentui_runtime::view::ViewBatch;
use agentui_runtime::{ConversationSnapshot, SurfaceSnapshot};
use tokio::runtime::Handle;

use crate::error::{ConversationError, SurfaceError};
use crate::runtime::RuntimeCore;
use crate::tools::{client_tool, typed_client_tool, ClientToolHandler, TypedClientToolHandler};

/// One write of user input, for `Conversation::set_value`. One argument rather than three
/// because it runs per keystroke, and on Kotlin each argument costs a native buffer and a status
/// structure: JNA memory whose cleanup load showed as the host benchmark's slowest updates.
#[derive(Debug, Clone, uniffi::Record)]
pub struct ValueWrite {
    pub surface_id: String,
    /// A JSON Pointer into the surface's data model.
    pub path: String,
    pub value: NodeValue,
}

/// What a UI shows of a conversation, pulled a batch at a time: no thread of its own and no
/// callback. Everything that changed since the last batch arrives joined in the next one (see
/// `agentui_runtime::view`). Dropping it, or `close()`, unsubscribes.
#[derive(Debug, uniffi::Object)]
pub struct ViewSubscription {
    inner: agentui_runtime::ViewSubscription,
    /// The conversation's thread id, which the host tests' fault probe names (`demo-agent` only).
    #[cfg(feature = "demo-agent")]
    thread_id: String,
}

#[uniffi::export]
impl ViewSubscription {
    /// The next batch: the whole state first (and after falling behind), then what changed; it
    /// waits while nothing changed. `None` once the conversation or this subscription is closed.
    pub async fn next_batch(&self) -> Result<Option<ViewBatch>, ConversationError> {
        NoPanic(Box::pin(async {
            let batch = self.inner.next_batch().await;
            // Host tests only: a panic here is how the platforms' tests reach their pump's
            // handling of an internal error (agentui_ffi_demo::fail_next_view_batch_for_tests).
            #[cfg(feature = "demo-agent")]
            agentui_ffi_demo::view_batch_probe(&self.thread_id);
            batch
        }))
        .await?
        .map_err(Into::into)
    }

    /// A number that a later batch's `settled` reaches once every change published before this
    /// call is in the batches read.
    pub fn barrier(&self) -> u64 {
        self.inner.barrier()
    }

    /// The next batch is the whole state again (what is queued is dropped): for a reader that
    /// could not apply a batch, instead of going on wrong.
    pub fn resync(&self) {
        self.inner.resync();
    }

    /// Ends the subscription: what is queued is still read, then `next_batch` gives `None`.
    /// (Not `close`: the generated Kotlin object's `close()` frees it.)
    pub fn unsubscribe(&self) {
        self.inner.close();
    }
}

/// The batches a view that starts at a case's `snapshot` and reads after its `deltas` gets
/// (`agentui_runtime::view::replay`): the shared adapter cases (tests/adapter-cases) played
/// through the core, for the platforms' tests. Host test builds only.
#[cfg(feature = "demo-agent")]
#[uniffi::export]
pub fn adapter_case_batches(case_json: String) -> Result<Vec<ViewBatch>, ConversationError> {
    let (snapshot, deltas) = shared_case(&case_json, "adapter case")?;
    Ok(agentui_runtime::view::replay(snapshot, &deltas))
}

/// The timeline changes of a shared timeline case (tests/timeline-cases): element 0 is the
/// snapshot's (a reset), element `n` the changes delta `n` made, so a platform's test applies
/// them one by one and checks the case's checkpoints. Host test builds only.
#[cfg(feature = "demo-agent")]
#[uniffi::export]
pub fn timeline_case_changes(
    case_json: String,
) -> Result<Vec<Vec<agentui_runtime::timeline::TimelineChange>>, ConversationError> {
    let (snapshot, deltas) = shared_case(&case_json, "timeline case")?;
    Ok(agentui_runtime::timeline::replay(snapshot, &deltas))
}

/// The surface a case of the shared renderer cases' `v1_0` section builds from its A2UI messages
/// (`agentui_runtime::surface_case`): its reset, the nodes a renderer first receives, so the
/// platforms' players check what the renderer shows of them. Host test builds only. Throws
/// `ConversationException.InvalidJson` for messages that are no JSON list, or that the engine
/// refuses (the detail is its error).
#[cfg(feature = "demo-agent")]
#[uniffi::export]
pub fn a2ui_case_surface(messages_json: String) -> Result<SurfaceDiff, ConversationError> {
    let invalid = |detail: String| ConversationError::InvalidJson { detail: format!("renderer case: {detail}") };
    let messages: Vec<serde_json::Value> = serde_json::from_str(&messages_json).map_err(|e| invalid(e.to_string()))?;
    agentui_runtime::surface_case::surface_from_messages(&messages).map_err(invalid)
}

/// A shared case's starting snapshot (empty when absent) and its deltas (none when absent).
#[cfg(feature = "demo-agent")]
fn shared_case(
    case_json: &str,
    what: &str,
) -> Result<(ConversationSnapshot, Vec<agentui_runtime::ConversationDelta>), ConversationError> {
    let invalid = |e: serde_json::Error| ConversationError::InvalidJson { detail: format!("{what}: {e}") };
    let case: serde_json::Value = serde_json::from_str(case_json).map_err(invalid)?;
    let snapshot = match case.get("snapshot") {
        Some(value) => serde_json::from_value(value.clone()).map_err(invalid)?,
        None => ConversationSnapshot::default(),
    };
    let deltas = match case.get("deltas") {
        Some(value) => serde_json::from_value(value.clone()).map_err(invalid)?,
        None => Vec::new(),
    };
    Ok((snapshot, deltas))
}

/// The next batch the view subscriptions of conversation `thread_id` read is an `Internal`
/// error (a panic, contained as any other): how the platforms' tests reach their pump's handling
/// of an internal error. Once. Host test builds only.
#[cfg(feature = "demo-agent")]
#[uniffi::export]
pub fn fail_next_view_batch_for_tests(thread_id: String) {
    agentui_ffi_demo::fail_next_view_batch_for_tests(thread_id);
}

/// One surface's diffs, pulled: a `Reset` first (and after falling behind; an empty one when the
/// agent deleted the surface), then `Patch`es. Dropping it, or `close()`, unsubscribes.
#[derive(Debug, uniffi::Object)]
pub struct SurfaceFeed {
    subscription: tokio::sync::Mutex<agentui_runtime::SurfaceSubscription>,
    closer: agentui_runtime::SurfaceCloser,
}

/// Most diffs one `next_diffs` returns.
const MAX_DIFFS: usize = 1024;

#[uniffi::export]
impl SurfaceFeed {
    /// The diffs queued now, at least one (it waits for one); `None` once closed.
    pub async fn next_diffs(&self) -> Result<Option<Vec<SurfaceDiff>>, ConversationError> {
        NoPanic(Box::pin(async {
            let mut subscription = self.subscription.lock().await;
            let first = subscription.recv().await?;
            let mut diffs = vec![first];
            while diffs.len() < MAX_DIFFS {
                match subscription.try_recv() {
                    Some(diff) => diffs.push(diff),
                    None => break,
                }
            }
            Some(diffs)
        }))
        .await
    }

    /// Ends the subscription: `next_diffs` gives what is queued, then `None`.
    pub fn unsubscribe(&self) {
        self.closer.close();
    }
}

/// `value` as JSON, or `InvalidJson` naming `what` (a number JSON cannot hold).
fn json_value(value: &NodeValue, what: &str) -> Result<serde_json::Value, ConversationError> {
    value.to_json().map_err(|e| ConversationError::InvalidJson {
        detail: format!("{what}: not JSON at '{}': {}", e.path, e.reason()),
    })
}

/// Turns a panic while polling into `Internal` instead of unwinding into the caller.
struct NoPanic<'a, T>(Pin<Box<dyn Future<Output = T> + Send + 'a>>);

impl<T> Future for NoPanic<'_, T> {
    type Output = Result<T, ConversationError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match catch_unwind(AssertUnwindSafe(|| self.0.as_mut().poll(cx))) {
            Ok(poll) => poll.map(Ok),
            Err(_) => Poll::Ready(Err(ConversationError::Internal { detail: "the call panicked".to_owned() })),
        }
    }
}

/// Polls `future` inside the library's runtime (the runtime's futures may use its timers and
/// I/O) and turns a panic into `Internal` instead of unwinding into the caller.
struct OnRuntime<F> {
    handle: Handle,
    future: Pin<Box<F>>,
}

impl<T, E: Into<ConversationError>, F: Future<Output = Result<T, E>>> Future for OnRuntime<F> {
    type Output = Result<T, ConversationError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        let _entered = this.handle.enter();
        match catch_unwind(AssertUnwindSafe(|| this.future.as_mut().poll(cx))) {
            Ok(poll) => poll.map(|r| r.map_err(Into::into)),
            Err(_) => Poll::Ready(Err(ConversationError::Internal { detail: "the call panicked".to_owned() })),
        }
    }
}

/// One conversation with one AG-UI agent. Made by `Runtime::connect`.
#[derive(uniffi::Object)]
pub struct Conversation {
    runtime: Arc<RuntimeCore>,
    inner: agentui_runtime::Conversation,
}

impl std::fmt::Debug for Conversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conversation").finish_non_exhaustive()
    }
}

impl Conversation {
    pub(crate) fn new(runtime: Arc<RuntimeCore>, inner: agentui_runtime::Conversation) -> Arc<Self> {
        Arc::new(Conversation { runtime, inner })
    }

    fn on_runtime<F>(&self, future: F) -> OnRuntime<F> {
        OnRuntime { handle: self.runtime.handle().clone(), future: Box::pin(future) }
    }
}

#[uniffi::export]
impl Conversation {
    pub fn thread_id(&self) -> String {
        self.inner.thread_id().to_owned()
    }

    /// Sends `text` as a user message and runs until the agent is done with it (client tools
    /// and follow-up runs included). Returns after the run's end was published to listeners.
    pub async fn send_message(&self, text: String) -> Result<RunSummary, ConversationError> {
        self.on_runtime(self.inner.send_message(text)).await
    }

    /// Sends `text` with `attachments` (bytes or a file path, each with its MIME type and a name)
    /// as one user message. Every attachment is checked (size against the memory budget, MIME
    /// type against the options' allowed types, readability) and read and encoded on the
    /// runtime's threads, never the caller's; a refused one fails the call with
    /// `AttachmentRefused` naming it, and nothing is sent or queued. Then as `send_message`.
    pub async fn send(&self, text: String, attachments: Vec<Attachment>) -> Result<RunSummary, ConversationError> {
        self.on_runtime(self.inner.send(text, attachments)).await
    }

    /// Runs without a new message: after answering interrupts, or to deliver held tool results.
    pub async fn continue_run(&self) -> Result<RunSummary, ConversationError> {
        self.on_runtime(self.inner.continue_run()).await
    }

    /// Delivers the messages and actions waiting for the agent now (call it when the network is
    /// back, or after a new sign-in); the conversation also retries on its own, less often each
    /// time, except a send refused for its credentials (`PendingReason::Unauthorized`). `None`
    /// when nothing waits.
    pub async fn retry_pending(&self) -> Result<Option<RunSummary>, ConversationError> {
        self.on_runtime(self.inner.retry_pending()).await
    }

    /// Drops what waits for the agent under `key` and its stored row (see
    /// `agentui_runtime::Conversation::discard_pending`); false when nothing waits under it.
    pub async fn discard_pending(&self, key: String) -> Result<bool, ConversationError> {
        self.on_runtime(async move { self.inner.discard_pending(&key).await }).await
    }

    /// A user gesture on a node: an event action runs the agent (queued behind a run in
    /// flight), `openUrl` is returned for the app, a disabled node refuses (`ACTION_REFUSED`).
    /// `metadata`: a JSON object whose members become the v1.0 action's `metadata.extensions`
    /// (`None` or `{}`: none); not an object is `InvalidJson`, metadata for a surface that is not
    /// v1.0 or a key that is no Unicode identifier `A2ui(ACTION_REFUSED)`.
    pub async fn dispatch_action(
        &self,
        surface_id: String,
        node_id: String,
        metadata: Option<NodeValue>,
    ) -> Result<ActionResult, ConversationError> {
        let extensions = match metadata {
            None => serde_json::Map::new(),
            Some(value) => match json_value(&value, "action metadata")? {
                serde_json::Value::Object(map) => map,
                _ => {
                    let detail = "action metadata must be a JSON object".to_owned();
                    return Err(ConversationError::InvalidJson { detail });
                }
            },
        };
        self.on_runtime(self.inner.dispatch_action_with_metadata(&surface_id, &node_id, extensions)).await
    }

    /// A2UI v1.0 `callAgentFunction`: asks the agent to run `call` (a `FunctionCall` object,
    /// `{"call": name, "args": {...}}`) for v1.0 surface `surface_id`, in a run of its own
    /// queued like an action, and returns the `value` of the agent's `agentFunctionResponse`
    /// once that run ended. An error answer is `AgentFunctionFailed(code, detail)`, a run
    /// without an answer `AgentFunctionUnanswered`; a surface that is not v1.0 `A2ui`
    /// (`ACTION_REFUSED`); `call` not JSON (a NaN) `InvalidJson`.
    pub async fn call_agent_function(
        &self,
        surface_id: String,
        call: NodeValue,
    ) -> Result<serde_json::Value, ConversationError> {
        let call = json_value(&call, "agent function call")?;
        self.on_runtime(self.inner.call_agent_function(&surface_id, call)).await
    }

    /// Writes user input into a surface's data model, at once (during a run too).
    pub fn set_value(&self, write: ValueWrite) -> Result<(), SurfaceError> {
        let ValueWrite { surface_id, path, value } = write;
        let value = value.to_json().map_err(|e| SurfaceError::Rejected {
            code: "INVALID_VALUE".to_owned(),
            detail: format!("not a JSON value at '{}': {}", e.path, e.reason()),
        })?;
        Ok(self.inner.set_value(&surface_id, &path, value)?)
    }

    /// Stops the run in flight and withdraws runs queued behind it. Never blocks.
    pub fn cancel(&self) {
        self.inner.cancel();
    }

    /// Answers an interrupt; the answer goes with the next `continue_run`.
    pub fn resolve_interrupt(&self, id: String, payload_json: Option<String>) -> Result<(), ConversationError> {
        let payload = payload_json
            .map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(|e| ConversationError::InvalidJson { detail: format!("interrupt payload: {e}") })?;
        Ok(self.inner.resolve_interrupt(&id, payload)?)
    }

    /// `resolve_interrupt` with a typed answer: the agent reads `answer` as the JSON value it is
    /// (`None`: no payload). An answer JSON cannot hold (a NaN) is `InvalidJson`.
    pub fn resolve_interrupt_value(&self, id: String, answer: Option<NodeValue>) -> Result<(), ConversationError> {
        let payload = answer.map(|value| json_value(&value, "interrupt answer")).transpose()?;
        Ok(self.inner.resolve_interrupt(&id, payload)?)
    }

    /// Abandons an interrupt; the next `continue_run` tells the agent.
    pub fn cancel_interrupt(&self, id: String) -> Result<(), ConversationError> {
        Ok(self.inner.cancel_interrupt(&id)?)
    }

    /// Declares a client tool (from the next request on) and executes its calls. `consent`:
    /// `Ask` makes each call wait for the user's answer (`answer_consent`); `None` or
    /// `RunAtOnce` runs it as soon as the agent calls it.
    #[uniffi::method(default(consent = None))]
    pub fn register_tool(
        &self,
        name: String,
        description: String,
        parameters_json_schema: String,
        handler: Arc<dyn ClientToolHandler>,
        consent: Option<Consent>,
    ) -> Result<(), ConversationError> {
        let tool = client_tool(name, description, &parameters_json_schema, handler)?;
        Ok(self.inner.register_tool(tool.with_consent(consent.unwrap_or_default()))?)
    }

    /// Answers the consent request of call `tool_call_id` (listed in the view's
    /// `consent_requests`): allowed, its handler runs; declined, the agent gets the declined
    /// result. Returns the follow-up run that carried the result, or `None` while other requests
    /// still wait. `UnknownConsentRequest` when none waits under that id.
    pub async fn answer_consent(
        &self,
        tool_call_id: String,
        answer: ConsentAnswer,
    ) -> Result<Option<RunSummary>, ConversationError> {
        self.on_runtime(async move { self.inner.answer_consent(&tool_call_id, answer).await }).await
    }

    /// `register_tool` with typed values: `parameters` is the JSON Schema object, and the
    /// handler takes its arguments and returns its result as values, not text.
    #[uniffi::method(default(consent = None))]
    pub fn register_typed_tool(
        &self,
        name: String,
        description: String,
        parameters: NodeValue,
        handler: Arc<dyn TypedClientToolHandler>,
        consent: Option<Consent>,
    ) -> Result<(), ConversationError> {
        let parameters = match json_value(&parameters, "parameters of a tool")? {
            serde_json::Value::Object(map) => map,
            _ => {
                let detail = format!("parameters of tool '{name}' must be a JSON Schema object");
                return Err(ConversationError::InvalidJson { detail });
            }
        };
        let tool = typed_client_tool(name, description, parameters, handler)?;
        Ok(self.inner.register_tool(tool.with_consent(consent.unwrap_or_default()))?)
    }

    /// Removes a tool; later calls to it get a "not registered" error result.
    pub fn unregister_tool(&self, name: String) -> bool {
        self.inner.unregister_tool(&name)
    }

    pub fn snapshot(&self) -> Result<ConversationSnapshot, ConversationError> {
        Ok(self.inner.snapshot()?)
    }

    /// The decoded bytes of media part `part` (its index in the message's content) of message
    /// `message_id`: a chat item holds inline data over 16 KiB back (its part has an empty
    /// `data` value and `metadata.agentuiHeldBytes`, the length) and a UI fetches it here when it
    /// shows it. Decoded on the runtime's blocking threads. `None` when there is no such part or
    /// it carries no inline data.
    pub async fn media_bytes(&self, message_id: String, part: u32) -> Result<Option<Vec<u8>>, ConversationError> {
        let inner = self.inner.clone();
        self.on_runtime(async move { inner.media_bytes(&message_id, part as usize).await }).await
    }

    /// One surface's resolved tree, if the agent created it and has not deleted it.
    pub fn surface(&self, surface_id: String) -> Option<SurfaceSnapshot> {
        self.inner.surface(&surface_id)
    }

    /// What a UI shows, pulled a batch at a time (see `ViewSubscription`).
    pub fn subscribe_view(&self) -> Arc<ViewSubscription> {
        Arc::new(ViewSubscription {
            inner: self.inner.subscribe_view(),
            #[cfg(feature = "demo-agent")]
            thread_id: self.inner.thread_id().to_owned(),
        })
    }

    /// `subscribe_view` whose batches carry the conversation's timeline too
    /// (`ViewBatch.timeline`: its rows in order, as keyed list changes; the first batch resets it).
    pub fn subscribe_timeline_view(&self) -> Arc<ViewSubscription> {
        Arc::new(ViewSubscription {
            inner: self.inner.subscribe_timeline_view(),
            #[cfg(feature = "demo-agent")]
            thread_id: self.inner.thread_id().to_owned(),
        })
    }

    /// One surface's diffs, pulled (see `SurfaceFeed`). `UnknownSurface` if there is none.
    pub fn surface_feed(&self, surface_id: String) -> Result<Arc<SurfaceFeed>, SurfaceError> {
        let subscription =
            self.inner.subscribe_surface(&surface_id).ok_or(SurfaceError::UnknownSurface { surface_id })?;
        let closer = subscription.closer();
        Ok(Arc::new(SurfaceFeed { subscription: tokio::sync::Mutex::new(subscription), closer }))
    }
}
