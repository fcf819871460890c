//! Issue #11: the memory budget on the AG-UI side: JSON Patch output, state, activity content,
//! streamed content and SSE framing. This binary counts its allocations so the patch tests can
//! assert that a refused patch stopped early instead of building the huge result first. The
//! session's side (typed errors, atomic state, poisoning after a panic) is in the crate's own
//! tests (`src/tests/session_budget.rs`): the session's run methods are crate-private.
//!
//! A test binary of its own, outside the crate's tests: its counting allocator is global to the
//! binary, and would count (and slow) every other test linked beside it.

#[path = "../src/tests/support/mod.rs"]
mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use agentui_agui::event::{PatchOp, PatchOperation};
use agentui_agui::patch::{apply_patch_within, PatchBounds};
use agentui_agui::{ConversationState, EventPipeline, Limits, MemoryBudget, PipelineOptions, ProtocolError, SseError};
use serde_json::{json, Value};
use support::*;

struct Counting;

// Counted per thread: the measured code runs on the test's thread, and the other tests of this
// binary, running at the same time on other threads, must not show up in its peak.
thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            // `try_with`: the thread's counters may already be gone while it exits.
            let _ = LIVE.try_with(|live| {
                live.set(live.get() + layout.size());
                let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
            });
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(layout.size())));
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let out = f();
    (out, PEAK.with(Cell::get).saturating_sub(start))
}

const MIB: usize = 1024 * 1024;

fn op(op: PatchOp, path: &str, from: Option<&str>, value: Option<Value>) -> PatchOperation {
    PatchOperation { op, path: path.into(), from: from.map(Into::into), value, extra: Default::default() }
}

fn content_text(m: &agentui_agui::Message) -> Option<&str> {
    match &m.content {
        Some(agentui_agui::message::MessageContent::Text(t)) => Some(t.as_str()),
        _ => None,
    }
}

fn doubling_copies(n: usize) -> Vec<PatchOperation> {
    (0..n).map(|_| op(PatchOp::Copy, "/a/-", Some("/a"), None)).collect()
}

/// Issue #11: "a one-element array, then 28 `copy` ops from `/a` to `/a/-` (1.3 KB): out-of-memory
/// abort at 2.09 GB (`patch::apply_patch` clones)". Each copy doubles the document; the bound
/// stops the copy that would cross it, before cloning, and the target is unchanged.
#[test]
fn patch_copy_doubling_is_stopped_at_the_crossing_operation() {
    let mut doc = json!({"a": [0]});
    let bounds = PatchBounds { max_weight: 4 * MIB, max_depth: 64 };
    let ops = doubling_copies(28);
    let (result, peak) = peak_of(|| apply_patch_within(&mut doc, &ops, bounds));
    let err = result.unwrap_err();
    assert!(err.limit_exceeded, "{err}");
    // Weight doubles per copy from ~200 bytes: 4 MiB is crossed around the 15th copy.
    assert!((12..20).contains(&err.index), "stopped at operation {}", err.index);
    assert_eq!(doc, json!({"a": [0]}), "a refused patch changes nothing");
    // The working copy grew to the bound at most: a few times the bound, never the 2 GB result.
    assert!(peak < 3 * 4 * MIB, "peak {peak} bytes");
    // Nesting is bounded the same way (each copy nests `a` one level deeper).
    let err = apply_patch_within(&mut doc, &doubling_copies(28), PatchBounds { max_weight: usize::MAX, max_depth: 8 })
        .unwrap_err();
    assert!(err.limit_exceeded && err.reason.contains("deeper"), "{err}");
}

/// Issue #11: "one `add` of a 10 KB string, then 99,990 `copy` ops to new keys (a 4.3 MB event,
/// within every limit): 1 GB state, then abort".
#[test]
fn patch_copies_of_a_large_string_are_stopped_before_the_bound() {
    let mut ops = vec![op(PatchOp::Add, "/s", None, Some(json!("x".repeat(10_000))))];
    ops.extend((0..99_990).map(|i| op(PatchOp::Copy, &format!("/k{i}"), Some("/s"), None)));
    let mut doc = json!({"keep": 1});
    let bounds = PatchBounds { max_weight: 4 * MIB, max_depth: 64 };
    let (result, peak) = peak_of(|| apply_patch_within(&mut doc, &ops, bounds));
    let err = result.unwrap_err();
    assert!(err.limit_exceeded);
    assert!((300..500).contains(&err.index), "stopped at operation {}", err.index);
    assert_eq!(doc, json!({"keep": 1}));
    assert!(peak < 2 * 4 * MIB, "peak {peak} bytes");
}

