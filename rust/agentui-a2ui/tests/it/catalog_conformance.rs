//! The catalog module against the A2UI v0.9 and v0.9.1 conformance material: the spec's test
//! cases and basic-catalog examples must get the expected verdicts from our own basic catalog,
//! and our catalog must not drift from the spec's catalog.json (names, required lists,
//! properties, enums).

use crate::common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use agentui_a2ui::catalog::{
    client_capabilities_schema, validate_client_message, Catalog, CatalogError, CatalogRegistry, ReturnType,
    BASIC_CATALOG_ALIASES, BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID,
};
use agentui_a2ui::schema::SchemaRegistry;
use agentui_a2ui::A2uiError;
use common::tagged_v091;
use serde_json::{json, Value};

const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/a2ui");
const V09: &str = "v0_9";
const V091: &str = "v0_9_1";

/// `relative` in the spec directory of `version` (`V09`, `V091`).
fn spec_path(version: &str, relative: &str) -> PathBuf {
    Path::new(SPEC).join(version).join(relative)
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files(version: &str, dir: &str, extension: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(spec_path(version, dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    out.sort();
    out
}

/// Runs every case file of the v0.9 spec against `catalog`; returns the number of cases run.
fn run_cases(catalog: &Catalog) -> usize {
    run_cases_of(V09, catalog, Value::clone)
}

/// Runs every case file of `version`'s spec against `catalog`, each message passed through
/// `tag` first; returns the number of cases run.
fn run_cases_of(version: &str, catalog: &Catalog, tag: fn(&Value) -> Value) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in files(version, "test/cases", "json") {
        let suite = read_json(&path);
        let schema = suite["schema"].as_str().unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for case in suite["tests"].as_array().unwrap() {
            count += 1;
            let expected = case["valid"].as_bool().unwrap();
            let data = tag(&case["data"]);
            let errors = match schema {
                "server_to_client.json" => catalog.validate_server_message(&data),
                "client_to_server.json" => validate_client_message(&data),
                other => panic!("{name}: unexpected schema {other}"),
            };
            if errors.is_empty() != expected {
                failures.push(format!("{name}: {:?}: expected valid={expected}, got {errors:?}", case["description"]));
            }
        }
    }
    for path in files(version, "test/cases", "jsonl") {
        let text = fs::read_to_string(&path).unwrap();
        for (line_no, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            count += 1;
            let message: Value = tag(&serde_json::from_str(line).unwrap());
            let errors = catalog.validate_server_message(&message);
            if !errors.is_empty() {
                failures.push(format!("{}:{}: {errors:?}", path.display(), line_no + 1));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {count} cases failed:\n{}", failures.len(), failures.join("\n"));
    count
}

#[test]
fn spec_test_cases_get_the_expected_verdicts() {
    let count = run_cases(&Catalog::basic());
    assert!(count >= 80, "only {count} cases found");
}

#[test]
fn v091_spec_test_cases_get_the_expected_verdicts() {
    for tag in [Value::clone, tagged_v091] {
        let count = run_cases_of(V091, &Catalog::basic(), tag);
        assert!(count >= 80, "only {count} cases found");
    }
}

#[test]
fn spec_test_cases_pass_after_a_round_trip_through_json() {
    let basic = Catalog::basic();
    let full = Catalog::from_json(&basic.to_json()).unwrap();
    run_cases(&full);
    let inline = Catalog::from_json(&basic.to_inline_json()).unwrap();
    run_cases(&inline);
    assert_eq!(full.to_json(), basic.to_json());
}

#[test]
fn every_basic_example_validates_clean() {
    basic_examples_validate_clean(V09, Value::clone);
}

#[test]
fn every_v091_basic_example_validates_clean() {
    basic_examples_validate_clean(V091, Value::clone);
    basic_examples_validate_clean(V091, tagged_v091);
}

fn basic_examples_validate_clean(version: &str, tag: fn(&Value) -> Value) {
    let basic = Catalog::basic();
    let mut failures = Vec::new();
    let examples = files(version, "catalogs/basic/examples", "json");
    assert!(examples.len() >= 30);
    for path in examples {
        let example = read_json(&path);
        for (index, message) in example["messages"].as_array().unwrap().iter().enumerate() {
            let message = &tag(message);
            let errors = basic.validate_server_message(message);
            if !errors.is_empty() {
                failures.push(format!("{} message {index}: {errors:?}", path.display()));
            }
            if let Some(components) = message.pointer("/updateComponents/components").and_then(Value::as_array) {
                for component in components {
                    let errors = basic.validate_component(component);
                    if !errors.is_empty() {
                        failures.push(format!("{} component {}: {errors:?}", path.display(), component["id"]));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- drift guard against the spec's catalog.json -------------------------------------------

/// The component's own properties object (the `allOf` part that fixes `component`).
fn own_part(schema: &Value) -> &Value {
    schema["allOf"]
        .as_array()
        .unwrap()
        .iter()
        .find(|part| part.pointer("/properties/component/const").is_some())
        .expect("a part fixing `component`")
}

fn keys(value: &Value) -> BTreeSet<String> {
    value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn string_set(value: &Value) -> BTreeSet<String> {
    value.as_array().map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect()).unwrap_or_default()
}

/// The `$ref` targets a component mixes in (ComponentCommon, Checkable, ...), by def name.
fn mixins(schema: &Value) -> BTreeSet<String> {
    schema["allOf"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["$ref"].as_str())
        .map(|r| r.rsplit('/').next().unwrap().to_string())
        .collect()
}

/// Every enum reachable in a property schema, with where it is.
fn enums(schema: &Value, at: String, out: &mut Vec<(String, BTreeSet<String>)>) {
    match schema {
        Value::Object(map) => {
            for (key, child) in map {
                if key == "enum" {
                    out.push((at.clone(), string_set(child)));
                } else if key != "description" {
                    enums(child, format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                enums(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn ref_target(schema: &Value) -> Option<String> {
    schema["$ref"].as_str().map(|r| r.rsplit('/').next().unwrap().to_string())
}

#[test]
fn basic_catalog_matches_the_spec_catalog_structurally() {
    matches_the_spec_catalog_structurally(V09);
}

/// v0.9.1 adds no component or function: the same catalog must match its catalog.json too.
#[test]
fn basic_catalog_matches_the_v091_spec_catalog_structurally() {
    matches_the_spec_catalog_structurally(V091);
}

fn matches_the_spec_catalog_structurally(version: &str) {
    let spec = read_json(&spec_path(version, "catalogs/basic/catalog.json"));
    let ours = Catalog::basic().to_json();
    assert_eq!(ours["catalogId"], spec["catalogId"]);

    assert_eq!(keys(&ours["components"]), keys(&spec["components"]), "component names");
    for (name, spec_schema) in spec["components"].as_object().unwrap() {
        let our_schema = &ours["components"][name];
        assert_eq!(our_schema["unevaluatedProperties"], false, "{name}");
        assert_eq!(mixins(our_schema), mixins(spec_schema), "{name}: mixed-in common types");
        let (spec_own, our_own) = (own_part(spec_schema), own_part(our_schema));
        assert_eq!(string_set(&our_own["required"]), string_set(&spec_own["required"]), "{name}: required");
        assert_eq!(keys(&our_own["properties"]), keys(&spec_own["properties"]), "{name}: properties");
        for (prop, spec_prop) in spec_own["properties"].as_object().unwrap() {
            let our_prop = &our_own["properties"][prop];
            let at = format!("{name}.{prop}");
            assert_eq!(our_prop["type"], spec_prop["type"], "{at}: type");
            assert_eq!(ref_target(our_prop), ref_target(spec_prop), "{at}: referenced type");
            assert_eq!(our_prop["default"], spec_prop["default"], "{at}: default");
            assert_eq!(our_prop["minItems"], spec_prop["minItems"], "{at}: minItems");
            let (mut spec_enums, mut our_enums) = (Vec::new(), Vec::new());
            enums(spec_prop, at.clone(), &mut spec_enums);
            enums(our_prop, at.clone(), &mut our_enums);
            assert_eq!(our_enums, spec_enums, "{at}: enums");
            if spec_prop["items"].is_object() {
                let (s, o) = (&spec_prop["items"], &our_prop["items"]);
                assert_eq!(keys(&o["properties"]), keys(&s["properties"]), "{at}: item properties");
                assert_eq!(string_set(&o["required"]), string_set(&s["required"]), "{at}: item required");
                assert_eq!(o["additionalProperties"], s["additionalProperties"], "{at}: item closed");
            }
        }
    }

    assert_eq!(keys(&ours["functions"]), keys(&spec["functions"]), "function names");
    for (name, spec_schema) in spec["functions"].as_object().unwrap() {
        let our_schema = &ours["functions"][name];
        assert_eq!(our_schema["required"], spec_schema["required"], "{name}: required");
        assert_eq!(
            our_schema.pointer("/properties/returnType/const"),
            spec_schema.pointer("/properties/returnType/const"),
            "{name}: return type"
        );
        let (spec_args, our_args) = (&spec_schema["properties"]["args"], &our_schema["properties"]["args"]);
        assert_eq!(keys(&our_args["properties"]), keys(&spec_args["properties"]), "{name}: arguments");
        assert_eq!(string_set(&our_args["required"]), string_set(&spec_args["required"]), "{name}: required arguments");
        assert_eq!(our_args["anyOf"], spec_args["anyOf"], "{name}: alternative requirements");
        for (arg, spec_arg) in spec_args["properties"].as_object().unwrap() {
            let our_arg = &our_args["properties"][arg];
            for keyword in ["type", "minimum", "minItems", "format"] {
                assert_eq!(our_arg[keyword], spec_arg[keyword], "{name}({arg}): {keyword}");
            }
            assert_eq!(ref_target(our_arg), ref_target(spec_arg), "{name}({arg}): referenced type");
            assert_eq!(ref_target(&our_arg["items"]), ref_target(&spec_arg["items"]), "{name}({arg}): item type");
        }
    }

    let (spec_defs, our_defs) = (&spec["$defs"], &ours["$defs"]);
    assert_eq!(
        keys(&our_defs["CatalogComponentCommon"]["properties"]),
        keys(&spec_defs["CatalogComponentCommon"]["properties"])
    );
    let (spec_theme, our_theme) = (&spec_defs["theme"], &our_defs["theme"]);
    assert_eq!(keys(&our_theme["properties"]), keys(&spec_theme["properties"]));
    assert_eq!(our_theme["additionalProperties"], spec_theme["additionalProperties"]);
    for (prop, spec_prop) in spec_theme["properties"].as_object().unwrap() {
        for keyword in ["type", "pattern", "format"] {
            assert_eq!(our_theme["properties"][prop][keyword], spec_prop[keyword], "theme.{prop}: {keyword}");
        }
    }
    for generated in ["anyComponent", "anyFunction"] {
        let refs = |defs: &Value| -> BTreeSet<String> {
            defs[generated]["oneOf"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|b| b["$ref"].as_str())
                .map(String::from)
                .collect()
        };
        assert_eq!(refs(our_defs), refs(spec_defs), "{generated}");
    }
}

#[test]
fn basic_catalog_definitions_are_filled_from_the_schemas() {
    let basic = Catalog::basic();
    assert_eq!(basic.id, BASIC_CATALOG_ID);
    assert_eq!(basic.components.len(), 18);
    assert_eq!(basic.functions.len(), 14);
    assert!(!basic.description.is_empty());
    for component in &basic.components {
        assert!(!component.description.is_empty(), "{}", component.name);
    }
    let text = basic.component("Text").unwrap();
    assert_eq!(text.schema["unevaluatedProperties"], false);
    let format_date = basic.function("formatDate").unwrap();
    assert_eq!(format_date.return_type, ReturnType::String);
    assert_eq!(string_set(&format_date.parameters["required"]), ["format", "value"].map(String::from).into());
    assert_eq!(basic.function("openUrl").unwrap().return_type, ReturnType::Void);
    assert_eq!(basic.function("and").unwrap().return_type, ReturnType::Boolean);
    assert!(basic.component("Table").is_none());
    // Built once, shared afterwards.
    assert!(Arc::ptr_eq(&basic, &Catalog::basic()));
    fn send_sync<T: Send + Sync + std::fmt::Debug>() {}
    send_sync::<Catalog>();
}

// ---- validation entry points ----------------------------------------------------------------

#[test]
fn validate_component_dispatches_on_the_component_type() {
    let basic = Catalog::basic();
    assert!(basic.validate_component(&json!({"id": "t", "component": "Text", "text": "hi"})).is_empty());

    let errors = basic.validate_component(&json!({"id": "t", "component": "Text", "text": "hi", "variant": "h9"}));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].instance_path, "/variant");

    let errors = basic.validate_component(&json!({"id": "x", "component": "Carousel"}));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].instance_path, "/component");
    assert!(errors[0].message.contains("Carousel") && errors[0].message.contains("TextField"), "{}", errors[0].message);

    assert_eq!(basic.validate_component(&json!({"id": "x", "component": 3}))[0].instance_path, "/component");
    assert_eq!(basic.validate_component(&json!({"id": "x"})).len(), 1);
    assert_eq!(basic.validate_component(&json!("Text")).len(), 1);
    // Missing required property and a property the component does not have.
    let errors = basic.validate_component(&json!({"id": "b", "component": "Button", "child": "c", "enabled": true}));
    assert!(errors.len() >= 2, "{errors:?}");
}

#[test]
fn validate_theme_uses_the_catalog_theme() {
    let basic = Catalog::basic();
    assert!(basic.validate_theme(&json!({"primaryColor": "#12abEF", "custom": 1})).is_empty());
    let errors = basic.validate_theme(&json!({"primaryColor": "red"}));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].instance_path, "/primaryColor");
    assert!(!basic.validate_theme(&json!({"iconUrl": "not a url"})).is_empty());
    assert!(!basic.validate_theme(&json!({"agentDisplayName": 7})).is_empty());
}

#[test]
fn server_messages_report_precise_paths() {
    let basic = Catalog::basic();
    let message = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Column", "children": ["a"]},
        {"id": "a", "component": "Text", "text": {"path": "/x"}, "variant": "huge"}
    ]}});
    let errors = basic.validate_server_message(&message);
    assert!(errors.iter().any(|e| e.instance_path == "/updateComponents/components/1/variant"), "{errors:?}");

    // The v0.9.1 patch release is accepted; other versions are not.
    let delete = |version: &str| json!({"version": version, "deleteSurface": {"surfaceId": "s"}});
    assert!(basic.validate_server_message(&delete("v0.9")).is_empty());
    assert!(basic.validate_server_message(&delete("v0.9.1")).is_empty());
    let errors = basic.validate_server_message(&delete("v0.8"));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].instance_path, "/version");

    assert!(!basic.validate_server_message(&json!({"version": "v0.9"})).is_empty());
    assert!(!basic.validate_server_message(&json!([])).is_empty());
    let two = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}, "createSurface": {"surfaceId": "s", "catalogId": "c"}});
    assert!(!basic.validate_server_message(&two).is_empty());

    let bad_theme = json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID, "theme": {"primaryColor": "#123"}}});
    assert_eq!(basic.validate_server_message(&bad_theme)[0].instance_path, "/createSurface/theme/primaryColor");

    let unknown_function = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": {"call": "shout", "args": {"value": "hi"}, "returnType": "string"}}
    ]}});
    assert!(!basic.validate_server_message(&unknown_function).is_empty());
}

