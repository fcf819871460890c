//! Client tools implemented by the app: a foreign trait, adapted to the core's tool handler.

use std::sync::Arc;

use agentui_runtime::session::{ClientTool, ToolError, ToolInvocation};
use serde_json::Value;

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
            match handler.call(call.tool_call_id, arguments).await {
                Ok(text) => Ok(Value::String(text)),
                Err(ToolHandlerError::Failed { detail }) => Err(ToolError::new(detail)),
                Err(ToolHandlerError::Unexpected { detail }) => {
                    // Debug only: the text may quote the arguments.
                    tracing::debug!(%detail, tool = %call.tool_name, "tool handler threw");
                    Err(ToolError::new(UNEXPECTED_FAILURE))
                }
            }
        }
    })?;
    Ok(tool)
}
