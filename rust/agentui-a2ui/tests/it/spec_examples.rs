//! Every example of the A2UI specification (read from ../shared, never copied) loads without
//! errors and renders from its root.

use crate::common;

use std::path::{Path, PathBuf};

use agentui_a2ui::wire::v09::ClientMessage;
use common::{conformance, group_with_catalogs, json_files, messages_of};
use serde_json::Value;

/// The example's messages with every `"version": "v0.9"` written as `"v0.9.1"`: the v0.9.1
/// examples are the v0.9 files unchanged, while v0.9.1 agents tag their messages `"v0.9.1"`.
fn tagged_v091(messages: Vec<Value>) -> Vec<Value> {
    messages
        .into_iter()
        .map(|mut message| {
            if message["version"] == "v0.9" {
                message["version"] = Value::from("v0.9.1");
            }
            message
        })
        .collect()
}

/// Applies the file and returns a description of every problem found.
fn problems(file: &Path) -> Vec<String> {
    problems_of(messages_of(file), &[])
}

/// Applies `messages` to a group that knows the basic catalog and `catalogs` (catalog JSON files)
/// and returns a description of every problem found.
fn problems_of(messages: Vec<Value>, catalogs: &[PathBuf]) -> Vec<String> {
    let mut group = group_with_catalogs(catalogs);
    let mut problems = Vec::new();
    for message in messages {
        let outcome = group.process_value(&message);
        problems.extend(outcome.emitted.iter().map(|m| ClientMessage::to_wire(m).to_string()));
    }
    problems.extend(group.flush_pending().emitted.iter().map(|m| m.to_wire().to_string()));
    if group.surfaces().count() == 0 {
        problems.push("no surface was created".into());
    }
    for surface in group.surfaces() {
        if !surface.has_root() {
            problems.push(format!("surface {} has no root component {:?}", surface.id(), surface.root_id()));
        } else if surface.node(surface.root_id()).is_none() {
            problems.push(format!("surface {} did not render its root", surface.id()));
        }
    }
    problems
}

fn check_dir(rel: &str, expected_min: usize) {
    check_dir_with(rel, expected_min, problems);
}

fn check_dir_with(rel: &str, expected_min: usize, problems: impl Fn(&Path) -> Vec<String>) {
    let files = json_files(&conformance(rel));
    assert!(files.len() >= expected_min, "{rel}: only {} examples found", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let p = problems(f);
            (!p.is_empty()).then(|| format!("{}: {}", f.file_name().unwrap().to_string_lossy(), p.join("; ")))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} examples failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}

#[test]
fn v09_basic_catalog_examples_render() {
    check_dir("v0_9/catalogs/basic/examples", 36);
}

#[test]
fn v08_basic_catalog_examples_render() {
    check_dir("v0_8/json/catalogs/basic/examples", 30);
}

#[test]
fn v08_minimal_catalog_examples_render() {
    check_dir("v0_8/json/catalogs/minimal/examples", 5);
}

#[test]
fn v091_basic_catalog_examples_render() {
    check_dir("v0_9_1/catalogs/basic/examples", 36);
    check_dir_with("v0_9_1/catalogs/basic/examples", 36, |f| problems_of(tagged_v091(messages_of(f)), &[]));
}

/// The minimal catalog is not built in: it loads from the spec's catalog.json like any custom
/// catalog an app registers.
#[test]
fn v091_minimal_catalog_examples_render() {
    let minimal = vec![conformance("v0_9_1/catalogs/minimal/catalog.json")];
    check_dir_with("v0_9_1/catalogs/minimal/examples", 7, |f| problems_of(messages_of(f), &minimal));
    check_dir_with("v0_9_1/catalogs/minimal/examples", 7, |f| problems_of(tagged_v091(messages_of(f)), &minimal));
}

/// The v1.0 examples (the August 2026 layer of the pack: bare `path` / `call`, `"version": "v1.0"`)
/// and the two later copies under catalogs/basic/v1.
const V10_EXAMPLES: [(&str, usize); 2] =
    [("v1_0/specification/v1_0/catalogs/basic/examples", 29), ("v1_0/catalogs/basic/v1/examples", 2)];

#[test]
fn v10_basic_catalog_examples_render() {
    for (dir, count) in V10_EXAMPLES {
        check_dir(dir, count);
    }
}

/// The same examples as the live spec writes them: `"version": "1.0"`.
#[test]
fn v10_basic_catalog_examples_render_with_the_live_version_string() {
    for (dir, count) in V10_EXAMPLES {
        check_dir_with(dir, count, |f| problems_of(messages_of(f).into_iter().map(live_version).collect(), &[]));
    }
}

/// The same examples in the newer layer's form: every binding `{"@path": …}` and every function
/// call `{"@call": …}` inside components (child list templates keep their bare `path`, as in every
/// stored source; data-model values are data and are left alone).
#[test]
fn v10_basic_catalog_examples_render_with_reserved_at_keys() {
    let rewritten = std::cell::Cell::new(0);
    for (dir, count) in V10_EXAMPLES {
        check_dir_with(dir, count, |f| {
            let before = messages_of(f);
            let after: Vec<Value> = before.iter().map(with_at_keys).collect();
            if after != before {
                rewritten.set(rewritten.get() + 1);
            }
            problems_of(after, &[])
        });
    }
    // Most examples bind data; if none were rewritten the test would prove nothing.
    assert!(rewritten.get() >= 20, "only {} examples had bindings or calls to rewrite", rewritten.get());
}

fn live_version(mut message: Value) -> Value {
    assert_eq!(message["version"], "v1.0");
    message["version"] = Value::from("1.0");
    message
}

/// A message with the bindings and calls of its components written with `@` keys.
fn with_at_keys(message: &Value) -> Value {
    let mut message = message.clone();
    for key in ["createSurface", "updateComponents"] {
        if let Some(Value::Array(components)) = message.get_mut(key).and_then(|b| b.get_mut("components")) {
            for component in components {
                *component = at_keys(component);
            }
        }
    }
    message
}

fn at_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let is_binding = map.len() == 1 && map.get("path").is_some_and(Value::is_string);
            let is_call = map.get("call").is_some_and(Value::is_string);
            map.iter()
                .map(|(k, v)| match k.as_str() {
                    "path" if is_binding => ("@path".to_owned(), v.clone()),
                    "call" if is_call => ("@call".to_owned(), v.clone()),
                    _ => (k.clone(), at_keys(v)),
                })
                .collect()
        }
        Value::Array(items) => Value::Array(items.iter().map(at_keys).collect()),
        other => other.clone(),
    }
}
