//! Issue #11: the engine's memory bounds. Each check runs while the work is done: this binary
//! counts every byte it allocates, so a test can assert that a refused message cost little, not
//! only that it was refused.
//!
//! A test binary of its own, outside `tests/it`: its counting allocator is global to the binary,
//! and would count (and slow) every other test linked beside it.

#[path = "it/common/mod.rs"]
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use agentui_a2ui::catalog::CatalogRegistry;
use agentui_a2ui::size;
use agentui_a2ui::{Limits, Outcome, SurfaceGroup};
use common::*;
use serde_json::{json, Value};

/// Counts live bytes and the peak since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// The counters are global: every test of this binary holds this lock, so a measurement sees
/// only its own allocations.
static MEASURING: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the most bytes it had allocated at once beyond what was
/// live when it started.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(start))
}

const MIB: usize = 1024 * 1024;

fn limit_error(outcome: &Outcome) -> String {
    let errs = errors(outcome);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0]["code"], "LIMIT_EXCEEDED", "{errs:?}");
    errs[0]["message"].as_str().unwrap_or_default().to_owned()
}

fn group(limits: Limits) -> SurfaceGroup {
    SurfaceGroup::new(CatalogRegistry::with_basic(), limits)
}

fn list_components() -> Value {
    json!([
        {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
        {"id": "row", "component": "Text", "text": {"path": "name"}}
    ])
}

/// Issue #11: "a template over a list of 3.5M zeros" aborted in `surface::build_tree`, and
/// "a template over 1M items" reached 1.48 GB before `LIMIT_EXCEEDED`: the instance limit was
/// checked after every item had been allocated. Now the list's length is checked first.
#[test]
fn template_expansion_checks_the_instance_limit_before_allocating() {
    let _guard = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
    let limits = Limits {
        max_template_instances: 1_000,
        max_data_model_bytes: usize::MAX,
        max_total_data_model_bytes: usize::MAX,
        max_message_bytes: usize::MAX,
        max_array_index: usize::MAX,
        ..Limits::default()
    };
    let mut g = group(limits);
    assert_clean(&g.process_owned(create("s")));
    assert_clean(&g.process_owned(components("s", list_components())));
    let zeros = data("s", "/items", Value::Array(vec![json!(0); 500_000]));
    let (outcome, peak) = peak_of(|| g.process_owned(zeros));
    assert!(limit_error(&outcome).contains("template instances"));
    // The 500,000 scopes and instance ids alone would be tens of MB; the refusal costs far less.
    assert!(peak < 4 * MIB, "refusing the template allocated {peak} bytes at its peak");
    // Atomic: the write was taken back and nothing rendered from it.
    let s = g.surface("s").unwrap();
    assert_eq!(s.data_model(), &json!({}));
    assert!(s.node("row@/items/0").is_none());
    // At the limit it renders.
    let items: Vec<Value> = (0..999).map(|i| json!({"name": format!("n{i}")})).collect();
    assert_clean(&g.process_owned(data("s", "/items", Value::Array(items))));
    assert_eq!(g.surface("s").unwrap().node_count(), 1 + 999);
}

/// Issue #11: "`updateDataModel` with a 10M-element array: accepted, 1.57 GB". A data model has
/// a weight bound, checked while the written value is measured (the walk stops at the bound).
#[test]
fn data_model_size_is_bounded_per_surface_and_the_write_changes_nothing() {
    let _guard = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
    let limits = Limits { max_data_model_bytes: MIB, max_message_bytes: usize::MAX, ..Limits::default() };
    let mut g = group(limits);
    assert_clean(&g.process_owned(create("s")));
    assert_clean(&g.process_owned(data("s", "/keep", json!("kept"))));
    let big = Value::Array(vec![json!(0); 100_000]);
    assert!(size::weight(&big) > MIB);
    assert!(limit_error(&g.process_owned(data("s", "/items", big))).contains("data-model size"));
    assert_eq!(g.surface("s").unwrap().data_model(), &json!({"keep": "kept"}));
    // Growing through many small writes hits the same bound.
    let mut refused = None;
    for i in 0..10_000 {
        let outcome = g.process_owned(data("s", &format!("/k{i}"), json!("x".repeat(1000))));
        if !errors(&outcome).is_empty() {
            refused = Some(i);
            break;
        }
    }
    let refused = refused.expect("the bound stops the writes");
    assert!((900..1100).contains(&refused), "refused at write {refused}");
    let weight = size::weight(g.surface("s").unwrap().data_model());
    assert!(weight <= MIB, "{weight}");
    // Deleting frees room again.
    assert_clean(&g.process_owned(data("s", "/k0", Value::Null)));
    assert_clean(&g.process_owned(data("s", &format!("/k{refused}"), json!("x".repeat(1000)))));
}

/// The conversation-wide bound is shared by the surfaces of a group.
#[test]
fn data_models_of_all_surfaces_share_the_group_bound() {
    let _guard = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
    let limits = Limits {
        max_data_model_bytes: MIB,
        max_total_data_model_bytes: 3 * MIB / 2,
        max_message_bytes: usize::MAX,
        ..Limits::default()
    };
    let mut g = group(limits);
    let chunk = || json!("x".repeat(MIB / 2 + MIB / 8));
    for id in ["a", "b"] {
        assert_clean(&g.process_owned(create(id)));
    }
    assert_clean(&g.process_owned(data("a", "/v", chunk())));
    assert_clean(&g.process_owned(data("b", "/v", chunk())));
    assert_clean(&g.process_owned(create("c")));
    assert!(limit_error(&g.process_owned(data("c", "/v", chunk()))).contains("data-model size"));
    assert!(g.surface("c").unwrap().data_model().as_object().unwrap().is_empty());
    // User input is bounded the same way.
    let err = g.set_value("c", "/v", chunk()).unwrap_err();
    assert_eq!(err.code(), "LIMIT_EXCEEDED");
}

/// Issue #11: `max_message_bytes` was checked only in `process_json`; the AG-UI path and the CLI
/// call `process_value` / `process_owned`. Parsed envelopes are measured as JSON text now,
/// without allocating.
#[test]
fn message_size_is_checked_on_parsed_envelopes_too() {
    let _guard = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
    let limits = Limits { max_message_bytes: 64 * 1024, ..Limits::default() };
    let mut g = group(limits);
    assert_clean(&g.process_value(&create("s")));
    let big = data("s", "/text", json!("y".repeat(200 * 1024)));
    let (outcome, peak) = peak_of(|| g.process_value(&big));
    assert!(limit_error(&outcome).contains("message size"));
    assert!(peak < 64 * 1024, "measuring the envelope allocated {peak} bytes");
    assert!(limit_error(&g.process_owned(big)).contains("message size"));
    assert!(g.surface("s").unwrap().data_model().as_object().unwrap().is_empty());
}

/// Issue #11: "100k components in one message: the right error, but 281 MB". The count is
/// checked before any component is validated or compiled.
#[test]
fn too_many_components_are_refused_before_validation() {
    let _guard = MEASURING.lock().unwrap_or_else(|p| p.into_inner());
    let mut g = group(Limits { max_message_bytes: usize::MAX, ..Limits::default() });
    assert_clean(&g.process_owned(create("s")));
    let many: Vec<Value> =
        (0..100_000).map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": "x"})).collect();
    let message = components("s", Value::Array(many));
    let (outcome, peak) = peak_of(|| g.process_owned(message));
    assert!(limit_error(&outcome).contains("components per surface"));
    assert!(peak < MIB, "refusing 100,000 components allocated {peak} bytes");
}
