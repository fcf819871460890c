//! What a conversation reports: run status, tool call status, warnings, run summaries and the
//! update stream listeners receive.

use agentui_a2ui::SurfaceEvent;
use agentui_agui::error::WarningKind as ProtocolWarningKind;
use agentui_agui::message::RunOutcome as CoreOutcome;
use agentui_agui::reducer::LocalOnly;
use agentui_runtime::session::{
    ActionResult, RunPhase, RunSummary as CoreSummary, SessionUpdate, SessionWarning, SessionWarningKind,
    ToolCallPhase, ToolFailure,
};

use crate::message::{interrupts, InterruptRecord, MessageRecord};
use crate::node::SurfaceDiffRecord;

/// Why a run finished, as the agent said.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum RunOutcome {
    Success { pending_tool_call_ids: Vec<String> },
    Interrupt { interrupts: Vec<InterruptRecord> },
    Cancelled,
}

/// Where the conversation's current (or last) run stands.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum RunStatus {
    Idle,
    /// The request is being sent.
    Starting {
        run_id: String,
    },
    Running {
        run_id: String,
    },
    Finished {
        run_id: String,
        outcome: Option<RunOutcome>,
    },
    /// Answer the interrupts, then `continue_run`.
    Interrupted {
        run_id: String,
        interrupts: Vec<InterruptRecord>,
    },
    /// The agent reported `RUN_ERROR`.
    AgentError {
        detail: String,
        code: Option<String>,
    },
    /// The exchange failed on the client's side.
    Failed {
        detail: String,
    },
    Cancelled,
}

/// Why a client tool call produced an error result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ToolFailureKind {
    NotRegistered,
    Denied,
    InvalidArguments,
    HandlerFailed,
    TimedOut,
    Crashed,
    Cancelled,
    Incomplete,
}

/// How far one tool call has got. `Requested` (the agent asked) and `Succeeded` (the client
/// ran it) are different states.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ToolCallStatus {
    Streaming,
    Requested,
    Running,
    /// `result` is the text sent back to the agent.
    Succeeded {
        result: String,
    },
    /// `detail` is the error text sent back to the agent.
    Failed {
        failure: ToolFailureKind,
        detail: String,
    },
    CompletedByServer,
    /// A duplicate or replay that was not run.
    Skipped {
        reason: String,
    },
    /// A call to a tool this client did not declare: the server's (server-side, long-running
    /// or confirmation-gated). Shown, never answered by the client.
    OwnedByServer,
    /// Named by a pending interrupt: answered only through that interrupt.
    AwaitingInterrupt {
        interrupt_id: String,
    },
}

/// Why a message stays on the device and is not sent back to the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum LocalOnlyReason {
    /// A tool result that matched no tool call.
    OrphanToolResult,
    /// Cut short by a cancel: incomplete, not to be shown as complete.
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum WarningKind {
    DroppedEvent,
    Stripped,
    Compatibility,
    Version,
    PatchNotApplied,
    Skipped,
    UnresolvedToolCall,
    UnmatchedToolResult,
    DuplicateToolCall,
    ServerAnsweredClientTool,
    FollowUpLimit,
    IgnoredAfterRunEnd,
    UnansweredInterrupt,
    InputDowngrade,
    A2ui,
    /// Input written during a run (queued) was refused when the run ended.
    InputNotApplied,
    /// A message stays on this device (an orphan result, a message cut short by a cancel).
    KeptLocal,
    /// A client tool's result was not sent because an interrupt names its call.
    AnsweredByInterrupt,
}

#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct WarningRecord {
    pub kind: WarningKind,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ToolCallReport {
    pub tool_call_id: String,
    pub tool_name: String,
    /// `Succeeded` or `Failed`.
    pub status: ToolCallStatus,
}

/// The result of one `send_message`/`continue_run` and its automatic follow-up runs.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct RunSummary {
    pub thread_id: String,
    pub run_ids: Vec<String>,
    /// `Finished` or `Interrupted`.
    pub status: RunStatus,
    pub tool_calls: Vec<ToolCallReport>,
    pub pending_interrupts: Vec<InterruptRecord>,
    /// Tool results wait for `continue_run`.
    pub follow_up_limit_reached: bool,
    pub needs_resync: bool,
    pub warnings: Vec<WarningRecord>,
}

/// What a user action led to.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ActionResultRecord {
    /// The action went to the agent in a new run.
    Ran { summary: RunSummary },
    /// Open this URL (already checked against the URL policy).
    OpenUrl { url: String },
    /// A local function ran; nothing went to the agent.
    Handled,
}

