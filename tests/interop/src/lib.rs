//! Shared pieces of the interop tests: where the real servers are, what they received, and a
//! session wired like an app's.
//!
//! The servers (`adk_server.py`, `langgraph_server.py`) run on the real PyPI packages with
//! scripted fake models; `tests/interop/run.sh` starts them and exports their addresses. The
//! tests are `#[ignore]`d so that a bare `cargo test` does not fail for want of Python; the
//! script runs them with `--include-ignored`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_agui::Message;
use agentui_runtime::session::{
    ClientTool, ConversationSession, SessionListener, SessionOptions, SessionUpdate, ToolCallPhase, ToolError,
    ToolInvocation,
};
use serde_json::{json, Value};

/// Why the tests are ignored by default.
pub const NEEDS_SERVERS: &str = "needs the interop servers: run tests/interop/run.sh";

/// Bound on one scenario: the fake models answer at once, except `slow` (about 4 s).
pub const SCENARIO_BOUND: Duration = Duration::from_secs(60);

/// One of the two servers.
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

/// A thread id no other test uses, so the servers' input logs can be read per test.
pub fn unique_thread(label: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{label}-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::SeqCst))
}

/// Records every session update, like an app's listener.
#[derive(Default, Clone)]
pub struct Recorder {
    updates: Arc<Mutex<Vec<SessionUpdate>>>,
}

impl SessionListener for Recorder {
    fn on_update(&self, update: &SessionUpdate) {
        self.updates.lock().unwrap().push(update.clone());
    }
}

impl Recorder {
    pub fn all(&self) -> Vec<SessionUpdate> {
        self.updates.lock().unwrap().clone()
    }

    /// The phases the calls of tool `name` went through, in order.
    pub fn phases_of(&self, name: &str) -> Vec<ToolCallPhase> {
        self.all()
            .into_iter()
            .filter_map(|u| match u {
                SessionUpdate::ToolCall(t) if t.tool_name == name => Some(t.phase),
                _ => None,
            })
            .collect()
    }

    pub fn saw(&self, matches: impl Fn(&SessionUpdate) -> bool) -> bool {
        self.all().iter().any(matches)
    }
}

/// A session on `url` with its own thread and a recorder attached.
pub fn session(url: &str, label: &str) -> (ConversationSession, Recorder, String) {
    let thread = unique_thread(label);
    let options = SessionOptions { thread_id: Some(thread.clone()), ..SessionOptions::default() };
    let mut session = ConversationSession::connect(url, &[], options).expect("session");
    let recorder = Recorder::default();
    session.add_listener(Arc::new(recorder.clone()));
    (session, recorder, thread)
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

/// The tool messages of one `RunAgentInput` as (toolCallId, content).
pub fn tool_messages(input: &Value) -> Vec<(String, String)> {
    input["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            (
                m["toolCallId"].as_str().unwrap_or_default().to_owned(),
                m["content"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}
