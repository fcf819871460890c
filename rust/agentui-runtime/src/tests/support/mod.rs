//! The scripted test server, and a listener that records every session update.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use agentui_runtime::session::{SessionListener, SessionUpdate, ToolCallPhase};
use agentui_runtime::ConversationDelta;
pub use agentui_test_server::*;

/// A test's name as the test binary knows it, for a child process that re-runs one test with
/// `--exact`: the calling module's path without the crate's name (every test module is linked
/// into one binary).
#[allow(unused_macros)]
macro_rules! test_name_here {
    ($test:literal) => {
        match module_path!().split_once("::") {
            Some((_, module)) => format!("{module}::{}", $test),
            None => $test.to_owned(),
        }
    };
}
#[allow(unused_imports)]
pub(crate) use test_name_here;

// ---- listener ----

#[derive(Default, Clone)]
pub struct Recorder {
    pub updates: Arc<Mutex<Vec<SessionUpdate>>>,
}

impl SessionListener for Recorder {
    fn on_update(&self, update: &SessionUpdate) {
        self.updates.lock().unwrap().push(update.clone());
    }
}

impl Recorder {
    /// The conversation deltas, in order (surface changes left out).
    pub fn all(&self) -> Vec<ConversationDelta> {
        self.updates
            .lock()
            .unwrap()
            .iter()
            .filter_map(|u| match u {
                SessionUpdate::Delta(d) => Some(d.clone()),
                SessionUpdate::MessagesReset
                | SessionUpdate::Surface(_)
                | SessionUpdate::Outbox(_)
                | SessionUpdate::A2uiErrors(_) => None,
            })
            .collect()
    }

    /// Every update, surface changes included.
    pub fn updates(&self) -> Vec<SessionUpdate> {
        self.updates.lock().unwrap().clone()
    }

    /// The phases one tool call went through, in order.
    pub fn tool_phases(&self, id: &str) -> Vec<ToolCallPhase> {
        self.all()
            .into_iter()
            .filter_map(|u| match u {
                ConversationDelta::ToolCall(t) if t.tool_call_id == id => Some(t.phase),
                _ => None,
            })
            .collect()
    }
}
