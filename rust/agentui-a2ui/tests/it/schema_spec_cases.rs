//! Conformance: the A2UI v0.9 and v0.9.1 specs' own schemas and test cases, read from the shared
//! checkout (never copied into this repository).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use agentui_a2ui::schema::{CompiledSchema, SchemaRegistry};
use common::tagged_v091;
use serde_json::Value;

/// The spec directory of a version (`"v0_9"`, `"v0_9_1"`).
fn spec_dir(version: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/a2ui/")).join(version)
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// The spec's schemas, registered the way the engine does: the catalog in use as `catalog.json`.
fn registry(version: &str) -> SchemaRegistry {
    registry_with_catalog(version, "catalogs/basic/catalog.json")
}

fn registry_with_catalog(version: &str, catalog: &str) -> SchemaRegistry {
    let dir = spec_dir(version);
    let mut registry = SchemaRegistry::new();
    registry.add_document("common_types.json", read_json(&dir.join("json/common_types.json")));
    registry.add_document("catalog.json", read_json(&dir.join(catalog)));
    registry.add_document("server_to_client.json", read_json(&dir.join("json/server_to_client.json")));
    registry.add_document("client_to_server.json", read_json(&dir.join("json/client_to_server.json")));
    registry
}

fn compile(registry: &SchemaRegistry, name: &str) -> CompiledSchema {
    registry.compile(name).unwrap_or_else(|e| panic!("compiling {name}: {e}"))
}

#[test]
fn schema_spec_cases_get_their_expected_verdicts() {
    cases_get_their_expected_verdicts("v0_9", Value::clone);
}

#[test]
fn v091_schema_spec_cases_get_their_expected_verdicts() {
    cases_get_their_expected_verdicts("v0_9_1", Value::clone);
    cases_get_their_expected_verdicts("v0_9_1", tagged_v091);
}

fn cases_get_their_expected_verdicts(version: &str, tag: fn(&Value) -> Value) {
    let registry = registry(version);
    let mut case_files: Vec<PathBuf> = fs::read_dir(spec_dir(version).join("test/cases"))
        .expect("test/cases directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    case_files.sort();
    assert!(!case_files.is_empty(), "no spec test cases found");

    let mut failures = Vec::new();
    let mut total = 0;
    for file in &case_files {
        let suite = read_json(file);
        let schema_name = suite["schema"].as_str().expect("`schema` names the schema file");
        let schema = compile(&registry, schema_name);
        let cases = suite["tests"].as_array().expect("`tests` array");
        for case in cases {
            total += 1;
            let description = case["description"].as_str().unwrap_or("?");
            let expected = case["valid"].as_bool().expect("`valid` flag");
            let data = tag(&case["data"]);
            let errors = schema.validate(&data);
            let valid = errors.is_empty();
            assert_eq!(valid, schema.is_valid(&data), "validate and is_valid disagree on {description}");
            let name = file.file_name().unwrap_or_default().to_string_lossy();
            if valid != expected {
                failures.push(format!("{name}: {description}: expected valid={expected}, errors={errors:#?}"));
            } else if std::env::var_os("SCHEMA_SHOW_ERRORS").is_some() && !valid {
                eprintln!("{name}: {description}:");
                for e in &errors {
                    eprintln!("    {} {}", e.instance_path, e.message);
                }
            }
        }
    }
    assert!(total > 70, "only {total} cases found");
    assert!(failures.is_empty(), "{} of {total} spec cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn schema_spec_contact_form_example_lines_are_valid() {
    contact_form_example_lines_are_valid("v0_9", Value::clone);
}

#[test]
fn v091_schema_spec_contact_form_example_lines_are_valid() {
    contact_form_example_lines_are_valid("v0_9_1", Value::clone);
    contact_form_example_lines_are_valid("v0_9_1", tagged_v091);
}

fn contact_form_example_lines_are_valid(version: &str, tag: fn(&Value) -> Value) {
    let registry = registry(version);
    let schema = compile(&registry, "server_to_client.json");
    let text = fs::read_to_string(spec_dir(version).join("test/cases/contact_form_example.jsonl")).expect("jsonl");
    let mut count = 0;
    for (line_no, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let message: Value = tag(&serde_json::from_str(line).expect("each line is JSON"));
        let errors = schema.validate(&message);
        assert!(errors.is_empty(), "line {}: {errors:#?}", line_no + 1);
        count += 1;
    }
    assert!(count >= 3);
}

#[test]
fn schema_spec_basic_catalog_examples_are_valid() {
    catalog_examples_are_valid("v0_9", "basic", 36, Value::clone);
}

#[test]
fn v091_schema_spec_basic_catalog_examples_are_valid() {
    catalog_examples_are_valid("v0_9_1", "basic", 36, Value::clone);
    catalog_examples_are_valid("v0_9_1", "basic", 36, tagged_v091);
}

#[test]
fn v091_schema_spec_minimal_catalog_examples_are_valid() {
    catalog_examples_are_valid("v0_9_1", "minimal", 7, Value::clone);
    catalog_examples_are_valid("v0_9_1", "minimal", 7, tagged_v091);
}

/// Every message of the examples of `catalog` validates against the spec's message schema with
/// that catalog in use; `min_messages` guards against an empty directory.
fn catalog_examples_are_valid(version: &str, catalog: &str, min_messages: usize, tag: fn(&Value) -> Value) {
    let registry = registry_with_catalog(version, &format!("catalogs/{catalog}/catalog.json"));
    let schema = compile(&registry, "server_to_client.json");
    let mut files: Vec<PathBuf> = fs::read_dir(spec_dir(version).join(format!("catalogs/{catalog}/examples")))
        .expect("examples directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let example = read_json(file);
        for (i, message) in example["messages"].as_array().expect("`messages` array").iter().enumerate() {
            count += 1;
            let errors = schema.validate(&tag(message));
            if !errors.is_empty() {
                failures.push(format!("{} message {i}: {errors:#?}", file.display()));
            }
        }
    }
    assert!(count > min_messages, "only {count} example messages");
    assert!(failures.is_empty(), "{} example messages failed:\n{}", failures.len(), failures.join("\n"));
}

/// The v1.0 schemas (the August 2026 layer, the only stored v1.0 schema set), registered as
/// upstream's run_tests.py binds them: every file of json/ by its name, and the suite's catalog
/// (the basic catalog unless the suite names test/testing_catalog.json) as `catalog.json`.
fn v10_registry(catalog: &Path) -> SchemaRegistry {
    let dir = spec_dir("v1_0/specification/v1_0");
    let mut registry = SchemaRegistry::new();
    // The JSON Schema meta-schema that catalog_definition.json refers to stands in as "any schema".
    registry.add_document(
        "https://json-schema.org/draft/2020-12/schema",
        serde_json::json!({"type": ["object", "boolean"]}),
    );
    let mut files: Vec<PathBuf> = fs::read_dir(dir.join("json")).expect("json/").map(|e| e.unwrap().path()).collect();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        registry.add_document(&name, read_json(&file));
    }
    registry.add_document("catalog.json", read_json(catalog));
    registry
}

/// Every v1.0 schema test case gets its expected verdict from our validator.
#[test]
fn v10_schema_spec_cases_get_their_expected_verdicts() {
    let dir = spec_dir("v1_0/specification/v1_0");
    let mut case_files: Vec<PathBuf> = fs::read_dir(dir.join("test/cases"))
        .expect("test/cases directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    case_files.sort();
    let mut failures = Vec::new();
    let mut total = 0;
    for file in &case_files {
        let suite = read_json(file);
        let catalog = match suite.get("catalog").and_then(Value::as_str) {
            Some(name) => dir.join("test").join(name),
            None => dir.join("catalogs/basic/catalog.json"),
        };
        let registry = v10_registry(&catalog);
        let schema_name = suite["schema"].as_str().expect("`schema` names the schema file");
        let schema = compile(&registry, schema_name);
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        for case in suite["tests"].as_array().expect("`tests` array") {
            total += 1;
            let description = case["description"].as_str().unwrap_or("?");
            let expected = case["valid"].as_bool().expect("`valid` flag");
            let errors = schema.validate(&case["data"]);
            if errors.is_empty() != expected {
                failures.push(format!("{name}: {description}: expected valid={expected}, errors={errors:#?}"));
            }
        }
    }
    assert!(total >= 153, "only {total} cases found");
    assert!(failures.is_empty(), "{} of {total} spec cases failed:\n{}", failures.len(), failures.join("\n"));
}

/// Valid v1.0 messages the engine does not take yet, each with the reason; the test fails when
/// one starts to pass, so the list cannot go stale.
const V10_ENGINE_GAPS: [(&str, &str); 0] = [];

/// The same v1.0 agent-to-renderer cases through the engine (the v1.0 adapter and the basic
/// catalog v1 we define): a case the schema refuses gets an error back, a valid one none. An
/// update is applied to a surface created for it first.
#[test]
fn v10_schema_spec_cases_get_their_verdicts_from_the_engine() {
    let dir = spec_dir("v1_0/specification/v1_0/test/cases");
    let mut failures = Vec::new();
    let mut total = 0;
    for file in common::json_files(&dir) {
        let suite = read_json(&file);
        // Suites on the testing catalog or on other schemas are the validator's (above).
        if suite["schema"] != "agent_to_renderer.json" || suite.get("catalog").is_some() {
            continue;
        }
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for case in suite["tests"].as_array().expect("`tests` array") {
            total += 1;
            let description = case["description"].as_str().unwrap_or("?");
            let expected = case["valid"].as_bool().expect("`valid` flag");
            let mut group = agentui_a2ui::SurfaceGroup::default();
            let data = &case["data"];
            let surface = data.as_object().and_then(|o| o.values().find_map(|b| b.get("surfaceId"))).cloned();
            if let (Some(surface), None) = (surface, data.get("createSurface")) {
                let create = serde_json::json!({"version": "v1.0", "createSurface": {
                    "surfaceId": surface, "catalogId": agentui_a2ui::catalog::BASIC_V1_CATALOG_ID}});
                common::assert_clean(&group.process_value(&create));
            }
            let errors = common::errors(&group.process_value(data));
            if let Some((_, why)) = V10_ENGINE_GAPS.iter().find(|(case, _)| *case == description) {
                assert!(!errors.is_empty(), "{description} passes now ({why}): take it off V10_ENGINE_GAPS");
                continue;
            }
            if errors.is_empty() != expected {
                failures.push(format!("{name}: {description}: expected valid={expected}, errors={errors:?}"));
            }
        }
    }
    assert!(total >= 100, "only {total} cases found");
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n"));
}
