//! What a UI shows, pulled as batches of list diffs (`Conversation::subscribe_view`). Each test
//! applies the batches as a platform does (`Shown`) and compares with what a subscriber that
//! joins afterwards is given whole: the diffs must add up to the state.

use crate::tests::support;

use std::time::Duration;

use agentui_agui::reducer::LocalOnly;
use agentui_runtime::session::{ConversationSession, RunPhase, SessionOptions, ToolCallPhase, ToolCallUpdate};
use agentui_runtime::view::{ChatItem, MessageDiff, ToolCallDiff, ViewBatch, ViewEvent};
use agentui_runtime::{Conversation, SurfaceEntry, ViewSubscription};
use serde_json::{json, Value};
use support::*;

const HOLD: Duration = Duration::from_secs(5);

fn conversation(server: &TestServer) -> Conversation {
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    Conversation::start(session, tokio::runtime::Handle::current())
}

type StatePart<'a> = (&'a [ChatItem], &'a [ToolCallUpdate], &'a RunPhase, &'a [String], &'a [SurfaceEntry], &'a Value);

/// What a platform shows, built only by applying batches.
#[derive(Debug, Default, PartialEq)]
struct Shown {
    items: Vec<ChatItem>,
    tool_calls: Vec<ToolCallUpdate>,
    phase: RunPhase,
    steps: Vec<String>,
    surfaces: Vec<SurfaceEntry>,
    state: Value,
    events: Vec<ViewEvent>,
    settled: u64,
}

impl Shown {
    fn apply(&mut self, batch: ViewBatch) {
        for diff in batch.messages {
            match diff {
                MessageDiff::Reset { items } => self.items = items,
                MessageDiff::Insert { index, item } => self.items.insert(index as usize, item),
                MessageDiff::Set { index, item } => self.items[index as usize] = item,
                MessageDiff::AppendText { index, text } => self.items[index as usize].text.push_str(&text),
                MessageDiff::AppendArguments { index, call, text } => {
                    self.items[index as usize].tool_calls[call as usize].arguments_json.push_str(&text)
                }
                MessageDiff::Marks { index, local_only, pending } => {
                    let item = &mut self.items[index as usize];
                    item.local_only = local_only;
                    item.pending = pending;
                }
                MessageDiff::Markdown { index, from, blocks, covered_utf8, covered_utf16 } => {
                    let tree =
                        self.items[index as usize].markdown.as_mut().expect("a Markdown diff for a Markdown item");
                    assert!(from as usize <= tree.blocks.len(), "a Markdown diff starts within the blocks shown");
                    tree.blocks.truncate(from as usize);
                    tree.blocks.extend(blocks);
                    (tree.covered_utf8, tree.covered_utf16) = (covered_utf8, covered_utf16);
                }
            }
        }
        for diff in batch.tool_calls {
            match diff {
                ToolCallDiff::Reset { calls } => self.tool_calls = calls,
                ToolCallDiff::Insert { index, call } => self.tool_calls.insert(index as usize, call),
                ToolCallDiff::Set { index, call } => self.tool_calls[index as usize] = call,
            }
        }
        if let Some(phase) = batch.phase {
            self.phase = phase;
        }
        if let Some(steps) = batch.active_steps {
            self.steps = steps;
        }
        if let Some(surfaces) = batch.surfaces {
            self.surfaces = surfaces;
        }
        if let Some(state) = batch.state {
            self.state = state;
        }
        self.events.extend(batch.event);
        self.settled = self.settled.max(batch.settled);
    }

    /// Everything `view` has queued, applied; the number of batches it took.
    fn drain(&mut self, view: &ViewSubscription) -> Vec<ViewBatch> {
        let batches: Vec<ViewBatch> = std::iter::from_fn(|| view.try_next_batch()).collect();
        for batch in batches.clone() {
            self.apply(batch);
        }
        batches
    }

    /// What a subscriber joining now is given, applied.
    fn fresh(conv: &Conversation) -> Shown {
        let mut shown = Shown::default();
        let first = conv.subscribe_view().try_next_batch().expect("a first batch");
        assert!(first.reset, "a new subscriber starts from the whole state");
        shown.apply(first);
        shown
    }

    /// The state part, without this subscriber's own events and barriers.
    fn state_part(&self) -> StatePart<'_> {
        (&self.items, &self.tool_calls, &self.phase, &self.steps, &self.surfaces, &self.state)
    }
}

