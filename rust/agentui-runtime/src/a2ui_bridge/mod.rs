//! A2UI over AG-UI: finds A2UI messages in the AG-UI event stream, feeds them to a
//! [`SurfaceGroup`], and shapes what goes back to the agent (user actions, errors, the client's
//! catalogs) the way AG-UI agents expect it.
//!
//! One concern a file, each opening with the conventions it follows:
//! - `carriers.rs`: where A2UI travels in an AG-UI stream (activities, tool results, `CUSTOM`,
//!   `RAW`, `MESSAGES_SNAPSHOT`) and how its operations are read out of each;
//! - `replay.rs`: what each carrier already applied, so that repeated and cumulative snapshots
//!   apply only what is new, and restored history is adopted without being applied again
//!   ([`A2uiBridge::adopt_history`]);
//! - `outbound.rs`: what goes back to the agent: user actions ([`BridgeAction`]), v1.0
//!   `callAgentFunction`s ([`AgentFunctionCall`]; the answers come back through the carriers and
//!   wait here until the caller takes them), errors ([`PendingForAgent`]) and the client's
//!   catalogs.
//!
//! Everything the agent sends is untrusted: sizes and counts are bounded ([`BridgeLimits`]), and
//! every problem is a typed [`BridgeError`] in the outcome, reported to the agent as well.

mod carriers;
mod outbound;
mod replay;

use std::collections::VecDeque;

use agentui_a2ui::wire::v09::{ClientMessage, ErrorMessage};
use agentui_a2ui::wire::v10::AgentFunctionResponse;
use agentui_a2ui::{A2uiError, Outcome, SurfaceEvent, SurfaceGroup};
use serde_json::Value;

use agentui_agui::event::{Event, ToolResultContent};

use carriers::Body;
use replay::{Feed, ToolResultRecord, TrackedActivity};

pub(crate) use carriers::surfaces_created_by_activity;
pub use carriers::{A2UI_ACTIVITY_TYPE, A2UI_CUSTOM_EVENT_NAME, A2UI_OPERATIONS_KEY, LEGACY_OPERATIONS_KEY};
pub use outbound::{
    AgentFunctionAnswer, AgentFunctionCall, BridgeAction, PendingForAgent, A2UI_ACTION_MESSAGE_PROP, A2UI_ACTION_PROP,
    A2UI_CALL_AGENT_FUNCTION_CONTEXT_DESCRIPTION, A2UI_CALL_AGENT_FUNCTION_PROP, A2UI_CAPABILITIES_CONTEXT_DESCRIPTION,
    A2UI_CLIENT_CAPABILITIES_PROP, A2UI_CLIENT_DATA_MODEL_PROP, A2UI_ERRORS_CONTEXT_DESCRIPTION,
    A2UI_ERRORS_OMITTED_PROP, A2UI_ERRORS_PROP,
};

/// Bounds on what an agent may make the bridge track or apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BridgeLimits {
    /// Operations one event may apply. An event over it applies none and reports it once: the
    /// operations count as seen, so the same snapshot does not report again.
    pub max_operations_per_event: usize,
    /// Operations one activity's content may list.
    pub max_operations_per_activity: usize,
    /// Activities tracked at once; the least recently updated is forgotten first. A later delta
    /// for it is then reported as an unknown activity, and a later snapshot starts from scratch.
    pub max_activities: usize,
    /// Bytes of text parsed for A2UI (a tool result, a CUSTOM or RAW string).
    pub max_payload_bytes: usize,
    /// Tool results remembered for de-duplication.
    pub max_tool_results: usize,
    /// Errors kept for the next run; later ones are counted.
    pub max_pending_errors: usize,
    /// Weight (see [`agentui_a2ui::size`]) an activity's content may reach through a patch.
    pub max_content_bytes: usize,
}

impl Default for BridgeLimits {
    fn default() -> Self {
        BridgeLimits {
            max_operations_per_event: 1_000,
            max_operations_per_activity: 10_000,
            max_activities: 256,
            max_payload_bytes: 4 * 1024 * 1024,
            max_tool_results: 256,
            max_pending_errors: 100,
            max_content_bytes: 8 * 1024 * 1024,
        }
    }
}

/// A problem with the A2UI an event carried. Each one is also reported to the agent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BridgeError {
    #[error("{what} limit exceeded: {actual} > {limit}")]
    LimitExceeded { what: &'static str, limit: usize, actual: usize },
    /// The carrier claims A2UI (or mentions `a2ui_operations`) but does not hold valid A2UI.
    #[error("malformed A2UI in {carrier}: {message}")]
    Malformed { carrier: &'static str, message: String },
    /// `a2ui_operations` is present but is not a list.
    #[error("{carrier}: a2ui_operations must be an array")]
    OperationsNotAList { carrier: &'static str },
    #[error("ACTIVITY_DELTA for unknown a2ui-surface activity {0:?}")]
    UnknownActivity(String),
    /// The patch did not apply; the activity keeps its previous content.
    #[error("ACTIVITY_DELTA for {message_id:?} did not apply: {reason}")]
    PatchNotApplied { message_id: String, reason: String },
}

impl BridgeError {
    /// The error as the agent is told about it.
    pub fn to_a2ui(&self) -> A2uiError {
        match *self {
            BridgeError::LimitExceeded { what, limit, actual } => A2uiError::LimitExceeded { what, limit, actual },
            BridgeError::OperationsNotAList { .. } => {
                A2uiError::validation(format!("/{A2UI_OPERATIONS_KEY}"), "a2ui_operations must be an array")
            }
            ref other => A2uiError::Malformed(other.to_string()),
        }
    }
}

/// What one event produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BridgeOutcome {
    /// Changes for the renderer, in order.
    pub events: Vec<SurfaceEvent>,
    /// Client-to-server messages (errors) this event produced, in wire-ready form. They are
    /// also queued for the next run (see [`A2uiBridge::take_pending_for_agent`]).
    pub emitted: Vec<ClientMessage>,
    /// Bridge-level problems (also in `emitted` as error messages).
    pub errors: Vec<BridgeError>,
    /// v1.0: the agent's answers to this client's waiting `callAgentFunction`s, in order. They
    /// are also kept until the caller takes them ([`A2uiBridge::finish_agent_function`]).
    pub agent_function_responses: Vec<AgentFunctionResponse>,
}

impl BridgeOutcome {
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
            && self.emitted.is_empty()
            && self.errors.is_empty()
            && self.agent_function_responses.is_empty()
    }

    fn absorb(&mut self, outcome: Outcome) {
        self.events.extend(outcome.events);
        self.emitted.extend(outcome.emitted);
        self.agent_function_responses.extend(outcome.agent_function_responses);
    }

    fn fail(&mut self, surface_id: &str, error: BridgeError) {
        self.emitted.push(ClientMessage::Error(ErrorMessage::from_error(surface_id, &error.to_a2ui())));
        self.errors.push(error);
    }
}

