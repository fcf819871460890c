//! Enforcement of the protocol's nested values: messages and their parts, tool calls, the run
//! input, outcomes, interrupts, token usage and JSON Patch operations.

use serde_json::Value;

use super::reader::{
    expected, is_json_pointer, list, malformed, optional_member, quoted, string_list, ObjectReader, Reject, Res, Strip,
};
use crate::event::{PatchOp, PatchOperation, ToolResultContent};
use crate::message::{
    ContentPart, Context, FunctionCall, Interrupt, MediaPart, Message, MessageContent, PartSource, ResumeEntry,
    ResumeStatus, Role, RunAgentInput, RunOutcome, SubagentOutcome, TextPart, TokenUsage, Tool, ToolCall, ToolCallKind,
};

fn unrecognised<T>(path: &str, what: String) -> Res<T> {
    Err(Reject::Unrecognised { path: path.to_owned(), what })
}

pub(crate) fn part_source(value: Value, path: &str, strip: &mut Strip) -> Res<PartSource> {
    let mut r = ObjectReader::new(value, path)?;
    let kind = r.discriminator("type")?;
    let source = match kind.as_str() {
        "data" => PartSource::Data { value: r.req_string("value")?, mime_type: r.req_string("mimeType")? },
        "url" => PartSource::Url { value: r.req_string("value")?, mime_type: r.opt_string("mimeType")? },
        "file" => PartSource::File {
            value: r.req_string("value")?,
            provider: r.opt_string("provider")?,
            mime_type: r.opt_string("mimeType")?,
        },
        other => return unrecognised(path, format!("unrecognised source type {} at {path}", quoted(other))),
    };
    r.finish(strip);
    Ok(source)
}

pub(crate) fn content_part(mut value: Value, path: &str, strip: &mut Strip) -> Res<ContentPart> {
    if let Value::Object(part) = &mut value {
        crate::compat::upgrade_binary_part(part);
    }
    let mut r = ObjectReader::new(value, path)?;
    let kind = r.discriminator("type")?;
    let part = match kind.as_str() {
        "text" => ContentPart::Text(TextPart {
            id: r.opt_string("id")?,
            text: r.req_string("text")?,
            metadata: r.opt_non_null("metadata")?,
        }),
        "image" | "audio" | "video" | "document" => {
            let id = r.opt_string("id")?;
            let source_path = r.at("source");
            // A source of an unknown kind sits in a required position: the part goes with it.
            let source = part_source(r.required("source")?, &source_path, strip)?;
            let media = MediaPart { id, source, metadata: r.opt_non_null("metadata")? };
            match kind.as_str() {
                "image" => ContentPart::Image(media),
                "audio" => ContentPart::Audio(media),
                "video" => ContentPart::Video(media),
                _ => ContentPart::Document(media),
            }
        }
        other => return unrecognised(path, format!("unrecognised content part type {}", quoted(other))),
    };
    r.finish(strip);
    Ok(part)
}

fn parts(value: Value, path: &str, strip: &mut Strip) -> Res<Vec<ContentPart>> {
    list(value, path, strip, content_part)
}

/// `string | ContentPart[]`, as on user and tool messages and tool results.
pub(crate) fn text_or_parts(value: Value, path: &str, strip: &mut Strip) -> Res<ToolResultContent> {
    match value {
        Value::String(s) => Ok(ToolResultContent::Text(s)),
        v @ Value::Array(_) => Ok(ToolResultContent::Parts(parts(v, path, strip)?)),
        other => Err(expected(path, "string or array", &other)),
    }
}

fn into_message_content(c: ToolResultContent) -> MessageContent {
    match c {
        ToolResultContent::Text(s) => MessageContent::Text(s),
        ToolResultContent::Parts(p) => MessageContent::Parts(p),
    }
}

