//! Action `from_json`: a catalog loaded as a renderer loads one, and what it holds and accepts.

use super::*;

/// `from_json` cases that check an agent SDK's catalog object rather than what a renderer loads,
/// by what they check.
const FROM_JSON_SDK_ONLY: &[(&str, &str)] = &[
    ("styles", "agent SDK tooling: v0.8 `styles` mapped onto the SDK catalog object's theme"),
    ("inlined", "agent SDK tooling: the SDK catalog object's schemas with local and common-types $refs inlined"),
    ("override", "agent SDK tooling: an argument of the SDK's Catalog.from_json that overrides the catalog's id"),
];

/// Loads a catalog as a renderer loads one (`Catalog::from_json`) and checks it: its error
/// (`expectError`), what it holds (`expect`: id, version, theme, components, functions with
/// their v1.0 attributes), that it loads without the specification tree (`selfContained`), and
/// which components it accepts on a surface (`validComponents` / `invalidComponents`, each sent
/// alone in an `updateComponents`). A case gives its catalog inline, in the agent SDKs' form
/// (components by name, functions as `{returnType, parameters}`), which is written out in the
/// catalog JSON format first; or as a file of the pack (`catalogPath`), loaded as it is.
pub(super) fn from_json(case: &Value, pack_root: &Path) -> Verdict {
    let catalog = &case["catalog"];
    let sdk_only = if catalog.get("styles").is_some() {
        Some("styles")
    } else if case.get("catalogId").is_some() && catalog.get("catalogId").is_some() {
        Some("override")
    } else if name_says(case, "inlines") || name_says(case, "resolves_common_types") {
        Some("inlined")
    } else {
        None
    };
    if let Some((_, why)) = sdk_only.and_then(|key| FROM_JSON_SDK_ONLY.iter().find(|(k, _)| *k == key)) {
        return Verdict::NotRun(format!("from_json: {why}"));
    }
    let version = case_version(case);
    let document = match case["catalogPath"].as_str() {
        Some(path) => match pack_file(pack_root, path) {
            Some(file) => match fs::read_to_string(&file)
                .map_err(|e| e.to_string())
                .and_then(|text| serde_json::from_str::<Value>(&text).map_err(|e| format!("{}: {e}", file.display())))
            {
                Ok(document) => document,
                Err(e) => return Verdict::Failed(e),
            },
            None => return Verdict::NotRun(format!("from_json: the pack holds no {path} (SOURCE.txt, problem 5)")),
        },
        None => catalog_document(case, &version),
    };
    let result = match (agentui_a2ui::catalog::Catalog::from_json(&document), case.get("expectError")) {
        (Err(_), Some(_)) => Ok(()),
        (Err(e), None) => Err(format!("refused: {e}")),
        (Ok(_), Some(expected)) => Err(format!("loaded, expected an error {expected}")),
        (Ok(loaded), None) => check_loaded(&std::sync::Arc::new(loaded), &case["expect"], &version),
    };
    match result {
        Ok(()) => Verdict::Passed,
        Err(why) => Verdict::Failed(why),
    }
}

fn name_says(case: &Value, word: &str) -> bool {
    case["name"].as_str().is_some_and(|n| n.contains(word))
}

/// A path of the pack (`specification/v1_0/...`, `catalogs/...`), or of an older version's pack
/// beside it (`specification/v0_9_1/x` is `../v0_9_1/x`) when this one does not hold it.
pub(super) fn pack_file(pack_root: &Path, path: &str) -> Option<PathBuf> {
    let here = pack_root.join(path);
    if here.is_file() {
        return Some(here);
    }
    let beside = pack_root.parent()?.join(path.strip_prefix("specification/")?);
    beside.is_file().then_some(beside)
}

