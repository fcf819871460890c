//! The basic catalog's 14 functions: checks (`required`, `regex`, `length`, `numeric`, `email`),
//! formatting (`formatString`, `formatNumber`, `formatCurrency`, `formatDate`, `pluralize`),
//! logic (`and`, `or`, `not`) and `openUrl`.
//!
//! Semantics chosen where the spec leaves room (formatting follows the surface's
//! [`Localization`](crate::Localization): locale and time zone, en-US and UTC by default):
//! - Coercion to string follows the spec's "Type Conversion" rules: strings as is, numbers in the
//!   JavaScript `String(n)` form (`1.0` -> `1`, `1e21` -> `1e+21`), booleans `true`/`false`,
//!   null -> `""`, arrays and objects -> compact JSON.
//! - Truthiness follows the A2UI core SDK coercion: booleans as is, numbers are true when non-zero,
//!   strings are true only when equal to `"true"` ignoring ASCII case, everything else is false.
//! - `formatString` templates are parsed once when the template is a literal. A template that
//!   does not parse fails the call (and a literal one is refused when its component arrives, see
//!   [`parse_template`]); a failing nested call fails the whole call.
//! - Nesting of calls at evaluation (calls inside calls, templates evaluating templates) is
//!   bounded at 32 levels; nesting inside one template at [`MAX_TEMPLATE_DEPTH`].
//! - Checks return `false` for bad user data (a non-numeric string for `numeric`) and an error
//!   only for a bad call (a non-integer `min`, an invalid regex).
//! - `and`/`or` short-circuit: later values are not evaluated, so their data paths are not
//!   recorded as dependencies for that evaluation.
//!
//! Details per function live in the private submodules.

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

use serde_json::Value;

use crate::dynamic::{Call, Dynamic, Evaluator};

mod checks;
mod date;
pub mod host;
mod logic;
pub use logic::operand_truth;
mod number;
mod plural;
mod template;
mod url;

pub use host::{FunctionScope, HostFunction, HostFunctions, Implementation};
pub use template::{parse_template, TemplateError, TemplatePart, MAX_TEMPLATE_DEPTH};

#[cfg(test)]
mod tests;

/// Work done once when a call is parsed, reused on every evaluation.
#[derive(Debug, Clone, Default)]
pub enum Prepared {
    #[default]
    None,
    /// Private representation owned by this module (parsed format string, compiled regex...).
    Function(std::sync::Arc<PreparedFunction>),
}

impl PartialEq for Prepared {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Prepared::None, Prepared::None) => true,
            (Prepared::Function(a), Prepared::Function(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Opaque to the rest of the crate.
#[derive(Debug)]
pub struct PreparedFunction {
    kind: PreparedKind,
}

/// What `prepare` could do ahead of time, per function.
#[derive(Debug)]
enum PreparedKind {
    /// `formatString` with a literal template; a parse error is kept so it is reported.
    Template(Result<template::Template, TemplateError>),
    /// `regex` with a literal pattern; a compile error is kept so it is reported, not retried.
    Regex(Result<regex::Regex, String>),
    /// `formatDate` with a literal pattern.
    DatePattern(Result<date::Pattern, String>),
    /// `and`/`or` with a literal array: its items parsed as dynamic values.
    Values(Vec<Dynamic>),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FunctionError {
    #[error("unknown function {0:?}")]
    Unknown(String),
    #[error("{function}: {reason}")]
    InvalidArgs { function: String, reason: String },
    /// `openUrl` (and any other side effect) is refused at bind time.
    #[error("{0} may only run from a user action")]
    NotAtBindTime(String),
    /// The app's implementation failed.
    #[error("{function}: {reason}")]
    Host { function: String, reason: String },
}

/// Which URL schemes media URLs and `openUrl` may use. Default: http and https. `openUrl` never
/// goes beyond those two ([`UrlPolicy::check_open_url`]); other schemes serve media only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlPolicy {
    pub allowed_schemes: Vec<String>,
}

impl Default for UrlPolicy {
    fn default() -> Self {
        UrlPolicy { allowed_schemes: vec!["http".into(), "https".into()] }
    }
}

impl UrlPolicy {
    /// `Ok(url)` when the URL is absolute and its scheme is allowed (case-insensitive).
    pub fn check<'a>(&self, url: &'a str) -> Result<&'a str, String> {
        url::check(&self.allowed_schemes, url)
    }

    /// [`UrlPolicy::check`] for `openUrl`, which also requires `http` or `https` whatever else
    /// the policy allows: the basic catalog's implementation guide makes that allowlist
    /// mandatory, so an app scheme allowed for media cannot open `mailto:` or another app.
    pub fn check_open_url<'a>(&self, url: &'a str) -> Result<&'a str, String> {
        url::check_open_url(&self.allowed_schemes, url)
    }
}

