//! The HTTP transport against a scripted loopback server: every fault is a typed error, the
//! body is consumed incrementally, and nothing after the run's end is applied. On tokio's
//! paused clock: idle timeouts, stalls and the test bound are virtual time, exact on any machine.

use std::time::Duration;

use tokio::time::Instant;

use crate::support::{input, options};
use agentui_agui::message::RunAgentInput;
use agentui_agui::transport::{CancelToken, HttpTransport, TransportError, TransportOptions, Truncation};
use agentui_agui::{ConversationState, Event, PipelineOptions, SseError, SseLimits};
use agentui_test_server::*;
use serde_json::json;
use tokio::time::timeout;

/// Run one exchange; returns the conversation, the result and the delivered event types.
async fn exchange(
    server: &TestServer,
    options: TransportOptions,
) -> (ConversationState, Result<(), TransportError>, Vec<&'static str>) {
    let transport = HttpTransport::new(&server.url("/agent"), &[], options).unwrap();
    run_on(&transport, &input()).await
}

/// Streams one run of `input` on `transport` from an empty conversation, never cancelled.
async fn run_on(
    transport: &HttpTransport,
    input: &RunAgentInput,
) -> (ConversationState, Result<(), TransportError>, Vec<&'static str>) {
    let mut seen = Vec::new();
    let (c, r) = transport
        .stream_run(input, ConversationState::default(), &PipelineOptions::default(), &CancelToken::new(), |e, _| {
            seen.push(e.type_name())
        })
        .await;
    (c, r, seen)
}

