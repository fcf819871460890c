//! Delivery to observers: the model and every subscriber's bounded queue behind one lock.
//!
//! A change is applied to the [`ConversationModel`] and pushed to the queues under the same
//! lock, so the queues hold exactly the sequence the model went through. The messages and the
//! state are the session's own copy, which it changes and tells of under its lock, taken before
//! this one (see [`crate::shared_conversation`]); a snapshot takes both, so it is consistent
//! with the queues. A subscriber whose queue is full loses it: it is
//! marked lagging and receives nothing until it asks again, when it gets a fresh snapshot
//! (taken then, under the lock) followed by the changes after it. A slow subscriber costs a
//! re-render, never unbounded memory, and one never polled costs at most one full queue.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use agentui_a2ui::{SurfaceDiff, SurfaceEvent};
use agentui_agui::reducer::ConversationState;
use agentui_agui::Message;
use serde_json::Value;
use tokio::sync::Notify;

use crate::model::{kept_local, ConversationModel};
use crate::observe::{ConversationDelta, ConversationSnapshot, Observed, SurfaceSnapshot, ABSORB_LIMIT};
use crate::session::{SessionListener, SessionUpdate};
use crate::shared_conversation::{inside_conversation_work, wake_all, SharedConversation, Wake};
use crate::view::{for_view, ViewBatch, ViewFeed};

/// Items one subscriber's queue holds before it counts as lagging.
pub(crate) const QUEUE_CAPACITY: usize = 8192;

/// A queued item that can take in the one published after it (see [`ABSORB_LIMIT`]). Both work
/// from a reference to what is published, so a subscriber pays a copy only for an item that takes
/// a place in its queue: a streamed piece absorbed into the one queued before it allocates nothing.
pub(crate) trait Absorb: Sized {
    /// What is published, lent to each subscriber.
    type Published;
    /// Takes `next` into `self` when it can; `false` leaves `self` as it was.
    fn absorb(&mut self, next: &Self::Published) -> bool;
    /// `next` as a queue entry of its own.
    fn queued(next: &Self::Published) -> Self;
}

/// Appends `incoming` to `queued` when both stream the same text and the result stays bounded.
fn absorb_delta(queued: &mut Observed, incoming: &ConversationDelta) -> bool {
    use ConversationDelta::{TextAppended, ToolCallArgsAppended};
    let Observed::Delta(queued) = queued else { return false };
    let (queued_text, incoming_text) = match (queued, incoming) {
        (TextAppended { message_id, delta }, TextAppended { message_id: id, delta: more }) if message_id == id => {
            (delta, more)
        }
        (
            ToolCallArgsAppended { message_id, tool_call_id, delta },
            ToolCallArgsAppended { message_id: id, tool_call_id: call, delta: more },
        ) if message_id == id && tool_call_id == call => (delta, more),
        _ => return false,
    };
    if queued_text.len() + incoming_text.len() > ABSORB_LIMIT {
        return false;
    }
    queued_text.push_str(incoming_text);
    true
}

/// What a subscriber's queue holds: the conversation's items, and where its message list was
/// replaced.
// As `Observed`: boxing the hot variant would cost an allocation per streamed piece.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum SubscriberItem {
    Observed(Observed),
    /// The message list was replaced: read from the conversation when this is read (see
    /// [`take_reset`]), so a reset queues no copy of the messages.
    MessagesReset,
}

// Only deltas are published to every subscriber; a snapshot is made for one.
impl Absorb for SubscriberItem {
    type Published = ConversationDelta;

    fn absorb(&mut self, next: &ConversationDelta) -> bool {
        match self {
            SubscriberItem::Observed(queued) => absorb_delta(queued, next),
            SubscriberItem::MessagesReset => false,
        }
    }

    fn queued(next: &ConversationDelta) -> Self {
        SubscriberItem::Observed(Observed::Delta(next.clone()))
    }
}

