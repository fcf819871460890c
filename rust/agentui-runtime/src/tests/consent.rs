//! The user's consent before a client tool acts: a call to a tool registered with
//! `Consent::Ask` waits as a consent request until the app answers it; nothing runs before, a
//! decline reaches the agent as a result, and requests and grants survive a store reopen.

use crate::tests::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use agentui_runtime::session::{
    ClientTool, Consent, ConsentAnswer, ConversationSession, SessionError, SessionOptions, ToolCallPhase, ToolFailure,
    ToolInvocation, DECLINED_BY_USER, MAX_PENDING_CONSENT,
};
use agentui_runtime::{Conversation, ConversationStore};
use serde_json::json;
use support::*;
use tokio::time::timeout;

fn conversation(server: &TestServer) -> Conversation {
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    Conversation::start(session, tokio::runtime::Handle::current())
}

/// A tool that counts its runs, registered with `consent`.
fn locate(runs: &Arc<AtomicUsize>, consent: Consent) -> ClientTool {
    let runs = runs.clone();
    ClientTool::new("locate", "the user's location", json!({"type": "object"}), move |_: ToolInvocation| {
        runs.fetch_add(1, Ordering::SeqCst);
        async move { Ok(json!({"city": "Lyon"})) }
    })
    .unwrap()
    .with_consent(consent)
}

/// Thread `t` of `server`, opened from (or recorded in) `store`.
fn open_stored(server: &TestServer, store: &ConversationStore) -> Conversation {
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    Conversation::open(session, store, &server.url("/agent"), tokio::runtime::Handle::current()).unwrap()
}

fn phase_of(conv: &Conversation, id: &str) -> Option<ToolCallPhase> {
    conv.snapshot().unwrap().tool_calls.into_iter().find(|t| t.tool_call_id == id).map(|t| t.phase)
}

