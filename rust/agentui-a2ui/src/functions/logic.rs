//! `and(values)`, `or(values)`, `not(value)` over `coerce_to_bool`; in v1.0 an operand that is a
//! validation result (`{"valid": false, …}`, what a check function returns) counts as its
//! `valid`.
//!
//! `and`/`or` short-circuit: values after the deciding one are not evaluated (so their paths are
//! not recorded as dependencies of that evaluation; they become dependencies again once an
//! earlier value changes and the call is re-evaluated). An empty list is `true` for `and` and
//! `false` for `or`. `values` is normally a literal array of booleans, bindings and calls; it may
//! also be a binding to an array in the data model (items are then plain data).

use serde_json::Value;

use super::template::type_name;
use super::{eval_dynamic, invalid, is_true, prepared, PreparedKind};
use crate::dynamic::{Call, Dynamic, Evaluator};
use crate::functions::FunctionError;

pub(super) fn and_or(call: &Call, ev: &mut dyn Evaluator, is_and: bool) -> Result<Value, FunctionError> {
    // `and` stops at the first false, `or` at the first true.
    let decisive = !is_and;
    let results = ev.validation_results();
    let coerce_to_bool = |v: &Value| is_true(v, results);
    if let Some(PreparedKind::Values(items)) = prepared(call) {
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
    Ok(Value::Bool(!is_true(&eval_dynamic(arg, ev), results)))
}
