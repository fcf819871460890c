//! The conversation actor: runs serialised, input applied at once, observers fed a snapshot then
//! deltas through bounded queues. On tokio's paused clock: the test server's `Step::Sleep`
//! holds a stream open in virtual time, which advances only when every task waits.

use crate::tests::support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use agentui_a2ui::catalog::BASIC_CATALOG_ID;
use agentui_a2ui::SurfaceDiff;
use agentui_agui::message::MessageContent;
use agentui_agui::reducer::LocalOnly;
use agentui_runtime::session::{
    ActionResult, ClientTool, ConversationSession, RunPhase, SessionError, SessionOptions, SessionUpdate, ToolDecision,
    ToolFailure, ToolInvocation,
};
use agentui_runtime::{Conversation, ConversationDelta, KeptLocal, Observed, Subscription, ABSORB_LIMIT};
use serde_json::{json, Value};
use support::*;

/// Longer than any test's work, shorter than the transport's idle timeout (60 s).
const HOLD: Duration = Duration::from_secs(5);

fn conversation(server: &TestServer) -> Conversation {
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    Conversation::start(session, tokio::runtime::Handle::current())
}

/// Everything queued for `sub` right now.
fn drain(sub: &mut Subscription) -> Vec<Observed> {
    std::iter::from_fn(|| sub.try_recv()).collect()
}

fn deltas(items: &[Observed]) -> Vec<&ConversationDelta> {
    items
        .iter()
        .filter_map(|o| match o {
            Observed::Delta(d) => Some(d),
            Observed::Snapshot(_) => None,
        })
        .collect()
}

/// A v0.9 form: a text field bound to `/form/name` and a button whose action sends it.
fn form_events() -> Vec<Value> {
    let ops = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": BASIC_CATALOG_ID}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "f", "components": [
            {"id": "root", "component": "Column", "children": ["name", "send"]},
            {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/form/name"}},
            {"id": "send-label", "component": "Text", "text": "Send"},
            {"id": "send", "component": "Button", "child": "send-label",
             "action": {"event": {"name": "submit", "context": {"name": {"path": "/form/name"}}}}}
        ]}}
    ]);
    vec![json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": ops}})]
}

/// A run that sends `head`, holds the stream open for `HOLD`, then finishes.
fn held_run(run: &str, head: Vec<Value>) -> Reply {
    let mut steps: Vec<Step> = std::iter::once(started(run)).chain(head).map(|e| Step::Send(frame(&e))).collect();
    steps.push(Step::Sleep(HOLD));
    steps.push(Step::Send(frame(&finished(run))));
    Reply::sse_steps(steps)
}

