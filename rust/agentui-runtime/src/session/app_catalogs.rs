//! The app's own A2UI catalogs and the functions it implements for them, added to a session
//! before its first run ([`ConversationSession::add_app_catalogs`](super::ConversationSession::add_app_catalogs)).
//!
//! The engine already renders any registered catalog and runs any registered host function;
//! what this module adds is the app's side of it: catalogs arrive as JSON text (from Kotlin,
//! Swift or a file) or as values (typed catalogs), so every one is bounded, parsed and loaded first, the whole request is
//! checked against what the session holds, and only then is anything registered. A refused
//! request changes nothing. The catalogs registered go into the `a2uiClientCapabilities` every
//! run sends, since those are built from the engine's registry.

use std::sync::Arc;

use agentui_a2ui::catalog::{Catalog, CatalogError, CatalogRegistry};
use agentui_a2ui::functions::HostFunction;
use agentui_a2ui::schema::SchemaCompileError;
use agentui_a2ui::SurfaceGroup;
use serde_json::Value;

/// How many catalogs an app may add to one conversation.
pub const MAX_APP_CATALOGS: usize = 16;

/// The largest catalog JSON text accepted, in bytes (the basic catalog is about a fifth of it).
pub const MAX_APP_CATALOG_BYTES: usize = 256 * 1024;

/// How many functions an app may implement in one conversation: the engine's bound.
pub const MAX_APP_FUNCTIONS: usize = agentui_a2ui::functions::host::MAX_HOST_FUNCTIONS;

/// One function the app implements: `name`, declared by catalog `catalog_id`.
#[derive(Clone)]
pub struct AppFunction {
    pub catalog_id: String,
    pub name: String,
    pub function: Arc<dyn HostFunction>,
}

impl AppFunction {
    pub fn new(catalog_id: impl Into<String>, name: impl Into<String>, function: Arc<dyn HostFunction>) -> Self {
        AppFunction { catalog_id: catalog_id.into(), name: name.into(), function }
    }
}

impl std::fmt::Debug for AppFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppFunction").field("catalog_id", &self.catalog_id).field("name", &self.name).finish()
    }
}

/// Why the app's catalogs or functions were refused. `index` is the catalog's place in the list
/// given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppCatalogError {
    /// The text is not JSON (serde's message, with line and column).
    #[error("catalog {index} is not JSON: {message}")]
    NotJson { index: usize, message: String },
    /// The JSON is not a catalog the engine can load. `pointer` locates the offending schema
    /// when the loader knows it.
    #[error("catalog {index} is not a valid A2UI catalog{}: {message}", pointer.as_deref().map(|p| format!(" at {p}")).unwrap_or_default())]
    Malformed { index: usize, pointer: Option<String>, message: String },
    /// The id is already known: a built-in catalog (or one of its other ids), a catalog the app
    /// added before, or an earlier one of this list.
    #[error("catalog id {catalog_id:?} is already registered")]
    DuplicateCatalog { catalog_id: String },
    /// A function names a catalog the conversation does not have.
    #[error("function {name:?} names catalog {catalog_id:?}, which is not registered")]
    UnknownCatalog { catalog_id: String, name: String },
    /// A function the catalog does not declare.
    #[error("catalog {catalog_id:?} declares no function {name:?}")]
    UndeclaredFunction { catalog_id: String, name: String },
    /// The same function given twice, or already implemented by the app.
    #[error("function {name:?} of catalog {catalog_id:?} is implemented twice")]
    DuplicateFunction { catalog_id: String, name: String },
    /// Too many catalogs or functions, or a catalog text too long.
    #[error("too many {what}: {actual} (at most {limit})")]
    LimitExceeded { what: &'static str, limit: usize, actual: usize },
    /// The engine refused a registration the checks above let through (a defect of this
    /// library; the catalogs of the call may be registered).
    #[error("the A2UI engine refused it: {message}")]
    Engine { message: String },
}

/// How many catalogs the app has added so far, for the bound of later calls (the functions are
/// counted and looked up in the engine, which holds them).
#[derive(Debug, Default)]
pub(crate) struct AppCatalogs {
    catalogs: usize,
}

