//! Client tools and the registry that both declares and executes them.
//!
//! One registry serves both purposes on purpose (lesson 2): `RunAgentInput.tools` is generated
//! from it, and only its tools are ever executed, so the two lists cannot drift apart.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use agentui_a2ui::schema::{CompiledSchema, SchemaRegistry};
use serde_json::Value;

use super::consent::Consent;
use agentui_agui::message::Tool;

/// Tools one registry may hold: far above any real client, low enough to bound the input.
pub const MAX_TOOLS: usize = 256;
const MAX_NAME_BYTES: usize = 256;

/// One call a handler is asked to perform. The arguments have been validated against the
/// tool's parameter schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInvocation {
    pub tool_call_id: String,
    pub tool_name: String,
    pub arguments: Value,
}

/// A handler's own failure. Its message is what the agent reads in the tool result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    pub message: String,
}

impl ToolError {
    pub fn new(message: impl Into<String>) -> Self {
        ToolError { message: message.into() }
    }
}

/// What a handler's future resolves to: a string is sent as-is, any other value as JSON.
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send + 'static>>;

/// Executes one tool. Implemented for any `Fn(ToolInvocation) -> impl Future`.
pub trait ToolHandler: Send + Sync + 'static {
    fn call(&self, invocation: ToolInvocation) -> ToolFuture;
}

impl<F, Fut> ToolHandler for F
where
    F: Fn(ToolInvocation) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
{
    fn call(&self, invocation: ToolInvocation) -> ToolFuture {
        Box::pin(self(invocation))
    }
}

/// Why a tool could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolRegistryError {
    #[error("invalid tool name {0:?}: it must be 1 to 256 bytes without control characters")]
    InvalidName(String),
    #[error("a tool named '{0}' is already registered")]
    Duplicate(String),
    #[error("the parameters schema of tool '{name}' is invalid: {reason}")]
    InvalidSchema { name: String, reason: String },
    #[error("the registry already holds {MAX_TOOLS} tools")]
    Full,
}

/// A tool the client declares to the agent and executes itself.
#[derive(Clone)]
pub struct ClientTool {
    name: String,
    description: String,
    parameters: Value,
    validator: CompiledSchema,
    timeout: Option<Duration>,
    consent: Consent,
    handler: Arc<dyn ToolHandler>,
}

impl fmt::Debug for ClientTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientTool")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("parameters", &self.parameters)
            .field("timeout", &self.timeout)
            .field("consent", &self.consent)
            .finish_non_exhaustive()
    }
}

impl ClientTool {
    /// A tool whose arguments must satisfy the JSON Schema `parameters` (compiled here, so a
    /// broken schema fails at registration rather than at the first call).
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
        handler: impl ToolHandler,
    ) -> Result<Self, ToolRegistryError> {
        let name = name.into();
        if name.is_empty() || name.len() > MAX_NAME_BYTES || name.chars().any(char::is_control) {
            return Err(ToolRegistryError::InvalidName(name));
        }
        let invalid = |reason: String| ToolRegistryError::InvalidSchema { name: name.clone(), reason };
        if !parameters.is_object() {
            return Err(invalid("it must be a JSON object".to_owned()));
        }
        let mut schemas = SchemaRegistry::new();
        schemas.add_document("parameters.json", parameters.clone());
        let validator = schemas.compile("parameters.json").map_err(|e| invalid(e.to_string()))?;
        Ok(ClientTool {
            name,
            description: description.into(),
            parameters,
            validator,
            timeout: None,
            consent: Consent::RunAtOnce,
            handler: Arc::new(handler),
        })
    }

    /// Bound this tool's execution; past it the call fails with a timeout result.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Whether a call waits for the user's answer before it runs (see [`Consent`]).
    pub fn with_consent(mut self, consent: Consent) -> Self {
        self.consent = consent;
        self
    }

    pub fn consent(&self) -> Consent {
        self.consent
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    pub fn parameters(&self) -> &Value {
        &self.parameters
    }

    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The declaration sent in `RunAgentInput.tools`.
    pub fn declaration(&self) -> Tool {
        Tool {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: Some(self.parameters.clone()),
            metadata: None,
        }
    }

    /// Check `arguments` against the parameters schema; the error lists the first violations
    /// with their JSON Pointers.
    pub fn validate(&self, arguments: &Value) -> Result<(), String> {
        let errors = self.validator.validate(arguments);
        if errors.is_empty() {
            return Ok(());
        }
        let shown: Vec<String> = errors
            .iter()
            .take(5)
            .map(|e| format!("{}: {}", if e.instance_path.is_empty() { "/" } else { &e.instance_path }, e.message))
            .collect();
        let more = errors.len().saturating_sub(shown.len());
        let tail = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        Err(format!("{}{tail}", shown.join("; ")))
    }

    pub(crate) fn handler(&self) -> Arc<dyn ToolHandler> {
        self.handler.clone()
    }
}

/// The client's tools, in registration order.
#[derive(Debug, Clone, Default)]
pub struct ToolRegistry {
    tools: Vec<Arc<ClientTool>>,
    by_name: HashMap<String, usize>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn register(&mut self, tool: ClientTool) -> Result<(), ToolRegistryError> {
        if self.by_name.contains_key(&tool.name) {
            return Err(ToolRegistryError::Duplicate(tool.name));
        }
        if self.tools.len() >= MAX_TOOLS {
            return Err(ToolRegistryError::Full);
        }
        self.by_name.insert(tool.name.clone(), self.tools.len());
        self.tools.push(Arc::new(tool));
        Ok(())
    }

    /// Remove a tool; calls to it from then on get a "not registered" result.
    pub fn unregister(&mut self, name: &str) -> bool {
        let Some(i) = self.by_name.remove(name) else { return false };
        self.tools.remove(i);
        for (j, t) in self.tools.iter().enumerate().skip(i) {
            self.by_name.insert(t.name.clone(), j);
        }
        true
    }

    pub fn get(&self, name: &str) -> Option<&Arc<ClientTool>> {
        self.by_name.get(name).and_then(|&i| self.tools.get(i))
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// What `RunAgentInput.tools` carries: exactly the tools this registry executes.
    pub fn declarations(&self) -> Vec<Tool> {
        self.tools.iter().map(|t| t.declaration()).collect()
    }
}
