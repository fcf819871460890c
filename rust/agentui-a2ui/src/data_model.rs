//! A surface's data model: one JSON document addressed by JSON Pointer.
//!
//! OWNER: helper "data-model". Interface below is fixed; bodies are to be written.
//!
//! # Rules
//!
//! * Paths are absolute JSON Pointers as [`crate::pointer`] parses them (`""`/`"/"` = root, one
//!   trailing slash ignored). Array tokens must be canonical non-negative integers (`0`, `12`;
//!   not `012`, `+1`, `-1`); `-` means "one past the end" and only makes sense for writes.
//! * [`DataModel::set`] deletes when it writes `null`; [`DataModel::replace_within`] stores the
//!   `null` (what a v0.9 `updateDataModel` with `"value": null` asks for: only an absent value
//!   deletes). [`DataModel::get`] reads any `null` (stored, a deleted array slot, or inside a
//!   written object) as absent, so a binding sees no difference.
//! * Writes create missing parents ("auto-vivification"): a missing or `null` parent becomes an
//!   array when the next token is an index or `-`, an object otherwise. Writing index 5 of a
//!   shorter array pads it with `null`s; `-` appends.
//! * A write never changes the kind of an existing value on the way down: `/a/b` where `/a` is a
//!   string, or `/items/name` where `/items` is an array, is [`DataModelError::InvalidPath`].
//! * Limits (agent input is untrusted): an index that would be created above
//!   [`Limits::max_array_index`] is [`DataModelError::IndexTooLarge`] and allocates nothing;
//!   a write whose path length plus the nesting depth of its value (a scalar counts 0, an
//!   array/object 1 + its deepest child) exceeds [`Limits::max_value_depth`] is
//!   [`DataModelError::TooDeep`]. The same measure applied to a whole-document write is simply
//!   the document's nesting depth, so writing `{"a":{"b":1}}` at the root and `1` at `/a/b` agree.
//! * Every write is atomic: the whole path is checked before anything is mutated, so an error
//!   leaves the document exactly as it was.
//! * The root is always an object: deleting it resets it to `{}`, writing a non-object there is
//!   [`DataModelError::InvalidPath`].

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::limits::Limits;
use crate::pointer::{iter_absolute, parse_index, push_token};
use crate::size;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataModelError {
    #[error(transparent)]
    Pointer(#[from] crate::pointer::PointerError),
    /// e.g. `/items/name` where `/items` is an array.
    #[error("{path}: {reason}")]
    InvalidPath { path: String, reason: String },
    #[error("{path}: array index {index} exceeds the limit of {limit}")]
    IndexTooLarge { path: String, index: usize, limit: usize },
    #[error("{path}: value nested deeper than {limit}")]
    TooDeep { path: String, limit: usize },
    /// The write would make the data model weigh more than it may (see [`crate::size`]).
    #[error("{path}: the data model would exceed {limit} bytes")]
    TooLarge { path: String, limit: usize },
}

/// What a write changed, for the dependency index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Canonical absolute path that was written (`""` for the root).
    pub path: String,
    /// The value the write replaced or removed, moved out (not cloned) so that a caller can put
    /// it back cheaply; `None` when nothing was there.
    pub previous: Option<Value>,
}

#[derive(Debug, Clone)]
pub struct DataModel {
    root: Value,
    max_array_index: usize,
    max_value_depth: usize,
    /// Weight of `root` (see [`crate::size`]), kept up to date by every write.
    weight: usize,
    max_weight: usize,
}

impl Default for DataModel {
    fn default() -> Self {
        DataModel::new(&Limits::default())
    }
}

impl DataModel {
    pub fn new(limits: &Limits) -> Self {
        DataModel {
            root: Value::Object(Default::default()),
            max_array_index: limits.max_array_index,
            max_value_depth: limits.max_value_depth,
            weight: size::VALUE_WEIGHT,
            max_weight: limits.max_data_model_bytes,
        }
    }

    /// The document's weight in bytes (see [`crate::size`]).
    pub fn weight(&self) -> usize {
        self.weight
    }

    /// The whole document.
    pub fn root(&self) -> &Value {
        &self.root
    }

    /// Value at a canonical or agent-written absolute path; `None` when absent.
    ///
    /// The path is normalised like [`crate::pointer::canonical`] does (`"/"` is the root, one trailing
    /// slash ignored) without allocating unless a token contains an escape. `None` as well for a
    /// malformed or relative path, an array token that is not a canonical index (`-`, `01`, `x`),
    /// a path going through a scalar, and a `null` value (see the module rules).
    pub fn get(&self, path: &str) -> Option<&Value> {
        let mut cur = &self.root;
        for token in iter_absolute(path).ok()? {
            cur = match cur {
                Value::Object(map) => map.get(token.as_ref())?,
                Value::Array(items) => match parse_index(&token) {
                    Some(Ok(index)) => items.get(index)?,
                    _ => return None,
                },
                _ => return None,
            };
        }
        if cur.is_null() {
            None
        } else {
            Some(cur)
        }
    }

