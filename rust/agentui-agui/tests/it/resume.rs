//! Resuming a stream that broke mid-run, against the test server's resumable run: the pipeline
//! sees one continuous stream, every event once; what cannot be resumed is a typed error. On
//! tokio's paused clock, so the waits between attempts are exact.

use std::time::Duration;

use tokio::time::{timeout, Instant};

use crate::support::{input, options};
use agentui_agui::transport::{
    CancelToken, Connectivity, HttpTransport, ResumeOptions, TransportError, TransportOptions,
};
use agentui_agui::{ConversationState, PipelineOptions};
use agentui_test_server::*;
use serde_json::{json, Value};

/// started, a message streamed in three pieces, finished: six events, ids 1 to 6.
fn answer() -> Vec<Value> {
    vec![
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hel"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "lo "}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "world"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        finished("r1"),
    ]
}

/// Streams one run; returns the conversation, the result, the delivered event types and how
/// many times the stream was resumed.
async fn run(
    server: &TestServer,
    options: TransportOptions,
) -> (ConversationState, Result<(), TransportError>, Vec<&'static str>) {
    let transport = HttpTransport::new(&server.url("/agent"), &[], options).unwrap();
    let mut seen = Vec::new();
    let (c, r) = transport
        .stream_run(&input(), ConversationState::default(), &PipelineOptions::default(), &CancelToken::new(), |e, _| {
            seen.push(e.type_name())
        })
        .await;
    (c, r, seen)
}

const ALL: [&str; 7] = [
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
];

