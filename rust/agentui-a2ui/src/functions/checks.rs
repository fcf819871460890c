//! Checks: `required`, `regex`, `length`, `numeric`, `email`. They return `Value::Bool`; bad user
//! data is `false`, a bad call (wrong argument type, invalid pattern) is an error.

use std::borrow::Cow;

use regex::{Regex, RegexBuilder};
use serde_json::Value;

use super::template::type_name;
use super::{as_number, coerce_to_string, invalid, opt_arg, prepared, req_arg, PreparedKind};
use crate::dynamic::{Call, Evaluator};
use crate::functions::FunctionError;

/// Largest compiled regex (and lazy DFA cache) an agent pattern may make us build.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// Deepest nesting of groups and repetitions in a pattern.
const REGEX_NEST_LIMIT: u32 = 64;

/// `required(value)`: false for null, `""` and `[]`; true for anything else, including
/// whitespace-only strings, `false`, `0` and `{}` (the spec's "not null, undefined, empty string
/// or empty array").
pub(super) fn required(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let value = req_arg(call, "value", ev)?;
    let present = match &*value {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => true,
    };
    Ok(Value::Bool(present))
}

/// Compiles an agent pattern with size limits; the error is one line.
pub(super) fn compile_regex(pattern: &str) -> Result<Regex, String> {
    RegexBuilder::new(pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .nest_limit(REGEX_NEST_LIMIT)
        .build()
        .map_err(|e| {
            let message = e.to_string();
            let last = message.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
            format!("invalid regex pattern: {last}")
        })
}

/// `regex(value, pattern)`: true when the pattern matches somewhere in the value (search, like
/// JavaScript's `RegExp.test`; anchor with `^...$` for a full match). The value is coerced to a
/// string (null is `""`). Syntax is the `regex` crate's: no look-around or backreferences.
pub(super) fn regex(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let local;
    let compiled = match prepared(call) {
        Some(PreparedKind::Regex(r)) => r.as_ref(),
        _ => {
            let pattern = req_arg(call, "pattern", ev)?;
            let Value::String(p) = &*pattern else {
                return Err(invalid(&call.name, format!("`pattern` must be a string, got {}", type_name(&pattern))));
            };
            local = compile_regex(p);
            local.as_ref()
        }
    };
    let re = compiled.map_err(|e| invalid(&call.name, e.clone()))?;
    let value = req_arg(call, "value", ev)?;
    let matched = match &*value {
        Value::String(s) => re.is_match(s),
        other => re.is_match(&coerce_to_string(other)),
    };
    Ok(Value::Bool(matched))
}

/// An optional bound: absent or null is `None`.
fn bound(call: &Call, name: &str, ev: &mut dyn Evaluator, integer: bool) -> Result<Option<f64>, FunctionError> {
    let Some(v) = opt_arg(call, name, ev) else { return Ok(None) };
    let n = match &*v {
        Value::Null => return Ok(None),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        other => return Err(invalid(&call.name, format!("`{name}` must be a number, got {}", type_name(other)))),
    };
    if integer && !(n >= 0.0 && n.fract() == 0.0) {
        return Err(invalid(&call.name, format!("`{name}` must be a non-negative integer")));
    }
    Ok(Some(n))
}

fn within(n: f64, min: Option<f64>, max: Option<f64>) -> bool {
    min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
}

/// `length(value, min?, max?)`: string length in Unicode scalar values (chars), or array length.
/// Null is length 0; numbers and booleans are measured as their string form; objects are an
/// error.
pub(super) fn length(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let value = req_arg(call, "value", ev)?;
    let len = match &*value {
        Value::Null => 0,
        Value::String(s) => s.chars().count(),
        Value::Array(a) => a.len(),
        v @ (Value::Number(_) | Value::Bool(_)) => coerce_to_string(v).chars().count(),
        Value::Object(_) => return Err(invalid(&call.name, "`value` must be a string or an array, got an object")),
    };
    let min = bound(call, "min", ev, true)?;
    let max = bound(call, "max", ev, true)?;
    Ok(Value::Bool(within(len as f64, min, max)))
}

/// `numeric(value, min?, max?)`: true when the value is a number, or a string holding one in
/// plain decimal notation, within the inclusive bounds. Null, booleans and non-numeric strings
/// are false.
pub(super) fn numeric(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let value: Cow<'_, Value> = req_arg(call, "value", ev)?;
    let n = as_number(&value);
    let min = bound(call, "min", ev, false)?;
    let max = bound(call, "max", ev, false)?;
    Ok(Value::Bool(n.is_some_and(|n| within(n, min, max))))
}

/// `email(value)`: a pragmatic, linear-time shape check: `local@domain.tld` with one `@`, no
/// whitespace or control characters, at most 254 characters; the local part (up to 64 bytes) of
/// letters, digits and ``!#$%&'*+/=?^_`{|}~.-`` with no leading, trailing or doubled dot; a domain
/// of at least two dot-separated labels of letters, digits and inner hyphens (Unicode letters
/// allowed), each up to 63 bytes, the last one all letters (2 or more) or an `xn--` label. Quoted
/// local parts and IP-literal domains are not accepted. Non-strings are false.
pub(super) fn email(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let value = req_arg(call, "value", ev)?;
    let valid = matches!(&*value, Value::String(s) if is_email(s));
    // v1.0: a failure says why (the conformance suite's code and wording). The other checks
    // answer a boolean, which v1.0 reads as a result carrying the rule's own message.
    if ev.validation_results() && !valid {
        return Ok(serde_json::json!({"valid": false, "code": INVALID_EMAIL_CODE, "message": INVALID_EMAIL_MESSAGE}));
    }
    Ok(Value::Bool(valid))
}

/// v1.0 `email` failure: its code and message.
const INVALID_EMAIL_CODE: &str = "INVALID_EMAIL";
const INVALID_EMAIL_MESSAGE: &str = "Please enter a valid email address (e.g. user@example.com).";

pub(super) fn is_email(s: &str) -> bool {
    if s.chars().count() > 254 {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else { return false };
    if domain.contains('@') || local.is_empty() || local.len() > 64 {
        return false;
    }
    let local_ok = local.chars().all(|c| c.is_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c))
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..");
    if !local_ok {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    let labels_ok = labels.iter().all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    });
    let tld = labels[labels.len() - 1];
    let tld_ok = (tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic))
        || (tld.len() > 4 && tld.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("xn--")));
    labels_ok && tld_ok
}
