//! What the renderer receives: resolved nodes and diffs. A renderer maps each node to a native
//! widget; it never resolves bindings, parses JSON or evaluates functions.

use serde::Serialize;
use serde_json::Value;

/// Accessibility attributes, resolved.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Accessibility {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Outcome of one `checks` rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckResult {
    pub message: String,
    pub passed: bool,
}

/// What a node does when the user activates it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ActionKind {
    /// Sends an `action` message named `name` to the agent.
    Event { name: String },
    /// Runs a client-side function (e.g. `openUrl`) locally.
    FunctionCall { name: String },
}

/// A two-way binding: the input writes its value back to `path` with `set_value`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Binding {
    pub property: String,
    /// Canonical absolute data-model path.
    pub path: String,
}

/// One component instance, fully resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedNode {
    /// Instance id: the component id, or `componentId@/data/path` for template instances.
    pub id: String,
    /// The component definition this instance comes from.
    pub component_id: String,
    /// Catalog type, e.g. `Text`.
    #[serde(rename = "type")]
    pub component_type: String,
    /// Resolved properties in the agent's order; child references are instance ids.
    pub props: serde_json::Map<String, Value>,
    /// Child instance ids in order (template instances included). An id with no node in the
    /// surface is pending: its component has not arrived yet.
    pub children: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accessibility: Option<Accessibility>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckResult>,
    /// First failing check's message (inputs show it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_message: Option<String>,
    /// False when a check fails on an actionable component (a Button is disabled).
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<ActionKind>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<Binding>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
}

/// A change to a surface's node set, published after every message or input.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SurfaceDiff {
    /// Replace everything: the first notification, or after the tree was rebuilt.
    Reset { root: Option<String>, nodes: Vec<ResolvedNode> },
    /// Nodes added or changed, and ids removed.
    Patch { upserted: Vec<ResolvedNode>, removed: Vec<String> },
}

impl SurfaceDiff {
    pub fn is_empty(&self) -> bool {
        matches!(self, SurfaceDiff::Patch { upserted, removed } if upserted.is_empty() && removed.is_empty())
    }
}
