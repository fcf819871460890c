//! The conversation's one copy: the session changes it, the observers read it for snapshots.
//!
//! **Lock order.** This lock comes before the observers' hub (and before the A2UI bridge's),
//! never after. Whoever changes the messages, their kept-local marks or the state tells the
//! listeners before releasing it, so a snapshot (taken under it) and the deltas queued after
//! that snapshot always agree: a delta is either in the snapshot or after it, never both.
//!
//! **Wakes wait for the release.** A reader woken while this thread holds the lock could be
//! polled at once on this thread (a Kotlin coroutine resumed unconfined) and take the lock
//! again; so wakes asked for meanwhile are made when the thread releases it.

use std::cell::{Cell, RefCell};
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard};

use agentui_agui::reducer::ConversationState;

/// A reader to wake once no lock is held (see the module notes).
pub(crate) trait Wake: Send + Sync {
    fn wake(&self);
}

thread_local! {
    /// Conversations this thread holds locked.
    static HELD: Cell<usize> = const { Cell::new(0) };
    /// Wakes asked for while one was held.
    static DEFERRED: RefCell<Vec<Arc<dyn Wake>>> = const { RefCell::new(Vec::new()) };
    /// The input locks (a conversation's A2UI bridge) this thread holds, by address. The engine
    /// runs an app's functions under that lock, on whichever thread resolves the surface; one
    /// that calls back into its conversation would wait for its own thread.
    static INPUT_HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    /// How many times this thread locked a conversation (tests of how often a run locks it).
    #[cfg(test)]
    static LOCKS_TAKEN: Cell<usize> = const { Cell::new(0) };
}

/// How many times this thread has locked a conversation so far.
#[cfg(test)]
pub(crate) fn locks_taken_here() -> usize {
    LOCKS_TAKEN.with(Cell::get)
}

/// Whether this thread is inside a conversation's own work: it holds a conversation locked (a
/// run applying an event, a listener it tells), or a conversation's surfaces for input or
/// evaluation (an app's A2UI function runs then). A call that locks a conversation from here
/// would wait for its own thread, or take the surfaces' lock before the conversation's and
/// deadlock against a run on another thread; one that waits for a run would wait for the work
/// it interrupts. Such calls are refused instead ([`SessionError::Reentrant`]).
///
/// [`SessionError::Reentrant`]: crate::session::SessionError::Reentrant
pub(crate) fn inside_conversation_work() -> bool {
    HELD.with(Cell::get) > 0 || INPUT_HELD.with(|held| !held.borrow().is_empty())
}

/// Whether this thread holds `mutex` through [`lock_noted`]: a call that would lock it again
/// here must fail instead of waiting for itself.
pub(crate) fn held_here<T>(mutex: &Mutex<T>) -> bool {
    let address = mutex as *const Mutex<T> as usize;
    INPUT_HELD.with(|held| held.borrow().contains(&address))
}

/// Locks `mutex` (taking over the data of a holder that panicked, as `session::lock` does) and
/// notes it as held by this thread until the guard drops (see [`held_here`]).
pub(crate) fn lock_noted<T>(mutex: &Mutex<T>) -> NotedGuard<'_, T> {
    let guard = mutex.lock().unwrap_or_else(|p| p.into_inner());
    let address = mutex as *const Mutex<T> as usize;
    INPUT_HELD.with(|held| held.borrow_mut().push(address));
    NotedGuard { guard: Some(guard), address }
}

/// A lock noted as held by this thread (see [`lock_noted`]).
pub(crate) struct NotedGuard<'a, T> {
    guard: Option<MutexGuard<'a, T>>,
    address: usize,
}

impl<T> Deref for NotedGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.guard.as_ref().expect("held until dropped")
    }
}

impl<T> DerefMut for NotedGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.guard.as_mut().expect("held until dropped")
    }
}

impl<T> Drop for NotedGuard<'_, T> {
    fn drop(&mut self) {
        drop(self.guard.take());
        INPUT_HELD.with(|held| {
            let mut held = held.borrow_mut();
            if let Some(at) = held.iter().rposition(|a| *a == self.address) {
                held.remove(at);
            }
        });
    }
}

/// Wakes `readers` now, or, while this thread holds a conversation, when it releases it.
pub(crate) fn wake_all(readers: Vec<Arc<dyn Wake>>) {
    if readers.is_empty() {
        return;
    }
    if HELD.with(Cell::get) > 0 {
        DEFERRED.with(|deferred| deferred.borrow_mut().extend(readers));
    } else {
        readers.iter().for_each(|reader| reader.wake());
    }
}

/// The session's conversation, shared with its observers. Boxed, so a run lends it to its
/// pipeline for each event by swapping a pointer.
#[derive(Clone, Default)]
pub(crate) struct SharedConversation(Arc<Mutex<Box<ConversationState>>>);

impl std::fmt::Debug for SharedConversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedConversation").finish_non_exhaustive()
    }
}

impl SharedConversation {
    /// Locks the conversation, taking over the data of a holder that panicked: every holder
    /// leaves it consistent between events, and a panic poisons the session through its flag.
    pub fn lock(&self) -> ConversationGuard<'_> {
        let guard = self.0.lock().unwrap_or_else(|p| p.into_inner());
        HELD.with(|held| held.set(held.get() + 1));
        #[cfg(test)]
        LOCKS_TAKEN.with(|taken| taken.set(taken.get() + 1));
        ConversationGuard { guard: Some(guard) }
    }
}

/// The conversation, locked; the wakes asked for meanwhile are made on release.
pub struct ConversationGuard<'a> {
    /// `Some` until dropped: released before the deferred wakes are made.
    guard: Option<MutexGuard<'a, Box<ConversationState>>>,
}

impl ConversationGuard<'_> {
    /// The box itself, to lend to a run's pipeline (see `RunStream::apply_to`).
    pub(crate) fn boxed(&mut self) -> &mut Box<ConversationState> {
        self.guard.as_mut().expect("held until dropped")
    }
}

impl Deref for ConversationGuard<'_> {
    type Target = ConversationState;
    fn deref(&self) -> &ConversationState {
        self.guard.as_ref().expect("held until dropped")
    }
}

impl DerefMut for ConversationGuard<'_> {
    fn deref_mut(&mut self) -> &mut ConversationState {
        self.guard.as_mut().expect("held until dropped")
    }
}

impl Drop for ConversationGuard<'_> {
    fn drop(&mut self) {
        drop(self.guard.take());
        let still_held = HELD.with(|held| {
            let depth = held.get().saturating_sub(1);
            held.set(depth);
            depth > 0
        });
        if !still_held {
            let readers = DEFERRED.with(|deferred| std::mem::take(&mut *deferred.borrow_mut()));
            readers.iter().for_each(|reader| reader.wake());
        }
    }
}
