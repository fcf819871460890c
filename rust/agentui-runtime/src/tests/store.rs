//! The on-device store: a conversation reopened from it equals what was applied, nothing runs or
//! is sent again on restore, what could not reach the agent is delivered once, and list / fork /
//! delete behave as the store's docs say. Each test opens the store file twice, as a new process
//! would: a second `ConversationStore` on the same path.

use crate::tests::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use agentui_a2ui::catalog::BASIC_CATALOG_ID;
use agentui_runtime::session::{
    ActionResult, ClientTool, ConversationSession, PendingSendKind, RunPhase, SessionError, SessionOptions,
    ToolCallPhase, ToolInvocation, IDEMPOTENCY_KEY_PROP,
};
use agentui_runtime::{Conversation, ConversationDelta, ConversationSnapshot, ConversationStore, Observed};
use serde_json::{json, Value};
use support::*;

/// A store file of its own, removed with its WAL when the test ends.
fn store_file(name: &str) -> TempDbFile {
    TempDbFile::new(&format!("store-{name}"))
}

fn open_store(file: &TempDbFile) -> ConversationStore {
    ConversationStore::open(file.path()).unwrap()
}

fn session(server: &TestServer, thread: &str) -> ConversationSession {
    let options = SessionOptions { thread_id: Some(thread.into()), ..SessionOptions::default() };
    ConversationSession::connect(&server.url("/agent"), &[], options).unwrap()
}

fn open(server: &TestServer, store: &ConversationStore, thread: &str) -> Conversation {
    Conversation::open(session(server, thread), store, &server.url("/agent"), tokio::runtime::Handle::current())
        .unwrap()
}

/// A form: a text field bound to `/form/name` and a button whose action sends it.
fn form_ops() -> Value {
    json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": [
        {"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": BASIC_CATALOG_ID}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "f", "components": [
            {"id": "root", "component": "Column", "children": ["name", "send"]},
            {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/form/name"}},
            {"id": "send-label", "component": "Text", "text": "Send"},
            {"id": "send", "component": "Button", "child": "send-label",
             "action": {"event": {"name": "submit", "context": {"name": {"path": "/form/name"}}}}}
        ]}}
    ]}})
}

/// A counting client tool.
fn counter_tool(runs: Arc<AtomicUsize>) -> ClientTool {
    ClientTool::new("count", "counts", json!({"type": "object"}), move |_: ToolInvocation| {
        let runs = runs.clone();
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"counted": true}))
        }
    })
    .unwrap()
}

/// The parts of a snapshot a restore must bring back exactly. The phase is compared by the
/// tests that care (an open run comes back abandoned).
fn restorable(s: &ConversationSnapshot) -> Value {
    json!({
        "messages": s.messages,
        "state": s.state,
        "toolCalls": s.tool_calls.iter().map(|t| json!([t.tool_call_id, t.tool_name, format!("{:?}", t.phase)])).collect::<Vec<_>>(),
        "interrupts": s.pending_interrupts,
        "surfaces": s.surfaces.iter().map(|e| json!([e.surface_id, e.catalog_id])).collect::<Vec<_>>(),
        "keptLocal": s.kept_local.iter().map(|k| json!([k.message_id, format!("{:?}", k.reason)])).collect::<Vec<_>>(),
        "pending": s.pending_sends.iter().map(|p| json!([p.key, p.attempts])).collect::<Vec<_>>(),
    })
}

