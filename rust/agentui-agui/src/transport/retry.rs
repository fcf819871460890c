//! The one rule for what a failed request is worth: another try later, a wait for the app, or
//! nothing. Two callers ask it, under different policies:
//!
//! - [`RetryPolicy::ResumeStream`]: a run's stream broke and a reconnection with `Last-Event-ID`
//!   failed (`stream.rs`). The agent took the run's request long ago; only the rest of its
//!   stream is missing, and the attempts are bounded by [`ResumeOptions`](super::ResumeOptions).
//! - [`RetryPolicy::DeliverPending`]: a message or action in the runtime's outbox was not taken
//!   by the agent. Its entry is dropped on [`RetryDecision::GiveUp`] and otherwise kept, across
//!   process death too, so the rule leans towards giving up where repeating could act twice.
//!
//! The policies differ on two errors only, each for a reason of its own:
//!
//! - `Idle` and `ConnectionLost`: a broken *stream* is what resumption is for. For a pending
//!   send, `Idle` means the request went out and the agent stayed silent, so it may be acting on
//!   it: the send gives up rather than run twice. `ConnectionLost` is only raised while reading
//!   a body, after the agent answered, when the entry is already delivered.
//!
//! `Unauthorized` waits for the app under both: sending the same credentials again cannot work.
//! A stream's run then fails with it; a pending send waits until the app retries it, typically
//! after signing in again.

use super::TransportError;

/// Who asks, which decides what a repeat may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RetryPolicy {
    /// Reconnecting a broken run stream, to continue it from its last event id.
    ResumeStream,
    /// Sending a message or action the agent has not taken yet, from the outbox.
    DeliverPending,
}

/// What to do after a failed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RetryDecision {
    /// The agent was likely not reached (or a gateway answered for it): try again after a wait.
    RetryLater,
    /// The agent refused the credentials: trying again alone cannot help; the app must act
    /// (sign in again, then retry).
    WaitForApp,
    /// An answer, a bad request or a local fault: the same request would fail the same way.
    GiveUp,
}

