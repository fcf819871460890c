//! Action `dispatch_action`: a user's tap on a Button and the `action` message it sends to the agent.

use super::*;

/// A Button carrying the case's action (`actionPayload`) on a surface holding `dataModel`, the
/// user's tap on it, and what goes to the agent: the `action` message (`expectDispatched`) and
/// errors (`expectDispatchedErrors`, by code). With `scope`, the button is the item at that
/// path of a list template over its parent array. The suite names no version: it runs as the
/// pack's, v1.0 (its `event.userMessage` is v1.0's), unless the case says otherwise.
pub(super) fn dispatch_action(case: &Value) -> Result<(), String> {
    let version = case["protocolVersion"].as_str().unwrap_or("v1.0").to_owned();
    let mut group = group_for(&version)?;
    let button = json!({"id": "btn", "component": "Button", "child": "label", "action": case["actionPayload"]});
    let label = json!({"id": "label", "component": "Text", "text": "Go"});
    let (components, item) = match case["scope"].as_str() {
        None => (vec![json!({"id": "root", "component": "Column", "children": ["btn"]}), button, label], None),
        Some(scope) => {
            let (list, index) = scope.rsplit_once('/').ok_or_else(|| format!("scope {scope:?} is not an item path"))?;
            let root = json!({"id": "root", "component": "Column", "children": {"componentId": "btn", "path": list}});
            (vec![root, button, label], Some((scope.to_owned(), index.to_owned())))
        }
    };
    let mut sent: Vec<Value> = Vec::new();
    let messages = [
        json!({"version": version, "createSurface": {"surfaceId": "s", "catalogId": "basic"}}),
        json!({"version": version, "updateDataModel": {"surfaceId": "s", "path": "/", "value": case.get("dataModel").cloned().unwrap_or(json!({}))}}),
        json!({"version": version, "updateComponents": {"surfaceId": "s", "components": components}}),
    ];
    for message in &messages {
        sent.extend(group.process_value(message).emitted.iter().map(ClientMessage::to_wire));
    }
    let surface = group.surface("s").ok_or("no surface")?;
    let instance = match &item {
        None => "btn".to_owned(),
        Some((scope, _)) => agentui_a2ui::resolve::instance_id(&std::sync::Arc::from("btn"), scope).to_string(),
    };
    if sent.is_empty() && surface.node(&instance).is_none() {
        return Err(format!("no rendered button {instance:?}"));
    }
    let mut dispatched = None;
    if sent.is_empty() {
        match group.dispatch_action("s", &instance) {
            Ok(outcome) => dispatched = outcome.message.map(|m| m.to_wire()),
            Err(e) => sent.push(
                ClientMessage::Error(agentui_a2ui::wire::v09::ErrorMessage {
                    code: e.code().to_owned(),
                    surface_id: "s".into(),
                    path: e.path().map(str::to_owned),
                    message: e.to_string(),
                    version: agentui_a2ui::wire::Version::V1_0,
                })
                .to_wire(),
            ),
        }
    }
    let codes: Vec<&str> = sent.iter().filter_map(|m| m["error"]["code"].as_str()).collect();
    let expected_codes: Vec<&str> =
        case["expectDispatchedErrors"].as_array().into_iter().flatten().filter_map(|e| e["code"].as_str()).collect();
    if codes != expected_codes {
        return Err(format!("errors sent {codes:?}, expected {expected_codes:?} ({sent:?})"));
    }
    match (case.get("expectDispatched"), dispatched) {
        (None, None) => Ok(()),
        (None, Some(message)) => Err(format!("expected no action, dispatched {message}")),
        (Some(expected), None) => Err(format!("expected the action {expected}, none was dispatched")),
        (Some(expected), Some(message)) => {
            let action = &message["action"];
            if action["surfaceId"] != "s" || action["sourceComponentId"] != instance.as_str() {
                return Err(format!("dispatched {message}: wrong surface or source"));
            }
            for (key, value) in expected.as_object().into_iter().flatten() {
                if !same_value(&action[key.as_str()], value) {
                    return Err(format!("dispatched {key} = {}, expected {value}", action[key.as_str()]));
                }
            }
            // Nothing the case does not expect, beyond the fields every action has.
            let empty_context = action["context"].as_object().is_none_or(|c| c.is_empty());
            if expected.get("context").is_none() && !empty_context {
                return Err(format!("dispatched a context {}, expected none", action["context"]));
            }
            Ok(())
        }
    }
}

// ---- action: validate_common_type ----
