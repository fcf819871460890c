//! Resuming a stream that broke mid-run, with `Last-Event-ID`.
//!
//! When the body breaks, stalls past the idle timeout or ends before the run closed, and the
//! events so far carried SSE ids, the request is sent again with the last complete event's id in
//! `Last-Event-ID`. The wait before each attempt is the server's `retry:` (or
//! [`ResumeOptions::initial_delay`]), doubling per failed attempt up to `max_delay`; attempts
//! and resumptions per run are bounded. The new body must continue after that id: an event it
//! replays with the same content is dropped, one replayed with other content is
//! [`TransportError::ResumeMismatch`], so the pipeline never sees an event twice.
//!
//! It cannot resume when no event carried an id, when the agent answers anything but an event
//! stream (204, 4xx: [`TransportError::ResumeRefused`]), or when the attempts run out
//! ([`TransportError::ResumeExhausted`]).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use tokio::time::Instant;

use super::{HttpTransport, TransportError};
use crate::sse::SseEvent;

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
    /// Event ids remembered per run to recognise a replay; past it the run cannot resume.
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
    /// The id of the last complete event handed on.
    last_id: Option<String>,
    /// The server's last `retry:`.
    retry_hint: Option<Duration>,
    /// Each id seen with a hash of the last event that carried it.
    seen: HashMap<String, u64>,
    /// More ids than `max_remembered_ids`: a replay could no longer be told apart.
    forgetful: bool,
    /// Reconnected since the last new id: events with known ids are replays.
    replaying: bool,
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

impl Resumption {
    pub fn new(transport: HttpTransport, body: bytes::Bytes) -> Self {
        let options = transport.options().resume.clone();
        Resumption {
            transport,
            body,
            options,
            last_id: None,
            retry_hint: None,
            seen: HashMap::new(),
            forgetful: false,
            replaying: false,
            resumed: 0,
            pending: None,
        }
    }

    /// Notes one complete event; says whether it goes on.
    pub fn admit(&mut self, event: &SseEvent) -> Result<Admission, TransportError> {
        if let Some(ms) = event.retry {
            self.retry_hint = Some(Duration::from_millis(ms));
        }
        let Some(id) = &event.id else {
            self.replaying = false;
            return Ok(Admission::Deliver);
        };
        let mut hasher = DefaultHasher::new();
        event.event.hash(&mut hasher);
        event.data.hash(&mut hasher);
        let digest = hasher.finish();
        if self.replaying {
            match self.seen.get(id) {
                Some(&known) if known == digest => return Ok(Admission::Skip),
                Some(_) => return Err(TransportError::ResumeMismatch { id: id.clone() }),
                None => self.replaying = false,
            }
        }
        if !self.forgetful {
            if self.seen.len() >= self.options.max_remembered_ids && !self.seen.contains_key(id) {
                self.forgetful = true;
                self.seen.clear();
            } else {
                self.seen.insert(id.clone(), digest);
            }
        }
        self.last_id = Some(id.clone());
        Ok(Admission::Deliver)
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

    /// The new body is connected: what it sends first may be replays.
    pub fn reconnected(&mut self) {
        self.pending = None;
        self.resumed += 1;
        self.replaying = true;
    }
}

/// Whether a failed reconnection is worth another attempt (the agent may not have been
/// reached), rather than an answer.
pub(crate) fn worth_retrying(error: &TransportError) -> bool {
    match error {
        TransportError::Connect(_)
        | TransportError::Request(_)
        | TransportError::Idle(_)
        | TransportError::ConnectionLost(_) => true,
        TransportError::Status { status, .. } => matches!(status, 502..=504),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::TransportOptions;

    fn event(id: Option<&str>, data: &str, retry: Option<u64>) -> SseEvent {
        SseEvent { event: "message".into(), data: data.into(), id: id.map(str::to_owned), retry }
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
