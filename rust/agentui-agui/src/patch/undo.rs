//! How a failing patch is undone. Each operation, as it applies, records how to reverse itself:
//! where it inserted, or what it overwrote or removed, moved out of the document rather than
//! copied. A failure replays the records backwards, each one restoring the document exactly as
//! it was before its operation, key order included. So atomicity costs what the patch changed
//! and nothing for what it did not touch: an append to a large array records an index.
//!
//! What the log keeps came from the document or from the patch's own values, so it is bounded
//! by them, except for copies: a patch that copies a large value and removes the copy, over and
//! over, would have the log keep every copy. A patch with a `copy` saves the document instead.

use std::mem;

use serde_json::Value;

use crate::event::{PatchOp, PatchOperation};

/// A member or element of a container: the container's reference tokens, and the slot in it.
#[derive(Debug)]
pub(super) struct Place {
    pub(super) parent: Vec<String>,
    pub(super) slot: Slot,
}

#[derive(Debug)]
pub(super) enum Slot {
    /// An object member; `index` is its position, which a removed member is put back at.
    Member {
        key: String,
        index: usize,
    },
    Element(usize),
}

/// How to reverse one change.
#[derive(Debug)]
pub(super) enum Step {
    /// A member or element was inserted here: take it out.
    Inserted(Place),
    /// The value at these tokens was overwritten: put the old one back.
    Overwritten(Vec<String>, Value),
    /// The value here was removed. `None` when a move carried it on: the step after it, undone
    /// first, takes it out again and hands it over.
    Removed(Place, Option<Value>),
}

#[derive(Debug, Default)]
pub(super) struct UndoLog {
    steps: Vec<Step>,
    /// The whole document, saved instead of recording steps (a patch with copies).
    saved: Option<Value>,
}

impl UndoLog {
    /// The log for `ops` on `doc`: recording steps, or holding a copy of `doc` when `ops` copy.
    pub(super) fn for_patch(doc: &Value, ops: &[PatchOperation]) -> UndoLog {
        let copies = ops.iter().any(|op| op.op == PatchOp::Copy);
        UndoLog { steps: Vec::new(), saved: copies.then(|| doc.clone()) }
    }

    pub(super) fn push(&mut self, step: Step) {
        if self.saved.is_none() {
            self.steps.push(step);
        }
    }

    /// Restores the document to what it was before the patch.
    pub(super) fn undo(self, doc: &mut Value) {
        if let Some(saved) = self.saved {
            *doc = saved;
            return;
        }
        let mut hand = None;
        for step in self.steps.into_iter().rev() {
            match step {
                Step::Inserted(place) => hand = take_out(doc, place),
                Step::Overwritten(tokens, old) => hand = resolve(doc, &tokens).map(|slot| mem::replace(slot, old)),
                Step::Removed(place, value) => {
                    if let Some(value) = value.or_else(|| hand.take()) {
                        put_in(doc, place, value);
                    }
                }
            }
        }
    }
}

/// The value at `tokens`. Each step is undone on the document its operation left, so the path
/// exists; `None` would mean a record out of step with the document.
fn resolve<'a>(doc: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    tokens.iter().try_fold(doc, |current, token| match current {
        Value::Object(map) => map.get_mut(token),
        Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?),
        _ => None,
    })
}

fn take_out(doc: &mut Value, place: Place) -> Option<Value> {
    match (resolve(doc, &place.parent)?, place.slot) {
        (Value::Object(map), Slot::Member { key, .. }) => map.shift_remove(&key),
        (Value::Array(items), Slot::Element(i)) if i < items.len() => Some(items.remove(i)),
        _ => None,
    }
}

