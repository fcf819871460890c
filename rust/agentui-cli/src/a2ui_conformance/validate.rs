//! Action `validate`: message steps fed to the engine, then the surfaces or the error compared.

use super::*;

/// Feeds each step's payload to the engine; then checks the surfaces (`expect.surfaces`: data
/// model, and each component's fields as accepted) or the error (`expectError`: its code).
pub(super) fn validate(case: &Value) -> Result<(), String> {
    let version = case_version(case);
    let mut group = group_for(&version)?;
    if let Some(schema) = case["catalog"].get("catalogSchema") {
        // The case's catalog block names the version its schema is written for.
        let mut schema = schema.clone();
        if schema.get("protocolVersion").is_none() {
            schema["protocolVersion"] = Value::from(version.trim_start_matches('v'));
        }
        let catalog = agentui_a2ui::catalog::Catalog::from_json(&schema)
            .map_err(|e| format!("the case's catalogSchema does not load as a catalog: {e}"))?;
        group.catalogs_mut().register(std::sync::Arc::new(catalog));
    }
    let mut errors: Vec<Value> = Vec::new();
    for (index, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let mut sent = Vec::new();
        for message in step["payload"].as_array().into_iter().flatten() {
            let outcome = group.process_value(message);
            sent.extend(outcome.emitted.iter().map(ClientMessage::to_wire));
        }
        // A step may expect its own error; the case goes on after it.
        match step.get("expectError") {
            Some(expected) => check_error(&sent, expected).map_err(|e| format!("step {index}: {e}"))?,
            None => errors.extend(sent),
        }
    }
    errors.extend(group.flush_pending().emitted.iter().map(ClientMessage::to_wire));
    if let Some(expected) = case.get("expectError") {
        return check_error(&errors, expected);
    }
    if !errors.is_empty() {
        return Err(format!("unexpected messages sent back: {}", Value::Array(errors)));
    }
    let Some(Value::Object(expect)) = case.get("expect") else { return Ok(()) };
    for (key, expected) in expect {
        match key.as_str() {
            "surfaces" => check_surfaces(&group, expected)?,
            other => return Err(format!("the harness cannot check expect.{other}")),
        }
    }
    Ok(())
}

fn check_surfaces(group: &SurfaceGroup, expected: &Value) -> Result<(), String> {
    for (surface_id, expected) in expected.as_object().into_iter().flatten() {
        let surface = group.surface(surface_id).ok_or_else(|| format!("no surface {surface_id:?}"))?;
        for (key, value) in expected.as_object().into_iter().flatten() {
            match key.as_str() {
                "dataModel" if surface.data_model() == value => {}
                "dataModel" => {
                    return Err(format!("{surface_id}: data model {}, expected {value}", surface.data_model()))
                }
                "components" => check_components(surface, surface_id, value)?,
                "validationResult" => check_validation_results(surface, surface_id, value)?,
                other => return Err(format!("the harness cannot check surfaces.{surface_id}.{other}")),
            }
        }
    }
    Ok(())
}

/// Each expected component is a rendered node with the expected fields, as resolved: its type
/// (`component`), its `children`, and each property's resolved value (others may differ).
fn check_components(surface: &agentui_a2ui::Surface, surface_id: &str, expected: &Value) -> Result<(), String> {
    for (id, fields) in expected.as_object().into_iter().flatten() {
        let node = surface.node(id).ok_or_else(|| format!("{surface_id}: no rendered node {id:?}"))?;
        for (field, value) in fields.as_object().into_iter().flatten() {
            let found = match field.as_str() {
                "component" => Some(Value::from(node.component_type.as_ref())),
                "children" => Some(Value::from(node.children.iter().map(|c| c.as_ref()).collect::<Vec<_>>())),
                prop => node.props.get(prop).cloned(),
            };
            if found.as_ref() != Some(value) {
                return Err(format!("{surface_id}/{id}.{field} is {found:?}, expected {value}"));
            }
        }
    }
    Ok(())
}

/// Each expected component's validation result as a renderer gets it: its first failing check
/// (`valid`, `code`, `message`, `severity`), or `{valid: true}` when every check passes. A
/// field the case leaves out must be absent (`code`), or is not compared (`message`, `severity`
/// of a passing result).
fn check_validation_results(surface: &agentui_a2ui::Surface, surface_id: &str, expected: &Value) -> Result<(), String> {
    for (id, expected) in expected.as_object().into_iter().flatten() {
        let node = surface.node(id).ok_or_else(|| format!("{surface_id}: no rendered node {id:?}"))?;
        let found = match node.checks.iter().find(|c| !c.passed) {
            None => json!({"valid": true}),
            Some(check) => {
                let mut result = json!({"valid": false, "message": check.message, "severity": check.severity});
                if let Some(code) = &check.code {
                    result["code"] = Value::String(code.clone());
                }
                result
            }
        };
        let matches = expected.as_object().into_iter().flatten().all(|(k, v)| found.get(k) == Some(v))
            && (expected.get("code").is_some() || found.get("code").is_none());
        if !matches {
            return Err(format!("{surface_id}/{id}: validation result {found}, expected {expected}"));
        }
    }
    Ok(())
}

// ---- action: resolve_nodes ----
