//! Shared state: a snapshot, then RFC 6902 deltas against it.

use serde_json::json;

use super::script;
use crate::input::RunInput;
use crate::script::Step;

/// `{"counter": 0, "items": []}`, then three deltas, each adding one to the counter and one item.
pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.event(json!({"type": "STATE_SNAPSHOT", "snapshot": {"counter": 0, "items": []}}));
    for n in 1..=3 {
        s.event(json!({"type": "STATE_DELTA", "delta": [
            {"op": "test", "path": "/counter", "value": n - 1},
            {"op": "replace", "path": "/counter", "value": n},
            {"op": "add", "path": "/items/-", "value": format!("item {n}")},
        ]}));
    }
    s.text(&["The counter is now 3 ", "and the list holds three items."]);
    s.finish()
}

/// A good delta (counter 1), then one that cannot apply (it replaces a path that does not
/// exist). The client must keep `{"counter": 1, "items": []}` and say so.
pub(super) fn run_bad_delta(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.event(json!({"type": "STATE_SNAPSHOT", "snapshot": {"counter": 0, "items": []}}));
    s.event(json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/counter", "value": 1}]}));
    s.event(json!({"type": "STATE_DELTA", "delta": [
        {"op": "replace", "path": "/counter", "value": 2},
        {"op": "replace", "path": "/missing/counter", "value": 99},
    ]}));
    s.text(&["I just sent a patch that cannot apply; ", "your state should still say counter 1."]);
    s.finish()
}