#[tokio::test(start_paused = true)]
async fn the_view_starts_whole_then_streams_list_diffs_that_add_up_to_the_state() {
    let events = run_of(
        "r1",
        vec![
            text("a1", "Hello"),
            vec![json!({"type": "TEXT_MESSAGE_START", "messageId": "a2", "role": "assistant"})],
            (0..50)
                .map(|i| json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": format!("{i} ")}))
                .collect(),
            vec![json!({"type": "TEXT_MESSAGE_END", "messageId": "a2"})],
            tool_call("c1", "lookup", "{\"q\":1}", "a3"),
            vec![json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 1}})],
            vec![json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": 2}]})],
        ],
    );
    let server = TestServer::start(vec![Reply::sse(&events)]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();
    let first = shown.drain(&view);
    assert_eq!(first.len(), 1, "nothing but the whole state before the run");
    assert!(first[0].reset && shown.items.is_empty() && shown.phase == RunPhase::Idle);

    conv.send_message("hi".into()).await.unwrap();
    let batches = shown.drain(&view);
    assert!(!batches.iter().any(|b| b.reset), "no resync: the subscriber kept up");
    // The 50 pieces queued while nobody read arrive joined, in the item that inserts the message.
    let diffs: Vec<&MessageDiff> = batches
        .iter()
        .flat_map(|b| &b.messages)
        .filter(|d| matches!(d, MessageDiff::AppendText { index: 2, .. } | MessageDiff::Insert { index: 2, .. }))
        .collect();
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    let MessageDiff::Insert { item, .. } = diffs[0] else { panic!("{:?}", diffs[0]) };
    assert_eq!(item.text.split_whitespace().count(), 50);

    let truth = Shown::fresh(&conv);
    assert_eq!(shown.state_part(), truth.state_part());
    let roles: Vec<String> = shown.items.iter().map(|i| format!("{:?}:{}", i.role, i.text)).collect();
    assert_eq!(roles[0], "User:hi");
    assert_eq!(roles[1], "Assistant:Hello");
    assert!(roles[2].starts_with("Assistant:0 1 2 ") && roles[2].ends_with("49 "), "{}", roles[2]);
    assert_eq!(shown.items[3].tool_calls[0].arguments_json, "{\"q\":1}");
    assert_eq!(shown.tool_calls.len(), 1);
    assert_eq!(shown.state, json!({"count": 2}));
    assert!(matches!(shown.phase, RunPhase::Finished { .. }));
}

#[tokio::test(start_paused = true)]
async fn open_steps_are_part_of_the_state_a_late_subscriber_gets() {
    let step = |kind: &str, name: &str| json!({"type": kind, "stepName": name});
    let mut head = vec![step("STEP_STARTED", "plan"), step("STEP_STARTED", "search")];
    head.extend(text("a1", "searching"));
    head.push(step("STEP_FINISHED", "search"));
    let mut steps: Vec<Step> = std::iter::once(started("r1")).chain(head).map(|e| Step::Send(frame(&e))).collect();
    steps.push(Step::Sleep(HOLD));
    steps.push(Step::Send(frame(&step("STEP_FINISHED", "plan"))));
    steps.push(Step::Send(frame(&finished("r1"))));
    let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
    let conv = conversation(&server);
    let early = conv.subscribe_view();
    let mut seen = Shown::default();

    let run = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("go".into()).await }
    });
    // Mid-run, inside "plan": a subscriber that joins now (as after a resync) sees it open.
    tokio::time::sleep(HOLD / 2).await;
    assert_eq!(conv.snapshot().unwrap().active_steps, ["plan"]);
    assert_eq!(Shown::fresh(&conv).steps, ["plan"]);
    seen.drain(&early);
    assert_eq!(seen.steps, ["plan"]);
    let names: Vec<String> = seen.events.iter().map(|e| format!("{e:?}")).collect();
    assert_eq!(names.len(), 3, "each step event ends its batch: {names:?}");

    run.await.unwrap().unwrap();
    seen.drain(&early);
    assert!(seen.steps.is_empty() && Shown::fresh(&conv).steps.is_empty());
    assert!(conv.snapshot().unwrap().active_steps.is_empty());
}