#[tokio::test]
async fn a_reopened_conversation_equals_what_was_applied_and_nothing_runs_again() {
    let file = store_file("roundtrip");
    let state_events = vec![
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 1, "items": ["a"]}}),
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/items/-", "value": "b"}, {"op": "replace", "path": "/count", "value": 2}]}),
    ];
    let server = TestServer::start(vec![
        Reply::sse(&run_of(
            "r1",
            vec![text("a1", "Hello!"), state_events, vec![form_ops()], tool_call("c1", "count", "{}", "a1")],
        )),
        Reply::sse(&run_of("r2", vec![text("a2", "Counted.")])),
    ])
    .await;
    let runs = Arc::new(AtomicUsize::new(0));
    let before = {
        let store = open_store(&file);
        let conv = open(&server, &store, "t");
        conv.register_tool(counter_tool(runs.clone())).unwrap();
        conv.send_message("hi".into()).await.unwrap();
        // The user types into the form and does not send it.
        conv.set_value("f", "/form/name", json!("Ada")).unwrap();
        let snapshot = conv.snapshot().unwrap();
        let surface = conv.surface("f").unwrap();
        // The first process ends cleanly: what it applied is on disk (the writer is a thread).
        store.flush();
        (snapshot, surface)
    };
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let requests = server.requests().len();

    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    conv.register_tool(counter_tool(runs.clone())).unwrap();
    let after = conv.snapshot().unwrap();
    assert_eq!(restorable(&after), restorable(&before.0));
    assert!(matches!(after.phase, RunPhase::Finished { .. }), "{:?}", after.phase);
    let surface = conv.surface("f").unwrap();
    assert_eq!(surface.nodes, before.1.nodes, "the surface, with the user's unsent input, comes back");
    let mut sub = conv.subscribe();
    let Some(Observed::Snapshot(first)) = sub.recv().await.unwrap() else {
        panic!("a subscriber starts with the snapshot")
    };
    assert_eq!(restorable(&first), restorable(&before.0));

    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(runs.load(Ordering::SeqCst), 1, "no client tool runs again");
    assert_eq!(server.requests().len(), requests, "nothing is sent on restore");
}

#[tokio::test(start_paused = true)]
async fn a_run_open_when_the_process_died_comes_back_abandoned_with_its_calls_not_rerun() {
    let file = store_file("abandoned");
    let mut steps: Vec<Step> = run_of("r1", vec![text("a1", "Working"), tool_call("c1", "count", "{}", "a1")])
        .iter()
        .take(7)
        .map(|e| Step::Send(frame(e)))
        .collect();
    steps.push(Step::Sleep(Duration::from_secs(30)));
    let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
    let runs = Arc::new(AtomicUsize::new(0));
    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    conv.register_tool(counter_tool(runs.clone())).unwrap();
    let mut sub = conv.subscribe();
    let running = tokio::spawn({
        let conv = conv.clone();
        async move { conv.send_message("go".into()).await }
    });
    while let Some(item) = sub.recv().await.unwrap() {
        if matches!(item, Observed::Delta(ConversationDelta::ToolCall(ref t)) if t.phase != ToolCallPhase::Streaming && t.phase != ToolCallPhase::Requested)
        {
            break;
        }
    }
    // What the first process applied up to here is committed (its writer is a thread), then a
    // second process opens the same file while the first is mid-run (as after a kill).
    store.flush();
    let reopened = open_store(&file);
    let stored = reopened.load("t").unwrap().unwrap();
    assert!(matches!(stored.snapshot.phase, RunPhase::Running { .. }), "{:?}", stored.snapshot.phase);
    let other = open(&server, &reopened, "t");
    let snapshot = other.snapshot().unwrap();
    assert_eq!(snapshot.phase, RunPhase::Abandoned { run_id: Some("r1".into()) });
    assert_eq!(snapshot.messages.iter().filter(|m| m.id == "a1").count(), 1);
    let call = snapshot.tool_calls.iter().find(|t| t.tool_call_id == "c1").unwrap();
    assert!(matches!(call.phase, ToolCallPhase::Skipped { .. } | ToolCallPhase::Succeeded { .. }), "{:?}", call.phase);
    running.abort();
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the call ran once, in the first process only");
}

