//! Action `select_catalog`: the catalog a v1.0 surface takes a component or a call from.

use super::*;

/// The catalog a v1.0 surface takes a component (or a call) from: the surface is created with its
/// default catalog, each other catalog the case names is registered (holding the components it
/// uses, any properties), and the components are sent. `expectSelected`: everything the case sends
/// is accepted and the component naming that catalog (or, with none named, every component)
/// renders; `expectError`: an error is sent back.
pub(super) fn select_catalog(case: &Value) -> Result<(), String> {
    let args = &case["args"];
    let surface = &args["surface"];
    let default = surface["defaultCatalogId"].as_str().ok_or("a case without surface.defaultCatalogId")?;
    let mut group = group_for("v1.0")?;
    let components = args["components"].as_object().cloned().unwrap_or_default();
    for id in surface["supportedCatalogIds"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if id == "basic" {
            continue;
        }
        let used: serde_json::Map<String, Value> = components
            .values()
            .filter(|c| c["catalogId"] == id)
            .filter_map(|c| c["component"].as_str())
            .map(|name| (name.to_owned(), json!({"type": "object"})))
            .collect();
        let version = args["catalogs"][id]["protocolVersion"].as_str().unwrap_or("v1.0").trim_start_matches('v');
        // The function the case calls in this catalog, with its arguments as numbers.
        let called = args.get("functionCall").filter(|call| call["catalogId"] == id);
        let functions: Vec<Value> = called
            .into_iter()
            .map(|call| {
                let params: serde_json::Map<String, Value> = call["args"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, _)| (name.clone(), json!({"$ref": "common_types.json#/$defs/DynamicNumber"})))
                    .collect();
                json!({"name": call["call"], "returnType": "number",
                       "parameters": {"type": "object", "properties": params}})
            })
            .collect();
        let catalog = agentui_a2ui::catalog::Catalog::from_json(
            &json!({"catalogId": id, "protocolVersion": version, "components": used, "functions": functions}),
        )
        .map_err(|e| format!("{id}: {e}"))?;
        group.catalogs_mut().register(std::sync::Arc::new(catalog));
        if let Some(name) = called.and_then(|call| call["call"].as_str()) {
            // The host's implementation in this catalog: the sum of the arguments (`add`).
            let sum = |args: &serde_json::Map<String, Value>| -> Result<Value, String> {
                Ok(json!(args.values().filter_map(Value::as_f64).sum::<f64>()))
            };
            group.register_host_function(id, name, std::sync::Arc::new(sum)).map_err(|e| e.to_string())?;
        }
    }
    let mut sent: Vec<Value> = Vec::new();
    let mut send = |group: &mut SurfaceGroup, message: Value| {
        sent.extend(group.process_value(&message).emitted.iter().map(ClientMessage::to_wire));
    };
    send(&mut group, json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": default}}));
    if !components.is_empty() {
        let root = json!({"id": "root", "component": "Column", "children": components.keys().collect::<Vec<_>>()});
        let mut list = vec![root];
        list.extend(components.iter().map(|(id, c)| {
            let mut c = c.clone();
            c["id"] = Value::from(id.as_str());
            c
        }));
        send(&mut group, json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": list}}));
    }
    if let Some(call) = args.get("functionCall") {
        let text = json!({"id": "root", "component": "Text", "text": call});
        send(&mut group, json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [text]}}));
        // The call ran in the catalog it names: the value is that catalog's function's.
        if let (Some(selected), true) = (case["expectSelected"].as_str(), sent.is_empty()) {
            let expected: f64 = call["args"].as_object().into_iter().flatten().filter_map(|(_, v)| v.as_f64()).sum();
            let text = group.surface("s").and_then(|s| s.node("root")).and_then(|n| n.props.get("text").cloned());
            if text.as_ref().and_then(Value::as_f64) != Some(expected) {
                return Err(format!("the call did not run in {selected}: text is {text:?}, expected {expected}"));
            }
        }
    }
    match (case.get("expectError"), case["expectSelected"].as_str()) {
        (Some(expected), _) => check_error(&sent, expected),
        (None, Some(selected)) => {
            if !sent.is_empty() {
                return Err(format!("expected {selected} to be selected, sent {}", Value::Array(sent)));
            }
            let surface = group.surface("s").ok_or("no surface")?;
            for (id, c) in &components {
                let from = c["catalogId"].as_str().unwrap_or(default);
                if from == selected && surface.node(id).is_none() {
                    return Err(format!("{id} from {selected} did not render"));
                }
            }
            Ok(())
        }
        (None, None) => Err("a case without expectSelected or expectError".into()),
    }
}

// ---- action: accessibility_check ----
