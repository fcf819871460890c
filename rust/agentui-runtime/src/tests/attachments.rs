//! Attachments: what the agent receives is the bytes the app gave, a refused attachment leaves
//! nothing sent or queued, a server's refusal of the message is reported, and a message waiting
//! with its attachments survives a restart and is delivered once, its large parts in files
//! beside the database.

use crate::tests::support;

use agentui_agui::transport::TransportError;
use agentui_runtime::attachment::{Attachment, AttachmentError};
use agentui_runtime::session::{
    ConversationSession, PendingSendKind, SessionError, SessionOptions, IDEMPOTENCY_KEY_PROP,
};
use agentui_runtime::{Conversation, ConversationStore};
use base64::Engine as _;
use serde_json::Value;
use support::*;

fn session(server: &TestServer, options: SessionOptions) -> ConversationSession {
    let options = SessionOptions { thread_id: Some("t".into()), ..options };
    ConversationSession::connect(&server.url("/agent"), &[], options).unwrap()
}

fn start(server: &TestServer) -> Conversation {
    Conversation::start(session(server, SessionOptions::default()), tokio::runtime::Handle::current())
}

fn open(server: &TestServer, store: &ConversationStore) -> Conversation {
    Conversation::open(
        session(server, SessionOptions::default()),
        store,
        &server.url("/agent"),
        tokio::runtime::Handle::current(),
    )
    .unwrap()
}

/// Bytes no text encoding would keep intact (every byte value, not a multiple of 3 long).
fn image_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 % 256) as u8).collect()
}

/// One media part as the agent received it: kind, decoded bytes, MIME type, file name.
type ReceivedPart = (String, Vec<u8>, String, String);

/// The decoded bytes, MIME type and file name of each media part of the last user message of
/// a request, with the text parts' text.
fn received(body: &Value) -> (String, Vec<ReceivedPart>) {
    let user = body["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").unwrap();
    let mut text = String::new();
    let mut media = Vec::new();
    for part in user["content"].as_array().expect("content parts") {
        if part["type"] == "text" {
            text.push_str(part["text"].as_str().unwrap());
            continue;
        }
        let source = &part["source"];
        assert_eq!(source["type"], "data");
        let bytes = base64::engine::general_purpose::STANDARD.decode(source["value"].as_str().unwrap()).unwrap();
        media.push((
            part["type"].as_str().unwrap().to_owned(),
            bytes,
            source["mimeType"].as_str().unwrap().to_owned(),
            part["metadata"]["filename"].as_str().unwrap().to_owned(),
        ));
    }
    (text, media)
}

#[tokio::test]
async fn the_agent_receives_the_bytes_the_app_attached_from_memory_and_from_a_file() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Nice photo.")]))]).await;
    let conv = start(&server);
    let dir = std::env::temp_dir().join(format!("agentui-attachments-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.pdf");
    let pdf = image_bytes(70_001);
    std::fs::write(&file, &pdf).unwrap();
    let photo = image_bytes(123_457);
    conv.send(
        "what is this?".into(),
        vec![
            Attachment::bytes("photo.jpg", "image/jpeg", photo.clone()),
            Attachment::file("report.pdf", "application/pdf", &file),
        ],
    )
    .await
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let (text, media) = received(&requests[0].body);
    assert_eq!(text, "what is this?");
    assert_eq!(
        media,
        vec![
            ("image".to_owned(), photo, "image/jpeg".to_owned(), "photo.jpg".to_owned()),
            ("document".to_owned(), pdf, "application/pdf".to_owned(), "report.pdf".to_owned()),
        ]
    );
    // The conversation holds the message as sent, parts and all.
    let snapshot = conv.snapshot().unwrap();
    let user = snapshot.messages.iter().find(|m| m.role == agentui_agui::message::Role::User).unwrap();
    assert!(matches!(&user.content, Some(agentui_agui::MessageContent::Parts(p)) if p.len() == 3));
}

