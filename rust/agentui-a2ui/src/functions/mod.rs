//! The basic catalog's 14 functions: checks (`required`, `regex`, `length`, `numeric`, `email`),
//! formatting (`formatString`, `formatNumber`, `formatCurrency`, `formatDate`, `pluralize`),
//! logic (`and`, `or`, `not`) and `openUrl`.
//!
//! OWNER: helper "functions". Interface below is fixed; bodies (and private submodules) are to
//! be written.

use serde_json::Value;

use crate::dynamic::{Call, Dynamic, Evaluator};

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
    _private: (),
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
}

/// Which URL schemes `openUrl` (and media URLs) may use. Default: http and https.
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
        let _ = url;
        todo!()
    }
}

/// Parses what can be parsed once (format strings, literal regex patterns).
pub fn prepare(name: &str, args: &[(String, Dynamic)]) -> Prepared {
    let _ = (name, args);
    Prepared::None
}

/// True when the function reads the data model by itself (beyond its arguments), e.g.
/// `formatString` with `${/path}` interpolations.
pub fn reads_data(call: &Call) -> bool {
    let _ = call;
    todo!()
}

/// Evaluates a call at bind time. Arguments are evaluated through `ev` so that every data read
/// is recorded as a dependency.
pub fn evaluate(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let _ = (call, ev);
    todo!()
}

/// The coercion of any value to a string the spec defines for display and interpolation.
pub fn coerce_to_string(value: &Value) -> String {
    let _ = value;
    todo!()
}

/// Truthiness used by checks and logic functions.
pub fn coerce_to_bool(value: &Value) -> bool {
    let _ = value;
    todo!()
}
