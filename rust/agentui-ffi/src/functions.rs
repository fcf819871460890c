//! A2UI catalog functions implemented by the app: a foreign trait, adapted to the engine's host
//! function. Values cross as `NodeValue`s, as everywhere in the bindings: the platforms never
//! parse JSON. The catalogs themselves are JSON text in `ConversationOptions.catalogs_json`; the
//! checks and the registration are the runtime's (`ConversationSession::add_app_catalogs`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use agentui_a2ui::functions::HostFunction;
use agentui_json::value::{NodeValue, PropEntry};
use agentui_runtime::session::AppFunction;
use serde_json::{Map, Value};

/// What a function handler may throw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum A2uiFunctionError {
    /// The call failed; `detail` is what an agent's `callRendererFunction` reads.
    #[error("{detail}")]
    Failed { detail: String },
    /// Any other exception the foreign implementation threw. The agent reads a generic message:
    /// the exception text may hold app internals.
    #[error("unexpected: {detail}")]
    Unexpected { detail: String },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for A2uiFunctionError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        A2uiFunctionError::Unexpected { detail: e.reason }
    }
}

/// Runs the app's catalog functions. Implemented in Kotlin or Swift; the layers there dispatch
/// on (`catalog_id`, `name`) to the app's lambdas and closures.
///
/// Called while a surface resolves, on a runtime thread, each time a value the call reads
/// changes (also before the data it reads has arrived: an argument may be `Null`): keep it
/// quick and free of side effects. It runs while the conversation's surfaces are locked, so it
/// must not call the conversation (a `set_value` from it would wait forever). `args` are the
/// call's evaluated arguments, the members of a JSON object in order; return the value. A thrown
/// error, or a value JSON cannot hold (a NaN, an infinity, nesting beyond 64), is the call's
/// failure: the property it feeds is `null`, and an agent's `callRendererFunction` gets
/// `EXECUTION_ERROR`.
#[uniffi::export(foreign)]
pub trait A2uiFunctionHandler: Send + Sync {
    fn call(&self, catalog_id: String, name: String, args: Vec<PropEntry>) -> Result<NodeValue, A2uiFunctionError>;
}

impl std::fmt::Debug for dyn A2uiFunctionHandler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("A2uiFunctionHandler")
    }
}

/// A function the app implements: `name`, declared by the catalog `catalog_id`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct A2uiFunction {
    pub catalog_id: String,
    pub name: String,
}

/// The failure an agent reads when a handler threw something other than `Failed`.
pub(crate) const UNEXPECTED_FAILURE: &str = "the app's function failed unexpectedly";

/// One registered function, calling the app's handler.
struct ForeignFunction {
    catalog_id: String,
    name: String,
    handler: Arc<dyn A2uiFunctionHandler>,
}

impl HostFunction for ForeignFunction {
    fn call(&self, args: &Map<String, Value>) -> Result<Value, String> {
        let args = agentui_json::value::entries(args.clone());
        // A foreign exception arrives as an error; a panic of a Rust implementation must not
        // unwind through the engine either.
        let answer =
            catch_unwind(AssertUnwindSafe(|| self.handler.call(self.catalog_id.clone(), self.name.clone(), args)))
                .map_err(|_| UNEXPECTED_FAILURE.to_owned())?;
        match answer {
            Ok(value) => value.to_json().map_err(|e| {
                format!(
                    "the app's function '{}' returned a value JSON cannot hold at '{}': {}",
                    self.name,
                    e.path,
                    e.reason()
                )
            }),
            Err(A2uiFunctionError::Failed { detail }) => Err(detail),
            Err(A2uiFunctionError::Unexpected { detail }) => {
                // Debug only: the text may quote the arguments.
                tracing::debug!(%detail, function = %self.name, "A2UI function handler threw");
                Err(UNEXPECTED_FAILURE.to_owned())
            }
        }
    }
}

/// The registrations, each calling `handler`.
pub(crate) fn app_functions(functions: &[A2uiFunction], handler: &Arc<dyn A2uiFunctionHandler>) -> Vec<AppFunction> {
    functions
        .iter()
        .map(|f| {
            let function =
                ForeignFunction { catalog_id: f.catalog_id.clone(), name: f.name.clone(), handler: handler.clone() };
            AppFunction::new(f.catalog_id.clone(), f.name.clone(), Arc::new(function))
        })
        .collect()
}
