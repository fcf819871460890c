//! Interrupts the last run ended with, and the answers the next run carries as `resume`.
//!
//! Two channels exist in the wild. The AG-UI one: `RUN_FINISHED.outcome` lists the interrupts
//! and the next run answers in `RunAgentInput.resume`. The legacy LangGraph one (ag-ui-langgraph's
//! default): a `CUSTOM` event named `on_interrupt` carries the interrupt's value, the run finishes
//! with no outcome, and the next run answers in `forwardedProps.command.resume`. The book keeps
//! which channel each interrupt came on, so each is answered the way its server reads it.

use std::collections::HashSet;

use agentui_a2ui::schema::SchemaRegistry;
use serde_json::{Map, Value};

use agentui_agui::message::{Interrupt, ResumeEntry, ResumeStatus};

/// Why an interrupt could not be answered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterruptError {
    #[error("no pending interrupt has id '{0}'")]
    Unknown(String),
    #[error("interrupt '{id}' expired at {expires_at}")]
    Expired { id: String, expires_at: String },
    #[error("the payload for interrupt '{id}' does not match its response schema: {detail}")]
    InvalidPayload { id: String, detail: String },
}

/// The `CUSTOM` event name ag-ui-langgraph uses for an interrupt on its legacy channel.
pub const LEGACY_INTERRUPT_EVENT: &str = "on_interrupt";

/// The interrupt a legacy `on_interrupt` event stands for. `value` is the event's value (a JSON
/// text on the wire, decoded here when it parses), `raw_event` its `rawEvent` (LangGraph's
/// `Interrupt`, whose `id` the server matches answers against); `ordinal` numbers the
/// interrupts of one run for an id when the server sent none.
pub fn legacy_interrupt(value: &Value, raw_event: Option<&Value>, ordinal: usize) -> Interrupt {
    let value = match value {
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| value.clone()),
        other => other.clone(),
    };
    let id = raw_event
        .and_then(|r| r.get("id"))
        .and_then(Value::as_str)
        .map_or_else(|| format!("{LEGACY_INTERRUPT_EVENT}-{ordinal}"), str::to_owned);
    let field = |names: &[&str]| names.iter().find_map(|n| value.get(*n)).cloned();
    let text = |v: Option<Value>| v.and_then(|v| v.as_str().map(str::to_owned));
    let mut metadata = Map::new();
    metadata.insert("channel".to_owned(), Value::String(LEGACY_INTERRUPT_EVENT.to_owned()));
    metadata.insert("value".to_owned(), value.clone());
    Interrupt {
        id,
        reason: text(field(&["reason"])).unwrap_or_else(|| "langgraph:interrupt".to_owned()),
        message: value.as_str().map(str::to_owned).or_else(|| text(field(&["message", "question"]))),
        tool_call_id: text(field(&["toolCallId", "tool_call_id"])),
        response_schema: field(&["responseSchema", "response_schema"]).and_then(|v| v.as_object().cloned()),
        expires_at: text(field(&["expiresAt", "expires_at"])),
        metadata: Some(metadata),
        subagent_run_id: None,
    }
}

/// What the next run carries for the interrupts answered so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResumeAnswers {
    /// Answers to AG-UI interrupts, for `RunAgentInput.resume`.
    pub entries: Vec<ResumeEntry>,
    /// The answer to legacy `on_interrupt` interrupts, for `forwardedProps.command.resume`: the
    /// payload itself for one interrupt, a map from interrupt id to payload for several.
    pub command_resume: Option<Value>,
    /// Pending interrupts nobody answered.
    pub unanswered: Vec<String>,
}

/// Pending interrupts and the answers given so far.
#[derive(Debug, Clone, Default)]
pub struct InterruptBook {
    pending: Vec<Interrupt>,
    /// Ids of pending interrupts that came on the legacy `on_interrupt` channel.
    legacy: HashSet<String>,
    answers: Vec<ResumeEntry>,
}

impl InterruptBook {
    pub fn pending(&self) -> &[Interrupt] {
        &self.pending
    }

    pub fn answers(&self) -> &[ResumeEntry] {
        &self.answers
    }

    /// Replace the pending set with what the last run ended with. `legacy` are interrupts that
    /// came as `on_interrupt` events; they count only when the run ended with no AG-UI
    /// interrupt outcome (a server on both channels announces each interrupt twice).
    pub fn set_pending(&mut self, interrupts: Vec<Interrupt>, legacy: Vec<Interrupt>) {
        self.legacy.clear();
        if interrupts.is_empty() && !legacy.is_empty() {
            self.legacy = legacy.iter().map(|i| i.id.clone()).collect();
            self.pending = legacy;
        } else {
            self.pending = interrupts;
        }
        self.answers.retain(|a| self.pending.iter().any(|i| i.id == a.interrupt_id));
    }

