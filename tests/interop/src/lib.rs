//! Shared pieces of the interop tests: where the real servers are, what they received, and a
//! conversation wired like an app's (the `Conversation` actor and a subscription to it).
//!
//! The servers (`adk_server.py`, `langgraph_server.py`, `agent_framework_server.py`) run on the real PyPI packages with
//! scripted fake models; `tests/interop/run.sh` starts them and exports their addresses. The
//! tests are `#[ignore]`d so that a bare `cargo test` does not fail for want of Python; the
//! script runs them with `--include-ignored`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_agui::patch::apply_patch;
use agentui_agui::Message;
use agentui_runtime::session::{
    ClientTool, ConversationSession, SessionOptions, ToolCallPhase, ToolError, ToolInvocation,
};
use agentui_runtime::{Conversation, ConversationDelta, Observed, Subscription};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};

/// Why the tests are ignored by default.
pub const NEEDS_SERVERS: &str = "needs the interop servers: run tests/interop/run.sh";

/// Bound on one scenario: the fake models answer at once, except `slow` (about 4 s).
pub const SCENARIO_BOUND: Duration = Duration::from_secs(60);

/// One of the interop servers.
#[derive(Debug, Clone)]
pub struct Server {
    pub name: &'static str,
    base: String,
}

fn from_env(name: &'static str, var: &str) -> Server {
    let base = std::env::var(var).unwrap_or_else(|_| panic!("{var} is not set: {NEEDS_SERVERS}"));
    Server { name, base: base.trim_end_matches('/').to_owned() }
}

/// The google-adk + ag-ui-adk server. Paths: `/adk` (defaults), `/adk-outcome`
/// (`emit_interrupt_outcome=True`), `/adk-snapshot` (`emit_messages_snapshot=True`).
pub fn adk() -> Server {
    from_env("adk", "AGENTUI_INTEROP_ADK_URL")
}

/// The langgraph + ag-ui-langgraph server. Paths: `/langgraph` (defaults: interrupts as CUSTOM
/// `on_interrupt`), `/langgraph-outcome` (`emit_interrupt_outcome=True`).
pub fn langgraph() -> Server {
    from_env("langgraph", "AGENTUI_INTEROP_LANGGRAPH_URL")
}

/// The Microsoft Agent Framework + agent-framework-ag-ui server. Path: `/agent-framework`.
pub fn agent_framework() -> Server {
    from_env("agent-framework", "AGENTUI_INTEROP_AGENT_FRAMEWORK_URL")
}

/// Pydantic AI's built-in AG-UI adapter. Path: `/pydantic-ai`.
pub fn pydantic_ai() -> Server {
    from_env("pydantic-ai", "AGENTUI_INTEROP_PYDANTIC_AI_URL")
}

/// AWS Strands behind ag-ui-strands. Path: `/strands`.
pub fn strands() -> Server {
    from_env("strands", "AGENTUI_INTEROP_STRANDS_URL")
}

/// A CrewAI Flow behind ag-ui-crewai. Path: `/crewai`.
pub fn crewai() -> Server {
    from_env("crewai", "AGENTUI_INTEROP_CREWAI_URL")
}

fn http() -> reqwest::Client {
    // The workspace's reqwest has no default TLS provider; these are plain-HTTP requests, but
    // the builder still wants one installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Every `RunAgentInput` the server received on `thread_id`, in order.
    pub async fn inputs(&self, thread_id: &str) -> Vec<Value> {
        self.all_inputs().await.into_iter().filter(|body| body["threadId"] == thread_id).collect()
    }

    /// Every `RunAgentInput` the server received, in order.
    pub async fn all_inputs(&self) -> Vec<Value> {
        let body = http()
            .get(self.url("/_inputs"))
            .send()
            .await
            .expect("GET /_inputs")
            .bytes()
            .await
            .expect("the /_inputs body");
        let all: Value = serde_json::from_slice(&body).expect("/_inputs is JSON");
        all.as_array().into_iter().flatten().map(|entry| entry["body"].clone()).collect()
    }
}

