//! A2UI over AG-UI: finds A2UI messages in the AG-UI event stream, feeds them to a
//! [`SurfaceGroup`], and shapes what goes back to the agent (user actions, errors, the client's
//! catalogs) the way AG-UI agents expect it.
//!
//! # Where A2UI travels in an AG-UI stream
//!
//! The conventions are those of `@ag-ui/a2ui-middleware` (ag-ui-protocol/ag-ui,
//! `middlewares/a2ui-middleware`) and CopilotKit's A2UI activity renderer
//! (`packages/react-core/src/v2/a2ui/A2UIMessageRenderer.tsx`), which is what agents built on
//! AG-UI emit today.
//!
//! - **Activity** `ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA` with `activityType: "a2ui-surface"`; the
//!   operations (v0.9, v0.9.1 or v0.8 envelopes) are `content.a2ui_operations`. The middleware sends one
//!   message id per tool call (`a2ui-surface-<toolCallId>`, or `a2ui-surface-<surfaceId>-<toolCallId>`
//!   when one call draws several surfaces), `replace: true`, and every snapshot is *cumulative*:
//!   it repeats the operations already sent and adds or rewrites some. Before the first paint the
//!   content may be a lifecycle placeholder (`{status: "building"}`) with no operations. Older
//!   middleware releases used `content.operations`; that key is read when `a2ui_operations` is
//!   absent. A delta is an RFC 6902 patch on the content, usually appending to the operations.
//! - **Tool result** `TOOL_CALL_RESULT` whose content is `{"a2ui_operations": [...]}` (the
//!   middleware's `tryParseA2UIOperations` also accepts that JSON encoded twice, a string holding
//!   the JSON). A bare envelope or an array of envelopes is accepted too. Text parts are joined;
//!   content that is not A2UI is an ordinary tool result and ignored.
//! - **CUSTOM** (this crate's choice; no public convention exists): `name: "a2ui"`, `value` one
//!   envelope, an array of envelopes, an `a2ui_operations` container, or any of these as a JSON
//!   string. A value that is none of these is an error: the event said it was A2UI.
//! - **RAW**: `event` holding the same shapes as CUSTOM. Anything else is some provider's native
//!   event and ignored.
//! - **MESSAGES_SNAPSHOT** (history restore): its `a2ui-surface` activity messages are fed like
//!   snapshots and its tool messages like tool results, so a reloaded conversation shows its
//!   surfaces. Messages absent from the snapshot delete nothing.
//!
//! # Replays and rewrites
//!
//! Each tracked activity remembers a fingerprint of every operation it applied. A later snapshot
//! or delta applies only the operations after the longest common prefix with what was applied:
//! a repeated snapshot applies nothing, a cumulative one only its new tail. When a snapshot
//! rewrites earlier operations (different content at some index), everything from the first
//! difference on is applied again (A2UI updates are idempotent replacements), except a
//! `createSurface` / `beginRendering` for a surface this activity already created and that still
//! exists: the surface cannot be re-created in place, so that one operation is skipped, as
//! CopilotKit's renderer does. A snapshot with *fewer* operations undoes nothing: A2UI has no undo,
//! and surfaces keep their state. `replace: false` on a known activity is ignored, as AG-UI says.
//!
//! When the middleware turns a tool result into an activity, the same operations arrive twice
//! (the result, then the snapshot). The operations of recent tool results are remembered by
//! `toolCallId`, and a new activity whose message id ends in `-<toolCallId>` starts from them, so
//! nothing is applied twice. A tool result repeated for the same `toolCallId` is not re-applied.
//!
//! This bookkeeping lives in memory only. After process death a conversation's surfaces come
//! back from their exports ([`agentui_a2ui::Surface::export`]), and
//! [`A2uiBridge::adopt_history`] rebuilds the bookkeeping from the restored messages without
//! applying anything, so the agent's next `MESSAGES_SNAPSHOT` finds its operations applied.
//!
//! # What goes back to the agent
//!
//! - **User actions**: the next run's `forwardedProps.a2uiAction = {userAction: {name, surfaceId,
//!   sourceComponentId, timestamp, context}}` (the middleware's `A2UIForwardedProps`, which turns
//!   it into a synthetic `log_a2ui_event` tool call the model sees). The middleware has no slot for
//!   the data model, so for a surface created with `sendDataModel` it rides next to the action as
//!   `forwardedProps.a2uiClientDataModel`, the key A2UI's own transports use for it.
//! - **Errors** (validation failures with their JSON Pointer, unknown surfaces, limits): the
//!   middleware defines no channel for them. This crate sends the v0.9 `error` envelopes as
//!   `forwardedProps.a2uiErrors` (for agents reading the input programmatically) and the same list
//!   as a `RunAgentInput.context` entry (middleware and frameworks put context in front of the
//!   model, which must learn its UI was refused). See [`PendingForAgent`].
//! - **Catalogs**: `a2uiClientCapabilities` (A2UI's name for it) both as a context entry and as a
//!   `forwardedProps` member. The middleware's own context entry carries a component schema, not
//!   capabilities, so this one has its own description.
//!
//! Everything the agent sends is untrusted: sizes and counts are bounded ([`BridgeLimits`]), and
//! every problem is a typed [`BridgeError`] in the outcome, reported to the agent as well.

use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::Hasher;

use agentui_a2ui::wire::v08;
use agentui_a2ui::wire::v09::{ClientMessage, ErrorMessage};
use agentui_a2ui::{A2uiError, Effect, Outcome, SurfaceEvent, SurfaceGroup};
use serde_json::{json, Map, Value};

