//! A reset of the message list (a `MESSAGES_SNAPSHOT`, an input echo, a restore) tells observers
//! that the list was replaced and carries no copy of it: readers take the list from the
//! conversation when they read the reset. What was queued after the reset is then in the list
//! already, and must not be applied twice.

use crate::tests::support;

use std::sync::{Arc, Mutex};

use agentui_agui::message::{ContentPart, MediaPart, MessageContent, PartSource, Role, TextPart};
use agentui_agui::Message;
use agentui_runtime::session::{ConversationSession, SessionOptions, SessionUpdate};
use agentui_runtime::view::MessageDiff;
use agentui_runtime::{Conversation, ConversationDelta, Observed};
use base64::Engine as _;
use serde_json::json;
use support::*;

/// Decoded bytes of the photo: its base64 text is a third longer.
const PHOTO_BYTES: usize = 300 * 1024;

/// A user message with a photo inline, as an app sends it.
fn photo_message(id: &str) -> Message {
    let bytes: Vec<u8> = (0..PHOTO_BYTES).map(|i| (i * 7 % 251) as u8).collect();
    let mut message = Message::new(id, Role::User);
    message.content = Some(MessageContent::Parts(vec![
        ContentPart::Text(TextPart { id: None, text: "look".to_owned(), metadata: None }),
        ContentPart::Image(MediaPart {
            id: None,
            source: PartSource::Data {
                value: base64::engine::general_purpose::STANDARD.encode(bytes),
                mime_type: "image/png".to_owned(),
            },
            metadata: None,
        }),
    ]));
    message
}

/// What one update carries, measured as its debug text: a copy of the photo shows as its base64.
fn carried(update: &SessionUpdate) -> usize {
    format!("{update:?}").len()
}

/// Every update a listener was told, by what it carries.
#[derive(Clone, Default)]
struct Sizes(Arc<Mutex<Vec<(String, usize)>>>);

impl Sizes {
    fn listen(&self, session: &mut ConversationSession) {
        let sizes = self.0.clone();
        session.add_listener(Arc::new(move |u: &SessionUpdate| {
            let name: String = format!("{u:?}").chars().take(40).collect();
            sizes.lock().unwrap().push((name, carried(u)));
        }));
    }

    /// The updates carrying at least half the photo's base64 text.
    fn carrying_the_photo(&self) -> Vec<String> {
        let photo = PHOTO_BYTES * 4 / 3;
        self.0.lock().unwrap().iter().filter(|(_, size)| *size >= photo / 2).map(|(name, _)| name.clone()).collect()
    }

    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
}

fn session(server: &TestServer) -> ConversationSession {
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    ConversationSession::connect(&server.url("/agent"), &[], options).unwrap()
}

/// Issue 43: a reset copied the whole conversation, photos included, under its lock, into the
/// update every listener got (and every subscriber's queue copied it again). It now says only
/// that the list was replaced.
#[tokio::test]
async fn a_reset_carries_no_copy_of_the_conversation() {
    let photo = photo_message("u1");
    // The agent echoes the conversation in a MESSAGES_SNAPSHOT, as ag-ui-langgraph does.
    let snapshot = json!({"type": "MESSAGES_SNAPSHOT", "messages": [serde_json::to_value(&photo).unwrap(),
        {"id": "a0", "role": "assistant", "content": "a photo"}]});
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", vec![vec![snapshot], text("a1", "nice")]))]).await;
    let mut s = session(&server);
    let sizes = Sizes::default();
    sizes.listen(&mut s);

    s.restore(vec![photo], None);
    assert_eq!(sizes.carrying_the_photo(), Vec::<String>::new(), "a restore's reset copies no message");
    sizes.clear();

    s.continue_run().await.unwrap();
    assert_eq!(sizes.carrying_the_photo(), Vec::<String>::new(), "a snapshot's reset copies no message");
    let ids: Vec<String> = s.messages().iter().map(|m| m.id.clone()).collect();
    assert_eq!(ids, ["u1", "a0", "a1"]);
}

