//! Catalogs: the components and functions a surface may use, each described by JSON Schema.
//!
//! OWNER: helper "catalog". Interface below is fixed; bodies (and private submodules such as the
//! basic catalog definition, the catalog JSON loader and the envelope schemas) are to be written.
//!
//! The basic catalog, the common types and the envelope schemas are written in Rust with a small
//! schema builder (`dsl`), from the facts of the v0.9 specification. Every catalog, built-in or
//! loaded from JSON, is normalised into one schema document and compiled once; validation then
//! dispatches on `component` / the message kind to the compiled schema.

mod basic;
mod capabilities;
mod common_types;
mod dsl;
mod envelope;
mod load;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::error::A2uiError;
use crate::schema::SchemaError;

pub use capabilities::BASIC_CATALOG_ALIASES;
pub use load::SURFACE_COMPONENT;

/// Id of the v0.9 basic catalog as the current spec names it.
pub const BASIC_CATALOG_ID: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// Id of the basic catalog v1 (A2UI v1.0), as its catalog file declares it.
pub const BASIC_V1_CATALOG_ID: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
/// Other ids of the basic catalog v1: later upstream material names it by its `catalogs/basic/v1`
/// path.
pub const BASIC_V1_CATALOG_ALIASES: &[&str] = &["https://a2ui.org/catalogs/basic/v1/catalog.json"];

/// The id of [`Catalog::no_default_v1`] (the surface itself says `""`: it names none).
pub const NO_DEFAULT_CATALOG_ID: &str = "agentui:no-default-catalog";

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
    /// v1.0 `allowedParents`: the component types (and `"Surface"`, the root's place) it may sit
    /// under; `None` allows any.
    pub allowed_parents: Option<Vec<String>>,
    /// v1.0 `allowedChildren`: the component types it may hold; `None` allows any.
    pub allowed_children: Option<Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct FunctionDef {
    pub name: String,
    pub description: String,
    /// JSON Schema of the `args` object.
    pub parameters: Value,
    pub return_type: ReturnType,
    /// v1.0 `allowedCallers`: who may call the function (the renderer only by default).
    pub allowed_callers: AllowedCallers,
    /// v1.0 `requiresUserActivation`: runs only from a user gesture (`openUrl`), so never on an
    /// agent's request.
    pub requires_user_activation: bool,
}

/// v1.0 `allowedCallers` of a catalog function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AllowedCallers {
    #[default]
    RendererOnly,
    AgentOnly,
    RendererOrAgent,
}

impl AllowedCallers {
    pub fn parse(text: &str) -> Option<AllowedCallers> {
        match text {
            "rendererOnly" => Some(AllowedCallers::RendererOnly),
            "agentOnly" => Some(AllowedCallers::AgentOnly),
            "rendererOrAgent" => Some(AllowedCallers::RendererOrAgent),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            AllowedCallers::RendererOnly => "rendererOnly",
            AllowedCallers::AgentOnly => "agentOnly",
            AllowedCallers::RendererOrAgent => "rendererOrAgent",
        }
    }

    /// Whether an agent's `callRendererFunction` may run the function.
    pub fn agent_may_call(self) -> bool {
        self != AllowedCallers::RendererOnly
    }
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
    /// The A2UI protocol version the catalog is written for (`protocolVersion`, bare semver;
    /// `"0.9"` when absent, as the v1.0 catalog schema defaults it).
    pub protocol_version: String,
    pub components: Vec<ComponentDef>,
    pub functions: Vec<FunctionDef>,
    /// The catalog as one schema document (what `to_json` returns and `catalog.json` resolves to).
    document: Value,
    /// Set when a catalog is loaded from JSON (its errors are the loader's to report); compiled
    /// on first validation for the built-in ones, so a process pays only for those it uses.
    compiled: OnceLock<load::Compiled>,
}

