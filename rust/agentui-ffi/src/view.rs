//! The published side of a conversation: what the session last reported, and the queues of
//! its subscribers.
//!
//! `ConversationSession` is borrowed mutably for the whole of a run, so neither reads nor
//! subscriptions can go through it while the agent streams. The session's own listener
//! mechanism feeds this view instead, inline and in order: the view keeps the last message
//! list, state, run status and each surface's nodes (shared `Arc`s, not copies), and forwards
//! every update into one unbounded queue per subscriber. The queue is filled under the view's
//! lock, so a new surface subscriber's first item (the reset built from the view) and every
//! later diff arrive in the right order. A task per subscriber drains its queue and calls the
//! foreign listener, never under the lock, so listeners may call back in freely.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use agentui_a2ui::node::ResolvedNode;
use agentui_a2ui::{SurfaceDiff, SurfaceEvent};
use agentui_agui::message::Interrupt;
use agentui_agui::Message;
use agentui_runtime::session::{ConversationSession, RunPhase, SessionListener, SessionUpdate};
use serde_json::Value;
use tokio::runtime::Handle;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::task::AbortHandle;

/// One surface as the view holds it.
#[derive(Debug)]
pub(crate) struct SurfaceView {
    pub id: String,
    pub catalog_id: String,
    pub root: Option<String>,
    /// In the order the engine published them (depth-first from the root for a reset).
    pub nodes: Vec<Arc<ResolvedNode>>,
    index: HashMap<Arc<str>, usize>,
}

impl SurfaceView {
    fn new(id: String, catalog_id: String) -> Self {
        SurfaceView { id, catalog_id, root: None, nodes: Vec::new(), index: HashMap::new() }
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

    pub(crate) fn node(&self, id: &str) -> Option<&Arc<ResolvedNode>> {
        self.index.get(id).map(|&slot| &self.nodes[slot])
    }

    pub(crate) fn snapshot(&self) -> SurfaceDiff {
        SurfaceDiff::Reset { root: self.root.clone(), nodes: self.nodes.clone() }
    }
}

fn empty_reset() -> SurfaceDiff {
    SurfaceDiff::Reset { root: None, nodes: Vec::new() }
}

/// What the conversation last published.
#[derive(Debug, Default)]
pub(crate) struct View {
    pub messages: Vec<Message>,
    pub state: Value,
    pub status: RunPhase,
    pub interrupts: Vec<Interrupt>,
    pub surfaces: Vec<SurfaceView>,
    listeners: Vec<(u64, UnboundedSender<SessionUpdate>)>,
    surface_listeners: Vec<(u64, String, UnboundedSender<SurfaceDiff>)>,
    next_id: u64,
}

impl View {
    pub(crate) fn surface(&self, id: &str) -> Option<&SurfaceView> {
        self.surfaces.iter().find(|s| s.id == id)
    }

    fn apply(&mut self, update: &SessionUpdate) {
        match update {
            SessionUpdate::RunPhase(phase) => self.status = phase.clone(),
            SessionUpdate::MessageUpserted(message) => {
                match self.messages.iter_mut().rev().find(|m| m.id == message.id) {
                    Some(slot) => *slot = message.as_ref().clone(),
                    None => self.messages.push(message.as_ref().clone()),
                }
            }
            SessionUpdate::MessagesReset(messages) => self.messages = messages.clone(),
            SessionUpdate::StateChanged(state) => self.state = state.clone(),
            SessionUpdate::Surface(SurfaceEvent::Created { surface_id, catalog_id }) => {
                self.surfaces.retain(|s| s.id != *surface_id);
                self.surfaces.push(SurfaceView::new(surface_id.clone(), catalog_id.clone()));
            }
            SessionUpdate::Surface(SurfaceEvent::Changed { surface_id, diff }) => {
                if let Some(view) = self.surfaces.iter_mut().find(|s| s.id == *surface_id) {
                    view.apply(diff);
                }
                self.send_surface(surface_id, diff);
            }
            SessionUpdate::Surface(SurfaceEvent::Deleted { surface_id }) => {
                self.surfaces.retain(|s| s.id != *surface_id);
                self.send_surface(surface_id, &empty_reset());
            }
            SessionUpdate::ToolCall(_)
            | SessionUpdate::StateResyncNeeded { .. }
            | SessionUpdate::Warning(_)
            | SessionUpdate::Custom { .. }
            | SessionUpdate::Raw { .. }
            | SessionUpdate::Step { .. }
            | SessionUpdate::MessageKeptLocal { .. } => {}
        }
        // A closed queue belongs to a cancelled subscription.
        self.listeners.retain(|(_, tx)| tx.send(update.clone()).is_ok());
    }

    fn send_surface(&mut self, surface_id: &str, diff: &SurfaceDiff) {
        self.surface_listeners.retain(|(_, id, tx)| id != surface_id || tx.send(diff.clone()).is_ok());
    }

