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

use std::fmt;

use agentui_a2ui::SurfaceDiff;
use agentui_agui::event::PatchOperation;
use agentui_agui::message::Interrupt;
use agentui_agui::reducer::LocalOnly;
use agentui_agui::Message;
use serde_json::Value;

use crate::session::{PendingSend, RunPhase, SessionWarning, ToolCallUpdate};

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
    /// every kept-local mark; a `MessageKeptLocal` follows for each message still kept.
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
