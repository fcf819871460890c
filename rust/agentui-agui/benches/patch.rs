//! JSON Patch application with its atomicity. The workload's 2,000 STATE_DELTAs (3 operations
//! each) applied to its STATE_SNAPSHOT, from ../shared/bench; and one case that only size shows:
//! a two-operation patch against a state whose one top-level entry is a 100,000-element list,
//! where saving the touched entries for a rollback would copy the whole list per patch.

use std::hint::black_box;
use std::path::Path;

use agentui_agui::event::{PatchOp, PatchOperation};
use agentui_agui::patch::{apply_patch_weighed, PatchBounds};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::{json, Value};

fn operations(ops: &Value) -> Vec<PatchOperation> {
    let text = |o: &Value, name: &str| o.get(name).and_then(Value::as_str).map(str::to_owned);
    let ops = ops.as_array().expect("a JSON Patch");
    ops.iter()
        .map(|o| PatchOperation {
            op: PatchOp::parse(o["op"].as_str().unwrap()).expect("an RFC 6902 op"),
            path: text(o, "path").expect("a path"),
            from: text(o, "from"),
            value: o.get("value").cloned(),
            extra: Default::default(),
        })
        .collect()
}

fn state_deltas(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/agui-stream-n2000.sse");
    let body = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let events: Vec<Value> =
        body.lines().filter_map(|l| l.strip_prefix("data: ")).map(|d| serde_json::from_str(d).unwrap()).collect();
    let snapshot = events.iter().find(|e| e["type"] == "STATE_SNAPSHOT").expect("a snapshot")["snapshot"].clone();
    let deltas: Vec<Vec<PatchOperation>> =
        events.iter().filter(|e| e["type"] == "STATE_DELTA").map(|e| operations(&e["delta"])).collect();
    assert_eq!(deltas.len(), 2_000);

    let mut g = c.benchmark_group("json_patch");
    g.sample_size(20);
    g.throughput(Throughput::Elements(deltas.len() as u64));
    g.bench_function("agui-stream-n2000: 2,000 STATE_DELTAs on its snapshot", |b| {
        b.iter_batched_ref(
            || snapshot.clone(),
            |state| {
                let mut weight = None;
                for ops in &deltas {
                    weight = Some(apply_patch_weighed(state, weight, ops, PatchBounds::UNBOUNDED).unwrap());
                }
                black_box(weight)
            },
            criterion::BatchSize::LargeInput,
        )
    });

    let mut big = json!({"items": (0..100_000).collect::<Vec<_>>(), "turn": 0});
    let patch = operations(&json!([
        {"op": "add", "path": "/items/-", "value": 1},
        {"op": "remove", "path": "/items/100000"},
    ]));
    g.throughput(Throughput::Elements(1));
    g.bench_function("add + remove on a 100,000-element list", |b| {
        let mut weight = None;
        b.iter(|| weight = Some(apply_patch_weighed(&mut big, weight, &patch, PatchBounds::UNBOUNDED).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, state_deltas);
criterion_main!(benches);
