//! The recording proxy behind `agentui run --record`: a loopback server the client talks to,
//! which forwards each request to the real agent and hands its answer back unchanged, byte for
//! byte and as it streams, while writing the exchange to a recording. Resumptions and tool
//! result follow-ups go through it like any request, so they are recorded in order too.
//!
//! How the real agent is reached is the host's ([`Upstream`]): the CLI's HTTP client with its
//! TLS options. Nothing here is in the client library, so recording costs the phone nothing.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::IntoResponse;
use futures_util::future::BoxFuture;
use futures_util::stream::{BoxStream, Stream};

use crate::recording::RecordingWriter;
use crate::server::{serve, AgentServer, Reply, Request, Responder};

/// The real agent's answer as the proxy passes it on.
pub struct Forwarded {
    pub status: u16,
    pub content_type: String,
    pub body: BoxStream<'static, Result<Bytes, String>>,
}

impl std::fmt::Debug for Forwarded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forwarded").field("status", &self.status).field("content_type", &self.content_type).finish()
    }
}

/// Sends a request to the real agent: the body as the client sent it, and its headers.
pub trait Upstream: Send + Sync + 'static {
    fn forward(&self, body: Bytes, headers: Vec<(String, String)>) -> BoxFuture<'static, Result<Forwarded, String>>;
}

/// Headers that belong to one hop, not to the request: never forwarded.
const HOP_HEADERS: &[&str] = &["host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade"];

/// Starts recording proxies.
#[derive(Debug)]
pub struct RecordingProxy;

impl RecordingProxy {
    /// Serves on `addr`, forwarding to `upstream` and writing every exchange with `writer`.
    pub async fn start(
        upstream: Arc<dyn Upstream>,
        writer: RecordingWriter,
        addr: SocketAddr,
    ) -> io::Result<AgentServer> {
        serve(Arc::new(Proxy { upstream, writer: Arc::new(Mutex::new(writer)) }), addr).await
    }
}

struct Proxy {
    upstream: Arc<dyn Upstream>,
    writer: Arc<Mutex<RecordingWriter>>,
}

fn lock(writer: &Mutex<RecordingWriter>) -> std::sync::MutexGuard<'_, RecordingWriter> {
    writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Responder for Proxy {
    fn reply(&self, request: &Request<'_>) -> Reply {
        let headers: Vec<(String, String)> = request
            .headers
            .iter()
            .filter(|(name, _)| !HOP_HEADERS.contains(&name.as_str()))
            .filter_map(|(name, value)| Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned())))
            .collect();
        let number = {
            let mut writer = lock(&self.writer);
            let number = writer.reserve();
            if let Err(e) = writer.write_request(number, request.body, &headers) {
                return Reply::Status { status: 500, body: format!("agentui: cannot record: {e}\n") };
            }
            number
        };
        let (upstream, writer, body) = (self.upstream.clone(), self.writer.clone(), request.raw.clone());
        Reply::Later(Box::pin(async move {
            match upstream.forward(body, headers).await {
                Ok(forwarded) => {
                    let (status, content_type) = (forwarded.status, forwarded.content_type.clone());
                    let tee = Tee {
                        inner: forwarded.body,
                        seen: Vec::new(),
                        done: Some((writer, number, status, content_type.clone())),
                    };
                    let mut response = Body::from_stream(tee).into_response();
                    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
                    if let Ok(value) = HeaderValue::from_str(&content_type) {
                        response.headers_mut().insert(header::CONTENT_TYPE, value);
                    }
                    response
                }
                Err(message) => {
                    let body = format!("agentui: the agent could not be reached: {message}\n");
                    if let Err(e) = lock(&writer).write_response(number, 502, "text/plain", body.as_bytes()) {
                        return (StatusCode::INTERNAL_SERVER_ERROR, format!("agentui: cannot record: {e}\n"))
                            .into_response();
                    }
                    (StatusCode::BAD_GATEWAY, body).into_response()
                }
            }
        }))
    }
}

type Done = (Arc<Mutex<RecordingWriter>>, usize, u16, String);

/// Passes the body on and keeps a copy; the answer is written when the body ends, breaks, or
/// the client stops reading (whatever arrived is what the client got).
struct Tee {
    inner: BoxStream<'static, Result<Bytes, String>>,
    seen: Vec<u8>,
    done: Option<Done>,
}

impl Stream for Tee {
    type Item = Result<Bytes, io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.inner.as_mut().poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                self.seen.extend_from_slice(&chunk);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(message))) => {
                self.finish();
                // An error from the body makes hyper drop the connection, as the agent's did.
                Poll::Ready(Some(Err(io::Error::new(io::ErrorKind::ConnectionAborted, message))))
            }
            Poll::Ready(None) => {
                self.finish();
                Poll::Ready(None)
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Tee {
    fn finish(&mut self) {
        if let Some((writer, number, status, content_type)) = self.done.take() {
            // A write that fails leaves the exchange without its answer: loading says so.
            let _ = lock(&writer).write_response(number, status, &content_type, &self.seen);
        }
    }
}

impl Drop for Tee {
    fn drop(&mut self) {
        self.finish();
    }
}
