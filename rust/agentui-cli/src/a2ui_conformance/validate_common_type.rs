//! Action `validate_common_type`: a value checked as one of the common types.

use super::*;

/// Each step's `value` as the common type `definition`, checked by what checks it here: the
/// v1.0 adapter for `Extensions` (a surface's `metadata.extensions`), `ComponentCommon` (a
/// component's reserved keys and metadata) and `FunctionResponse` (`agentFunctionResponse`);
/// the engine's own common-types schema for the others, bound to a catalog whose functions are
/// every name, each shaped as a catalog's function is (`call`, `args`, `returnType`, nothing
/// else). Re-serialising the accepted value is not checked: the engine keeps no model
/// object to serialise.
pub(super) fn validate_common_type(case: &Value) -> Result<(), String> {
    use agentui_a2ui::wire::v10;
    let version = case_version(case);
    let definition = case["definition"].as_str().ok_or("a case without `definition`")?;
    let schema = match definition {
        "Extensions" | "ComponentCommon" | "FunctionResponse" => None,
        other => {
            let mut registry = agentui_a2ui::schema::SchemaRegistry::new();
            let types = agentui_a2ui::catalog::common_types(version == "v1.0");
            let id = types["$id"].as_str().unwrap_or_default().to_owned();
            registry.add_document(&id, types);
            let any_function = json!({"type": "object", "required": ["call"], "additionalProperties": false,
                "properties": {"call": {"type": "string"}, "args": {"type": "object"}, "returnType": {"type": "string"}}});
            registry.add_document("catalog.json", json!({"$defs": {"anyFunction": any_function, "anyComponent": {}}}));
            Some(registry.compile(&format!("{id}#/$defs/{other}")).map_err(|e| format!("{other}: {e}"))?)
        }
    };
    for (index, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let value = step["value"].clone();
        let verdict: Result<(), String> = match (&schema, definition) {
            (Some(schema), _) => match schema.validate(&value).first() {
                None => Ok(()),
                Some(e) => Err(format!("{} {}", e.instance_path, e.message)),
            },
            (None, "Extensions") => v10::parse(json!({"version": "v1.0", "createSurface":
                {"surfaceId": "s", "catalogId": "basic", "metadata": {"extensions": value}}}))
            .map(drop)
            .map_err(|e| e.to_string()),
            (None, "ComponentCommon") => {
                v10::parse(json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [value]}}))
                    .map(drop)
                    .map_err(|e| e.to_string())
            }
            (None, _) => v10::parse(json!({"version": "v1.0", "agentFunctionResponse": value}))
                .map(drop)
                .map_err(|e| e.to_string()),
        };
        match (verdict, step.get("expectError")) {
            (Ok(()), None) | (Err(_), Some(_)) => {}
            (Ok(()), Some(_)) => return Err(format!("step {index}: {} accepted, expected an error", step["value"])),
            (Err(e), None) => return Err(format!("step {index}: {} refused: {e}", step["value"])),
        }
    }
    Ok(())
}

// ---- action: select_catalog ----
