//! Opening a conversation, the A2UI engine included (issue 42: at most 1 ms on the host, the
//! first one in a process too).
//!
//! The first open in a process is timed once, before criterion starts, and printed as a
//! `FIRST OPEN` line: criterion repeats its cases, so it only sees opens after the process has
//! prepared what every conversation shares (the basic catalogs, the default localization). The
//! instruction counts of a whole process come from `examples/open_conversation.rs` under
//! valgrind (docs/benchmarks.md, "Cold start").

use std::time::Instant;

use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::Conversation;
use criterion::{criterion_group, criterion_main, Criterion};

fn open(runtime: &tokio::runtime::Runtime) -> Conversation {
    let session =
        ConversationSession::connect("http://127.0.0.1:9/agent", &[], SessionOptions::default()).expect("a session");
    Conversation::start(session, runtime.handle().clone())
}

fn cold_start(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let started = Instant::now();
    let first = open(&runtime);
    println!("FIRST OPEN in this process: {:?}", started.elapsed());
    drop(first);
    let mut g = c.benchmark_group("cold_start");
    g.bench_function("open a conversation (after the first)", |b| b.iter(|| open(&runtime)));
    g.finish();
}

criterion_group!(benches, cold_start);
criterion_main!(benches);
