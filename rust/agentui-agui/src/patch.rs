//! RFC 6902 JSON Patch application, atomic: either every operation applies or the target is
//! left exactly as it was.
//!
//! Bounded: [`apply_patch_within`] keeps the document's weight (approximate bytes in memory,
//! see [`agentui_json::size`]) and depth up to date operation by operation, and checks each
//! operation's growth before it allocates anything. A 1.3 KB patch of 28 `copy`s that would
//! double an array each time is stopped at the copy that crosses the bound, not after.

use agentui_json::size::{self, Exceeded};
use serde_json::Value;

use crate::event::{PatchOp, PatchOperation};

mod undo;

use undo::{Place, Slot, Step, UndoLog};

/// Why a well-formed patch did not apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("operation {index} ({op:?} {path}): {reason}")]
pub struct PatchError {
    pub index: usize,
    pub op: PatchOp,
    pub path: String,
    pub reason: String,
    /// True when the patch is refused because its result would break a [`PatchBounds`] bound
    /// (not because it does not fit the document).
    pub limit_exceeded: bool,
}

/// What a patched document may become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatchBounds {
    /// Weight of the whole document after any operation.
    pub max_weight: usize,
    /// Nesting depth of the whole document after any operation.
    pub max_depth: usize,
}

impl PatchBounds {
    pub const UNBOUNDED: PatchBounds = PatchBounds { max_weight: usize::MAX, max_depth: usize::MAX };
}

/// Apply `ops` to `target` atomically, with no bound on the result (trusted documents only).
pub fn apply_patch(target: &mut Value, ops: &[PatchOperation]) -> Result<(), PatchError> {
    apply_patch_within(target, ops, PatchBounds::UNBOUNDED)
}

/// Apply `ops` to `target` atomically; an operation that would take the document past `bounds`
/// fails (with `limit_exceeded`) before it allocates, and `target` is left as it was. A target
/// already past the bounds is refused as a whole, unless the patch is empty and so changes nothing.
pub fn apply_patch_within(target: &mut Value, ops: &[PatchOperation], bounds: PatchBounds) -> Result<(), PatchError> {
    apply_patch_weighed(target, None, ops, bounds).map(|_| ())
}

/// [`apply_patch_within`] for a caller that keeps the document's weight: `weight` is `target`'s
/// weight as this function last returned it (`None` measures the document first). Saves a walk
/// of the whole document per patch. Returns the weight afterwards, unchanged when the patch fails.
pub fn apply_patch_weighed(
    target: &mut Value,
    weight: Option<usize>,
    ops: &[PatchOperation],
    bounds: PatchBounds,
) -> Result<usize, PatchError> {
    apply_observed(target, weight, ops, bounds, |_, _, _| ())
}

/// A patch as only `add`, `replace` and `remove`, each with its value: what a platform replays
/// without re-implementing `move`, `copy` and `test` (see [`apply_patch_plain`]).
#[derive(Debug, Clone, PartialEq)]
pub enum PlainPatch {
    Ops(Vec<PatchOperation>),
    /// Spelled out, the moved and copied values would weigh more than the document did (a
    /// short patch of copies can name one large value many times): send the document instead.
    TooHeavy,
}

/// [`apply_patch_weighed`], also spelling the patch out as a [`PlainPatch`]: a `move` becomes
/// `remove` + `add` with the moved value, a `copy` an `add` with the copy, a `test` nothing.
/// The values are cloned as each operation applies; their total is kept to the document's
/// peak weight (at least [`PLAIN_PATCH_ALLOWANCE`]), past which the result is `TooHeavy`.
pub fn apply_patch_plain(
    target: &mut Value,
    weight: Option<usize>,
    ops: &[PatchOperation],
    bounds: PatchBounds,
) -> Result<(usize, PlainPatch), PatchError> {
    let mut plain = Some(Vec::with_capacity(ops.len()));
    let (mut spelled, mut peak) = (0usize, PLAIN_PATCH_ALLOWANCE);
    let weight = apply_observed(target, weight, ops, bounds, |doc, op, weight_now| {
        peak = peak.max(weight_now);
        let Some(out) = plain.as_mut() else { return };
        match op.op {
            PatchOp::Move | PatchOp::Copy => {
                let Some(value) = added_at(doc, &op.path) else {
                    plain = None;
                    return;
                };
                spelled = spelled.saturating_add(size::weight(value));
                if spelled > peak {
                    plain = None;
                    return;
                }
                let value = value.clone();
                if op.op == PatchOp::Move {
                    out.push(plain_op(PatchOp::Remove, op.from.clone().unwrap_or_default(), None));
                }
                out.push(plain_op(PatchOp::Add, op.path.clone(), Some(value)));
            }
            PatchOp::Test => {}
            PatchOp::Add | PatchOp::Remove | PatchOp::Replace => {
                out.push(plain_op(op.op, op.path.clone(), op.value.clone()));
            }
        }
    })?;
    Ok((weight, plain.map_or(PlainPatch::TooHeavy, PlainPatch::Ops)))
}

