//! What a conversation reports, as records: run and tool call phases, warnings, run summaries,
//! and the snapshot and deltas listeners receive. Field for field what `agentui-runtime` says.

use agentui_agui::error::WarningKind as Protocol;
use agentui_agui::message::RunOutcome as CoreOutcome;
use agentui_runtime::observe::{
    ConversationDelta as Core, ConversationSnapshot as CoreSnapshot, SurfaceEntry as Entry,
};
use agentui_runtime::session::{self as s, ActionResult, SessionWarningKind as K, ToolFailure};

use crate::message::{interrupts, InterruptRecord, MessageRecord};
use crate::value::NodeValue;

/// Why a run finished, as the agent said.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum RunOutcome {
    Success { pending_tool_call_ids: Vec<String> },
    Interrupt { interrupts: Vec<InterruptRecord> },
    Cancelled,
}

/// Where the conversation's current (or last) run stands.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum RunPhase {
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
    /// Restored from a store with this run still open when the app stopped: nothing of it is
    /// replayed. Send again, or `continue_run` to ask the agent to go on.
    Abandoned {
        run_id: Option<String>,
    },
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

/// How far one tool call has got (the runtime's `ToolCallPhase`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ToolCallPhase {
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
    Skipped {
        reason: String,
    },
    /// A call to a tool this client did not declare: shown, never answered by the client.
    OwnedByServer,
    AwaitingInterrupt {
        interrupt_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ToolCallUpdate {
    pub tool_call_id: String,
    pub tool_name: String,
    pub phase: ToolCallPhase,
}

/// The runtime's `SessionWarningKind`, its `Protocol(kind)` spelled out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum SessionWarningKind {
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
    KeptLocal,
    AnsweredByInterrupt,
    /// The on-device store could not write; the conversation goes on in memory.
    Store,
    /// A message or action waiting for the agent was refused and dropped from the waiting list.
    Undelivered,
}

#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct SessionWarning {
    pub kind: SessionWarningKind,
    pub message: String,
}

/// The result of one `send_message`/`continue_run` and its automatic follow-up runs.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct RunSummary {
    pub thread_id: String,
    pub run_ids: Vec<String>,
    /// `Finished` or `Interrupted`.
    pub phase: RunPhase,
    /// Every call the client answered, `Succeeded` or `Failed`.
    pub tool_calls: Vec<ToolCallUpdate>,
    pub pending_interrupts: Vec<InterruptRecord>,
    /// Tool results wait for `continue_run`.
    pub follow_up_limit_reached: bool,
    pub needs_resync: bool,
    pub warnings: Vec<SessionWarning>,
}

/// What a user action led to.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ActionResultRecord {
    Ran {
        summary: RunSummary,
    },
    /// Open this URL (already checked against the URL policy).
    OpenUrl {
        url: String,
    },
    /// A local function ran; nothing went to the agent.
    Handled,
}

#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct SurfaceEntry {
    pub surface_id: String,
    pub catalog_id: String,
}

crate::mirror!(
    /// Why a message stays on this device and is never sent back to the agent: `Cancelled` text
    /// was cut short by a cancel (show it as incomplete), `OrphanToolResult` matched no call.
    LocalOnlyReason from agentui_agui::reducer::LocalOnly { OrphanToolResult, Cancelled }
);

/// A message that stays on this device.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct KeptLocalMessage {
    pub message_id: String,
    pub reason: LocalOnlyReason,
}

/// What a waiting message or action delivers.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum PendingSendKind {
    /// `text` is empty for content parts.
    Message {
        message_id: String,
        text: String,
    },
    Action {
        surface_id: String,
        action_name: String,
    },
}

/// A message or action the agent has not received yet; delivered once, in call order.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PendingSend {
    /// Sent as `forwardedProps.agentuiIdempotencyKey` with every attempt.
    pub key: String,
    pub kind: PendingSendKind,
    /// Attempts that could not reach the agent.
    pub attempts: u32,
    pub last_error: Option<String>,
}

/// The whole observable state at one point of the conversation's sequence.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ConversationSnapshot {
    pub thread_id: String,
    pub messages: Vec<MessageRecord>,
    /// `Null` before the agent sent any.
    pub state: NodeValue,
    pub phase: RunPhase,
    pub tool_calls: Vec<ToolCallUpdate>,
    pub pending_interrupts: Vec<InterruptRecord>,
    pub surfaces: Vec<SurfaceEntry>,
    /// In the order the messages were marked.
    pub kept_local: Vec<KeptLocalMessage>,
    /// In call order.
    pub pending_sends: Vec<PendingSend>,
}