/// One SSE body of `n` one-character text deltas on message `a1`, sent as a single write.
fn long_text_run(run: &str, n: usize) -> Reply {
    let mut body = Vec::with_capacity(n * 64);
    body.extend(frame(&started(run)));
    body.extend(frame(&json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"})));
    for i in 0..n {
        let c = (b'a' + (i % 26) as u8) as char;
        body.extend(frame(&json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": c.to_string()})));
    }
    body.extend(frame(&json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"})));
    body.extend(frame(&finished(run)));
    Reply::sse_steps(vec![Step::Send(body)])
}

/// Polls `future` once, so its synchronous part (what a call does at once) has run.
async fn poll_once<F: std::future::Future + Unpin>(future: &mut F) -> Option<F::Output> {
    tokio::select! {
        biased;
        out = future => Some(out),
        _ = std::future::ready(()) => None,
    }
}

async fn wait_for_delta(sub: &mut Subscription, wanted: impl Fn(&ConversationDelta) -> bool) {
    while let Some(item) = sub.recv().await.unwrap() {
        if matches!(&item, Observed::Delta(d) if wanted(d)) {
            return;
        }
    }
    panic!("the conversation ended before the delta arrived");
}

#[tokio::test(start_paused = true)]
async fn a_subscriber_gets_the_snapshot_then_every_delta_in_order() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Hello!")]))]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    conv.send_message("hi".into()).await.unwrap();

    let items = drain(&mut sub);
    let Observed::Snapshot(first) = &items[0] else { panic!("a snapshot comes first: {:?}", items[0]) };
    assert!(first.messages.is_empty() && first.phase == RunPhase::Idle);
    assert!(items[1..].iter().all(|i| matches!(i, Observed::Delta(_))), "then only deltas");
    let seen: Vec<String> = deltas(&items)
        .iter()
        .filter_map(|d| match d {
            ConversationDelta::MessageAdded(m) => Some(format!("added {}", m.id)),
            ConversationDelta::TextAppended { message_id, delta } => Some(format!("{message_id} += {delta}")),
            ConversationDelta::RunPhase(RunPhase::Starting { .. }) => Some("starting".into()),
            ConversationDelta::RunPhase(RunPhase::Running { .. }) => Some("running".into()),
            ConversationDelta::RunPhase(RunPhase::Finished { .. }) => Some("finished".into()),
            _ => None,
        })
        .collect();
    let user_id = conv.snapshot().unwrap().messages[0].id.clone();
    assert_eq!(
        seen,
        [
            format!("added {user_id}"),
            "starting".into(),
            "running".into(),
            "added a1".into(),
            "a1 += Hello!".into(),
            "finished".into()
        ]
    );

    // The deltas applied to the first snapshot give the snapshot now.
    let now = conv.snapshot().unwrap();
    assert_eq!(now.messages.len(), 2);
    assert_eq!(now.messages[1].text(), Some("Hello!"));
    assert!(matches!(now.phase, RunPhase::Finished { .. }));
}

#[tokio::test(start_paused = true)]
async fn streamed_text_is_delivered_as_its_pieces_and_a_long_message_costs_linear_work() {
    const N: usize = 100_000;
    let server = TestServer::start(vec![long_text_run("r1", N)]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    let reader = tokio::spawn(async move {
        // Bytes of message text the subscriber was handed, and the pieces that carried it.
        let (mut text_bytes, mut pieces, mut snapshots, mut streamed) = (0usize, 0usize, 0usize, String::new());
        while let Some(item) = sub.recv().await.unwrap() {
            match item {
                Observed::Snapshot(_) => snapshots += 1,
                Observed::Delta(ConversationDelta::TextAppended { delta, .. }) => {
                    // Pieces queued one after the other may arrive as one, never beyond the bound.
                    assert!(delta.len() <= ABSORB_LIMIT, "a piece of {} bytes", delta.len());
                    text_bytes += delta.len();
                    pieces += 1;
                    streamed.push_str(&delta);
                }
                Observed::Delta(ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m)) => {
                    text_bytes += m.text().map_or(0, str::len);
                    streamed.push_str(m.text().unwrap_or(""));
                }
                Observed::Delta(ConversationDelta::RunPhase(RunPhase::Finished { .. })) => break,
                Observed::Delta(_) => {}
            }
        }
        (text_bytes, pieces, snapshots, streamed)
    });
    conv.send_message("long".into()).await.unwrap();
    let (text_bytes, pieces, snapshots, streamed) = reader.await.unwrap();
    let text = conv.snapshot().unwrap().messages[1].text().map(str::to_owned);
    assert_eq!(text.as_ref().map(String::len), Some(N));
    if snapshots == 1 {
        // Kept up: the pieces, in order, are the text.
        assert_eq!(Some(streamed.trim_start_matches("long").to_owned()), text);
        assert!(pieces >= N.div_ceil(ABSORB_LIMIT));
    }
    // Whole copies per delta would hand over N²/2 bytes; pieces hand over N (plus the user's).
    assert!(text_bytes <= N + 16, "{text_bytes} bytes of text delivered for a {N}-byte message");
}

#[tokio::test(start_paused = true)]
async fn a_subscriber_reading_late_gets_the_streamed_pieces_joined() {
    // One message's text, then two tool calls' arguments streamed in turns.
    let mut body = frame(&started("r1"));
    body.extend(frame(&json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"})));
    let long = "x".repeat(ABSORB_LIMIT);
    for piece in ["Hel", "lo", "!", long.as_str()] {
        body.extend(frame(&json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": piece})));
    }
    body.extend(frame(&json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"})));
    for call in ["c1", "c2"] {
        body.extend(frame(
            &json!({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "find", "parentMessageId": "a2"}),
        ));
    }
    for (call, piece) in [("c1", "{\"a\""), ("c1", ":1}"), ("c2", "{}")] {
        body.extend(frame(&json!({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": piece})));
    }
    for call in ["c1", "c2"] {
        body.extend(frame(&json!({"type": "TOOL_CALL_END", "toolCallId": call})));
    }
    body.extend(frame(&finished("r1")));
    let server = TestServer::start(vec![Reply::sse_steps(vec![Step::Send(body)])]).await;
    let conv = conversation(&server);
    let mut late = conv.subscribe();
    conv.send_message("go".into()).await.unwrap();

    let appended: Vec<(String, String)> = deltas(&drain(&mut late))
        .into_iter()
        .filter_map(|d| match d {
            ConversationDelta::TextAppended { message_id, delta } => Some((message_id.clone(), delta.clone())),
            ConversationDelta::ToolCallArgsAppended { tool_call_id, delta, .. } => {
                Some((tool_call_id.clone(), delta.clone()))
            }
            _ => None,
        })
        .collect();
    let expected = [("a1", "Hello!"), ("a1", long.as_str()), ("c1", "{\"a\":1}"), ("c2", "{}")]
        .map(|(id, text)| (id.to_owned(), text.to_owned()));
    // Joined while they follow each other for one target, and up to the bound.
    assert_eq!(appended, expected);
}

#[tokio::test(start_paused = true)]
async fn a_state_delta_is_observed_as_the_patch_that_was_applied() {
    let ops = json!([{"op": "add", "path": "/count", "value": 2}, {"op": "replace", "path": "/title", "value": "b"}]);
    let events = vec![
        started("r1"),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"title": "a"}}),
        json!({"type": "STATE_DELTA", "delta": ops}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/missing"}]}),
        finished("r1"),
    ];
    let server = TestServer::start(vec![Reply::sse(&events)]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    conv.send_message("state".into()).await.unwrap();
    let items = drain(&mut sub);
    let state: Vec<&ConversationDelta> = deltas(&items)
        .into_iter()
        .filter(|d| {
            matches!(
                d,
                ConversationDelta::StatePatched(_)
                    | ConversationDelta::StateReplaced(_)
                    | ConversationDelta::StateResyncNeeded { .. }
            )
        })
        .collect();
    assert_eq!(state.len(), 3, "{state:?}");
    assert_eq!(*state[0], ConversationDelta::StateReplaced(json!({"title": "a"})));
    let ConversationDelta::StatePatched(applied) = state[1] else { panic!("{:?}", state[1]) };
    assert_eq!(serde_json::to_value(applied).unwrap(), ops, "the ops as sent, not the whole state");
    assert!(matches!(state[2], ConversationDelta::StateResyncNeeded { .. }), "a patch that failed is not applied");
    assert_eq!(conv.snapshot().unwrap().state, json!({"title": "b", "count": 2}));
}

#[tokio::test(start_paused = true)]
async fn a_state_patch_is_observed_as_the_agent_sent_it_and_replays_to_the_conversations_state() {
    // Observers get the agent's ops, `move`, `copy` and `test` included (no platform replays
    // JSON Patch any more: the view carries the state whole), and the conversation holds the
    // one state they lead to.
    let start = json!({"list": ["p", "q"], "a": {"x": 1}});
    let ops = json!([
        {"op": "copy", "from": "/a", "path": "/list/-"},
        {"op": "move", "from": "/list/0", "path": "/first"},
        {"op": "test", "path": "/first", "value": "p"},
        {"op": "replace", "path": "/a/x", "value": 2}
    ]);
    let events = vec![
        started("r1"),
        json!({"type": "STATE_SNAPSHOT", "snapshot": start}),
        json!({"type": "STATE_DELTA", "delta": ops}),
        finished("r1"),
    ];
    let server = TestServer::start(vec![Reply::sse(&events)]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    conv.send_message("state".into()).await.unwrap();
    let items = drain(&mut sub);
    let patched: Vec<&Vec<agentui_agui::event::PatchOperation>> = deltas(&items)
        .into_iter()
        .filter_map(|d| match d {
            ConversationDelta::StatePatched(ops) => Some(ops),
            _ => None,
        })
        .collect();
    assert_eq!(patched.len(), 1);
    let observed = patched[0];
    assert_eq!(serde_json::to_value(observed).unwrap(), ops, "the agent's own ops");
    // Replayed on the state before it, the patch gives the state the conversation has.
    let mut replayed = start;
    agentui_agui::patch::apply_patch(&mut replayed, observed).unwrap();
    assert_eq!(replayed, conv.snapshot().unwrap().state);
    assert_eq!(replayed, json!({"list": ["q", {"x": 1}], "a": {"x": 2}, "first": "p"}));
}

#[tokio::test(start_paused = true)]
async fn set_value_during_a_run_applies_at_once_and_its_patch_is_observed_before_the_run_ends() {
    let server = TestServer::start(vec![held_run("r1", form_events())]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    let run = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("form".into()).await }
    });
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::SurfaceAdded(_))).await;
    let mut surface = conv.subscribe_surface("f").expect("the surface exists");
    // The reset (possibly still empty: the components may come in a later diff).
    while surface.try_recv().is_some() {}

    conv.set_value("f", "/form/name", json!("Ada")).unwrap();
    let diff = surface.try_recv().expect("the write's diff is queued at once");
    let SurfaceDiff::Patch { upserted, .. } = &diff else { panic!("{diff:?}") };
    let field = upserted.iter().find(|n| &*n.id == "name").expect("the bound field changed");
    assert_eq!(field.props.get("value"), Some(&json!("Ada")));
    assert!(!run.is_finished(), "the run is still streaming");
    let node = conv.surface("f").unwrap().nodes.into_iter().find(|n| &*n.id == "name").unwrap();
    assert_eq!(node.props.get("value"), Some(&json!("Ada")), "the snapshot shows it too");

    run.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn dispatch_action_during_a_run_is_resolved_at_once_and_its_run_queued_after() {
    let server =
        TestServer::start(vec![held_run("r1", form_events()), Reply::sse(&run_of("r2", vec![text("a2", "thanks")]))])
            .await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    let first = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("form".into()).await }
    });
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::SurfaceAdded(_))).await;
    // Let the components arrive (they come with the same event as the surface).
    tokio::task::yield_now().await;

    conv.set_value("f", "/form/name", json!("Ada")).unwrap();
    let mut action = Box::pin(conv.dispatch_action("f", "send"));
    assert!(poll_once(&mut action).await.is_none(), "the action's run waits for the run in flight");
    // Typed after the gesture: not what the action sends.
    conv.set_value("f", "/form/name", json!("Bob")).unwrap();
    assert_eq!(server.requests().len(), 1, "nothing is sent while the first run streams");

    let result = action.await.unwrap();
    assert!(matches!(result, ActionResult::Ran(_)));
    assert!(first.is_finished(), "the action ran after the run before it");
    first.await.unwrap().unwrap();
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let action = &requests[1].body["forwardedProps"]["a2uiAction"]["userAction"];
    assert_eq!(action["name"], "submit");
    assert_eq!(action["context"], json!({"name": "Ada"}), "resolved from the values the user saw");
}

fn echo_tool(name: &str) -> ClientTool {
    ClientTool::new(name, "echo", json!({"type": "object"}), |call: ToolInvocation| async move { Ok(call.arguments) })
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn register_tool_during_a_run_is_declared_in_the_next_request() {
    let server =
        TestServer::start(vec![held_run("r1", vec![]), Reply::sse(&run_of("r2", vec![text("a2", "ok")]))]).await;
    let conv = conversation(&server);
    conv.register_tool(echo_tool("before")).unwrap();
    let mut sub = conv.subscribe();
    let first = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("one".into()).await }
    });
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::RunPhase(RunPhase::Running { .. }))).await;
    conv.register_tool(echo_tool("during")).unwrap();
    assert!(conv.unregister_tool("before"));
    first.await.unwrap().unwrap();
    conv.send_message("two".into()).await.unwrap();

    let names = |i: usize| -> Vec<String> {
        server.requests()[i].body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(0), ["before"], "the run in flight keeps the tools it sent");
    assert_eq!(names(1), ["during"]);
}

#[tokio::test(start_paused = true)]
async fn a_subscriber_that_falls_behind_gets_a_fresh_snapshot_instead_of_unbounded_memory() {
    // More deltas than a queue holds, to a subscriber that never reads during the run: one
    // message each, so no delta can join the one before it.
    const N: usize = 10_000;
    let messages = (0..N).map(|i| text(&format!("m{i}"), "x")).collect();
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", messages))]).await;
    let conv = conversation(&server);
    let mut idle = conv.subscribe();
    conv.send_message("many".into()).await.unwrap();

    let items = drain(&mut idle);
    // Its queue overflowed and was dropped: all it holds is one snapshot of the state now.
    assert_eq!(items.len(), 1, "the overflowed queue was dropped, not kept");
    let Observed::Snapshot(fresh) = &items[0] else { panic!("{:?}", items[0]) };
    assert_eq!(fresh.messages.len(), N + 1);
    assert!(matches!(fresh.phase, RunPhase::Finished { .. }));

    // And then it follows the sequence again.
    conv.set_value("nope", "/x", json!(1)).unwrap_err();
    conv.resolve_interrupt("nope", None).unwrap_err();
    let server_reply = run_of("r2", vec![text("a2", "again")]);
    server.push(Reply::sse(&server_reply));
    conv.send_message("more".into()).await.unwrap();
    let after = drain(&mut idle);
    assert!(after.iter().all(|i| matches!(i, Observed::Delta(_))));
    assert!(matches!(after.last(), Some(Observed::Delta(ConversationDelta::RunPhase(RunPhase::Finished { .. })))));
}

#[tokio::test(start_paused = true)]
async fn send_message_returns_after_every_subscriber_was_handed_the_end() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "done")]))]).await;
    let conv = conversation(&server);
    let mut subs: Vec<Subscription> = (0..3).map(|_| conv.subscribe()).collect();
    conv.send_message("hi".into()).await.unwrap();
    for sub in &mut subs {
        let items = drain(sub);
        assert!(
            matches!(items.last(), Some(Observed::Delta(ConversationDelta::RunPhase(RunPhase::Finished { .. })))),
            "{:?}",
            items.last()
        );
    }
}

