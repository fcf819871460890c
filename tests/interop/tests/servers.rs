//! The Rust session against Google ADK (ag-ui-adk) and LangGraph (ag-ui-langgraph), each with a
//! scripted fake model: what an app sees, and what reached the server (its input log).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use agentui_agui::reducer::LocalOnly;
use agentui_interop::*;
use agentui_runtime::session::{
    ClientTool, RunPhase, SessionError, SessionUpdate, ToolCallPhase, ToolError, ToolInvocation,
};
use serde_json::{json, Value};
use tokio::time::timeout;

/// An interop test: ignored in a bare `cargo test`, run by `tests/interop/run.sh`.
macro_rules! interop_test {
    ($name:ident, $scenario:expr) => {
        #[tokio::test]
        #[ignore = "needs the interop servers: run tests/interop/run.sh"]
        async fn $name() {
            $scenario.await
        }
    };
}

async fn bounded<T>(f: impl std::future::Future<Output = T>) -> T {
    timeout(SCENARIO_BOUND, f).await.expect("the scenario finished in time")
}

/// No input the client sent on `thread` carries a tool message other than `allowed` call ids:
/// nothing fabricated reached the server.
async fn assert_no_fabricated_results(server: &Server, thread: &str, allowed: &[&str]) {
    for input in server.inputs(thread).await {
        for (call_id, content) in tool_messages(&input) {
            assert!(
                allowed.contains(&call_id.as_str()),
                "{}: unexpected tool message {call_id}: {content}",
                server.name
            );
        }
    }
}

// ---- streamed text ----

async fn streamed_text(server: Server, path: &str, expected: &str) {
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "text");
        let summary = s.run("hello").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(last_assistant_text(s.messages()), expected);
        let upserts = rec
            .all()
            .iter()
            .filter(|u| matches!(u, SessionUpdate::MessageUpserted(m) if m.role.as_str() == "assistant"))
            .count();
        assert!(upserts >= 3, "{}: the text streamed in pieces ({upserts} upserts)", server.name);
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 1);
        assert_eq!(inputs[0]["tools"], json!([]), "tools is sent, empty");
        assert_eq!(inputs[0]["context"].as_array().map(Vec::is_empty), Some(false), "the catalogs context entry");
    })
    .await
}

interop_test!(adk_streamed_text, streamed_text(adk(), "/adk", "Hello from ADK!"));

interop_test!(langgraph_streamed_text, streamed_text(langgraph(), "/langgraph", "Hello from LangGraph!"));

// ---- a server tool ----

async fn server_tool(server: Server, path: &str) {
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "weather");
        let (tool, count) = counting_tool("get_location", |_| Ok(json!({"lat": 1.5})));
        s.register_tool(tool).unwrap();
        let summary = s.run("what is the weather?").await.unwrap();
        assert!(summary.tool_calls.is_empty(), "the client answered nothing");
        assert_eq!(count.load(Ordering::SeqCst), 0);
        assert_eq!(rec.phases_of("get_weather").last(), Some(&ToolCallPhase::CompletedByServer));
        let text = last_assistant_text(s.messages());
        assert!(text.starts_with("Tool get_weather returned:") && text.contains("sunny"), "{text}");
        assert_eq!(server.inputs(&thread).await.len(), 1, "no follow-up run for a server tool");
        assert_no_fabricated_results(&server, &thread, &[]).await;
    })
    .await
}

interop_test!(adk_server_tool, server_tool(adk(), "/adk"));

interop_test!(langgraph_server_tool, server_tool(langgraph(), "/langgraph"));

// ---- a client tool round trip ----

