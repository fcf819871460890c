//! `agentui run` on a mobile-like network: a stream dropped mid-answer is resumed (and the
//! transcript says so), and `--header-command` gives fresh credentials before each request.

use std::process::{Command, Output};

use agentui_test_server::*;

fn agentui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentui")).args(args).output().expect("agentui runs")
}

#[test]
fn run_resumes_a_dropped_stream_and_says_so() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let answer = run_of("r1", vec![text("a1", "Hello from the other side of the tunnel")]);
    let server = rt.block_on(TestServer::with_handler(vec![], ResumableRun::new(answer, vec![2]).handler()));
    let out = agentui(&["run", &server.url("/agent"), "hello", "--thread", "t"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.matches("Hello from the other side of the tunnel").count(), 1, "{text}");
    assert!(text.contains("the stream broke and was resumed from its last event (1 time(s))"), "{text}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].header("last-event-id"), Some("2"));
}

/// Issue 43's reproduction: a server that numbers every other event drops the connection after
/// one without an id (w7). Resumed from the last id (w6's), it sends w7 again; `agentui run`
/// prints every word once (it printed `w6 w7 w7 w8`).
#[test]
fn run_prints_each_word_once_when_a_stream_with_ids_on_every_other_event_is_resumed() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut message = vec![serde_json::json!({"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"})];
    for n in 1..=10 {
        message.push(serde_json::json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": format!("w{n} ")}));
    }
    message.push(serde_json::json!({"type": "TEXT_MESSAGE_END", "messageId": "a1"}));
    // Events: 1 RUN_STARTED, 2 the start, 3-12 w1-w10 (ids on the even ones: w2, w4, …), 13, 14.
    let answer = run_of("r1", vec![message]);
    let run = ResumableRun { ids: IdPattern::EveryOther, ..ResumableRun::new(answer, vec![9]) };
    let server = rt.block_on(TestServer::with_handler(vec![], run.handler()));
    let out = agentui(&["run", &server.url("/agent"), "hello", "--thread", "t"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    for n in 1..=10 {
        let word = format!("w{n}");
        assert_eq!(text.split_whitespace().filter(|w| *w == word).count(), 1, "{word} once in: {text}");
    }
    assert!(text.contains("w6 w7 w8"), "{text}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].header("last-event-id"), Some("8"), "w6's id: the last one sent before the drop");
}

#[test]
fn header_command_gives_fresh_headers_before_each_request_and_after_a_401() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let gate = RequireBearer::new("fresh-token");
    let server = rt.block_on(TestServer::with_handler(
        vec![],
        gate.handler(|_: &Recorded| Reply::sse(&run_of("r1", vec![text("a1", "signed in")]))),
    ));
    let script = r#"if [ "$AGENTUI_HEADER_REASON" = unauthorized ]; then echo 'Authorization: Bearer fresh-token'; else echo 'Authorization: Bearer stale-token'; fi"#;
    let out = agentui(&["run", &server.url("/agent"), "hello", "--thread", "t", "--header-command", script]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("signed in"), "{text}");
    assert!(!text.contains("-token"), "header values are never printed: {text}");
    let sent: Vec<_> = server.requests().iter().map(|r| r.header("authorization").unwrap().to_owned()).collect();
    assert_eq!(sent, ["Bearer stale-token", "Bearer fresh-token"]);

    // A command that never gets a token the agent takes: a typed failure, exit 1.
    let out = agentui(&[
        "run",
        &server.url("/agent"),
        "hello",
        "--thread",
        "t",
        "--header-command",
        "echo 'Authorization: Bearer nope'",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("401"), "{text}");
    assert!(!text.contains("nope"), "{text}");
}