#[tokio::test(start_paused = true)]
async fn cancel_stops_the_run_in_flight_and_withdraws_the_queued_ones() {
    let head = [
        started("r1"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "The answer is"}),
    ];
    let mut hang: Vec<Step> = head.iter().map(|e| Step::Send(frame(e))).collect();
    hang.push(Step::Hang);
    let server = TestServer::start(vec![Reply::sse_steps(hang)]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    let calls: Vec<_> = ["one", "two", "three"]
        .into_iter()
        .map(|m| {
            let conv = conv.clone();
            tokio::spawn(async move { conv.send_message(m.into()).await })
        })
        .collect();
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::TextAppended { message_id, .. } if message_id == "a1"))
        .await;
    // On this one-thread runtime, a cancel() that waited for the actor would never return.
    conv.cancel();
    for call in calls {
        assert!(matches!(call.await.unwrap(), Err(SessionError::Cancelled)));
    }
    assert_eq!(server.requests().len(), 1, "the queued runs never went out");
    assert_eq!(conv.snapshot().unwrap().phase, RunPhase::Cancelled);

    // The text cut short is marked for observers, not only warned about (queued before the end).
    let seen = drain(&mut sub);
    assert!(
        deltas(&seen).iter().any(|d| matches!(d,
            ConversationDelta::MessageKeptLocal { message_id, reason: LocalOnly::Cancelled } if message_id == "a1")),
        "{seen:?}"
    );
    let cut = vec![KeptLocal { message_id: "a1".to_owned(), reason: LocalOnly::Cancelled }];
    let mut late = conv.subscribe();
    match late.try_recv() {
        Some(Observed::Snapshot(snapshot)) => assert_eq!(snapshot.kept_local, cut),
        other => panic!("a late subscriber starts with a snapshot, got {other:?}"),
    }

    // A call made after the cancel runs. Its input echo resets the messages, which clears the
    // observers' marks: the mark that still holds is sent again after the reset.
    let mut r2 = run_of("r2", vec![text("a2", "back")]);
    r2[0]["input"] = json!({"threadId": "t", "runId": "r2", "messages": []});
    server.push(Reply::sse(&r2));
    conv.send_message("four".into()).await.unwrap();
    let seen = drain(&mut sub);
    assert!(deltas(&seen).iter().any(|d| matches!(d, ConversationDelta::MessagesReset(_))), "{seen:?}");
    assert_eq!(conv.snapshot().unwrap().kept_local, cut);
}