#[tokio::test]
async fn a_refused_attachment_sends_nothing_and_queues_nothing() {
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "ok")]))]).await;
    let budget = agentui_agui::MemoryBudget { max_attachment_bytes: 1000, ..Default::default() };
    let conv = Conversation::start(
        session(&server, SessionOptions { budget, ..SessionOptions::default() }),
        tokio::runtime::Handle::current(),
    );
    let small = Attachment::bytes("small.png", "image/png", vec![1; 10]);
    let cases = [
        (vec![small.clone(), Attachment::bytes("huge.png", "image/png", vec![0; 1001])], "huge.png"),
        (
            vec![small.clone(), Attachment::bytes("app.apk", "application/vnd.android.package-archive", vec![0])],
            "app.apk",
        ),
        (vec![small.clone(), Attachment::file("gone.png", "image/png", "/nonexistent/gone.png")], "gone.png"),
    ];
    for (attachments, name) in cases {
        let error = conv.send("look".into(), attachments).await.unwrap_err();
        let SessionError::Attachment(error) = error else { panic!("{error:?}") };
        let named = match &error {
            AttachmentError::TooLarge { name, .. }
            | AttachmentError::TypeNotAllowed { name, .. }
            | AttachmentError::Unreadable { name, .. } => name.as_str(),
            other => panic!("{other:?}"),
        };
        assert_eq!(named, name, "{error}");
    }
    assert!(server.requests().is_empty(), "nothing was sent");
    let snapshot = conv.snapshot().unwrap();
    assert!(snapshot.messages.is_empty(), "nothing joined the conversation");
    assert!(snapshot.pending_sends.is_empty(), "nothing waits");
    // The conversation goes on.
    conv.send("just text".into(), vec![]).await.unwrap();
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_agent_from_before_content_parts_is_refused_attachments_up_front() {
    let server = TestServer::start(vec![]).await;
    let mut options = SessionOptions::default();
    options.pipeline.peer_max_protocol_version = Some("0.0.39".into());
    let conv = Conversation::start(session(&server, options), tokio::runtime::Handle::current());
    let error = conv.send("x".into(), vec![Attachment::bytes("a.png", "image/png", vec![1])]).await.unwrap_err();
    assert!(
        matches!(&error, SessionError::Attachment(AttachmentError::NotSupportedByAgent { name, .. }) if name == "a.png"),
        "{error:?}"
    );
    assert!(server.requests().is_empty());
}

/// 413 and 415 are the server refusing this message: reported with their status, and the
/// message does not wait (sending it again would be refused again).
#[tokio::test]
async fn a_server_refusing_the_payload_is_reported_and_the_message_does_not_wait() {
    for status in [413u16, 415] {
        let server = TestServer::start(vec![Reply::status(status, "text/plain", b"too big")]).await;
        let conv = start(&server);
        let error =
            conv.send("x".into(), vec![Attachment::bytes("a.png", "image/png", image_bytes(5000))]).await.unwrap_err();
        assert!(
            matches!(&error, SessionError::Transport(TransportError::Status { status: s, .. }) if *s == status),
            "{error:?}"
        );
        assert!(error.to_string().contains(&status.to_string()), "{error}");
        assert!(conv.snapshot().unwrap().pending_sends.is_empty());
    }
}