#[test]
fn function_calls_validate_against_their_function() {
    let basic = Catalog::basic();
    assert!(basic.validate_function_call(&json!({"call": "not", "args": {"value": true}})).is_empty());
    assert!(!basic.validate_function_call(&json!({"call": "not", "args": {"value": "yes"}})).is_empty());
    assert_eq!(basic.validate_function_call(&json!({"call": "shout"}))[0].instance_path, "/call");
}

#[test]
fn client_messages() {
    let action = json!({"version": "v0.9", "action": {"name": "go", "surfaceId": "s", "sourceComponentId": "b",
        "timestamp": "2024-05-01T10:00:00Z", "context": {}}});
    assert!(validate_client_message(&action).is_empty());
    let error = json!({"version": "v0.9", "error": {"code": "SURFACE_NOT_FOUND", "surfaceId": "s", "message": "no"}});
    assert!(validate_client_message(&error).is_empty());
    let incomplete =
        json!({"version": "v0.9", "error": {"code": "VALIDATION_FAILED", "surfaceId": "s", "message": "no"}});
    assert!(!validate_client_message(&incomplete).is_empty());
    let both = json!({"version": "v0.9", "action": action["action"], "error": error["error"]});
    assert!(!validate_client_message(&both).is_empty());
}

// ---- custom catalogs ------------------------------------------------------------------------

