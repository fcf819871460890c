//! What a conversation shows its observers: a snapshot, then deltas.
//!
//! The runtime is the one owner of a conversation's observable state. A subscriber first gets a
//! [`Observed::Snapshot`], then every change as a small [`ConversationDelta`], in the order the
//! changes happened. Deltas carry what changed, never the whole: streamed text is the appended
//! piece, state is the JSON Patch that was applied. Each subscriber's queue is bounded; one that
//! falls behind loses its queued deltas and gets a fresh snapshot instead, so a slow UI costs a
//! re-render, never unbounded memory.
//!
//! Surfaces are observed one by one ([`SurfaceSubscription`](crate::SurfaceSubscription)): a `Reset`, then `Patch`es, under
//! the same rule.

//!
//! Every type observers see is defined here, and this module uses nothing else of the crate:
//! the session, the model, the view feed and the store all speak this vocabulary, so none of
//! them needs another to name what changed.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use agentui_a2ui::node::ResolvedNode;
use agentui_a2ui::SurfaceDiff;
use agentui_agui::error::WarningKind;
use agentui_agui::event::PatchOperation;
use agentui_agui::message::{Interrupt, RunOutcome};
use agentui_agui::reducer::LocalOnly;
use agentui_agui::Message;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where the session's current (or last) run stands.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum RunPhase {
    #[default]
    Idle,
    /// The request is being sent.
    Starting { run_id: String },
    /// `RUN_STARTED` arrived (with the producer's run id).
    Running { run_id: String },
    /// `RUN_FINISHED` arrived and no client follow-up is due.
    Finished { run_id: String, outcome: Option<RunOutcome> },
    /// The run finished with an interrupt outcome: answer the interrupts, then continue.
    Interrupted { run_id: String, interrupts: Vec<Interrupt> },
    /// The agent reported `RUN_ERROR`.
    AgentError { message: String, code: Option<String> },
    /// The exchange failed on the client's side (network, protocol, truncation).
    Failed { error: String },
    /// The client cancelled the run.
    Cancelled,
    /// The app stopped while this run was open; it was restored from a store. Nothing of it is
    /// replayed (no tool runs again, no request is re-sent): the user may send again, or
    /// `continue_run` to ask the agent to go on.
    Abandoned { run_id: Option<String> },
}

/// How far one tool call has got. "Requested" (the agent asked) and "Succeeded" (the client
/// confirmed it ran) are distinct states (lesson 1).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ToolCallPhase {
    /// Arguments are streaming.
    Streaming,
    /// The agent asked for the call; nothing has run yet.
    Requested,
    /// The client's handler is running.
    Running,
    /// The handler finished; `result` is the text sent back to the agent.
    Succeeded { result: String },
    /// The call failed or was refused; an error result goes back to the agent.
    Failed { failure: ToolFailure },
    /// The server answered the call (a server-side tool).
    CompletedByServer,
    /// Not run: a duplicate or replay of a call the client already took (`reason` says which).
    Skipped { reason: String },
    /// A call to a tool this client did not declare in the run's input: it belongs to the
    /// server (a server-side, long-running or confirmation-gated tool). The client shows it and
    /// never answers it; the server may answer it in a later run.
    OwnedByServer,
    /// The call is named by a pending interrupt: it is answered only through the interrupt's
    /// resume, never with a tool message.
    AwaitingInterrupt { interrupt_id: String },
    /// A call of a tool registered with `Consent::Ask` waits for the user's answer (its
    /// `ConsentRequest`); nothing has run yet.
    AwaitingConsent,
}

/// A change of one tool call's phase.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ToolCallUpdate {
    pub tool_call_id: String,
    pub tool_name: String,
    pub phase: ToolCallPhase,
}

