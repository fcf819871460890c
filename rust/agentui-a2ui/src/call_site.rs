//! Where the function calls of a component are, and which catalog each belongs to: its own
//! `catalogId`, else the surface's default catalog, never the catalog of the component holding
//! it (the v1.0 resolution). The catalog's component schema only sees the calls it types; a
//! call in an untyped place (a free-form array) is found here all the same.

use serde_json::{Map, Value};

use crate::wire::v10::MAX_NESTING;

/// One call of a component, outermost (a call inside another call's arguments is the outer
/// call's catalog's to check).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CallSite {
    /// JSON Pointer below the component: `/caption`, `/entries/0/group/1`.
    pub pointer: String,
    /// The catalog the call names, if any.
    pub catalog_id: Option<String>,
}

/// The outermost calls of a component in the engine's form (`call`, not `@call`). `metadata` is
/// free-form and never read; a system function (`@index`) has no catalog.
pub(crate) fn outermost_calls(component: &Map<String, Value>) -> Vec<CallSite> {
    let mut found = Vec::new();
    for (key, value) in component.iter().filter(|(key, _)| *key != "metadata") {
        collect(value, &format!("/{}", escape(key)), 1, &mut found);
    }
    found
}

fn collect(value: &Value, at: &str, depth: usize, found: &mut Vec<CallSite>) {
    // The wire layer refused deeper values already; the bound keeps the walk finite regardless.
    if depth > MAX_NESTING {
        return;
    }
    match value {
        Value::Object(map) => {
            if let Some(name) = call_name(map) {
                if !name.starts_with('@') {
                    let catalog_id = map.get("catalogId").and_then(Value::as_str).map(str::to_owned);
                    found.push(CallSite { pointer: at.to_owned(), catalog_id });
                    return;
                }
            }
            for (key, child) in map {
                collect(child, &format!("{at}/{}", escape(key)), depth + 1, found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect(item, &format!("{at}/{i}"), depth + 1, found);
            }
        }
        _ => {}
    }
}

/// `component` with every call that names no catalog (nested ones too) naming `catalog_id`: the
/// form its own catalog's schema judges it in once the calls are known to be another
/// catalog's (the schema then checks only their shape, the other catalog their arguments).
pub(crate) fn naming_default_catalog(component: &Value, catalog_id: &str) -> Value {
    let mut out = component.clone();
    if let Value::Object(map) = &mut out {
        for (_, value) in map.iter_mut().filter(|(key, _)| *key != "metadata") {
            stamp(value, catalog_id, 1);
        }
    }
    out
}

fn stamp(value: &mut Value, catalog_id: &str, depth: usize) {
    if depth > MAX_NESTING {
        return;
    }
    match value {
        Value::Object(map) => {
            let is_call = call_name(map).is_some_and(|name| !name.starts_with('@'));
            if is_call && !map.contains_key("catalogId") {
                map.insert("catalogId".into(), Value::String(catalog_id.to_owned()));
            }
            map.values_mut().for_each(|child| stamp(child, catalog_id, depth + 1));
        }
        Value::Array(items) => items.iter_mut().for_each(|item| stamp(item, catalog_id, depth + 1)),
        _ => {}
    }
}

/// The function a call object names. An object with keys a call has not (an action's
/// `context`, a literal `{path, call, …}`) is a map of values, not a call.
fn call_name(map: &Map<String, Value>) -> Option<&str> {
    const CALL_KEYS: [&str; 4] = ["call", "args", "returnType", "catalogId"];
    let name = map.get("call")?.as_str()?;
    map.keys().all(|key| CALL_KEYS.contains(&key.as_str())).then_some(name)
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_outermost_calls_in_untyped_arrays_and_skips_metadata_and_system_functions() {
        let component = json!({
            "id": "root", "component": "Shelf",
            "entries": [{"group": [{"call": "loud", "args": {"text": {"call": "inner", "args": {}}}}]}],
            "label": {"call": "formatString", "catalogId": "c", "args": {}},
            "index": {"call": "@index"},
            "metadata": {"call": "notACall"},
            "context": {"path": "/p", "call": "literal", "regular": "data"},
        });
        let mut calls = outermost_calls(component.as_object().unwrap());
        calls.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        assert_eq!(
            calls,
            vec![
                CallSite { pointer: "/entries/0/group/0".into(), catalog_id: None },
                CallSite { pointer: "/label".into(), catalog_id: Some("c".into()) },
            ]
        );
    }

    #[test]
    fn names_the_default_catalog_in_calls_that_name_none() {
        let component = json!({"t": {"call": "f", "args": {"a": {"call": "g"}}}, "u": {"call": "h", "catalogId": "x"}});
        let stamped = naming_default_catalog(&component, "d");
        assert_eq!(stamped["t"]["catalogId"], "d");
        assert_eq!(stamped["t"]["args"]["a"]["catalogId"], "d");
        assert_eq!(stamped["u"]["catalogId"], "x");
    }
}
