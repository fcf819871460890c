//! The timeline: the shared cases (tests/timeline-cases), and the incremental list always equal
//! to the one built from nothing.

use agentui_agui::message::{Interrupt, MessageContent, Role};
use agentui_agui::Message;
use agentui_runtime::observe::{PendingSend, PendingSendKind, ToolCallPhase, ToolCallUpdate};
use agentui_runtime::session::RunPhase;
use agentui_runtime::timeline::{apply_changes, Delivery, Timeline, TimelineChange, TimelineItem, TimelineItemKind};
use agentui_runtime::{ConsentRequest, ConversationDelta, ConversationSnapshot, Observed, SurfaceEntry};
use serde_json::{json, Map, Value};

fn text_message(id: &str, role: Role, text: &str) -> Message {
    let mut message = Message::new(id, role);
    message.content = Some(MessageContent::Text(text.to_owned()));
    message
}

/// A variant's name, without its fields.
fn name(debug: String) -> String {
    debug.split([' ', '(', '{']).next().unwrap().to_owned()
}

/// An item as the cases write it: every field they may check.
fn describe(item: &TimelineItem) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("kind".into(), name(format!("{:?}", item.kind)).into());
    out.insert("key".into(), item.key.clone().into());
    match &item.kind {
        TimelineItemKind::UserMessage { text, media, delivery, .. } => {
            out.insert("text".into(), text.clone().into());
            out.insert("media".into(), media.len().into());
            out.insert("delivery".into(), name(format!("{delivery:?}")).into());
            if let Delivery::Failed { retry, .. } = delivery {
                out.insert("retry".into(), format!("{retry:?}").into());
            }
        }
        TimelineItemKind::AgentMessage { text, media, streaming, cut_short, .. } => {
            out.insert("text".into(), text.clone().into());
            out.insert("media".into(), media.len().into());
            out.insert("streaming".into(), (*streaming).into());
            out.insert("cutShort".into(), (*cut_short).into());
        }
        TimelineItemKind::ToolActivity { name: tool, side, phase, .. } => {
            out.insert("name".into(), tool.clone().into());
            out.insert("side".into(), format!("{side:?}").into());
            out.insert("phase".into(), phase.as_ref().map_or(Value::Null, |p| name(format!("{p:?}")).into()));
        }
        TimelineItemKind::Surface { .. } | TimelineItemKind::RunInProgress { .. } => {}
        TimelineItemKind::Interrupt { interrupt } => {
            out.insert("question".into(), interrupt.message.clone().unwrap_or(interrupt.reason.clone()).into());
            out.insert("schema".into(), interrupt.response_schema.clone().map_or(Value::Null, Value::Object));
        }
        TimelineItemKind::ConsentRequest { request } => {
            out.insert("tool".into(), request.tool_name.clone().into());
        }
        TimelineItemKind::RunError { kind, message, retry, .. } => {
            out.insert("errorKind".into(), format!("{kind:?}").into());
            out.insert("message".into(), message.clone().into());
            out.insert("retry".into(), format!("{retry:?}").into());
        }
    }
    out
}

/// Applies `observed` to `timeline` and to a platform's copy of its rows, and checks the three
/// agree: the copy the changes built, the timeline's own rows, and the rows built from nothing.
fn step(
    timeline: &mut Timeline,
    shown: &mut Vec<TimelineItem>,
    observed: &Observed,
    title: &str,
) -> Vec<TimelineChange> {
    let changes = timeline.apply(observed);
    apply_changes(shown, &changes);
    assert_eq!(shown.as_slice(), timeline.items(), "{title}: the changes build the timeline's rows");
    assert_eq!(timeline.rebuild(), timeline.items(), "{title}: the incremental rows are the rows built whole");
    let mut keys: Vec<&str> = shown.iter().map(|i| i.key.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), shown.len(), "{title}: keys are unique");
    changes
}

