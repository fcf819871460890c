//! What a session tells its observers, in the order it happened.
//!
//! Listeners are called inline on the task that runs the session, after each mutation, so every
//! listener sees one consistent order. A panicking listener is contained: the session goes on.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use serde_json::Value;

use super::executor::ToolFailure;
use agentui_agui::error::WarningKind;
use agentui_agui::message::{Interrupt, Message, RunOutcome};
use agentui_agui::reducer::LocalOnly;

/// Where the session's current (or last) run stands.
#[derive(Debug, Clone, PartialEq, Default)]
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
}

/// How far one tool call has got. "Requested" (the agent asked) and "Succeeded" (the client
/// confirmed it ran) are distinct states (lesson 1).
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallUpdate {
    pub tool_call_id: String,
    pub tool_name: String,
    pub phase: ToolCallPhase,
}

/// What a [`SessionWarning`] is about, so applications filter without parsing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// User input queued while a run held the session was refused when applied.
    InputNotApplied,
    /// A message stays on this device and is not sent back to the agent (an orphan tool result,
    /// a message cut short by a cancel).
    KeptLocal,
    /// A client tool's result was not sent because an interrupt names its call.
    AnsweredByInterrupt,
}

/// A non-fatal observation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionWarning {
    pub kind: SessionWarningKind,
    pub message: String,
}

/// One observable change of the session.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionUpdate {
    RunPhase(RunPhase),
    /// A message was added or changed (streamed text, tool call arguments, a result...).
    MessageUpserted(Box<Message>),
    /// The whole message list was replaced (a `MESSAGES_SNAPSHOT` or an input echo).
    MessagesReset(Vec<Message>),
    ToolCall(ToolCallUpdate),
    StateChanged(Value),
    /// A state delta could not apply; the old state is kept and the next run resynchronises.
    StateResyncNeeded {
        reason: String,
    },
    Warning(SessionWarning),
    /// An A2UI surface was created, changed (resolved node diff) or deleted.
    Surface(agentui_a2ui::SurfaceEvent),
    /// A `CUSTOM` event: the agent's own extension (LangGraph's `on_interrupt`, ADK's
    /// `PredictState`, app-specific events). Delivered as it came; interrupts it stands for are
    /// also reported through the run phase.
    Custom {
        name: String,
        value: Value,
    },
    /// A `RAW` event: a provider-native event passed through verbatim.
    Raw {
        event: Value,
        source: Option<String>,
    },
    /// A `STEP_STARTED` (`started`) or `STEP_FINISHED` event.
    Step {
        name: String,
        started: bool,
    },
    /// Message `message_id` stays on this device and is not sent to the agent again.
    MessageKeptLocal {
        message_id: String,
        reason: LocalOnly,
    },
}

impl fmt::Display for SessionUpdate {
    // One line per update, for logs and the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionUpdate::RunPhase(p) => write!(f, "run: {p:?}"),
            SessionUpdate::MessageUpserted(m) => {
                write!(f, "message {} ({}): {}", m.id, m.role.as_str(), m.text().unwrap_or("<non-text>"))
            }
            SessionUpdate::MessagesReset(ms) => write!(f, "messages reset: {} messages", ms.len()),
            SessionUpdate::ToolCall(t) => write!(f, "tool call {} ({}): {:?}", t.tool_call_id, t.tool_name, t.phase),
            SessionUpdate::StateChanged(s) => write!(f, "state: {s}"),
            SessionUpdate::StateResyncNeeded { reason } => write!(f, "state resync needed: {reason}"),
            SessionUpdate::Warning(w) => write!(f, "warning ({:?}): {}", w.kind, w.message),
            SessionUpdate::Surface(agentui_a2ui::SurfaceEvent::Created { surface_id, catalog_id }) => {
                write!(f, "surface {surface_id} created ({catalog_id})")
            }
            SessionUpdate::Surface(agentui_a2ui::SurfaceEvent::Changed { surface_id, diff }) => match diff {
                agentui_a2ui::SurfaceDiff::Reset { nodes, .. } => {
                    write!(f, "surface {surface_id}: reset with {} nodes", nodes.len())
                }
                agentui_a2ui::SurfaceDiff::Patch { upserted, removed } => {
                    write!(f, "surface {surface_id}: {} nodes changed, {} removed", upserted.len(), removed.len())
                }
            },
            SessionUpdate::Surface(agentui_a2ui::SurfaceEvent::Deleted { surface_id }) => {
                write!(f, "surface {surface_id} deleted")
            }
            SessionUpdate::Custom { name, value } => write!(f, "custom {name}: {value}"),
            SessionUpdate::Raw { event, source } => {
                write!(f, "raw ({}): {event}", source.as_deref().unwrap_or("unknown source"))
            }
            SessionUpdate::Step { name, started } => {
                write!(f, "step {name} {}", if *started { "started" } else { "finished" })
            }
            SessionUpdate::MessageKeptLocal { message_id, reason } => {
                write!(f, "message {message_id} kept local: {reason:?}")
            }
        }
    }
}

/// Receives session updates. Implemented for closures.
pub trait SessionListener: Send + Sync {
    fn on_update(&self, update: &SessionUpdate);
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
pub(crate) struct Listeners {
    next_id: u64,
    listeners: Vec<(ListenerId, Arc<dyn SessionListener>)>,
}

impl Listeners {
    pub fn add(&mut self, listener: Arc<dyn SessionListener>) -> ListenerId {
        self.next_id += 1;
        let id = ListenerId(self.next_id);
        self.listeners.push((id, listener));
        id
    }

    pub fn remove(&mut self, id: ListenerId) -> bool {
        let before = self.listeners.len();
        self.listeners.retain(|(i, _)| *i != id);
        before != self.listeners.len()
    }

    pub fn emit(&self, update: SessionUpdate) {
        for (_, l) in &self.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.on_update(&update)));
        }
    }
}
