//! v1.0 function calls that name another catalog, and the functions an app implements for its
//! catalogs: they run at bind time (their reads tracked) and for the agent's
//! `callRendererFunction`, and everything they cannot do is refused with a pointer.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::common::{assert_clean, errors};

use agentui_a2ui::catalog::{Catalog, BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID};
use agentui_a2ui::{A2uiError, SurfaceGroup};
use serde_json::{json, Map, Value};

const MATH: &str = "https://example.com/math/catalog.json";

fn v10(key: &str, body: Value) -> Value {
    json!({"version": "v1.0", key: body})
}

/// A v1.0 catalog of functions only: `add(a, b)` for the renderer and the agent, `audit()` for
/// the agent only.
fn math_catalog() -> Arc<Catalog> {
    let number = json!({"$ref": "common_types.json#/$defs/DynamicNumber"});
    Arc::new(
        Catalog::from_json(&json!({
            "catalogId": MATH, "protocolVersion": "1.0",
            "functions": {
                "add": {"type": "object", "allowedCallers": "rendererOrAgent",
                    "properties": {"call": {"const": "add"}, "returnType": {"const": "number"},
                        "args": {"type": "object", "properties": {"a": number, "b": number},
                                 "required": ["a", "b"], "additionalProperties": false}},
                    "required": ["call", "args"]},
                "audit": {"type": "object", "allowedCallers": "agentOnly",
                    "properties": {"call": {"const": "audit"}, "args": {"type": "object"}}, "required": ["call"]},
            },
        }))
        .expect("the math catalog loads"),
    )
}

fn sum(args: &Map<String, Value>) -> Result<Value, String> {
    let mut total = 0.0;
    for (name, value) in args {
        total += value.as_f64().ok_or_else(|| format!("{name} is not a number: {value}"))?;
    }
    Ok(json!(total))
}

fn group_with_math() -> SurfaceGroup {
    let mut group = SurfaceGroup::default();
    group.catalogs_mut().register(math_catalog());
    group
}

fn surface_with(group: &mut SurfaceGroup, text: Value) -> agentui_a2ui::Outcome {
    group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "dataModel": {"a": 3},
               "components": [{"id": "root", "component": "Text", "text": text}]}),
    ))
}

fn text(group: &SurfaceGroup) -> Option<Value> {
    group.surface("s")?.node("root")?.props.get("text").cloned()
}

fn add_call(a: Value) -> Value {
    json!({"@call": "add", "catalogId": MATH, "args": {"a": a, "b": 2}})
}

#[test]
fn a_call_naming_another_catalog_runs_the_apps_function_there_and_follows_its_reads() {
    let mut group = group_with_math();
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    let add = move |args: &Map<String, Value>| {
        counted.fetch_add(1, Ordering::SeqCst);
        sum(args)
    };
    group.register_host_function(MATH, "add", Arc::new(add)).unwrap();
    assert_clean(&surface_with(&mut group, add_call(json!({"@path": "/a"}))));
    assert_eq!(text(&group), Some(json!(5.0)));
    let runs = calls.load(Ordering::SeqCst);
    assert!(runs >= 1);
    // Its argument reads /a: a write there runs it again.
    let write = v10("updateDataModel", json!({"surfaceId": "s", "path": "/a", "value": 10}));
    assert_clean(&group.process_value(&write));
    assert_eq!(text(&group), Some(json!(12.0)));
    assert!(calls.load(Ordering::SeqCst) > runs);
}

#[test]
fn an_app_function_registered_after_the_surface_is_used_from_then_on() {
    let mut group = group_with_math();
    assert_clean(&surface_with(&mut group, add_call(json!({"@path": "/a"}))));
    // Declared but not implemented: the engine has no `add`, so the call fails and shows null.
    assert_eq!(text(&group), Some(Value::Null));
    group.register_host_function(MATH, "add", Arc::new(sum)).unwrap();
    let again = v10(
        "updateComponents",
        json!({"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": add_call(json!(1))}]}),
    );
    assert_clean(&group.process_value(&again));
    assert_eq!(text(&group), Some(json!(3.0)));
}

