//! `--locale` and `--time-zone` on the commands that render A2UI and on `agentui run` (issue 12).

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn agentui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentui")).args(args).stdin(Stdio::null()).output().expect("agentui runs")
}

fn receipt() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/a2ui/receipt.json").to_string_lossy().into_owned()
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a2ui_commands_format_for_en_us_in_utc_unless_told_otherwise() {
    let tree = stdout(&agentui(&["a2ui", "tree", &receipt()]));
    for shown in ["\"€1,234.50\"", "\"Sunday 1 March 2026 10:00\"", "\"Mon 2 Mar 2026\"", "\"12,345.678\""] {
        assert!(tree.contains(shown), "{shown} in {tree}");
    }
}

#[test]
fn a2ui_commands_format_in_the_given_locale_and_time_zone() {
    let tree = stdout(&agentui(&["a2ui", "tree", "--locale", "de-DE", "--time-zone", "Europe/Berlin", &receipt()]));
    for shown in ["\"EUR 1.234,50\"", "\"Sonntag 1 März 2026 11:00\"", "\"Mo. 2 März 2026\"", "\"12.345,678\""] {
        assert!(tree.contains(shown), "{shown} in {tree}");
    }
    let report: serde_json::Value = serde_json::from_str(&stdout(&agentui(&[
        "a2ui",
        "apply",
        &receipt(),
        "--locale",
        "ko-KR",
        "--time-zone",
        "Asia/Seoul",
    ])))
    .unwrap();
    let nodes = report["surfaces"][0]["nodes"].as_array().unwrap();
    let text = |id: &str| nodes.iter().find(|n| n["id"] == id).unwrap()["props"]["text"].clone();
    assert_eq!(text("paid"), "일요일 1 3월 2026 19:00");
    assert_eq!(text("delivery"), "월 2 3월 2026");
}

#[test]
fn an_invalid_locale_or_time_zone_is_a_usage_error() {
    let file = receipt();
    let cases: [&[&str]; 6] = [
        &["a2ui", "apply", &file, "--locale", "en_US"],
        &["a2ui", "validate", &file, "--locale", ""],
        &["a2ui", "tree", &file, "--time-zone", "Mars/Olympus"],
        &["agui", "replay", &file, "--time-zone", "GMT+05:30"],
        // Refused before any request: nothing listens on port 9, which would be exit 1.
        &["run", "http://127.0.0.1:9/agent", "hello", "--locale", "not a locale"],
        &["run", "http://127.0.0.1:9/agent", "hello", "--time-zone", "Europe/Atlantis"],
    ];
    for args in cases {
        let out = agentui(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("invalid locale") || stderr.contains("invalid time zone"), "{args:?}: {stderr}");
    }
}

#[test]
fn run_formats_the_agents_surfaces_in_the_given_locale_and_time_zone() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handle = rt.block_on(agentui_demo_agent::DemoAgent::start("127.0.0.1:0".parse().unwrap())).unwrap();
    let url = handle.agent_url();
    let default = stdout(&agentui(&["run", &url, "show my receipt"]));
    assert!(default.contains("\"€1,234.50\"") && default.contains("\"Sunday 1 March 2026 10:00\""), "{default}");
    let german =
        stdout(&agentui(&["run", &url, "show my receipt", "--locale", "de-DE", "--time-zone", "Europe/Berlin"]));
    assert!(german.contains("\"EUR 1.234,50\"") && german.contains("\"Sonntag 1 März 2026 11:00\""), "{german}");
    rt.block_on(handle.shutdown()).unwrap();
}