#[tokio::test]
async fn an_ask_tool_waits_for_the_answer_and_allow_once_runs_it_once() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", r#"{"precise":true}"#, "a1")])),
            Reply::sse(&run_of("r2", vec![text("a2", "You are in Lyon.")])),
        ])
        .await;
        let conv = conversation(&server);
        let runs = Arc::new(AtomicUsize::new(0));
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();

        let summary = conv.send_message("where am I?".into()).await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 0, "a tool-call event is not a permission");
        assert_eq!(summary.run_ids.len(), 1, "no follow-up run while the user has not answered");
        assert_eq!(server.requests().len(), 1);
        let snapshot = conv.snapshot().unwrap();
        assert_eq!(snapshot.consent_requests.len(), 1);
        let request = &snapshot.consent_requests[0];
        assert_eq!((request.tool_call_id.as_str(), request.tool_name.as_str()), ("c1", "locate"));
        assert_eq!(request.arguments, json!({"precise": true}));
        assert!(request.asked_at_ms > 0);
        assert_eq!(phase_of(&conv, "c1"), Some(ToolCallPhase::AwaitingConsent), "the call shows it waits for the user");

        let follow_up = conv.answer_consent("c1", ConsentAnswer::AllowOnce).await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(follow_up.is_some(), "the follow-up run carries the result");
        assert_eq!(
            tool_results(&server.requests()[1].body),
            [("c1".to_owned(), r#"{"city":"Lyon"}"#.to_owned(), None)]
        );
        assert!(conv.snapshot().unwrap().consent_requests.is_empty());
        assert_eq!(phase_of(&conv, "c1"), Some(ToolCallPhase::Succeeded { result: r#"{"city":"Lyon"}"#.into() }));

        let again = conv.answer_consent("c1", ConsentAnswer::AllowOnce).await;
        assert_eq!(again, Err(SessionError::UnknownConsentRequest { tool_call_id: "c1".into() }));
        assert_eq!(runs.load(Ordering::SeqCst), 1, "an answered request never runs twice");
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn allow_always_grants_the_tool_for_the_rest_of_the_conversation() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", "{}", "a1")])),
            Reply::sse(&run_of("r2", vec![text("a2", "Lyon.")])),
            Reply::sse(&run_of("r3", vec![tool_call("c2", "locate", "{}", "a3")])),
            Reply::sse(&run_of("r4", vec![text("a4", "Still Lyon.")])),
        ])
        .await;
        let conv = conversation(&server);
        let runs = Arc::new(AtomicUsize::new(0));
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("where am I?".into()).await.unwrap();
        conv.answer_consent("c1", ConsentAnswer::AllowAlways).await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 1);

        let summary = conv.send_message("and now?".into()).await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 2, "the granted tool ran at once");
        assert_eq!(summary.run_ids.len(), 2, "its result went back by itself");
        let snapshot = conv.snapshot().unwrap();
        assert!(snapshot.consent_requests.is_empty());
        assert_eq!(snapshot.consent_grants, ["locate"]);
        let view = conv.subscribe_view();
        let first = view.next_batch().await.unwrap().unwrap();
        assert_eq!(first.consent_grants, Some(vec!["locate".to_owned()]), "the view carries the grants too");
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn a_decline_answers_the_agent_and_the_follow_up_run_happens() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", "{}", "a1")])),
            Reply::sse(&run_of("r2", vec![text("a2", "Understood, no location.")])),
        ])
        .await;
        let conv = conversation(&server);
        let runs = Arc::new(AtomicUsize::new(0));
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("where am I?".into()).await.unwrap();

        let summary = conv.answer_consent("c1", ConsentAnswer::Decline).await.unwrap().unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 0, "a declined call never runs");
        assert_eq!(summary.run_ids.len(), 1);
        let results = tool_results(&server.requests()[1].body);
        assert_eq!(results.len(), 1);
        let (id, content, error) = &results[0];
        assert_eq!(id, "c1");
        assert!(content.contains(DECLINED_BY_USER), "{content}");
        assert!(error.as_deref().is_some_and(|e| e.contains(DECLINED_BY_USER)), "{error:?}");
        assert_eq!(
            phase_of(&conv, "c1"),
            Some(ToolCallPhase::Failed { failure: ToolFailure::Declined }),
            "a decline is told apart from a policy's refusal"
        );
        assert_eq!(conv.snapshot().unwrap().messages.last().unwrap().text(), Some("Understood, no location."));
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn an_unknown_request_is_a_typed_error() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![]).await;
        let conv = conversation(&server);
        let answer = conv.answer_consent("nope", ConsentAnswer::AllowOnce).await;
        assert_eq!(answer, Err(SessionError::UnknownConsentRequest { tool_call_id: "nope".into() }));
        assert!(server.requests().is_empty());
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn pending_requests_are_bounded() {
    timeout(TEST_BOUND, async {
        let calls: Vec<_> =
            (0..=MAX_PENDING_CONSENT).map(|i| tool_call(&format!("c{i}"), "locate", "{}", "a1")).collect();
        let server = TestServer::start(vec![Reply::sse(&run_of("r1", calls))]).await;
        let conv = conversation(&server);
        let runs = Arc::new(AtomicUsize::new(0));
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("locate a lot".into()).await.unwrap();
        let snapshot = conv.snapshot().unwrap();
        assert_eq!(snapshot.consent_requests.len(), MAX_PENDING_CONSENT);
        let last = format!("c{MAX_PENDING_CONSENT}");
        assert!(
            matches!(phase_of(&conv, &last), Some(ToolCallPhase::Failed { .. })),
            "the call past the bound is refused, not silently dropped: {:?}",
            phase_of(&conv, &last)
        );
        assert_eq!(runs.load(Ordering::SeqCst), 0);
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn a_pending_request_survives_a_reopen_and_runs_only_after_the_answer() {
    let file = TempDbFile::new("store-consent");
    let server = TestServer::start(vec![
        Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", r#"{"precise":true}"#, "a1")])),
        Reply::sse(&run_of("r2", vec![text("a2", "Lyon.")])),
    ])
    .await;
    let open = |store: &ConversationStore| open_stored(&server, store);
    let runs = Arc::new(AtomicUsize::new(0));
    {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&store);
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("where am I?".into()).await.unwrap();
        store.flush();
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&store);
    conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
    let snapshot = conv.snapshot().unwrap();
    assert_eq!(snapshot.consent_requests.len(), 1, "the request is shown again");
    assert_eq!(snapshot.consent_requests[0].arguments, json!({"precise": true}));
    let view = conv.subscribe_view();
    let first = view.next_batch().await.unwrap().unwrap();
    assert_eq!(first.consent_requests.map(|r| r.len()), Some(1), "the view shows it too");
    assert_eq!(phase_of(&conv, "c1"), Some(ToolCallPhase::AwaitingConsent), "the call still waits after a reopen");
    assert_eq!(runs.load(Ordering::SeqCst), 0, "nothing ran on reopen");
    assert_eq!(server.requests().len(), 1, "nothing was sent on reopen");

    conv.answer_consent("c1", ConsentAnswer::AllowOnce).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(tool_results(&server.requests()[1].body)[0].0, "c1");
    store.flush();
    drop(conv);
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&store);
    assert!(conv.snapshot().unwrap().consent_requests.is_empty(), "the answer was kept too");
}

#[tokio::test]
async fn a_grant_survives_a_reopen() {
    let file = TempDbFile::new("store-consent-grant");
    let server = TestServer::start(vec![
        Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", "{}", "a1")])),
        Reply::sse(&run_of("r2", vec![text("a2", "Lyon.")])),
        Reply::sse(&run_of("r3", vec![tool_call("c2", "locate", "{}", "a3")])),
        Reply::sse(&run_of("r4", vec![text("a4", "Lyon again.")])),
    ])
    .await;
    let open = |store: &ConversationStore| open_stored(&server, store);
    let runs = Arc::new(AtomicUsize::new(0));
    {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&store);
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("where am I?".into()).await.unwrap();
        conv.answer_consent("c1", ConsentAnswer::AllowAlways).await.unwrap();
        store.flush();
    }
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&store);
    conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
    assert_eq!(conv.snapshot().unwrap().consent_grants, ["locate"]);
    conv.send_message("and now?".into()).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 2, "the kept grant let the second call run at once");
}

