//! The scripted behaviours, and how a request picks one.
//!
//! A request is first checked for a follow-up (an interrupt being resumed, in `resume` or in
//! `forwardedProps.command.resume`, an A2UI `callAgentFunction` or action, tool results at the end of the
//! conversation); otherwise the scenario named by the path runs, or on plain `/agent` the first
//! scenario whose keyword appears in the latest user message, or chat.

mod a2ui;
mod booking_form;
mod chat;
mod client_tool;
pub mod custom_catalog;
mod error;
mod interrupt;
mod legacy_interrupt;
pub mod media;
mod navigation;
mod parallel_tools;
mod receipt;
mod server_tool;
mod signup;
mod slow;
mod state;
mod steps;
mod tool_results;

use crate::input::RunInput;
use crate::script::{Script, Step};

/// A scenario the demo agent can play, for listings (`agentui demo`, help texts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScenarioInfo {
    /// Served at `POST /agent/<name>`.
    pub name: &'static str,
    /// Selects the scenario on `POST /agent` when the latest user message contains it
    /// (case-insensitive; the first match in [`SCENARIOS`] order wins, chat is the default).
    pub keyword: Option<&'static str>,
    pub summary: &'static str,
}

/// Every scenario, keyword ones first in matching order.
pub const SCENARIOS: &[ScenarioInfo] = &[
    info("interrupt", Some("delete"), "asks for confirmation: RUN_FINISHED with an interrupt outcome"),
    info("error", Some("fail"), "some text, then RUN_ERROR mid-stream"),
    info("slow", Some("slow"), "50 text deltas, slow_delay apart (for cancellation)"),
    info("parallel-tools", Some("compare"), "two interleaved lookup_price client calls; the follow-up pairs by id"),
    info("client-tool", Some("location"), "calls the client's get_location tool; the follow-up quotes the result"),
    info("navigation", Some("open"), "calls the client's navigate_to tool with the screen named after \"open\""),
    info("server-tool", Some("weather"), "runs get_weather on the server: call, result, then text"),
    info("a2ui", Some("book"), "an A2UI v0.9 booking form in ACTIVITY_SNAPSHOT; the book action is answered"),
    info(
        "a2ui-v10",
        Some("sign up"),
        "an A2UI v1.0 sign-up card (inline createSurface, @path/@call, placeholder, email check, slider steps, live, hidden, video poster); the sign_up action is answered (its metadata quoted), callAgentFunction checkEmail too",
    ),
    info(
        "receipt",
        Some("receipt"),
        "an A2UI receipt of raw values (amount, UTC instant, calendar date, count) formatted in the app's locale and time zone",
    ),
    info(
        "custom-catalog",
        Some("loyalty"),
        "a surface in the app's own catalog (LoyaltyBadge) whose points text is the app's formatPoints function; text only when the client did not advertise that catalog",
    ),
    info("picture", Some("picture"), "a server tool whose TOOL_CALL_RESULT carries a text part and an inline PNG image"),
    info("state", Some("counter"), "STATE_SNAPSHOT then RFC 6902 STATE_DELTA increments"),
    info("steps", Some("steps"), "STEP_STARTED, a RAW event, a CUSTOM \"progress\" event, text, STEP_FINISHED"),
    info(
        "approve-legacy",
        Some("legacy"),
        "LangGraph-style CUSTOM on_interrupt, RUN_FINISHED without outcome; forwardedProps.command.resume is quoted back",
    ),
    info("chat", Some("hello"), "streamed assistant text (the default)"),
    info("unregistered-tool", None, "calls teleport, a tool the client did not declare"),
    info("a2ui-tool-result", None, "the booking form as a TOOL_CALL_RESULT carrying a2ui_operations"),
    info("a2ui-v08", None, "the booking form as A2UI v0.8 operations appended by ACTIVITY_DELTA"),
    info("bad-delta", None, "a STATE_DELTA that cannot apply (the client keeps its state)"),
    info("expired-interrupt", None, "an interrupt whose expiresAt is in the past"),
];

const fn info(name: &'static str, keyword: Option<&'static str>, summary: &'static str) -> ScenarioInfo {
    ScenarioInfo { name, keyword, summary }
}

/// Whether `name` is a scenario path.
pub(crate) fn is_scenario(name: &str) -> bool {
    SCENARIOS.iter().any(|s| s.name == name)
}

/// The scenario a plain `/agent` request runs.
pub(crate) fn by_keyword(input: &RunInput) -> &'static str {
    let text = input.latest_user_text().unwrap_or_default().to_lowercase();
    SCENARIOS.iter().find(|s| s.keyword.is_some_and(|k| text.contains(k))).map_or("chat", |s| s.name)
}

/// The steps of the run `input` asks for. `scenario` is the path's scenario name, if any
/// (callers check it with [`is_scenario`]).
pub(crate) fn steps_for(scenario: Option<&str>, input: &RunInput) -> Vec<Step> {
    if let Some(steps) = follow_up(input) {
        return steps;
    }
    match scenario.unwrap_or_else(|| by_keyword(input)) {
        "interrupt" => interrupt::ask(input, false),
        "expired-interrupt" => interrupt::ask(input, true),
        "error" => error::run(input),
        "slow" => slow::run(input),
        "parallel-tools" => parallel_tools::run(input),
        "client-tool" => client_tool::run(input),
        "navigation" => navigation::run(input),
        "unregistered-tool" => client_tool::run_unregistered(input),
        "server-tool" => server_tool::run(input),
        "a2ui" => a2ui::run_activity(input),
        "a2ui-tool-result" => a2ui::run_tool_result(input),
        "a2ui-v08" => a2ui::run_v08(input),
        "a2ui-v10" => signup::run(input),
        "receipt" => receipt::run(input),
        "custom-catalog" => custom_catalog::run(input),
        "state" => state::run(input),
        "bad-delta" => state::run_bad_delta(input),
        "steps" => steps::run(input),
        "approve-legacy" => legacy_interrupt::ask(input),
        "picture" => media::picture(input),
        _ => match media::describe_received(input) {
            // A message with attachments is answered with what arrived (chat's place).
            Some(lines) => media::received(input, &lines),
            None => chat::run(input),
        },
    }
}

fn follow_up(input: &RunInput) -> Option<Vec<Step>> {
    if input.resume.as_ref().is_some_and(|r| !r.is_empty()) {
        return Some(interrupt::resume(input));
    }
    if let Some(answer) = legacy_interrupt::command_resume(input) {
        return Some(legacy_interrupt::resume(input, answer));
    }
    if let Some(call) = signup::agent_function_call(input) {
        return Some(signup::answer_function(input, call));
    }
    if let Some(action) = a2ui::submitted_action(input) {
        if action.name == signup::ACTION {
            return Some(signup::answer(input, &action));
        }
        return Some(a2ui::answer_action(input, &action));
    }
    if !input.trailing_tool_results().is_empty() {
        return Some(tool_results::answer(input));
    }
    None
}

fn script(input: &RunInput) -> Script {
    Script::start(&input.thread_id, &input.run_id)
}