impl Catalog {
    /// The A2UI v0.9 basic catalog (18 components, 14 functions), defined in this crate.
    pub fn basic() -> Arc<Catalog> {
        static BASIC: OnceLock<Arc<Catalog>> = OnceLock::new();
        BASIC
            .get_or_init(|| {
                let built = load::normalise(&basic::document()).and_then(load::prepare);
                // The basic catalog is our own code; the conformance tests keep it loadable.
                Arc::new(built.unwrap_or_else(|e| panic!("the built-in basic catalog is broken: {e}")))
            })
            .clone()
    }

    /// The A2UI basic catalog v1 (protocol v1.0), defined in this crate.
    pub fn basic_v1() -> Arc<Catalog> {
        static BASIC_V1: OnceLock<Arc<Catalog>> = OnceLock::new();
        BASIC_V1
            .get_or_init(|| {
                let built = load::normalise(&basic::document_v1()).and_then(load::prepare);
                Arc::new(built.unwrap_or_else(|e| panic!("the built-in basic catalog v1 is broken: {e}")))
            })
            .clone()
    }

    /// What a v1.0 surface created without a default `catalogId` validates against: a v1.0
    /// catalog with no components and no functions, so every component and call must name the
    /// catalog it comes from. Never registered; its id is no catalog's.
    pub fn no_default_v1() -> Arc<Catalog> {
        static NONE: OnceLock<Arc<Catalog>> = OnceLock::new();
        NONE.get_or_init(|| {
            let document = serde_json::json!({"catalogId": NO_DEFAULT_CATALOG_ID, "protocolVersion": "1.0",
                "description": "No default catalog: components and calls name their own."});
            let built = load::normalise(&document).and_then(load::prepare);
            Arc::new(built.unwrap_or_else(|e| panic!("the empty v1.0 catalog is broken: {e}")))
        })
        .clone()
    }

    /// The compiled schemas, compiled now if this is a built-in catalog's first use.
    fn compiled(&self) -> &load::Compiled {
        self.compiled.get_or_init(|| {
            // Only built-in catalogs are compiled here, and the tests compile each of them.
            load::compile(&self.document).unwrap_or_else(|e| panic!("the built-in catalog {} is broken: {e}", self.id))
        })
    }

    /// Whether the schemas are compiled yet (built-in catalogs compile on first validation).
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// True for a catalog written for protocol v1.0 or later.
    pub fn is_v1(&self) -> bool {
        !self.protocol_version.starts_with("0.")
    }

    /// Loads a catalog in the A2UI catalog JSON format (`catalogId`, `components`, `functions`).
    pub fn from_json(value: &Value) -> Result<Catalog, CatalogError> {
        load::from_json(value)
    }

    /// The catalog in the A2UI catalog JSON format (what an agent reads, and what inline
    /// catalogs in client capabilities carry).
    pub fn to_json(&self) -> Value {
        self.document.clone()
    }

    /// The catalog in the inline form of client capabilities (`catalogId`, `components`,
    /// `functions` as an array of `{name, description, parameters, returnType}`, `theme` as a map
    /// of theme parameter schemas). [`Catalog::from_json`] accepts it too.
    pub fn to_inline_json(&self) -> Value {
        load::to_inline_json(self)
    }

    /// Validates one function call object (`{"call", "args", "returnType"}`) against the schema
    /// of the function it names; paths are relative to the call object.
    pub fn validate_function_call(&self, call: &Value) -> Vec<SchemaError> {
        self.compiled().validate_function_call(self, call)
    }

    /// Whether any component restricts its parents or children (v1.0), so a surface checks them.
    pub fn has_composition_rules(&self) -> bool {
        self.components.iter().any(|c| c.allowed_parents.is_some() || c.allowed_children.is_some())
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
        self.compiled().validate_component(self, component)
    }

    /// Validates a `createSurface.theme` object.
    pub fn validate_theme(&self, theme: &Value) -> Vec<SchemaError> {
        self.compiled().validate_theme(theme)
    }