use agentui_agui::event::{ActivityDelta, ActivitySnapshot, Event, ToolResultContent};
use agentui_agui::message::{ContentPart, Context, Message, MessageContent, Role};
use agentui_agui::patch::{apply_patch_within, PatchBounds};

/// `activityType` of activities carrying A2UI operations.
pub const A2UI_ACTIVITY_TYPE: &str = "a2ui-surface";
/// Key of the operation list in activity content and tool results.
pub const A2UI_OPERATIONS_KEY: &str = "a2ui_operations";
/// Key older middleware releases used for the operation list in activity content.
pub const LEGACY_OPERATIONS_KEY: &str = "operations";
/// `name` of a CUSTOM event carrying A2UI.
pub const A2UI_CUSTOM_EVENT_NAME: &str = "a2ui";
/// `forwardedProps` member carrying a user action.
pub const A2UI_ACTION_PROP: &str = "a2uiAction";
/// `forwardedProps` member carrying the data model of `sendDataModel` surfaces.
pub const A2UI_CLIENT_DATA_MODEL_PROP: &str = "a2uiClientDataModel";
/// `forwardedProps` member carrying error envelopes.
pub const A2UI_ERRORS_PROP: &str = "a2uiErrors";
/// `forwardedProps` member counting errors left out of [`A2UI_ERRORS_PROP`].
pub const A2UI_ERRORS_OMITTED_PROP: &str = "a2uiErrorsOmitted";
/// `forwardedProps` member (and context value key) carrying the client's catalogs.
pub const A2UI_CLIENT_CAPABILITIES_PROP: &str = "a2uiClientCapabilities";
/// Description of the context entry advertising the client's catalogs.
pub const A2UI_CAPABILITIES_CONTEXT_DESCRIPTION: &str = "A2UI client capabilities (a2uiClientCapabilities): \
     the catalogs this client renders. createSurface must name one of supportedCatalogIds.";
/// Description of the context entry reporting A2UI errors.
pub const A2UI_ERRORS_CONTEXT_DESCRIPTION: &str = "A2UI errors: the client could not apply these A2UI \
     messages from your previous turn (v0.9 error messages; path is a JSON Pointer into the message). \
     Send corrected messages.";

const V09_MESSAGE_KEYS: [&str; 4] = ["createSurface", "updateComponents", "updateDataModel", "deleteSurface"];
const V08_MESSAGE_KEYS: [&str; 4] = ["beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface"];
const CREATE_KEYS: [&str; 2] = ["createSurface", "beginRendering"];

/// Bounds on what an agent may make the bridge track or apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BridgeLimits {
    /// Operations one event may apply. An event over it applies none and reports it once: the
    /// operations count as seen, so the same snapshot does not report again.
    pub max_operations_per_event: usize,
    /// Operations one activity's content may list.
    pub max_operations_per_activity: usize,
    /// Activities tracked at once; the least recently updated is forgotten first. A later delta
    /// for it is then reported as an unknown activity, and a later snapshot starts from scratch.
    pub max_activities: usize,
    /// Bytes of text parsed for A2UI (a tool result, a CUSTOM or RAW string).
    pub max_payload_bytes: usize,
    /// Tool results remembered for de-duplication.
    pub max_tool_results: usize,
    /// Errors kept for the next run; later ones are counted.
    pub max_pending_errors: usize,
    /// Weight (see [`agentui_a2ui::size`]) an activity's content may reach through a patch.
    pub max_content_bytes: usize,
}

impl Default for BridgeLimits {
    fn default() -> Self {
        BridgeLimits {
            max_operations_per_event: 1_000,
            max_operations_per_activity: 10_000,
            max_activities: 256,
            max_payload_bytes: 4 * 1024 * 1024,
            max_tool_results: 256,
            max_pending_errors: 100,
            max_content_bytes: 8 * 1024 * 1024,
        }
    }
}

/// A problem with the A2UI an event carried. Each one is also reported to the agent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BridgeError {
    #[error("{what} limit exceeded: {actual} > {limit}")]
    LimitExceeded { what: &'static str, limit: usize, actual: usize },
    /// The carrier claims A2UI (or mentions `a2ui_operations`) but does not hold valid A2UI.
    #[error("malformed A2UI in {carrier}: {message}")]
    Malformed { carrier: &'static str, message: String },
    /// `a2ui_operations` is present but is not a list.
    #[error("{carrier}: a2ui_operations must be an array")]
    OperationsNotAList { carrier: &'static str },
    #[error("ACTIVITY_DELTA for unknown a2ui-surface activity {0:?}")]
    UnknownActivity(String),
    /// The patch did not apply; the activity keeps its previous content.
    #[error("ACTIVITY_DELTA for {message_id:?} did not apply: {reason}")]
    PatchNotApplied { message_id: String, reason: String },
}

impl BridgeError {
    /// The error as the agent is told about it.
    pub fn to_a2ui(&self) -> A2uiError {
        match *self {
            BridgeError::LimitExceeded { what, limit, actual } => A2uiError::LimitExceeded { what, limit, actual },
            BridgeError::OperationsNotAList { .. } => {
                A2uiError::validation(format!("/{A2UI_OPERATIONS_KEY}"), "a2ui_operations must be an array")
            }
            ref other => A2uiError::Malformed(other.to_string()),
        }
    }
}

/// What one event produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BridgeOutcome {
    /// Changes for the renderer, in order.
    pub events: Vec<SurfaceEvent>,
    /// Client-to-server messages (errors) this event produced, in wire-ready form. They are
    /// also queued for the next run (see [`A2uiBridge::take_pending_for_agent`]).
    pub emitted: Vec<ClientMessage>,
    /// Bridge-level problems (also in `emitted` as error messages).
    pub errors: Vec<BridgeError>,
}

impl BridgeOutcome {
    pub fn is_empty(&self) -> bool {
        self.events.is_empty() && self.emitted.is_empty() && self.errors.is_empty()
    }

    fn absorb(&mut self, outcome: Outcome) {
        self.events.extend(outcome.events);
        self.emitted.extend(outcome.emitted);
    }

    fn fail(&mut self, surface_id: &str, error: BridgeError) {
        self.emitted.push(ClientMessage::Error(ErrorMessage::from_error(surface_id, &error.to_a2ui())));
        self.errors.push(error);
    }
}

/// What a user action asks of the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum BridgeAction {
    /// Start a run whose `forwardedProps` include these members (merge them into whatever else
    /// the run forwards): `a2uiAction`, and `a2uiClientDataModel` for `sendDataModel` surfaces.
    SendToAgent { forwarded_props: Map<String, Value>, message: Box<ClientMessage> },
    /// Open this URL (already checked against the URL policy). Nothing goes to the agent.
    OpenUrl(String),
    /// A local function ran; nothing to do.
    Handled,
}

