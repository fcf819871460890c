//! Conformance: the A2UI v0.9 spec's own schemas and test cases, read from the shared checkout
//! (never copied into this repository).

use std::fs;
use std::path::{Path, PathBuf};

use agentui_a2ui::schema::{CompiledSchema, SchemaRegistry};
use serde_json::Value;

fn spec_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/a2ui/v0_9/"))
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// The spec's schemas, registered the way the engine does: the catalog in use as `catalog.json`.
fn registry() -> SchemaRegistry {
    let dir = spec_dir();
    let mut registry = SchemaRegistry::new();
    registry.add_document("common_types.json", read_json(&dir.join("json/common_types.json")));
    registry.add_document("catalog.json", read_json(&dir.join("catalogs/basic/catalog.json")));
    registry.add_document("server_to_client.json", read_json(&dir.join("json/server_to_client.json")));
    registry.add_document("client_to_server.json", read_json(&dir.join("json/client_to_server.json")));
    registry
}

fn compile(registry: &SchemaRegistry, name: &str) -> CompiledSchema {
    registry.compile(name).unwrap_or_else(|e| panic!("compiling {name}: {e}"))
}

#[test]
fn schema_spec_cases_get_their_expected_verdicts() {
    let registry = registry();
    let mut case_files: Vec<PathBuf> = fs::read_dir(spec_dir().join("test/cases"))
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
            let errors = schema.validate(&case["data"]);
            let valid = errors.is_empty();
            assert_eq!(valid, schema.is_valid(&case["data"]), "validate and is_valid disagree on {description}");
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
    let registry = registry();
    let schema = compile(&registry, "server_to_client.json");
    let text = fs::read_to_string(spec_dir().join("test/cases/contact_form_example.jsonl")).expect("jsonl");
    let mut count = 0;
    for (line_no, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let message: Value = serde_json::from_str(line).expect("each line is JSON");
        let errors = schema.validate(&message);
        assert!(errors.is_empty(), "line {}: {errors:#?}", line_no + 1);
        count += 1;
    }
    assert!(count >= 3);
}

#[test]
fn schema_spec_basic_catalog_examples_are_valid() {
    let registry = registry();
    let schema = compile(&registry, "server_to_client.json");
    let mut files: Vec<PathBuf> = fs::read_dir(spec_dir().join("catalogs/basic/examples"))
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
            let errors = schema.validate(message);
            if !errors.is_empty() {
                failures.push(format!("{} message {i}: {errors:#?}", file.display()));
            }
        }
    }
    assert!(count > 36, "only {count} example messages");
    assert!(failures.is_empty(), "{} example messages failed:\n{}", failures.len(), failures.join("\n"));
}
