//! Messages and actions waiting for the agent: what the user sent while it could not be reached.
//!
//! Every user message and every user action that goes to the agent passes through here, in call
//! order, and each is delivered by its own run. An entry is delivered once the agent answered
//! the request (response headers arrived); until then it is pending, observers see it in
//! [`ConversationSnapshot::pending_sends`](crate::ConversationSnapshot::pending_sends), and a
//! store keeps it across process death. Each run that carries an entry names it in
//! `forwardedProps.agentuiIdempotencyKey` ([`IDEMPOTENCY_KEY_PROP`]); the key is the same on
//! every attempt, so an agent that remembers the keys it served answers a repeat (the client died
//! after the agent took the request, before it could note the delivery) without acting twice.
//!
//! A message joins the conversation when it is first attempted. One sent while earlier entries
//! wait joins when its turn comes, so every run carries exactly one new message.
//!
//! Whether a failed entry waits, and for what, is
//! [`retry_decision`](agentui_agui::transport::retry_decision) under
//! [`RetryPolicy::DeliverPending`](agentui_agui::transport::RetryPolicy): one the agent could not
//! be reached for ([`PendingReason::Unreached`]) is sent again on its own; one whose credentials
//! the agent refused (401, [`PendingReason::Unauthorized`]) waits for the app's `retry_pending`
//! or its next send; the rest are dropped. The app may drop a waiting entry itself
//! (`Conversation::discard_pending`).

use std::collections::VecDeque;

pub use crate::observe::{PendingReason, PendingSend, PendingSendKind};
use agentui_agui::Message;
use serde_json::{Map, Value};

/// The `forwardedProps` key naming the message or action a run delivers (see the module notes).
pub const IDEMPOTENCY_KEY_PROP: &str = "agentuiIdempotencyKey";

/// One entry with what its run needs.
#[derive(Debug, Clone, PartialEq)]
pub struct OutboxEntry {
    pub pending: PendingSend,
    pub payload: OutboxPayload,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OutboxPayload {
    /// The message, kept whole until it joins the conversation (`None` once it has). Shared:
    /// entries are copied to listeners (the store) on every change, and a message may carry
    /// megabytes of attachments.
    Message(Option<std::sync::Arc<Message>>),
    /// The action's `forwardedProps` members, sent with every attempt.
    Action(Map<String, Value>),
}

/// The entries in call order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outbox {
    entries: VecDeque<OutboxEntry>,
}

impl Outbox {
    pub fn from_entries(entries: Vec<OutboxEntry>) -> Self {
        Outbox { entries: entries.into() }
    }

    pub fn push(&mut self, entry: OutboxEntry) {
        self.entries.push_back(entry);
    }

    pub fn front(&self) -> Option<&OutboxEntry> {
        self.entries.front()
    }

    pub fn front_mut(&mut self) -> Option<&mut OutboxEntry> {
        self.entries.front_mut()
    }

    pub fn remove(&mut self, key: &str) -> Option<OutboxEntry> {
        let at = self.entries.iter().position(|e| e.pending.key == key)?;
        self.entries.remove(at)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.entries.iter().any(|e| e.pending.key == key)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn pending(&self) -> Vec<PendingSend> {
        self.entries.iter().map(|e| e.pending.clone()).collect()
    }

    pub fn entries(&self) -> impl Iterator<Item = &OutboxEntry> {
        self.entries.iter()
    }

    /// Whether the oldest entry is sent again without the app: not when the agent refused its
    /// credentials, and the others wait behind it (call order).
    pub fn retries_on_its_own(&self) -> bool {
        self.entries.front().is_some_and(|e| e.pending.reason == PendingReason::Unreached)
    }
}
