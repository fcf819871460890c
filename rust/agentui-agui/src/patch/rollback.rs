//! What a patch may change, saved before it runs, so a failing patch can be undone without
//! copying the whole document first.
//!
//! State documents are usually objects with many top-level keys, and a patch touches a few of
//! them: saving just those entries (and, only when a patch removes a top-level key, their
//! positions) keeps the cost of atomicity proportional to the patch, not to the state. Anything
//! else (a root that is not an object, an operation on the root itself, a patch touching more than
//! a few top-level keys) saves the whole document.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::event::{PatchOp, PatchOperation};

/// Top-level keys saved one by one at most; a patch touching more saves the whole document.
const MAX_SAVED_KEYS: usize = 32;

pub(super) enum Rollback {
    Whole(Value),
    Entries {
        /// Touched top-level keys, each with its original value and position (the position is
        /// only known when `reorders`).
        saved: Vec<(String, Option<(usize, Value)>)>,
        /// Whether a top-level key may be removed (and so re-added elsewhere).
        reorders: bool,
    },
}

/// The top-level key a pointer starts in, unescaped; `None` for the root itself.
fn top_key(pointer: &str) -> Option<Cow<'_, str>> {
    let rest = pointer.strip_prefix('/')?;
    let token = rest.split('/').next().unwrap_or(rest);
    Some(if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    })
}

/// Note the top-level key `pointer` writes to; `false` when it is the root itself.
fn touch<'a>(keys: &mut Vec<Cow<'a, str>>, reorders: &mut bool, pointer: &'a str, removes: bool) -> bool {
    let Some(key) = top_key(pointer) else { return false };
    // A removal at the top level moves the key: positions must be saved.
    *reorders |= removes && !pointer[1..].contains('/');
    if !keys.contains(&key) {
        keys.push(key);
    }
    true
}

impl Rollback {
    pub(super) fn save(doc: &Value, ops: &[PatchOperation]) -> Rollback {
        let Value::Object(map) = doc else { return Rollback::Whole(doc.clone()) };
        let mut keys: Vec<Cow<'_, str>> = Vec::new();
        let mut reorders = false;
        for op in ops {
            let ok = match op.op {
                PatchOp::Test => true,
                PatchOp::Add | PatchOp::Replace | PatchOp::Copy => touch(&mut keys, &mut reorders, &op.path, false),
                PatchOp::Remove => touch(&mut keys, &mut reorders, &op.path, true),
                PatchOp::Move => {
                    touch(&mut keys, &mut reorders, &op.path, false)
                        && op.from.as_deref().is_none_or(|f| touch(&mut keys, &mut reorders, f, true))
                }
            };
            // Past a few keys the saved entries could outweigh the document itself (100k
            // `copy`s to new keys), and the linear key search would be quadratic: copy it all.
            if !ok || keys.len() > MAX_SAVED_KEYS {
                return Rollback::Whole(doc.clone());
            }
        }
        let saved = keys
            .into_iter()
            .map(|key| {
                let entry = map.get(key.as_ref()).map(|v| {
                    let at = if reorders { map.keys().position(|k| *k == key).unwrap_or(0) } else { 0 };
                    (at, v.clone())
                });
                (key.into_owned(), entry)
            })
            .collect();
        Rollback::Entries { saved, reorders }
    }

    pub(super) fn restore(self, doc: &mut Value) {
        match self {
            Rollback::Whole(original) => *doc = original,
            Rollback::Entries { saved, reorders } => {
                let Value::Object(map) = doc else { return };
                restore_entries(map, saved, reorders);
            }
        }
    }
}

fn restore_entries(map: &mut Map<String, Value>, mut saved: Vec<(String, Option<(usize, Value)>)>, reorders: bool) {
    if reorders {
        // Untouched keys kept their relative order; put the touched ones back where they were.
        for (key, _) in &saved {
            map.shift_remove(key.as_str());
        }
        saved.sort_by_key(|(_, entry)| entry.as_ref().map(|(at, _)| *at));
        for (key, entry) in saved {
            if let Some((at, value)) = entry {
                map.shift_insert(at.min(map.len()), key, value);
            }
        }
    } else {
        // No top-level key was removed: existing keys kept their slots, new ones were appended.
        for (key, entry) in saved {
            match entry {
                Some((_, value)) => {
                    if let Some(slot) = map.get_mut(key.as_str()) {
                        *slot = value;
                    }
                }
                None => {
                    map.shift_remove(key.as_str());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::event::{PatchOp, PatchOperation};
    use crate::patch::apply_patch;

    fn op(op: PatchOp, path: &str, from: Option<&str>, value: Option<Value>) -> PatchOperation {
        PatchOperation { op, path: path.into(), from: from.map(Into::into), value, extra: Default::default() }
    }

    /// A failing patch leaves the document identical, key order included.
    fn assert_atomic(doc: Value, ops: &[PatchOperation]) {
        let mut target = doc.clone();
        assert!(apply_patch(&mut target, ops).is_err());
        assert_eq!(target, doc);
        let order = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
        assert_eq!(order(&target), order(&doc), "key order is restored");
    }

    #[test]
    fn failures_restore_values_and_key_order() {
        let doc = json!({"a": 1, "b": {"c": [1, 2]}, "d~/e": "x", "f": null});
        let fail = op(PatchOp::Replace, "/absent/deeper", None, Some(json!(0)));
        assert_atomic(doc.clone(), &[op(PatchOp::Replace, "/a", None, Some(json!(2))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "/new", None, Some(json!(2))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "/b/c/-", None, Some(json!(3))), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Remove, "/a", None, None), fail.clone()]);
        assert_atomic(
            doc.clone(),
            &[op(PatchOp::Remove, "/b", None, None), op(PatchOp::Add, "/b", None, Some(json!(9))), fail.clone()],
        );
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/z", Some("/d~0~1e"), None), fail.clone()]);
        assert_atomic(doc.clone(), &[op(PatchOp::Copy, "/a", Some("/b"), None), fail.clone()]);
        // A move whose second half fails has already removed its source.
        assert_atomic(doc.clone(), &[op(PatchOp::Move, "/absent/x", Some("/f"), None)]);
        // The root itself, and a root that is not an object, fall back to a whole copy.
        assert_atomic(doc.clone(), &[op(PatchOp::Add, "", None, Some(json!([]))), fail.clone()]);
        assert_atomic(json!([1, 2]), &[op(PatchOp::Remove, "/0", None, None), fail.clone()]);
        // More top-level keys than are saved one by one: the whole document is saved instead.
        let mut many: Vec<_> = (0..40).map(|i| op(PatchOp::Add, &format!("/n{i}"), None, Some(json!(i)))).collect();
        many.push(op(PatchOp::Remove, "/a", None, None));
        many.push(fail);
        assert_atomic(doc, &many);
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
