//! The exported conversation API against the demo agent, called from Rust as the bindings
//! would call it.

use crate::common;

use std::time::Duration;

use agentui_ffi::{
    Consent, ConsentAnswer, ConversationError, ConversationOptions, Header, KeptLocal, LocalOnly, MessageContent, Role,
    RunPhase, Runtime, RuntimeStartError, ToolCallPhase, ToolFailure, ToolHandlerError,
};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_message_streams_updates_and_returns_a_summary() {
    let f = fixture();
    let view = f.conversation.subscribe_view();
    let mut shown = Shown::default();

    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("hello there".into())).await.unwrap().unwrap();

    assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    assert_eq!(summary.thread_id, f.conversation.thread_id());
    assert_eq!(summary.run_ids.len(), 1);
    let messages = messages(&f.conversation);
    assert_eq!(messages[0].role, Role::User);
    assert_eq!(messages[0].content, Some(MessageContent::Text("hello there".into())));
    assert!(!last_assistant_text(&f.conversation).is_empty());
    assert!(matches!(phase(&f.conversation), RunPhase::Finished { .. }));

    // The call returned after the end was published: the view shows it once its barrier is
    // settled, after a first batch with the whole state.
    shown.settle(&view).await;
    assert!(shown.batches[0].reset, "{:?}", shown.batches[0]);
    let texts: Vec<(Role, String)> = shown.items.iter().map(|i| (i.role, i.text.clone())).collect();
    let expected: Vec<(Role, String)> =
        messages.iter().map(|m| (m.role, m.text().unwrap_or_default().to_owned())).collect();
    assert_eq!(texts, expected);
    assert!(matches!(shown.phase, RunPhase::Finished { .. }), "{:?}", shown.phase);
    assert_eq!(shown.pending, 0, "the message was delivered");
    f.agent.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_client_tool_runs_and_its_result_reaches_the_agent() {
    let f = fixture();
    let tool = FixedTool::new(Ok("Paris, France".into()));
    f.conversation
        .register_tool("get_location".into(), "Where the user is".into(), LOCATION_SCHEMA.into(), tool.clone(), None)
        .unwrap();
    let view = f.conversation.subscribe_view();
    let mut shown = Shown::default();

    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("what is my location?".into())).await.unwrap().unwrap();

    let calls = tool.calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1, "exactly once per call id");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&calls[0].1).unwrap(),
        serde_json::json!({"precision": "city"})
    );
    assert_eq!(summary.tool_calls.len(), 1);
    assert_eq!(summary.tool_calls[0].tool_call_id, calls[0].0);
    assert_eq!(summary.tool_calls[0].outcome, Ok(serde_json::json!("Paris, France")));
    assert_eq!(summary.run_ids.len(), 2, "the follow-up run delivered the result");
    assert!(last_assistant_text(&f.conversation).contains("Paris, France"), "{}", last_assistant_text(&f.conversation));
    // The view lists the call with its last phase, and it is the call the summary reports.
    shown.settle(&view).await;
    let call = shown.tool_calls.iter().find(|c| c.tool_name == "get_location").expect("the call is listed");
    assert_eq!(call.tool_call_id, calls[0].0);
    assert!(matches!(call.phase, ToolCallPhase::Succeeded { .. }), "{:?}", call.phase);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_registered_with_ask_runs_only_after_the_user_allowed_it() {
    let f = fixture();
    let tool = FixedTool::new(Ok("Paris, France".into()));
    f.conversation
        .register_tool("get_location".into(), "".into(), LOCATION_SCHEMA.into(), tool.clone(), Some(Consent::Ask))
        .unwrap();
    let view = f.conversation.subscribe_view();
    let mut shown = Shown::default();

    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("what is my location?".into())).await.unwrap().unwrap();
    assert!(tool.calls.lock().unwrap().is_empty(), "nothing runs before the answer");
    assert_eq!(summary.run_ids.len(), 1);
    shown.settle(&view).await;
    assert_eq!(shown.consent_requests.len(), 1, "the view shows the request");
    let request = shown.consent_requests[0].clone();
    assert_eq!(request.tool_name, "get_location");
    assert_eq!(request.arguments, serde_json::json!({"precision": "city"}));

    let follow_up = tokio::time::timeout(
        LIMIT,
        f.conversation.answer_consent(request.tool_call_id.clone(), ConsentAnswer::AllowOnce),
    )
    .await
    .unwrap()
    .unwrap()
    .expect("the follow-up run");
    assert_eq!(tool.calls.lock().unwrap().len(), 1);
    assert_eq!(follow_up.tool_calls[0].outcome, Ok(serde_json::json!("Paris, France")));
    assert!(last_assistant_text(&f.conversation).contains("Paris, France"));
    shown.settle(&view).await;
    assert!(shown.consent_requests.is_empty(), "answered, the request is gone from the view");

    let again = f.conversation.answer_consent(request.tool_call_id.clone(), ConsentAnswer::Decline).await;
    assert_eq!(again, Err(ConversationError::UnknownConsentRequest { tool_call_id: request.tool_call_id }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_tool_reports_its_failure_to_the_agent() {
    let f = fixture();
    let tool = FixedTool::new(Err(ToolHandlerError::Failed { detail: "location permission denied".into() }));
    f.conversation.register_tool("get_location".into(), "".into(), LOCATION_SCHEMA.into(), tool, None).unwrap();
    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("location please".into())).await.unwrap().unwrap();
    match &summary.tool_calls[0].outcome {
        Err(failure @ ToolFailure::Failed { .. }) => {
            assert!(failure.to_string().contains("location permission denied"), "{failure}")
        }
        other => panic!("expected a handler failure, got {other:?}"),
    }
    assert!(
        last_assistant_text(&f.conversation).contains("location permission denied"),
        "{}",
        last_assistant_text(&f.conversation)
    );

    // An unexpected foreign exception reaches the agent as a generic failure.
    let g = fixture();
    let tool =
        FixedTool::new(Err(ToolHandlerError::Unexpected { detail: "NullPointerException at Secret.kt:12".into() }));
    g.conversation.register_tool("get_location".into(), "".into(), LOCATION_SCHEMA.into(), tool, None).unwrap();
    let summary =
        tokio::time::timeout(LIMIT, g.conversation.send_message("location please".into())).await.unwrap().unwrap();
    match &summary.tool_calls[0].outcome {
        Err(failure) => {
            let detail = failure.to_string();
            assert!(!detail.contains("Secret.kt"), "{detail}");
            assert!(detail.contains("unexpectedly"), "{detail}");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_registration_errors_are_typed() {
    let f = fixture();
    let tool = FixedTool::new(Ok(String::new()));
    let bad_json = f.conversation.register_tool("t".into(), "".into(), "{not json".into(), tool.clone(), None);
    assert!(matches!(bad_json, Err(ConversationError::InvalidJson { .. })), "{bad_json:?}");
    let bad_schema = f.conversation.register_tool("t".into(), "".into(), "[1]".into(), tool.clone(), None);
    assert!(matches!(bad_schema, Err(ConversationError::InvalidTool { .. })), "{bad_schema:?}");
    f.conversation.register_tool("t".into(), "".into(), "{}".into(), tool.clone(), None).unwrap();
    let duplicate = f.conversation.register_tool("t".into(), "".into(), "{}".into(), tool, None);
    assert_eq!(duplicate, Err(ConversationError::DuplicateTool { name: "t".into() }));
    assert!(f.conversation.unregister_tool("t".into()));
    assert!(!f.conversation.unregister_tool("t".into()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_stops_the_run_in_flight_without_waiting() {
    let f = fixture();
    let conversation = f.conversation.clone();
    let run = tokio::spawn(async move { conversation.send_message("go slow please".into()).await });
    wait_until("the answer to stream", || !last_assistant_text(&f.conversation).is_empty()).await;

    // Mutators apply at once during a run (the tool is for the next request); reads answer at once.
    let tool = FixedTool::new(Ok(String::new()));
    f.conversation.register_tool("t".into(), "".into(), "{}".into(), tool, None).unwrap();
    assert!(!messages(&f.conversation).is_empty());

    // That cancel() never waits for the run is proven on the runtime's paused clock
    // (`conversation_actor.rs`), where waiting would deadlock; here it only has to stop the run.
    f.conversation.cancel();
    let result = tokio::time::timeout(LIMIT, run).await.unwrap().unwrap();
    assert_eq!(result.unwrap_err(), ConversationError::Cancelled);
    assert_eq!(phase(&f.conversation), RunPhase::Cancelled);
    // The answer cut short is marked in the snapshot, for a UI to show as incomplete.
    let cut = messages(&f.conversation).into_iter().rev().find(|m| m.role == Role::Assistant).unwrap();
    let kept = vec![KeptLocal { message_id: cut.id, reason: LocalOnly::Cancelled }];
    assert_eq!(f.conversation.snapshot().unwrap().kept_local, kept);

    // The conversation goes on afterwards.
    let summary = tokio::time::timeout(LIMIT, f.conversation.send_message("hello".into())).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_withdraws_queued_runs_too() {
    let f = fixture();
    let first = {
        let c = f.conversation.clone();
        tokio::spawn(async move { c.send_message("slow one".into()).await })
    };
    wait_until("the first run to stream", || matches!(phase(&f.conversation), RunPhase::Running { .. })).await;
    // Polled once, so it is queued behind the first run before the cancel.
    let mut second = Box::pin(f.conversation.send_message("hello".into()));
    assert!(tokio::time::timeout(Duration::from_millis(20), &mut second).await.is_err(), "still queued");
    f.conversation.cancel();
    assert_eq!(tokio::time::timeout(LIMIT, first).await.unwrap().unwrap().unwrap_err(), ConversationError::Cancelled);
    assert_eq!(tokio::time::timeout(LIMIT, second).await.unwrap().unwrap_err(), ConversationError::Cancelled);
    let users = messages(&f.conversation).iter().filter(|m| m.role == Role::User).count();
    assert_eq!(users, 1, "the withdrawn run never sent its message");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_call_cancels_its_run() {
    let f = fixture();
    // As a cancelled Kotlin coroutine does: the future is dropped before it completes.
    let abandoned = tokio::time::timeout(Duration::from_millis(300), f.conversation.send_message("slow".into())).await;
    assert!(abandoned.is_err(), "the slow run outlives the timeout");
    wait_until("the abandoned run to stop", || phase(&f.conversation) == RunPhase::Cancelled).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupts_are_answered_and_continued() {
    let f = fixture();
    let summary =
        tokio::time::timeout(LIMIT, f.conversation.send_message("delete the report".into())).await.unwrap().unwrap();
    assert!(matches!(summary.phase, RunPhase::Interrupted { .. }), "{:?}", summary.phase);
    let pending = f.conversation.snapshot().unwrap().pending_interrupts;
    assert_eq!(pending.len(), 1);
    assert_eq!(summary.pending_interrupts, pending);
    let id = pending[0].id.clone();
    let schema = serde_json::Value::Object(pending[0].response_schema.clone().unwrap());
    assert!(schema.to_string().contains("approved"), "{schema}");
    assert!(pending[0].metadata.is_some());

    let unknown = f.conversation.resolve_interrupt("nope".into(), None);
    assert_eq!(unknown, Err(ConversationError::UnknownInterrupt { id: "nope".into() }));
    let not_json = f.conversation.resolve_interrupt(id.clone(), Some("{".into()));
    assert!(matches!(not_json, Err(ConversationError::InvalidJson { .. })), "{not_json:?}");
    let wrong = f.conversation.resolve_interrupt(id.clone(), Some(r#"{"approved": "yes"}"#.into()));
    assert!(matches!(wrong, Err(ConversationError::InvalidInterruptPayload { .. })), "{wrong:?}");

    f.conversation.resolve_interrupt(id, Some(r#"{"approved": true}"#.into())).unwrap();
    tokio::time::timeout(LIMIT, f.conversation.continue_run()).await.unwrap().unwrap();
    assert_eq!(last_assistant_text(&f.conversation), "Deleted report.pdf.");
    assert!(f.conversation.snapshot().unwrap().pending_interrupts.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_surface_as_typed_errors() {
    let f = fixture();
    let agent_error = tokio::time::timeout(LIMIT, f.conversation.send_message("please fail".into())).await.unwrap();
    assert!(matches!(agent_error, Err(ConversationError::Agent { .. })), "{agent_error:?}");
    assert!(matches!(phase(&f.conversation), RunPhase::AgentError { .. }));

    let runtime = Runtime::new().unwrap();
    let invalid = runtime.connect("not a url".into(), Vec::new(), ConversationOptions::default());
    assert!(matches!(invalid, Err(ConversationError::InvalidUrl { .. })), "{invalid:?}");
    let header = runtime.connect(
        f.agent.agent_url(),
        vec![Header { name: "bad header".into(), value: "secret-token".into() }],
        ConversationOptions::default(),
    );
    match header {
        Err(e @ ConversationError::InvalidHeader { .. }) => assert!(!e.to_string().contains("secret-token")),
        other => panic!("expected InvalidHeader, got {other:?}"),
    }
    let zero = runtime.connect(
        f.agent.agent_url(),
        Vec::new(),
        ConversationOptions { idle_timeout_ms: 0, ..Default::default() },
    );
    assert!(matches!(zero, Err(ConversationError::InvalidOptions { .. })), "{zero:?}");
    let props = runtime.connect(
        f.agent.agent_url(),
        Vec::new(),
        ConversationOptions { forwarded_props_json: Some("{".into()), ..Default::default() },
    );
    assert!(matches!(props, Err(ConversationError::InvalidJson { .. })), "{props:?}");

    // Nothing listens on the stopped agent's port any more.
    let url = f.agent.agent_url();
    f.agent.stop().unwrap();
    let offline = runtime.connect(url, Vec::new(), ConversationOptions::default()).unwrap();
    let network = tokio::time::timeout(LIMIT, offline.send_message("hello".into())).await.unwrap();
    assert!(matches!(network, Err(ConversationError::Network { .. })), "{network:?}");

    assert!(matches!(Runtime::with_worker_threads(0), Err(RuntimeStartError::Failed { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsubscribed_view_ends_after_what_was_queued() {
    let f = fixture();
    let view = f.conversation.subscribe_view();
    tokio::time::timeout(LIMIT, f.conversation.send_message("hello".into())).await.unwrap().unwrap();
    view.unsubscribe();
    let mut read = Vec::new();
    while let Some(batch) = tokio::time::timeout(LIMIT, view.next_batch()).await.unwrap().unwrap() {
        read.push(batch);
    }
    assert!(read.first().is_some_and(|b| b.reset), "what was queued is still read: {read:?}");
    // Later changes reach no one, and reading again ends at once.
    tokio::time::timeout(LIMIT, f.conversation.send_message("once more".into())).await.unwrap().unwrap();
    assert_eq!(tokio::time::timeout(LIMIT, view.next_batch()).await.unwrap().unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_armed_view_fault_is_an_internal_error_once() {
    // The probe the Kotlin and Swift tests use to reach their pump's handling of an internal error.
    let f = fixture();
    let view = f.conversation.subscribe_view();
    agentui_ffi::demo::fail_next_view_batch_for_tests(f.conversation.thread_id());
    let failed = tokio::time::timeout(LIMIT, view.next_batch()).await.unwrap();
    assert!(matches!(failed, Err(ConversationError::Internal { .. })), "{failed:?}");
    // Used up: the view reads on.
    tokio::time::timeout(LIMIT, f.conversation.send_message("hello".into())).await.unwrap().unwrap();
    let batch = tokio::time::timeout(LIMIT, view.next_batch()).await.unwrap();
    assert!(matches!(batch, Ok(Some(_))), "{batch:?}");
}

#[test]
fn runtime_threads_are_named_and_counted() {
    let runtime = Runtime::with_worker_threads(1).unwrap();
    let name = runtime
        .handle()
        .block_on(async { tokio::spawn(async { std::thread::current().name().map(str::to_owned) }).await.unwrap() });
    assert_eq!(name.as_deref(), Some("agentui-runtime"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_nobody_reads_do_not_stall_the_conversation_and_catch_up_whole() {
    let f = fixture();
    // Views that are not read (a UI in the background): runs never wait for them.
    let views: Vec<_> = (0..3).map(|_| f.conversation.subscribe_view()).collect();
    for text in ["hello", "hello again"] {
        tokio::time::timeout(LIMIT, f.conversation.send_message(text.into()))
            .await
            .expect("a run finishes while no view is read")
            .unwrap();
    }
    // Read later, each shows everything, ending with the last run's end.
    for view in &views {
        let mut shown = Shown::default();
        shown.settle(view).await;
        assert!(shown.batches[0].reset);
        assert_eq!(shown.items.len(), messages(&f.conversation).len(), "every message arrived once");
        assert!(matches!(shown.phase, RunPhase::Finished { .. }), "{:?}", shown.phase);
    }
    f.agent.stop().unwrap();
}

/// The assistant's item as the view shows it after one run under `options`.
async fn answer_under(options: ConversationOptions) -> agentui_ffi::ChatItem {
    let agent = agentui_ffi::demo::start_demo_agent().expect("demo agent starts");
    let runtime = Runtime::new().expect("runtime starts");
    let conversation = runtime.connect(agent.agent_url(), Vec::new(), options).expect("connect");
    let view = conversation.subscribe_view();
    let mut shown = Shown::default();
    tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap();
    shown.settle(&view).await;
    agent.stop().unwrap();
    shown.items.into_iter().rfind(|i| i.role == Role::Assistant).expect("an answer")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_turns_chat_markdown_off_and_bounds_it_through_its_memory_budget() {
    use agentui_ffi::{MdBlock, PlainReason};

    let on = answer_under(ConversationOptions::default()).await;
    let tree = on.markdown.expect("on by default");
    assert!(matches!(tree.blocks[..], [MdBlock::Paragraph { .. }]), "{:?}", tree.blocks);

    let off = answer_under(ConversationOptions { chat_markdown: false, ..Default::default() }).await;
    assert_eq!(off.text, on.text);
    assert_eq!(off.markdown, None, "an app that draws its text itself gets no tree");

    // No node allowed: the paragraph is shown as its source.
    let budget = agentui_ffi::MemoryBudget { max_markdown_nodes: 0, ..agentui_ffi::default_memory_budget() };
    let bounded = answer_under(ConversationOptions { memory_budget: Some(budget), ..Default::default() }).await;
    let tree = bounded.markdown.expect("a tree");
    match &tree.blocks[..] {
        [MdBlock::PlainText { text, reason: PlainReason::TooManyNodes }] => assert_eq!(text, &on.text),
        other => panic!("{other:?}"),
    }
    // A parse bound of 64 bytes: the paragraph is cut into blocks of at most 64 bytes.
    let budget = agentui_ffi::MemoryBudget { max_markdown_parse_bytes: 64, ..agentui_ffi::default_memory_budget() };
    let cut = answer_under(ConversationOptions { memory_budget: Some(budget), ..Default::default() }).await;
    let blocks = cut.markdown.expect("a tree").blocks;
    assert!(blocks.len() >= on.text.len() / 64, "{} blocks for {} bytes", blocks.len(), on.text.len());
}

/// The platforms play the shared timeline cases through `timeline_case_changes`: every case
/// reads, element 0 is the snapshot's reset, and there is one list of changes per delta.
#[test]
fn every_shared_timeline_case_replays_through_the_ffi() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/timeline-cases/cases.json");
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in file["cases"].as_array().unwrap() {
        let steps = agentui_ffi::timeline_case_changes(case.to_string()).unwrap();
        let deltas = case.get("deltas").and_then(|d| d.as_array()).map_or(0, Vec::len);
        assert_eq!(steps.len(), deltas + 1, "{}", case["name"]);
        assert!(matches!(steps[0].as_slice(), [agentui_ffi::TimelineChange::Reset { .. }]), "{}", case["name"]);
    }
    assert!(matches!(
        agentui_ffi::timeline_case_changes("{".into()),
        Err(agentui_ffi::ConversationError::InvalidJson { .. })
    ));
}

/// The platforms play the v1.0 renderer cases through `a2ui_case_surface`: every case's messages
/// make one surface whose reset holds the nodes the case names; text that is no list of messages,
/// and messages the engine refuses, are `InvalidJson`, never a panic.
#[test]
fn every_v10_renderer_case_builds_its_surface_through_the_ffi() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/renderer-cases/cases.json");
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in file["v1_0"]["cases"].as_array().unwrap() {
        let diff = agentui_ffi::a2ui_case_surface(case["messages"].to_string()).unwrap();
        let agentui_ffi::SurfaceDiff::Reset { root, nodes } = diff else { panic!("{}: not a reset", case["name"]) };
        assert_eq!(root.as_deref(), Some("root"), "{}", case["name"]);
        for want in case["nodes"].as_array().unwrap() {
            let named = |n: &&std::sync::Arc<agentui_ffi::ResolvedNode>| {
                want["id"].as_str().map_or(n.component_id.as_ref() == want["componentId"], |id| n.id.as_ref() == id)
            };
            assert!(nodes.iter().any(|n| named(&n)), "{}: {want}", case["name"]);
        }
    }
    let refused = r#"[{"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [{"id": "root", "component": "Nope"}]}}]"#;
    for bad in ["{", "{}", refused] {
        assert!(
            matches!(
                agentui_ffi::a2ui_case_surface(bad.into()),
                Err(agentui_ffi::ConversationError::InvalidJson { .. })
            ),
            "{bad}"
        );
    }
}
