//! Human in the loop the way ag-ui-langgraph does it by default (its legacy channel): a `CUSTOM`
//! event named `on_interrupt` whose `value` is the interrupt's value as JSON *text* and whose
//! `rawEvent` is LangGraph's `Interrupt` (`id`, `value`), then `RUN_FINISHED` with no outcome.
//! The answer comes back in `forwardedProps.command.resume`, not in `resume`.

use serde_json::{json, Value};

use super::script;
use crate::input::RunInput;
use crate::script::Step;

/// LangGraph's interrupt id (fixed: the server names it, not the run).
pub(super) const INTERRUPT_ID: &str = "lg-1";

pub(super) fn ask(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let value = json!({"message": "Approve?"});
    s.event(json!({
        "type": "CUSTOM",
        "name": "on_interrupt",
        "value": value.to_string(),
        "rawEvent": {"id": INTERRUPT_ID, "value": value},
    }));
    s.finish_without_outcome()
}

/// `forwardedProps.command.resume`, when the run carries an answer on the legacy channel.
pub(super) fn command_resume(input: &RunInput) -> Option<&Value> {
    input.forwarded_props.as_ref()?.get("command")?.get("resume")
}

/// Quotes the answer back: `Approved: <resume as compact JSON>`.
pub(super) fn resume(input: &RunInput, answer: &Value) -> Vec<Step> {
    let mut s = script(input);
    s.text(&["Approved: ".to_owned(), answer.to_string()]);
    s.finish_without_outcome()
}