/// The body of a raw AG-UI request to `url` (an SSE stream read to its end): what the adapter
/// sends, byte for byte, before the client reads it.
pub async fn post_sse(url: &str, input: &Value) -> String {
    let response = http()
        .post(url)
        .header("accept", "text/event-stream")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(input).expect("JSON"))
        .send()
        .await
        .expect("POST to the agent");
    response.text().await.expect("the SSE body")
}

/// A thread id no other test uses, so the servers' input logs can be read per test.
pub fn unique_thread(label: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{label}-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::SeqCst))
}

/// Records what a subscriber of the conversation sees, like an app's observer: a task drains
/// the subscription into a list (the first snapshot, then the deltas).
#[derive(Clone)]
pub struct Recorder {
    seen: Arc<Mutex<Vec<Observed>>>,
    flush: mpsc::UnboundedSender<oneshot::Sender<()>>,
}

impl Recorder {
    /// Drains `subscription` on a task of the current runtime.
    pub fn start(mut subscription: Subscription) -> Recorder {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (flush, mut flushes) = mpsc::unbounded_channel::<oneshot::Sender<()>>();
        let sink = seen.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    biased;
                    Some(done) = flushes.recv() => {
                        // Whatever is queued now was published before the flush was asked for.
                        while let Some(item) = subscription.try_recv() {
                            sink.lock().unwrap().push(item);
                        }
                        let _ = done.send(());
                    }
                    item = subscription.recv() => match item {
                        Ok(Some(item)) => sink.lock().unwrap().push(item),
                        Ok(None) | Err(_) => break,
                    },
                }
            }
        });
        Recorder { seen, flush }
    }

    /// Everything seen up to now. A call that returned has had its run's last delta queued for
    /// every subscriber, so after it this includes that run's deltas.
    pub async fn observed(&self) -> Vec<Observed> {
        let (done, flushed) = oneshot::channel();
        // A recorder whose conversation is gone has drained everything already.
        if self.flush.send(done).is_ok() {
            let _ = flushed.await;
        }
        self.seen.lock().unwrap().clone()
    }

    /// The deltas seen up to now. Panics if the recorder ever fell behind (a second snapshot):
    /// the deltas would then have a gap, and assertions on them would prove less than they say.
    pub async fn deltas(&self) -> Vec<ConversationDelta> {
        deltas_of(self.observed().await)
    }

    /// The state as the first snapshot had it, then after each state delta, in order.
    pub async fn states(&self) -> Vec<Value> {
        let observed = self.observed().await;
        let Some(Observed::Snapshot(first)) = observed.first() else { panic!("a subscription starts with a snapshot") };
        let mut state = first.state.clone();
        let mut states = vec![state.clone()];
        for delta in deltas_of(observed) {
            match delta {
                ConversationDelta::StateReplaced(s) => state = s,
                ConversationDelta::StatePatched(ops) => {
                    // The runtime applied this very patch to this very state; it must apply here too.
                    apply_patch(&mut state, &ops).expect("a published patch applies to the published state")
                }
                _ => continue,
            }
            states.push(state.clone());
        }
        states
    }

    /// The phases the calls of tool `name` went through, in order.
    pub async fn phases_of(&self, name: &str) -> Vec<ToolCallPhase> {
        self.deltas()
            .await
            .into_iter()
            .filter_map(|d| match d {
                ConversationDelta::ToolCall(t) if t.tool_name == name => Some(t.phase),
                _ => None,
            })
            .collect()
    }

    pub async fn saw(&self, matches: impl Fn(&ConversationDelta) -> bool) -> bool {
        self.deltas().await.iter().any(matches)
    }
}

fn deltas_of(observed: Vec<Observed>) -> Vec<ConversationDelta> {
    assert!(matches!(observed.first(), Some(Observed::Snapshot(_))), "a subscription starts with a snapshot");
    observed
        .into_iter()
        .skip(1)
        .map(|o| match o {
            Observed::Delta(d) => d,
            Observed::Snapshot(_) => panic!("the recorder fell behind: its deltas have a gap"),
        })
        .collect()
}

/// A conversation (the actor the FFI uses) on `url` with its own thread and a recorder
/// subscribed before anything runs.
pub fn conversation(url: &str, label: &str) -> (Conversation, Recorder, String) {
    conversation_with(url, label, |_| {})
}