    /// Adopts the session's own values after an operation, when it is not borrowed.
    fn refresh(&mut self, session: &ConversationSession) {
        self.messages = session.messages().to_vec();
        self.state = session.state().clone();
        self.status = session.phase().clone();
        self.interrupts = session.pending_interrupts().to_vec();
        for view in &mut self.surfaces {
            if let Some(surface) = session.a2ui().group().surface(&view.id) {
                view.root = surface.has_root().then(|| surface.root_id().to_owned());
            }
        }
    }
}

/// The view plus the runtime subscriber tasks run on.
pub(crate) struct Published {
    view: Mutex<View>,
    handle: Handle,
}

impl Published {
    pub(crate) fn new(handle: Handle) -> Arc<Self> {
        Arc::new(Published { view: Mutex::new(View::default()), handle })
    }

    pub(crate) fn view(&self) -> MutexGuard<'_, View> {
        // Nothing foreign runs under this lock; a poisoned lock still holds a usable view.
        self.view.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn refresh(&self, session: &ConversationSession) {
        self.view().refresh(session);
    }

    pub(crate) fn refresh_interrupts(&self, session: &ConversationSession) {
        self.view().interrupts = session.pending_interrupts().to_vec();
    }

    /// Subscribes to every conversation update from now on.
    pub(crate) fn subscribe(
        self: &Arc<Self>,
        deliver: impl Fn(SessionUpdate) + Send + 'static,
    ) -> Arc<SubscriptionHandle> {
        let (tx, rx) = unbounded_channel();
        let id = {
            let mut view = self.view();
            view.next_id += 1;
            let id = view.next_id;
            view.listeners.push((id, tx));
            id
        };
        self.start(id, rx, deliver)
    }

    /// Subscribes to one surface: a reset of its current nodes first, then its diffs.
    pub(crate) fn subscribe_surface(
        self: &Arc<Self>,
        surface_id: &str,
        deliver: impl Fn(SurfaceDiff) + Send + 'static,
    ) -> Option<Arc<SubscriptionHandle>> {
        let (tx, rx) = unbounded_channel();
        let id = {
            let mut view = self.view();
            let first = view.surface(surface_id)?.snapshot();
            view.next_id += 1;
            let id = view.next_id;
            // Cannot fail: the receiver is right here.
            let _ = tx.send(first);
            view.surface_listeners.push((id, surface_id.to_owned(), tx));
            id
        };
        Some(self.start(id, rx, deliver))
    }

    fn start<T: Send + 'static>(
        self: &Arc<Self>,
        id: u64,
        mut rx: UnboundedReceiver<T>,
        deliver: impl Fn(T) + Send + 'static,
    ) -> Arc<SubscriptionHandle> {
        let active = Arc::new(AtomicBool::new(true));
        let still_active = active.clone();
        let task = self.handle.spawn(async move {
            while let Some(item) = rx.recv().await {
                if !still_active.load(Ordering::SeqCst) {
                    break;
                }
                // A listener's panic stays here; the next update is delivered as usual.
                if catch_unwind(AssertUnwindSafe(|| deliver(item))).is_err() {
                    tracing::warn!("a listener panicked; the update was dropped");
                }
            }
        });
        Arc::new(SubscriptionHandle { published: Arc::downgrade(self), id, task: task.abort_handle(), active })
    }

    fn unsubscribe(&self, id: u64) {
        let mut view = self.view();
        view.listeners.retain(|(i, _)| *i != id);
        view.surface_listeners.retain(|(i, _, _)| *i != id);
    }
}

/// Feeds the session's updates into the view; registered first, so the view is current
/// before any subscriber hears of a change.
pub(crate) struct ViewUpdater(pub Arc<Published>);

impl SessionListener for ViewUpdater {
    fn on_update(&self, update: &SessionUpdate) {
        self.0.view().apply(update);
    }
}

/// A live subscription. Cancelled by `cancel()`, by `close()` and when dropped.
#[derive(uniffi::Object)]
pub struct SubscriptionHandle {
    published: Weak<Published>,
    id: u64,
    task: AbortHandle,
    /// Shared with the delivery task, which checks it before every delivery.
    active: Arc<AtomicBool>,
}

impl std::fmt::Debug for SubscriptionHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubscriptionHandle").field("id", &self.id).field("active", &self.is_active()).finish()
    }
}

#[uniffi::export]
impl SubscriptionHandle {
    /// Stops the deliveries. A delivery already in progress finishes; none starts after.
    /// Idempotent.
    pub fn cancel(&self) {
        if self.active.swap(false, Ordering::SeqCst) {
            if let Some(published) = self.published.upgrade() {
                published.unsubscribe(self.id);
            }
            self.task.abort();
        }
    }

    /// False once cancelled, or when the runtime shut down.
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::SeqCst) && !self.task.is_finished()
    }
}

impl Drop for SubscriptionHandle {
    fn drop(&mut self) {
        self.cancel();
    }
}