#[tokio::test(start_paused = true)]
async fn dropping_the_call_cancels_its_run() {
    let mut hang: Vec<Step> = vec![Step::Send(frame(&started("r1")))];
    hang.push(Step::Hang);
    let server = TestServer::start(vec![Reply::sse_steps(hang), Reply::sse(&run_of("r2", vec![]))]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    let call = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("one".into()).await }
    });
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::RunPhase(RunPhase::Running { .. }))).await;
    call.abort();
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::RunPhase(RunPhase::Cancelled))).await;
    conv.send_message("two".into()).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_panicking_tool_or_listener_does_not_take_the_conversation_down() {
    let server = TestServer::start(vec![
        Reply::sse(&run_of("r1", vec![tool_call("c1", "boom", "{}", "a1")])),
        Reply::sse(&run_of("r2", vec![text("a2", "recovered")])),
    ])
    .await;
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let mut session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    let heard = Arc::new(AtomicUsize::new(0));
    let count = heard.clone();
    session.add_listener(Arc::new(move |_: &SessionUpdate| {
        count.fetch_add(1, Ordering::Relaxed);
        panic!("listener bug");
    }));
    let conv = Conversation::start(session, tokio::runtime::Handle::current());
    let boom = ClientTool::new("boom", "panics", json!({"type": "object"}), |_: ToolInvocation| async move {
        if true {
            panic!("tool bug");
        }
        Ok(Value::Null)
    })
    .unwrap();
    conv.register_tool(boom).unwrap();
    let summary = conv.send_message("go".into()).await.unwrap();
    assert_eq!(summary.tool_calls[0].outcome, Err(ToolFailure::Crashed));
    assert!(heard.load(Ordering::Relaxed) > 0);
    let last = conv.snapshot().unwrap().messages.last().cloned().unwrap();
    assert_eq!(last.content, Some(MessageContent::Text("recovered".into())));
}

