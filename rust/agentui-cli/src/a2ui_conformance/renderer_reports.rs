//! Actions `get_renderer_data_model` and `get_renderer_capabilities`: what the renderer reports to
//! an agent, as the runtime sends it: the data models of the surfaces created with
//! `sendDataModel` (`SurfaceGroup::client_data_model`, sent with each action) and the
//! capabilities object (`CatalogRegistry::client_capabilities`, sent with each run).

use super::validate::{add_case_catalogs, step_messages};
use super::*;

/// The case's messages are processed, then the reported data model is compared with `expect`
/// (a subset match; `expectEmpty` or `expect: null`: no surface of the version asked for sends its
/// data model, so nothing is reported).
pub(super) fn get_renderer_data_model(case: &Value, pack_root: &Path) -> Result<(), String> {
    let version = case_version(case);
    let mut group = group_for(&version)?;
    add_case_catalogs(&mut group, case, pack_root, &version)?;
    // A case's messages, or its steps' one after the other.
    let messages: Vec<Value> = match case["steps"].as_array() {
        Some(steps) => steps.iter().flat_map(step_messages).collect(),
        None => step_messages(case),
    };
    for message in messages {
        let sent: Vec<Value> = group.process_value(&message).emitted.iter().map(ClientMessage::to_wire).collect();
        if !sent.is_empty() {
            return Err(format!("refused: {}", Value::Array(sent)));
        }
    }
    // The report is of one protocol version: the one asked for (`args.version`), else the case's.
    let reported = group.client_data_model(case["args"]["version"].as_str().unwrap_or(&version));
    if case["expectEmpty"] == true {
        return match reported {
            None => Ok(()),
            Some(report) => Err(format!("reported {report}, expected nothing")),
        };
    }
    let expected = case.get("expect").ok_or("a case without expect or expectEmpty")?;
    // `expect: null`: no surface of that version, so nothing is reported.
    if expected.is_null() {
        return match reported {
            None => Ok(()),
            Some(report) => Err(format!("reported {report}, expected nothing")),
        };
    }
    let report = reported.ok_or("no surface sends its data model: nothing is reported")?;
    if contains(&report, expected) {
        Ok(())
    } else {
        Err(format!("reported {report}, expected it to contain {expected}"))
    }
}

/// The renderer's catalogs (the basic ones, then the case's `catalogs` and `catalogPaths`) as the
/// capabilities object, inline catalogs included when `args.includeInlineCatalogs` is true; the
/// result must contain `expect` (under `args.version` when the case names one).
pub(super) fn get_renderer_capabilities(case: &Value, pack_root: &Path) -> Result<(), String> {
    let version = case_version(case);
    let mut group = group_for(&version)?;
    add_case_catalogs(&mut group, case, pack_root, &version)?;
    for catalog in case["catalogs"].as_array().into_iter().flatten() {
        let id = catalog["catalogId"].as_str().ok_or("a catalog without catalogId")?;
        let at = catalog["protocolVersion"].as_str().unwrap_or("v1.0");
        let document = from_json::catalog_document(&json!({"catalog": catalog}), at);
        let loaded = agentui_a2ui::catalog::Catalog::from_json(&document).map_err(|e| format!("{id}: {e}"))?;
        group.catalogs_mut().register(std::sync::Arc::new(loaded));
    }
    let capabilities = group.catalogs().client_capabilities(case["args"]["includeInlineCatalogs"] == true);
    let expected = case.get("expect").ok_or("a case without expect")?;
    if contains(&capabilities, expected) {
        Ok(())
    } else {
        Err(format!("reported {capabilities}, expected it to contain {expected}"))
    }
}

/// The schema's "contains / subset match": every key of `expected` is in `found` with a value
/// that contains it; a list contains each expected item (in any order).
pub(super) fn contains(found: &Value, expected: &Value) -> bool {
    match (found, expected) {
        (Value::Object(found), Value::Object(expected)) => {
            expected.iter().all(|(k, v)| found.get(k).is_some_and(|f| contains(f, v)))
        }
        (Value::Array(found), Value::Array(expected)) => {
            expected.iter().all(|item| found.iter().any(|f| contains(f, item)))
        }
        _ => same_value(found, expected),
    }
}
