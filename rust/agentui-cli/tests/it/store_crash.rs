//! The crash test of the conversation store (issue 14): `agentui run --store` is killed with
//! SIGKILL at 20 points, mid-stream, mid-tool and mid-action; a new process restores the
//! conversation, and it equals what had been committed before the kill; then the conversation is
//! resumed to completion, and no client tool ran twice across the two processes.
//!
//! The child runs with the hidden `--trace-store` flag, which writes one JSON line to stderr,
//! unbuffered and before the work goes on, for each event that matters here:
//!
//! - `{"store":"writing","batch":N,"conversation":{…}}` just before transaction N commits; the
//!   conversation has the shape `store show --json` prints in `final`;
//! - `{"store":"written","batch":N}` once it committed;
//! - `{"tool":"ran","toolCallId":…}` when a command-line tool's handler starts.
//!
//! The test reads those lines as they come and kills the child at a line (its trigger); the
//! child goes on for a moment before the signal lands, so the rest of the pipe is read after the
//! kill, and the last `writing` line tells where it landed. SQLite commits atomically: the
//! restored conversation is that line's conversation if its `written` line came, otherwise that
//! one or the last one whose `written` line came (the store's writer commits the batches queued
//! together in one transaction). Restore changes only what it documents: an open run (`starting`,
//! `running`) comes back `abandoned`, and the calls of that run still `streaming`, `requested`
//! or `running` come back `skipped`.
//!
//! The demo agent sends one event every `EVENT_DELAY`; kill points are chosen so that each
//! lands in its own window between two such waits, and the test asserts that the 20 kills
//! landed at 20 different (scenario, batch, committed) places.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agentui_demo_agent::{DemoAgent, DemoAgentOptions};
use serde_json::{json, Value};

/// The gap between two events of every demo scenario: the window a kill lands in.
const EVENT_DELAY: Duration = Duration::from_millis(50);
/// How long a command-line tool takes, so a kill after its start lands while it runs.
const TOOL_DELAY_MS: &str = "400";
/// What restore says of a call of an abandoned run (`rust/agentui-runtime/src/session/restore.rs`).
const SKIPPED_REASON: &str = "the app stopped before this call finished";

fn agentui() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agentui"))
}

/// When the child is killed: right after one of its trace lines.
#[derive(Clone, Copy)]
enum Trigger {
    /// The `writing` line of batch N.
    Writing(u64),
    /// The `written` line of batch N.
    Written(u64),
    /// The first `writing` line whose conversation matches.
    WritingWhen(fn(&Value) -> bool),
    /// The `written` line of the first batch whose conversation matched.
    WrittenWhen(fn(&Value) -> bool),
    /// The first `{"tool":"ran"}` line: the handler has started and is waiting `TOOL_DELAY_MS`.
    ToolRan,
}

/// One kill point: a scenario of the demo agent, the line the kill follows, and how the
/// conversation is resumed afterwards.
struct Point {
    scenario: &'static str,
    what: &'static str,
    message: &'static str,
    /// Extra `run` arguments, the same for the killed and the resuming process.
    args: &'static [&'static str],
    /// Extra arguments of the killed process only (the user's input on the form).
    gestures: &'static [&'static str],
    trigger: Trigger,
    resume_with: &'static str,
}

