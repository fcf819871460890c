//! The script a scripted agent follows: rules matched on a request, each answering with steps.
//! It is data (JSON) so that the Kotlin and Swift builders and a file all produce the same thing.
//!
//! ```json
//! {"rules": [
//!   {"when": {"userSays": "book a table"},
//!    "reply": [{"type": "text", "text": "Here is the form."},
//!              {"type": "surface", "messages": [{"version": "v0.9", "createSurface": {…}}]}]},
//!   {"when": {"toolResult": "get_location"}, "reply": [{"type": "text", "text": "Thanks."}]}
//! ]}
//! ```

use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

use crate::error::ScriptError;

/// Most rules a script may have.
pub const MAX_RULES: usize = 1_000;
/// Most steps one rule may answer with.
pub const MAX_STEPS: usize = 10_000;
/// Longest pattern a `userMatches` rule may have (the regex crate also bounds its compiled size).
pub const MAX_PATTERN_BYTES: usize = 4_096;
/// Longest delay a step may ask for: a script must not make a test wait forever.
pub const MAX_DELAY_MS: u64 = 60_000;
/// Text is streamed in chunks of this many characters unless the step says otherwise.
pub const DEFAULT_CHUNK_CHARS: usize = 16;

/// A loaded, checked script.
#[derive(Debug, Clone)]
pub struct Script {
    pub(crate) rules: Vec<Rule>,
}

#[derive(Debug, Clone)]
pub(crate) struct Rule {
    pub when: Matcher,
    pub reply: Vec<Step>,
}

/// What a rule answers.
#[derive(Debug, Clone)]
pub(crate) enum Matcher {
    /// The latest user message is exactly this text (surrounding white space ignored).
    UserSays(String),
    /// The latest user message matches this pattern somewhere.
    UserMatches(Regex),
    /// The request carries the result of a call to this client tool.
    ToolResult(String),
    /// The request answers an interrupt this script raised with this reason.
    InterruptAnswered(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptFile {
    rules: Vec<RuleFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    when: MatcherFile,
    reply: Vec<Step>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum MatcherFile {
    UserSays(String),
    UserMatches(String),
    ToolResult(String),
    InterruptAnswered(String),
}

/// One thing the agent does in its reply. The run opens with `RUN_STARTED` and, unless a step
/// ends it otherwise, closes with `RUN_FINISHED` after the last step.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum Step {
    /// An assistant message streamed in chunks of `chunk_chars` characters.
    Text {
        text: String,
        #[serde(default)]
        chunk_chars: Option<usize>,
    },
    /// A call of a tool the app executes. The run ends after the reply's steps, telling the
    /// client which calls wait for results; the rule for its result answers the next request.
    ToolCall {
        name: String,
        #[serde(default = "empty_object")]
        arguments: Value,
    },
    /// A tool the agent runs itself: the call, then its result.
    ServerTool {
        name: String,
        #[serde(default = "empty_object")]
        arguments: Value,
        result: Value,
    },
    /// An A2UI surface: its messages (any supported version) in one `ACTIVITY_SNAPSHOT`.
    Surface {
        messages: Vec<Value>,
    },
    StateSnapshot {
        snapshot: Value,
    },
    /// RFC 6902 operations.
    StateDelta {
        delta: Vec<Value>,
    },
    /// The run ends waiting for the user: `RUN_FINISHED` with an interrupt outcome.
    Interrupt {
        reason: String,
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        response_schema: Option<Value>,
        #[serde(default)]
        metadata: Option<Value>,
    },
    /// The run ends with `RUN_ERROR`.
    RunError {
        message: String,
        #[serde(default)]
        code: Option<String>,
    },
    /// The request is answered with this HTTP status instead of a stream (the only step).
    HttpError {
        status: u16,
        #[serde(default)]
        body: String,
    },
    /// The connection breaks here. When `resumable`, every event carries an SSE id and the
    /// client's resumption (`Last-Event-ID`) gets the rest of the reply.
    DropStream {
        #[serde(default)]
        resumable: bool,
    },
    Delay {
        ms: u64,
    },
    /// Any AG-UI event, sent as it is.
    Event {
        event: Value,
    },
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

impl Step {
    /// Whether the run is over after this step (nothing may follow it).
    fn ends_run(&self) -> bool {
        matches!(self, Step::Interrupt { .. } | Step::RunError { .. } | Step::HttpError { .. })
    }

    pub(crate) fn is_resumable_drop(&self) -> bool {
        matches!(self, Step::DropStream { resumable: true })
    }
}

impl Script {
    /// Loads a script from its JSON text, checking everything a run would otherwise find late.
    pub fn from_json(text: &str) -> Result<Script, ScriptError> {
        let file: ScriptFile = match serde_json::from_str(text) {
            Ok(file) => file,
            Err(e) => return Err(ScriptError::from_serde(text, e)),
        };
        if file.rules.len() > MAX_RULES {
            return Err(ScriptError::invalid("/rules", format!("{} rules, at most {MAX_RULES}", file.rules.len())));
        }
        let mut rules = Vec::with_capacity(file.rules.len());
        for (i, rule) in file.rules.into_iter().enumerate() {
            rules.push(check_rule(i, rule)?);
        }
        Ok(Script { rules })
    }

    /// The first rule for a user message.
    pub(crate) fn for_user_text(&self, text: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| match &r.when {
            Matcher::UserSays(expected) => expected.trim() == text.trim(),
            Matcher::UserMatches(pattern) => pattern.is_match(text),
            Matcher::ToolResult(_) | Matcher::InterruptAnswered(_) => false,
        })
    }

    /// The first rule for the result of a call to `tool`.
    pub(crate) fn for_tool_result(&self, tool: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| matches!(&r.when, Matcher::ToolResult(name) if name == tool))
    }

    /// The first rule for the answer to an interrupt raised with `reason`.
    pub(crate) fn for_interrupt_answer(&self, reason: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| matches!(&r.when, Matcher::InterruptAnswered(r) if r == reason))
    }
}