/// The A2UI side of one conversation: owns its [`SurfaceGroup`].
#[derive(Debug)]
pub struct A2uiBridge {
    group: SurfaceGroup,
    limits: BridgeLimits,
    /// Least recently updated first.
    activities: VecDeque<TrackedActivity>,
    /// Oldest first.
    tool_results: VecDeque<ToolResultRecord>,
    pending: PendingForAgent,
    /// Answers to waiting `callAgentFunction`s not taken yet. Bounded: the engine hands over
    /// one answer per waiting call, and at most `MAX_PENDING_AGENT_CALLS` wait.
    answers: Vec<AgentFunctionResponse>,
}

impl Default for A2uiBridge {
    fn default() -> Self {
        A2uiBridge::new(SurfaceGroup::default())
    }
}

impl A2uiBridge {
    pub fn new(group: SurfaceGroup) -> Self {
        A2uiBridge::with_limits(group, BridgeLimits::default())
    }

    pub fn with_limits(group: SurfaceGroup, limits: BridgeLimits) -> Self {
        A2uiBridge {
            group,
            limits,
            activities: VecDeque::new(),
            tool_results: VecDeque::new(),
            pending: PendingForAgent::default(),
            answers: Vec::new(),
        }
    }

    pub fn group(&self) -> &SurfaceGroup {
        &self.group
    }

    pub fn group_mut(&mut self) -> &mut SurfaceGroup {
        &mut self.group
    }

    pub fn limits(&self) -> &BridgeLimits {
        &self.limits
    }

    /// Number of `a2ui-surface` activities tracked.
    pub fn tracked_activities(&self) -> usize {
        self.activities.len()
    }

    /// Feeds one (verified) event. Events that carry no A2UI cost a `match`.
    ///
    /// `RUN_FINISHED` and `RUN_ERROR` report messages still buffered for surfaces that were never
    /// created (see [`SurfaceGroup::flush_pending`]).
    pub fn on_event(&mut self, event: &Event) -> BridgeOutcome {
        let mut out = BridgeOutcome::default();
        match event {
            Event::ActivitySnapshot(e) => self.activity_snapshot(e, &mut out),
            Event::ActivityDelta(e) => self.activity_delta(e, &mut out),
            Event::ToolCallResult(e) => {
                let body = match &e.content {
                    ToolResultContent::Text(text) => Body::Text(text),
                    ToolResultContent::Parts(parts) => Body::Parts(parts),
                };
                self.tool_result(&e.tool_call_id, body, &mut out, Feed::Apply);
            }
            Event::Custom(e) if e.name == A2UI_CUSTOM_EVENT_NAME => self.custom(&e.value, &mut out),
            Event::Raw(e) => self.raw(&e.event, &mut out),
            Event::MessagesSnapshot(e) => self.messages_snapshot(&e.messages, &mut out, Feed::Apply),
            Event::RunFinished(_) | Event::RunError(_) => out.absorb(self.group.flush_pending()),
            _ => return out,
        }
        self.queue_for_agent(&out.emitted);
        self.answers.extend(out.agent_function_responses.iter().cloned());
        out
    }

    /// Reports still-buffered messages now (also done on `RUN_FINISHED` / `RUN_ERROR`).
    pub fn flush_pending(&mut self) -> BridgeOutcome {
        let mut out = BridgeOutcome::default();
        out.absorb(self.group.flush_pending());
        self.queue_for_agent(&out.emitted);
        out
    }

    /// Writes user input to a surface's data model (two-way binding).
    pub fn set_value(&mut self, surface_id: &str, path: &str, value: Value) -> Result<Outcome, A2uiError> {
        self.group.set_value(surface_id, path, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_map_to_agent_codes() {
        let limit = BridgeError::LimitExceeded { what: "x", limit: 1, actual: 2 };
        assert_eq!(limit.to_a2ui().code(), "LIMIT_EXCEEDED");
        let list = BridgeError::OperationsNotAList { carrier: "c" }.to_a2ui();
        assert_eq!((list.code(), list.path()), ("VALIDATION_FAILED", Some("/a2ui_operations")));
        assert_eq!(BridgeError::UnknownActivity("m".into()).to_a2ui().code(), "MALFORMED_MESSAGE");
    }
}