/// Errors the next run must carry to the agent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PendingForAgent {
    /// v0.9 `error` messages, oldest first.
    pub errors: Vec<ClientMessage>,
    /// Errors left out because [`BridgeLimits::max_pending_errors`] was reached.
    pub omitted: usize,
}

impl PendingForAgent {
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.omitted == 0
    }

    fn wire_errors(&self) -> Vec<Value> {
        self.errors.iter().map(ClientMessage::to_wire).collect()
    }

    /// `forwardedProps` members: `a2uiErrors` (the envelopes) and, when some were left out,
    /// `a2uiErrorsOmitted`. Empty when there is nothing to send.
    pub fn forwarded_props(&self) -> Map<String, Value> {
        let mut props = Map::new();
        if self.is_empty() {
            return props;
        }
        props.insert(A2UI_ERRORS_PROP.to_owned(), Value::Array(self.wire_errors()));
        if self.omitted > 0 {
            props.insert(A2UI_ERRORS_OMITTED_PROP.to_owned(), Value::from(self.omitted));
        }
        props
    }

    /// The same errors as a `RunAgentInput.context` entry, so a model behind middleware that
    /// ignores `forwardedProps` still reads them.
    pub fn context(&self) -> Option<Context> {
        if self.is_empty() {
            return None;
        }
        let mut value = json!({ A2UI_ERRORS_PROP: self.wire_errors() });
        if self.omitted > 0 {
            value[A2UI_ERRORS_OMITTED_PROP] = Value::from(self.omitted);
        }
        Some(Context { description: A2UI_ERRORS_CONTEXT_DESCRIPTION.to_owned(), value: value.to_string() })
    }
}

/// One `a2ui-surface` activity message as the bridge last saw it.
#[derive(Debug)]
struct TrackedActivity {
    message_id: String,
    /// The content, kept to apply deltas to. `None` until the first snapshot.
    content: Option<Value>,
    /// Fingerprints of the operations applied, by index.
    applied: Vec<u64>,
    /// Surfaces this activity created.
    surfaces: Vec<String>,
}

/// Operations applied from one tool result, for de-duplication.
#[derive(Debug)]
struct ToolResultRecord {
    tool_call_id: String,
    /// Fingerprint and surface id of each operation.
    operations: Vec<(u64, Option<String>)>,
    surfaces: Vec<String>,
}

/// What becomes of the operations found in an event or in history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feed {
    /// Applied to the group.
    Apply,
    /// Only recorded as applied: the group already shows them (restored surfaces).
    Adopt,
}

/// The A2UI side of one conversation: owns its [`SurfaceGroup`].
#[derive(Debug)]
pub struct A2uiBridge {
    group: SurfaceGroup,
    limits: BridgeLimits,
    /// Least recently updated first.
    activities: VecDeque<TrackedActivity>,
    /// Oldest first.
    tool_results: VecDeque<ToolResultRecord>,
    pending: PendingForAgent,
}

impl Default for A2uiBridge {
    fn default() -> Self {
        A2uiBridge::new(SurfaceGroup::default())
    }
}

impl A2uiBridge {
    pub fn new(group: SurfaceGroup) -> Self {
        A2uiBridge::with_limits(group, BridgeLimits::default())
    }

    pub fn with_limits(group: SurfaceGroup, limits: BridgeLimits) -> Self {
        A2uiBridge {
            group,
            limits,
            activities: VecDeque::new(),
            tool_results: VecDeque::new(),
            pending: PendingForAgent::default(),
        }
    }

    pub fn group(&self) -> &SurfaceGroup {
        &self.group
    }

    pub fn group_mut(&mut self) -> &mut SurfaceGroup {
        &mut self.group
    }

    pub fn limits(&self) -> &BridgeLimits {
        &self.limits
    }

    /// Number of `a2ui-surface` activities tracked.
    pub fn tracked_activities(&self) -> usize {
        self.activities.len()
    }

