//! Client tools implemented by the app: a foreign trait, adapted to the core's tool handler.

use std::sync::Arc;

use agentui_json::value::NodeValue;
use agentui_runtime::session::{ClientTool, ToolError, ToolInvocation};
use serde_json::{Map, Value};

use crate::error::ConversationError;

/// What a tool handler may throw.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum ToolHandlerError {
    /// The tool failed; `detail` is what the agent reads in the error result.
    #[error("{detail}")]
    Failed { detail: String },
    /// Any other exception the foreign implementation threw. The agent reads a generic
    /// message: the exception text may hold app internals.
    #[error("unexpected: {detail}")]
    Unexpected { detail: String },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for ToolHandlerError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        ToolHandlerError::Unexpected { detail: e.reason }
    }
}

/// Executes one client tool. Implemented in Kotlin (`suspend fun call`) or Swift (`async`).
///
/// Called once per `tool_call_id`, on its own task, with `arguments_json` already validated
/// against the tool's parameter schema. Return the result text the agent reads (JSON or
/// plain text). The call is abandoned (its future dropped, which cancels the Kotlin coroutine
/// or Swift task) when the run is cancelled or the tool timeout passes.
#[uniffi::export(foreign)]
#[async_trait::async_trait]
pub trait ClientToolHandler: Send + Sync {
    async fn call(&self, tool_call_id: String, arguments_json: String) -> Result<String, ToolHandlerError>;
}

/// Executes one client tool with typed values: the arguments arrive as the JSON value the agent
/// sent (an object, validated against the parameter schema) and the result goes back as a JSON
/// value (a `Text` is read as plain text, anything else as compact JSON). Otherwise as
/// `ClientToolHandler`. The core converts both ways, so the platform parses no JSON.
#[uniffi::export(foreign)]
#[async_trait::async_trait]
pub trait TypedClientToolHandler: Send + Sync {
    async fn call(&self, tool_call_id: String, arguments: NodeValue) -> Result<TypedToolResult, ToolHandlerError>;
}

/// What a typed tool returns: the value the agent reads. A record rather than a bare `NodeValue`
/// because UniFFI's Kotlin code for an async foreign method returning another crate's type does
/// not compile (it mixes the two packages' `RustBuffer` classes).
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct TypedToolResult {
    pub value: NodeValue,
}

/// The text the agent reads when a typed handler's result holds a number JSON cannot (NaN).
pub(crate) const RESULT_NOT_JSON: &str = "the app's tool returned a value that is not JSON";

/// The text the agent reads when a handler threw something other than `Failed`.
pub(crate) const UNEXPECTED_FAILURE: &str = "the app's tool handler failed unexpectedly";

pub(crate) fn client_tool(
    name: String,
    description: String,
    parameters_json_schema: &str,
    handler: Arc<dyn ClientToolHandler>,
) -> Result<ClientTool, ConversationError> {
    let parameters: Value = serde_json::from_str(parameters_json_schema)
        .map_err(|e| ConversationError::InvalidJson { detail: format!("parameters of tool '{name}': {e}") })?;
    let tool = ClientTool::new(name, description, parameters, move |call: ToolInvocation| {
        let handler = handler.clone();
        async move {
            let arguments = call.arguments.to_string();
            let result = handler.call(call.tool_call_id, arguments).await;
            handler_result(&call.tool_name, result.map(Value::String))
        }
    })?;
    Ok(tool)
}

/// A client tool whose handler takes and returns typed values; `parameters` is the JSON Schema
/// object its arguments are validated against.
pub(crate) fn typed_client_tool(
    name: String,
    description: String,
    parameters: Map<String, Value>,
    handler: Arc<dyn TypedClientToolHandler>,
) -> Result<ClientTool, ConversationError> {
    let tool = ClientTool::new(name, description, Value::Object(parameters), move |call: ToolInvocation| {
        let handler = handler.clone();
        async move {
            let result = match handler.call(call.tool_call_id, NodeValue::from(call.arguments)).await {
                Ok(TypedToolResult { value }) => value.to_json().map_err(|e| {
                    // The app's defect, told to the app; the agent reads a fixed text.
                    tracing::warn!(tool = %call.tool_name, path = %e.path, reason = e.reason(), "tool result is not JSON");
                    ToolHandlerError::Failed { detail: RESULT_NOT_JSON.to_owned() }
                }),
                Err(e) => Err(e),
            };
            handler_result(&call.tool_name, result)
        }
    })?;
    Ok(tool)
}

/// A handler's answer as the core's tool outcome: `Failed` is read by the agent as is, any
/// other failure as a generic text.
fn handler_result(tool_name: &str, result: Result<Value, ToolHandlerError>) -> Result<Value, ToolError> {
    match result {
        Ok(value) => Ok(value),
        Err(ToolHandlerError::Failed { detail }) => Err(ToolError::new(detail)),
        Err(ToolHandlerError::Unexpected { detail }) => {
            // Debug only: the text may quote the arguments.
            tracing::debug!(%detail, tool = %tool_name, "tool handler threw");
            Err(ToolError::new(UNEXPECTED_FAILURE))
        }
    }
}
