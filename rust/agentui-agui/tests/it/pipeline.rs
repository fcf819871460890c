//! Behaviour of the assembled pipeline beyond what the conformance corpus pins.

use agentui_agui::message::Role;
use agentui_agui::{
    process_sse_body, Change, ConversationState, Event, EventPipeline, Limits, PipelineOptions, ProtocolError,
    SseLimits, StreamError, ToolCallOrigin, ToolCallStatus, WarningKind,
};
use serde_json::{json, Value};

fn run(events: &[Value]) -> (EventPipeline, Result<Vec<Event>, ProtocolError>) {
    run_with(ConversationState::default(), PipelineOptions::default(), events)
}

fn run_with(
    conversation: ConversationState,
    options: PipelineOptions,
    events: &[Value],
) -> (EventPipeline, Result<Vec<Event>, ProtocolError>) {
    let mut p = EventPipeline::new(conversation, &options);
    let mut all = Vec::new();
    for e in events {
        match p.push_json(e.clone()) {
            Ok(d) => all.extend(d),
            Err(err) => return (p, Err(err)),
        }
    }
    (p, Ok(all))
}

fn started() -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"})
}

fn finished() -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"})
}

/// The reducer says what each event changed, so the runtime tells observers without working
/// it out again: one change per delivered event, in order, with the position of an insert.
#[test]
fn each_delivered_event_reports_what_it_changed() {
    let mut p = EventPipeline::new(ConversationState::default(), &PipelineOptions::default());
    p.record_changes();
    let events = [
        started(),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "a"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hi"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        // Answers c1 after m1 streamed: placed right after c1's message, not at the end.
        json!({"type": "TOOL_CALL_RESULT", "messageId": "r1", "toolCallId": "c1", "content": "ok"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/n", "value": 2}]}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/missing/x", "value": 2}]}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "u", "role": "user", "content": "q"}]}),
        finished(),
    ];
    let mut delivered = 0;
    for e in &events {
        delivered += p.push_json(e.clone()).expect("the event applies").len();
    }
    let changes = p.take_changes();
    assert_eq!(changes.len(), delivered, "one change per delivered event");
    let inserted = |id: &str, at| Change::MessageInserted { id: id.to_owned(), at };
    assert_eq!(
        changes,
        vec![
            Change::None,
            inserted("c1", 0),
            Change::ArgumentsAppended { message_id: "c1".to_owned() },
            Change::None,
            inserted("m1", 1),
            Change::TextAppended,
            Change::None,
            inserted("r1", 1),
            Change::StateReplaced,
            Change::StatePatched,
            Change::StateDiverged,
            Change::MessagesReset,
            Change::None,
        ]
    );
    assert!(p.take_changes().is_empty(), "taken once");
}

#[test]
fn changes_are_not_kept_unless_asked_for() {
    let (mut p, r) = run(&[started(), finished()]);
    r.unwrap();
    assert!(p.take_changes().is_empty());
}

#[test]
fn live_tool_calls_move_from_streaming_to_requested_to_completed() {
    let (p, r) = run(&[
        started(),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "navigate", "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{\"to\":"}),
    ]);
    r.unwrap();
    assert_eq!(p.conversation().tool_call("c1").unwrap().status, ToolCallStatus::Streaming);
    assert_eq!(p.conversation().pending_live_tool_calls().count(), 0, "arguments are not complete yet");

    let (p, r) = run(&[
        started(),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "navigate", "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{\"to\":\"/home\"}"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
        finished(),
    ]);
    r.unwrap();
    let c = p.conversation();
    let call = c.tool_call("c1").unwrap();
    assert_eq!(call.status, ToolCallStatus::Requested);
    assert_eq!(call.origin, ToolCallOrigin::Live { run_id: Some("r1".into()) });
    assert!(call.is_pending_live());
    assert_eq!(c.pending_live_tool_calls().map(|r| r.tool_call_id.as_str()).collect::<Vec<_>>(), ["c1"]);
}