/// [`conversation`], with `configure` applied to the session before the actor takes it over
/// (what an app sets up front, such as its initial state).
pub fn conversation_with(
    url: &str,
    label: &str,
    configure: impl FnOnce(&mut ConversationSession),
) -> (Conversation, Recorder, String) {
    let thread = unique_thread(label);
    let options = SessionOptions { thread_id: Some(thread.clone()), ..SessionOptions::default() };
    let mut session = ConversationSession::connect(url, &[], options).expect("session");
    configure(&mut session);
    let conversation = Conversation::start(session, tokio::runtime::Handle::current());
    let recorder = Recorder::start(conversation.subscribe());
    (conversation, recorder, thread)
}

/// Cancels `conversation` once `trigger` holds for an item of a subscription taken now (so
/// nothing published from here on is missed), as a user pressing stop while watching.
pub fn cancel_when(conversation: &Conversation, mut trigger: impl FnMut(&Observed) -> bool + Send + 'static) {
    let mut subscription = conversation.subscribe();
    let conversation = conversation.clone();
    tokio::spawn(async move {
        while let Ok(Some(item)) = subscription.recv().await {
            if trigger(&item) {
                conversation.cancel();
                return;
            }
        }
    });
}

/// A client tool that counts its executions and answers with `answer(arguments)`.
pub fn counting_tool(
    name: &str,
    answer: impl Fn(&Value) -> Result<Value, ToolError> + Send + Sync + 'static,
) -> (ClientTool, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let counter = count.clone();
    let answer = Arc::new(answer);
    let tool = ClientTool::new(
        name,
        format!("the app's {name} tool"),
        json!({"type": "object", "additionalProperties": true}),
        move |call: ToolInvocation| {
            counter.fetch_add(1, Ordering::SeqCst);
            let result = answer(&call.arguments);
            async move { result }
        },
    )
    .expect("tool");
    (tool, count)
}

/// The text of the last assistant message.
pub fn last_assistant_text(messages: &[Message]) -> String {
    messages
        .iter()
        .rev()
        .find(|m| m.role.as_str() == "assistant" && m.text().is_some_and(|t| !t.is_empty()))
        .and_then(Message::text)
        .unwrap_or_default()
        .to_owned()
}

/// The tool messages of one `RunAgentInput` as (toolCallId, content, error): the test server's
/// reading of an input, shared with the runtime's tests.
pub use agentui_test_server::tool_results;

/// A TCP proxy in front of a server that cuts the first response whose bytes carry `trigger`,
/// right after passing them on: the network dropping mid-answer (a lift, a tunnel). The client
/// may see a reset, which can lose bytes still in flight. Later connections pass whole.
pub struct DroppingProxy {
    addr: SocketAddr,
    dropped: Arc<AtomicBool>,
}

impl DroppingProxy {
    pub async fn start(server: &Server, trigger: &'static str) -> DroppingProxy {
        let upstream = server.base.trim_start_matches("http://").to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let dropped = Arc::new(AtomicBool::new(false));
        let cut = dropped.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = TcpStream::connect(&upstream).await else { continue };
                tokio::spawn(relay(client, server, trigger, cut.clone()));
            }
        });
        DroppingProxy { addr, dropped }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Whether a response was cut.
    pub fn dropped(&self) -> bool {
        self.dropped.load(Ordering::SeqCst)
    }
}

async fn relay(client: TcpStream, server: TcpStream, trigger: &'static str, cut: Arc<AtomicBool>) {
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let requests = tokio::spawn(async move { tokio::io::copy(&mut client_read, &mut server_write).await });
    let mut seen = Vec::new();
    let mut buffer = vec![0u8; 16 * 1024];
    while let Ok(n) = server_read.read(&mut buffer).await {
        if n == 0 || client_write.write_all(&buffer[..n]).await.is_err() {
            break;
        }
        if cut.load(Ordering::SeqCst) {
            continue;
        }
        seen.extend_from_slice(&buffer[..n]);
        if seen.windows(trigger.len()).any(|w| w == trigger.as_bytes()) && !cut.swap(true, Ordering::SeqCst) {
            // Both sides closed at once, mid-body: the client's read breaks.
            break;
        }
    }
    requests.abort();
}
