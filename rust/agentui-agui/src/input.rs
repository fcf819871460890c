//! Building the `RunAgentInput` a client sends: the conversation so far, the state, the tools the
//! client registers, downgraded for the peer's era and with the protocol version declared.

use serde::Serialize;
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

/// One message of an encoded input: the conversation's own, unless the peer's era changes it.
#[derive(Serialize)]
#[serde(untagged)]
enum Outgoing<'a> {
    Same(&'a Message),
    Downgraded(Box<Message>),
}

/// [`RunAgentInput`] borrowing the conversation's messages (same fields, same order).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputBody<'a> {
    thread_id: &'a str,
    run_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol_version: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_run_id: Option<&'a str>,
    state: &'a Value,
    messages: Vec<Outgoing<'a>>,
    tools: &'a [Tool],
    context: &'a [Context],
    forwarded_props: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    resume: Option<&'a [ResumeEntry]>,
}

/// The request body of [`build_run_agent_input`]'s input, encoded straight from the conversation:
/// messages are not cloned (one an era downgrade changes is), so a message carrying a large
/// attachment is in memory twice while it is sent (the conversation's and the body), not four
/// times.
pub fn encode_run_agent_input(
    conversation: &ConversationState,
    request: &RunRequest,
    era: &PeerEra,
) -> Result<(bytes::Bytes, Vec<Warning>), serde_json::Error> {
    encode_run_agent_input_with(conversation, request, era, &mut |_| None, 0)
}

/// [`encode_run_agent_input`], each message first offered to `substitute`: what it returns is
/// sent in the message's place (a client that keeps a message's media elsewhere puts them back
/// for the request). `extra_bytes`: what the substitutes add to the body, to size it up front.
pub fn encode_run_agent_input_with(
    conversation: &ConversationState,
    request: &RunRequest,
    era: &PeerEra,
    substitute: &mut dyn FnMut(&Message) -> Option<Message>,
    extra_bytes: usize,
) -> Result<(bytes::Bytes, Vec<Warning>), serde_json::Error> {
    let mut warnings = Vec::new();
    let messages = conversation
        .messages()
        .iter()
        .filter(|m| travels_to_producer(m) && conversation.local_only(&m.id).is_none())
        .map(|m| {
            if let Some(mut copy) = substitute(m) {
                if era.changes(&copy) {
                    let mut list = [copy];
                    era.downgrade_messages(&mut list, &mut warnings);
                    [copy] = list;
                }
                Outgoing::Downgraded(Box::new(copy))
            } else if era.changes(m) {
                let mut copy = [m.clone()];
                era.downgrade_messages(&mut copy, &mut warnings);
                let [copy] = copy;
                Outgoing::Downgraded(Box::new(copy))
            } else {
                Outgoing::Same(m)
            }
        })
        .collect();
    let empty = Value::Object(Map::new());
    let state = match conversation.state() {
        Value::Null => &empty,
        s => s,
    };
    let forwarded_props = match &request.forwarded_props {
        None | Some(Value::Null) => &empty,
        Some(props) => props,
    };
    let body = InputBody {
        thread_id: &request.thread_id,
        run_id: &request.run_id,
        protocol_version: (!era.omits_protocol_version()).then_some(PROTOCOL_VERSION),
        parent_run_id: request.parent_run_id.as_deref().filter(|_| !era.flattens_content()),
        state,
        messages,
        tools: &request.tools,
        context: &request.context,
        forwarded_props,
        resume: (!request.resume.is_empty()).then_some(request.resume.as_slice()),
    };
    // Sized for the inline media up front: growing a multi-megabyte buffer by doubling would
    // hold the old and the new one at once.
    let mut out = Vec::with_capacity(
        conversation
            .messages()
            .iter()
            .map(Message::inline_data_bytes)
            .sum::<usize>()
            .saturating_add(extra_bytes)
            .saturating_add(16 * 1024),
    );
    serde_json::to_writer(&mut out, &body)?;
    Ok((out.into(), warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{ContentPart, MediaPart, MessageContent, PartSource, Role, TextPart};

    fn conversation_with_parts() -> ConversationState {
        let mut c = ConversationState::default();
        let mut m = Message::new("u1", Role::User);
        m.content = Some(MessageContent::Parts(vec![
            ContentPart::Text(TextPart { id: None, text: "look".into(), metadata: None }),
            ContentPart::Image(MediaPart {
                id: None,
                source: PartSource::Data { value: "iVBORw0KGgo=".into(), mime_type: "image/png".into() },
                metadata: Some(serde_json::json!({"filename": "a.png"})),
            }),
        ]));
        m.subagent_run_id = Some("sub".into());
        c.append_local_message(m);
        c
    }

    fn request() -> RunRequest {
        RunRequest {
            thread_id: "t".into(),
            run_id: "r".into(),
            forwarded_props: Some(serde_json::json!({"k": 1})),
            ..RunRequest::default()
        }
    }

    /// The borrowed encoding is byte for byte the typed input's, for a current peer and for
    /// the eras that change messages.
    #[test]
    fn encoded_body_is_the_built_inputs() {
        let c = conversation_with_parts();
        for era in [PeerEra::new(None), PeerEra::new(Some("0.0.57")), PeerEra::new(Some("0.0.39"))] {
            let (built, built_warnings) = build_run_agent_input(&c, &request(), &era);
            let (body, warnings) = encode_run_agent_input(&c, &request(), &era).unwrap();
            assert_eq!(body.as_ref(), serde_json::to_vec(&built).unwrap().as_slice(), "{era:?}");
            assert_eq!(warnings, built_warnings);
        }
    }
}
