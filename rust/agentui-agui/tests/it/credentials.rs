//! Headers the app gives per request: asked before every request, asked again once on a 401,
//! a second 401 a typed error; values never in errors or `Debug`. On tokio's paused clock.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::timeout;

use crate::support::input;
use agentui_agui::transport::{
    CancelToken, HeaderFuture, HeaderProvider, HeaderReason, HttpTransport, SharedHeaderProvider, TransportError,
    TransportOptions, MAX_CHALLENGES, MAX_CHALLENGE_BYTES,
};
use agentui_agui::{ConversationState, PipelineOptions};
use agentui_test_server::*;

/// Gives `Bearer <token>` where the token is the app's current one; refreshes it to `fresh` when
/// told it was refused. Records why it was asked.
struct TokenSource {
    token: Mutex<String>,
    fresh: String,
    asked: Mutex<Vec<HeaderReason>>,
    hang: bool,
    fail: bool,
}

impl TokenSource {
    fn new(token: &str, fresh: &str) -> Arc<Self> {
        Arc::new(TokenSource {
            token: Mutex::new(token.into()),
            fresh: fresh.into(),
            asked: Mutex::default(),
            hang: false,
            fail: false,
        })
    }

    fn asked(&self) -> Vec<HeaderReason> {
        self.asked.lock().unwrap().clone()
    }
}

impl HeaderProvider for TokenSource {
    fn headers(&self, reason: HeaderReason) -> HeaderFuture<'_> {
        Box::pin(async move {
            self.asked.lock().unwrap().push(reason.clone());
            if self.hang {
                tokio::time::sleep(Duration::from_secs(3600)).await;
            }
            if self.fail {
                return Err("the user signed out".to_owned());
            }
            if matches!(reason, HeaderReason::Unauthorized { .. }) {
                *self.token.lock().unwrap() = self.fresh.clone();
            }
            Ok(vec![("Authorization".to_owned(), format!("Bearer {}", self.token.lock().unwrap()))])
        })
    }
}

fn options(provider: Arc<TokenSource>) -> TransportOptions {
    TransportOptions {
        idle_timeout: Duration::from_millis(500),
        header_provider: Some(SharedHeaderProvider(provider)),
        ..TransportOptions::default()
    }
}

async fn run_on(transport: &HttpTransport) -> (ConversationState, Result<(), TransportError>) {
    transport
        .stream_run(&input(), ConversationState::default(), &PipelineOptions::default(), &CancelToken::new(), |_, _| {})
        .await
}

fn ok_run(_: &Recorded) -> Reply {
    Reply::sse(&run_of("r1", vec![text("m1", "hi")]))
}