async fn client_tool_round_trip(server: Server, path: &str) {
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "location");
        let (tool, count) = counting_tool("get_location", |_| Ok(json!({"lat": 1.5, "lon": 2.5})));
        s.register_tool(tool).unwrap();
        let summary = s.run("what is my location?").await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1, "executed exactly once");
        assert_eq!(summary.tool_calls.len(), 1);
        let call_id = summary.tool_calls[0].tool_call_id.clone();
        assert!(matches!(rec.phases_of("get_location").last(), Some(ToolCallPhase::Succeeded { .. })));
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "the result went back in one follow-up run");
        let declared: Vec<&str> =
            inputs[0]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(declared, ["get_location"]);
        assert_eq!(tool_messages(&inputs[1]), [(call_id.clone(), r#"{"lat":1.5,"lon":2.5}"#.to_owned())]);
        let text = last_assistant_text(s.messages());
        assert_eq!(text, r#"Tool get_location returned: {"lat":1.5,"lon":2.5}"#, "the agent quotes the real result");
        assert_no_fabricated_results(&server, &thread, &[&call_id]).await;
    })
    .await
}

interop_test!(adk_client_tool_round_trip, client_tool_round_trip(adk(), "/adk"));

interop_test!(langgraph_client_tool_round_trip, client_tool_round_trip(langgraph(), "/langgraph"));

// ---- two parallel client calls ----

async fn parallel_client_calls(server: Server, path: &str) {
    bounded(async {
        let (mut s, _rec, thread) = session(&server.url(path), "compare");
        let (tool, count) = counting_tool("get_price", |args| {
            let item = args["item"].as_str().unwrap_or("?").to_owned();
            let price = if item == "apple" { 3 } else { 5 };
            Ok(json!({"item": item, "price": price}))
        });
        s.register_tool(tool).unwrap();
        let summary = s.run("compare the prices").await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 2);
        assert_eq!(summary.tool_calls.len(), 2);
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "both results in one follow-up run");
        let results = tool_messages(&inputs[1]);
        assert_eq!(results.len(), 2);
        for report in &summary.tool_calls {
            // Paired by id: each call's message carries the answer to its own arguments.
            let (_, content) = results.iter().find(|(id, _)| *id == report.tool_call_id).expect("paired by id");
            assert_eq!(content, &agentui_runtime::session::result_text(report.outcome.as_ref().unwrap()));
        }
        let text = last_assistant_text(s.messages());
        assert!(
            text.contains(r#"{"item":"apple","price":3}"#) && text.contains(r#"{"item":"pear","price":5}"#),
            "{text}"
        );
    })
    .await
}

interop_test!(adk_parallel_client_calls, parallel_client_calls(adk(), "/adk"));

interop_test!(langgraph_parallel_client_calls, parallel_client_calls(langgraph(), "/langgraph"));

// ---- a failing client tool ----

async fn failing_client_tool(server: Server, path: &str) {
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "fail");
        let (tool, count) = counting_tool("explode", |_| Err(ToolError::new("disk full")));
        s.register_tool(tool).unwrap();
        s.run("make it fail").await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert!(matches!(rec.phases_of("explode").last(), Some(ToolCallPhase::Failed { .. })));
        let inputs = server.inputs(&thread).await;
        let results = tool_messages(&inputs[1]);
        assert_eq!(results.len(), 1);
        assert!(results[0].1.contains("disk full"), "{results:?}");
        let error_field =
            inputs[1]["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap()["error"].clone();
        assert!(error_field.as_str().is_some_and(|e| e.contains("disk full")), "{error_field}");
        let text = last_assistant_text(s.messages());
        assert!(text.starts_with("Tool explode returned:") && text.contains("disk full"), "{text}");
    })
    .await
}

interop_test!(adk_failing_client_tool, failing_client_tool(adk(), "/adk"));

interop_test!(langgraph_failing_client_tool, failing_client_tool(langgraph(), "/langgraph"));

// ---- ADK human in the loop ----

/// Default ag-ui-adk: the confirmation is ADK's `adk_request_confirmation` call. An app that
/// does not declare it leaves both calls to the server: nothing is fabricated (the old client's
/// "not registered" answer made ADK fail with "validation errors for ToolConfirmation").
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn adk_confirmation_is_left_to_the_server_when_the_app_does_not_declare_it() {
    let server = adk();
    bounded(async {
        let (mut s, rec, thread) = session(&server.url("/adk"), "hitl-undeclared");
        let summary = s.run("delete the report").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(rec.phases_of("delete_file").last(), Some(&ToolCallPhase::OwnedByServer));
        assert_eq!(rec.phases_of("adk_request_confirmation").last(), Some(&ToolCallPhase::OwnedByServer));
        assert_eq!(server.inputs(&thread).await.len(), 1, "no follow-up run");
        assert!(!rec.saw(|u| matches!(u, SessionUpdate::RunPhase(RunPhase::AgentError { .. }))));
        assert_no_fabricated_results(&server, &thread, &[]).await;
    })
    .await
}