#[tokio::test(start_paused = true)]
async fn a_deleted_surface_resets_its_subscribers_to_empty() {
    let delete =
        json!({"type": "CUSTOM", "name": "a2ui", "value": {"version": "v0.9", "deleteSurface": {"surfaceId": "f"}}});
    let server =
        TestServer::start(vec![held_run("r1", form_events()), Reply::sse(&run_of("r2", vec![vec![delete]]))]).await;
    let conv = conversation(&server);
    conv.send_message("form".into()).await.unwrap();
    let mut surface = conv.subscribe_surface("f").expect("the surface exists");
    let Some(SurfaceDiff::Reset { nodes, .. }) = surface.try_recv() else { panic!("a reset first") };
    assert_eq!(&*nodes[0].id, "root", "depth-first from the root");
    assert_eq!(nodes.iter().map(|n| n.id.to_string()).collect::<Vec<_>>(), ["root", "name", "send", "send-label"]);
    conv.send_message("close".into()).await.unwrap();
    assert_eq!(surface.try_recv(), Some(SurfaceDiff::Reset { root: None, nodes: Vec::new() }));
    assert!(conv.snapshot().unwrap().surfaces.is_empty());
    assert!(conv.subscribe_surface("f").is_none());
}

#[tokio::test(start_paused = true)]
async fn subscriptions_end_when_the_conversation_is_gone() {
    let server = TestServer::start(vec![]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    drop(conv);
    assert!(matches!(sub.recv().await.unwrap(), Some(Observed::Snapshot(_))));
    assert_eq!(sub.recv().await.unwrap(), None);
}

#[tokio::test(start_paused = true)]
async fn a_surface_subscriber_that_falls_behind_gets_a_fresh_reset() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![form_events()]))]).await;
    let conv = conversation(&server);
    conv.send_message("form".into()).await.unwrap();
    let mut idle = conv.subscribe_surface("f").expect("the surface exists");
    // More writes than a queue holds, none of them read.
    for i in 0..10_000 {
        conv.set_value("f", "/form/name", json!(format!("name {i}"))).unwrap();
    }
    let Some(SurfaceDiff::Reset { nodes, .. }) = idle.try_recv() else { panic!("a fresh reset") };
    let field = nodes.iter().find(|n| &*n.id == "name").unwrap();
    assert_eq!(field.props.get("value"), Some(&json!("name 9999")), "the reset shows the state now");
    assert_eq!(idle.try_recv(), None, "the overflowed queue was dropped, not kept");
    conv.set_value("f", "/form/name", json!("after")).unwrap();
    assert!(matches!(idle.try_recv(), Some(SurfaceDiff::Patch { .. })), "then it follows the writes again");
}

