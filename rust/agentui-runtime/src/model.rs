//! The one observable model of a conversation: what observers see, kept by applying each
//! [`ConversationDelta`] and surface change in order. [`ConversationModel::apply`] is the only
//! place a message is upserted or streamed text appended, so a snapshot taken at any point of
//! the sequence equals the deltas before it applied to the snapshot before that.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use agentui_a2ui::node::ResolvedNode;
use agentui_a2ui::{SurfaceDiff, SurfaceEvent};
use agentui_agui::event::PatchOp;
use agentui_agui::message::MessageContent;
use agentui_agui::patch::{apply_patch_plain, apply_patch_weighed, PatchBounds, PlainPatch};
use agentui_agui::Message;

use crate::observe::{
    ConversationDelta, ConversationSnapshot, KeptLocal, RunPhase, SurfaceEntry, SurfaceSnapshot, ToolCallUpdate,
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

/// The observable state of one conversation.
#[derive(Debug, Default)]
pub(crate) struct ConversationModel {
    snapshot: ConversationSnapshot,
    /// Position of each message in `snapshot.messages`.
    message_index: HashMap<String, usize>,
    /// Position of each tool call in `snapshot.tool_calls`.
    tool_call_index: HashMap<String, usize>,
    /// The state's weight as the last patch left it, so a patch does not re-measure the state.
    state_weight: Option<usize>,
    surfaces: HashMap<String, SurfaceView>,
}

impl ConversationModel {
    /// The model at `snapshot`, with the surfaces' current resets.
    pub fn new(snapshot: ConversationSnapshot, surfaces: Vec<(SurfaceEntry, SurfaceDiff)>) -> Self {
        let mut model = ConversationModel { snapshot, ..ConversationModel::default() };
        model.reindex_messages();
        model.tool_call_index =
            model.snapshot.tool_calls.iter().enumerate().map(|(i, t)| (t.tool_call_id.clone(), i)).collect();
        for (entry, reset) in surfaces {
            let mut view = SurfaceView::new(entry.catalog_id.clone());
            view.apply(&reset);
            model.surfaces.insert(entry.surface_id.clone(), view);
            if !model.snapshot.surfaces.contains(&entry) {
                model.snapshot.surfaces.push(entry);
            }
        }
        model
    }

    pub fn snapshot(&self) -> ConversationSnapshot {
        self.snapshot.clone()
    }

    /// The snapshot, borrowed (a store copies only what changed).
    pub fn view(&self) -> &ConversationSnapshot {
        &self.snapshot
    }

    /// Message `id` and its position.
    pub fn message(&self, id: &str) -> Option<(usize, &Message)> {
        let &at = self.message_index.get(id)?;
        Some((at, self.snapshot.messages.get(at)?))
    }

    /// Tool call `id`'s last phase and its position.
    pub fn tool_call(&self, id: &str) -> Option<(usize, &ToolCallUpdate)> {
        let &at = self.tool_call_index.get(id)?;
        Some((at, self.snapshot.tool_calls.get(at)?))
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

    fn reindex_messages(&mut self) {
        self.message_index = self.snapshot.messages.iter().enumerate().map(|(i, m)| (m.id.clone(), i)).collect();
    }

    fn message_mut(&mut self, id: &str) -> Option<&mut Message> {
        let &at = self.message_index.get(id)?;
        self.snapshot.messages.get_mut(at)
    }

    fn upsert_message(&mut self, message: &Message) {
        match self.message_index.get(&message.id) {
            Some(&at) => self.snapshot.messages[at] = message.clone(),
            None => {
                self.message_index.insert(message.id.clone(), self.snapshot.messages.len());
                self.snapshot.messages.push(message.clone());
            }
        }
    }

    /// Applies one delta and says what subscribers should get instead, if not the delta itself:
    /// a state patch with `move`, `copy` or `test` goes out as the add/replace/remove ops it
    /// amounts to, so the platforms replay patches without those three, or as the whole state
    /// when spelling it out would weigh more (see [`apply_patch_plain`]).
    pub fn apply_for_subscribers(&mut self, delta: &ConversationDelta) -> Option<ConversationDelta> {
        let ConversationDelta::StatePatched(ops) = delta else {
            self.apply(delta);
            return None;
        };
        if !ops.iter().any(|op| matches!(op.op, PatchOp::Move | PatchOp::Copy | PatchOp::Test)) {
            self.apply(delta);
            return None;
        }
        match apply_patch_plain(&mut self.snapshot.state, self.state_weight, ops, PatchBounds::UNBOUNDED) {
            Ok((weight, plain)) => {
                self.state_weight = Some(weight);
                Some(match plain {
                    PlainPatch::Ops(ops) => ConversationDelta::StatePatched(ops),
                    PlainPatch::TooHeavy => ConversationDelta::StateReplaced(self.snapshot.state.clone()),
                })
            }
            // The session applied it, so this does not happen; the state stays as it was there too.
            Err(_) => None,
        }
    }

    /// Applies one delta. Text is appended in place (amortised O(piece)), as the reducer did.
    pub fn apply(&mut self, delta: &ConversationDelta) {
        match delta {
            ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => self.upsert_message(m),
            ConversationDelta::TextAppended { message_id, delta } => {
                if let Some(m) = self.message_mut(message_id) {
                    match &mut m.content {
                        Some(MessageContent::Text(text)) => text.push_str(delta),
                        other => *other = Some(MessageContent::Text(delta.clone())),
                    }
                }
            }
            ConversationDelta::ToolCallArgsAppended { message_id, tool_call_id, delta } => {
                let call = self
                    .message_mut(message_id)
                    .and_then(|m| m.tool_calls.as_mut())
                    .and_then(|calls| calls.iter_mut().find(|c| c.id == *tool_call_id));
                if let Some(call) = call {
                    call.function.arguments.push_str(delta);
                }
            }
            ConversationDelta::MessagesReset(messages) => {
                self.snapshot.messages = messages.clone();
                self.reindex_messages();
                self.snapshot.kept_local.clear();
            }
            ConversationDelta::MessageKeptLocal { message_id, reason } => {
                match self.snapshot.kept_local.iter_mut().find(|k| &k.message_id == message_id) {
                    Some(k) => k.reason = *reason,
                    None => {
                        self.snapshot.kept_local.push(KeptLocal { message_id: message_id.clone(), reason: *reason })
                    }
                }
            }
            ConversationDelta::StatePatched(ops) => {
                // The session applied these ops to the same state; one that fails here failed
                // there too and left the state as it was, as it does here.
                let weighed =
                    apply_patch_weighed(&mut self.snapshot.state, self.state_weight, ops, PatchBounds::UNBOUNDED);
                self.state_weight = weighed.ok();
            }
            ConversationDelta::StateReplaced(state) => {
                self.snapshot.state = state.clone();
                self.state_weight = None;
            }
            ConversationDelta::RunPhase(phase) => {
                // Steps belong to one run: none is open before it streams or after it ended.
                if !matches!(phase, RunPhase::Running { .. }) {
                    self.snapshot.active_steps.clear();
                }
                self.snapshot.phase = phase.clone();
            }
            ConversationDelta::Step { name, started: true } => self.snapshot.active_steps.push(name.clone()),
            ConversationDelta::Step { name, started: false } => {
                if let Some(at) = self.snapshot.active_steps.iter().rposition(|s| s == name) {
                    self.snapshot.active_steps.remove(at);
                }
            }
            ConversationDelta::ToolCall(update) => match self.tool_call_index.get(&update.tool_call_id) {
                Some(&at) => self.snapshot.tool_calls[at] = update.clone(),
                None => {
                    self.tool_call_index.insert(update.tool_call_id.clone(), self.snapshot.tool_calls.len());
                    self.snapshot.tool_calls.push(update.clone());
                }
            },
            ConversationDelta::Interrupts(pending) => self.snapshot.pending_interrupts = pending.clone(),
            ConversationDelta::PendingSends(pending) => self.snapshot.pending_sends = pending.clone(),
            ConversationDelta::SurfaceAdded(entry) => {
                self.snapshot.surfaces.retain(|s| s.surface_id != entry.surface_id);
                self.snapshot.surfaces.push(entry.clone());
            }
            ConversationDelta::SurfaceRemoved { surface_id } => {
                self.snapshot.surfaces.retain(|s| s.surface_id != *surface_id);
            }
            ConversationDelta::StateResyncNeeded { .. }
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