    /// Feeds one (verified) event. Events that carry no A2UI cost a `match`.
    ///
    /// `RUN_FINISHED` and `RUN_ERROR` report messages still buffered for surfaces that were never
    /// created (see [`SurfaceGroup::flush_pending`]).
    pub fn on_event(&mut self, event: &Event) -> BridgeOutcome {
        let mut out = BridgeOutcome::default();
        match event {
            Event::ActivitySnapshot(e) => self.activity_snapshot(e, &mut out),
            Event::ActivityDelta(e) => self.activity_delta(e, &mut out),
            Event::ToolCallResult(e) => {
                let body = match &e.content {
                    ToolResultContent::Text(text) => Body::Text(text),
                    ToolResultContent::Parts(parts) => Body::Parts(parts),
                };
                self.tool_result(&e.tool_call_id, body, &mut out, Feed::Apply);
            }
            Event::Custom(e) if e.name == A2UI_CUSTOM_EVENT_NAME => self.custom(&e.value, &mut out),
            Event::Raw(e) => self.raw(&e.event, &mut out),
            Event::MessagesSnapshot(e) => self.messages_snapshot(&e.messages, &mut out, Feed::Apply),
            Event::RunFinished(_) | Event::RunError(_) => out.absorb(self.group.flush_pending()),
            _ => return out,
        }
        self.queue_for_agent(&out.emitted);
        out
    }

    /// Records a restored conversation's history as applied, without touching the group.
    ///
    /// After process death the surfaces come back from their exports
    /// ([`SurfaceGroup::restore_surface`]), not by applying the history again. But the agent may
    /// then send a `MESSAGES_SNAPSHOT` or repeat an `ACTIVITY_SNAPSHOT`, and operations this
    /// bridge does not know as applied would be applied twice (a `createSurface` for a restored
    /// surface goes back to the agent as an error). So, on a fresh bridge whose surfaces are
    /// restored: `a2ui-surface` activities and A2UI tool results in `messages` are tracked as a
    /// `MESSAGES_SNAPSHOT` of them would have left them, owning only surfaces that exist in the
    /// group. Nothing is reported to the agent: it heard about any problem the first time.
    pub fn adopt_history(&mut self, messages: &[Message]) {
        self.messages_snapshot(messages, &mut BridgeOutcome::default(), Feed::Adopt);
    }

    /// Reports still-buffered messages now (also done on `RUN_FINISHED` / `RUN_ERROR`).
    pub fn flush_pending(&mut self) -> BridgeOutcome {
        let mut out = BridgeOutcome::default();
        out.absorb(self.group.flush_pending());
        self.queue_for_agent(&out.emitted);
        out
    }

    /// Writes user input to a surface's data model (two-way binding).
    pub fn set_value(&mut self, surface_id: &str, path: &str, value: Value) -> Result<Outcome, A2uiError> {
        self.group.set_value(surface_id, path, value)
    }

    /// Runs the action of a node on a user gesture. An event action becomes the `forwardedProps`
    /// of the next run; `openUrl` becomes an effect for the host.
    pub fn user_action(&mut self, surface_id: &str, instance_id: &str) -> Result<BridgeAction, A2uiError> {
        let outcome = self.group.dispatch_action(surface_id, instance_id)?;
        if let Some(Effect::OpenUrl(url)) = outcome.effects.into_iter().next() {
            return Ok(BridgeAction::OpenUrl(url));
        }
        let Some(ClientMessage::Action(action)) = outcome.message else {
            return Ok(BridgeAction::Handled);
        };
        let mut forwarded_props = Map::new();
        // The middleware reads the v0.8 `userAction` shape, whatever the surface's version.
        forwarded_props.insert(A2UI_ACTION_PROP.to_owned(), v08::user_action(&action));
        if let Some(data_model) = outcome.client_data_model {
            forwarded_props.insert(A2UI_CLIENT_DATA_MODEL_PROP.to_owned(), data_model);
        }
        Ok(BridgeAction::SendToAgent { forwarded_props, message: Box::new(ClientMessage::Action(action)) })
    }

    /// Errors collected since the last call, for the next run; empties the queue.
    pub fn take_pending_for_agent(&mut self) -> PendingForAgent {
        std::mem::take(&mut self.pending)
    }

    /// `a2uiClientCapabilities`: the catalog ids this client renders (no inline catalogs).
    pub fn capabilities(&self) -> Value {
        self.group.catalogs().client_capabilities(false)
    }

    /// The context entry advertising [`Self::capabilities`] to the model.
    pub fn capabilities_context(&self) -> Context {
        Context {
            description: A2UI_CAPABILITIES_CONTEXT_DESCRIPTION.to_owned(),
            value: json!({ A2UI_CLIENT_CAPABILITIES_PROP: self.capabilities() }).to_string(),
        }
    }

    /// The `forwardedProps` member advertising [`Self::capabilities`] to agent code.
    pub fn capabilities_forwarded_props(&self) -> Map<String, Value> {
        let mut props = Map::new();
        props.insert(A2UI_CLIENT_CAPABILITIES_PROP.to_owned(), self.capabilities());
        props
    }

    fn queue_for_agent(&mut self, emitted: &[ClientMessage]) {
        for message in emitted.iter().filter(|m| matches!(m, ClientMessage::Error(_))) {
            if self.pending.errors.len() < self.limits.max_pending_errors {
                self.pending.errors.push(message.clone());
            } else {
                self.pending.omitted += 1;
            }
        }
    }

    // ---- activities ----------------------------------------------------------------------------

    fn activity_index(&self, message_id: &str) -> Option<usize> {
        self.activities.iter().position(|a| a.message_id == message_id)
    }