const LOCATION_TOOL: &[&str] = &["--tool", r#"get_location={"city":"Paris"}"#, "--tool-delay", TOOL_DELAY_MS];
const FAILING_TOOL: &[&str] = &["--tool-error", "get_location=permission denied", "--tool-delay", TOOL_DELAY_MS];
const FORM_INPUT: &[&str] = &[
    "--set",
    r#"booking:/booking/name="Ada""#,
    "--set",
    r#"booking:/booking/date="2026-12-24""#,
    "--action",
    "booking/book",
];

fn last_text(c: &Value) -> String {
    c["messages"].as_array().and_then(|m| m.last()).and_then(|m| m["content"].as_str()).unwrap_or_default().to_owned()
}

fn any_call(c: &Value, phase: &str) -> bool {
    c["toolCalls"].as_array().is_some_and(|calls| calls.iter().any(|t| t["phase"] == phase))
}

fn points() -> Vec<Point> {
    let slow = |what, trigger| Point {
        scenario: "slow",
        what,
        message: "slow please",
        args: &[],
        gestures: &[],
        trigger,
        resume_with: "hello",
    };
    let tool = |what, trigger| Point {
        scenario: "client-tool",
        what,
        message: "what is my location?",
        args: LOCATION_TOOL,
        gestures: &[],
        trigger,
        resume_with: "and my location now?",
    };
    let action = |what, trigger| Point {
        scenario: "booking-action",
        what,
        message: "book a table",
        args: &[],
        gestures: FORM_INPUT,
        trigger,
        resume_with: "hello",
    };
    vec![
        // Mid-stream: the slow scenario, one text delta per batch.
        slow("first write: the conversation and its queued message", Trigger::Writing(1)),
        slow("first text delta committed", Trigger::Written(7)),
        slow("third text delta being written", Trigger::Writing(9)),
        slow("sixth text delta being written", Trigger::Writing(12)),
        slow("tenth text delta committed", Trigger::Written(16)),
        slow("fourteenth text delta being written", Trigger::Writing(20)),
        slow("nineteenth text delta being written", Trigger::Writing(25)),
        slow("twenty-fifth text delta committed", Trigger::Written(31)),
        // Mid-tool: the agent calls get_location, the CLI's tool answers after TOOL_DELAY_MS,
        // a follow-up run quotes the result.
        tool("the agent's intro streaming", Trigger::WritingWhen(|c| last_text(c).starts_with("Let me ask the app "))),
        tool("the call's arguments streaming", Trigger::WritingWhen(|c| any_call(c, "streaming"))),
        tool("the handler started, its result not yet back", Trigger::ToolRan),
        tool(
            "the result in, the follow-up run starting",
            Trigger::WritingWhen(|c| c["run"]["phase"] == "starting" && any_call(c, "succeeded")),
        ),
        tool(
            "the follow-up's answer committed",
            Trigger::WrittenWhen(|c| last_text(c).starts_with("Your location according to the app")),
        ),
        Point {
            scenario: "client-tool-error",
            what: "the failure sent back, the agent answering it",
            message: "what is my location?",
            args: FAILING_TOOL,
            gestures: &[],
            trigger: Trigger::WritingWhen(|c| last_text(c).starts_with("The app reported an error")),
            resume_with: "hello",
        },
        // Mid-action: the booking form, filled in with --set and submitted with --action.
        action(
            "the form's intro streaming",
            Trigger::WritingWhen(|c| last_text(c).starts_with("Here is a booking form")),
        ),
        action("the form created", Trigger::WrittenWhen(|c| c["surfaces"].as_array().is_some_and(|s| !s.is_empty()))),
        action(
            "the action queued for the agent",
            Trigger::WritingWhen(|c| {
                c["pendingSends"].as_array().is_some_and(|p| p.iter().any(|s| s["kind"] == "action"))
            }),
        ),
        action(
            "the agent's answer to the action streaming",
            Trigger::WritingWhen(|c| last_text(c).starts_with("Booked a table")),
        ),
        action("more of the answer committed", Trigger::WrittenWhen(|c| last_text(c).contains(" on 2026-12-24 "))),
        action(
            "the form deleted by the agent",
            Trigger::WritingWhen(|c| {
                c["surfaces"].as_array().is_some_and(|s| s.is_empty())
                    && c["messages"].to_string().contains("under the name Ada")
            }),
        ),
    ]
}

/// Everything a child said on stderr, in order.
#[derive(Default)]
struct Trace {
    /// `(batch, conversation)` of each `writing` line.
    writing: Vec<(u64, Value)>,
    written: HashSet<u64>,
    tools_ran: Vec<String>,
    other: Vec<String>,
}

impl Trace {
    fn take(&mut self, line: &str) {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            self.other.push(line.to_owned());
            return;
        };
        match (value["store"].as_str(), value["tool"].as_str()) {
            (Some("writing"), _) => self.writing.push((batch(&value), value["conversation"].clone())),
            (Some("written"), _) => {
                self.written.insert(batch(&value));
            }
            (_, Some("ran")) => self.tools_ran.push(value["toolCallId"].as_str().unwrap().to_owned()),
            _ => self.other.push(line.to_owned()),
        }
    }

    /// Whether the line just taken is the one to kill at.
    fn fires(&self, trigger: Trigger, line: &Value) -> bool {
        let is = |kind: &str| line["store"] == kind;
        match trigger {
            Trigger::Writing(n) => is("writing") && batch(line) == n,
            Trigger::Written(n) => is("written") && batch(line) == n,
            Trigger::WritingWhen(matches) => is("writing") && matches(&line["conversation"]),
            Trigger::WrittenWhen(matches) => {
                is("written")
                    && self.writing.iter().find(|(_, c)| matches(c)).is_some_and(|(first, _)| *first == batch(line))
            }
            Trigger::ToolRan => line["tool"] == "ran",
        }
    }
}

fn batch(line: &Value) -> u64 {
    line["batch"].as_u64().expect("a batch number")
}