fn tool_call(value: Value, path: &str, strip: &mut Strip) -> Res<ToolCall> {
    let mut r = ObjectReader::new(value, path)?;
    let id = r.req_string("id")?;
    r.constant("type", "function", true)?;
    let function_path = r.at("function");
    let mut f = ObjectReader::new(r.required("function")?, &function_path)?;
    let function = FunctionCall { name: f.req_string("name")?, arguments: f.req_string("arguments")? };
    f.finish(strip);
    let call = ToolCall {
        id,
        kind: ToolCallKind::Function,
        function,
        encrypted_value: r.opt_string("encryptedValue")?,
        encrypted_value_type: r.opt_string("encryptedValueType")?,
        metadata: r.opt_object("metadata")?,
    };
    r.finish(strip);
    Ok(call)
}

/// One message of the `Message` union, discriminated by `role`.
pub(crate) fn message(value: Value, path: &str, strip: &mut Strip) -> Res<Message> {
    let mut r = ObjectReader::new(value, path)?;
    let id = r.req_string("id")?;
    let role_name = r.discriminator("role")?;
    let Some(role) = Role::parse(&role_name) else {
        return unrecognised(path, format!("unrecognised message role {}", quoted(&role_name)));
    };
    let mut m = Message::new(id, role);
    m.subagent_run_id = r.opt_string("subagentRunId")?;
    m.metadata = r.opt_object("metadata")?;
    if role != Role::Activity {
        m.encrypted_value = r.opt_string("encryptedValue")?;
        m.encrypted_value_type = r.opt_string("encryptedValueType")?;
    }
    match role {
        Role::Developer | Role::System | Role::Assistant | Role::User => m.name = r.opt_string("name")?,
        _ => {}
    }
    let content_path = r.at("content");
    match role {
        Role::Developer | Role::System | Role::Reasoning => {
            m.content = Some(MessageContent::Text(r.req_string("content")?));
        }
        Role::Assistant => {
            m.content = r.opt_string("content")?.map(MessageContent::Text);
            if let Some(calls) = r.take("toolCalls") {
                let calls_path = r.at("toolCalls");
                m.tool_calls = Some(list(calls, &calls_path, strip, tool_call)?);
            }
        }
        Role::User => {
            m.content = Some(into_message_content(text_or_parts(r.required("content")?, &content_path, strip)?));
        }
        Role::Tool => {
            m.content = Some(into_message_content(text_or_parts(r.required("content")?, &content_path, strip)?));
            m.tool_call_id = Some(r.req_string("toolCallId")?);
            m.error = r.opt_string("error")?;
        }
        Role::Activity => {
            m.activity_type = Some(r.req_string("activityType")?);
            m.content = Some(MessageContent::Object(r.req_object("content")?));
        }
    }
    r.finish(strip);
    Ok(m)
}

pub(crate) fn messages(value: Value, path: &str, strip: &mut Strip) -> Res<Vec<Message>> {
    list(value, path, strip, message)
}

fn tool(value: Value, path: &str, strip: &mut Strip) -> Res<Tool> {
    let mut r = ObjectReader::new(value, path)?;
    let t = Tool {
        name: r.req_string("name")?,
        description: r.req_string("description")?,
        parameters: r.opt_non_null("parameters")?,
        metadata: r.opt_object("metadata")?,
    };
    r.finish(strip);
    Ok(t)
}

pub(crate) fn tools(value: Value, path: &str, strip: &mut Strip) -> Res<Vec<Tool>> {
    list(value, path, strip, tool)
}

fn context(value: Value, path: &str, strip: &mut Strip) -> Res<Context> {
    let mut r = ObjectReader::new(value, path)?;
    let c = Context { description: r.req_string("description")?, value: r.req_string("value")? };
    r.finish(strip);
    Ok(c)
}