    /// How to take back a write to `path` that has not happened yet, so a caller can roll a
    /// message back when something after the write fails (the engine's atomicity). Clones
    /// nothing larger than a scalar: a replaced value comes back through [`Change::previous`].
    pub fn undo_for(&self, path: &str) -> Option<Undo> {
        let tokens: Vec<String> = iter_absolute(path).ok()?.map(|t| t.into_owned()).collect();
        let mut cur = &self.root;
        for (depth, token) in tokens.iter().enumerate() {
            let container = tokens[..depth].to_vec();
            cur = match cur {
                Value::Object(map) => match map.get(token.as_str()) {
                    Some(child) => child,
                    None => {
                        return Some(Undo { container, step: UndoStep::RemoveKey(token.clone()), weight: self.weight })
                    }
                },
                Value::Array(items) => match parse_index(token) {
                    Some(Ok(index)) if index < items.len() => &items[index],
                    _ => return Some(Undo { container, step: UndoStep::Truncate(items.len()), weight: self.weight }),
                },
                // A scalar on the way makes the write fail; a `null` gets replaced by a container.
                other => return Some(Undo { container, step: UndoStep::Replace(other.clone()), weight: self.weight }),
            };
        }
        Some(Undo { container: tokens, step: UndoStep::Restore, weight: self.weight })
    }

    /// Takes back a write described by [`DataModel::undo_for`]; `previous` is the write's
    /// [`Change::previous`].
    pub fn undo(&mut self, undo: Undo, previous: Option<Value>) {
        self.weight = undo.weight;
        let mut cur = &mut self.root;
        for token in &undo.container {
            let next = match cur {
                Value::Object(map) => map.get_mut(token.as_str()),
                Value::Array(items) => match parse_index(token) {
                    Some(Ok(index)) => items.get_mut(index),
                    _ => None,
                },
                _ => None,
            };
            match next {
                Some(next) => cur = next,
                None => return,
            }
        }
        match (undo.step, cur) {
            (UndoStep::Replace(old), slot) => *slot = old,
            (UndoStep::Restore, slot) => *slot = previous.unwrap_or(Value::Null),
            (UndoStep::RemoveKey(key), Value::Object(map)) => {
                map.shift_remove(key.as_str());
            }
            (UndoStep::Truncate(len), Value::Array(items)) => items.truncate(len),
            _ => {}
        }
    }

    /// Upsert (`Some`) or delete (`None`, or `Some(Value::Null)`) the value at an absolute path.
    /// Creates missing parents; `-` appends to an array; deleting an array element keeps the
    /// length (the slot becomes `null`). A failed write leaves the model untouched.
    ///
    /// Deleting keeps array lengths because template instances are identified by their item's
    /// index (`/items/3`): removing the element would shift every later sibling to a new index,
    /// so their instances would be torn down and rebuilt with the wrong state. Deleting something
    /// absent succeeds without changing anything; deleting the root resets it to `{}`.
    ///
    /// The returned [`Change::path`] is the canonical path written; for `-` it names the concrete
    /// index that was appended (`/items/-` on a 3-element array reports `/items/3`).
    ///
    /// Cost is O(path length) plus the size of the written value (for the depth check); the
    /// rest of the document is never copied or scanned.
    pub fn set(&mut self, path: &str, value: Option<Value>) -> Result<Change, DataModelError> {
        self.set_within(path, value, self.max_weight)
    }

    /// [`DataModel::set`] with a weight bound tighter than the model's own (a group's budget
    /// shared by its surfaces): a write that would make the document weigh more than
    /// `max_weight` is [`DataModelError::TooLarge`], found while measuring the written value
    /// (the walk stops at the bound) and before anything is stored.
    pub fn set_within(
        &mut self,
        path: &str,
        value: Option<Value>,
        max_weight: usize,
    ) -> Result<Change, DataModelError> {
        self.write(path, value.filter(|v| !v.is_null()), max_weight)
    }

    /// Stores `value` at an absolute path, `null` included: a v0.9 `updateDataModel` with a
    /// present `value` replaces (or creates) what is at `path`, and only an absent one deletes.
    /// Otherwise an upsert of [`DataModel::set_within`]: parents are created, the bounds hold,
    /// a failed write changes nothing. `null` at the root is refused like any non-object.
    pub fn replace_within(&mut self, path: &str, value: Value, max_weight: usize) -> Result<Change, DataModelError> {
        self.write(path, Some(value), max_weight)
    }

    /// Deletes (`None`) or stores the value as is.
    fn write(&mut self, path: &str, value: Option<Value>, max_weight: usize) -> Result<Change, DataModelError> {
        // `DataModel::default()` starts with a `null` root; it means the same as an empty object.
        if !self.root.is_object() {
            self.root = Value::Object(Map::new());
            self.weight = size::VALUE_WEIGHT;
        }
        let max_weight = max_weight.min(self.max_weight);
        let tokens: Vec<Cow<'_, str>> = iter_absolute(path)?.collect();
        match value {
            None => self.delete(&tokens),
            Some(value) => self.upsert(path, &tokens, value, max_weight),
        }
    }