/// Default ag-ui-adk with the app answering `adk_request_confirmation` as a client tool: the
/// answer goes back once, for that call only, and ADK runs the confirmed tool.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn adk_default_human_in_the_loop_through_the_confirmation_tool() {
    let server = adk();
    bounded(async {
        let (mut s, rec, thread) = session(&server.url("/adk"), "hitl-default");
        let (tool, count) = counting_tool("adk_request_confirmation", |_| Ok(json!({"confirmed": true})));
        s.register_tool(tool).unwrap();
        let summary = s.run("delete the report").await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert_eq!(summary.tool_calls.len(), 1);
        let confirmation_id = summary.tool_calls[0].tool_call_id.clone();
        assert_eq!(last_assistant_text(s.messages()), "Deleted /tmp/report.txt");
        assert_eq!(rec.phases_of("delete_file").last(), Some(&ToolCallPhase::CompletedByServer));
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2);
        assert_eq!(tool_messages(&inputs[1]), [(confirmation_id.clone(), r#"{"confirmed":true}"#.to_owned())]);
        assert_no_fabricated_results(&server, &thread, &[&confirmation_id]).await;
    })
    .await
}

/// ag-ui-adk with `emit_interrupt_outcome=True`: an AG-UI interrupt naming the confirmation
/// call, answered in `RunAgentInput.resume` and nowhere else (a tool message makes ADK refuse
/// the run with INTERRUPT_RESUME_REQUIRED).
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn adk_interrupt_outcome_human_in_the_loop() {
    let server = adk();
    for (approve, expected) in [(true, "Deleted /tmp/report.txt"), (false, "Not deleted")] {
        bounded(async {
            let (mut s, rec, thread) = session(&server.url("/adk-outcome"), "hitl-outcome");
            let summary = s.run("delete the report").await.unwrap();
            let RunPhase::Interrupted { interrupts, .. } = &summary.phase else {
                panic!("interrupted expected, got {:?}", summary.phase)
            };
            assert_eq!(interrupts.len(), 1);
            let interrupt = interrupts[0].clone();
            assert_eq!(interrupt.reason, "confirmation");
            assert_eq!(
                rec.phases_of("adk_request_confirmation").last(),
                Some(&ToolCallPhase::AwaitingInterrupt { interrupt_id: interrupt.id.clone() })
            );
            s.resolve_interrupt(&interrupt.id, Some(json!({"confirmed": approve}))).unwrap();
            let resumed = s.continue_run().await.unwrap();
            assert!(matches!(resumed.phase, RunPhase::Finished { .. }), "{:?}", resumed.phase);
            assert_eq!(last_assistant_text(s.messages()), expected);
            let inputs = server.inputs(&thread).await;
            assert_eq!(inputs.len(), 2);
            assert_eq!(inputs[1]["resume"][0]["interruptId"], interrupt.id.as_str());
            assert_eq!(inputs[1]["resume"][0]["payload"], json!({"confirmed": approve}));
            assert_no_fabricated_results(&server, &thread, &[]).await;
        })
        .await
    }
}

// ---- LangGraph interrupt() ----

async fn langgraph_interrupt(path: &str, approve: bool) {
    let server = langgraph();
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "lg-interrupt");
        let summary = s.run("delete the report").await.unwrap();
        let RunPhase::Interrupted { interrupts, .. } = &summary.phase else {
            panic!("{path}: interrupted expected, got {:?}", summary.phase)
        };
        assert_eq!(interrupts.len(), 1, "{path}: one interrupt, whatever the channels: {interrupts:?}");
        let interrupt = interrupts[0].clone();
        assert_eq!(interrupt.message.as_deref(), Some("Approve deleting /tmp/report.txt?"));
        assert!(rec.saw(|u| matches!(u, SessionUpdate::Custom { name, .. } if name == "on_interrupt")));
        assert_eq!(rec.phases_of("delete_file").first(), Some(&ToolCallPhase::Streaming));
        assert!(!rec.phases_of("delete_file").iter().any(|p| matches!(p, ToolCallPhase::Failed { .. })));

        s.resolve_interrupt(&interrupt.id, Some(json!(approve))).unwrap();
        let resumed = s.continue_run().await.unwrap();
        assert!(matches!(resumed.phase, RunPhase::Finished { .. }), "{path}: {:?}", resumed.phase);
        let expected = if approve { "Deleted /tmp/report.txt" } else { "Not deleted" };
        assert!(
            last_assistant_text(s.messages()).contains(expected),
            "{path}: {:?}",
            last_assistant_text(s.messages())
        );
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2);
        assert_no_fabricated_results(&server, &thread, &[]).await;
    })
    .await;
}

