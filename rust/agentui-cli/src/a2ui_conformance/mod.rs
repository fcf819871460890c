//! `agentui a2ui conformance DIR`: the A2UI spec owners' language-neutral conformance suite (YAML
//! cases under DIR, e.g. `core/*.yaml`) run through the engine, one verdict per case.
//!
//! A case is passed, failed (with what differed), or not run, with the reason: agent-side
//! actions, and renderer-side actions this harness does not drive yet. Nothing is dropped
//! silently, and an expectation the harness cannot check fails the case rather than pass it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use agentui_a2ui::catalog::{BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID};
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::SurfaceGroup;
use serde_json::{json, Value};
use yaml_rust2::YamlLoader;

use self::yaml::to_json;

mod accessibility_check;
mod data_model;
mod dispatch_action;
mod evaluate_function;
mod from_json;
mod handle_rpc;
mod parse_expression_template;
mod process_messages;
mod renderer_reports;
mod resolve_nodes;
mod select_catalog;
mod skips;
#[cfg(test)]
mod tests;
mod validate;
mod validate_common_type;
mod yaml;

/// What became of one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Passed,
    Failed(String),
    /// An action that is not a renderer's, or a case the harness cannot run, with the reason.
    NotRun(String),
    /// A case of `SKIP_TEST_NAMES` that still fails, or one written for a protocol version
    /// outside `SUPPORTED_PROTOCOL_VERSIONS`; with the reason.
    Skipped(String),
}

#[derive(Debug, Clone)]
pub struct CaseReport {
    /// The suite file, relative to DIR.
    pub file: String,
    pub name: String,
    /// The protocol version the case is written for (`v0.9` when it names none).
    pub version: String,
    pub verdict: Verdict,
}

/// Actions of `conformance_schema.json` that are not a renderer's, with the reason: they test an
/// agent SDK (prompts, parsers of model output, payload fixing, schema generation) or an
/// integration extension (A2A, ADK). Every other action of the schema is driven through the engine.
const NOT_RUN: &[(&str, &str)] = &[
    ("catalog_schema", "agent SDK tooling: a catalog bundled with the common types for a prompt"),
    ("common_types_schema", "agent SDK tooling: the common-types schema generated from an SDK's model classes"),
    ("generate_prompt", "agent SDK tooling: a system prompt generated from a catalog"),
    ("from_format", "agent SDK tooling: an inference format for a model's prompt"),
    ("core_syntax", "agent SDK tooling: the syntax section of a model's prompt"),
    ("from_catalog", "agent SDK tooling: an inference format built from a catalog"),
    ("load_catalog", "agent SDK tooling: the schema manager's catalog loading for prompts"),
    ("select_newest", "agent SDK tooling: the schema manager's choice among catalog versions"),
    ("prune", "agent SDK tooling: a catalog pruned to the components a prompt allows"),
    ("remove_strict_validation", "agent SDK tooling: a schema loosened for a model's structured output"),
    ("skill_set", "agent SDK tooling: prompt skills loaded from files"),
    ("fix_payload", "agent SDK tooling: repairing a model's malformed JSON output"),
    ("parse_full", "agent SDK tooling: parsing a model's whole text output into messages"),
    ("process_chunk", "agent SDK tooling: the streaming parser of a model's text output"),
    ("verify_cuttable_keys", "agent SDK tooling: the streaming parser's cuttable keys"),
    ("resolve_path", "agent SDK tooling: the streaming parser's path resolution over partial output"),
    ("execute_tool", "agent SDK tooling: an agent framework's tool call"),
    ("convert_event", "A2A extension: conversion of an agent framework's events into A2A parts"),
    ("create_a2ui_part", "A2A extension: an A2A message part wrapping A2UI messages"),
    ("is_a2ui_part", "A2A extension: recognising an A2A part as A2UI"),
    ("has_parts", "A2A extension: whether an A2A message holds A2UI parts"),
    ("get_extension", "A2A extension: the agent card's extension declaration"),
    ("try_activate", "A2A extension: activation negotiated on an A2A request"),
    ("try_activate_extension", "A2A extension: activation negotiated on an A2A request"),
];

