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

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::TransportError;

/// Why the provider is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum HeaderReason {
    /// A request is about to be sent.
    Request,
    /// The agent answered 401 to the headers last given; `challenge` is its `WWW-Authenticate`
    /// header, if any. Give fresh credentials (the request is sent once more) or fail.
    Unauthorized { challenge: Option<String> },
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