/// What a [`SessionWarning`] is about, so applications filter without parsing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum SessionWarningKind {
    /// A warning from the protocol pipeline (dropped event, patch not applied...).
    Protocol(WarningKind),
    /// A call neither the client registry nor a server result resolved by the end of the run.
    UnresolvedToolCall,
    /// A `TOOL_CALL_RESULT` whose `toolCallId` matches no call.
    UnmatchedToolResult,
    /// A call id the client already took arrived again; it was not run.
    DuplicateToolCall,
    /// The server answered a call the client executes; the client's result replaces it.
    ServerAnsweredClientTool,
    /// The automatic follow-up runs reached their bound.
    FollowUpLimit,
    /// Events after the run's end were received and ignored.
    IgnoredAfterRunEnd,
    /// Interrupts left unanswered when the next run started.
    UnansweredInterrupt,
    /// Something was lost adapting the input to an older peer.
    InputDowngrade,
    /// A2UI material the engine could not take (also reported to the agent on the next run).
    A2ui,
    /// A message stays on this device and is not sent back to the agent (an orphan tool result,
    /// a message cut short by a cancel).
    KeptLocal,
    /// A client tool's result was not sent because an interrupt names its call.
    AnsweredByInterrupt,
    /// The on-device store could not write. The conversation goes on in memory and the
    /// changes are written at the next write that succeeds.
    Store,
    /// A message or action waiting for the agent could not be delivered and was dropped (the
    /// agent answered with an error that a retry would not change).
    Undelivered,
    /// The run's stream broke and was resumed from its last event id: nothing was lost.
    StreamResumed,
    /// The platform layer's view of the conversation stopped on an internal error of this
    /// library: its state no longer changes and its phase shows `Failed`. Sent by the Kotlin and
    /// Swift layers, never by the core; open the conversation again to go on.
    ViewFailed,
}

/// A non-fatal observation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SessionWarning {
    pub kind: SessionWarningKind,
    pub message: String,
}

/// Why a client tool call produced an error result. The `Display` text is what the agent reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
// Display crosses too: the bindings show the text the agent reads (Kotlin toString, Swift description).
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum), uniffi::export(Display))]
pub enum ToolFailure {
    /// No tool of that name is registered here and no server result answered the call.
    NotRegistered {
        name: String,
    },
    /// The client's [`ToolPolicy`](crate::session::ToolPolicy) refused the call.
    Denied {
        reason: String,
    },
    /// The arguments were not JSON or did not satisfy the parameters schema.
    InvalidArguments {
        detail: String,
    },
    /// The handler returned an error.
    Failed {
        message: String,
    },
    TimedOut {
        after: Duration,
    },
    /// The handler panicked.
    Crashed,
    /// The run was cancelled before the call completed.
    Cancelled,
    /// The run ended before the call's arguments were complete.
    Incomplete,
    /// The user declined the call when asked for consent; nothing ran.
    Declined,
}

impl fmt::Display for ToolFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolFailure::NotRegistered { name } => write!(f, "tool '{name}' is not registered on this client"),
            ToolFailure::Denied { reason } => write!(f, "the client refused to run this call: {reason}"),
            ToolFailure::InvalidArguments { detail } => write!(f, "invalid arguments: {detail}"),
            ToolFailure::Failed { message } => write!(f, "the tool failed: {message}"),
            ToolFailure::TimedOut { after } => write!(f, "the tool did not finish within {} ms", after.as_millis()),
            ToolFailure::Crashed => f.write_str("the tool crashed"),
            ToolFailure::Cancelled => f.write_str("the run was cancelled before this call completed"),
            ToolFailure::Incomplete => f.write_str("the run ended before this call's arguments were complete"),
            // The agent reads what it read when a decline was a refusal: the same words.
            ToolFailure::Declined => {
                write!(f, "the client refused to run this call: {}", crate::session::DECLINED_BY_USER)
            }
        }
    }
}

/// What a pending entry delivers, as observers see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum PendingSendKind {
    /// A user message; `text` is its text (empty for content parts).
    Message { message_id: String, text: String },
    /// A user action on a surface node.
    Action { surface_id: String, action_name: String },
}

/// A message or action the agent has not received yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct PendingSend {
    /// The idempotency key every attempt carries.
    pub key: String,
    pub kind: PendingSendKind,
    /// Attempts that could not reach the agent.
    pub attempts: u32,
    pub last_error: Option<String>,
    /// What it waits for. (Stored rows from before it existed read as `Unreached`.)
    #[serde(default)]
    pub reason: PendingReason,
}

/// Why a [`PendingSend`] waits, for a UI to say so ("offline" or "sign in again").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum PendingReason {
    /// Not tried yet, or the agent could not be reached: it is sent again on its own, when the
    /// network is back or on a timer.
    #[default]
    Unreached,
    /// The agent refused the credentials (HTTP 401): not sent again on its own, since the same
    /// credentials would fail again. It goes with the app's `retry_pending` (after signing in
    /// again) or with the next message sent.
    Unauthorized,
}

/// One surface's resolved tree at one point of the sequence.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SurfaceSnapshot {
    pub surface_id: String,
    pub catalog_id: String,
    pub root: Option<String>,
    /// Depth-first from the root.
    pub nodes: Vec<Arc<ResolvedNode>>,
}

/// A surface the agent created, as the conversation lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SurfaceEntry {
    pub surface_id: String,
    pub catalog_id: String,
}

