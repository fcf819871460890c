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
    /// A defect of this library: a run panicked. The session may have been left half-updated,
    /// so it refuses every later call with this error instead of going on from a broken state.
    #[error("internal error: {detail}")]
    Internal { detail: String },
}