#[tokio::test(start_paused = true)]
async fn a_dropped_numbered_stream_resumes_from_the_last_id_with_every_event_once() {
    timeout(TEST_BOUND, async {
        let server = TestServer::with_handler(vec![], ResumableRun::new(answer(), vec![3, 2]).handler()).await;
        let (c, r, seen) = run(&server, options()).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(c.message("m1").unwrap().text(), Some("hello world"));
        let requests = server.requests();
        assert_eq!(requests.len(), 3, "two drops, two resumptions");
        assert_eq!(requests[0].header("last-event-id"), None);
        assert_eq!(requests[1].header("last-event-id"), Some("3"));
        assert_eq!(requests[2].header("last-event-id"), Some("5"));
        assert_eq!(requests[1].body, requests[0].body, "the same request, continued");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn the_servers_retry_sets_the_wait_before_reconnecting() {
    timeout(TEST_BOUND, async {
        let run_of_answer = ResumableRun { retry_ms: Some(3000), ..ResumableRun::new(answer(), vec![2]) };
        let server = TestServer::with_handler(vec![], run_of_answer.handler()).await;
        let t0 = Instant::now();
        let (_, r, seen) = run(&server, options()).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        let elapsed = t0.elapsed();
        // The default first wait is 500 ms; the server asked for 3 s.
        assert!(elapsed >= Duration::from_secs(3) && elapsed < Duration::from_millis(3400), "{elapsed:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_refused_resumption_is_a_typed_error_keeping_what_arrived() {
    timeout(TEST_BOUND, async {
        let refusing = ResumableRun { refuse_resume: Some(204), ..ResumableRun::new(answer(), vec![4]) };
        let server = TestServer::with_handler(vec![], refusing.handler()).await;
        let (c, r, seen) = run(&server, options()).await;
        assert_eq!(r, Err(TransportError::ResumeRefused { status: 204 }));
        assert_eq!(seen, ALL[..4]);
        assert_eq!(c.message("m1").unwrap().text(), Some("hello "));
        assert_eq!(server.requests().len(), 2, "one attempt: an answer is not retried");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_stream_without_ids_is_not_resumed() {
    timeout(TEST_BOUND, async {
        let mut steps: Vec<Step> = answer()[..3].iter().map(|e| Step::Send(frame(e))).collect();
        steps.push(Step::Drop);
        let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
        let (c, r, seen) = run(&server, options()).await;
        assert!(matches!(r, Err(TransportError::ConnectionLost(_))), "{r:?}");
        assert_eq!(seen, ALL[..3]);
        assert_eq!(c.message("m1").unwrap().text(), Some("hel"));
        assert_eq!(server.requests().len(), 1);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn reconnection_attempts_are_bounded_and_back_off() {
    timeout(TEST_BOUND, async {
        let mut steps: Vec<Step> =
            answer()[..3].iter().enumerate().map(|(i, e)| Step::Send(numbered_frame(i + 1, e))).collect();
        steps.push(Step::Drop);
        // After the drop, a gateway that cannot reach the agent.
        let server = TestServer::with_handler(vec![Reply::sse_steps(steps)], |_: &Recorded| {
            Reply::status(503, "text/plain", b"unavailable")
        })
        .await;
        let resume =
            ResumeOptions { max_attempts: 3, initial_delay: Duration::from_millis(100), ..ResumeOptions::default() };
        let t0 = Instant::now();
        let (_, r, seen) = run(&server, TransportOptions { resume, ..options() }).await;
        let Err(TransportError::ResumeExhausted { attempts, last }) = r else { panic!("{r:?}") };
        assert_eq!(attempts, 3);
        assert!(matches!(*last, TransportError::Status { status: 503, .. }), "{last:?}");
        assert_eq!(seen, ALL[..3]);
        assert_eq!(server.requests().len(), 4);
        assert!(server.requests()[1..].iter().all(|r| r.header("last-event-id") == Some("3")));
        let elapsed = t0.elapsed();
        // Waits of 100, 200 and 400 ms.
        assert!(elapsed >= Duration::from_millis(700) && elapsed < Duration::from_secs(1), "{elapsed:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_faithful_replay_is_skipped_and_a_different_one_is_an_error() {
    timeout(TEST_BOUND, async {
        let events = answer();
        let numbered = |range: std::ops::Range<usize>| -> Vec<Step> {
            range.map(|i| Step::Send(numbered_frame(i + 1, &events[i]))).collect()
        };
        let mut first = numbered(0..4);
        first.push(Step::Drop);
        // Resumes from 2 instead of 4: ids 3 and 4 again, unchanged, then the rest.
        let replaying = numbered(2..7);
        let server = TestServer::start(vec![Reply::sse_steps(first.clone()), Reply::sse_steps(replaying)]).await;
        let (c, r, seen) = run(&server, options()).await;
        r.unwrap();
        assert_eq!(seen, ALL, "nothing twice");
        assert_eq!(c.message("m1").unwrap().text(), Some("hello world"));

        let mut changed = vec![Step::Send(numbered_frame(
            4,
            &json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "HELLO"}),
        ))];
        changed.extend(numbered(4..7));
        let server = TestServer::start(vec![Reply::sse_steps(first), Reply::sse_steps(changed)]).await;
        let (c, r, seen) = run(&server, options()).await;
        assert_eq!(r, Err(TransportError::ResumeMismatch { id: "4".into() }));
        assert_eq!(seen, ALL[..4]);
        assert_eq!(c.message("m1").unwrap().text(), Some("hello "));
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_body_ending_or_stalling_mid_run_is_resumed_and_a_cut_event_sent_again() {
    timeout(TEST_BOUND, async {
        let events = answer();
        let numbered = |range: std::ops::Range<usize>| -> Vec<Step> {
            range.map(|i| Step::Send(numbered_frame(i + 1, &events[i]))).collect()
        };
        // Ends cleanly inside event 3.
        let mut ends = numbered(0..2);
        ends.push(Step::Send(b"id: 3\ndata: {\"type\":\"TEXT_MESSA".to_vec()));
        // Stalls after event 5.
        let mut stalls = numbered(2..5);
        stalls.push(Step::Hang);
        let server =
            TestServer::start(vec![Reply::sse_steps(ends), Reply::sse_steps(stalls), Reply::sse_steps(numbered(5..7))])
                .await;
        let (c, r, seen) = run(&server, options()).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(c.message("m1").unwrap().text(), Some("hello world"));
        let ids: Vec<_> = server.requests().iter().map(|r| r.header("last-event-id").map(str::to_owned)).collect();
        assert_eq!(ids, [None, Some("2".to_owned()), Some("5".to_owned())]);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_cancel_during_the_wait_ends_the_run_at_once() {
    timeout(TEST_BOUND, async {
        let slow = ResumableRun { retry_ms: Some(60_000), ..ResumableRun::new(answer(), vec![2]) };
        let server = TestServer::with_handler(vec![], slow.handler()).await;
        let transport = HttpTransport::new(&server.url("/agent"), &[], options()).unwrap();
        let cancel = CancelToken::new();
        let canceller = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            canceller.cancel();
        });
        let t0 = Instant::now();
        let (_, r) = transport
            .stream_run(&input(), ConversationState::default(), &PipelineOptions::default(), &cancel, |_, _| {})
            .await;
        assert_eq!(r, Err(TransportError::Cancelled));
        assert!(t0.elapsed() < Duration::from_secs(2));
        assert_eq!(server.requests().len(), 1);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn offline_the_resumption_waits_without_spending_attempts_and_goes_when_back_online() {
    timeout(TEST_BOUND * 10, async {
        let server = TestServer::with_handler(vec![], ResumableRun::new(answer(), vec![2]).handler()).await;
        let network = Connectivity::new();
        network.set_online(false);
        let host = network.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(90)).await;
            host.set_online(true);
        });
        let resume = ResumeOptions { max_attempts: 1, ..ResumeOptions::default() };
        let t0 = Instant::now();
        let (c, r, seen) = run(&server, TransportOptions { resume, connectivity: network, ..options() }).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(c.message("m1").unwrap().text(), Some("hello world"));
        assert_eq!(server.requests().len(), 2, "one attempt, made once the network was back");
        let elapsed = t0.elapsed();
        assert!(elapsed >= Duration::from_secs(90) && elapsed < Duration::from_millis(90_100), "{elapsed:?}");

        // Offline for longer than the bound: the run fails rather than wait for ever.
        let server = TestServer::with_handler(vec![], ResumableRun::new(answer(), vec![2]).handler()).await;
        let network = Connectivity::new();
        network.set_online(false);
        let resume = ResumeOptions { max_offline_wait: Duration::from_secs(30), ..ResumeOptions::default() };
        let (_, r, _) = run(&server, TransportOptions { resume, connectivity: network, ..options() }).await;
        assert!(matches!(r, Err(TransportError::ResumeExhausted { attempts: 0, .. })), "{r:?}");
        assert_eq!(server.requests().len(), 1);
    })
    .await
    .unwrap();
}

/// Streams `answer()` from a resumable run whose events carry ids as `ids` says, dropped after
/// `drops` events per connection; returns the result, the delivered event types, the text and
/// the `Last-Event-ID` of each request.
async fn run_sparse(
    ids: IdPattern,
    drops: Vec<usize>,
) -> (Result<(), TransportError>, Vec<&'static str>, String, Vec<Option<String>>) {
    let server =
        TestServer::with_handler(vec![], ResumableRun { ids, ..ResumableRun::new(answer(), drops) }.handler()).await;
    let (c, r, seen) = run(&server, options()).await;
    let text = c.message("m1").and_then(|m| m.text().map(str::to_owned)).unwrap_or_default();
    let resumed_from = server.requests().iter().map(|r| r.header("last-event-id").map(str::to_owned)).collect();
    (r, seen, text, resumed_from)
}

/// Issue 43: ids on every other event, and the connection drops after one without: the
/// server replays it after the resumed id, and it is delivered once.
#[tokio::test(start_paused = true)]
async fn with_ids_on_every_other_event_a_drop_after_one_without_delivers_every_event_once() {
    timeout(TEST_BOUND, async {
        // Ids on 2, 4, 6. The first connection sends 1-3, the second 3-5, the third 5-7.
        let (r, seen, text, resumed_from) = run_sparse(IdPattern::EveryOther, vec![3, 3]).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(text, "hello world");
        assert_eq!(resumed_from, [None, Some("2".into()), Some("4".into())]);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn with_ids_only_on_some_event_types_a_drop_replays_from_the_last_of_them_once() {
    timeout(TEST_BOUND, async {
        // Ids on RUN_STARTED (1) and TEXT_MESSAGE_END (6) only: the first connection drops
        // after 4 events, so the second replays 2-4 before going on.
        let ids = IdPattern::Types(vec!["RUN_STARTED".into(), "TEXT_MESSAGE_END".into()]);
        let (r, seen, text, resumed_from) = run_sparse(ids.clone(), vec![4]).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(text, "hello world");
        assert_eq!(resumed_from, [None, Some("1".into())]);

        // Two drops: the second connection replays 2-6, and drops right after 6, which has an id.
        let (r, seen, text, resumed_from) = run_sparse(ids, vec![2, 5]).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(text, "hello world");
        assert_eq!(resumed_from, [None, Some("1".into()), Some("6".into())]);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn with_ids_on_every_event_a_drop_still_delivers_every_event_once() {
    timeout(TEST_BOUND, async {
        let (r, seen, text, resumed_from) = run_sparse(IdPattern::Every, vec![1, 1, 1, 1, 1, 1]).await;
        r.unwrap();
        assert_eq!(seen, ALL);
        assert_eq!(text, "hello world");
        assert_eq!(resumed_from.len(), 7);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_resumable_server_that_sends_no_ids_is_not_resumed() {
    timeout(TEST_BOUND, async {
        let (r, seen, text, resumed_from) = run_sparse(IdPattern::Never, vec![3]).await;
        assert!(matches!(r, Err(TransportError::ConnectionLost(_))), "{r:?}");
        assert_eq!(seen, ALL[..3]);
        assert_eq!(text, "hel");
        assert_eq!(resumed_from, [None], "nothing to resume from: no second request");
    })
    .await
    .unwrap();
}
