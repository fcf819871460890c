//! `run --record`, `serve-recording` and `serve-script` (issue 39): a run recorded against the
//! demo agent and replayed gives the same conversation, and the same events on the wire.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use agentui_demo_agent::{DemoAgent, DemoAgentOptions};
use serde_json::Value;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentui-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn agentui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentui")).args(args).stdin(Stdio::null()).output().expect("agentui runs")
}

/// A server subcommand and the URL on its first line; killed when dropped.
struct Serving {
    child: Child,
    url: String,
    /// Kept open: the CLI stops when its output is closed.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Serving {
    fn start(args: &[&str]) -> Serving {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agentui"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agentui serves");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
        Serving { child, url: first.trim().to_owned(), _stdout: stdout }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The client's own ids (thread, run, user message) end in a random hex part; the rest of every
/// line is the agent's and must be the same.
fn without_client_randomness(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut hex = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            hex.push(c);
            continue;
        }
        out.push_str(if hex.len() >= 15 { "X" } else { &hex });
        hex.clear();
        out.push(c);
    }
    out.pop();
    out
}

fn final_line(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    without_client_randomness(stdout.lines().last().unwrap_or_default())
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_recorded_run_replays_with_the_same_conversation_and_the_same_events() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let demo = rt
        .block_on(
            DemoAgent::new(DemoAgentOptions::for_tests(std::time::Duration::ZERO))
                .serve("127.0.0.1:0".parse().unwrap()),
        )
        .unwrap();
    let recorded = temp_dir("recorded");
    let tool = r#"get_location={"city":"Paris"}"#;
    let message = "what is my location?";
    let url = demo.agent_url();
    let dir = recorded.to_str().unwrap();
    let live = agentui(&["run", &url, message, "--tool", tool, "--json", "--record", dir]);
    assert_eq!(live.status.code(), Some(0), "{}", String::from_utf8_lossy(&live.stderr));
    // The call and its result's follow-up: two exchanges.
    assert_eq!(
        files(&recorded),
        [
            "0001-request.json",
            "0001-response.json",
            "0001-response.sse",
            "0002-request.json",
            "0002-response.json",
            "0002-response.sse"
        ]
    );
    let follow_up: Value =
        serde_json::from_str(&std::fs::read_to_string(recorded.join("0002-request.json")).unwrap()).unwrap();
    assert_eq!(follow_up["messages"].as_array().unwrap().last().unwrap()["role"], "tool");
    rt.block_on(demo.shutdown()).unwrap();

    // The agent is gone: the replay alone answers, and is recorded again to compare the wire.
    let replay = Serving::start(&["serve-recording", dir]);
    assert!(replay.url.starts_with("http://127.0.0.1:"), "{}", replay.url);
    let again = temp_dir("replayed");
    let replayed =
        agentui(&["run", &replay.url, message, "--tool", tool, "--json", "--record", again.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(0), "{replayed:?}");
    assert_eq!(final_line(&replayed), final_line(&live), "the app ends with the same conversation");
    for n in ["0001", "0002"] {
        let body = |d: &Path| std::fs::read_to_string(d.join(format!("{n}-response.sse"))).unwrap();
        assert_eq!(
            without_client_randomness(&body(&again)),
            without_client_randomness(&body(&recorded)),
            "exchange {n}"
        );
    }

    // One request more than was recorded: an error that says so, never a hang.
    let beyond = agentui(&["run", &replay.url, "hello", "--json"]);
    assert_eq!(beyond.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&beyond.stdout).contains("beyond the recording"), "{beyond:?}");
}

#[test]
fn a_bearer_token_never_lands_in_a_recording() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let demo = rt
        .block_on(
            DemoAgent::new(DemoAgentOptions::for_tests(std::time::Duration::ZERO))
                .serve("127.0.0.1:0".parse().unwrap()),
        )
        .unwrap();
    for with_headers in [false, true] {
        let dir = temp_dir(&format!("token-{with_headers}"));
        let mut args =
            vec!["run", "--header", "Authorization: Bearer s3cr3t-token", "--header", "Cookie: sid=s3cr3t-cookie"];
        args.extend(["--record", dir.to_str().unwrap()]);
        if with_headers {
            args.push("--record-headers");
        }
        let url = demo.agent_url();
        args.extend([url.as_str(), "hello"]);
        let out = agentui(&args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(dir.join("0001-headers.json").exists(), with_headers);
        for name in files(&dir) {
            let text = std::fs::read_to_string(dir.join(&name)).unwrap();
            assert!(!text.contains("s3cr3t"), "{name}: {text}");
        }
    }
    rt.block_on(demo.shutdown()).unwrap();
}

#[test]
fn serve_script_answers_by_the_script_and_refuses_a_bad_one_with_its_place() {
    let dir = temp_dir("script");
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        r#"{"rules": [{"when": {"userSays": "hello"}, "reply": [{"type": "text", "text": "Hi from the script"}]}]}"#,
    )
    .unwrap();
    let serving = Serving::start(&["serve-script", good.to_str().unwrap()]);
    let out = agentui(&["run", &serving.url, "hello"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Hi from the script"));
    let unmatched = agentui(&["run", &serving.url, "bye"]);
    assert_eq!(unmatched.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&unmatched.stdout).contains(r#"no rule matches the user message "bye""#),
        "{unmatched:?}"
    );

    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"rules\": [{\"when\": {\"userSays\": \"x\"},\n \"reply\": [{\"type\": \"dance\"}]}]}")
        .unwrap();
    let refused = agentui(&["serve-script", bad.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("unknown step \"dance\" at /rules/0/reply/0 (line 2"), "{stderr}");
}
