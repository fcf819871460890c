//! Delivery cost per event through the Conversation actor over loopback, with one subscriber
//! that drains as it goes: 1M one-character TEXT_MESSAGE_CONTENT deltas of one message (which
//! must cost per event what the mixed 62,043-event workload costs: linear, not growing with the
//! message) against `shared/bench/agui-stream-n2000.sse`, each served as one prebuilt SSE body
//! by the scripted test server, until `send_message` returns.
//!
//! The same two runs are also read as a UI reads them, through a view subscription pulling
//! batches until the run's end is shown, with the chat Markdown tree built (on) and without it
//! (off): what Markdown costs per event (issue 25 asks for at most 1.5×). Before the timed
//! runs, each view run is made twice more, off and on alternately, and its peak RSS printed
//! (`PEAK RSS` lines: VmHWM reset before the run, Linux), for the within-10 % comparison.

use std::time::{Duration, Instant};

use agentui_agui::message::Role;
use agentui_runtime::session::{ChatMarkdown, ConversationSession, RunPhase, SessionOptions};
use agentui_runtime::view::MessageDiff;
use agentui_runtime::{Conversation, ConversationDelta, Observed};
use agentui_test_server::{Reply, Step, TestServer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const WORKLOAD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench/agui-stream-n2000.sse");
const WORKLOAD_THREAD: &str = "thread-bench-0001";
const WORKLOAD_EVENTS: u64 = 62_043;
const DELTAS: u64 = 1_000_000;

/// RUN_STARTED, one assistant message streamed as `n` one-character deltas, RUN_FINISHED.
fn one_char_deltas(n: u64) -> Vec<u8> {
    let mut body = Vec::with_capacity(n as usize * 72);
    let frame = |body: &mut Vec<u8>, json: &str| {
        body.extend_from_slice(b"data: ");
        body.extend_from_slice(json.as_bytes());
        body.extend_from_slice(b"\n\n");
    };
    frame(&mut body, r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#);
    frame(&mut body, r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#);
    for i in 0..n {
        let c = (b'a' + (i % 26) as u8) as char;
        frame(&mut body, &format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"{c}"}}"#));
    }
    frame(&mut body, r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#);
    frame(&mut body, r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}"#);
    body
}

/// One run of `body` through a fresh conversation, timed from the send to its return, with a
/// subscriber draining on another task. Returns the time and the messages at the end.
async fn play(server: &TestServer, body: &[u8], thread_id: &str) -> (Duration, usize) {
    server.push(Reply::sse_steps(vec![Step::Send(body.to_vec())]));
    // The defaults, as an app has them: a 1M-character message is within a run's 16 MiB.
    let options = SessionOptions { thread_id: Some(thread_id.to_owned()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).expect("session");
    let conversation = Conversation::start(session, tokio::runtime::Handle::current());
    let mut subscription = conversation.subscribe();
    let drainer = tokio::spawn(async move {
        let mut appended = 0usize;
        while let Some(item) = subscription.recv().await.unwrap() {
            match item {
                Observed::Delta(ConversationDelta::TextAppended { delta, .. }) => appended += delta.len(),
                Observed::Delta(ConversationDelta::RunPhase(RunPhase::Finished { .. })) => break,
                Observed::Snapshot(s) if matches!(s.phase, RunPhase::Finished { .. }) => break,
                _ => {}
            }
        }
        appended
    });
    let start = Instant::now();
    let summary = conversation.send_message("go".to_owned()).await.expect("the run finishes");
    let elapsed = start.elapsed();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    drainer.await.expect("drainer");
    let messages = conversation.snapshot().unwrap().messages;
    let assistant = messages.iter().filter(|m| m.role == Role::Assistant).count();
    (elapsed, assistant.max(messages.len()))
}

/// One run of `body` read through a view subscription (Markdown `on` or off) until a batch shows
/// the run finished, timed from the send to that batch. Returns the time and the diffs that carry
/// Markdown.
async fn play_view(server: &TestServer, body: &[u8], thread_id: &str, markdown: bool) -> (Duration, usize) {
    server.push(Reply::sse_steps(vec![Step::Send(body.to_vec())]));
    // Off as an app turns it off (`ConversationOptions.chat_markdown`).
    let options = SessionOptions {
        thread_id: Some(thread_id.to_owned()),
        chat_markdown: ChatMarkdown { enabled: markdown, images: false },
        ..SessionOptions::default()
    };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).expect("session");
    let conversation = Conversation::start(session, tokio::runtime::Handle::current());
    let view = conversation.subscribe_view();
    let start = Instant::now();
    let reader = tokio::spawn(async move {
        let mut trees = 0usize;
        while let Some(batch) = view.next_batch().await.unwrap() {
            // Markdown diffs, or items that carry a tree (a reader that fell behind gets a reset).
            trees += batch
                .messages
                .iter()
                .filter(|d| match d {
                    MessageDiff::Markdown { .. } => true,
                    MessageDiff::Insert { item, .. } | MessageDiff::Set { item, .. } => item.markdown.is_some(),
                    MessageDiff::Reset { items } => items.iter().any(|i| i.markdown.is_some()),
                    _ => false,
                })
                .count();
            if matches!(batch.phase, Some(RunPhase::Finished { .. })) {
                break;
            }
        }
        trees
    });
    conversation.send_message("go".to_owned()).await.expect("the run finishes");
    let trees = reader.await.expect("reader");
    (start.elapsed(), trees)
}

/// A field of `/proc/self/status` in MB (0 where there is none).
fn status_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':')?.split_whitespace().next()?.parse::<f64>().ok());
    kb.unwrap_or(0.0) / 1024.0
}

