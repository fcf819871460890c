//! A conversation with one agent: a thin actor around `ConversationSession`.
//!
//! The session takes `&mut self` for everything that changes it, so it sits behind a tokio
//! mutex: runs (`send_message`, `continue_run`, `dispatch_action`) queue for it in call order
//! and each runs on the runtime as one task. Synchronous mutators take the lock only if it is
//! free and otherwise fail with `Busy`: they are called from UI threads and must never wait
//! for a run. The exception is user input (`set_value`): refusing it would lose what the user
//! typed, so during a run it is queued and applied, in order, as soon as the session is free
//! (before the next run starts). Reads go to the published view (see `view.rs`), which is
//! current at all times.
//!
//! Cancellation: `cancel()` bumps an epoch and cancels the session's run in flight through
//! its `SessionCanceller`, which lives outside the lock. A run checks the epoch once it holds
//! the lock (so queued runs are withdrawn) and watches it while it runs (so a cancel that
//! lands between the check and the run's start is not lost). Dropping the future of an async
//! call (a cancelled coroutine or Swift task) cancels that run the same way.

use std::collections::VecDeque;
use std::sync::Arc;

use agentui_runtime::session::{
    ActionResult, ConversationSession, RunSummary as CoreSummary, SessionCanceller, SessionError,
};
use tokio::sync::{oneshot, watch, Mutex};

use crate::error::{ConversationError, SurfaceError};
use crate::message::{interrupts, InterruptRecord, MessageRecord};
use crate::runtime::RuntimeCore;
use crate::surface::Surface;
use crate::tools::{client_tool, ClientToolHandler};
use crate::update::{ActionResultRecord, ConversationUpdate, RunStatus, RunSummary};
use crate::value::NodeValue;
use crate::view::{Published, SubscriptionHandle, ViewUpdater};

/// Receives every update of a conversation, in order, on a runtime thread.
#[uniffi::export(foreign)]
pub trait ConversationListener: Send + Sync {
    fn on_update(&self, update: ConversationUpdate) -> Result<(), crate::error::ListenerError>;
}

/// What a queued run will do once it holds the session.
enum Request {
    Message(String),
    Continue,
    Action { surface_id: String, node_id: String },
}

enum Outcome {
    Summary(CoreSummary),
    Action(ActionResult),
}

pub(crate) struct ConversationInner {
    runtime: Arc<RuntimeCore>,
    session: Mutex<ConversationSession>,
    canceller: SessionCanceller,
    cancel_epoch: watch::Sender<u64>,
    pub(crate) published: Arc<Published>,
    thread_id: String,
    /// User input that arrived while a run held the session, applied in order once it is free.
    queued_input: std::sync::Mutex<VecDeque<QueuedInput>>,
}

struct QueuedInput {
    surface_id: String,
    path: String,
    value: serde_json::Value,
}

/// Most inputs held while a run is in flight; beyond it `set_value` answers `Busy`.
const MAX_QUEUED_INPUT: usize = 1024;

impl ConversationInner {
    /// Queues `request` behind the runs before it and waits for its outcome.
    async fn execute(self: &Arc<Self>, request: Request) -> Result<Outcome, ConversationError> {
        let epoch = *self.cancel_epoch.borrow();
        // Dropped with this future: tells the run its caller is gone.
        let (_caller, caller_gone) = oneshot::channel::<()>();
        let inner = self.clone();
        let task = self.runtime.handle().spawn(async move { inner.run_locked(request, epoch, caller_gone).await });
        match task.await {
            Ok(result) => result.map_err(ConversationError::from),
            Err(e) if e.is_panic() => {
                tracing::error!("a run panicked");
                Err(ConversationError::Internal { detail: "the run panicked".to_owned() })
            }
            Err(_) => Err(ConversationError::Internal { detail: "the runtime shut down".to_owned() }),
        }
    }

