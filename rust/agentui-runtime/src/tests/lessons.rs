//! One test per lesson of docs/architecture.md ("Lessons from a production system that got
//! this wrong"), each against a scripted loopback agent.

use crate::tests::support;

use agentui_runtime::ConversationDelta;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentui_agui::message::{FunctionCall, Message, MessageContent, Role, ToolCall, ToolCallKind};
use agentui_agui::WarningKind;
use agentui_runtime::session::{
    ClientTool, ConversationSession, SessionOptions, SessionWarningKind, ToolCallPhase, ToolDecision, ToolError,
    ToolFailure, ToolInvocation, STATE_RESYNC_PROP,
};
use serde_json::{json, Value};
use support::*;
use tokio::time::timeout;

fn session(server: &TestServer) -> (ConversationSession, Recorder) {
    // The scripted replies are on thread "t", as a server answering this input would be.
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let mut s = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    let recorder = Recorder::default();
    s.add_listener(Arc::new(recorder.clone()));
    (s, recorder)
}

/// A tool that counts its executions and answers with `answer(args)`.
fn tool(name: &str, count: &Arc<AtomicUsize>, answer: fn(&Value) -> Result<Value, ToolError>) -> ClientTool {
    let count = count.clone();
    let params = json!({"type": "object", "additionalProperties": true});
    ClientTool::new(name, format!("the {name} tool"), params, move |call: ToolInvocation| {
        count.fetch_add(1, Ordering::SeqCst);
        let result = answer(&call.arguments);
        async move { result }
    })
    .unwrap()
}

fn has_warning(r: &Recorder, kind: SessionWarningKind) -> bool {
    r.all().iter().any(|u| matches!(u, ConversationDelta::Warning(w) if w.kind == kind))
}

