//! Two calls of the same client tool in one step, their events interleaved. The follow-up quotes
//! each result next to the item its call asked for, found by `toolCallId` alone, so a client
//! that pairs results by name or order is caught.

use serde_json::Value;

use super::script;
use crate::input::{InputMessage, InputToolCall, RunInput};
use crate::script::Step;

pub(super) const PRICE_TOOL: &str = "lookup_price";

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    if !input.declares_tool(PRICE_TOOL) {
        s.text(&["The app offers no lookup_price tool, ", "so I cannot compare prices."]);
        return s.finish();
    }
    let intro = s.text(&["Let me look up ", "both prices."]);
    let a = s.next_call_id();
    let b = s.next_call_id();
    s.tool_start(&a, PRICE_TOOL, &intro);
    s.tool_start(&b, PRICE_TOOL, &intro);
    s.tool_args(&b, r#"{"item":"B"}"#);
    s.tool_args(&a, r#"{"item":"A"}"#);
    s.tool_end(&b);
    s.tool_end(&a);
    s.finish_pending(&[a, b])
}

/// `Prices according to the app: A -> <result of A's call>; B -> <result of B's call>`, items
/// in label order.
pub(super) fn answer(calls: &[&InputToolCall], results: &[InputMessage]) -> String {
    let mut pairs: Vec<(String, String)> = calls
        .iter()
        .map(|call| {
            let quoted = match results.iter().find(|r| r.tool_call_id.as_deref() == Some(call.id.as_str())) {
                None => "(no result)".to_owned(),
                Some(result) => match result.tool_failure() {
                    Some(error) => format!("error: {error}"),
                    None => result.text(),
                },
            };
            (item_label(call), quoted)
        })
        .collect();
    pairs.sort();
    let quoted: Vec<String> = pairs.into_iter().map(|(item, result)| format!("{item} -> {result}")).collect();
    format!("Prices according to the app: {}", quoted.join("; "))
}

/// The item a call asked about (its `item` argument), or its id when the arguments say nothing.
fn item_label(call: &InputToolCall) -> String {
    serde_json::from_str::<Value>(&call.function.arguments)
        .ok()
        .and_then(|args| args.get("item").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| call.id.clone())
}