/// Prints the peak RSS of `run`: VmHWM reset before it (`clear_refs` 5), read after it.
fn print_peak_rss(label: &str, run: impl FnOnce()) {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let start = status_mb("VmRSS");
    run();
    let peak = status_mb("VmHWM");
    println!("PEAK RSS {label}: {peak:.1} MB ({start:.1} MB at the start, +{:.1} MB)", peak - start);
}

fn deltas(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let server = runtime.block_on(TestServer::start(Vec::new()));
    let workload = std::fs::read(WORKLOAD).expect("the bench workload (shared/bench)");
    let million = one_char_deltas(DELTAS);

    for markdown in [false, true, false, true] {
        let on = if markdown { "on" } else { "off" };
        print_peak_rss(&format!("view, Markdown {on}: 62,043 events"), || {
            runtime.block_on(play_view(&server, &workload, WORKLOAD_THREAD, markdown));
        });
        print_peak_rss(&format!("view, Markdown {on}: 1M one-character deltas"), || {
            runtime.block_on(play_view(&server, &million, "t", markdown));
        });
    }

    let mut group = c.benchmark_group("conversation_over_loopback");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(WORKLOAD_EVENTS));
    group.bench_function("agui-stream-n2000 (62,043 events)", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (elapsed, messages) = runtime.block_on(play(&server, &workload, WORKLOAD_THREAD));
                assert!(messages >= 4_040, "{messages} messages");
                total += elapsed;
            }
            total
        })
    });
    group.throughput(Throughput::Elements(DELTAS + 4));
    group.bench_function("1M one-character text deltas", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += runtime.block_on(play(&server, &million, "t")).0;
            }
            total
        })
    });
    for markdown in [false, true] {
        let on = if markdown { "on" } else { "off" };
        group.throughput(Throughput::Elements(WORKLOAD_EVENTS));
        group.bench_function(format!("view, Markdown {on}: agui-stream-n2000 (62,043 events)"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (elapsed, trees) = runtime.block_on(play_view(&server, &workload, WORKLOAD_THREAD, markdown));
                    assert_eq!(trees > 0, markdown, "Markdown trees only when on");
                    total += elapsed;
                }
                total
            })
        });
        group.throughput(Throughput::Elements(DELTAS + 4));
        group.bench_function(format!("view, Markdown {on}: 1M one-character text deltas"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += runtime.block_on(play_view(&server, &million, "t", markdown)).0;
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, deltas);
criterion_main!(benches);
