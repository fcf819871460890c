//! Action `accessibility_check`: the accessibility the engine resolves for each node.

use super::*;

/// The case's surface (v1.0, the basic catalog v1) sent as one `createSurface`, then each
/// `accessibilityTree` expectation compared with the resolved node's accessibility (`label`,
/// `description`, `live`, `hidden`). A platform role or state, and the web renderers' axe-core
/// rules, are not the engine's to check: such an expectation fails the case.
pub(super) fn accessibility_check(case: &Value) -> Result<(), String> {
    let mut group = group_for("v1.0")?;
    let surface = case["surface"].as_object().ok_or("a case without surface")?;
    let mut root = surface.clone();
    root.remove("components");
    let mut components = vec![Value::Object(root)];
    for (id, c) in surface.get("components").and_then(Value::as_object).into_iter().flatten() {
        let mut c = c.clone();
        c["id"] = Value::from(id.as_str());
        components.push(c);
    }
    let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "basic",
        "dataModel": case.get("dataModel").cloned().unwrap_or(json!({})), "components": components}});
    let sent: Vec<Value> = group.process_value(&message).emitted.iter().map(ClientMessage::to_wire).collect();
    if !sent.is_empty() {
        return Err(format!("refused: {}", Value::Array(sent)));
    }
    let assertions = &case["assertions"];
    let surface = group.surface("s").ok_or("no surface")?;
    for (id, expected) in assertions["accessibilityTree"].as_object().into_iter().flatten() {
        let node = surface.node(id).ok_or_else(|| format!("no rendered node {id:?}"))?;
        let a11y = node.accessibility.as_ref();
        for (key, value) in expected.as_object().into_iter().flatten() {
            let found = match key.as_str() {
                "label" => a11y.and_then(|a| a.label.clone()).map(Value::from),
                "description" => a11y.and_then(|a| a.description.clone()).map(Value::from),
                "live" => a11y.and_then(|a| a.live.clone()).map(Value::from),
                "hidden" => a11y.and_then(|a| a.hidden).map(Value::from),
                other => {
                    return Err(format!("{id}.{other}: a platform's accessibility role or state, not the engine's"))
                }
            };
            if found.as_ref() != Some(value) {
                return Err(format!("{id}.{key} is {found:?}, expected {value}"));
            }
        }
    }
    if assertions.get("axeCore").is_some() {
        return Err(
            "the accessibility tree matches; axe-core rules check a web page's DOM, which the harness cannot".into()
        );
    }
    Ok(())
}

// ---- action: parse_expression_template ----
