//! Action `resolve_nodes`: the upstream SDK node layer's contract checked on the engine's resolved nodes.

use super::*;

/// A tree position (`root`, `root/children/1`, `root/child`) and what the engine has there.
#[derive(Debug, Clone, PartialEq)]
struct Placed {
    /// The instance id the parent names at this position.
    instance: String,
    /// Whether a node with that id exists (else the position is pending).
    resolved: bool,
}

/// The upstream SDK node layer's contract (`core/node_resolution.yaml`) checked on the
/// engine's resolved nodes. A case names nodes by tree position, which is mapped onto the
/// engine's instance ids by walking from the root (`child` → `/child`, `children` →
/// `/children/i`). A node "emits" when a patch upserts it while it already existed; it keeps
/// its identity when its position holds the same instance id in the same state before and
/// after a step; it is replaced when the state changed (pending ↔ resolved) and destroyed
/// when its position is gone or replaced.
pub(super) fn resolve_nodes(case: &Value, suite_dir: &Path) -> Result<(), String> {
    let path = case["fixture"].as_str().ok_or("no fixture")?;
    let file = suite_dir.join(path);
    let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let fixture = to_json(YamlLoader::load_from_str(&text).map_err(|e| e.to_string())?.first().ok_or("empty fixture")?);
    // The fixtures load the v0.9.1 basic catalog (SOURCE.txt, problem 4).
    let version = "v0.9.1";
    let mut group = group_for(version)?;
    let mut definitions: std::collections::HashMap<String, Value> = std::collections::HashMap::new();
    let mut messages = vec![
        json!({"version": version, "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": version, "updateDataModel": {"surfaceId": "s", "path": "/", "value": fixture["data"]}}),
    ];
    let components = fixture["components"].as_array().cloned().unwrap_or_default();
    if !components.is_empty() {
        messages.push(json!({"version": version, "updateComponents": {"surfaceId": "s", "components": components}}));
    }
    for component in &components {
        definitions.insert(component["id"].as_str().unwrap_or_default().to_owned(), component.clone());
    }
    for message in &messages {
        let outcome = group.process_value(message);
        if let Some(error) = outcome.emitted.first() {
            return Err(format!("fixture refused: {}", error.to_wire()));
        }
    }
    let mut tree = node_tree(&group, &definitions);
    check_nodes(&group, &tree, &definitions, &case["expect"])?;
    for (i, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let op = step["op"].as_str().unwrap_or_default();
        let mut outcome = agentui_a2ui::Outcome::default();
        let mut events = Vec::new();
        let mut functions = Vec::new();
        let surface_message = |body: Value| {
            json!({"version": version}).as_object().cloned().map(|mut m| {
                m.extend(body.as_object().cloned().unwrap_or_default());
                Value::Object(m)
            })
        };
        match op {
            "set_data" => {
                let message = surface_message(
                    json!({"updateDataModel": {"surfaceId": "s", "path": step["path"], "value": step["value"]}}),
                );
                outcome = group.process_value(&message.unwrap_or_default());
            }
            "update_components" => {
                for component in step["components"].as_array().into_iter().flatten() {
                    definitions.insert(component["id"].as_str().unwrap_or_default().to_owned(), component.clone());
                }
                let message =
                    surface_message(json!({"updateComponents": {"surfaceId": "s", "components": step["components"]}}));
                outcome = group.process_value(&message.unwrap_or_default());
            }
            "write" => {
                let place = placed(&tree, &step["node"])?;
                let surface = group.surface("s").ok_or("no surface")?;
                let node = surface.node(&place.instance).ok_or_else(|| format!("step {i}: no node to write"))?;
                let property = step["property"].as_str().unwrap_or_default();
                let binding = node
                    .bindings
                    .iter()
                    .find(|b| b.property.as_ref() == property)
                    .ok_or_else(|| format!("step {i}: {property} of {} is not writable", place.instance))?;
                let path = binding.path.to_string();
                outcome = group.set_value("s", &path, step["value"].clone()).map_err(|e| e.to_string())?;
            }
            "invoke" => {
                let place = placed(&tree, &step["node"])?;
                let acted = group.dispatch_action("s", &place.instance).map_err(|e| format!("step {i}: {e}"))?;
                if let Some(message) = acted.message {
                    let action = &message.to_wire()["action"];
                    events.push(json!({"name": action["name"], "source_component_id": action["sourceComponentId"], "context": action["context"]}));
                }
                for effect in acted.effects {
                    let agentui_a2ui::Effect::OpenUrl(url) = effect;
                    functions.push(json!({"name": "openUrl", "args": {"url": url}}));
                }
            }
            "dispose" => {
                let message = surface_message(json!({"deleteSurface": {"surfaceId": "s"}}));
                outcome = group.process_value(&message.unwrap_or_default());
            }
            // No v0.9 / v0.9.1 / v1.0 message removes one component: a definition stays until
            // its surface is deleted, so the engine has nothing to drive this step with.
            "remove_component" => return Err("remove_component: no A2UI message removes a single component".into()),
            other => return Err(format!("step {i}: unknown op {other:?}")),
        }
        if let Some(error) = outcome.emitted.first() {
            return Err(format!("step {i} ({op}): refused: {}", error.to_wire()));
        }
        let after = node_tree(&group, &definitions);
        let expect = &step["expect"];
        check_nodes(&group, &after, &definitions, expect).map_err(|e| format!("step {i} ({op}): {e}"))?;
        check_step(&tree, &after, &outcome, expect).map_err(|e| format!("step {i} ({op}): {e}"))?;
        for (key, found) in [("events", &events), ("functions", &functions)] {
            let expected = expect[key].as_array().cloned().unwrap_or_default();
            let found = Value::from(found.clone());
            if !same_value(&found, &Value::from(expected.clone())) {
                return Err(format!("step {i} ({op}): {key} {found}, expected {}", Value::from(expected)));
            }
        }
        for (pointer, value) in expect["data"].as_object().into_iter().flatten() {
            let data = group.surface("s").map(|s| s.data_model().clone()).unwrap_or_default();
            if !data.pointer(pointer).is_some_and(|v| same_value(v, value)) {
                return Err(format!(
                    "step {i} ({op}): data {pointer} is {:?}, expected {value}",
                    data.pointer(pointer)
                ));
            }
        }
        tree = after;
    }
    Ok(())
}

