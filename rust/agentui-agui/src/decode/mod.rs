//! Enforcement: turning one JSON event into a typed [`Event`] under the 1.1 processing model.
//!
//! - An event of an unrecognised type is dropped with a warning naming the type.
//! - An undescribed property, or an unrecognised union member or closed-set value in an optional
//!   position or a list, is stripped with a warning naming its path.
//! - An unrecognised value in a required position removes the value containing it (for a
//!   top-level field: the whole event, with a warning).
//! - A described field holding a value the schema rejects is a fatal [`ProtocolError`].
//!
//! Open objects (metadata, activity content, state, JSON Patch operations) are kept whole.

mod fast;
mod reader;
mod values;

use serde_json::Value;

use crate::error::{ProtocolError, Warning, WarningKind};
use crate::event::*;
use crate::message::{Message, TextMessageRole, Tool};
use reader::{ObjectReader, Reject, Res, Strip};

/// Decode one incoming event. `Ok(None)` means the event was dropped (and a warning recorded).
pub fn decode_event(value: Value, warnings: &mut Vec<Warning>) -> Result<Option<Event>, ProtocolError> {
    let Value::Object(map) = value else {
        return Err(ProtocolError::NotAnEvent(format!("received {}", reader::type_name(&value))));
    };
    let type_name = match map.get("type") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => return Err(ProtocolError::NotAnEvent(format!("'type' is {}", reader::type_name(other)))),
        None => return Err(ProtocolError::NotAnEvent("'type' is missing".to_owned())),
    };
    let Some(&owner) = EVENT_TYPES.iter().find(|t| **t == type_name) else {
        warnings.push(Warning::new(
            WarningKind::DroppedEvent,
            format!("dropped an event of unrecognised type {}", reader::quoted(&type_name)),
        ));
        return Ok(None);
    };
    let mut strip = Strip { warnings, owner };
    let mut r = ObjectReader::new(Value::Object(map), "")?;
    r.take("type");
    match decode_typed(owner, &mut r, &mut strip) {
        Ok(event) => {
            r.finish(&mut strip);
            Ok(Some(event))
        }
        Err(Reject::Malformed { path, message }) => {
            Err(ProtocolError::MalformedEvent { event_type: owner.to_owned(), path, message })
        }
        Err(Reject::Unrecognised { what, .. }) => {
            strip.warnings.push(Warning::new(
                WarningKind::Stripped,
                format!("dropped a {owner} event: {what}, in a required position"),
            ));
            Ok(None)
        }
    }
}

/// Decode one event from its JSON text on the fast path: the hot event types, straight into
/// their typed form. `None` means the event is unusual in some way (another type, an unknown
/// property, a value the schema rejects, ...) and must take [`decode_event`], which reports it;
/// `Some` is exactly what [`decode_event`] gives for the same text, with no warning.
pub fn fast_path(data: &str) -> Option<Event> {
    fast::decode_str(data)
}

impl From<Reject> for ProtocolError {
    fn from(r: Reject) -> Self {
        match r {
            Reject::Malformed { path, message } => {
                ProtocolError::MalformedEvent { event_type: "event".to_owned(), path, message }
            }
            Reject::Unrecognised { path, what } => {
                ProtocolError::MalformedEvent { event_type: "event".to_owned(), path, message: what }
            }
        }
    }
}

fn base(r: &mut ObjectReader) -> Res<EventBase> {
    Ok(EventBase {
        timestamp: r.opt_safe_integer("timestamp", -9_007_199_254_740_991)?,
        raw_event: r.opt_non_null("rawEvent")?.map(Box::new),
        metadata: r.opt_object("metadata")?.map(Box::new),
    })
}

fn attribution(r: &mut ObjectReader) -> Res<Option<String>> {
    r.opt_string("subagentRunId")
}