#[tokio::test(start_paused = true)]
async fn a_message_sent_while_the_agent_is_unreachable_waits_and_is_delivered_once_with_its_key() {
    let file = store_file("offline-message");
    let server = TestServer::start(vec![
        Reply::status(503, "text/plain", b"down"),
        Reply::sse(&run_of("r1", vec![text("a1", "Got it.")])),
    ])
    .await;
    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    let error = conv.send_message("are you there?".into()).await.unwrap_err();
    assert!(matches!(error, SessionError::Transport(_)), "{error:?}");
    let pending = conv.snapshot().unwrap().pending_sends;
    assert_eq!(pending.len(), 1);
    assert!(matches!(&pending[0].kind, PendingSendKind::Message { text, .. } if text == "are you there?"));
    assert_eq!(store.load("t").unwrap().unwrap().outbox.len(), 1, "the store holds it");

    // The actor tries again on its own.
    let mut sub = conv.subscribe();
    while let Some(item) = sub.recv().await.unwrap() {
        if matches!(&item, Observed::Delta(ConversationDelta::PendingSends(p)) if p.is_empty()) {
            break;
        }
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let keys: Vec<&Value> = requests.iter().map(|r| &r.body["forwardedProps"][IDEMPOTENCY_KEY_PROP]).collect();
    assert!(keys[0].is_string() && keys[0] == keys[1], "every attempt names the same key: {keys:?}");
    let users = |r: &Recorded| r.body["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "user").count();
    assert_eq!(users(&requests[1]), 1, "the message is in the conversation once");
    assert!(store.load("t").unwrap().unwrap().outbox.is_empty());
    assert!(conv.snapshot().unwrap().messages.iter().any(|m| m.id == "a1"));
}

/// A2UI operations for a surface that never exists: the engine's error waits for the next run.
fn ghost_surface_ops() -> Value {
    json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": [
        {"version": "v0.9", "updateDataModel": {"surfaceId": "ghost", "path": "/x", "value": 1}}
    ]}})
}

/// Issue 43: the A2UI errors queued for the agent were taken before the request was sent and
/// lost when it could not be; they wait with the outbox, across the process, for the next one.
#[tokio::test(start_paused = true)]
async fn a2ui_errors_for_the_agent_survive_an_unsent_request_and_the_process() {
    let file = store_file("a2ui-errors");
    let server = TestServer::start(vec![
        Reply::sse(&run_of("r1", vec![vec![ghost_surface_ops()]])),
        Reply::status(503, "text/plain", b"down"),
    ])
    .await;
    {
        let store = open_store(&file);
        let conv = open(&server, &store, "t");
        conv.send_message("show me".into()).await.unwrap();
        let error = conv.send_message("and now?".into()).await.unwrap_err();
        assert!(matches!(error, SessionError::Transport(_)), "{error:?}");
        store.flush();
    }
    let attempted = &server.requests()[1].body["forwardedProps"];
    assert_eq!(attempted["a2uiErrors"][0]["error"]["surfaceId"], "ghost", "{attempted}");
    server.push(Reply::sse(&run_of("r2", vec![text("a2", "Fixed.")])));

    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    assert!(conv.retry_pending().await.unwrap().is_some());
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let delivered = &requests[2].body;
    assert_eq!(delivered["forwardedProps"]["a2uiErrors"], attempted["a2uiErrors"], "{delivered}");
    let context = delivered["context"].as_array().unwrap();
    assert!(context.iter().any(|c| c["value"].as_str().unwrap().contains("ghost")), "{context:?}");
    // Delivered once: the next run carries none.
    server.push(Reply::sse(&run_of("r3", vec![])));
    conv.send_message("thanks".into()).await.unwrap();
    assert!(server.requests()[3].body["forwardedProps"].get("a2uiErrors").is_none());
    store.flush();
    drop(conv);
    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    server.push(Reply::sse(&run_of("r4", vec![])));
    conv.send_message("still there?".into()).await.unwrap();
    assert!(server.requests()[4].body["forwardedProps"].get("a2uiErrors").is_none(), "not sent again after a restart");
}