/// Whether `delta` changes the messages or their marks: a reset read later holds it already.
fn about_messages(delta: &ConversationDelta) -> bool {
    matches!(
        delta,
        ConversationDelta::MessageAdded(_)
            | ConversationDelta::MessageReplaced(_)
            | ConversationDelta::TextAppended { .. }
            | ConversationDelta::ToolCallArgsAppended { .. }
            | ConversationDelta::MessagesReset(_)
            | ConversationDelta::MessageKeptLocal { .. }
    )
}

/// A reset read from a queue: the messages as `conversation` holds them now (each as `copy`
/// makes it), then the marks it holds now. The changes of the messages queued after the reset
/// are in that list already: they leave `queue` (as does a later reset), so none applies twice,
/// while the others keep their places. The session changes the messages and tells of it under
/// the conversation's lock, which the caller holds: the queue holds exactly the message changes
/// the conversation went through since the reset.
fn take_reset<T>(
    conversation: &ConversationState,
    queue: &mut VecDeque<T>,
    about_messages: impl Fn(&T) -> bool,
    copy: fn(&Message) -> Message,
) -> (ConversationDelta, Vec<ConversationDelta>) {
    queue.retain(|item| !about_messages(item));
    let messages = conversation.messages().iter().map(copy).collect();
    let marks = kept_local(conversation)
        .into_iter()
        .map(|k| ConversationDelta::MessageKeptLocal { message_id: k.message_id, reason: k.reason })
        .collect();
    (ConversationDelta::MessagesReset(messages), marks)
}

/// What a view subscriber's queue holds: the conversation's items, and its own barriers.
// As `Observed`: boxing the hot variant would cost an allocation per streamed piece.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum ViewItem {
    Observed(Observed),
    /// Everything queued before it was published before `barrier()` returned this number.
    Barrier(u64),
    /// The message list was replaced: read from the conversation when this is read.
    MessagesReset,
}

impl Absorb for ViewItem {
    type Published = ConversationDelta;

    fn absorb(&mut self, next: &ConversationDelta) -> bool {
        match self {
            ViewItem::Observed(queued) => absorb_delta(queued, next),
            ViewItem::Barrier(_) | ViewItem::MessagesReset => false,
        }
    }

    fn queued(next: &ConversationDelta) -> Self {
        ViewItem::Observed(Observed::Delta(view_delta(next)))
    }
}

/// `delta` as a view queues it: messages without their large inline media (see
/// [`crate::view::VIEW_INLINE_DATA_LIMIT`]).
fn view_delta(delta: &ConversationDelta) -> ConversationDelta {
    match delta {
        ConversationDelta::MessageAdded(m) => ConversationDelta::MessageAdded(for_view(m)),
        ConversationDelta::MessageReplaced(m) => ConversationDelta::MessageReplaced(for_view(m)),
        other => other.clone(),
    }
}

/// A snapshot as a view starts from: messages without their large inline media.
fn view_snapshot(conversation: &ConversationState, model: &ConversationModel) -> Observed {
    Observed::Snapshot(Box::new(model.snapshot_with(conversation, for_view)))
}

/// Most queued items one view batch takes: a bound on the time the hub is held and on a batch.
const MAX_VIEW_ITEMS: usize = 4096;

impl Absorb for SurfaceDiff {
    type Published = SurfaceDiff;

    fn absorb(&mut self, _: &SurfaceDiff) -> bool {
        false
    }

    fn queued(next: &SurfaceDiff) -> Self {
        next.clone()
    }
}

/// One subscriber's queue.
#[derive(Debug)]
pub(crate) struct Inbox<T> {
    state: Mutex<InboxState<T>>,
    ready: Notify,
}

