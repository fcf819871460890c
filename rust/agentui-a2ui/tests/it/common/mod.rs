//! Message builders and outcome checks shared by the engine's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use agentui_a2ui::catalog::{Catalog, BASIC_CATALOG_ID};
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::{Outcome, SurfaceGroup};
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

/// A file or directory of the A2UI specification's conformance material, read from ../shared
/// (never copied into the repository).
pub fn conformance(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/a2ui").join(rel)
}

/// The `.json` files of `dir`, sorted.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The messages of an example: a bare array, or an object's `messages`.
pub fn messages_of(file: &Path) -> Vec<Value> {
    let value: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    match value {
        Value::Array(items) => items,
        Value::Object(mut obj) => match obj.remove("messages") {
            Some(Value::Array(items)) => items,
            _ => panic!("{}: no messages", file.display()),
        },
        _ => panic!("{}: unexpected shape", file.display()),
    }
}

/// A group that knows the basic catalog and `catalogs` (catalog JSON files).
pub fn group_with_catalogs(catalogs: &[PathBuf]) -> SurfaceGroup {
    let mut group = SurfaceGroup::default();
    for path in catalogs {
        let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let catalog = Catalog::from_json(&json).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        group.catalogs_mut().register(Arc::new(catalog));
    }
    group
}
