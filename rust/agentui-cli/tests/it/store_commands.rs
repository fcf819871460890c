//! `agentui run --store` / `--resume` and `agentui store list|show|fork|delete`, as agent
//! developers use them against the demo agent.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn agentui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentui")).args(args).stdin(Stdio::null()).output().expect("agentui runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn final_of(out: &Output) -> Value {
    let text = stdout(out);
    let last: Value = serde_json::from_str(text.lines().last().unwrap_or_default()).unwrap_or(Value::Null);
    last["final"].clone()
}

/// A store file of the test's own, removed (with its WAL) when dropped.
struct StoreFile(PathBuf);

impl StoreFile {
    fn new(name: &str) -> Self {
        let file = StoreFile(std::env::temp_dir().join(format!("agentui-cli-store-{name}-{}.db", std::process::id())));
        file.remove();
        file
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

impl Drop for StoreFile {
    fn drop(&mut self) {
        self.remove();
    }
}

struct Agent {
    rt: tokio::runtime::Runtime,
    handle: Option<agentui_demo_agent::DemoAgentHandle>,
}

impl Agent {
    fn start() -> Self {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let options = agentui_demo_agent::DemoAgentOptions::for_tests(std::time::Duration::ZERO);
        let handle = rt.block_on(agentui_demo_agent::DemoAgent::new(options).serve("127.0.0.1:0".parse().unwrap()));
        Agent { rt, handle: Some(handle.unwrap()) }
    }

    fn url(&self) -> String {
        self.handle.as_ref().unwrap().agent_url()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = self.rt.block_on(handle.shutdown());
        }
    }
}

#[test]
fn a_stored_run_says_where_it_is_and_store_show_prints_the_same_final_object() {
    let agent = Agent::start();
    let file = StoreFile::new("show");
    let url = agent.url();

    let transcript = agentui(&["run", "--store", file.path(), "--thread", "t-text", &url, "hello"]);
    assert!(transcript.status.success(), "{}", stderr(&transcript));
    assert!(
        stdout(&transcript).contains(&format!("thread t-text, stored in {}", file.path())),
        "{}",
        stdout(&transcript)
    );

    let tool = ["--tool", r#"get_location={"city":"Paris"}"#];
    let run = agentui(&[&["run", "--store", file.path(), "--json", &url, "what is my location?"][..], &tool].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let ran = final_of(&run);
    let thread = ran["threadId"].as_str().expect("the final object names the thread").to_owned();
    assert_eq!(ran["status"], "completed");
    assert_eq!(ran["toolCalls"][0]["phase"], "succeeded");

    let shown = agentui(&["store", "show", file.path(), &thread, "--json"]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert_eq!(final_of(&shown), ran, "store show --json prints what run --json ended with");

    let readable = agentui(&["store", "show", file.path(), &thread]);
    let text = stdout(&readable);
    assert!(text.contains("you: what is my location?"), "{text}");
    assert!(text.contains(r#"agent: Your location according to the app: {"city":"Paris"}"#), "{text}");
    assert!(text.contains("run: completed"), "{text}");
}

#[test]
fn list_pages_newest_first_and_fork_and_delete_report_what_they_did() {
    let agent = Agent::start();
    let file = StoreFile::new("list");
    let url = agent.url();
    for (thread, message) in [("older", "hello there"), ("newer", "make it fail")] {
        let out = agentui(&["run", "--store", file.path(), "--thread", thread, &url, message]);
        assert!(out.status.code().is_some(), "{}", stderr(&out));
    }

    let table = agentui(&["store", "list", file.path()]);
    let text = stdout(&table);
    let (newer, older) = (text.find("newer").unwrap(), text.find("older").unwrap());
    assert!(newer < older, "newest first: {text}");
    assert!(text.contains("failed") && text.contains("hello there"), "status and title: {text}");

    let page = |cursor: Option<&str>| -> Value {
        let mut args = vec!["store", "list", file.path(), "--limit", "1", "--json"];
        args.extend(cursor.iter().flat_map(|c| ["--cursor", c]));
        serde_json::from_slice(&agentui(&args).stdout).unwrap()
    };
    let first = page(None);
    assert_eq!(first["conversations"][0]["threadId"], "newer");
    assert_eq!(first["conversations"][0]["status"], "failed");
    let second = page(first["nextCursor"].as_str());
    assert_eq!(second["conversations"][0]["threadId"], "older");
    assert_eq!(second["conversations"][0]["messageCount"], 2);
    assert_eq!(second["nextCursor"], Value::Null, "the last page");

    let fork = agentui(&["store", "fork", file.path(), "older", "--as", "copy"]);
    assert_eq!(stdout(&fork).trim(), "copy");
    let copy = final_of(&agentui(&["store", "show", file.path(), "copy", "--json"]));
    let source = final_of(&agentui(&["store", "show", file.path(), "older", "--json"]));
    assert_eq!(copy["messages"], source["messages"]);
    let again = agentui(&["store", "fork", file.path(), "older", "--as", "copy"]);
    assert_eq!(again.status.code(), Some(2), "the copy's id is taken");
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    let fresh = agentui(&["store", "fork", file.path(), "older"]);
    assert!(stdout(&fresh).trim().starts_with("older-fork-"), "{}", stdout(&fresh));

    let deleted = agentui(&["store", "delete", file.path(), "copy"]);
    assert_eq!(deleted.status.code(), Some(0));
    assert_eq!(stdout(&deleted).trim(), "deleted copy");
    let twice = agentui(&["store", "delete", file.path(), "copy"]);
    assert_eq!(twice.status.code(), Some(0), "deleting is idempotent");
    assert!(stdout(&twice).contains("nothing to delete"), "{}", stdout(&twice));
    let missing = agentui(&["store", "show", file.path(), "copy"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no stored conversation 'copy'"), "{}", stderr(&missing));
}

#[test]
fn resume_continues_a_stored_conversation_and_refuses_one_that_is_not_there() {
    let agent = Agent::start();
    let file = StoreFile::new("resume");
    let url = agent.url();
    let first = agentui(&["run", "--store", file.path(), "--thread", "t", &url, "hello"]);
    assert!(first.status.success(), "{}", stderr(&first));

    let resumed = agentui(&["run", "--store", file.path(), "--resume", "t", &url, "what is the weather?"]);
    let text = stdout(&resumed);
    assert!(resumed.status.success(), "{text}");
    assert!(text.contains(&format!("thread t, restored from {} (2 messages)", file.path())), "{text}");
    assert!(text.contains("you: hello"), "the history is shown: {text}");
    let resumed_json = agentui(&["run", "--store", file.path(), "--resume", "t", "--json", &url, "hello again"]);
    let last = final_of(&resumed_json);
    assert_eq!(last["threadId"], "t");
    assert_eq!(last["messages"][0]["content"], "hello", "one conversation, continued");
    let restored_line: Value = serde_json::from_str(stdout(&resumed_json).lines().next().unwrap()).unwrap();
    assert_eq!(restored_line["type"], "restored");

    let missing = agentui(&["run", "--store", file.path(), "--resume", "nope", &url, "hello"]);
    assert_eq!(missing.status.code(), Some(2));
    let message = stderr(&missing);
    assert!(message.contains(file.path()) && message.contains("no stored conversation 'nope'"), "{message}");
    let listed: Value = serde_json::from_slice(&agentui(&["store", "list", file.path(), "--json"]).stdout).unwrap();
    assert_eq!(listed["conversations"].as_array().unwrap().len(), 1, "a refused resume creates nothing");

    let without_store = agentui(&["run", "--resume", "t", &url, "hello"]);
    assert_eq!(without_store.status.code(), Some(2), "--resume needs --store");
    let trace_without_store = agentui(&["run", "--trace-store", &url, "hello"]);
    assert_eq!(trace_without_store.status.code(), Some(2), "--trace-store needs --store");
}

#[test]
fn store_commands_never_create_a_missing_file_and_trace_store_is_hidden() {
    let path = std::env::temp_dir().join(format!("agentui-cli-store-absent-{}.db", std::process::id()));
    let absent = path.to_str().unwrap();
    for args in [
        vec!["store", "list", absent],
        vec!["store", "show", absent, "t"],
        vec!["store", "fork", absent, "t"],
        vec!["store", "delete", absent, "t"],
    ] {
        let out = agentui(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(&format!("{absent}: no such store file")), "{}", stderr(&out));
    }
    assert!(!Path::new(absent).exists());

    let help = stdout(&agentui(&["run", "--help"]));
    assert!(help.contains("--store") && help.contains("--resume") && help.contains("--action"), "{help}");
    assert!(!help.contains("trace-store"), "a diagnostic flag, not in the help: {help}");
    let store_help = stdout(&agentui(&["store", "--help"]));
    for command in ["list", "show", "fork", "delete"] {
        assert!(store_help.contains(command), "{store_help}");
    }
}

/// Issue 43: a photo sent with `--store` whose file beside the database is deleted leaves the
/// conversation readable: `store show` and `run --resume` succeed and say the part is unavailable.
#[test]
fn a_deleted_attachment_file_leaves_the_conversation_readable_and_says_the_part_is_unavailable() {
    let agent = Agent::start();
    let file = StoreFile::new("lost-photo");
    let attachments = std::path::PathBuf::from(format!("{}-attachments", file.path()));
    let _ = std::fs::remove_dir_all(&attachments);
    let url = agent.url();
    let photo = std::env::temp_dir().join(format!("agentui-cli-lost-photo-{}.png", std::process::id()));
    std::fs::write(&photo, (0..100_000u32).map(|i| (i * 31 % 256) as u8).collect::<Vec<_>>()).unwrap();

    let sent =
        agentui(&["run", "--store", file.path(), "--thread", "t", &url, "look", "--attach", photo.to_str().unwrap()]);
    assert!(sent.status.success(), "{}", stderr(&sent));
    let files: Vec<_> =
        std::fs::read_dir(&attachments).unwrap().flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap()).collect();
    assert_eq!(files.len(), 1, "the photo is in a file beside the database");
    std::fs::remove_file(files[0].as_ref().unwrap().path()).unwrap();

    let shown = agentui(&["store", "show", file.path(), "t"]);
    let text = stdout(&shown);
    assert!(shown.status.success(), "{}{}", text, stderr(&shown));
    assert!(text.contains("you: look"), "{text}");
    let photo_name = photo.file_name().unwrap().to_str().unwrap();
    assert!(text.contains("unavailable") && text.contains(photo_name), "the part is reported unavailable: {text}");
    let shown_json = agentui(&["store", "show", file.path(), "t", "--json"]);
    assert!(shown_json.status.success(), "{}", stderr(&shown_json));

    let resumed = agentui(&["run", "--store", file.path(), "--resume", "t", &url, "still there?"]);
    let text = stdout(&resumed);
    assert!(resumed.status.success(), "{text}{}", stderr(&resumed));
    assert!(text.contains("unavailable") && text.contains(photo_name), "the part is reported unavailable: {text}");
    let resumed_json = agentui(&["run", "--store", file.path(), "--resume", "t", "--json", &url, "and now?"]);
    assert!(resumed_json.status.success(), "{}", stderr(&resumed_json));
    assert_eq!(final_of(&resumed_json)["status"], "completed", "the conversation continued");

    let _ = std::fs::remove_file(&photo);
    let _ = std::fs::remove_dir_all(&attachments);
}
