//! Decode + verify + reduce of the fixed AG-UI workload in ../shared/bench (62,043 events,
//! 5.84 MB), so figures compare across versions and with other clients.

use std::path::Path;

use agentui_agui::{process_sse_body, Conversation, PipelineOptions, SseLimits};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn whole_stream(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/agui-stream-n2000.sse");
    let body = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = PipelineOptions::default();
    let summary = process_sse_body(&body, Conversation::default(), &options, SseLimits::default());
    assert!(summary.error.is_none());
    assert_eq!(summary.conversation.messages().len(), 4040);
    let mut g = c.benchmark_group("agui_stream");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("agui-stream-n2000.sse", |b| {
        b.iter(|| process_sse_body(&body, Conversation::default(), &options, SseLimits::default()))
    });
    g.finish();
}

criterion_group!(benches, whole_stream);
criterion_main!(benches);