    fn forget_activity(&mut self, message_id: &str) {
        if let Some(index) = self.activity_index(message_id) {
            self.activities.remove(index);
        }
    }

    fn activity_snapshot(&mut self, e: &ActivitySnapshot, out: &mut BridgeOutcome) {
        if e.activity_type != A2UI_ACTIVITY_TYPE {
            // The message stopped being A2UI; its surfaces stay.
            self.forget_activity(&e.message_id);
            return;
        }
        if e.replace == Some(false) && self.activity_index(&e.message_id).is_some() {
            return;
        }
        self.feed_activity(&e.message_id, Value::Object(e.content.clone()), out, Feed::Apply);
    }

    fn activity_delta(&mut self, e: &ActivityDelta, out: &mut BridgeOutcome) {
        if e.activity_type != A2UI_ACTIVITY_TYPE {
            self.forget_activity(&e.message_id);
            return;
        }
        let base = self.activity_index(&e.message_id).and_then(|i| self.activities[i].content.as_ref());
        let Some(base) = base else {
            out.fail("", BridgeError::UnknownActivity(e.message_id.clone()));
            return;
        };
        let mut content = base.clone();
        let bounds = PatchBounds { max_weight: self.limits.max_content_bytes, max_depth: 64 };
        if let Err(err) = apply_patch_within(&mut content, &e.patch, bounds) {
            out.fail("", BridgeError::PatchNotApplied { message_id: e.message_id.clone(), reason: err.to_string() });
            return;
        }
        self.feed_activity(&e.message_id, content, out, Feed::Apply);
    }

    /// Applies (or adopts) what `content` lists beyond what this activity already applied.
    fn feed_activity(&mut self, message_id: &str, content: Value, out: &mut BridgeOutcome, feed: Feed) {
        let mut tracked = match self.activity_index(message_id).and_then(|i| self.activities.remove(i)) {
            Some(tracked) => tracked,
            None => TrackedActivity {
                message_id: message_id.to_owned(),
                content: None,
                applied: Vec::new(),
                surfaces: Vec::new(),
            },
        };
        match operations_in_content(&content) {
            Err(error) => out.fail("", error),
            Ok(ops) if ops.len() > self.limits.max_operations_per_activity => {
                let error = BridgeError::LimitExceeded {
                    what: "operations in one activity",
                    limit: self.limits.max_operations_per_activity,
                    actual: ops.len(),
                };
                out.fail(&first_surface_hint(ops), error);
            }
            Ok(ops) => {
                if tracked.content.is_none() {
                    self.inherit_tool_result(&mut tracked, ops);
                }
                let fingerprints: Vec<u64> = ops.iter().map(fingerprint).collect();
                let start = common_prefix(&tracked.applied, &fingerprints);
                let rewritten = tracked.applied.len().saturating_sub(start);
                self.feed_operations(&ops[start..], rewritten, &mut tracked.surfaces, out, feed);
                tracked.applied = fingerprints;
            }
        }
        tracked.content = Some(content);
        if self.activities.len() >= self.limits.max_activities {
            self.activities.pop_front();
        }
        if self.limits.max_activities > 0 {
            self.activities.push_back(tracked);
        }
    }

    /// A new activity the middleware made from a tool result starts from that result's
    /// operations (for the surfaces the activity names), so they are not applied twice.
    fn inherit_tool_result(&self, tracked: &mut TrackedActivity, ops: &[Value]) {
        let Some(record) = self.tool_results.iter().rev().find(|r| {
            tracked.message_id.len() > r.tool_call_id.len()
                && tracked.message_id.ends_with(&r.tool_call_id)
                && tracked.message_id[..tracked.message_id.len() - r.tool_call_id.len()].ends_with('-')
        }) else {
            return;
        };
        let named: Vec<Option<String>> = ops.iter().map(operation_surface_id).collect();
        tracked.applied =
            record.operations.iter().filter(|(_, surface)| named.contains(surface)).map(|(fp, _)| *fp).collect();
        tracked.surfaces = record
            .surfaces
            .iter()
            .filter(|s| named.iter().any(|n| n.as_deref() == Some(s.as_str())))
            .cloned()
            .collect();
    }

    fn feed_operations(
        &mut self,
        ops: &[Value],
        rewritten: usize,
        owned: &mut Vec<String>,
        out: &mut BridgeOutcome,
        feed: Feed,
    ) {
        match feed {
            Feed::Apply => self.apply_operations(ops, rewritten, owned, out),
            Feed::Adopt => self.adopt_operations(ops, owned),
        }
    }

    /// What [`Self::apply_operations`] records in `owned`, without applying anything: the
    /// surfaces `ops` create that exist in the group. One that another carrier created first is
    /// owned here too (applying would have refused its creation); that only spares a rewrite of
    /// this carrier a `SURFACE_EXISTS`.
    fn adopt_operations(&self, ops: &[Value], owned: &mut Vec<String>) {
        owned.retain(|s| self.group.surface(s).is_some());
        // Applying them would have applied none.
        if ops.len() > self.limits.max_operations_per_event {
            return;
        }
        for id in ops.iter().flat_map(created_surface_ids) {
            if self.group.surface(id).is_some() && !owned.iter().any(|s| s == id) {
                owned.push(id.to_owned());
            }
        }
    }