const COMMON: &str = "https://a2ui.org/specification/v0_9/common_types.json";

fn custom_catalog_json() -> Value {
    json!({
        "catalogId": "https://example.com/a2ui/rating_catalog.json",
        "description": "Ratings.",
        "components": {
            "Stars": {
                "type": "object",
                "description": "A row of stars showing a rating.",
                "allOf": [
                    {"$ref": format!("{COMMON}#/$defs/ComponentCommon")},
                    {"$ref": "#/$defs/Sized"},
                    {
                        "type": "object",
                        "properties": {
                            "component": {"const": "Stars"},
                            "value": {"$ref": format!("{COMMON}#/$defs/DynamicNumber"), "description": "The rating."},
                            "max": {"type": "integer", "minimum": 1}
                        },
                        "required": ["component", "value"]
                    }
                ],
                "unevaluatedProperties": false
            },
            "Label": {
                "type": "object",
                "allOf": [
                    {"$ref": format!("{COMMON}#/$defs/ComponentCommon")},
                    {"properties": {"component": {"const": "Label"}, "text": {"$ref": "common_types.json#/$defs/DynamicString"}}, "required": ["component", "text"]}
                ],
                "unevaluatedProperties": false
            }
        },
        "functions": [
            {
                "name": "average",
                "description": "The mean of some numbers.",
                "parameters": {
                    "type": "object",
                    "properties": {"values": {"type": "array", "items": {"$ref": format!("{COMMON}#/$defs/DynamicNumber")}}},
                    "required": ["values"],
                    "additionalProperties": false
                },
                "returnType": "number"
            }
        ],
        "theme": {"accentColor": {"type": "string", "pattern": "^#[0-9a-f]{6}$"}},
        "$defs": {"Sized": {"type": "object", "properties": {"size": {"type": "string", "enum": ["small", "large"]}}}}
    })
}

