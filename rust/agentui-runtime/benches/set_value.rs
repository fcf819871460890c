//! The core's share of "setValue until the one node is redrawn": a write to one bound path of
//! a 1,000-node surface (the Kotlin `AdapterBenchmark`'s wide surface), without a store and with
//! one on (a file in the temp directory), timed two ways:
//!
//! - the calling thread: how long `set_value` holds it (the UI thread, on a phone);
//! - until a surface subscriber holds the patch. The rest of that figure is the bindings and
//!   the platform's main thread.
//!
//! Criterion gives mean and median. Then, under `cargo bench`, a pass of 10,000 calls per case
//! (after 1,000 to warm up) prints p50 / p99 / max of each, measured per call: "paced" waits for
//! each patch before the next write (typing), "burst" writes back to back (a paste, a slider).
//! Run only that pass with `cargo bench -p agentui-runtime --bench set_value -- percentiles`.
//!
//! Last, with a store on, the calling thread's figures while the conversation sends
//! [`PHOTO_RUNS`] messages with a 5 MB photo one after the other (issue 43): each of those
//! batches hands the store a message whose photo goes to a file. Paced writes go on until the
//! last photo's run has ended and its file is written. Only that pass: `-- photo`.

use std::time::{Duration, Instant};

use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::{Conversation, ConversationStore, SurfaceSubscription};
use agentui_test_server::{Reply, TempDbFile, TestServer};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use tokio::runtime::Runtime;

const NODES: usize = 1_000;
const WARM_UP_CALLS: usize = 1_000;
const MEASURED_CALLS: usize = 10_000;
/// Photo messages sent while values are written (within the default conversation media bound).
const PHOTO_RUNS: usize = 6;
const PHOTO_BYTES: usize = 5 * 1024 * 1024;

/// One run that creates surface "wide": a Column of 999 Texts, each bound to `/items/n<i>`.
fn wide_surface_events() -> Vec<Value> {
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (1..NODES).map(|i| format!("t{i}")).collect::<Vec<_>>()})];
    components.extend(
        (1..NODES)
            .map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": {"path": format!("/items/n{i}")}})),
    );
    let items: serde_json::Map<String, Value> =
        (1..NODES).map(|i| (format!("n{i}"), json!(format!("value {i}")))).collect();
    let operations = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": "wide", "catalogId": "https://a2ui.org/specification/v0_9/basic_catalog.json"}},
        {"version": "v0.9", "updateComponents": {"surfaceId": "wide", "components": components}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": "wide", "value": {"items": items}}}
    ]);
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "a2ui-surface", "content": {"a2ui_operations": operations}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}),
    ]
}

/// A conversation holding the wide surface, and a subscriber to it with nothing queued.
struct Wide {
    conversation: Conversation,
    surface: SurfaceSubscription,
    round: usize,
    // Kept for the conversation's life: its agent, and the store's file and writer.
    server: TestServer,
    store: Option<(ConversationStore, TempDbFile)>,
}

impl Wide {
    fn new(runtime: &Runtime, store: Option<TempDbFile>) -> Self {
        let server = runtime.block_on(TestServer::start(vec![Reply::sse(&wide_surface_events())]));
        let options = SessionOptions { thread_id: Some("t".to_owned()), ..SessionOptions::default() };
        let session = ConversationSession::connect(&server.url("/agent"), &[], options).expect("session");
        let (conversation, store) = match store {
            Some(file) => {
                let store = ConversationStore::open(file.path()).expect("the store opens");
                let conversation = Conversation::open(session, &store, &server.url("/agent"), runtime.handle().clone())
                    .expect("the conversation opens on the store");
                (conversation, Some((store, file)))
            }
            None => (Conversation::start(session, runtime.handle().clone()), None),
        };
        runtime.block_on(conversation.send_message("wide".to_owned())).expect("the run finishes");
        let mut surface = conversation.subscribe_surface("wide").expect("the surface exists");
        while surface.try_recv().is_some() {}
        Wide { conversation, surface, round: 0, server, store }
    }

    /// Writes the next value into the next bound path (each write changes one node).
    fn write(&mut self) {
        self.round += 1;
        let path = format!("/items/n{}", 1 + self.round % (NODES - 1));
        self.conversation.set_value("wide", &path, json!(format!("v{}", self.round))).expect("the write applies");
    }

    fn node_at_subscriber(&mut self, runtime: &Runtime) {
        runtime.block_on(self.surface.recv()).expect("the patch");
    }

    /// Drops what the subscriber was sent, so its queue never overflows (a resync would be a
    /// different workload).
    fn drain(&mut self) {
        while self.surface.try_recv().is_some() {}
    }
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn set_value(c: &mut Criterion) {
    let runtime = runtime();
    let mut plain = Wide::new(&runtime, None);
    let mut stored = Wide::new(&runtime, Some(TempDbFile::new("bench-set-value")));

    // The store's cases lead with it: criterion keeps 64 characters of a name for its directory.
    for (wide, prefix) in [(&mut plain, ""), (&mut stored, "with a store on: ")] {
        c.bench_function(&format!("{prefix}set_value -> the patch at a surface subscriber (1,000 nodes)"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let start = Instant::now();
                    wide.write();
                    wide.node_at_subscriber(&runtime);
                    total += start.elapsed();
                }
                total
            })
        });
        c.bench_function(&format!("{prefix}set_value, the calling thread (1,000 nodes)"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let start = Instant::now();
                    wide.write();
                    total += start.elapsed();
                    wide.drain();
                }
                total
            })
        });
    }
}