#[test]
fn history_tool_calls_are_never_pending() {
    let history = json!([
        {"id": "a0", "role": "assistant", "toolCalls": [
            {"id": "old-1", "type": "function", "function": {"name": "navigate", "arguments": "{}"}},
            {"id": "old-2", "type": "function", "function": {"name": "navigate", "arguments": "{}"}}
        ]},
        {"id": "t0", "role": "tool", "toolCallId": "old-1", "content": "ok"}
    ]);
    let mut warnings = Vec::new();
    let messages = agentui_agui::compat::prepare_history(history.clone(), &mut warnings).unwrap();
    let (p, r) = run_with(
        ConversationState::new(messages, None),
        PipelineOptions::default(),
        &[
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "input": {
            "threadId": "t", "runId": "r1", "messages": [
                {"id": "a9", "role": "assistant", "toolCalls": [
                    {"id": "echo-1", "type": "function", "function": {"name": "x", "arguments": ""}}]}
            ]}}),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [
                {"id": "a0", "role": "assistant", "toolCalls": [
                    {"id": "old-1", "type": "function", "function": {"name": "navigate", "arguments": "{}"}},
                    {"id": "old-2", "type": "function", "function": {"name": "navigate", "arguments": "{}"}}]},
                {"id": "a9", "role": "assistant", "toolCalls": [
                    {"id": "echo-1", "type": "function", "function": {"name": "x", "arguments": ""}}]},
                {"id": "s1", "role": "assistant", "toolCalls": [
                    {"id": "snap-1", "type": "function", "function": {"name": "y", "arguments": ""}}]}
            ]}),
            finished(),
        ],
    );
    r.unwrap();
    let c = p.conversation();
    for id in ["old-1", "old-2", "echo-1", "snap-1"] {
        assert_eq!(c.tool_call(id).unwrap().origin, ToolCallOrigin::History, "{id}");
    }
    assert_eq!(c.tool_call("old-1").unwrap().status, ToolCallStatus::Completed { result_message_id: "t0".into() });
    assert_eq!(c.pending_live_tool_calls().count(), 0, "nothing from history may run");
}

#[test]
fn tool_result_lands_after_its_call_even_when_text_came_first() {
    let (p, r) = run(&[
        started(),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "a", "parentMessageId": "m1"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c2", "toolCallName": "a", "parentMessageId": "m1"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c2"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m2"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m2"}),
        // Parallel calls of one tool, answered out of order: paired by id, not by order.
        json!({"type": "TOOL_CALL_RESULT", "messageId": "r2", "toolCallId": "c2", "content": "two"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "r1", "toolCallId": "c1", "content": "one"}),
        finished(),
    ]);
    r.unwrap();
    let c = p.conversation();
    let order: Vec<&str> = c.messages().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(order, ["m1", "r2", "r1", "m2"]);
    assert_eq!(c.message("r1").unwrap().tool_call_id.as_deref(), Some("c1"));
    assert_eq!(c.message("r2").unwrap().text(), Some("two"));
    assert_eq!(c.tool_call("c1").unwrap().status, ToolCallStatus::Completed { result_message_id: "r1".into() });
}

#[test]
fn unappliable_delta_keeps_state_and_asks_for_resync_until_a_snapshot() {
    let (p, r) = run(&[
        started(),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}}),
        json!({"type": "STATE_DELTA", "delta": [
            {"op": "replace", "path": "/n", "value": 2},
            {"op": "test", "path": "/n", "value": 99}]}),
    ]);
    r.unwrap();
    assert_eq!(p.conversation().state(), &json!({"n": 1}));
    assert!(p.conversation().needs_resync());
    assert_eq!(p.conversation().warnings()[0].kind, WarningKind::PatchNotApplied);

    let (p, r) = run(&[
        started(),
        json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/missing"}]}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"n": 3}}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/m", "value": null}]}),
    ]);
    r.unwrap();
    assert!(!p.conversation().needs_resync(), "a snapshot resynchronises");
    assert_eq!(p.conversation().state(), &json!({"n": 3, "m": null}));
}