#[test]
fn custom_catalog_loads_and_validates() {
    let catalog = Catalog::from_json(&custom_catalog_json()).unwrap();
    assert_eq!(catalog.id, "https://example.com/a2ui/rating_catalog.json");
    assert_eq!(catalog.description, "Ratings.");
    assert_eq!(catalog.component("Stars").unwrap().description, "A row of stars showing a rating.");
    let average = catalog.function("average").unwrap();
    assert_eq!(average.return_type, ReturnType::Number);
    assert_eq!(average.description, "The mean of some numbers.");
    assert_eq!(average.parameters["required"], json!(["values"]));

    let good = json!({"id": "s", "component": "Stars", "size": "small",
        "value": {"call": "average", "args": {"values": [1, {"path": "/b"}]}, "returnType": "number"}});
    assert!(catalog.validate_component(&good).is_empty(), "{:?}", catalog.validate_component(&good));
    // Own $defs, common types and functions are all enforced.
    assert_eq!(
        catalog.validate_component(&json!({"id": "s", "component": "Stars", "value": 3, "size": "huge"}))[0]
            .instance_path,
        "/size"
    );
    assert!(!catalog.validate_component(&json!({"id": "s", "component": "Stars", "value": "three"})).is_empty());
    let basic_function =
        json!({"id": "s", "component": "Stars", "value": {"call": "formatNumber", "args": {"value": 1}}});
    assert!(!catalog.validate_component(&basic_function).is_empty(), "functions come from the catalog in use");
    assert!(catalog.validate_component(&json!({"id": "l", "component": "Label", "text": {"path": "/t"}})).is_empty());
    assert_eq!(
        catalog.validate_component(&json!({"id": "t", "component": "Text", "text": "x"}))[0].instance_path,
        "/component"
    );

    // The theme given as a map of parameters.
    assert!(catalog.validate_theme(&json!({"accentColor": "#00aa00"})).is_empty());
    assert!(!catalog.validate_theme(&json!({"accentColor": "green"})).is_empty());

    // Whole messages use the custom catalog too.
    let message = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Stars", "value": 4, "max": 5}
    ]}});
    assert!(catalog.validate_server_message(&message).is_empty());
    assert!(!Catalog::basic().validate_server_message(&message).is_empty());

    // Round trips through both JSON forms keep the verdicts.
    for copy in
        [Catalog::from_json(&catalog.to_json()).unwrap(), Catalog::from_json(&catalog.to_inline_json()).unwrap()]
    {
        assert!(copy.validate_component(&good).is_empty());
        assert!(!copy
            .validate_component(&json!({"id": "s", "component": "Stars", "value": 3, "size": "huge"}))
            .is_empty());
        assert!(!copy.validate_theme(&json!({"accentColor": "green"})).is_empty());
        assert_eq!(copy.function("average").unwrap().return_type, ReturnType::Number);
    }
}

