//! Shared helpers: a demo agent, a runtime, a view applied as a platform applies it, and waits
//! with deadlines.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agentui_ffi::demo::{start_demo_agent, DemoAgentHandle};
use agentui_ffi::{
    ChatItem, ClientToolHandler, ConsentRequest, Conversation, ConversationOptions, Message, MessageContent,
    MessageDiff, ResolvedNode, Role, RunPhase, Runtime, ToolCallDiff, ToolCallUpdate, ToolHandlerError, ViewBatch,
    ViewSubscription,
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

/// What a platform shows, built only from view batches, as the Kotlin and Swift layers build it.
#[derive(Debug, Default)]
pub struct Shown {
    pub items: Vec<ChatItem>,
    pub tool_calls: Vec<ToolCallUpdate>,
    pub phase: RunPhase,
    pub state: serde_json::Value,
    pub pending: usize,
    pub consent_requests: Vec<ConsentRequest>,
    pub batches: Vec<ViewBatch>,
}

impl Shown {
    pub fn apply(&mut self, batch: ViewBatch) {
        for diff in &batch.messages {
            match diff.clone() {
                MessageDiff::Reset { items } => self.items = items,
                MessageDiff::Insert { index, item } => self.items.insert(index as usize, item),
                MessageDiff::Set { index, item } => self.items[index as usize] = item,
                MessageDiff::AppendText { index, text } => self.items[index as usize].text.push_str(&text),
                MessageDiff::AppendArguments { index, call, text } => {
                    self.items[index as usize].tool_calls[call as usize].arguments_json.push_str(&text)
                }
                MessageDiff::Marks { index, local_only, pending } => {
                    self.items[index as usize].local_only = local_only;
                    self.items[index as usize].pending = pending;
                }
                MessageDiff::Markdown { index, from, blocks, covered_utf8, covered_utf16 } => {
                    let tree =
                        self.items[index as usize].markdown.as_mut().expect("a Markdown diff for a Markdown item");
                    tree.blocks.truncate(from as usize);
                    tree.blocks.extend(blocks);
                    (tree.covered_utf8, tree.covered_utf16) = (covered_utf8, covered_utf16);
                }
            }
        }
        for diff in &batch.tool_calls {
            match diff.clone() {
                ToolCallDiff::Reset { calls } => self.tool_calls = calls,
                ToolCallDiff::Insert { index, call } => self.tool_calls.insert(index as usize, call),
                ToolCallDiff::Set { index, call } => self.tool_calls[index as usize] = call,
            }
        }
        if let Some(phase) = &batch.phase {
            self.phase = phase.clone();
        }
        if let Some(state) = &batch.state {
            self.state = state.clone();
        }
        if let Some(pending) = &batch.pending_sends {
            self.pending = pending.len();
        }
        if let Some(requests) = &batch.consent_requests {
            self.consent_requests = requests.clone();
        }
        self.batches.push(batch);
    }

    /// Pulls batches until the view shows everything published before this call, as a
    /// platform's `send` waits before it returns.
    pub async fn settle(&mut self, view: &ViewSubscription) {
        let barrier = view.barrier();
        let start = Instant::now();
        while self.batches.last().is_none_or(|b| b.settled < barrier) {
            assert!(start.elapsed() < LIMIT, "timed out waiting for barrier {barrier}");
            let batch = tokio::time::timeout(LIMIT, view.next_batch()).await.unwrap().unwrap().expect("open");
            self.apply(batch);
        }
    }
}

pub fn messages(conversation: &Conversation) -> Vec<Message> {
    conversation.snapshot().unwrap().messages
}

pub fn phase(conversation: &Conversation) -> RunPhase {
    conversation.snapshot().unwrap().phase
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