#[test]
fn malformed_patch_is_fatal_and_the_stream_stays_rejected() {
    let (mut p, r) = run(&[started(), json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "no-slash"}]})]);
    let err = r.unwrap_err();
    assert!(matches!(err, ProtocolError::MalformedEvent { .. }), "{err}");
    assert!(matches!(p.push_json(finished()), Err(ProtocolError::StreamRejected(_))));
    assert!(p.rejection().is_some());
}

#[test]
fn malformed_known_fields_name_their_path() {
    for (event, path) in [
        (json!({"type": "TEXT_MESSAGE_START"}), "/messageId"),
        (json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": 3}), "/content"),
        (json!({"type": "RUN_ERROR", "message": "x", "timestamp": 1.5}), "/timestamp"),
        (json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "t", "content": []}), "/content"),
        (json!({"type": "CUSTOM", "name": "n"}), "/value"),
        (json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "metadata": null}), "/metadata"),
    ] {
        let (_, r) = run(&[started(), event.clone()]);
        match r.unwrap_err() {
            ProtocolError::MalformedEvent { path: p, .. } => assert_eq!(p, path, "{event}"),
            other => panic!("{event}: {other}"),
        }
    }
}

#[test]
fn unknown_subtype_in_a_required_position_drops_the_event() {
    let (p, r) = run(&[
        started(),
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "future", "entityId": "e", "encryptedValue": "x"}),
        finished(),
    ]);
    let types: Vec<&str> = r.as_ref().unwrap().iter().map(Event::type_name).collect();
    assert_eq!(types, ["RUN_STARTED", "RUN_FINISHED"]);
    assert!(p.conversation().warnings()[0].message.contains("/subtype"));
}

#[test]
fn reasoning_chunks_expand_and_close_at_the_run_terminal() {
    let (p, r) = run(&[
        started(),
        json!({"type": "REASONING_MESSAGE_CHUNK", "messageId": "rm", "delta": "a"}),
        json!({"type": "REASONING_MESSAGE_CHUNK", "delta": "b"}),
        finished(),
    ]);
    let types: Vec<&str> = r.as_ref().unwrap().iter().map(Event::type_name).collect();
    assert_eq!(
        types,
        [
            "RUN_STARTED",
            "REASONING_MESSAGE_START",
            "REASONING_MESSAGE_CONTENT",
            "REASONING_MESSAGE_CONTENT",
            "REASONING_MESSAGE_END",
            "RUN_FINISHED"
        ]
    );
    let m = p.conversation().message("rm").unwrap();
    assert_eq!((m.role, m.text()), (Role::Reasoning, Some("ab")));
}

#[test]
fn limits_end_the_stream_with_a_typed_error() {
    let options = PipelineOptions { limits: Limits { max_messages: 2, ..Limits::default() }, ..Default::default() };
    let events: Vec<Value> = std::iter::once(started())
        .chain((0..3).flat_map(|i| {
            [
                json!({"type": "TEXT_MESSAGE_START", "messageId": format!("m{i}")}),
                json!({"type": "TEXT_MESSAGE_END", "messageId": format!("m{i}")}),
            ]
        }))
        .collect();
    let (_, r) = run_with(ConversationState::default(), options, &events);
    assert!(matches!(r.unwrap_err(), ProtocolError::LimitExceeded { what: "messages", .. }));

    let options =
        PipelineOptions { limits: Limits { max_tool_args_bytes: 4, ..Limits::default() }, ..Default::default() };
    let (_, r) = run_with(
        ConversationState::default(),
        options,
        &[
            started(),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "n"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "12345"}),
        ],
    );
    assert!(matches!(r.unwrap_err(), ProtocolError::LimitExceeded { .. }));
}

