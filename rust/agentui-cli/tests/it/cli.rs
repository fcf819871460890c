//! The `agentui` binary as agent developers use it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn agentui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentui")).args(args).output().expect("agentui runs")
}

fn repo(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel).to_string_lossy().into_owned()
}

fn shared(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(rel).to_string_lossy().into_owned()
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentui-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn apply_prints_resolved_surfaces_and_data_model() {
    let out = agentui(&["a2ui", "apply", &repo("examples/a2ui/booking-form.json")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let surface = &report["surfaces"][0];
    assert_eq!(surface["surfaceId"], "booking");
    assert_eq!(surface["root"], "root");
    assert_eq!(surface["dataModel"]["restaurant"], "Harbour Kitchen");
    let nodes = surface["nodes"].as_array().unwrap();
    let title = nodes.iter().find(|n| n["id"] == "title").unwrap();
    assert_eq!(title["props"]["text"], "Book a table at Harbour Kitchen");
    assert!(nodes.iter().any(|n| n["id"] == "slot@/slots/2"), "template instances listed");
    let submit = nodes.iter().find(|n| n["id"] == "submit").unwrap();
    assert_eq!(submit["enabled"], false);
    assert_eq!(report["emitted"], Value::Array(vec![]));
}

#[test]
fn apply_reports_agent_errors_in_wire_form_and_still_exits_zero() {
    let file = temp_file(
        "bad.jsonl",
        concat!(
            r#"{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}"#,
            "\n",
            r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text"}]}}"#,
            "\n"
        ),
    );
    let out = agentui(&["a2ui", "apply", file.to_str().unwrap()]);
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = &report["emitted"][0]["error"];
    assert_eq!(error["code"], "VALIDATION_FAILED");
    assert_eq!(error["path"], "/updateComponents/components/0");
    assert_eq!(report["emitted"][0]["version"], "v0.9");
}

#[test]
fn validate_exits_one_with_paths_on_errors_and_zero_when_clean() {
    let file = temp_file(
        "bad.json",
        r#"[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},
            {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"x","variant":"huge"}]}}]"#,
    );
    let out = agentui(&["a2ui", "validate", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ValidationError invalid_value at messages.1.updateComponents.components.0.variant"),
        "{text}"
    );

    let ok =
        agentui(&["a2ui", "validate", &shared("conformance/a2ui/v0_9/catalogs/basic/examples/09_login-form.json")]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
}

/// `validate` judges the sequence as a whole without applying it: graph problems the engine
/// tolerates while a surface streams in are found with `--strict`, and a v1.0 component id that
/// is no Unicode identifier always.
#[test]
fn validate_checks_the_graph_and_identifiers_without_applying() {
    let orphan = temp_file(
        "orphan.json",
        r#"[{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "components":[{"id":"root","component":"Text","text":"Root"},{"id":"orphan","component":"Text","text":"Orphan"}]}}]"#,
    );
    let lenient = agentui(&["a2ui", "validate", orphan.to_str().unwrap()]);
    assert_eq!(lenient.status.code(), Some(0), "{}", String::from_utf8_lossy(&lenient.stdout));
    let strict = agentui(&["a2ui", "validate", "--strict", orphan.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&strict.stdout);
    assert_eq!(strict.status.code(), Some(1), "{text}");
    assert!(text.contains("IntegrityError orphaned_component at surfaces.s.components.orphan"), "{text}");
    let identifier = temp_file(
        "ident.json",
        r#"[{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "components":[{"id":"root","component":"Column","children":["123invalid_id"]},{"id":"123invalid_id","component":"Text","text":"x"}]}}]"#,
    );
    let out = agentui(&["a2ui", "validate", identifier.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("invalid_identifier at messages.0.createSurface.components.1.id"), "{text}");
    // A v0.8 stream sends its components before beginRendering: they wait for the surface, as the
    // engine buffers them, and are judged when it comes.
    let v08 = shared("conformance/a2ui/v0_8/json/catalogs/basic/examples/29_movie-card.json");
    let out = agentui(&["a2ui", "validate", "--strict", &v08]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn custom_catalogs_are_loaded_with_the_catalog_flag() {
    let catalog = temp_file(
        "catalog.json",
        r#"{"catalogId": "https://example.com/cat.json", "components": {"Badge": {"type": "object",
            "properties": {"id": {"type": "string"}, "component": {"const": "Badge"}, "count": {"type": "integer"}},
            "required": ["id", "component", "count"], "additionalProperties": false}}, "functions": {}}"#,
    );
    let stream = temp_file(
        "badge.json",
        r#"[{"version":"v0.9","createSurface":{"surfaceId":"b","catalogId":"https://example.com/cat.json"}},
            {"version":"v0.9","updateComponents":{"surfaceId":"b","components":[{"id":"root","component":"Badge","count":3}]}}]"#,
    );
    let without = agentui(&["a2ui", "validate", stream.to_str().unwrap()]);
    assert_eq!(without.status.code(), Some(1), "unknown catalog must be loud");
    assert!(String::from_utf8_lossy(&without.stdout).contains("CatalogError unknown_catalog"));
    let with = agentui(&["a2ui", "validate", "--catalog", catalog.to_str().unwrap(), stream.to_str().unwrap()]);
    assert_eq!(with.status.code(), Some(0), "{}", String::from_utf8_lossy(&with.stdout));
}

#[test]
fn unreadable_input_is_exit_two() {
    let out = agentui(&["a2ui", "apply", "/nonexistent/file.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn tree_renders_the_demo_surface() {
    let out = agentui(&["a2ui", "tree", &repo("examples/a2ui/booking-form.json")]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Button #submit"), "{text}");
    assert!(text.contains("\"19:30: 1 free\""), "{text}");
}

#[test]
fn agui_conformance_prints_the_count_line() {
    let out = agentui(&["agui", "conformance", &shared("conformance/agui/1.1/streams")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with("passed, 0 failed"), "{last}");
    let passed: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(passed >= 68, "{last}");
}

const SMALL_RUN: &str = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n\
data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"Hi \"}\n\n\
data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"there\"}\n\n\
data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n\
data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1}}\n\n\
data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/missing/x\",\"value\":2}]}\n\n\
data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";

#[test]
fn agui_replay_prints_final_conversation_and_warnings() {
    let file = temp_file("run.sse", SMALL_RUN);
    let out = agentui(&["agui", "replay", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["outcome"], "completed");
    assert_eq!(report["messages"][0]["content"], "Hi there");
    assert_eq!(report["state"], serde_json::json!({"n": 1}), "unappliable delta keeps the old state");
    assert_eq!(report["needsResync"], true);
    assert!(!report["warnings"].as_array().unwrap().is_empty());
}

#[test]
fn agui_replay_reports_a_truncated_stream() {
    let cut = SMALL_RUN.rsplit_once("data: {\"type\":\"RUN_FINISHED\"").unwrap().0;
    let file = temp_file("cut.sse", cut);
    let out = agentui(&["agui", "replay", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["outcome"], "failed");
    assert!(report["error"].as_str().unwrap().contains("middle of a run"));
}

#[test]
fn agui_decode_prints_one_json_line_per_event() {
    let file = temp_file("decode.sse", SMALL_RUN);
    let out = agentui(&["agui", "decode", file.to_str().unwrap()]);
    assert!(out.status.success());
    let lines: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0]["type"], "RUN_STARTED");
    assert_eq!(lines[3]["delta"], "there");
}

#[test]
fn demo_runs_the_scripted_conversation_and_exits_zero() {
    let out = agentui(&["demo"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Your location according to the app:"), "client tool round trip: {text}");
    assert!(text.contains("Button #book"), "surface printed as a tree: {text}");
    assert!(text.contains("Booked a table for 4 on 2026-12-24 under the name Ada."), "action round trip: {text}");
}

#[test]
fn run_prints_the_streamed_conversation_from_a_live_agent() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start("127.0.0.1:0".parse().unwrap())).unwrap();
    let out = agentui(&["run", &handle.agent_url(), "hello", "--header", "authorization: Bearer secret-token"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("agent: Hello! I am the demo agent"), "{text}");
    assert!(!text.contains("secret-token"), "headers are never printed");

    let failed = agentui(&["run", &handle.fault_url("http-500"), "hello"]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stdout).contains("500"));
    rt.block_on(handle.shutdown()).unwrap();
}

/// `agentui run` playing the app against the demo agent; the same options run against ADK and
/// LangGraph in `tests/interop`.
#[test]
fn run_plays_the_app_with_tools_interrupts_json_and_exit_codes() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start("127.0.0.1:0".parse().unwrap())).unwrap();
    let url = handle.agent_url();
    let run = |args: &[&str]| {
        let mut all = vec!["run", url.as_str()];
        all.extend_from_slice(args);
        // stdin is not a terminal: no prompt, an unanswered interrupt stops the turn.
        Command::new(env!("CARGO_BIN_EXE_agentui")).args(&all).stdin(std::process::Stdio::null()).output().unwrap()
    };
    let last_line = |out: &Output| -> Value {
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap_or(Value::Null)
    };

    let tool = run(&["what is my location?", "--tool", r#"get_location={"city":"Paris"}"#, "--json"]);
    assert_eq!(tool.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&tool.stdout).into_owned();
    for line in stdout.lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("every line is JSON ({e}): {line}"));
    }
    assert!(stdout.contains(r#""phase":"succeeded""#), "{stdout}");
    let last = last_line(&tool);
    assert_eq!(last["final"]["status"], "completed");
    let messages = last["final"]["messages"].as_array().unwrap();
    assert!(messages.iter().any(|m| m["content"].as_str().is_some_and(|c| c.contains(r#"{"city":"Paris"}"#))));

    let stopped = run(&["delete the file", "--json"]);
    assert_eq!(stopped.status.code(), Some(3), "an unanswered interrupt");
    assert_eq!(last_line(&stopped)["final"]["status"], "interrupted");
    // The demo's interrupt wants {"approved": bool}: the CLI finds the payload its schema accepts.
    let approved = run(&["delete the file", "--interrupts", "approve"]);
    assert_eq!(approved.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&approved.stdout).contains("Deleted report.pdf."));
    let rejected = run(&["delete the file", "--interrupts", "reject"]);
    assert!(String::from_utf8_lossy(&rejected.stdout).contains("Kept report.pdf."));

    let failing = run(&["make it fail", "--json"]);
    assert_eq!(failing.status.code(), Some(1), "RUN_ERROR");
    assert_eq!(last_line(&failing)["final"]["status"], "failed");
    let usage = run(&["hello", "--tool", "no-equals-sign"]);
    assert_eq!(usage.status.code(), Some(2), "a usage error");
    rt.block_on(handle.shutdown()).unwrap();
}

/// `--consent` answers the consent requests of the `--tool`s: allow runs the tool, deny sends the
/// declined result and the agent goes on, ask without a terminal is refused before anything runs.
#[test]
fn run_answers_consent_requests_by_the_consent_flag() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start("127.0.0.1:0".parse().unwrap())).unwrap();
    let url = handle.agent_url();
    let run = |args: &[&str]| {
        let mut all = vec!["run", url.as_str(), "what is my location?", "--tool", r#"get_location={"city":"Paris"}"#];
        all.extend_from_slice(args);
        Command::new(env!("CARGO_BIN_EXE_agentui")).args(&all).stdin(std::process::Stdio::null()).output().unwrap()
    };
    let json_lines = |out: &Output| -> Vec<Value> {
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };

    let allowed = run(&["--consent", "allow", "--json"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", String::from_utf8_lossy(&allowed.stderr));
    let lines = json_lines(&allowed);
    assert!(
        lines.iter().any(|l| l["type"] == "consent" && l["requests"].as_array().is_some_and(|r| r.len() == 1)),
        "the request is shown before it is answered: {lines:?}"
    );
    let last = &lines.last().unwrap()["final"];
    assert_eq!(last["status"], "completed");
    let tool_results: Vec<&str> = last["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(tool_results, [r#"{"city":"Paris"}"#], "allowed, the tool ran");

    let denied = run(&["--consent", "deny", "--json"]);
    assert_eq!(denied.status.code(), Some(0), "{}", String::from_utf8_lossy(&denied.stderr));
    let lines = json_lines(&denied);
    let last = &lines.last().unwrap()["final"];
    assert_eq!(last["status"], "completed", "the agent went on after the decline");
    let messages = last["messages"].as_array().unwrap();
    let result = messages.iter().find(|m| m["role"] == "tool").expect("a tool result");
    assert!(result["content"].as_str().unwrap().contains("the user declined it"), "{result}");
    assert!(!messages.iter().any(|m| m["content"].as_str().is_some_and(|c| c.contains("Paris"))), "{messages:?}");
    assert!(
        messages.last().unwrap()["role"] == "assistant",
        "the follow-up run answered after the declined result: {messages:?}"
    );

    let asked = run(&["--consent", "ask"]);
    assert_eq!(asked.status.code(), Some(2), "a usage error, not a hang");
    assert!(String::from_utf8_lossy(&asked.stderr).contains("terminal"), "{}", String::from_utf8_lossy(&asked.stderr));
    rt.block_on(handle.shutdown()).unwrap();
}

/// `--set` types into the booking form the demo agent renders and `--action` presses Book.
#[test]
fn run_types_into_a_surface_and_presses_its_button() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start("127.0.0.1:0".parse().unwrap())).unwrap();
    let url = handle.agent_url();
    let form = [
        "run",
        url.as_str(),
        "book a table",
        "--set",
        r#"booking:/booking/name="Ada""#,
        "--set",
        r#"booking:/booking/date="2026-12-24""#,
        "--set",
        r#"booking:/booking/guests=["4"]"#,
    ];
    let booked = agentui(&[&form[..], &["--action", "booking/book"]].concat());
    let text = String::from_utf8_lossy(&booked.stdout);
    assert!(booked.status.success(), "{text}");
    assert!(text.contains("[you set booking /booking/name = \"Ada\"]"), "{text}");
    assert!(text.contains("Booked a table for 4 on 2026-12-24 under the name Ada."), "{text}");

    let json = agentui(&[&form[..], &["--action", "booking/book", "--json"]].concat());
    let lines: Vec<Value> =
        String::from_utf8_lossy(&json.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.iter().any(|l| l["type"] == "set" && l["path"] == "/booking/guests" && l["value"][0] == "4"));
    assert!(lines.iter().any(|l| l["type"] == "action" && l["nodeId"] == "book"));

    // The button's checks want a name and a date: the press is refused, with the reason.
    let refused = agentui(&["run", &url, "book a table", "--action", "booking/book"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("Fill in a name and a date first"));
    let typo = agentui(&["run", &url, "book a table", "--set", "booking/booking/name=1"]);
    assert_eq!(typo.status.code(), Some(2), "a malformed --set is a usage error");
    assert!(String::from_utf8_lossy(&typo.stderr).contains("SURFACE_ID:POINTER=JSON"));
    rt.block_on(handle.shutdown()).unwrap();
}

#[test]
fn agui_replay_renders_a2ui_carried_by_the_stream() {
    let ops = r#"{"a2ui_operations":[{"version":"v0.9","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"from the stream"},{"id":"bad","component":"Text","text":7}]}}]}"#;
    let events = format!(
        r#"[{{"type":"RUN_STARTED","threadId":"t","runId":"r"}},
            {{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"a2ui-surface","content":{ops}}},
            {{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}]"#
    );
    let file = temp_file("a2ui-run.json", &events);
    let out = agentui(&["agui", "replay", file.to_str().unwrap()]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["outcome"], "completed");
    // The message with the bad component was rejected whole, and the agent would be told where.
    assert_eq!(report["surfaces"][0]["surfaceId"], "s");
    assert_eq!(report["a2uiErrors"][0]["error"]["path"], "/updateComponents/components/1/text");
}

/// `--attach` sends files (the demo agent answers with each part's length and hash); the image
/// the agent returns is listed, in the text output and in `--json`.
#[test]
fn run_attaches_files_and_lists_the_media_the_agent_returns() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start("127.0.0.1:0".parse().unwrap())).unwrap();
    let bytes: Vec<u8> = (0..70_001u32).map(|i| (i * 31 % 256) as u8).collect();
    let photo = temp_file("cli-photo.png", "");
    std::fs::write(&photo, &bytes).unwrap();
    let doc = temp_file("cli-notes.bin", "some notes");
    let spec = format!("{}:text/plain", doc.display());
    let out = agentui(&["run", &handle.agent_url(), "look", "--attach", photo.to_str().unwrap(), "--attach", &spec]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let hash = agentui_demo_agent::fnv1a64(&bytes);
    assert!(text.contains(&format!("image image/png cli-photo.png bytes=70001 fnv={hash:016x}")), "{text}");
    assert!(text.contains("document text/plain cli-notes.bin bytes=10"), "{text}");

    let missing = agentui(&["run", &handle.agent_url(), "look", "--attach", "/nonexistent/x.png"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stdout).contains("x.png"), "the refusal names the attachment");

    let url = format!("{}/picture", handle.agent_url());
    let out = agentui(&["run", &url, "draw"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[tool image image/png gradient.png, 166 bytes]"), "{text}");
    let out = agentui(&["run", &url, "draw", "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let media = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|line| line.get("media").cloned())
        .unwrap_or_else(|| panic!("no media line: {text}"));
    assert_eq!(
        media,
        serde_json::json!([{"kind": "image", "name": "gradient.png", "mimeType": "image/png", "bytes": 166}])
    );
    rt.block_on(handle.shutdown()).unwrap();
}

#[test]
fn validate_and_apply_take_v10_files() {
    let example = shared("conformance/a2ui/v1_0/specification/v1_0/catalogs/basic/examples/09_login-form.json");
    let ok = agentui(&["a2ui", "validate", &example]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    let applied = agentui(&["a2ui", "apply", &example]);
    assert_eq!(applied.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&applied.stdout).unwrap();
    assert_eq!(report["surfaces"][0]["catalogId"], "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json");

    // A v1.0 error is reported in a v1.0 envelope, with its pointer.
    let file = temp_file(
        "bad10.json",
        r#"[{"version":"1.0","createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "components":[{"id":"root","component":"Text","text":{"@call":"formatString","args":{"value":"Hi ${/name"}}}]}}]"#,
    );
    // apply exits 0 whatever the agent did wrong; the error is in `emitted`.
    let out = agentui(&["a2ui", "apply", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["emitted"][0]["version"], "v1.0");
    assert_eq!(report["emitted"][0]["error"]["path"], "/createSurface/components/0/text/args/value");
}

#[test]
fn conformance_command_prints_totals_and_fails_on_failures() {
    let out = agentui(&["a2ui", "conformance", &shared("conformance/a2ui/v1_0/conformance")]);
    let text = String::from_utf8_lossy(&out.stdout);
    // Every case of the pack passes, or is skipped with its reason (SKIP_TEST_NAMES) or not run.
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.lines().any(|l| l.starts_with("[SKIPPED] core/")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("core/functions.yaml: ") && l.contains(" passed, ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("v1.0: ") && l.contains(" passed, ")), "{text}");
    assert!(text.lines().last().is_some_and(|l| l.ends_with(" failed")), "{text}");
    // A failing case makes the command fail.
    let dir = std::env::temp_dir().join(format!("agentui-conf-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("f.yaml"),
        "- name: wrong\n  action: parse_expression_template\n  input: 'a'\n  expect: ['b']\n",
    )
    .unwrap();
    let out = agentui(&["a2ui", "conformance", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAILED f.yaml: wrong"), "{text}");
}