/// The case's SDK-form catalog in the catalog JSON format: the version as a catalog writes it
/// (`1.0`, none before v1.0), `catalogId` given beside the catalog when it names none, each
/// component's `component` fixed to its name, each function a call schema.
pub(super) fn catalog_document(case: &Value, version: &str) -> Value {
    let mut document = case["catalog"].clone();
    let Value::Object(fields) = &mut document else { return document };
    fields.remove("protocolVersion");
    if version == "v1.0" {
        fields.insert("protocolVersion".into(), Value::from("1.0"));
    }
    if let (false, Some(id)) = (fields.contains_key("catalogId"), case["catalogId"].as_str()) {
        fields.insert("catalogId".into(), Value::from(id));
    }
    if let Some(Value::Object(components)) = fields.get_mut("components") {
        for (name, schema) in components.iter_mut() {
            if schema["properties"].get("component").is_none() && schema.is_object() {
                schema["properties"]["component"] = json!({"const": name});
            }
        }
    }
    if let Some(Value::Object(functions)) = fields.get_mut("functions") {
        for (name, definition) in functions.iter_mut() {
            // Written as a call schema already (the catalog format): its `args` are the
            // function's parameters and stay as declared.
            if definition.get("properties").is_some() {
                continue;
            }
            let mut schema = json!({"type": "object",
                "properties": {"call": {"const": name},
                    "args": {"type": "object", "properties": definition.get("parameters").cloned().unwrap_or(json!({}))}},
                "required": ["call"]});
            if let Some(returns) = definition.get("returnType") {
                schema["properties"]["returnType"] = json!({"const": returns});
            }
            for key in ["description", "allowedCallers", "requiresUserActivation"] {
                if let Some(value) = definition.get(key) {
                    schema[key] = value.clone();
                }
            }
            *definition = schema;
        }
    }
    document
}

/// What a loaded catalog holds, against the case's `expect`.
fn check_loaded(
    catalog: &std::sync::Arc<agentui_a2ui::catalog::Catalog>,
    expect: &Value,
    version: &str,
) -> Result<(), String> {
    for (key, expected) in expect.as_object().into_iter().flatten() {
        match key.as_str() {
            "catalogId" if catalog.id == *expected => {}
            "protocolVersion" if format!("v{}", catalog.protocol_version) == *expected => {}
            "theme" => {
                let theme = &catalog.to_json()["$defs"]["theme"];
                // `{}`: a theme that declares nothing (v1.0 catalogs have none).
                let same = if expected.as_object().is_some_and(|m| m.is_empty()) {
                    theme["properties"].as_object().is_none_or(|p| p.is_empty())
                } else {
                    theme == expected
                };
                if !same {
                    return Err(format!("theme {theme}, expected {expected}"));
                }
            }
            "components" => check_components_loaded(catalog, expected)?,
            "functions" => check_functions_loaded(catalog, expected)?,
            "selfContained" if *expected == true => {}
            "validComponents" | "invalidComponents" => {
                let valid = key == "validComponents";
                for component in expected.as_array().into_iter().flatten() {
                    let sent = send_component(catalog, version, component);
                    match (valid, sent.is_empty()) {
                        (true, false) => return Err(format!("{component} refused: {}", Value::Array(sent))),
                        (false, true) => return Err(format!("{component} accepted, expected it refused")),
                        _ => {}
                    }
                }
            }
            _ => return Err(format!("{key}: {expected} does not match the loaded catalog")),
        }
    }
    Ok(())
}

fn check_components_loaded(catalog: &agentui_a2ui::catalog::Catalog, expected: &Value) -> Result<(), String> {
    let mut ours: Vec<&str> = catalog.components.iter().map(|c| c.name.as_str()).collect();
    let mut theirs: Vec<&str> = expected.as_object().into_iter().flatten().map(|(k, _)| k.as_str()).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    if ours != theirs {
        return Err(format!("components {ours:?}, expected {theirs:?}"));
    }
    for (name, schema) in expected.as_object().into_iter().flatten() {
        let def = catalog.component(name).ok_or_else(|| format!("no component {name}"))?;
        for (key, value) in schema.as_object().into_iter().flatten() {
            let same = match key.as_str() {
                "allowedParents" => def.allowed_parents.as_ref().map(|p| json!(p)).as_ref() == Some(value),
                "allowedChildren" => def.allowed_children.as_ref().map(|c| json!(c)).as_ref() == Some(value),
                "description" => def.description == *value,
                // Every property the case names, as declared; `component` is the one we add.
                "properties" => {
                    let mut found = def.schema["properties"].as_object().cloned().unwrap_or_default();
                    found.remove("component");
                    Value::Object(found) == *value
                }
                _ => def.schema.get(key) == Some(value),
            };
            if !same {
                return Err(format!("component {name}.{key}: expected {value}, loaded {}", def.schema));
            }
        }
    }
    Ok(())
}