/// The one test here on the real clock: a kept-alive connection is reused across runs (on the
/// paused clock the test server closes every connection; see its note). Each body ends 10 ms
/// after its RUN_FINISHED, so the connection is reusable only if the run reads it to the end.
/// Runs are [`POOL_RETURN`] apart (see its note).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_of_one_conversation_reuse_a_kept_alive_connection() {
    let replies = ["r1", "r2", "r3"].map(|run| {
        let events = run_of(run, vec![text(&format!("m-{run}"), "hi")]);
        let mut steps: Vec<Step> = events.iter().map(|e| Step::Send(frame(e))).collect();
        steps.push(Step::Sleep(Duration::from_millis(10)));
        Reply::sse_steps(steps).keep_alive()
    });
    let server = TestServer::start(replies.to_vec()).await;
    let conv = conversation(&server);
    for text in ["one", "two", "three"] {
        tokio::time::timeout(TEST_BOUND, conv.send_message(text.into())).await.unwrap().unwrap();
        tokio::time::sleep(POOL_RETURN).await;
    }
    let connections: Vec<usize> = server.requests().iter().map(|r| r.connection).collect();
    assert_eq!(connections, [0, 0, 0], "every run on the first connection");
    assert_eq!(conv.snapshot().unwrap().messages.len(), 6);
}

