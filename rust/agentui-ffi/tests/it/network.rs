//! The app's side of the network through the exported API: a header provider asked before each
//! request, errors it throws reported by kind, and `Runtime::set_online` holding the outbox's
//! retries while offline. On the real clock (the runtime is the FFI's own).

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agentui_ffi::{
    ConversationError, ConversationOptions, Header, HeaderProviderError, HeaderReason, RequestHeaderProvider, RunPhase,
    Runtime,
};
use common::*;

/// Answers with a token and records why it was asked, or throws.
struct AppTokens {
    asked: Mutex<Vec<HeaderReason>>,
    fail: bool,
}

#[async_trait::async_trait]
impl RequestHeaderProvider for AppTokens {
    async fn headers(&self, reason: HeaderReason) -> Result<Vec<Header>, HeaderProviderError> {
        self.asked.lock().unwrap().push(reason);
        if self.fail {
            return Err(HeaderProviderError::Failed { detail: "signed out".into() });
        }
        Ok(vec![Header { name: "Authorization".into(), value: "Bearer s3cret".into() }])
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_provider_is_asked_before_each_request_and_its_failure_is_typed() {
    let agent = agentui_ffi::demo::start_demo_agent().unwrap();
    let runtime = Runtime::new().unwrap();
    let tokens = Arc::new(AppTokens { asked: Mutex::default(), fail: false });
    let conversation = runtime
        .connect(
            agent.agent_url(),
            Vec::new(),
            ConversationOptions { header_provider: Some(tokens.clone()), ..ConversationOptions::default() },
        )
        .unwrap();
    for text in ["hello", "again"] {
        let summary = tokio::time::timeout(LIMIT, conversation.send_message(text.into())).await.unwrap().unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    }
    assert_eq!(*tokens.asked.lock().unwrap(), [HeaderReason::Request, HeaderReason::Request]);

    let failing = Arc::new(AppTokens { asked: Mutex::default(), fail: true });
    let conversation = runtime
        .connect(
            agent.agent_url(),
            Vec::new(),
            ConversationOptions { header_provider: Some(failing), ..ConversationOptions::default() },
        )
        .unwrap();
    let error = tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap_err();
    assert_eq!(error, ConversationError::HeaderProvider { detail: "signed out".into() });
    agent.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_the_outbox_holds_its_retries_and_tries_at_once_when_back_online() {
    // A port nothing listens on: every attempt fails and is counted.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let runtime = Runtime::new().unwrap();
    let conversation =
        runtime.connect(format!("http://{closed}/agent"), Vec::new(), ConversationOptions::default()).unwrap();
    runtime.set_online(false);
    let error = tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap_err();
    assert!(matches!(error, ConversationError::Network { .. }), "{error:?}");
    let attempts = || conversation.snapshot().unwrap().pending_sends[0].attempts;
    assert_eq!(attempts(), 1);
    // Online, the actor would have tried again after 1 s and after 3 s.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert_eq!(attempts(), 1, "no attempt spent offline");

    let back = Instant::now();
    runtime.set_online(true);
    wait_until("an attempt once back online", || attempts() == 2).await;
    assert!(back.elapsed() < Duration::from_millis(900), "at once, not at the next retry: {:?}", back.elapsed());
}

/// Signs with a stand-in DPoP proof: the nonce of the last 401, when it was given one.
struct DpopSigner {
    asked: Mutex<Vec<HeaderReason>>,
}

#[async_trait::async_trait]
impl RequestHeaderProvider for DpopSigner {
    async fn headers(&self, reason: HeaderReason) -> Result<Vec<Header>, HeaderProviderError> {
        self.asked.lock().unwrap().push(reason.clone());
        let proof = match reason {
            HeaderReason::Unauthorized { dpop_nonce: Some(nonce), .. } => format!("proof-for-{nonce}"),
            _ => "proof-without-nonce".to_owned(),
        };
        Ok(vec![Header { name: "DPoP".into(), value: proof }])
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_provider_option_is_given_the_401_challenge_and_its_fresh_headers_are_sent() {
    let agent = agentui_ffi::demo::start_demo_agent().unwrap();
    let runtime = Runtime::new().unwrap();
    let signer = Arc::new(DpopSigner { asked: Mutex::default() });
    let options = ConversationOptions { header_provider: Some(signer.clone()), ..ConversationOptions::default() };
    let conversation = runtime.connect(format!("{}/dpop/agent", agent.url()), Vec::new(), options).unwrap();
    let summary = tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    let challenges = vec![
        "DPoP error=\"use_dpop_nonce\", error_description=\"Resource server requires nonce in DPoP proof\"".into(),
    ];
    let refused = HeaderReason::Unauthorized { challenges, dpop_nonce: Some(agentui_ffi::demo::demo_dpop_nonce()) };
    assert_eq!(*signer.asked.lock().unwrap(), [HeaderReason::Request, refused]);
    agent.stop().unwrap();
}