/// Removing and moving keep the running weight honest: a patch that removes as much as it adds
/// goes on forever within the bound.
#[test]
fn patch_weight_follows_removes_and_moves() {
    let bounds = PatchBounds { max_weight: 64 * 1024, max_depth: 64 };
    let mut doc = json!({});
    let mut ops = Vec::new();
    for i in 0..2_000 {
        ops.push(op(PatchOp::Add, "/tmp", None, Some(json!("y".repeat(1_000)))));
        ops.push(op(PatchOp::Move, &format!("/m{}", i % 3), Some("/tmp"), None));
        ops.push(op(PatchOp::Copy, "/c", Some(&format!("/m{}", i % 3)), None));
        ops.push(op(PatchOp::Remove, "/c", None, None));
    }
    apply_patch_within(&mut doc, &ops, bounds).unwrap();
    assert_eq!(doc.as_object().unwrap().len(), 3);
}

fn pipeline_with(limits: Limits) -> EventPipeline {
    EventPipeline::new(
        ConversationState::new(Vec::new(), None),
        &PipelineOptions { limits, ..PipelineOptions::default() },
    )
}

fn push_all(p: &mut EventPipeline, events: &[Value]) -> Result<(), ProtocolError> {
    for e in events {
        p.push_json(e.clone())?;
    }
    Ok(())
}