#[derive(Debug)]
struct InboxState<T> {
    queue: VecDeque<T>,
    /// The queue overflowed and was dropped; the next read starts from a fresh snapshot.
    lagging: bool,
    closed: bool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl<T: Absorb> Inbox<T> {
    fn new(first: T) -> Arc<Self> {
        Arc::new(Inbox {
            state: Mutex::new(InboxState { queue: VecDeque::from([first]), lagging: false, closed: false }),
            ready: Notify::new(),
        })
    }

    /// An inbox whose first read takes a fresh snapshot, as after falling behind: made without
    /// the conversation's lock (see [`Observers::subscribe`]).
    fn starting_behind() -> Arc<Self> {
        Arc::new(Inbox {
            state: Mutex::new(InboxState { queue: VecDeque::new(), lagging: true, closed: false }),
            ready: Notify::new(),
        })
    }

    /// Queues `item`; true when the reader must be woken ([`Wake::wake`]), which the caller does
    /// once it holds no lock: a reader's waker may poll it again at once, on this thread (a
    /// Kotlin coroutine resumed unconfined), and that read takes the hub's lock.
    #[must_use]
    fn push(&self, item: &T::Published) -> bool {
        self.push_entry(|queued| if queued.is_some_and(|q| q.absorb(item)) { None } else { Some(T::queued(item)) })
    }

    /// Queues `item` as an entry of its own (a barrier); true as for [`Inbox::push`].
    #[must_use]
    fn push_owned(&self, item: T) -> bool {
        self.push_entry(|_| Some(item))
    }

    /// `entry` is given the last queued item (to absorb into) and returns what to queue, if any.
    fn push_entry(&self, entry: impl FnOnce(Option<&mut T>) -> Option<T>) -> bool {
        let mut state = lock(&self.state);
        if state.lagging || state.closed {
            return false;
        }
        // Readers pop under this lock too, so a queued item is whole when read. It was already
        // signalled, so absorbing needs no new signal.
        let Some(item) = entry(state.queue.back_mut()) else { return false };
        if state.queue.len() >= QUEUE_CAPACITY {
            state.queue = VecDeque::new();
            state.lagging = true;
        } else {
            state.queue.push_back(item);
        }
        true
    }

    /// Marks the inbox closed; the caller wakes the reader once it holds no lock.
    pub(crate) fn mark_closed(&self) {
        lock(&self.state).closed = true;
    }

    /// Closes the inbox and wakes its reader; never call it holding the hub's lock.
    pub(crate) fn close(&self) {
        self.mark_closed();
        self.ready.notify_one();
    }
}

impl<T: Send> Wake for Inbox<T> {
    fn wake(&self) {
        self.ready.notify_one();
    }
}

/// What [`Inbox`] reading yields before falling back to the model.
enum Next<T> {
    Item(T),
    Lagging,
    Closed,
    Empty,
}

impl<T> Inbox<T> {
    fn next(&self) -> Next<T> {
        let mut state = lock(&self.state);
        match state.queue.pop_front() {
            Some(item) => Next::Item(item),
            None if state.lagging => Next::Lagging,
            None if state.closed => Next::Closed,
            None => Next::Empty,
        }
    }
}

struct Hub {
    /// What observers see besides the conversation's messages and state.
    model: ConversationModel,
    subscribers: Vec<Weak<Inbox<SubscriberItem>>>,
    view_subscribers: Vec<Weak<Inbox<ViewItem>>>,
    /// Readers to wake once the hub's lock is released (see [`Inbox::push`]).
    woken: Vec<Arc<dyn Wake>>,
    surface_subscribers: Vec<(String, Weak<Inbox<SurfaceDiff>>)>,
    closed: bool,
}

/// The model and its subscribers. Installed as the session's listener.
/// A media part's bytes as the conversation holds them.
pub(crate) enum InlineMedia {
    Bytes(Vec<u8>),
    /// Held by the store: (reference, base64 length), read back by the caller.
    Stored(String, usize),
}

pub(crate) struct Observers {
    /// The session's conversation: always locked before `hub`.
    conversation: SharedConversation,
    hub: Mutex<Hub>,
}

impl std::fmt::Debug for Observers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observers").finish_non_exhaustive()
    }
}

impl Observers {
    pub fn new(model: ConversationModel, conversation: SharedConversation) -> Arc<Self> {
        Arc::new(Observers {
            conversation,
            hub: Mutex::new(Hub {
                model,
                subscribers: Vec::new(),
                view_subscribers: Vec::new(),
                woken: Vec::new(),
                surface_subscribers: Vec::new(),
                closed: false,
            }),
        })
    }