fn row_bytes(file: &TempDbFile, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(file.path()).unwrap();
    conn.query_row(&format!("SELECT coalesce(sum(length(body)), 0) FROM {table}"), [], |r| r.get(0)).unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_message_with_attachments_waiting_for_the_agent_survives_a_restart_and_is_delivered_once() {
    let file = TempDbFile::new("attachments-offline");
    let server = TestServer::start(vec![Reply::status(503, "text/plain", b"down")]).await;
    let photo = image_bytes(300_001);
    let key = {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&server, &store);
        let error = conv
            .send("from the train".into(), vec![Attachment::bytes("photo.png", "image/png", photo.clone())])
            .await
            .unwrap_err();
        assert!(matches!(error, SessionError::Transport(_)), "{error:?}");
        let pending = conv.snapshot().unwrap().pending_sends;
        assert!(matches!(&pending[0].kind, PendingSendKind::Message { text, .. } if text == "from the train"));
        store.flush();
        let dir = store.attachments_dir("t").unwrap();
        let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(files.len(), 1, "one file for the one large part");
        // The rows refer to the file: no row holds the 400 KB of base64.
        assert!(row_bytes(&file, "messages") + row_bytes(&file, "outbox") < 4096);
        pending[0].key.clone()
    };
    server.push(Reply::sse(&run_of("r1", vec![text("a1", "Got the photo.")])));

    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&server, &store);
    let restored = conv.snapshot().unwrap();
    assert_eq!(restored.pending_sends.len(), 1, "still waiting after the restart");
    assert!(conv.retry_pending().await.unwrap().is_some());
    tokio::time::sleep(std::time::Duration::from_secs(120)).await;
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one delivery after the failed attempt, and no more");
    assert_eq!(requests[1].body["forwardedProps"][IDEMPOTENCY_KEY_PROP], Value::String(key));
    let (text, media) = received(&requests[1].body);
    assert_eq!(text, "from the train");
    assert_eq!(media, vec![("image".to_owned(), photo.clone(), "image/png".to_owned(), "photo.png".to_owned())]);
    let users = requests[1].body["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "user").count();
    assert_eq!(users, 1, "the message is in the conversation once");
    let before = conv.snapshot().unwrap().messages;
    drop(conv);
    store.flush();

    // Again after the delivery: the message comes back with its image, from the file.
    let store = ConversationStore::open(file.path()).unwrap();
    assert_eq!(store.load("t").unwrap().unwrap().snapshot.messages, before);
    // A fork has its own copy of the files; deleting the source leaves the fork whole.
    let fork = store.fork("t", Some("t2")).unwrap();
    assert!(store.delete("t").unwrap());
    assert!(!store.attachments_dir("t").unwrap().exists(), "deleting the conversation removes its files");
    let forked = store.load(&fork).unwrap().unwrap().snapshot.messages;
    assert_eq!(forked, before);
    store.delete(&fork).unwrap();
}

async fn demo_agent() -> agentui_demo_agent::DemoAgentHandle {
    use agentui_demo_agent::{DemoAgent, DemoAgentOptions};
    DemoAgent::new(DemoAgentOptions::for_tests(std::time::Duration::from_millis(20)))
        .serve("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
}

fn demo_session(url: &str) -> ConversationSession {
    ConversationSession::connect(url, &[], SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() })
        .unwrap()
}

/// The demo agent decodes what it received and answers with each part's length and hash.
#[tokio::test]
async fn the_demo_agent_reports_the_bytes_it_received() {
    let agent = demo_agent().await;
    let conv = Conversation::start(demo_session(&agent.agent_url()), tokio::runtime::Handle::current());
    let photo = image_bytes(5 * 1024 * 1024 + 1);
    conv.send("here".into(), vec![Attachment::bytes("photo.png", "image/png", photo.clone())]).await.unwrap();
    let answer = conv
        .snapshot()
        .unwrap()
        .messages
        .iter()
        .rev()
        .find_map(|m| (m.role == agentui_agui::message::Role::Assistant).then(|| m.text().map(str::to_owned)))
        .flatten()
        .unwrap();
    let expected =
        format!("image image/png photo.png bytes={} fnv={:016x}", photo.len(), agentui_demo_agent::fnv1a64(&photo));
    assert!(answer.contains(&expected), "{answer}");
}

