//! The HTTP transport: `POST` a `RunAgentInput`, read the SSE response as it streams.
//!
//! Bounded everywhere: a connect timeout, an idle timeout between chunks (a stall is
//! [`TransportError::Idle`]), a cap on the error-body excerpt, and the SSE decoder's line and
//! event limits. Extra headers (credentials) are marked sensitive and never appear in `Debug`
//! output or error messages.
//!
//! Headers are fixed, given per request by a [`HeaderProvider`] (asked again once on a 401), or
//! both. A stream that breaks mid-run after its events carried SSE ids is resumed with
//! `Last-Event-ID` (see [`resume`](ResumeOptions)), so a run reads one continuous stream.

mod cancel;
mod connectivity;
mod error;
mod headers;
mod resume;
mod retry;
mod stream;
mod tls;

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use reqwest::StatusCode;

pub use cancel::CancelToken;
pub use connectivity::{Connectivity, NetworkWait};
pub use error::{CertificateRejection, TransportError, Truncation};
pub use headers::{
    HeaderFuture, HeaderProvider, HeaderReason, SharedHeaderProvider, MAX_CHALLENGES, MAX_CHALLENGE_BYTES,
};
pub use resume::ResumeOptions;
pub use retry::{retry_decision, RetryDecision, RetryPolicy};
pub use stream::{EventStream, ReceivedEvent, RunStream, RELEASE_LIMIT};

/// How long a finished run's body may take to end before its connection is given up, rather
/// than kept for the next run (see [`RunStream::release_connection`]).
pub const RELEASE_GRACE: Duration = Duration::from_millis(50);
#[cfg(target_os = "android")]
pub use tls::mark_platform_verifier_initialised;
pub use tls::{tls_client_config, CertificatePin, TlsOptions, TrustStore};

use crate::event::Event;
use crate::message::RunAgentInput;
use crate::pipeline::{EventPipeline, PipelineOptions};
use crate::reducer::ConversationState;
use crate::sse::SseLimits;

/// How the transport connects and reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportOptions {
    /// Bound on TCP + TLS connection setup.
    pub connect_timeout: Duration,
    /// Longest silence tolerated while waiting for the response head or the next body chunk.
    pub idle_timeout: Duration,
    pub sse_limits: SseLimits,
    /// Bytes of an error response's body quoted in the error.
    pub error_excerpt_bytes: usize,
    /// Which certificates are trusted: the platform's store by default, extra roots, pins.
    pub tls: TlsOptions,
    /// Headers asked for before each request, over the fixed ones (a name given by both is the
    /// provider's).
    pub header_provider: Option<SharedHeaderProvider>,
    /// Longest wait for the header provider before the request fails.
    pub header_timeout: Duration,
    /// How a stream that breaks mid-run is resumed.
    pub resume: ResumeOptions,
    /// The host's word on the network: a resumption waits for it instead of spending attempts.
    pub connectivity: Connectivity,
}

impl Default for TransportOptions {
    fn default() -> Self {
        TransportOptions {
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            sse_limits: SseLimits::default(),
            error_excerpt_bytes: 2048,
            tls: TlsOptions::default(),
            header_provider: None,
            header_timeout: Duration::from_secs(10),
            resume: ResumeOptions::default(),
            connectivity: Connectivity::default(),
        }
    }
}

/// Talks AG-UI over HTTP to one agent endpoint.
#[derive(Clone)]
pub struct HttpTransport {
    client: reqwest::Client,
    url: reqwest::Url,
    headers: HeaderMap,
    options: TransportOptions,
}

impl fmt::Debug for HttpTransport {
    // Header names only: values may be credentials.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpTransport")
            .field("url", &self.url.as_str())
            .field("headers", &self.headers.keys().map(HeaderName::as_str).collect::<Vec<_>>())
            .field("options", &self.options)
            .finish()
    }
}

