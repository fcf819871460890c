//! The engine's two benchmark workloads as one process to count instructions with
//! (`valgrind --tool=cachegrind --cache-sim=no`, which does not move with the machine's load):
//!
//! ```sh
//! cargo build --release -p agentui-a2ui --example bench_workload
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/bench_workload v0.9 1 0
//! ```
//!
//! Arguments: the version the workload is written in (`v0.9` as stored in ../shared/bench, or
//! `v1.0`, the same surface rewritten the way a v1.0 agent writes it), how many times to build
//! the 10k-item surface, and how many one-path updates to apply to it afterwards. Run it with 0
//! builds and 0 updates too, and subtract: what is left is the work itself.

use std::path::Path;

use agentui_a2ui::SurfaceGroup;
use serde_json::{json, Map, Value};

/// The basic catalog v1's id (spelled out, so this file also builds against engines without it).
const BASIC_V1: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn workload(name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut value: Value = serde_json::from_str(&text).unwrap();
    match value.get_mut("messages").map(Value::take) {
        Some(Value::Array(messages)) => messages,
        _ => panic!("{name}: no messages"),
    }
}

/// A v0.9 message as a v1.0 agent writes it: `"version": "v1.0"`, the basic catalog v1, `@path`
/// and `@call`, and the one heading variant (gone in v1) as Markdown.
fn as_v10(mut message: Value) -> Value {
    message["version"] = Value::from("v1.0");
    if let Some(create) = message.get_mut("createSurface") {
        create["catalogId"] = Value::from(BASIC_V1);
        create.as_object_mut().map(|c| c.remove("sendDataModel"));
    }
    if let Some(Value::Array(components)) = message.get_mut("updateComponents").and_then(|u| u.get_mut("components")) {
        for component in components {
            if component["variant"] == "h2" {
                component.as_object_mut().map(|c| c.remove("variant"));
                component["text"] = Value::from(format!("## {}", component["text"].as_str().unwrap_or_default()));
            }
            *component = at_keys(component.take());
        }
    }
    message
}

fn at_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let binding = map.len() == 1 && map.get("path").is_some_and(Value::is_string);
            let call = map.get("call").is_some_and(Value::is_string);
            let out: Map<String, Value> = map
                .into_iter()
                .map(|(k, v)| match k.as_str() {
                    "path" if binding => ("@path".to_owned(), v),
                    "call" if call => ("@call".to_owned(), v),
                    _ => (k, at_keys(v)),
                })
                .collect();
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(at_keys).collect()),
        other => other,
    }
}

fn build(messages: Vec<Value>) -> SurfaceGroup {
    let mut group = SurfaceGroup::default();
    for m in messages {
        let outcome = group.process_owned(m);
        assert!(outcome.emitted.is_empty(), "{:?}", outcome.emitted.first().map(|e| e.to_wire()));
    }
    group
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, version, builds, updates] = args.as_slice() else {
        eprintln!("usage: bench_workload v0.9|v1.0 BUILDS UPDATES");
        std::process::exit(2);
    };
    let v1 = match version.as_str() {
        "v0.9" => false,
        "v1.0" => true,
        other => panic!("unknown version {other}"),
    };
    let builds: usize = builds.parse().expect("BUILDS is a number");
    let updates: usize = updates.parse().expect("UPDATES is a number");
    let written = |messages: Vec<Value>| -> Vec<Value> {
        if v1 {
            messages.into_iter().map(as_v10).collect()
        } else {
            messages
        }
    };
    let surface = written(workload("a2ui-list-k10000.json"));
    let changes = written(workload("a2ui-list-updates.json"));
    let mut nodes = 0;
    for _ in 0..builds {
        let group = build(surface.clone());
        nodes += group.surface("bench-list").map_or(0, |s| s.node_count());
        std::hint::black_box(&group);
    }
    if updates > 0 {
        let mut group = build(surface.clone());
        for change in changes.iter().cycle().take(updates) {
            let outcome = group.process_owned(change.clone());
            assert!(outcome.emitted.is_empty());
            std::hint::black_box(&outcome);
        }
    }
    println!("{}", json!({"version": version, "builds": builds, "updates": updates, "nodes": nodes}));
}