/// Deepest nesting of evaluations (calls inside calls, templates inside templates).
const MAX_NESTING: u32 = 32;

thread_local! {
    static EVAL_DEPTH: Cell<u32> = const { Cell::new(0) };
    static PREPARE_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Counts one level of nesting on a thread-local counter for as long as it lives.
struct DepthGuard(&'static std::thread::LocalKey<Cell<u32>>);

impl DepthGuard {
    fn enter(key: &'static std::thread::LocalKey<Cell<u32>>) -> Option<DepthGuard> {
        let depth = key.with(|d| {
            let next = d.get() + 1;
            d.set(next);
            next
        });
        let guard = DepthGuard(key);
        (depth <= MAX_NESTING).then_some(guard)
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        self.0.with(|d| d.set(d.get() - 1));
    }
}

/// Parses what can be parsed once (format strings, literal regex patterns).
pub fn prepare(name: &str, args: &[(String, Dynamic)]) -> Prepared {
    let Some(_guard) = DepthGuard::enter(&PREPARE_DEPTH) else {
        // Too deep: evaluation parses lazily (and is bounded by its own depth guard).
        return Prepared::None;
    };
    let literal = |arg: &str| match find_arg(args, arg) {
        Some(Dynamic::Literal(v)) => Some(v),
        _ => None,
    };
    let kind = match name {
        "formatString" => match literal("value") {
            Some(Value::String(s)) => PreparedKind::Template(template::Template::parse(s)),
            _ => return Prepared::None,
        },
        "regex" => match literal("pattern") {
            Some(Value::String(p)) => PreparedKind::Regex(checks::compile_regex(p)),
            _ => return Prepared::None,
        },
        "formatDate" => match literal("format") {
            Some(Value::String(p)) => PreparedKind::DatePattern(date::Pattern::parse(p)),
            _ => return Prepared::None,
        },
        "and" | "or" => match literal("values") {
            Some(Value::Array(items)) => PreparedKind::Values(items.iter().map(Dynamic::parse).collect()),
            _ => return Prepared::None,
        },
        _ => return Prepared::None,
    };
    Prepared::Function(Arc::new(PreparedFunction { kind }))
}

/// Evaluates a call at bind time. Arguments are evaluated through `ev` so that every data read
/// is recorded as a dependency.
pub fn evaluate(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let Some(_guard) = DepthGuard::enter(&EVAL_DEPTH) else {
        return Err(invalid(&call.name, format!("calls nested deeper than {MAX_NESTING} levels")));
    };
    match ev.implementation(call.catalog_id.as_deref(), &call.name) {
        Implementation::BuiltIn => {}
        Implementation::Host(function) => return run_host(call, function.as_ref(), ev),
    }
    match call.name.as_str() {
        "required" => checks::required(call, ev),
        "regex" => checks::regex(call, ev),
        "length" => checks::length(call, ev),
        "numeric" => checks::numeric(call, ev),
        "email" => checks::email(call, ev),
        "formatString" => template::format_string(call, ev),
        "formatNumber" => number::format_number(call, ev),
        "formatCurrency" => number::format_currency(call, ev),
        "formatDate" => date::format_date(call, ev),
        "pluralize" => plural::pluralize(call, ev),
        "and" => logic::and_or(call, ev, true),
        "or" => logic::and_or(call, ev, false),
        "not" => logic::not(call, ev),
        "openUrl" => Err(FunctionError::NotAtBindTime("openUrl".into())),
        INDEX_FUNCTION => index(call, ev),
        other => Err(FunctionError::Unknown(other.to_owned())),
    }
}

/// An app's function on its arguments, each evaluated through `ev` (so its reads are recorded).
fn run_host(call: &Call, function: &dyn HostFunction, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let args: serde_json::Map<String, Value> =
        call.args.iter().map(|(name, arg)| (name.clone(), ev.eval(arg))).collect();
    function.call(&args).map_err(|reason| FunctionError::Host { function: call.name.clone(), reason })
}

/// The v1.0 system function of list templates.
pub const INDEX_FUNCTION: &str = "@index";

/// `@index`: the current template item's 0-based position plus `offset`; outside a template it
/// has no value.
fn index(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let Some(position) = ev.template_index() else {
        return Err(invalid(INDEX_FUNCTION, "called outside a list template"));
    };
    let offset = match call.arg("offset").map(|o| ev.eval(o)) {
        None | Some(Value::Null) => 0.0,
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(other) => return Err(invalid(INDEX_FUNCTION, format!("offset must be a number, got {other}"))),
    };
    Ok(serde_json::Number::from_f64(position as f64 + offset).map_or(Value::Null, |n| {
        // Whole results stay integers (`3`, not `3.0`), as a JSON writer would print them.
        n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map_or(Value::Number(n), |f| Value::from(f as i64))
    }))
}

/// The coercion of any value to a string the spec defines for display and interpolation.
pub fn coerce_to_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => {
            let mut out = String::new();
            push_coerced(&mut out, other);
            out
        }
    }
}