fn placed<'a>(tree: &'a [(String, Placed)], path: &Value) -> Result<&'a Placed, String> {
    let path = path.as_str().unwrap_or_default();
    tree.iter().find(|(p, _)| p == path).map(|(_, place)| place).ok_or_else(|| format!("no node at {path}"))
}

/// Every tree position from the root, in walk order.
fn node_tree(group: &SurfaceGroup, definitions: &std::collections::HashMap<String, Value>) -> Vec<(String, Placed)> {
    let mut out = Vec::new();
    let Some(surface) = group.surface("s") else { return out };
    if surface.node("root").is_none() {
        return out;
    }
    let mut stack = vec![("root".to_owned(), "root".to_owned())];
    while let Some((path, instance)) = stack.pop() {
        let node = surface.node(&instance);
        out.push((path.clone(), Placed { instance: instance.clone(), resolved: node.is_some() }));
        let Some(node) = node else { continue };
        let single = definitions.get(node.component_id.as_ref()).is_some_and(|d| d.get("child").is_some());
        for (i, child) in node.children.iter().enumerate().rev() {
            let child_path = if single { format!("{path}/child") } else { format!("{path}/children/{i}") };
            stack.push((child_path, child.to_string()));
        }
    }
    out
}

/// The component id and data scope of an instance id (`componentId@/scope`).
fn split_instance(instance: &str) -> (&str, &str) {
    match instance.find("@/") {
        Some(at) => (&instance[..at], &instance[at + 1..]),
        None => (instance, "/"),
    }
}