#[test]
fn functions_given_as_call_schemas_load_too() {
    let catalog = Catalog::from_json(&json!({
        "catalogId": "urn:example:upper",
        "functions": {
            "upper": {
                "type": "object",
                "description": "Upper-cases a string.",
                "properties": {
                    "call": {"const": "upper"},
                    "args": {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]},
                    "returnType": {"const": "string"}
                },
                "required": ["call", "args"]
            }
        }
    }))
    .unwrap();
    let upper = catalog.function("upper").unwrap();
    assert_eq!(upper.return_type, ReturnType::String);
    assert_eq!(upper.description, "Upper-cases a string.");
    assert!(catalog.components.is_empty());
    assert!(catalog.validate_function_call(&json!({"call": "upper", "args": {"value": "a"}})).is_empty());
    assert!(!catalog.validate_function_call(&json!({"call": "upper", "args": {}})).is_empty());
    // No components: any component is unknown, and so is any message listing one.
    assert!(!catalog.validate_component(&json!({"id": "t", "component": "Text", "text": "x"})).is_empty());
}

#[test]
fn invalid_catalog_json_is_rejected_with_a_clear_message() {
    let invalid = |value: Value| match Catalog::from_json(&value) {
        Err(e @ CatalogError::Invalid(_)) => e.to_string(),
        Err(other) => panic!("{value}: expected an Invalid error, got {other:?}"),
        Ok(_) => panic!("{value}: accepted"),
    };
    assert!(invalid(json!("catalog")).contains("JSON object"));
    assert!(invalid(json!({"components": {}})).contains("catalogId"));
    assert!(invalid(json!({"catalogId": "x", "components": ["Text"]})).contains("components"));
    assert!(invalid(json!({"catalogId": "x", "componets": {}})).contains("componets"));
    assert!(invalid(json!({"catalogId": "x", "components": {"A": {"type": "object"}}})).contains("\"A\""));
    assert!(invalid(json!({"catalogId": "x", "functions": [{"name": "f", "parameters": {}, "returnType": "str"}]}))
        .contains("returnType"));

    // Schemas that do not compile are reported, not panicked on.
    let unresolved = json!({"catalogId": "x", "components": {"A": {"allOf": [
        {"$ref": "#/$defs/Missing"}, {"properties": {"component": {"const": "A"}}}
    ]}}});
    match Catalog::from_json(&unresolved) {
        Err(CatalogError::Schema(e)) => assert!(e.to_string().contains("Missing"), "{e}"),
        other => panic!("expected a schema error, got {other:?}"),
    }
    let bad_keyword =
        json!({"catalogId": "x", "components": {"A": {"properties": {"component": {"const": "A"}}, "type": 5}}});
    assert!(Catalog::from_json(&bad_keyword).is_err());
}

