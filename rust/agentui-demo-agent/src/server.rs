//! The HTTP side: routes, request validation, and the handle that stops the server.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::header::WWW_AUTHENTICATE;
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::faults::{self, FAULTS};
use crate::input::RunInput;
use crate::options::DemoAgentOptions;
use crate::scenarios::{self, SCENARIOS};
use crate::shutdown::{self, Shutdown, ShutdownTrigger};
use crate::sse;

/// Largest request body accepted (a long conversation with tool results still fits).
const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;
/// How long [`DemoAgentHandle::shutdown`] waits for connections to close before dropping them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The scripted AG-UI server. See the crate documentation for endpoints and scenarios.
#[derive(Debug, Clone, Default)]
pub struct DemoAgent {
    options: DemoAgentOptions,
}

/// A running demo agent. Dropping it stops the server too (without waiting).
#[derive(Debug)]
pub struct DemoAgentHandle {
    local_addr: SocketAddr,
    trigger: ShutdownTrigger,
    task: Option<JoinHandle<io::Result<()>>>,
}

#[derive(Debug, Clone)]
struct AppState {
    options: DemoAgentOptions,
    shutdown: Shutdown,
}

impl DemoAgent {
    pub fn new(options: DemoAgentOptions) -> Self {
        DemoAgent { options }
    }

    /// Serves with default options on `addr` (use `127.0.0.1:0` for a free port).
    pub async fn start(addr: SocketAddr) -> io::Result<DemoAgentHandle> {
        DemoAgent::default().serve(addr).await
    }

    /// Serves with these options on `addr`.
    pub async fn serve(self, addr: SocketAddr) -> io::Result<DemoAgentHandle> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let (trigger, shutdown) = shutdown::channel();
        let app = router(AppState { options: self.options, shutdown: shutdown.clone() });
        let mut stop = shutdown;
        let server = axum::serve(listener, app).with_graceful_shutdown(async move { stop.wait().await });
        let task = tokio::spawn(async move { server.await });
        Ok(DemoAgentHandle { local_addr, trigger, task: Some(task) })
    }
}

impl DemoAgentHandle {
    /// Base URL, `http://<ip>:<port>` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.local_addr)
    }

    /// `POST` endpoint choosing the scenario by keyword.
    pub fn agent_url(&self) -> String {
        format!("{}/agent", self.url())
    }

    /// `POST` endpoint of one scenario, e.g. `scenario_url("client-tool")`.
    pub fn scenario_url(&self, scenario: &str) -> String {
        format!("{}/agent/{scenario}", self.url())
    }

    /// `POST` endpoint of one fault, e.g. `fault_url("stall")`.
    pub fn fault_url(&self, kind: &str) -> String {
        format!("{}/fault/{kind}", self.url())
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Stops accepting connections, ends the streams in flight, and waits for the server to
    /// finish (connections still open after a grace period are dropped).
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
}

impl Drop for DemoAgentHandle {
    fn drop(&mut self) {
        self.trigger.trigger();
    }
}

fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/agent", post(agent))
        .route("/agent/{scenario}", post(agent_scenario))
        .route("/fault/{kind}", post(fault))
        .route("/dpop/agent", post(dpop_agent))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        .with_state(state)
}

async fn index() -> String {
    let mut text = String::from(
        "agentui demo agent: a scripted AG-UI 1.1 server (no LLM).\n\n\
         POST /agent             picks a scenario by keyword in the latest user message\n\
         POST /agent/<scenario>  runs that scenario\n\
         POST /fault/<kind>      answers with a broken response\n         POST /dpop/agent        as /agent, once a DPoP proof carries the nonce of its 401\n\nScenarios:\n",
    );
    for s in SCENARIOS {
        let keyword = s.keyword.map(|k| format!("\"{k}\"")).unwrap_or_default();
        text.push_str(&format!("  {:<18} {:<10} {}\n", s.name, keyword, s.summary));
    }
    text.push_str(&format!("\nFaults: {}\n", FAULTS.join(", ")));
    text
}

async fn agent(State(state): State<AppState>, body: Bytes) -> Response {
    run(state, None, &body)
}

async fn agent_scenario(State(state): State<AppState>, Path(scenario): Path<String>, body: Bytes) -> Response {
    if !scenarios::is_scenario(&scenario) {
        let names: Vec<&str> = SCENARIOS.iter().map(|s| s.name).collect();
        return error(StatusCode::NOT_FOUND, "unknown_scenario", &format!("scenarios: {}", names.join(", ")));
    }
    run(state, Some(&scenario), &body)
}

fn run(state: AppState, scenario: Option<&str>, body: &[u8]) -> Response {
    match RunInput::parse(body) {
        Ok(input) => sse::event_stream(scenarios::steps_for(scenario, &input), state.options, state.shutdown),
        Err(e) => error(StatusCode::BAD_REQUEST, e.code(), e.message()),
    }
}

/// The nonce `/dpop/agent` asks for (RFC 9449): fixed, the demo checks no proof.
pub const DEMO_DPOP_NONCE: &str = "demo-nonce-1";

/// `/agent` behind a DPoP nonce: a request whose `DPoP` header does not mention
/// [`DEMO_DPOP_NONCE`] gets a 401 with the `use_dpop_nonce` challenge and the nonce, as an
/// authorization server or resource server does, so a header provider can be shown the challenge.
async fn dpop_agent(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let proof = headers.get("dpop").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if proof.contains(DEMO_DPOP_NONCE) {
        return run(state, None, &body);
    }
    let challenge = "DPoP error=\"use_dpop_nonce\", error_description=\"Resource server requires nonce in DPoP proof\"";
    let head = [(WWW_AUTHENTICATE, challenge), (HeaderName::from_static("dpop-nonce"), DEMO_DPOP_NONCE)];
    (StatusCode::UNAUTHORIZED, head, "a DPoP proof with the nonce is required").into_response()
}

async fn fault(State(state): State<AppState>, Path(kind): Path<String>, body: Bytes) -> Response {
    if !faults::is_fault(&kind) {
        return error(StatusCode::NOT_FOUND, "unknown_fault", &format!("faults: {}", FAULTS.join(", ")));
    }
    faults::respond(&kind, &body, state.options, state.shutdown)
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not_found", "try POST /agent, POST /agent/<scenario> or POST /fault/<kind>")
}

/// `{"error": {"code", "message"}}` with `status`.
fn error(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({"error": {"code": code, "message": message}}).to_string();
    (status, [(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response()
}
