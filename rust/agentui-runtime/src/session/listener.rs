//! What a session tells its observers, in the order it happened.
//!
//! Listeners are called inline, after each mutation and before the next one, so every listener
//! sees one consistent order. A panicking listener is contained: the session goes on.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, RwLock};

use agentui_a2ui::{SurfaceDiff, SurfaceEvent};

use super::executor::ToolFailure;
use super::outbox::OutboxEntry;
use crate::observe::ConversationDelta;
use agentui_agui::error::WarningKind;
use agentui_agui::message::{Interrupt, RunOutcome};

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
}

/// A non-fatal observation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct SessionWarning {
    pub kind: SessionWarningKind,
    pub message: String,
}

/// What a session tells its listeners: a change of the conversation, in the vocabulary its
/// observers see ([`ConversationDelta`]), or a change of one A2UI surface (which observers follow
/// per surface, so it is not part of the conversation's deltas).
// Not boxed: one update per streamed piece, and boxing would allocate for each.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SessionUpdate {
    Delta(ConversationDelta),
    Surface(SurfaceEvent),
    /// The messages and actions waiting for the agent changed: every entry, with what its run
    /// needs (observers see them as [`ConversationDelta::PendingSends`]; a store keeps them).
    Outbox(Vec<OutboxEntry>),
}

impl fmt::Display for SessionUpdate {
    // One line per update, for logs and the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionUpdate::Delta(delta) => delta.fmt(f),
            SessionUpdate::Surface(SurfaceEvent::Created { surface_id, catalog_id }) => {
                write!(f, "surface {surface_id} created ({catalog_id})")
            }
            SessionUpdate::Surface(SurfaceEvent::Changed { surface_id, diff }) => match diff {
                SurfaceDiff::Reset { nodes, .. } => write!(f, "surface {surface_id}: reset with {} nodes", nodes.len()),
                SurfaceDiff::Patch { upserted, removed } => {
                    write!(f, "surface {surface_id}: {} nodes changed, {} removed", upserted.len(), removed.len())
                }
            },
            SessionUpdate::Surface(SurfaceEvent::Deleted { surface_id }) => write!(f, "surface {surface_id} deleted"),
            SessionUpdate::Outbox(entries) => write!(f, "waiting for the agent: {}", entries.len()),
        }
    }
}

/// Receives session updates. Implemented for closures. Called inline on the task that applies
/// the change (a run's, or a UI thread writing input); it must not add or remove listeners.
pub trait SessionListener: Send + Sync {
    fn on_update(&self, update: &SessionUpdate);

    /// A batch of updates is complete: the events read from the stream without waiting, or one
    /// piece of input. A store writes its transaction here; the default does nothing.
    fn batch_end(&self) {}

    /// A value the user wrote into surface `surface_id` (`set_value`, on the caller's thread) is
    /// complete: its updates were told, while a batch of the run may still be open. The default
    /// is [`batch_end`](Self::batch_end); a store notes the surface for its writer instead.
    fn input_end(&self, surface_id: &str) {
        let _ = surface_id;
        self.batch_end();
    }
}

impl<F> SessionListener for F
where
    F: Fn(&SessionUpdate) + Send + Sync,
{
    fn on_update(&self, update: &SessionUpdate) {
        self(update)
    }
}

/// Identifies a registered listener for removal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListenerId(u64);

#[derive(Default)]
struct ListenerList {
    next_id: u64,
    listeners: Vec<(ListenerId, Arc<dyn SessionListener>)>,
}

/// The session's listeners, shared with the parts of it that change during a run (input is
/// applied beside the run, and its surface changes go to the same listeners).
#[derive(Default, Clone)]
pub(crate) struct Listeners {
    list: Arc<RwLock<ListenerList>>,
}

impl Listeners {
    pub fn add(&self, listener: Arc<dyn SessionListener>) -> ListenerId {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        list.next_id += 1;
        let id = ListenerId(list.next_id);
        list.listeners.push((id, listener));
        id
    }

    pub fn remove(&self, id: ListenerId) -> bool {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        let before = list.listeners.len();
        list.listeners.retain(|(i, _)| *i != id);
        before != list.listeners.len()
    }

    pub fn emit(&self, update: SessionUpdate) {
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        for (_, l) in &list.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.on_update(&update)));
        }
    }

    pub fn delta(&self, delta: ConversationDelta) {
        self.emit(SessionUpdate::Delta(delta));
    }

    pub fn batch_end(&self) {
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        for (_, l) in &list.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.batch_end()));
        }
    }

    pub fn input_end(&self, surface_id: &str) {
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        for (_, l) in &list.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.input_end(surface_id)));
        }
    }
}