/// The input of the run that answered a LangGraph interrupt on `path` with an approval, as the
/// server received it.
async fn approval_as_received(path: &str) -> Value {
    let server = langgraph();
    let (mut s, _rec, thread) = session(&server.url(path), "lg-channel");
    bounded(async {
        let summary = s.run("delete the report").await.unwrap();
        s.resolve_interrupt(&summary.pending_interrupts[0].id, Some(json!(true))).unwrap();
        s.continue_run().await.unwrap();
    })
    .await;
    server.inputs(&thread).await.swap_remove(1)
}

/// ag-ui-langgraph's default: the interrupt is a CUSTOM `on_interrupt` event and the answer
/// goes back in `forwardedProps.command.resume`.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn langgraph_interrupt_on_the_legacy_custom_event() {
    langgraph_interrupt("/langgraph", true).await;
    langgraph_interrupt("/langgraph", false).await;
    let answer = approval_as_received("/langgraph").await;
    assert_eq!(answer["forwardedProps"]["command"], json!({"resume": true}));
    assert_eq!(answer["resume"], Value::Null, "answered once, on the channel the server reads");
}

/// ag-ui-langgraph with `emit_interrupt_outcome=True`: CUSTOM and the AG-UI outcome both
/// announce the interrupt; it is one interrupt, answered in `RunAgentInput.resume`.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn langgraph_interrupt_on_the_agui_outcome() {
    langgraph_interrupt("/langgraph-outcome", true).await;
    langgraph_interrupt("/langgraph-outcome", false).await;
    let answer = approval_as_received("/langgraph-outcome").await;
    assert_eq!(answer["resume"][0]["status"], "resolved");
    assert_eq!(answer["forwardedProps"].get("command"), None);
}

// ---- state ----

fn observed_counters(rec: &Recorder) -> Vec<Value> {
    rec.all()
        .into_iter()
        .filter_map(|u| match u {
            SessionUpdate::StateChanged(state) => state.get("counter").cloned(),
            _ => None,
        })
        .filter(|c| !c.is_null())
        .collect()
}

/// ADK: the counter arrives as STATE_DELTA patches on the state the client holds, then a
/// snapshot; the app's initial state reached the server.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn adk_state_snapshot_and_delta() {
    let server = adk();
    bounded(async {
        let (mut s, rec, thread) = session(&server.url("/adk"), "state");
        s.set_state(json!({"theme": "dark"}));
        s.run("increment the state").await.unwrap();
        let counters = observed_counters(&rec);
        assert_eq!(counters.first(), Some(&json!(1)), "{counters:?}");
        assert_eq!(counters.last(), Some(&json!(2)), "{counters:?}");
        assert_eq!(s.state()["counter"], 2);
        assert!(!s.needs_resync(), "every delta applied");
        assert_eq!(server.inputs(&thread).await[0]["state"]["theme"], "dark");
    })
    .await
}

/// LangGraph sends snapshots only; the final state holds the counter.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn langgraph_state_snapshots() {
    let server = langgraph();
    bounded(async {
        let (mut s, rec, thread) = session(&server.url("/langgraph"), "state");
        s.set_state(json!({"theme": "dark"}));
        s.run("increment the state").await.unwrap();
        assert_eq!(observed_counters(&rec).last(), Some(&json!(2)));
        assert_eq!(s.state()["counter"], 2);
        assert_eq!(server.inputs(&thread).await[0]["state"]["theme"], "dark");
    })
    .await
}

// ---- cancel, then a new turn ----