/// Runs `agentui run` until `trigger`, kills it, and returns all it wrote on stderr.
fn run_and_kill(url: &str, store: &Path, thread: &str, point: &Point) -> Trace {
    let mut child = agentui()
        .args(["run", "--store", store.to_str().unwrap(), "--thread", thread, "--trace-store", "--json"])
        .args(["--interrupts", "approve", url, point.message])
        .args(point.args)
        .args(point.gestures)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agentui runs");
    // Lines are read on their own thread, so a child that stalls fails the test instead of
    // hanging it.
    let (lines, received) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            if lines.send(line.expect("stderr is text")).is_err() {
                break;
            }
        }
    });
    let mut trace = Trace::default();
    loop {
        let line = received.recv_timeout(Duration::from_secs(20)).unwrap_or_else(|e| {
            let _ = child.kill();
            panic!("{} / {}: the trigger never fired ({e}); other lines: {:?}", point.scenario, point.what, trace.other)
        });
        trace.take(&line);
        let fired = serde_json::from_str::<Value>(&line).is_ok_and(|value| trace.fires(point.trigger, &value));
        if fired {
            child.kill().expect("SIGKILL");
            break;
        }
    }
    // What the child wrote between the trigger and the signal.
    for line in received {
        trace.take(&line);
    }
    reader.join().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9),
        "{} / {}: the child was killed mid-way, not finished ({status:?})",
        point.scenario,
        point.what
    );
    trace
}

/// What a restore brings back of a conversation that was `committed`: the same, with an open
/// run abandoned and its unfinished calls skipped.
fn restored_form(committed: &Value) -> Value {
    let mut c = committed.clone();
    if matches!(c["run"]["phase"].as_str(), Some("starting" | "running")) {
        c["run"] = json!({"phase": "abandoned", "runId": c["run"]["runId"]});
        c["status"] = json!("abandoned");
        for call in c["toolCalls"].as_array_mut().unwrap() {
            if matches!(call["phase"].as_str(), Some("streaming" | "requested" | "running")) {
                call["phase"] = json!("skipped");
                call["reason"] = json!(SKIPPED_REASON);
            }
        }
    }
    c
}

/// The conversation of a thread opened on the store before its first batch committed.
fn never_written(thread: &str) -> Value {
    json!({"threadId": thread, "status": "idle", "run": {"phase": "idle"}, "messages": [], "state": {},
        "toolCalls": [], "pendingInterrupts": [], "consentRequests": [], "grantedTools": [], "surfaces": [],
        "pendingSends": [], "keptLocal": []})
}

fn show(store: &Path, thread: &str) -> Value {
    let out = agentui().args(["store", "show", store.to_str().unwrap(), thread, "--json"]).output().unwrap();
    assert!(out.status.success(), "store show {thread}: {}", String::from_utf8_lossy(&out.stderr));
    let shown: Value = serde_json::from_slice(&out.stdout).expect("store show --json prints JSON");
    shown["final"].clone()
}

/// Where a kill landed: the last batch the child announced, and whether it said it committed.
fn landing(trace: &Trace) -> (u64, bool) {
    trace.writing.last().map_or((0, false), |(n, _)| (*n, trace.written.contains(n)))
}