    /// Validates a whole server-to-client envelope (`{version, createSurface|...}`) against the
    /// v0.9 message schema with this catalog's components and functions; paths are relative to
    /// the envelope.
    pub fn validate_server_message(&self, envelope: &Value) -> Vec<SchemaError> {
        self.compiled().validate_server_message(envelope)
    }
}

/// Validates a client-to-server envelope (`action` or `error`) against the v0.9 schema.
pub fn validate_client_message(envelope: &Value) -> Vec<SchemaError> {
    load::validate_client_message(envelope)
}

/// The common types every catalog refers to (`$defs` such as `DynamicValue`, `CheckRule`), as
/// this engine defines them for v0.9 or for v1.0. Their `FunctionCall` refers to the catalog in
/// use as `catalog.json#/$defs/anyFunction`.
pub fn common_types(v1: bool) -> Value {
    if v1 {
        common_types::document_v1()
    } else {
        common_types::document()
    }
}

/// JSON Schema of the object [`CatalogRegistry::client_capabilities`] returns, for agents and
/// agent developers.
pub fn client_capabilities_schema() -> Value {
    envelope::client_capabilities()
}

/// The catalogs a client supports, by id, with aliases (older ids of the same catalog).
#[derive(Debug, Clone)]
pub struct CatalogRegistry {
    by_id: HashMap<String, Registered>,
    /// Other id -> registered catalog id. Resolved on lookup, so replacing a catalog moves its
    /// aliases along.
    aliases: HashMap<String, String>,
}

/// A catalog in a registry. The built-in ones are made on first lookup: every conversation
/// registers both basic catalogs, and most use one of them, or none.
#[derive(Debug, Clone)]
enum Registered {
    Ready(Arc<Catalog>),
    BuiltIn { make: fn() -> Arc<Catalog>, v1: bool },
}

impl Registered {
    fn catalog(&self) -> Arc<Catalog> {
        match self {
            Registered::Ready(catalog) => catalog.clone(),
            Registered::BuiltIn { make, .. } => make(),
        }
    }

    fn is_v1(&self) -> bool {
        match self {
            Registered::Ready(catalog) => catalog.is_v1(),
            Registered::BuiltIn { v1, .. } => *v1,
        }
    }
}

impl CatalogRegistry {
    /// A registry holding the basic catalogs (v0.9 and v1) under their current ids and aliases.
    /// Each is made on first lookup, once per process.
    pub fn with_basic() -> Self {
        let mut registry = CatalogRegistry { by_id: HashMap::new(), aliases: HashMap::new() };
        registry.by_id.insert(BASIC_CATALOG_ID.to_string(), Registered::BuiltIn { make: Catalog::basic, v1: false });
        for alias in BASIC_CATALOG_ALIASES {
            registry.aliases.insert((*alias).to_string(), BASIC_CATALOG_ID.to_string());
        }
        registry
            .by_id
            .insert(BASIC_V1_CATALOG_ID.to_string(), Registered::BuiltIn { make: Catalog::basic_v1, v1: true });
        for alias in BASIC_V1_CATALOG_ALIASES {
            registry.aliases.insert((*alias).to_string(), BASIC_V1_CATALOG_ID.to_string());
        }
        registry
    }

    /// Registers (or replaces) a catalog under its id.
    pub fn register(&mut self, catalog: Arc<Catalog>) {
        // A real catalog under an id wins over an alias of the same id.
        self.aliases.remove(&catalog.id);
        self.by_id.insert(catalog.id.clone(), Registered::Ready(catalog));
    }

    /// Adds another id under which an already registered catalog is known.
    ///
    /// `target_id` may itself be an alias. An alias cannot take the id of a registered catalog.
    pub fn add_alias(&mut self, alias: &str, target_id: &str) -> Result<(), A2uiError> {
        let target = self.resolve(target_id).ok_or_else(|| A2uiError::UnknownCatalog(target_id.to_string()))?;
        if alias == target {
            return Ok(());
        }
        if self.by_id.contains_key(alias) {
            return Err(A2uiError::Malformed(format!("{alias:?} is the id of a registered catalog, not an alias")));
        }
        self.aliases.insert(alias.to_string(), target.to_string());
        Ok(())
    }

