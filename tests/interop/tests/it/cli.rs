//! `agentui run` playing the app against the real servers: `--tool`, `--tool-error`,
//! `--interrupts`, `--json` and the exit codes; and the demo agent's streams checked by the
//! independent `ag-ui-validate`.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use agentui_interop::*;
use serde_json::{json, Value};

/// The `agentui` binary beside this test's directory (`tests/interop/run.sh` builds it first).
fn agentui_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target profile directory");
    let binary = dir.join("agentui");
    assert!(binary.exists(), "{} is missing: build it with `cargo build -p agentui-cli`", binary.display());
    binary
}

fn agentui(args: &[&str]) -> Output {
    // No terminal on stdin: without --interrupts the run stops at an interrupt.
    Command::new(agentui_binary()).args(args).stdin(Stdio::null()).output().expect("agentui runs")
}

/// The JSON lines of `--json` output, and the final object.
fn json_lines(out: &Output) -> (Vec<Value>, Value) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect();
    let last = lines.last().and_then(|l| l.get("final")).cloned().expect("a last {\"final\": ...} line");
    (lines, last)
}

fn final_text(last: &Value) -> String {
    last["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .rev()
        .find(|m| m["role"] == "assistant" && m["content"].as_str().is_some_and(|c| !c.is_empty()))
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

fn exit_code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn both() -> [(Server, &'static str); 2] {
    [(adk(), "/adk"), (langgraph(), "/langgraph")]
}

#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn cli_client_tool_with_json_output() {
    for (server, path) in both() {
        let out = agentui(&[
            "run",
            &server.url(path),
            "what is my location?",
            "--tool",
            r#"get_location={"lat":1.5,"lon":2.5}"#,
            "--json",
        ]);
        assert_eq!(exit_code(&out), 0, "{}: {}", server.name, String::from_utf8_lossy(&out.stderr));
        let (lines, last) = json_lines(&out);
        assert_eq!(last["status"], "completed");
        assert_eq!(final_text(&last), r#"Tool get_location returned: {"lat":1.5,"lon":2.5}"#, "{}", server.name);
        let phases: Vec<&str> = lines
            .iter()
            .filter(|l| l["type"] == "toolCall" && l["toolName"] == "get_location")
            .filter_map(|l| l["phase"].as_str())
            .collect();
        assert_eq!(phases.iter().filter(|p| **p == "succeeded").count(), 1, "{}: {phases:?}", server.name);
        assert!(lines.iter().any(|l| l["type"] == "text"), "{}: text deltas are lines", server.name);
    }
}

#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn cli_tool_error_reaches_the_agent() {
    for (server, path) in both() {
        let out = agentui(&["run", &server.url(path), "make it fail", "--tool-error", "explode=disk full", "--json"]);
        assert_eq!(exit_code(&out), 0, "{}: {}", server.name, String::from_utf8_lossy(&out.stderr));
        let (lines, last) = json_lines(&out);
        let text = final_text(&last);
        assert!(text.starts_with("Tool explode returned:") && text.contains("disk full"), "{}: {text}", server.name);
        assert!(lines.iter().any(|l| l["type"] == "toolCall" && l["phase"] == "failed"));
    }
}

#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn cli_interrupts_stop_with_exit_3_unless_answered() {
    let cases = [(langgraph(), "/langgraph"), (langgraph(), "/langgraph-outcome"), (adk(), "/adk-outcome")];
    for (server, path) in cases {
        let url = server.url(path);
        let unanswered = agentui(&["run", &url, "delete the report", "--json"]);
        assert_eq!(exit_code(&unanswered), 3, "{path}: stopped at the interrupt");
        let (lines, last) = json_lines(&unanswered);
        assert_eq!(last["status"], "interrupted");
        assert_eq!(last["pendingInterrupts"].as_array().map(Vec::len), Some(1), "{path}");
        assert!(lines.iter().any(|l| l["type"] == "interrupt"), "{path}: the interrupt is a line");
        if server.name == "langgraph" {
            assert!(
                lines.iter().any(|l| l["type"] == "custom" && l["name"] == "on_interrupt"),
                "{path}: custom events are lines"
            );
        }

        for (policy, expected) in [("approve", "Deleted /tmp/report.txt"), ("reject", "Not deleted")] {
            let out = agentui(&["run", &url, "delete the report", "--interrupts", policy, "--json"]);
            assert_eq!(exit_code(&out), 0, "{path} {policy}: {}", String::from_utf8_lossy(&out.stderr));
            let (_, last) = json_lines(&out);
            assert_eq!(last["status"], "completed");
            assert!(final_text(&last).contains(expected), "{path} {policy}: {}", final_text(&last));
        }
    }
}

/// ADK's default confirmation is a client tool: declaring it on the command line is enough.
#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn cli_adk_confirmation_as_a_client_tool() {
    let server = adk();
    let out = agentui(&[
        "run",
        &server.url("/adk"),
        "delete the report",
        "--tool",
        r#"adk_request_confirmation={"confirmed":true}"#,
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(exit_code(&out), 0, "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("Deleted /tmp/report.txt"), "{stdout}");
    // The transcript form, not JSON.
    assert!(stdout.starts_with("you: delete the report"), "{stdout}");
}

#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn cli_state_and_headers_reach_the_server_and_headers_are_not_printed() {
    for (server, path) in both() {
        let thread_marker = unique_thread("cli-state");
        let state = json!({"marker": thread_marker}).to_string();
        let out = agentui(&[
            "run",
            &server.url(path),
            "hello",
            "--state",
            &state,
            "--header",
            "authorization: Bearer s3cret-token",
            "--json",
        ]);
        assert_eq!(exit_code(&out), 0);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!stdout.contains("s3cret-token") && !String::from_utf8_lossy(&out.stderr).contains("s3cret-token"));
        // The CLI picks its own thread id; its input is found by the state's marker.
        let rt = tokio::runtime::Runtime::new().unwrap();
        let inputs = rt.block_on(server.all_inputs());
        let sent = inputs.iter().filter(|b| b["state"]["marker"] == thread_marker.as_str()).count();
        assert_eq!(sent, 1, "{}: the --state value was the run's state", server.name);
    }
}

#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn cli_exit_1_on_an_agent_or_transport_error() {
    let server = adk();
    let out = agentui(&["run", &server.url("/no-such-agent"), "hello", "--json"]);
    assert_eq!(exit_code(&out), 1);
    let (_, last) = json_lines(&out);
    assert_eq!(last["status"], "failed");
    assert!(last["error"].as_str().is_some_and(|e| e.contains("404")), "{last}");
}