#[test]
fn sse_body_split_anywhere_reduces_the_same() {
    let body = "\u{FEFF}: hello\r\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}\r\n\r\n\
                data: {\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\r\ndata: \"delta\":\"héllo 🔎\"}\r\r\
                data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r1\"}";
    let whole = process_sse_body(
        body.as_bytes(),
        ConversationState::default(),
        &PipelineOptions::default(),
        SseLimits::default(),
    );
    assert_eq!(whole.error, None);
    assert_eq!(whole.conversation.message("m").unwrap().text(), Some("héllo 🔎"));
    assert_eq!(whole.delivered_events, 5);

    let bad = process_sse_body(
        b"data: {\"type\":\"RUN_STARTED\"\xFF}\n\n",
        ConversationState::default(),
        &PipelineOptions::default(),
        SseLimits::default(),
    );
    assert!(matches!(bad.error, Some(StreamError::Sse(agentui_agui::SseError::InvalidUtf8 { .. }))));
}

const ALPHABET: &[u8] = b"{}[],:\"0aZ\\\n\r\xFF";

/// A small deterministic generator: no panics on arbitrary mutations of real streams.
#[test]
fn mutated_streams_never_panic() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/agui/1.1/streams");
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let fixture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let stream: Vec<String> = fixture["stream"].as_array().unwrap().iter().map(Value::to_string).collect();
        for _ in 0..40 {
            let mut body = Vec::new();
            for event in &stream {
                let mut bytes = event.clone().into_bytes();
                if next() % 3 == 0 && !bytes.is_empty() {
                    let i = (next() as usize) % bytes.len();
                    bytes[i] = ALPHABET[(next() as usize) % ALPHABET.len()];
                }
                body.extend_from_slice(b"data: ");
                body.extend_from_slice(&bytes);
                body.extend_from_slice(if next() % 5 == 0 { b"\r\n\r\n" } else { b"\n\n" });
            }
            let _ = process_sse_body(
                &body,
                ConversationState::default(),
                &PipelineOptions::default(),
                SseLimits::default(),
            );
        }
    }
}

#[test]
fn a_local_tool_result_completes_its_call_by_id() {
    let (p, r) = run(&[
        started(),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "navigate", "parentMessageId": "a1"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
        finished(),
    ]);
    r.unwrap();
    let mut c = p.into_conversation();
    let mut result = agentui_agui::Message::new("t1", Role::Tool);
    result.tool_call_id = Some("c1".into());
    result.content = Some(agentui_agui::message::MessageContent::Text("{\"ok\":false}".into()));
    c.append_local_message(result);
    assert_eq!(c.tool_call("c1").unwrap().status, ToolCallStatus::Completed { result_message_id: "t1".into() });
    assert_eq!(c.pending_live_tool_calls().count(), 0);
    assert_eq!(ConversationState::default().state(), &json!({}));
}

fn image_part(value: &str) -> Value {
    json!({"type": "image", "source": {"type": "data", "value": value, "mimeType": "image/png"}})
}

fn tool_result(id: &str, parts: Vec<Value>) -> Value {
    json!({"type": "TOOL_CALL_RESULT", "messageId": id, "toolCallId": format!("c-{id}"), "content": parts})
}

/// Media parts from the agent are bounded in count per message, and a tool result's parts count
/// against the run's content bytes like its text: over either, a typed error ends the run and
/// the message is not added.
#[test]
fn media_parts_from_the_agent_are_bounded_in_count_and_bytes() {
    let limits = Limits { max_media_parts: 3, ..Limits::default() };
    let options = PipelineOptions { limits, ..Default::default() };
    let parts = |n: usize| (0..n).map(|_| image_part("iVBORw0KGgo=")).collect::<Vec<_>>();
    let (p, r) = run_with(ConversationState::default(), options.clone(), &[started(), tool_result("ok", parts(3))]);
    assert!(r.is_ok(), "{r:?}");
    assert!(p.conversation().message("ok").is_some());
    let (p, r) = run_with(ConversationState::default(), options.clone(), &[started(), tool_result("many", parts(4))]);
    assert!(matches!(r.unwrap_err(), ProtocolError::LimitExceeded { what: "media parts in one message", limit: 3 }));
    assert!(p.conversation().message("many").is_none());

    // 3 results of 400 bytes of data each, in a run bounded at 1,000 content bytes.
    let limits = Limits { max_run_content_bytes: 1_000, ..Limits::default() };
    let options = PipelineOptions { limits, ..Default::default() };
    let big = || vec![image_part(&"A".repeat(400))];
    let (p, r) = run_with(
        ConversationState::default(),
        options,
        &[started(), tool_result("r1", big()), tool_result("r2", big()), tool_result("r3", big())],
    );
    assert!(matches!(r.unwrap_err(), ProtocolError::LimitExceeded { what: "content bytes streamed in one run", .. }));
    assert!(p.conversation().message("r2").is_some());
    assert!(p.conversation().message("r3").is_none());
}

