//! Action `process_messages`: a message sequence given to the message processor (the engine's
//! `SurfaceGroup`), then the surfaces, their components and data models, and the errors compared.
//! With `strictMode` the processor runs the validator over each batch first and applies a batch
//! only when it is clean (the suite's pre-flight: a refused batch leaves the surfaces as they were).

use agentui_a2ui::validator::SequenceValidator;

use super::validate::{add_case_catalogs, check_surfaces, step_messages};
use super::*;

pub(super) fn process_messages(case: &Value, pack_root: &Path) -> Result<(), String> {
    let version = case_version(case);
    let mut group = group_for(&version)?;
    add_case_catalogs(&mut group, case, pack_root, &version)?;
    let all_messages: Vec<Value> = match case["steps"].as_array() {
        Some(steps) => steps.iter().flat_map(step_messages).collect(),
        None => step_messages(case),
    };
    for catalog in case["catalogs"].as_array().into_iter().flatten() {
        register_named_catalog(&mut group, catalog, &all_messages)?;
    }
    let registry = group.catalogs().clone();
    let strict = case["strictMode"] == true;
    let mut validator = SequenceValidator::new(&registry, true);
    // The case itself is one step when it has no `steps`.
    let steps: Vec<Value> = match case["steps"].as_array() {
        Some(steps) => steps.clone(),
        None => vec![case.clone()],
    };
    for (index, step) in steps.iter().enumerate() {
        let at = |what: String| format!("step {index}: {what}");
        let messages = step_messages(step);
        let mut sent: Vec<Value> = Vec::new();
        let findings = if strict { validator.check(&messages) } else { Vec::new() };
        if findings.is_empty() {
            for message in &messages {
                sent.extend(group.process_value(message).emitted.iter().map(ClientMessage::to_wire));
            }
            sent.extend(group.flush_pending().emitted.iter().map(ClientMessage::to_wire));
        }
        let categories: Vec<&str> = findings
            .iter()
            .map(|f| f.category.as_str())
            .chain(sent.iter().filter_map(|m| m["error"]["code"].as_str()).map(category_of))
            .collect();
        match step.get("expectError").or_else(|| step.get("expect_error")) {
            Some(expected) => {
                if categories.is_empty() {
                    return Err(at(format!("expected an error {expected}, none was reported")));
                }
                if let Some(category) = expected["category"].as_str() {
                    if !categories.contains(&category) {
                        return Err(at(format!("expected a {category}, reported {categories:?} ({sent:?})")));
                    }
                }
                if let Some(code) = expected["code"].as_str() {
                    let codes: Vec<&str> = findings
                        .iter()
                        .map(|f| f.code)
                        .chain(sent.iter().filter_map(|m| m["error"]["code"].as_str()))
                        .collect();
                    if !codes.contains(&code) {
                        return Err(at(format!("expected code {code}, reported {codes:?}")));
                    }
                }
            }
            None if !categories.is_empty() => {
                return Err(at(format!("unexpected errors: {findings:?} {}", Value::Array(sent))));
            }
            None => {}
        }
        if let Some(expected) = step["expect"].get("surfaces") {
            check_processed_surfaces(&group, expected).map_err(at)?;
        }
    }
    Ok(())
}

/// A catalog of `catalogs` given by id and version only is the suite's fixture: it holds the
/// components the case's messages draw from it (their own `catalogId`, else their surface's
/// default), each with any properties, since the case states none. A catalog that states its
/// components is loaded as it is.
fn register_named_catalog(group: &mut SurfaceGroup, catalog: &Value, messages: &[Value]) -> Result<(), String> {
    let id = catalog["catalogId"].as_str().ok_or("a catalog of `catalogs` without catalogId")?;
    let version = catalog["protocolVersion"].as_str().unwrap_or("v1.0");
    let mut catalog = catalog.clone();
    if catalog.get("components").is_none() {
        let mut defaults: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
        let mut used = serde_json::Map::new();
        for message in messages {
            if let Some(create) = message.get("createSurface") {
                let surface = create["surfaceId"].as_str().unwrap_or_default();
                defaults.insert(surface, create["catalogId"].as_str().unwrap_or_default());
            }
            let body = message.get("updateComponents").or_else(|| message.get("createSurface"));
            let surface = body.and_then(|b| b["surfaceId"].as_str()).unwrap_or_default();
            for component in body.and_then(|b| b["components"].as_array()).into_iter().flatten() {
                let from = component["catalogId"].as_str().or_else(|| defaults.get(surface).copied());
                if let (Some(true), Some(name)) = (from.map(|f| f == id), component["component"].as_str()) {
                    used.insert(name.to_owned(), json!({"type": "object", "properties": {}}));
                }
            }
        }
        catalog["components"] = Value::Object(used);
    }
    let document = from_json::catalog_document(&json!({"catalog": catalog}), version);
    let loaded = agentui_a2ui::catalog::Catalog::from_json(&document).map_err(|e| format!("{id}: {e}"))?;
    group.catalogs_mut().register(std::sync::Arc::new(loaded));
    Ok(())
}

/// The suite's error category of an error the engine sends back, by its wire code.
pub(super) fn category_of(code: &str) -> &'static str {
    match code {
        "CATALOG_NOT_FOUND" => "CatalogError",
        "SURFACE_EXISTS" | "SURFACE_NOT_FOUND" | "COMPONENT_NOT_FOUND" => "IntegrityError",
        _ => "ValidationError",
    }
}

/// `expect.surfaces` in the processor's form: `exists`, `sendDataModel`, `dataModel`, and
/// `components` as a list of `{id, component, ...}` (each a subset of the rendered node) or as
/// a map by id (the `validate` form).
fn check_processed_surfaces(group: &SurfaceGroup, expected: &Value) -> Result<(), String> {
    for (surface_id, fields) in expected.as_object().into_iter().flatten() {
        let surface = group.surface(surface_id);
        let mut rest = serde_json::Map::new();
        for (key, value) in fields.as_object().into_iter().flatten() {
            match key.as_str() {
                "exists" if *value == surface.is_some() => {}
                "exists" => {
                    return Err(format!("surface {surface_id:?} exists: {}, expected {value}", surface.is_some()))
                }
                "sendDataModel" => {
                    let found = surface.is_some_and(|s| s.send_data_model());
                    if *value != found {
                        return Err(format!("{surface_id}: sendDataModel {found}, expected {value}"));
                    }
                }
                "components" if value.is_array() => {
                    let by_id: serde_json::Map<String, Value> = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|c| {
                            let mut c = c.clone();
                            let id = c["id"].as_str().unwrap_or_default().to_owned();
                            c.as_object_mut().map(|m| m.remove("id"));
                            (id, c)
                        })
                        .collect();
                    rest.insert(key.clone(), Value::Object(by_id));
                }
                _ => {
                    rest.insert(key.clone(), value.clone());
                }
            }
        }
        if !rest.is_empty() {
            check_surfaces(group, &json!({ surface_id.as_str(): rest }))?;
        }
    }
    Ok(())
}
