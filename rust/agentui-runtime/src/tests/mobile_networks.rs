//! Issue 26 end to end on a session: a token that expires mid-conversation, a stream that drops
//! mid-answer on a server that can resume it and on one that cannot. On tokio's paused clock.

use crate::tests::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_agui::reducer::LocalOnly;
use agentui_agui::transport::{
    Connectivity, HeaderFuture, HeaderProvider, HeaderReason, SharedHeaderProvider, TransportError, TransportOptions,
};
use agentui_runtime::session::{
    ConversationSession, PendingReason, RunPhase, SessionError, SessionOptions, SessionWarningKind,
};
use agentui_runtime::{Conversation, ConversationDelta, Observed};
use serde_json::{json, Value};
use support::*;
use tokio::time::{timeout, Instant};

fn session_with(server: &TestServer, transport: TransportOptions) -> (ConversationSession, Recorder) {
    let options = SessionOptions { thread_id: Some("t".into()), transport, ..SessionOptions::default() };
    let mut s = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    let recorder = Recorder::default();
    s.add_listener(Arc::new(recorder.clone()));
    (s, recorder)
}

/// A run answering "The answer is 42." in four pieces: eight events.
fn answer(run: &str) -> Vec<Value> {
    let mut events = vec![started(run), json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"})];
    for piece in ["The ", "answer ", "is ", "42."] {
        events.push(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": piece}));
    }
    events.push(json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"}));
    events.push(finished(run));
    events
}

/// The text observers were told for `id`, appended piece by piece.
fn told_text(rec: &Recorder, id: &str) -> String {
    rec.all()
        .iter()
        .filter_map(|d| match d {
            ConversationDelta::TextAppended { message_id, delta } if message_id == id => Some(delta.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_drop_mid_answer_on_a_resumable_server_completes_the_answer_exactly_once() {
    timeout(TEST_BOUND, async {
        let server = TestServer::with_handler(vec![], ResumableRun::new(answer("r1"), vec![4]).handler()).await;
        let (mut s, rec) = session_with(&server, TransportOptions::default());
        let summary = s.run("question").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(s.conversation().message("a1").unwrap().text(), Some("The answer is 42."));
        assert_eq!(told_text(&rec, "a1"), "The answer is 42.", "observers saw every piece once");
        assert_eq!(s.conversation().local_only("a1"), None);
        assert!(
            summary
                .warnings
                .iter()
                .any(|w| w.kind == SessionWarningKind::StreamResumed && w.message.contains("1 time")),
            "{:?}",
            summary.warnings
        );
        let requests = server.requests();
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[1].header("last-event-id"), Some("4"));
    })
    .await
    .unwrap();
}

/// The run fails with `expected`, its partial message is kept on the device (as after a cancel)
/// and the next run does not send it as if it were complete.
async fn assert_cut_short_and_kept_local(server: &TestServer, expected: impl Fn(&TransportError) -> bool) {
    let (mut s, rec) = session_with(server, TransportOptions::default());
    let err = s.run("question").await.unwrap_err();
    let SessionError::Transport(e) = &err else { panic!("{err:?}") };
    assert!(expected(e), "{e:?}");
    assert!(matches!(s.phase(), RunPhase::Failed { .. }), "{:?}", s.phase());
    assert_eq!(s.conversation().message("a1").unwrap().text(), Some("The answer "));
    assert_eq!(s.conversation().local_only("a1"), Some(LocalOnly::Cancelled));
    assert!(rec.all().iter().any(|d| matches!(d,
        ConversationDelta::MessageKeptLocal { message_id, reason: LocalOnly::Cancelled } if message_id == "a1")));
    assert!(rec.all().iter().any(|d| matches!(d,
        ConversationDelta::Warning(w) if w.kind == SessionWarningKind::KeptLocal && w.message.contains("'a1'"))));

    s.run("again").await.unwrap();
    let sent = server.requests().last().unwrap().body["messages"].clone();
    assert!(sent.as_array().unwrap().iter().all(|m| m["id"] != "a1"), "{sent}");
}

#[tokio::test(start_paused = true)]
async fn a_drop_on_a_stream_without_ids_ends_the_run_with_the_partial_message_kept_local() {
    timeout(TEST_BOUND, async {
        let mut steps: Vec<Step> = answer("r1")[..4].iter().map(|e| Step::Send(frame(e))).collect();
        steps.push(Step::Drop);
        let server =
            TestServer::start(vec![Reply::sse_steps(steps), Reply::sse(&run_of("r2", vec![text("a2", "ok")]))]).await;
        assert_cut_short_and_kept_local(&server, |e| matches!(e, TransportError::ConnectionLost(_))).await;
        assert_eq!(server.requests().len(), 2, "no reconnection without ids");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_refused_resumption_ends_the_run_with_the_partial_message_kept_local() {
    timeout(TEST_BOUND, async {
        let refusing = ResumableRun { refuse_resume: Some(204), ..ResumableRun::new(answer("r1"), vec![4]) };
        let handler = refusing.handler();
        let second = Arc::new(Mutex::new(false));
        // After the refused resumption, the next run is a plain one.
        let server = TestServer::with_handler(vec![], move |r: &Recorded| {
            let mut done = second.lock().unwrap();
            if *done {
                return Reply::sse(&run_of("r2", vec![text("a2", "ok")]));
            }
            if r.header("last-event-id").is_some() {
                *done = true;
            }
            handler(r)
        })
        .await;
        assert_cut_short_and_kept_local(&server, |e| *e == TransportError::ResumeRefused { status: 204 }).await;
    })
    .await
    .unwrap();
}

/// The app's token store: on a 401 it fetches what its sign-in service issues now.
struct AppTokens {
    issued: Arc<Mutex<String>>,
    held: Mutex<String>,
    refreshes: Mutex<usize>,
}

impl AppTokens {
    /// Holding `held`, with the sign-in service issuing `issued`; and transport options that ask
    /// them for headers.
    fn with_transport(held: &str, issued: &str) -> (Arc<AppTokens>, TransportOptions) {
        let tokens = Arc::new(AppTokens {
            issued: Arc::new(Mutex::new(issued.into())),
            held: Mutex::new(held.into()),
            refreshes: Mutex::new(0),
        });
        let transport = TransportOptions {
            header_provider: Some(SharedHeaderProvider(tokens.clone())),
            ..TransportOptions::default()
        };
        (tokens, transport)
    }
}

impl HeaderProvider for AppTokens {
    fn headers(&self, reason: HeaderReason) -> HeaderFuture<'_> {
        Box::pin(async move {
            if let HeaderReason::Unauthorized { .. } = reason {
                *self.refreshes.lock().unwrap() += 1;
                *self.held.lock().unwrap() = self.issued.lock().unwrap().clone();
            }
            Ok(vec![("Authorization".to_owned(), format!("Bearer {}", self.held.lock().unwrap()))])
        })
    }
}

#[tokio::test(start_paused = true)]
async fn a_conversation_survives_a_token_refresh() {
    timeout(TEST_BOUND, async {
        let gate = RequireBearer::new("t1");
        let runs = Mutex::new(0);
        let server = TestServer::with_handler(
            vec![],
            gate.handler(move |_: &Recorded| {
                let mut n = runs.lock().unwrap();
                *n += 1;
                Reply::sse(&run_of(&format!("r{n}"), vec![text(&format!("a{n}"), "ok")]))
            }),
        )
        .await;
        let (tokens, transport) = AppTokens::with_transport("t1", "t2");
        let (mut s, _) = session_with(&server, transport);
        s.run("first").await.unwrap();
        gate.set_token("t2");
        s.run("second").await.unwrap();
        assert_eq!(*tokens.refreshes.lock().unwrap(), 1);
        let sent: Vec<_> = server.requests().iter().map(|r| r.header("authorization").unwrap().to_owned()).collect();
        assert_eq!(sent, ["Bearer t1", "Bearer t1", "Bearer t2"]);
        assert_eq!(s.conversation().message("a2").unwrap().text(), Some("ok"));

        // The server stops accepting anything the app can get: a typed error to sign in again.
        gate.set_token("t3");
        let err = s.run("third").await.unwrap_err();
        assert!(matches!(err, SessionError::Transport(TransportError::Unauthorized { .. })), "{err:?}");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn offline_the_outbox_waits_and_when_back_online_sends_at_once() {
    timeout(TEST_BOUND * 100, async {
        let server = TestServer::start(vec![
            Reply::status(503, "text/plain", b"no route"),
            Reply::sse(&run_of("r1", vec![text("a1", "Got it.")])),
        ])
        .await;
        let network = Connectivity::new();
        let (session, _) =
            session_with(&server, TransportOptions { connectivity: network.clone(), ..TransportOptions::default() });
        let conv = Conversation::start(session, tokio::runtime::Handle::current());
        network.set_online(false);
        let error = conv.send_message("from the tunnel".into()).await.unwrap_err();
        assert!(matches!(error, SessionError::Transport(TransportError::Status { status: 503, .. })), "{error:?}");
        assert_eq!(conv.snapshot().unwrap().pending_sends.len(), 1);
        assert_eq!(conv.snapshot().unwrap().pending_sends[0].reason, PendingReason::Unreached);

        // Ten minutes offline: the one-second, then doubling, retries would have tried ten times.
        tokio::time::sleep(Duration::from_secs(600)).await;
        assert_eq!(server.requests().len(), 1, "no attempt spent while offline");
        assert_eq!(conv.snapshot().unwrap().pending_sends[0].attempts, 1);

        let back = Instant::now();
        network.set_online(true);
        let mut sub = conv.subscribe();
        while let Some(item) = sub.recv().await.unwrap() {
            if matches!(&item, Observed::Delta(ConversationDelta::PendingSends(p)) if p.is_empty()) {
                break;
            }
        }
        assert!(
            back.elapsed() < Duration::from_millis(100),
            "sent at once, not at the next retry: {:?}",
            back.elapsed()
        );
        assert_eq!(server.requests().len(), 2);
        assert!(conv.snapshot().unwrap().messages.iter().any(|m| m.id == "a1"));
    })
    .await
    .unwrap();
}

/// A provider whose token service is unreachable until `reachable` is set.
struct FlakyTokens {
    reachable: Mutex<bool>,
}

impl HeaderProvider for FlakyTokens {
    fn headers(&self, _: HeaderReason) -> HeaderFuture<'_> {
        Box::pin(async move {
            if *self.reachable.lock().unwrap() {
                Ok(vec![("Authorization".to_owned(), "Bearer t".to_owned())])
            } else {
                Err("the token service is unreachable".to_owned())
            }
        })
    }
}

#[tokio::test(start_paused = true)]
async fn a_message_whose_headers_could_not_be_had_waits_instead_of_being_dropped() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Got it.")]))]).await;
        let tokens = Arc::new(FlakyTokens { reachable: Mutex::new(false) });
        let transport = TransportOptions {
            header_provider: Some(SharedHeaderProvider(tokens.clone())),
            ..TransportOptions::default()
        };
        let (mut s, _) = session_with(&server, transport);
        let err = s.run("hello").await.unwrap_err();
        assert_eq!(
            err,
            SessionError::Transport(TransportError::HeaderProvider("the token service is unreachable".into()))
        );
        assert_eq!(s.pending_sends().len(), 1, "the request never left: the message waits");
        assert!(server.requests().is_empty());

        *tokens.reachable.lock().unwrap() = true;
        s.deliver_pending().await.unwrap().unwrap();
        assert!(s.pending_sends().is_empty());
        assert_eq!(server.requests().len(), 1);
        assert_eq!(s.conversation().message("a1").unwrap().text(), Some("Got it."));
    })
    .await
    .unwrap();
}

/// A message refused with `Unauthorized` (the agent refused the credentials, not the message)
/// waits for the user to sign in again instead of being dropped: the app gets the typed error,
/// and once the token service issues a token the server takes, it is delivered once.
#[tokio::test(start_paused = true)]
async fn a_message_refused_for_its_credentials_waits_for_a_new_sign_in() {
    timeout(TEST_BOUND, async {
        let gate = RequireBearer::new("t2");
        let server = TestServer::with_handler(
            vec![],
            gate.handler(move |_: &Recorded| Reply::sse(&run_of("r1", vec![text("a1", "Got it.")]))),
        )
        .await;
        // The sign-in service issues a token the server no longer takes: signed out.
        let (tokens, transport) = AppTokens::with_transport("t1", "t1");
        let (mut s, _) = session_with(&server, transport);
        let err = s.run("hello").await.unwrap_err();
        assert!(matches!(err, SessionError::Transport(TransportError::Unauthorized { .. })), "{err:?}");
        let pending = s.pending_sends();
        assert_eq!(pending.len(), 1, "the message waits for a new sign-in");
        assert!(pending[0].last_error.is_some());

        // The user signs in again.
        *tokens.issued.lock().unwrap() = "t2".into();
        s.deliver_pending().await.unwrap().unwrap();
        assert!(s.pending_sends().is_empty());
        assert_eq!(s.conversation().message("a1").unwrap().text(), Some("Got it."));
        let users = s.messages().iter().filter(|m| m.text() == Some("hello")).count();
        assert_eq!(users, 1, "the message is in the conversation once");
    })
    .await
    .unwrap();
}

/// A send the agent refused the credentials of (401, after the provider's fresh headers) is not
/// sent again on a timer, where it would fail the same way forever: it waits, saying why, until
/// the app retries it after the user signed in again.
#[tokio::test(start_paused = true)]
async fn a_send_refused_for_its_credentials_waits_for_the_app_not_for_a_timer() {
    timeout(TEST_BOUND * 100, async {
        let gate = RequireBearer::new("t2");
        let server = TestServer::with_handler(
            vec![],
            gate.handler(move |_: &Recorded| Reply::sse(&run_of("r1", vec![text("a1", "Got it.")]))),
        )
        .await;
        let (tokens, transport) = AppTokens::with_transport("t1", "t1");
        let (session, _) = session_with(&server, transport);
        let conv = Conversation::start(session, tokio::runtime::Handle::current());
        let err = conv.send_message("hello".into()).await.unwrap_err();
        assert!(matches!(err, SessionError::Transport(TransportError::Unauthorized { .. })), "{err:?}");
        let pending = conv.snapshot().unwrap().pending_sends;
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].reason, PendingReason::Unauthorized);
        assert_eq!(pending[0].attempts, 1);
        assert_eq!(server.requests().len(), 2, "the request, and once more with the provider's fresh headers");

        // Ten minutes: a timer's one-second, then doubling, retries would have tried ten times.
        tokio::time::sleep(Duration::from_secs(600)).await;
        assert_eq!(server.requests().len(), 2, "not sent again without the app");
        assert_eq!(conv.snapshot().unwrap().pending_sends[0].attempts, 1);

        // The user signs in again; the app retries.
        *tokens.issued.lock().unwrap() = "t2".into();
        assert!(conv.retry_pending().await.unwrap().is_some());
        assert!(conv.snapshot().unwrap().pending_sends.is_empty());
        assert!(conv.snapshot().unwrap().messages.iter().any(|m| m.id == "a1"));
    })
    .await
    .unwrap();
}
