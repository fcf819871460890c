//! Host-test helpers of the bindings: the scripted demo agent in process, a deliberate panic to
//! show panics arrive as exceptions, and a fault in a view subscription's next batch. Linked into `agentui-ffi`'s library by its `demo-agent`
//! feature (never in a phone build); its own UniFFI namespace (Kotlin `dev.agentui.core.demo`).

uniffi::setup_scaffolding!();

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_demo_agent::{DemoAgent, DemoAgentOptions};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum DemoAgentError {
    #[error("demo agent: {detail}")]
    Failed { detail: String },
}

/// A running demo agent with its own small runtime (tests only; not the library's runtime).
#[derive(uniffi::Object)]
pub struct DemoAgentHandle {
    url: String,
    agent_url: String,
    running: Mutex<Option<(tokio::runtime::Runtime, agentui_demo_agent::DemoAgentHandle)>>,
}

impl std::fmt::Debug for DemoAgentHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoAgentHandle").field("url", &self.url).finish_non_exhaustive()
    }
}

/// Runs `f` on a fresh thread, outside any runtime context the caller may be in.
fn on_own_thread<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, DemoAgentError> {
    std::thread::scope(|scope| scope.spawn(f).join())
        .map_err(|_| DemoAgentError::Failed { detail: "the demo agent thread panicked".to_owned() })
}

/// The demo agent's own one-thread runtime, apart from the library's.
fn demo_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().worker_threads(1).thread_name("agentui-demo-agent").enable_all().build()
}

fn start(options: DemoAgentOptions) -> Result<Arc<DemoAgentHandle>, DemoAgentError> {
    let failed = |e: std::io::Error| DemoAgentError::Failed { detail: e.to_string() };
    let runtime = demo_runtime().map_err(failed)?;
    let addr = SocketAddr::from(([127, 0, 0, 1], 0));
    let agent = on_own_thread(|| runtime.block_on(DemoAgent::new(options).serve(addr)))?.map_err(failed)?;
    Ok(Arc::new(DemoAgentHandle {
        url: agent.url(),
        agent_url: agent.agent_url(),
        running: Mutex::new(Some((runtime, agent))),
    }))
}

/// Starts the demo agent on 127.0.0.1 (a free port): no delay between events, 100 ms
/// between the deltas of the `slow` scenario.
#[uniffi::export]
pub fn start_demo_agent() -> Result<Arc<DemoAgentHandle>, DemoAgentError> {
    start(DemoAgentOptions::for_tests(Duration::from_millis(100)))
}

/// Starts the demo agent with custom timing.
#[uniffi::export]
pub fn start_demo_agent_with(event_delay_ms: u64, slow_delay_ms: u64) -> Result<Arc<DemoAgentHandle>, DemoAgentError> {
    start(DemoAgentOptions {
        event_delay: Duration::from_millis(event_delay_ms),
        slow_delay: Duration::from_millis(slow_delay_ms),
        time_scale: 1.0,
    })
}

#[uniffi::export]
impl DemoAgentHandle {
    /// `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// The endpoint choosing the scenario by keyword (`/dpop/agent` is the same behind a DPoP
    /// nonce: see `demo_dpop_nonce`).
    pub fn agent_url(&self) -> String {
        self.agent_url.clone()
    }

    /// Stops the server and waits for it. Idempotent.
    pub fn stop(&self) -> Result<(), DemoAgentError> {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some((runtime, agent)) = running else { return Ok(()) };
        let stopped = on_own_thread(|| runtime.block_on(agent.shutdown()));
        runtime.shutdown_background();
        stopped?.map_err(|e| DemoAgentError::Failed { detail: e.to_string() })
    }
}

impl Drop for DemoAgentHandle {
    fn drop(&mut self) {
        // Without waiting: a drop may happen on any thread, a runtime's included.
        if let Some((runtime, agent)) = self.running.get_mut().unwrap_or_else(|p| p.into_inner()).take() {
            drop(agent);
            runtime.shutdown_background();
        }
    }
}

/// The nonce the demo agent's `/dpop/agent` endpoint asks a DPoP proof to carry.
#[uniffi::export]
pub fn demo_dpop_nonce() -> String {
    agentui_demo_agent::DEMO_DPOP_NONCE.to_owned()
}

/// The demo agent's own catalog (A2UI catalog JSON), which its `custom-catalog` scenario
/// ("show my loyalty card") draws with: `LoyaltyBadge {tier, points}`, and `formatPoints
/// {value}`, a function the app implements.
#[uniffi::export]
pub fn demo_loyalty_catalog_json() -> String {
    agentui_demo_agent::loyalty_catalog_json()
}

