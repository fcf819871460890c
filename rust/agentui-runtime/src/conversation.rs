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
//!
//! **Calls from inside the conversation's work.** An app's A2UI function runs while the
//! conversation holds its surfaces (and, during a run, the conversation itself) on the thread
//! resolving the surface: a runtime thread during a run, the caller's inside `set_value` or
//! `dispatch_action`. A Rust listener runs under the conversation's lock too. A call from there
//! that would lock the conversation or its surfaces, or wait for a run, is refused with
//! [`SessionError::Reentrant`] instead of deadlocking: the input calls, `snapshot`, the runs
//! (`send_message`, `send`, `continue_run`, `retry_pending`), `media_bytes`, and the waiting reads
//! of subscriptions. The reads that do not wait (`try_recv`, `try_next_batch`) give nothing there
//! and leave the queue as it is; a subscription made there takes its first snapshot when it is
//! first read. `cancel`, the tool and interrupt calls and the surfaces' reads lock neither and
//! work anywhere.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use agentui_agui::transport::NetworkWait;
use futures_util::FutureExt;
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot, watch};

use crate::a2ui_bridge::{AgentFunctionAnswer, BridgeAction};
use crate::attachment::Attachment;
use crate::model::ConversationModel;
pub use crate::observe::SurfaceSnapshot;
use crate::observe::{ConsentAnswer, ConversationSnapshot, Observed, SurfaceEntry, SurfaceUpdate};
use crate::observers::InlineMedia;
use crate::observers::{wait_for, Inbox, Observers, SubscriberItem, ViewItem};
use crate::session::{
    ActionResult, ClientTool, ConversationSession, RunSummary, SessionCanceller, SessionError, SharedParts,
};
use crate::shared_conversation::inside_conversation_work;
use crate::store::{ConversationStore, StoreError, StoreRecorder};
use crate::view::{ViewBatch, ViewFeed};

/// A live stream of a conversation's changes. Dropping it unsubscribes.
pub struct Subscription {
    observers: Arc<Observers>,
    inbox: Arc<Inbox<SubscriberItem>>,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription").finish_non_exhaustive()
    }
}

impl Subscription {
    /// The next item: a snapshot first (and after falling behind), then deltas. `None` once the
    /// conversation is gone. Refused from inside the conversation's own work (see the module
    /// notes): the wait would be for the work it interrupts.
    pub async fn recv(&mut self) -> Result<Option<Observed>, SessionError> {
        refuse_inside("Subscription::recv")?;
        let (observers, inbox) = (&self.observers, &self.inbox);
        Ok(wait_for(inbox, || observers.next(inbox)).await)
    }

    /// The next item if one is ready, without waiting. `None` from inside the conversation's own
    /// work (see the module notes): what is queued waits for a read outside.
    pub fn try_recv(&mut self) -> Option<Observed> {
        if inside_conversation_work() {
            return None;
        }
        self.observers.next(&self.inbox).flatten()
    }
}

/// Refuses `call` from inside a conversation's own work on this thread, where it would wait for
/// itself (see the module notes).
fn refuse_inside(call: &'static str) -> Result<(), SessionError> {
    if inside_conversation_work() {
        return Err(SessionError::Reentrant { call });
    }
    Ok(())
}

/// What a UI shows of a conversation, pulled a batch at a time (see [`crate::view`]): no thread
/// of its own and no callback; the caller asks when it is ready for more, and everything
/// published meanwhile arrives joined in the next batch. Dropping it unsubscribes.
pub struct ViewSubscription {
    observers: Arc<Observers>,
    inbox: Arc<Inbox<ViewItem>>,
    feed: std::sync::Mutex<ViewFeed>,
    issued: AtomicU64,
}

impl std::fmt::Debug for ViewSubscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViewSubscription").finish_non_exhaustive()
    }
}

