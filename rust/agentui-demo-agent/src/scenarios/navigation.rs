//! The app's `navigate_to` client tool: the agent asks the app to show a screen and answers
//! from what the app reports, so a failed navigation is never described as done.

use super::script;
use crate::input::{InputMessage, RunInput};
use crate::script::Step;

pub(super) const NAVIGATE_TOOL: &str = "navigate_to";

/// Screen names are one word after "open" ("open settings"); "open" alone asks for settings.
fn requested_screen(input: &RunInput) -> String {
    let text = input.latest_user_text().unwrap_or_default().to_lowercase();
    let after = text.split_once("open").map_or("", |(_, rest)| rest);
    after
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .find(|word| !word.is_empty() && !matches!(*word, "the" | "my" | "a" | "screen" | "page"))
        .unwrap_or("settings")
        .to_owned()
}

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    if !input.declares_tool(NAVIGATE_TOOL) {
        s.text(&["The app offers no navigate_to tool, ", "so I cannot change its screen."]);
        return s.finish();
    }
    let screen = requested_screen(input);
    let intro = s.text(&["Opening ", &screen, " in the app."]);
    let arguments = serde_json::json!({ "screen": screen }).to_string();
    let call = s.tool_call(NAVIGATE_TOOL, &intro, &[&arguments]);
    s.finish_pending(&[call])
}

/// The sentence answering a `navigate_to` result: done only when the app says so.
pub(super) fn answer(result: &InputMessage) -> String {
    if let Some(error) = result.tool_failure() {
        return format!("The app could not navigate: {error}");
    }
    let reported: serde_json::Value = serde_json::from_str(&result.text()).unwrap_or_default();
    match (reported["navigated"].as_bool(), reported["screen"].as_str()) {
        (Some(true), Some(screen)) => format!("Done: the app now shows {screen}."),
        _ => format!("The app did not confirm the navigation (it returned {}).", result.text()),
    }
}