    async fn run_locked(
        self: Arc<Self>,
        request: Request,
        epoch: u64,
        mut caller_gone: oneshot::Receiver<()>,
    ) -> Result<Outcome, SessionError> {
        let mut epochs = self.cancel_epoch.subscribe();
        let mut session = self.session.lock().await;
        let withdrawn = *epochs.borrow_and_update() != epoch
            || matches!(caller_gone.try_recv(), Err(oneshot::error::TryRecvError::Closed));
        if withdrawn {
            drop(session);
            self.drain_queued_input();
            return Err(SessionError::Cancelled);
        }
        // What the user typed while the previous run went on is in the model before this one
        // starts (an action sends the values the user sees).
        self.apply_queued_input(&mut session);
        let result = {
            let run = async {
                match request {
                    Request::Message(text) => session.run(text).await.map(Outcome::Summary),
                    Request::Continue => session.continue_run().await.map(Outcome::Summary),
                    Request::Action { surface_id, node_id } => {
                        session.dispatch_action(&surface_id, &node_id).await.map(Outcome::Action)
                    }
                }
            };
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
                        self.canceller.cancel();
                    }
                    _ = &mut caller_gone, if !cancelled => {
                        cancelled = true;
                        self.canceller.cancel();
                    }
                }
            }
        };
        self.apply_queued_input(&mut session);
        self.published.refresh(&session);
        drop(session);
        // Input queued between the last apply and the release would otherwise wait for the next run.
        self.drain_queued_input();
        result
    }

    /// Applies every queued input, in order, on a session this caller holds.
    fn apply_queued_input(&self, session: &mut ConversationSession) {
        let queued = std::mem::take(&mut *self.queued_input.lock().unwrap_or_else(|p| p.into_inner()));
        for input in queued {
            session.apply_queued_input(&input.surface_id, &input.path, input.value);
        }
    }

    /// Applies queued input if no run holds the session. Whoever queues input or releases the
    /// session calls this afterwards, so input never waits behind a lock nobody holds.
    fn drain_queued_input(&self) {
        loop {
            if self.queued_input.lock().unwrap_or_else(|p| p.into_inner()).is_empty() {
                return;
            }
            let Ok(mut session) = self.session.try_lock() else { return };
            // The view follows through the session's surface events, as for a direct write.
            self.apply_queued_input(&mut session);
        }
    }

    /// Runs `f` on the session if no run holds it.
    fn try_with_session<T>(&self, f: impl FnOnce(&mut ConversationSession) -> T) -> Option<T> {
        let mut session = self.session.try_lock().ok()?;
        Some(f(&mut session))
    }

    pub(crate) async fn dispatch_action(
        self: &Arc<Self>,
        surface_id: String,
        node_id: String,
    ) -> Result<ActionResultRecord, ConversationError> {
        match self.execute(Request::Action { surface_id, node_id }).await? {
            Outcome::Action(result) => Ok((&result).into()),
            Outcome::Summary(summary) => Ok(ActionResultRecord::Ran { summary: (&summary).into() }),
        }
    }

    pub(crate) fn set_value(&self, surface_id: &str, path: &str, value: &NodeValue) -> Result<(), SurfaceError> {
        let value = value.to_json().map_err(|e| SurfaceError::Rejected {
            code: "INVALID_VALUE".to_owned(),
            detail: format!(
                "not a JSON value at {}: {}",
                if e.path.is_empty() { "/" } else { &e.path },
                if e.too_deep {
                    "nested deeper than the 64 levels a value may have"
                } else {
                    "NaN and infinities have no JSON form"
                }
            ),
        })?;
        if let Ok(mut session) = self.session.try_lock() {
            // Earlier queued input first: writes apply in the order the user made them.
            self.apply_queued_input(&mut session);
            return session.set_value(surface_id, path, value).map_err(SurfaceError::from);
        }
        // A run holds the session: the input must not be lost nor wait for the run (this is a
        // UI thread), so it is queued and applied as soon as the session is free.
        if self.published.view().surface(surface_id).is_none() {
            return Err(SurfaceError::UnknownSurface { surface_id: surface_id.to_owned() });
        }
        {
            let mut queued = self.queued_input.lock().unwrap_or_else(|p| p.into_inner());
            // Keystrokes on one field replace each other; anything else keeps its order.
            let full = queued.len() >= MAX_QUEUED_INPUT;
            match queued.back_mut() {
                Some(last) if last.surface_id == surface_id && last.path == path => last.value = value,
                _ if full => return Err(SurfaceError::Busy),
                _ => queued.push_back(QueuedInput { surface_id: surface_id.to_owned(), path: path.to_owned(), value }),
            }
        }
        self.drain_queued_input();
        Ok(())
    }
}

/// One conversation with one AG-UI agent. Made by `Runtime::connect`.
#[derive(uniffi::Object)]
pub struct Conversation {
    inner: Arc<ConversationInner>,
}

impl std::fmt::Debug for Conversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conversation").field("thread_id", &self.inner.thread_id).finish_non_exhaustive()
    }
}

impl Conversation {
    pub(crate) fn new(runtime: Arc<RuntimeCore>, mut session: ConversationSession) -> Arc<Self> {
        let published = Published::new(runtime.handle().clone());
        session.add_listener(Arc::new(ViewUpdater(published.clone())));
        published.refresh(&session);
        let inner = ConversationInner {
            canceller: session.canceller(),
            thread_id: session.thread_id().to_owned(),
            session: Mutex::new(session),
            cancel_epoch: watch::Sender::new(0),
            published,
            runtime,
            queued_input: std::sync::Mutex::new(VecDeque::new()),
        };
        Arc::new(Conversation { inner: Arc::new(inner) })
    }

    async fn summary(&self, request: Request) -> Result<RunSummary, ConversationError> {
        match self.inner.execute(request).await? {
            Outcome::Summary(summary) => Ok((&summary).into()),
            // Not produced for these requests; answered rather than assumed.
            Outcome::Action(_) => Err(ConversationError::Internal { detail: "unexpected action result".to_owned() }),
        }
    }
}