crate::mirror!(PatchOp from agentui_agui::event::PatchOp { Add, Remove, Replace, Move, Copy, Test });

/// One RFC 6902 operation as it was applied to the state.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct PatchOperationRecord {
    pub op: PatchOp,
    pub path: String,
    pub from: Option<String>,
    pub value: Option<NodeValue>,
}

/// One change of the conversation (the runtime's `ConversationDelta`).
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ConversationDelta {
    MessageAdded {
        message: MessageRecord,
    },
    /// Only the new piece of a message's text.
    TextAppended {
        message_id: String,
        delta: String,
    },
    ToolCallArgsAppended {
        message_id: String,
        tool_call_id: String,
        delta: String,
    },
    MessageReplaced {
        message: MessageRecord,
    },
    /// Clears every kept-local mark; a `MessageKeptLocal` follows for each message still kept.
    MessagesReset {
        messages: Vec<MessageRecord>,
    },
    MessageKeptLocal {
        message_id: String,
        reason: LocalOnlyReason,
    },
    /// The JSON Patch that was applied to the state.
    StatePatched {
        operations: Vec<PatchOperationRecord>,
    },
    StateReplaced {
        state: NodeValue,
    },
    StateResyncNeeded {
        reason: String,
    },
    RunPhase {
        phase: RunPhase,
    },
    ToolCall {
        update: ToolCallUpdate,
    },
    Interrupts {
        interrupts: Vec<InterruptRecord>,
    },
    SurfaceAdded {
        surface: SurfaceEntry,
    },
    SurfaceRemoved {
        surface_id: String,
    },
    Warning {
        warning: SessionWarning,
    },
    Custom {
        name: String,
        value_json: String,
    },
    Raw {
        event_json: String,
        source: Option<String>,
    },
    Step {
        name: String,
        started: bool,
    },
    /// The whole waiting list, after any change to it.
    PendingSends {
        pending: Vec<PendingSend>,
    },
}

/// What a conversation listener receives: a `Reset` first (and again after falling behind),
/// then deltas, in order.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ConversationUpdate {
    Reset { snapshot: ConversationSnapshot },
    Delta { delta: ConversationDelta },
}

/// One surface's resolved tree.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct SurfaceSnapshot {
    pub surface_id: String,
    pub catalog_id: String,
    pub root: Option<String>,
    /// Depth-first from the root.
    pub nodes: Vec<crate::node::ResolvedNodeRecord>,
}

impl From<&CoreOutcome> for RunOutcome {
    fn from(o: &CoreOutcome) -> Self {
        match o {
            CoreOutcome::Success { pending_tool_call_ids: ids } => {
                RunOutcome::Success { pending_tool_call_ids: ids.clone().unwrap_or_default() }
            }
            CoreOutcome::Interrupt { interrupts: list } => RunOutcome::Interrupt { interrupts: interrupts(list) },
            CoreOutcome::Cancelled => RunOutcome::Cancelled,
        }
    }
}

impl From<&s::RunPhase> for RunPhase {
    fn from(p: &s::RunPhase) -> Self {
        use s::RunPhase as P;
        match p {
            P::Idle => RunPhase::Idle,
            P::Starting { run_id } => RunPhase::Starting { run_id: run_id.clone() },
            P::Running { run_id } => RunPhase::Running { run_id: run_id.clone() },
            P::Finished { run_id, outcome } => {
                RunPhase::Finished { run_id: run_id.clone(), outcome: outcome.as_ref().map(Into::into) }
            }
            P::Interrupted { run_id, interrupts: list } => {
                RunPhase::Interrupted { run_id: run_id.clone(), interrupts: interrupts(list) }
            }
            P::AgentError { message, code } => RunPhase::AgentError { detail: message.clone(), code: code.clone() },
            P::Failed { error } => RunPhase::Failed { detail: error.clone() },
            P::Cancelled => RunPhase::Cancelled,
            P::Abandoned { run_id } => RunPhase::Abandoned { run_id: run_id.clone() },
        }
    }
}

