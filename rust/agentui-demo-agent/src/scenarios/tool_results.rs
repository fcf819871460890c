//! The run that continues from tool results the client sent back.

use super::{client_tool, navigation, parallel_tools, script};
use crate::input::{InputToolCall, RunInput};
use crate::script::Step;

pub(super) fn answer(input: &RunInput) -> Vec<Step> {
    let results = input.trailing_tool_results();
    let calls: Vec<&InputToolCall> = input.tool_calls().collect();
    let call_for = |id: &str| calls.iter().rev().find(|c| c.id == id).copied();

    let mut sentences = Vec::new();
    let prices_answered = results
        .iter()
        .filter_map(|r| r.tool_call_id.as_deref().and_then(call_for))
        .any(|c| c.function.name == parallel_tools::PRICE_TOOL);
    // Every price call of the step, so one the client left unanswered shows as well.
    let price_calls: Vec<&InputToolCall> = if prices_answered {
        latest_calls(input).filter(|c| c.function.name == parallel_tools::PRICE_TOOL).collect()
    } else {
        Vec::new()
    };
    if !price_calls.is_empty() {
        sentences.push(parallel_tools::answer(&price_calls, results));
    }
    for result in results {
        let id = result.tool_call_id.as_deref().unwrap_or_default();
        match call_for(id) {
            None => sentences.push(format!("The app sent a result for tool call {id:?}, which I never made.")),
            Some(call) if call.function.name == parallel_tools::PRICE_TOOL => {}
            Some(call) if call.function.name == client_tool::LOCATION_TOOL => {
                sentences.push(client_tool::answer_location(result))
            }
            Some(call) if call.function.name == navigation::NAVIGATE_TOOL => sentences.push(navigation::answer(result)),
            Some(call) => sentences.push(client_tool::answer_other(&call.function.name, result)),
        }
    }
    let mut s = script(input);
    let deltas: Vec<String> =
        sentences.iter().enumerate().map(|(i, t)| if i == 0 { t.clone() } else { format!(" {t}") }).collect();
    s.text(&deltas);
    s.finish()
}

/// The calls of the latest assistant message that made any.
fn latest_calls(input: &RunInput) -> impl Iterator<Item = &InputToolCall> {
    input
        .messages
        .iter()
        .rev()
        .find(|m| m.role == "assistant" && m.tool_calls.as_ref().is_some_and(|c| !c.is_empty()))
        .and_then(|m| m.tool_calls.as_ref())
        .into_iter()
        .flatten()
}
