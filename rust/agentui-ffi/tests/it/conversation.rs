//! The exported conversation API against the demo agent, called from Rust as the bindings
//! would call it.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use agentui_ffi::{
    ConversationDelta, ConversationError, ConversationOptions, Header, KeptLocal, LocalOnly, MessageContent, Observed,
    Role, RunPhase, Runtime, RuntimeStartError, ToolCallPhase, ToolFailure, ToolHandlerError,
};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_message_streams_updates_and_returns_a_summary() {
    let f = fixture();
    let updates = Arc::new(Recorder::<Observed>::default());
    let subscription = f.conversation.add_listener(updates.clone()).expect("a listener thread");

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

    // The call returned after the end was published: a flush delivers it, in order, after a Reset.
    tokio::time::timeout(LIMIT, subscription.flush()).await.unwrap();
    let seen = updates.snapshot();
    assert!(matches!(seen[0], Observed::Snapshot(_)), "{:?}", seen[0]);
    // The message waits for the agent until the request is taken, then joins the conversation.
    assert!(
        matches!(&seen[1], Observed::Delta(ConversationDelta::PendingSends(pending)) if pending.len() == 1),
        "{:?}",
        seen[1]
    );
    assert!(matches!(seen[2], Observed::Delta(ConversationDelta::MessageAdded(_))), "{:?}", seen[2]);
    assert!(seen
        .iter()
        .any(|u| matches!(u, Observed::Delta(ConversationDelta::PendingSends(pending)) if pending.is_empty())));
    let phases: Vec<&RunPhase> = seen
        .iter()
        .filter_map(|u| match u {
            Observed::Delta(ConversationDelta::RunPhase(phase)) => Some(phase),
            _ => None,
        })
        .collect();
    assert!(phases.iter().any(|p| matches!(p, RunPhase::Running { .. })), "{phases:?}");
    assert!(matches!(phases.last(), Some(RunPhase::Finished { .. })), "{phases:?}");
    // Text streams as pieces, never as the whole message again.
    assert!(seen.iter().any(|u| matches!(u, Observed::Delta(ConversationDelta::TextAppended { .. }))));
    f.agent.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_client_tool_runs_and_its_result_reaches_the_agent() {
    let f = fixture();
    let tool = FixedTool::new(Ok("Paris, France".into()));
    f.conversation
        .register_tool("get_location".into(), "Where the user is".into(), LOCATION_SCHEMA.into(), tool.clone())
        .unwrap();
    let updates = Arc::new(Recorder::<Observed>::default());
    let subscription = f.conversation.add_listener(updates.clone()).expect("a listener thread");

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
    // "Requested" and "Succeeded" are distinct states for the UI.
    tokio::time::timeout(LIMIT, subscription.flush()).await.unwrap();
    let phases: Vec<ToolCallPhase> = updates
        .snapshot()
        .into_iter()
        .filter_map(|u| match u {
            Observed::Delta(ConversationDelta::ToolCall(update)) if update.tool_name == "get_location" => {
                Some(update.phase)
            }
            _ => None,
        })
        .collect();
    assert!(phases.contains(&ToolCallPhase::Requested), "{phases:?}");
    assert!(phases.iter().any(|p| matches!(p, ToolCallPhase::Succeeded { .. })), "{phases:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_tool_reports_its_failure_to_the_agent() {
    let f = fixture();
    let tool = FixedTool::new(Err(ToolHandlerError::Failed { detail: "location permission denied".into() }));
    f.conversation.register_tool("get_location".into(), "".into(), LOCATION_SCHEMA.into(), tool).unwrap();
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
    g.conversation.register_tool("get_location".into(), "".into(), LOCATION_SCHEMA.into(), tool).unwrap();
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
    let bad_json = f.conversation.register_tool("t".into(), "".into(), "{not json".into(), tool.clone());
    assert!(matches!(bad_json, Err(ConversationError::InvalidJson { .. })), "{bad_json:?}");
    let bad_schema = f.conversation.register_tool("t".into(), "".into(), "[1]".into(), tool.clone());
    assert!(matches!(bad_schema, Err(ConversationError::InvalidTool { .. })), "{bad_schema:?}");
    f.conversation.register_tool("t".into(), "".into(), "{}".into(), tool.clone()).unwrap();
    let duplicate = f.conversation.register_tool("t".into(), "".into(), "{}".into(), tool);
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
    f.conversation.register_tool("t".into(), "".into(), "{}".into(), tool).unwrap();
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
    assert_eq!(f.conversation.snapshot().kept_local, kept);

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
    let pending = f.conversation.snapshot().pending_interrupts;
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
    assert!(f.conversation.snapshot().pending_interrupts.is_empty());
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
async fn listeners_that_fail_or_panic_do_not_stop_deliveries() {
    struct Faulty(std::sync::atomic::AtomicUsize);
    impl agentui_ffi::ConversationListener for Faulty {
        fn on_updates(&self, _updates: Vec<Observed>) -> Result<(), agentui_ffi::ListenerError> {
            match self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) {
                0 => panic!("listener bug"),
                1 => Err(agentui_ffi::ListenerError::Unexpected { detail: "IllegalStateException".into() }),
                _ => Ok(()),
            }
        }
    }
    let f = fixture();
    let faulty = Arc::new(Faulty(Default::default()));
    let a = f.conversation.add_listener(faulty.clone()).expect("a listener thread");
    let healthy = Arc::new(Recorder::<Observed>::default());
    let b = f.conversation.add_listener(healthy.clone()).expect("a listener thread");
    // The first batch (the Reset) panics, the next one throws: later batches still arrive.
    for text in ["hello", "hello again", "and again"] {
        tokio::time::timeout(LIMIT, f.conversation.send_message(text.into())).await.unwrap().unwrap();
        tokio::time::timeout(LIMIT, a.flush()).await.unwrap();
    }
    assert!(faulty.0.load(std::sync::atomic::Ordering::SeqCst) >= 3);
    assert!(a.is_active());
    tokio::time::timeout(LIMIT, b.flush()).await.unwrap();
    assert!(healthy.len() > 3);

    // A cancelled subscription hears nothing more.
    b.cancel();
    assert!(!b.is_active());
    let before = healthy.len();
    tokio::time::timeout(LIMIT, f.conversation.send_message("once more".into())).await.unwrap().unwrap();
    tokio::time::timeout(LIMIT, a.flush()).await.unwrap();
    b.flush().await;
    assert_eq!(healthy.len(), before);
}

#[test]
fn runtime_threads_are_named_and_counted() {
    let runtime = Runtime::with_worker_threads(1).unwrap();
    let name = runtime
        .handle()
        .block_on(async { tokio::spawn(async { std::thread::current().name().map(str::to_owned) }).await.unwrap() });
    assert_eq!(name.as_deref(), Some("agentui-runtime"));
}

/// A listener that blocks in its callback until the gate opens, as the Kotlin and Swift layers
/// do while their bounded queue is full, then records.
struct Gated {
    open: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    seen: Recorder<Observed>,
}

impl Gated {
    fn new() -> Arc<Self> {
        Arc::new(Gated {
            open: std::sync::Mutex::new(false),
            opened: std::sync::Condvar::new(),
            seen: Recorder::default(),
        })
    }

    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }
}

impl agentui_ffi::ConversationListener for Gated {
    fn on_updates(&self, updates: Vec<Observed>) -> Result<(), agentui_ffi::ListenerError> {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.opened.wait(open).unwrap();
        }
        drop(open);
        self.seen.on_updates(updates)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listeners_blocked_in_their_callback_do_not_stall_the_conversation() {
    let f = fixture();
    // More blocked listeners than the runtime has workers: each blocks its own thread only.
    let gated: Vec<Arc<Gated>> = (0..3).map(|_| Gated::new()).collect();
    let handles: Vec<_> =
        gated.iter().map(|g| f.conversation.add_listener(g.clone()).expect("a listener thread")).collect();

    for text in ["hello", "hello again"] {
        tokio::time::timeout(LIMIT, f.conversation.send_message(text.into()))
            .await
            .expect("a run finishes while every listener is blocked")
            .unwrap();
    }
    assert!(gated.iter().all(|g| g.seen.len() == 0), "nothing was delivered past the gate");

    // Once the gate opens, each listener gets everything, in order, ending with the last run's end.
    for (g, handle) in gated.iter().zip(&handles) {
        g.open();
        tokio::time::timeout(LIMIT, handle.flush()).await.expect("the blocked deliveries resume");
        let seen = g.seen.snapshot();
        assert!(matches!(seen[0], Observed::Snapshot(_)), "{:?}", seen[0]);
        let added = seen.iter().filter(|u| matches!(u, Observed::Delta(ConversationDelta::MessageAdded(_)))).count();
        assert_eq!(added, messages(&f.conversation).len(), "every message arrived once");
        let last_phase = seen.iter().rev().find_map(|u| match u {
            Observed::Delta(ConversationDelta::RunPhase(phase)) => Some(phase),
            _ => None,
        });
        assert!(matches!(last_phase, Some(RunPhase::Finished { .. })), "{last_phase:?}");
    }
    f.agent.stop().unwrap();
}
