//! Issue #11: hostile inputs through the `agentui` binary, each in a child process whose address
//! space is limited to 256 MB (`ulimit -v`, i.e. setrlimit RLIMIT_AS, set by the shell that then
//! execs the binary). An allocation past the limit aborts the child, so "exits normally" means
//! "stayed under the limit"; each case must also end with a typed error or a bounded success.
//! The inputs are generated here, not committed.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{json, Value};

const LIMIT_KIB: u64 = 256 * 1024;
const BASIC: &str = "https://a2ui.org/specification/v0_9/basic_catalog.json";

/// A generated input, deleted when the test is done with it (some are hundreds of MB).
struct TempInput(PathBuf);

impl std::ops::Deref for TempInput {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempInput {
    fn drop(&mut self) {
        // Only the file: the other tests of this process may be writing into the directory.
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_file(name: &str, contents: &[u8]) -> TempInput {
    let dir = std::env::temp_dir().join(format!("agentui-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    TempInput(path)
}

/// Runs `agentui args…` under the address-space limit.
fn limited(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_agentui"))
        .args(args)
        // One malloc arena: each arena reserves 64 MB of address space up front.
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .expect("sh runs")
}

/// The child exited by itself (no abort, no signal) with one of `codes`.
fn assert_exited(out: &Output, codes: &[i32]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(code) if codes.contains(&code) => {}
        other => panic!("exit {other:?} (a signal means the memory limit was hit): {stderr}"),
    }
}

fn report(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn sse(events: &[Value]) -> Vec<u8> {
    let mut body = Vec::new();
    for e in events {
        body.extend_from_slice(format!("data: {e}\n\n").as_bytes());
    }
    body
}

fn started() -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})
}

fn finished() -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"})
}

/// `agentui agui replay` of `events`: the run must fail with an error containing `expect`.
fn replay_fails(name: &str, events: &[Value], expect: &str) -> Value {
    let file = temp_file(name, &sse(events));
    let out = limited(&["agui", "replay", file.to_str().unwrap()]);
    assert_exited(&out, &[1]);
    let report = report(&out);
    assert_eq!(report["outcome"], "failed");
    let error = report["error"].as_str().unwrap_or_default();
    assert!(error.contains(expect), "{name}: {error}");
    report
}

fn a2ui_apply(name: &str, messages: &Value) -> Value {
    let file = temp_file(name, messages.to_string().as_bytes());
    let out = limited(&["a2ui", "apply", file.to_str().unwrap()]);
    assert_exited(&out, &[0]);
    report(&out)
}

fn a2ui_errors(report: &Value) -> Vec<Value> {
    report["emitted"].as_array().unwrap().iter().filter_map(|m| m.get("error").cloned()).collect()
}

fn template_surface() -> Vec<Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"path": "name"}}
        ]}}),
    ]
}

