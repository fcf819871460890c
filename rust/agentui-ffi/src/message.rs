//! Conversation values as records: messages, tool calls, interrupts.

use agentui_agui::message::{ContentPart as CorePart, Interrupt, MessageContent as CoreContent, PartSource};
use agentui_agui::Message;
use serde_json::Value;

use crate::value::{entries, NodeValue, PropEntry};

crate::mirror!(MessageRole from agentui_agui::message::Role {
    Developer, System, Assistant, User, Tool, Activity, Reasoning
});

/// Where a media part's bytes are.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum MediaSource {
    /// Base64 bytes carried inline.
    Data {
        value: String,
        mime_type: String,
    },
    Url {
        value: String,
        mime_type: Option<String>,
    },
    /// An opaque provider handle; never fetched by the library.
    File {
        value: String,
        provider: Option<String>,
        mime_type: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ContentPart {
    Text { text: String },
    Image { source: MediaSource },
    Audio { source: MediaSource },
    Video { source: MediaSource },
    Document { source: MediaSource },
}

/// A message body.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum MessageContent {
    Empty,
    Text {
        text: String,
    },
    Parts {
        parts: Vec<ContentPart>,
    },
    /// An activity's open object (e.g. A2UI operations).
    Object {
        entries: Vec<PropEntry>,
    },
}

/// A call an assistant message made; the arguments stay the text the model produced.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct MessageToolCall {
    pub id: String,
    pub name: String,
    pub arguments_json: String,
}

#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct MessageRecord {
    pub id: String,
    pub role: MessageRole,
    pub content: MessageContent,
    pub name: Option<String>,
    pub tool_calls: Vec<MessageToolCall>,
    /// For tool results: the call this answers.
    pub tool_call_id: Option<String>,
    /// For failed tool results: the error the agent reads.
    pub error: Option<String>,
    pub activity_type: Option<String>,
}

/// Something a run needs from the user before it can continue.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct InterruptRecord {
    pub id: String,
    pub reason: String,
    pub message: Option<String>,
    pub tool_call_id: Option<String>,
    /// JSON Schema the answer's payload must satisfy, as JSON text.
    pub response_schema_json: Option<String>,
    /// RFC 3339.
    pub expires_at: Option<String>,
    pub metadata: Option<NodeValue>,
}

fn source(source: &PartSource) -> MediaSource {
    match source {
        PartSource::Data { value, mime_type } => {
            MediaSource::Data { value: value.clone(), mime_type: mime_type.clone() }
        }
        PartSource::Url { value, mime_type } => MediaSource::Url { value: value.clone(), mime_type: mime_type.clone() },
        PartSource::File { value, provider, mime_type } => {
            MediaSource::File { value: value.clone(), provider: provider.clone(), mime_type: mime_type.clone() }
        }
    }
}

fn part(part: &CorePart) -> ContentPart {
    match part {
        CorePart::Text(t) => ContentPart::Text { text: t.text.clone() },
        CorePart::Image(m) => ContentPart::Image { source: source(&m.source) },
        CorePart::Audio(m) => ContentPart::Audio { source: source(&m.source) },
        CorePart::Video(m) => ContentPart::Video { source: source(&m.source) },
        CorePart::Document(m) => ContentPart::Document { source: source(&m.source) },
    }
}

impl From<&Message> for MessageRecord {
    fn from(m: &Message) -> Self {
        MessageRecord {
            id: m.id.clone(),
            role: m.role.into(),
            content: match &m.content {
                None => MessageContent::Empty,
                Some(CoreContent::Text(text)) => MessageContent::Text { text: text.clone() },
                Some(CoreContent::Parts(parts)) => MessageContent::Parts { parts: parts.iter().map(part).collect() },
                Some(CoreContent::Object(map)) => MessageContent::Object { entries: entries(map) },
            },
            name: m.name.clone(),
            tool_calls: m
                .tool_calls
                .iter()
                .flatten()
                .map(|c| MessageToolCall {
                    id: c.id.clone(),
                    name: c.function.name.clone(),
                    arguments_json: c.function.arguments.clone(),
                })
                .collect(),
            tool_call_id: m.tool_call_id.clone(),
            error: m.error.clone(),
            activity_type: m.activity_type.clone(),
        }
    }
}

impl From<&Interrupt> for InterruptRecord {
    fn from(i: &Interrupt) -> Self {
        InterruptRecord {
            id: i.id.clone(),
            reason: i.reason.clone(),
            message: i.message.clone(),
            tool_call_id: i.tool_call_id.clone(),
            response_schema_json: i.response_schema.as_ref().map(|s| Value::Object(s.clone()).to_string()),
            expires_at: i.expires_at.clone(),
            metadata: i.metadata.as_ref().map(|m| NodeValue::Object { entries: entries(m) }),
        }
    }
}

pub(crate) fn interrupts(list: &[Interrupt]) -> Vec<InterruptRecord> {
    list.iter().map(InterruptRecord::from).collect()
}