/// Scenarios ag-ui-validate 0.4.0 refuses, and the one rule each breaks: `bad-delta` sends a
/// STATE_DELTA that cannot apply on purpose, to exercise lesson 7 (keep the state,
/// resynchronise); `picture` sends a TOOL_CALL_RESULT whose content is parts (an image), which
/// AG-UI 1.1 allows (conformance stream `1.1/streams/tool-result-parts-mint-tool-message.json`)
/// and the validator, which checks 1.0's string content, does not.
const DELIBERATELY_INVALID: &[(&str, &str)] = &[("bad-delta", "AGUI302"), ("picture", "AGUI504")];

/// The demo agent's first run of every scenario passes ag-ui-validate with 0 errors, except
/// the deliberate faults, which fail exactly the rule they are about.
#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn demo_agent_streams_pass_ag_ui_validate() {
    let validate = std::env::var("AGENTUI_INTEROP_VALIDATE").expect("AGENTUI_INTEROP_VALIDATE (run.sh sets it)");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start(([127, 0, 0, 1], 0).into())).unwrap();
    let dir = std::env::temp_dir().join(format!("agentui-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for scenario in agentui_demo_agent::SCENARIOS {
        let input = json!({
            "threadId": format!("validate-{}", scenario.name), "runId": "r1", "state": {},
            "messages": [{"id": "u1", "role": "user", "content": "hi"}],
            "tools": [{"name": "get_location", "description": "where", "parameters": {"type": "object"}},
                      {"name": "navigate_to", "description": "go", "parameters": {"type": "object"}}],
            "context": [], "forwardedProps": {}
        });
        let body = rt.block_on(async {
            let _ = rustls::crypto::ring::default_provider().install_default();
            let response = reqwest::Client::new()
                .post(handle.scenario_url(scenario.name))
                .header("accept", "text/event-stream")
                .header("content-type", "application/json")
                .body(input.to_string())
                .send()
                .await
                .unwrap();
            response.bytes().await.unwrap()
        });
        let capture = dir.join(format!("{}.sse", scenario.name));
        std::fs::write(&capture, &body).unwrap();
        let out = Command::new(&validate).arg("--json").arg(&capture).output().expect("ag-ui-validate runs");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{}: report not JSON ({e}): {}", scenario.name, String::from_utf8_lossy(&out.stdout))
        });
        if let Some((_, rule)) = DELIBERATELY_INVALID.iter().find(|(name, _)| *name == scenario.name) {
            let errors: Vec<&str> = report["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["severity"] == "error")
                .filter_map(|d| d["rule"].as_str())
                .collect();
            assert_eq!(errors, [*rule], "{}: exactly the deliberate fault: {report}", scenario.name);
            checked += 1;
            continue;
        }
        assert_eq!(
            exit_code(&out),
            0,
            "{}: ag-ui-validate found errors: {}",
            scenario.name,
            serde_json::to_string_pretty(&report).unwrap()
        );
        checked += 1;
    }
    assert_eq!(checked, agentui_demo_agent::SCENARIOS.len());
    rt.block_on(handle.shutdown()).unwrap();
}