impl ViewSubscription {
    /// The next batch: the whole state first (and after falling behind), then what changed. It
    /// waits while nothing changed; `None` once the conversation is gone. Refused from inside
    /// the conversation's own work (see the module notes).
    pub async fn next_batch(&self) -> Result<Option<ViewBatch>, SessionError> {
        refuse_inside("ViewSubscription::next_batch")?;
        let (observers, inbox) = (&self.observers, &self.inbox);
        Ok(wait_for(inbox, || self.try_batch(observers, inbox)).await)
    }

    /// The next batch if something is queued, without waiting. `None` from inside the
    /// conversation's own work (see the module notes): what is queued waits for a read outside.
    pub fn try_next_batch(&self) -> Option<ViewBatch> {
        if inside_conversation_work() {
            return None;
        }
        self.try_batch(&self.observers, &self.inbox).flatten()
    }

    fn try_batch(&self, observers: &Observers, inbox: &Inbox<ViewItem>) -> Option<Option<ViewBatch>> {
        let mut feed = self.feed.lock().unwrap_or_else(|p| p.into_inner());
        // Every barrier numbered so far was asked for before a resync this read may take.
        let issued = self.issued.load(Ordering::SeqCst);
        observers.next_view(inbox, &mut feed, issued)
    }

    /// Makes the next batch the whole state again, dropping what is queued: for a reader that
    /// could not apply a batch (a diff whose position it does not have), instead of going on wrong.
    pub fn resync(&self) {
        self.observers.resync(&self.inbox);
    }

    /// Ends the subscription: what is queued is still read, then `next_batch` gives `None`.
    pub fn close(&self) {
        self.inbox.close();
    }

    /// A number that a later batch's `settled` reaches once every change published before this
    /// call is in the batches read: how `send` returns only after the UI shows the run's end.
    pub fn barrier(&self) -> u64 {
        // Numbered before it is queued: a resync that reads this number was taken after the
        // call began, so it holds everything published before it. No lock is held while the
        // reader is woken: its waker may read at once, on this thread.
        let number = self.issued.fetch_add(1, Ordering::SeqCst) + 1;
        self.observers.barrier(&self.inbox, number);
        number
    }
}

/// A live stream of one surface's diffs. Dropping it unsubscribes.
pub struct SurfaceSubscription {
    surface_id: String,
    observers: Arc<Observers>,
    inbox: Arc<Inbox<SurfaceUpdate>>,
}

impl std::fmt::Debug for SurfaceSubscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SurfaceSubscription").field("surface_id", &self.surface_id).finish_non_exhaustive()
    }
}

impl SurfaceSubscription {
    /// The next diff: a `Reset` first (and after falling behind, and an empty one when the agent
    /// deleted the surface), then `Patch`es. `None` once the conversation is gone.
    pub async fn recv(&mut self) -> Option<SurfaceUpdate> {
        let (observers, inbox, id) = (&self.observers, &self.inbox, &self.surface_id);
        wait_for(inbox, || observers.next_diff(id, inbox)).await
    }

    pub fn try_recv(&mut self) -> Option<SurfaceUpdate> {
        self.observers.next_diff(&self.surface_id, &self.inbox).flatten()
    }

    /// What ends this subscription from elsewhere (while `recv` waits, say).
    pub fn closer(&self) -> SurfaceCloser {
        SurfaceCloser(self.inbox.clone())
    }
}

/// Ends a [`SurfaceSubscription`]: `recv` gives what is queued, then `None`.
#[derive(Clone)]
pub struct SurfaceCloser(Arc<Inbox<SurfaceUpdate>>);

impl std::fmt::Debug for SurfaceCloser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SurfaceCloser").finish_non_exhaustive()
    }
}

impl SurfaceCloser {
    pub fn close(&self) {
        self.0.close();
    }
}

/// What a restored conversation's recorder starts from (what it keeps whole for a rewrite).
#[derive(Default)]
struct RecorderSeed {
    outbox: Vec<crate::session::outbox::OutboxEntry>,
    needs_resync: bool,
}