fn decode_typed(owner: &'static str, r: &mut ObjectReader, strip: &mut Strip) -> Res<Event> {
    let b = base(r)?;
    Ok(match owner {
        "TEXT_MESSAGE_START" => Event::TextMessageStart(TextMessageStart {
            message_id: r.req_string("messageId")?,
            // Absent means assistant; an unknown role is stripped to that default.
            role: r.opt_enum("role", TextMessageRole::parse, strip)?.unwrap_or(TextMessageRole::Assistant),
            name: r.opt_string("name")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TEXT_MESSAGE_CONTENT" => Event::TextMessageContent(TextMessageContent {
            message_id: r.req_string("messageId")?,
            delta: r.req_string("delta")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TEXT_MESSAGE_END" => Event::TextMessageEnd(TextMessageEnd {
            message_id: r.req_string("messageId")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TEXT_MESSAGE_CHUNK" => Event::TextMessageChunk(TextMessageChunk {
            message_id: r.opt_string("messageId")?,
            role: r.opt_enum("role", TextMessageRole::parse, strip)?,
            delta: r.opt_string("delta")?,
            name: r.opt_string("name")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TOOL_CALL_START" => Event::ToolCallStart(ToolCallStart {
            tool_call_id: r.req_string("toolCallId")?,
            tool_call_name: r.req_string("toolCallName")?,
            parent_message_id: r.opt_string("parentMessageId")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TOOL_CALL_ARGS" => Event::ToolCallArgs(ToolCallArgs {
            tool_call_id: r.req_string("toolCallId")?,
            delta: r.req_string("delta")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TOOL_CALL_END" => Event::ToolCallEnd(ToolCallEnd {
            tool_call_id: r.req_string("toolCallId")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TOOL_CALL_CHUNK" => Event::ToolCallChunk(ToolCallChunk {
            tool_call_id: r.opt_string("toolCallId")?,
            tool_call_name: r.opt_string("toolCallName")?,
            parent_message_id: r.opt_string("parentMessageId")?,
            delta: r.opt_string("delta")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "TOOL_CALL_RESULT" => {
            let message_id = r.req_string("messageId")?;
            let tool_call_id = r.req_string("toolCallId")?;
            let content_path = r.at("content");
            let content = values::text_or_parts(r.required("content")?, &content_path, strip)?;
            let role = r.constant("role", "tool", false)?.then_some(ToolRole::Tool);
            Event::ToolCallResult(ToolCallResult {
                message_id,
                tool_call_id,
                content,
                role,
                subagent_run_id: attribution(r)?,
                base: b,
            })
        }
        "STATE_SNAPSHOT" => Event::StateSnapshot(StateSnapshot {
            snapshot: r.required("snapshot")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "STATE_DELTA" => {
            let at = r.at("delta");
            Event::StateDelta(StateDelta {
                delta: values::patch(r.required("delta")?, &at, strip)?,
                subagent_run_id: attribution(r)?,
                base: b,
            })
        }
        "MESSAGES_SNAPSHOT" => {
            let at = r.at("messages");
            Event::MessagesSnapshot(MessagesSnapshot {
                messages: values::messages(r.required("messages")?, &at, strip)?,
                base: b,
            })
        }
        "ACTIVITY_SNAPSHOT" => Event::ActivitySnapshot(ActivitySnapshot {
            message_id: r.req_string("messageId")?,
            activity_type: r.req_string("activityType")?,
            content: r.req_object("content")?,
            replace: r.opt_bool("replace")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "ACTIVITY_DELTA" => {
            let message_id = r.req_string("messageId")?;
            let activity_type = r.req_string("activityType")?;
            let at = r.at("patch");
            Event::ActivityDelta(ActivityDelta {
                message_id,
                activity_type,
                patch: values::patch(r.required("patch")?, &at, strip)?,
                subagent_run_id: attribution(r)?,
                base: b,
            })
        }
        "RAW" => Event::Raw(Raw {
            event: r.required("event")?,
            source: r.opt_string("source")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "CUSTOM" => Event::Custom(Custom {
            name: r.req_string("name")?,
            value: r.required("value")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "RUN_STARTED" => {
            let thread_id = r.req_string("threadId")?;
            let run_id = r.req_string("runId")?;
            let protocol_version = r.opt_string("protocolVersion")?;
            let parent_run_id = r.opt_string("parentRunId")?;
            let input = match r.take("input") {
                Some(v) => Some(Box::new(values::run_agent_input(v, &r.at("input"), strip)?)),
                None => None,
            };
            Event::RunStarted(RunStarted { thread_id, run_id, protocol_version, parent_run_id, input, base: b })
        }
        "RUN_FINISHED" => {
            let thread_id = r.req_string("threadId")?;
            let run_id = r.req_string("runId")?;
            let result = r.opt_non_null("result")?;
            let outcome = match r.take("outcome") {
                Some(v) => values::run_outcome(v, &r.at("outcome"), strip)?,
                None => None,
            };
            let usage = match r.take("usage") {
                Some(v) => Some(values::usage(v, &r.at("usage"), strip)?),
                None => None,
            };
            Event::RunFinished(RunFinished { thread_id, run_id, result, outcome, usage, base: b })
        }
        "RUN_ERROR" => {
            let message = r.req_string("message")?;
            let code = r.opt_string("code")?;
            let usage = match r.take("usage") {
                Some(v) => Some(values::usage(v, &r.at("usage"), strip)?),
                None => None,
            };
            Event::RunError(RunError { message, code, usage, base: b })
        }
        "STEP_STARTED" => Event::StepStarted(StepStarted {
            step_name: r.req_string("stepName")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "STEP_FINISHED" => Event::StepFinished(StepFinished {
            step_name: r.req_string("stepName")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "REASONING_START" => Event::ReasoningStart(ReasoningStart {
            message_id: r.req_string("messageId")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "REASONING_MESSAGE_START" => {
            let message_id = r.req_string("messageId")?;
            r.constant("role", "reasoning", true)?;
            Event::ReasoningMessageStart(ReasoningMessageStart {
                message_id,
                role: ReasoningRole::Reasoning,
                subagent_run_id: attribution(r)?,
                base: b,
            })
        }
        "REASONING_MESSAGE_CONTENT" => Event::ReasoningMessageContent(ReasoningMessageContent {
            message_id: r.req_string("messageId")?,
            delta: r.req_string("delta")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "REASONING_MESSAGE_END" => Event::ReasoningMessageEnd(ReasoningMessageEnd {
            message_id: r.req_string("messageId")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "REASONING_MESSAGE_CHUNK" => Event::ReasoningMessageChunk(ReasoningMessageChunk {
            message_id: r.opt_string("messageId")?,
            delta: r.opt_string("delta")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "REASONING_END" => Event::ReasoningEnd(ReasoningEnd {
            message_id: r.req_string("messageId")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "REASONING_ENCRYPTED_VALUE" => Event::ReasoningEncryptedValue(ReasoningEncryptedValue {
            subtype: r.req_enum("subtype", |s| match s {
                "tool-call" => Some(EncryptedValueSubtype::ToolCall),
                "message" => Some(EncryptedValueSubtype::Message),
                _ => None,
            })?,
            entity_id: r.req_string("entityId")?,
            encrypted_value: r.req_string("encryptedValue")?,
            encrypted_value_type: r.opt_string("encryptedValueType")?,
            subagent_run_id: attribution(r)?,
            base: b,
        }),
        "SUBAGENT_STARTED" => Event::SubagentStarted(SubagentStarted {
            subagent_run_id: r.req_string("subagentRunId")?,
            name: r.req_string("name")?,
            description: r.opt_string("description")?,
            parent_subagent_run_id: r.opt_string("parentSubagentRunId")?,
            parent_tool_call_id: r.opt_string("parentToolCallId")?,
            parent_message_id: r.opt_string("parentMessageId")?,
            base: b,
        }),
        "SUBAGENT_FINISHED" => {
            let subagent_run_id = r.req_string("subagentRunId")?;
            let result = r.opt_non_null("result")?;
            let outcome = match r.take("outcome") {
                Some(v) => values::subagent_outcome(v, &r.at("outcome"), strip)?,
                None => None,
            };
            Event::SubagentFinished(SubagentFinished { subagent_run_id, result, outcome, base: b })
        }
        "SUBAGENT_ERROR" => Event::SubagentError(SubagentError {
            subagent_run_id: r.req_string("subagentRunId")?,
            message: r.req_string("message")?,
            code: r.opt_string("code")?,
            base: b,
        }),
        _ => unreachable_type(owner)?,
    })
}

// Every name in EVENT_TYPES has an arm above; kept total without a panic.
fn unreachable_type(owner: &str) -> Res<Event> {
    Err(Reject::Malformed { path: "/type".to_owned(), message: format!("no decoder for {owner}") })
}

/// Decode a list of messages from outside the event stream (an application's history, a run
/// input): the same rules as `MESSAGES_SNAPSHOT.messages`.
pub fn decode_messages(value: Value, warnings: &mut Vec<Warning>) -> Result<Vec<Message>, ProtocolError> {
    let mut strip = Strip { warnings, owner: "messages" };
    values::messages(value, "", &mut strip).map_err(|r| match r {
        Reject::Malformed { path, message } | Reject::Unrecognised { path, what: message } => {
            ProtocolError::MalformedEvent { event_type: "messages".to_owned(), path, message }
        }
    })
}

/// Decode a list of tool declarations (what a client registers for `RunAgentInput.tools`).
pub fn decode_tools(value: Value, warnings: &mut Vec<Warning>) -> Result<Vec<Tool>, ProtocolError> {
    let mut strip = Strip { warnings, owner: "tools" };
    values::tools(value, "", &mut strip).map_err(|r| match r {
        Reject::Malformed { path, message } | Reject::Unrecognised { path, what: message } => {
            ProtocolError::MalformedEvent { event_type: "tools".to_owned(), path, message }
        }
    })
}