/// The expected `nodes` are every position of the tree, each with the fields it names.
fn check_nodes(
    group: &SurfaceGroup,
    tree: &[(String, Placed)],
    definitions: &std::collections::HashMap<String, Value>,
    expect: &Value,
) -> Result<(), String> {
    let Some(expected) = expect["nodes"].as_object() else { return Ok(()) };
    let found: Vec<&str> = tree.iter().map(|(p, _)| p.as_str()).collect();
    let mut wanted: Vec<&str> = expected.keys().map(String::as_str).collect();
    let mut sorted = found.clone();
    sorted.sort_unstable();
    wanted.sort_unstable();
    if sorted != wanted {
        return Err(format!("nodes {sorted:?}, expected {wanted:?}"));
    }
    let surface = group.surface("s");
    for (path, place) in tree {
        let fields = &expected[path.as_str()];
        let (component_id, scope) = split_instance(&place.instance);
        let node = surface.and_then(|s| s.node(&place.instance));
        for (field, value) in fields.as_object().into_iter().flatten() {
            let ok = match field.as_str() {
                "component_id" => value == component_id,
                "type" => node.is_some_and(|n| value == n.component_type.as_ref()),
                "state" => value == if place.resolved { "resolved" } else { "pending" },
                "data_path" => value == scope,
                "props" => {
                    let node = node.ok_or_else(|| format!("{path}: pending, expected props"))?;
                    let single = definitions.get(component_id).is_some_and(|d| d.get("child").is_some());
                    for (prop, want) in value.as_object().into_iter().flatten() {
                        let got = match prop.as_str() {
                            "children" if !single => Value::from(
                                (0..node.children.len())
                                    .map(|i| json!({"node": format!("{path}/children/{i}")}))
                                    .collect::<Vec<_>>(),
                            ),
                            "child" if single && !node.children.is_empty() => json!({"node": format!("{path}/child")}),
                            "action" => json!({"action": node.action.is_some()}),
                            name => json!({
                                "value": node.props.get(name).cloned().unwrap_or(Value::Null),
                                "writable": node.bindings.iter().any(|b| b.property.as_ref() == name),
                            }),
                        };
                        if !same_value(&got, want) {
                            return Err(format!("{path}.{prop} is {got}, expected {want}"));
                        }
                    }
                    true
                }
                other => return Err(format!("the harness cannot check a node's {other:?}")),
            };
            if !ok {
                return Err(format!("{path}.{field}: expected {value} ({place:?})"));
            }
        }
    }
    Ok(())
}

/// A step's emissions, identities, replacements and destructions.
fn check_step(
    before: &[(String, Placed)],
    after: &[(String, Placed)],
    outcome: &agentui_a2ui::Outcome,
    expect: &Value,
) -> Result<(), String> {
    let existed: std::collections::HashSet<&str> =
        before.iter().filter(|(_, p)| p.resolved).map(|(_, p)| p.instance.as_str()).collect();
    let mut upserts: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    for event in &outcome.events {
        if let agentui_a2ui::SurfaceEvent::Changed { diff, .. } = event {
            let nodes = match diff {
                agentui_a2ui::SurfaceDiff::Reset { nodes, .. } => nodes,
                agentui_a2ui::SurfaceDiff::Patch { upserted, .. } => upserted,
            };
            for node in nodes {
                *upserts.entry(node.id.to_string()).or_default() += 1;
            }
        }
    }
    if let Some(expected) = expect.get("emissions") {
        let mut emissions = serde_json::Map::new();
        for (path, place) in after {
            let kept = before.iter().any(|(p, b)| p == path && b == place);
            if let (true, Some(count)) =
                (kept && existed.contains(place.instance.as_str()), upserts.get(&place.instance))
            {
                emissions.insert(path.clone(), Value::from(*count));
            }
        }
        if !same_value(&Value::Object(emissions.clone()), expected) {
            return Err(format!("emissions {}, expected {expected}", Value::Object(emissions)));
        }
    }
    let mut same = Vec::new();
    let mut replaced = Vec::new();
    let mut destroyed = serde_json::Map::new();
    for (path, old) in before {
        match after.iter().find(|(p, _)| p == path) {
            Some((_, new)) if new == old => same.push(Value::from(path.as_str())),
            Some(_) => {
                replaced.push(Value::from(path.as_str()));
                destroyed.insert(path.clone(), Value::from(1));
            }
            None => {
                destroyed.insert(path.clone(), Value::from(1));
            }
        }
    }
    let sorted = |v: &Value| {
        let mut items: Vec<String> =
            v.as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect();
        items.sort();
        items
    };
    for (key, found) in [("same_nodes", Value::from(same)), ("replaced_nodes", Value::from(replaced))] {
        if let Some(expected) = expect.get(key) {
            if sorted(&found) != sorted(expected) {
                return Err(format!("{key} {found}, expected {expected}"));
            }
        } else if key == "replaced_nodes" && !sorted(&found).is_empty() {
            return Err(format!("replaced {found}, expected none"));
        }
    }
    let destroyed = Value::Object(destroyed);
    if !same_value(&destroyed, expect.get("destroyed").unwrap_or(&json!({}))) {
        return Err(format!("destroyed {destroyed}, expected {}", expect.get("destroyed").unwrap_or(&json!({}))));
    }
    Ok(())
}