/// An image the agent returns in a tool result is a part of the tool message, in the view's
/// chat item, and back after a restart.
#[tokio::test]
async fn an_image_the_agent_returns_is_in_the_chat_and_survives_a_restart() {
    let agent = demo_agent().await;
    let file = TempDbFile::new("attachments-picture");
    let url = format!("{}/picture", agent.agent_url());
    let image_of = |messages: &[agentui_agui::Message]| {
        messages.iter().find_map(|m| match &m.content {
            Some(agentui_agui::MessageContent::Parts(parts)) if m.role == agentui_agui::message::Role::Tool => {
                parts.iter().find_map(|p| match p {
                    agentui_agui::ContentPart::Image(image) => Some(image.source.clone()),
                    _ => None,
                })
            }
            _ => None,
        })
    };
    let expected = agentui_agui::PartSource::Data {
        value: agentui_demo_agent::PICTURE_PNG_BASE64.to_owned(),
        mime_type: "image/png".to_owned(),
    };
    {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = Conversation::open(demo_session(&url), &store, &url, tokio::runtime::Handle::current()).unwrap();
        conv.send_message("draw".into()).await.unwrap();
        assert_eq!(image_of(&conv.snapshot().unwrap().messages), Some(expected.clone()));
        // The chat item a UI shows carries the part.
        let view = conv.subscribe_view();
        let batch = view.next_batch().await.unwrap().unwrap();
        let shows_image =
            batch.messages.iter().any(|d| format!("{d:?}").contains(agentui_demo_agent::PICTURE_PNG_BASE64));
        assert!(shows_image, "the view's chat items carry the image part");
        store.flush();
    }
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = Conversation::open(demo_session(&url), &store, &url, tokio::runtime::Handle::current()).unwrap();
    assert_eq!(image_of(&conv.snapshot().unwrap().messages), Some(expected));
}

/// An agent may echo the conversation in one event, the user's attachments inside it: one event
/// may be larger than the budget's message bound by the inline media the user sent, no more.
#[tokio::test]
async fn one_event_may_grow_by_the_media_the_user_sent_and_no_more() {
    let big_text = |id: &str| {
        let mut events = vec![started("r1")];
        events.push(serde_json::json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}));
        // 1 MiB + 100 KB of text in one event.
        events
            .push(serde_json::json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": "x".repeat(1_150_000)}));
        events.push(serde_json::json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
        events.push(finished("r1"));
        Reply::sse(&events)
    };
    let server = TestServer::start(vec![big_text("a1"), big_text("a2")]).await;
    let conv = start(&server);
    let error = conv.send_message("hi".into()).await.unwrap_err();
    assert!(matches!(error, SessionError::Transport(TransportError::Sse(_))), "{error:?}");
    // 200 KB of attachment (267 KB of base64) makes room for that event.
    conv.send("look".into(), vec![Attachment::bytes("p.png", "image/png", image_bytes(200_000))]).await.unwrap();
}

/// The media parts of the chat items in `batches`, by message id: (part index, source, metadata).
fn view_media(
    batches: &[agentui_runtime::view::ViewBatch],
) -> Vec<(String, usize, agentui_agui::PartSource, Option<Value>)> {
    use agentui_runtime::view::MessageDiff;
    let mut found = Vec::new();
    for diff in batches.iter().flat_map(|b| &b.messages) {
        let items = match diff {
            MessageDiff::Reset { items } => items.iter().collect::<Vec<_>>(),
            MessageDiff::Insert { item, .. } | MessageDiff::Set { item, .. } => vec![item],
            _ => continue,
        };
        for item in items {
            let Some(agentui_agui::MessageContent::Parts(parts)) = &item.content else { continue };
            for (at, part) in parts.iter().enumerate() {
                if let agentui_agui::ContentPart::Image(p) | agentui_agui::ContentPart::Document(p) = part {
                    found.push((item.id.clone(), at, p.source.clone(), p.metadata.clone()));
                }
            }
        }
    }
    found
}

