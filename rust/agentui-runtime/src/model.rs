//! What observers see of a conversation beyond the conversation itself: kept by applying each
//! [`ConversationDelta`] and surface change in order. The messages and the state are not copied
//! here: a snapshot reads them from the session's one copy, under its lock, so a snapshot taken
//! at any point of the sequence equals the deltas before it applied to the snapshot before that.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use agentui_a2ui::node::ResolvedNode;
use agentui_a2ui::{SurfaceDiff, SurfaceEvent};
use agentui_agui::message::Interrupt;
use agentui_agui::reducer::ConversationState;
use agentui_agui::Message;

use crate::observe::{
    ConsentRequest, ConversationDelta, ConversationSnapshot, KeptLocal, PendingSend, RunPhase, SurfaceEntry,
    SurfaceSnapshot, ToolCallUpdate,
};

/// One surface's resolved nodes as the diffs left them (shared `Arc`s, never copies).
#[derive(Debug, Default)]
pub(crate) struct SurfaceView {
    catalog_id: String,
    root: Option<String>,
    nodes: Vec<Arc<ResolvedNode>>,
    index: HashMap<Arc<str>, usize>,
}

impl SurfaceView {
    fn new(catalog_id: String) -> Self {
        SurfaceView { catalog_id, ..SurfaceView::default() }
    }

    fn apply(&mut self, diff: &SurfaceDiff) {
        match diff {
            SurfaceDiff::Reset { root, nodes } => {
                self.root = root.clone();
                self.nodes = nodes.clone();
                self.reindex();
            }
            SurfaceDiff::Patch { upserted, removed } => {
                if !removed.is_empty() {
                    let gone: HashSet<&str> = removed.iter().map(|r| r.as_ref()).collect();
                    self.nodes.retain(|n| !gone.contains(n.id.as_ref()));
                    self.reindex();
                }
                for node in upserted {
                    match self.index.get(&node.id) {
                        Some(&slot) => self.nodes[slot] = node.clone(),
                        None => {
                            self.index.insert(node.id.clone(), self.nodes.len());
                            self.nodes.push(node.clone());
                        }
                    }
                }
            }
        }
    }

    fn reindex(&mut self) {
        self.index = self.nodes.iter().enumerate().map(|(i, n)| (n.id.clone(), i)).collect();
    }

    /// Depth-first from the root; nodes the root does not reach (yet) follow in arrival order,
    /// so a reset built from this loses nothing.
    fn ordered_nodes(&self) -> Vec<Arc<ResolvedNode>> {
        let mut ordered = Vec::with_capacity(self.nodes.len());
        let mut placed = vec![false; self.nodes.len()];
        let mut stack: Vec<&str> = self.root.as_deref().into_iter().collect();
        while let Some(id) = stack.pop() {
            let Some(&slot) = self.index.get(id) else { continue };
            // A child listed twice (or a cycle) is placed once.
            if std::mem::replace(&mut placed[slot], true) {
                continue;
            }
            let node = &self.nodes[slot];
            ordered.push(node.clone());
            stack.extend(node.children.iter().rev().map(|c| c.as_ref()));
        }
        ordered.extend(self.nodes.iter().zip(&placed).filter(|(_, p)| !**p).map(|(n, _)| n.clone()));
        ordered
    }

    pub fn reset(&self) -> SurfaceDiff {
        SurfaceDiff::Reset { root: self.root.clone(), nodes: self.ordered_nodes() }
    }
}

/// What one surface event means for the conversation's observers and the surface's own.
pub(crate) struct SurfaceChange {
    /// For conversation subscribers (a surface added or removed).
    pub delta: Option<ConversationDelta>,
    /// For the surface's subscribers.
    pub diff: Option<SurfaceDiff>,
}