#[tokio::test(start_paused = true)]
async fn request_is_a_post_of_the_input_with_sse_accept_and_extra_headers() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("m1", "hi")]))]).await;
        let headers = [("Authorization".to_owned(), "Bearer s3cret".to_owned())];
        let transport = HttpTransport::new(&server.url("/agent"), &headers, options()).unwrap();
        let (c, r, _) = run_on(&transport, &input()).await;
        r.unwrap();
        assert_eq!(c.message("m1").unwrap().text(), Some("hi"));
        let req = &server.requests()[0];
        assert_eq!((req.method.as_str(), req.path.as_str()), ("POST", "/agent"));
        assert_eq!(req.header("accept"), Some("text/event-stream"));
        assert_eq!(req.header("content-type"), Some("application/json"));
        assert_eq!(req.header("authorization"), Some("Bearer s3cret"));
        assert_eq!(req.body["threadId"], "t");
        assert_eq!(req.body["runId"], "r1");
        assert!(!format!("{transport:?}").contains("s3cret"), "credentials never reach Debug output");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn connection_dropped_mid_event_is_an_error_not_a_short_run() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![Reply::sse_steps(vec![
            Step::Send(frame(&started("r1"))),
            Step::Send(b"data: {\"type\":\"TEXT_MESSAGE_START\",\"messa".to_vec()),
            Step::Drop,
        ])])
        .await;
        let (c, r, seen) = exchange(&server, options()).await;
        assert!(matches!(r, Err(TransportError::ConnectionLost(_))), "{r:?}");
        assert_eq!(seen, ["RUN_STARTED"]);
        assert!(c.messages().is_empty());
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn body_ending_cleanly_inside_an_event_is_truncated() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![Reply::sse_steps(vec![
            Step::Send(frame(&started("r1"))),
            Step::Send(b"data: {\"type\":\"TEXT_MESSAGE_START\",\"messa".to_vec()),
        ])])
        .await;
        let (_, r, _) = exchange(&server, options()).await;
        assert_eq!(r, Err(TransportError::Truncated(Truncation::InsideEvent)));
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn body_ending_cleanly_mid_run_is_truncated() {
    timeout(TEST_BOUND, async {
        let mut events = vec![started("r1")];
        events.extend(text("m1", "partial"));
        let server = TestServer::start(vec![Reply::sse(&events), Reply::sse(&[])]).await;
        let (c, r, _) = exchange(&server, options()).await;
        assert_eq!(r, Err(TransportError::Truncated(Truncation::RunOpen)));
        assert_eq!(c.message("m1").unwrap().text(), Some("partial"), "what arrived is kept, and flagged");
        let (_, r, _) = exchange(&server, options()).await;
        assert_eq!(r, Err(TransportError::Truncated(Truncation::NoEvents)), "an empty body is no run at all");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn stall_past_the_idle_timeout_is_a_typed_error_within_bound() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![Reply::sse_steps(vec![
            Step::Send(frame(&started("r1"))),
            Step::Sleep(Duration::from_millis(150)),
            Step::Send(b": keep-alive comments count as activity\n\n".to_vec()),
            Step::Hang,
        ])])
        .await;
        let idle = Duration::from_millis(400);
        let t0 = Instant::now();
        let (_, r, seen) = exchange(&server, TransportOptions { idle_timeout: idle, ..options() }).await;
        assert_eq!(r, Err(TransportError::Idle(idle)));
        assert_eq!(seen, ["RUN_STARTED"]);
        let elapsed = t0.elapsed();
        assert!(elapsed >= Duration::from_millis(500) && elapsed < Duration::from_secs(3), "{elapsed:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn server_silent_before_headers_hits_the_idle_timeout() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![]).await;
        // A server that accepts and never answers: hand-rolled, since scripted replies always answer.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/agent", listener.local_addr().unwrap());
        let hold = tokio::spawn(async move {
            let (_socket, _) = listener.accept().await.unwrap();
            tokio::time::sleep(Duration::from_secs(60)).await;
        });
        drop(server);
        let idle = Duration::from_millis(300);
        let transport = HttpTransport::new(&url, &[], TransportOptions { idle_timeout: idle, ..options() }).unwrap();
        let err = transport.open(&input(), &CancelToken::new()).await.unwrap_err();
        assert_eq!(err, TransportError::Idle(idle));
        hold.abort();
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn http_500_reports_status_and_a_bounded_body_excerpt() {
    timeout(TEST_BOUND, async {
        let body = format!("internal failure: {}", "x".repeat(10_000));
        let server = TestServer::start(vec![Reply::status(500, "text/plain", body.as_bytes())]).await;
        let (_, r, _) = exchange(&server, options()).await;
        let Err(TransportError::Status { status, body_excerpt }) = r else { panic!("{r:?}") };
        assert_eq!(status, 500);
        assert!(body_excerpt.starts_with("internal failure: xxx"));
        assert!(body_excerpt.len() <= 2048 + '…'.len_utf8(), "{}", body_excerpt.len());
        assert!(body_excerpt.ends_with('…'), "a cut excerpt says so");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn html_instead_of_sse_reports_the_content_type() {
    timeout(TEST_BOUND, async {
        let page = b"<html><body>Please log in</body></html>";
        let server = TestServer::start(vec![Reply::status(200, "text/html; charset=utf-8", page)]).await;
        let (_, r, seen) = exchange(&server, options()).await;
        let Err(TransportError::UnexpectedContentType { content_type, body_excerpt }) = r else { panic!("{r:?}") };
        assert_eq!(content_type, "text/html; charset=utf-8");
        assert!(body_excerpt.contains("Please log in"));
        assert!(seen.is_empty());
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn invalid_utf8_is_a_typed_sse_error() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![Reply::sse_steps(vec![
            Step::Send(frame(&started("r1"))),
            Step::Send(b"data: {\"type\":\"CUSTOM\",\"name\":\"\xFF\xFE\",\"value\":1}\n\n".to_vec()),
        ])])
        .await;
        let (_, r, _) = exchange(&server, options()).await;
        assert!(matches!(r, Err(TransportError::Sse(SseError::InvalidUtf8 { .. }))), "{r:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn oversized_event_is_a_typed_sse_error() {
    timeout(TEST_BOUND, async {
        let big = json!({"type": "CUSTOM", "name": "blob", "value": "y".repeat(8 * 1024)});
        let server = TestServer::start(vec![Reply::sse(&[started("r1"), big, finished("r1")])]).await;
        let limits = SseLimits { max_line_bytes: 1 << 20, max_event_bytes: 4 * 1024 };
        let (_, r, _) = exchange(&server, TransportOptions { sse_limits: limits, ..options() }).await;
        assert_eq!(r, Err(TransportError::Sse(SseError::EventTooLarge { limit: 4 * 1024 })));
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn protocol_violation_is_a_typed_error() {
    timeout(TEST_BOUND, async {
        let stray = json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "nope", "delta": "x"});
        let server = TestServer::start(vec![Reply::sse(&[started("r1"), stray, finished("r1")])]).await;
        let (_, r, _) = exchange(&server, options()).await;
        assert!(matches!(r, Err(TransportError::Protocol(_))), "{r:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn events_after_run_finished_are_never_applied() {
    timeout(TEST_BOUND, async {
        // The late events share RUN_FINISHED's chunk, and more follow in later chunks.
        let mut tail = frame(&finished("r1"));
        tail.extend(frame(&json!({"type": "TEXT_MESSAGE_START", "messageId": "late", "role": "assistant"})));
        let server = TestServer::start(vec![Reply::sse_steps(vec![
            Step::Send(frame(&started("r1"))),
            Step::Send(tail),
            Step::Send(frame(&json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}))),
        ])])
        .await;
        let (c, r, seen) = exchange(&server, options()).await;
        r.unwrap();
        assert_eq!(seen, ["RUN_STARTED", "RUN_FINISHED"]);
        assert!(c.message("late").is_none());
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn events_are_applied_as_they_arrive_not_after_the_body() {
    timeout(TEST_BOUND, async {
        let mut steps: Vec<Step> =
            std::iter::once(started("r1")).chain(text("m1", "early")).map(|e| Step::Send(frame(&e))).collect();
        steps.push(Step::Sleep(Duration::from_millis(400)));
        steps.push(Step::Send(frame(&finished("r1"))));
        let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
        let transport = HttpTransport::new(&server.url("/agent"), &[], options()).unwrap();
        let t0 = Instant::now();
        let mut text_at = None;
        let (_, r) = transport
            .stream_run(
                &input(),
                ConversationState::default(),
                &PipelineOptions::default(),
                &CancelToken::new(),
                |e, c| {
                    if matches!(e, Event::TextMessageEnd(_)) {
                        assert_eq!(c.message("m1").unwrap().text(), Some("early"));
                        text_at = Some(t0.elapsed());
                    }
                },
            )
            .await;
        r.unwrap();
        let total = t0.elapsed();
        assert!(total - text_at.unwrap() >= Duration::from_millis(300), "text applied before the body ended");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn cancel_stops_a_slow_stream_promptly() {
    timeout(TEST_BOUND, async {
        let mut steps = vec![Step::Send(frame(&started("r1")))];
        for i in 0..100 {
            steps.push(Step::Sleep(Duration::from_millis(100)));
            steps.push(Step::Send(frame(&json!({"type": "CUSTOM", "name": "tick", "value": i}))));
        }
        let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
        let transport = HttpTransport::new(&server.url("/agent"), &[], options()).unwrap();
        let cancel = CancelToken::new();
        let trigger = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            trigger.cancel();
        });
        let t0 = Instant::now();
        let (_, r) = transport
            .stream_run(&input(), ConversationState::default(), &PipelineOptions::default(), &cancel, |_, _| {})
            .await;
        assert_eq!(r, Err(TransportError::Cancelled));
        assert!(t0.elapsed() < Duration::from_millis(800), "{:?}", t0.elapsed());
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn connection_refused_is_a_connect_error() {
    timeout(TEST_BOUND, async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/agent", listener.local_addr().unwrap());
        drop(listener);
        let transport = HttpTransport::new(&url, &[], options()).unwrap();
        let err = transport.open(&input(), &CancelToken::new()).await.unwrap_err();
        assert!(matches!(err, TransportError::Connect(_)), "{err:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn https_to_a_port_answering_garbage_is_an_error_not_a_panic() {
    timeout(TEST_BOUND, async {
        // Builds the real client (rustls + ring + webpki roots via use_preconfigured_tls) and
        // makes it handshake with something that is not TLS.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                use tokio::io::AsyncWriteExt;
                let _ = socket.write_all(b"HTTP/1.1 200 OK\r\n\r\nthis is not a TLS server").await;
            }
        });
        let transport = HttpTransport::new(&format!("https://127.0.0.1:{port}/agent"), &[], options()).unwrap();
        let err = transport.open(&input(), &CancelToken::new()).await.unwrap_err();
        assert!(matches!(&err, TransportError::Connect(detail) if detail.contains("corrupt message")), "{err:?}");
        // A peer that hangs up during the handshake, and one that never answers it: errors too.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                drop(socket);
            }
        });
        let transport = HttpTransport::new(&format!("https://127.0.0.1:{port}/agent"), &[], options()).unwrap();
        let err = transport.open(&input(), &CancelToken::new()).await.unwrap_err();
        assert!(matches!(err, TransportError::Connect(_)), "{err:?}");
        let silent = TestServer::start(vec![]).await;
        let transport =
            HttpTransport::new(&format!("https://127.0.0.1:{}/agent", silent.port()), &[], options()).unwrap();
        let err = transport.open(&input(), &CancelToken::new()).await.unwrap_err();
        assert!(matches!(err, TransportError::Idle(_) | TransportError::Connect(_)), "{err:?}");
    })
    .await
    .unwrap();
}

/// On the real clock (see the test server's note on keep-alive and the paused clock); runs are
/// [`POOL_RETURN`] apart (see its note).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_run_reuses_the_kept_alive_connection() {
    timeout(TEST_BOUND, async {
        // Each body ends 10 ms after RUN_FINISHED: reusable only if the run reads it to the end.
        let replies = ["r1", "r2"].map(|run| {
            let mut steps: Vec<Step> =
                run_of(run, vec![text("m1", "hi")]).iter().map(|e| Step::Send(frame(e))).collect();
            steps.push(Step::Sleep(Duration::from_millis(10)));
            Reply::sse_steps(steps).keep_alive()
        });
        let server = TestServer::start(replies.to_vec()).await;
        let transport = HttpTransport::new(&server.url("/agent"), &[], TransportOptions::default()).unwrap();
        for run in ["r1", "r2"] {
            let input = RunAgentInput { run_id: run.into(), ..input() };
            let (_, result, _) = run_on(&transport, &input).await;
            result.unwrap();
            tokio::time::sleep(POOL_RETURN).await;
        }
        let connections: Vec<usize> = server.requests().iter().map(|r| r.connection).collect();
        assert_eq!(connections, [0, 0], "both runs on one connection");
    })
    .await
    .unwrap();
}