/// The snapshot comes from the conversation the run applies to, under the lock the run tells
/// its deltas under: a subscriber that joins mid-stream, on another thread, gets every piece
/// exactly once, in its snapshot or after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribers_joining_mid_stream_from_another_thread_see_each_piece_once() {
    const N: usize = 20_000;
    let server = TestServer::start(vec![long_text_run("r1", N)]).await;
    let conv = conversation(&server);
    let streamed_so_far = |snapshot: &agentui_runtime::ConversationSnapshot| {
        snapshot.messages.iter().find(|m| m.id == "a1").map(|m| m.text().unwrap_or("").to_owned())
    };
    let done = Arc::new(AtomicBool::new(false));
    let joiner = std::thread::spawn({
        let (conv, done) = (conv.clone(), done.clone());
        move || {
            // Joining all through the run; kept: those that joined while the text streamed.
            let mut joined = Vec::new();
            while !done.load(Ordering::SeqCst) && joined.len() < 200 {
                let mut sub = conv.subscribe();
                let Some(Observed::Snapshot(snapshot)) = sub.try_recv() else { panic!("a snapshot comes first") };
                if streamed_so_far(&snapshot).is_some_and(|t| !t.is_empty() && t.len() < N) {
                    joined.push((snapshot, sub));
                }
                std::thread::yield_now();
            }
            joined
        }
    });
    conv.send_message("long".into()).await.unwrap();
    done.store(true, Ordering::SeqCst);
    let joined = joiner.join().unwrap();
    let text = conv.snapshot().unwrap().messages[1].text().unwrap().to_owned();
    assert_eq!(text.len(), N);
    // The run did not end before a join could interleave with it (else this proves little).
    assert!(!joined.is_empty(), "no subscriber joined while the text streamed");
    for (snapshot, mut sub) in joined {
        let mut seen = streamed_so_far(&snapshot);
        for delta in deltas(&drain(&mut sub)) {
            match delta {
                ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) if m.id == "a1" => {
                    seen = Some(m.text().unwrap_or("").to_owned())
                }
                ConversationDelta::TextAppended { message_id, delta } if message_id == "a1" => {
                    seen.as_mut().expect("text for a message the subscriber has").push_str(delta)
                }
                _ => {}
            }
        }
        assert_eq!(seen.as_deref(), Some(text.as_str()), "snapshot plus deltas is the text, each piece once");
    }
}