fn resume_entry(value: Value, path: &str, strip: &mut Strip) -> Res<ResumeEntry> {
    let mut r = ObjectReader::new(value, path)?;
    let e = ResumeEntry {
        interrupt_id: r.req_string("interruptId")?,
        status: r.req_enum("status", |s| match s {
            "resolved" => Some(ResumeStatus::Resolved),
            "cancelled" => Some(ResumeStatus::Cancelled),
            _ => None,
        })?,
        payload: r.opt_non_null("payload")?,
        metadata: r.opt_object("metadata")?,
    };
    r.finish(strip);
    Ok(e)
}

pub(crate) fn run_agent_input(value: Value, path: &str, strip: &mut Strip) -> Res<RunAgentInput> {
    let mut r = ObjectReader::new(value, path)?;
    let thread_id = r.req_string("threadId")?;
    let run_id = r.req_string("runId")?;
    let protocol_version = r.opt_string("protocolVersion")?;
    let parent_run_id = r.opt_string("parentRunId")?;
    let state = r.opt_non_null("state")?;
    let messages_path = r.at("messages");
    let messages = messages(r.required("messages")?, &messages_path, strip)?;
    let tools = match r.take("tools") {
        Some(v) => Some(list(v, &r.at("tools"), strip, tool)?),
        None => None,
    };
    let context = match r.take("context") {
        Some(v) => Some(list(v, &r.at("context"), strip, context)?),
        None => None,
    };
    let forwarded_props = r.opt_non_null("forwardedProps")?;
    let resume = match r.take("resume") {
        Some(v) => Some(list(v, &r.at("resume"), strip, resume_entry)?),
        None => None,
    };
    r.finish(strip);
    Ok(RunAgentInput {
        thread_id,
        run_id,
        protocol_version,
        parent_run_id,
        state,
        messages,
        tools,
        context,
        forwarded_props,
        resume,
    })
}

pub(crate) fn interrupt(value: Value, path: &str, strip: &mut Strip) -> Res<Interrupt> {
    let mut r = ObjectReader::new(value, path)?;
    let i = Interrupt {
        id: r.req_string("id")?,
        reason: r.req_string("reason")?,
        message: r.opt_string("message")?,
        tool_call_id: r.opt_string("toolCallId")?,
        response_schema: r.opt_object("responseSchema")?,
        expires_at: r.opt_string("expiresAt")?,
        metadata: r.opt_object("metadata")?,
        subagent_run_id: r.opt_string("subagentRunId")?,
    };
    r.finish(strip);
    Ok(i)
}

fn run_outcome_member(value: Value, path: &str, strip: &mut Strip) -> Res<RunOutcome> {
    let mut r = ObjectReader::new(value, path)?;
    let kind = r.discriminator("type")?;
    let outcome = match kind.as_str() {
        "success" => {
            let pending = match r.take("pendingToolCallIds") {
                Some(v) => Some(string_list(v, &r.at("pendingToolCallIds"))?),
                None => None,
            };
            RunOutcome::Success { pending_tool_call_ids: pending }
        }
        "interrupt" => {
            let at = r.at("interrupts");
            let interrupts = list(r.required("interrupts")?, &at, strip, interrupt)?;
            if interrupts.is_empty() {
                return malformed(at, "expected at least one interrupt");
            }
            RunOutcome::Interrupt { interrupts }
        }
        "cancelled" => RunOutcome::Cancelled,
        other => return unrecognised(path, format!("unrecognised outcome type {}", quoted(other))),
    };
    r.finish(strip);
    Ok(outcome)
}

/// `RUN_FINISHED.outcome`: optional, so an unrecognised member is stripped, but a value that is
/// not an object at all is malformed.
pub(crate) fn run_outcome(value: Value, path: &str, strip: &mut Strip) -> Res<Option<RunOutcome>> {
    optional_member(run_outcome_member(value, path, strip), path, strip)
}

