//! A focused JSON Schema (2020-12 subset) validator for the schemas A2UI catalogs use.
//!
//! OWNER: helper "schema". Interface below is fixed.
//!
//! Why not the `jsonschema` crate: see the measurement in the crate README (correctness on the
//! A2UI test cases, speed, release size).
//!
//! Supported (2020-12): `type`, `enum`, `const`, `$ref` (with `$id`/`$anchor`), `$defs`,
//! `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, `properties`, `patternProperties`,
//! `additionalProperties`, `unevaluatedProperties`, `required`, `min/maxProperties`,
//! `propertyNames`, `dependentRequired`, `dependentSchemas`, `prefixItems`, `items`,
//! `contains` (`min/maxContains`), `min/maxItems`, `uniqueItems`, `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `min/maxLength`, `pattern`, and
//! `format` for `uri`, `date`, `time`, `date-time`, `email`. Annotation keywords and unknown
//! keywords/formats are ignored; `$dynamicRef` and `unevaluatedItems` are not supported.
//!
//! Errors: one per violation, at the JSON Pointer of the offending value. A failed
//! `oneOf`/`anyOf` gives one error at the value naming the allowed shapes and the closest one,
//! except when only one branch could possibly match (a tag such as `component`, a type, a
//! required or forbidden property rules the others out): then that branch's own errors are
//! reported, with their precise paths.
//!
//! Limits: schema applications nest at most `validate::MAX_DEPTH` (256) deep and one
//! validation makes at most `validate::MAX_STEPS` node visits; hitting either is an error,
//! never a stack overflow or a hang. Compilation is iterative and handles any `$ref` cycle.
//!
//! Layout: `registry` (documents and `$ref` lookup) -> `compile` (worklist into a flat node
//! arena, `node`) -> `discriminator` (which union branches can match; tagged unions) ->
//! `validate` (the walk), with `json`, `uri`, `pattern`, `format` and `message` as helpers.

mod compile;
mod discriminator;
mod format;
mod json;
mod message;
mod node;
mod pattern;
mod registry;
mod uri;
mod validate;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde_json::Value;

/// One failed assertion. `instance_path` is a JSON Pointer into the validated value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    pub instance_path: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemaCompileError {
    #[error("unresolvable $ref {0:?}")]
    UnresolvedRef(String),
    #[error("invalid schema at {location}: {reason}")]
    Invalid { location: String, reason: String },
}

/// Documents that `$ref`s may point into, by absolute URI (a document's `$id`, or a URI it is
/// registered under, e.g. `catalog.json` for "the catalog in use").
#[derive(Debug, Default, Clone)]
pub struct SchemaRegistry {
    documents: registry::Documents,
}

impl SchemaRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `document` under `uri` (and under its own `$id`, if it has one).
    pub fn add_document(&mut self, uri: &str, document: Value) {
        self.documents.add(uri, document);
    }

    /// Compiles the schema at `uri` (`"<doc uri>#<JSON Pointer>"`, e.g.
    /// `"catalog.json#/components/Text"`), resolving every `$ref` it reaches.
    pub fn compile(&self, uri: &str) -> Result<CompiledSchema, SchemaCompileError> {
        let mut compiled = self.compile_many(&[uri])?;
        Ok(compiled.remove(0))
    }

    /// Compiles several schemas at once, in the order of `uris`. What they share is compiled
    /// once and held once: a catalog's message schemas reference every component.
    pub fn compile_many(&self, uris: &[&str]) -> Result<Vec<CompiledSchema>, SchemaCompileError> {
        let (program, roots) = compile::compile_many(&self.documents, uris)?;
        let program = Arc::new(program);
        Ok(roots.into_iter().map(|root| CompiledSchema { program: program.clone(), root }).collect())
    }
}

/// A compiled schema; cheap to clone (shared internals) and `Send + Sync`.
#[derive(Debug, Clone)]
pub struct CompiledSchema {
    program: Arc<node::Program>,
    root: node::NodeId,
}

impl CompiledSchema {
    /// Every violation, each with the pointer of the offending value, most specific first.
    pub fn validate(&self, instance: &Value) -> Vec<SchemaError> {
        validate::validate(&self.program, self.root, instance)
    }

    /// Same verdict as `validate(..).is_empty()`, but stops at the first failure and formats no
    /// messages.
    pub fn is_valid(&self, instance: &Value) -> bool {
        validate::is_valid(&self.program, self.root, instance)
    }

    #[cfg(test)]
    fn is_valid_without_narrowing(&self, instance: &Value) -> bool {
        validate::is_valid_without_narrowing(&self.program, self.root, instance)
    }
}