/// What [`apply_patch_plain`] may always spend on spelled-out values, however small the document.
pub const PLAIN_PATCH_ALLOWANCE: usize = 64 * 1024;

fn plain_op(op: PatchOp, path: String, value: Option<Value>) -> PatchOperation {
    PatchOperation { op, path, from: None, value, extra: Default::default() }
}

/// The value an `add` at `pointer` just placed (`-` names the array's new last element).
fn added_at<'a>(doc: &'a mut Value, pointer: &str) -> Option<&'a mut Value> {
    match pointer.strip_suffix("/-") {
        Some(parent) => match get_mut(doc, parent).ok()? {
            Value::Array(items) => items.last_mut(),
            _ => None,
        },
        None => get_mut(doc, pointer).ok(),
    }
}

/// Applies `ops` atomically, calling `applied` after each one with the document and its weight.
fn apply_observed(
    target: &mut Value,
    weight: Option<usize>,
    ops: &[PatchOperation],
    bounds: PatchBounds,
    mut applied: impl FnMut(&mut Value, &PatchOperation, usize),
) -> Result<usize, PatchError> {
    // An empty patch changes nothing, so there is nothing to refuse (and no operation to name).
    if ops.is_empty() {
        return Ok(weight.unwrap_or_else(|| size::weight(target)));
    }
    let weight = match weight {
        Some(weight) => weight,
        None => {
            size::measure_within(target, bounds.max_weight, bounds.max_depth)
                .map_err(|e| patch_error(ops, 0, breach(e, bounds), true))?
                .weight
        }
    };
    // Each operation records how to reverse itself, so a failing one leaves no partial result
    // behind, at the cost of what the patch changed rather than of the document.
    let mut log = UndoLog::for_patch(target, ops);
    let mut weight_now = weight;
    for (index, op) in ops.iter().enumerate() {
        match apply_one(target, op, weight_now, bounds, &mut log) {
            Ok(after) => {
                weight_now = after;
                applied(target, op, weight_now);
            }
            Err(failure) => {
                log.undo(target);
                return Err(match failure {
                    Failure::Invalid(reason) => patch_error(ops, index, reason, false),
                    Failure::Bound(e) => patch_error(ops, index, breach(e, bounds), true),
                });
            }
        }
    }
    Ok(weight_now)
}

fn patch_error(ops: &[PatchOperation], index: usize, reason: String, limit_exceeded: bool) -> PatchError {
    let op = &ops[index];
    PatchError { index, op: op.op, path: op.path.clone(), reason, limit_exceeded }
}

fn breach(e: Exceeded, bounds: PatchBounds) -> String {
    match e {
        Exceeded::Weight => format!("the result would exceed {} bytes", bounds.max_weight),
        Exceeded::Depth => format!("the result would nest deeper than {}", bounds.max_depth),
    }
}

enum Failure {
    Invalid(String),
    Bound(Exceeded),
}

impl From<String> for Failure {
    fn from(reason: String) -> Self {
        Failure::Invalid(reason)
    }
}

/// Depth of the pointer's parent chain: how deep a value placed at `pointer` starts.
fn pointer_depth(pointer: &str) -> usize {
    pointer.bytes().filter(|&b| b == b'/').count()
}