impl AppCatalogs {
    /// Checks everything, then registers the catalogs and the functions in `group`.
    pub(crate) fn add(
        &mut self,
        group: &mut SurfaceGroup,
        catalogs: CatalogSources<'_>,
        functions: Vec<AppFunction>,
    ) -> Result<(), AppCatalogError> {
        let total = self.catalogs + catalogs.len();
        if total > MAX_APP_CATALOGS {
            return Err(AppCatalogError::LimitExceeded { what: "catalogs", limit: MAX_APP_CATALOGS, actual: total });
        }
        // The engine's count: a Rust caller may have registered functions on the group itself.
        let total = group.host_function_count() + functions.len();
        if total > MAX_APP_FUNCTIONS {
            return Err(AppCatalogError::LimitExceeded { what: "functions", limit: MAX_APP_FUNCTIONS, actual: total });
        }
        let mut loaded: Vec<Arc<Catalog>> = Vec::with_capacity(catalogs.len());
        for index in 0..catalogs.len() {
            let catalog = catalogs.load(index)?;
            let known = group.catalogs().get(&catalog.id).is_ok() || loaded.iter().any(|c| c.id == catalog.id);
            if known {
                return Err(AppCatalogError::DuplicateCatalog { catalog_id: catalog.id.clone() });
            }
            loaded.push(Arc::new(catalog));
        }
        let mut keys = Vec::with_capacity(functions.len());
        for function in &functions {
            let catalog = find(group.catalogs(), &loaded, &function.catalog_id).ok_or_else(|| {
                AppCatalogError::UnknownCatalog { catalog_id: function.catalog_id.clone(), name: function.name.clone() }
            })?;
            if catalog.function(&function.name).is_none() {
                return Err(AppCatalogError::UndeclaredFunction {
                    catalog_id: function.catalog_id.clone(),
                    name: function.name.clone(),
                });
            }
            // Keyed by the catalog's own id, so an alias cannot register a function twice.
            let key = (catalog.id.clone(), function.name.clone());
            if group.has_host_function(&key.0, &key.1) || keys.contains(&key) {
                return Err(AppCatalogError::DuplicateFunction {
                    catalog_id: function.catalog_id.clone(),
                    name: function.name.clone(),
                });
            }
            keys.push(key);
        }
        // Nothing below fails for a reason checked above (the engine checks the declaration
        // and its bound again, and agrees).
        for catalog in loaded {
            self.catalogs += 1;
            group.catalogs_mut().register(catalog);
        }
        for function in functions {
            if let Err(e) = group.register_host_function(&function.catalog_id, &function.name, function.function) {
                // Not reached: the checks above are the engine's. Reported, never ignored.
                return Err(AppCatalogError::Engine { message: e.to_string() });
            }
        }
        Ok(())
    }
}

/// A catalog of the conversation, or of those about to be added.
fn find(registry: &CatalogRegistry, loaded: &[Arc<Catalog>], id: &str) -> Option<Arc<Catalog>> {
    registry.get(id).ok().or_else(|| loaded.iter().find(|c| c.id == id).cloned())
}

/// The app's catalogs in the form it gave them: JSON text, or values (typed catalogs from
/// Kotlin or Swift, which need no JSON text on their side). Both forms get the same bounds.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CatalogSources<'a> {
    Texts(&'a [String]),
    Values(&'a [Value]),
}

impl CatalogSources<'_> {
    fn len(&self) -> usize {
        match self {
            CatalogSources::Texts(texts) => texts.len(),
            CatalogSources::Values(values) => values.len(),
        }
    }

    /// Catalog `index`, bounded, parsed and loaded.
    fn load(&self, index: usize) -> Result<Catalog, AppCatalogError> {
        match self {
            CatalogSources::Texts(texts) => load_text(index, &texts[index]),
            CatalogSources::Values(values) => load_value(index, &values[index]),
        }
    }
}

fn too_large(actual: usize) -> AppCatalogError {
    AppCatalogError::LimitExceeded { what: "bytes in one catalog", limit: MAX_APP_CATALOG_BYTES, actual }
}

/// The app's catalog text, bounded, parsed and loaded.
fn load_text(index: usize, text: &str) -> Result<Catalog, AppCatalogError> {
    if text.len() > MAX_APP_CATALOG_BYTES {
        return Err(too_large(text.len()));
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| AppCatalogError::NotJson { index, message: e.to_string() })?;
    load_value(index, &value)
}

/// The app's catalog value, bounded by the length of its compact JSON text (the text form's
/// bound, so the two forms accept the same catalogs), then loaded.
fn load_value(index: usize, value: &Value) -> Result<Catalog, AppCatalogError> {
    let length = compact_json_length(value, MAX_APP_CATALOG_BYTES);
    if length > MAX_APP_CATALOG_BYTES {
        return Err(too_large(length));
    }
    Catalog::from_json(value).map_err(|e| match e {
        CatalogError::Schema(SchemaCompileError::Invalid { location, reason }) => {
            AppCatalogError::Malformed { index, pointer: Some(location), message: reason }
        }
        other => AppCatalogError::Malformed { index, pointer: None, message: other.to_string() },
    })
}

/// The length of `value`'s compact JSON text, counted without writing it; the count stops soon
/// after it passes `limit` (the result is then some length over `limit`).
fn compact_json_length(value: &Value, limit: usize) -> usize {
    struct Counter {
        written: usize,
        limit: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.written += bytes.len();
            if self.written > self.limit {
                // Stops the serializer: the rest need not be measured.
                return Err(std::io::Error::other("over the limit"));
            }
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter { written: 0, limit };
    // The only error is the counter's own stop.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.written
}
