//! Request headers the app gives per request: credentials that expire while a conversation
//! lives.
//!
//! A [`HeaderProvider`] is asked before every request (a run, a retry, an outbox delivery, a
//! resumption). When the agent answers 401 it is asked once more, with
//! [`HeaderReason::Unauthorized`], and the request is sent again once; a second 401 is
//! [`TransportError::Unauthorized`](super::TransportError::Unauthorized). A provider that fails
//! or takes longer than `TransportOptions::header_timeout` fails the request with
//! [`TransportError::HeaderProvider`](super::TransportError::HeaderProvider).
//!
//! Values are marked sensitive and never appear in `Debug` output or errors; an invalid one is
//! reported by its header's name only.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, WWW_AUTHENTICATE};

use super::TransportError;

/// Why the provider is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum HeaderReason {
    /// A request is about to be sent.
    Request,
    /// The agent answered 401 to the headers last given. Give fresh credentials (the request is
    /// sent once more) or fail. `challenges` are the values of its `WWW-Authenticate` headers,
    /// in order (at most [`MAX_CHALLENGES`], each at most [`MAX_CHALLENGE_BYTES`]; a longer one
    /// is left out); `dpop_nonce` is its `DPoP-Nonce` (RFC 9449), the nonce a fresh DPoP proof
    /// must carry, when it sent a well-formed one. Both are the agent's text, unchecked
    /// otherwise: parse them as untrusted input.
    Unauthorized { challenges: Vec<String>, dpop_nonce: Option<String> },
}

/// The most `WWW-Authenticate` values a provider is given for one 401; later ones are left out.
pub const MAX_CHALLENGES: usize = 8;
/// The longest `WWW-Authenticate` or `DPoP-Nonce` value a provider is given, in bytes.
pub const MAX_CHALLENGE_BYTES: usize = 2048;

/// Why the provider is asked again after a 401 whose headers are `response`. What does not fit
/// the bounds is left out with a warning rather than cut: half a challenge parameter or nonce
/// would be wrong, not shorter.
pub(crate) fn unauthorized_reason(response: &HeaderMap) -> HeaderReason {
    let mut challenges = Vec::new();
    let mut left_out = 0usize;
    for value in response.get_all(WWW_AUTHENTICATE) {
        if value.len() > MAX_CHALLENGE_BYTES || challenges.len() == MAX_CHALLENGES {
            left_out += 1;
            continue;
        }
        // Header values may hold obs-text bytes; they reach the app as replacement characters.
        challenges.push(String::from_utf8_lossy(value.as_bytes()).into_owned());
    }
    if left_out > 0 {
        tracing::warn!(left_out, "WWW-Authenticate values over the bounds are not given to the header provider");
    }
    let dpop_nonce = response.get(DPOP_NONCE).and_then(|value| {
        let nonce = value.as_bytes();
        if !nonce.is_empty() && nonce.len() <= MAX_CHALLENGE_BYTES && nonce.iter().all(|&b| is_nonce_char(b)) {
            // Only ASCII passed the check.
            Some(String::from_utf8_lossy(nonce).into_owned())
        } else {
            tracing::warn!(bytes = nonce.len(), "a malformed DPoP-Nonce is not given to the header provider");
            None
        }
    });
    HeaderReason::Unauthorized { challenges, dpop_nonce }
}

const DPOP_NONCE: &str = "dpop-nonce";

/// RFC 9449's NQCHAR: visible ASCII but the quote and the backslash.
fn is_nonce_char(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E)
}

/// What a provider answers: header names and values, or why it could not give them (the text
/// is reported to the app; it must not contain a credential).
pub type HeaderFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<(String, String)>, String>> + Send + 'a>>;

/// Gives the headers of each request (see the module notes).
pub trait HeaderProvider: Send + Sync {
    fn headers(&self, reason: HeaderReason) -> HeaderFuture<'_>;
}

/// A provider as options hold it: compared by identity, shown without its values.
#[derive(Clone)]
pub struct SharedHeaderProvider(pub Arc<dyn HeaderProvider>);

impl SharedHeaderProvider {
    pub fn new(provider: impl HeaderProvider + 'static) -> Self {
        SharedHeaderProvider(Arc::new(provider))
    }
}

impl fmt::Debug for SharedHeaderProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HeaderProvider")
    }
}

impl PartialEq for SharedHeaderProvider {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedHeaderProvider {}

/// `headers` as a header map, each value marked sensitive. An invalid name or value is reported
/// by the header's name only.
pub(crate) fn header_map(headers: &[(String, String)]) -> Result<HeaderMap, TransportError> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let invalid = || TransportError::InvalidHeader { name: name.clone() };
        let header_name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid())?;
        let mut header_value = HeaderValue::from_str(value).map_err(|_| invalid())?;
        header_value.set_sensitive(true);
        map.append(header_name, header_value);
    }
    Ok(map)
}