#[test]
fn an_app_function_is_used_only_in_its_own_catalog() {
    let mut group = group_with_math();
    group.register_host_function(MATH, "add", Arc::new(sum)).unwrap();
    // `add` named without a catalog runs in the surface's default (basic v1), which has none.
    let outcome = surface_with(&mut group, json!({"@call": "add", "args": {"a": 1, "b": 2}}));
    assert_eq!(errors(&outcome)[0]["path"], "/createSurface/components/0/text/call");
}

#[test]
fn a_call_of_another_catalog_is_refused_with_its_pointer_when_it_cannot_run_there() {
    let refused = |text: Value| {
        let mut group = group_with_math();
        let mut old = (*Catalog::basic()).to_json();
        old["catalogId"] = json!("https://example.com/old.json");
        group.catalogs_mut().register(Arc::new(Catalog::from_json(&old).unwrap()));
        let outcome = surface_with(&mut group, text);
        let errors = errors(&outcome);
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors[0]["path"].as_str().unwrap().to_owned()
    };
    // Not registered.
    assert_eq!(
        refused(json!({"@call": "add", "catalogId": "https://example.com/nope.json", "args": {}})),
        "/createSurface/components/0/text/catalogId"
    );
    // Registered for another protocol version.
    assert_eq!(
        refused(json!({"@call": "formatString", "catalogId": "https://example.com/old.json", "args": {"value": "x"}})),
        "/createSurface/components/0/text/catalogId"
    );
    // Not in that catalog, wrong arguments for it, or the agent's only.
    assert_eq!(
        refused(json!({"@call": "formatString", "catalogId": MATH, "args": {"value": "x"}})),
        "/createSurface/components/0/text/call"
    );
    assert!(refused(json!({"@call": "add", "catalogId": MATH, "args": {"a": 1}}))
        .starts_with("/createSurface/components/0/text"));
    assert!(refused(json!({"@call": "add", "catalogId": MATH, "args": {"a": 1, "b": 2, "c": 3}}))
        .starts_with("/createSurface/components/0/text"));
    assert_eq!(
        refused(json!({"@call": "audit", "catalogId": MATH, "args": {}})),
        "/createSurface/components/0/text/call"
    );
    // A call nested in its arguments is checked by the surface's catalog.
    assert!(refused(add_call(json!({"@call": "noSuchFunction", "args": {}})))
        .starts_with("/createSurface/components/0/text/args/a"));
    // The surface's own catalog named outright is the default.
    let mut group = group_with_math();
    let own = json!({"@call": "formatString", "catalogId": BASIC_V1_CATALOG_ID, "args": {"value": "hi"}});
    assert_clean(&surface_with(&mut group, own));
    assert_eq!(text(&group), Some(json!("hi")));
}

#[test]
fn the_agent_runs_an_app_function_and_gets_its_failure_as_an_execution_error() {
    let mut group = group_with_math();
    group.register_host_function(MATH, "add", Arc::new(sum)).unwrap();
    let mut ask = |id: &str, function: &str, args: Value| {
        let outcome = group.process_value(&v10(
            "callRendererFunction",
            json!({"functionCallId": id, "callFunction": {"@call": function, "catalogId": MATH, "args": args}}),
        ));
        let [answer] = outcome.emitted.as_slice() else { panic!("{:?}", outcome.emitted) };
        answer.to_wire()["rendererFunctionResponse"].clone()
    };
    assert_eq!(ask("1", "add", json!({"a": 1, "b": 2})), json!({"functionCallId": "1", "value": 3.0}));
    // The app's function fails: its message, as an execution error.
    let failed = ask("2", "add", json!({"a": "x", "b": 2}));
    assert_eq!(failed["error"]["code"], "INVALID_FUNCTION_CALL", "the schema refuses a string first: {failed}");
    let mut group = group_with_math();
    group
        .register_host_function(
            MATH,
            "add",
            Arc::new(|_: &Map<String, Value>| Err("the math service is down".to_owned())),
        )
        .unwrap();
    let outcome = group.process_value(&v10(
        "callRendererFunction",
        json!({"functionCallId": "3", "callFunction": {"@call": "add", "catalogId": MATH, "args": {"a": 1, "b": 2}}}),
    ));
    let answer = outcome.emitted[0].to_wire()["rendererFunctionResponse"].clone();
    assert_eq!(answer["error"]["code"], "EXECUTION_ERROR");
    assert!(answer["error"]["message"].as_str().unwrap().contains("the math service is down"), "{answer}");
}

