//! Interrupts the last run ended with, and the answers the next run carries as `resume`.

use agentui_a2ui::schema::SchemaRegistry;
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::message::{Interrupt, ResumeEntry, ResumeStatus};

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

/// Pending interrupts and the answers given so far.
#[derive(Debug, Clone, Default)]
pub struct InterruptBook {
    pending: Vec<Interrupt>,
    answers: Vec<ResumeEntry>,
}

impl InterruptBook {
    pub fn pending(&self) -> &[Interrupt] {
        &self.pending
    }

    pub fn answers(&self) -> &[ResumeEntry] {
        &self.answers
    }

    /// Replace the pending set with what the last run ended with.
    pub fn set_pending(&mut self, interrupts: Vec<Interrupt>) {
        self.pending = interrupts;
        self.answers.retain(|a| self.pending.iter().any(|i| i.id == a.interrupt_id));
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
    pub fn take_resume(&mut self) -> (Vec<ResumeEntry>, Vec<String>) {
        let unanswered = self
            .pending
            .iter()
            .filter(|i| !self.answers.iter().any(|a| a.interrupt_id == i.id))
            .map(|i| i.id.clone())
            .collect();
        self.pending.clear();
        (std::mem::take(&mut self.answers), unanswered)
    }

    /// Put back what [`take_resume`](Self::take_resume) took, when the request never left.
    pub fn restore(&mut self, pending: Vec<Interrupt>, answers: Vec<ResumeEntry>) {
        self.pending = pending;
        self.answers = answers;
    }

    fn find(&self, id: &str) -> Result<&Interrupt, InterruptError> {
        self.pending.iter().find(|i| i.id == id).ok_or_else(|| InterruptError::Unknown(id.to_owned()))
    }

    fn answer(&mut self, entry: ResumeEntry) {
        self.answers.retain(|a| a.interrupt_id != entry.interrupt_id);
        self.answers.push(entry);
    }
}

// An `expiresAt` that is not RFC 3339 cannot be judged; it does not block an answer.
fn is_past(expires_at: &str) -> bool {
    OffsetDateTime::parse(expires_at, &Rfc3339).is_ok_and(|t| t <= OffsetDateTime::now_utc())
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
