//! The core's share of "setValue until the one node is redrawn": a write to one bound path of
//! a 1,000-node surface (the Kotlin `AdapterBenchmark`'s wide surface), timed until a surface
//! subscriber on another thread holds the patch. The rest of that figure is the bindings and
//! the platform's main thread.

use std::time::{Duration, Instant};

use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::Conversation;
use agentui_test_server::{Reply, TestServer};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};

const NODES: usize = 1_000;

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

fn set_value(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let server = runtime.block_on(TestServer::start(vec![Reply::sse(&wide_surface_events())]));
    let options = SessionOptions { thread_id: Some("t".to_owned()), ..SessionOptions::default() };
    let session = ConversationSession::connect(&server.url("/agent"), &[], options).expect("session");
    let conversation = Conversation::start(session, runtime.handle().clone());
    runtime.block_on(conversation.send_message("wide".to_owned())).expect("the run finishes");
    let mut surface = conversation.subscribe_surface("wide").expect("the surface exists");
    while surface.try_recv().is_some() {}

    let mut round = 0usize;
    c.bench_function("set_value -> the patch at a surface subscriber (1,000 nodes)", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                round += 1;
                let path = format!("/items/n{}", 1 + round % (NODES - 1));
                let start = Instant::now();
                conversation.set_value("wide", &path, json!(format!("v{round}"))).expect("the write applies");
                runtime.block_on(surface.recv()).expect("the patch");
                total += start.elapsed();
            }
            total
        })
    });
}

criterion_group!(benches, set_value);
criterion_main!(benches);