    fn hub(&self) -> MutexGuard<'_, Hub> {
        lock(&self.hub)
    }

    /// Reads the conversation and the model as one (a store copies what changed).
    pub fn read<R>(&self, read: impl FnOnce(&ConversationState, &ConversationModel) -> R) -> R {
        let conversation = self.conversation.lock();
        read(&conversation, &self.hub().model)
    }

    /// Changes the conversation's messages in place without telling anyone: only for what no
    /// observer sees change (the store moving a part's data into its file; views already hold
    /// large data back, see [`crate::view`]).
    pub fn quietly_mut<R>(&self, change: impl FnOnce(&mut ConversationState) -> R) -> R {
        let mut conversation = self.conversation.lock();
        change(&mut conversation)
    }

    /// Reads the model alone (the hub's lock, which a keystroke takes too: keep it short).
    pub fn read_model<R>(&self, read: impl FnOnce(&ConversationModel) -> R) -> R {
        read(&self.hub().model)
    }

    pub fn snapshot(&self) -> ConversationSnapshot {
        self.read(|conversation, model| model.snapshot(conversation))
    }

    pub fn surface(&self, surface_id: &str) -> Option<SurfaceSnapshot> {
        self.hub().model.surface_snapshot(surface_id)
    }

    /// A queue that starts with the current snapshot. From inside the conversation's own work
    /// (see [`inside_conversation_work`]) the conversation is not locked: the snapshot is taken
    /// by the first read, which is then made outside.
    pub fn subscribe(&self) -> Arc<Inbox<SubscriberItem>> {
        if inside_conversation_work() {
            return self.register(Inbox::starting_behind(), |hub| &mut hub.subscribers);
        }
        let conversation = self.conversation.lock();
        let mut hub = self.hub();
        let inbox =
            Inbox::new(SubscriberItem::Observed(Observed::Snapshot(Box::new(hub.model.snapshot(&conversation)))));
        if hub.closed {
            inbox.close();
        }
        hub.subscribers.push(Arc::downgrade(&inbox));
        inbox
    }

    /// A view queue that starts with the current snapshot (taken by the first read from inside
    /// the conversation's own work, as for [`Observers::subscribe`]).
    pub fn subscribe_view(&self) -> Arc<Inbox<ViewItem>> {
        if inside_conversation_work() {
            return self.register(Inbox::starting_behind(), |hub| &mut hub.view_subscribers);
        }
        let conversation = self.conversation.lock();
        let mut hub = self.hub();
        let inbox = Inbox::new(ViewItem::Observed(view_snapshot(&conversation, &hub.model)));
        if hub.closed {
            inbox.close();
        }
        hub.view_subscribers.push(Arc::downgrade(&inbox));
        inbox
    }

    /// Adds `inbox` to the hub's list that `list` picks (closed at once if the hub is).
    fn register<T: Absorb>(
        &self,
        inbox: Arc<Inbox<T>>,
        list: impl FnOnce(&mut Hub) -> &mut Vec<Weak<Inbox<T>>>,
    ) -> Arc<Inbox<T>> {
        let mut hub = self.hub();
        if hub.closed {
            inbox.mark_closed();
        }
        list(&mut hub).push(Arc::downgrade(&inbox));
        inbox
    }

    /// Drops what `inbox` holds and makes its next read a fresh snapshot, as if it had fallen
    /// behind (a reader that found a batch it could not apply asks for this).
    pub fn resync(&self, inbox: &Inbox<ViewItem>) {
        let hub = self.hub();
        let mut state = lock(&inbox.state);
        state.queue.clear();
        state.lagging = true;
        drop(state);
        drop(hub);
        inbox.wake();
    }

    /// Queues barrier `number` behind everything published so far (under the hub's lock, so no
    /// publish can slip in between).
    pub fn barrier(&self, inbox: &Inbox<ViewItem>, number: u64) {
        let hub = self.hub();
        let wake = inbox.push_owned(ViewItem::Barrier(number));
        drop(hub);
        if wake {
            inbox.wake();
        }
    }

    /// The next batch of `inbox`: `None` when nothing is queued, `Some(None)` once the
    /// conversation is gone and all was read. The queue is read under its own lock only, so the
    /// run keeps publishing meanwhile; a state change reads the model's state once, at the end
    /// (it may be a little newer than the batch's last item: the next batch then repeats it). A
    /// subscriber that fell behind starts again from a fresh snapshot, taken under the hub's
    /// lock, which completes every barrier issued so far (`issued`).
    pub fn next_view(&self, inbox: &Inbox<ViewItem>, feed: &mut ViewFeed, issued: u64) -> Option<Option<ViewBatch>> {
        let mut batch = ViewBatch::default();
        let mut taken = 0;
        let mut state_changed = false;
        while taken < MAX_VIEW_ITEMS {
            match inbox.next() {
                Next::Item(ViewItem::Observed(item)) => {
                    taken += 1;
                    if !feed.push(&mut batch, &item, &mut || {
                        state_changed = true;
                        Value::Null
                    }) {
                        break;
                    }
                }
                Next::Item(ViewItem::Barrier(number)) => {
                    taken += 1;
                    batch.settled = batch.settled.max(number);
                }
                Next::Item(ViewItem::MessagesReset) => {
                    taken += 1;
                    // Copied under the locks without large media; the items are built after.
                    let (reset, marks) = {
                        let conversation = self.conversation.lock();
                        let _hub = self.hub();
                        let mut inbox_state = lock(&inbox.state);
                        let about = |item: &ViewItem| match item {
                            ViewItem::Observed(Observed::Delta(delta)) => about_messages(delta),
                            ViewItem::MessagesReset => true,
                            ViewItem::Observed(Observed::Snapshot(_)) | ViewItem::Barrier(_) => false,
                        };
                        take_reset(&conversation, &mut inbox_state.queue, about, for_view)
                    };
                    let mut state = || {
                        state_changed = true;
                        Value::Null
                    };
                    // Neither a reset nor a mark ends a batch.
                    feed.push(&mut batch, &Observed::Delta(reset), &mut state);
                    for mark in marks {
                        feed.push(&mut batch, &Observed::Delta(mark), &mut state);
                    }
                }
                Next::Lagging => {
                    // Under both locks no change is pushed, so the snapshot and the queue agree.
                    let conversation = self.conversation.lock();
                    let hub = self.hub();
                    let mut inbox_state = lock(&inbox.state);
                    inbox_state.lagging = false;
                    inbox_state.queue.clear();
                    drop(inbox_state);
                    taken += 1;
                    let snapshot = view_snapshot(&conversation, &hub.model);
                    feed.push(&mut batch, &snapshot, &mut || Value::Null);
                    batch.settled = batch.settled.max(issued);
                    state_changed = false;
                    break;
                }
                Next::Closed if taken == 0 => return Some(None),
                Next::Closed | Next::Empty => break,
            }
        }
        if state_changed {
            batch.state = Some(self.conversation.lock().state().clone());
        }
        feed.finish(&mut batch);
        (taken > 0).then_some(Some(batch))
    }

    /// The bytes of media part `part` of message `message_id` when it carries inline data,
    /// decoded; `None` when there is no such part, it has no inline data, or the data is not
    /// base64. Decoded under the conversation's lock (a few milliseconds for a photo, no copy of
    /// its text); the caller runs it on a blocking thread.
    pub fn inline_media(&self, message_id: &str, part: usize) -> Option<InlineMedia> {
        use agentui_agui::message::{ContentPart, MessageContent};
        use base64::Engine as _;
        // Under the lock only what finds the data: a stored part's reference, or a copy of the
        // inline text (decoded after the lock is released).
        let text = {
            let conversation = self.conversation.lock();
            let Some(MessageContent::Parts(parts)) = &conversation.message(message_id)?.content else { return None };
            let part = parts.get(part)?;
            if let Some((reference, length)) = crate::store::media::stored_reference(part) {
                return Some(InlineMedia::Stored(reference.to_owned(), length));
            }
            let (ContentPart::Image(media)
            | ContentPart::Audio(media)
            | ContentPart::Video(media)
            | ContentPart::Document(media)) = part
            else {
                return None;
            };
            let agentui_agui::PartSource::Data { value, .. } = &media.source else { return None };
            value.clone()
        };
        base64::engine::general_purpose::STANDARD.decode(text).ok().map(InlineMedia::Bytes)
    }

    /// A queue that starts with the surface's reset; `None` if there is no such surface.
    pub fn subscribe_surface(&self, surface_id: &str) -> Option<Arc<Inbox<SurfaceDiff>>> {
        let mut hub = self.hub();
        let inbox = Inbox::new(hub.model.surface(surface_id)?.reset());
        if hub.closed {
            inbox.close();
        }
        hub.surface_subscribers.push((surface_id.to_owned(), Arc::downgrade(&inbox)));
        Some(inbox)
    }

    /// The conversation is gone: readers get what is queued, then the end.
    pub fn close(&self) {
        let mut hub = self.hub();
        hub.closed = true;
        let mut woken: Vec<Arc<dyn Wake>> = Vec::new();
        for inbox in hub.subscribers.iter().filter_map(Weak::upgrade) {
            inbox.mark_closed();
            woken.push(inbox);
        }
        for inbox in hub.view_subscribers.iter().filter_map(Weak::upgrade) {
            inbox.mark_closed();
            woken.push(inbox);
        }
        for inbox in hub.surface_subscribers.iter().filter_map(|(_, i)| i.upgrade()) {
            inbox.mark_closed();
            woken.push(inbox);
        }
        drop(hub);
        wake_all(woken);
    }

    /// The next item of `inbox`; a fresh snapshot if it fell behind, the list as it is now for a
    /// reset (see [`take_reset`]).
    pub fn next(&self, inbox: &Inbox<SubscriberItem>) -> Option<Option<Observed>> {
        let item = self.next_or_resync(inbox, |conversation, model| {
            SubscriberItem::Observed(Observed::Snapshot(Box::new(model.snapshot(conversation))))
        });
        match item {
            Some(Some(SubscriberItem::Observed(item))) => Some(Some(item)),
            Some(Some(SubscriberItem::MessagesReset)) => {
                let conversation = self.conversation.lock();
                let _hub = self.hub();
                let mut state = lock(&inbox.state);
                let about = |item: &SubscriberItem| match item {
                    SubscriberItem::Observed(Observed::Delta(delta)) => about_messages(delta),
                    SubscriberItem::MessagesReset => true,
                    SubscriberItem::Observed(Observed::Snapshot(_)) => false,
                };
                let (reset, marks) = take_reset(&conversation, &mut state.queue, about, Message::clone);
                // The marks are read next, before what was queued after the reset.
                for mark in marks.into_iter().rev() {
                    state.queue.push_front(SubscriberItem::Observed(Observed::Delta(mark)));
                }
                Some(Some(Observed::Delta(reset)))
            }
            Some(None) => Some(None),
            None => None,
        }
    }

    /// The next diff of `inbox` for `surface_id`; a reset if it fell behind (empty if the
    /// surface is gone). The conversation is not locked: surface changes are told under the
    /// hub's lock, and a surface's subscriber may read from inside an app function.
    pub fn next_diff(&self, surface_id: &str, inbox: &Inbox<SurfaceDiff>) -> Option<Option<SurfaceDiff>> {
        match inbox.next() {
            Next::Item(item) => Some(Some(item)),
            Next::Closed => Some(None),
            Next::Empty => None,
            Next::Lagging => {
                let hub = self.hub();
                let mut state = lock(&inbox.state);
                state.lagging = false;
                state.queue.clear();
                let reset = hub
                    .model
                    .surface(surface_id)
                    .map_or_else(|| SurfaceDiff::Reset { root: None, nodes: Vec::new() }, |view| view.reset());
                Some(Some(reset))
            }
        }
    }

    /// The next item of `inbox`: `None` when it is empty, `Some(None)` once it is closed, and
    /// `resync(model)` in place of the dropped queue of a subscriber that fell behind.
    fn next_or_resync<T>(
        &self,
        inbox: &Inbox<T>,
        resync: impl FnOnce(&ConversationState, &ConversationModel) -> T,
    ) -> Option<Option<T>> {
        match inbox.next() {
            Next::Item(item) => Some(Some(item)),
            Next::Closed => Some(None),
            Next::Empty => None,
            Next::Lagging => {
                // Under both locks no change is pushed, so the resync and the queue agree.
                let conversation = self.conversation.lock();
                let hub = self.hub();
                let mut state = lock(&inbox.state);
                state.lagging = false;
                state.queue.clear();
                Some(Some(resync(&conversation, &hub.model)))
            }
        }
    }
}

