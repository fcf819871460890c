//! The events that are not conversation state, in one spec-valid run: `STEP_STARTED`, a `RAW`
//! provider event, a `CUSTOM` progress event, text, then `STEP_FINISHED` before the run closes
//! (a step left open at `RUN_FINISHED` is a protocol violation).

use serde_json::json;

use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const STEP: &str = "research";
pub(super) const CUSTOM_NAME: &str = "progress";
pub(super) const RAW_SOURCE: &str = "demo-agent";

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.event(json!({"type": "STEP_STARTED", "stepName": STEP}));
    s.event(json!({
        "type": "RAW",
        "event": {"kind": "trace", "step": STEP, "detail": "looked up 3 sources"},
        "source": RAW_SOURCE,
    }));
    s.event(json!({"type": "CUSTOM", "name": CUSTOM_NAME, "value": {"percent": 50}}));
    s.text(&["Research step ", "done."]);
    s.event(json!({"type": "STEP_FINISHED", "stepName": STEP}));
    s.finish()
}
