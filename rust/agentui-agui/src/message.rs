//! Conversation values of AG-UI 1.1: messages, content parts, tool calls, interrupts, token usage
//! and the run input. Field names serialize in the wire's camelCase.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Open-by-key extra information on events, messages, tool calls, tools and interrupts.
pub type Metadata = Map<String, Value>;

/// Every role a materialised message may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum Role {
    Developer,
    System,
    Assistant,
    User,
    Tool,
    Activity,
    Reasoning,
}

impl Role {
    pub fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "developer" => Role::Developer,
            "system" => Role::System,
            "assistant" => Role::Assistant,
            "user" => Role::User,
            "tool" => Role::Tool,
            "activity" => Role::Activity,
            "reasoning" => Role::Reasoning,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Developer => "developer",
            Role::System => "system",
            Role::Assistant => "assistant",
            Role::User => "user",
            Role::Tool => "tool",
            Role::Activity => "activity",
            Role::Reasoning => "reasoning",
        }
    }
}

/// The roles a streamed text message may take (tool results travel as `TOOL_CALL_RESULT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextMessageRole {
    Developer,
    System,
    Assistant,
    User,
}

impl TextMessageRole {
    pub fn parse(s: &str) -> Option<TextMessageRole> {
        Some(match s {
            "developer" => TextMessageRole::Developer,
            "system" => TextMessageRole::System,
            "assistant" => TextMessageRole::Assistant,
            "user" => TextMessageRole::User,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        self.role().as_str()
    }

    pub fn role(self) -> Role {
        match self {
            TextMessageRole::Developer => Role::Developer,
            TextMessageRole::System => Role::System,
            TextMessageRole::Assistant => Role::Assistant,
            TextMessageRole::User => Role::User,
        }
    }
}

/// Where a media part's bytes come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum PartSource {
    /// Base64 bytes carried inline.
    Data {
        value: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Bytes referenced by URL.
    Url {
        value: String,
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// An opaque provider-issued handle; never fetched or parsed by a consumer.
    File {
        value: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
}

/// A text part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct TextPart {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// An image, audio, video or document part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct MediaPart {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub source: PartSource,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// One part of a user message or tool result body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ContentPart {
    Text(TextPart),
    Image(MediaPart),
    Audio(MediaPart),
    Video(MediaPart),
    Document(MediaPart),
}

/// By the JSON type, without the buffering `untagged` does: a string is text, an array parts,
/// an object an activity's content.
impl<'de> Deserialize<'de> for MessageContent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ContentVisitor;
        impl<'de> serde::de::Visitor<'de> for ContentVisitor {
            type Value = MessageContent;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string, an array of content parts or an object")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<MessageContent, E> {
                Ok(MessageContent::Text(text.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<MessageContent, E> {
                Ok(MessageContent::Text(text))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<MessageContent, A::Error> {
                let parts = Deserialize::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(MessageContent::Parts(parts))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<MessageContent, A::Error> {
                let object = Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(MessageContent::Object(object))
            }
        }
        deserializer.deserialize_any(ContentVisitor)
    }
}

impl ContentPart {
    pub fn kind(&self) -> &'static str {
        match self {
            ContentPart::Text(_) => "text",
            ContentPart::Image(_) => "image",
            ContentPart::Audio(_) => "audio",
            ContentPart::Video(_) => "video",
            ContentPart::Document(_) => "document",
        }
    }
}

/// A message body: plain text, an ordered list of parts, or an activity's open object.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum MessageContent {
    Text(String),
    Parts(Vec<ContentPart>),
    Object(Map<String, Value>),
}

/// The name and arguments of a tool call. Arguments stay the raw string the model produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct FunctionCall {
    pub name: String,
    pub arguments: String,
}

/// A call an assistant message made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: ToolCallKind,
    pub function: FunctionCall,
    #[serde(rename = "encryptedValue", skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    #[serde(rename = "encryptedValueType", skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The only kind of call the protocol models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ToolCallKind {
    Function,
}

/// Any message of a conversation. One flat shape for all roles: the decoder only admits the
/// fields each role's schema defines, and the reducer fills them in as events arrive.
/// `Deserialize` reads back what `Serialize` wrote (a store's own rows); a peer's messages go
/// through [`crate::decode::decode_messages`], which checks them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Message {
    pub id: String,
    pub role: Role,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<MessageContent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
}

impl Message {
    /// An empty message of `role`, to be filled in.
    pub fn new(id: impl Into<String>, role: Role) -> Self {
        Message {
            id: id.into(),
            role,
            content: None,
            name: None,
            tool_calls: None,
            tool_call_id: None,
            error: None,
            activity_type: None,
            encrypted_value: None,
            encrypted_value_type: None,
            metadata: None,
            subagent_run_id: None,
        }
    }

    /// The text content, when the body is plain text.
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            Some(MessageContent::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// Bytes of the inline media (base64 `data` parts) the message holds, as held.
    pub fn inline_data_bytes(&self) -> usize {
        let Some(MessageContent::Parts(parts)) = &self.content else { return 0 };
        parts
            .iter()
            .map(|part| match part {
                ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => {
                    match &p.source {
                        PartSource::Data { value, .. } => value.len(),
                        _ => 0,
                    }
                }
                ContentPart::Text(_) => 0,
            })
            .sum()
    }

    /// Serialize to the wire shape.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Token counts for one provider and model.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_write_input_tokens: Option<u64>,
}

/// Something a run needs from outside before it can continue. (Deserialize: a store keeps the
/// pending ones.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Interrupt {
    pub id: String,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
}

/// Why a run ended. Absent on the wire means success.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum RunOutcome {
    Success {
        #[serde(rename = "pendingToolCallIds", skip_serializing_if = "Option::is_none")]
        pending_tool_call_ids: Option<Vec<String>>,
    },
    Interrupt {
        interrupts: Vec<Interrupt>,
    },
    Cancelled,
}

/// Why a subagent's segment of a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SubagentOutcome {
    Success,
    Suspended {
        #[serde(rename = "interruptIds", skip_serializing_if = "Option::is_none")]
        interrupt_ids: Option<Vec<String>>,
    },
}

/// A tool the agent may call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tool {
    pub name: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A named piece of ambient information given to the agent for the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Context {
    pub description: String,
    pub value: String,
}

/// Whether an interrupt was answered or abandoned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResumeStatus {
    Resolved,
    Cancelled,
}

/// An answer to one interrupt, sent on the run that continues from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    pub interrupt_id: String,
    pub status: ResumeStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A request to run an agent; also echoed back as `RUN_STARTED.input`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    pub thread_id: String,
    pub run_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    pub messages: Vec<Message>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Vec<Context>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwarded_props: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume: Option<Vec<ResumeEntry>>,
}

impl RunAgentInput {
    /// A run of `run_id` on `thread_id` that carries nothing: no messages, state, tools or context.
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        RunAgentInput {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            protocol_version: None,
            parent_run_id: None,
            state: None,
            messages: Vec::new(),
            tools: None,
            context: None,
            forwarded_props: None,
            resume: None,
        }
    }

    /// Serialize to the request body.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