/// What a queued run does once the actor takes it.
enum RunKind {
    Message(String),
    /// A message with attachments: checked and encoded when its turn comes, so messages still
    /// go in call order.
    WithAttachments(String, Vec<Attachment>),
    Continue,
    /// A user action resolved when it was dispatched: these props go with the run.
    Action(Map<String, Value>),
    /// A `callAgentFunction` prepared when it was called: its props and context entry go with
    /// the run.
    AgentFunction(Map<String, Value>, agentui_agui::message::Context),
    /// Deliver what waits for the agent (see [`crate::session::outbox`]).
    Deliver,
    /// The user's answer to a consent request: the handler runs (or not), then the follow-up.
    Consent(String, ConsentAnswer),
}

/// What the actor takes, in call order.
enum Request {
    Run(RunRequest),
    /// Drop what waits under the key (see [`Conversation::discard_pending`]); whether it did.
    DiscardPending {
        key: String,
        reply: oneshot::Sender<bool>,
    },
}

struct RunRequest {
    kind: RunKind,
    /// The cancel epoch when the call was made: a cancel since then withdraws it.
    epoch: u64,
    /// Dropped by the caller when it stops waiting, which cancels the run. `None`: nothing was
    /// waiting to be delivered.
    reply: oneshot::Sender<Result<Option<RunSummary>, SessionError>>,
}

/// Runs one conversation queues behind the one in flight. A call past it fails at once with
/// [`SessionError::RunQueueFull`] and queues nothing: a button pressed in a loop must not queue
/// runs (and their messages) without end, and each queued run is a distinct message or action
/// that coalescing would silently drop. An app keeps the user's intent by not offering the
/// action again until runs end (the run phase says when).
pub const MAX_QUEUED_RUNS: usize = 16;

struct Inner {
    thread_id: String,
    /// The chat view's Markdown, from the session's options.
    markdown: Option<Arc<agentui_markdown::MarkdownOptions>>,
    shared: SharedParts,
    observers: Arc<Observers>,
    runs: mpsc::Sender<Request>,
    canceller: SessionCanceller,
    cancel_epoch: watch::Sender<u64>,
    /// Where the store keeps the conversation's large media, when it does.
    media: Option<Arc<crate::store::StoredMedia>>,
}

/// One conversation with one agent. Cheap to clone; every clone is the same conversation.
#[derive(Clone)]
pub struct Conversation {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Conversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conversation").field("thread_id", &self.inner.thread_id).finish_non_exhaustive()
    }
}

