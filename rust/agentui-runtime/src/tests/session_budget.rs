//! Issue #11, the session's side of the memory budget: typed errors, the state kept atomic,
//! poisoning after a panic. (The AG-UI side, which counts allocations, is `tests/budget.rs`.)

use std::sync::Arc;

use agentui_agui::transport::TransportError;
use agentui_agui::{MemoryBudget, ProtocolError};
use agentui_runtime::session::{
    ClientTool, ConversationSession, RunPhase, SessionError, SessionOptions, ToolDecision, ToolInvocation,
};
use serde_json::{json, Value};
use tokio::time::timeout;

use crate::tests::support::*;

const MIB: usize = 1024 * 1024;

fn content_text(m: &agentui_agui::Message) -> Option<&str> {
    match &m.content {
        Some(agentui_agui::message::MessageContent::Text(t)) => Some(t.as_str()),
        _ => None,
    }
}

fn connect(server: &TestServer, budget: MemoryBudget) -> ConversationSession {
    // The scripted replies are on thread "t", as a server answering this input would be.
    let options = SessionOptions { budget, thread_id: Some("t".into()), ..SessionOptions::default() };
    ConversationSession::connect(&server.url("/agent"), &[], options).unwrap()
}

/// Over HTTP: the run fails with the typed error, the state before the breach is kept, and the
/// session goes on with the next run.
#[tokio::test]
async fn session_run_over_the_state_budget_fails_typed_and_the_next_run_works() {
    timeout(TEST_BOUND, async {
        let delta = json!({"type": "STATE_DELTA", "delta": (0..28).map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"})).collect::<Vec<_>>()});
        let first = vec![
            started("r1"),
            json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": [0]}}),
            delta,
            finished("r1"),
        ];
        let second = run_of("r2", vec![text("m2", "still here")]);
        let server = TestServer::start(vec![Reply::sse(&first), Reply::sse(&second)]).await;
        let mut s = connect(&server, MemoryBudget { max_state_bytes: 64 * 1024, ..MemoryBudget::default() });
        let err = s.run("go").await.unwrap_err();
        match &err {
            SessionError::Transport(TransportError::Protocol(ProtocolError::LimitExceeded { .. })) => {}
            other => panic!("expected a limit error, got {other:?}"),
        }
        assert!(matches!(s.phase(), RunPhase::Failed { .. }));
        assert_eq!(s.state(), json!({"a": [0]}));
        let summary = s.run("again").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }));
        assert_eq!(content_text(s.messages().last().unwrap()), Some("still here"));
    })
    .await
    .unwrap();
}

/// An A2UI message over the budget inside an AG-UI event: the app sees the surface unchanged,
/// and the agent is told with an A2UI `error` on the next run.
#[tokio::test]
async fn a2ui_data_model_over_budget_is_reported_to_the_agent() {
    timeout(TEST_BOUND, async {
        let ops = json!([
            {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": agentui_a2ui::catalog::BASIC_CATALOG_ID}},
            {"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": vec![0; 50_000]}}
        ]);
        let activity = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a2ui-1", "activityType": "a2ui-surface",
            "content": {"a2ui_operations": ops}});
        let first = vec![started("r1"), activity, finished("r1")];
        let server = TestServer::start(vec![Reply::sse(&first), Reply::sse(&run_of("r2", vec![]))]).await;
        let budget = MemoryBudget { max_data_model_bytes: MIB, ..MemoryBudget::default() };
        let mut s = connect(&server, budget);
        s.run("show").await.unwrap();
        {
            let a2ui = s.a2ui();
            let surface = a2ui.group().surface("s").expect("the surface was created");
            assert_eq!(surface.data_model(), &json!({}));
        }
        s.run("next").await.unwrap();
        let props = &server.requests()[1].body["forwardedProps"];
        assert_eq!(props["a2uiErrors"][0]["error"]["code"], "LIMIT_EXCEEDED", "{props}");
        assert_eq!(props["a2uiErrors"][0]["error"]["surfaceId"], "s");
    })
    .await
    .unwrap();
}

