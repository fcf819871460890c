//! Reading a response body as events, chunk by chunk, never buffering it whole.
//!
//! [`EventStream`] turns body chunks into SSE events under an idle timeout and a cancellation
//! token. [`RunStream`] feeds those events through an [`EventPipeline`] and decides when the run
//! is over: at its `RUN_FINISHED` / `RUN_ERROR` (anything after is never read, so no late event
//! can act), or with a typed error when the body ends or breaks first. A stream opened by
//! [`HttpTransport::open`](super::HttpTransport::open) mends a break itself when it can (see
//! `resume.rs`): the events after the reconnection follow the last ones as if nothing happened.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

use super::cancel::CancelToken;
use super::error::{describe, Truncation};
use super::resume::{Admission, Resumption};
use super::retry::{retry_decision, RetryDecision, RetryPolicy};
use super::TransportError;
use crate::error::ProtocolError;
use crate::event::Event;
use crate::pipeline::EventPipeline;
use crate::reducer::{Change, ConversationState};
use crate::sse::{SseDecoder, SseEvent, SseLimits};

/// One decoded server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedEvent {
    pub event: SseEvent,
    /// False for a final event the body ended inside (no terminating blank line).
    pub terminated: bool,
}

/// The SSE events of one response body, or of several when a broken one was resumed.
#[derive(Debug)]
pub struct EventStream {
    response: reqwest::Response,
    limits: SseLimits,
    decoder: SseDecoder,
    // Events of the last chunk not yet handed out; bounded by one chunk's size.
    queue: VecDeque<ReceivedEvent>,
    idle_timeout: Duration,
    last_activity: Instant,
    cancel: CancelToken,
    body_ended: bool,
    failure: Option<TransportError>,
    resumption: Option<Box<Resumption>>,
}

impl EventStream {
    pub(crate) fn new(
        response: reqwest::Response,
        limits: SseLimits,
        idle_timeout: Duration,
        cancel: CancelToken,
    ) -> Self {
        EventStream {
            response,
            limits,
            decoder: SseDecoder::new(limits),
            queue: VecDeque::new(),
            idle_timeout,
            last_activity: Instant::now(),
            cancel,
            body_ended: false,
            failure: None,
            resumption: None,
        }
    }

    /// This stream, resumed after a break when its events carried ids.
    pub(crate) fn resumable(mut self, resumption: Resumption) -> Self {
        self.resumption = Some(Box::new(resumption));
        self
    }

    /// How many times a broken body was resumed.
    pub fn resumed(&self) -> u32 {
        self.resumption.as_ref().map_or(0, |r| r.resumed)
    }

    /// The next event, `None` at a clean end of body. Cancel-safe: dropping the future loses
    /// no event. After an error every call returns the same error.
    pub async fn next_event(&mut self) -> Result<Option<ReceivedEvent>, TransportError> {
        loop {
            if let Some(e) = self.queue.pop_front() {
                return Ok(Some(e));
            }
            if let Some(e) = &self.failure {
                return Err(e.clone());
            }
            if self.body_ended {
                return Ok(None);
            }
            if let Err(e) = self.read_chunk().await {
                self.failure = Some(e.clone());
                return Err(e);
            }
        }
    }

    async fn read_chunk(&mut self) -> Result<(), TransportError> {
        if self.resumption.as_ref().is_some_and(|r| r.pending.is_some()) {
            return self.reconnect().await;
        }
        // The deadline is measured from the last chunk, not from this call, so other work done
        // between calls cannot stretch the idle window.
        let deadline = self.last_activity + self.idle_timeout;
        let chunk = tokio::select! {
            biased;
            _ = self.cancel.cancelled() => return Err(TransportError::Cancelled),
            r = tokio::time::timeout_at(deadline, self.response.chunk()) => r,
        };
        match chunk {
            Err(_) => self.broken(TransportError::Idle(self.idle_timeout)),
            Ok(Err(e)) => self.broken(TransportError::ConnectionLost(describe(e))),
            Ok(Ok(Some(bytes))) => {
                self.last_activity = Instant::now();
                let mut complete = Vec::new();
                let decoded = self.decoder.push_with(&bytes, |event| complete.push(event));
                self.admit(complete, true)?;
                decoded?;
                Ok(())
            }
            Ok(Ok(None)) => {
                if self.resumption.is_some() && self.broken(TransportError::Truncated(Truncation::RunOpen)).is_ok() {
                    // An unterminated last event is sent again after the reconnection.
                    return Ok(());
                }
                self.body_ended = true;
                let mut last = Vec::new();
                self.decoder.finish_with(|event| last.push(event))?;
                self.admit(last, false)
            }
        }
    }

    /// Queues complete events, leaving out what a resumed body replays.
    fn admit(&mut self, events: Vec<SseEvent>, terminated: bool) -> Result<(), TransportError> {
        for event in events {
            if let Some(r) = self.resumption.as_mut() {
                if r.admit(&event)? == Admission::Skip {
                    continue;
                }
            }
            self.queue.push_back(ReceivedEvent { event, terminated });
        }
        Ok(())
    }

