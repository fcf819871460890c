//! The Rust runtime against Google ADK (ag-ui-adk) and LangGraph (ag-ui-langgraph), each with a
//! scripted fake model, driven through the `Conversation` actor the FFI uses: what an app's
//! subscription sees, and what reached the server (its input log).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use agentui_agui::transport::TransportError;
use agentui_interop::*;
use agentui_runtime::session::{
    ClientTool, RunPhase, SessionError, SessionWarningKind, ToolCallPhase, ToolError, ToolInvocation,
};
use agentui_runtime::{Conversation, ConversationDelta, Observed};
use serde_json::{json, Value};
use tokio::time::timeout;

/// An interop test: ignored in a bare `cargo test`, run by `tests/interop/run.sh`.
#[macro_export]
macro_rules! interop_test {
    ($name:ident, $scenario:expr) => {
        #[tokio::test]
        #[ignore = "needs the interop servers: run tests/interop/run.sh"]
        async fn $name() {
            $scenario.await
        }
    };
}

pub(crate) async fn bounded<T>(f: impl std::future::Future<Output = T>) -> T {
    timeout(SCENARIO_BOUND, f).await.expect("the scenario finished in time")
}

/// No input the client sent on `thread` carries a tool message other than `allowed` call ids:
/// nothing fabricated reached the server.
pub(crate) async fn assert_no_fabricated_results(server: &Server, thread: &str, allowed: &[&str]) {
    for input in server.inputs(thread).await {
        for (call_id, content, _) in tool_results(&input) {
            assert!(
                allowed.contains(&call_id.as_str()),
                "{}: unexpected tool message {call_id}: {content}",
                server.name
            );
        }
    }
}

// ---- streamed text ----