/// A `STATE_DELTA` whose result would exceed the state budget fails the stream with a typed
/// error; the state keeps its last good value and what was applied before stays.
#[test]
fn state_delta_over_budget_fails_the_run_and_keeps_the_state() {
    let limits = MemoryBudget { max_state_bytes: 64 * 1024, ..MemoryBudget::default() }.agui_limits(Limits::default());
    let mut p = pipeline_with(limits);
    let mut events = vec![started("r1")];
    events.extend(text("m1", "before"));
    events.push(json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": [0]}}));
    push_all(&mut p, &events).unwrap();
    let delta = json!({"type": "STATE_DELTA", "delta": (0..28).map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"})).collect::<Vec<_>>()});
    let err = p.push_json(delta).unwrap_err();
    assert!(matches!(err, ProtocolError::LimitExceeded { .. }), "{err}");
    assert!(err.to_string().contains("JSON Patch result"), "{err}");
    assert_eq!(p.conversation().state(), &json!({"a": [0]}));
    assert!(!p.conversation().needs_resync(), "a refusal is not a divergence");
    assert_eq!(content_text(&p.conversation().messages()[0]), Some("before"));
}

/// The reducer keeps the state's weight from patch to patch instead of measuring the whole
/// state each time: small deltas that each fit, but together pass the budget, are stopped at the
/// one that crosses it, and removals give the room back.
#[test]
fn state_weight_is_kept_across_deltas() {
    let limits = MemoryBudget { max_state_bytes: 64 * 1024, ..MemoryBudget::default() }.agui_limits(Limits::default());
    let mut p = pipeline_with(limits);
    push_all(&mut p, &[started("r1"), json!({"type": "STATE_SNAPSHOT", "snapshot": {"keep": 1}})]).unwrap();
    let add = |key: String| json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": format!("/{key}"), "value": "z".repeat(1000)}]});
    let remove = |key: String| json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": format!("/{key}")}]});
    // Adding and removing 1 KB a thousand times stays far below 64 KiB.
    for i in 0..1000 {
        p.push_json(add(format!("t{i}"))).unwrap();
        p.push_json(remove(format!("t{i}"))).unwrap();
    }
    let mut added = 0;
    let err = loop {
        match p.push_json(add(format!("k{added}"))) {
            Ok(_) => added += 1,
            Err(e) => break e,
        }
        assert!(added < 100, "64 KiB of 1 KB entries must be refused before 100 of them");
    };
    assert!(matches!(err, ProtocolError::LimitExceeded { .. }), "{err}");
    // Each entry weighs a little over 1 KB: the bound is crossed after about 60 of them.
    assert!((50..64).contains(&added), "refused after {added} entries");
    assert_eq!(p.conversation().state().as_object().unwrap().len(), added + 1);
}

/// Issue #11: "a STATE_SNAPSHOT of 8.3 MB in a live run: 899 MB peak". A snapshot heavier than
/// the state budget is refused before it is stored.
#[test]
fn state_snapshot_over_budget_is_refused() {
    let limits = MemoryBudget { max_state_bytes: MIB, ..MemoryBudget::default() }.agui_limits(Limits::default());
    let mut p = pipeline_with(limits);
    push_all(&mut p, &[started("r1"), json!({"type": "STATE_SNAPSHOT", "snapshot": {"ok": true}})]).unwrap();
    let big = json!({"type": "STATE_SNAPSHOT", "snapshot": {"zeros": vec![0; 100_000]}});
    let err = p.push_json(big).unwrap_err();
    assert!(err.to_string().contains("state size"), "{err}");
    assert_eq!(p.conversation().state(), &json!({"ok": true}));
}

/// Activity content is bounded like state, from a snapshot or through a patch.
#[test]
fn activity_content_over_budget_is_refused() {
    let limits = MemoryBudget { max_state_bytes: 64 * 1024, ..MemoryBudget::default() }.agui_limits(Limits::default());
    let mut p = pipeline_with(limits);
    let snapshot = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act", "activityType": "plan", "content": {"steps": vec!["x".repeat(100); 2_000]}});
    let err = push_all(&mut p, &[started("r1"), snapshot]).unwrap_err();
    assert!(err.to_string().contains("activity content"), "{err}");

    let mut p = pipeline_with(limits);
    let snapshot =
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act", "activityType": "plan", "content": {"a": [0]}});
    push_all(&mut p, &[started("r1"), snapshot]).unwrap();
    let delta = json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "plan",
        "patch": (0..28).map(|_| json!({"op": "copy", "from": "/a", "path": "/a/-"})).collect::<Vec<_>>()});
    let err = p.push_json(delta).unwrap_err();
    assert!(matches!(err, ProtocolError::LimitExceeded { .. }), "{err}");
    let content = serde_json::to_value(&p.conversation().messages()[0]).unwrap()["content"].clone();
    assert_eq!(content, json!({"a": [0]}));
}

/// Long tool-argument streams: every call stays under its own bound, but together they would
/// fill memory. The run's content bound stops them.
#[test]
fn long_tool_argument_streams_hit_the_run_content_bound() {
    let limits =
        MemoryBudget { max_run_content_bytes: 2 * MIB, ..MemoryBudget::default() }.agui_limits(Limits::default());
    let mut p = pipeline_with(limits);
    p.push_json(started("r1")).unwrap();
    let chunk = "a".repeat(64 * 1024);
    let mut failure = None;
    'calls: for call in 0..100 {
        let id = format!("c{call}");
        p.push_json(json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": "t"})).unwrap();
        for _ in 0..8 {
            if let Err(e) = p.push_json(json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": chunk})) {
                failure = Some((call, e));
                break 'calls;
            }
        }
        p.push_json(json!({"type": "TOOL_CALL_END", "toolCallId": id})).unwrap();
    }
    let (call, err) = failure.expect("the bound stops the stream");
    assert_eq!(call, 4, "2 MiB of 512 KiB calls");
    assert!(err.to_string().contains("content bytes streamed in one run"), "{err}");
}

/// The SSE bound is the budget's message size: an 8 MB event never reaches the JSON parser.
#[test]
fn sse_event_over_the_message_budget_is_a_framing_error() {
    let budget = MemoryBudget::default();
    let mut d = agentui_agui::SseDecoder::new(budget.sse_limits());
    let body = format!("data: {}\n\n", "x".repeat(budget.max_message_bytes + 1));
    assert!(matches!(d.push(body.as_bytes()), Err(SseError::EventTooLarge { .. }) | Err(SseError::LineTooLong { .. })));
}