/// A photo is held once: a view's chat item carries its MIME type, name and length, not its
/// bytes, and the UI fetches them decoded; small inline data stays in the item. After a restart
/// from the store too.
#[tokio::test]
async fn a_view_gets_a_large_photo_by_reference_and_fetches_its_bytes() {
    use agentui_runtime::view::HELD_BYTES_KEY;
    let reply = || Reply::sse(&run_of("r1", vec![text("a1", "Nice.")]));
    let server = TestServer::start(vec![reply()]).await;
    let file = TempDbFile::new("attachments-held");
    let photo = image_bytes(300_001);
    let icon = image_bytes(1_000);
    let icon_base64 = base64::engine::general_purpose::STANDARD.encode(&icon);
    let check = |batches: &[agentui_runtime::view::ViewBatch]| {
        let media = view_media(batches);
        let (message_id, at, source, metadata) = media.iter().find(|m| m.1 == 1).expect("the photo's part").clone();
        assert_eq!(source, agentui_agui::PartSource::Data { value: String::new(), mime_type: "image/png".into() });
        let metadata = metadata.unwrap();
        assert_eq!(metadata[HELD_BYTES_KEY], 300_001);
        assert_eq!(metadata["filename"], "photo.png");
        let (_, _, icon_source, _) = media.iter().find(|m| m.1 == 2).expect("the icon's part").clone();
        assert_eq!(
            icon_source,
            agentui_agui::PartSource::Data { value: icon_base64.clone(), mime_type: "image/png".into() }
        );
        (message_id, at)
    };
    {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&server, &store);
        let view = conv.subscribe_view();
        conv.send(
            "look".into(),
            vec![
                Attachment::bytes("photo.png", "image/png", photo.clone()),
                Attachment::bytes("icon.png", "image/png", icon.clone()),
            ],
        )
        .await
        .unwrap();
        let mut batches = Vec::new();
        while let Some(batch) = view.try_next_batch() {
            batches.push(batch);
        }
        let (message_id, at) = check(&batches);
        assert_eq!(conv.media_bytes(&message_id, at).await.unwrap(), Some(photo.clone()));
        assert_eq!(conv.media_bytes(&message_id, 2).await.unwrap(), Some(icon.clone()));
        // The text part, a part past the end and an unknown message have no bytes.
        assert_eq!(conv.media_bytes(&message_id, 0).await.unwrap(), None);
        assert_eq!(conv.media_bytes(&message_id, 3).await.unwrap(), None);
        assert_eq!(conv.media_bytes("nope", 1).await.unwrap(), None);
        store.flush();
    }
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&server, &store);
    let view = conv.subscribe_view();
    let (message_id, at) = check(&[view.next_batch().await.unwrap().unwrap()]);
    assert_eq!(conv.media_bytes(&message_id, at).await.unwrap(), Some(photo));
}

/// The media parts of message `id` in `messages`: each part's index, kind and source.
fn parts_of(messages: &[agentui_agui::Message], id: &str) -> Vec<agentui_agui::ContentPart> {
    let message = messages.iter().find(|m| m.id == id).expect("the message");
    match &message.content {
        Some(agentui_agui::MessageContent::Parts(parts)) => parts.clone(),
        other => panic!("no parts: {other:?}"),
    }
}