#[tokio::test(start_paused = true)]
async fn an_event_ends_its_batch_so_the_app_sees_the_state_of_that_moment() {
    let events = run_of(
        "r1",
        vec![
            vec![json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"})],
            vec![json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "before "})],
            vec![json!({"type": "CUSTOM", "name": "progress", "value": {"percent": 50}})],
            vec![json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "after"})],
            vec![json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"})],
        ],
    );
    let server = TestServer::start(vec![Reply::sse(&events)]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();
    shown.drain(&view);
    conv.send_message("hi".into()).await.unwrap();

    let mut at_event = None;
    while let Some(batch) = view.try_next_batch() {
        let event = batch.event.clone();
        shown.apply(batch);
        if let Some(ViewEvent::Custom { name, value }) = event {
            assert_eq!((name.as_str(), value), ("progress", json!({"percent": 50})));
            at_event = Some(shown.items.last().map(|i| i.text.clone()).unwrap_or_default());
        }
    }
    assert_eq!(at_event.as_deref(), Some("before "), "the text streamed after the event is not shown with it");
    assert_eq!(shown.items.last().unwrap().text, "before after");
}

#[tokio::test(start_paused = true)]
async fn a_barrier_is_settled_once_everything_before_it_is_in_the_batches_read() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Hello!")]))]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();
    conv.send_message("hi".into()).await.unwrap();
    let barrier = view.barrier();
    assert_eq!(barrier, 1);
    let batches = shown.drain(&view);
    assert_eq!(shown.settled, barrier);
    // The batch that settles it already shows the run's end.
    let settling = batches.iter().position(|b| b.settled == barrier).unwrap();
    assert!(batches[..=settling].iter().any(|b| matches!(b.phase, Some(RunPhase::Finished { .. }))));
    assert_eq!(shown.items.last().unwrap().text, "Hello!");
    // Nothing queued: the next barrier comes back in a batch of its own.
    let second = view.barrier();
    let only = view.try_next_batch().expect("the barrier's batch");
    assert!(only.is_empty() && only.settled == second);
}

#[tokio::test(start_paused = true)]
async fn a_subscriber_that_falls_behind_is_given_the_whole_state_and_its_barriers_settled() {
    // More pieces than a queue holds, each on a message of its own so none join.
    let many: Vec<Vec<Value>> = (0..9000).map(|i| text(&format!("m{i}"), "x")).collect();
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", many))]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();
    shown.drain(&view);
    conv.send_message("hi".into()).await.unwrap();
    let barrier = view.barrier();

    let batches = shown.drain(&view);
    assert_eq!(batches.len(), 1, "one resync, not the lost deltas");
    assert!(batches[0].reset);
    assert_eq!(shown.settled, barrier, "the resync is newer than the barrier");
    assert_eq!(shown.items.len(), 9001);
    assert_eq!(shown.state_part(), Shown::fresh(&conv).state_part());
}

#[tokio::test(start_paused = true)]
async fn a_reader_that_cannot_apply_a_batch_asks_for_the_whole_state_again() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Hello!")]))]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();
    shown.drain(&view);
    conv.send_message("hi".into()).await.unwrap();
    // As a platform does when a diff names a position it does not have: what is queued goes,
    // and the next batch is the whole state.
    view.resync();
    let batches = shown.drain(&view);
    assert_eq!(batches.len(), 1);
    assert!(batches[0].reset);
    assert_eq!(shown.state_part(), Shown::fresh(&conv).state_part());
    assert_eq!(shown.items.len(), 2);
}

