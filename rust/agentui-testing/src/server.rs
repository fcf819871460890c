//! The HTTP side shared by the scripted agent and the recording server: every `POST` (any path)
//! is logged, then answered by a [`Responder`]. A request nobody can answer gets an error status
//! at once, whose body shows it, and is kept as unmatched so the test fails with it.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use agentui_demo_agent::serving::{channel, event_stream, Shutdown, ShutdownTrigger, Step as Wire};
use agentui_demo_agent::DemoAgentOptions;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// Largest request body accepted (a long conversation with attachments still fits).
const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;
/// Requests kept for the test to read; past it a request is refused (a test looping forever).
pub const MAX_RECORDED_REQUESTS: usize = 10_000;
/// How long [`AgentServer::shutdown`] waits for connections to close before dropping them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// The status of a request no rule (or no recorded exchange) answers: not one a client retries.
pub const UNMATCHED_STATUS: u16 = 500;

/// One request the server could not answer, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Unmatched {
    /// Its body (JSON; a body that is not JSON is kept as a string).
    pub request: Value,
    pub reason: String,
}

impl std::fmt::Display for Unmatched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = serde_json::to_string_pretty(&self.request).unwrap_or_default();
        write!(f, "{}\n{body}", self.reason)
    }
}

/// Requests the server could not answer ([`AgentServer::assert_all_matched`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{} request(s) had no answer:\n{}", .0.len(), .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n---\n"))]
pub struct UnmatchedRequests(pub Vec<Unmatched>);

/// How the responder answers one request.
pub(crate) enum Reply {
    Stream(Vec<Wire>),
    Status {
        status: u16,
        body: String,
    },
    /// No answer: an error status whose body shows the request, and an entry in `unmatched`.
    Unmatched(String),
    /// An answer that takes its time (the recording proxy waits for the real agent).
    Later(futures_util::future::BoxFuture<'static, Response>),
}

/// One request as the responder sees it.
pub(crate) struct Request<'a> {
    pub body: &'a Value,
    /// The body as it came, byte for byte (the proxy forwards it unchanged).
    pub raw: &'a Bytes,
    pub headers: &'a HeaderMap,
}

pub(crate) trait Responder: Send + Sync + 'static {
    fn reply(&self, request: &Request<'_>) -> Reply;
}

#[derive(Debug, Default)]
struct Log {
    requests: Vec<Value>,
    unmatched: Vec<Unmatched>,
}

#[derive(Clone)]
struct AppState {
    responder: Arc<dyn Responder>,
    log: Arc<Mutex<Log>>,
    shutdown: Shutdown,
}

/// A running scripted agent or recording server on loopback. Dropping it stops the server
/// (without waiting).
#[derive(Debug)]
pub struct AgentServer {
    local_addr: SocketAddr,
    log: Arc<Mutex<Log>>,
    trigger: ShutdownTrigger,
    task: Option<JoinHandle<io::Result<()>>>,
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reply::Stream(steps) => f.debug_tuple("Stream").field(&steps.len()).finish(),
            Reply::Status { status, .. } => f.debug_struct("Status").field("status", status).finish_non_exhaustive(),
            Reply::Unmatched(reason) => f.debug_tuple("Unmatched").field(reason).finish(),
            Reply::Later(_) => f.write_str("Later"),
        }
    }
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState").finish_non_exhaustive()
    }
}

/// A poisoned log is still a log: a panic elsewhere must not hide what the server received.
fn lock(log: &Mutex<Log>) -> MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(crate) async fn serve(responder: Arc<dyn Responder>, addr: SocketAddr) -> io::Result<AgentServer> {
    let listener = TcpListener::bind(addr).await?;
    let local_addr = listener.local_addr()?;
    let (trigger, shutdown) = channel();
    let log = Arc::new(Mutex::new(Log::default()));
    let state = AppState { responder, log: log.clone(), shutdown: shutdown.clone() };
    let app = Router::new().fallback(handle).layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES)).with_state(state);
    let mut stop = shutdown;
    let server = axum::serve(listener, app).with_graceful_shutdown(async move { stop.wait().await });
    let task = tokio::spawn(async move { server.await });
    Ok(AgentServer { local_addr, log, trigger, task: Some(task) })
}

async fn handle(State(state): State<AppState>, method: Method, headers: HeaderMap, body: Bytes) -> Response {
    if method != Method::POST {
        return text(StatusCode::METHOD_NOT_ALLOWED, "agentui-testing: an AG-UI agent takes POST requests\n".into());
    }
    let raw = body;
    let body = serde_json::from_slice::<Value>(&raw)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&raw).into_owned()));
    {
        let mut log = lock(&state.log);
        if log.requests.len() >= MAX_RECORDED_REQUESTS {
            let reason = format!("more than {MAX_RECORDED_REQUESTS} requests in one test");
            log.unmatched.push(Unmatched { request: Value::Null, reason: reason.clone() });
            return text(StatusCode::INTERNAL_SERVER_ERROR, reason);
        }
        log.requests.push(body.clone());
    }
    // A responder that panics answers like an unmatched request instead of tearing the connection.
    let request = Request { body: &body, raw: &raw, headers: &headers };
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| state.responder.reply(&request)))
        .unwrap_or_else(|_| Reply::Unmatched("the server failed while answering this request".into()));
    match reply {
        Reply::Stream(steps) => event_stream(steps, no_pacing(), state.shutdown.clone()),
        Reply::Later(response) => response.await,
        Reply::Status { status, body } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            text(status, body)
        }
        Reply::Unmatched(reason) => {
            let unmatched = Unmatched { request: body, reason };
            let shown = format!("agentui-testing: {unmatched}\n");
            lock(&state.log).unmatched.push(unmatched);
            let status = StatusCode::from_u16(UNMATCHED_STATUS).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            text(status, shown)
        }
    }
}

/// Scripts set their own delays; nothing is added between events.
fn no_pacing() -> DemoAgentOptions {
    DemoAgentOptions { event_delay: Duration::ZERO, slow_delay: Duration::ZERO, time_scale: 1.0 }
}

fn text(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

impl AgentServer {
    /// The agent's endpoint, `http://127.0.0.1:<port>/agent` (every path answers the same).
    pub fn url(&self) -> String {
        format!("http://{}/agent", self.local_addr)
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Every request body received so far, in order (resumptions and follow-ups included).
    pub fn requests(&self) -> Vec<Value> {
        lock(&self.log).requests.clone()
    }

    /// The requests that had no answer, in order.
    pub fn unmatched(&self) -> Vec<Unmatched> {
        lock(&self.log).unmatched.clone()
    }

    /// An error showing every request that had no answer, if there was one.
    pub fn assert_all_matched(&self) -> Result<(), UnmatchedRequests> {
        let unmatched = self.unmatched();
        if unmatched.is_empty() {
            Ok(())
        } else {
            Err(UnmatchedRequests(unmatched))
        }
    }

    /// Stops accepting connections, ends the streams in flight, and waits for the server.
    pub async fn shutdown(mut self) -> io::Result<()> {
        self.trigger.trigger();
        let Some(mut task) = self.task.take() else { return Ok(()) };
        match tokio::time::timeout(SHUTDOWN_GRACE, &mut task).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => Err(io::Error::other(join)),
            Err(_) => {
                task.abort();
                Ok(())
            }
        }
    }

    /// Stops the server without waiting (for hosts that are not async).
    pub fn stop(&self) {
        self.trigger.trigger();
    }
}

impl Drop for AgentServer {
    fn drop(&mut self) {
        self.trigger.trigger();
    }
}
