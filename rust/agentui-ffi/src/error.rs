//! One error enum per API area. Each becomes a Kotlin `XxxException` / Swift `XxxError`.
//!
//! No variant has a field called `message`: Kotlin generates `Throwable.message` from the
//! fields, and a field of that name would clash with it.

use agentui_a2ui::A2uiError;
use agentui_agui::transport::TransportError;
use agentui_agui::{ProtocolError, SseError};
use agentui_runtime::attachment::AttachmentError;
use agentui_runtime::session::{InterruptError, SessionError, ToolRegistryError};
use agentui_runtime::StoreError;

/// Why a conversation call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum ConversationError {
    #[error("invalid agent URL: {detail}")]
    InvalidUrl { detail: String },
    /// Only the name is reported: a header value may be a credential.
    #[error("invalid request header '{name}'")]
    InvalidHeader { name: String },
    #[error("invalid options: {detail}")]
    InvalidOptions { detail: String },
    #[error("invalid JSON: {detail}")]
    InvalidJson { detail: String },
    /// Connecting, sending, an idle timeout, a lost connection, TLS.
    #[error("network: {detail}")]
    Network { detail: String },
    /// The agent's TLS certificate was refused; `kind` says why (an unknown CA, expired, another
    /// host name, a pin mismatch...).
    #[error("the agent's TLS certificate was refused ({kind:?}): {detail}")]
    Certificate { kind: agentui_agui::transport::CertificateRejection, detail: String },
    /// TLS cannot be set up: on Android, the platform verifier was not initialised (create the
    /// runtime with `AgentRuntime(context)`), or no usable trust store.
    #[error("TLS configuration failed: {detail}")]
    TlsConfig { detail: String },
    #[error("the agent answered HTTP {status}: {detail}")]
    HttpStatus { status: u16, detail: String },
    /// The agent refused the message itself: HTTP 413 (too large) or 415 (a media type it does
    /// not take). Sending it again would be refused again, so it does not wait in the outbox.
    #[error("the agent refused the message (HTTP {status}): {detail}")]
    MessageRejected { status: u16, detail: String },
    /// An attachment was refused before anything was sent; `name` is the attachment's.
    #[error("attachment '{name}' refused ({reason:?}): {detail}")]
    AttachmentRefused { name: String, reason: AttachmentRefusal, detail: String },
    /// The agent refused the credentials (HTTP 401), also after the header provider was asked
    /// for fresh ones: the user should sign in again.
    #[error("unauthorized: {detail}")]
    Unauthorized { detail: String },
    /// The header provider failed or did not answer in time (its own text).
    #[error("header provider: {detail}")]
    HeaderProvider { detail: String },
    /// Wrong content type, truncated stream, SSE framing or an AG-UI protocol violation.
    #[error("protocol: {detail}")]
    Protocol { detail: String },
    /// The agent sent more than the conversation's memory budget allows (an event, the state,
    /// a patch result, streamed content). The run failed; what was applied before it stays, the
    /// breaching event changed nothing.
    #[error("memory budget exceeded: {detail}")]
    LimitExceeded { detail: String },
    /// The agent ended the run with `RUN_ERROR`.
    #[error("the agent reported an error: {detail}")]
    Agent { detail: String, code: Option<String> },
    #[error("the run was cancelled")]
    Cancelled,
    #[error("no pending interrupt has id '{id}'")]
    UnknownInterrupt { id: String },
    #[error("interrupt '{id}' expired at {expires_at}")]
    InterruptExpired { id: String, expires_at: String },
    #[error("the payload for interrupt '{id}' does not match its response schema: {detail}")]
    InvalidInterruptPayload { id: String, detail: String },
    #[error("invalid tool: {detail}")]
    InvalidTool { detail: String },
    /// `answer_consent` named a call that waits for no answer (unknown, or answered already):
    /// nothing ran.
    #[error("no consent request waits for tool call '{tool_call_id}'")]
    UnknownConsentRequest { tool_call_id: String },
    #[error("a tool named '{name}' is already registered")]
    DuplicateTool { name: String },
    /// A surface operation was refused; `code` is the A2UI error code (`ACTION_REFUSED`...).
    #[error("A2UI {code}: {detail}")]
    A2ui { code: String, detail: String },
    /// The agent answered a `callAgentFunction` with an error: its `code` and message.
    #[error("agent function call '{function_call_id}' failed: {code}: {detail}")]
    AgentFunctionFailed { function_call_id: String, code: String, detail: String },
    /// The run that carried a `callAgentFunction` ended without the agent's answer.
    #[error("the agent did not answer function call '{function_call_id}'")]
    AgentFunctionUnanswered { function_call_id: String },
    /// The conversation store could not restore or create the conversation (see `StoreError`
    /// for what the store reports).
    #[error("conversation store: {detail}")]
    Store { detail: String },
    /// Called from inside an app's A2UI function while the conversation runs it (the function
    /// called back into its own conversation). Refused instead of deadlocking; nothing changed.
    #[error("reentrant call: {detail}")]
    Reentrant { detail: String },
    /// `limit` runs already wait behind the one in flight (a button pressed in a loop): this
    /// call was not queued. Offer the action again once runs end.
    #[error("{limit} runs are already queued; this one was not")]
    RunQueueFull { limit: u32 },
    /// A defect of this library (a panic or a lost task), reported instead of crashing.
    #[error("internal error: {detail}")]
    Internal { detail: String },
}