/// A message that stays on this device, and why. Stored as the pair `[message_id, reason]`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "(String, LocalOnly)", into = "(String, LocalOnly)")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct KeptLocal {
    pub message_id: String,
    pub reason: LocalOnly,
}

impl From<(String, LocalOnly)> for KeptLocal {
    fn from((message_id, reason): (String, LocalOnly)) -> Self {
        KeptLocal { message_id, reason }
    }
}

impl From<KeptLocal> for (String, LocalOnly) {
    fn from(k: KeptLocal) -> Self {
        (k.message_id, k.reason)
    }
}

/// The whole observable state of a conversation at one point of its sequence. (Serde: replays
/// and the shared adapter cases; an omitted field is empty.)
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ConversationSnapshot {
    pub thread_id: String,
    pub messages: Vec<Message>,
    /// The shared state (`Value::Null` before the agent sent any).
    pub state: Value,
    pub phase: RunPhase,
    /// The last phase of every tool call of the conversation, in the order the calls started.
    pub tool_calls: Vec<ToolCallUpdate>,
    pub pending_interrupts: Vec<Interrupt>,
    pub surfaces: Vec<SurfaceEntry>,
    /// Messages that stay on this device, in the order they were marked: a UI shows a
    /// `Cancelled` one as cut short, never as a finished answer.
    pub kept_local: Vec<KeptLocal>,
    /// Messages and actions the agent has not received yet, oldest first (see
    /// [`crate::session::outbox`]).
    pub pending_sends: Vec<PendingSend>,
    /// The steps of the current run that started and have not finished, outermost first.
    pub active_steps: Vec<String>,
    /// Calls to tools registered with `Consent::Ask` that wait for the user's answer, oldest
    /// first.
    pub consent_requests: Vec<ConsentRequest>,
    /// Tools the user allowed for the rest of the conversation (`ConsentAnswer::AllowAlways`).
    pub consent_grants: Vec<String>,
}

/// A call of a tool registered with `Consent::Ask` that waits for the user: its handler has not
/// run and does not run until the app answers (`Conversation::answer_consent`). Its tool call
/// stays `ToolCallPhase::Requested` meanwhile.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ConsentRequest {
    pub tool_call_id: String,
    pub tool_name: String,
    /// The call's arguments, already checked against the tool's parameters schema.
    pub arguments: Value,
    /// When the call was put to the user, in milliseconds since the Unix epoch.
    pub asked_at_ms: u64,
}

/// The user's answer to a [`ConsentRequest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ConsentAnswer {
    /// Run this call.
    AllowOnce,
    /// Run this call, and every later call of the same tool in this conversation at once.
    AllowAlways,
    /// Do not run it: the agent gets a result that says the user declined.
    Decline,
}

/// Most bytes one streamed piece grows to by joining the pieces queued after it. A subscriber that
/// reads less often than the agent streams then gets fewer, longer pieces (each costs a lift
/// across the FFI and an apply on the main thread), and its queue lasts longer before a resync.
pub const ABSORB_LIMIT: usize = 16 * 1024;