/// A snapshot that adds a message with too many media parts is refused; one that repeats the
/// user's own message, attachments and all, as this client holds it is not.
#[test]
fn a_snapshot_is_bounded_in_media_parts_except_for_what_the_client_holds() {
    let limits = Limits { max_media_parts: 2, ..Limits::default() };
    let options = PipelineOptions { limits, ..Default::default() };
    let user = json!({"id": "u", "role": "user", "content": [
        image_part("AAAA"), image_part("BBBB"), image_part("CCCC")
    ]});
    let mut held = ConversationState::default();
    let message: agentui_agui::Message = serde_json::from_value(user.clone()).unwrap();
    held.append_local_message(message);
    let snapshot = |messages: Vec<Value>| json!({"type": "MESSAGES_SNAPSHOT", "messages": messages});
    let (p, r) = run_with(held.clone(), options.clone(), &[started(), snapshot(vec![user.clone()])]);
    assert!(r.is_ok(), "{r:?}");
    assert!(p.conversation().message("u").is_some());
    let added = json!({"id": "a", "role": "user", "content": [
        image_part("AAAA"), image_part("BBBB"), image_part("CCCC")
    ]});
    let (p, r) = run_with(held, options, &[started(), snapshot(vec![user, added])]);
    let err = r.unwrap_err();
    assert!(matches!(err, ProtocolError::LimitExceeded { what: "media parts in one message", limit: 2 }), "{err:?}");
    assert!(p.conversation().message("a").is_none());
}

/// The retired `{type: "binary"}` part, as Microsoft Agent Framework's adapter (on the pre-1.0
/// Python SDK) echoes the user's attachment back: the part each carrier brings in becomes the
/// image, audio, video or document part with the same payload, quietly, as on the way out.
#[test]
fn a_retired_binary_part_from_the_agent_becomes_the_matching_media_part() {
    let binary = |mime: &str, key: &str, value: &str| json!({"type": "binary", "mimeType": mime, key: value});
    let input = json!({"threadId": "t", "runId": "r1", "messages": [
        {"id": "h", "role": "user", "content": [binary("application/pdf", "url", "https://x/r.pdf")]}
    ]});
    let with_input = [
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "input": input}),
        tool_result("t1", vec![binary("audio/wav", "data", "UklGRg=="), binary("video/mp4", "id", "file-7")]),
        finished(),
    ];
    let snapshot = [
        started(),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "u", "role": "user", "content": [
                {"type": "text", "text": "what is this?"},
                binary("image/png", "data", "iVBORw0KGgo="),
            ]},
            {"id": "a", "role": "assistant", "content": "A PNG."},
        ]}),
        finished(),
    ];
    let (first, r) = run(&with_input);
    assert!(r.is_ok(), "{r:?}");
    let (second, r) = run(&snapshot);
    assert!(r.is_ok(), "{r:?}");
    for p in [&first, &second] {
        assert!(p.conversation().warnings().is_empty(), "{:?}", p.conversation().warnings());
    }
    let content = |p: &EventPipeline, id: &str| p.conversation().message(id).unwrap().to_json()["content"].clone();
    assert_eq!(
        content(&second, "u"),
        json!([
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "data", "value": "iVBORw0KGgo=", "mimeType": "image/png"}},
        ])
    );
    assert_eq!(
        content(&first, "h"),
        json!([{"type": "document", "source": {"type": "url", "value": "https://x/r.pdf", "mimeType": "application/pdf"}}])
    );
    assert_eq!(
        content(&first, "t1"),
        json!([
            {"type": "audio", "source": {"type": "data", "value": "UklGRg==", "mimeType": "audio/wav"}},
            {"type": "video", "source": {"type": "file", "value": "file-7", "mimeType": "video/mp4"}},
        ])
    );
}

