//! The fast path of enforcement: the hot event types deserialized straight from the event's
//! JSON text into their typed form, with no `Value` in between.
//!
//! It only accepts what the general path ([`super::decode_event`]) would accept *without a
//! warning*, and builds the very same event: every key must be one the type describes (the
//! wire struct denies unknown fields and duplicates), every value must have the described JSON
//! type (`null` in an optional field is refused, as the general path makes it fatal), and
//! closed sets must hold a known member. Anything else — another event type, an unknown key, an
//! error, an open object with extra members where the general path would reorder them — answers
//! `None`, and the caller runs the general path, which produces the exact warnings and error
//! texts. `tests/it/fast_decode.rs` runs both paths over the conformance corpus and the benchmark.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::reader::is_json_pointer;
use crate::event::*;
use crate::message::TextMessageRole;

/// `Some` whenever the key is present, `null` included: the general path rejects a `null`
/// optional, so the fast path must see it to refuse it.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `delta` is text on content events and a JSON Patch on `STATE_DELTA`.
enum Delta {
    Text(String),
    Patch(Vec<WireOp>),
}

impl<'de> Deserialize<'de> for Delta {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Delta;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or an array")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Delta, E> {
                Ok(Delta::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Delta, E> {
                Ok(Delta::Text(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Delta, A::Error> {
                let mut ops = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(op) = seq.next_element()? {
                    ops.push(op);
                }
                Ok(Delta::Patch(ops))
            }
        }
        d.deserialize_any(V)
    }
}

/// `content` is text on `TOOL_CALL_RESULT` and an open object on `ACTIVITY_SNAPSHOT`. Content
/// parts (an array) take the general path.
enum Content {
    Text(String),
    Object(Map<String, Value>),
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Content;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or an object")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Content, E> {
                Ok(Content::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Content, E> {
                Ok(Content::Text(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Content, A::Error> {
                Map::deserialize(de::value::MapAccessDeserializer::new(map)).map(Content::Object)
            }
        }
        d.deserialize_any(V)
    }
}

/// One JSON Patch operation, only in the shape that has no extra members.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireOp {
    op: String,
    path: String,
    #[serde(default, deserialize_with = "present")]
    from: Option<String>,
    #[serde(default, deserialize_with = "present")]
    value: Option<Value>,
}

/// Every key a fast-path event may carry. Which of them a given type admits is checked after.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Wire<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(default, deserialize_with = "present")]
    message_id: Option<String>,
    #[serde(default, deserialize_with = "present")]
    tool_call_id: Option<String>,
    #[serde(default, deserialize_with = "present")]
    delta: Option<Delta>,
    #[serde(default, deserialize_with = "present")]
    role: Option<String>,
    #[serde(default, deserialize_with = "present")]
    name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    tool_call_name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    parent_message_id: Option<String>,
    #[serde(default, deserialize_with = "present")]
    content: Option<Content>,
    #[serde(default, deserialize_with = "present")]
    activity_type: Option<String>,
    #[serde(default, deserialize_with = "present")]
    replace: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    snapshot: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    step_name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    subagent_run_id: Option<String>,
    #[serde(default, deserialize_with = "present")]
    timestamp: Option<i64>,
    #[serde(default, deserialize_with = "present")]
    raw_event: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    metadata: Option<Map<String, Value>>,
}

// Bits of the type-specific keys present on a wire event (the base fields and attribution are
// admitted by every fast-path type).
const MESSAGE_ID: u16 = 1;
const TOOL_CALL_ID: u16 = 1 << 1;
const DELTA: u16 = 1 << 2;
const ROLE: u16 = 1 << 3;
const NAME: u16 = 1 << 4;
const TOOL_CALL_NAME: u16 = 1 << 5;
const PARENT_MESSAGE_ID: u16 = 1 << 6;
const CONTENT: u16 = 1 << 7;
const ACTIVITY_TYPE: u16 = 1 << 8;
const REPLACE: u16 = 1 << 9;
const SNAPSHOT: u16 = 1 << 10;
const STEP_NAME: u16 = 1 << 11;

impl Wire<'_> {
    fn keys(&self) -> u16 {
        let bit = |present: bool, bit: u16| if present { bit } else { 0 };
        bit(self.message_id.is_some(), MESSAGE_ID)
            | bit(self.tool_call_id.is_some(), TOOL_CALL_ID)
            | bit(self.delta.is_some(), DELTA)
            | bit(self.role.is_some(), ROLE)
            | bit(self.name.is_some(), NAME)
            | bit(self.tool_call_name.is_some(), TOOL_CALL_NAME)
            | bit(self.parent_message_id.is_some(), PARENT_MESSAGE_ID)
            | bit(self.content.is_some(), CONTENT)
            | bit(self.activity_type.is_some(), ACTIVITY_TYPE)
            | bit(self.replace.is_some(), REPLACE)
            | bit(self.snapshot.is_some(), SNAPSHOT)
            | bit(self.step_name.is_some(), STEP_NAME)
    }
}

const SAFE_INTEGER: i64 = 9_007_199_254_740_991;

fn base(timestamp: Option<i64>, raw_event: Option<Value>, metadata: Option<Map<String, Value>>) -> Option<EventBase> {
    if timestamp.is_some_and(|t| !(-SAFE_INTEGER..=SAFE_INTEGER).contains(&t)) || raw_event == Some(Value::Null) {
        return None;
    }
    Some(EventBase { timestamp, raw_event: raw_event.map(Box::new), metadata: metadata.map(Box::new) })
}

fn text(delta: Option<Delta>) -> Option<String> {
    match delta? {
        Delta::Text(s) => Some(s),
        Delta::Patch(_) => None,
    }
}

/// Only operations the general path would keep as they are: a known op, pointers, and exactly
/// the members that op describes (an extra member would be reordered by the general path).
fn patch(delta: Option<Delta>) -> Option<Vec<PatchOperation>> {
    let Delta::Patch(ops) = delta? else { return None };
    ops.into_iter()
        .map(|w| {
            let op = PatchOp::parse(&w.op)?;
            let moves = matches!(op, PatchOp::Move | PatchOp::Copy);
            let valued = matches!(op, PatchOp::Add | PatchOp::Replace | PatchOp::Test);
            if !is_json_pointer(&w.path)
                || moves != w.from.is_some()
                || valued != w.value.is_some()
                || w.from.as_deref().is_some_and(|f| !is_json_pointer(f))
            {
                return None;
            }
            Some(PatchOperation { op, path: w.path, from: w.from, value: w.value, extra: Map::new() })
        })
        .collect()
}

/// Decode `data` on the fast path, or answer `None` for the general path to take it.
pub(crate) fn decode_str(data: &str) -> Option<Event> {
    let w: Wire = serde_json::from_str(data).ok()?;
    let keys = w.keys();
    let admits = |allowed: u16, required: u16| keys & !allowed == 0 && keys & required == required;
    let tag = w.subagent_run_id;
    let b = base(w.timestamp, w.raw_event, w.metadata)?;
    Some(match w.kind {
        "TEXT_MESSAGE_CONTENT" if admits(MESSAGE_ID | DELTA, MESSAGE_ID | DELTA) => {
            Event::TextMessageContent(TextMessageContent {
                message_id: w.message_id?,
                delta: text(w.delta)?,
                subagent_run_id: tag,
                base: b,
            })
        }
        "TOOL_CALL_ARGS" if admits(TOOL_CALL_ID | DELTA, TOOL_CALL_ID | DELTA) => Event::ToolCallArgs(ToolCallArgs {
            tool_call_id: w.tool_call_id?,
            delta: text(w.delta)?,
            subagent_run_id: tag,
            base: b,
        }),
        "TEXT_MESSAGE_START" if admits(MESSAGE_ID | ROLE | NAME, MESSAGE_ID) => {
            let role = match w.role {
                None => TextMessageRole::Assistant,
                Some(r) => TextMessageRole::parse(&r)?,
            };
            Event::TextMessageStart(TextMessageStart {
                message_id: w.message_id?,
                role,
                name: w.name,
                subagent_run_id: tag,
                base: b,
            })
        }
        "TEXT_MESSAGE_END" if admits(MESSAGE_ID, MESSAGE_ID) => {
            Event::TextMessageEnd(TextMessageEnd { message_id: w.message_id?, subagent_run_id: tag, base: b })
        }
        "TOOL_CALL_START"
            if admits(TOOL_CALL_ID | TOOL_CALL_NAME | PARENT_MESSAGE_ID, TOOL_CALL_ID | TOOL_CALL_NAME) =>
        {
            Event::ToolCallStart(ToolCallStart {
                tool_call_id: w.tool_call_id?,
                tool_call_name: w.tool_call_name?,
                parent_message_id: w.parent_message_id,
                subagent_run_id: tag,
                base: b,
            })
        }
        "TOOL_CALL_END" if admits(TOOL_CALL_ID, TOOL_CALL_ID) => {
            Event::ToolCallEnd(ToolCallEnd { tool_call_id: w.tool_call_id?, subagent_run_id: tag, base: b })
        }
        "TOOL_CALL_RESULT"
            if admits(MESSAGE_ID | TOOL_CALL_ID | CONTENT | ROLE, MESSAGE_ID | TOOL_CALL_ID | CONTENT) =>
        {
            let role = match w.role.as_deref() {
                None => None,
                Some("tool") => Some(ToolRole::Tool),
                Some(_) => return None,
            };
            let Some(Content::Text(content)) = w.content else { return None };
            Event::ToolCallResult(ToolCallResult {
                message_id: w.message_id?,
                tool_call_id: w.tool_call_id?,
                content: ToolResultContent::Text(content),
                role,
                subagent_run_id: tag,
                base: b,
            })
        }
        "STATE_DELTA" if admits(DELTA, DELTA) => {
            Event::StateDelta(StateDelta { delta: patch(w.delta)?, subagent_run_id: tag, base: b })
        }
        "STATE_SNAPSHOT" if admits(SNAPSHOT, SNAPSHOT) => {
            Event::StateSnapshot(StateSnapshot { snapshot: w.snapshot?, subagent_run_id: tag, base: b })
        }
        "ACTIVITY_SNAPSHOT"
            if admits(MESSAGE_ID | ACTIVITY_TYPE | CONTENT | REPLACE, MESSAGE_ID | ACTIVITY_TYPE | CONTENT) =>
        {
            let Some(Content::Object(content)) = w.content else { return None };
            Event::ActivitySnapshot(ActivitySnapshot {
                message_id: w.message_id?,
                activity_type: w.activity_type?,
                content,
                replace: w.replace,
                subagent_run_id: tag,
                base: b,
            })
        }
        "REASONING_MESSAGE_CONTENT" if admits(MESSAGE_ID | DELTA, MESSAGE_ID | DELTA) => {
            Event::ReasoningMessageContent(ReasoningMessageContent {
                message_id: w.message_id?,
                delta: text(w.delta)?,
                subagent_run_id: tag,
                base: b,
            })
        }
        "STEP_STARTED" if admits(STEP_NAME, STEP_NAME) => {
            Event::StepStarted(StepStarted { step_name: w.step_name?, subagent_run_id: tag, base: b })
        }
        "STEP_FINISHED" if admits(STEP_NAME, STEP_NAME) => {
            Event::StepFinished(StepFinished { step_name: w.step_name?, subagent_run_id: tag, base: b })
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unusual_events_take_the_general_path() {
        for data in [
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","extra":1}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","messageId":"n"}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":null}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","name":"n"}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":1.5}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":9007199254740992}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","rawEvent":null}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":null}"#,
            r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"}"#,
            r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":[]}"#,
            r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"x","role":"user"}"#,
            r#"{"type":"STATE_DELTA","delta":[{"op":"nope","path":"/a"}]}"#,
            r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1,"why":"x"}]}"#,
            r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a","value":1}]}"#,
            r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"a","value":1}]}"#,
            r#"{"type":"STATE_DELTA","delta":"x"}"#,
            r#"{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"t","content":{},"replace":null}"#,
            r#"{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"x"}"#,
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
            r#"{"type":"NOT_A_TYPE"}"#,
            r#"[1]"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"} trailing"#,
        ] {
            assert!(decode_str(data).is_none(), "{data}");
        }
    }

    #[test]
    fn hot_events_decode_in_any_key_order() {
        let e = decode_str(r#"{"delta":"h\u00e9","messageId":"m","type":"TEXT_MESSAGE_CONTENT","timestamp":-3}"#);
        let Some(Event::TextMessageContent(e)) = e else { panic!("{e:?}") };
        assert_eq!((e.message_id.as_str(), e.delta.as_str(), e.base.timestamp), ("m", "hé", Some(-3)));
        let e = decode_str(r#"{"type":"STATE_DELTA","delta":[{"op":"move","from":"/a","path":"/b"}]}"#);
        assert!(matches!(e, Some(Event::StateDelta(d)) if d.delta[0].from.as_deref() == Some("/a")));
    }
}