fn failed(f: &ToolFailure) -> ToolCallPhase {
    let failure = match f {
        ToolFailure::NotRegistered { .. } => ToolFailureKind::NotRegistered,
        ToolFailure::Denied { .. } => ToolFailureKind::Denied,
        ToolFailure::InvalidArguments { .. } => ToolFailureKind::InvalidArguments,
        ToolFailure::Failed { .. } => ToolFailureKind::HandlerFailed,
        ToolFailure::TimedOut { .. } => ToolFailureKind::TimedOut,
        ToolFailure::Crashed => ToolFailureKind::Crashed,
        ToolFailure::Cancelled => ToolFailureKind::Cancelled,
        ToolFailure::Incomplete => ToolFailureKind::Incomplete,
    };
    ToolCallPhase::Failed { failure, detail: f.to_string() }
}

impl From<&s::ToolCallPhase> for ToolCallPhase {
    fn from(p: &s::ToolCallPhase) -> Self {
        use s::ToolCallPhase as P;
        match p {
            P::Streaming => ToolCallPhase::Streaming,
            P::Requested => ToolCallPhase::Requested,
            P::Running => ToolCallPhase::Running,
            P::Succeeded { result } => ToolCallPhase::Succeeded { result: result.clone() },
            P::Failed { failure } => failed(failure),
            P::CompletedByServer => ToolCallPhase::CompletedByServer,
            P::Skipped { reason } => ToolCallPhase::Skipped { reason: reason.clone() },
            P::OwnedByServer => ToolCallPhase::OwnedByServer,
            P::AwaitingInterrupt { interrupt_id } => {
                ToolCallPhase::AwaitingInterrupt { interrupt_id: interrupt_id.clone() }
            }
        }
    }
}

impl From<&s::ToolCallUpdate> for ToolCallUpdate {
    fn from(u: &s::ToolCallUpdate) -> Self {
        ToolCallUpdate {
            tool_call_id: u.tool_call_id.clone(),
            tool_name: u.tool_name.clone(),
            phase: (&u.phase).into(),
        }
    }
}

impl From<&s::SessionWarning> for SessionWarning {
    fn from(w: &s::SessionWarning) -> Self {
        use SessionWarningKind as W;
        let kind = match w.kind {
            K::Protocol(Protocol::DroppedEvent) => W::DroppedEvent,
            K::Protocol(Protocol::Stripped) => W::Stripped,
            K::Protocol(Protocol::Compatibility) => W::Compatibility,
            K::Protocol(Protocol::Version) => W::Version,
            K::Protocol(Protocol::PatchNotApplied) => W::PatchNotApplied,
            K::Protocol(Protocol::Skipped) => W::Skipped,
            K::UnresolvedToolCall => W::UnresolvedToolCall,
            K::UnmatchedToolResult => W::UnmatchedToolResult,
            K::DuplicateToolCall => W::DuplicateToolCall,
            K::ServerAnsweredClientTool => W::ServerAnsweredClientTool,
            K::FollowUpLimit => W::FollowUpLimit,
            K::IgnoredAfterRunEnd => W::IgnoredAfterRunEnd,
            K::UnansweredInterrupt => W::UnansweredInterrupt,
            K::InputDowngrade => W::InputDowngrade,
            K::A2ui => W::A2ui,
            K::KeptLocal => W::KeptLocal,
            K::AnsweredByInterrupt => W::AnsweredByInterrupt,
            K::Store => W::Store,
            K::Undelivered => W::Undelivered,
        };
        SessionWarning { kind, message: w.message.clone() }
    }
}