/// Whether the per-call pass `name` runs: only under `cargo bench` (criterion's test mode runs
/// each bench once, and these are not benches), and not when the filter names the other pass.
fn pass_runs(name: &str) -> bool {
    let args: Vec<String> = std::env::args().collect();
    let other_named = ["percentiles", "photo"].iter().any(|pass| *pass != name && args.iter().any(|a| a == pass));
    args.iter().any(|a| a == "--bench") && !other_named
}

/// p50 / p99 / max of `samples`, in microseconds.
fn percentiles(mut samples: Vec<Duration>) -> String {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    format!("p50 {:>8.1} µs   p99 {:>8.1} µs   max {:>9.1} µs", at(0.5), at(0.99), at(1.0))
}

/// Per-call figures, which criterion does not give: `MEASURED_CALLS` calls per case.
fn set_value_percentiles(_: &mut Criterion) {
    if !pass_runs("percentiles") {
        return;
    }
    let runtime = runtime();
    for (name, store) in [("no store", None), ("store on", Some(TempDbFile::new("bench-set-value-percentiles")))] {
        let mut wide = Wide::new(&runtime, store);
        // Paced: each write waits for its patch, as typing does.
        let (mut calling, mut at_subscriber) = (Vec::new(), Vec::new());
        for n in 0..WARM_UP_CALLS + MEASURED_CALLS {
            let start = Instant::now();
            wide.write();
            let returned = start.elapsed();
            wide.node_at_subscriber(&runtime);
            let arrived = start.elapsed();
            if n >= WARM_UP_CALLS {
                calling.push(returned);
                at_subscriber.push(arrived);
            }
        }
        // Burst: back to back, the subscriber drained outside the timing.
        let mut burst = Vec::new();
        for n in 0..WARM_UP_CALLS + MEASURED_CALLS {
            let start = Instant::now();
            wide.write();
            let returned = start.elapsed();
            wide.drain();
            if n >= WARM_UP_CALLS {
                burst.push(returned);
            }
        }
        println!("set_value, {name}, paced: calling thread      {}", percentiles(calling));
        println!("set_value, {name}, paced: node at subscriber  {}", percentiles(at_subscriber));
        println!("set_value, {name}, burst: calling thread      {}", percentiles(burst));
    }
}

/// The calling thread's figures while photo messages are sent and stored (see the module notes).
fn set_value_during_photo_batches(_: &mut Criterion) {
    if !pass_runs("photo") {
        return;
    }
    let runtime = runtime();
    let mut wide = Wide::new(&runtime, Some(TempDbFile::new("bench-set-value-photo")));
    // The same conversation without photos first: the bound the photo pass is held to.
    let mut quiet = Vec::new();
    for n in 0..WARM_UP_CALLS + MEASURED_CALLS {
        let start = Instant::now();
        wide.write();
        let returned = start.elapsed();
        wide.node_at_subscriber(&runtime);
        if n >= WARM_UP_CALLS {
            quiet.push(returned);
        }
    }
    for n in 0..PHOTO_RUNS {
        wide.server.push(Reply::sse(&agentui_test_server::run_of(
            &format!("photo{n}"),
            vec![agentui_test_server::text(&format!("a-photo{n}"), "Nice.")],
        )));
    }
    let sender = wide.conversation.clone();
    let photos = runtime.spawn(async move {
        for n in 0..PHOTO_RUNS {
            let photo: Vec<u8> = (0..PHOTO_BYTES).map(|i| (i * 31 + n) as u8).collect();
            let attachment = agentui_runtime::attachment::Attachment::bytes("photo.jpg", "image/jpeg", photo);
            sender.send(format!("photo {n}"), vec![attachment]).await.expect("the photo's run");
        }
    });
    let mut during = Vec::new();
    while !photos.is_finished() {
        let start = Instant::now();
        wide.write();
        during.push(start.elapsed());
        wide.node_at_subscriber(&runtime);
    }
    // Until the last photo's file and row are written.
    let store = wide.store.as_ref().map(|(store, _)| store.clone()).expect("a store");
    let flushing = std::thread::spawn(move || store.flush());
    while !flushing.is_finished() {
        let start = Instant::now();
        wide.write();
        during.push(start.elapsed());
        wide.node_at_subscriber(&runtime);
    }
    println!("set_value, store on, no photos: calling thread              {}", percentiles(quiet));
    let calls = during.len();
    println!(
        "set_value, store on, {PHOTO_RUNS} x 5 MB photos sent: calling thread  {} ({calls} calls)",
        percentiles(during)
    );
}

criterion_group!(benches, set_value, set_value_percentiles, set_value_during_photo_batches);
criterion_main!(benches);