/// Checks that a value of `measure` placed at `path`, replacing `replaced` weight and adding
/// `entry` bookkeeping, keeps the document within `bounds`; returns the new weight.
fn grown(
    weight: usize,
    replaced: usize,
    entry: usize,
    added: Option<&Value>,
    path: &str,
    bounds: PatchBounds,
) -> Result<usize, Failure> {
    let rest = weight.saturating_sub(replaced).saturating_add(entry);
    let room = bounds.max_weight.checked_sub(rest).ok_or(Failure::Bound(Exceeded::Weight))?;
    let depth_room = bounds.max_depth.checked_sub(pointer_depth(path)).ok_or(Failure::Bound(Exceeded::Depth))?;
    let added = match added {
        Some(v) => size::measure_within(v, room, depth_room).map_err(Failure::Bound)?.weight,
        None => 0,
    };
    Ok(rest + added)
}

/// The weight an `add` at `path` replaces (an existing object member) and the bookkeeping it
/// adds (a new member's key), without changing the document.
fn add_footprint(doc: &mut Value, path: &str) -> Result<(usize, usize), String> {
    if path.is_empty() {
        return Ok((size::weight(doc), 0));
    }
    let (parent, last) = parent_of(doc, path)?;
    Ok(match parent {
        Value::Object(map) => match map.get(&last) {
            Some(existing) => (size::weight(existing), 0),
            None => (0, size::ENTRY_WEIGHT + last.len()),
        },
        _ => (0, 0),
    })
}

/// The bookkeeping weight of the member `path` names, when its parent is an object.
fn member_entry(doc: &mut Value, path: &str) -> usize {
    match parent_of(doc, path) {
        Ok((Value::Object(map), last)) if map.contains_key(&last) => size::ENTRY_WEIGHT + last.len(),
        _ => 0,
    }
}

/// Apply one operation to `doc` weighing `weight`, recording how to reverse it in `log`;
/// returns the weight afterwards. A failing operation leaves its own part recorded too.
fn apply_one(
    doc: &mut Value,
    op: &PatchOperation,
    weight: usize,
    bounds: PatchBounds,
    log: &mut UndoLog,
) -> Result<usize, Failure> {
    let value = || op.value.as_ref().ok_or_else(|| "missing 'value'".to_owned());
    let from = || op.from.as_deref().ok_or_else(|| "missing 'from'".to_owned());
    match op.op {
        PatchOp::Add => {
            let v = value()?;
            let (replaced, entry) = add_footprint(doc, &op.path)?;
            let after = grown(weight, replaced, entry, Some(v), &op.path, bounds)?;
            log.push(add(doc, &op.path, v.clone())?);
            Ok(after)
        }
        PatchOp::Remove => {
            let entry = member_entry(doc, &op.path);
            let (removed, place) = remove(doc, &op.path)?;
            let after = weight.saturating_sub(size::weight(&removed) + entry);
            log.push(Step::Removed(place, Some(removed)));
            Ok(after)
        }
        PatchOp::Replace => {
            let v = value()?;
            let tokens = tokens(&op.path)?;
            let slot = walk(doc, &tokens, || format!("path {} does not exist", op.path))?;
            let after = grown(weight, size::weight(slot), 0, Some(v), &op.path, bounds)?;
            let old = std::mem::replace(slot, v.clone());
            log.push(Step::Overwritten(tokens, old));
            Ok(after)
        }
        PatchOp::Move => {
            let from = from()?;
            if from == op.path {
                return Ok(weight);
            }
            if op.path.starts_with(from) && op.path.as_bytes().get(from.len()) == Some(&b'/') {
                return Err(format!("cannot move {from} into its own child").into());
            }
            // The moved value's weight stays; only its depth can grow.
            let moved = get_mut(doc, from)?;
            let depth_room =
                bounds.max_depth.checked_sub(pointer_depth(&op.path)).ok_or(Failure::Bound(Exceeded::Depth))?;
            size::measure_within(moved, usize::MAX, depth_room).map_err(Failure::Bound)?;
            let left = member_entry(doc, from);
            let (moved, place) = remove(doc, from)?;
            let (replaced, entry) = match add_footprint(doc, &op.path) {
                Ok(footprint) => footprint,
                Err(reason) => {
                    log.push(Step::Removed(place, Some(moved)));
                    return Err(reason.into());
                }
            };
            match try_add(doc, &op.path, moved) {
                Ok(step) => {
                    // The value travelled on: undoing the add hands it back to this record.
                    log.push(Step::Removed(place, None));
                    log.push(step);
                }
                Err((reason, moved)) => {
                    log.push(Step::Removed(place, Some(moved)));
                    return Err(reason.into());
                }
            }
            Ok(weight.saturating_sub(replaced + left).saturating_add(entry))
        }
        PatchOp::Copy => {
            let (replaced, entry) = add_footprint(doc, &op.path)?;
            let source = get_mut(doc, from()?)?;
            // Measured up to what is left before anything is cloned.
            let after = grown(weight, replaced, entry, Some(source), &op.path, bounds)?;
            let copied = source.clone();
            log.push(add(doc, &op.path, copied)?);
            Ok(after)
        }
        PatchOp::Test => {
            let expected = value()?;
            let actual = get_mut(doc, &op.path)?;
            if actual == expected {
                Ok(weight)
            } else {
                Err("test failed: value differs".to_owned().into())
            }
        }
    }
}