/// One observable change of a conversation, in order.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ConversationUpdate {
    RunStatusChanged {
        status: RunStatus,
    },
    MessageUpserted {
        message: MessageRecord,
    },
    MessagesReset {
        messages: Vec<MessageRecord>,
    },
    ToolCall {
        tool_call_id: String,
        tool_name: String,
        status: ToolCallStatus,
    },
    StateChanged {
        json: String,
    },
    /// A state delta could not apply; the old state is kept and the next run resynchronises.
    StateResyncNeeded {
        reason: String,
    },
    Warning {
        kind: WarningKind,
        message: String,
    },
    SurfaceCreated {
        surface_id: String,
        catalog_id: String,
    },
    SurfaceDiff {
        surface_id: String,
        diff: SurfaceDiffRecord,
    },
    SurfaceDeleted {
        surface_id: String,
    },
    /// A `CUSTOM` event (e.g. LangGraph's `on_interrupt`, ADK's `PredictState`); `value_json` is
    /// its value as JSON text.
    Custom {
        name: String,
        value_json: String,
    },
    /// A `RAW` event passed through from the provider; `event_json` is the event as JSON text.
    Raw {
        event_json: String,
        source: Option<String>,
    },
    /// A step started (`started`) or finished.
    Step {
        name: String,
        started: bool,
    },
    /// The message stays on this device and is not sent to the agent again.
    MessageKeptLocal {
        message_id: String,
        reason: LocalOnlyReason,
    },
}

impl From<&CoreOutcome> for RunOutcome {
    fn from(o: &CoreOutcome) -> Self {
        match o {
            CoreOutcome::Success { pending_tool_call_ids } => {
                RunOutcome::Success { pending_tool_call_ids: pending_tool_call_ids.clone().unwrap_or_default() }
            }
            CoreOutcome::Interrupt { interrupts: list } => RunOutcome::Interrupt { interrupts: interrupts(list) },
            CoreOutcome::Cancelled => RunOutcome::Cancelled,
        }
    }
}

impl From<&RunPhase> for RunStatus {
    fn from(p: &RunPhase) -> Self {
        match p {
            RunPhase::Idle => RunStatus::Idle,
            RunPhase::Starting { run_id } => RunStatus::Starting { run_id: run_id.clone() },
            RunPhase::Running { run_id } => RunStatus::Running { run_id: run_id.clone() },
            RunPhase::Finished { run_id, outcome } => {
                RunStatus::Finished { run_id: run_id.clone(), outcome: outcome.as_ref().map(RunOutcome::from) }
            }
            RunPhase::Interrupted { run_id, interrupts: list } => {
                RunStatus::Interrupted { run_id: run_id.clone(), interrupts: interrupts(list) }
            }
            RunPhase::AgentError { message, code } => {
                RunStatus::AgentError { detail: message.clone(), code: code.clone() }
            }
            RunPhase::Failed { error } => RunStatus::Failed { detail: error.clone() },
            RunPhase::Cancelled => RunStatus::Cancelled,
        }
    }
}

fn failure_kind(f: &ToolFailure) -> ToolFailureKind {
    match f {
        ToolFailure::NotRegistered { .. } => ToolFailureKind::NotRegistered,
        ToolFailure::Denied { .. } => ToolFailureKind::Denied,
        ToolFailure::InvalidArguments { .. } => ToolFailureKind::InvalidArguments,
        ToolFailure::Failed { .. } => ToolFailureKind::HandlerFailed,
        ToolFailure::TimedOut { .. } => ToolFailureKind::TimedOut,
        ToolFailure::Crashed => ToolFailureKind::Crashed,
        ToolFailure::Cancelled => ToolFailureKind::Cancelled,
        ToolFailure::Incomplete => ToolFailureKind::Incomplete,
    }
}

fn failed(f: &ToolFailure) -> ToolCallStatus {
    ToolCallStatus::Failed { failure: failure_kind(f), detail: f.to_string() }
}

impl From<&ToolCallPhase> for ToolCallStatus {
    fn from(p: &ToolCallPhase) -> Self {
        match p {
            ToolCallPhase::Streaming => ToolCallStatus::Streaming,
            ToolCallPhase::Requested => ToolCallStatus::Requested,
            ToolCallPhase::Running => ToolCallStatus::Running,
            ToolCallPhase::Succeeded { result } => ToolCallStatus::Succeeded { result: result.clone() },
            ToolCallPhase::Failed { failure } => failed(failure),
            ToolCallPhase::CompletedByServer => ToolCallStatus::CompletedByServer,
            ToolCallPhase::Skipped { reason } => ToolCallStatus::Skipped { reason: reason.clone() },
            ToolCallPhase::OwnedByServer => ToolCallStatus::OwnedByServer,
            ToolCallPhase::AwaitingInterrupt { interrupt_id } => {
                ToolCallStatus::AwaitingInterrupt { interrupt_id: interrupt_id.clone() }
            }
        }
    }
}