#[tokio::test(start_paused = true)]
async fn the_provider_is_asked_before_every_request_and_wins_over_fixed_headers() {
    timeout(TEST_BOUND, async {
        let server = TestServer::with_handler(vec![], ok_run).await;
        let source = TokenSource::new("t1", "t2");
        let fixed = [("Authorization".to_owned(), "Bearer old".to_owned()), ("X-App".to_owned(), "demo".to_owned())];
        let transport = HttpTransport::new(&server.url("/agent"), &fixed, options(source.clone())).unwrap();
        for _ in 0..2 {
            run_on(&transport).await.1.unwrap();
        }
        assert_eq!(source.asked(), [HeaderReason::Request, HeaderReason::Request]);
        for request in server.requests() {
            let auth: Vec<_> =
                request.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case("authorization")).collect();
            assert_eq!(auth.len(), 1, "{:?}", request.headers);
            assert_eq!(auth[0].1, "Bearer t1");
            assert_eq!(request.header("x-app"), Some("demo"));
        }
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_401_asks_the_provider_again_with_the_reason_and_sends_once_more() {
    timeout(TEST_BOUND, async {
        let gate = RequireBearer::new("t2");
        let server = TestServer::with_handler(vec![], gate.handler(ok_run)).await;
        let source = TokenSource::new("t1", "t2");
        let transport = HttpTransport::new(&server.url("/agent"), &[], options(source.clone())).unwrap();
        let (c, r) = run_on(&transport).await;
        r.unwrap();
        assert_eq!(c.message("m1").unwrap().text(), Some("hi"));
        let challenges = vec!["Bearer error=\"invalid_token\"".to_owned()];
        let refused = HeaderReason::Unauthorized { challenges, dpop_nonce: None };
        assert_eq!(source.asked(), [HeaderReason::Request, refused]);
        let sent: Vec<_> = server.requests().iter().map(|r| r.header("authorization").unwrap().to_owned()).collect();
        assert_eq!(sent, ["Bearer t1", "Bearer t2"]);
        assert_eq!(server.requests()[1].body, server.requests()[0].body);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_second_401_is_unauthorized_and_never_shows_the_token() {
    timeout(TEST_BOUND, async {
        let gate = RequireBearer::new("never-given");
        let server = TestServer::with_handler(vec![], gate.handler(ok_run)).await;
        let source = TokenSource::new("s3cret-1", "s3cret-2");
        let transport = HttpTransport::new(&server.url("/agent"), &[], options(source.clone())).unwrap();
        let (_, r) = run_on(&transport).await;
        let err = r.unwrap_err();
        assert_eq!(err, TransportError::Unauthorized { body_excerpt: "token expired".into() });
        assert_eq!(server.requests().len(), 2, "retried once, not more");
        assert_eq!(source.asked().len(), 2);
        let shown = format!("{err} {err:?} {transport:?}");
        assert!(!shown.contains("s3cret"), "{shown}");

        // Without a provider there is nothing to refresh: the first 401 is the answer.
        let server = TestServer::with_handler(vec![], gate.handler(ok_run)).await;
        let fixed = [("Authorization".to_owned(), "Bearer s3cret-0".to_owned())];
        let transport = HttpTransport::new(&server.url("/agent"), &fixed, TransportOptions::default()).unwrap();
        let (_, r) = run_on(&transport).await;
        assert!(matches!(r, Err(TransportError::Unauthorized { .. })), "{r:?}");
        assert_eq!(server.requests().len(), 1);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_provider_that_hangs_or_fails_is_reported_within_its_timeout() {
    timeout(TEST_BOUND, async {
        let server = TestServer::with_handler(vec![], ok_run).await;
        let hanging = Arc::new(TokenSource { hang: true, ..Arc::into_inner(TokenSource::new("a", "b")).unwrap() });
        let limit = Duration::from_secs(2);
        let transport = HttpTransport::new(
            &server.url("/agent"),
            &[],
            TransportOptions { header_timeout: limit, ..options(hanging) },
        )
        .unwrap();
        let t0 = tokio::time::Instant::now();
        let (_, r) = run_on(&transport).await;
        assert_eq!(r, Err(TransportError::HeaderProvider(format!("no headers within {limit:?}"))));
        assert!(t0.elapsed() >= limit && t0.elapsed() < limit * 2);

        let failing = Arc::new(TokenSource { fail: true, ..Arc::into_inner(TokenSource::new("a", "b")).unwrap() });
        let transport = HttpTransport::new(&server.url("/agent"), &[], options(failing)).unwrap();
        let (_, r) = run_on(&transport).await;
        assert_eq!(r, Err(TransportError::HeaderProvider("the user signed out".into())));
        assert!(server.requests().is_empty(), "no request goes without its headers");
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn an_invalid_provided_value_is_reported_by_name_only() {
    struct Bad;
    impl HeaderProvider for Bad {
        fn headers(&self, _: HeaderReason) -> HeaderFuture<'_> {
            Box::pin(async { Ok(vec![("X-Token".to_owned(), "line\nbreak s3cret".to_owned())]) })
        }
    }
    timeout(TEST_BOUND, async {
        let server = TestServer::with_handler(vec![], ok_run).await;
        let o =
            TransportOptions { header_provider: Some(SharedHeaderProvider::new(Bad)), ..TransportOptions::default() };
        let transport = HttpTransport::new(&server.url("/agent"), &[], o).unwrap();
        let (_, r) = run_on(&transport).await;
        assert_eq!(r, Err(TransportError::InvalidHeader { name: "X-Token".into() }));
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_resumption_asks_for_fresh_headers_too() {
    timeout(TEST_BOUND, async {
        let gate = RequireBearer::new("t1");
        let resumable = ResumableRun::new(run_of("r1", vec![text("m1", "hi")]), vec![2]);
        let server = TestServer::with_handler(vec![], gate.handler(resumable.handler())).await;
        // The token expires while the stream is open: the resumption meets a 401 first.
        let source = TokenSource::new("t1", "t2");
        let transport = HttpTransport::new(&server.url("/agent"), &[], options(source.clone())).unwrap();
        let cancel = CancelToken::new();
        let expire = {
            let gate_token = gate.token.clone();
            async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                *gate_token.lock().unwrap() = "t2".to_owned();
            }
        };
        let (input, pipeline) = (input(), PipelineOptions::default());
        let (run, ()) = tokio::join!(
            transport.stream_run(&input, ConversationState::default(), &pipeline, &cancel, |_, _| {}),
            expire
        );
        let (c, r) = run;
        r.unwrap();
        assert_eq!(c.message("m1").unwrap().text(), Some("hi"));
        let asked = source.asked();
        assert_eq!(asked.len(), 3, "{asked:?}");
        assert!(matches!(asked[2], HeaderReason::Unauthorized { .. }));
        let sent: Vec<_> = server
            .requests()
            .iter()
            .map(|r| (r.header("authorization").unwrap().to_owned(), r.header("last-event-id").map(str::to_owned)))
            .collect();
        assert_eq!(
            sent,
            [
                ("Bearer t1".to_owned(), None),
                ("Bearer t1".to_owned(), Some("2".to_owned())),
                ("Bearer t2".to_owned(), Some("2".to_owned())),
            ]
        );
    })
    .await
    .unwrap();
}

/// Signs each request with a DPoP proof for the last nonce it was given (a stand-in for a real
/// proof: the nonce in a header). Records why it was asked.
struct DpopSigner {
    asked: Mutex<Vec<HeaderReason>>,
}

impl HeaderProvider for DpopSigner {
    fn headers(&self, reason: HeaderReason) -> HeaderFuture<'_> {
        Box::pin(async move {
            self.asked.lock().unwrap().push(reason.clone());
            let proof = match reason {
                HeaderReason::Unauthorized { dpop_nonce: Some(nonce), .. } => format!("proof-for-{nonce}"),
                _ => "proof-without-nonce".to_owned(),
            };
            Ok(vec![("Authorization".to_owned(), "DPoP t1".to_owned()), ("DPoP".to_owned(), proof)])
        })
    }
}

#[tokio::test(start_paused = true)]
async fn a_dpop_nonce_challenge_reaches_the_provider_and_its_fresh_proof_is_sent() {
    timeout(TEST_BOUND, async {
        let server = TestServer::with_handler(vec![], |request: &Recorded| {
            if request.header("dpop") == Some("proof-for-n-42") {
                return ok_run(request);
            }
            unauthorized_with(&[
                ("WWW-Authenticate", "DPoP error=\"use_dpop_nonce\", error_description=\"nonce required\""),
                ("WWW-Authenticate", "Bearer realm=\"agent\""),
                ("DPoP-Nonce", "n-42"),
            ])
        })
        .await;
        let signer = Arc::new(DpopSigner { asked: Mutex::default() });
        let o = TransportOptions { header_provider: Some(SharedHeaderProvider(signer.clone())), ..Default::default() };
        let transport = HttpTransport::new(&server.url("/agent"), &[], o).unwrap();
        let (c, r) = run_on(&transport).await;
        r.unwrap();
        assert_eq!(c.message("m1").unwrap().text(), Some("hi"));
        let challenges = vec![
            "DPoP error=\"use_dpop_nonce\", error_description=\"nonce required\"".to_owned(),
            "Bearer realm=\"agent\"".to_owned(),
        ];
        let refused = HeaderReason::Unauthorized { challenges, dpop_nonce: Some("n-42".to_owned()) };
        assert_eq!(*signer.asked.lock().unwrap(), [HeaderReason::Request, refused]);
        let proofs: Vec<_> = server.requests().iter().map(|r| r.header("dpop").unwrap().to_owned()).collect();
        assert_eq!(proofs, ["proof-without-nonce", "proof-for-n-42"]);
    })
    .await
    .unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_challenge_is_bounded_in_count_and_size_and_a_malformed_nonce_is_dropped() {
    timeout(TEST_BOUND, async {
        let huge = format!("Bearer realm=\"{}\"", "x".repeat(MAX_CHALLENGE_BYTES));
        let many: Vec<String> = (0..MAX_CHALLENGES + 5).map(|i| format!("Scheme{i} realm=\"a\"")).collect();
        let mut reply: Vec<(String, String)> = vec![("WWW-Authenticate".into(), huge)];
        reply.extend(many.iter().map(|c| ("WWW-Authenticate".to_owned(), c.clone())));
        // A space and a quote are outside a nonce's characters (RFC 9449, NQCHAR).
        reply.push(("DPoP-Nonce".into(), "bad \"nonce".into()));
        let server = TestServer::with_handler(vec![], move |_: &Recorded| {
            let reply: Vec<(&str, &str)> = reply.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            unauthorized_with(&reply)
        })
        .await;
        let source = TokenSource::new("t1", "t2");
        let transport = HttpTransport::new(&server.url("/agent"), &[], options(source.clone())).unwrap();
        let (_, r) = run_on(&transport).await;
        assert!(matches!(r, Err(TransportError::Unauthorized { .. })), "{r:?}");
        let asked = source.asked();
        let HeaderReason::Unauthorized { challenges, dpop_nonce } = &asked[1] else { panic!("{asked:?}") };
        assert_eq!(*challenges, many[..MAX_CHALLENGES], "the oversized one is dropped, the rest cut at the bound");
        assert_eq!(*dpop_nonce, None);
    })
    .await
    .unwrap();
}
