//! The cost of the on-device store (issue 14), on `shared/bench/agui-stream-n2000.sse` (62,043
//! events, 4,040 messages at the end) served over loopback by the scripted test server:
//!
//! - the run through a conversation without a store and with one (a fresh file per run), timed
//!   from the send to its return: the difference over 62,043 is the write cost per event;
//! - restoring that conversation from the file: opening the store, loading, rebuilding the
//!   session and its first snapshot (what a `Reset` carries); and the same after a message
//!   with four 1 MiB photos, whose base64 is in files beside the database.
//!
//! The store's size after the run and the number of batches written are printed once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentui_runtime::attachment::Attachment;
use agentui_runtime::session::{ConversationSession, RunPhase, SessionOptions};
use agentui_runtime::{Conversation, ConversationSnapshot, ConversationStore, Observed, WriteObserver};
use agentui_test_server::{text, Reply, Step, TempDbFile, TestServer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const WORKLOAD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench/agui-stream-n2000.sse");
const WORKLOAD_THREAD: &str = "thread-bench-0001";
const WORKLOAD_EVENTS: u64 = 62_043;
const WORKLOAD_MESSAGES: usize = 4_040;
const PHOTO_BYTES: usize = 1024 * 1024;

fn session(server: &TestServer) -> ConversationSession {
    let options = SessionOptions { thread_id: Some(WORKLOAD_THREAD.to_owned()), ..SessionOptions::default() };
    ConversationSession::connect(&server.url("/agent"), &[], options).expect("session")
}

/// One run of the workload, with a subscriber draining on another task; the store at `store`
/// when given (a fresh file). Returns the time from the send to its return.
async fn play(server: &TestServer, body: &[u8], store: Option<&ConversationStore>) -> Duration {
    server.push(Reply::sse_steps(vec![Step::Send(body.to_vec())]));
    let handle = tokio::runtime::Handle::current();
    let conversation = match store {
        Some(store) => Conversation::open(session(server), store, &server.url("/agent"), handle).expect("open"),
        None => Conversation::start(session(server), handle),
    };
    let mut subscription = conversation.subscribe();
    let drainer = tokio::spawn(async move {
        while let Some(item) = subscription.recv().await.unwrap() {
            match item {
                Observed::Delta(agentui_runtime::ConversationDelta::RunPhase(RunPhase::Finished { .. })) => break,
                Observed::Snapshot(s) if matches!(s.phase, RunPhase::Finished { .. }) => break,
                _ => {}
            }
        }
    });
    let start = Instant::now();
    let summary = conversation.send_message("go".to_owned()).await.expect("the run finishes");
    let elapsed = start.elapsed();
    assert!(matches!(summary.phase, RunPhase::Finished { .. }), "{:?}", summary.phase);
    drainer.await.expect("drainer");
    elapsed
}

/// Counts the batches written (several queued batches may share one transaction).
#[derive(Default)]
struct BatchesWritten(AtomicU64);

impl WriteObserver for BatchesWritten {
    fn writing(&self, _: &str, _: u64, _: &ConversationSnapshot) {}
    fn written(&self, _: &str, _: u64) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

fn store(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let server = runtime.block_on(TestServer::start(Vec::new()));
    let workload = std::fs::read(WORKLOAD).expect("the bench workload (shared/bench)");

    let mut group = c.benchmark_group("store");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(WORKLOAD_EVENTS));
    group.bench_function("agui-stream-n2000, no store", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| runtime.block_on(play(&server, &workload, None))).sum())
    });
    let run_file = TempDbFile::new("bench-run");
    group.bench_function("agui-stream-n2000, store on", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                run_file.remove();
                let store = ConversationStore::open(run_file.path()).expect("store");
                let start = Instant::now();
                runtime.block_on(play(&server, &workload, Some(&store)));
                // Done when the run is on disk.
                store.flush();
                total += start.elapsed();
            }
            total
        })
    });
    run_file.remove();

    group.throughput(Throughput::Elements(WORKLOAD_MESSAGES as u64));
    let restore_file = TempDbFile::new("bench-restore");
    let mut prepared = false;
    group.bench_function("restore 4,040 messages", |b| {
        // The file this reads, and the figures the note reports, made once (here, so a filtered
        // run of the other benches does not pay for it).
        if !std::mem::replace(&mut prepared, true) {
            restore_file.remove();
            let store = ConversationStore::open(restore_file.path()).expect("store");
            let batches = Arc::new(BatchesWritten::default());
            store.set_write_observer(Some(batches.clone()));
            runtime.block_on(play(&server, &workload, Some(&store)));
            store.flush();
            if std::env::var_os("CHECKPOINT").is_some() {
                let c = rusqlite::Connection::open(restore_file.path()).unwrap();
                let r: (i64, i64, i64) = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap();
                eprintln!("checkpoint {r:?}");
            }
            let main = std::fs::metadata(restore_file.path()).map_or(0, |m| m.len());
            eprintln!(
                "store after the run: {} bytes on disk ({} in the main file, the rest in the WAL), {} batches written for {} events",
                store.size_on_disk(),
                main,
                batches.0.load(Ordering::Relaxed),
                WORKLOAD_EVENTS
            );
        }
        b.iter_custom(|iters| timed_restores(&runtime, &server, restore_file.path(), iters, WORKLOAD_MESSAGES + 1))
    });

    // The same conversation and then a message with four 1 MiB photos and its answer: their
    // base64 lives in files beside the database, read back by the restore.
    let media_file = TempDbFile::new("bench-restore-media");
    let mut prepared = false;
    group.bench_function("restore 4,040 messages and 4 photos of 1 MiB", |b| {
        if !std::mem::replace(&mut prepared, true) {
            media_file.remove();
            let store = ConversationStore::open(media_file.path()).expect("store");
            runtime.block_on(play(&server, &workload, Some(&store)));
            let _guard = runtime.enter();
            let conversation =
                Conversation::open(session(&server), &store, &server.url("/agent"), runtime.handle().clone())
                    .expect("open");
            let mut answer =
                vec![serde_json::json!({"type": "RUN_STARTED", "threadId": WORKLOAD_THREAD, "runId": "r-photos"})];
            answer.extend(text("a-photos", "Four photos."));
            answer.push(serde_json::json!({"type": "RUN_FINISHED", "threadId": WORKLOAD_THREAD, "runId": "r-photos"}));
            server.push(Reply::sse(&answer));
            let photos = (0..4u8)
                .map(|n| {
                    let bytes = (0..PHOTO_BYTES).map(|i| (i * 31 + n as usize) as u8).collect();
                    Attachment::bytes(format!("photo{n}.jpg"), "image/jpeg", bytes)
                })
                .collect();
            runtime.block_on(conversation.send("look".into(), photos)).expect("sent");
            store.flush();
            let folder = std::path::PathBuf::from(format!("{}-attachments", media_file.path().display()));
            let files: usize = std::fs::read_dir(folder)
                .map(|threads| threads.flatten().map(|t| std::fs::read_dir(t.path()).map_or(0, |d| d.count())).sum())
                .unwrap_or(0);
            eprintln!("media files beside the database: {files}");
        }
        b.iter_custom(|iters| timed_restores(&runtime, &server, media_file.path(), iters, WORKLOAD_MESSAGES + 3))
    });
    group.finish();
    restore_file.remove();
    media_file.remove();
}

/// `iters` restores of the conversation stored at `path`, each timed from opening the file to the
/// snapshot a `Reset` carries (which must hold `messages`). The session (its HTTP client) is made
/// as for any conversation, restored or new, and is not timed; nor is dropping the conversation
/// afterwards (its actor, the store's writer thread).
fn timed_restores(
    runtime: &tokio::runtime::Runtime,
    server: &TestServer,
    path: &std::path::Path,
    iters: u64,
    messages: usize,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let _guard = runtime.enter();
        let session = session(server);
        let start = Instant::now();
        let store = ConversationStore::open(path).expect("store");
        let conversation =
            Conversation::open(session, &store, &server.url("/agent"), runtime.handle().clone()).expect("restore");
        let snapshot = conversation.snapshot().unwrap();
        total += start.elapsed();
        assert_eq!(snapshot.messages.len(), messages);
    }
    total
}

criterion_group!(benches, store);
criterion_main!(benches);
