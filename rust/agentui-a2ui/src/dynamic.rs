//! Dynamic values: a component property is a literal, a data binding `{path}`, or a function
//! call `{call, args, returnType}`. Parsed once per component definition so that resolving a
//! node (possibly one of 10,000 template instances) never re-parses JSON or format strings.

use serde_json::Value;

use crate::functions::{self, Prepared};
use crate::locale::Localization;

/// A parsed dynamic value.
#[derive(Debug, Clone, PartialEq)]
pub enum Dynamic {
    Literal(Value),
    /// A data binding; the path as the agent wrote it (absolute, or relative to the template item).
    Path(String),
    Call(Box<Call>),
}

/// A parsed function call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub name: String,
    /// Arguments in the order the agent wrote them.
    pub args: Vec<(String, Dynamic)>,
    pub return_type: Option<String>,
    /// v1.0: the catalog the call names when it is not the surface's default (the group has
    /// written its canonical id, or taken out the default's); `None`: the surface's default.
    pub catalog_id: Option<String>,
    /// Work done once at parse time (a parsed format string, a compiled regex...).
    pub prepared: Prepared,
}

impl Call {
    pub fn arg(&self, name: &str) -> Option<&Dynamic> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// What function evaluation needs from the surface: data reads (recorded as dependencies) and
/// evaluation of nested dynamic values.
pub trait Evaluator {
    /// Reads the data model at a path as written by the agent (absolute or relative to the
    /// current template item). Missing values read as `Value::Null`.
    fn read_path(&mut self, path: &str) -> Value;

    /// Evaluates a nested dynamic value in the same scope.
    fn eval(&mut self, value: &Dynamic) -> Value;

    /// The locale and time zone the formatting functions follow.
    fn localization(&self) -> &Localization;

    /// The position of the current item in the list a template repeats over (`@index`); `None`
    /// outside a template.
    fn template_index(&self) -> Option<usize> {
        None
    }

    /// v1.0: check functions return a validation result (`{valid, code, message}`) where that
    /// says more than a boolean, and logic functions read one as its `valid`.
    fn validation_results(&self) -> bool {
        false
    }

    /// What runs a call of `name` naming `catalog` (see [`crate::functions::host`]); the
    /// engine's built-in unless the evaluator knows the app's functions.
    fn implementation(&self, catalog: Option<&str>, name: &str) -> crate::functions::Implementation {
        let _ = (catalog, name);
        crate::functions::Implementation::BuiltIn
    }
}

impl Dynamic {
    /// Parses a property value. Objects with exactly a `path` string are bindings, objects with a
    /// `call` string are function calls, everything else is a literal.
    pub fn parse(value: &Value) -> Dynamic {
        match value {
            Value::Object(map) => {
                if map.len() == 1 {
                    if let Some(Value::String(path)) = map.get("path") {
                        return Dynamic::Path(path.clone());
                    }
                }
                if let Some(Value::String(name)) = map.get("call") {
                    let args: Vec<(String, Dynamic)> = match map.get("args") {
                        Some(Value::Object(args)) => args.iter().map(|(k, v)| (k.clone(), Dynamic::parse(v))).collect(),
                        _ => Vec::new(),
                    };
                    let return_type = map.get("returnType").and_then(Value::as_str).map(str::to_owned);
                    let catalog_id = map.get("catalogId").and_then(Value::as_str).map(str::to_owned);
                    let prepared = functions::prepare(name, &args);
                    return Dynamic::Call(Box::new(Call {
                        name: name.clone(),
                        args,
                        return_type,
                        catalog_id,
                        prepared,
                    }));
                }
                Dynamic::Literal(value.clone())
            }
            _ => Dynamic::Literal(value.clone()),
        }
    }
}