/// Waits for the next item: `next` is tried, then the inbox's signal awaited. A push between
/// the try and the wait leaves a permit, so no item is missed.
pub(crate) async fn wait_for<T, I>(inbox: &Inbox<I>, mut next: impl FnMut() -> Option<Option<T>>) -> Option<T> {
    loop {
        if let Some(item) = next() {
            return item;
        }
        inbox.ready.notified().await;
    }
}

impl Hub {
    /// The message list was replaced: every queue notes it, without a copy of the list.
    fn publish_reset(&mut self) {
        let woken = &mut self.woken;
        self.view_subscribers.retain(|weak| match weak.upgrade() {
            Some(inbox) => {
                if inbox.push_owned(ViewItem::MessagesReset) {
                    woken.push(inbox);
                }
                true
            }
            None => false,
        });
        self.subscribers.retain(|weak| match weak.upgrade() {
            Some(inbox) => {
                if inbox.push_owned(SubscriberItem::MessagesReset) {
                    woken.push(inbox);
                }
                true
            }
            None => false,
        });
    }

    fn publish(&mut self, item: &ConversationDelta) {
        // Dropped subscriptions are pruned as they are met.
        let woken = &mut self.woken;
        self.view_subscribers.retain(|weak| match weak.upgrade() {
            Some(inbox) => {
                if inbox.push(item) {
                    woken.push(inbox);
                }
                true
            }
            None => false,
        });
        self.subscribers.retain(|weak| match weak.upgrade() {
            Some(inbox) => {
                if inbox.push(item) {
                    woken.push(inbox);
                }
                true
            }
            None => false,
        });
    }