/// Issue 43: a poisoned session answered `set_value` with the engine's `ACTION_REFUSED`, as if
/// the user's input were at fault. It is the session's own typed error now.
#[tokio::test(start_paused = true)]
async fn set_value_on_a_poisoned_session_is_an_internal_error_not_a_refused_action() {
    let server =
        TestServer::start(vec![Reply::sse(&run_of("r1", vec![form_events(), tool_call("c1", "lookup", "{}", "a1")]))])
            .await;
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let mut session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    session.set_tool_policy(Arc::new(|_: &ToolInvocation| -> ToolDecision { panic!("policy bug") }));
    let conv = Conversation::start(session, tokio::runtime::Handle::current());
    conv.register_tool(echo_tool("lookup")).unwrap();
    let err = conv.send_message("go".into()).await.unwrap_err();
    assert!(matches!(err, SessionError::Internal { .. }), "{err:?}");
    let refused = conv.set_value("f", "/form/name", json!("Ada")).unwrap_err();
    assert!(matches!(&refused, SessionError::Internal { detail } if detail.contains("unusable")), "{refused:?}");
}

/// Issue 43: the run queue was unbounded, so a button pressed in a loop queued runs without
/// end. Past the bound, a call fails at once with a typed error and queues nothing.
#[tokio::test(start_paused = true)]
async fn a_button_pressed_in_a_loop_queues_a_bounded_number_of_runs() {
    const LIMIT: usize = agentui_runtime::MAX_QUEUED_RUNS;
    let server = TestServer::start(vec![Reply::sse_steps(vec![Step::Send(frame(&started("r1"))), Step::Hang])]).await;
    let conv = conversation(&server);
    let mut sub = conv.subscribe();
    let first = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("first".into()).await }
    });
    wait_for_delta(&mut sub, |d| matches!(d, ConversationDelta::RunPhase(RunPhase::Running { .. }))).await;
    // The run holds: every press queues behind it, up to the bound.
    let mut waiting = Vec::new();
    let mut refused = Vec::new();
    for n in 0..LIMIT + 10 {
        let conv = conv.clone();
        let mut press = Box::pin(async move { conv.send_message(format!("press {n}")).await });
        match poll_once(&mut press).await {
            Some(answer) => refused.push(answer),
            None => waiting.push(press),
        }
    }
    assert_eq!((waiting.len(), refused.len()), (LIMIT, 10), "{refused:?}");
    for answer in &refused {
        assert_eq!(answer, &Err(SessionError::RunQueueFull { limit: LIMIT }));
    }
    conv.cancel();
    assert!(matches!(first.await.unwrap(), Err(SessionError::Cancelled)));
    for press in waiting {
        assert!(matches!(press.await, Err(SessionError::Cancelled)));
    }
    assert_eq!(server.requests().len(), 1, "the refused presses were never queued");
}
