//! Catalogs: the components and functions a surface may use, each described by JSON Schema.
//!
//! OWNER: helper "catalog". Interface below is fixed; bodies (and private submodules such as the
//! basic catalog definition, the catalog JSON loader and the envelope schemas) are to be written.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::error::A2uiError;
use crate::schema::SchemaError;

/// Id of the v0.9 basic catalog as the current spec names it.
pub const BASIC_CATALOG_ID: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// Return types a catalog function may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnType {
    String,
    Number,
    Boolean,
    Array,
    Object,
    Any,
    Void,
}

#[derive(Debug, Clone)]
pub struct ComponentDef {
    pub name: String,
    pub description: String,
    /// JSON Schema of the whole component object (`id`, `component`, properties).
    pub schema: Value,
}

#[derive(Debug, Clone)]
pub struct FunctionDef {
    pub name: String,
    pub description: String,
    /// JSON Schema of the `args` object.
    pub parameters: Value,
    pub return_type: ReturnType,
}

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("invalid catalog: {0}")]
    Invalid(String),
    #[error(transparent)]
    Schema(#[from] crate::schema::SchemaCompileError),
}

/// A catalog with its schemas compiled.
#[derive(Debug)]
pub struct Catalog {
    pub id: String,
    pub description: String,
    pub components: Vec<ComponentDef>,
    pub functions: Vec<FunctionDef>,
}

impl Catalog {
    /// The A2UI v0.9 basic catalog (18 components, 14 functions), defined in this crate.
    pub fn basic() -> Arc<Catalog> {
        todo!()
    }

    /// Loads a catalog in the A2UI catalog JSON format (`catalogId`, `components`, `functions`).
    pub fn from_json(value: &Value) -> Result<Catalog, CatalogError> {
        let _ = value;
        todo!()
    }

    /// The catalog in the A2UI catalog JSON format (what an agent reads, and what inline
    /// catalogs in client capabilities carry).
    pub fn to_json(&self) -> Value {
        todo!()
    }

    pub fn component(&self, name: &str) -> Option<&ComponentDef> {
        self.components.iter().find(|c| c.name == name)
    }

    pub fn function(&self, name: &str) -> Option<&FunctionDef> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// Validates one component object against its type's schema (dispatching on `component`);
    /// paths are relative to the component object.
    pub fn validate_component(&self, component: &Value) -> Vec<SchemaError> {
        let _ = component;
        todo!()
    }

    /// Validates a `createSurface.theme` object.
    pub fn validate_theme(&self, theme: &Value) -> Vec<SchemaError> {
        let _ = theme;
        todo!()
    }

    /// Validates a whole server-to-client envelope (`{version, createSurface|...}`) against the
    /// v0.9 message schema with this catalog's components and functions; paths are relative to
    /// the envelope.
    pub fn validate_server_message(&self, envelope: &Value) -> Vec<SchemaError> {
        let _ = envelope;
        todo!()
    }
}

/// Validates a client-to-server envelope (`action` or `error`) against the v0.9 schema.
pub fn validate_client_message(envelope: &Value) -> Vec<SchemaError> {
    let _ = envelope;
    todo!()
}

/// The catalogs a client supports, by id, with aliases (older ids of the same catalog).
#[derive(Debug, Clone)]
pub struct CatalogRegistry {
    by_id: HashMap<String, Arc<Catalog>>,
}

impl CatalogRegistry {
    /// A registry holding the basic catalog under its current id and its aliases.
    pub fn with_basic() -> Self {
        let _ = &HashMap::<String, Arc<Catalog>>::new;
        todo!()
    }

    /// Registers (or replaces) a catalog under its id.
    pub fn register(&mut self, catalog: Arc<Catalog>) {
        let _ = catalog;
        todo!()
    }

    /// Adds another id under which an already registered catalog is known.
    pub fn add_alias(&mut self, alias: &str, target_id: &str) -> Result<(), A2uiError> {
        let _ = (alias, target_id);
        todo!()
    }

    /// The catalog for `id`, or `A2uiError::UnknownCatalog`.
    pub fn get(&self, id: &str) -> Result<Arc<Catalog>, A2uiError> {
        let _ = (id, &self.by_id);
        todo!()
    }

    /// `a2uiClientCapabilities` for the agent: `{"v0.9": {"supportedCatalogIds": [...],
    /// "inlineCatalogs": [...]}}`, inline catalogs included when `inline` is true.
    pub fn client_capabilities(&self, inline: bool) -> Value {
        let _ = inline;
        todo!()
    }
}
