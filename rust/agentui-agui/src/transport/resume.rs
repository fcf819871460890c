//! Resuming a stream that broke mid-run, with `Last-Event-ID`.
//!
//! When the body breaks, stalls past the idle timeout or ends before the run closed, and the
//! stream set an SSE id, the request is sent again with the last id set in `Last-Event-ID`. The
//! wait before each attempt is the server's `retry:` (or [`ResumeOptions::initial_delay`]),
//! doubling per failed attempt up to `max_delay`; attempts and resumptions per run are bounded.
//! Whether a failed attempt is tried again is [`retry_decision`](super::retry_decision) under
//! [`RetryPolicy::ResumeStream`](super::RetryPolicy).
//!
//! A server need not put an id on every event (the spec lets it mark checkpoints only), so an id
//! names a *point* in the stream: after the event whose own `id:` set it, or before the event
//! after a data-less block that set it ([`IdPlacement`]). The server resumes after that point,
//! sending again the events without ids that followed it; the new decoder starts with the last
//! id, as the spec's last-event-id buffer persists. Each event handed on is remembered by a
//! digest, so the new body's replays, from that point or from an earlier id's, are dropped by
//! place and content, and one replayed with other content is
//! [`TransportError::ResumeMismatch`]: the pipeline sees every event exactly once.
//!
//! It cannot resume when the stream set no id, when the agent answers anything but an event
//! stream (204, 4xx: [`TransportError::ResumeRefused`]), or when the attempts run out
//! ([`TransportError::ResumeExhausted`]).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use tokio::time::Instant;

use super::{HttpTransport, TransportError};
use crate::sse::{IdPlacement, SseEvent};

/// Bounds on resuming a broken stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeOptions {
    /// Reconnections tried after one break before the run fails; 0 never resumes.
    pub max_attempts: u32,
    /// Wait before the first reconnection when the server sent no `retry:`.
    pub initial_delay: Duration,
    /// Cap on one wait, a server's `retry:` included.
    pub max_delay: Duration,
    /// Breaks one run may resume from: a server that keeps dropping ends the run.
    pub max_resumes: u32,
    /// Events (a digest each) and ids remembered per run to recognise a replay; past it the run
    /// cannot resume.
    pub max_remembered_ids: usize,
    /// Longest wait for the network to come back (see [`Connectivity`](super::Connectivity))
    /// before the run fails.
    pub max_offline_wait: Duration,
}

impl Default for ResumeOptions {
    fn default() -> Self {
        ResumeOptions {
            max_attempts: 5,
            initial_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(10),
            max_resumes: 20,
            max_remembered_ids: 100_000,
            max_offline_wait: Duration::from_secs(120),
        }
    }
}

/// What a run's stream needs to resume: the request, and what it has seen.
#[derive(Debug)]
pub(crate) struct Resumption {
    pub transport: HttpTransport,
    pub body: bytes::Bytes,
    options: ResumeOptions,
    /// The last id the stream set (the `Last-Event-ID` to send); `None` before any, or after an
    /// empty one (the spec's reset).
    last_id: Option<String>,
    /// The server's last `retry:`.
    retry_hint: Option<Duration>,
    /// A digest of each event handed on, in order; keep-alives (blank data) are left out.
    delivered: Vec<u64>,
    /// Each id with its point in `delivered`: how many events came before it was set. A server
    /// resuming from an id sends what comes after its point.
    points: HashMap<String, usize>,
    /// More events than `max_remembered_ids`: a replay could no longer be told apart.
    forgetful: bool,
    /// Reconnected, and what the server sends may be replays: the index in `delivered` of the
    /// event it should send next.
    replay: Option<usize>,
    /// Breaks resumed so far.
    pub resumed: u32,
    /// The reconnection under way, if the stream is broken.
    pub pending: Option<Reconnection>,
}

/// One break being mended.
#[derive(Debug)]
pub(crate) struct Reconnection {
    /// Attempts already started (an attempt whose future was dropped counts).
    pub attempts: u32,
    pub not_before: Instant,
}

/// What to do with one complete event read from the body.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    Deliver,
    /// A replay of an event already handed on.
    Skip,
}

fn digest(event: &SseEvent) -> u64 {
    let mut hasher = DefaultHasher::new();
    event.event.hash(&mut hasher);
    event.data.hash(&mut hasher);
    hasher.finish()
}

impl Resumption {
    pub fn new(transport: HttpTransport, body: bytes::Bytes) -> Self {
        let options = transport.options().resume.clone();
        Resumption {
            transport,
            body,
            options,
            last_id: None,
            retry_hint: None,
            delivered: Vec::new(),
            points: HashMap::new(),
            forgetful: false,
            replay: None,
            resumed: 0,
            pending: None,
        }
    }

