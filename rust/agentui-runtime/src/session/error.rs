//! Why a session call failed.

use super::interrupts::InterruptError;
use super::tools::ToolRegistryError;
use agentui_agui::transport::TransportError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The exchange with the agent failed: network, HTTP status, content type, stall,
    /// truncation, SSE framing or a protocol violation.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The agent ended the run with `RUN_ERROR`.
    #[error("the agent reported an error: {message}")]
    Agent { message: String, code: Option<String> },
    #[error("the run was cancelled")]
    Cancelled,
    #[error(transparent)]
    Interrupt(#[from] InterruptError),
    #[error(transparent)]
    Tools(#[from] ToolRegistryError),
    /// An attachment was refused before anything was sent (size, type, unreadable).
    #[error(transparent)]
    Attachment(#[from] crate::attachment::AttachmentError),
    /// A surface operation was refused (unknown surface or node, disabled node, URL policy).
    #[error("A2UI: {0}")]
    A2ui(agentui_a2ui::A2uiError),
    /// The agent answered a `callAgentFunction` with an error (its `code` and `message`).
    #[error("agent function call '{function_call_id}' failed: {code}: {message}")]
    AgentFunction { function_call_id: String, code: String, message: String },
    /// The run that carried a `callAgentFunction` ended without the agent's answer; the call
    /// is forgotten (a later answer naming it changes nothing).
    #[error("the agent did not answer function call '{function_call_id}'")]
    AgentFunctionUnanswered { function_call_id: String },
    /// `call` was made from inside the conversation's own work on this thread: an app's A2UI
    /// function (which the engine runs while it holds the surfaces) called back into its
    /// conversation. Waiting would be waiting for itself, so the call is refused and changes
    /// nothing; make it later, from the app's own code.
    #[error("{call} was called from inside an app function the conversation is running; call it later, outside")]
    Reentrant { call: &'static str },
    /// More runs are queued than [`MAX_QUEUED_RUNS`](crate::conversation::MAX_QUEUED_RUNS): the
    /// call is refused at once and nothing is queued (an app should stop offering the action
    /// until the runs before it end).
    #[error("{limit} runs are already queued; this one was not")]
    RunQueueFull { limit: usize },
    /// `answer_consent` named a call that waits for no answer: unknown, or answered already.
    /// Nothing ran and nothing changed.
    #[error("no consent request waits for tool call '{tool_call_id}'")]
    UnknownConsentRequest { tool_call_id: String },
    /// A defect of this library: a run panicked. The session may have been left half-updated,
    /// so it refuses every later call with this error instead of going on from a broken state.
    #[error("internal error: {detail}")]
    Internal { detail: String },
}