fn check_functions_loaded(catalog: &agentui_a2ui::catalog::Catalog, expected: &Value) -> Result<(), String> {
    let mut ours: Vec<&str> = catalog.functions.iter().map(|f| f.name.as_str()).collect();
    let mut theirs: Vec<&str> = expected.as_object().into_iter().flatten().map(|(k, _)| k.as_str()).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    if ours != theirs {
        return Err(format!("functions {ours:?}, expected {theirs:?}"));
    }
    for (name, definition) in expected.as_object().into_iter().flatten() {
        let def = catalog.function(name).ok_or_else(|| format!("no function {name}"))?;
        for (key, value) in definition.as_object().into_iter().flatten() {
            let found = match key.as_str() {
                "returnType" => Value::from(def.return_type.as_str()),
                "parameters" => def.parameters["properties"].clone(),
                "allowedCallers" => Value::from(def.allowed_callers.as_str()),
                "requiresUserActivation" => Value::from(def.requires_user_activation),
                "description" => Value::from(def.description.as_str()),
                other => return Err(format!("function {name}.{other}: not a field a catalog function has")),
            };
            if found != *value {
                return Err(format!("function {name}.{key} is {found}, expected {value}"));
            }
        }
    }
    Ok(())
}

/// One component sent alone to a fresh surface drawing from `catalog`: what was sent back.
fn send_component(
    catalog: &std::sync::Arc<agentui_a2ui::catalog::Catalog>,
    version: &str,
    component: &Value,
) -> Vec<Value> {
    if let Some(errors) = judged_alone(catalog, version, component) {
        return errors;
    }
    let mut group = SurfaceGroup::default();
    group.catalogs_mut().register(std::sync::Arc::clone(catalog));
    let mut sent = Vec::new();
    for message in [
        json!({"version": version, "createSurface": {"surfaceId": "s", "catalogId": catalog.id}}),
        json!({"version": version, "updateComponents": {"surfaceId": "s", "components": [component]}}),
    ] {
        sent.extend(group.process_value(&message).emitted.iter().map(ClientMessage::to_wire));
    }
    sent
}

/// A v1.0 component holding a call that names another catalog is judged by `catalog` alone, as
/// the case says ("validating a component against the published v1.0 basic catalog alone"): that
/// catalog cannot judge the other's function and accepts the call, checking its arguments as
/// dynamic values. (A surface also checks the call against the catalog it names, which the
/// case's renderer does not register: `tests/it/v10.rs` covers that side.) `None`: no such call.
fn judged_alone(catalog: &agentui_a2ui::catalog::Catalog, version: &str, component: &Value) -> Option<Vec<Value>> {
    if !version.contains("1.0") {
        return None;
    }
    let mut named = Vec::new();
    let translated = agentui_a2ui::wire::v10::translate_value(component.clone(), "", 0, &mut named).ok()?;
    let own = |id: &str| id == catalog.id || agentui_a2ui::catalog::BASIC_V1_CATALOG_ALIASES.contains(&id);
    if named.iter().all(|(_, id)| own(id)) {
        return None;
    }
    Some(
        catalog
            .validate_component(&translated)
            .into_iter()
            .map(|e| json!({"error": {"code": "VALIDATION_FAILED", "path": e.instance_path, "message": e.message}}))
            .collect(),
    )
}

// ---- action: data_model ----