    /// Notes one complete event; says whether it goes on. After a reconnection, what the server
    /// sends again (from the resumed id's point, or from an earlier id's) is recognised by its
    /// place and content and skipped, whichever events carry ids; a replay with other content
    /// is [`TransportError::ResumeMismatch`].
    pub fn admit(&mut self, event: &SseEvent) -> Result<Admission, TransportError> {
        if let Some(ms) = event.retry {
            self.retry_hint = Some(Duration::from_millis(ms));
        }
        let id = event.id.as_deref().filter(|_| event.id_placement != IdPlacement::Inherited);
        if event.data.trim().is_empty() {
            // A keep-alive: never compared (a replay need not repeat it), but an id it sets counts.
            if let Some(id) = id {
                let at = self.replay.unwrap_or(self.delivered.len());
                self.set_point(id, at);
            }
            return Ok(Admission::Deliver);
        }
        let digest = digest(event);
        if let Some(next) = self.replay {
            let known = id.and_then(|id| self.points.get(id).copied());
            // Where the server says it is, when this event set an id it set before.
            let at = match (event.id_placement, known) {
                (IdPlacement::BeforeThisEvent, Some(point)) => point,
                (IdPlacement::OnThisEvent, Some(point)) if self.delivered.get(next) != Some(&digest) => {
                    point.saturating_sub(1)
                }
                _ => next,
            };
            if self.delivered.get(at) == Some(&digest) {
                self.replay = Some(at + 1);
                return Ok(Admission::Skip);
            }
            // Not the event expected here: other content in a replay, unless it is new (past
            // what was handed on, and no id already known).
            if at < self.delivered.len() || known.is_some() {
                let id = event.id.clone().or_else(|| self.last_id.clone()).unwrap_or_default();
                return Err(TransportError::ResumeMismatch { id });
            }
            self.replay = None;
        }
        if !self.forgetful && self.delivered.len() + self.points.len() >= self.options.max_remembered_ids {
            self.forgetful = true;
            self.delivered = Vec::new();
            self.points = HashMap::new();
        }
        let before = self.delivered.len();
        if !self.forgetful {
            self.delivered.push(digest);
        }
        match (event.id_placement, id) {
            (IdPlacement::BeforeThisEvent, Some(id)) => self.set_point(id, before),
            (IdPlacement::OnThisEvent, Some(id)) => self.set_point(id, before + 1),
            _ => {}
        }
        Ok(Admission::Deliver)
    }

    /// The stream set `id` at `point`: the next resumption asks for it.
    fn set_point(&mut self, id: &str, point: usize) {
        if id.is_empty() {
            // The spec's reset: no `Last-Event-ID`, nothing to resume from.
            self.last_id = None;
            return;
        }
        if !self.forgetful {
            self.points.insert(id.to_owned(), point);
        }
        self.last_id = Some(id.to_owned());
    }

    /// Starts mending a break caused by `cause`, if this stream can be resumed; else `cause`.
    pub fn begin(&mut self, cause: TransportError) -> Result<(), TransportError> {
        if self.options.max_attempts == 0
            || self.last_id.is_none()
            || self.forgetful
            || self.resumed >= self.options.max_resumes
        {
            return Err(cause);
        }
        self.pending = Some(Reconnection { attempts: 0, not_before: Instant::now() + self.delay(1) });
        Ok(())
    }

    pub fn last_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    pub fn max_offline_wait(&self) -> Duration {
        self.options.max_offline_wait
    }

    pub fn max_attempts(&self) -> u32 {
        self.options.max_attempts
    }

    /// The wait before attempt `n` (from 1): the server's `retry:` or the initial delay,
    /// doubled per failed attempt, capped.
    pub fn delay(&self, n: u32) -> Duration {
        let base = self.retry_hint.unwrap_or(self.options.initial_delay);
        base.saturating_mul(1u32 << (n.saturating_sub(1)).min(16)).min(self.options.max_delay)
    }