/// Decode the reference tokens of a pointer ("" is the whole document).
fn tokens(pointer: &str) -> Result<Vec<String>, String> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else { return Err(format!("not a JSON Pointer: {pointer:?}")) };
    Ok(rest.split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect())
}

fn array_index(token: &str, len: usize, allow_end: bool) -> Result<usize, String> {
    if token == "-" && allow_end {
        return Ok(len);
    }
    let valid =
        !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) && (token == "0" || !token.starts_with('0'));
    let index: usize = if valid {
        token.parse().map_err(|_| format!("bad array index {token:?}"))?
    } else {
        return Err(format!("bad array index {token:?}"));
    };
    let bound = if allow_end { len } else { len.saturating_sub(1) };
    if index > bound || (!allow_end && len == 0) {
        return Err(format!("array index {index} out of bounds (length {len})"));
    }
    Ok(index)
}

/// The value reference `tokens` lead to; `missing` says what is not there.
fn walk<'a>(doc: &'a mut Value, tokens: &[String], missing: impl Fn() -> String) -> Result<&'a mut Value, String> {
    let mut current = doc;
    for token in tokens {
        current = match current {
            Value::Object(map) => map.get_mut(token).ok_or_else(&missing)?,
            Value::Array(items) => {
                let i = array_index(token, items.len(), false)?;
                &mut items[i]
            }
            _ => return Err(missing()),
        };
    }
    Ok(current)
}

fn get_mut<'a>(doc: &'a mut Value, pointer: &str) -> Result<&'a mut Value, String> {
    walk(doc, &tokens(pointer)?, || format!("path {pointer} does not exist"))
}

/// A pointer's parent tokens and its last token.
fn split(pointer: &str) -> Result<(Vec<String>, String), String> {
    let mut toks = tokens(pointer)?;
    let last = toks.pop().ok_or_else(|| "the document root has no parent".to_owned())?;
    Ok((toks, last))
}

fn walk_to_parent<'a>(doc: &'a mut Value, parent: &[String], pointer: &str) -> Result<&'a mut Value, String> {
    walk(doc, parent, || format!("parent of {pointer} does not exist"))
}

/// Split a pointer into its parent container and last token.
fn parent_of<'a>(doc: &'a mut Value, pointer: &str) -> Result<(&'a mut Value, String), String> {
    let (parent, last) = split(pointer)?;
    Ok((walk_to_parent(doc, &parent, pointer)?, last))
}

/// Adds `value` at `pointer`; returns how to reverse it.
fn add(doc: &mut Value, pointer: &str, value: Value) -> Result<Step, String> {
    try_add(doc, pointer, value).map_err(|(reason, _)| reason)
}

