//! Human in the loop: the run stops with an interrupt outcome, and the next run carries the
//! answer in `resume`.
//!
//! The interrupt's subject travels in `metadata` (`{"file": "report.pdf"}`): AG-UI 1.1
//! interrupts have no `payload` member. Ids are `int-<runId>-1`, or `int-<runId>-expired` for
//! the expired variant so the (stateless) follow-up can tell them apart.

use serde_json::{json, Value};

use super::script;
use crate::input::{ResumeEntry, RunInput};
use crate::script::Step;

pub(super) const REASON: &str = "confirm_delete";
pub(super) const FILE: &str = "report.pdf";
/// Far enough ahead that no test outlives it.
pub(super) const FUTURE_EXPIRY: &str = "2099-12-31T23:59:59Z";
pub(super) const PAST_EXPIRY: &str = "2000-01-01T00:00:00Z";

pub(super) fn ask(input: &RunInput, expired: bool) -> Vec<Step> {
    let mut s = script(input);
    let (id, expires_at) = if expired {
        (format!("int-{}-expired", s.run_id()), PAST_EXPIRY)
    } else {
        (format!("int-{}-1", s.run_id()), FUTURE_EXPIRY)
    };
    s.text(&["I need your confirmation ", "before I delete report.pdf."]);
    s.finish_interrupted(vec![json!({
        "id": id,
        "reason": REASON,
        "message": "Delete report.pdf?",
        "responseSchema": {
            "type": "object",
            "properties": {"approved": {"type": "boolean"}},
            "required": ["approved"],
        },
        "expiresAt": expires_at,
        "metadata": {"file": FILE},
    })])
}

/// Answers every resume entry: resolved (and not `{"approved": false}`) deletes, anything else
/// keeps the file.
pub(super) fn resume(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let sentences: Vec<String> = input.resume.iter().flatten().map(answer).collect();
    let deltas: Vec<String> =
        sentences.iter().enumerate().map(|(i, t)| if i == 0 { t.clone() } else { format!(" {t}") }).collect();
    s.text(&deltas);
    s.finish()
}

fn answer(entry: &ResumeEntry) -> String {
    let id = &entry.interrupt_id;
    if !id.starts_with("int-") {
        return format!("I was not waiting on {id:?}; nothing was deleted.");
    }
    if id.ends_with("-expired") {
        return format!("That confirmation had expired, so I kept {FILE}.");
    }
    let approved = entry.payload.as_ref().and_then(|p| p.get("approved")).and_then(Value::as_bool) != Some(false);
    match entry.status.as_str() {
        "resolved" if approved => format!("Deleted {FILE}."),
        _ => format!("Kept {FILE}."),
    }
}
