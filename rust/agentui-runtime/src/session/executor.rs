//! Running client tools: exactly once per `toolCallId`, bounded in time, failures as values.
//!
//! The [`ToolLedger`] remembers every call id the client has answered or started, across runs,
//! so a duplicate or replayed call never runs twice (lesson 5). Handlers run on their own tokio
//! tasks (a panicking handler becomes a failed result, not a crashed session) and are aborted
//! when the run is cancelled or the session drops them.

use std::collections::HashMap;
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::Value;
use tokio::task::AbortHandle;

use super::tools::{ClientTool, ToolInvocation};
pub use crate::observe::ToolFailure;
use agentui_agui::message::{Message, MessageContent, Role};

/// What one client-side call came to.
pub type ToolOutcome = Result<Value, ToolFailure>;

/// The text a successful result carries: strings as they are, other values as JSON.
pub fn result_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The tool message that answers `tool_call_id`. Failures set the message's `error` field and
/// say so in the content too, for agents that read only the content.
pub fn result_message(message_id: String, tool_call_id: &str, outcome: &ToolOutcome) -> Message {
    let mut m = Message::new(message_id, Role::Tool);
    m.tool_call_id = Some(tool_call_id.to_owned());
    match outcome {
        Ok(value) => m.content = Some(MessageContent::Text(result_text(value))),
        Err(failure) => {
            let text = failure.to_string();
            m.content = Some(MessageContent::Text(format!("Error: {text}")));
            m.error = Some(text);
        }
    }
    m
}

/// Every call id the client has taken responsibility for, with the tool message that answered
/// it once there is one (kept so a replay can be answered again without running anything).
#[derive(Debug, Clone, Default)]
pub struct ToolLedger {
    answered: HashMap<String, Option<Message>>,
}

impl ToolLedger {
    /// Take `tool_call_id`; false if it was taken before (it must not run again).
    pub fn claim(&mut self, tool_call_id: &str) -> bool {
        if self.answered.contains_key(tool_call_id) {
            return false;
        }
        self.answered.insert(tool_call_id.to_owned(), None);
        true
    }

    pub fn contains(&self, tool_call_id: &str) -> bool {
        self.answered.contains_key(tool_call_id)
    }

    pub fn set_result(&mut self, tool_call_id: &str, message: Message) {
        self.answered.insert(tool_call_id.to_owned(), Some(message));
    }

    /// The tool message the client answered `tool_call_id` with.
    pub fn result(&self, tool_call_id: &str) -> Option<&Message> {
        self.answered.get(tool_call_id).and_then(Option::as_ref)
    }

    pub fn len(&self) -> usize {
        self.answered.len()
    }

    pub fn is_empty(&self) -> bool {
        self.answered.is_empty()
    }
}

/// Handlers running for the current run.
#[derive(Default)]
pub(crate) struct InFlight {
    running: FuturesUnordered<BoxFuture<'static, (String, ToolOutcome)>>,
    aborts: Vec<AbortHandle>,
}

impl InFlight {
    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    /// Start `tool` for `invocation` on its own task, bounded by `limit`.
    pub fn spawn(&mut self, tool: &ClientTool, invocation: ToolInvocation, limit: Duration) {
        let id = invocation.tool_call_id.clone();
        let task = tokio::spawn(tool.handler().call(invocation));
        let abort = task.abort_handle();
        self.aborts.push(abort.clone());
        self.running.push(Box::pin(async move {
            let outcome = match tokio::time::timeout(limit, task).await {
                Ok(Ok(Ok(value))) => Ok(value),
                Ok(Ok(Err(e))) => Err(ToolFailure::Failed { message: e.message }),
                Ok(Err(join)) if join.is_panic() => Err(ToolFailure::Crashed),
                Ok(Err(_)) => Err(ToolFailure::Cancelled),
                Err(_) => {
                    // Dropping a JoinHandle does not stop the task; a hung handler must be.
                    abort.abort();
                    Err(ToolFailure::TimedOut { after: limit })
                }
            };
            (id, outcome)
        }));
    }

    /// The next call to complete; pends forever when none is running (guard with `is_empty`).
    pub async fn next_completed(&mut self) -> Option<(String, ToolOutcome)> {
        self.running.next().await
    }

    pub fn abort_all(&mut self) {
        for a in self.aborts.drain(..) {
            a.abort();
        }
        self.running = FuturesUnordered::new();
    }
}

impl Drop for InFlight {
    // A run future dropped by its caller must not leave handlers running behind its back.
    fn drop(&mut self) {
        self.abort_all();
    }
}