/// [`add`], handing `value` back when it fails (nothing has changed then).
fn try_add(doc: &mut Value, pointer: &str, value: Value) -> Result<Step, (String, Value)> {
    if pointer.is_empty() {
        return Ok(Step::Overwritten(Vec::new(), std::mem::replace(doc, value)));
    }
    let found = split(pointer).and_then(|(tokens, last)| Ok((walk_to_parent(doc, &tokens, pointer)?, tokens, last)));
    let (parent, mut parent_tokens, last) = match found {
        Ok(found) => found,
        Err(reason) => return Err((reason, value)),
    };
    match parent {
        Value::Object(map) => Ok(match map.insert(last.clone(), value) {
            Some(old) => {
                parent_tokens.push(last);
                Step::Overwritten(parent_tokens, old)
            }
            None => {
                Step::Inserted(Place { parent: parent_tokens, slot: Slot::Member { key: last, index: map.len() - 1 } })
            }
        }),
        Value::Array(items) => match array_index(&last, items.len(), true) {
            Ok(i) => {
                items.insert(i, value);
                Ok(Step::Inserted(Place { parent: parent_tokens, slot: Slot::Element(i) }))
            }
            Err(reason) => Err((reason, value)),
        },
        _ => Err((format!("parent of {pointer} is not a container"), value)),
    }
}