#[test]
fn the_shared_timeline_cases_hold() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/timeline-cases/cases.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 12, "too few cases");
    let mut kinds_seen = std::collections::BTreeSet::new();
    for case in cases {
        let title = case["name"].as_str().unwrap();
        let snapshot: ConversationSnapshot =
            case.get("snapshot").map(|s| serde_json::from_value(s.clone()).unwrap()).unwrap_or_default();
        let deltas: Vec<ConversationDelta> =
            case.get("deltas").map(|d| serde_json::from_value(d.clone()).unwrap()).unwrap_or_default();
        let checkpoints = case["expect"].as_array().unwrap();
        assert!(!checkpoints.is_empty(), "{title}: nothing expected");
        let mut timeline = Timeline::new();
        let mut shown = Vec::new();
        // What the platforms' tests get for the case (`timeline_case_changes`), step by step.
        let replayed = agentui_runtime::timeline::replay(snapshot.clone(), &deltas);
        let mut made = vec![step(&mut timeline, &mut shown, &Observed::Snapshot(Box::new(snapshot)), title)];
        for applied in 0..=deltas.len() {
            if applied > 0 {
                made.push(step(&mut timeline, &mut shown, &Observed::Delta(deltas[applied - 1].clone()), title));
            }
            for checkpoint in checkpoints.iter().filter(|c| c["after"].as_u64() == Some(applied as u64)) {
                let want = checkpoint["items"].as_array().unwrap();
                let got: Vec<Map<String, Value>> = shown.iter().map(describe).collect();
                let keys =
                    |items: &[Map<String, Value>]| -> Vec<Value> { items.iter().map(|i| i["key"].clone()).collect() };
                let want_keys: Vec<Value> = want.iter().map(|i| i["key"].clone()).collect();
                assert_eq!(keys(&got), want_keys, "{title}: after {applied}: the rows in order");
                for (item, expected) in got.iter().zip(want) {
                    kinds_seen.insert(item["kind"].as_str().unwrap().to_owned());
                    for (field, value) in expected.as_object().unwrap() {
                        assert_eq!(item.get(field), Some(value), "{title}: after {applied}: {} {field}", item["key"]);
                    }
                }
            }
        }
        assert_eq!(made, replayed, "{title}: the replay the platforms get");
        assert!(
            checkpoints.iter().all(|c| c["after"].as_u64().is_some_and(|n| n as usize <= deltas.len())),
            "{title}: a checkpoint past the deltas"
        );
    }
    let every_kind = [
        "UserMessage",
        "AgentMessage",
        "ToolActivity",
        "Surface",
        "Interrupt",
        "ConsentRequest",
        "RunError",
        "RunInProgress",
    ];
    for kind in every_kind {
        assert!(kinds_seen.contains(kind), "no case shows a {kind}");
    }
}

/// A streamed piece changes its row in place: no rebuild, one change that carries the piece only.
#[test]
fn a_streamed_piece_is_one_append_to_its_row() {
    let mut timeline = Timeline::new();
    let mut shown = Vec::new();
    let mut snapshot = ConversationSnapshot::default();
    snapshot.messages.push(text_message("u1", Role::User, "hi"));
    snapshot.messages.push(text_message("a1", Role::Assistant, "He"));
    snapshot.phase = RunPhase::Running { run_id: "r".into() };
    step(&mut timeline, &mut shown, &Observed::Snapshot(Box::new(snapshot)), "start");
    let changes = step(
        &mut timeline,
        &mut shown,
        &Observed::Delta(ConversationDelta::TextAppended { message_id: "a1".into(), delta: "llo".into() }),
        "append",
    );
    assert_eq!(changes, vec![TimelineChange::TextAppended { index: 1, key: "m:a1".into(), text: "llo".into() }]);
}

/// A small deterministic generator, so the long sequence below is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Thousands of deltas of every kind, in a mixed order: after each, the rows the changes built
/// are the rows built from nothing, and there are never more rows than the state they show.
#[test]
fn the_incremental_timeline_always_agrees_with_the_one_built_whole() {
    for seed in [38, 7, 2026] {
        agrees_for(seed);
    }
}

