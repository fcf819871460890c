//! What `agentui run` says of a turn when it ends: every request counted.

use std::process::{Command, Stdio};

use agentui_test_server::*;

/// Issue #40: an interrupt answered with `--interrupts approve` makes a second request; the
/// summary counts both runs (it said one).
#[test]
fn the_run_count_includes_the_run_that_resumed_an_interrupt() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let interrupted = vec![
        started("r1"),
        serde_json::json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1",
            "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "confirm"}]}}),
    ];
    let resumed = run_of("r2", vec![text("a1", "Done.")]);
    let server = rt.block_on(TestServer::start(vec![Reply::sse(&interrupted), Reply::sse(&resumed)]));
    let out = Command::new(env!("CARGO_BIN_EXE_agentui"))
        .args(["run", &server.url("/agent"), "go", "--thread", "t", "--interrupts", "approve"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(server.requests().len(), 2);
    assert!(text.contains("run finished: Finished") && text.contains("(2 run(s))"), "{text}");
}