/// Removes the value at `pointer`; returns it and where it was.
fn remove(doc: &mut Value, pointer: &str) -> Result<(Value, Place), String> {
    if pointer.is_empty() {
        return Err("cannot remove the document root".to_owned());
    }
    let (parent_tokens, last) = split(pointer)?;
    match walk_to_parent(doc, &parent_tokens, pointer)? {
        Value::Object(map) => {
            let index = map.keys().position(|k| *k == last).ok_or_else(|| format!("path {pointer} does not exist"))?;
            let removed = map.shift_remove(&last).ok_or_else(|| format!("path {pointer} does not exist"))?;
            Ok((removed, Place { parent: parent_tokens, slot: Slot::Member { key: last, index } }))
        }
        Value::Array(items) => {
            let i = array_index(&last, items.len(), false)?;
            Ok((items.remove(i), Place { parent: parent_tokens, slot: Slot::Element(i) }))
        }
        _ => Err(format!("path {pointer} does not exist")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn op(op: PatchOp, path: &str, from: Option<&str>, value: Option<Value>) -> PatchOperation {
        PatchOperation { op, path: path.into(), from: from.map(Into::into), value, extra: Default::default() }
    }

    #[test]
    fn applies_in_order() {
        let mut doc = json!({"plan": {"status": "open", "steps": ["a"]}});
        apply_patch(
            &mut doc,
            &[
                op(PatchOp::Add, "/plan/steps/-", None, Some(json!("b"))),
                op(PatchOp::Replace, "/plan/status", None, Some(json!("closed"))),
                op(PatchOp::Copy, "/copy", Some("/plan/steps/0"), None),
                op(PatchOp::Move, "/moved", Some("/copy"), None),
                op(PatchOp::Test, "/moved", None, Some(json!("a"))),
                op(PatchOp::Remove, "/plan/steps/0", None, None),
            ],
        )
        .unwrap();
        assert_eq!(doc, json!({"plan": {"status": "closed", "steps": ["b"]}, "moved": "a"}));
    }

    #[test]
    fn an_empty_patch_on_a_document_past_the_bounds_changes_nothing() {
        // Found by the json_patch fuzz target: the refusal named operation 0 of an empty patch.
        let mut doc = json!([[[[1]]]]);
        let bounds = PatchBounds { max_weight: 1024, max_depth: 2 };
        assert_eq!(apply_patch_weighed(&mut doc, None, &[], bounds), Ok(size::weight(&doc)));
        assert_eq!(doc, json!([[[[1]]]]));
        let err = apply_patch_within(&mut doc, &[op(PatchOp::Test, "/0", None, Some(json!(0)))], bounds).unwrap_err();
        assert!(err.limit_exceeded && err.index == 0, "{err:?}");
    }

    #[test]
    fn failure_is_atomic() {
        let mut doc = json!({"plan": {"status": "open"}});
        let before = doc.clone();
        let err = apply_patch(
            &mut doc,
            &[
                op(PatchOp::Replace, "/plan/status", None, Some(json!("closed"))),
                op(PatchOp::Replace, "/absent/deeper", None, Some(json!(1))),
            ],
        )
        .unwrap_err();
        assert_eq!(err.index, 1);
        assert_eq!(doc, before);
    }

    #[test]
    fn escaped_tokens_and_root() {
        let mut doc = json!({"a/b": {"m~n": 1}});
        apply_patch(&mut doc, &[op(PatchOp::Replace, "/a~1b/m~0n", None, Some(json!(2)))]).unwrap();
        assert_eq!(doc, json!({"a/b": {"m~n": 2}}));
        apply_patch(&mut doc, &[op(PatchOp::Add, "", None, Some(json!([1])))]).unwrap();
        assert_eq!(doc, json!([1]));
        assert!(apply_patch(&mut doc, &[op(PatchOp::Remove, "/01", None, None)]).is_err());
        assert!(apply_patch(&mut doc, &[op(PatchOp::Test, "/0", None, Some(json!(2)))]).is_err());
    }

    /// Replays a plain patch with nothing but add, replace and remove, as a platform does.
    fn replay_plain(doc: &mut Value, ops: &[PatchOperation]) {
        for op in ops {
            assert!(op.from.is_none(), "{op:?}");
            match op.op {
                PatchOp::Add => drop(add(doc, &op.path, op.value.clone().unwrap()).unwrap()),
                PatchOp::Replace => *get_mut(doc, &op.path).unwrap() = op.value.clone().unwrap(),
                PatchOp::Remove => drop(remove(doc, &op.path).unwrap()),
                other => panic!("{other:?} in a plain patch"),
            }
        }
    }

    #[test]
    fn a_plain_patch_replays_to_the_same_document() {
        let start = json!({"a": {"x": 1}, "list": ["p", "q", "r"], "o": {"k~/": true}});
        let ops = [
            op(PatchOp::Copy, "/list/-", Some("/a"), None),
            op(PatchOp::Move, "/list/0", Some("/list/2"), None),
            op(PatchOp::Test, "/list/0", None, Some(json!("r"))),
            op(PatchOp::Move, "/b", Some("/o/k~0~1"), None),
            op(PatchOp::Copy, "/c", Some("/list"), None),
            op(PatchOp::Replace, "/a/x", None, Some(json!(2))),
            op(PatchOp::Remove, "/list/1", None, None),
        ];
        let mut patched = start.clone();
        let (_, plain) = apply_patch_plain(&mut patched, None, &ops, PatchBounds::UNBOUNDED).unwrap();
        let PlainPatch::Ops(plain) = plain else { panic!("{plain:?}") };
        // copy, move (2), move (2), copy, replace, remove; the test is dropped.
        assert_eq!(plain.len(), 8, "{plain:#?}");
        let mut replayed = start;
        replay_plain(&mut replayed, &plain);
        assert_eq!(replayed, patched);
        // The copied value is the one at the time of the copy, not the later replace.
        assert_eq!(plain[0].value, Some(json!({"x": 1})));
    }

    #[test]
    fn copying_one_large_value_over_and_over_is_too_heavy_to_spell_out() {
        let big = "x".repeat(PLAIN_PATCH_ALLOWANCE);
        let mut doc = json!({"big": big});
        // Each pair leaves the document as it was, but each copy would be spelled out whole.
        let ops: Vec<_> = (0..8)
            .flat_map(|_| [op(PatchOp::Copy, "/c", Some("/big"), None), op(PatchOp::Remove, "/c", None, None)])
            .collect();
        let (_, plain) = apply_patch_plain(&mut doc, None, &ops, PatchBounds::UNBOUNDED).unwrap();
        assert_eq!(plain, PlainPatch::TooHeavy);
        assert_eq!(doc, json!({"big": "x".repeat(PLAIN_PATCH_ALLOWANCE)}));
    }

    #[test]
    fn a_plain_patch_fails_like_the_patch_and_leaves_the_document() {
        let mut doc = json!({"a": 1});
        let ops = [op(PatchOp::Copy, "/b", Some("/a"), None), op(PatchOp::Move, "/c", Some("/missing"), None)];
        assert_eq!(apply_patch_plain(&mut doc, None, &ops, PatchBounds::UNBOUNDED).unwrap_err().index, 1);
        assert_eq!(doc, json!({"a": 1}));
    }
}
