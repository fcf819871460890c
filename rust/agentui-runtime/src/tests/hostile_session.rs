//! Issue #11: hostile AG-UI streams through the session, over HTTP, each in a child process whose
//! address space is limited to 256 MB. The parent re-executes this test binary (running only
//! the ignored `hostile_child` test) under `ulimit -v` (setrlimit RLIMIT_AS) with the case's name
//! in the environment; the child serves the generated stream from a loopback server, runs the
//! session against it and prints the outcome. An allocation past the limit aborts the child, so
//! a normal exit means it stayed under the limit.

use crate::tests::support;

use std::process::Command;

use agentui_runtime::session::{ConversationSession, SessionOptions};
use serde_json::{json, Value};
use support::*;

const LIMIT_KIB: u64 = 256 * 1024;
const CASE_VAR: &str = "AGENTUI_HOSTILE_CASE";
const BASIC: &str = "https://a2ui.org/specification/v0_9/basic_catalog.json";

fn a2ui_activity(ops: Vec<Value>) -> Value {
    json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "a2ui-surface", "content": {"a2ui_operations": ops}})
}

fn template_ops(items: Value) -> Vec<Value> {
    vec![
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"path": "name"}}
        ]}}),
        json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": items}}),
    ]
}

/// The events of one case, between RUN_STARTED and RUN_FINISHED.
fn case_events(case: &str) -> Vec<Value> {
    let copies = |n: usize| {
        let mut ops = vec![json!({"op": "add", "path": "/s", "value": "x".repeat(10_000)})];
        ops.extend((0..n).map(|i| json!({"op": "copy", "from": "/s", "path": format!("/k{i}")})));
        json!({"type": "STATE_DELTA", "delta": ops})
    };
    match case {
        "doubling" => vec![
            json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": [0]}}),
            json!({"type": "STATE_DELTA", "delta": (0..28).map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"})).collect::<Vec<_>>()}),
        ],
        "copies" => vec![copies(99_990)],
        "copies-small" => vec![copies(20_000)],
        // Large lists are spliced in as text: built as values they would take the child's whole
        // address space before the library saw a byte.
        "zeros" | "zeros-small" => vec![a2ui_activity(template_ops(json!("ZEROS")))],
        "snapshot" => vec![json!({"type": "STATE_SNAPSHOT", "snapshot": {"blob": vec!["0123456789"; 640_000]}})],
        "text" => {
            let mut events = vec![json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"})];
            let chunk = "y".repeat(900_000);
            events.extend((0..25).map(|_| json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": chunk})));
            events
        }
        "args" => {
            let chunk = "a".repeat(500_000);
            (0..40)
                .flat_map(|call| {
                    let id = format!("c{call}");
                    vec![
                        json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": "t"}),
                        json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": chunk}),
                        json!({"type": "TOOL_CALL_END", "toolCallId": id}),
                    ]
                })
                .collect()
        }
        "surfaces" => {
            let ops = (0..900)
                .map(
                    |i| json!({"version": "v0.9", "createSurface": {"surfaceId": format!("s{i}"), "catalogId": BASIC}}),
                )
                .collect();
            vec![a2ui_activity(ops)]
        }
        other => panic!("unknown case {other}"),
    }
}

/// Not a test of its own: the body of the child process (see the module notes).
#[tokio::test]
#[ignore = "run by the hostile_session tests in a memory-limited child process"]
async fn hostile_child() {
    let Ok(case) = std::env::var(CASE_VAR) else { return };
    let mut events = vec![started("r1")];
    events.extend(case_events(&case));
    events.push(finished("r1"));
    let zeros = match case.as_str() {
        "zeros" => 3_500_000,
        "zeros-small" => 400_000,
        _ => 0,
    };
    let list = format!("[{}0]", "0,".repeat(zeros.max(1) - 1));
    let steps = events
        .iter()
        .map(|e| Step::Send(frame(e).into_iter().collect::<Vec<u8>>()))
        .map(|step| match step {
            Step::Send(bytes) if zeros > 0 => {
                Step::Send(String::from_utf8(bytes).unwrap().replace("\"ZEROS\"", &list).into_bytes())
            }
            other => other,
        })
        .collect();
    drop((events, list));
    let server = TestServer::start(vec![Reply::sse_steps(steps)]).await;
    // The hostile streams are on thread "t", as a server answering this input would be.
    let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
    let mut session = ConversationSession::connect(&server.url("/agent"), &[], options).expect("connect");
    let result = session.run("go").await;
    // What the next run would tell the agent.
    let for_agent = session.a2ui_mut().take_pending_for_agent().forwarded_props();
    let outcome = json!({
        "ok": result.is_ok(),
        "error": result.as_ref().err().map(|e| e.to_string()),
        "state": session.state(),
        "surfaces": session.a2ui().group().surfaces().count(),
        "a2uiErrors": for_agent.get("a2uiErrors").and_then(Value::as_array).map_or(0, Vec::len),
    });
    println!("\nHOSTILE-RESULT {outcome}");
}

/// Runs one case in a child under the address-space limit and returns what it printed.
fn run_case(case: &str) -> Value {
    let exe = std::env::current_exe().expect("test binary");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(exe)
        .args(["--ignored", "--exact", &support::test_name_here!("hostile_child"), "--nocapture", "--test-threads=1"])
        .env(CASE_VAR, case)
        // One malloc arena: each arena reserves 64 MB of address space up front.
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .expect("sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{case}: the child did not exit normally: {stderr}\n{stdout}");
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("HOSTILE-RESULT ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("{case}: no result line: {stdout}\n{stderr}"));
    serde_json::from_str(line).unwrap()
}

fn assert_failed(case: &str, expect: &str) -> Value {
    let outcome = run_case(case);
    assert_eq!(outcome["ok"], false, "{case}: {outcome}");
    let error = outcome["error"].as_str().unwrap_or_default();
    assert!(error.contains(expect), "{case}: {error}");
    outcome
}

#[test]
fn hostile_session_state_delta_copy_doubling() {
    let outcome = assert_failed("doubling", "limit exceeded");
    assert_eq!(outcome["state"], json!({"a": [0]}), "the state before the breach is kept");
}

#[test]
fn hostile_session_copies_of_a_large_string() {
    assert_failed("copies", "exceeds");
    let outcome = assert_failed("copies-small", "JSON Patch result");
    assert_eq!(outcome["state"], json!({}));
}

#[test]
fn hostile_session_template_over_millions_of_zeros() {
    assert_failed("zeros", "exceeds");
    assert_failed("zeros-small", "activity content");
}

#[test]
fn hostile_session_state_snapshot_of_8_mb() {
    let outcome = assert_failed("snapshot", "exceeds");
    assert_eq!(outcome["state"], json!({}));
}

#[test]
fn hostile_session_huge_text_and_long_tool_argument_streams() {
    assert_failed("text", "limit exceeded");
    assert_failed("args", "limit exceeded");
}

#[test]
fn hostile_session_many_surfaces_is_a_bounded_success() {
    let outcome = run_case("surfaces");
    assert_eq!(outcome["ok"], true, "{outcome}");
    assert_eq!(outcome["surfaces"], 64);
    assert!(outcome["a2uiErrors"].as_u64().unwrap() > 0, "the refused surfaces are reported to the agent");
}
