//! `agentui run --trace-store` (hidden, for the crash test `tests/it/store_crash.rs`): one JSON line
//! on stderr for every store transaction and every client tool handler started, so a test that
//! kills the process knows exactly what was durable and what ran.
//!
//! - `{"store":"writing","batch":N,"conversation":{…}}` just before transaction N commits; the
//!   conversation is what `store show --json` prints in `final`, built from the same snapshot.
//! - `{"store":"written","batch":N}` once it committed.
//! - `{"tool":"ran","toolCallId":"…"}` when a command-line tool's handler starts.
//!
//! Each line is written whole and at once (stderr is unbuffered), before the work it announces
//! goes on, so nothing it reports can be lost in a buffer when the process is killed.

use std::io::Write;

use agentui_runtime::store::WriteObserver;
use agentui_runtime::ConversationSnapshot;
use serde_json::{json, Value};

use crate::conversation_json::conversation_json;

/// The store's write observer under `--trace-store`.
pub struct StoreTrace;

impl WriteObserver for StoreTrace {
    fn writing(&self, _thread_id: &str, batch: u64, snapshot: &ConversationSnapshot) {
        line(&json!({"store": "writing", "batch": batch, "conversation": conversation_json(snapshot)}));
    }

    fn written(&self, _thread_id: &str, batch: u64) {
        line(&json!({"store": "written", "batch": batch}));
    }
}

/// A command-line tool's handler started for `tool_call_id`.
pub fn tool_ran(tool_call_id: &str) {
    line(&json!({"tool": "ran", "toolCallId": tool_call_id}));
}

fn line(value: &Value) {
    let mut text = value.to_string();
    text.push('\n');
    // One write under the lock: lines from the writing thread and a tool's thread never mix.
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
