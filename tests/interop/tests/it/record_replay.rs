//! A turn recorded against a real framework server with `agentui run --record`, then served by
//! `agentui serve-recording` with the server out of the loop (issue 39): the replayed run ends
//! with the same conversation, and the agent's stream is the same byte for byte, apart from the
//! client's own random ids.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use agentui_interop::*;

/// The `agentui` binary beside this test's directory (`tests/interop/run.sh` builds it first).
fn agentui_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target profile directory");
    let binary = dir.join("agentui");
    assert!(binary.exists(), "{} is missing: build it with `cargo build -p agentui-cli`", binary.display());
    binary
}

fn agentui(args: &[&str]) -> Output {
    Command::new(agentui_binary()).args(args).stdin(Stdio::null()).output().expect("agentui runs")
}

/// `agentui serve-recording DIR` and the URL on its first line; killed when dropped.
struct Replay {
    child: Child,
    url: String,
    /// Kept open: the CLI stops when its output is closed.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Replay {
    fn serve(dir: &Path) -> Replay {
        let mut child = Command::new(agentui_binary())
            .args(["serve-recording", dir.to_str().unwrap(), "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agentui serve-recording starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        Replay { child, url: first.trim().to_owned(), _stdout: stdout }
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agentui-interop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The client's own ids (thread, run, user and tool-result messages) end in a random hex part of
/// at least 15 digits; the frameworks' ids (UUIDs: groups of at most 12) are kept.
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

/// The `--json` lines of a run, without the client's randomness: every event the app saw, and
/// the final conversation last.
fn event_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(without_client_randomness).collect()
}

/// The `toolCall` lines (the app running its tool), and the lines that map one for one to the
/// agent's events; both in order.
fn split_app_lines(lines: &[String]) -> (Vec<&String>, Vec<&String>) {
    const OF_THE_AGENT: [&str; 5] = ["raw", "step", "state", "text", "toolCallArgs"];
    let kind = |line: &str| {
        serde_json::from_str::<serde_json::Value>(line).ok().and_then(|v| v["type"].as_str().map(str::to_owned))
    };
    let tool = lines.iter().filter(|l| kind(l).as_deref() == Some("toolCall")).collect();
    let stream = lines.iter().filter(|l| kind(l).is_some_and(|k| OF_THE_AGENT.contains(&k.as_str()))).collect();
    (tool, stream)
}

/// The first line that differs, rather than two walls of JSON.
fn assert_same_lines(live: &[&String], replayed: &[&String], what: &str) {
    if let Some(at) = live.iter().zip(replayed).position(|(a, b)| a != b) {
        panic!("{what}: line {at} differs\n  live:     {}\n  replayed: {}", live[at], replayed[at]);
    }
    assert_eq!(live.len(), replayed.len(), "{what}: as many lines");
}

fn exchanges(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with("-response.sse"))
        .count()
}

#[test]
#[ignore = "needs the interop servers: run tests/interop/run.sh"]
fn a_turn_recorded_against_a_framework_replays_without_it() {
    // A client tool call and its follow-up: two exchanges, the second carrying the app's result.
    let message = "what is my location?";
    let tool = r#"get_location={"city":"Lisbon"}"#;
    for (server, path) in [(langgraph(), "/langgraph"), (adk(), "/adk")] {
        let recorded = temp_dir(&format!("recorded-{}", server.name));
        let live = agentui(&[
            "run",
            &server.url(path),
            message,
            "--tool",
            tool,
            "--json",
            "--record",
            recorded.to_str().unwrap(),
        ]);
        assert_eq!(live.status.code(), Some(0), "{}: {}", server.name, String::from_utf8_lossy(&live.stderr));
        assert_eq!(exchanges(&recorded), 2, "{}: the call and the result's follow-up", server.name);

        // The framework is out of the loop: only the recording answers.
        let replay = Replay::serve(&recorded);
        assert!(replay.url.starts_with("http://127.0.0.1:"), "{}: {}", server.name, replay.url);
        let again = temp_dir(&format!("replayed-{}", server.name));
        let replayed =
            agentui(&["run", &replay.url, message, "--tool", tool, "--json", "--record", again.to_str().unwrap()]);
        assert_eq!(replayed.status.code(), Some(0), "{}: {}", server.name, String::from_utf8_lossy(&replayed.stderr));

        let (live_lines, replayed_lines) = (event_lines(&live), event_lines(&replayed));
        let final_of = |lines: &[String]| lines.last().cloned().unwrap_or_default();
        assert!(
            final_of(&live_lines).contains(r#"Tool get_location returned: {\"city\":\"Lisbon\"}"#),
            "{}",
            server.name
        );
        assert_eq!(final_of(&replayed_lines), final_of(&live_lines), "{}: the same final conversation", server.name);
        // Lines of the agent's events one for one (raw, step, state, text and argument deltas)
        // must come in the same order. The app's own lines follow the timing of the stream:
        // tool phases interleave with it (compared apart), and message/outbox lines are coalesced
        // from state changes as the client reads (seen: a different count in 2 runs of 3).
        let (live_tool, live_stream) = split_app_lines(&live_lines);
        let (replayed_tool, replayed_stream) = split_app_lines(&replayed_lines);
        assert_same_lines(&live_stream, &replayed_stream, &format!("{}: the events from the agent", server.name));
        assert_same_lines(&live_tool, &replayed_tool, &format!("{}: the tool call phases", server.name));
        for n in ["0001", "0002"] {
            let body = |d: &Path| std::fs::read_to_string(d.join(format!("{n}-response.sse"))).unwrap();
            assert_eq!(
                without_client_randomness(&body(&again)),
                without_client_randomness(&body(&recorded)),
                "{}: exchange {n} on the wire",
                server.name
            );
        }
    }
}