fn agrees_for(seed: u64) {
    let mut random = Lcg(seed);
    let mut timeline = Timeline::new();
    let mut shown = Vec::new();
    step(&mut timeline, &mut shown, &Observed::Snapshot(Box::default()), "start");
    let mut messages: Vec<Message> = Vec::new();
    let mut calls: Vec<String> = Vec::new();
    let mut surfaces: Vec<String> = Vec::new();
    for n in 0..4000 {
        let delta = match random.below(14) {
            0 | 1 => {
                let role = [Role::User, Role::Assistant, Role::Tool, Role::Activity][random.below(4)];
                let mut message = text_message(&format!("m{n}"), role, if random.below(2) == 0 { "" } else { "x" });
                if role == Role::Assistant && random.below(2) == 0 {
                    let id = format!("c{n}");
                    message.tool_calls = Some(vec![serde_json::from_value(
                        json!({"id": id, "type": "function", "function": {"name": "t", "arguments": ""}}),
                    )
                    .unwrap()]);
                    calls.push(id);
                }
                if role == Role::Activity {
                    message.activity_type = Some("a2ui-surface".into());
                    let surface = format!("s{}", random.below(8));
                    message.content = Some(MessageContent::Object(
                        json!({"a2ui_operations": [{"version": "v0.9", "createSurface": {"surfaceId": surface, "catalogId": "c"}}]})
                            .as_object()
                            .unwrap()
                            .clone(),
                    ));
                }
                messages.push(message.clone());
                ConversationDelta::MessageAdded(message)
            }
            2..=4 if !messages.is_empty() => ConversationDelta::TextAppended {
                message_id: messages[random.below(messages.len())].id.clone(),
                delta: "y".into(),
            },
            5 if !calls.is_empty() => {
                let phases = [
                    ToolCallPhase::Streaming,
                    ToolCallPhase::Requested,
                    ToolCallPhase::Running,
                    ToolCallPhase::CompletedByServer,
                    ToolCallPhase::OwnedByServer,
                ];
                ConversationDelta::ToolCall(ToolCallUpdate {
                    tool_call_id: calls[random.below(calls.len())].clone(),
                    tool_name: "t".into(),
                    phase: phases[random.below(phases.len())].clone(),
                })
            }
            6 => {
                let id = format!("s{}", random.below(8));
                surfaces.push(id.clone());
                ConversationDelta::SurfaceAdded(SurfaceEntry { surface_id: id, catalog_id: "c".into() })
            }
            7 if !surfaces.is_empty() => {
                ConversationDelta::SurfaceRemoved { surface_id: surfaces.swap_remove(random.below(surfaces.len())) }
            }
            8 => {
                let phases = [
                    RunPhase::Idle,
                    RunPhase::Starting { run_id: "r".into() },
                    RunPhase::Running { run_id: "r".into() },
                    RunPhase::AgentError { message: "e".into(), code: None },
                    RunPhase::Failed { error: "f".into() },
                    RunPhase::Cancelled,
                ];
                ConversationDelta::RunPhase(phases[random.below(phases.len())].clone())
            }
            9 if !messages.is_empty() => {
                let id = messages[random.below(messages.len())].id.clone();
                ConversationDelta::PendingSends(vec![PendingSend {
                    key: "k".into(),
                    kind: PendingSendKind::Message { message_id: id, text: String::new() },
                    attempts: random.below(3) as u32,
                    last_error: None,
                    reason: Default::default(),
                }])
            }
            10 if !calls.is_empty() => ConversationDelta::Consent {
                requests: (0..random.below(3))
                    .map(|_| {
                        let id = calls[random.below(calls.len())].clone();
                        let request = ConsentRequest {
                            tool_call_id: id.clone(),
                            tool_name: "t".into(),
                            arguments: json!({}),
                            asked_at_ms: 0,
                        };
                        (id, request)
                    })
                    .collect::<std::collections::BTreeMap<_, _>>()
                    .into_values()
                    .collect(),
                granted_tools: Vec::new(),
            },
            11 => ConversationDelta::Interrupts(
                (0..random.below(3))
                    .map(|i| {
                        serde_json::from_value::<Interrupt>(json!({"id": format!("i{i}"), "reason": "r"})).unwrap()
                    })
                    .collect(),
            ),
            12 if random.below(20) == 0 && !messages.is_empty() => {
                // A reset keeps a random part of the list, in order.
                messages.retain(|_| random.below(3) != 0);
                ConversationDelta::MessagesReset(messages.clone())
            }
            13 if !messages.is_empty() => {
                let at = random.below(messages.len());
                messages[at].content = Some(MessageContent::Text("replaced".into()));
                // A call started on it, its calls dropped, or one of another message's calls again.
                match random.below(4) {
                    0 => {
                        let id = format!("c{n}");
                        messages[at].tool_calls.get_or_insert_with(Vec::new).push(
                            serde_json::from_value(
                                json!({"id": id, "type": "function", "function": {"name": "t", "arguments": ""}}),
                            )
                            .unwrap(),
                        );
                        calls.push(id);
                    }
                    1 => messages[at].tool_calls = None,
                    2 if !calls.is_empty() => {
                        let id = calls[random.below(calls.len())].clone();
                        messages[at].tool_calls = Some(vec![serde_json::from_value(
                            json!({"id": id, "type": "function", "function": {"name": "t", "arguments": ""}}),
                        )
                        .unwrap()]);
                    }
                    _ => {}
                }
                ConversationDelta::MessageReplaced(messages[at].clone())
            }
            _ => ConversationDelta::StateReplaced(json!(n)),
        };
        step(&mut timeline, &mut shown, &Observed::Delta(delta), &format!("delta {n}"));
        let bound = messages.len()
            + messages.iter().map(|m| m.tool_calls.as_ref().map_or(0, Vec::len)).sum::<usize>()
            + 8 // surfaces
            + 2 // consent requests
            + 2 // interrupts
            + 2; // the run's error or progress
        assert!(shown.len() <= bound, "{} rows for a state of at most {bound}", shown.len());
    }
}

