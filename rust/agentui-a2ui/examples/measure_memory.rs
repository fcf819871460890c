//! Wall time (one cold run) and peak heap used to build the 10,000-item benchmark surface (a counting allocator; criterion
//! measures time, this measures bytes). Run: `cargo run --release --example measure_memory`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use agentui_a2ui::SurfaceGroup;
use serde_json::Value;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    for name in ["a2ui-list-k1000.json", "a2ui-list-k10000.json"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench").join(name);
        let text = std::fs::read_to_string(&path).expect("workload");
        let value: Value = serde_json::from_str(&text).expect("json");
        let messages = value["messages"].as_array().expect("messages").clone();
        drop(value);
        let before = CURRENT.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let started = std::time::Instant::now();
        let mut group = SurfaceGroup::default();
        for m in messages {
            group.process_owned(m);
        }
        let elapsed = started.elapsed();
        let nodes = group.surface("bench-list").map(|s| s.node_count()).unwrap_or(0);
        let retained = CURRENT.load(Ordering::Relaxed) - before;
        let peak = PEAK.load(Ordering::Relaxed) - before;
        println!(
            "{name}: {nodes} nodes in {:.1} ms, retained {:.1} MB, peak {:.1} MB (input messages excluded)",
            elapsed.as_secs_f64() * 1e3,
            retained as f64 / 1e6,
            peak as f64 / 1e6
        );
    }
}