/// Closes the observers when the actor ends, however it ends (its runtime shutting down too).
struct CloseOnDrop(Arc<Observers>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Conversation {
    /// Takes over `session` and runs its actor on `runtime`. Nothing is stored.
    pub fn start(session: ConversationSession, runtime: tokio::runtime::Handle) -> Self {
        Self::start_with(session, runtime, None)
    }

    /// Opens the session's thread on `store`: restored as it was last written if the store has
    /// it (no tool runs again, nothing is re-sent but what never reached the agent), created
    /// otherwise. Every change is then written, one transaction per batch.
    pub fn open(
        mut session: ConversationSession,
        store: &ConversationStore,
        agent_url: &str,
        runtime: tokio::runtime::Handle,
    ) -> Result<Self, StoreError> {
        let seed = match store.load(session.thread_id())? {
            Some(stored) => {
                let seed = RecorderSeed { outbox: stored.outbox.clone(), needs_resync: stored.needs_resync };
                session.restore_stored(stored)?;
                seed
            }
            None => {
                store.ensure(session.thread_id(), agent_url, session.conversation().state())?;
                RecorderSeed::default()
            }
        };
        if session.stored_media().is_none() {
            session.set_stored_media(store.files_dir(session.thread_id()).map(crate::store::StoredMedia::new));
        }
        Ok(Self::start_with(session, runtime, Some((store, seed))))
    }

    fn start_with(
        mut session: ConversationSession,
        runtime: tokio::runtime::Handle,
        store: Option<(&ConversationStore, RecorderSeed)>,
    ) -> Self {
        let thread_id = session.thread_id().to_owned();
        // The messages and the state stay the session's: observers read them from there.
        let snapshot = ConversationSnapshot {
            thread_id: thread_id.clone(),
            messages: Vec::new(),
            state: Value::Null,
            phase: session.phase().clone(),
            tool_calls: session.take_restored_tool_calls(),
            pending_sends: session.pending_sends(),
            pending_interrupts: session.pending_interrupts(),
            surfaces: Vec::new(),
            kept_local: Vec::new(),
            // A conversation starts (or comes back) between runs: no step is open.
            active_steps: Vec::new(),
            consent_requests: session.consent().0,
            consent_grants: session.consent().1,
        };
        let surfaces = session
            .a2ui()
            .group()
            .surfaces()
            .map(|s| {
                let entry = SurfaceEntry { surface_id: s.id().to_owned(), catalog_id: s.catalog_id().to_owned() };
                (entry, s.snapshot())
            })
            .collect();
        let model = ConversationModel::new(snapshot, surfaces);
        let observers = Observers::new(model, session.shared_conversation().clone());
        session.add_listener(observers.clone());
        if let Some((store, seed)) = store {
            let a2ui = session.shared().a2ui.clone();
            let recorder = StoreRecorder::new(
                store.clone(),
                thread_id.clone(),
                observers.clone(),
                a2ui,
                session.stored_media().cloned(),
                seed.outbox,
                seed.needs_resync,
            );
            session.add_listener(Arc::new(recorder));
        }
        let (runs, requests) = mpsc::channel(MAX_QUEUED_RUNS);
        let cancel_epoch = watch::Sender::new(0u64);
        let inner = Inner {
            thread_id,
            markdown: session.chat_markdown(),
            shared: session.shared().clone(),
            observers: observers.clone(),
            runs,
            canceller: session.canceller(),
            cancel_epoch,
            media: session.stored_media().cloned(),
        };
        let epochs = inner.cancel_epoch.subscribe();
        let canceller = inner.canceller.clone();
        runtime.spawn(actor(session, requests, epochs, canceller, CloseOnDrop(observers)));
        Conversation { inner: Arc::new(inner) }
    }

    pub fn thread_id(&self) -> &str {
        &self.inner.thread_id
    }

    /// Queues a run behind the runs before it and waits for its end. Dropping the returned
    /// future cancels the run (or withdraws it if it has not started). `None`: a `Deliver` found
    /// nothing waiting.
    async fn request(&self, call: &'static str, kind: RunKind) -> Result<Option<RunSummary>, SessionError> {
        // Waiting here from inside the conversation's work would wait for the work itself.
        refuse_inside(call)?;
        let epoch = *self.inner.cancel_epoch.borrow();
        let (reply, answer) = oneshot::channel();
        let gone = || SessionError::Internal { detail: "the conversation's actor has stopped".to_owned() };
        self.inner.runs.try_send(Request::Run(RunRequest { kind, epoch, reply })).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => SessionError::RunQueueFull { limit: MAX_QUEUED_RUNS },
            mpsc::error::TrySendError::Closed(_) => gone(),
        })?;
        answer.await.unwrap_or_else(|_| Err(gone()))
    }

    /// A run that always starts (a message, a continue, an action).
    async fn run(&self, call: &'static str, kind: RunKind) -> Result<RunSummary, SessionError> {
        self.request(call, kind)
            .await?
            .ok_or_else(|| SessionError::Internal { detail: "the run was not started".to_owned() })
    }

    /// Delivers the messages and actions waiting for the agent now, without waiting for the
    /// next automatic attempt (call it when the network comes back). `Ok(None)` when nothing
    /// waits.
    pub async fn retry_pending(&self) -> Result<Option<RunSummary>, SessionError> {
        self.request("retry_pending", RunKind::Deliver).await
    }

    /// Drops the message or action waiting for the agent under `key` (a
    /// [`PendingSend::key`](crate::session::PendingSend)) and its stored row: it is never sent,
    /// and observers get the new pending list. A message that had not joined the conversation
    /// is gone with it; one that had (a send was attempted) stays in the conversation, as the
    /// user wrote it. `false` when nothing waits under `key`: it was delivered (or discarded)
    /// meanwhile, or never queued. Taken in call order, after the run in flight.
    pub async fn discard_pending(&self, key: &str) -> Result<bool, SessionError> {
        let (reply, answer) = oneshot::channel();
        let gone = || SessionError::Internal { detail: "the conversation's actor has stopped".to_owned() };
        // Waits for room in the queue rather than failing: a discard only shortens what waits.
        self.inner.runs.send(Request::DiscardPending { key: key.to_owned(), reply }).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())
    }

    /// Sends `text` as a user message and runs until the agent is done with it (client tools and
    /// follow-up runs included). Returns after the run's end was published to observers.
    pub async fn send_message(&self, text: String) -> Result<RunSummary, SessionError> {
        self.run("send_message", RunKind::Message(text)).await
    }

    /// Sends `text` with `attachments` as one user message (see [`crate::attachment`]). Every
    /// attachment is checked, read and encoded on a blocking thread of the runtime, never the
    /// caller's, when the message's turn comes; one that is refused (too large, a MIME type the
    /// app does not send, unreadable) fails the call with [`SessionError::Attachment`] naming it,
    /// before anything is sent or queued. Then as [`send_message`](Self::send_message): the
    /// message waits in the outbox (and the store) until the agent took it.
    pub async fn send(&self, text: String, attachments: Vec<Attachment>) -> Result<RunSummary, SessionError> {
        self.run("send", RunKind::WithAttachments(text, attachments)).await
    }

    /// Runs without a new message: after answering interrupts, or to deliver held tool results.
    pub async fn continue_run(&self) -> Result<RunSummary, SessionError> {
        self.run("continue_run", RunKind::Continue).await
    }

    /// A user gesture on a node. Checked and resolved at once (the values the user sees); an
    /// event action then runs the agent, queued behind the run in flight.
    pub async fn dispatch_action(&self, surface_id: &str, node_id: &str) -> Result<ActionResult, SessionError> {
        self.dispatch_action_with_metadata(surface_id, node_id, Map::new()).await
    }

    /// [`dispatch_action`](Self::dispatch_action) with renderer-side metadata for the agent:
    /// `extensions` become the v1.0 action's `metadata.extensions` (keys must be Unicode
    /// identifiers), which reach the agent inside `forwardedProps.a2uiAction.userAction.metadata`
    /// and in the v1.0 envelope `forwardedProps.a2uiActionMessage` (see
    /// [`crate::a2ui_bridge`]'s `outbound`). Non-empty metadata for a surface that is not v1.0 is
    /// refused ([`SessionError::A2ui`], `ACTION_REFUSED`); empty is the same as none.
    pub async fn dispatch_action_with_metadata(
        &self,
        surface_id: &str,
        node_id: &str,
        extensions: Map<String, Value>,
    ) -> Result<ActionResult, SessionError> {
        match self.inner.shared.user_action(surface_id, node_id, extensions)? {
            BridgeAction::SendToAgent { forwarded_props, .. } => {
                Ok(ActionResult::Ran(Box::new(self.run("dispatch_action", RunKind::Action(forwarded_props)).await?)))
            }
            BridgeAction::OpenUrl(url) => Ok(ActionResult::OpenUrl(url)),
            BridgeAction::Handled => Ok(ActionResult::Handled),
        }
    }

    /// Asks the agent to run a function for a v1.0 surface (A2UI v1.0 `callAgentFunction`):
    /// `call` is the `FunctionCall` object (`{"call": name, "args": {...}}`). A fresh
    /// `functionCallId` is chosen and the call is checked at once (a surface that is not v1.0,
    /// a call naming no function, too many calls waiting: [`SessionError::A2ui`],
    /// `ACTION_REFUSED`); then a run carries it, queued behind the run in flight like an action,
    /// as `forwardedProps.a2uiCallAgentFunction` and a context entry. The agent answers in that
    /// run with an `agentFunctionResponse` naming the id.
    ///
    /// Returns, once that run ended (its end published), the answer's `value`; an `error`
    /// answer is [`SessionError::AgentFunction`] with its code and message. A run that ended
    /// without an answer is [`SessionError::AgentFunctionUnanswered`] (or the run's own error
    /// when it failed or was cancelled). However it ends, dropping the future included, the
    /// call stops waiting in the engine, so a late answer changes nothing. The call is not kept
    /// in the outbox: one that cannot reach the agent fails (`Network`) instead of waiting.
    pub async fn call_agent_function(&self, surface_id: &str, call: Value) -> Result<Value, SessionError> {
        let prepared = self.inner.shared.call_agent_function(surface_id, call)?;
        let waiting = WaitingCall { shared: &self.inner.shared, id: Some(prepared.function_call_id) };
        let run =
            self.run("call_agent_function", RunKind::AgentFunction(prepared.forwarded_props, prepared.context)).await;
        let (id, answer) = waiting.finish();
        match answer {
            Some(Ok(value)) => Ok(value),
            Some(Err((code, message))) => Err(SessionError::AgentFunction { function_call_id: id, code, message }),
            None => {
                run?;
                Err(SessionError::AgentFunctionUnanswered { function_call_id: id })
            }
        }
    }

    /// Writes user input into a surface's data model, at once (during a run too), on the
    /// caller's thread. Refused by the engine: [`SessionError::A2ui`]; the session is unusable
    /// after an internal error: [`SessionError::Internal`]; called from an app's A2UI function
    /// while the conversation runs it: [`SessionError::Reentrant`].
    pub fn set_value(&self, surface_id: &str, path: &str, value: Value) -> Result<(), SessionError> {
        self.inner.shared.set_value(surface_id, path, value)
    }

    /// Stops the run in flight and withdraws the runs queued behind it. Never blocks.
    pub fn cancel(&self) {
        self.inner.cancel_epoch.send_modify(|epoch| *epoch = epoch.wrapping_add(1));
        self.inner.canceller.cancel();
    }

    /// Answers the consent request of tool call `tool_call_id` (see
    /// [`ConsentRequest`](crate::ConsentRequest)): allowed, its handler runs; declined, the agent
    /// gets the declined result. Taken in call order, after the run in flight. Returns the
    /// follow-up run that carried the result, or `None` while other requests still wait (the
    /// results go with the last answer). [`SessionError::UnknownConsentRequest`] when no request
    /// waits under that id (unknown, or answered already): nothing runs then.
    pub async fn answer_consent(
        &self,
        tool_call_id: &str,
        answer: ConsentAnswer,
    ) -> Result<Option<RunSummary>, SessionError> {
        self.request("answer_consent", RunKind::Consent(tool_call_id.to_owned(), answer)).await
    }

    pub fn resolve_interrupt(&self, id: &str, payload: Option<Value>) -> Result<(), SessionError> {
        self.inner.shared.resolve_interrupt(id, payload)
    }

    pub fn cancel_interrupt(&self, id: &str) -> Result<(), SessionError> {
        self.inner.shared.cancel_interrupt(id)
    }

    /// Declares a client tool; a run in flight keeps the tools it sent, the next request has it.
    pub fn register_tool(&self, tool: ClientTool) -> Result<(), SessionError> {
        self.inner.shared.register_tool(tool)
    }

    pub fn unregister_tool(&self, name: &str) -> bool {
        self.inner.shared.unregister_tool(name)
    }

    /// The whole observable state now. Refused from inside the conversation's own work (see the
    /// module notes).
    pub fn snapshot(&self) -> Result<ConversationSnapshot, SessionError> {
        refuse_inside("snapshot")?;
        Ok(self.inner.observers.snapshot())
    }

    pub fn subscribe(&self) -> Subscription {
        Subscription { observers: self.inner.observers.clone(), inbox: self.inner.observers.subscribe() }
    }

    /// What a UI shows, as list diffs pulled a batch at a time (see [`crate::view`]); chat
    /// Markdown as the session's options say ([`crate::session::SessionOptions::chat_markdown`]).
    pub fn subscribe_view(&self) -> ViewSubscription {
        self.subscribe_view_with(ViewFeed::with_markdown(self.inner.markdown.clone()))
    }

    /// [`Conversation::subscribe_view`] whose batches carry the conversation's timeline too
    /// ([`crate::view::ViewBatch::timeline`]: its rows in order, as keyed list changes).
    pub fn subscribe_timeline_view(&self) -> ViewSubscription {
        self.subscribe_view_with(ViewFeed::with_markdown(self.inner.markdown.clone()).with_timeline())
    }

    /// [`Conversation::subscribe_view`] with chat Markdown under `markdown` (an app's URL policy,
    /// images on), or without a tree (`None`).
    pub fn subscribe_view_with_markdown(
        &self,
        markdown: Option<Arc<agentui_markdown::MarkdownOptions>>,
    ) -> ViewSubscription {
        self.subscribe_view_with(ViewFeed::with_markdown(markdown))
    }

    fn subscribe_view_with(&self, feed: ViewFeed) -> ViewSubscription {
        ViewSubscription {
            observers: self.inner.observers.clone(),
            inbox: self.inner.observers.subscribe_view(),
            feed: std::sync::Mutex::new(feed),
            issued: AtomicU64::new(0),
        }
    }

    /// The bytes of media part `part` (its index in the message's content) of message
    /// `message_id`, decoded on a blocking thread: how a UI gets an inline image its chat item
    /// holds back (see [`crate::view::VIEW_INLINE_DATA_LIMIT`]). `None` when there is no such
    /// message or part, or the part carries no inline data. Refused from inside the
    /// conversation's own work (see the module notes): the decoding thread would wait for it.
    pub async fn media_bytes(&self, message_id: &str, part: usize) -> Result<Option<Vec<u8>>, SessionError> {
        refuse_inside("media_bytes")?;
        let observers = self.inner.observers.clone();
        let media = self.inner.media.clone();
        let message_id = message_id.to_owned();
        let read = move || match observers.inline_media(&message_id, part)? {
            InlineMedia::Bytes(bytes) => Some(bytes),
            // Held by the store: read back from its file (a lost one has no bytes).
            InlineMedia::Stored(reference, length) => {
                let text = media?.read(&reference, length).ok()?;
                base64::Engine::decode(&base64::engine::general_purpose::STANDARD, text.as_bytes()).ok()
            }
        };
        Ok(tokio::task::spawn_blocking(read).await.ok().flatten())
    }

    /// Base64 characters of media this conversation holds in memory: inline in its messages, or
    /// moved out and not yet written by the store.
    #[cfg(test)]
    pub(crate) fn held_media_chars(&self) -> usize {
        let inline = self.inner.observers.quietly_mut(|conversation| {
            conversation.messages().iter().map(agentui_agui::Message::inline_data_bytes).sum::<usize>()
        });
        inline + self.inner.media.as_ref().map_or(0, |media| media.held_bytes())
    }

    pub fn surface(&self, surface_id: &str) -> Option<SurfaceSnapshot> {
        self.inner.observers.surface(surface_id)
    }

    /// `None` if the surface does not exist.
    pub fn subscribe_surface(&self, surface_id: &str) -> Option<SurfaceSubscription> {
        let inbox = self.inner.observers.subscribe_surface(surface_id)?;
        Some(SurfaceSubscription { surface_id: surface_id.to_owned(), observers: self.inner.observers.clone(), inbox })
    }
}

