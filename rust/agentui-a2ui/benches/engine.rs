//! Engine benchmarks on the fixed workloads in ../shared/bench (see its README), so figures
//! compare across versions and with other implementations.

use std::hint::black_box;
use std::path::Path;

use agentui_a2ui::catalog::Catalog;
use agentui_a2ui::dynamic::{Call, Dynamic, Evaluator};
use agentui_a2ui::{functions, Localization, SurfaceGroup};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use serde_json::Value;

fn workload(name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut value: Value = serde_json::from_str(&text).unwrap();
    match value.get_mut("messages").map(Value::take) {
        Some(Value::Array(messages)) => messages,
        _ => panic!("{name}: no messages"),
    }
}

fn build(messages: Vec<Value>) -> SurfaceGroup {
    let mut group = SurfaceGroup::default();
    for m in messages {
        let outcome = group.process_owned(m);
        assert!(outcome.emitted.is_empty(), "{:?}", outcome.emitted);
    }
    group
}

fn initial_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("initial_build");
    g.sample_size(20);
    for name in ["a2ui-list-k1000.json", "a2ui-list-k10000.json"] {
        let messages = workload(name);
        let nodes = build(messages.clone()).surface("bench-list").unwrap().node_count();
        g.throughput(Throughput::Elements(nodes as u64));
        // Building only: the parsed messages are prepared outside the measurement (they arrive
        // parsed from the transport), and tearing the surface down is not part of the render.
        g.bench_function(name, |b| {
            b.iter_batched(|| messages.clone(), build, BatchSize::LargeInput);
        });
    }
    g.finish();
}

fn one_path_update(c: &mut Criterion) {
    let updates = workload("a2ui-list-updates.json");
    let mut g = c.benchmark_group("one_path_update");
    for name in ["a2ui-list-k1000.json", "a2ui-list-k10000.json"] {
        let mut group = build(workload(name));
        // Only the updates whose index exists in this surface (the k1000 list has items 0..999).
        let len = group.surface("bench-list").unwrap().data_model()["items"].as_array().unwrap().len();
        let applicable: Vec<&Value> = updates
            .iter()
            .filter(|u| {
                let path = u["updateDataModel"]["path"].as_str().unwrap_or_default();
                path.split('/').nth(2).and_then(|i| i.parse::<usize>().ok()).is_some_and(|i| i < len)
            })
            .collect();
        let mut next = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                let outcome = group.process_value(applicable[next % applicable.len()]);
                next += 1;
                black_box(outcome)
            })
        });
    }
    g.finish();
}

fn validation(c: &mut Criterion) {
    let messages = workload("a2ui-list-k1000.json");
    let components: Vec<Value> = messages
        .iter()
        .filter_map(|m| m.get("updateComponents"))
        .flat_map(|u| u["components"].as_array().cloned().unwrap_or_default())
        .collect();
    let catalog = Catalog::basic();
    let mut g = c.benchmark_group("validation");
    g.throughput(Throughput::Elements(components.len() as u64));
    g.bench_function("bench-list components", |b| {
        b.iter(|| {
            for component in &components {
                assert!(catalog.validate_component(black_box(component)).is_empty());
            }
        })
    });
    let envelopes: Vec<Value> = messages.iter().filter(|m| m.get("updateComponents").is_some()).cloned().collect();
    g.throughput(Throughput::Elements(envelopes.len() as u64));
    g.bench_function("bench-list updateComponents envelope", |b| {
        b.iter_batched(
            || envelopes.clone(),
            |envs| envs.iter().all(|e| catalog.validate_server_message(e).is_empty()),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// Evaluates calls with literal arguments only: the cost measured is the function's.
struct Literals(Localization);

impl Evaluator for Literals {
    fn read_path(&mut self, _: &str) -> Value {
        Value::Null
    }
    fn eval(&mut self, value: &Dynamic) -> Value {
        match value {
            Dynamic::Literal(v) => v.clone(),
            _ => Value::Null,
        }
    }
    fn localization(&self) -> &Localization {
        &self.0
    }
}

fn call(json: Value) -> Call {
    match Dynamic::parse(&json) {
        Dynamic::Call(call) => *call,
        other => panic!("not a call: {other:?}"),
    }
}

/// One formatDate and one formatNumber call through ICU4X, in de-DE and Europe/Berlin (names,
/// a time zone conversion, the locale's separators), as a bound Text resolves them.
fn formatting(c: &mut Criterion) {
    let mut ev = Literals(Localization::new("de-DE", "Europe/Berlin").unwrap());
    let date = call(serde_json::json!({"call": "formatDate",
        "args": {"value": "2026-03-01T10:00:00Z", "format": "EEEE d MMMM yyyy HH:mm"}}));
    let number = call(serde_json::json!({"call": "formatNumber", "args": {"value": 1234567.891, "decimals": 2}}));
    assert_eq!(functions::evaluate(&date, &mut ev).unwrap(), "Sonntag 1 März 2026 11:00");
    assert_eq!(functions::evaluate(&number, &mut ev).unwrap(), "1.234.567,89");
    let mut g = c.benchmark_group("formatting");
    g.bench_function("formatDate de-DE Europe/Berlin", |b| b.iter(|| functions::evaluate(black_box(&date), &mut ev)));
    g.bench_function("formatNumber de-DE", |b| b.iter(|| functions::evaluate(black_box(&number), &mut ev)));
    g.finish();
}

criterion_group!(benches, initial_build, one_path_update, validation, formatting);
criterion_main!(benches);
