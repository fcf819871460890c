//! Why a run's HTTP exchange failed. Every failure of the network or of the peer is one of
//! these values; none is a panic and none is a silently shortened run.

use std::fmt;
use std::time::Duration;

use crate::error::ProtocolError;
use crate::sse::SseError;

/// How an event stream ended too early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truncation {
    /// The body ended before any event arrived.
    NoEvents,
    /// The body ended cleanly, but the run was still open (no `RUN_FINISHED` / `RUN_ERROR`).
    RunOpen,
    /// The body ended inside an event: its last `data:` line was cut off.
    InsideEvent,
}

impl fmt::Display for Truncation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Truncation::NoEvents => "the body ended before any event",
            Truncation::RunOpen => "the body ended before RUN_FINISHED or RUN_ERROR",
            Truncation::InsideEvent => "the body ended inside an event",
        })
    }
}

/// A failed exchange with the agent endpoint. Messages never contain header values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    #[error("invalid agent URL: {0}")]
    InvalidUrl(String),
    /// Only the header's name is reported: its value may be a credential.
    #[error("invalid request header '{name}'")]
    InvalidHeader { name: String },
    #[error("TLS configuration failed: {0}")]
    Tls(String),
    #[error("could not build the HTTP client: {0}")]
    ClientBuild(String),
    #[error("could not encode the run input: {0}")]
    Encode(String),
    /// Connecting (TCP or TLS) failed or timed out.
    #[error("could not connect to the agent: {0}")]
    Connect(String),
    /// The request failed after connecting, before a response arrived.
    #[error("the request failed: {0}")]
    Request(String),
    #[error("the agent answered HTTP {status}: {body_excerpt}")]
    Status { status: u16, body_excerpt: String },
    #[error("the agent answered with content type '{content_type}' instead of text/event-stream: {body_excerpt}")]
    UnexpectedContentType { content_type: String, body_excerpt: String },
    /// Nothing arrived for longer than the idle timeout.
    #[error("the agent sent nothing for {0:?} (idle timeout)")]
    Idle(Duration),
    /// The connection broke while the body was being read.
    #[error("the connection was lost mid-stream: {0}")]
    ConnectionLost(String),
    #[error("the event stream was truncated: {0}")]
    Truncated(Truncation),
    #[error(transparent)]
    Sse(#[from] SseError),
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    #[error("the run was cancelled")]
    Cancelled,
}

/// A reqwest error as text: its cause chain, without the URL (which may carry a token).
pub(crate) fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