pub(crate) async fn streamed_text(server: Server, path: &str, expected: &str) {
    bounded(async {
        let (c, rec, thread) = conversation(&server.url(path), "text");
        let summary = c.send_message("hello".into()).await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        let messages = c.snapshot().unwrap().messages;
        assert_eq!(last_assistant_text(&messages), expected);
        // The model streams three chunks: subscribers get each as its own piece, only the new
        // text, and the message as added plus the pieces is the final text.
        let id = &messages.iter().rev().find(|m| m.role.as_str() == "assistant").unwrap().id;
        let deltas = rec.deltas().await;
        let added: String = deltas
            .iter()
            .filter_map(|d| match d {
                ConversationDelta::MessageAdded(m) if &m.id == id => Some(m.text().unwrap_or_default().to_owned()),
                _ => None,
            })
            .collect();
        let pieces: Vec<&str> = deltas
            .iter()
            .filter_map(|d| match d {
                ConversationDelta::TextAppended { message_id, delta } if message_id == id => Some(delta.as_str()),
                _ => None,
            })
            .collect();
        assert!(pieces.len() >= 3, "{}: the text streamed in pieces ({pieces:?})", server.name);
        assert_eq!(format!("{added}{}", pieces.concat()), expected, "{}: the pieces add up", server.name);
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

pub(crate) async fn server_tool(server: Server, path: &str) {
    bounded(async {
        let (c, rec, thread) = conversation(&server.url(path), "weather");
        let (tool, count) = counting_tool("get_location", |_| Ok(json!({"lat": 1.5})));
        c.register_tool(tool).unwrap();
        let summary = c.send_message("what is the weather?".into()).await.unwrap();
        assert!(summary.tool_calls.is_empty(), "the client answered nothing");
        assert_eq!(count.load(Ordering::SeqCst), 0);
        assert_eq!(rec.phases_of("get_weather").await.last(), Some(&ToolCallPhase::CompletedByServer));
        let text = last_assistant_text(&c.snapshot().unwrap().messages);
        assert!(text.starts_with("Tool get_weather returned:") && text.contains("sunny"), "{text}");
        assert_eq!(server.inputs(&thread).await.len(), 1, "no follow-up run for a server tool");
        assert_no_fabricated_results(&server, &thread, &[]).await;
    })
    .await
}

interop_test!(adk_server_tool, server_tool(adk(), "/adk"));

interop_test!(langgraph_server_tool, server_tool(langgraph(), "/langgraph"));

// ---- a client tool round trip ----

pub(crate) async fn client_tool_round_trip(server: Server, path: &str) {
    bounded(async {
        let (c, rec, thread) = conversation(&server.url(path), "location");
        let (tool, count) = counting_tool("get_location", |_| Ok(json!({"lat": 1.5, "lon": 2.5})));
        c.register_tool(tool).unwrap();
        let summary = c.send_message("what is my location?".into()).await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1, "executed exactly once");
        assert_eq!(summary.tool_calls.len(), 1);
        let call_id = summary.tool_calls[0].tool_call_id.clone();
        assert!(matches!(rec.phases_of("get_location").await.last(), Some(ToolCallPhase::Succeeded { .. })));
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "the result went back in one follow-up run");
        let declared: Vec<&str> =
            inputs[0]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(declared, ["get_location"]);
        assert_eq!(tool_results(&inputs[1]), [(call_id.clone(), r#"{"lat":1.5,"lon":2.5}"#.to_owned(), None)]);
        let text = last_assistant_text(&c.snapshot().unwrap().messages);
        assert_eq!(text, r#"Tool get_location returned: {"lat":1.5,"lon":2.5}"#, "the agent quotes the real result");
        assert_no_fabricated_results(&server, &thread, &[&call_id]).await;
    })
    .await
}

interop_test!(adk_client_tool_round_trip, client_tool_round_trip(adk(), "/adk"));

interop_test!(langgraph_client_tool_round_trip, client_tool_round_trip(langgraph(), "/langgraph"));

// ---- two parallel client calls ----

pub(crate) async fn parallel_client_calls(server: Server, path: &str) {
    bounded(async {
        let (c, _rec, thread) = conversation(&server.url(path), "compare");
        let (tool, count) = counting_tool("get_price", |args| {
            let item = args["item"].as_str().unwrap_or("?").to_owned();
            let price = if item == "apple" { 3 } else { 5 };
            Ok(json!({"item": item, "price": price}))
        });
        c.register_tool(tool).unwrap();
        let summary = c.send_message("compare the prices".into()).await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 2);
        assert_eq!(summary.tool_calls.len(), 2);
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "both results in one follow-up run");
        let results = tool_results(&inputs[1]);
        assert_eq!(results.len(), 2);
        for report in &summary.tool_calls {
            // Paired by id: each call's message carries the answer to its own arguments.
            let (_, content, _) = results.iter().find(|(id, _, _)| *id == report.tool_call_id).expect("paired by id");
            assert_eq!(content, &agentui_runtime::session::result_text(report.outcome.as_ref().unwrap()));
        }
        let text = last_assistant_text(&c.snapshot().unwrap().messages);
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

pub(crate) async fn failing_client_tool(server: Server, path: &str) {
    bounded(async {
        let (c, rec, thread) = conversation(&server.url(path), "fail");
        let (tool, count) = counting_tool("explode", |_| Err(ToolError::new("disk full")));
        c.register_tool(tool).unwrap();
        c.send_message("make it fail".into()).await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert!(matches!(rec.phases_of("explode").await.last(), Some(ToolCallPhase::Failed { .. })));
        let inputs = server.inputs(&thread).await;
        let results = tool_results(&inputs[1]);
        assert_eq!(results.len(), 1);
        assert!(results[0].1.contains("disk full"), "{results:?}");
        assert!(results[0].2.as_deref().is_some_and(|e| e.contains("disk full")), "the error field: {results:?}");
        let text = last_assistant_text(&c.snapshot().unwrap().messages);
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
        let (c, rec, thread) = conversation(&server.url("/adk"), "hitl-undeclared");
        let summary = c.send_message("delete the report".into()).await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(rec.phases_of("delete_file").await.last(), Some(&ToolCallPhase::OwnedByServer));
        assert_eq!(rec.phases_of("adk_request_confirmation").await.last(), Some(&ToolCallPhase::OwnedByServer));
        assert_eq!(server.inputs(&thread).await.len(), 1, "no follow-up run");
        assert!(!rec.saw(|d| matches!(d, ConversationDelta::RunPhase(RunPhase::AgentError { .. }))).await);
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
        let (c, rec, thread) = conversation(&server.url("/adk"), "hitl-default");
        let (tool, count) = counting_tool("adk_request_confirmation", |_| Ok(json!({"confirmed": true})));
        c.register_tool(tool).unwrap();
        let summary = c.send_message("delete the report".into()).await.unwrap();

        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert_eq!(summary.tool_calls.len(), 1);
        let confirmation_id = summary.tool_calls[0].tool_call_id.clone();
        assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), "Deleted /tmp/report.txt");
        assert_eq!(rec.phases_of("delete_file").await.last(), Some(&ToolCallPhase::CompletedByServer));
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2);
        assert_eq!(tool_results(&inputs[1]), [(confirmation_id.clone(), r#"{"confirmed":true}"#.to_owned(), None)]);
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
            let (c, rec, thread) = conversation(&server.url("/adk-outcome"), "hitl-outcome");
            let summary = c.send_message("delete the report".into()).await.unwrap();
            let RunPhase::Interrupted { interrupts, .. } = &summary.phase else {
                panic!("interrupted expected, got {:?}", summary.phase)
            };
            assert_eq!(interrupts.len(), 1);
            let interrupt = interrupts[0].clone();
            assert_eq!(interrupt.reason, "confirmation");
            assert_eq!(
                rec.phases_of("adk_request_confirmation").await.last(),
                Some(&ToolCallPhase::AwaitingInterrupt { interrupt_id: interrupt.id.clone() })
            );
            c.resolve_interrupt(&interrupt.id, Some(json!({"confirmed": approve}))).unwrap();
            let resumed = c.continue_run().await.unwrap();
            assert!(matches!(resumed.phase, RunPhase::Finished { .. }), "{:?}", resumed.phase);
            assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), expected);
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
        let (c, rec, thread) = conversation(&server.url(path), "lg-interrupt");
        let summary = c.send_message("delete the report".into()).await.unwrap();
        let RunPhase::Interrupted { interrupts, .. } = &summary.phase else {
            panic!("{path}: interrupted expected, got {:?}", summary.phase)
        };
        assert_eq!(interrupts.len(), 1, "{path}: one interrupt, whatever the channels: {interrupts:?}");
        let interrupt = interrupts[0].clone();
        assert_eq!(interrupt.message.as_deref(), Some("Approve deleting /tmp/report.txt?"));
        assert!(rec.saw(|d| matches!(d, ConversationDelta::Custom { name, .. } if name == "on_interrupt")).await);
        assert_eq!(rec.phases_of("delete_file").await.first(), Some(&ToolCallPhase::Streaming));
        assert!(!rec.phases_of("delete_file").await.iter().any(|p| matches!(p, ToolCallPhase::Failed { .. })));

        c.resolve_interrupt(&interrupt.id, Some(json!(approve))).unwrap();
        let resumed = c.continue_run().await.unwrap();
        assert!(matches!(resumed.phase, RunPhase::Finished { .. }), "{path}: {:?}", resumed.phase);
        let expected = if approve { "Deleted /tmp/report.txt" } else { "Not deleted" };
        assert!(
            last_assistant_text(&c.snapshot().unwrap().messages).contains(expected),
            "{path}: {:?}",
            last_assistant_text(&c.snapshot().unwrap().messages)
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
    let (c, _rec, thread) = conversation(&server.url(path), "lg-channel");
    bounded(async {
        let summary = c.send_message("delete the report".into()).await.unwrap();
        c.resolve_interrupt(&summary.pending_interrupts[0].id, Some(json!(true))).unwrap();
        c.continue_run().await.unwrap();
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

/// The counter after each state change a subscriber saw (from its snapshot on, replaying the
/// published patches and replacements).
pub(crate) async fn observed_counters(rec: &Recorder) -> Vec<Value> {
    rec.states().await.into_iter().filter_map(|state| state.get("counter").cloned()).filter(|c| !c.is_null()).collect()
}

/// ADK: the counter arrives as STATE_DELTA patches on the state the client holds, then a
/// snapshot; the app's initial state reached the server.
#[tokio::test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
async fn adk_state_snapshot_and_delta() {
    let server = adk();
    bounded(async {
        let (c, rec, thread) =
            conversation_with(&server.url("/adk"), "state", |s| s.set_state(json!({"theme": "dark"})));
        let summary = c.send_message("increment the state".into()).await.unwrap();
        let counters = observed_counters(&rec).await;
        assert_eq!(counters.first(), Some(&json!(1)), "{counters:?}");
        assert_eq!(counters.last(), Some(&json!(2)), "{counters:?}");
        assert_eq!(c.snapshot().unwrap().state["counter"], 2);
        assert!(rec.saw(|d| matches!(d, ConversationDelta::StatePatched(_))).await, "patches, as ADK sent them");
        // Every delta applied: the run ended in sync and no subscriber was told to resync.
        assert!(!summary.needs_resync, "every delta applied");
        assert!(!rec.saw(|d| matches!(d, ConversationDelta::StateResyncNeeded { .. })).await);
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
        let (c, rec, thread) =
            conversation_with(&server.url("/langgraph"), "state", |s| s.set_state(json!({"theme": "dark"})));
        c.send_message("increment the state".into()).await.unwrap();
        assert_eq!(observed_counters(&rec).await.last(), Some(&json!(2)));
        assert_eq!(c.snapshot().unwrap().state["counter"], 2);
        assert_eq!(server.inputs(&thread).await[0]["state"]["theme"], "dark");
    })
    .await
}

/// The next turn finishes with the agent's `hello`, and its input leaves out the message
/// `partial` that was cut short: never sent back as if complete.
async fn next_turn_leaves_out(c: &Conversation, server: &Server, thread: &str, partial: &str, hello: &str) {
    let summary = c.send_message("hello".into()).await.unwrap();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }));
    assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), hello);
    let inputs = server.inputs(thread).await;
    let sent = inputs.last().unwrap()["messages"].as_array().unwrap().clone();
    assert!(sent.iter().all(|m| m["id"] != partial), "the cut-short message is not sent as complete");
}

// ---- the network drops mid-answer; the servers send no SSE ids ----

/// ADK and LangGraph number no events, so a dropped stream cannot be resumed: the run ends as
/// failed with the broken connection's own error, the partial answer is kept on the device and
/// never sent back as complete, and the next turn works.
async fn dropped_mid_answer(server: Server, path: &str, hello: &str) {
    bounded(async {
        // Cut at the third chunk, 200 ms after the first: what was already read is on screen.
        let proxy = DroppingProxy::start(&server, "chunk 03").await;
        let (c, rec, thread) = conversation(&proxy.url(path), "dropped");
        let err = c.send_message("tell me something slow".into()).await.unwrap_err();
        assert!(proxy.dropped(), "the proxy cut the answer");
        match &err {
            SessionError::Transport(
                TransportError::ResumeRefused { .. }
                | TransportError::ResumeExhausted { .. }
                | TransportError::ResumeMismatch { .. },
            ) => panic!("a stream without ids is not resumed: {err:?}"),
            SessionError::Transport(_) => {}
            other => panic!("expected the transport's error, got {other:?}"),
        }
        assert!(matches!(c.snapshot().unwrap().phase, RunPhase::Failed { .. }), "{:?}", c.snapshot().unwrap().phase);
        let deltas = rec.deltas().await;
        let warned = |kind: SessionWarningKind| {
            deltas.iter().filter_map(move |d| match d {
                ConversationDelta::Warning(w) if w.kind == kind => Some(w.message.clone()),
                _ => None,
            })
        };
        assert_eq!(warned(SessionWarningKind::StreamResumed).count(), 0, "nothing was resumed");
        let kept: Vec<String> = warned(SessionWarningKind::KeptLocal).collect();
        let snapshot = c.snapshot().unwrap();
        let partial = snapshot
            .messages
            .iter()
            .find(|m| kept.iter().any(|w| w.contains(&format!("'{}'", m.id))))
            .unwrap_or_else(|| panic!("the cut-short answer is marked: {kept:?}"));
        // What arrived before the cut, and not the end: the connection's reset may lose what was
        // still in flight, so the partial text ends at chunk 01, 02 or 03.
        assert!(partial.text().is_some_and(|t| t.starts_with("chunk 01") && !t.contains("chunk 40")), "{partial:?}");
        assert!(snapshot.kept_local.iter().any(|k| k.message_id == partial.id));
        let partial = partial.id.clone();
        next_turn_leaves_out(&c, &server, &thread, &partial, hello).await;
    })
    .await
}

interop_test!(adk_dropped_mid_answer_ends_cleanly, dropped_mid_answer(adk(), "/adk", "Hello from ADK!"));

interop_test!(
    langgraph_dropped_mid_answer_ends_cleanly,
    dropped_mid_answer(langgraph(), "/langgraph", "Hello from LangGraph!")
);

// ---- cancel, then a new turn ----

async fn cancel_during_text(server: Server, path: &str, hello: &str) {
    bounded(async {
        let (c, rec, thread) = conversation(&server.url(path), "cancel-text");
        // The user stops once the second chunk is on screen: the text as a subscriber builds it.
        let mut texts: HashMap<String, String> = HashMap::new();
        cancel_when(&c, move |item| {
            match item {
                Observed::Snapshot(snapshot) => {
                    texts =
                        snapshot.messages.iter().map(|m| (m.id.clone(), m.text().unwrap_or_default().into())).collect();
                }
                Observed::Delta(ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m)) => {
                    texts.insert(m.id.clone(), m.text().unwrap_or_default().into());
                }
                Observed::Delta(ConversationDelta::TextAppended { message_id, delta }) => {
                    texts.entry(message_id.clone()).or_default().push_str(delta);
                }
                Observed::Delta(_) => {}
            }
            texts.values().any(|t| t.contains("chunk 02"))
        });
        let err = c.send_message("tell me something slow".into()).await.unwrap_err();
        assert!(matches!(err, SessionError::Cancelled), "{err:?}");
        // The cut-short text is marked: a KeptLocal warning names it (the runtime warns so only
        // for a message cut short by a cancel).
        let messages = c.snapshot().unwrap().messages;
        let warnings: Vec<String> = rec
            .deltas()
            .await
            .into_iter()
            .filter_map(|d| match d {
                ConversationDelta::Warning(w) if w.kind == SessionWarningKind::KeptLocal => Some(w.message),
                _ => None,
            })
            .collect();
        let partial = messages
            .iter()
            .find(|m| warnings.iter().any(|w| w.contains(&format!("'{}'", m.id))))
            .unwrap_or_else(|| panic!("the cut-short text is marked: {warnings:?}"));
        assert!(partial.text().is_some_and(|t| t.contains("chunk 02")), "{partial:?}");
        let partial = partial.id.clone();
        next_turn_leaves_out(&c, &server, &thread, &partial, hello).await;
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
        let (c, rec, thread) = conversation(&server.url(path), "cancel-tool");
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
        c.register_tool(slow).unwrap();
        // The user stops while the handler runs.
        cancel_when(
            &c,
            |item| matches!(item, Observed::Delta(ConversationDelta::ToolCall(t)) if t.phase == ToolCallPhase::Running),
        );
        let err = c.send_message("what is my location?".into()).await.unwrap_err();
        assert!(matches!(err, SessionError::Cancelled), "{err:?}");
        assert_eq!(started.load(Ordering::SeqCst), 1, "the handler started once");
        assert!(matches!(rec.phases_of("get_location").await.last(), Some(ToolCallPhase::Failed { .. })));

        let summary = c.send_message("hello".into()).await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), hello);
        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "no follow-up after the cancel; one new turn");
        let results = tool_results(&inputs[1]);
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

pub(crate) async fn snapshot_replay_executes_nothing(server: Server, path: &str) {
    bounded(async {
        let (c, rec, _thread) = conversation(&server.url(path), "snapshot");
        let (tool, count) = counting_tool("get_location", |_| Ok(json!({"lat": 1.5, "lon": 2.5})));
        c.register_tool(tool).unwrap();
        c.send_message("what is my location?".into()).await.unwrap();
        c.send_message("hello".into()).await.unwrap();
        c.send_message("hello again".into()).await.unwrap();
        assert!(
            rec.saw(|d| matches!(d, ConversationDelta::MessagesReset(_))).await,
            "{}: the server sent a snapshot",
            server.name
        );
        assert_eq!(count.load(Ordering::SeqCst), 1, "{}: history re-ran nothing", server.name);
        let calls = c
            .snapshot()
            .unwrap()
            .messages
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

// ---- attachments ----

/// FNV-1a 64, as the fake models compute it (interop_common.fnv1a64).
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// An image and a PDF sent as inline media parts reach the scripted model as the bytes the app
/// attached: the model answers with the MIME type, length and hash of each part it was given.
/// `expected_kinds` are the block kinds the adapter hands the model, in order.
pub(crate) async fn attachments_arrive_intact(server: Server, path: &str, expected_kinds: [&str; 2]) {
    use agentui_runtime::attachment::Attachment;
    bounded(async {
        let (c, _rec, thread) = conversation(&server.url(path), "attach");
        let image: Vec<u8> = (0..200_003u32).map(|i| (i * 31 % 256) as u8).collect();
        let pdf: Vec<u8> = b"%PDF-1.4\n".iter().copied().chain((0..5_000u32).map(|i| (i % 251) as u8)).collect();
        let summary = c
            .send(
                "media: what did you get?".into(),
                vec![
                    Attachment::bytes("photo.png", "image/png", image.clone()),
                    Attachment::bytes("doc.pdf", "application/pdf", pdf.clone()),
                ],
            )
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", server.name));
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{}: {:?}", server.name, summary.phase);
        let answer = last_assistant_text(&c.snapshot().unwrap().messages);
        let expected = format!(
            "media {} image/png bytes={} fnv={:016x}\nmedia {} application/pdf bytes={} fnv={:016x}",
            expected_kinds[0],
            image.len(),
            fnv1a64(&image),
            expected_kinds[1],
            pdf.len(),
            fnv1a64(&pdf)
        );
        assert_eq!(answer, expected, "{}: what the model received", server.name);
        // What went on the wire: the 1.x media parts, the name in metadata.filename.
        let input = server.inputs(&thread).await.pop().unwrap();
        let user = input["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").unwrap().clone();
        assert_eq!(user["content"][1]["type"], "image");
        assert_eq!(user["content"][1]["metadata"]["filename"], "photo.png");
        assert_eq!(user["content"][2]["type"], "document");
    })
    .await
}

interop_test!(adk_attachments_arrive_intact, attachments_arrive_intact(adk(), "/adk", ["inline", "inline"]));

interop_test!(
    langgraph_attachments_arrive_intact,
    attachments_arrive_intact(langgraph(), "/langgraph", ["image_url", "file"])
);

/// A 2 MB photo, larger than one event may be (`max_message_bytes`, 1 MiB): ag-ui-langgraph
/// echoes the conversation in a MESSAGES_SNAPSHOT, the photo inside it. The client allows an
/// event that much larger than the budget (the user's own inline media, never more), so the
/// run completes and the model saw the bytes intact.
pub(crate) async fn a_large_attachment(server: Server, path: &str) {
    use agentui_runtime::attachment::Attachment;
    bounded(async {
        let (c, _rec, _thread) = conversation(&server.url(path), "attach-large");
        let image: Vec<u8> = (0..2_000_000u32).map(|i| (i * 31 % 256) as u8).collect();
        let summary = c
            .send("media".into(), vec![Attachment::bytes("big.png", "image/png", image.clone())])
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", server.name));
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{}: {:?}", server.name, summary.phase);
        let answer = last_assistant_text(&c.snapshot().unwrap().messages);
        let expected = format!("image/png bytes={} fnv={:016x}", image.len(), fnv1a64(&image));
        assert!(answer.contains(&expected), "{}: {answer}", server.name);
    })
    .await
}

interop_test!(adk_large_attachment, a_large_attachment(adk(), "/adk"));

interop_test!(langgraph_large_attachment, a_large_attachment(langgraph(), "/langgraph"));

// ---- tool approval through the AG-UI interrupt outcome ----

/// How an adapter asks for approval and reads the answer.
pub(crate) struct Approval {
    /// The interrupt's message.
    pub message: &'static str,
    /// The resume payload for approve (true) or reject (false).
    pub answer: fn(bool) -> Value,
    /// The agent's last text after approve, then after reject.
    pub outcomes: [&'static str; 2],
    /// Calls of the adapter's own that the app does not declare: left to the server.
    pub left_to_the_server: &'static [&'static str],
}

/// A server tool that needs approval ends the run with an AG-UI interrupt naming the call; the
/// answer goes back in `RunAgentInput.resume` (nowhere else), and the tool runs or not.
pub(crate) async fn approval_through_the_outcome(server: Server, path: &str, approval: Approval) {
    for (approve, expected) in [(true, approval.outcomes[0]), (false, approval.outcomes[1])] {
        bounded(async {
            let (c, rec, thread) = conversation(&server.url(path), "approval");
            let summary = c.send_message("delete the report".into()).await.unwrap();
            let RunPhase::Interrupted { interrupts, .. } = &summary.phase else {
                panic!("{}: interrupted expected, got {:?}", server.name, summary.phase)
            };
            assert_eq!(interrupts.len(), 1, "{interrupts:?}");
            let interrupt = interrupts[0].clone();
            assert_eq!(interrupt.message.as_deref(), Some(approval.message));
            for name in approval.left_to_the_server {
                assert_eq!(rec.phases_of(name).await.last(), Some(&ToolCallPhase::OwnedByServer), "{name}");
            }
            c.resolve_interrupt(&interrupt.id, Some((approval.answer)(approve))).unwrap();
            let resumed = c.continue_run().await.unwrap();
            assert!(matches!(resumed.phase, RunPhase::Finished { .. }), "{:?}", resumed.phase);
            let text = last_assistant_text(&c.snapshot().unwrap().messages);
            assert_eq!(text, expected, "{}: approve={approve}", server.name);
            let inputs = server.inputs(&thread).await;
            assert_eq!(inputs.len(), 2);
            assert_eq!(inputs[1]["resume"][0]["interruptId"], interrupt.id.as_str());
            assert_eq!(inputs[1]["resume"][0]["payload"], (approval.answer)(approve));
            assert_no_fabricated_results(&server, &thread, &[]).await;
        })
        .await
    }
}

// ---- the user's attachment on the next turn ----

/// The photo the user attached on the first turn is in the history the client sends on the
/// second, and the model (which describes every user message's media) still has it.
/// `kind` is the block kind the adapter hands the model.
pub(crate) async fn attachment_on_the_second_turn(server: Server, path: &str, kind: &str) {
    use agentui_runtime::attachment::Attachment;
    bounded(async {
        let (c, _rec, thread) = conversation(&server.url(path), "attach-twice");
        let image: Vec<u8> = (0..20_011u32).map(|i| (i * 7 % 256) as u8).collect();
        let described = format!("media {kind} image/png bytes={} fnv={:016x}", image.len(), fnv1a64(&image));
        c.send("media: what did you get?".into(), vec![Attachment::bytes("photo.png", "image/png", image)])
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", server.name));
        assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), described, "{}", server.name);
        let summary = c.send_message("media: is my photo still there?".into()).await.unwrap();
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
        assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), described, "{}: turn two", server.name);
        let second = server.inputs(&thread).await.pop().unwrap();
        let first_user =
            &second["messages"].as_array().unwrap().iter().find(|m| m["role"] == "user").unwrap()["content"];
        assert_eq!(first_user[1]["type"], "image", "sent again as the 1.x part: {first_user}");
        assert_eq!(first_user[1]["metadata"]["filename"], "photo.png");
    })
    .await
}

// ---- a second turn from the store ----

/// A conversation opened on a store file and closed (the app's process ends), then opened again
/// on the same file: the history comes back from the store alone, and the second message's
/// request carries it to the agent, the first question and its answer before the new one.
/// `answer` is the scripted model's reply to "hello".
pub(crate) async fn second_turn_from_the_store(server: Server, path: &str, answer: &str) {
    use agentui_runtime::session::{ConversationSession, SessionOptions};
    use agentui_runtime::ConversationStore;
    let file = agentui_test_server::TempDbFile::new(&format!("interop-store-{}", server.name));
    let thread = unique_thread("store");
    let url = server.url(path);
    let open = |store: &ConversationStore| {
        let options = SessionOptions { thread_id: Some(thread.clone()), ..SessionOptions::default() };
        let session = ConversationSession::connect(&url, &[], options).expect("session");
        Conversation::open(session, store, &url, tokio::runtime::Handle::current()).expect("open on the store")
    };
    bounded(async {
        {
            let store = ConversationStore::open(file.path()).unwrap();
            let c = open(&store);
            c.send_message("hello".into()).await.unwrap_or_else(|e| panic!("{}: {e}", server.name));
            assert_eq!(last_assistant_text(&c.snapshot().unwrap().messages), answer, "{}", server.name);
            store.flush();
        }
        let store = ConversationStore::open(file.path()).unwrap();
        let c = open(&store);
        let restored = c.snapshot().unwrap().messages;
        assert_eq!(last_assistant_text(&restored), answer, "{}: restored from the store", server.name);
        let summary = c.send_message("hello again".into()).await.unwrap_or_else(|e| panic!("{}: {e}", server.name));
        assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{}: {:?}", server.name, summary.phase);

        let inputs = server.inputs(&thread).await;
        assert_eq!(inputs.len(), 2, "{}: one request per turn", server.name);
        let history: Vec<(String, String)> = inputs[1]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "user" || m["role"] == "assistant")
            .map(|m| (m["role"].as_str().unwrap_or_default().to_owned(), content_text(&m["content"])))
            .filter(|(_, text)| !text.is_empty())
            .collect();
        let expected = [("user", "hello"), ("assistant", answer), ("user", "hello again")]
            .map(|(role, text)| (role.to_owned(), text.to_owned()));
        assert_eq!(history, expected, "{}: the second request's history", server.name);
    })
    .await
}

/// A message's text as sent: a string, or the text parts of a part list joined.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
        _ => String::new(),
    }
}

interop_test!(adk_second_turn_from_the_store, second_turn_from_the_store(adk(), "/adk", "Hello from ADK!"));

interop_test!(
    langgraph_second_turn_from_the_store,
    second_turn_from_the_store(langgraph(), "/langgraph", "Hello from LangGraph!")
);