#[tokio::test]
async fn lesson1_tool_result_goes_back_and_run_continues() {
    timeout(TEST_BOUND, async {
        // The server also answers the client's call itself ("received: true"), the defect the
        // lesson is about: the client's real result must replace it.
        let server_answer =
            json!({"type": "TOOL_CALL_RESULT", "messageId": "srv-1", "toolCallId": "c1", "content": "received: true"});
        let server = TestServer::start(vec![
            Reply::sse(&run_of(
                "r1",
                vec![tool_call("c1", "navigate", r#"{"to":"/home"}"#, "a1"), vec![server_answer]],
            )),
            Reply::sse(&run_of("r2", vec![text("a2", "You are on the home screen.")])),
        ])
        .await;
        let (mut s, rec) = session(&server);
        let count = Arc::new(AtomicUsize::new(0));
        s.register_tool(tool("navigate", &count, |a| Ok(json!(format!("navigated to {}", a["to"].as_str().unwrap())))))
            .unwrap();

        let summary = s.run("go home").await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert_eq!(summary.run_ids.len(), 2, "the follow-up run started by itself");
        let follow_up = &server.requests()[1].body;
        assert_eq!(
            tool_results(follow_up),
            [("c1".to_owned(), "navigated to /home".to_owned(), None)],
            "the agent sees what really happened, not the server's own 'received'"
        );
        assert_eq!(s.messages().last().unwrap().text(), Some("You are on the home screen."));
        // Requested and confirmed are distinct states, in that order.
        assert_eq!(
            rec.tool_phases("c1"),
            [
                ToolCallPhase::Streaming,
                ToolCallPhase::Requested,
                ToolCallPhase::Running,
                ToolCallPhase::Succeeded { result: "navigated to /home".into() },
            ]
        );
        assert!(has_warning(&rec, SessionWarningKind::ServerAnsweredClientTool));
        assert_eq!(summary.tool_calls[0].outcome, Ok(json!("navigated to /home")));
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn lesson2_registry_declares_what_it_executes_and_undeclared_calls_belong_to_the_server() {
    timeout(TEST_BOUND, async {
        let server_tool_result =
            json!({"type": "TOOL_CALL_RESULT", "messageId": "srv-1", "toolCallId": "c2", "content": "3 hits"});
        let server = TestServer::start(vec![
            Reply::sse(&run_of(
                "r1",
                vec![
                    tool_call("c1", "teleport", "{}", "a1"),
                    tool_call("c2", "search", r#"{"q":"x"}"#, "a1"),
                    vec![server_tool_result],
                ],
            )),
            Reply::sse(&run_of("r2", vec![text("a2", "ok")])),
        ])
        .await;
        let (mut s, rec) = session(&server);
        let count = Arc::new(AtomicUsize::new(0));
        s.register_tool(tool("navigate", &count, |_| Ok(json!("ok")))).unwrap();
        s.register_tool(tool("teleport", &count, |_| Ok(json!("ok")))).unwrap();
        assert!(s.unregister_tool("teleport"), "the app withdraws a tool");

        let summary = s.run("hi").await.unwrap();

        let first = &server.requests()[0].body;
        let declared: Vec<&str> =
            first["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(declared, ["navigate"], "exactly what the registry executes");
        assert_eq!(first["tools"][0]["parameters"]["type"], "object");
        assert_eq!(count.load(Ordering::SeqCst), 0, "a withdrawn tool never runs");
        // 'teleport' was not declared in this run: the call is the server's. Nothing is
        // fabricated for it and no follow-up run starts because of it.
        assert_eq!(server.requests().len(), 1, "no follow-up run for a call the client does not own");
        assert!(summary.tool_calls.is_empty());
        assert_eq!(rec.tool_phases("c1").last(), Some(&ToolCallPhase::OwnedByServer));
        assert_eq!(rec.tool_phases("c2").last(), Some(&ToolCallPhase::CompletedByServer));
        assert!(!has_warning(&rec, SessionWarningKind::UnresolvedToolCall));

        s.run("again").await.unwrap();
        let results = tool_results(&server.requests()[1].body);
        assert!(results.iter().all(|(id, ..)| id != "c1"), "no answer to the server's call: {results:?}");
        let search = results.iter().find(|(id, ..)| id == "c2").unwrap();
        assert_eq!((search.1.as_str(), search.2.as_deref()), ("3 hits", None), "a server tool's result stands");
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn lesson3_parallel_calls_pair_by_id() {
    timeout(TEST_BOUND, async {
        // Two calls of one tool, interleaved; the first finishes last.
        let events = vec![
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "lookup", "parentMessageId": "a1"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c2", "toolCallName": "lookup", "parentMessageId": "a1"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c2", "delta": r#"{"key":"fast"}"#}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": r#"{"key":"slow"}"#}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "c2"}),
            // A result whose id matches no call: visible, never paired by name or order.
            json!({"type": "TOOL_CALL_RESULT", "messageId": "srv-9", "toolCallId": "c9", "content": "orphan"}),
        ];
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![events])),
            Reply::sse(&run_of("r2", vec![text("a2", "ok")])),
        ])
        .await;
        let (mut s, rec) = session(&server);
        let completion_order = Arc::new(Mutex::new(Vec::new()));
        let order = completion_order.clone();
        let lookup = ClientTool::new(
            "lookup",
            "looks up a key",
            json!({"type": "object", "required": ["key"]}),
            move |call: ToolInvocation| {
                let order = order.clone();
                async move {
                    let key = call.arguments["key"].as_str().unwrap_or_default().to_owned();
                    let delay = if key == "slow" { 300 } else { 10 };
                    tokio::time::sleep(Duration::from_millis(delay)).await;
                    order.lock().unwrap().push(call.tool_call_id.clone());
                    Ok(json!(format!("value of {key}")))
                }
            },
        )
        .unwrap();
        s.register_tool(lookup).unwrap();

        s.run("both").await.unwrap();

        assert_eq!(*completion_order.lock().unwrap(), ["c2", "c1"], "they did finish out of order");
        let results = tool_results(&server.requests()[1].body);
        let by_id = |id: &str| results.iter().find(|(i, ..)| i == id).map(|(_, c, _)| c.clone());
        assert_eq!(by_id("c1").as_deref(), Some("value of slow"));
        assert_eq!(by_id("c2").as_deref(), Some("value of fast"));
        assert!(has_warning(&rec, SessionWarningKind::UnmatchedToolResult));
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn lesson4_failures_propagate_to_agent() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![
            Reply::sse(&run_of(
                "r1",
                vec![
                    tool_call("c1", "navigate", r#"{"to":"/pay"}"#, "a1"),
                    tool_call("c2", "navigate", r#"{"to": 42}"#, "a1"),
                    tool_call("c3", "navigate", "{not json", "a1"),
                ],
            )),
            Reply::sse(&run_of("r2", vec![text("a2", "Navigation failed.")])),
        ])
        .await;
        let (mut s, rec) = session(&server);
        let count = Arc::new(AtomicUsize::new(0));
        let counter = count.clone();
        let params = json!({"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]});
        let navigate = ClientTool::new("navigate", "opens a screen", params, move |_call: ToolInvocation| {
            counter.fetch_add(1, Ordering::SeqCst);
            async { Err(ToolError::new("blocked by a modal dialog")) }
        })
        .unwrap();
        s.register_tool(navigate).unwrap();

        let summary = s.run("pay").await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1, "invalid arguments never reach the handler");
        let results = tool_results(&server.requests()[1].body);
        assert_eq!(results.len(), 3);
        let (_, content, error) = &results[0];
        assert_eq!(error.as_deref(), Some("the tool failed: blocked by a modal dialog"), "the agent sees the failure");
        assert!(content.starts_with("Error: "), "also in the content, for agents that read only that");
        assert!(results[1].2.as_deref().unwrap().starts_with("invalid arguments: /to"), "{:?}", results[1]);
        assert!(results[2].2.as_deref().unwrap().starts_with("invalid arguments: not JSON"), "{:?}", results[2]);
        // The caller and the timeline see it too.
        assert!(matches!(summary.tool_calls[0].outcome, Err(ToolFailure::Failed { .. })));
        assert!(matches!(rec.tool_phases("c1").last(), Some(ToolCallPhase::Failed { .. })));
        let stored = s.messages().into_iter().find(|m| m.tool_call_id.as_deref() == Some("c1")).unwrap();
        assert!(stored.error.is_some());
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn lesson5_exactly_once_no_execution_from_history_or_late_events() {
    timeout(TEST_BOUND, async {
        let history_call = |id: &str, msg: &str| {
            json!({"id": msg, "role": "assistant", "toolCalls": [
                {"id": id, "type": "function", "function": {"name": "act", "arguments": "{}"}}]})
        };
        // Run 1: a live call c1, then (after RUN_FINISHED, same chunk) a late call c-late.
        let mut late = frame(&finished("r1"));
        for e in tool_call("c-late", "act", "{}", "a9") {
            late.extend(frame(&e));
        }
        let mut run1: Vec<Step> = std::iter::once(started("r1"))
            .chain(tool_call("c1", "act", "{}", "a1"))
            .map(|e| Step::Send(frame(&e)))
            .collect();
        run1.push(Step::Send(late));
        // Run 2 (the follow-up): a replay of c1 after a reconnect, a snapshot with a history
        // call, and an input echo with another history call.
        let echo = json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r2", "input": {
            "threadId": "t", "runId": "r2", "messages": [history_call("c-echo", "h2")]}});
        let mut run2 = vec![echo];
        run2.push(json!({"type": "MESSAGES_SNAPSHOT", "messages": [history_call("c-snap", "h1")]}));
        run2.extend(tool_call("c1", "act", "{}", "a1"));
        run2.push(finished("r2"));
        // Run 3 (user's next turn, after restore): nothing live.
        let server = TestServer::start(vec![
            Reply::sse_steps(run1),
            Reply::sse(&run2),
            Reply::sse(&run_of("r3", vec![text("a3", "ok")])),
        ])
        .await;
        let (mut s, rec) = session(&server);
        let count = Arc::new(AtomicUsize::new(0));
        s.register_tool(tool("act", &count, |_| Ok(json!("done")))).unwrap();

        s.run("go").await.unwrap();
        assert_eq!(count.load(Ordering::SeqCst), 1, "c1 ran once; the replay, history and late call did not");
        assert!(s.tool_ledger().contains("c1"));
        assert!(!s.tool_ledger().contains("c-late") && !s.tool_ledger().contains("c-snap"));
        assert!(s.conversation().tool_call("c-late").is_none(), "events after the end are not even applied");
        assert!(matches!(rec.tool_phases("c1").last(), Some(ToolCallPhase::Skipped { .. })), "the replay is visible");
        assert!(has_warning(&rec, SessionWarningKind::IgnoredAfterRunEnd));
        let conversation = s.conversation();
        let replayed = conversation.tool_call("c1").unwrap();
        assert!(
            matches!(replayed.status, agentui_agui::ToolCallStatus::Completed { .. }),
            "the replay keeps its answer"
        );
        drop(conversation);

        // A restored conversation with an unanswered call: history, never executed.
        let mut restored = Message::new("h0", Role::Assistant);
        restored.tool_calls = Some(vec![ToolCall {
            id: "c-old".into(),
            kind: ToolCallKind::Function,
            function: FunctionCall { name: "act".into(), arguments: "{}".into() },
            encrypted_value: None,
            encrypted_value_type: None,
            metadata: None,
        }]);
        let mut user = Message::new("u0", Role::User);
        user.content = Some(MessageContent::Text("earlier".into()));
        s.restore(vec![user, restored], None);
        s.run("again").await.unwrap();
        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert_eq!(server.requests().len(), 3);
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn lesson6_client_policy_decides_execution() {
    timeout(TEST_BOUND, async {
        let server = TestServer::start(vec![
            Reply::sse(&run_of(
                "r1",
                vec![
                    tool_call("c1", "pay", r#"{"amount": 20}"#, "a1"),
                    tool_call("c2", "pay", r#"{"amount": 5000}"#, "a1"),
                ],
            )),
            Reply::sse(&run_of("r2", vec![text("a2", "ok")])),
        ])
        .await;
        let (mut s, rec) = session(&server);
        let count = Arc::new(AtomicUsize::new(0));
        s.register_tool(tool("pay", &count, |a| Ok(json!(format!("paid {}", a["amount"]))))).unwrap();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let seen = asked.clone();
        s.set_tool_policy(Arc::new(move |call: &ToolInvocation| {
            seen.lock().unwrap().push(call.tool_call_id.clone());
            match call.arguments["amount"].as_u64() {
                Some(n) if n <= 100 => ToolDecision::Allow,
                _ => ToolDecision::deny("payments above 100 need the user's confirmation"),
            }
        }));

        s.run("pay both").await.unwrap();

        assert_eq!(*asked.lock().unwrap(), ["c1", "c2"], "the policy saw every call");
        assert_eq!(count.load(Ordering::SeqCst), 1, "only the allowed call ran");
        let results = tool_results(&server.requests()[1].body);
        assert_eq!(results[0], ("c1".into(), "paid 20".into(), None));
        assert_eq!(
            results[1].2.as_deref(),
            Some("the client refused to run this call: payments above 100 need the user's confirmation")
        );
        assert_eq!(
            rec.tool_phases("c2").last(),
            Some(&ToolCallPhase::Failed {
                failure: ToolFailure::Denied { reason: "payments above 100 need the user's confirmation".into() }
            })
        );
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn lesson7_unappliable_delta_keeps_state_and_resyncs() {
    timeout(TEST_BOUND, async {
        let run1 = vec![
            started("r1"),
            json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 1, "items": []}}),
            json!({"type": "STATE_DELTA", "delta": [
                {"op": "add", "path": "/items/-", "value": "a"},
                {"op": "replace", "path": "/missing/deep", "value": 2}]}),
            finished("r1"),
        ];
        let run3 = vec![
            started("r3"),
            json!({"type": "STATE_DELTA", "delta": [{"op": "test", "path": "/count", "value": 99}]}),
            finished("r3"),
        ];
        let run4 = vec![started("r4"), json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 7}}), finished("r4")];
        let server = TestServer::start(vec![
            Reply::sse(&run1),
            Reply::sse(&run_of("r2", vec![])),
            Reply::sse(&run3),
            Reply::sse(&run4),
        ])
        .await;
        let (mut s, rec) = session(&server);
        s.set_forwarded_props(Some(json!({"app": "demo"})));

        let summary = s.run("count").await.unwrap();
        // The whole patch failed atomically: the old state stays, nothing half-applied.
        assert_eq!(s.state(), json!({"count": 1, "items": []}));
        assert!(s.needs_resync() && summary.needs_resync);
        assert!(rec.all().iter().any(|u| matches!(u, ConversationDelta::StateResyncNeeded { .. })));
        assert!(has_warning(&rec, SessionWarningKind::Protocol(WarningKind::PatchNotApplied)));

        // The next run resynchronises: the kept state is the baseline, and the flag says so.
        s.run("next").await.unwrap();
        let body = &server.requests()[1].body;
        assert_eq!(body["state"], json!({"count": 1, "items": []}));
        // The app's props are kept; the resync flag is added (beside the A2UI capabilities).
        assert_eq!(body["forwardedProps"]["app"], "demo");
        assert_eq!(body["forwardedProps"][STATE_RESYNC_PROP], true);
        assert!(!s.needs_resync(), "the baseline was re-sent");

        // A failing `test` op flags again; a snapshot clears it without a client round trip.
        s.run("third").await.unwrap();
        assert!(s.needs_resync());
        let third = &server.requests()[2].body["forwardedProps"];
        assert_eq!(third["app"], "demo");
        assert!(third.get(STATE_RESYNC_PROP).is_none(), "no flag when in sync: {third}");
        s.run("fourth").await.unwrap();
        assert_eq!(server.requests()[3].body["forwardedProps"][STATE_RESYNC_PROP], true);
        assert_eq!(s.state(), json!({"count": 7}));
        assert!(!s.needs_resync());
    })
    .await
    .unwrap();
}
