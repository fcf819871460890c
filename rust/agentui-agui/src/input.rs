//! Building the `RunAgentInput` a client sends: the conversation so far, the state, the tools the
//! client registers, downgraded for the peer's era and with the protocol version declared.

use serde_json::{Map, Value};

use crate::compat::{travels_to_producer, PeerEra};
use crate::error::Warning;
use crate::message::{Context, Message, ResumeEntry, RunAgentInput, Tool};
use crate::reducer::ConversationState;
use crate::version::PROTOCOL_VERSION;

/// What a run carries besides the conversation itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunRequest {
    pub thread_id: String,
    pub run_id: String,
    pub parent_run_id: Option<String>,
    /// The tools the client's registry executes; the same registry declares them here.
    pub tools: Vec<Tool>,
    pub context: Vec<Context>,
    pub forwarded_props: Option<Value>,
    pub resume: Vec<ResumeEntry>,
}

/// The input for the next run on `conversation`, with warnings for anything an era downgrade
/// lost.
pub fn build_run_agent_input(
    conversation: &ConversationState,
    request: &RunRequest,
    era: &PeerEra,
) -> (RunAgentInput, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut messages: Vec<Message> = conversation
        .messages()
        .iter()
        .filter(|m| travels_to_producer(m) && conversation.local_only(&m.id).is_none())
        .cloned()
        .collect();
    era.downgrade_messages(&mut messages, &mut warnings);
    // Every field the 1.0 schema defines is sent, empty where empty: servers on the 1.0 Python
    // SDK answer 422 for a missing `tools`, and ag_ui_adk's AGUIToolset takes `len()` of it.
    let state = match conversation.state() {
        Value::Null => Value::Object(Map::new()),
        s => s.clone(),
    };
    let input = RunAgentInput {
        thread_id: request.thread_id.clone(),
        run_id: request.run_id.clone(),
        protocol_version: (!era.omits_protocol_version()).then(|| PROTOCOL_VERSION.to_owned()),
        // A 0.0.39 peer predates parentRunId as well.
        parent_run_id: request.parent_run_id.clone().filter(|_| !era.flattens_content()),
        state: Some(state),
        messages,
        tools: Some(request.tools.clone()),
        context: Some(request.context.clone()),
        forwarded_props: Some(match &request.forwarded_props {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(props) => props.clone(),
        }),
        resume: (!request.resume.is_empty()).then(|| request.resume.clone()),
    };
    (input, warnings)
}