    /// The body broke with `cause`: starts a reconnection, or returns `cause` when this stream
    /// cannot be resumed.
    fn broken(&mut self, cause: TransportError) -> Result<(), TransportError> {
        match self.resumption.as_mut() {
            Some(r) => r.begin(cause),
            None => Err(cause),
        }
    }

    /// One reconnection attempt, after its wait. Cancel-safe: the wait's end and the attempts
    /// are kept in the resumption, so a dropped call resumes where it was.
    async fn reconnect(&mut self) -> Result<(), TransportError> {
        let Some(r) = self.resumption.as_mut() else { return Ok(()) };
        let network = r.transport.options().connectivity.clone();
        let offline_limit = r.max_offline_wait();
        let Some(pending) = r.pending.as_mut() else { return Ok(()) };
        // Offline, the wait does not run out and no attempt is spent; back online, it ends at once.
        let wait = pending.not_before.saturating_duration_since(Instant::now());
        tokio::select! {
            biased;
            _ = self.cancel.cancelled() => return Err(TransportError::Cancelled),
            waited = tokio::time::timeout(wait + offline_limit, network.wait_or_back_online(wait)) => {
                if waited.is_err() {
                    let last = TransportError::ConnectionLost(format!("offline for longer than {offline_limit:?}"));
                    return Err(TransportError::ResumeExhausted { attempts: pending.attempts, last: Box::new(last) });
                }
            }
        }
        pending.attempts += 1;
        let attempt = pending.attempts;
        let last_id = r.last_id().unwrap_or_default().to_owned();
        let mut status = 0;
        let outcome = match r.transport.send(&r.body, Some(&last_id), &self.cancel).await {
            Ok(response) => {
                status = response.status().as_u16();
                r.transport.checked_head(response, &self.cancel).await
            }
            Err(e) => Err(e),
        };
        let error = match outcome {
            Ok(response) => {
                r.reconnected();
                self.response = response;
                self.decoder = SseDecoder::continuing(self.limits, r.last_id().map(str::to_owned));
                self.last_activity = Instant::now();
                return Ok(());
            }
            Err(e) => e,
        };
        match retry_decision(&error, RetryPolicy::ResumeStream) {
            RetryDecision::RetryLater => {
                if attempt >= r.max_attempts() {
                    return Err(TransportError::ResumeExhausted { attempts: attempt, last: Box::new(error) });
                }
                let wait = r.delay(attempt + 1);
                if let Some(pending) = r.pending.as_mut() {
                    pending.not_before = Instant::now() + wait;
                }
                Ok(())
            }
            // A 401 the provider's fresh headers did not cure: the run fails with it, for the app.
            RetryDecision::WaitForApp => Err(error),
            RetryDecision::GiveUp => match error {
                // The agent answered, but not with the rest of the stream (204, 4xx, other content).
                TransportError::Status { .. } | TransportError::UnexpectedContentType { .. } => {
                    Err(TransportError::ResumeRefused { status })
                }
                other => Err(other),
            },
        }
    }
}

/// A conversation kept elsewhere, held by a pipeline for one event: given back when this is
/// dropped, a panic unwinding included, so its owner never keeps the pipeline's placeholder.
struct Lent<'a> {
    pipeline: &'a mut EventPipeline,
    conversation: &'a mut Box<ConversationState>,
}

impl<'a> Lent<'a> {
    fn new(pipeline: &'a mut EventPipeline, conversation: &'a mut Box<ConversationState>) -> Self {
        pipeline.swap_conversation(conversation);
        Lent { pipeline, conversation }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.pipeline.swap_conversation(self.conversation);
    }
}

/// Most bytes [`RunStream::release_connection`] reads past the run's end.
pub const RELEASE_LIMIT: usize = 64 * 1024;

/// One run's events, verified and applied to a conversation as they arrive.
#[derive(Debug)]
pub struct RunStream {
    events: EventStream,
    pipeline: EventPipeline,
    run_seen: bool,
    closed: bool,
    ignored_after_close: usize,
    failure: Option<TransportError>,
}

impl RunStream {
    pub fn new(events: EventStream, pipeline: EventPipeline) -> Self {
        RunStream { events, pipeline, run_seen: false, closed: false, ignored_after_close: 0, failure: None }
    }

    pub fn conversation(&self) -> &ConversationState {
        self.pipeline.conversation()
    }

    pub fn into_conversation(self) -> ConversationState {
        self.pipeline.into_conversation()
    }

    /// See [`EventPipeline::open_message_ids`].
    pub fn open_message_ids(&self) -> Vec<String> {
        self.pipeline.open_message_ids()
    }

    /// See [`EventPipeline::open_message_ids_in`].
    pub fn open_message_ids_in(&self, conversation: &ConversationState) -> Vec<String> {
        self.pipeline.open_message_ids_in(conversation)
    }

    /// What each event delivered since the last call changed (see
    /// [`EventPipeline::record_changes`]), one per event, in order.
    pub fn take_changes(&mut self) -> Vec<Change> {
        self.pipeline.take_changes()
    }

