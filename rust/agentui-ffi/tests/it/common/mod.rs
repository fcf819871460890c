//! Shared helpers: a demo agent, a runtime, recording listeners and waits with deadlines.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agentui_ffi::demo::{start_demo_agent, DemoAgentHandle};
use agentui_ffi::{
    ClientToolHandler, Conversation, ConversationListener, ConversationOptions, ListenerError, Message, MessageContent,
    Observed, ResolvedNode, Role, RunPhase, Runtime, SurfaceDiff, SurfaceListener, ToolHandlerError,
};

/// Bound on every wait: generous for a loaded CI machine, short enough to fail fast.
pub const LIMIT: Duration = Duration::from_secs(20);

pub struct Fixture {
    pub agent: Arc<DemoAgentHandle>,
    pub runtime: Arc<Runtime>,
    pub conversation: Arc<Conversation>,
}

pub fn fixture() -> Fixture {
    let agent = start_demo_agent().expect("demo agent starts");
    let runtime = Runtime::new().expect("runtime starts");
    let conversation = runtime.connect(agent.agent_url(), Vec::new(), ConversationOptions::default()).expect("connect");
    Fixture { agent, runtime, conversation }
}

/// Polls `condition` until it holds or [`LIMIT`] passes.
pub async fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let start = Instant::now();
    while !condition() {
        assert!(start.elapsed() < LIMIT, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

pub struct Recorder<T> {
    pub items: Mutex<Vec<T>>,
}

impl<T> Default for Recorder<T> {
    fn default() -> Self {
        Recorder { items: Mutex::new(Vec::new()) }
    }
}

impl<T: Clone> Recorder<T> {
    pub fn snapshot(&self) -> Vec<T> {
        self.items.lock().unwrap().clone()
    }

    pub fn len(&self) -> usize {
        self.items.lock().unwrap().len()
    }
}

impl ConversationListener for Recorder<Observed> {
    fn on_updates(&self, updates: Vec<Observed>) -> Result<(), ListenerError> {
        self.items.lock().unwrap().extend(updates);
        Ok(())
    }
}

impl SurfaceListener for Recorder<SurfaceDiff> {
    fn on_diffs(&self, diffs: Vec<SurfaceDiff>) -> Result<(), ListenerError> {
        self.items.lock().unwrap().extend(diffs);
        Ok(())
    }
}

pub fn messages(conversation: &Conversation) -> Vec<Message> {
    conversation.snapshot().messages
}

pub fn phase(conversation: &Conversation) -> RunPhase {
    conversation.snapshot().phase
}

pub fn last_assistant_text(conversation: &Conversation) -> String {
    messages(conversation)
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant)
        .and_then(|m| match &m.content {
            Some(MessageContent::Text(text)) => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// Node `id` of surface `surface` as the conversation holds it now.
pub fn surface_node(conversation: &Conversation, surface: &str, id: &str) -> Option<Arc<ResolvedNode>> {
    conversation.surface(surface.into())?.nodes.into_iter().find(|n| &*n.id == id)
}

/// A client tool written in Rust against the foreign trait, as Kotlin or Swift would.
pub struct FixedTool {
    pub answer: Result<String, ToolHandlerError>,
    pub calls: Mutex<Vec<(String, String)>>,
}

impl FixedTool {
    pub fn new(answer: Result<String, ToolHandlerError>) -> Arc<Self> {
        Arc::new(FixedTool { answer, calls: Mutex::new(Vec::new()) })
    }
}

#[async_trait::async_trait]
impl ClientToolHandler for FixedTool {
    async fn call(&self, tool_call_id: String, arguments_json: String) -> Result<String, ToolHandlerError> {
        self.calls.lock().unwrap().push((tool_call_id, arguments_json));
        self.answer.clone()
    }
}

pub const LOCATION_SCHEMA: &str =
    r#"{"type": "object", "properties": {"precision": {"type": "string"}}, "required": ["precision"]}"#;
