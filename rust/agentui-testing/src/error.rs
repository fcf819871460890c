//! Why a script or a recording could not be loaded, with where.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A script that cannot be played. `path` is a JSON pointer into the script (`/rules/0/reply/2`);
/// `line` and `column` (1-based) are serde_json's position in the text where it has one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    #[error("the script is not JSON at line {line}, column {column}: {message}")]
    Syntax { line: usize, column: usize, message: String },
    #[error("unknown step {step:?} at {path} (line {line}, column {column})")]
    UnknownStep { path: String, step: String, line: usize, column: usize },
    #[error("A2UI version {version:?} at {path} is not one this engine supports")]
    UnsupportedA2uiVersion { path: String, version: String },
    #[error("invalid script at {path}{}: {message}", position(*.line, *.column))]
    Invalid { path: String, message: String, line: Option<usize>, column: Option<usize> },
}

fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!(" (line {line}, column {column})"),
        _ => String::new(),
    }
}

impl ScriptError {
    pub(crate) fn invalid(path: impl Into<String>, message: String) -> ScriptError {
        ScriptError::Invalid { path: path.into(), message, line: None, column: None }
    }

    /// The JSON pointer of the error, `""` for the whole script.
    pub fn path(&self) -> &str {
        match self {
            ScriptError::Syntax { .. } => "",
            ScriptError::UnknownStep { path, .. }
            | ScriptError::UnsupportedA2uiVersion { path, .. }
            | ScriptError::Invalid { path, .. } => path,
        }
    }

    /// A serde error while reading the typed script: serde_json gives the line and column, the
    /// path is found by reading the same text part by part.
    pub(crate) fn from_serde(text: &str, error: serde_json::Error) -> ScriptError {
        let (line, column) = (error.line(), error.column());
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(_) => return ScriptError::Syntax { line, column, message: error.to_string() },
        };
        let (path, part) = locate(&value);
        let message = strip_position(&error.to_string());
        if let Some(step) = part.get("type").and_then(Value::as_str) {
            if path.contains("/reply/") && message.starts_with("unknown variant") {
                return ScriptError::UnknownStep { path, step: step.to_owned(), line, column };
            }
        }
        ScriptError::Invalid { path, message, line: Some(line), column: Some(column) }
    }
}

/// serde_json appends " at line L column C"; the error carries them as fields already.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// The innermost part of the script that does not read as what it should be, and its pointer.
fn locate(script: &Value) -> (String, &Value) {
    use crate::script::Step;
    let Some(rules) = script.get("rules").and_then(Value::as_array) else {
        return (String::new(), script);
    };
    for (i, rule) in rules.iter().enumerate() {
        if let Some(when) = rule.get("when") {
            if !reads_as::<MatcherShape>(when) {
                return (format!("/rules/{i}/when"), when);
            }
        }
        if let Some(reply) = rule.get("reply").and_then(Value::as_array) {
            for (j, step) in reply.iter().enumerate() {
                if !reads_as::<Step>(step) {
                    return (format!("/rules/{i}/reply/{j}"), step);
                }
            }
        }
        if !reads_as::<RuleShape>(rule) {
            return (format!("/rules/{i}"), rule);
        }
    }
    (String::new(), script)
}

fn reads_as<T: DeserializeOwned>(value: &Value) -> bool {
    T::deserialize(value).is_ok()
}

/// The shapes of a rule and its matcher, for [`locate`] only (the script module has the real ones).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct RuleShape {
    when: MatcherShape,
    reply: Vec<Value>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
enum MatcherShape {
    UserSays(String),
    UserMatches(String),
    ToolResult(String),
    InterruptAnswered(String),
}

/// A recording folder that cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path} is not a recording: {message}")]
    Invalid { path: String, message: String },
}
