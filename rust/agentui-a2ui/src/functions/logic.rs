//! `and(values)`, `or(values)`, `not(value)` over [`operand_truth`]: the suite's truthiness
//! (conformance decision D26: `1` and `"non-empty"` are true, `0`, `""` and `null` false, an
//! object is true), and in v1.0 an operand that is a validation result (`{"valid": false, …}`,
//! what a check function returns) counts as its `valid`.
//!
//! `and`/`or` short-circuit: values after the deciding one are not evaluated (so their paths are
//! not recorded as dependencies of that evaluation; they become dependencies again once an
//! earlier value changes and the call is re-evaluated). `values` is normally a literal array of
//! booleans, bindings and calls, of at least two (D25; fewer is an error, as the catalogs'
//! `minItems` says); it may also be a binding to an array in the data model (items are then plain
//! data, and any length is read: an empty list is `true` for `and` and `false` for `or`).

use serde_json::Value;

use super::template::type_name;
use super::{eval_dynamic, invalid, prepared, PreparedKind};
use crate::dynamic::{Call, Dynamic, Evaluator};
use crate::functions::FunctionError;

pub(super) fn and_or(call: &Call, ev: &mut dyn Evaluator, is_and: bool) -> Result<Value, FunctionError> {
    // `and` stops at the first false, `or` at the first true.
    let decisive = !is_and;
    let results = ev.validation_results();
    let coerce_to_bool = |v: &Value| operand_truth(v, results);
    let too_few = |n: usize| invalid(&call.name, format!("`values` lists {n} operand(s); it takes at least 2"));
    if let Some(PreparedKind::Values(items)) = prepared(call) {
        if items.len() < 2 {
            return Err(too_few(items.len()));
        }
        for item in items {
            if coerce_to_bool(&eval_dynamic(item, ev)) == decisive {
                return Ok(Value::Bool(decisive));
            }
        }
        return Ok(Value::Bool(is_and));
    }
    let Some(arg) = call.arg("values") else {
        return Err(invalid(&call.name, "missing argument `values`"));
    };
    match arg {
        Dynamic::Literal(Value::Array(items)) => {
            if items.len() < 2 {
                return Err(too_few(items.len()));
            }
            for item in items {
                let item = Dynamic::parse(item);
                if coerce_to_bool(&eval_dynamic(&item, ev)) == decisive {
                    return Ok(Value::Bool(decisive));
                }
            }
        }
        other => match &*eval_dynamic(other, ev) {
            Value::Array(items) => {
                if items.iter().any(|v| coerce_to_bool(v) == decisive) {
                    return Ok(Value::Bool(decisive));
                }
            }
            Value::Null => {}
            v => return Err(invalid(&call.name, format!("`values` must be an array, got {}", type_name(v)))),
        },
    }
    Ok(Value::Bool(is_and))
}

pub(super) fn not(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let Some(arg) = call.arg("value") else {
        return Err(invalid(&call.name, "missing argument `value`"));
    };
    let results = ev.validation_results();
    Ok(Value::Bool(!operand_truth(&eval_dynamic(arg, ev), results)))
}

/// Whether a logic operand counts as true. The suite's truthiness (D26), with the one string the
/// spec's coercion table names false kept false (`"false"`, any case), so data that spells a
/// boolean as text reads as it says; with `validation_results` (v1.0) an object with a boolean
/// `valid` is that boolean.
pub fn operand_truth(value: &Value, validation_results: bool) -> bool {
    match value {
        Value::Object(map) if validation_results && map.get("valid").is_some_and(Value::is_boolean) => {
            map["valid"] == Value::Bool(true)
        }
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty() && !s.eq_ignore_ascii_case("false"),
        Value::Null => false,
        Value::Array(_) | Value::Object(_) => true,
    }
}