/// Runs every `.yaml` suite under `dir` (recursively, in path order).
pub fn run_dir(dir: &Path) -> Result<Vec<CaseReport>, String> {
    let mut files = Vec::new();
    collect_yaml(dir, &mut files)?;
    if files.is_empty() {
        return Err(format!("{}: no .yaml suites", dir.display()));
    }
    // Catalog paths in cases are relative to the pack's root, the suite directory's parent.
    let pack_root = dir.parent().unwrap_or(dir).to_path_buf();
    let mut reports = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let docs = YamlLoader::load_from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let rel = file.strip_prefix(dir).unwrap_or(&file).display().to_string();
        for doc in docs {
            let Value::Array(cases) = to_json(&doc) else {
                return Err(format!("{rel}: a suite is a list of cases"));
            };
            for case in cases {
                let name = case["name"].as_str().unwrap_or("(unnamed)").to_owned();
                let version = case_version(&case);
                let verdict = if skips::SUPPORTED_PROTOCOL_VERSIONS.contains(&version.as_str()) {
                    with_skips(&name, run_case(&case, &pack_root, dir))
                } else {
                    Verdict::Skipped(format!("protocol version {version} is not in SUPPORTED_PROTOCOL_VERSIONS"))
                };
                reports.push(CaseReport { file: rel.clone(), name, version, verdict });
            }
        }
    }
    Ok(reports)
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            // Fixtures the cases refer to, not suites.
            if path.file_name().is_some_and(|n| n != "test_data") {
                collect_yaml(&path, out)?;
            }
        } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(path);
        }
    }
    Ok(())
}

/// A case's verdict under the transition skip list: a listed case that fails is skipped, one that
/// passes fails (it must leave the list).
fn with_skips(name: &str, verdict: Verdict) -> Verdict {
    match (skips::skip_reason(name), verdict) {
        (Some(why), Verdict::Failed(what)) => Verdict::Skipped(format!("{why} ({what})")),
        (Some(why), Verdict::Passed) => {
            Verdict::Failed(format!("passes, but SKIP_TEST_NAMES lists it ({why}): take it off the list"))
        }
        (_, verdict) => verdict,
    }
}

/// Passed, failed, skipped and not run among `reports`.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub not_run: usize,
}

impl Counts {
    pub fn of<'a>(reports: impl IntoIterator<Item = &'a CaseReport>) -> Counts {
        let mut counts = Counts::default();
        for report in reports {
            match report.verdict {
                Verdict::Passed => counts.passed += 1,
                Verdict::Failed(_) => counts.failed += 1,
                Verdict::Skipped(_) => counts.skipped += 1,
                Verdict::NotRun(_) => counts.not_run += 1,
            }
        }
        counts
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Counts { passed, failed, skipped, not_run } = self;
        write!(f, "{passed} passed, {skipped} skipped, {not_run} not run, {failed} failed")
    }
}

