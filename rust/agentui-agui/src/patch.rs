//! RFC 6902 JSON Patch application, atomic: either every operation applies or the target is
//! left exactly as it was.

use serde_json::Value;

use crate::event::{PatchOp, PatchOperation};

mod rollback;

/// Why a well-formed patch did not apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("operation {index} ({op:?} {path}): {reason}")]
pub struct PatchError {
    pub index: usize,
    pub op: PatchOp,
    pub path: String,
    pub reason: String,
}

/// Apply `ops` to `target` atomically.
pub fn apply_patch(target: &mut Value, ops: &[PatchOperation]) -> Result<(), PatchError> {
    if ops.is_empty() {
        return Ok(());
    }
    // Save what the patch may touch so a failing operation leaves no partial result behind.
    let saved = rollback::Rollback::save(target, ops);
    for (index, op) in ops.iter().enumerate() {
        if let Err(reason) = apply_one(target, op) {
            saved.restore(target);
            return Err(PatchError { index, op: op.op, path: op.path.clone(), reason });
        }
    }
    Ok(())
}

fn apply_one(doc: &mut Value, op: &PatchOperation) -> Result<(), String> {
    let value = || op.value.clone().ok_or_else(|| "missing 'value'".to_owned());
    let from = || op.from.as_deref().ok_or_else(|| "missing 'from'".to_owned());
    match op.op {
        PatchOp::Add => add(doc, &op.path, value()?),
        PatchOp::Remove => remove(doc, &op.path).map(|_| ()),
        PatchOp::Replace => {
            let slot = get_mut(doc, &op.path)?;
            *slot = value()?;
            Ok(())
        }
        PatchOp::Move => {
            let from = from()?;
            if from == op.path {
                return Ok(());
            }
            if op.path.starts_with(from) && op.path.as_bytes().get(from.len()) == Some(&b'/') {
                return Err(format!("cannot move {from} into its own child"));
            }
            let moved = remove(doc, from)?;
            add(doc, &op.path, moved)
        }
        PatchOp::Copy => {
            let copied = get_mut(doc, from()?)?.clone();
            add(doc, &op.path, copied)
        }
        PatchOp::Test => {
            let actual = get_mut(doc, &op.path)?;
            if *actual == value()? {
                Ok(())
            } else {
                Err("test failed: value differs".to_owned())
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

fn get_mut<'a>(doc: &'a mut Value, pointer: &str) -> Result<&'a mut Value, String> {
    let mut current = doc;
    for token in tokens(pointer)? {
        current = match current {
            Value::Object(map) => map.get_mut(&token).ok_or_else(|| format!("path {pointer} does not exist"))?,
            Value::Array(items) => {
                let i = array_index(&token, items.len(), false)?;
                &mut items[i]
            }
            _ => return Err(format!("path {pointer} does not exist")),
        };
    }
    Ok(current)
}

/// Split a pointer into its parent container and last token.
fn parent_of<'a>(doc: &'a mut Value, pointer: &str) -> Result<(&'a mut Value, String), String> {
    let mut toks = tokens(pointer)?;
    let last = toks.pop().ok_or_else(|| "the document root has no parent".to_owned())?;
    let mut current = doc;
    for token in toks {
        current = match current {
            Value::Object(map) => map.get_mut(&token).ok_or_else(|| format!("parent of {pointer} does not exist"))?,
            Value::Array(items) => {
                let i = array_index(&token, items.len(), false)?;
                &mut items[i]
            }
            _ => return Err(format!("parent of {pointer} does not exist")),
        };
    }
    Ok((current, last))
}

fn add(doc: &mut Value, pointer: &str, value: Value) -> Result<(), String> {
    if pointer.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (parent, last) = parent_of(doc, pointer)?;
    match parent {
        Value::Object(map) => {
            map.insert(last, value);
            Ok(())
        }
        Value::Array(items) => {
            let i = array_index(&last, items.len(), true)?;
            items.insert(i, value);
            Ok(())
        }
        _ => Err(format!("parent of {pointer} is not a container")),
    }
}

fn remove(doc: &mut Value, pointer: &str) -> Result<Value, String> {
    if pointer.is_empty() {
        return Err("cannot remove the document root".to_owned());
    }
    let (parent, last) = parent_of(doc, pointer)?;
    match parent {
        Value::Object(map) => map.shift_remove(&last).ok_or_else(|| format!("path {pointer} does not exist")),
        Value::Array(items) => {
            let i = array_index(&last, items.len(), false)?;
            Ok(items.remove(i))
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
}