/// What observers see of one conversation besides its messages and state, which they read from
/// the session's one copy ([`SharedConversation`](crate::shared_conversation::SharedConversation)):
/// the run's phase, tool calls, steps, interrupts, pending sends and surfaces.
#[derive(Debug, Default)]
pub(crate) struct ConversationModel {
    thread_id: String,
    phase: RunPhase,
    /// The last phase of every tool call, in the order the calls started.
    tool_calls: Vec<ToolCallUpdate>,
    /// Position of each tool call in `tool_calls`.
    tool_call_index: HashMap<String, usize>,
    pending_interrupts: Vec<Interrupt>,
    consent_requests: Vec<ConsentRequest>,
    consent_grants: Vec<String>,
    pending_sends: Vec<PendingSend>,
    active_steps: Vec<String>,
    surface_entries: Vec<SurfaceEntry>,
    surfaces: HashMap<String, SurfaceView>,
}

impl ConversationModel {
    /// The model at `snapshot` (whose messages and state are the conversation's, not kept
    /// here), with the surfaces' current resets.
    pub fn new(snapshot: ConversationSnapshot, surfaces: Vec<(SurfaceEntry, SurfaceDiff)>) -> Self {
        let mut model = ConversationModel {
            thread_id: snapshot.thread_id,
            phase: snapshot.phase,
            tool_call_index: snapshot.tool_calls.iter().enumerate().map(|(i, t)| (t.tool_call_id.clone(), i)).collect(),
            tool_calls: snapshot.tool_calls,
            pending_interrupts: snapshot.pending_interrupts,
            consent_requests: snapshot.consent_requests,
            consent_grants: snapshot.consent_grants,
            pending_sends: snapshot.pending_sends,
            active_steps: snapshot.active_steps,
            surface_entries: snapshot.surfaces,
            surfaces: HashMap::new(),
        };
        for (entry, reset) in surfaces {
            let mut view = SurfaceView::new(entry.catalog_id.clone());
            view.apply(&reset);
            model.surfaces.insert(entry.surface_id.clone(), view);
            if !model.surface_entries.contains(&entry) {
                model.surface_entries.push(entry);
            }
        }
        model
    }

    /// What observers see: `conversation`'s messages, marks and state with this model's rest.
    pub fn snapshot(&self, conversation: &ConversationState) -> ConversationSnapshot {
        self.snapshot_with(conversation, Message::clone)
    }

    /// A snapshot whose messages are `copy` of the conversation's (a view's leave large media out).
    pub fn snapshot_with(
        &self,
        conversation: &ConversationState,
        copy: fn(&Message) -> Message,
    ) -> ConversationSnapshot {
        ConversationSnapshot {
            thread_id: self.thread_id.clone(),
            messages: conversation.messages().iter().map(copy).collect(),
            state: conversation.state().clone(),
            phase: self.phase.clone(),
            tool_calls: self.tool_calls.clone(),
            pending_interrupts: self.pending_interrupts.clone(),
            surfaces: self.surface_entries.clone(),
            kept_local: kept_local(conversation),
            pending_sends: self.pending_sends.clone(),
            active_steps: self.active_steps.clone(),
            consent_requests: self.consent_requests.clone(),
            consent_grants: self.consent_grants.clone(),
        }
    }

    pub fn phase(&self) -> &RunPhase {
        &self.phase
    }

    pub fn pending_interrupts(&self) -> &[Interrupt] {
        &self.pending_interrupts
    }

    /// The consent requests and the granted tools, as the store keeps them.
    pub fn consent(&self) -> (&[ConsentRequest], &[String]) {
        (&self.consent_requests, &self.consent_grants)
    }

    pub fn surface_entries(&self) -> &[SurfaceEntry] {
        &self.surface_entries
    }

    /// Tool call `id`'s last phase and its position.
    pub fn tool_call(&self, id: &str) -> Option<(usize, &ToolCallUpdate)> {
        let &at = self.tool_call_index.get(id)?;
        Some((at, self.tool_calls.get(at)?))
    }

    pub fn surface(&self, surface_id: &str) -> Option<&SurfaceView> {
        self.surfaces.get(surface_id)
    }

    pub fn surface_snapshot(&self, surface_id: &str) -> Option<SurfaceSnapshot> {
        let view = self.surfaces.get(surface_id)?;
        Some(SurfaceSnapshot {
            surface_id: surface_id.to_owned(),
            catalog_id: view.catalog_id.clone(),
            root: view.root.clone(),
            nodes: view.ordered_nodes(),
        })
    }