/// One change of a conversation's observable state.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ConversationDelta {
    /// A message was appended to the list.
    MessageAdded(Message),
    /// Text (or reasoning text) streamed onto message `message_id`: only the new piece. Pieces
    /// still queued for a subscriber when the next one streams arrive joined, up to
    /// [`ABSORB_LIMIT`] bytes.
    TextAppended {
        message_id: String,
        delta: String,
    },
    /// Arguments streamed onto tool call `tool_call_id` of message `message_id`: only the new
    /// piece (joined like [`ConversationDelta::TextAppended`]'s).
    ToolCallArgsAppended {
        message_id: String,
        tool_call_id: String,
        delta: String,
    },
    /// A message changed in some other way (a tool call added, activity content, a result); the
    /// message as it now is.
    MessageReplaced(Message),
    /// The whole list was replaced (a `MESSAGES_SNAPSHOT`, an input echo, a restore). It clears
    /// every kept-local mark; a `MessageKeptLocal` follows for each message still kept. The
    /// session queues no copy of the list: a subscriber gets it as the conversation holds it when
    /// the reset is read, and the message changes queued after the reset, which that list holds
    /// already, are not delivered again (the other changes keep their places).
    MessagesReset(Vec<Message>),
    /// Message `message_id` stays on this device and is not sent back to the agent.
    MessageKeptLocal {
        message_id: String,
        reason: LocalOnly,
    },
    /// The JSON Patch that was applied to the state. Subscribers get it as `add`, `replace` and
    /// `remove` only: `move`, `copy` and `test` are spelled out with their values (or, when that
    /// would weigh more than the state, sent as a `StateReplaced`).
    StatePatched(Vec<PatchOperation>),
    /// The state was replaced (a `STATE_SNAPSHOT`, the app's own write).
    StateReplaced(Value),
    /// A state delta could not apply; the state is kept and the next run resynchronises.
    StateResyncNeeded {
        reason: String,
    },
    RunPhase(RunPhase),
    ToolCall(ToolCallUpdate),
    /// The pending interrupts changed (a run ended with some, the app answered one).
    Interrupts(Vec<Interrupt>),
    /// The consent requests or the grants changed (a call was put to the user, the user
    /// answered): both lists, whole.
    Consent {
        requests: Vec<ConsentRequest>,
        granted_tools: Vec<String>,
    },
    SurfaceAdded(SurfaceEntry),
    SurfaceRemoved {
        surface_id: String,
    },
    Warning(SessionWarning),
    /// A `CUSTOM` event, as it came.
    Custom {
        name: String,
        value: Value,
    },
    /// A `RAW` event, as it came.
    Raw {
        event: Value,
        source: Option<String>,
    },
    /// The messages and actions waiting for the agent, all of them, oldest first.
    PendingSends(Vec<PendingSend>),
    /// A `STEP_STARTED` (`started`) or `STEP_FINISHED` event.
    Step {
        name: String,
        started: bool,
    },
}

/// What a [`Subscription`](crate::Subscription) yields.
// Deltas are the hot path: boxing each would cost an allocation per streamed piece, while the
// rare, large snapshot is boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum Observed {
    /// The whole state: first, and again whenever this subscriber fell behind.
    Snapshot(Box<ConversationSnapshot>),
    Delta(ConversationDelta),
}

/// What a [`SurfaceSubscription`](crate::SurfaceSubscription) yields: first a `Reset`, then `Patch`es (a `Reset` again after
/// falling behind; an empty `Reset` when the agent deleted the surface).
pub type SurfaceUpdate = SurfaceDiff;

impl fmt::Display for ConversationDelta {
    // One line per delta, for logs and the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => {
                write!(f, "message {} ({}): {}", m.id, m.role.as_str(), m.text().unwrap_or("<non-text>"))
            }
            ConversationDelta::TextAppended { message_id, delta } => write!(f, "message {message_id} += {delta:?}"),
            ConversationDelta::ToolCallArgsAppended { tool_call_id, delta, .. } => {
                write!(f, "tool call {tool_call_id} arguments += {delta:?}")
            }
            ConversationDelta::MessagesReset(ms) => write!(f, "messages reset: {} messages", ms.len()),
            ConversationDelta::MessageKeptLocal { message_id, reason } => {
                write!(f, "message {message_id} kept local ({reason:?})")
            }
            ConversationDelta::StatePatched(ops) => write!(f, "state patched: {} operations", ops.len()),
            ConversationDelta::StateReplaced(s) => write!(f, "state: {s}"),
            ConversationDelta::StateResyncNeeded { reason } => write!(f, "state resync needed: {reason}"),
            ConversationDelta::RunPhase(p) => write!(f, "run: {p:?}"),
            ConversationDelta::ToolCall(t) => {
                write!(f, "tool call {} ({}): {:?}", t.tool_call_id, t.tool_name, t.phase)
            }
            ConversationDelta::Interrupts(is) => write!(f, "pending interrupts: {}", is.len()),
            ConversationDelta::Consent { requests, granted_tools } => {
                write!(f, "waiting for consent: {}, granted tools: {}", requests.len(), granted_tools.join(", "))
            }
            ConversationDelta::SurfaceAdded(s) => write!(f, "surface {} created ({})", s.surface_id, s.catalog_id),
            ConversationDelta::SurfaceRemoved { surface_id } => write!(f, "surface {surface_id} deleted"),
            ConversationDelta::Warning(w) => write!(f, "warning ({:?}): {}", w.kind, w.message),
            ConversationDelta::Custom { name, value } => write!(f, "custom {name}: {value}"),
            ConversationDelta::Raw { event, source } => {
                write!(f, "raw ({}): {event}", source.as_deref().unwrap_or("unknown source"))
            }
            ConversationDelta::PendingSends(p) => write!(f, "waiting for the agent: {}", p.len()),
            ConversationDelta::Step { name, started } => {
                write!(f, "step {name} {}", if *started { "started" } else { "finished" })
            }
        }
    }
}
