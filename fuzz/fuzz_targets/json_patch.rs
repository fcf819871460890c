//! JSON Patch on arbitrary `[document, operations]` input under small bounds: a failed patch
//! changes nothing, a successful one stays within the bounds, and an empty one (which the
//! bounds do not refuse) changes nothing either.
#![no_main]

use agentui_a2ui::size;
use agentui_agui::event::{PatchOp, PatchOperation};
use agentui_agui::patch::{apply_patch_within, PatchBounds};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Array(mut pair)) = serde_json::from_slice::<Value>(data) else { return };
    if pair.len() != 2 {
        return;
    }
    let ops = pair.pop().unwrap_or_default();
    let Some(ops) = operations(&ops) else { return };
    let mut doc = pair.pop().unwrap_or_default();
    let before = doc.clone();
    let bounds = PatchBounds { max_weight: 16 * 1024, max_depth: 16 };
    match apply_patch_within(&mut doc, &ops, bounds) {
        Ok(()) if ops.is_empty() => assert_eq!(doc, before, "an empty patch changed the document"),
        Ok(()) => {
            let m = size::measure(&doc);
            assert!(m.weight <= bounds.max_weight, "weight {} over the bound", m.weight);
            assert!(m.depth <= bounds.max_depth, "depth {} over the bound", m.depth);
        }
        Err(_) => assert_eq!(doc, before, "a failed patch changed the document"),
    }
});

/// Operations from their JSON form (the event decoder does this for real streams).
fn operations(value: &Value) -> Option<Vec<PatchOperation>> {
    value
        .as_array()?
        .iter()
        .map(|o| {
            let op = PatchOp::parse(o.get("op")?.as_str()?)?;
            Some(PatchOperation {
                op,
                path: o.get("path")?.as_str()?.to_owned(),
                from: o.get("from").and_then(Value::as_str).map(str::to_owned),
                value: o.get("value").cloned(),
                extra: Default::default(),
            })
        })
        .collect()
}