    /// Applies `ops` in order. The first `rewritten` of them replace operations applied before:
    /// among those, a create for a surface `owned` already holds is skipped.
    fn apply_operations(&mut self, ops: &[Value], rewritten: usize, owned: &mut Vec<String>, out: &mut BridgeOutcome) {
        if ops.len() > self.limits.max_operations_per_event {
            let error = BridgeError::LimitExceeded {
                what: "A2UI operations in one event",
                limit: self.limits.max_operations_per_event,
                actual: ops.len(),
            };
            out.fail(&first_surface_hint(ops), error);
            return;
        }
        for (i, op) in ops.iter().enumerate() {
            if i < rewritten && self.recreates_owned_surface(op, owned) {
                continue;
            }
            let outcome = self.group.process_value(op);
            for event in &outcome.events {
                if let SurfaceEvent::Created { surface_id, .. } = event {
                    owned.retain(|s| self.group.surface(s).is_some());
                    if !owned.contains(surface_id) {
                        owned.push(surface_id.clone());
                    }
                }
            }
            out.absorb(outcome);
        }
    }

    fn recreates_owned_surface(&self, op: &Value, owned: &[String]) -> bool {
        created_surface_ids(op).any(|id| owned.iter().any(|s| s == id) && self.group.surface(id).is_some())
    }

    // ---- tool results, CUSTOM, RAW, history ------------------------------------------------------

    fn tool_result(&mut self, tool_call_id: &str, body: Body<'_>, out: &mut BridgeOutcome, feed: Feed) {
        if self.tool_results.iter().any(|r| r.tool_call_id == tool_call_id) {
            return;
        }
        let found = match body {
            Body::Text(text) => self.operations_in_text(text, "TOOL_CALL_RESULT"),
            Body::Parts(parts) => self.operations_in_parts(parts),
        };
        let ops = match found {
            Ok(None) => return,
            Ok(Some(ops)) => ops,
            Err(error) => {
                out.fail("", error);
                Vec::new()
            }
        };
        let mut record =
            ToolResultRecord { tool_call_id: tool_call_id.to_owned(), operations: Vec::new(), surfaces: Vec::new() };
        if ops.len() <= self.limits.max_operations_per_event {
            record.operations = ops.iter().map(|op| (fingerprint(op), operation_surface_id(op))).collect();
        }
        self.feed_operations(&ops, 0, &mut record.surfaces, out, feed);
        if self.tool_results.len() >= self.limits.max_tool_results {
            self.tool_results.pop_front();
        }
        if self.limits.max_tool_results > 0 {
            self.tool_results.push_back(record);
        }
    }