fn put_in(doc: &mut Value, place: Place, value: Value) {
    match (resolve(doc, &place.parent), place.slot) {
        (Some(Value::Object(map)), Slot::Member { key, index }) => {
            map.shift_insert(index.min(map.len()), key, value);
        }
        (Some(Value::Array(items)), Slot::Element(i)) if i <= items.len() => items.insert(i, value),
        _ => debug_assert!(false, "an undo record out of step with the document"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::UndoLog;
    use crate::event::{PatchOp, PatchOperation};
    use crate::patch::{apply_patch, apply_patch_within, PatchBounds};

    fn op(op: PatchOp, path: &str, from: Option<&str>, value: Option<Value>) -> PatchOperation {
        PatchOperation { op, path: path.into(), from: from.map(Into::into), value, extra: Default::default() }
    }

    /// A failing patch leaves the document identical, key order included, at every level.
    fn assert_atomic(doc: Value, ops: &[PatchOperation]) {
        let mut target = doc.clone();
        assert!(apply_patch(&mut target, ops).is_err());
        assert_eq!(serde_json::to_string(&target).unwrap(), serde_json::to_string(&doc).unwrap(), "{ops:?}");
    }

    #[test]
    fn failures_restore_values_and_key_order() {
        let doc = json!({"a": 1, "b": {"c": [1, 2], "x": 0, "y": 1}, "d~/e": "x", "f": null});
        let fail = op(PatchOp::Replace, "/absent/deeper", None, Some(json!(0)));
        assert_atomic(doc.clone(), &[op(PatchOp::Replace, "/a", None, Some(json!(2))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "/new", None, Some(json!(2))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "/b/c/-", None, Some(json!(3))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "/b/c/0", None, Some(json!(3))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "/b/x", None, Some(json!(3))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Remove, "/a", None, None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Remove, "/b/x", None, None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Remove, "/b/c/0", None, None), fail.clone()]);
        assert_atomic(
            doc.clone(),
            &[op(PatchOp::Remove, "/b", None, None), op(PatchOp::Add, "/b", None, Some(json!(9))), fail.clone()],
        );
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/z", Some("/d~0~1e"), None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/b/c/1", Some("/b/c/0"), None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/b/y", Some("/b/x"), None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/a", Some("/b/c"), None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Copy, "/a", Some("/b"), None), fail.clone()]);
        // A move whose second half fails has already removed its source.
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/absent/x", Some("/f"), None)]);
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/b/c/5", Some("/b/c/0"), None)]);
        // The root itself, replaced and then changed again, and a root that is not an object.
        assert_atomic(
            doc.clone(),
            &[
                op(PatchOp::Add, "", None, Some(json!({"n": [1]}))),
                op(PatchOp::Add, "/n/-", None, Some(json!(2))),
                fail.clone(),
            ],
        );
        assert_atomic(doc.clone(), &[op(PatchOp::Replace, "", None, Some(json!([]))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "", Some("/b"), None), fail.clone()]);
        assert_atomic(json!([1, 2]), &[op(PatchOp::Remove, "/0", None, None), fail.clone()]);
        // Many changes, several to the same place, undone in order.
        let mut many: Vec<_> = (0..40).map(|i| op(PatchOp::Add, &format!("/n{i}"), None, Some(json!(i)))).collect();
        many.extend((0..40).map(|i| op(PatchOp::Add, "/b/c/1", None, Some(json!(i)))));
        many.push(op(PatchOp::Remove, "/a", None, None));
        many.push(op(PatchOp::Replace, "/b/c/0", None, Some(json!("r"))));
        many.push(op(PatchOp::Move, "/a", Some("/n7"), None));
        many.push(fail);
        assert_atomic(doc, &many);
    }

    #[test]
    fn a_patch_with_copies_saves_the_document_and_keeps_no_copy() {
        let doc = json!({"big": "x".repeat(16 * 1024), "n": 0});
        // Each pair leaves the document as it was; a log of steps would keep every removed copy.
        let pairs: Vec<_> = (0..64)
            .flat_map(|_| [op(PatchOp::Copy, "/c", Some("/big"), None), op(PatchOp::Remove, "/c", None, None)])
            .collect();
        let log = UndoLog::for_patch(&doc, &pairs);
        assert!(log.saved.is_some());
        let mut target = doc.clone();
        let bounds = PatchBounds { max_weight: 64 * 1024, max_depth: 16 };
        apply_patch_within(&mut target, &pairs, bounds).unwrap();
        assert_eq!(target, doc);
        let mut failing = pairs.clone();
        failing.push(op(PatchOp::Replace, "/absent/deeper", None, Some(json!(0))));
        assert_atomic(doc.clone(), &failing);
        // Without copies, nothing is saved up front.
        assert!(UndoLog::for_patch(&doc, &pairs[1..2]).saved.is_none());
    }

    #[test]
    fn success_matches_a_plain_application() {
        let mut doc = json!({"a": 1, "b": {"c": [1, 2]}});
        apply_patch(
            &mut doc,
            &[
                op(PatchOp::Remove, "/a", None, None),
                op(PatchOp::Add, "/a", None, Some(json!(3))),
                op(PatchOp::Add, "/b/c/0", None, Some(json!(0))),
            ],
        )
        .unwrap();
        assert_eq!(serde_json::to_string(&doc).unwrap(), r#"{"b":{"c":[0,1,2]},"a":3}"#);
    }
}
