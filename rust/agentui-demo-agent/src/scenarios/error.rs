//! A run that fails after it has started streaming: the text message is left open and the run
//! ends with `RUN_ERROR`.

use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const ERROR_CODE: &str = "DEMO_FAILURE";

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let id = s.open_text();
    s.text_delta(&id, "Let me try that… ");
    s.text_delta(&id, "working on it");
    s.fail("The demo agent failed on purpose (you asked it to fail).", ERROR_CODE)
}