/// Truthiness of a check's condition (logic operands: [`operand_truth`]). With `validation_results` (v1.0,
/// where check functions return a validation result) an object with a boolean `valid` is that
/// boolean; otherwise, and before v1.0, [`coerce_to_bool`].
pub fn is_true(value: &Value, validation_results: bool) -> bool {
    match value {
        Value::Object(map) if validation_results => match map.get("valid") {
            Some(Value::Bool(valid)) => *valid,
            _ => coerce_to_bool(value),
        },
        _ => coerce_to_bool(value),
    }
}

/// The spec's coercion of a value to a boolean (core SDK "Type Coercion Standards"): a check's
/// condition and a boolean property read through it.
pub fn coerce_to_bool(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => s.eq_ignore_ascii_case("true"),
        Value::Null | Value::Array(_) | Value::Object(_) => false,
    }
}

/// Appends `coerce_to_string(value)` to `out` without an intermediate allocation for scalars.
fn push_coerced(out: &mut String, value: &Value) {
    match value {
        Value::Null => {}
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number::push_js_number(out, n),
        Value::String(s) => out.push_str(s),
        // Serializing a `Value` cannot fail.
        Value::Array(_) | Value::Object(_) => out.push_str(&serde_json::to_string(value).unwrap_or_default()),
    }
}

// ---- helpers shared by the submodules ----

fn find_arg<'a>(args: &'a [(String, Dynamic)], name: &str) -> Option<&'a Dynamic> {
    args.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

fn prepared(call: &Call) -> Option<&PreparedKind> {
    match &call.prepared {
        Prepared::Function(p) => Some(&p.kind),
        Prepared::None => None,
    }
}

fn invalid(function: &str, reason: impl Into<String>) -> FunctionError {
    FunctionError::InvalidArgs { function: function.to_owned(), reason: reason.into() }
}

/// Evaluates a dynamic value; literals are borrowed, everything else goes through `ev` so the
/// read is recorded.
fn eval_dynamic<'a>(value: &'a Dynamic, ev: &mut dyn Evaluator) -> Cow<'a, Value> {
    match value {
        Dynamic::Literal(v) => Cow::Borrowed(v),
        other => Cow::Owned(ev.eval(other)),
    }
}

/// Evaluates an optional argument; `None` when absent.
fn opt_arg<'a>(call: &'a Call, name: &str, ev: &mut dyn Evaluator) -> Option<Cow<'a, Value>> {
    call.arg(name).map(|d| eval_dynamic(d, ev))
}

/// Evaluates a required argument; absent is an error (a missing value in the data is `null`).
fn req_arg<'a>(call: &'a Call, name: &str, ev: &mut dyn Evaluator) -> Result<Cow<'a, Value>, FunctionError> {
    opt_arg(call, name, ev).ok_or_else(|| invalid(&call.name, format!("missing argument `{name}`")))
}

/// A JSON number, or a string holding one (text fields write strings). Non-finite is `None`.
fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let t = s.trim();
            // Rust also parses "inf" and "NaN"; only plain decimal notation is a number here.
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E')) {
                return None;
            }
            t.parse::<f64>().ok().filter(|f| f.is_finite())
        }
        _ => None,
    }
}

/// Parameter names in declaration order, used to name positional arguments in templates.
fn positional_params(function: &str) -> &'static [&'static str] {
    match function {
        "required" | "email" | "not" | "formatString" => &["value"],
        "regex" => &["value", "pattern"],
        "length" | "numeric" => &["value", "min", "max"],
        "formatNumber" => &["value", "decimals", "grouping"],
        "formatCurrency" => &["value", "currency", "decimals", "grouping"],
        "formatDate" => &["value", "format"],
        "pluralize" => &["value", "zero", "one", "two", "few", "many", "other"],
        "and" | "or" => &["values"],
        "openUrl" => &["url"],
        _ => &[],
    }
}