/// The id of [`demo_loyalty_catalog_json`]'s catalog.
#[uniffi::export]
pub fn demo_loyalty_catalog_id() -> String {
    agentui_demo_agent::LOYALTY_CATALOG_ID.to_owned()
}

/// Panics on purpose: the bindings must turn it into an exception, never a crash.
#[uniffi::export]
pub fn panic_for_tests(message: String) {
    panic!("{message}");
}

/// Conversations (by thread id) whose view subscription panics once its next batch is ready.
static VIEW_FAULTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Makes the next batch the view subscriptions of conversation `thread_id` read a panic, which
/// the bindings return as `ConversationError::Internal`: the platform layers' tests see how
/// their pump takes an internal error of the core. Once: the fault is used up by the read.
/// (Exported by `agentui-ffi` itself, so that Swift, which leaves this namespace out, has it.)
pub fn fail_next_view_batch_for_tests(thread_id: String) {
    VIEW_FAULTS.lock().unwrap_or_else(|p| p.into_inner()).push(thread_id);
}

/// Called by `agentui-ffi`'s view subscription after each batch it read: panics when
/// [`fail_next_view_batch_for_tests`] armed a fault for `thread_id`.
pub fn view_batch_probe(thread_id: &str) {
    let armed = {
        let mut faults = VIEW_FAULTS.lock().unwrap_or_else(|p| p.into_inner());
        let at = faults.iter().position(|armed| armed == thread_id);
        at.map(|at| faults.swap_remove(at)).is_some()
    };
    if armed {
        panic!("view fault injected for tests (thread {thread_id})");
    }
}

/// The demo agent behind HTTPS, for the host tests of TLS trust: its certificate (for
/// `localhost`) comes from a CA made on the spot, which no trust store knows.
#[derive(uniffi::Object)]
pub struct TlsDemoAgentHandle {
    agent_url: String,
    ca_pem: String,
    #[allow(clippy::type_complexity)]
    running: Mutex<
        Option<(tokio::runtime::Runtime, agentui_demo_agent::DemoAgentHandle, agentui_demo_agent::tls::TlsFront)>,
    >,
}

impl std::fmt::Debug for TlsDemoAgentHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsDemoAgentHandle").field("agent_url", &self.agent_url).finish_non_exhaustive()
    }
}

/// Starts the demo agent behind a TLS front on 127.0.0.1 (see [`TlsDemoAgentHandle`]).
#[uniffi::export]
pub fn start_tls_demo_agent() -> Result<Arc<TlsDemoAgentHandle>, DemoAgentError> {
    use agentui_demo_agent::tls::{TestCa, TlsFront};
    let failed = |e: std::io::Error| DemoAgentError::Failed { detail: e.to_string() };
    let ca = TestCa::new("agentui host-test CA").map_err(failed)?;
    let leaf = ca.leaf(&["localhost"]).map_err(failed)?;
    let runtime = demo_runtime().map_err(failed)?;
    let addr = SocketAddr::from(([127, 0, 0, 1], 0));
    let options = DemoAgentOptions::for_tests(Duration::from_millis(100));
    let (agent, front) = on_own_thread(|| {
        runtime.block_on(async {
            let agent = DemoAgent::new(options).serve(addr).await?;
            let front = TlsFront::start(&leaf, agent.local_addr()).await?;
            Ok::<_, std::io::Error>((agent, front))
        })
    })?
    .map_err(failed)?;
    Ok(Arc::new(TlsDemoAgentHandle {
        agent_url: front.agent_url("localhost"),
        ca_pem: ca.pem().to_owned(),
        running: Mutex::new(Some((runtime, agent, front))),
    }))
}

#[uniffi::export]
impl TlsDemoAgentHandle {
    /// `https://localhost:<port>/agent`.
    pub fn agent_url(&self) -> String {
        self.agent_url.clone()
    }

    /// The CA that issued the agent's certificate, as PEM.
    pub fn ca_pem(&self) -> String {
        self.ca_pem.clone()
    }

    /// Stops the front and the agent. Idempotent.
    pub fn stop(&self) -> Result<(), DemoAgentError> {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some((runtime, agent, front)) = running else { return Ok(()) };
        drop(front);
        let stopped = on_own_thread(|| runtime.block_on(agent.shutdown()));
        runtime.shutdown_background();
        stopped?.map_err(|e| DemoAgentError::Failed { detail: e.to_string() })
    }
}

impl Drop for TlsDemoAgentHandle {
    fn drop(&mut self) {
        if let Some((runtime, agent, front)) = self.running.get_mut().unwrap_or_else(|p| p.into_inner()).take() {
            drop(front);
            drop(agent);
            runtime.shutdown_background();
        }
    }
}