// ---- registry and capabilities ---------------------------------------------------------------

#[test]
fn registry_resolves_ids_and_aliases() {
    let mut registry = CatalogRegistry::with_basic();
    let basic = registry.get(BASIC_CATALOG_ID).unwrap();
    assert!(Arc::ptr_eq(&basic, &Catalog::basic()));
    assert!(BASIC_CATALOG_ALIASES.contains(&"https://a2ui.org/specification/v0_9/basic_catalog.json"));
    assert!(BASIC_CATALOG_ALIASES.contains(&"https://a2ui.org/specification/v0_8/standard_catalog_definition.json"));
    assert!(
        BASIC_CATALOG_ALIASES.contains(&"https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json")
    );
    for alias in BASIC_CATALOG_ALIASES {
        assert!(Arc::ptr_eq(&registry.get(alias).unwrap(), &basic), "{alias}");
    }

    match registry.get("https://example.com/nope.json") {
        Err(A2uiError::UnknownCatalog(id)) => assert_eq!(id, "https://example.com/nope.json"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(registry.add_alias("x", "https://example.com/nope.json"), Err(A2uiError::UnknownCatalog(_))));

    let custom = Arc::new(Catalog::from_json(&custom_catalog_json()).unwrap());
    registry.register(custom.clone());
    registry.add_alias("https://example.com/a2ui/old_rating.json", &custom.id).unwrap();
    assert!(Arc::ptr_eq(&registry.get("https://example.com/a2ui/old_rating.json").unwrap(), &custom));
    // An alias of an alias lands on the catalog.
    registry.add_alias("legacy-basic", "https://a2ui.org/specification/v0_9/basic_catalog.json").unwrap();
    assert!(Arc::ptr_eq(&registry.get("legacy-basic").unwrap(), &basic));
    // An alias cannot hide a registered catalog.
    assert!(registry.add_alias(BASIC_CATALOG_ID, &custom.id).is_err());

    // Replacing a catalog moves its aliases along.
    let replacement = Arc::new(Catalog::from_json(&custom_catalog_json()).unwrap());
    registry.register(replacement.clone());
    assert!(Arc::ptr_eq(&registry.get("https://example.com/a2ui/old_rating.json").unwrap(), &replacement));
}

#[test]
fn client_capabilities_follow_the_spec_shape() {
    capabilities_follow_the_spec_shape(V09);
}

/// Published v0.9.1 keeps the capabilities entry under `"v0.9"` (its client_capabilities.json
/// requires that key), so one object serves both versions.
#[test]
fn client_capabilities_follow_the_v091_spec_shape() {
    capabilities_follow_the_spec_shape(V091);
}

fn capabilities_follow_the_spec_shape(version: &str) {
    let mut registry = CatalogRegistry::with_basic();
    registry.register(Arc::new(Catalog::from_json(&custom_catalog_json()).unwrap()));
    let spec = read_json(&spec_path(version, "json/client_capabilities.json"));

    let plain = registry.client_capabilities(false);
    // The v0.9 entry as the spec requires it; the basic catalog v1 is offered beside it under
    // "v1.0" (the v0.9 schema allows other members), never in the v0.9 list.
    assert!(string_set(&spec["required"]).is_subset(&keys(&plain)));
    assert_eq!(plain["v1.0"]["supportedCatalogIds"][0], BASIC_V1_CATALOG_ID);
    let v09 = &plain["v0.9"];
    assert!(keys(v09).is_subset(&keys(&spec["properties"]["v0.9"]["properties"])));
    assert!(v09.get("inlineCatalogs").is_none());
    let ids: Vec<&str> = v09["supportedCatalogIds"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(ids[0], BASIC_CATALOG_ID);
    assert!(ids.contains(&"https://example.com/a2ui/rating_catalog.json"));
    for alias in BASIC_CATALOG_ALIASES {
        assert!(ids.contains(alias), "{alias}");
    }
    assert_eq!(ids.len(), 2 + BASIC_CATALOG_ALIASES.len());
    assert!(!ids.contains(&BASIC_V1_CATALOG_ID));
    assert_eq!(registry.client_capabilities(false), plain, "stable order");

    let inline = registry.client_capabilities(true);
    let catalogs = inline["v0.9"]["inlineCatalogs"].as_array().unwrap();
    assert_eq!(catalogs.len(), 2);
    let catalog_def = &spec["$defs"]["Catalog"];
    let function_def = &spec["$defs"]["FunctionDefinition"];
    let allowed_return_types = string_set(&function_def["properties"]["returnType"]["enum"]);
    for catalog in catalogs {
        assert!(keys(catalog).is_subset(&keys(&catalog_def["properties"])), "{:?}", keys(catalog));
        assert!(string_set(&catalog_def["required"]).is_subset(&keys(catalog)));
        for function in catalog["functions"].as_array().unwrap() {
            assert!(keys(function).is_subset(&keys(&function_def["properties"])));
            assert!(string_set(&function_def["required"]).is_subset(&keys(function)));
            assert!(function["parameters"].is_object());
            assert!(allowed_return_types.contains(function["returnType"].as_str().unwrap()));
        }
        for schema in catalog["components"].as_object().unwrap().values() {
            assert!(!schema.to_string().contains("\"#/$defs/"), "inline catalogs have no $defs to point into");
        }
    }

    // Validate against the spec's own schema (the meta-schema it refers to stands in as "any
    // schema") and against ours.
    let mut schemas = SchemaRegistry::new();
    schemas.add_document("https://json-schema.org/draft/2020-12/schema", json!({"type": ["object", "boolean"]}));
    schemas.add_document("client_capabilities.json", spec);
    let spec_schema = schemas.compile("https://a2ui.org/specification/v0_9/client_capabilities.json#").unwrap();
    let mut ours = SchemaRegistry::new();
    ours.add_document("capabilities.json", client_capabilities_schema());
    let our_schema = ours.compile("capabilities.json#").unwrap();
    for capabilities in [&plain, &inline] {
        assert_eq!(spec_schema.validate(capabilities), vec![]);
        assert_eq!(our_schema.validate(capabilities), vec![]);
    }
    assert!(!our_schema.is_valid(&json!({"v0.9": {}})));
    assert!(!our_schema
        .is_valid(&json!({"v0.9": {"supportedCatalogIds": [], "inlineCatalogs": [{"catalogId": "x", "extra": 1}]}})));
}