/// The user's message is the app's own record: a snapshot that carries it with its media parts
/// missing (flattened to text, or in a shape this client cannot read) does not take them away;
/// the app's parts are kept and a warning says so. A snapshot that repeats them, even in the
/// retired shape and without the file name, keeps the app's parts as they were sent.
#[test]
fn a_snapshot_never_drops_what_the_user_sent() {
    let photo = json!({"type": "image", "source": {"type": "data", "value": "iVBORw0KGgo=", "mimeType": "image/png"},
        "metadata": {"filename": "photo.png"}});
    let sent = json!({"id": "u", "role": "user", "content": [{"type": "text", "text": "what is this?"}, photo]});
    let mut held = ConversationState::default();
    held.append_local_message(serde_json::from_value(sent.clone()).unwrap());
    let snapshot = |user_content: Value| {
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "u", "role": "user", "content": user_content},
            {"id": "a", "role": "assistant", "content": "A PNG."},
        ]})
    };
    let echoes = [
        (json!("what is this?"), true),
        (json!([{"type": "text", "text": "what is this?"}, {"type": "image_url", "image_url": "x"}]), true),
        (json!([{"type": "text", "text": "what is this?"}]), true),
        (
            json!([{"type": "text", "text": "what is this?"},
                {"type": "binary", "mimeType": "image/png", "data": "iVBORw0KGgo="}]),
            false,
        ),
    ];
    for (echo, warns) in echoes {
        let (p, r) =
            run_with(held.clone(), PipelineOptions::default(), &[started(), snapshot(echo.clone()), finished()]);
        assert!(r.is_ok(), "{r:?}");
        let conversation = p.conversation();
        assert_eq!(conversation.message("u").unwrap().to_json(), sent, "echoed as {echo}");
        assert!(conversation.message("a").is_some());
        let kept: Vec<_> =
            conversation.warnings().iter().filter(|w| w.message.contains("the app's own parts")).collect();
        assert_eq!(kept.len(), usize::from(warns), "echoed as {echo}: {:?}", conversation.warnings());
    }
}

/// Each of the user's parts needs its own echo: two identical photos are not both found in a
/// snapshot that carries one. A photo whose bytes the client keeps outside the conversation (a
/// store's file: the data value is empty) is found by its kind and MIME type.
#[test]
fn a_snapshot_must_echo_each_of_the_users_parts() {
    let photo =
        |value: &str| json!({"type": "image", "source": {"type": "data", "value": value, "mimeType": "image/png"}});
    let snapshot = |parts: Vec<Value>| json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "u", "role": "user", "content": parts}]});
    let held_with = |parts: Vec<Value>| {
        let mut held = ConversationState::default();
        held.append_local_message(
            serde_json::from_value(json!({"id": "u", "role": "user", "content": parts})).unwrap(),
        );
        held
    };
    let twice = vec![photo("iVBORw0KGgo="), photo("iVBORw0KGgo=")];
    let (p, r) = run_with(
        held_with(twice.clone()),
        PipelineOptions::default(),
        &[started(), snapshot(vec![photo("iVBORw0KGgo=")])],
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(p.conversation().message("u").unwrap().to_json()["content"], json!(twice));
    assert!(p.conversation().warnings().iter().any(|w| w.message.contains("without its image part(s)")));

    let in_a_file = vec![json!({"type": "image", "source": {"type": "data", "value": "", "mimeType": "image/png"},
        "metadata": {"agentuiStored": {"file": "f1"}}})];
    let (p, r) = run_with(
        held_with(in_a_file.clone()),
        PipelineOptions::default(),
        &[started(), snapshot(vec![photo("iVBORw0KGgo=")])],
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(p.conversation().message("u").unwrap().to_json()["content"], json!(in_a_file), "the reference is kept");
    assert!(p.conversation().warnings().is_empty(), "{:?}", p.conversation().warnings());
}
