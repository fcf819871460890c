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
    /// The TLS settings cannot be used: a bad extra root or pin, or a platform trust store
    /// that is not available in this process (Android before `AgentRuntime(context)`).
    #[error("TLS configuration failed: {0}")]
    Tls(String),
    /// The agent's certificate was refused during the handshake; `kind` says why.
    #[error("the agent's TLS certificate was refused ({kind}): {detail}")]
    Certificate { kind: CertificateRejection, detail: String },
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
    /// The agent answered 401, and the header provider, asked again, gave nothing it accepted
    /// (or there is no provider). The app should sign in again.
    #[error("the agent refused the credentials (HTTP 401): {body_excerpt}")]
    Unauthorized { body_excerpt: String },
    /// The header provider failed or did not answer in time; its own text, never a value.
    #[error("the header provider failed: {0}")]
    HeaderProvider(String),
    /// The stream broke and the agent would not continue it from the last event id: it
    /// answered `status` (204, 4xx, ...) or not with an event stream.
    #[error("the stream broke and the agent refused to resume it (HTTP {status})")]
    ResumeRefused { status: u16 },
    /// The stream broke and every reconnection failed; `last` is the last attempt's error.
    #[error("the stream broke and could not be resumed after {attempts} attempts: {last}")]
    ResumeExhausted { attempts: u32, last: Box<TransportError> },
    /// A resumed stream replayed event `id` with other content than it first had: it did not
    /// continue from where it stopped.
    #[error("the resumed stream replayed event id '{id}' with other content")]
    ResumeMismatch { id: String },
}

/// Why a certificate was refused, for apps to match on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum CertificateRejection {
    /// No trusted root vouches for the chain (a private CA that is not trusted, a TLS-inspecting
    /// proxy the platform does not trust, a self-signed certificate).
    UnknownIssuer,
    Expired,
    NotYetValid,
    /// The certificate is not valid for the host name of the agent URL.
    NotValidForName,
    Revoked,
    /// The chain is trusted but the leaf matches none of the configured pins.
    PinMismatch,
    /// The platform verifier could not be used (not initialised on Android, no system store).
    PlatformUnavailable,
    /// Any other reason (bad signature, wrong key usage, ...): see the detail.
    Other,
}

impl fmt::Display for CertificateRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CertificateRejection::UnknownIssuer => "unknown issuer",
            CertificateRejection::Expired => "expired",
            CertificateRejection::NotYetValid => "not yet valid",
            CertificateRejection::NotValidForName => "not valid for the host name",
            CertificateRejection::Revoked => "revoked",
            CertificateRejection::PinMismatch => "pin mismatch",
            CertificateRejection::PlatformUnavailable => "platform verifier unavailable",
            CertificateRejection::Other => "other",
        })
    }
}

/// The rustls error behind a failed request, if the handshake failed on our verifier.
fn certificate_rejection(error: &(dyn std::error::Error + 'static)) -> Option<CertificateRejection> {
    use rustls::CertificateError as C;
    let mut current = Some(error);
    while let Some(e) = current {
        // io::Error's source() skips the error it wraps, which is where tokio-rustls puts
        // rustls's (and reqwest wraps that io::Error in another one): unwrap them by hand.
        let mut candidate = e;
        while let Some(inner) = candidate.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref()) {
            candidate = inner;
        }
        if let Some(rustls::Error::InvalidCertificate(c)) = candidate.downcast_ref::<rustls::Error>() {
            return Some(match c {
                C::UnknownIssuer => CertificateRejection::UnknownIssuer,
                C::Expired | C::ExpiredContext { .. } => CertificateRejection::Expired,
                C::NotValidYet | C::NotValidYetContext { .. } => CertificateRejection::NotYetValid,
                C::NotValidForName | C::NotValidForNameContext { .. } => CertificateRejection::NotValidForName,
                C::Revoked => CertificateRejection::Revoked,
                C::Other(other) => match other.0.downcast_ref::<super::tls::VerifierFault>() {
                    Some(super::tls::VerifierFault::PinMismatch) => CertificateRejection::PinMismatch,
                    Some(super::tls::VerifierFault::PlatformUnavailable(_)) => {
                        CertificateRejection::PlatformUnavailable
                    }
                    None => CertificateRejection::Other,
                },
                _ => CertificateRejection::Other,
            });
        }
        current = e.source();
    }
    None
}

/// A failed request as a transport error: a refused certificate by its kind, otherwise a
/// connection or request failure.
pub(crate) fn request_error(error: reqwest::Error) -> TransportError {
    if let Some(kind) = certificate_rejection(&error) {
        return TransportError::Certificate { kind, detail: describe(error) };
    }
    if error.is_connect() {
        TransportError::Connect(describe(error))
    } else {
        TransportError::Request(describe(error))
    }
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