    /// Applies one delta. Deltas about messages, their marks and the state change the
    /// conversation itself, which the session applied them to already: nothing to do here.
    pub fn apply(&mut self, delta: &ConversationDelta) {
        match delta {
            ConversationDelta::RunPhase(phase) => {
                // Steps belong to one run: none is open before it streams or after it ended.
                if !matches!(phase, RunPhase::Running { .. }) {
                    self.active_steps.clear();
                }
                self.phase = phase.clone();
            }
            ConversationDelta::Step { name, started: true } => self.active_steps.push(name.clone()),
            ConversationDelta::Step { name, started: false } => {
                if let Some(at) = self.active_steps.iter().rposition(|s| s == name) {
                    self.active_steps.remove(at);
                }
            }
            ConversationDelta::ToolCall(update) => match self.tool_call_index.get(&update.tool_call_id) {
                Some(&at) => self.tool_calls[at] = update.clone(),
                None => {
                    self.tool_call_index.insert(update.tool_call_id.clone(), self.tool_calls.len());
                    self.tool_calls.push(update.clone());
                }
            },
            ConversationDelta::Interrupts(pending) => self.pending_interrupts = pending.clone(),
            ConversationDelta::Consent { requests, granted_tools } => {
                self.consent_requests = requests.clone();
                self.consent_grants = granted_tools.clone();
            }
            ConversationDelta::PendingSends(pending) => self.pending_sends = pending.clone(),
            ConversationDelta::SurfaceAdded(entry) => {
                self.surface_entries.retain(|s| s.surface_id != entry.surface_id);
                self.surface_entries.push(entry.clone());
            }
            ConversationDelta::SurfaceRemoved { surface_id } => {
                self.surface_entries.retain(|s| s.surface_id != *surface_id);
            }
            ConversationDelta::MessageAdded(_)
            | ConversationDelta::MessageReplaced(_)
            | ConversationDelta::TextAppended { .. }
            | ConversationDelta::ToolCallArgsAppended { .. }
            | ConversationDelta::MessagesReset(_)
            | ConversationDelta::MessageKeptLocal { .. }
            | ConversationDelta::StatePatched(_)
            | ConversationDelta::StateReplaced(_)
            | ConversationDelta::StateResyncNeeded { .. }
            | ConversationDelta::Warning(_)
            | ConversationDelta::Custom { .. }
            | ConversationDelta::Raw { .. } => {}
        }
    }

    /// Applies one surface event; says what it means for each kind of observer.
    pub fn apply_surface(&mut self, event: &SurfaceEvent) -> SurfaceChange {
        match event {
            SurfaceEvent::Created { surface_id, catalog_id } => {
                self.surfaces.insert(surface_id.clone(), SurfaceView::new(catalog_id.clone()));
                let entry = SurfaceEntry { surface_id: surface_id.clone(), catalog_id: catalog_id.clone() };
                let delta = ConversationDelta::SurfaceAdded(entry);
                self.apply(&delta);
                // Subscribers of an earlier surface with this id start over.
                SurfaceChange { delta: Some(delta), diff: Some(SurfaceDiff::Reset { root: None, nodes: Vec::new() }) }
            }
            SurfaceEvent::Changed { surface_id, diff } => match self.surfaces.get_mut(surface_id) {
                Some(view) => {
                    view.apply(diff);
                    SurfaceChange { delta: None, diff: Some(diff.clone()) }
                }
                None => SurfaceChange { delta: None, diff: None },
            },
            SurfaceEvent::Deleted { surface_id } => {
                self.surfaces.remove(surface_id);
                let delta = ConversationDelta::SurfaceRemoved { surface_id: surface_id.clone() };
                self.apply(&delta);
                SurfaceChange { delta: Some(delta), diff: Some(SurfaceDiff::Reset { root: None, nodes: Vec::new() }) }
            }
        }
    }
}

/// The messages `conversation` keeps on this device, in message order.
pub(crate) fn kept_local(conversation: &ConversationState) -> Vec<KeptLocal> {
    conversation
        .messages()
        .iter()
        .filter_map(|m| Some(KeptLocal { message_id: m.id.clone(), reason: conversation.local_only(&m.id)? }))
        .collect()
}