    /// After the run closed: reads what is left of the body, unapplied, for at most `grace` and
    /// [`RELEASE_LIMIT`] bytes. An HTTP/1.1 connection goes back to the pool only once its body
    /// was read to the end; without this, whether the next run reuses it depended on whether
    /// the body's end happened to arrive with the run's last event.
    pub async fn release_connection(&mut self, grace: Duration) {
        if !self.closed || self.failure.is_some() {
            return;
        }
        let events = &mut self.events;
        let deadline = Instant::now() + grace;
        let mut read = 0usize;
        while !events.body_ended && read < RELEASE_LIMIT {
            match tokio::time::timeout_at(deadline, events.response.chunk()).await {
                Ok(Ok(Some(bytes))) => read += bytes.len(),
                Ok(Ok(None)) => events.body_ended = true,
                _ => return,
            }
        }
    }

    /// How many times the body broke and was resumed (see `resume.rs`).
    pub fn resumed(&self) -> u32 {
        self.events.resumed()
    }

    /// Whether the run was closed by `RUN_FINISHED` or `RUN_ERROR`.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Events already received after the run closed; they were dropped unapplied.
    pub fn ignored_after_close(&self) -> usize {
        self.ignored_after_close
    }

    /// The events the next SSE event delivered (possibly none), or `None` once the run closed.
    /// A body that ends or breaks before the run closes is an error, never a short success.
    /// Events delivered before a failure are returned first; the failure comes on the next call.
    pub async fn next(&mut self) -> Result<Option<Vec<Event>>, TransportError> {
        let Some(received) = self.next_received().await? else { return Ok(None) };
        let delivered = self.apply_received(&received, None);
        match &self.failure {
            Some(e) if delivered.is_empty() => Err(e.clone()),
            _ => Ok(Some(delivered)),
        }
    }

    /// The next SSE event to apply, read but not applied (keep-alives skipped), or `None` once
    /// the run closed; then [`apply_to`](Self::apply_to). Split from [`next`](Self::next) so
    /// a conversation held behind a lock is locked for the apply only, never across the wait.
    pub async fn next_received(&mut self) -> Result<Option<ReceivedEvent>, TransportError> {
        loop {
            if let Some(e) = &self.failure {
                return Err(e.clone());
            }
            if self.closed {
                return Ok(None);
            }
            let received = match self.events.next_event().await {
                Ok(Some(r)) => r,
                Ok(None) => {
                    let kind = if self.run_seen { Truncation::RunOpen } else { Truncation::NoEvents };
                    return Err(self.fail(TransportError::Truncated(kind)));
                }
                Err(e) => return Err(self.fail(e)),
            };
            // Blank data is a keep-alive, not an event.
            if !received.event.data.trim().is_empty() {
                return Ok(Some(received));
            }
        }
    }

    /// The next SSE event this stream already holds decoded (keep-alives skipped), without
    /// reading: `None` when it would have to wait, or once the run closed or failed. A caller
    /// holding the conversation's lock for one event applies the rest of the burst under it.
    pub fn next_buffered(&mut self) -> Option<ReceivedEvent> {
        if self.failure.is_some() || self.closed {
            return None;
        }
        while let Some(received) = self.events.queue.pop_front() {
            if !received.event.data.trim().is_empty() {
                return Some(received);
            }
        }
        None
    }

    /// Applies `received` to `conversation`, which this stream's pipeline applies to in place
    /// of its own for the call (see [`EventPipeline::swap_conversation`]); the events it
    /// delivered. A failure is returned by the next [`next_received`](Self::next_received),
    /// after the events delivered before it.
    pub fn apply_to(&mut self, received: &ReceivedEvent, conversation: &mut Box<ConversationState>) -> Vec<Event> {
        self.apply_received(received, Some(conversation))
    }

    fn apply_received(
        &mut self,
        received: &ReceivedEvent,
        external: Option<&mut Box<ConversationState>>,
    ) -> Vec<Event> {
        let mut delivered = Vec::new();
        let pipeline = &mut self.pipeline;
        // The text goes to the pipeline as is: the hot event types decode straight from it.
        let result = match external {
            Some(conversation) => {
                let lent = Lent::new(pipeline, conversation);
                lent.pipeline.push_str_with(&received.event.data, |e| delivered.push(e))
            }
            None => pipeline.push_str_with(&received.event.data, |e| delivered.push(e)),
        };
        for e in &delivered {
            match e {
                Event::RunStarted(_) => self.run_seen = true,
                Event::RunFinished(_) | Event::RunError(_) => self.closed = true,
                _ => {}
            }
        }
        if let Err(e) = result {
            let error = match e {
                ProtocolError::InvalidJson(_) if !received.terminated => {
                    TransportError::Truncated(Truncation::InsideEvent)
                }
                other => TransportError::Protocol(other),
            };
            self.failure = Some(error);
        }
        if self.closed {
            // Whatever the last chunk also carried arrives after the end: never applied.
            self.ignored_after_close += self.events.queue.len();
            self.events.queue.clear();
        }
        delivered
    }

    fn fail(&mut self, error: TransportError) -> TransportError {
        self.failure = Some(error.clone());
        error
    }
}