/// The timeline a view carries, applied batch by batch as a platform does, is the timeline of
/// the conversation as a new subscriber sees it: through a real run (text streamed while nobody
/// read, a server-side tool call, a surface from a CUSTOM event).
#[tokio::test(start_paused = true)]
async fn a_timeline_view_adds_up_to_the_conversations_timeline() {
    use crate::tests::support::*;
    use agentui_runtime::session::{ConversationSession, SessionOptions};
    use agentui_runtime::timeline::TimelineItemKind;
    use agentui_runtime::Conversation;

    let surface = json!({"version": "v0.9", "createSurface": {"surfaceId": "card", "catalogId": "https://a2ui.org/specification/v0_9/basic_catalog.json"}});
    let events = run_of(
        "r1",
        vec![
            text("a1", "Hello"),
            vec![json!({"type": "TEXT_MESSAGE_START", "messageId": "a2", "role": "assistant"})],
            (0..40)
                .map(|i| json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": format!("{i} ")}))
                .collect(),
            vec![json!({"type": "TEXT_MESSAGE_END", "messageId": "a2"})],
            tool_call("c1", "search", "{\"q\":1}", "a3"),
            vec![json!({"type": "CUSTOM", "name": "a2ui", "value": surface})],
        ],
    );
    let server = TestServer::start(vec![Reply::sse(&events)]).await;
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    let conv = Conversation::start(session, tokio::runtime::Handle::current());
    let view = conv.subscribe_timeline_view();
    let mut shown = Vec::new();
    let drain = |shown: &mut Vec<TimelineItem>| {
        let batches: Vec<_> = std::iter::from_fn(|| view.try_next_batch()).collect();
        for batch in &batches {
            apply_changes(shown, &batch.timeline);
        }
        batches
    };
    let first = drain(&mut shown);
    assert!(matches!(first[0].timeline.as_slice(), [TimelineChange::Reset { items }] if items.is_empty()));
    conv.send_message("hi".into()).await.unwrap();
    drain(&mut shown);

    let fresh = conv.subscribe_timeline_view().try_next_batch().expect("a first batch");
    let [TimelineChange::Reset { items: truth }] = fresh.timeline.as_slice() else { panic!("{:?}", fresh.timeline) };
    assert_eq!(&shown, truth);
    let keys: Vec<&str> = shown.iter().map(|i| i.key.as_str()).collect();
    // The user's message (its id is the session's), the answer, the call after its message, and
    // the surface that arrived alone after the last message there was.
    assert!(keys[0].starts_with("m:"), "{keys:?}");
    assert_eq!(keys[1..], ["m:a1", "m:a2", "t:c1", "s:card"], "{keys:?}");
    assert!(matches!(&shown[0].kind, TimelineItemKind::UserMessage { text, .. } if text == "hi"));
    let TimelineItemKind::AgentMessage { text, streaming: false, .. } = &shown[2].kind else {
        panic!("{:?}", shown[2])
    };
    assert_eq!(text.split_whitespace().count(), 40);
    // A plain view carries no timeline.
    let plain = conv.subscribe_view().try_next_batch().unwrap();
    assert!(plain.timeline.is_empty());
}

/// A row's media is what the chat item shows: a URL outside the media policy is emptied, so a
/// timeline row never hands a view `javascript:` to load.
#[test]
fn a_rows_media_follows_the_media_url_policy() {
    let message: Message = serde_json::from_value(json!({"id": "a1", "role": "assistant", "content": [
        {"type": "text", "text": "look"},
        {"type": "image", "source": {"type": "url", "value": "javascript:alert(1)", "mimeType": "image/png"}}
    ]}))
    .unwrap();
    let mut timeline = Timeline::new();
    timeline.apply(&Observed::Snapshot(Box::default()));
    timeline.apply(&Observed::Delta(ConversationDelta::MessageAdded(message)));
    let TimelineItemKind::AgentMessage { media, .. } = &timeline.items()[0].kind else { panic!() };
    let agentui_agui::message::ContentPart::Image(image) = &media[0] else { panic!("{media:?}") };
    assert!(matches!(&image.source, agentui_agui::PartSource::Url { value, .. } if value.is_empty()), "{image:?}");
}
