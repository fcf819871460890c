//! Message builders and outcome checks shared by the engine's integration tests.
#![allow(dead_code)]

use agentui_a2ui::catalog::BASIC_CATALOG_ID;
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::Outcome;
use serde_json::{json, Value};

pub fn create(id: &str) -> Value {
    json!({"version": "v0.9", "createSurface": {"surfaceId": id, "catalogId": BASIC_CATALOG_ID}})
}

pub fn components(id: &str, list: Value) -> Value {
    json!({"version": "v0.9", "updateComponents": {"surfaceId": id, "components": list}})
}

pub fn data(id: &str, path: &str, value: Value) -> Value {
    json!({"version": "v0.9", "updateDataModel": {"surfaceId": id, "path": path, "value": value}})
}

/// The `error` members of what the engine sent back.
pub fn errors(outcome: &Outcome) -> Vec<Value> {
    outcome.emitted.iter().map(ClientMessage::to_wire).filter_map(|w| w.get("error").cloned()).collect()
}

pub fn assert_clean(outcome: &Outcome) {
    assert!(errors(outcome).is_empty(), "unexpected errors: {:?}", errors(outcome));
}

/// `value` with every `"version": "v0.9"` member, at any depth, written as `"v0.9.1"`: the
/// v0.9.1 cases and examples are the v0.9 files, while v0.9.1 agents tag their messages
/// `"v0.9.1"`, and the verdicts must not change.
pub fn tagged_v091(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("version", Value::String(s)) if s == "v0.9" => (k.clone(), Value::from("v0.9.1")),
                    _ => (k.clone(), tagged_v091(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(tagged_v091).collect()),
        other => other.clone(),
    }
}