#[uniffi::export]
impl Conversation {
    /// Sends `text` as a user message and runs until the agent is done with it, client tools
    /// and their follow-up runs included.
    pub async fn send_message(&self, text: String) -> Result<RunSummary, ConversationError> {
        self.summary(Request::Message(text)).await
    }

    /// Runs without a new message: after answering interrupts, or to deliver tool results
    /// the follow-up bound held back.
    pub async fn continue_run(&self) -> Result<RunSummary, ConversationError> {
        self.summary(Request::Continue).await
    }

    /// Stops the run in flight and withdraws runs queued behind it. Never blocks.
    pub fn cancel(&self) {
        self.inner.cancel_epoch.send_modify(|epoch| *epoch = epoch.wrapping_add(1));
        self.inner.canceller.cancel();
    }

    pub fn thread_id(&self) -> String {
        self.inner.thread_id.clone()
    }

    /// The last published run status.
    pub fn status(&self) -> RunStatus {
        (&self.inner.published.view().status).into()
    }

    pub fn messages(&self) -> Vec<MessageRecord> {
        self.inner.published.view().messages.iter().map(MessageRecord::from).collect()
    }

    /// The shared state as JSON text (`{}` before the agent sent any).
    pub fn state_json(&self) -> String {
        let view = self.inner.published.view();
        if view.state.is_null() {
            "{}".to_owned()
        } else {
            view.state.to_string()
        }
    }

    pub fn pending_interrupts(&self) -> Vec<InterruptRecord> {
        interrupts(&self.inner.published.view().interrupts)
    }

    /// Answers an interrupt; the answer goes with the next `continue_run`.
    pub fn resolve_interrupt(&self, id: String, payload_json: Option<String>) -> Result<(), ConversationError> {
        let payload = match payload_json {
            None => None,
            Some(text) => Some(
                serde_json::from_str(&text)
                    .map_err(|e| ConversationError::InvalidJson { detail: format!("interrupt payload: {e}") })?,
            ),
        };
        self.inner
            .try_with_session(|session| {
                let result = session.resolve_interrupt(&id, payload);
                self.inner.published.refresh_interrupts(session);
                result
            })
            .ok_or(ConversationError::Busy)?
            .map_err(ConversationError::from)
    }

    /// Abandons an interrupt; the next `continue_run` tells the agent.
    pub fn cancel_interrupt(&self, id: String) -> Result<(), ConversationError> {
        self.inner
            .try_with_session(|session| {
                let result = session.cancel_interrupt(&id);
                self.inner.published.refresh_interrupts(session);
                result
            })
            .ok_or(ConversationError::Busy)?
            .map_err(ConversationError::from)
    }

    /// Declares a client tool to the agent (in every run's `tools`) and executes its calls.
    pub fn register_tool(
        &self,
        name: String,
        description: String,
        parameters_json_schema: String,
        handler: Arc<dyn ClientToolHandler>,
    ) -> Result<(), ConversationError> {
        let tool = client_tool(name, description, &parameters_json_schema, handler)?;
        self.inner
            .try_with_session(|session| session.register_tool(tool))
            .ok_or(ConversationError::Busy)?
            .map_err(ConversationError::from)
    }

    /// Removes a tool; later calls to it get a "not registered" error result.
    pub fn unregister_tool(&self, name: String) -> Result<bool, ConversationError> {
        self.inner.try_with_session(|session| session.unregister_tool(&name)).ok_or(ConversationError::Busy)
    }

    /// Every update from now on, in order, on a runtime thread.
    pub fn add_listener(&self, listener: Arc<dyn ConversationListener>) -> Arc<SubscriptionHandle> {
        self.inner.published.subscribe(move |update| {
            if let Err(e) = listener.on_update((&update).into()) {
                tracing::warn!(error = %e, "conversation listener failed");
            }
        })
    }

    /// A live view of one surface, if the agent created it and has not deleted it.
    pub fn surface(&self, surface_id: String) -> Option<Arc<Surface>> {
        let catalog_id = self.inner.published.view().surface(&surface_id)?.catalog_id.clone();
        Some(Arc::new(Surface::new(self.inner.clone(), surface_id, catalog_id)))
    }

    pub fn surface_ids(&self) -> Vec<String> {
        self.inner.published.view().surfaces.iter().map(|s| s.id.clone()).collect()
    }

    /// A user gesture on a node: an event action runs the agent, `openUrl` is returned for
    /// the app to open, a disabled node refuses (`A2ui` with code `ACTION_REFUSED`).
    pub async fn dispatch_action(
        &self,
        surface_id: String,
        node_id: String,
    ) -> Result<ActionResultRecord, ConversationError> {
        self.inner.dispatch_action(surface_id, node_id).await
    }

    /// Writes user input into a surface's data model (a two-way bound input).
    pub fn set_value(&self, surface_id: String, path: String, value: NodeValue) -> Result<(), SurfaceError> {
        self.inner.set_value(&surface_id, &path, &value)
    }
}