/// A reader whose waker reads at once, on the thread that wakes it, as a Kotlin coroutine resumed
/// unconfined does: publishing must not hold the hub's lock when it wakes readers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_woken_on_the_publishing_thread_can_read_at_once() {
    use futures_util::task::{waker, ArcWake};
    use std::future::Future;
    use std::sync::Arc;
    use std::task::Context;

    struct ReadOnWake(Arc<ViewSubscription>, std::sync::Mutex<Vec<ViewBatch>>);
    impl ArcWake for ReadOnWake {
        fn wake_by_ref(this: &Arc<Self>) {
            let batches: Vec<ViewBatch> = std::iter::from_fn(|| this.0.try_next_batch()).collect();
            this.1.lock().unwrap().extend(batches);
        }
    }

    let events = run_of("r1", vec![text("a1", "Hello"), vec![json!({"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}})]]);
    let server = TestServer::start(vec![Reply::sse(&events)]).await;
    let conv = conversation(&server);
    let view = Arc::new(conv.subscribe_view());
    assert!(view.try_next_batch().is_some_and(|b| b.reset));
    let reader = Arc::new(ReadOnWake(view.clone(), std::sync::Mutex::new(Vec::new())));
    let mut pending = Box::pin(view.next_batch());
    let waker = waker(reader.clone());
    assert!(pending.as_mut().poll(&mut Context::from_waker(&waker)).is_pending());

    tokio::time::timeout(Duration::from_secs(10), conv.send_message("hi".into()))
        .await
        .expect("no deadlock: the run ends while its reader reads on wake")
        .unwrap();
    let mut shown = Shown::default();
    let take = |shown: &mut Shown| {
        for batch in reader.1.lock().unwrap().drain(..) {
            shown.apply(batch);
        }
        shown.drain(&view);
    };
    take(&mut shown);
    assert_eq!(shown.state, json!({"n": 1}));

    // The same for a barrier: it wakes the reader, which reads at once, in the barrier call.
    let mut again = Box::pin(view.next_batch());
    assert!(again.as_mut().poll(&mut Context::from_waker(&waker)).is_pending());
    let barrier = view.barrier();
    assert!(reader.1.lock().unwrap().iter().any(|b| b.settled == barrier), "read on wake");
    take(&mut shown);
    assert_eq!(shown.settled, barrier);
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_answer_is_marked_in_place_and_nothing_else_of_it_is_sent_again() {
    let head: Vec<Value> = text("a1", "half an ans").into_iter().take(2).collect();
    let mut steps: Vec<Step> =
        std::iter::once(started("r1")).chain(head).map(|e: Value| Step::Send(frame(&e))).collect();
    steps.push(Step::Sleep(HOLD));
    steps.push(Step::Send(frame(&finished("r1"))));
    let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();

    let run = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("go".into()).await }
    });
    tokio::time::sleep(HOLD / 2).await;
    shown.drain(&view);
    conv.cancel();
    let _ = run.await.unwrap();
    let batches = shown.drain(&view);
    let marks: Vec<&MessageDiff> =
        batches.iter().flat_map(|b| &b.messages).filter(|d| matches!(d, MessageDiff::Marks { .. })).collect();
    assert_eq!(marks, [&MessageDiff::Marks { index: 1, local_only: Some(LocalOnly::Cancelled), pending: false }]);
    assert_eq!(shown.items[1].text, "half an ans");
    assert_eq!(shown.items[1].local_only, Some(LocalOnly::Cancelled));
    assert_eq!(shown.state_part(), Shown::fresh(&conv).state_part());
}

/// The shared adapter cases (tests/adapter-cases/cases.json), checked here against the core's
/// own batches with the same reading the platforms' tests use: a case that the core does not
/// meet fails here first, whatever the platforms do.
#[test]
fn the_shared_adapter_cases_hold_for_the_batches_the_core_builds() {
    use agentui_runtime::view::replay;
    use agentui_runtime::{ConversationDelta, ConversationSnapshot};

    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/adapter-cases/cases.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 10, "too few cases");
    // A name as the cases write it: the variant's name, without its fields.
    let name = |debug: String| debug.split([' ', '(', '{']).next().unwrap().to_owned();
    for case in cases {
        let title = case["name"].as_str().unwrap();
        let snapshot: ConversationSnapshot =
            case.get("snapshot").map(|s| serde_json::from_value(s.clone()).unwrap()).unwrap_or_default();
        let deltas: Vec<ConversationDelta> =
            case.get("deltas").map(|d| serde_json::from_value(d.clone()).unwrap()).unwrap_or_default();
        let mut shown = Shown::default();
        for batch in replay(snapshot, &deltas) {
            shown.apply(batch);
        }
        let expect = &case["expect"];
        if let Some(messages) = expect.get("messages").and_then(Value::as_array) {
            assert_eq!(shown.items.len(), messages.len(), "{title}: message count");
            for (item, want) in shown.items.iter().zip(messages) {
                assert_eq!(item.id, want["id"], "{title}");
                assert_eq!(format!("{:?}", item.role).to_lowercase(), want["role"], "{title}");
                assert_eq!(item.text, want["text"], "{title}");
                if let Some(local) = want.get("localOnly") {
                    assert_eq!(
                        item.local_only.map(|l| format!("{l:?}")).map_or(Value::Null, Value::from),
                        *local,
                        "{title}"
                    );
                }
                if let Some(pending) = want.get("pending") {
                    assert_eq!(Value::from(item.pending), *pending, "{title}");
                }
                if let Some(calls) = want.get("toolCalls") {
                    let got: Vec<Value> = item.tool_calls.iter().map(|c| json!([c.id, c.arguments_json])).collect();
                    assert_eq!(Value::from(got), *calls, "{title}");
                }
            }
        }
        if let Some(calls) = expect.get("toolCalls") {
            let got: Vec<Value> =
                shown.tool_calls.iter().map(|c| json!([c.tool_call_id, name(format!("{:?}", c.phase))])).collect();
            assert_eq!(Value::from(got), *calls, "{title}");
        }
        if let Some(phase) = expect.get("phase") {
            assert_eq!(name(format!("{:?}", shown.phase)), *phase, "{title}");
        }
        if let Some(steps) = expect.get("activeSteps") {
            assert_eq!(json!(shown.steps), *steps, "{title}");
        }
        if let Some(state) = expect.get("state") {
            assert_eq!(shown.state, *state, "{title}");
        }
        if let Some(surfaces) = expect.get("surfaces") {
            assert_eq!(json!(shown.surfaces.iter().map(|s| &s.surface_id).collect::<Vec<_>>()), *surfaces, "{title}");
        }
        if let Some(events) = expect.get("events") {
            let got: Vec<String> = shown
                .events
                .iter()
                .map(|e| match e {
                    ViewEvent::Custom { name, .. } => format!("Custom:{name}"),
                    ViewEvent::Raw { .. } => "Raw".to_owned(),
                    ViewEvent::StepStarted { name } => format!("StepStarted:{name}"),
                    ViewEvent::StepFinished { name } => format!("StepFinished:{name}"),
                    ViewEvent::Warning { warning } => match warning.kind {
                        agentui_runtime::session::SessionWarningKind::Protocol(kind) => format!("Warning:{kind:?}"),
                        kind => format!("Warning:{kind:?}"),
                    },
                })
                .collect();
            assert_eq!(json!(got), *events, "{title}");
        }
    }
}

/// Two server calls in parallel, then the first one's result: the reducer places the result
/// right after the call it answers (the order the next request sends), and the view must show
/// that order too, not the result appended at the end.
#[tokio::test(start_paused = true)]
async fn a_tool_result_answering_an_earlier_call_is_shown_where_the_history_has_it() {
    let result = json!({"type": "TOOL_CALL_RESULT", "messageId": "r1", "toolCallId": "c1", "content": "sunny"});
    let events =
        run_of("r1", vec![tool_call("c1", "weather", "{}", "a1"), tool_call("c2", "news", "{}", "a2"), vec![result]]);
    let server = TestServer::start(vec![Reply::sse(&events), Reply::sse(&run_of("r2", vec![]))]).await;
    let conv = conversation(&server);
    let view = conv.subscribe_view();
    let mut shown = Shown::default();
    conv.send_message("hi".into()).await.unwrap();
    shown.drain(&view);
    let ids: Vec<&str> = shown.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids[1..], ["a1", "r1", "a2"], "{ids:?}");
    assert_eq!(shown.state_part(), Shown::fresh(&conv).state_part());

    // The next request carries the history in the same order.
    conv.send_message("again".into()).await.unwrap();
    let sent: Vec<String> = server.requests()[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(&sent[1..4], ["a1", "r1", "a2"]);
}

/// What streams into a message the same batch inserts (or replaces) rides in its item: the
/// platform gets one item with the text so far, not an insert followed by appends to it.
#[test]
fn pieces_of_a_message_inserted_in_the_same_batch_ride_in_its_item() {
    use agentui_runtime::view::replay;
    use agentui_runtime::{ConversationDelta, ConversationSnapshot};

    let deltas: Vec<ConversationDelta> = serde_json::from_value(json!([
        {"MessageAdded": {"id": "a1", "role": "assistant", "content": ""}},
        {"TextAppended": {"message_id": "a1", "delta": "Hel"}},
        {"TextAppended": {"message_id": "a1", "delta": "lo"}},
        {"MessageAdded": {"id": "a2", "role": "assistant", "content": "", "toolCalls": [
            {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": ""}}
        ]}},
        {"ToolCallArgsAppended": {"message_id": "a2", "tool_call_id": "c1", "delta": "{\"q\":"}},
        {"ToolCallArgsAppended": {"message_id": "a2", "tool_call_id": "c1", "delta": "1}"}},
        {"TextAppended": {"message_id": "a1", "delta": "!"}}
    ]))
    .unwrap();
    let batches = replay(ConversationSnapshot::default(), &deltas);
    let all: Vec<&MessageDiff> = batches.iter().flat_map(|b| &b.messages).skip(1).collect();
    // The earlier message's tree follows its last append; the Markdown is checked below.
    let diffs: Vec<&MessageDiff> = all.iter().copied().filter(|d| !matches!(d, MessageDiff::Markdown { .. })).collect();
    assert_eq!(diffs.len(), 3, "two inserts and the append to the earlier message: {all:#?}");
    let MessageDiff::Insert { index: 0, item } = diffs[0] else { panic!("{:?}", diffs[0]) };
    assert_eq!(item.text, "Hello");
    let Some(MessageDiff::Markdown { index: 0, covered_utf8, .. }) = all.last() else { panic!("{all:#?}") };
    assert!(*covered_utf8 <= "Hello!".len() as u64);
    let MessageDiff::Insert { index: 1, item } = diffs[1] else { panic!("{:?}", diffs[1]) };
    assert_eq!(item.tool_calls[0].arguments_json, "{\"q\":1}");
    assert!(matches!(diffs[2], MessageDiff::AppendText { index: 0, text } if text == "!"));
}

/// A message replaced right after this batch inserted it (a tool call started after its text),
/// and a call's phases in a row, cross once each: the diff before takes the newer value. One that
/// another message's or call's diff followed gets a diff of its own.
#[test]
fn a_message_or_call_changed_again_in_its_batch_crosses_once() {
    use agentui_runtime::view::replay;
    use agentui_runtime::{ConversationDelta, ConversationSnapshot};

    let call = |id: &str| json!([{"id": id, "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]);
    let deltas: Vec<ConversationDelta> = serde_json::from_value(json!([
        {"MessageAdded": {"id": "a1", "role": "assistant", "content": ""}},
        {"TextAppended": {"message_id": "a1", "delta": "Looking"}},
        {"MessageReplaced": {"id": "a1", "role": "assistant", "content": "Looking", "toolCalls": call("c1")}},
        {"ToolCall": {"tool_call_id": "c1", "tool_name": "lookup", "phase": "Streaming"}},
        {"ToolCall": {"tool_call_id": "c1", "tool_name": "lookup", "phase": "Requested"}},
        {"ToolCall": {"tool_call_id": "c1", "tool_name": "lookup", "phase": "CompletedByServer"}},
        {"MessageAdded": {"id": "t1", "role": "tool", "content": "42", "toolCallId": "c1"}},
        {"MessageReplaced": {"id": "a1", "role": "assistant", "content": "Looking", "toolCalls": call("c2")}},
        {"ToolCall": {"tool_call_id": "c2", "tool_name": "lookup", "phase": "Streaming"}},
        {"ToolCall": {"tool_call_id": "c1", "tool_name": "lookup", "phase": "OwnedByServer"}}
    ]))
    .unwrap();
    let batches = replay(ConversationSnapshot::default(), &deltas);
    assert_eq!(batches.len(), 1, "{batches:#?}");
    let diffs: Vec<&MessageDiff> =
        batches[0].messages.iter().skip(1).filter(|d| !matches!(d, MessageDiff::Markdown { .. })).collect();
    assert_eq!(diffs.len(), 3, "{diffs:#?}");
    let MessageDiff::Insert { index: 0, item } = diffs[0] else { panic!("{:?}", diffs[0]) };
    assert_eq!((item.text.as_str(), item.tool_calls[0].id.as_str()), ("Looking", "c1"));
    assert!(item.markdown.is_some(), "the newer item brings its tree");
    assert!(matches!(diffs[1], MessageDiff::Insert { index: 1, .. }));
    let MessageDiff::Set { index: 0, item } = diffs[2] else { panic!("{:?}", diffs[2]) };
    assert_eq!(item.tool_calls[0].id, "c2");

    let calls = &batches[0].tool_calls[1..];
    assert_eq!(calls.len(), 3, "{calls:#?}");
    assert!(
        matches!(&calls[0], ToolCallDiff::Insert { index: 0, call } if call.phase == ToolCallPhase::CompletedByServer)
    );
    assert!(matches!(&calls[1], ToolCallDiff::Insert { index: 1, call } if call.phase == ToolCallPhase::Streaming));
    assert!(matches!(&calls[2], ToolCallDiff::Set { index: 0, call } if call.phase == ToolCallPhase::OwnedByServer));
}

/// A message inserted and streamed in one batch carries its Markdown tree inside its item: no
/// separate Markdown diff follows for it.
#[test]
fn a_message_inserted_and_streamed_in_one_batch_carries_its_tree() {
    use agentui_runtime::view::replay;
    use agentui_runtime::{ConversationDelta, ConversationSnapshot};

    let deltas: Vec<ConversationDelta> = serde_json::from_value(json!([
        {"MessageAdded": {"id": "a1", "role": "assistant", "content": ""}},
        {"TextAppended": {"message_id": "a1", "delta": "# Title\n\nSome "}},
        {"TextAppended": {"message_id": "a1", "delta": "**bold** text"}}
    ]))
    .unwrap();
    let batches = replay(ConversationSnapshot::default(), &deltas);
    let diffs: Vec<&MessageDiff> = batches.iter().flat_map(|b| &b.messages).skip(1).collect();
    assert_eq!(diffs.len(), 1, "{diffs:#?}");
    let MessageDiff::Insert { item, .. } = diffs[0] else { panic!("{:?}", diffs[0]) };
    let tree = item.markdown.as_ref().expect("an assistant item has a tree");
    assert!(!tree.blocks.is_empty(), "the streamed text is parsed into the item: {tree:?}");
    assert!(tree.covered_utf8 <= item.text.len() as u64);
}

mod markdown {
    //! Assistant text as a Markdown tree: built whole for an item, streamed as "blocks from k".

    use std::sync::Arc;

    use agentui_agui::message::{MessageContent, Role};
    use agentui_agui::Message;
    use agentui_markdown::{parse_document, MarkdownOptions, MdBlock, MdInline, Profile};
    use agentui_runtime::observe::{ConversationDelta, ConversationSnapshot, Observed, RunPhase};
    use agentui_runtime::view::{MessageDiff, ViewBatch, ViewFeed};
    use serde_json::Value;

    use super::Shown;

    fn message(id: &str, role: Role, text: &str) -> Message {
        let mut m = Message::new(id, role);
        m.content = Some(MessageContent::Text(text.into()));
        m
    }

    fn chat_options() -> Arc<MarkdownOptions> {
        Arc::new(MarkdownOptions::new(Profile::Chat, Arc::new(agentui_a2ui::functions::UrlPolicy::default())))
    }

    /// One batch per observed item, as a platform that reads after every piece gets them.
    fn feed_each(feed: &mut ViewFeed, items: Vec<Observed>) -> Vec<ViewBatch> {
        items
            .into_iter()
            .map(|item| {
                let mut batch = ViewBatch::default();
                feed.push(&mut batch, &item, &mut || Value::Null);
                feed.finish(&mut batch);
                batch
            })
            .collect()
    }

    const ANSWER: &str = "# Plan\n\nFirst **install** it, see [docs](https://example.com/d) or [x](javascript:x).\n\n\
- one\n- two\n\n```sh\ncargo build\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.";

    #[test]
    fn items_carry_the_tree_for_assistant_and_reasoning_text_only() {
        let snapshot = ConversationSnapshot {
            messages: vec![
                message("u", Role::User, "**not** markdown"),
                message("a", Role::Assistant, ANSWER),
                message("r", Role::Reasoning, "*thinking*"),
            ],
            ..ConversationSnapshot::default()
        };
        let mut shown = Shown::default();
        for batch in feed_each(&mut ViewFeed::new(), vec![Observed::Snapshot(Box::new(snapshot))]) {
            shown.apply(batch);
        }
        assert_eq!(shown.items[0].markdown, None, "user text is shown as typed");
        let tree = shown.items[1].markdown.as_ref().expect("assistant text has a tree");
        assert_eq!(tree, &parse_document(ANSWER, chat_options()), "the default policy: http(s) links only");
        assert!(matches!(tree.blocks[0], MdBlock::Heading { level: 1, .. }));
        let MdBlock::Paragraph { inlines } = &tree.blocks[1] else { panic!() };
        assert_eq!(inlines.iter().filter(|i| matches!(i, MdInline::Link { .. })).count(), 1, "javascript: is no link");
        assert!(shown.items[2].markdown.is_some(), "reasoning text too");
    }

    #[test]
    fn streamed_one_character_at_a_time_the_tree_ends_as_the_restored_one() {
        let mut feed = ViewFeed::new();
        let mut items = vec![
            Observed::Snapshot(Box::default()),
            Observed::Delta(ConversationDelta::RunPhase(RunPhase::Running { run_id: "r".into() })),
            Observed::Delta(ConversationDelta::MessageAdded(message("a", Role::Assistant, ""))),
        ];
        items.extend(ANSWER.chars().map(|c| {
            Observed::Delta(ConversationDelta::TextAppended { message_id: "a".into(), delta: c.to_string() })
        }));
        let batches_before_end = items.len();
        items.push(Observed::Delta(ConversationDelta::RunPhase(RunPhase::Idle)));
        let batches = feed_each(&mut feed, items);
        let mut shown = Shown::default();
        let mut froms = Vec::new();
        for (n, batch) in batches.into_iter().enumerate() {
            for diff in &batch.messages {
                if let MessageDiff::Markdown { from, .. } = diff {
                    froms.push(*from);
                }
            }
            shown.apply(batch);
            if n + 1 == batches_before_end {
                let tree = shown.items[0].markdown.as_ref().unwrap();
                assert!(tree.covered_utf8 <= ANSWER.len() as u64);
            }
        }
        // Committed blocks are not sent again: `from` never goes back, and ends past them.
        assert!(froms.windows(2).all(|w| w[0] <= w[1]), "{froms:?}");
        assert!(*froms.last().unwrap() >= 4, "heading, paragraph, list and code committed: {froms:?}");
        assert!(froms.len() < ANSWER.len() / 2, "parsed far less often than once a character: {}", froms.len());
        let restored = parse_document(ANSWER, chat_options());
        assert_eq!(shown.items[0].text, ANSWER);
        assert_eq!(shown.items[0].markdown.as_ref(), Some(&restored), "the run's end flushes what lagged");
    }

    #[test]
    fn the_session_options_decide_links_images_and_bounds_of_chat_markdown() {
        use agentui_a2ui::functions::UrlPolicy;
        use agentui_agui::MemoryBudget;
        use agentui_markdown::PlainReason;
        use agentui_runtime::session::{ChatMarkdown, ConversationSession, SessionOptions};
        use agentui_runtime::SurfaceBudget;

        let budget = MemoryBudget { max_markdown_depth: 2, max_markdown_table_cells: 5, ..MemoryBudget::default() };
        assert_eq!(budget.a2ui_limits(Default::default()).markdown, budget.markdown_limits(), "surfaces too");
        let options = SessionOptions {
            url_policy: UrlPolicy { allowed_schemes: vec!["https".into(), "myapp".into()] },
            chat_markdown: ChatMarkdown { enabled: true, images: true },
            budget,
            ..SessionOptions::default()
        };
        let session = ConversationSession::connect("http://127.0.0.1:9/agent", &[], options.clone()).unwrap();
        let markdown = session.chat_markdown().expect("on");
        let text = "[a](http://x.example/a) [b](https://x.example/b) ![i](myapp://i) ![j](http://x.example/j)\n\n\
> > > deep\n\n| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n";
        let snapshot =
            ConversationSnapshot { messages: vec![message("a", Role::Assistant, text)], ..Default::default() };
        let mut shown = Shown::default();
        let mut feed = ViewFeed::with_markdown(Some(markdown));
        for batch in feed_each(&mut feed, vec![Observed::Snapshot(Box::new(snapshot))]) {
            shown.apply(batch);
        }
        let tree = shown.items[0].markdown.as_ref().unwrap();
        let MdBlock::Paragraph { inlines } = &tree.blocks[0] else { panic!("{tree:?}") };
        let links: Vec<&str> = inlines
            .iter()
            .filter_map(|i| if let MdInline::Link { url, .. } = i { Some(url.as_str()) } else { None })
            .collect();
        assert_eq!(links, ["https://x.example/b"], "the app's list: http is not in it");
        let images: Vec<&str> = inlines
            .iter()
            .filter_map(|i| if let MdInline::Image { url, .. } = i { Some(url.as_str()) } else { None })
            .collect();
        assert_eq!(images, ["myapp://i"], "images on, through the media rule");
        let MdBlock::Quote { blocks } = &tree.blocks[1] else { panic!("{tree:?}") };
        let MdBlock::Quote { blocks } = &blocks[0] else { panic!("{tree:?}") };
        assert!(matches!(&blocks[0], MdBlock::PlainText { reason: PlainReason::TooDeep, .. }), "{blocks:?}");
        assert!(matches!(&tree.blocks[2], MdBlock::PlainText { reason: PlainReason::TooManyCells, .. }));

        let off = SessionOptions { chat_markdown: ChatMarkdown { enabled: false, images: true }, ..options };
        let session = ConversationSession::connect("http://127.0.0.1:9/agent", &[], off).unwrap();
        assert!(session.chat_markdown().is_none(), "off: no tree");
    }
}
