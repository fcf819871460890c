//! The v1.0 section of the shared renderer cases (tests/renderer-cases/cases.json, `v1_0`),
//! checked against the nodes the core resolves, with the reading the platforms' players use: a
//! case the core does not meet fails here first, whatever the renderers do.

use agentui_a2ui::{ResolvedNode, SurfaceDiff};
use agentui_runtime::surface_case::surface_from_messages;
use serde_json::Value;

/// A resolved value as the renderers print it: text as it is, a whole number without `.0`.
fn display(value: &Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => Value::from(format!("{}", f as i64)),
            _ => Value::from(n.to_string()),
        },
        other => other.clone(),
    }
}

/// The nodes a case's entry names, in the core's order: by `id`, or every instance of a
/// template's `componentId`.
fn named<'a>(nodes: &'a [&'a ResolvedNode], entries: &[Value]) -> Vec<(&'a ResolvedNode, Value)> {
    let mut by_component: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    entries
        .iter()
        .map(|want| {
            let node = if let Some(id) = want["id"].as_str() {
                nodes.iter().find(|n| n.id.as_ref() == id).unwrap_or_else(|| panic!("no node {id}"))
            } else {
                let component = want["componentId"].as_str().expect("an entry names id or componentId");
                let nth = by_component.entry(component).or_default();
                let node = nodes
                    .iter()
                    .filter(|n| n.component_id.as_ref() == component)
                    .nth(*nth)
                    .unwrap_or_else(|| panic!("no instance {nth} of {component}"));
                *nth += 1;
                node
            };
            (*node, want.clone())
        })
        .collect()
}

#[test]
fn the_shared_v10_renderer_cases_hold_for_the_nodes_the_core_resolves() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/renderer-cases/cases.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = file["v1_0"]["cases"].as_array().expect("a v1_0 section");
    assert!(cases.len() >= 12, "too few cases");
    for case in cases {
        let title = case["name"].as_str().unwrap();
        let messages = case["messages"].as_array().unwrap();
        let SurfaceDiff::Reset { nodes, .. } =
            surface_from_messages(messages).unwrap_or_else(|e| panic!("{title}: {e}"))
        else {
            panic!("{title}: not a reset")
        };
        let nodes: Vec<&ResolvedNode> = nodes.iter().map(AsRef::as_ref).collect();
        for (node, want) in named(&nodes, case["nodes"].as_array().unwrap()) {
            let at = format!("{title}: node {}", node.id);
            for property in ["text", "value"] {
                if let Some(expected) = want.get(property) {
                    assert_eq!(&display(&node.props[property]), expected, "{at}: {property}");
                }
            }
            let accessibility = node.accessibility.clone().unwrap_or_default();
            if let Some(label) = want.get("label") {
                assert_eq!(accessibility.label.map_or(Value::Null, Value::from), *label, "{at}: label");
            }
            if let Some(hidden) = want.get("hidden") {
                assert_eq!(accessibility.hidden.map_or(Value::Null, Value::from), *hidden, "{at}: hidden");
            }
            if let Some(region) = want.get("region") {
                // The platforms' rule (liveRegionMode, LivePoliteness): hidden wins, then polite
                // or assertive, anything else is none.
                let live = accessibility.live.as_deref().filter(|_| accessibility.hidden != Some(true));
                let live = live.filter(|l| matches!(*l, "polite" | "assertive"));
                assert_eq!(live.map_or(Value::Null, Value::from), *region, "{at}: region");
            }
            if let Some(bindings) = want.get("bindings").and_then(Value::as_object) {
                let actual: serde_json::Map<String, Value> =
                    node.bindings.iter().map(|b| (b.property.to_string(), Value::from(b.path.as_ref()))).collect();
                assert_eq!(&actual, bindings, "{at}: bindings");
            }
            if let Some(shown) = want.get("shown") {
                let failing = node.checks.iter().find(|c| !c.passed);
                let actual = failing.map_or(Value::Null, |c| {
                    serde_json::json!({"message": c.message, "isError": c.severity == agentui_a2ui::node::Severity::Error})
                });
                assert_eq!(&actual, shown, "{at}: checks {:?}", node.checks);
            }
        }
    }
}
