//! Functions the app implements: a catalog it registers may declare functions the engine has no
//! built-in for (a custom formatter, a lookup, `playMedia`). The app registers an implementation
//! per (catalog id, function name) on the [`SurfaceGroup`](crate::SurfaceGroup); a call of that
//! function, from a component's binding or from the agent's `callRendererFunction`, runs it on
//! its evaluated arguments.
//!
//! A call finds its implementation in its own catalog (its `catalogId`, else the surface's
//! default): the app's, if one is registered there, else the engine's function of that name (the
//! spec's functions: a catalog that declares `formatString` means the spec's). An app function
//! registered in another catalog is never used.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use serde_json::{Map, Value};

/// How many functions an app may register in one group.
pub const MAX_HOST_FUNCTIONS: usize = 256;

/// An app's implementation of a catalog function.
///
/// It runs while a node resolves, on the thread that applies the agent's messages, every time a
/// value it reads changes: keep it quick and free of side effects, as the built-in functions
/// are. An `Err` is the call's failure: the property it feeds is `null`, and an agent's
/// `callRendererFunction` gets `EXECUTION_ERROR` with the message.
pub trait HostFunction: Send + Sync {
    fn call(&self, args: &Map<String, Value>) -> Result<Value, String>;
}

impl<F> HostFunction for F
where
    F: Fn(&Map<String, Value>) -> Result<Value, String> + Send + Sync,
{
    fn call(&self, args: &Map<String, Value>) -> Result<Value, String> {
        self(args)
    }
}

/// Implementations by (canonical catalog id, function name).
type Table = HashMap<(String, String), Arc<dyn HostFunction>>;

/// The group's registered implementations, shared with its surfaces: a registration reaches the
/// surfaces that exist already, from their next evaluation. Register before the agent's surfaces
/// use a function: a call that failed for want of it runs again only when its component is sent
/// again (a failed call records no reads to re-run it on).
#[derive(Clone, Default)]
pub struct HostFunctions {
    table: Arc<RwLock<Table>>,
    /// Whether anything is registered: every call's lookup reads it, so a group without app
    /// functions never takes the lock.
    any: Arc<AtomicBool>,
}

impl std::fmt::Debug for HostFunctions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostFunctions").field("registered", &self.len()).finish()
    }
}

/// The same registry (one group's), not equal contents.
impl PartialEq for HostFunctions {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.table, &other.table)
    }
}

impl HostFunctions {
    pub fn get(&self, catalog_id: &str, name: &str) -> Option<Arc<dyn HostFunction>> {
        if !self.any.load(Ordering::Acquire) {
            return None;
        }
        let table = self.table.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        table.get(&(catalog_id.to_owned(), name.to_owned())).cloned()
    }

    pub fn len(&self) -> usize {
        self.table.read().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds or replaces an implementation; `false` when [`MAX_HOST_FUNCTIONS`] are registered
    /// and this one is new.
    pub(crate) fn insert(&self, catalog_id: &str, name: &str, function: Arc<dyn HostFunction>) -> bool {
        let mut table = self.table.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        let key = (catalog_id.to_owned(), name.to_owned());
        if table.len() >= MAX_HOST_FUNCTIONS && !table.contains_key(&key) {
            return false;
        }
        table.insert(key, function);
        self.any.store(true, Ordering::Release);
        true
    }
}

/// Where a surface's calls find their implementations: the app's functions and the surface's
/// default catalog.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunctionScope {
    pub host: HostFunctions,
    /// The surface's default catalog (its canonical id); empty outside a surface.
    pub default_catalog: String,
}

/// What runs a call.
pub enum Implementation {
    /// The app's function registered for the call's catalog.
    Host(Arc<dyn HostFunction>),
    /// The engine's function of that name (an unknown name fails the call).
    BuiltIn,
}

impl FunctionScope {
    /// The implementation of `name` for a call naming `catalog` (or none: the default).
    pub fn implementation(&self, catalog: Option<&str>, name: &str) -> Implementation {
        match self.host.get(catalog.unwrap_or(&self.default_catalog), name) {
            Some(function) => Implementation::Host(function),
            None => Implementation::BuiltIn,
        }
    }
}
