//! What building the timeline adds to a run read as a UI reads it: the 62,043-event workload
//! (`shared/bench/agui-stream-n2000.sse`) through the Conversation actor over loopback, read by a
//! view subscription until a batch shows the run finished, once with a plain view and once with
//! a view that carries the timeline (`subscribe_timeline_view`). Markdown as an app has it (on).
//! The ratio of the two is the timeline's cost.

use std::time::{Duration, Instant};

use agentui_runtime::session::{ConversationSession, RunPhase, SessionOptions};
use agentui_runtime::Conversation;
use agentui_test_server::{Reply, Step, TestServer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const WORKLOAD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench/agui-stream-n2000.sse");
const WORKLOAD_THREAD: &str = "thread-bench-0001";
const WORKLOAD_EVENTS: u64 = 62_043;

/// One run, timed from the send to the batch that shows its end. Returns the time and the
/// timeline changes the view carried.
async fn play_view(server: &TestServer, body: &[u8], timeline: bool) -> (Duration, usize) {
    server.push(Reply::sse_steps(vec![Step::Send(body.to_vec())]));
    let options = SessionOptions { thread_id: Some(WORKLOAD_THREAD.to_owned()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).expect("session");
    let conversation = Conversation::start(session, tokio::runtime::Handle::current());
    let view = if timeline { conversation.subscribe_timeline_view() } else { conversation.subscribe_view() };
    let start = Instant::now();
    let reader = tokio::spawn(async move {
        let mut changes = 0usize;
        while let Some(batch) = view.next_batch().await.unwrap() {
            changes += batch.timeline.len();
            if matches!(batch.phase, Some(RunPhase::Finished { .. })) {
                break;
            }
        }
        changes
    });
    conversation.send_message("go".to_owned()).await.expect("the run finishes");
    let changes = reader.await.expect("reader");
    (start.elapsed(), changes)
}

fn timeline(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let server = runtime.block_on(TestServer::start(Vec::new()));
    let workload = std::fs::read(WORKLOAD).expect("the bench workload (shared/bench)");
    let mut group = c.benchmark_group("timeline_over_loopback");
    group.sample_size(10).measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::Elements(WORKLOAD_EVENTS));
    for on in [false, true] {
        let label = if on { "view with the timeline" } else { "view without the timeline" };
        group.bench_function(format!("{label}: agui-stream-n2000 (62,043 events)"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (elapsed, changes) = runtime.block_on(play_view(&server, &workload, on));
                    assert_eq!(changes > 0, on, "timeline changes only when asked");
                    total += elapsed;
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, timeline);
criterion_main!(benches);
