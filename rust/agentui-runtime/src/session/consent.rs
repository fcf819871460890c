//! The user's consent before a client tool acts. A tool registered with [`Consent::Ask`] does
//! not run when the agent calls it: the call waits here as a [`ConsentRequest`] until the app
//! answers. The book is the session's, so the decision is enforced where tools run, once for
//! every platform, and kept with the conversation (requests and grants are stored).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::observe::{ConsentAnswer, ConsentRequest, ConversationDelta};

/// Consent requests one conversation holds at once. A call past it is refused with an error
/// result the agent reads (and a warning), never dropped in silence: an agent calling an `Ask`
/// tool in a loop cannot grow the list (or the card stack a UI draws) without end.
pub const MAX_PENDING_CONSENT: usize = 32;

/// Tools one conversation keeps a grant for: as many as a registry holds.
const MAX_GRANTS: usize = super::tools::MAX_TOOLS;

/// What the agent reads when the user declined a call (`ToolFailure::Declined`), so its tool
/// message is
/// `Error: the client refused to run this call: the user declined it` with the same text, less
/// `Error: `, in its `error` field.
pub const DECLINED_BY_USER: &str = "the user declined it";

/// When a registered tool's call runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum Consent {
    /// As soon as the agent calls it (after the tool policy allowed it).
    #[default]
    RunAtOnce,
    /// Only after the user allowed it (once, or for the rest of the conversation).
    Ask,
}

/// The requests waiting for an answer and the tools granted for the rest of the conversation.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ConsentBook {
    requests: Vec<ConsentRequest>,
    grants: Vec<String>,
}

impl ConsentBook {
    pub fn from_parts(requests: Vec<ConsentRequest>, mut grants: Vec<String>) -> Self {
        grants.truncate(MAX_GRANTS);
        ConsentBook { requests, grants }
    }

    pub fn granted(&self, tool_name: &str) -> bool {
        self.grants.iter().any(|g| g == tool_name)
    }

    pub fn is_full(&self) -> bool {
        self.requests.len() >= MAX_PENDING_CONSENT
    }

    pub fn has_pending(&self) -> bool {
        !self.requests.is_empty()
    }

    pub fn requests(&self) -> &[ConsentRequest] {
        &self.requests
    }

    pub fn grants(&self) -> &[String] {
        &self.grants
    }

    /// Puts a call to the user (the caller checked `is_full`).
    pub fn ask(&mut self, tool_call_id: &str, tool_name: &str, arguments: serde_json::Value) {
        let asked_at_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        self.requests.push(ConsentRequest {
            tool_call_id: tool_call_id.to_owned(),
            tool_name: tool_name.to_owned(),
            arguments,
            asked_at_ms,
        });
    }

    /// Takes the request `tool_call_id` out with the user's `answer` (an `AllowAlways` grants its
    /// tool); `None` when no such request waits (unknown, or answered already).
    pub fn answer(&mut self, tool_call_id: &str, answer: ConsentAnswer) -> Option<ConsentRequest> {
        let at = self.requests.iter().position(|r| r.tool_call_id == tool_call_id)?;
        let request = self.requests.remove(at);
        if answer == ConsentAnswer::AllowAlways && !self.granted(&request.tool_name) && self.grants.len() < MAX_GRANTS {
            self.grants.push(request.tool_name.clone());
        }
        Some(request)
    }

    /// Drops a request without an answer (its call can never be answered: its message stays on
    /// this device). Whether it waited.
    pub fn withdraw(&mut self, tool_call_id: &str) -> bool {
        let before = self.requests.len();
        self.requests.retain(|r| r.tool_call_id != tool_call_id);
        before != self.requests.len()
    }

    /// The delta that tells observers (and the store) the book as it is.
    pub fn delta(&self) -> ConversationDelta {
        ConversationDelta::Consent { requests: self.requests.clone(), granted_tools: self.grants.clone() }
    }
}
