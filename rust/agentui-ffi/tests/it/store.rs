//! The exported store API: a conversation written through one runtime comes back through a new
//! runtime and store on the same file (as after process death), listeners start with the
//! restored `Snapshot`, list / fork / delete, typed store errors, and a message that could not
//! reach the agent waits and is delivered by `retry_pending`.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use agentui_ffi::{
    ConversationError, ConversationOptions, ConversationStore, PendingSendKind, RunPhase, Runtime, StoreError,
};
use common::*;

/// A store file of its own, removed with its WAL when the test ends.
struct StoreFile(PathBuf);

impl StoreFile {
    fn new(name: &str) -> Self {
        let file = StoreFile(std::env::temp_dir().join(format!("agentui-ffi-store-{name}-{}.db", std::process::id())));
        file.remove();
        file
    }

    fn open(&self) -> Arc<ConversationStore> {
        ConversationStore::open(self.0.display().to_string()).unwrap()
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

impl Drop for StoreFile {
    fn drop(&mut self) {
        self.remove();
    }
}

fn on_thread(thread: &str) -> ConversationOptions {
    ConversationOptions { thread_id: Some(thread.into()), ..ConversationOptions::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_comes_back_through_a_new_runtime_and_listeners_start_with_it() {
    let file = StoreFile::new("restore");
    let agent = agentui_ffi::demo::start_demo_agent().unwrap();
    let before = {
        let runtime = Runtime::new().unwrap();
        let conversation = runtime.open(file.open(), agent.agent_url(), Vec::new(), on_thread("t")).unwrap();
        tokio::time::timeout(LIMIT, conversation.send_message("counter".into())).await.unwrap().unwrap();
        conversation.snapshot().unwrap()
    };

    let runtime = Runtime::new().unwrap();
    let conversation = runtime.open(file.open(), agent.agent_url(), Vec::new(), on_thread("t")).unwrap();
    // A view of the restored conversation starts from what was stored.
    let view = conversation.subscribe_view();
    let first = tokio::time::timeout(LIMIT, view.next_batch()).await.unwrap().unwrap().expect("a first batch");
    assert!(first.reset);
    let mut shown = Shown::default();
    shown.apply(first);
    let ids: Vec<&str> = shown.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, before.messages.iter().map(|m| m.id.as_str()).collect::<Vec<_>>());
    assert_eq!(shown.state, before.state);
    assert_eq!(shown.phase, before.phase);
    assert_eq!(shown.pending, 0);
    assert_eq!(conversation.snapshot().unwrap().messages, before.messages);
    agent.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_pages_fork_copies_and_delete_is_idempotent_with_typed_errors() {
    let file = StoreFile::new("lifecycle");
    let agent = agentui_ffi::demo::start_demo_agent().unwrap();
    let runtime = Runtime::new().unwrap();
    let store = file.open();
    for thread in ["a", "b", "c"] {
        let conversation = runtime.open(store.clone(), agent.agent_url(), Vec::new(), on_thread(thread)).unwrap();
        tokio::time::timeout(LIMIT, conversation.send_message(format!("hello {thread}"))).await.unwrap().unwrap();
        // Distinct write times, so the order is the writing order.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let first = store.list(2, None).unwrap();
    let ids: Vec<&str> = first.conversations.iter().map(|c| c.thread_id.as_str()).collect();
    assert_eq!(ids, ["c", "b"]);
    assert_eq!(first.conversations[0].title, "hello c");
    assert_eq!(first.conversations[0].message_count, 2);
    assert!(matches!(first.conversations[0].phase, RunPhase::Finished { .. }));
    let rest = store.list(2, first.next_cursor).unwrap();
    assert_eq!(rest.conversations.len(), 1);
    assert_eq!(rest.next_cursor, None);

    assert_eq!(store.fork("a".into(), Some("a2".into())).unwrap(), "a2");
    assert_eq!(store.fork("a".into(), Some("b".into())), Err(StoreError::Exists { thread_id: "b".into() }));
    assert_eq!(store.fork("nope".into(), None), Err(StoreError::NotFound { thread_id: "nope".into() }));
    let copy = runtime.open(store.clone(), agent.agent_url(), Vec::new(), on_thread("a2")).unwrap();
    assert_eq!(copy.snapshot().unwrap().messages.len(), 2, "the fork holds the source's messages");

    assert!(store.delete("a".into()).unwrap());
    assert!(!store.delete("a".into()).unwrap());
    assert_eq!(store.list(10, None).unwrap().conversations.len(), 3, "b, c and the fork");
    assert!(store.size_on_disk() > 0);
    assert!(matches!(ConversationStore::open("/nonexistent/dir/x.db".into()), Err(StoreError::Sqlite(_))));
    agent.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_the_agent_could_not_receive_waits_and_retry_pending_delivers_it() {
    let file = StoreFile::new("pending");
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    {
        let runtime = Runtime::new().unwrap();
        let conversation =
            runtime.open(file.open(), format!("http://{closed}/agent"), Vec::new(), on_thread("t")).unwrap();
        let error = tokio::time::timeout(LIMIT, conversation.send_message("hello".into())).await.unwrap().unwrap_err();
        assert!(matches!(error, ConversationError::Network { .. }), "{error:?}");
        let pending = conversation.snapshot().unwrap().pending_sends;
        assert_eq!(pending.len(), 1);
        assert!(matches!(&pending[0].kind, PendingSendKind::Message { text, .. } if text == "hello"));
    }
    assert_eq!(file.open().list(1, None).unwrap().conversations[0].pending_sends, 1);

    // The app comes back, and the agent is reachable now.
    let agent = agentui_ffi::demo::start_demo_agent().unwrap();
    let runtime = Runtime::new().unwrap();
    let conversation = runtime.open(file.open(), agent.agent_url(), Vec::new(), on_thread("t")).unwrap();
    assert_eq!(conversation.snapshot().unwrap().pending_sends.len(), 1);
    let summary = tokio::time::timeout(LIMIT, conversation.retry_pending()).await.unwrap().unwrap();
    assert!(summary.is_some(), "the waiting message was delivered by this call");
    assert!(conversation.snapshot().unwrap().pending_sends.is_empty());
    assert!(last_assistant_text(&conversation).starts_with("Hello!"), "{}", last_assistant_text(&conversation));
    assert_eq!(tokio::time::timeout(LIMIT, conversation.retry_pending()).await.unwrap().unwrap(), None);
    agent.stop().unwrap();
}
