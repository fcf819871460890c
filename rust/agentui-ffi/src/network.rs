//! The app's side of the network: request headers given per request (expiring credentials)
//! and the device's connectivity. Thin: the transport does the asking, retrying and waiting.

use std::sync::Arc;

use agentui_agui::transport::{HeaderFuture, HeaderProvider, HeaderReason};

use crate::runtime::Header;

/// What a header provider may throw. The text is reported to the app in
/// `ConversationError.HeaderProvider`; it must not hold a credential.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum HeaderProviderError {
    /// No headers can be given (signed out, the token service is unreachable).
    #[error("{detail}")]
    Failed { detail: String },
    /// Any other exception the foreign implementation threw.
    #[error("unexpected: {detail}")]
    Unexpected { detail: String },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for HeaderProviderError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        HeaderProviderError::Unexpected { detail: e.reason }
    }
}

/// Gives each request's headers. Implemented in Kotlin (`suspend fun headers`) or Swift
/// (`async`), called off the main thread before every request (a run, a retry, an outbox
/// delivery, a resumption). `Unauthorized`: the agent answered 401 to the last headers, with
/// the challenges and DPoP nonce it sent (bounded, the agent's untrusted text); give fresh ones
/// (the request is sent once more) or throw. A provider that takes longer than the
/// conversation's header timeout fails the request (its coroutine or task is cancelled).
/// Given as `ConversationOptions::header_provider`.
#[uniffi::export(foreign)]
#[async_trait::async_trait]
pub trait RequestHeaderProvider: Send + Sync {
    async fn headers(&self, reason: HeaderReason) -> Result<Vec<Header>, HeaderProviderError>;
}

impl std::fmt::Debug for dyn RequestHeaderProvider {
    // Options are shown in logs; a provider is shown by its kind only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RequestHeaderProvider")
    }
}

/// A foreign provider as the transport's.
pub(crate) struct ForeignHeaders(pub Arc<dyn RequestHeaderProvider>);

impl HeaderProvider for ForeignHeaders {
    fn headers(&self, reason: HeaderReason) -> HeaderFuture<'_> {
        Box::pin(async move {
            match self.0.headers(reason).await {
                Ok(headers) => Ok(headers.into_iter().map(|h| (h.name, h.value)).collect()),
                Err(HeaderProviderError::Failed { detail }) => Err(detail),
                Err(HeaderProviderError::Unexpected { detail }) => {
                    // Debug only: an exception's text may quote app internals.
                    tracing::debug!(%detail, "header provider threw");
                    Err("the app's header provider failed unexpectedly".to_owned())
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Result<Vec<Header>, HeaderProviderError>);

    #[async_trait::async_trait]
    impl RequestHeaderProvider for Fixed {
        async fn headers(&self, _: HeaderReason) -> Result<Vec<Header>, HeaderProviderError> {
            self.0.clone()
        }
    }

    #[tokio::test]
    async fn foreign_answers_become_the_transports() {
        let header = Header { name: "Authorization".into(), value: "Bearer t".into() };
        let ok = ForeignHeaders(Arc::new(Fixed(Ok(vec![header]))));
        assert_eq!(ok.headers(HeaderReason::Request).await, Ok(vec![("Authorization".into(), "Bearer t".into())]));
        let failed = ForeignHeaders(Arc::new(Fixed(Err(HeaderProviderError::Failed { detail: "signed out".into() }))));
        assert_eq!(failed.headers(HeaderReason::Request).await, Err("signed out".into()));
        let threw =
            ForeignHeaders(Arc::new(Fixed(Err(HeaderProviderError::Unexpected { detail: "NPE at Foo".into() }))));
        assert_eq!(
            threw.headers(HeaderReason::Request).await,
            Err("the app's header provider failed unexpectedly".into())
        );
    }
}