/// The `agentui a2ui conformance DIR` command: one line per case not passed, the counts per
/// suite file and per protocol version, then the totals.
pub fn command(dir: &Path) -> Result<ExitCode, String> {
    let reports = run_dir(dir)?;
    for report in &reports {
        let (file, name) = (&report.file, &report.name);
        match &report.verdict {
            Verdict::Passed => {}
            Verdict::Failed(why) => outln!("FAILED {file}: {name}: {why}"),
            Verdict::Skipped(why) => outln!("[SKIPPED] {file}: {name}: {why}"),
            Verdict::NotRun(why) => outln!("not run {file}: {name}: {why}"),
        }
    }
    let mut files: Vec<&str> = reports.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    for file in files {
        outln!("{file}: {}", Counts::of(reports.iter().filter(|r| r.file == file)));
    }
    // Per protocol version the cases are written for (a case naming none reads as v0.9).
    let mut versions: Vec<&str> = reports.iter().map(|r| r.version.as_str()).collect();
    versions.sort_unstable();
    versions.dedup();
    for version in versions {
        outln!("{version}: {}", Counts::of(reports.iter().filter(|r| r.version == version)));
    }
    let total = Counts::of(&reports);
    outln!("{total}");
    Ok(if total.failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn run_case(case: &Value, pack_root: &Path, suite_dir: &Path) -> Verdict {
    let action = case["action"].as_str().unwrap_or_default();
    if let Some((_, why)) = NOT_RUN.iter().find(|(a, _)| *a == action) {
        return Verdict::NotRun(format!("{action}: {why}"));
    }
    let result = match action {
        "data_model" => data_model::data_model(case),
        "validate" => validate::validate(case, pack_root),
        "evaluate_function" => evaluate_function::evaluate_function(case, pack_root),
        "handle_rpc" => handle_rpc::handle_rpc(case),
        "parse_expression_template" => parse_expression_template::parse_expression_template(case),
        "dispatch_action" => dispatch_action::dispatch_action(case),
        "validate_common_type" => validate_common_type::validate_common_type(case),
        "select_catalog" => select_catalog::select_catalog(case),
        "accessibility_check" => accessibility_check::accessibility_check(case),
        "from_json" => return from_json::from_json(case, pack_root),
        "resolve_nodes" => resolve_nodes::resolve_nodes(case, suite_dir),
        "process_messages" => process_messages::process_messages(case, pack_root),
        "get_renderer_data_model" => renderer_reports::get_renderer_data_model(case, pack_root),
        "get_renderer_capabilities" => renderer_reports::get_renderer_capabilities(case, pack_root),
        other => Err(format!("unknown action {other:?}")),
    };
    match result {
        Ok(()) => Verdict::Passed,
        Err(why) => Verdict::Failed(why),
    }
}

/// The protocol version a case names (`catalog.protocolVersion` or `catalog.version`), as the
/// wire writes it.
fn case_version(case: &Value) -> String {
    let catalog = &case["catalog"];
    let version = case["protocolVersion"]
        .as_str()
        .or_else(|| catalog["protocolVersion"].as_str())
        .or_else(|| catalog["version"].as_str())
        .unwrap_or("v0.9");
    if version.starts_with('v') {
        version.to_owned()
    } else {
        format!("v{version}")
    }
}

/// A group for a case: the harness alias `basic` names the basic catalog of the case's version.
fn group_for(version: &str) -> Result<SurfaceGroup, String> {
    let mut group = SurfaceGroup::default();
    let basic = if version == "v1.0" { BASIC_V1_CATALOG_ID } else { BASIC_CATALOG_ID };
    group.catalogs_mut().add_alias("basic", basic).map_err(|e| e.to_string())?;
    // The upstream processor suite's name for the basic catalog v1.
    group.catalogs_mut().add_alias("test-catalog-v10", BASIC_V1_CATALOG_ID).map_err(|e| e.to_string())?;
    Ok(group)
}

/// Equal JSON, numbers compared by value (`2` and `2.0` are one number).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// An error was sent back, with the expected code if one is named. The suite's `message` is one
/// implementation's wording and `category` its exception class; neither is ours to match.
fn check_error(sent: &[Value], expected: &Value) -> Result<(), String> {
    let codes: Vec<&str> = sent.iter().filter_map(|e| e["error"]["code"].as_str()).collect();
    if codes.is_empty() {
        return Err(format!("expected an error {expected}, none was sent"));
    }
    match expected["code"].as_str() {
        Some(code) if !codes.contains(&code) => Err(format!("expected error code {code}, sent {codes:?}")),
        _ => Ok(()),
    }
}