    /// The registered catalog id `id` stands for (itself, or the target of an alias).
    fn resolve(&self, id: &str) -> Option<&str> {
        if let Some((key, _)) = self.by_id.get_key_value(id) {
            return Some(key.as_str());
        }
        self.aliases.get(id).filter(|target| self.by_id.contains_key(*target)).map(String::as_str)
    }

    /// The catalog for `id`, or `A2uiError::UnknownCatalog`.
    pub fn get(&self, id: &str) -> Result<Arc<Catalog>, A2uiError> {
        self.resolve(id)
            .and_then(|key| self.by_id.get(key))
            .map(Registered::catalog)
            .ok_or_else(|| A2uiError::UnknownCatalog(id.to_string()))
    }

    /// `a2uiClientCapabilities` for the agent: `{"v0.9": {"supportedCatalogIds": [...],
    /// "inlineCatalogs": [...]}}`, inline catalogs included when `inline` is true.
    pub fn client_capabilities(&self, inline: bool) -> Value {
        capabilities::client_capabilities(&self.by_id, &self.aliases, inline)
    }
}

#[cfg(test)]
mod preparation_tests {
    use super::*;
    use serde_json::json;

    /// A built-in catalog is compiled on its first validation, not when it is made (issue 42:
    /// preparing both basic catalogs cost every conversation about 6 ms before its first
    /// surface), and validates as the eagerly compiled one does.
    #[test]
    fn a_built_in_catalog_compiles_on_first_validation() {
        let document = load::normalise(&basic::document()).unwrap();
        let lazy = load::prepare(document.clone()).unwrap();
        assert!(!lazy.is_compiled());
        let eager = load::build(document).unwrap();
        assert!(eager.is_compiled());
        let bad = json!({"id": "t", "component": "Text", "text": 5});
        let errors = lazy.validate_component(&bad);
        assert!(lazy.is_compiled());
        assert!(!errors.is_empty());
        assert_eq!(errors, eager.validate_component(&bad));
    }

    /// A registry holds the basic catalogs without making them: a lookup makes the one asked
    /// for, and client capabilities still list both under their protocols.
    #[test]
    fn a_registry_makes_a_built_in_catalog_on_lookup() {
        let registry = CatalogRegistry::with_basic();
        assert!(registry.by_id.values().all(|r| matches!(r, Registered::BuiltIn { .. })));
        let basic = registry.get(BASIC_CATALOG_ALIASES[0]).unwrap();
        assert_eq!(basic.id, BASIC_CATALOG_ID);
        assert!(Arc::ptr_eq(&basic, &Catalog::basic()), "one catalog per process");
        assert_eq!(registry.get(BASIC_V1_CATALOG_ID).unwrap().id, BASIC_V1_CATALOG_ID);
        let capabilities = registry.client_capabilities(false);
        assert_eq!(capabilities["v0.9"]["supportedCatalogIds"][0], BASIC_CATALOG_ID);
        assert_eq!(capabilities["v1.0"]["supportedCatalogIds"][0], BASIC_V1_CATALOG_ID);
        let inline = registry.client_capabilities(true);
        assert_eq!(inline["v0.9"]["inlineCatalogs"][0]["catalogId"], BASIC_CATALOG_ID);
    }

    /// A catalog loaded from JSON is still refused at load when its schemas do not compile.
    #[test]
    fn a_loaded_catalog_is_compiled_at_load() {
        let mut document = Catalog::basic().to_json();
        document["catalogId"] = json!("https://example.com/c.json");
        let catalog = Catalog::from_json(&document).unwrap();
        assert!(catalog.is_compiled());
        let unresolved = json!({"catalogId": "x", "components": {"A": {"allOf": [
            {"$ref": "#/$defs/Missing"}, {"properties": {"component": {"const": "A"}}}
        ]}}});
        assert!(matches!(Catalog::from_json(&unresolved), Err(CatalogError::Schema(_))));
    }
}