/// Issue 43: errors queued for the agent are taken for a request; one that never reached the
/// agent (a gateway's 503) puts them back, so the next request carries them.
#[tokio::test]
async fn a2ui_errors_survive_a_request_that_could_not_be_sent() {
    timeout(TEST_BOUND, async {
        let ghost = json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": [
            {"version": "v0.9", "updateDataModel": {"surfaceId": "ghost", "path": "/x", "value": 1}}
        ]}});
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![vec![ghost]])),
            Reply::status(503, "text/plain", b"down"),
            Reply::sse(&run_of("r2", vec![])),
        ])
        .await;
        let mut s = connect(&server, MemoryBudget::default());
        s.run("show").await.unwrap();
        s.run("next").await.unwrap_err();
        s.deliver_pending().await.unwrap().unwrap();
        let requests = server.requests();
        assert_eq!(requests.len(), 3);
        for attempt in &requests[1..] {
            let props = &attempt.body["forwardedProps"];
            assert_eq!(props["a2uiErrors"][0]["error"]["surfaceId"], "ghost", "{props}");
        }
    })
    .await
    .unwrap();
}

/// Issue #11: "a panic caught inside a run leaves the session half-updated (no rollback, no
/// poisoning)". A panic in the run (here the app's tool policy) is a typed error, and the
/// session refuses to go on from the state the panic left.
#[tokio::test]
async fn a_panic_inside_a_run_poisons_the_session() {
    timeout(TEST_BOUND, async {
        let body = run_of("r1", vec![tool_call("c1", "lookup", "{}", "m1")]);
        let server = TestServer::start(vec![Reply::sse(&body), Reply::sse(&run_of("r2", vec![]))]).await;
        let mut s = connect(&server, MemoryBudget::default());
        let tool = ClientTool::new("lookup", "looks up", json!({"type": "object"}), |_c: ToolInvocation| async {
            Ok::<Value, agentui_runtime::session::ToolError>(json!("ok"))
        })
        .unwrap();
        s.register_tool(tool).unwrap();
        s.set_tool_policy(Arc::new(|_call: &ToolInvocation| -> ToolDecision { panic!("policy bug") }));
        let err = s.run("go").await.unwrap_err();
        assert!(matches!(&err, SessionError::Internal { detail } if detail.contains("policy bug")), "{err:?}");
        assert!(s.is_poisoned());
        // Every later call is refused; nothing is sent.
        let again = s.run("again").await.unwrap_err();
        assert!(matches!(again, SessionError::Internal { .. }), "{again:?}");
        assert!(matches!(s.continue_run().await, Err(SessionError::Internal { .. })));
        assert_eq!(server.requests().len(), 1);
        assert!(s.shared().set_value("any", "/x", json!(1)).is_err());
    })
    .await
    .unwrap();
}

/// A tool result with more media parts than the budget allows fails the run with the typed
/// error, adds nothing, and the next run works.
#[tokio::test]
async fn a_tool_result_over_the_media_part_bound_fails_typed_and_adds_nothing() {
    timeout(TEST_BOUND, async {
        let image = json!({"type": "image", "source": {"type": "url", "value": "https://example.com/a.png"}});
        let result = json!({"type": "TOOL_CALL_RESULT", "messageId": "res", "toolCallId": "c1",
            "content": vec![image; 5]});
        let first = vec![started("r1"), result, finished("r1")];
        let second = run_of("r2", vec![text("m2", "still here")]);
        let server = TestServer::start(vec![Reply::sse(&first), Reply::sse(&second)]).await;
        let mut s = connect(&server, MemoryBudget { max_received_media_parts: 4, ..MemoryBudget::default() });
        let err = s.run("go").await.unwrap_err();
        match &err {
            SessionError::Transport(TransportError::Protocol(ProtocolError::LimitExceeded {
                what: "media parts in one message",
                limit: 4,
            })) => {}
            other => panic!("expected the media part limit, got {other:?}"),
        }
        assert!(matches!(s.phase(), RunPhase::Failed { .. }));
        assert!(s.messages().iter().all(|m| m.id != "res"));
        let summary = s.run("again").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }));
        assert_eq!(content_text(s.messages().last().unwrap()), Some("still here"));
    })
    .await
    .unwrap();
}
