//! The conversation actor: the handle apps (through the FFI) and the CLI hold.
//!
//! Runs are serialised: `send_message`, `continue_run` and the agent-bound part of
//! `dispatch_action` queue in call order. Everything else applies at once, during a run too,
//! in the order it and the stream's events arrive: `set_value` and the local part of
//! `dispatch_action` take a short lock on the surfaces, tools and interrupts take effect on the
//! next request. Nothing is queued behind a run and no mutator answers "busy".
//!
//! Observers see one sequence ([`crate::observe`]): `subscribe` gives a snapshot, then deltas.
//! An async call returns after its run's end is published, so a subscriber that has seen the
//! call return has also been handed the run's last delta.

use std::sync::Arc;

use agentui_a2ui::node::ResolvedNode;
use agentui_a2ui::A2uiError;
use serde_json::Value;

use crate::observe::{ConversationSnapshot, Observed, SurfaceUpdate};
use crate::session::{ActionResult, ClientTool, ConversationSession, RunSummary, SessionError};

/// One surface's resolved tree at one point of the sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceSnapshot {
    pub surface_id: String,
    pub catalog_id: String,
    pub root: Option<String>,
    /// Depth-first from the root.
    pub nodes: Vec<Arc<ResolvedNode>>,
}

/// A live stream of a conversation's changes. Dropping it unsubscribes.
#[derive(Debug)]
pub struct Subscription {}

impl Subscription {
    /// The next item: a snapshot first (and after falling behind), then deltas. `None` once the
    /// conversation is gone.
    pub async fn recv(&mut self) -> Option<Observed> {
        todo!()
    }

    /// The next item if one is ready, without waiting.
    pub fn try_recv(&mut self) -> Option<Observed> {
        todo!()
    }
}

/// A live stream of one surface's diffs. Dropping it unsubscribes.
#[derive(Debug)]
pub struct SurfaceSubscription {}

impl SurfaceSubscription {
    /// The next diff: a `Reset` first (and after falling behind, and an empty one when the agent
    /// deleted the surface), then `Patch`es. `None` once the conversation is gone.
    pub async fn recv(&mut self) -> Option<SurfaceUpdate> {
        todo!()
    }

    pub fn try_recv(&mut self) -> Option<SurfaceUpdate> {
        todo!()
    }
}

/// One conversation with one agent. Cheap to clone; every clone is the same conversation.
#[derive(Debug, Clone)]
pub struct Conversation {}

impl Conversation {
    /// Takes over `session` and runs its actor on `runtime`.
    pub fn start(session: ConversationSession, runtime: tokio::runtime::Handle) -> Self {
        todo!()
    }

    pub fn thread_id(&self) -> &str {
        todo!()
    }

    /// Sends `text` as a user message and runs until the agent is done with it (client tools and
    /// follow-up runs included). Returns after the run's end was published to observers.
    pub async fn send_message(&self, text: String) -> Result<RunSummary, SessionError> {
        todo!()
    }

    /// Runs without a new message: after answering interrupts, or to deliver held tool results.
    pub async fn continue_run(&self) -> Result<RunSummary, SessionError> {
        todo!()
    }

    /// A user gesture on a node. Checked and resolved at once (the values the user sees); an
    /// event action then runs the agent, queued behind the run in flight.
    pub async fn dispatch_action(&self, surface_id: &str, node_id: &str) -> Result<ActionResult, SessionError> {
        todo!()
    }

    /// Writes user input into a surface's data model, at once (during a run too).
    pub fn set_value(&self, surface_id: &str, path: &str, value: Value) -> Result<(), A2uiError> {
        todo!()
    }

    /// Stops the run in flight and withdraws the runs queued behind it. Never blocks.
    pub fn cancel(&self) {
        todo!()
    }

    pub fn resolve_interrupt(&self, id: &str, payload: Option<Value>) -> Result<(), SessionError> {
        todo!()
    }

    pub fn cancel_interrupt(&self, id: &str) -> Result<(), SessionError> {
        todo!()
    }

    /// Declares a client tool; a run in flight keeps the tools it sent, the next request has it.
    pub fn register_tool(&self, tool: ClientTool) -> Result<(), SessionError> {
        todo!()
    }

    pub fn unregister_tool(&self, name: &str) -> bool {
        todo!()
    }

    pub fn snapshot(&self) -> ConversationSnapshot {
        todo!()
    }

    pub fn subscribe(&self) -> Subscription {
        todo!()
    }

    pub fn surface(&self, surface_id: &str) -> Option<SurfaceSnapshot> {
        todo!()
    }

    /// `None` if the surface does not exist.
    pub fn subscribe_surface(&self, surface_id: &str) -> Option<SurfaceSubscription> {
        todo!()
    }
}