/// A `callAgentFunction` the engine counts as waiting: forgotten when it is finished, or when
/// the caller's future is dropped before (its run is then cancelled too).
struct WaitingCall<'a> {
    shared: &'a SharedParts,
    id: Option<String>,
}

impl WaitingCall<'_> {
    fn finish(mut self) -> (String, Option<AgentFunctionAnswer>) {
        let id = self.id.take().unwrap_or_default();
        let answer = self.shared.finish_agent_function(&id);
        (id, answer)
    }
}

impl Drop for WaitingCall<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.shared.finish_agent_function(&id);
        }
    }
}

/// The first automatic delivery attempt after a failed one, and the longest wait between two.
const RETRY_FIRST: Duration = Duration::from_secs(1);
const RETRY_MAX: Duration = Duration::from_secs(60);

/// The actor: takes the runs one at a time, in call order, until every handle is gone.
async fn actor(
    mut session: ConversationSession,
    mut requests: mpsc::Receiver<Request>,
    epochs: watch::Receiver<u64>,
    canceller: SessionCanceller,
    _close: CloseOnDrop,
) {
    let mut retry_in = RETRY_FIRST;
    // Offline (as the host says), the retry waits for the network instead of spending attempts.
    let network = session.connectivity();
    loop {
        // What waits for the agent is tried again on its own, less often each time it fails.
        // One the agent refused the credentials of waits for the app instead (`retry_pending`).
        let next = if !session.retries_pending_on_its_own() {
            requests.recv().await
        } else {
            tokio::select! {
                request = requests.recv() => request,
                waited = network.wait_or_back_online(retry_in) => {
                    if waited == NetworkWait::BackOnline {
                        retry_in = RETRY_FIRST;
                    }
                    let delivered = session.deliver_pending().await;
                    let still_waiting = session.retries_pending_on_its_own();
                    retry_in = match delivered {
                        Err(_) if still_waiting => (retry_in * 2).min(RETRY_MAX),
                        _ => RETRY_FIRST,
                    };
                    continue;
                }
            }
        };
        let (kind, epoch, mut reply) = match next {
            None => break,
            Some(Request::DiscardPending { key, reply }) => {
                let _ = reply.send(session.discard_pending(&key));
                continue;
            }
            Some(Request::Run(RunRequest { kind, epoch, reply })) => (kind, epoch, reply),
        };
        let mut epochs = epochs.clone();
        // Cancelled while queued, or nobody waits for it any more: withdrawn.
        if *epochs.borrow_and_update() != epoch || reply.is_closed() {
            let _ = reply.send(Err(SessionError::Cancelled));
            continue;
        }
        let result = {
            let session = &mut session;
            let run = async move {
                match kind {
                    RunKind::Message(text) => session.run(text).await.map(Some),
                    RunKind::WithAttachments(text, attachments) => {
                        session.run_with_attachments(text, attachments).await.map(Some)
                    }
                    RunKind::Continue => session.continue_run().await.map(Some),
                    RunKind::Action(props) => session.run_action(props).await.map(Some),
                    RunKind::AgentFunction(props, context) => {
                        session.run_agent_function(props, context).await.map(Some)
                    }
                    RunKind::Deliver => session.deliver_pending().await,
                    RunKind::Consent(id, answer) => session.answer_consent(&id, answer).await,
                }
            };
            // The session catches a panicking run itself; this keeps the actor alive if anything
            // around it panics too.
            let run = AssertUnwindSafe(run).catch_unwind();
            tokio::pin!(run);
            let mut cancelled = false;
            loop {
                // `run` is polled first, so the session has installed this run's cancel token
                // before a cancellation is acted on.
                tokio::select! {
                    biased;
                    result = &mut run => break result,
                    _ = epochs.changed(), if !cancelled => {
                        cancelled = true;
                        canceller.cancel();
                    }
                    _ = reply.closed(), if !cancelled => {
                        cancelled = true;
                        canceller.cancel();
                    }
                }
            }
        };
        let result = result.unwrap_or_else(|_| {
            let detail = "a run panicked".to_owned();
            session.shared().poison(detail.clone());
            Err(SessionError::Internal { detail })
        });
        let _ = reply.send(result);
    }
}