impl From<SessionWarningKind> for WarningKind {
    fn from(k: SessionWarningKind) -> Self {
        match k {
            SessionWarningKind::Protocol(p) => match p {
                ProtocolWarningKind::DroppedEvent => WarningKind::DroppedEvent,
                ProtocolWarningKind::Stripped => WarningKind::Stripped,
                ProtocolWarningKind::Compatibility => WarningKind::Compatibility,
                ProtocolWarningKind::Version => WarningKind::Version,
                ProtocolWarningKind::PatchNotApplied => WarningKind::PatchNotApplied,
                ProtocolWarningKind::Skipped => WarningKind::Skipped,
            },
            SessionWarningKind::UnresolvedToolCall => WarningKind::UnresolvedToolCall,
            SessionWarningKind::UnmatchedToolResult => WarningKind::UnmatchedToolResult,
            SessionWarningKind::DuplicateToolCall => WarningKind::DuplicateToolCall,
            SessionWarningKind::ServerAnsweredClientTool => WarningKind::ServerAnsweredClientTool,
            SessionWarningKind::FollowUpLimit => WarningKind::FollowUpLimit,
            SessionWarningKind::IgnoredAfterRunEnd => WarningKind::IgnoredAfterRunEnd,
            SessionWarningKind::UnansweredInterrupt => WarningKind::UnansweredInterrupt,
            SessionWarningKind::InputDowngrade => WarningKind::InputDowngrade,
            SessionWarningKind::A2ui => WarningKind::A2ui,
            SessionWarningKind::InputNotApplied => WarningKind::InputNotApplied,
            SessionWarningKind::KeptLocal => WarningKind::KeptLocal,
            SessionWarningKind::AnsweredByInterrupt => WarningKind::AnsweredByInterrupt,
        }
    }
}

impl From<&SessionWarning> for WarningRecord {
    fn from(w: &SessionWarning) -> Self {
        WarningRecord { kind: w.kind.into(), message: w.message.clone() }
    }
}

impl From<&CoreSummary> for RunSummary {
    fn from(s: &CoreSummary) -> Self {
        RunSummary {
            thread_id: s.thread_id.clone(),
            run_ids: s.run_ids.clone(),
            status: (&s.phase).into(),
            tool_calls: s
                .tool_calls
                .iter()
                .map(|r| ToolCallReport {
                    tool_call_id: r.tool_call_id.clone(),
                    tool_name: r.tool_name.clone(),
                    status: match &r.outcome {
                        Ok(value) => ToolCallStatus::Succeeded { result: agentui_runtime::session::result_text(value) },
                        Err(f) => failed(f),
                    },
                })
                .collect(),
            pending_interrupts: interrupts(&s.pending_interrupts),
            follow_up_limit_reached: s.follow_up_limit_reached,
            needs_resync: s.needs_resync,
            warnings: s.warnings.iter().map(WarningRecord::from).collect(),
        }
    }
}

impl From<&ActionResult> for ActionResultRecord {
    fn from(r: &ActionResult) -> Self {
        match r {
            ActionResult::Ran(summary) => ActionResultRecord::Ran { summary: summary.as_ref().into() },
            ActionResult::OpenUrl(url) => ActionResultRecord::OpenUrl { url: url.clone() },
            ActionResult::Handled => ActionResultRecord::Handled,
        }
    }
}

impl From<&SessionUpdate> for ConversationUpdate {
    fn from(u: &SessionUpdate) -> Self {
        match u {
            SessionUpdate::RunPhase(p) => ConversationUpdate::RunStatusChanged { status: p.into() },
            SessionUpdate::MessageUpserted(m) => ConversationUpdate::MessageUpserted { message: m.as_ref().into() },
            SessionUpdate::MessagesReset(ms) => {
                ConversationUpdate::MessagesReset { messages: ms.iter().map(MessageRecord::from).collect() }
            }
            SessionUpdate::ToolCall(t) => ConversationUpdate::ToolCall {
                tool_call_id: t.tool_call_id.clone(),
                tool_name: t.tool_name.clone(),
                status: (&t.phase).into(),
            },
            SessionUpdate::StateChanged(state) => ConversationUpdate::StateChanged { json: state.to_string() },
            SessionUpdate::StateResyncNeeded { reason } => {
                ConversationUpdate::StateResyncNeeded { reason: reason.clone() }
            }
            SessionUpdate::Warning(w) => {
                ConversationUpdate::Warning { kind: w.kind.into(), message: w.message.clone() }
            }
            SessionUpdate::Surface(SurfaceEvent::Created { surface_id, catalog_id }) => {
                ConversationUpdate::SurfaceCreated { surface_id: surface_id.clone(), catalog_id: catalog_id.clone() }
            }
            SessionUpdate::Surface(SurfaceEvent::Changed { surface_id, diff }) => {
                ConversationUpdate::SurfaceDiff { surface_id: surface_id.clone(), diff: diff.into() }
            }
            SessionUpdate::Surface(SurfaceEvent::Deleted { surface_id }) => {
                ConversationUpdate::SurfaceDeleted { surface_id: surface_id.clone() }
            }
            SessionUpdate::Custom { name, value } => {
                ConversationUpdate::Custom { name: name.clone(), value_json: value.to_string() }
            }
            SessionUpdate::Raw { event, source } => {
                ConversationUpdate::Raw { event_json: event.to_string(), source: source.clone() }
            }
            SessionUpdate::Step { name, started } => ConversationUpdate::Step { name: name.clone(), started: *started },
            SessionUpdate::MessageKeptLocal { message_id, reason } => ConversationUpdate::MessageKeptLocal {
                message_id: message_id.clone(),
                reason: match reason {
                    LocalOnly::OrphanToolResult => LocalOnlyReason::OrphanToolResult,
                    LocalOnly::Cancelled => LocalOnlyReason::Cancelled,
                },
            },
        }
    }
}
