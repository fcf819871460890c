//! Action `validate`: a message sequence judged twice, step by step: by the validator
//! (`agentui_a2ui::validator`, the sequence as a whole without applying it) and by the engine
//! applying it; then the surfaces or the error compared.

use agentui_a2ui::validator::{Finding, SequenceValidator};

use super::from_json::pack_file;
use super::*;

/// Each step's messages (`messages` or `payload`) go to the validator, in the context of the
/// earlier valid steps, and to the engine. A step (or case) without `expectError` must draw no
/// finding and no error; one with it must draw a matching finding or error. Then the surfaces are
/// checked (`expect.surfaces`: data model, and each component's fields as accepted).
pub(super) fn validate(case: &Value, pack_root: &Path) -> Result<(), String> {
    let version = case_version(case);
    let mut group = group_for(&version)?;
    add_case_catalogs(&mut group, case, pack_root, &version)?;
    let registry = group.catalogs().clone();
    let mut validator = SequenceValidator::new(&registry, case["strictMode"] == true);
    let mut errors: Vec<Value> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    // A case without `steps` is one step: its own messages, its error checked as the case's.
    let steps = match case["steps"].as_array() {
        Some(steps) => steps.clone(),
        None => vec![json!({"messages": step_messages(case)})],
    };
    for (index, step) in steps.iter().enumerate() {
        let messages = step_messages(step);
        let found = validator.check(&messages);
        let mut sent = Vec::new();
        for message in &messages {
            let outcome = group.process_value(message);
            sent.extend(outcome.emitted.iter().map(ClientMessage::to_wire));
        }
        // A step may expect its own error; the case goes on after it. Messages of such a step
        // that wait for a surface that never came are its own refusal, not a later one.
        let expected = step.get("expectError").or_else(|| step.get("expect_error"));
        if expected.is_some() {
            sent.extend(group.flush_pending().emitted.iter().map(ClientMessage::to_wire));
        }
        match expected {
            Some(expected) => {
                check_expected_error(&found, &sent, expected).map_err(|e| format!("step {index}: {e}"))?
            }
            None => {
                errors.extend(sent);
                findings.extend(found);
            }
        }
    }
    errors.extend(group.flush_pending().emitted.iter().map(ClientMessage::to_wire));
    if let Some(expected) = case.get("expectError").or_else(|| case.get("expect_error")) {
        return check_expected_error(&findings, &errors, expected);
    }
    if let Some(finding) = findings.first() {
        return Err(format!("the validator found {finding:?}"));
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

/// A step's messages: `messages` (the schema's name) or `payload` (its alias), a list or a
/// `{messages: [...]}` wrapper.
pub(super) fn step_messages(step: &Value) -> Vec<Value> {
    let given = step.get("messages").or_else(|| step.get("payload")).unwrap_or(&Value::Null);
    let list = given.get("messages").unwrap_or(given);
    list.as_array().cloned().unwrap_or_default()
}

/// The catalogs a case adds to the renderer: its `catalogPaths` (the pack's files; the basic
/// catalogs are the engine's own under the same ids), and its inline `catalog` (an SDK-form
/// catalog with `components`, or a `catalogSchema`).
pub(super) fn add_case_catalogs(
    group: &mut SurfaceGroup,
    case: &Value,
    pack_root: &Path,
    version: &str,
) -> Result<(), String> {
    for path in case["catalogPaths"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let file = pack_file(pack_root, path).ok_or_else(|| format!("the pack holds no {path}"))?;
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let json: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let id = json["catalogId"].as_str().unwrap_or_default();
        if group.catalogs().get(id).is_err() {
            let catalog = agentui_a2ui::catalog::Catalog::from_json(&json).map_err(|e| format!("{path}: {e}"))?;
            group.catalogs_mut().register(std::sync::Arc::new(catalog));
        }
    }
    let catalog = &case["catalog"];
    let document = if let Some(schema) = catalog.get("catalogSchema") {
        // The case's catalog block names the version its schema is written for.
        let mut schema = schema.clone();
        if schema.get("protocolVersion").is_none() {
            schema["protocolVersion"] = Value::from(version.trim_start_matches('v'));
        }
        schema
    } else if catalog.get("components").is_some() || catalog.get("theme").is_some() {
        from_json::catalog_document(case, version)
    } else {
        return Ok(());
    };
    let catalog = agentui_a2ui::catalog::Catalog::from_json(&document)
        .map_err(|e| format!("the case's catalog does not load as a catalog: {e}"))?;
    group.catalogs_mut().register(std::sync::Arc::new(catalog));
    Ok(())
}

/// The expected error against what the validator found and what the engine sent back: either
/// judge may have found it. A string expectation, or an object's `message`, is one
/// implementation's wording and is not compared; `category`, `code` and each of `details`
/// (`path` and `code`) are. Engine errors carry the wire's codes and no category.
fn check_expected_error(found: &[Finding], sent: &[Value], expected: &Value) -> Result<(), String> {
    let by_validator = !found.is_empty() && validator_matches(found, expected);
    if by_validator || (expected.get("details").is_none() && check_error(sent, expected).is_ok()) {
        return Ok(());
    }
    let found: Vec<String> =
        found.iter().map(|f| format!("{} {} at {}", f.category.as_str(), f.code, f.path)).collect();
    Err(format!("expected an error {expected}; the validator found {found:?}, the engine sent {sent:?}"))
}

fn validator_matches(found: &[Finding], expected: &Value) -> bool {
    let category_ok = expected["category"].as_str().is_none_or(|c| found.iter().any(|f| f.category.as_str() == c));
    let code_ok = expected["code"].as_str().is_none_or(|c| found.iter().any(|f| f.code == c));
    // A detail's path is the suite's dotted path; a component property's is relative to the
    // component (`chartType`), so a finding matches it by its trailing segments.
    let details_ok = expected["details"].as_array().into_iter().flatten().all(|detail| {
        found.iter().any(|f| {
            let path_ok = detail["path"].as_str().is_none_or(|p| f.path == p || f.path.ends_with(&format!(".{p}")));
            path_ok && detail["code"].as_str().is_none_or(|c| f.code == c)
        })
    });
    category_ok && code_ok && details_ok
}

pub(super) fn check_surfaces(group: &SurfaceGroup, expected: &Value) -> Result<(), String> {
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
