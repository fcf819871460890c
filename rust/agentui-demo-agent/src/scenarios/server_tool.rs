//! A tool the server runs itself (`get_weather`, never declared by the client): the call, the
//! server's `TOOL_CALL_RESULT`, then text that uses the result.

use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const TOOL: &str = "get_weather";
pub(super) const RESULT: &str = r#"{"city":"Paris","temperatureC":18,"conditions":"sunny"}"#;

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let intro = s.text(&["Let me check ", "the weather in Paris."]);
    let call = s.tool_call(TOOL, &intro, &[r#"{"city":"#, r#""Paris"}"#]);
    s.tool_result(&call, RESULT);
    s.text(&["It is 18 °C ", "and sunny in Paris."]);
    s.finish()
}
