//! `pluralize(value, zero?, one?, two?, few?, many?, other)`, English CLDR rules: `one` for a
//! count of exactly 1 (or -1), `other` otherwise. As an extension English lacks, an explicit
//! `zero` is used for a count of 0. A missing category falls back to `other`; a null count
//! (data not there yet) picks `other`. Only the chosen string is evaluated.

use serde_json::Value;

use super::template::type_name;
use super::{as_number, eval_dynamic, invalid, push_coerced, req_arg};
use crate::dynamic::{Call, Evaluator};
use crate::functions::FunctionError;

pub(super) fn pluralize(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let Some(other) = call.arg("other") else {
        return Err(invalid(&call.name, "missing argument `other`"));
    };
    let value = req_arg(call, "value", ev)?;
    let count = match &*value {
        Value::Null => None,
        v @ (Value::Number(_) | Value::String(_)) => {
            Some(as_number(v).ok_or_else(|| invalid(&call.name, "`value` is not a number"))?)
        }
        v => return Err(invalid(&call.name, format!("`value` must be a number, got {}", type_name(v)))),
    };
    let chosen = match count {
        Some(0.0) => call.arg("zero"),
        Some(n) if n.abs() == 1.0 => call.arg("one"),
        _ => None,
    }
    .unwrap_or(other);
    let mut out = String::new();
    push_coerced(&mut out, &eval_dynamic(chosen, ev));
    Ok(Value::String(out))
}