fn subagent_outcome_member(value: Value, path: &str, strip: &mut Strip) -> Res<SubagentOutcome> {
    let mut r = ObjectReader::new(value, path)?;
    let kind = r.discriminator("type")?;
    let outcome = match kind.as_str() {
        "success" => SubagentOutcome::Success,
        "suspended" => {
            let ids = match r.take("interruptIds") {
                Some(v) => Some(string_list(v, &r.at("interruptIds"))?),
                None => None,
            };
            SubagentOutcome::Suspended { interrupt_ids: ids }
        }
        other => return unrecognised(path, format!("unrecognised outcome type {}", quoted(other))),
    };
    r.finish(strip);
    Ok(outcome)
}

pub(crate) fn subagent_outcome(value: Value, path: &str, strip: &mut Strip) -> Res<Option<SubagentOutcome>> {
    optional_member(subagent_outcome_member(value, path, strip), path, strip)
}

fn token_usage(value: Value, path: &str, strip: &mut Strip) -> Res<TokenUsage> {
    let mut r = ObjectReader::new(value, path)?;
    let count = |r: &mut ObjectReader, key: &str| -> Res<Option<u64>> {
        Ok(r.opt_safe_integer(key, 0)?.and_then(|n| u64::try_from(n).ok()))
    };
    let usage = TokenUsage {
        provider: r.opt_string("provider")?,
        model: r.opt_string("model")?,
        input_tokens: count(&mut r, "inputTokens")?,
        output_tokens: count(&mut r, "outputTokens")?,
        total_tokens: count(&mut r, "totalTokens")?,
        reasoning_tokens: count(&mut r, "reasoningTokens")?,
        cached_input_tokens: count(&mut r, "cachedInputTokens")?,
        cache_write_input_tokens: count(&mut r, "cacheWriteInputTokens")?,
    };
    r.finish(strip);
    Ok(usage)
}

pub(crate) fn usage(value: Value, path: &str, strip: &mut Strip) -> Res<Vec<TokenUsage>> {
    list(value, path, strip, token_usage)
}

fn pointer(r: &mut ObjectReader, key: &str) -> Res<String> {
    let p = r.req_string(key)?;
    if is_json_pointer(&p) {
        Ok(p)
    } else {
        malformed(r.at(key), format!("expected a JSON Pointer, received {}", quoted(&p)))
    }
}

/// One RFC 6902 operation. Open object: undescribed members are kept, never stripped.
fn patch_operation(value: Value, path: &str, _strip: &mut Strip) -> Res<PatchOperation> {
    let mut r = ObjectReader::new(value, path)?;
    let op_name = r.discriminator("op")?;
    let Some(op) = PatchOp::parse(&op_name) else {
        return unrecognised(path, format!("unrecognised patch operation {}", quoted(&op_name)));
    };
    let target = pointer(&mut r, "path")?;
    let from = match op {
        PatchOp::Move | PatchOp::Copy => Some(pointer(&mut r, "from")?),
        _ => None,
    };
    let value = match op {
        PatchOp::Add | PatchOp::Replace | PatchOp::Test => Some(r.required("value")?),
        _ => None,
    };
    let extra = match ObjectReader::into_rest(r) {
        Value::Object(m) => m,
        _ => Default::default(),
    };
    Ok(PatchOperation { op, path: target, from, value, extra })
}

pub(crate) fn patch(value: Value, path: &str, strip: &mut Strip) -> Res<Vec<PatchOperation>> {
    list(value, path, strip, patch_operation)
}

/// Serde's way in, by the same rules as a `STATE_DELTA` operation (replays, test cases).
impl<'de> serde::Deserialize<'de> for PatchOperation {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let mut warnings = Vec::new();
        let mut strip = Strip { warnings: &mut warnings, owner: "a patch operation" };
        patch_operation(value, "", &mut strip).map_err(|reject| serde::de::Error::custom(format!("{reject:?}")))
    }
}

impl ObjectReader {
    /// What is left of an open object after its described members were taken.
    pub(crate) fn into_rest(self) -> Value {
        Value::Object(self.into_map())
    }
}