/// The message list a plain subscriber builds by applying what it reads.
fn apply(messages: &mut Vec<Message>, item: Observed) {
    match item {
        Observed::Snapshot(snapshot) => *messages = snapshot.messages,
        Observed::Delta(ConversationDelta::MessagesReset(all)) => *messages = all,
        Observed::Delta(ConversationDelta::MessageAdded(m)) => {
            assert!(messages.iter().all(|held| held.id != m.id), "message {} added twice", m.id);
            messages.push(m)
        }
        Observed::Delta(ConversationDelta::MessageReplaced(m)) => {
            let at = messages.iter().position(|held| held.id == m.id).expect("a replaced message is held");
            messages[at] = m;
        }
        Observed::Delta(ConversationDelta::TextAppended { message_id, delta }) => {
            let held = messages.iter_mut().find(|m| m.id == message_id).expect("text for a held message");
            match &mut held.content {
                Some(MessageContent::Text(text)) => text.push_str(&delta),
                other => *other = Some(MessageContent::Text(delta)),
            }
        }
        Observed::Delta(_) => {}
    }
}

/// A reset read after more was queued behind it: the list is the conversation's as it is when
/// read, and the changes queued after the reset (already in it) are not applied again, while
/// the other changes (the phase, events) keep their place. Both kinds of subscriber, read only
/// after the run.
#[tokio::test]
async fn a_reset_read_late_is_the_list_then_and_nothing_after_it_applies_twice() {
    let snapshot = json!({"type": "MESSAGES_SNAPSHOT", "messages": [
        {"id": "u0", "role": "user", "content": "earlier"},
        {"id": "a0", "role": "assistant", "content": "before"}]});
    let mut body = vec![text("a1", "first"), vec![snapshot], text("a2", "after the snapshot")];
    body.push(vec![json!({"type": "CUSTOM", "name": "ping", "value": 1})]);
    body.push(text("a3", "last"));
    let server = TestServer::start(vec![Reply::sse(&run_of("r1", body))]).await;
    let conv = Conversation::start(session(&server), tokio::runtime::Handle::current());
    let mut plain = conv.subscribe();
    let view = conv.subscribe_view();
    let first = view.try_next_batch().expect("the whole state first");
    assert!(first.reset);

    conv.send_message("hi".into()).await.unwrap();
    let truth: Vec<String> = conv.snapshot().unwrap().messages.iter().map(|m| m.id.clone()).collect();
    assert_eq!(truth, ["u0", "a0", "a2", "a3"]);

    let mut messages = Vec::new();
    let mut resets = 0;
    while let Some(item) = plain.try_recv() {
        resets += matches!(item, Observed::Delta(ConversationDelta::MessagesReset(_))) as usize;
        apply(&mut messages, item);
    }
    assert!(resets >= 1, "the subscriber was told of the reset");
    let ids: Vec<String> = messages.iter().map(|m| m.id.clone()).collect();
    assert_eq!(ids, truth);
    assert_eq!(messages, conv.snapshot().unwrap().messages);

    let batches: Vec<_> = std::iter::from_fn(|| view.try_next_batch()).collect();
    assert!(!batches.iter().any(|b| b.reset), "no resync: the view kept up");
    let mut items = first.messages.iter().find_map(|d| match d {
        MessageDiff::Reset { items } => Some(items.clone()),
        _ => None,
    });
    let mut custom = 0;
    for batch in batches {
        for diff in batch.messages {
            let items = items.as_mut().unwrap();
            match diff {
                MessageDiff::Reset { items: all } => *items = all,
                MessageDiff::Insert { index, item } => items.insert(index as usize, item),
                MessageDiff::Set { index, item } => items[index as usize] = item,
                MessageDiff::AppendText { index, text } => items[index as usize].text.push_str(&text),
                _ => {}
            }
        }
        custom += batch.event.iter().filter(|e| matches!(e, agentui_runtime::view::ViewEvent::Custom { .. })).count();
    }
    assert_eq!(custom, 1, "the event queued after the reset is still told");
    let shown: Vec<(String, String)> = items.unwrap().into_iter().map(|i| (i.id, i.text)).collect();
    assert_eq!(
        shown,
        [("u0", "earlier"), ("a0", "before"), ("a2", "after the snapshot"), ("a3", "last")]
            .map(|(id, text)| (id.to_owned(), text.to_owned()))
    );
}
