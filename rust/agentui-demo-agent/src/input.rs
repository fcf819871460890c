//! The parts of `RunAgentInput` the scripts look at. Parsing is lenient: fields the demo agent
//! does not use are ignored, so any well-formed AG-UI client request is accepted; only the
//! members every run needs (`threadId`, `runId`, `messages`) are required.

use serde::Deserialize;
use serde_json::Value;

/// A request to run the agent, as far as the scripts need it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInput {
    pub thread_id: String,
    pub run_id: String,
    pub messages: Vec<InputMessage>,
    #[serde(default)]
    pub tools: Option<Vec<InputTool>>,
    #[serde(default)]
    pub forwarded_props: Option<Value>,
    #[serde(default)]
    pub context: Vec<ContextEntry>,
    #[serde(default)]
    pub resume: Option<Vec<ResumeEntry>>,
}

/// One `RunAgentInput.context` entry: what the client puts in front of the model.
#[derive(Debug, Clone, Deserialize)]
pub struct ContextEntry {
    #[serde(default)]
    pub value: String,
}

/// One message of the conversation so far (any role).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputMessage {
    pub role: String,
    #[serde(default)]
    pub content: Option<Value>,
    #[serde(default)]
    pub tool_calls: Option<Vec<InputToolCall>>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
}

/// A call an assistant message made.
#[derive(Debug, Clone, Deserialize)]
pub struct InputToolCall {
    pub id: String,
    pub function: InputFunction,
}

#[derive(Debug, Clone, Deserialize)]
pub struct InputFunction {
    pub name: String,
    #[serde(default)]
    pub arguments: String,
}

/// A tool the client declares (and therefore executes).
#[derive(Debug, Clone, Deserialize)]
pub struct InputTool {
    pub name: String,
}

/// An answer to an interrupt.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    pub interrupt_id: String,
    pub status: String,
    #[serde(default)]
    pub payload: Option<Value>,
}

/// Why a request body was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// Not JSON at all.
    MalformedJson(String),
    /// JSON, but not a `RunAgentInput`.
    InvalidInput(String),
}

impl InputError {
    pub fn code(&self) -> &'static str {
        match self {
            InputError::MalformedJson(_) => "malformed_json",
            InputError::InvalidInput(_) => "invalid_input",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            InputError::MalformedJson(m) | InputError::InvalidInput(m) => m,
        }
    }
}

impl RunInput {
    /// Parses a request body.
    pub fn parse(body: &[u8]) -> Result<RunInput, InputError> {
        let value: Value = serde_json::from_slice(body).map_err(|e| InputError::MalformedJson(e.to_string()))?;
        Self::from_value(value)
    }

    pub fn from_value(value: Value) -> Result<RunInput, InputError> {
        if !value.is_object() {
            return Err(InputError::InvalidInput("RunAgentInput must be a JSON object".into()));
        }
        serde_json::from_value(value).map_err(|e| InputError::InvalidInput(e.to_string()))
    }

    /// Whether the client declared (and so executes) a tool called `name`.
    pub fn declares_tool(&self, name: &str) -> bool {
        self.tools.iter().flatten().any(|t| t.name == name)
    }

    /// The text of the latest user message, if any.
    pub fn latest_user_text(&self) -> Option<String> {
        self.messages.iter().rev().find(|m| m.role == "user").map(InputMessage::text)
    }

    /// The tool messages at the end of the conversation: results the client sent back for the
    /// calls of the previous run.
    pub fn trailing_tool_results(&self) -> &[InputMessage] {
        let first = self.messages.iter().rposition(|m| m.role != "tool").map_or(0, |i| i + 1);
        &self.messages[first..]
    }

    /// Every tool call made by an assistant message so far, latest last.
    pub fn tool_calls(&self) -> impl Iterator<Item = &InputToolCall> {
        self.messages.iter().filter(|m| m.role == "assistant").flat_map(|m| m.tool_calls.iter().flatten())
    }
}

impl InputMessage {
    /// The message body as text: a string as is, the text parts of a part list concatenated,
    /// anything else as compact JSON.
    pub fn text(&self) -> String {
        match &self.content {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => {
                parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("")
            }
            Some(other) => other.to_string(),
        }
    }

    /// The failure a tool message reports: its `error` field, or its content when that
    /// mentions an error. Never guess success from a failure.
    pub fn tool_failure(&self) -> Option<String> {
        if let Some(error) = &self.error {
            return Some(error.clone());
        }
        let text = self.text();
        text.to_lowercase().contains("error").then_some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn minimal_input_parses_and_extra_fields_are_ignored() {
        let input = RunInput::from_value(json!({
            "threadId": "t", "runId": "r", "messages": [], "context": [], "state": {"a": 1}, "protocolVersion": "1.1"
        }))
        .unwrap();
        assert_eq!(input.run_id, "r");
        assert!(input.latest_user_text().is_none());
    }

    #[test]
    fn malformed_and_invalid_bodies_are_told_apart() {
        assert_eq!(RunInput::parse(b"{not json").unwrap_err().code(), "malformed_json");
        assert_eq!(RunInput::parse(b"[]").unwrap_err().code(), "invalid_input");
        assert_eq!(RunInput::parse(br#"{"threadId": "t", "messages": []}"#).unwrap_err().code(), "invalid_input");
    }

    #[test]
    fn trailing_tool_results_stop_at_the_last_other_message() {
        let input = RunInput::from_value(json!({
            "threadId": "t", "runId": "r", "messages": [
                {"id": "1", "role": "tool", "toolCallId": "old", "content": "x"},
                {"id": "2", "role": "assistant", "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                {"id": "3", "role": "tool", "toolCallId": "c", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
            ]
        }))
        .unwrap();
        let results = input.trailing_tool_results();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].text(), "ab");
        assert_eq!(input.tool_calls().count(), 1);
    }
}