    /// The new body is connected: what it sends first may be replays of what followed the
    /// resumed id's point.
    pub fn reconnected(&mut self) {
        self.pending = None;
        self.resumed += 1;
        let point = self.last_id.as_ref().and_then(|id| self.points.get(id).copied());
        self.replay = Some(point.unwrap_or(self.delivered.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::TransportOptions;

    /// An event whose own `id:` field set `id`, if given.
    fn event(id: Option<&str>, data: &str, retry: Option<u64>) -> SseEvent {
        let id_placement = if id.is_some() { IdPlacement::OnThisEvent } else { IdPlacement::Inherited };
        SseEvent { event: "message".into(), data: data.into(), id: id.map(str::to_owned), id_placement, retry }
    }

    /// An event without an id field, on a stream whose last id is `last`.
    fn carried(last: &str, data: &str) -> SseEvent {
        SseEvent {
            event: "message".into(),
            data: data.into(),
            id: Some(last.into()),
            id_placement: IdPlacement::Inherited,
            retry: None,
        }
    }

    #[test]
    fn with_ids_at_checkpoints_only_the_events_after_the_point_are_skipped_once() {
        let mut r = resumption(ResumeOptions::default());
        assert_eq!(r.admit(&event(Some("1"), "a", None)), Ok(Admission::Deliver));
        assert_eq!(r.admit(&carried("1", "b")), Ok(Admission::Deliver));
        assert_eq!(r.admit(&carried("1", "c")), Ok(Admission::Deliver));
        r.begin(TransportError::ConnectionLost("x".into())).unwrap();
        assert_eq!(r.last_id(), Some("1"));
        r.reconnected();
        // The server sends what followed its point again, then goes on.
        assert_eq!(r.admit(&carried("1", "b")), Ok(Admission::Skip));
        assert_eq!(r.admit(&carried("1", "c")), Ok(Admission::Skip));
        assert_eq!(r.admit(&carried("1", "d")), Ok(Admission::Deliver));
        assert_eq!(r.admit(&carried("1", "c")), Ok(Admission::Deliver), "past the replay, a repeat is new");
        // A replay that differs from what followed the point is not the same stream.
        let mut r = resumption(ResumeOptions::default());
        r.admit(&event(Some("1"), "a", None)).unwrap();
        r.admit(&carried("1", "b")).unwrap();
        r.begin(TransportError::ConnectionLost("x".into())).unwrap();
        r.reconnected();
        assert_eq!(r.admit(&carried("1", "z")), Err(TransportError::ResumeMismatch { id: "1".into() }));
    }

    #[test]
    fn an_id_set_by_a_block_without_data_marks_the_point_before_the_next_event() {
        let mut r = resumption(ResumeOptions::default());
        r.admit(&event(Some("1"), "a", None)).unwrap();
        let before =
            |data: &str| SseEvent { id_placement: IdPlacement::BeforeThisEvent, ..event(Some("2"), data, None) };
        assert_eq!(r.admit(&before("b")), Ok(Admission::Deliver));
        r.admit(&carried("2", "c")).unwrap();
        r.begin(TransportError::ConnectionLost("x".into())).unwrap();
        assert_eq!(r.last_id(), Some("2"));
        r.reconnected();
        assert_eq!(r.admit(&carried("2", "b")), Ok(Admission::Skip));
        assert_eq!(r.admit(&carried("2", "c")), Ok(Admission::Skip));
        assert_eq!(r.admit(&carried("2", "d")), Ok(Admission::Deliver));
    }

    fn resumption(options: ResumeOptions) -> Resumption {
        let transport = HttpTransport::new(
            "http://127.0.0.1:1/agent",
            &[],
            TransportOptions { resume: options, ..TransportOptions::default() },
        )
        .unwrap();
        Resumption::new(transport, bytes::Bytes::new())
    }

    #[test]
    fn replays_with_the_same_content_are_skipped_and_other_content_is_an_error() {
        let mut r = resumption(ResumeOptions::default());
        assert_eq!(r.admit(&event(Some("1"), "a", None)), Ok(Admission::Deliver));
        assert_eq!(r.admit(&event(Some("2"), "b", None)), Ok(Admission::Deliver));
        r.begin(TransportError::ConnectionLost("x".into())).unwrap();
        r.reconnected();
        assert_eq!(r.admit(&event(Some("2"), "b", None)), Ok(Admission::Skip));
        assert_eq!(r.admit(&event(Some("3"), "c", None)), Ok(Admission::Deliver));
        // Past the replay, a known id is the server's business again, but a new break checks it.
        r.begin(TransportError::ConnectionLost("x".into())).unwrap();
        r.reconnected();
        assert_eq!(r.admit(&event(Some("1"), "other", None)), Err(TransportError::ResumeMismatch { id: "1".into() }));
    }

    #[test]
    fn without_ids_or_attempts_or_memory_a_break_is_not_resumed() {
        let cause = TransportError::ConnectionLost("x".into());
        let mut r = resumption(ResumeOptions::default());
        r.admit(&event(None, "a", None)).unwrap();
        assert_eq!(r.begin(cause.clone()), Err(cause.clone()));

        let mut r = resumption(ResumeOptions { max_attempts: 0, ..ResumeOptions::default() });
        r.admit(&event(Some("1"), "a", None)).unwrap();
        assert_eq!(r.begin(cause.clone()), Err(cause.clone()));

        let mut r = resumption(ResumeOptions { max_remembered_ids: 2, ..ResumeOptions::default() });
        for id in ["1", "2", "3"] {
            r.admit(&event(Some(id), id, None)).unwrap();
        }
        assert_eq!(r.begin(cause.clone()), Err(cause.clone()), "a replay could not be recognised");

        let mut r = resumption(ResumeOptions { max_resumes: 1, ..ResumeOptions::default() });
        r.admit(&event(Some("1"), "a", None)).unwrap();
        r.begin(cause.clone()).unwrap();
        r.reconnected();
        assert_eq!(r.begin(cause.clone()), Err(cause));
    }

    #[test]
    fn delay_follows_retry_doubles_and_is_capped() {
        let mut r = resumption(ResumeOptions {
            initial_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            ..ResumeOptions::default()
        });
        assert_eq!(r.delay(1), Duration::from_millis(100));
        assert_eq!(r.delay(2), Duration::from_millis(200));
        r.admit(&event(Some("1"), "a", Some(300))).unwrap();
        assert_eq!(r.delay(1), Duration::from_millis(300));
        assert_eq!(r.delay(2), Duration::from_millis(600));
        assert_eq!(r.delay(3), Duration::from_secs(1));
        assert_eq!(r.delay(40), Duration::from_secs(1));
    }
}