impl From<&s::RunSummary> for RunSummary {
    fn from(s: &s::RunSummary) -> Self {
        let report = |r: &s::ToolCallReport| ToolCallUpdate {
            tool_call_id: r.tool_call_id.clone(),
            tool_name: r.tool_name.clone(),
            phase: match &r.outcome {
                Ok(value) => ToolCallPhase::Succeeded { result: s::result_text(value) },
                Err(f) => failed(f),
            },
        };
        RunSummary {
            thread_id: s.thread_id.clone(),
            run_ids: s.run_ids.clone(),
            phase: (&s.phase).into(),
            tool_calls: s.tool_calls.iter().map(report).collect(),
            pending_interrupts: interrupts(&s.pending_interrupts),
            follow_up_limit_reached: s.follow_up_limit_reached,
            needs_resync: s.needs_resync,
            warnings: s.warnings.iter().map(Into::into).collect(),
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

fn entry(e: &Entry) -> SurfaceEntry {
    SurfaceEntry { surface_id: e.surface_id.clone(), catalog_id: e.catalog_id.clone() }
}

fn messages(list: &[agentui_agui::Message]) -> Vec<MessageRecord> {
    list.iter().map(Into::into).collect()
}

impl From<&CoreSnapshot> for ConversationSnapshot {
    fn from(s: &CoreSnapshot) -> Self {
        ConversationSnapshot {
            thread_id: s.thread_id.clone(),
            messages: messages(&s.messages),
            state: (&s.state).into(),
            phase: (&s.phase).into(),
            tool_calls: s.tool_calls.iter().map(Into::into).collect(),
            pending_interrupts: interrupts(&s.pending_interrupts),
            surfaces: s.surfaces.iter().map(entry).collect(),
            kept_local: s
                .kept_local
                .iter()
                .map(|(id, reason)| KeptLocalMessage { message_id: id.clone(), reason: (*reason).into() })
                .collect(),
            pending_sends: pending_sends(&s.pending_sends),
        }
    }
}

fn pending_sends(list: &[s::PendingSend]) -> Vec<PendingSend> {
    let kind = |k: &s::PendingSendKind| match k {
        s::PendingSendKind::Message { message_id, text } => {
            PendingSendKind::Message { message_id: message_id.clone(), text: text.clone() }
        }
        s::PendingSendKind::Action { surface_id, action_name } => {
            PendingSendKind::Action { surface_id: surface_id.clone(), action_name: action_name.clone() }
        }
    };
    list.iter()
        .map(|p| PendingSend {
            key: p.key.clone(),
            kind: kind(&p.kind),
            attempts: p.attempts,
            last_error: p.last_error.clone(),
        })
        .collect()
}

impl From<&Core> for ConversationDelta {
    fn from(d: &Core) -> Self {
        use ConversationDelta as D;
        match d {
            Core::MessageAdded(m) => D::MessageAdded { message: m.into() },
            Core::TextAppended { message_id, delta } => {
                D::TextAppended { message_id: message_id.clone(), delta: delta.clone() }
            }
            Core::ToolCallArgsAppended { message_id, tool_call_id, delta } => D::ToolCallArgsAppended {
                message_id: message_id.clone(),
                tool_call_id: tool_call_id.clone(),
                delta: delta.clone(),
            },
            Core::MessageReplaced(m) => D::MessageReplaced { message: m.into() },
            Core::MessagesReset(list) => D::MessagesReset { messages: messages(list) },
            Core::MessageKeptLocal { message_id, reason } => {
                D::MessageKeptLocal { message_id: message_id.clone(), reason: (*reason).into() }
            }
            Core::StatePatched(ops) => D::StatePatched {
                operations: ops
                    .iter()
                    .map(|o| PatchOperationRecord {
                        op: o.op.into(),
                        path: o.path.clone(),
                        from: o.from.clone(),
                        value: o.value.as_ref().map(Into::into),
                    })
                    .collect(),
            },
            Core::StateReplaced(state) => D::StateReplaced { state: state.into() },
            Core::StateResyncNeeded { reason } => D::StateResyncNeeded { reason: reason.clone() },
            Core::RunPhase(phase) => D::RunPhase { phase: phase.into() },
            Core::ToolCall(update) => D::ToolCall { update: update.into() },
            Core::Interrupts(list) => D::Interrupts { interrupts: interrupts(list) },
            Core::SurfaceAdded(e) => D::SurfaceAdded { surface: entry(e) },
            Core::SurfaceRemoved { surface_id } => D::SurfaceRemoved { surface_id: surface_id.clone() },
            Core::Warning(w) => D::Warning { warning: w.into() },
            Core::Custom { name, value } => D::Custom { name: name.clone(), value_json: value.to_string() },
            Core::Raw { event, source } => D::Raw { event_json: event.to_string(), source: source.clone() },
            Core::Step { name, started } => D::Step { name: name.clone(), started: *started },
            Core::PendingSends(list) => D::PendingSends { pending: pending_sends(list) },
        }
    }
}

impl From<&agentui_runtime::Observed> for ConversationUpdate {
    fn from(o: &agentui_runtime::Observed) -> Self {
        match o {
            agentui_runtime::Observed::Snapshot(s) => ConversationUpdate::Reset { snapshot: s.as_ref().into() },
            agentui_runtime::Observed::Delta(d) => ConversationUpdate::Delta { delta: d.into() },
        }
    }
}

impl From<&agentui_runtime::SurfaceSnapshot> for SurfaceSnapshot {
    fn from(s: &agentui_runtime::SurfaceSnapshot) -> Self {
        SurfaceSnapshot {
            surface_id: s.surface_id.clone(),
            catalog_id: s.catalog_id.clone(),
            root: s.root.clone(),
            nodes: crate::node::records(&s.nodes),
        }
    }
}