/// Why an attachment was refused (`ConversationError::AttachmentRefused`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum AttachmentRefusal {
    /// Over the memory budget's `max_attachment_bytes`.
    TooLarge,
    /// The message's attachments together are over `max_message_attachment_bytes`.
    MessageTooLarge,
    /// A MIME type the options' `allowed_attachment_types` does not list (or not `type/subtype`).
    TypeNotAllowed,
    /// The file could not be read.
    Unreadable,
    /// The agent's protocol version (the options' peer ceiling) predates media parts.
    NotSupportedByAgent,
    /// The conversation's media with this message's would be over the memory budget's
    /// `max_conversation_media_bytes` (every run re-sends them all).
    ConversationMediaFull,
}

impl From<StoreError> for ConversationError {
    fn from(e: StoreError) -> Self {
        ConversationError::Store { detail: e.to_string() }
    }
}

/// Why a surface operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum SurfaceError {
    #[error("surface '{surface_id}' does not exist")]
    UnknownSurface { surface_id: String },
    #[error("node '{node_id}' does not exist")]
    UnknownNode { node_id: String },
    /// The engine refused the input; `code` is the A2UI error code.
    #[error("A2UI {code}: {detail}")]
    Rejected { code: String, detail: String },
    /// Called from inside an app's A2UI function while the conversation runs it (the function
    /// called `setValue` on its own conversation). Refused instead of deadlocking; nothing changed.
    #[error("reentrant call: {detail}")]
    Reentrant { detail: String },
    /// The library could not do it (the system refused a thread, or the conversation is unusable
    /// after an internal error: every later write fails the same way); not the input's fault.
    #[error("internal: {detail}")]
    Internal { detail: String },
}

/// Why the runtime could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum RuntimeStartError {
    #[error("the runtime could not start: {detail}")]
    Failed { detail: String },
}

impl From<TransportError> for ConversationError {
    fn from(e: TransportError) -> Self {
        let detail = e.to_string();
        match e {
            TransportError::InvalidUrl(detail) => ConversationError::InvalidUrl { detail },
            TransportError::InvalidHeader { name } => ConversationError::InvalidHeader { name },
            TransportError::Status { status: status @ (413 | 415), body_excerpt } => {
                ConversationError::MessageRejected { status, detail: body_excerpt }
            }
            TransportError::Status { status, body_excerpt } => {
                ConversationError::HttpStatus { status, detail: body_excerpt }
            }
            TransportError::Cancelled => ConversationError::Cancelled,
            TransportError::Certificate { kind, .. } => ConversationError::Certificate { kind, detail },
            TransportError::Tls(detail) => ConversationError::TlsConfig { detail },
            TransportError::Unauthorized { body_excerpt } => ConversationError::Unauthorized { detail: body_excerpt },
            TransportError::HeaderProvider(detail) => ConversationError::HeaderProvider { detail },
            TransportError::Connect(_)
            | TransportError::Request(_)
            | TransportError::Idle(_)
            | TransportError::ConnectionLost(_)
            | TransportError::ResumeRefused { .. }
            | TransportError::ResumeExhausted { .. } => ConversationError::Network { detail },
            TransportError::Protocol(ProtocolError::LimitExceeded { .. })
            | TransportError::Sse(SseError::EventTooLarge { .. } | SseError::LineTooLong { .. }) => {
                ConversationError::LimitExceeded { detail }
            }
            TransportError::UnexpectedContentType { .. }
            | TransportError::Truncated(_)
            | TransportError::Sse(_)
            | TransportError::ResumeMismatch { .. }
            | TransportError::Protocol(_) => ConversationError::Protocol { detail },
            TransportError::ClientBuild(_) | TransportError::Encode(_) => ConversationError::Internal { detail },
        }
    }
}

impl From<InterruptError> for ConversationError {
    fn from(e: InterruptError) -> Self {
        match e {
            InterruptError::Unknown(id) => ConversationError::UnknownInterrupt { id },
            InterruptError::Expired { id, expires_at } => ConversationError::InterruptExpired { id, expires_at },
            InterruptError::InvalidPayload { id, detail } => ConversationError::InvalidInterruptPayload { id, detail },
        }
    }
}

