//! Action `evaluate_function`: one catalog function on literal arguments, the catalog chosen as a surface chooses it.

use super::*;

/// Runs one function with literal arguments: its arguments are checked against the catalog's
/// schema for it, then it is evaluated with an empty data model. With `surface`, the catalog is
/// chosen as a v1.0 surface chooses it: the call's `catalogId`, else the surface's default, else
/// an error; only v1.0 catalogs among `catalogPaths` are available to a v1.0 surface, and a
/// nested call resolves its own. Before v1.0 a call's `catalogId` is ignored.
pub(super) fn evaluate_function(case: &Value, pack_root: &Path) -> Result<(), String> {
    let version = case_version(case);
    let v1 = version == "v1.0";
    let name = case["function"].as_str().ok_or("a case without `function`")?;
    let call = json!({"call": name, "args": case.get("args").cloned().unwrap_or(json!({}))});
    let result = evaluate_call(case, pack_root, v1, call);
    match (result, case.get("expectError"), case.get("expect")) {
        (Err(_), Some(_), _) => Ok(()),
        (Err(e), None, _) => Err(format!("unexpected error: {e}")),
        (Ok(value), Some(expected), _) => Err(format!("expected an error {expected}, got {value}")),
        (Ok(value), None, Some(expected)) if same_value(&value, expected) => Ok(()),
        (Ok(value), None, Some(expected)) => Err(format!("got {value}, expected {expected}")),
        (Ok(_), None, None) => Err("a case without `expect` or `expectError`".into()),
    }
}

fn evaluate_call(case: &Value, pack_root: &Path, v1: bool, call: Value) -> Result<Value, String> {
    use agentui_a2ui::catalog::Catalog;
    let call = if v1 {
        let mut catalogs = Vec::new();
        agentui_a2ui::wire::v10::translate_value(call, "", 0, &mut catalogs).map_err(|e| e.to_string())?
    } else {
        call
    };
    let basic = if v1 { Catalog::basic_v1() } else { Catalog::basic() };
    let catalog = match case.get("surface") {
        None => basic,
        Some(surface) => {
            let available = case_catalogs(case, pack_root, v1)?;
            let find = |id: &str| {
                available.iter().find(|c| c.id == id).cloned().ok_or_else(|| format!("catalog not found: {id}"))
            };
            let default = surface["catalogId"].as_str();
            if v1 {
                check_nested_catalogs(&call["args"], default)?;
                match (case["catalogId"].as_str(), default) {
                    (Some(id), _) | (None, Some(id)) => find(id)?,
                    (None, None) => return Err("the surface has no default catalogId".into()),
                }
            } else {
                find(default.ok_or("a v0.9 surface names its catalog")?)?
            }
        }
    };
    // The function on the case's values, as the engine evaluates a call at bind time, where a
    // value read through a binding has whatever type the data holds: the catalog's typing of
    // literal arguments is a message's validation, which the `validate` cases check. The catalog
    // in use must still define the function.
    if !(catalog.function(name_of(&call)).is_some() || name_of(&call) == agentui_a2ui::functions::INDEX_FUNCTION) {
        return Err(format!("function {:?} is not in catalog {}", name_of(&call), catalog.id));
    }
    let agentui_a2ui::dynamic::Dynamic::Call(parsed) = agentui_a2ui::dynamic::Dynamic::parse(&call) else {
        return Err("not a call".into());
    };
    let mut evaluator = LiteralEvaluator(agentui_a2ui::Localization::default(), v1);
    agentui_a2ui::functions::evaluate(&parsed, &mut evaluator).map_err(|e| e.to_string())
}

fn name_of(call: &Value) -> &str {
    call["call"].as_str().unwrap_or_default()
}

/// v1.0: a call nested in the arguments names its catalog or uses the surface's default.
fn check_nested_catalogs(value: &Value, default: Option<&str>) -> Result<(), String> {
    match value {
        Value::Object(map) => {
            if map.contains_key("call") && !map.contains_key("catalogId") && default.is_none() {
                return Err("a nested call names no catalogId and the surface has no default catalogId".into());
            }
            map.values().try_for_each(|v| check_nested_catalogs(v, default))
        }
        Value::Array(items) => items.iter().try_for_each(|v| check_nested_catalogs(v, default)),
        _ => Ok(()),
    }
}

/// The catalogs of `catalogPaths` a surface of the case's version may use. The basic catalogs
/// are ours (built in, under the same ids as the files); others load from their files.
fn case_catalogs(
    case: &Value,
    pack_root: &Path,
    v1: bool,
) -> Result<Vec<std::sync::Arc<agentui_a2ui::catalog::Catalog>>, String> {
    use agentui_a2ui::catalog::Catalog;
    let mut out = Vec::new();
    for path in case["catalogPaths"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let file = pack_root.join(path);
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let json: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let catalog = match json["catalogId"].as_str() {
            Some(BASIC_V1_CATALOG_ID) => Catalog::basic_v1(),
            Some(BASIC_CATALOG_ID) => Catalog::basic(),
            _ => std::sync::Arc::new(Catalog::from_json(&json).map_err(|e| format!("{path}: {e}"))?),
        };
        if catalog.is_v1() == v1 {
            out.push(catalog);
        }
    }
    Ok(out)
}

/// Evaluates literal arguments (and nested calls); a case's functions read no data model.
struct LiteralEvaluator(agentui_a2ui::Localization, bool);

impl agentui_a2ui::dynamic::Evaluator for LiteralEvaluator {
    fn read_path(&mut self, _path: &str) -> Value {
        Value::Null
    }

    fn eval(&mut self, value: &agentui_a2ui::dynamic::Dynamic) -> Value {
        match value {
            agentui_a2ui::dynamic::Dynamic::Literal(v) => v.clone(),
            agentui_a2ui::dynamic::Dynamic::Path(p) => self.read_path(p),
            agentui_a2ui::dynamic::Dynamic::Call(c) => {
                agentui_a2ui::functions::evaluate(c, self).unwrap_or(Value::Null)
            }
        }
    }

    fn localization(&self) -> &agentui_a2ui::Localization {
        &self.0
    }

    fn validation_results(&self) -> bool {
        self.1
    }
}

// ---- action: dispatch_action ----