async fn cancel_during_text(server: Server, path: &str, hello: &str) {
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "cancel-text");
        let canceller = s.canceller();
        let watcher = rec.clone();
        tokio::spawn(async move {
            while !watcher.saw(
                |u| matches!(u, SessionUpdate::MessageUpserted(m) if m.text().is_some_and(|t| t.contains("chunk 02"))),
            ) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            canceller.cancel();
        });
        let err = s.run("tell me something slow").await.unwrap_err();
        assert!(matches!(err, SessionError::Cancelled), "{err:?}");
        let partial = rec
            .all()
            .into_iter()
            .find_map(|u| match u {
                SessionUpdate::MessageKeptLocal { message_id, reason: LocalOnly::Cancelled } => Some(message_id),
                _ => None,
            })
            .expect("the cut-short text is marked");

        let summary = s.run("hello").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }));
        assert_eq!(last_assistant_text(s.messages()), hello);
        let inputs = server.inputs(&thread).await;
        let sent = inputs.last().unwrap()["messages"].as_array().unwrap().clone();
        assert!(sent.iter().all(|m| m["id"] != partial.as_str()), "the partial text is not re-sent as complete");
    })
    .await
}

interop_test!(adk_cancel_during_text_then_a_new_turn, cancel_during_text(adk(), "/adk", "Hello from ADK!"));

interop_test!(
    langgraph_cancel_during_text_then_a_new_turn,
    cancel_during_text(langgraph(), "/langgraph", "Hello from LangGraph!")
);

async fn cancel_during_client_tool(server: Server, path: &str, hello: &str) {
    bounded(async {
        let (mut s, rec, thread) = session(&server.url(path), "cancel-tool");
        // A handler that takes far longer than the user waits.
        let started = Arc::new(AtomicUsize::new(0));
        let counter = started.clone();
        let slow = ClientTool::new(
            "get_location",
            "the app's location, slowly",
            json!({"type": "object"}),
            move |_: ToolInvocation| {
                counter.fetch_add(1, Ordering::SeqCst);
                async move {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    Ok(json!("too late"))
                }
            },
        )
        .unwrap();
        s.register_tool(slow).unwrap();
        let canceller = s.canceller();
        let watcher = rec.clone();
        tokio::spawn(async move {
            while !watcher.saw(|u| matches!(u, SessionUpdate::ToolCall(t) if t.phase == ToolCallPhase::Running)) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            canceller.cancel();
        });
        let err = s.run("what is my location?").await.unwrap_err();
        assert!(matches!(err, SessionError::Cancelled), "{err:?}");
        assert_eq!(started.load(Ordering::SeqCst), 1, "the handler started once");
        assert!(matches!(rec.phases_of("get_location").last(), Some(ToolCallPhase::Failed { .. })));

        let summary = s.run("hello").await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(last_assistant_text(s.messages()), hello);
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "no follow-up after the cancel; one new turn");
        let results = tool_messages(&inputs[1]);
        assert_eq!(results.len(), 1, "the cancelled call is answered as cancelled: {results:?}");
        assert!(results[0].1.contains("cancelled"), "{results:?}");
    })
    .await
}

interop_test!(
    adk_cancel_during_a_client_tool_then_a_new_turn,
    cancel_during_client_tool(adk(), "/adk", "Hello from ADK!")
);

interop_test!(
    langgraph_cancel_during_a_client_tool_then_a_new_turn,
    cancel_during_client_tool(langgraph(), "/langgraph", "Hello from LangGraph!")
);

// ---- MESSAGES_SNAPSHOT replays history without re-running it ----

async fn snapshot_replay_executes_nothing(server: Server, path: &str) {
    bounded(async {
        let (mut s, rec, _thread) = session(&server.url(path), "snapshot");
        let (tool, count) = counting_tool("get_location", |_| Ok(json!({"lat": 1.5, "lon": 2.5})));
        s.register_tool(tool).unwrap();
        s.run("what is my location?").await.unwrap();
        s.run("hello").await.unwrap();
        s.run("hello again").await.unwrap();
        assert!(
            rec.saw(|u| matches!(u, SessionUpdate::MessagesReset(_))),
            "{}: the server sent a snapshot",
            server.name
        );
        assert_eq!(count.load(Ordering::SeqCst), 1, "{}: history re-ran nothing", server.name);
        let calls = s
            .messages()
            .iter()
            .flat_map(|m| m.tool_calls.iter().flatten())
            .filter(|c| c.function.name == "get_location")
            .count();
        assert!(calls >= 1);
    })
    .await
}

interop_test!(adk_messages_snapshot_replay_executes_nothing, snapshot_replay_executes_nothing(adk(), "/adk-snapshot"));

interop_test!(
    langgraph_messages_snapshot_replay_executes_nothing,
    snapshot_replay_executes_nothing(langgraph(), "/langgraph")
);