fn check_rule(index: usize, rule: RuleFile) -> Result<Rule, ScriptError> {
    let at = |rest: &str| format!("/rules/{index}{rest}");
    let when = match rule.when {
        MatcherFile::UserSays(text) => Matcher::UserSays(text),
        MatcherFile::ToolResult(name) => Matcher::ToolResult(name),
        MatcherFile::InterruptAnswered(reason) => Matcher::InterruptAnswered(reason),
        MatcherFile::UserMatches(pattern) => {
            if pattern.len() > MAX_PATTERN_BYTES {
                return Err(ScriptError::invalid(
                    at("/when/userMatches"),
                    format!("pattern over {MAX_PATTERN_BYTES} bytes"),
                ));
            }
            let regex =
                Regex::new(&pattern).map_err(|e| ScriptError::invalid(at("/when/userMatches"), e.to_string()))?;
            Matcher::UserMatches(regex)
        }
    };
    if rule.reply.len() > MAX_STEPS {
        return Err(ScriptError::invalid(at("/reply"), format!("{} steps, at most {MAX_STEPS}", rule.reply.len())));
    }
    for (j, step) in rule.reply.iter().enumerate() {
        let path = at(&format!("/reply/{j}"));
        if j + 1 < rule.reply.len() && step.ends_run() {
            return Err(ScriptError::invalid(path, "ends the run, so no step may follow it".into()));
        }
        check_step(&path, j, step)?;
    }
    Ok(Rule { when, reply: rule.reply })
}

fn check_step(path: &str, position: usize, step: &Step) -> Result<(), ScriptError> {
    match step {
        Step::Text { chunk_chars: Some(0), .. } => {
            Err(ScriptError::invalid(format!("{path}/chunkChars"), "must be at least 1".into()))
        }
        Step::HttpError { status, .. } if position > 0 => Err(ScriptError::invalid(
            path,
            format!("an HTTP error {status} answers the request instead of a stream, so it must be the only step"),
        )),
        Step::HttpError { status, .. } if !(400..=599).contains(status) => {
            Err(ScriptError::invalid(format!("{path}/status"), format!("{status} is not an HTTP error status")))
        }
        Step::Delay { ms } if *ms > MAX_DELAY_MS => {
            Err(ScriptError::invalid(format!("{path}/ms"), format!("{ms} ms, at most {MAX_DELAY_MS}")))
        }
        Step::Surface { messages } => {
            for (k, message) in messages.iter().enumerate() {
                check_a2ui(&format!("{path}/messages/{k}"), message)?;
            }
            Ok(())
        }
        Step::Event { event } if event.get("type").and_then(Value::as_str).is_none() => {
            Err(ScriptError::invalid(format!("{path}/event"), "an AG-UI event needs a string \"type\"".into()))
        }
        _ => Ok(()),
    }
}

/// The engine's own reading of an A2UI message: its version must be one the engine supports,
/// and the message must parse in it.
fn check_a2ui(path: &str, message: &Value) -> Result<(), ScriptError> {
    use agentui_a2ui::A2uiError;
    match agentui_a2ui::wire::parse_server_message(message.clone()) {
        Ok(_) => Ok(()),
        Err(A2uiError::UnsupportedVersion(version)) => {
            Err(ScriptError::UnsupportedA2uiVersion { path: format!("{path}/version"), version })
        }
        Err(e) => Err(ScriptError::invalid(path.to_owned(), format!("not a valid A2UI message: {e}"))),
    }
}