/// The documented decision: a request stored while the tool asked still waits for an answer
/// when the app registers the tool again to run at once; the answer then runs it.
#[tokio::test]
async fn a_stored_request_still_waits_when_the_tool_is_registered_again_to_run_at_once() {
    let file = TempDbFile::new("store-consent-run-at-once");
    let server = TestServer::start(vec![
        Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", "{}", "a1")])),
        Reply::sse(&run_of("r2", vec![text("a2", "Lyon.")])),
    ])
    .await;
    let open = |store: &ConversationStore| open_stored(&server, store);
    let runs = Arc::new(AtomicUsize::new(0));
    {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&store);
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("where am I?".into()).await.unwrap();
        store.flush();
    }
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&store);
    conv.register_tool(locate(&runs, Consent::RunAtOnce)).unwrap();
    assert_eq!(conv.snapshot().unwrap().consent_requests.len(), 1);
    assert_eq!(runs.load(Ordering::SeqCst), 0, "registering again is not an answer");
    conv.answer_consent("c1", ConsentAnswer::AllowOnce).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// A server that answers a call waiting for the user's consent does not make two results: the
/// client's answer replaces the server's in place, as for any client-executed call.
#[tokio::test]
async fn the_answer_replaces_a_server_result_for_the_same_call() {
    timeout(TEST_BOUND, async {
        let server_answer =
            json!({"type": "TOOL_CALL_RESULT", "messageId": "srv-1", "toolCallId": "c1", "content": "received: true"});
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![tool_call("c1", "locate", "{}", "a1"), vec![server_answer]])),
            Reply::sse(&run_of("r2", vec![text("a2", "Lyon.")])),
        ])
        .await;
        let conv = conversation(&server);
        let runs = Arc::new(AtomicUsize::new(0));
        conv.register_tool(locate(&runs, Consent::Ask)).unwrap();
        conv.send_message("where am I?".into()).await.unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        conv.answer_consent("c1", ConsentAnswer::AllowOnce).await.unwrap();
        assert_eq!(
            tool_results(&server.requests()[1].body),
            [("c1".to_owned(), r#"{"city":"Lyon"}"#.to_owned(), None)],
            "one result for the call, the client's"
        );
    })
    .await
    .unwrap();
}
