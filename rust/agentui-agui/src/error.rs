//! Errors and warnings of the event pipeline.
//!
//! A [`ProtocolError`] is fatal for the stream: the producer broke a rule, so the client stops
//! consuming rather than guess. A [`Warning`] is informational: something was dropped, stripped,
//! translated or could not be applied, and the run went on.

use std::fmt;

use serde::Serialize;

/// A fatal violation of the AG-UI protocol found in the incoming stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The event could not be parsed as JSON at all.
    #[error("event is not valid JSON: {0}")]
    InvalidJson(String),
    /// The event is not a JSON object with a string `type`.
    #[error("event is not an object with a string 'type': {0}")]
    NotAnEvent(String),
    /// A field the protocol describes carries a value the schema rejects. The detail is rendered
    /// as a JSON object so tools can read the path back out of a log line.
    #[error("malformed {event_type} event: {}", render_issue(path, message))]
    MalformedEvent { event_type: String, path: String, message: String },
    /// A sequencing rule was broken (first event, nesting, open/close discipline, attribution).
    #[error("{0}")]
    Sequence(String),
    /// A configured size bound was exceeded; the stream is abandoned instead of buffering more.
    #[error("limit exceeded: {what} (limit {limit})")]
    LimitExceeded { what: &'static str, limit: usize },
    /// A previous event already failed this stream; nothing more is accepted.
    #[error("the stream was already rejected: {0}")]
    StreamRejected(Box<ProtocolError>),
}

fn render_issue(path: &str, message: &str) -> String {
    #[derive(Serialize)]
    struct Issue<'a> {
        path: &'a str,
        message: &'a str,
    }
    serde_json::to_string(&Issue { path, message }).unwrap_or_else(|_| format!("{path}: {message}"))
}

impl ProtocolError {
    pub(crate) fn sequence(message: impl Into<String>) -> Self {
        ProtocolError::Sequence(message.into())
    }
}

/// What kind of thing a [`Warning`] reports, so an application can filter without parsing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum WarningKind {
    /// A whole event of an unrecognised type was dropped.
    DroppedEvent,
    /// An unrecognised property or union member was removed from an otherwise valid value.
    Stripped,
    /// A retired or era-specific shape was translated or downgraded.
    Compatibility,
    /// The producer declared a protocol version this client cannot fully vouch for.
    Version,
    /// A well-formed JSON Patch did not apply; the previous value was kept.
    PatchNotApplied,
    /// An event referred to something the conversation does not hold, or would have dropped
    /// what the user sent (a snapshot's copy of the user's message without its media); that
    /// part of it was skipped.
    Skipped,
}

/// A non-fatal observation made while consuming the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub kind: WarningKind,
    pub message: String,
}

impl Warning {
    pub fn new(kind: WarningKind, message: impl Into<String>) -> Self {
        Warning { kind, message: message.into() }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
