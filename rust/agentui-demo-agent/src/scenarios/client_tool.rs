//! Tools the client runs: the agent asks, the run ends, and the next run continues from the
//! result the client sent back (never from an assumption that it worked).

use super::script;
use crate::input::{InputMessage, RunInput};
use crate::script::Step;

pub(super) const LOCATION_TOOL: &str = "get_location";
pub(super) const UNREGISTERED_TOOL: &str = "teleport";

/// Calls `get_location` when the client declares it; otherwise says it cannot.
pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    if !input.declares_tool(LOCATION_TOOL) {
        s.text(&[
            "The app offers no get_location tool, ",
            "so I cannot ask it where you are. ",
            "Register get_location and ask again.",
        ]);
        return s.finish();
    }
    let intro = s.text(&["Let me ask the app ", "where you are."]);
    let call = s.tool_call(LOCATION_TOOL, &intro, &[r#"{"precision":"#, r#""city"}"#]);
    s.finish_pending(&[call])
}

/// Calls `teleport` whether or not the client declares it, so tests can check that the client
/// reports a call to a tool nobody registered.
pub(super) fn run_unregistered(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let intro = s.text(&["Let me teleport you ", "to the Moon."]);
    let call = s.tool_call(UNREGISTERED_TOOL, &intro, &[r#"{"destination":"Moon"}"#]);
    s.finish_pending(&[call])
}

/// The sentence answering a `get_location` result: the content quoted verbatim, or the error.
pub(super) fn answer_location(result: &InputMessage) -> String {
    match result.tool_failure() {
        Some(error) => format!("The app reported an error: {error}. I could not get your location."),
        None => format!("Your location according to the app: {}", result.text()),
    }
}

/// The sentence answering the result of any other client tool.
pub(super) fn answer_other(tool: &str, result: &InputMessage) -> String {
    match result.tool_failure() {
        Some(error) => format!("The app reported an error for {tool}: {error}"),
        None => format!("The app ran {tool} and returned: {}", result.text()),
    }
}