#[tokio::test(start_paused = true)]
async fn an_action_waiting_for_the_agent_survives_the_process_and_is_delivered_once() {
    let file = store_file("offline-action");
    let server = TestServer::start(vec![
        Reply::sse(&run_of("r1", vec![vec![form_ops()]])),
        Reply::status(502, "text/plain", b"bad gateway"),
    ])
    .await;
    let key = {
        let store = open_store(&file);
        let conv = open(&server, &store, "t");
        conv.send_message("form please".into()).await.unwrap();
        conv.set_value("f", "/form/name", json!("Ada")).unwrap();
        let error = conv.dispatch_action("f", "send").await.unwrap_err();
        assert!(matches!(error, SessionError::Transport(_)), "{error:?}");
        let pending = conv.snapshot().unwrap().pending_sends;
        assert!(matches!(&pending[0].kind, PendingSendKind::Action { action_name, .. } if action_name == "submit"));
        store.flush();
        pending[0].key.clone()
    };
    server.push(Reply::sse(&run_of("r2", vec![text("a2", "Thanks, Ada.")])));

    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    assert_eq!(conv.snapshot().unwrap().pending_sends.len(), 1, "still waiting after the restart");
    assert!(conv.retry_pending().await.unwrap().is_some());
    assert!(conv.snapshot().unwrap().pending_sends.is_empty());
    tokio::time::sleep(Duration::from_secs(120)).await;
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "one delivery after the failed attempt, and no more");
    let delivered = &requests[2].body["forwardedProps"];
    assert_eq!(delivered[IDEMPOTENCY_KEY_PROP], json!(key));
    assert_eq!(delivered["a2uiAction"]["userAction"]["context"]["name"], json!("Ada"));
    assert_eq!(requests[1].body["forwardedProps"][IDEMPOTENCY_KEY_PROP], json!(key));
}

#[tokio::test]
async fn an_agent_error_that_a_retry_would_not_change_drops_the_message_from_the_waiting_list() {
    let file = store_file("refused");
    let server = TestServer::start(vec![Reply::status(400, "text/plain", b"bad request")]).await;
    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    assert!(conv.send_message("hi".into()).await.is_err());
    assert!(conv.snapshot().unwrap().pending_sends.is_empty());
    assert!(store.load("t").unwrap().unwrap().outbox.is_empty());
}

#[tokio::test]
async fn list_pages_newest_first_fork_copies_and_delete_is_idempotent() {
    let file = store_file("lifecycle");
    // Runs on threads t1, t2, t3 (the test server's helpers speak for thread `t`).
    let on = |thread: &str, run: &str, id: &str| {
        let mut events = vec![json!({"type": "RUN_STARTED", "threadId": thread, "runId": run})];
        events.extend(text(id, "answer"));
        events.push(json!({"type": "RUN_FINISHED", "threadId": thread, "runId": run}));
        Reply::sse(&events)
    };
    let server = TestServer::start(vec![on("t1", "r1", "a1"), on("t2", "r2", "a2"), on("t3", "r3", "a3")]).await;
    let store = open_store(&file);
    for (thread, text) in [("t1", "first"), ("t2", "second"), ("t3", "third")] {
        open(&server, &store, thread).send_message(text.into()).await.unwrap();
        // Distinct write times, so the order is the writing order.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let page = store.list(2, None).unwrap();
    let ids: Vec<&str> = page.conversations.iter().map(|c| c.thread_id.as_str()).collect();
    assert_eq!(ids, ["t3", "t2"]);
    assert_eq!(page.conversations[0].title, "third");
    assert_eq!(page.conversations[0].message_count, 2);
    let rest = store.list(2, page.next_cursor.as_deref()).unwrap();
    assert_eq!(rest.conversations.iter().map(|c| c.thread_id.as_str()).collect::<Vec<_>>(), ["t1"]);
    assert_eq!(rest.next_cursor, None);

    let copy = store.fork("t1", Some("t1-copy")).unwrap();
    assert_eq!(copy, "t1-copy");
    let (source, forked) = (store.load("t1").unwrap().unwrap(), store.load("t1-copy").unwrap().unwrap());
    assert_eq!(forked.snapshot.messages, source.snapshot.messages);
    assert!(store.fork("t1", Some("t2")).is_err(), "a fork never overwrites");
    assert!(store.fork("nope", None).is_err());

    assert!(store.delete("t1").unwrap());
    assert!(!store.delete("t1").unwrap(), "deleting twice is fine");
    assert!(store.load("t1").unwrap().is_none());
    assert!(store.load("t1-copy").unwrap().is_some(), "the fork is its own conversation");
}

#[tokio::test]
async fn an_action_that_opens_a_url_is_not_stored_to_fire_again() {
    let file = store_file("open-url");
    let link = json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": [
        {"version": "v0.9", "createSurface": {"surfaceId": "l", "catalogId": BASIC_CATALOG_ID}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "l", "components": [
            {"id": "root", "component": "Button", "child": "label",
             "action": {"functionCall": {"call": "openUrl", "args": {"url": "https://example.com"}}}},
            {"id": "label", "component": "Text", "text": "Open"}
        ]}}
    ]}});
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![vec![link]]))]).await;
    {
        let store = open_store(&file);
        let conv = open(&server, &store, "t");
        conv.send_message("link".into()).await.unwrap();
        assert!(matches!(conv.dispatch_action("l", "root").await.unwrap(), ActionResult::OpenUrl(_)));
        store.flush();
    }
    let store = open_store(&file);
    let stored = store.load("t").unwrap().unwrap();
    assert!(stored.outbox.is_empty(), "an openUrl is the app's, at the user's gesture, never queued");
    let conv = open(&server, &store, "t");
    assert!(conv.snapshot().unwrap().pending_sends.is_empty());
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn the_state_a_conversation_starts_from_comes_back_when_the_agent_never_sends_one() {
    let file = store_file("initial-state");
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Hi.")]))]).await;
    let (fresh, given) = {
        let store = open_store(&file);
        let fresh = open(&server, &store, "t");
        fresh.send_message("hi".into()).await.unwrap();
        let mut with_state = session(&server, "given");
        with_state.set_state(json!({"plan": "free"}));
        let given =
            Conversation::open(with_state, &store, &server.url("/agent"), tokio::runtime::Handle::current()).unwrap();
        store.flush();
        (fresh.snapshot().unwrap().state, given.snapshot().unwrap().state)
    };
    let store = open_store(&file);
    assert_eq!(open(&server, &store, "t").snapshot().unwrap().state, fresh, "not null in place of the empty object");
    assert_eq!(open(&server, &store, "given").snapshot().unwrap().state, given);
    assert_eq!(given, json!({"plan": "free"}));
}