#[test]
fn registering_needs_a_known_catalog_that_declares_the_function() {
    let mut group = group_with_math();
    let register = |group: &mut SurfaceGroup, catalog: &str, name: &str| {
        group.register_host_function(catalog, name, Arc::new(sum))
    };
    assert!(matches!(register(&mut group, "https://example.com/nope.json", "add"), Err(A2uiError::UnknownCatalog(_))));
    assert!(register(&mut group, MATH, "multiply").is_err());
    assert!(register(&mut group, BASIC_CATALOG_ID, "add").is_err());
    assert!(register(&mut group, MATH, "add").is_ok());
    // Again under the same name: replaced, not added.
    assert!(register(&mut group, MATH, "add").is_ok());
}

/// A custom v1.0 catalog written as the catalog format writes it (`"@call"` keys), with a
/// component holding an untyped array and a function of one string parameter.
fn shelf_catalog() -> Arc<Catalog> {
    Arc::new(
        Catalog::from_json(&json!({
            "catalogId": SHELF, "protocolVersion": "1.0",
            "components": {
                "Shelf": {"type": "object",
                    "properties": {"component": {"const": "Shelf"}, "entries": {"type": "array"}},
                    "required": ["component", "entries"]},
                "Sticker": {"type": "object",
                    "properties": {"component": {"const": "Sticker"},
                        "caption": {"$ref": "common_types.json#/$defs/DynamicString"}},
                    "required": ["component", "caption"]},
            },
            "functions": {
                "loud": {"type": "object", "returnType": "string",
                    "properties": {"@call": {"const": "loud"},
                        "args": {"type": "object", "properties": {"text": {"type": "string"}},
                                 "required": ["text"], "additionalProperties": false}},
                    "required": ["@call", "args"]},
            },
        }))
        .expect("the shelf catalog loads"),
    )
}

const SHELF: &str = "https://example.com/shelf.json";

fn shelf_errors(component: Value) -> Vec<Value> {
    let mut group = SurfaceGroup::default();
    group.catalogs_mut().register(shelf_catalog());
    let outcome = group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "components": [component]}),
    ));
    errors(&outcome)
}

#[test]
fn a_call_naming_a_custom_catalog_has_its_args_checked_by_that_function() {
    let bad = json!({"@call": "loud", "catalogId": SHELF, "args": {"text": 7}});
    let errors = shelf_errors(json!({"id": "root", "component": "Text", "text": bad}));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["path"].as_str().unwrap().starts_with("/createSurface/components/0/text/args"), "{errors:?}");
    let good = json!({"@call": "loud", "catalogId": SHELF, "args": {"text": "hi"}});
    assert_eq!(shelf_errors(json!({"id": "root", "component": "Text", "text": good})), Vec::<Value>::new());
}

#[test]
fn a_call_inside_an_untyped_array_is_resolved_in_its_catalog() {
    let entries = |call: Value| json!([{"group": [call]}]);
    let shelf = |call: Value| json!({"id": "root", "component": "Shelf", "catalogId": SHELF, "entries": entries(call)});
    // Named catalog, wrong argument type.
    let errors = shelf_errors(shelf(json!({"@call": "loud", "catalogId": SHELF, "args": {"text": 1}})));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["path"].as_str().unwrap().starts_with("/createSurface/components/0/entries/0/group/0"));
    // No catalog: the surface's default, which has no `loud`.
    let errors = shelf_errors(shelf(json!({"@call": "loud", "args": {"text": "b"}})));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["path"], "/createSurface/components/0/entries/0/group/0/call");
    // A call the surface's default knows is fine there.
    let fine = shelf(json!({"@call": "formatString", "args": {"value": "b"}}));
    assert_eq!(shelf_errors(fine), Vec::<Value>::new());
}