/// One file the store lost (deleted beside the database, cut short) makes its part unavailable,
/// never the conversation: it loads, says which part and why, opens, sends a placeholder for
/// the part in the next run, and can be forked and deleted.
#[tokio::test]
async fn a_missing_or_short_attachment_file_makes_its_part_unavailable_not_the_conversation() {
    let reply = |run: &str| Reply::sse(&run_of(run, vec![text(&format!("a-{run}"), "Nice.")]));
    let server = TestServer::start(vec![reply("r1"), reply("r2")]).await;
    let file = TempDbFile::new("attachments-missing");
    let photo = image_bytes(300_001);
    let drawing = image_bytes(200_002);
    let user_id = {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&server, &store);
        let attachments = vec![
            Attachment::bytes("photo.png", "image/png", photo.clone()),
            Attachment::bytes("drawing.png", "image/png", drawing.clone()),
        ];
        conv.send("look".into(), attachments).await.unwrap();
        store.flush();
        conv.snapshot()
            .unwrap()
            .messages
            .iter()
            .find(|m| m.role == agentui_agui::message::Role::User)
            .unwrap()
            .id
            .clone()
    };
    let store = ConversationStore::open(file.path()).unwrap();
    let dir = store.attachments_dir("t").unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 2, "one file per large part: {files:?}");
    // The photo's file (part 1) is gone; the drawing's (part 2) is cut short.
    let (photo_file, drawing_file) = if files[0].to_string_lossy().contains(".1") {
        (files[0].clone(), files[1].clone())
    } else {
        (files[1].clone(), files[0].clone())
    };
    std::fs::remove_file(&photo_file).unwrap();
    let text = std::fs::read(&drawing_file).unwrap();
    std::fs::write(&drawing_file, &text[..text.len() / 2]).unwrap();

    let stored = store.load("t").unwrap().expect("the conversation still loads");
    let unavailable: Vec<(String, usize)> =
        stored.unavailable_media.iter().map(|u| (u.message_id.clone(), u.part)).collect();
    assert_eq!(unavailable, vec![(user_id.clone(), 1), (user_id.clone(), 2)]);
    let parts = parts_of(&stored.snapshot.messages, &user_id);
    assert!(matches!(&parts[0], agentui_agui::ContentPart::Text(t) if t.text == "look"));
    for at in [1, 2] {
        let agentui_agui::ContentPart::Text(placeholder) = &parts[at] else { panic!("part {at}: {:?}", parts[at]) };
        assert!(placeholder.text.contains("unavailable"), "{}", placeholder.text);
        let marked = placeholder.metadata.as_ref().and_then(|m| m.get(agentui_runtime::store::UNAVAILABLE_KEY));
        assert_eq!(marked.and_then(|m| m["type"].as_str()), Some("image"), "{:?}", placeholder.metadata);
    }

    // It opens and continues: the next run's request carries placeholders for the two parts.
    let conv = open(&server, &store);
    conv.send_message("again".into()).await.expect("the next run's request does not fail");
    let body = &server.requests()[1].body;
    let first = body["messages"].as_array().unwrap().iter().find(|m| m["id"] == user_id.as_str()).unwrap();
    let kinds: Vec<&str> = first["content"].as_array().unwrap().iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["text", "text", "text"], "{first}");
    drop(conv);
    store.flush();

    let fork = store.fork("t", Some("t-fork")).unwrap();
    assert!(store.load(&fork).unwrap().is_some());
    assert!(store.delete("t").unwrap());
    assert!(store.delete(&fork).unwrap());
}

/// A message the agent replaces under the same id with other media of the same length comes back
/// with the new media, not the file of the old.
#[tokio::test]
async fn a_message_replaced_under_its_id_comes_back_with_its_new_media() {
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let first = image_bytes(100_000);
    let second: Vec<u8> = first.iter().map(|b| b.wrapping_add(1)).collect();
    let snapshot_with = |run: &str, image: &[u8]| {
        let message = serde_json::json!({"id": "pic", "role": "tool", "toolCallId": "c1", "content": [
            {"type": "image", "source": {"type": "data", "value": b64(image), "mimeType": "image/png"}}
        ]});
        Reply::sse(&run_of(run, vec![vec![serde_json::json!({"type": "MESSAGES_SNAPSHOT", "messages": [message]})]]))
    };
    let server = TestServer::start(vec![snapshot_with("r1", &first), snapshot_with("r2", &second)]).await;
    let file = TempDbFile::new("attachments-replaced");
    {
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = open(&server, &store);
        conv.send_message("one".into()).await.unwrap();
        store.flush();
        conv.send_message("two".into()).await.unwrap();
        store.flush();
        assert!(conv.media_bytes("pic", 0).await.unwrap() == Some(second.clone()), "the replaced bytes, in memory");
        let files = std::fs::read_dir(store.attachments_dir("t").unwrap()).unwrap().count();
        assert_eq!(files, 1, "the replaced part's file was removed once the new row was committed");
    }
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&server, &store);
    // Compared without printing: the bytes are long.
    assert!(conv.media_bytes("pic", 0).await.unwrap() == Some(second), "the bytes of the message as it was replaced");
}