fn doubling_delta(n: usize) -> Value {
    json!({"type": "STATE_DELTA", "delta": (0..n).map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"})).collect::<Vec<_>>()})
}

#[test]
fn hostile_state_delta_copy_doubling_is_a_typed_error_with_the_state_kept() {
    let events = [started(), json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": [0]}}), doubling_delta(28), finished()];
    let report = replay_fails("doubling.sse", &events, "limit exceeded");
    assert_eq!(report["state"], json!({"a": [0]}));
}

#[test]
fn hostile_string_copied_to_100k_keys_is_refused() {
    let mut ops = vec![json!({"op": "add", "path": "/s", "value": "x".repeat(10_000)})];
    ops.extend((0..99_990).map(|i| json!({"op": "copy", "from": "/s", "path": format!("/k{i}")})));
    let delta = json!({"type": "STATE_DELTA", "delta": ops});
    // 4.3 MB: over the 1 MiB message budget, so it is refused by its size.
    replay_fails("copies.sse", &[started(), delta, finished()], "exceeds");
    // The same attack within the message budget is stopped by the patch bound.
    let mut ops = vec![json!({"op": "add", "path": "/s", "value": "x".repeat(10_000)})];
    ops.extend((0..20_000).map(|i| json!({"op": "copy", "from": "/s", "path": format!("/k{i}")})));
    let delta = json!({"type": "STATE_DELTA", "delta": ops});
    let report = replay_fails("copies-small.sse", &[started(), delta, finished()], "JSON Patch result");
    assert_eq!(report["state"], json!({}));
}

#[test]
fn hostile_template_over_millions_of_zeros_in_one_event() {
    let mut ops = template_surface();
    ops.push(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": vec![0; 3_500_000]}}));
    let activity = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface", "content": {"a2ui_operations": ops}});
    replay_fails("zeros.sse", &[started(), activity, finished()], "exceeds");
    // Within the message budget (400,000 zeros): refused by the activity-content bound.
    let mut ops = template_surface();
    ops.push(
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": vec![0; 400_000]}}),
    );
    let activity = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface", "content": {"a2ui_operations": ops}});
    replay_fails("zeros-small.sse", &[started(), activity, finished()], "activity content");
}

#[test]
fn hostile_state_snapshot_of_8_mb() {
    let snapshot = json!({"type": "STATE_SNAPSHOT", "snapshot": {"blob": vec!["0123456789"; 640_000]}});
    replay_fails("snapshot.sse", &[started(), snapshot, finished()], "exceeds");
    // The same events as a JSON array of events get the same bound.
    let events =
        json!([started(), {"type": "STATE_SNAPSHOT", "snapshot": {"blob": vec!["0123456789"; 640_000]}}, finished()]);
    let file = temp_file("snapshot.json", events.to_string().as_bytes());
    let out = limited(&["agui", "replay", file.to_str().unwrap()]);
    assert_exited(&out, &[1]);
    assert!(report(&out)["error"].as_str().unwrap().contains("event size"));
}

#[test]
fn hostile_deep_nesting_is_a_typed_error() {
    let deep = format!("{}0{}", "[".repeat(100_000), "]".repeat(100_000));
    let body = format!("data: {}\n\ndata: {{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{deep}}}\n\n", started());
    let file = temp_file("deep.sse", body.as_bytes());
    let out = limited(&["agui", "replay", file.to_str().unwrap()]);
    assert_exited(&out, &[1]);
    assert!(report(&out)["error"].as_str().unwrap().contains("not valid JSON"));
}

#[test]
fn hostile_huge_text_streams_hit_the_run_bound() {
    let mut events = vec![started(), json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"})];
    let chunk = "y".repeat(900_000);
    events.extend((0..40).map(|_| json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": chunk})));
    events.push(finished());
    replay_fails("text.sse", &events, "limit exceeded");
}

#[test]
fn hostile_long_tool_argument_streams_hit_the_run_bound() {
    let mut events = vec![started()];
    let chunk = "a".repeat(500_000);
    for call in 0..40 {
        let id = format!("c{call}");
        events.push(json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": "t"}));
        events.extend((0..8).map(|_| json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": chunk})));
        events.push(json!({"type": "TOOL_CALL_END", "toolCallId": id}));
    }
    events.push(finished());
    replay_fails("args.sse", &events, "limit exceeded");
}

#[test]
fn hostile_a2ui_template_over_a_million_items() {
    let mut messages = template_surface();
    let items: Vec<Value> = (0..1_000_000).map(|_| json!({})).collect();
    messages.push(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": items}}));
    let report = a2ui_apply("million.json", &Value::Array(messages));
    let errors = a2ui_errors(&report);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["code"], "LIMIT_EXCEEDED");
    assert_eq!(report["surfaces"][0]["dataModel"], json!({}));
}

#[test]
fn hostile_a2ui_data_model_of_ten_million_elements() {
    let mut messages = template_surface();
    messages.push(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": vec![0u8; 10_000_000]}}));
    let report = a2ui_apply("tenmillion.json", &Value::Array(messages));
    let errors = a2ui_errors(&report);
    assert_eq!(errors[0]["code"], "LIMIT_EXCEEDED", "{errors:?}");
    // Within the message size, the data-model bound refuses it (200,000 strings of 4 bytes).
    let mut messages = template_surface();
    messages.push(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": vec!["abcd"; 120_000]}}));
    let report = a2ui_apply("bigmodel.json", &Value::Array(messages));
    let errors = a2ui_errors(&report);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["message"].as_str().unwrap().contains("data-model size"), "{errors:?}");
}

#[test]
fn hostile_a2ui_100k_components_in_one_message() {
    let components: Vec<Value> =
        (0..100_000).map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": "x"})).collect();
    let messages = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}}
    ]);
    let errors = a2ui_errors(&a2ui_apply("components.json", &messages));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["code"], "LIMIT_EXCEEDED");
}

#[test]
fn hostile_a2ui_many_surfaces() {
    let messages: Vec<Value> = (0..5_000)
        .map(|i| json!({"version": "v0.9", "createSurface": {"surfaceId": format!("s{i}"), "catalogId": BASIC}}))
        .collect();
    let report = a2ui_apply("surfaces.json", &Value::Array(messages));
    assert_eq!(report["surfaces"].as_array().unwrap().len(), 64);
    let errors = a2ui_errors(&report);
    assert_eq!(errors.len(), 5_000 - 64);
    assert!(errors.iter().all(|e| e["code"] == "LIMIT_EXCEEDED"));
}

/// Issue #25: hostile Markdown through `agentui markdown`, under the same limit: deep nesting,
/// a huge table, a 10 MB single paragraph streamed in 1 KiB pieces. Each is a bounded tree with
/// what is over a bound shown as text (typed `plain_text` blocks), never a crash.
#[test]
fn hostile_markdown_is_bounded() {
    let cases: Vec<(&str, Vec<u8>, Vec<&str>, &str)> = vec![
        ("deep-quotes.md", format!("{}deep\n", "> ".repeat(500_000)).into_bytes(), vec![], "too_deep"),
        ("deep-lists.md", format!("{}x\n", "- ".repeat(200_000)).into_bytes(), vec![], "too_deep"),
        (
            "deep-emphasis.md",
            format!("{}x{}", "*a ".repeat(200_000), " a*".repeat(200_000)).into_bytes(),
            vec![],
            "\"text\"",
        ),
        (
            "huge-table.md",
            {
                let mut t = String::from("| a | b | c |\n|---|---|---|\n");
                for i in 0..200_000 {
                    t.push_str(&format!("| {i} | {i} | {i} |\n"));
                }
                t.into_bytes()
            },
            vec![],
            "too_many_cells",
        ),
        (
            "long-paragraph.md",
            "word **strong** ".repeat(10 * 1024 * 1024 / 16).into_bytes(),
            vec!["--pieces", "1024"],
            "too_many_nodes",
        ),
    ];
    for (name, input, extra, expect) in cases {
        let file = temp_file(name, &input);
        let path = file.to_string_lossy().into_owned();
        let mut args = vec!["markdown"];
        args.extend(extra);
        args.push(&path);
        let out = limited(&args);
        assert_exited(&out, &[0]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(expect), "{name}: {}", &stdout[..stdout.len().min(400)]);
    }
}