    /// Text parts joined (one JSON document split across parts), else each part on its own.
    fn operations_in_parts(&self, parts: &[ContentPart]) -> Result<Option<Vec<Value>>, BridgeError> {
        let texts: Vec<&str> = parts
            .iter()
            .filter_map(|p| match p {
                ContentPart::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect();
        let total: usize = texts.iter().map(|t| t.len()).sum();
        if total > self.limits.max_payload_bytes {
            return self.oversized(total, texts.iter().any(|t| mentions_a2ui(t)));
        }
        if let Some(ops) = self.operations_in_text(&texts.concat(), "TOOL_CALL_RESULT")? {
            return Ok(Some(ops));
        }
        if texts.len() < 2 {
            return Ok(None);
        }
        let mut all: Option<Vec<Value>> = None;
        for text in texts {
            if let Some(ops) = self.operations_in_text(text, "TOOL_CALL_RESULT")? {
                all.get_or_insert_with(Vec::new).extend(ops);
            }
        }
        Ok(all)
    }

    fn oversized(&self, size: usize, claims_a2ui: bool) -> Result<Option<Vec<Value>>, BridgeError> {
        if claims_a2ui {
            Err(BridgeError::LimitExceeded {
                what: "A2UI payload bytes",
                limit: self.limits.max_payload_bytes,
                actual: size,
            })
        } else {
            Ok(None)
        }
    }

    /// The operations in a text that may be JSON, JSON encoded twice, or no JSON at all.
    /// `Ok(None)`: not A2UI. Text that mentions `a2ui_operations` but does not parse is an error.
    fn operations_in_text(&self, text: &str, carrier: &'static str) -> Result<Option<Vec<Value>>, BridgeError> {
        let text = text.trim();
        if text.len() > self.limits.max_payload_bytes {
            return self.oversized(text.len(), mentions_a2ui(text));
        }
        // Most tool output is not A2UI: skip parsing text that names no A2UI key at all.
        if !mentions_any_a2ui_key(text) {
            return Ok(None);
        }
        let Some(value) = parse_json_like(text, carrier)? else { return Ok(None) };
        let value = match value {
            // Encoded twice: a JSON string holding the JSON.
            Value::String(inner) => match parse_json_like(inner.trim(), carrier)? {
                Some(Value::String(_)) | None => return Ok(None),
                Some(v) => v,
            },
            other => other,
        };
        operations_in_payload(value, carrier)
    }

    fn custom(&mut self, value: &Value, out: &mut BridgeOutcome) {
        let carrier = "CUSTOM a2ui";
        let found = match value {
            Value::String(text) => self.operations_in_text(text, carrier),
            other => operations_in_payload(other.clone(), carrier),
        };
        match found {
            Ok(Some(ops)) => self.apply_operations(&ops, 0, &mut Vec::new(), out),
            Ok(None) => out.fail(
                "",
                BridgeError::Malformed {
                    carrier,
                    message: "value is not an A2UI message, a list of them or an a2ui_operations container".into(),
                },
            ),
            Err(error) => out.fail("", error),
        }
    }

    fn raw(&mut self, event: &Value, out: &mut BridgeOutcome) {
        let carrier = "RAW";
        let found = match event {
            Value::String(text) => self.operations_in_text(text, carrier),
            // Provider-native events can be large: look before cloning.
            Value::Object(_) | Value::Array(_) if looks_like_a2ui(event) => {
                operations_in_payload(event.clone(), carrier)
            }
            _ => Ok(None),
        };
        match found {
            Ok(Some(ops)) => self.apply_operations(&ops, 0, &mut Vec::new(), out),
            Ok(None) => {}
            Err(error) => out.fail("", error),
        }
    }

    fn messages_snapshot(&mut self, messages: &[Message], out: &mut BridgeOutcome, feed: Feed) {
        for message in messages {
            match (message.role, &message.content) {
                (Role::Activity, Some(MessageContent::Object(content)))
                    if message.activity_type.as_deref() == Some(A2UI_ACTIVITY_TYPE) =>
                {
                    self.feed_activity(&message.id, Value::Object(content.clone()), out, feed);
                }
                (Role::Tool, Some(content)) => {
                    let Some(tool_call_id) = message.tool_call_id.as_deref() else { continue };
                    let body = match content {
                        MessageContent::Text(text) => Body::Text(text),
                        MessageContent::Parts(parts) => Body::Parts(parts),
                        MessageContent::Object(_) => continue,
                    };
                    self.tool_result(tool_call_id, body, out, feed);
                }
                _ => {}
            }
        }
    }
}

/// A tool result body.
#[derive(Clone, Copy)]
enum Body<'a> {
    Text(&'a str),
    Parts(&'a [ContentPart]),
}

fn mentions_a2ui(text: &str) -> bool {
    text.contains(A2UI_OPERATIONS_KEY)
}

fn mentions_any_a2ui_key(text: &str) -> bool {
    mentions_a2ui(text) || V09_MESSAGE_KEYS.iter().chain(V08_MESSAGE_KEYS.iter()).any(|k| text.contains(k))
}

/// What [`operations_in_payload`] would accept or report, without taking the value apart.
fn looks_like_a2ui(value: &Value) -> bool {
    match value {
        Value::Object(obj) => obj.contains_key(A2UI_OPERATIONS_KEY) || is_envelope(obj),
        Value::Array(items) => !items.is_empty() && items.iter().all(|i| i.as_object().is_some_and(is_envelope)),
        _ => false,
    }
}

/// Parses text that looks like JSON (object, array or string). `Ok(None)` for text that does not
/// look like JSON or does not parse, unless it mentions `a2ui_operations`.
fn parse_json_like(text: &str, carrier: &'static str) -> Result<Option<Value>, BridgeError> {
    if !text.starts_with(['{', '[', '"']) {
        return Ok(None);
    }
    match serde_json::from_str(text) {
        Ok(value) => Ok(Some(value)),
        Err(e) if mentions_a2ui(text) => Err(BridgeError::Malformed { carrier, message: e.to_string() }),
        Err(_) => Ok(None),
    }
}

/// The operations a parsed payload holds: an `a2ui_operations` container, one envelope, or a
/// non-empty array of envelopes. `Ok(None)`: not A2UI.
fn operations_in_payload(value: Value, carrier: &'static str) -> Result<Option<Vec<Value>>, BridgeError> {
    match value {
        Value::Object(mut obj) => match obj.shift_remove(A2UI_OPERATIONS_KEY) {
            Some(Value::Array(ops)) => Ok(Some(ops)),
            Some(_) => Err(BridgeError::OperationsNotAList { carrier }),
            None if is_envelope(&obj) => Ok(Some(vec![Value::Object(obj)])),
            None => Ok(None),
        },
        Value::Array(items) if !items.is_empty() && items.iter().all(|i| i.as_object().is_some_and(is_envelope)) => {
            Ok(Some(items))
        }
        _ => Ok(None),
    }
}

/// An object carrying an A2UI message key (v0.9 or v0.8) whose body is an object. The engine
/// validates the rest (version, single key, fields) and reports what is wrong.
fn is_envelope(obj: &Map<String, Value>) -> bool {
    V09_MESSAGE_KEYS.iter().chain(V08_MESSAGE_KEYS.iter()).any(|k| obj.get(*k).is_some_and(Value::is_object))
}

/// The operation list of activity content (empty for a lifecycle placeholder).
fn operations_in_content(content: &Value) -> Result<&[Value], BridgeError> {
    let carrier = "a2ui-surface activity";
    let Some(obj) = content.as_object() else {
        return Err(BridgeError::Malformed { carrier, message: "content must be an object".into() });
    };
    match obj.get(A2UI_OPERATIONS_KEY) {
        Some(Value::Array(ops)) => Ok(ops),
        Some(_) => Err(BridgeError::OperationsNotAList { carrier }),
        None => match obj.get(LEGACY_OPERATIONS_KEY) {
            Some(Value::Array(ops)) => Ok(ops),
            _ => Ok(&[]),
        },
    }
}

fn operation_surface_id(op: &Value) -> Option<String> {
    let obj = op.as_object()?;
    V09_MESSAGE_KEYS
        .iter()
        .chain(V08_MESSAGE_KEYS.iter())
        .find_map(|k| obj.get(*k)?.get("surfaceId")?.as_str())
        .map(str::to_owned)
}

/// The surfaces an operation creates (`createSurface` or `beginRendering`; at most one in a
/// valid envelope).
fn created_surface_ids(op: &Value) -> impl Iterator<Item = &str> {
    let obj = op.as_object();
    CREATE_KEYS.iter().filter_map(move |k| obj?.get(*k)?.get("surfaceId")?.as_str())
}

fn first_surface_hint(ops: &[Value]) -> String {
    ops.iter().find_map(operation_surface_id).unwrap_or_default()
}

/// A 64-bit fingerprint of an operation's serialized form. Same process only (`DefaultHasher`
/// may change between builds), so never persisted: [`A2uiBridge::adopt_history`] recomputes
/// them for a restored conversation.
fn fingerprint(op: &Value) -> u64 {
    struct HashWriter<'a>(&'a mut DefaultHasher);
    impl std::io::Write for HashWriter<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hasher = DefaultHasher::new();
    // Serializing a `Value` into a writer that never fails cannot fail.
    let _ = serde_json::to_writer(HashWriter(&mut hasher), op);
    hasher.finish()
}

fn common_prefix(a: &[u64], b: &[u64]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_follow_content() {
        let a = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}});
        let b = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "t"}});
        assert_eq!(fingerprint(&a), fingerprint(&a.clone()));
        assert_ne!(fingerprint(&a), fingerprint(&b));
        assert_eq!(common_prefix(&[1, 2, 3], &[1, 2, 4, 5]), 2);
        assert_eq!(common_prefix(&[1, 2], &[1, 2, 3]), 2);
        assert_eq!(common_prefix(&[], &[1]), 0);
    }

    #[test]
    fn payload_shapes() {
        let envelope = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}});
        let c = "test";
        assert_eq!(operations_in_payload(envelope.clone(), c).unwrap(), Some(vec![envelope.clone()]));
        assert_eq!(operations_in_payload(json!([envelope.clone()]), c).unwrap(), Some(vec![envelope.clone()]));
        assert_eq!(
            operations_in_payload(json!({"a2ui_operations": [envelope.clone()]}), c).unwrap(),
            Some(vec![envelope.clone()])
        );
        assert_eq!(
            operations_in_payload(json!({"a2ui_operations": {}}), c),
            Err(BridgeError::OperationsNotAList { carrier: c })
        );
        // Ordinary tool output is not A2UI.
        assert_eq!(operations_in_payload(json!({"temperature": 21}), c).unwrap(), None);
        assert_eq!(operations_in_payload(json!([]), c).unwrap(), None);
        assert_eq!(operations_in_payload(json!([envelope, {"x": 1}]), c).unwrap(), None);
        assert_eq!(operations_in_payload(json!({"createSurface": "no"}), c).unwrap(), None);
    }

    #[test]
    fn text_that_is_not_json_is_not_a2ui() {
        let bridge = A2uiBridge::default();
        assert_eq!(bridge.operations_in_text("sunny, 21 degrees", "t").unwrap(), None);
        assert_eq!(bridge.operations_in_text("{not json", "t").unwrap(), None);
        assert_eq!(bridge.operations_in_text("\"just a string\"", "t").unwrap(), None);
        assert!(matches!(
            bridge.operations_in_text("{\"a2ui_operations\": [", "t"),
            Err(BridgeError::Malformed { carrier: "t", .. })
        ));
    }

    /// Adoption records what applying would have (content, fingerprints, tool-result
    /// operations) but owns only surfaces the group has, and applies and reports nothing.
    #[test]
    fn adopted_history_owns_only_surfaces_that_exist() {
        let catalog = agentui_a2ui::catalog::BASIC_CATALOG_ID;
        let create = |id: &str| json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": catalog}});
        let mut bridge = A2uiBridge::default();
        assert!(bridge.group_mut().restore_surface(vec![create("kept")]).unwrap().emitted.is_empty());
        let ops = json!({"a2ui_operations": [create("kept"), create("gone")]});
        let mut activity = Message::new("a2ui-surface-a", Role::Activity);
        activity.activity_type = Some(A2UI_ACTIVITY_TYPE.to_owned());
        activity.content = Some(MessageContent::Object(ops.as_object().unwrap().clone()));
        let mut tool = Message::new("t", Role::Tool);
        tool.tool_call_id = Some("call".to_owned());
        tool.content = Some(MessageContent::Text(ops.to_string()));

        bridge.adopt_history(&[activity, tool]);
        assert_eq!(bridge.group().surfaces().map(|s| s.id()).collect::<Vec<_>>(), ["kept"]);
        let tracked = &bridge.activities[0];
        assert_eq!((tracked.content.as_ref(), tracked.applied.len()), (Some(&ops), 2));
        assert_eq!(tracked.surfaces, ["kept"]);
        assert_eq!(bridge.tool_results[0].operations.len(), 2);
        assert_eq!(bridge.tool_results[0].surfaces, ["kept"]);
        assert!(bridge.take_pending_for_agent().is_empty());
    }

    #[test]
    fn errors_map_to_agent_codes() {
        let limit = BridgeError::LimitExceeded { what: "x", limit: 1, actual: 2 };
        assert_eq!(limit.to_a2ui().code(), "LIMIT_EXCEEDED");
        let list = BridgeError::OperationsNotAList { carrier: "c" }.to_a2ui();
        assert_eq!((list.code(), list.path()), ("VALIDATION_FAILED", Some("/a2ui_operations")));
        assert_eq!(BridgeError::UnknownActivity("m".into()).to_a2ui().code(), "MALFORMED_MESSAGE");
    }
}
