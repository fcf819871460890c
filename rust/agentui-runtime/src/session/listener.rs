//! What a session tells its observers, in the order it happened.
//!
//! Listeners are called inline, after each mutation and before the next one, so every listener
//! sees one consistent order. A panicking listener is contained: the session goes on.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, RwLock};

use agentui_a2ui::{SurfaceDiff, SurfaceEvent};

use super::outbox::OutboxEntry;
use crate::a2ui_bridge::PendingForAgent;
use crate::observe::ConversationDelta;
// The observable vocabulary lives in `crate::observe`; these are its session-side names.
pub use crate::observe::{RunPhase, SessionWarning, SessionWarningKind, ToolCallPhase, ToolCallUpdate};

/// What a session tells its listeners: a change of the conversation, in the vocabulary its
/// observers see ([`ConversationDelta`]), or a change of one A2UI surface (which observers follow
/// per surface, so it is not part of the conversation's deltas).
// Not boxed: one update per streamed piece, and boxing would allocate for each.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SessionUpdate {
    Delta(ConversationDelta),
    /// The whole message list was replaced (a `MESSAGES_SNAPSHOT`, an input echo, a restore). It
    /// carries no copy of the list, which may hold photos: read it from the conversation. Kept-local
    /// marks are cleared; a `MessageKeptLocal` follows for each message still kept. Observers see
    /// it as [`ConversationDelta::MessagesReset`] with the list as it is when they read it.
    MessagesReset,
    Surface(SurfaceEvent),
    /// The messages and actions waiting for the agent changed: every entry, with what its run
    /// needs (observers see them as [`ConversationDelta::PendingSends`]; a store keeps them).
    Outbox(Vec<OutboxEntry>),
    /// The A2UI errors waiting for the agent changed: all of them (a store keeps them until a
    /// request carrying them reached the agent).
    A2uiErrors(PendingForAgent),
}

impl fmt::Display for SessionUpdate {
    // One line per update, for logs and the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionUpdate::Delta(delta) => delta.fmt(f),
            SessionUpdate::MessagesReset => f.write_str("messages reset"),
            SessionUpdate::Surface(SurfaceEvent::Created { surface_id, catalog_id }) => {
                write!(f, "surface {surface_id} created ({catalog_id})")
            }
            SessionUpdate::Surface(SurfaceEvent::Changed { surface_id, diff }) => match diff {
                SurfaceDiff::Reset { nodes, .. } => write!(f, "surface {surface_id}: reset with {} nodes", nodes.len()),
                SurfaceDiff::Patch { upserted, removed } => {
                    write!(f, "surface {surface_id}: {} nodes changed, {} removed", upserted.len(), removed.len())
                }
            },
            SessionUpdate::Surface(SurfaceEvent::Deleted { surface_id }) => write!(f, "surface {surface_id} deleted"),
            SessionUpdate::Outbox(entries) => write!(f, "waiting for the agent: {}", entries.len()),
            SessionUpdate::A2uiErrors(pending) => {
                write!(f, "A2UI errors waiting for the agent: {}", pending.errors.len() + pending.omitted)
            }
        }
    }
}

/// Receives session updates. Implemented for closures. Called inline on the task that applies
/// the change (a run's, or a UI thread writing input); it must not add or remove listeners.
pub trait SessionListener: Send + Sync {
    fn on_update(&self, update: &SessionUpdate);

    /// A batch of updates is complete: the events read from the stream without waiting, or one
    /// piece of input. A store writes its transaction here; the default does nothing.
    fn batch_end(&self) {}

    /// A value the user wrote into surface `surface_id` (`set_value`, on the caller's thread) is
    /// complete: its updates were told, while a batch of the run may still be open. The default
    /// is [`batch_end`](Self::batch_end); a store notes the surface for its writer instead.
    fn input_end(&self, surface_id: &str) {
        let _ = surface_id;
        self.batch_end();
    }
}

impl<F> SessionListener for F
where
    F: Fn(&SessionUpdate) + Send + Sync,
{
    fn on_update(&self, update: &SessionUpdate) {
        self(update)
    }
}

/// Identifies a registered listener for removal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListenerId(u64);

#[derive(Default)]
struct ListenerList {
    next_id: u64,
    listeners: Vec<(ListenerId, Arc<dyn SessionListener>)>,
}

/// The session's listeners, shared with the parts of it that change during a run (input is
/// applied beside the run, and its surface changes go to the same listeners).
#[derive(Default, Clone)]
pub(crate) struct Listeners {
    list: Arc<RwLock<ListenerList>>,
}

impl Listeners {
    pub fn add(&self, listener: Arc<dyn SessionListener>) -> ListenerId {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        list.next_id += 1;
        let id = ListenerId(list.next_id);
        list.listeners.push((id, listener));
        id
    }

    pub fn remove(&self, id: ListenerId) -> bool {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        let before = list.listeners.len();
        list.listeners.retain(|(i, _)| *i != id);
        before != list.listeners.len()
    }

    pub fn emit(&self, update: SessionUpdate) {
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        for (_, l) in &list.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.on_update(&update)));
        }
    }

    /// The message list was replaced (see [`SessionUpdate::MessagesReset`]).
    pub fn messages_reset(&self) {
        self.emit(SessionUpdate::MessagesReset);
    }

    pub fn delta(&self, delta: ConversationDelta) {
        self.emit(SessionUpdate::Delta(delta));
    }

    pub fn batch_end(&self) {
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        for (_, l) in &list.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.batch_end()));
        }
    }

    pub fn input_end(&self, surface_id: &str) {
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        for (_, l) in &list.listeners {
            let _ = catch_unwind(AssertUnwindSafe(|| l.input_end(surface_id)));
        }
    }
}