impl From<ToolRegistryError> for ConversationError {
    fn from(e: ToolRegistryError) -> Self {
        match e {
            ToolRegistryError::Duplicate(name) => ConversationError::DuplicateTool { name },
            other => ConversationError::InvalidTool { detail: other.to_string() },
        }
    }
}

impl From<A2uiError> for ConversationError {
    fn from(e: A2uiError) -> Self {
        ConversationError::A2ui { code: e.code().to_owned(), detail: e.to_string() }
    }
}

impl From<SessionError> for ConversationError {
    fn from(e: SessionError) -> Self {
        match e {
            SessionError::Transport(e) => e.into(),
            SessionError::Agent { message, code } => ConversationError::Agent { detail: message, code },
            SessionError::Cancelled => ConversationError::Cancelled,
            SessionError::Interrupt(e) => e.into(),
            SessionError::Tools(e) => e.into(),
            SessionError::A2ui(e) => e.into(),
            SessionError::Internal { detail } => ConversationError::Internal { detail },
            e @ SessionError::Reentrant { .. } => ConversationError::Reentrant { detail: e.to_string() },
            SessionError::RunQueueFull { limit } => {
                ConversationError::RunQueueFull { limit: u32::try_from(limit).unwrap_or(u32::MAX) }
            }
            SessionError::AgentFunction { function_call_id, code, message } => {
                ConversationError::AgentFunctionFailed { function_call_id, code, detail: message }
            }
            SessionError::AgentFunctionUnanswered { function_call_id } => {
                ConversationError::AgentFunctionUnanswered { function_call_id }
            }
            SessionError::UnknownConsentRequest { tool_call_id } => {
                ConversationError::UnknownConsentRequest { tool_call_id }
            }
            SessionError::Attachment(e) => {
                let detail = e.to_string();
                let (name, reason) = match e {
                    AttachmentError::TooLarge { name, .. } => (name, AttachmentRefusal::TooLarge),
                    AttachmentError::MessageTooLarge { name, .. } => (name, AttachmentRefusal::MessageTooLarge),
                    AttachmentError::TypeNotAllowed { name, .. } => (name, AttachmentRefusal::TypeNotAllowed),
                    AttachmentError::Unreadable { name, .. } => (name, AttachmentRefusal::Unreadable),
                    AttachmentError::NotSupportedByAgent { name, .. } => (name, AttachmentRefusal::NotSupportedByAgent),
                    AttachmentError::ConversationMediaFull { name, .. } => {
                        (name, AttachmentRefusal::ConversationMediaFull)
                    }
                };
                ConversationError::AttachmentRefused { name, reason, detail }
            }
        }
    }
}

/// What a surface write (`setValue`) can meet: the engine's refusal, a reentrant call, or a
/// session left unusable by an internal error.
impl From<SessionError> for SurfaceError {
    fn from(e: SessionError) -> Self {
        match e {
            SessionError::A2ui(e) => e.into(),
            e @ SessionError::Reentrant { .. } => SurfaceError::Reentrant { detail: e.to_string() },
            SessionError::Internal { detail } => SurfaceError::Internal { detail },
            other => SurfaceError::Internal { detail: other.to_string() },
        }
    }
}

impl From<A2uiError> for SurfaceError {
    fn from(e: A2uiError) -> Self {
        match e {
            A2uiError::UnknownSurface(surface_id) => SurfaceError::UnknownSurface { surface_id },
            A2uiError::UnknownComponent(node_id) => SurfaceError::UnknownNode { node_id },
            other => SurfaceError::Rejected { code: other.code().to_owned(), detail: other.to_string() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 43: what a surface write meets reaches the app as its own case, not as the engine's
    /// refusal of the input.
    #[test]
    fn surface_write_errors_keep_their_kind() {
        let poisoned = SessionError::Internal { detail: "unusable".to_owned() };
        assert_eq!(SurfaceError::from(poisoned), SurfaceError::Internal { detail: "unusable".to_owned() });
        let reentrant = SurfaceError::from(SessionError::Reentrant { call: "set_value" });
        assert!(matches!(reentrant, SurfaceError::Reentrant { detail } if detail.contains("set_value")));
        let unknown = SurfaceError::from(SessionError::A2ui(A2uiError::UnknownSurface("s".to_owned())));
        assert_eq!(unknown, SurfaceError::UnknownSurface { surface_id: "s".to_owned() });
        let full = ConversationError::from(SessionError::RunQueueFull { limit: 16 });
        assert_eq!(full, ConversationError::RunQueueFull { limit: 16 });
    }
}