    fn upsert(
        &mut self,
        path: &str,
        tokens: &[Cow<'_, str>],
        value: Value,
        max_weight: usize,
    ) -> Result<Change, DataModelError> {
        let too_deep = || DataModelError::TooDeep { path: canonical_of(tokens), limit: self.max_value_depth };
        let too_big = || DataModelError::TooLarge { path: canonical_of(tokens), limit: max_weight };
        let Some(depth_budget) = self.max_value_depth.checked_sub(tokens.len()) else { return Err(too_deep()) };
        if tokens.is_empty() {
            if !value.is_object() {
                return Err(DataModelError::InvalidPath {
                    path: String::new(),
                    reason: format!("the data model root must be an object, not {}", kind(&value)),
                });
            }
            let measure = size::measure_within(&value, max_weight, depth_budget).map_err(|e| match e {
                size::Exceeded::Depth => too_deep(),
                size::Exceeded::Weight => too_big(),
            })?;
            let previous = std::mem::replace(&mut self.root, value);
            self.weight = measure.weight;
            return Ok(Change { path: String::new(), previous: Some(previous) });
        }

        // Pass 1 (read only): check every token and decide each step, so that pass 2 cannot fail.
        let mut steps = Vec::with_capacity(tokens.len());
        let mut cur: Option<&Value> = Some(&self.root);
        // Weight the write adds besides the value: new members, padding, created containers.
        let mut structure = 0usize;
        for (depth, token) in tokens.iter().enumerate() {
            let step = match cur {
                Some(Value::Object(map)) => {
                    cur = map.get(token.as_ref());
                    if cur.is_none() {
                        structure += size::entry_weight(token, 0);
                    }
                    Step::Key(token)
                }
                Some(Value::Array(items)) => {
                    let index = if token == "-" {
                        items.len()
                    } else {
                        match parse_index(token) {
                            Some(Ok(index)) => index,
                            Some(Err(())) => return Err(self.too_large(tokens, usize::MAX)),
                            None => {
                                return Err(DataModelError::InvalidPath {
                                    path: canonical_of(tokens),
                                    reason: format!(
                                        "{:?} is not an array index, and {} is an array",
                                        token.as_ref(),
                                        prefix_of(tokens, depth)
                                    ),
                                })
                            }
                        }
                    };
                    if index >= items.len() && index > self.max_array_index {
                        return Err(self.too_large(tokens, index));
                    }
                    // `null`s padding up to the written slot (whose value is counted below).
                    structure += index.saturating_sub(items.len()) * size::VALUE_WEIGHT;
                    cur = items.get(index);
                    Step::Index(index)
                }
                // Missing or `null`: a container is created, its kind chosen by the token.
                None | Some(Value::Null) => {
                    // The container itself (a `null` slot was counted already), then the padding
                    // or the member it holds.
                    structure += if cur.is_none() { size::VALUE_WEIGHT } else { 0 };
                    structure += match parse_index(token) {
                        Some(Ok(index)) if index <= self.max_array_index => index * size::VALUE_WEIGHT,
                        _ if token == "-" => 0,
                        _ => size::entry_weight(token, 0),
                    };
                    let step = if token == "-" {
                        Step::Index(0)
                    } else {
                        match parse_index(token) {
                            Some(Ok(index)) if index > self.max_array_index => {
                                return Err(self.too_large(tokens, index))
                            }
                            Some(Ok(index)) => Step::Index(index),
                            Some(Err(())) => return Err(self.too_large(tokens, usize::MAX)),
                            None => Step::Key(token),
                        }
                    };
                    // Everything below a created container is created too. (Never the first token:
                    // the root is always an object, so `/0` is the key "0" there.)
                    cur = None;
                    step
                }
                Some(scalar) => {
                    return Err(DataModelError::InvalidPath {
                        path: canonical_of(tokens),
                        reason: format!("cannot write below {}: it holds {}", prefix_of(tokens, depth), kind(scalar)),
                    })
                }
            };
            steps.push(step);
        }
        // The value must fit in what the rest of the document leaves; measuring stops there.
        let replaced = cur.map_or(0, size::weight);
        let rest = self.weight.saturating_sub(replaced).saturating_add(structure);
        let Some(room) = max_weight.checked_sub(rest) else { return Err(too_big()) };
        let measure = size::measure_within(&value, room, depth_budget).map_err(|e| match e {
            size::Exceeded::Depth => too_deep(),
            size::Exceeded::Weight => too_big(),
        })?;
        let new_weight = rest + measure.weight;

        // Pass 2: walk again, creating what is missing, and store the value.
        let mut written = String::with_capacity(path.len() + 8);
        let mut slot = &mut self.root;
        for step in steps {
            slot = match step {
                Step::Key(key) => {
                    push_token(&mut written, key);
                    object_child(slot, key)
                }
                Step::Index(index) => {
                    push_token(&mut written, &index.to_string());
                    array_child(slot, index)
                }
            };
        }
        let previous = std::mem::replace(slot, value);
        self.weight = new_weight.max(size::VALUE_WEIGHT);
        Ok(Change { path: written, previous: (!previous.is_null()).then_some(previous) })
    }

    fn delete(&mut self, tokens: &[Cow<'_, str>]) -> Result<Change, DataModelError> {
        let mut change = Change { path: canonical_of(tokens), previous: None };
        let Some((last, parents)) = tokens.split_last() else {
            change.previous = Some(std::mem::replace(&mut self.root, Value::Object(Map::new())));
            self.weight = size::VALUE_WEIGHT;
            return Ok(change);
        };
        let removed_weight;
        // Nothing is mutated until the final step, so returning early on error is atomic.
        let mut cur = &mut self.root;
        for (depth, token) in parents.iter().enumerate() {
            cur = match cur {
                Value::Object(map) => match map.get_mut(token.as_ref()) {
                    Some(next) => next,
                    None => return Ok(change),
                },
                Value::Array(items) => match Self::delete_index(tokens, depth, token)? {
                    Some(index) => match items.get_mut(index) {
                        Some(next) => next,
                        None => return Ok(change),
                    },
                    None => return Ok(change),
                },
                Value::Null => return Ok(change),
                scalar => {
                    return Err(DataModelError::InvalidPath {
                        path: change.path,
                        reason: format!("cannot delete below {}: it holds {}", prefix_of(tokens, depth), kind(scalar)),
                    })
                }
            };
        }
        match cur {
            Value::Object(map) => {
                // `shift_remove` keeps the order of the remaining keys (the map preserves order).
                change.previous = map.shift_remove(last.as_ref());
                removed_weight = change.previous.as_ref().map_or(0, |v| size::entry_weight(last, size::weight(v)));
            }
            Value::Array(items) => {
                if let Some(index) = Self::delete_index(tokens, parents.len(), last)? {
                    if let Some(item) = items.get_mut(index) {
                        change.previous = Some(std::mem::replace(item, Value::Null)).filter(|v| !v.is_null());
                    }
                }
                // The slot stays, holding `null`.
                removed_weight = change.previous.as_ref().map_or(0, |v| size::weight(v) - size::VALUE_WEIGHT);
            }
            Value::Null => removed_weight = 0,
            scalar => {
                return Err(DataModelError::InvalidPath {
                    path: change.path,
                    reason: format!(
                        "cannot delete below {}: it holds {}",
                        prefix_of(tokens, parents.len()),
                        kind(scalar)
                    ),
                })
            }
        }
        self.weight = self.weight.saturating_sub(removed_weight).max(size::VALUE_WEIGHT);
        Ok(change)
    }

    /// Index named by `token` (at position `depth` of `tokens`) in an array that a delete walks
    /// through: `None` when it cannot exist (`-`, or too large to be an index at all).
    fn delete_index(tokens: &[Cow<'_, str>], depth: usize, token: &str) -> Result<Option<usize>, DataModelError> {
        if token == "-" {
            return Ok(None);
        }
        match parse_index(token) {
            Some(Ok(index)) => Ok(Some(index)),
            Some(Err(())) => Ok(None),
            None => Err(DataModelError::InvalidPath {
                path: canonical_of(tokens),
                reason: format!("{token:?} is not an array index, and {} is an array", prefix_of(tokens, depth)),
            }),
        }
    }

    fn too_large(&self, tokens: &[Cow<'_, str>], index: usize) -> DataModelError {
        DataModelError::IndexTooLarge { path: canonical_of(tokens), index, limit: self.max_array_index }
    }
}

/// The inverse of one write: see [`DataModel::undo_for`].
#[derive(Debug, Clone, PartialEq)]
pub struct Undo {
    /// Decoded tokens of the container the step applies to.
    container: Vec<String>,
    step: UndoStep,
    /// The document's weight before the write.
    weight: usize,
}

#[derive(Debug, Clone, PartialEq)]
enum UndoStep {
    /// Put this (scalar or `null`) value back at `container` itself.
    Replace(Value),
    /// Put the write's [`Change::previous`] back at `container` itself.
    Restore,
    /// Remove a key the write created.
    RemoveKey(String),
    /// Shrink an array the write grew.
    Truncate(usize),
}

/// One resolved step of a write: which key or index to descend into.
enum Step<'t> {
    Key(&'t str),
    Index(usize),
}

/// The child `key` of `slot`, turning `slot` into an empty object first unless it is one.
/// `set` only calls this where pass 1 found an object, a `null` or nothing.
fn object_child<'v>(slot: &'v mut Value, key: &str) -> &'v mut Value {
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    match slot {
        Value::Object(map) => map.entry(key).or_insert(Value::Null),
        other => other,
    }
}

/// Element `index` of `slot`, turning `slot` into an empty array first unless it is one and
/// padding with `null`s up to `index`. `index` was checked against the limit in pass 1.
fn array_child(slot: &mut Value, index: usize) -> &mut Value {
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    match slot {
        Value::Array(items) => {
            if items.len() <= index {
                items.resize(index + 1, Value::Null);
            }
            &mut items[index]
        }
        other => other,
    }
}

fn canonical_of(tokens: &[Cow<'_, str>]) -> String {
    prefix_of(tokens, tokens.len())
}

/// Canonical path of the first `len` tokens.
fn prefix_of(tokens: &[Cow<'_, str>], len: usize) -> String {
    let mut out = String::new();
    for token in tokens.iter().take(len) {
        push_token(&mut out, token);
    }
    out
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn model() -> DataModel {
        DataModel::new(&Limits::default())
    }

    fn small(max_array_index: usize, max_value_depth: usize) -> DataModel {
        DataModel::new(&Limits { max_array_index, max_value_depth, ..Limits::default() })
    }

    fn with(doc: Value) -> DataModel {
        let mut m = model();
        m.set("", Some(doc)).unwrap();
        m
    }

    fn changed(path: &str) -> String {
        path.to_owned()
    }

    #[test]
    fn writes_hand_back_what_they_replaced() {
        let mut m = model();
        assert_eq!(m.set("/a", Some(json!(1))).unwrap().previous, None);
        assert_eq!(m.set("/a", Some(json!(2))).unwrap().previous, Some(json!(1)));
        assert_eq!(m.set("/a", None).unwrap().previous, Some(json!(2)));
        assert_eq!(m.set("/a", None).unwrap().previous, None);
    }

    #[test]
    fn new_model_is_an_empty_object() {
        let m = model();
        assert_eq!(m.root(), &json!({}));
        assert_eq!(m.get(""), Some(&json!({})));
        assert_eq!(m.get("/"), Some(&json!({})));
    }

    #[test]
    fn get_normalises_agent_paths() {
        let m = with(json!({"a": {"b": 1}, "x/y": 2, "t~": 3, "~1": 4}));
        assert_eq!(m.get("/a/b"), Some(&json!(1)));
        assert_eq!(m.get("/a/b/"), Some(&json!(1)));
        assert_eq!(m.get("/a/"), Some(&json!({"b": 1})));
        assert_eq!(m.get("/x~1y"), Some(&json!(2)));
        assert_eq!(m.get("/t~0"), Some(&json!(3)));
        assert_eq!(m.get("/~01"), Some(&json!(4)));
    }

    #[test]
    fn get_absent_and_bad_paths_are_none() {
        let m = with(json!({"a": {"b": "s"}, "n": null}));
        assert_eq!(m.get("/missing"), None);
        assert_eq!(m.get("/a/c"), None);
        assert_eq!(m.get("/a/b/c"), None, "through a scalar");
        assert_eq!(m.get("/n"), None, "null reads as absent");
        assert_eq!(m.get("/a~2"), None, "bad escape");
        assert_eq!(m.get("a/b"), None, "relative");
    }

    #[test]
    fn get_array_tokens_must_be_canonical_indices() {
        let m = with(json!({"items": ["a", "b", "c"]}));
        assert_eq!(m.get("/items/0"), Some(&json!("a")));
        assert_eq!(m.get("/items/2"), Some(&json!("c")));
        assert_eq!(m.get("/items/3"), None);
        for bad in ["/items/01", "/items/+1", "/items/-1", "/items/-", "/items/x", "/items/", "/items/1.0"] {
            if bad == "/items/" {
                // One trailing slash is ignored: this is the array itself.
                assert!(m.get(bad).is_some());
            } else {
                assert_eq!(m.get(bad), None, "{bad}");
            }
        }
        assert_eq!(m.get("/items/99999999999999999999999"), None);
    }

    #[test]
    fn upsert_object_keys() {
        let mut m = model();
        assert_eq!(m.set("/name", Some(json!("Ada"))).unwrap().path, changed("/name"));
        assert_eq!(m.set("/name", Some(json!("Grace"))).unwrap().path, changed("/name"));
        assert_eq!(m.get("/name"), Some(&json!("Grace")));
        assert_eq!(m.root(), &json!({"name": "Grace"}));
    }

    #[test]
    fn change_path_is_canonical() {
        let mut m = model();
        assert_eq!(m.set("/a/b/", Some(json!(1))).unwrap().path, changed("/a/b"));
        assert_eq!(m.set("/x~1y", Some(json!(1))).unwrap().path, changed("/x~1y"));
        assert_eq!(m.set("/~01", Some(json!(1))).unwrap().path, changed("/~01"));
        assert_eq!(m.get("/~01"), Some(&json!(1)));
        assert_eq!(m.root()["~1"], json!(1));
    }

    #[test]
    fn root_writes() {
        let mut m = model();
        assert_eq!(m.set("/", Some(json!({"a": 1}))).unwrap().path, changed(""));
        assert_eq!(m.root(), &json!({"a": 1}));
        assert_eq!(m.set("", Some(json!({"b": 2}))).unwrap().path, changed(""));
        assert_eq!(m.root(), &json!({"b": 2}), "a root write replaces the document");
        for bad in [json!([1]), json!("s"), json!(3), json!(true)] {
            let err = m.set("", Some(bad)).unwrap_err();
            assert!(matches!(err, DataModelError::InvalidPath { ref path, .. } if path.is_empty()), "{err}");
            assert_eq!(m.root(), &json!({"b": 2}));
        }
    }

    #[test]
    fn deleting_the_root_resets_it() {
        let mut m = with(json!({"a": 1}));
        assert_eq!(m.set("", None).unwrap().path, changed(""));
        assert_eq!(m.root(), &json!({}));
        m.set("/a", Some(json!(1))).unwrap();
        assert_eq!(m.set("/", Some(Value::Null)).unwrap().path, changed(""));
        assert_eq!(m.root(), &json!({}));
    }

    #[test]
    fn delete_object_key_removes_it_and_keeps_order() {
        let mut m = with(json!({"a": 1, "b": 2, "c": 3}));
        assert_eq!(m.set("/a", None).unwrap().path, changed("/a"));
        let keys: Vec<_> = m.root().as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["b", "c"]);
        m.set("/b", Some(Value::Null)).unwrap();
        assert_eq!(m.root(), &json!({"c": 3}));
    }

    #[test]
    fn replace_stores_null_where_set_deletes() {
        let mut m = with(json!({"a": 1, "b": {"c": 2}, "items": [1, 2]}));
        let max = usize::MAX;
        assert_eq!(
            m.replace_within("/a", Value::Null, max).unwrap(),
            Change { path: "/a".into(), previous: Some(json!(1)) }
        );
        assert_eq!(m.replace_within("/b/c", Value::Null, max).unwrap().path, "/b/c");
        assert_eq!(m.replace_within("/new/deep", Value::Null, max).unwrap().previous, None);
        assert_eq!(m.replace_within("/items/3", Value::Null, max).unwrap().path, "/items/3");
        assert_eq!(m.root(), &json!({"a": null, "b": {"c": null}, "items": [1, 2, null, null], "new": {"deep": null}}));
        assert_eq!(m.weight(), size::weight(m.root()));
        assert_eq!(m.get("/a"), None, "a stored null reads as absent");
        // Replacing a null is an ordinary write; so is taking it back.
        let undo = m.undo_for("/a").unwrap();
        let change = m.replace_within("/a", json!("x"), max).unwrap();
        assert_eq!(change.previous, None);
        m.undo(undo, change.previous);
        assert_eq!(m.root()["a"], Value::Null);
        let undo = m.undo_for("/fresh").unwrap();
        let change = m.replace_within("/fresh", Value::Null, max).unwrap();
        m.undo(undo, change.previous);
        assert!(m.root().get("fresh").is_none(), "undo removes a key the write created");
        assert_eq!(m.weight(), size::weight(m.root()));
        // The root stays an object, and the bounds hold for null as for any value.
        let before = m.root().clone();
        let err = m.replace_within("", Value::Null, max).unwrap_err();
        assert!(matches!(err, DataModelError::InvalidPath { ref path, .. } if path.is_empty()), "{err}");
        assert!(matches!(
            m.replace_within("/items/99999999", Value::Null, max),
            Err(DataModelError::IndexTooLarge { .. })
        ));
        assert!(matches!(m.replace_within("/a~2", Value::Null, max), Err(DataModelError::Pointer(_))));
        assert_eq!(m.root()["items"], before["items"]);
        // `set` keeps deleting on null.
        m.set("/a", Some(Value::Null)).unwrap();
        assert!(m.root().get("a").is_none());
    }

    #[test]
    fn delete_array_element_keeps_length() {
        let mut m = with(json!({"items": [1, 2, 3]}));
        assert_eq!(m.set("/items/1", None).unwrap().path, changed("/items/1"));
        assert_eq!(m.get("/items"), Some(&json!([1, null, 3])));
        assert_eq!(m.get("/items/1"), None);
        assert_eq!(m.get("/items/2"), Some(&json!(3)), "siblings keep their index");
        m.set("/items/2", Some(Value::Null)).unwrap();
        assert_eq!(m.get("/items"), Some(&json!([1, null, null])));
    }

    #[test]
    fn delete_absent_is_a_no_op() {
        let doc = json!({"a": {"b": 1}, "items": [1], "n": null});
        let mut m = with(doc.clone());
        for path in ["/zz", "/zz/y/x", "/a/c", "/a/c/d", "/items/5", "/items/5/x", "/items/-", "/items/-/x", "/n/x"] {
            assert!(m.set(path, None).is_ok(), "{path}");
            assert_eq!(m.root(), &doc, "{path}");
        }
        assert!(m.set("/items/99999999999999999999999", None).is_ok());
        assert_eq!(m.root(), &doc);
    }

    #[test]
    fn delete_with_a_bad_path_is_an_error() {
        let doc = json!({"s": "str", "items": [1]});
        let mut m = with(doc.clone());
        for path in ["/s/x", "/s/x/y", "/items/name", "/items/01", "/items/x/y"] {
            let err = m.set(path, None).unwrap_err();
            assert!(matches!(err, DataModelError::InvalidPath { .. }), "{path}: {err}");
            assert_eq!(m.root(), &doc);
        }
    }

    #[test]
    fn vivifies_objects_and_arrays() {
        let mut m = model();
        m.set("/a/b/c", Some(json!(1))).unwrap();
        assert_eq!(m.root(), &json!({"a": {"b": {"c": 1}}}));
        m.set("/list/0/name", Some(json!("x"))).unwrap();
        assert_eq!(m.get("/list"), Some(&json!([{"name": "x"}])));
        assert_eq!(m.set("/queue/-", Some(json!("first"))).unwrap().path, changed("/queue/0"));
        assert_eq!(m.get("/queue"), Some(&json!(["first"])));
        m.set("/pad/2", Some(json!(true))).unwrap();
        assert_eq!(m.get("/pad"), Some(&json!([null, null, true])));
        // A leading-zero token is not an index: the parent becomes an object.
        m.set("/obj/01", Some(json!(1))).unwrap();
        assert_eq!(m.get("/obj"), Some(&json!({"01": 1})));
        // The root is always an object, so a numeric first token is a key.
        m.set("/0", Some(json!(0))).unwrap();
        assert_eq!(m.root()["0"], json!(0));
    }

    #[test]
    fn writes_into_existing_arrays() {
        let mut m = with(json!({"items": ["a", "b"]}));
        m.set("/items/1", Some(json!("B"))).unwrap();
        assert_eq!(m.set("/items/-", Some(json!("c"))).unwrap().path, changed("/items/2"));
        assert_eq!(m.set("/items/5", Some(json!("f"))).unwrap().path, changed("/items/5"));
        assert_eq!(m.get("/items"), Some(&json!(["a", "B", "c", null, null, "f"])));
    }

    #[test]
    fn null_slots_and_values_are_vivified() {
        let mut m = with(json!({"items": [1, 2], "n": null}));
        m.set("/items/0", None).unwrap();
        m.set("/items/0/name", Some(json!("x"))).unwrap();
        assert_eq!(m.get("/items/0"), Some(&json!({"name": "x"})));
        m.set("/n/0", Some(json!("y"))).unwrap();
        assert_eq!(m.get("/n"), Some(&json!(["y"])));
    }

    #[test]
    fn huge_index_is_refused() {
        let mut m = with(json!({"items": [1]}));
        let before = m.root().clone();
        for path in ["/items/99999999", "/fresh/99999999", "/fresh/99999999/x", "/items/-/x/99999999"] {
            let err = m.set(path, Some(json!(1))).unwrap_err();
            assert!(
                matches!(err, DataModelError::IndexTooLarge { index: 99_999_999, limit: 100_000, .. }),
                "{path}: {err}"
            );
            assert_eq!(m.root(), &before, "{path}");
        }
        let err = m.set("/items/99999999999999999999999", Some(json!(1))).unwrap_err();
        assert!(matches!(err, DataModelError::IndexTooLarge { index: usize::MAX, .. }), "{err}");
        let err = m.set("/fresh/99999999999999999999999", Some(json!(1))).unwrap_err();
        assert!(matches!(err, DataModelError::IndexTooLarge { .. }), "{err}");
        assert_eq!(m.root(), &before);
        assert!(m.set("/items/100000", Some(json!(1))).is_ok(), "the limit itself is allowed");
    }

    #[test]
    fn append_past_the_limit_is_refused() {
        let mut m = small(2, 64);
        m.set("/q/-", Some(json!(0))).unwrap();
        m.set("/q/-", Some(json!(1))).unwrap();
        m.set("/q/-", Some(json!(2))).unwrap();
        let err = m.set("/q/-", Some(json!(3))).unwrap_err();
        assert_eq!(err, DataModelError::IndexTooLarge { path: "/q/-".into(), index: 3, limit: 2 });
        assert_eq!(m.get("/q"), Some(&json!([0, 1, 2])));
    }

    #[test]
    fn existing_elements_above_the_limit_can_be_updated() {
        let mut m = small(1, 64);
        m.set("", Some(json!({"q": [0, 1, 2, 3]}))).unwrap();
        m.set("/q/3", Some(json!("x"))).unwrap();
        assert_eq!(m.get("/q/3"), Some(&json!("x")));
        assert!(matches!(m.set("/q/4", Some(json!(1))), Err(DataModelError::IndexTooLarge { index: 4, .. })));
    }

    #[test]
    fn non_numeric_token_on_an_array_is_invalid() {
        let mut m = with(json!({"items": [1, 2]}));
        let before = m.root().clone();
        for path in ["/items/name", "/items/01", "/items/+1", "/items/-1", "/items/", "/items//"] {
            let result = m.set(path, Some(json!(1)));
            if path == "/items/" {
                // The array itself (one trailing slash stripped): replacing it is fine.
                assert!(result.is_ok());
                m.set("/items", Some(json!([1, 2]))).unwrap();
                continue;
            }
            let err = result.unwrap_err();
            assert!(matches!(err, DataModelError::InvalidPath { .. }), "{path}: {err}");
            assert_eq!(m.root(), &before, "{path}");
        }
    }

    #[test]
    fn writing_through_a_scalar_is_invalid() {
        let mut m = with(json!({"s": "text", "n": 1, "b": false}));
        let before = m.root().clone();
        for path in ["/s/b", "/n/0", "/b/x/y", "/s/-"] {
            let err = m.set(path, Some(json!(1))).unwrap_err();
            match &err {
                DataModelError::InvalidPath { reason, .. } => {
                    assert!(reason.contains("cannot write below"), "{reason}")
                }
                other => panic!("{path}: {other}"),
            }
            assert_eq!(m.root(), &before, "{path}");
        }
    }

    #[test]
    fn depth_limit_counts_path_and_value() {
        let mut m = small(100, 3);
        assert!(m.set("/a/b/c", Some(json!(1))).is_ok(), "3 tokens + scalar");
        assert!(m.set("/a/b", Some(json!({"c": 1}))).is_ok(), "2 tokens + 1 level");
        assert!(m.set("", Some(json!({"a": {"b": {"c": 1}}}))).is_ok(), "3 levels at the root");
        let before = m.root().clone();
        let cases = [
            ("/a/b/c/d", json!(1)),
            ("/a/b/c", json!({})),
            ("/a/b", json!([[1]])),
            ("", json!({"a": {"b": {"c": {}}}})),
        ];
        for (path, value) in cases {
            let err = m.set(path, Some(value)).unwrap_err();
            assert!(matches!(err, DataModelError::TooDeep { limit: 3, .. }), "{path}: {err}");
            assert_eq!(m.root(), &before, "{path}");
        }
        let err = m.set("/x/y/z/w/v", Some(json!(1))).unwrap_err();
        assert_eq!(err, DataModelError::TooDeep { path: "/x/y/z/w/v".into(), limit: 3 });
    }

    #[test]
    fn very_deep_value_is_refused_without_recursion() {
        let mut deep = json!(0);
        for _ in 0..500 {
            deep = json!([deep]);
        }
        let mut m = model();
        assert!(matches!(m.set("/deep", Some(deep)), Err(DataModelError::TooDeep { .. })));
        assert_eq!(m.root(), &json!({}));
    }

    #[test]
    fn failed_write_after_missing_parents_creates_nothing() {
        let mut m = with(json!({"a": 1}));
        assert!(m.set("/new/deeper/99999999", Some(json!(1))).is_err());
        assert!(m.set("/new/list/0/x~", Some(json!(1))).is_err());
        assert_eq!(m.root(), &json!({"a": 1}));
    }

    #[test]
    fn pointer_errors_surface() {
        let mut m = model();
        assert!(matches!(m.set("/a~2", Some(json!(1))), Err(DataModelError::Pointer(_))));
        assert!(matches!(m.set("relative", Some(json!(1))), Err(DataModelError::Pointer(_))));
        assert!(matches!(m.set("/a~", None), Err(DataModelError::Pointer(_))));
        assert_eq!(m.root(), &json!({}));
    }

    #[test]
    fn leaf_write_in_a_large_array() {
        let items: Vec<Value> = (0..10_000).map(|i| json!({"id": i, "done": false})).collect();
        let mut m = with(json!({ "items": items }));
        for i in (0..10_000).step_by(97) {
            let path = format!("/items/{i}/done");
            assert_eq!(m.set(&path, Some(json!(true))).unwrap().path, changed(&path));
        }
        assert_eq!(m.get("/items/9991/done"), Some(&json!(true)));
        assert_eq!(m.get("/items/9990/done"), Some(&json!(false)));
    }

    #[test]
    fn default_model_does_not_panic() {
        let mut m = DataModel::default();
        assert_eq!(m.get("/a"), None);
        let _ = m.set("/a", Some(json!(1)));
        let _ = m.set("/a", None);
        assert!(m.root().is_object());
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let mut m = with(json!({"a": [1, {"b": "c"}], "s": "x"}));
        let paths = ["", "/", "//", "///", "~", "/~", "/-", "/a/-", "/a/-/-", "/a/1/b/c", "/\u{0}", "/a/1/"];
        for path in paths {
            let _ = m.get(path);
            let _ = m.set(path, Some(json!({"k": [1]})));
            let _ = m.get(path);
            let _ = m.set(path, None);
        }
        assert!(m.root().is_object());
    }

    #[test]
    fn undo_takes_back_replacements_appends_and_created_parents() {
        let mut dm = DataModel::new(&Limits::default());
        dm.set("/items", Some(json!([{"p": 1}, {"p": 2}]))).unwrap();
        let before = dm.root().clone();
        for (path, value) in [
            ("/items/1/p", json!(5)),
            ("/items/-", json!({"p": 3})),
            ("/items/6", json!(1)),
            ("/new/deep/key", json!(true)),
            ("/items/0", json!("scalar")),
            ("", json!({"other": 1})),
        ] {
            let undo = dm.undo_for(path).unwrap();
            let change = dm.set(path, Some(value)).unwrap();
            assert_ne!(dm.root(), &before, "{path} changed nothing");
            dm.undo(undo, change.previous);
            assert_eq!(dm.root(), &before, "undo of {path}");
        }
    }

    /// The running weight (kept by every write, so the budget never walks the whole model)
    /// always equals the weight of what the model holds.
    #[test]
    fn weight_follows_every_write() {
        let mut m = model();
        assert_eq!(m.weight(), size::weight(m.root()));
        let writes = [
            ("/a", Some(json!({"b": [1, 2, {"c": "text"}]}))),
            ("/a/b/1", Some(json!("replaced"))),
            ("/list/5", Some(json!(true))),
            ("/list/-", Some(json!({"k": "v"}))),
            ("/list/2", None),
            ("/list/9", None),
            ("/a/b", None),
            ("/new/deep/path", Some(json!([[]]))),
            ("/n/3/x", Some(json!(1))),
            ("/n/3", Some(json!(null))),
            ("", Some(json!({"fresh": "root", "pad": null}))),
            ("/pad/2", Some(json!("p"))),
            ("/fresh", None),
            ("", None),
        ];
        for (path, value) in writes {
            m.set(path, value).unwrap();
            assert_eq!(m.weight(), size::weight(m.root()), "after writing {path}");
        }
        // A refused write leaves the weight as it was.
        let before = m.weight();
        let mut small = DataModel::new(&Limits { max_data_model_bytes: before + 10, ..Limits::default() });
        small.set("/x", Some(json!("y".repeat(1000)))).unwrap_err();
        assert_eq!(small.weight(), size::weight(small.root()));
        // And an undone write restores it.
        let undo = m.undo_for("/big").unwrap();
        let change = m.set("/big", Some(json!([1, 2, 3]))).unwrap();
        m.undo(undo, change.previous);
        assert_eq!(m.weight(), before);
        assert_eq!(m.weight(), size::weight(m.root()));
    }
}