/// The app drops what waits: the entry and its stored row go, observers get the new list, and
/// nothing is sent for it later. A message that never joined the conversation is gone with it;
/// one that did (its send was attempted) stays as the user wrote it. An unknown key is `false`.
#[tokio::test(start_paused = true)]
async fn a_discarded_pending_send_leaves_the_outbox_and_the_store_and_is_never_sent() {
    let file = store_file("discard");
    let server = TestServer::start(vec![
        Reply::status(503, "text/plain", b"down"),
        Reply::status(503, "text/plain", b"still down"),
    ])
    .await;
    let store = open_store(&file);
    // Offline as the host says: no automatic attempt while the test looks.
    let network = agentui_agui::transport::Connectivity::new();
    network.set_online(false);
    let transport = agentui_agui::transport::TransportOptions {
        connectivity: network.clone(),
        ..agentui_agui::transport::TransportOptions::default()
    };
    let options = SessionOptions { thread_id: Some("t".into()), transport, ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
    let conv = Conversation::open(session, &store, &server.url("/agent"), tokio::runtime::Handle::current()).unwrap();
    conv.send_message("first".into()).await.unwrap_err();
    // Its turn never comes: the first is tried again, in vain, and the second waits behind it.
    conv.send_message("second".into()).await.unwrap_err();
    let pending = conv.snapshot().unwrap().pending_sends;
    assert_eq!(pending.len(), 2);
    let (first, second) = (pending[0].key.clone(), pending[1].key.clone());
    let texts = |c: &Conversation| {
        c.snapshot().unwrap().messages.iter().filter_map(|m| m.text().map(str::to_owned)).collect::<Vec<_>>()
    };
    assert_eq!(texts(&conv), ["first"], "only the attempted message joined");

    let mut sub = conv.subscribe();
    assert!(conv.discard_pending(&second).await.unwrap());
    let pending = conv.snapshot().unwrap().pending_sends;
    assert_eq!(pending.iter().map(|p| p.key.as_str()).collect::<Vec<_>>(), [first.as_str()]);
    assert_eq!(texts(&conv), ["first"], "the unsent message is gone");
    let mut told = None;
    while let Ok(Ok(Some(item))) = tokio::time::timeout(Duration::from_secs(1), sub.recv()).await {
        if let Observed::Delta(ConversationDelta::PendingSends(p)) = item {
            told = Some(p.len());
            break;
        }
    }
    assert_eq!(told, Some(1), "observers get the new pending list");
    assert!(!conv.discard_pending(&second).await.unwrap(), "nothing waits under it any more");
    assert!(!conv.discard_pending("no-such-key").await.unwrap());

    assert!(conv.discard_pending(&first).await.unwrap());
    assert!(conv.snapshot().unwrap().pending_sends.is_empty());
    assert_eq!(texts(&conv), ["first"], "a message already in the conversation stays");
    store.flush();
    assert!(store.load("t").unwrap().unwrap().outbox.is_empty(), "the stored rows are gone");

    network.set_online(true);
    tokio::time::sleep(Duration::from_secs(600)).await;
    assert_eq!(server.requests().len(), 2, "nothing is sent for a discarded entry");
    assert!(conv.retry_pending().await.unwrap().is_none());
}

/// AG-UI 1.1's `encryptedValueType` rides with `encryptedValue` wherever it is (a reasoning
/// message, a tool call) and goes back verbatim: in the next request, and in the first request
/// after the conversation was reopened from the store.
#[tokio::test]
async fn encrypted_values_and_their_types_go_back_verbatim_live_and_after_a_restore() {
    let encrypted = |subtype: &str, entity: &str, value: &str, kind: &str| {
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": subtype, "entityId": entity,
            "encryptedValue": value, "encryptedValueType": kind})
    };
    let first = run_of(
        "r1",
        vec![
            vec![
                json!({"type": "REASONING_MESSAGE_START", "messageId": "think", "role": "reasoning"}),
                json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "think", "delta": "…"}),
                json!({"type": "REASONING_MESSAGE_END", "messageId": "think"}),
                encrypted("message", "think", "opaque-1", "anthropic/redacted_thinking"),
            ],
            tool_call("c1", "server_side_search", "{}", "a1"),
            vec![
                encrypted("tool-call", "c1", "opaque-2", "openai/reasoning.encrypted_content"),
                json!({"type": "TOOL_CALL_RESULT", "messageId": "r-c1", "toolCallId": "c1", "content": "found"}),
            ],
            text("a2", "Done."),
        ],
    );
    let server = TestServer::start(vec![
        Reply::sse(&first),
        Reply::sse(&run_of("r2", vec![text("a3", "ok")])),
        Reply::sse(&run_of("r3", vec![text("a4", "ok")])),
    ])
    .await;
    let file = store_file("encrypted-value-type");
    let carried = |body: &Value| {
        let messages = body["messages"].as_array().unwrap();
        let think = messages.iter().find(|m| m["id"] == "think").expect("the reasoning message goes back");
        let call = messages.iter().find(|m| m["id"] == "a1").expect("the call's message goes back");
        (
            (think["encryptedValue"].clone(), think["encryptedValueType"].clone()),
            (call["toolCalls"][0]["encryptedValue"].clone(), call["toolCalls"][0]["encryptedValueType"].clone()),
        )
    };
    let expected = (
        (json!("opaque-1"), json!("anthropic/redacted_thinking")),
        (json!("opaque-2"), json!("openai/reasoning.encrypted_content")),
    );
    {
        let store = open_store(&file);
        let conv = open(&server, &store, "t");
        conv.send_message("search".into()).await.unwrap();
        conv.send_message("again".into()).await.unwrap();
        store.flush();
        assert_eq!(carried(&server.requests()[1].body), expected, "live");
    }
    let store = open_store(&file);
    let conv = open(&server, &store, "t");
    conv.send_message("after a restart".into()).await.unwrap();
    assert_eq!(carried(&server.requests()[2].body), expected, "after a restore");
}