    /// Whether interrupt `id` came on the legacy `on_interrupt` channel.
    pub fn is_legacy(&self, id: &str) -> bool {
        self.legacy.contains(id)
    }

    /// Answer `id` with `payload`. Refused if the interrupt expired or the payload does not
    /// satisfy its `responseSchema`. A second answer replaces the first.
    pub fn resolve(&mut self, id: &str, payload: Option<Value>) -> Result<(), InterruptError> {
        let interrupt = self.find(id)?;
        if let Some(expires_at) = &interrupt.expires_at {
            if is_past(expires_at) {
                return Err(InterruptError::Expired { id: id.to_owned(), expires_at: expires_at.clone() });
            }
        }
        if let (Some(schema), Some(p)) = (&interrupt.response_schema, &payload) {
            check_payload(id, schema, p)?;
        }
        self.answer(ResumeEntry {
            interrupt_id: id.to_owned(),
            status: ResumeStatus::Resolved,
            payload,
            metadata: None,
        });
        Ok(())
    }

    /// Abandon `id`; allowed even after it expired.
    pub fn cancel(&mut self, id: &str) -> Result<(), InterruptError> {
        self.find(id)?;
        self.answer(ResumeEntry {
            interrupt_id: id.to_owned(),
            status: ResumeStatus::Cancelled,
            payload: None,
            metadata: None,
        });
        Ok(())
    }

    /// The answers for the next run, and the ids left unanswered. The book is emptied: the run
    /// that carries them decides what is pending next.
    pub fn take_resume(&mut self) -> ResumeAnswers {
        let unanswered = self
            .pending
            .iter()
            .filter(|i| !self.answers.iter().any(|a| a.interrupt_id == i.id))
            .map(|i| i.id.clone())
            .collect();
        self.pending.clear();
        let legacy = std::mem::take(&mut self.legacy);
        let (legacy_answers, entries): (Vec<ResumeEntry>, Vec<ResumeEntry>) =
            std::mem::take(&mut self.answers).into_iter().partition(|a| legacy.contains(&a.interrupt_id));
        // The legacy channel has no "cancelled": a cancelled one is simply not resumed.
        let resolved: Vec<(String, Value)> = legacy_answers
            .into_iter()
            .filter(|a| a.status == ResumeStatus::Resolved)
            .map(|a| (a.interrupt_id, a.payload.unwrap_or(Value::Bool(true))))
            .collect();
        let command_resume = match resolved.len() {
            0 => None,
            1 => resolved.into_iter().next().map(|(_, v)| v),
            _ => Some(Value::Object(resolved.into_iter().collect())),
        };
        ResumeAnswers { entries, command_resume, unanswered }
    }

    /// Put back what [`take_resume`](Self::take_resume) took, when the request never left.
    pub fn restore(&mut self, before: InterruptBook) {
        *self = before;
    }

    fn find(&self, id: &str) -> Result<&Interrupt, InterruptError> {
        self.pending.iter().find(|i| i.id == id).ok_or_else(|| InterruptError::Unknown(id.to_owned()))
    }

    fn answer(&mut self, entry: ResumeEntry) {
        self.answers.retain(|a| a.interrupt_id != entry.interrupt_id);
        self.answers.push(entry);
    }
}

// An `expiresAt` that is not an RFC 3339 instant cannot be judged; it does not block an answer.
fn is_past(expires_at: &str) -> bool {
    expires_at.parse::<jiff::Timestamp>().is_ok_and(|t| t <= jiff::Timestamp::now())
}

fn check_payload(id: &str, schema: &serde_json::Map<String, Value>, payload: &Value) -> Result<(), InterruptError> {
    let mut schemas = SchemaRegistry::new();
    schemas.add_document("response.json", Value::Object(schema.clone()));
    // A schema the agent sent that does not compile cannot be enforced; the payload goes as is.
    let Ok(compiled) = schemas.compile("response.json") else { return Ok(()) };
    let errors = compiled.validate(payload);
    match errors.first() {
        None => Ok(()),
        Some(e) => Err(InterruptError::InvalidPayload {
            id: id.to_owned(),
            detail: format!("{}: {}", if e.instance_path.is_empty() { "/" } else { &e.instance_path }, e.message),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::is_past;

    #[test]
    fn expiry_is_judged_on_rfc_3339_instants_only() {
        assert!(is_past("2001-01-01T00:00:00Z"));
        assert!(is_past("2001-01-01T02:00:00.5+02:00"));
        assert!(is_past("2001-01-01t00:00:00z"), "RFC 3339 allows lower case T and Z");
        assert!(!is_past("2999-01-01T00:00:00Z"));
        // No offset, or not a date: cannot be judged, so it does not expire the interrupt.
        assert!(!is_past("2001-01-01T00:00:00"));
        assert!(!is_past("yesterday"));
    }
}