impl HttpTransport {
    /// A transport for `url` (http or https) sending `headers` with every request.
    pub fn new(url: &str, headers: &[(String, String)], options: TransportOptions) -> Result<Self, TransportError> {
        let url = reqwest::Url::parse(url).map_err(|e| TransportError::InvalidUrl(e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(TransportError::InvalidUrl(format!("unsupported scheme '{}'", url.scheme())));
        }
        let map = headers::header_map(headers)?;
        let client = reqwest::Client::builder()
            .use_preconfigured_tls(tls_client_config(&options.tls, url.scheme() == "https")?)
            .connect_timeout(options.connect_timeout)
            .build()
            .map_err(|e| TransportError::ClientBuild(error::describe(e)))?;
        Ok(HttpTransport { client, url, headers: map, options })
    }

    pub fn url(&self) -> &str {
        self.url.as_str()
    }

    pub fn options(&self) -> &TransportOptions {
        &self.options
    }

    /// Replaces the SSE framing bounds (a session applies its memory budget).
    pub fn set_sse_limits(&mut self, limits: SseLimits) {
        self.options.sse_limits = limits;
    }

    /// Send `input` and return the response's events once the head has been checked: a
    /// non-2xx status or a content type other than `text/event-stream` is an error quoting the
    /// start of the body. A 401 is [`TransportError::Unauthorized`] (after the provider, if any,
    /// was asked once more).
    pub async fn open(&self, input: &RunAgentInput, cancel: &CancelToken) -> Result<EventStream, TransportError> {
        let body = serde_json::to_vec(input).map_err(|e| TransportError::Encode(e.to_string()))?;
        self.open_body(body.into(), cancel).await
    }

    /// Like [`open`](Self::open) with the request body already encoded (see
    /// [`crate::input::encode_run_agent_input`]). The body is shared, never copied, by a resend
    /// after a 401 and by a resumption.
    pub async fn open_body(&self, body: bytes::Bytes, cancel: &CancelToken) -> Result<EventStream, TransportError> {
        let response = self.send(&body, None, cancel).await?;
        let response = self.checked_head(response, cancel).await?;
        let stream = EventStream::new(response, self.options.sse_limits, self.options.idle_timeout, cancel.clone());
        Ok(stream.resumable(resume::Resumption::new(self.clone(), body)))
    }

    /// POSTs `body`, with `Last-Event-ID` when resuming, and returns the response once its head
    /// arrived. Headers come from the fixed set and the provider; on a 401 the provider is asked
    /// once more and the request sent again once.
    pub(crate) async fn send(
        &self,
        body: &bytes::Bytes,
        last_event_id: Option<&str>,
        cancel: &CancelToken,
    ) -> Result<reqwest::Response, TransportError> {
        let mut reason = HeaderReason::Request;
        loop {
            let headers = self.request_headers(reason.clone(), cancel).await?;
            let mut request = self
                .client
                .post(self.url.clone())
                .headers(headers)
                .header(ACCEPT, "text/event-stream")
                .header(CONTENT_TYPE, "application/json")
                .body(body.clone());
            if let Some(id) = last_event_id {
                let value = HeaderValue::from_str(id)
                    .map_err(|_| TransportError::InvalidHeader { name: "Last-Event-ID".to_owned() })?;
                request = request.header("Last-Event-ID", value);
            }
            let idle = self.options.idle_timeout;
            let response = tokio::select! {
                biased;
                _ = cancel.cancelled() => return Err(TransportError::Cancelled),
                r = tokio::time::timeout(idle, request.send()) => match r {
                    Err(_) => return Err(TransportError::Idle(idle)),
                    Ok(Err(e)) => return Err(error::request_error(e)),
                    Ok(Ok(response)) => response,
                },
            };
            if response.status() != StatusCode::UNAUTHORIZED {
                return Ok(response);
            }
            if self.options.header_provider.is_some() && reason == HeaderReason::Request {
                reason = headers::unauthorized_reason(response.headers());
                continue;
            }
            let body_excerpt = self.excerpt(response, cancel).await;
            return Err(TransportError::Unauthorized { body_excerpt });
        }
    }

    /// The fixed headers with the provider's over them.
    async fn request_headers(&self, reason: HeaderReason, cancel: &CancelToken) -> Result<HeaderMap, TransportError> {
        let Some(provider) = &self.options.header_provider else {
            return Ok(self.headers.clone());
        };
        let limit = self.options.header_timeout;
        let provided = tokio::select! {
            biased;
            _ = cancel.cancelled() => return Err(TransportError::Cancelled),
            r = tokio::time::timeout(limit, provider.0.headers(reason)) => match r {
                Err(_) => return Err(TransportError::HeaderProvider(format!("no headers within {limit:?}"))),
                Ok(Err(detail)) => return Err(TransportError::HeaderProvider(detail)),
                Ok(Ok(list)) => headers::header_map(&list)?,
            },
        };
        let mut merged = self.headers.clone();
        for name in provided.keys() {
            merged.remove(name);
        }
        for (name, value) in provided.iter() {
            merged.append(name.clone(), value.clone());
        }
        Ok(merged)
    }

    /// The response if it is a 2xx `text/event-stream`; otherwise the error, quoting its body.
    pub(crate) async fn checked_head(
        &self,
        response: reqwest::Response,
        cancel: &CancelToken,
    ) -> Result<reqwest::Response, TransportError> {
        let status = response.status();
        if !status.is_success() {
            let body_excerpt = self.excerpt(response, cancel).await;
            return Err(TransportError::Status { status: status.as_u16(), body_excerpt });
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .unwrap_or_default();
        if !is_event_stream(&content_type) {
            let body_excerpt = self.excerpt(response, cancel).await;
            return Err(TransportError::UnexpectedContentType { content_type, body_excerpt });
        }
        Ok(response)
    }

    /// Run once: send `input`, apply the events to `conversation` as they arrive, calling
    /// `on_event` after each is applied. Returns the conversation in every case, with the error
    /// that ended the run early, if any.
    pub async fn stream_run(
        &self,
        input: &RunAgentInput,
        conversation: ConversationState,
        pipeline_options: &PipelineOptions,
        cancel: &CancelToken,
        mut on_event: impl FnMut(&Event, &ConversationState),
    ) -> (ConversationState, Result<(), TransportError>) {
        let events = match self.open(input, cancel).await {
            Ok(events) => events,
            Err(e) => return (conversation, Err(e)),
        };
        let pipeline = EventPipeline::for_input_thread(conversation, pipeline_options, &input.thread_id);
        let mut run = RunStream::new(events, pipeline);
        let result = loop {
            match run.next().await {
                Ok(Some(events)) => {
                    for e in &events {
                        on_event(e, run.conversation());
                    }
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        run.release_connection(RELEASE_GRACE).await;
        (run.into_conversation(), result)
    }

    /// At most `error_excerpt_bytes` of the body, as text; whatever could be read in time.
    async fn excerpt(&self, mut response: reqwest::Response, cancel: &CancelToken) -> String {
        let limit = self.options.error_excerpt_bytes;
        let mut bytes = Vec::new();
        while bytes.len() < limit {
            let chunk = tokio::select! {
                biased;
                _ = cancel.cancelled() => break,
                r = tokio::time::timeout(self.options.idle_timeout, response.chunk()) => r,
            };
            match chunk {
                Ok(Ok(Some(c))) => bytes.extend_from_slice(&c[..c.len().min(limit - bytes.len())]),
                _ => break,
            }
        }
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if bytes.len() >= limit {
            text.push('…');
        }
        text
    }
}

fn is_event_stream(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("text/event-stream")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_essence_is_compared_case_insensitively() {
        assert!(is_event_stream("text/event-stream"));
        assert!(is_event_stream("Text/Event-Stream; charset=utf-8"));
        assert!(!is_event_stream("text/html"));
        assert!(!is_event_stream(""));
    }

    #[test]
    fn header_values_never_reach_debug_or_errors() {
        let headers = [("Authorization".to_owned(), "Bearer s3cret".to_owned())];
        let t = HttpTransport::new("http://127.0.0.1:1/agent", &headers, TransportOptions::default()).unwrap();
        let debug = format!("{t:?}");
        assert!(debug.contains("authorization") && !debug.contains("s3cret"), "{debug}");
        let bad = [("X-Token".to_owned(), "line\nbreak s3cret".to_owned())];
        let err = HttpTransport::new("http://127.0.0.1:1/agent", &bad, TransportOptions::default()).unwrap_err();
        assert_eq!(err, TransportError::InvalidHeader { name: "X-Token".into() });
        assert!(!err.to_string().contains("s3cret"));
    }

    #[test]
    fn only_http_urls_are_accepted() {
        let o = TransportOptions::default();
        assert!(matches!(HttpTransport::new("ftp://x/", &[], o.clone()), Err(TransportError::InvalidUrl(_))));
        assert!(matches!(HttpTransport::new("not a url", &[], o), Err(TransportError::InvalidUrl(_))));
    }
}
