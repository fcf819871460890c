//! Action `data_model`: JSON Pointer reads and writes on a surface's data model, and which watched paths fire.

use super::*;

/// The watched paths of a data-model case become Text components bound to them, so an
/// observer "fires" exactly when the engine re-resolves the node that reads the path.
pub(super) fn data_model(case: &Value) -> Result<(), String> {
    let version = "v0.9";
    let mut group = group_for(version)?;
    let watch: Vec<String> = case["watch"]
        .as_array()
        .map_or_else(Vec::new, |w| w.iter().filter_map(Value::as_str).map(str::to_owned).collect());
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (0..watch.len()).map(|i| format!("w{i}")).collect::<Vec<_>>()})];
    for (i, path) in watch.iter().enumerate() {
        components.push(json!({"id": format!("w{i}"), "component": "Text", "text": {"path": path}}));
    }
    let messages = [
        json!({"version": version, "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": version, "updateDataModel": {"surfaceId": "s", "value": case.get("initial").cloned().unwrap_or(json!({}))}}),
        json!({"version": version, "updateComponents": {"surfaceId": "s", "components": components}}),
    ];
    for message in &messages {
        let outcome = group.process_value(message);
        if let Some(error) = outcome.emitted.first() {
            return Err(format!("setting up: {}", error.to_wire()));
        }
    }
    // After `dispose` no observer is attached, so none fires.
    let mut disposed = false;
    for (index, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let at = |what: String| format!("step {index}: {what}");
        let path = step["path"].as_str().unwrap_or("/");
        let write = match step["op"].as_str() {
            Some("get") => {
                let data = group.surface("s").map(|s| s.data_model().clone()).unwrap_or_default();
                let found = read_pointer(&data, path);
                check_get(step, found).map_err(at)?;
                continue;
            }
            Some("set") => group.set_value("s", path, step["value"].clone()),
            Some("delete") => group.set_value("s", path, Value::Null),
            // Detaching every observer: nothing is watched any more.
            Some("dispose") => {
                disposed = true;
                Ok(agentui_a2ui::Outcome::default())
            }
            other => return Err(at(format!("unknown op {other:?}"))),
        };
        match (write, step.get("expect_error")) {
            (Ok(_), Some(expected)) => return Err(at(format!("expected an error {expected}, the write succeeded"))),
            (Err(_), Some(_)) => {}
            (Err(e), None) => return Err(at(format!("unexpected error: {e}"))),
            (Ok(outcome), None) => {
                if let Some(expected) = step.get("expect_notified") {
                    let mut fired: Vec<String> = Vec::new();
                    for event in &outcome.events {
                        if let agentui_a2ui::SurfaceEvent::Changed { diff, .. } = event {
                            let ids = changed_ids(diff);
                            for (i, path) in watch.iter().enumerate() {
                                if !disposed && ids.contains(&format!("w{i}")) {
                                    fired.push(path.clone());
                                }
                            }
                        }
                    }
                    let mut expected: Vec<String> = expected
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|p| p.as_str().map(str::to_owned))
                        .collect();
                    fired.sort();
                    expected.sort();
                    if fired != expected {
                        return Err(at(format!("observers fired for {fired:?}, expected {expected:?}")));
                    }
                }
                if let Some(Value::Object(values)) = step.get("expect_values") {
                    let data = group.surface("s").map(|s| s.data_model().clone()).unwrap_or_default();
                    for (path, expected) in values {
                        let found = read_pointer(&data, path);
                        if found.as_ref() != Some(expected) {
                            return Err(at(format!("{path} holds {found:?}, expected {expected}")));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn changed_ids(diff: &agentui_a2ui::SurfaceDiff) -> Vec<String> {
    let nodes = match diff {
        agentui_a2ui::SurfaceDiff::Reset { nodes, .. } => nodes,
        agentui_a2ui::SurfaceDiff::Patch { upserted, .. } => upserted,
    };
    nodes.iter().map(|node| node.id.to_string()).collect()
}

/// A JSON Pointer read that treats a trailing `/` as no segment (`/foo/` is `/foo`).
fn read_pointer(data: &Value, path: &str) -> Option<Value> {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return Some(data.clone());
    }
    data.pointer(trimmed).cloned()
}

fn check_get(step: &Value, found: Option<Value>) -> Result<(), String> {
    if step["expect_absent"] == true {
        return match found {
            None => Ok(()),
            Some(v) => Err(format!("expected no value, found {v}")),
        };
    }
    if let Some(kind) = step["expect_type"].as_str() {
        let ok = match kind {
            "list" => found.as_ref().is_some_and(Value::is_array),
            "object" => found.as_ref().is_some_and(Value::is_object),
            other => return Err(format!("unknown expect_type {other:?}")),
        };
        return if ok { Ok(()) } else { Err(format!("expected a {kind}, found {found:?}")) };
    }
    match step.get("expect") {
        Some(expected) if found.as_ref() == Some(expected) => Ok(()),
        Some(expected) => Err(format!("expected {expected}, found {found:?}")),
        None => Err("a get step without an expectation".into()),
    }
}

// ---- action: evaluate_function ----