/// Past the budget's conversation-wide media bound a message with attachments is refused with a
/// typed error before anything is read, sent or added; below it, it goes.
#[tokio::test]
async fn the_conversation_media_bound_refuses_a_message_that_would_cross_it_and_adds_nothing() {
    let reply = |run: &str| Reply::sse(&run_of(run, vec![text(&format!("a-{run}"), "Nice.")]));
    let server = TestServer::start(vec![reply("r1"), reply("r2")]).await;
    let budget = agentui_agui::MemoryBudget { max_conversation_media_bytes: 250_000, ..Default::default() };
    let conv = Conversation::start(
        session(&server, SessionOptions { budget, ..SessionOptions::default() }),
        tokio::runtime::Handle::current(),
    );
    conv.send("one".into(), vec![Attachment::bytes("a.png", "image/png", image_bytes(200_000))]).await.unwrap();
    let before = conv.snapshot().unwrap().messages;
    let error =
        conv.send("two".into(), vec![Attachment::bytes("b.png", "image/png", image_bytes(60_000))]).await.unwrap_err();
    match error {
        SessionError::Attachment(AttachmentError::ConversationMediaFull { name, held, total, limit }) => {
            assert_eq!((name.as_str(), held, total, limit), ("b.png", 200_000, 260_000, 250_000));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(conv.snapshot().unwrap().messages, before, "nothing of the refused message was added");
    assert!(conv.snapshot().unwrap().pending_sends.is_empty(), "nor queued");
    assert_eq!(server.requests().len(), 1, "nor sent");
    // A message within the bound still goes.
    conv.send("three".into(), vec![Attachment::bytes("c.png", "image/png", image_bytes(40_000))]).await.unwrap();
    assert_eq!(server.requests().len(), 2);
}

/// On a store, media already written are not held in memory: the conversation keeps a reference
/// and reads the file back for a request (which carries the bytes) and for a view.
#[tokio::test]
async fn a_stored_conversations_written_media_are_not_held_in_memory() {
    let reply = |run: &str| Reply::sse(&run_of(run, vec![text(&format!("a-{run}"), "Nice.")]));
    let server = TestServer::start(vec![reply("r1"), reply("r2"), reply("r3")]).await;
    let photo = image_bytes(300_001);
    let plain = start(&server);
    plain.send("look".into(), vec![Attachment::bytes("photo.png", "image/png", photo.clone())]).await.unwrap();
    assert!(plain.held_media_chars() >= 400_000, "without a store the conversation holds its photo");

    let file = TempDbFile::new("attachments-not-held");
    let store = ConversationStore::open(file.path()).unwrap();
    let conv = open(&server, &store);
    conv.send("look".into(), vec![Attachment::bytes("photo.png", "image/png", photo.clone())]).await.unwrap();
    store.flush();
    assert_eq!(conv.held_media_chars(), 0, "the photo is in its file, not in memory");
    let user_id = conv
        .snapshot()
        .unwrap()
        .messages
        .iter()
        .find(|m| m.role == agentui_agui::message::Role::User)
        .unwrap()
        .id
        .clone();
    assert!(conv.media_bytes(&user_id, 1).await.unwrap() == Some(photo.clone()), "a view reads it back");
    conv.send_message("again".into()).await.unwrap();
    let body = &server.requests()[2].body;
    let first = body["messages"].as_array().unwrap().iter().find(|m| m["id"] == user_id.as_str()).unwrap();
    let sent = base64::engine::general_purpose::STANDARD
        .decode(first["content"][1]["source"]["value"].as_str().unwrap())
        .unwrap();
    assert!(sent == photo, "the next request carries the photo's bytes, read back from its file");
    assert!(
        first["content"][1]["metadata"].get(agentui_runtime::store::STORED_KEY).is_none(),
        "the store's reference is not sent"
    );
    assert_eq!(conv.held_media_chars(), 0, "and does not keep them");
}

/// What Microsoft Agent Framework's AG-UI adapter (`agent-framework-ag-ui`, on the pre-1.0
/// Python SDK) streams back: the request's messages in `MESSAGES_SNAPSHOT`, every media part
/// rewritten as the retired `{"type": "binary", "mimeType", "data"}` (no file name), then its
/// answer. `strip_media` plays an adapter that drops the parts instead.
fn agent_framework_echo(request: &Recorded, strip_media: bool) -> Reply {
    let run = request.body["runId"].as_str().unwrap().to_owned();
    let mut messages: Vec<Value> = request.body["messages"].as_array().unwrap().clone();
    for m in &mut messages {
        let Some(parts) = m["content"].as_array() else { continue };
        let parts: Vec<Value> = parts
            .iter()
            .filter(|p| p["type"] == "text" || !strip_media)
            .map(|p| match p["type"].as_str() {
                Some("text") => p.clone(),
                _ => serde_json::json!({"type": "binary", "mimeType": p["source"]["mimeType"], "data": p["source"]["value"]}),
            })
            .collect();
        m["content"] = Value::Array(parts);
    }
    let answer = format!("answer-{run}");
    messages.push(serde_json::json!({"id": answer, "role": "assistant", "content": "A picture."}));
    Reply::sse(&run_of(&run, vec![vec![serde_json::json!({"type": "MESSAGES_SNAPSHOT", "messages": messages})]]))
}

/// Issue #40: the user's photo survives the agent's echo of it, in the chat and in the next
/// turn's request, whether the echo carries it in the retired shape or not at all.
#[tokio::test]
async fn the_users_attachment_survives_an_agents_snapshot_into_the_next_turn() {
    for (strip_media, stored) in [(false, false), (true, false), (false, true), (true, true)] {
        let server = TestServer::with_handler(vec![], move |r| agent_framework_echo(r, strip_media)).await;
        // With a store, the conversation holds a reference to the photo's file, not its bytes.
        let file = TempDbFile::new(&format!("attachments-echoed-{strip_media}"));
        let store = ConversationStore::open(file.path()).unwrap();
        let conv = if stored { open(&server, &store) } else { start(&server) };
        let photo = image_bytes(100_000);
        let first = conv
            .send("what is this?".into(), vec![Attachment::bytes("photo.png", "image/png", photo.clone())])
            .await
            .unwrap();
        let kept_warnings = first.warnings.iter().filter(|w| w.message.contains("the app's own parts")).count();
        assert_eq!(
            kept_warnings,
            usize::from(strip_media),
            "strip_media={strip_media} stored={stored}: {:?}",
            first.warnings
        );
        store.flush();
        if stored {
            assert_eq!(conv.held_media_chars(), 0, "the photo is in its file, not in memory");
        }
        let summary = conv.send_message("and now?".into()).await.unwrap();
        // The echo of the second turn carries the first message again, as the first did.
        let kept_warnings = summary.warnings.iter().filter(|w| w.message.contains("the app's own parts")).count();
        assert_eq!(
            kept_warnings,
            usize::from(strip_media),
            "strip_media={strip_media} stored={stored}: {:?}",
            summary.warnings
        );
        assert!(summary.warnings.iter().all(|w| !w.message.contains("binary")), "{:?}", summary.warnings);
        let requests = server.requests();
        assert_eq!(requests.len(), 2);
        let user = requests[1].body["messages"].as_array().unwrap().iter().find(|m| m["role"] == "user").unwrap();
        let (text, media) = received(&serde_json::json!({"messages": [user]}));
        assert_eq!(text, "what is this?");
        // Compared without printing: the bytes are long.
        let described: Vec<_> = media.iter().map(|(kind, bytes, mime, name)| (kind, bytes.len(), mime, name)).collect();
        assert_eq!(described.len(), 1, "strip_media={strip_media} stored={stored}: {described:?}");
        assert!(media[0] == ("image".to_owned(), photo.clone(), "image/png".to_owned(), "photo.png".to_owned()));
        let snapshot = conv.snapshot().unwrap();
        let held = snapshot.messages.iter().find(|m| m.role == agentui_agui::message::Role::User).unwrap();
        assert!(matches!(&held.content, Some(agentui_agui::MessageContent::Parts(p)) if p.len() == 2));
    }
}