/// What `error` is worth under `policy` (see the module notes for where the policies differ).
pub fn retry_decision(error: &TransportError, policy: RetryPolicy) -> RetryDecision {
    use RetryDecision::*;
    match error {
        TransportError::Connect(_) | TransportError::Request(_) => RetryLater,
        // No request went out: the app's credentials could not be had (an offline token service).
        TransportError::HeaderProvider(_) => RetryLater,
        // A gateway or proxy in front of the agent answered; the agent did not.
        TransportError::Status { status: 502..=504, .. } => RetryLater,
        TransportError::Idle(_) | TransportError::ConnectionLost(_) => match policy {
            RetryPolicy::ResumeStream => RetryLater,
            RetryPolicy::DeliverPending => GiveUp,
        },
        TransportError::Unauthorized { .. } => WaitForApp,
        TransportError::InvalidUrl(_)
        | TransportError::InvalidHeader { .. }
        | TransportError::Tls(_)
        | TransportError::Certificate { .. }
        | TransportError::ClientBuild(_)
        | TransportError::Encode(_)
        | TransportError::Status { .. }
        | TransportError::UnexpectedContentType { .. }
        | TransportError::Truncated(_)
        | TransportError::Sse(_)
        | TransportError::Protocol(_)
        | TransportError::Cancelled
        | TransportError::ResumeRefused { .. }
        | TransportError::ResumeExhausted { .. }
        | TransportError::ResumeMismatch { .. } => GiveUp,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::RetryDecision::*;
    use super::*;
    use crate::error::ProtocolError;
    use crate::sse::SseError;
    use crate::transport::{CertificateRejection, Truncation};

    fn status(status: u16) -> TransportError {
        TransportError::Status { status, body_excerpt: String::new() }
    }

    /// Which variant `error` is; exhaustive, so a new variant fails to compile here until the
    /// table below has a row for it.
    fn variant(error: &TransportError) -> usize {
        match error {
            TransportError::InvalidUrl(_) => 0,
            TransportError::InvalidHeader { .. } => 1,
            TransportError::Tls(_) => 2,
            TransportError::Certificate { .. } => 3,
            TransportError::ClientBuild(_) => 4,
            TransportError::Encode(_) => 5,
            TransportError::Connect(_) => 6,
            TransportError::Request(_) => 7,
            TransportError::Status { .. } => 8,
            TransportError::UnexpectedContentType { .. } => 9,
            TransportError::Idle(_) => 10,
            TransportError::ConnectionLost(_) => 11,
            TransportError::Truncated(_) => 12,
            TransportError::Sse(_) => 13,
            TransportError::Protocol(_) => 14,
            TransportError::Cancelled => 15,
            TransportError::Unauthorized { .. } => 16,
            TransportError::HeaderProvider(_) => 17,
            TransportError::ResumeRefused { .. } => 18,
            TransportError::ResumeExhausted { .. } => 19,
            TransportError::ResumeMismatch { .. } => 20,
        }
    }
    const VARIANTS: usize = 21;

    /// Every variant under both policies: (error, resuming a stream, delivering a pending send,
    /// why).
    #[test]
    fn every_error_under_both_policies() {
        let lost = TransportError::ConnectionLost("reset".into());
        let table: Vec<(TransportError, RetryDecision, RetryDecision, &str)> = vec![
            (TransportError::InvalidUrl("x".into()), GiveUp, GiveUp, "the app's configuration"),
            (TransportError::InvalidHeader { name: "x".into() }, GiveUp, GiveUp, "the app's configuration"),
            (TransportError::Tls("x".into()), GiveUp, GiveUp, "the app's configuration"),
            (
                TransportError::Certificate { kind: CertificateRejection::UnknownIssuer, detail: "x".into() },
                GiveUp,
                GiveUp,
                "trust is not a transient state",
            ),
            (TransportError::ClientBuild("x".into()), GiveUp, GiveUp, "a local fault"),
            (TransportError::Encode("x".into()), GiveUp, GiveUp, "the same input encodes the same way"),
            (TransportError::Connect("x".into()), RetryLater, RetryLater, "the agent was not reached"),
            (TransportError::Request("x".into()), RetryLater, RetryLater, "no answer came back"),
            (status(502), RetryLater, RetryLater, "a gateway answered, not the agent"),
            (status(503), RetryLater, RetryLater, "a gateway answered, not the agent"),
            (status(504), RetryLater, RetryLater, "a gateway answered, not the agent"),
            (status(500), GiveUp, GiveUp, "the agent answered"),
            (status(404), GiveUp, GiveUp, "the agent answered"),
            (status(204), GiveUp, GiveUp, "the agent answered"),
            (
                TransportError::UnexpectedContentType { content_type: "text/html".into(), body_excerpt: String::new() },
                GiveUp,
                GiveUp,
                "the agent answered",
            ),
            (
                TransportError::Idle(Duration::from_secs(30)),
                RetryLater,
                GiveUp,
                "a stalled stream resumes; a pending send the agent may be acting on is not repeated",
            ),
            (
                lost.clone(),
                RetryLater,
                GiveUp,
                "a broken stream resumes; for a send it comes after the agent answered (delivered)",
            ),
            (TransportError::Truncated(Truncation::RunOpen), GiveUp, GiveUp, "the body's own end, not a request's"),
            (TransportError::Sse(SseError::LineTooLong { limit: 1 }), GiveUp, GiveUp, "bad input stays bad"),
            (TransportError::Protocol(ProtocolError::InvalidJson("x".into())), GiveUp, GiveUp, "bad input stays bad"),
            (TransportError::Cancelled, GiveUp, GiveUp, "the app asked to stop"),
            (
                TransportError::Unauthorized { body_excerpt: String::new() },
                WaitForApp,
                WaitForApp,
                "the same credentials fail again: the app must sign in",
            ),
            (TransportError::HeaderProvider("offline".into()), RetryLater, RetryLater, "no request went out"),
            (TransportError::ResumeRefused { status: 204 }, GiveUp, GiveUp, "the agent answered"),
            (
                TransportError::ResumeExhausted { attempts: 5, last: Box::new(lost) },
                GiveUp,
                GiveUp,
                "its own attempts ran out",
            ),
            (TransportError::ResumeMismatch { id: "1".into() }, GiveUp, GiveUp, "the agent's stream diverged"),
        ];
        let covered: std::collections::BTreeSet<usize> = table.iter().map(|(e, ..)| variant(e)).collect();
        assert_eq!(covered.len(), VARIANTS, "every variant has a row");
        for (error, resume, deliver, why) in &table {
            assert_eq!(retry_decision(error, RetryPolicy::ResumeStream), *resume, "{error:?} resuming: {why}");
            assert_eq!(retry_decision(error, RetryPolicy::DeliverPending), *deliver, "{error:?} delivering: {why}");
        }
    }
}