/// Resumes the conversation to completion with the same tools; returns its trace.
fn resume(url: &str, store: &Path, thread: &str, point: &Point) -> (Output, Trace) {
    let out = agentui()
        .args(["run", "--store", store.to_str().unwrap(), "--resume", thread, "--trace-store", "--json"])
        .args(["--interrupts", "approve", url, point.resume_with])
        .args(point.args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let mut trace = Trace::default();
    String::from_utf8_lossy(&out.stderr).lines().for_each(|line| trace.take(line));
    (out, trace)
}

fn store_path() -> PathBuf {
    let path = std::env::temp_dir().join(format!("agentui-store-crash-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

#[test]
fn a_conversation_killed_at_20_points_restores_what_was_committed_and_runs_no_tool_twice() {
    let started = Instant::now();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let options = DemoAgentOptions { event_delay: EVENT_DELAY, slow_delay: Duration::ZERO, time_scale: 1.0 };
    let agent = rt.block_on(DemoAgent::new(options).serve("127.0.0.1:0".parse().unwrap())).unwrap();
    let url = agent.agent_url();
    // One file for every conversation: each kill also leaves the others' file to recover.
    let store = store_path();
    let points = points();
    assert_eq!(points.len(), 20);

    let mut landed = BTreeMap::new();
    // Every thread a child opened, the abandoned reruns included: the file may hold each of them.
    let mut opened = BTreeSet::new();
    let mut counted = Vec::new();
    for (n, point) in points.iter().enumerate() {
        let mut thread = format!("crash-{n:02}-{}", point.scenario);
        opened.insert(thread.clone());
        let mut killed = run_and_kill(&url, &store, &thread, point);
        // Adjacent points are one event (50 ms) apart: a stall of the loaded machine can put both
        // in one batch. Such a point runs again on a new thread, so the 20 still cover 20 moments
        // (every check below applies to the run that counts).
        for again in 1..=2 {
            let (batch, committed) = landing(&killed);
            if !landed.contains_key(&(point.scenario, batch, committed)) {
                break;
            }
            thread = format!("crash-{n:02}-{}-again{again}", point.scenario);
            opened.insert(thread.clone());
            killed = run_and_kill(&url, &store, &thread, point);
        }
        let (batch, committed) = landing(&killed);
        counted.push(thread.clone());

        // The restored conversation is what was committed before the kill.
        let restored = show(&store, &thread);
        let last = killed.writing.last().map(|(_, c)| restored_form(c));
        // The writer commits what is queued as one transaction (a group of batches), so the
        // alternative to the last announced batch is the last one that said it committed.
        let before = killed
            .writing
            .iter()
            .rev()
            .find(|(n, _)| killed.written.contains(n))
            .map_or_else(|| never_written(&thread), |(_, c)| restored_form(c));
        let candidates: Vec<&Value> = match (&last, committed) {
            (Some(last), true) => vec![last],
            (Some(last), false) => vec![last, &before],
            (None, _) => vec![&before],
        };
        assert!(
            candidates.contains(&&restored),
            "{thread} ({}): killed at batch {batch} (committed: {committed}); restored\n{restored:#}\nis none of\n{:#}",
            point.what,
            Value::Array(candidates.into_iter().cloned().collect()),
        );
        let first_before_kill = landed.insert((point.scenario, batch, committed), point.what);
        assert!(
            first_before_kill.is_none(),
            "{thread}: '{}' landed where '{}' did (batch {batch}, committed: {committed}); the 20 points must differ",
            point.what,
            first_before_kill.unwrap_or_default(),
        );

        // A new process resumes it to completion; no tool call runs in both.
        let (resumed, after) = resume(&url, &store, &thread, point);
        assert!(
            resumed.status.success(),
            "{thread}: the resumed run failed: {}\n{}",
            String::from_utf8_lossy(&resumed.stderr),
            String::from_utf8_lossy(&resumed.stdout)
        );
        // An action the agent had not received is delivered once; one it had is not sent again.
        let bookings = |c: &Value| {
            let messages = c["messages"].as_array().unwrap();
            messages.iter().filter(|m| m["content"].as_str().is_some_and(|t| t.starts_with("Booked"))).count()
        };
        let action_owed = restored["pendingSends"].as_array().unwrap().iter().any(|p| p["kind"] == "action");
        let final_line = String::from_utf8_lossy(&resumed.stdout).lines().last().map(str::to_owned).unwrap_or_default();
        let resumed_final = serde_json::from_str::<Value>(&final_line).unwrap()["final"].clone();
        assert_eq!(
            bookings(&resumed_final),
            bookings(&restored) + usize::from(action_owed),
            "{thread}: the booking action is delivered exactly once"
        );
        assert_eq!(resumed_final["pendingSends"], json!([]), "{thread}: nothing is left waiting");
        let mut ran = HashSet::new();
        for id in killed.tools_ran.iter().chain(&after.tools_ran) {
            assert!(ran.insert(id), "{thread}: tool call {id} ran twice (before the kill and after the restore)");
        }
        eprintln!(
            "{n:>2} {:<17} {:<50} batch {batch:>2} {:<9} tools ran {} + {}",
            point.scenario,
            point.what,
            if committed { "committed" } else { "writing" },
            killed.tools_ran.len(),
            after.tools_ran.len(),
        );
    }
    assert_eq!(landed.len(), 20);

    // The file lists each of the 20 conversations that counted, and nothing no child opened. A
    // rerun leaves the thread it abandoned behind (listed if its first batch committed).
    let out = agentui().args(["store", "list", store.to_str().unwrap(), "--limit", "50", "--json"]).output().unwrap();
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed: BTreeSet<String> = listed["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["threadId"].as_str().unwrap().to_owned())
        .collect();
    for thread in &counted {
        assert!(listed.contains(thread), "{thread} is not listed: {listed:?}");
    }
    assert!(listed.is_subset(&opened), "listed {listed:?}, but the children opened only {opened:?}");
    rt.block_on(agent.shutdown()).unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", store.display()));
    }
    eprintln!("crash test: 20 kill points in {:.1?}", started.elapsed());
}
