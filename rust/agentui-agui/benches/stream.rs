//! Decode + verify + reduce of the fixed AG-UI workload in ../shared/bench (62,043 events,
//! 5.84 MB), so figures compare across versions and with other clients.
//!
//! Beside the whole pipeline, the same group measures the parse floor: serde_json parsing each
//! event's `data` into a `Value` (the payloads are split out before timing). Machines here are
//! shared and noisy, so only ratios between cases of one run are meaningful.

use std::hint::black_box;
use std::path::Path;

use agentui_agui::{process_sse_body, ConversationState, Limits, MemoryBudget, PipelineOptions, SseDecoder, SseLimits};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The payload of every `data:` line (the workload has one line per event).
fn payloads(body: &[u8]) -> Vec<&str> {
    let text = std::str::from_utf8(body).expect("the workload is UTF-8");
    text.lines().filter_map(|l| l.strip_prefix("data:")).map(|d| d.strip_prefix(' ').unwrap_or(d)).collect()
}

fn whole_stream(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/agui-stream-n2000.sse");
    let body = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let data = payloads(&body);
    assert_eq!(data.len(), 62_043);
    // The limits a session and the CLI use: the phone defaults of the memory budget.
    let options = PipelineOptions {
        limits: MemoryBudget::default().agui_limits(Limits::default()),
        ..PipelineOptions::default()
    };
    let summary = process_sse_body(&body, ConversationState::default(), &options, SseLimits::default());
    assert!(summary.error.is_none());
    assert_eq!(summary.conversation.messages().len(), 4040);
    let mut g = c.benchmark_group("agui_stream");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("floor: serde_json Value per data payload", |b| {
        b.iter(|| {
            for d in &data {
                black_box(serde_json::from_str::<serde_json::Value>(d).unwrap());
            }
        })
    });
    g.bench_function("sse decode only", |b| {
        b.iter(|| {
            let mut decoder = SseDecoder::new(SseLimits::default());
            let mut n = 0usize;
            decoder.push_with(&body, |e| n += black_box(e).data.len()).unwrap();
            decoder.finish_with(|e| n += black_box(e).data.len()).unwrap();
            n
        })
    });
    g.bench_function("agui-stream-n2000.sse", |b| {
        b.iter(|| process_sse_body(&body, ConversationState::default(), &options, SseLimits::default()))
    });
    g.finish();
}

criterion_group!(benches, whole_stream);
criterion_main!(benches);
