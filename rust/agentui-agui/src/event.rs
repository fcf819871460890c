//! Every AG-UI 1.1 event with its exact wire fields.
//!
//! Values of these types have passed enforcement (see [`crate::decode`]): unrecognised material is
//! gone and every described field holds a value the schema accepts. Serializing one gives the
//! wire shape an application receives (`type` tag first, camelCase fields, absent optionals
//! omitted).

use serde::Serialize;
use serde_json::Value;

use crate::message::{ContentPart, Message};
use crate::message::{Metadata, RunAgentInput, RunOutcome, SubagentOutcome, TextMessageRole, TokenUsage};

/// Fields every event may carry, whatever its type.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventBase {
    /// Producer clock, conventionally milliseconds since the Unix epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    /// The provider-native event this one was translated from, verbatim. Boxed, as are the
    /// metadata: both are rare, and every event is moved several times on its way to the app.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_event: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Box<Metadata>>,
}

macro_rules! event_struct {
    ($(#[$doc:meta])* $name:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
            #[serde(flatten)]
            pub base: EventBase,
        }
    };
}

// `skip_serializing_if` is spelled out per optional field; the macro only saves the base field.
event_struct!(
    /// Opens a streamed text message.
    TextMessageStart {
        message_id: String,
        role: TextMessageRole,
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Appends a fragment to a streamed text message.
    TextMessageContent {
        message_id: String,
        delta: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Closes a streamed text message.
    TextMessageEnd {
        message_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Shorthand for start/content/end; expanded by [`crate::chunks::ChunkExpander`].
    TextMessageChunk {
        #[serde(skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        role: Option<TextMessageRole>,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Opens a tool call.
    ToolCallStart {
        tool_call_id: String,
        tool_call_name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_message_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Appends a fragment of a tool call's arguments.
    ToolCallArgs {
        tool_call_id: String,
        delta: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Closes a tool call: its arguments are complete.
    ToolCallEnd {
        tool_call_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Shorthand for a tool call's start/args/end.
    ToolCallChunk {
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_call_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_call_name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_message_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// What a tool returned; mints a tool message.
    ToolCallResult {
        message_id: String,
        tool_call_id: String,
        content: ToolResultContent,
        /// Always `tool` when present; kept only to round-trip what the producer sent.
        #[serde(skip_serializing_if = "Option::is_none")]
        role: Option<ToolRole>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Replaces the agent state wholesale. Any JSON value, `null` included.
    StateSnapshot {
        snapshot: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Amends the agent state with an RFC 6902 patch.
    StateDelta {
        delta: Vec<PatchOperation>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// The complete set of messages the producer owns, in order.
    MessagesSnapshot { messages: Vec<Message> }
);
event_struct!(
    /// Creates or replaces an activity message.
    ActivitySnapshot {
        message_id: String,
        activity_type: String,
        content: serde_json::Map<String, Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        replace: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Patches an activity message's content.
    ActivityDelta {
        message_id: String,
        activity_type: String,
        patch: Vec<PatchOperation>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// A provider-native event passed through untranslated.
    Raw {
        event: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// The application's own extension event.
    Custom {
        name: String,
        value: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Opens a run.
    RunStarted {
        thread_id: String,
        run_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        protocol_version: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_run_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        input: Option<Box<RunAgentInput>>,
    }
);
event_struct!(
    /// Closes a run that did not fail.
    RunFinished {
        thread_id: String,
        run_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        outcome: Option<RunOutcome>,
        #[serde(skip_serializing_if = "Option::is_none")]
        usage: Option<Vec<TokenUsage>>,
    }
);
event_struct!(
    /// Ends a run that failed. Delivered to the application; the stream may continue.
    RunError {
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        usage: Option<Vec<TokenUsage>>,
    }
);
event_struct!(
    /// Opens a named step.
    StepStarted {
        step_name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Closes a named step.
    StepFinished {
        step_name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Opens a reasoning span (which materialises no message of its own).
    ReasoningStart {
        message_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Opens a streamed reasoning message. The role is fixed to `reasoning` on the wire.
    ReasoningMessageStart {
        message_id: String,
        role: ReasoningRole,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Appends to a streamed reasoning message.
    ReasoningMessageContent {
        message_id: String,
        delta: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Closes a streamed reasoning message.
    ReasoningMessageEnd {
        message_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Shorthand for a reasoning message's start/content/end.
    ReasoningMessageChunk {
        #[serde(skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Closes a reasoning span.
    ReasoningEnd {
        message_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// An opaque encrypted reasoning artefact for a message or tool call.
    ReasoningEncryptedValue {
        subtype: EncryptedValueSubtype,
        entity_id: String,
        encrypted_value: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        encrypted_value_type: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        subagent_run_id: Option<String>,
    }
);
event_struct!(
    /// Announces a subagent invocation.
    SubagentStarted {
        subagent_run_id: String,
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_subagent_run_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_tool_call_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_message_id: Option<String>,
    }
);
event_struct!(
    /// Ends a subagent invocation's segment of the run.
    SubagentFinished {
        subagent_run_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        outcome: Option<SubagentOutcome>,
    }
);
event_struct!(
    /// Reports that a subagent invocation failed; the run may continue.
    SubagentError {
        subagent_run_id: String,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    }
);

/// The fixed `tool` role a `TOOL_CALL_RESULT` may repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolRole {
    Tool,
}

/// The fixed `reasoning` role of `REASONING_MESSAGE_START`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningRole {
    Reasoning,
}

/// What a `REASONING_ENCRYPTED_VALUE` belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum EncryptedValueSubtype {
    #[serde(rename = "tool-call")]
    ToolCall,
    #[serde(rename = "message")]
    Message,
}

/// What a tool returned: plain text or an ordered list of parts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ToolResultContent {
    Text(String),
    Parts(Vec<ContentPart>),
}

/// The six operations RFC 6902 defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum PatchOp {
    Add,
    Remove,
    Replace,
    Move,
    Copy,
    Test,
}

impl PatchOp {
    pub fn parse(s: &str) -> Option<PatchOp> {
        Some(match s {
            "add" => PatchOp::Add,
            "remove" => PatchOp::Remove,
            "replace" => PatchOp::Replace,
            "move" => PatchOp::Move,
            "copy" => PatchOp::Copy,
            "test" => PatchOp::Test,
            _ => return None,
        })
    }
}

/// One RFC 6902 operation. Operations are open objects: members the operation does not define
/// are kept in `extra` and delivered whole, as RFC 6902 section 4 requires.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct PatchOperation {
    pub op: PatchOp,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `Some(Value::Null)` is a real `null` value; `None` means the member was absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, Value>,
}

/// Any AG-UI event, discriminated by `type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Event {
    TextMessageStart(TextMessageStart),
    TextMessageContent(TextMessageContent),
    TextMessageEnd(TextMessageEnd),
    TextMessageChunk(TextMessageChunk),
    ToolCallStart(ToolCallStart),
    ToolCallArgs(ToolCallArgs),
    ToolCallEnd(ToolCallEnd),
    ToolCallChunk(ToolCallChunk),
    ToolCallResult(ToolCallResult),
    StateSnapshot(StateSnapshot),
    StateDelta(StateDelta),
    MessagesSnapshot(MessagesSnapshot),
    ActivitySnapshot(ActivitySnapshot),
    ActivityDelta(ActivityDelta),
    Raw(Raw),
    Custom(Custom),
    RunStarted(RunStarted),
    RunFinished(RunFinished),
    RunError(RunError),
    StepStarted(StepStarted),
    StepFinished(StepFinished),
    ReasoningStart(ReasoningStart),
    ReasoningMessageStart(ReasoningMessageStart),
    ReasoningMessageContent(ReasoningMessageContent),
    ReasoningMessageEnd(ReasoningMessageEnd),
    ReasoningMessageChunk(ReasoningMessageChunk),
    ReasoningEnd(ReasoningEnd),
    ReasoningEncryptedValue(ReasoningEncryptedValue),
    SubagentStarted(SubagentStarted),
    SubagentFinished(SubagentFinished),
    SubagentError(SubagentError),
}

/// Every type name this implementation recognises, in schema order.
pub const EVENT_TYPES: [&str; 31] = [
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TEXT_MESSAGE_CHUNK",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "TOOL_CALL_CHUNK",
    "TOOL_CALL_RESULT",
    "STATE_SNAPSHOT",
    "STATE_DELTA",
    "MESSAGES_SNAPSHOT",
    "ACTIVITY_SNAPSHOT",
    "ACTIVITY_DELTA",
    "RAW",
    "CUSTOM",
    "RUN_STARTED",
    "RUN_FINISHED",
    "RUN_ERROR",
    "STEP_STARTED",
    "STEP_FINISHED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_MESSAGE_CHUNK",
    "REASONING_END",
    "REASONING_ENCRYPTED_VALUE",
    "SUBAGENT_STARTED",
    "SUBAGENT_FINISHED",
    "SUBAGENT_ERROR",
];

impl Event {
    /// The wire `type` of this event.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::TextMessageStart(_) => "TEXT_MESSAGE_START",
            Event::TextMessageContent(_) => "TEXT_MESSAGE_CONTENT",
            Event::TextMessageEnd(_) => "TEXT_MESSAGE_END",
            Event::TextMessageChunk(_) => "TEXT_MESSAGE_CHUNK",
            Event::ToolCallStart(_) => "TOOL_CALL_START",
            Event::ToolCallArgs(_) => "TOOL_CALL_ARGS",
            Event::ToolCallEnd(_) => "TOOL_CALL_END",
            Event::ToolCallChunk(_) => "TOOL_CALL_CHUNK",
            Event::ToolCallResult(_) => "TOOL_CALL_RESULT",
            Event::StateSnapshot(_) => "STATE_SNAPSHOT",
            Event::StateDelta(_) => "STATE_DELTA",
            Event::MessagesSnapshot(_) => "MESSAGES_SNAPSHOT",
            Event::ActivitySnapshot(_) => "ACTIVITY_SNAPSHOT",
            Event::ActivityDelta(_) => "ACTIVITY_DELTA",
            Event::Raw(_) => "RAW",
            Event::Custom(_) => "CUSTOM",
            Event::RunStarted(_) => "RUN_STARTED",
            Event::RunFinished(_) => "RUN_FINISHED",
            Event::RunError(_) => "RUN_ERROR",
            Event::StepStarted(_) => "STEP_STARTED",
            Event::StepFinished(_) => "STEP_FINISHED",
            Event::ReasoningStart(_) => "REASONING_START",
            Event::ReasoningMessageStart(_) => "REASONING_MESSAGE_START",
            Event::ReasoningMessageContent(_) => "REASONING_MESSAGE_CONTENT",
            Event::ReasoningMessageEnd(_) => "REASONING_MESSAGE_END",
            Event::ReasoningMessageChunk(_) => "REASONING_MESSAGE_CHUNK",
            Event::ReasoningEnd(_) => "REASONING_END",
            Event::ReasoningEncryptedValue(_) => "REASONING_ENCRYPTED_VALUE",
            Event::SubagentStarted(_) => "SUBAGENT_STARTED",
            Event::SubagentFinished(_) => "SUBAGENT_FINISHED",
            Event::SubagentError(_) => "SUBAGENT_ERROR",
        }
    }

    /// The subagent this event is attributed to, for attributable events. Lifecycle events of
    /// subagents carry an identity rather than an attribution and answer `None`.
    pub fn attribution(&self) -> Option<&str> {
        let tag = match self {
            Event::TextMessageStart(e) => &e.subagent_run_id,
            Event::TextMessageContent(e) => &e.subagent_run_id,
            Event::TextMessageEnd(e) => &e.subagent_run_id,
            Event::TextMessageChunk(e) => &e.subagent_run_id,
            Event::ToolCallStart(e) => &e.subagent_run_id,
            Event::ToolCallArgs(e) => &e.subagent_run_id,
            Event::ToolCallEnd(e) => &e.subagent_run_id,
            Event::ToolCallChunk(e) => &e.subagent_run_id,
            Event::ToolCallResult(e) => &e.subagent_run_id,
            Event::StateSnapshot(e) => &e.subagent_run_id,
            Event::StateDelta(e) => &e.subagent_run_id,
            Event::ActivitySnapshot(e) => &e.subagent_run_id,
            Event::ActivityDelta(e) => &e.subagent_run_id,
            Event::Raw(e) => &e.subagent_run_id,
            Event::Custom(e) => &e.subagent_run_id,
            Event::StepStarted(e) => &e.subagent_run_id,
            Event::StepFinished(e) => &e.subagent_run_id,
            Event::ReasoningStart(e) => &e.subagent_run_id,
            Event::ReasoningMessageStart(e) => &e.subagent_run_id,
            Event::ReasoningMessageContent(e) => &e.subagent_run_id,
            Event::ReasoningMessageEnd(e) => &e.subagent_run_id,
            Event::ReasoningMessageChunk(e) => &e.subagent_run_id,
            Event::ReasoningEnd(e) => &e.subagent_run_id,
            Event::ReasoningEncryptedValue(e) => &e.subagent_run_id,
            _ => return None,
        };
        tag.as_deref()
    }

    /// The fields common to every event.
    pub fn base(&self) -> &EventBase {
        match self {
            Event::TextMessageStart(e) => &e.base,
            Event::TextMessageContent(e) => &e.base,
            Event::TextMessageEnd(e) => &e.base,
            Event::TextMessageChunk(e) => &e.base,
            Event::ToolCallStart(e) => &e.base,
            Event::ToolCallArgs(e) => &e.base,
            Event::ToolCallEnd(e) => &e.base,
            Event::ToolCallChunk(e) => &e.base,
            Event::ToolCallResult(e) => &e.base,
            Event::StateSnapshot(e) => &e.base,
            Event::StateDelta(e) => &e.base,
            Event::MessagesSnapshot(e) => &e.base,
            Event::ActivitySnapshot(e) => &e.base,
            Event::ActivityDelta(e) => &e.base,
            Event::Raw(e) => &e.base,
            Event::Custom(e) => &e.base,
            Event::RunStarted(e) => &e.base,
            Event::RunFinished(e) => &e.base,
            Event::RunError(e) => &e.base,
            Event::StepStarted(e) => &e.base,
            Event::StepFinished(e) => &e.base,
            Event::ReasoningStart(e) => &e.base,
            Event::ReasoningMessageStart(e) => &e.base,
            Event::ReasoningMessageContent(e) => &e.base,
            Event::ReasoningMessageEnd(e) => &e.base,
            Event::ReasoningMessageChunk(e) => &e.base,
            Event::ReasoningEnd(e) => &e.base,
            Event::ReasoningEncryptedValue(e) => &e.base,
            Event::SubagentStarted(e) => &e.base,
            Event::SubagentFinished(e) => &e.base,
            Event::SubagentError(e) => &e.base,
        }
    }

    /// Serialize to the wire shape an application receives.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