    fn publish_diff(&mut self, surface_id: &str, diff: &SurfaceDiff) {
        let woken = &mut self.woken;
        self.surface_subscribers.retain(|(id, weak)| match weak.upgrade() {
            Some(inbox) => {
                if id == surface_id && inbox.push(diff) {
                    woken.push(inbox);
                }
                true
            }
            None => false,
        });
    }
}

impl SessionListener for Observers {
    fn on_update(&self, update: &SessionUpdate) {
        let mut hub = self.hub();
        match update {
            SessionUpdate::Delta(delta) => {
                hub.model.apply(delta);
                hub.publish(delta);
            }
            // The model holds no messages: only the queues note it.
            SessionUpdate::MessagesReset => hub.publish_reset(),
            SessionUpdate::Surface(event) => {
                let change = hub.model.apply_surface(event);
                if let Some(delta) = change.delta {
                    hub.publish(&delta);
                }
                if let Some(diff) = change.diff {
                    let surface_id = match event {
                        SurfaceEvent::Created { surface_id, .. }
                        | SurfaceEvent::Changed { surface_id, .. }
                        | SurfaceEvent::Deleted { surface_id } => surface_id,
                    };
                    hub.publish_diff(surface_id, &diff);
                }
            }
            SessionUpdate::Outbox(entries) => {
                let delta = ConversationDelta::PendingSends(entries.iter().map(|e| e.pending.clone()).collect());
                hub.model.apply(&delta);
                hub.publish(&delta);
            }
            // For the agent, not the app: the run's warnings told the app already.
            SessionUpdate::A2uiErrors(_) => {}
        }
        let woken = std::mem::take(&mut hub.woken);
        drop(hub);
        wake_all(woken);
    }
}
