//! Resolved nodes and diffs as records: field for field what the A2UI engine resolved.

use std::sync::Arc;

use agentui_a2ui::node::{ActionKind, ResolvedNode};
use agentui_a2ui::SurfaceDiff;

use crate::value::PropEntry;

/// Outcome of one `checks` rule of a node.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct CheckRecord {
    pub message: String,
    pub passed: bool,
}

/// A two-way binding: the input writes its value to `path` with `set_value`.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct BindingRecord {
    pub property: String,
    pub path: String,
}

/// What a node does when the user activates it.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum ActionKindRecord {
    /// Sends an action named `name` to the agent (`dispatch_action` starts a run).
    Event { name: String },
    /// Runs a client-side function (e.g. `openUrl`).
    FunctionCall { name: String },
}

/// One component instance, fully resolved: map it to a native widget.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ResolvedNodeRecord {
    /// Instance id: the component id, or `componentId@/data/path` for template instances.
    pub id: String,
    pub component_id: String,
    /// Catalog type, e.g. `Text`, `Button`.
    pub component_type: String,
    /// Resolved properties in the agent's order (`child`/`children` are in `children`).
    pub props: Vec<PropEntry>,
    /// Child instance ids in order; an id with no node yet is pending.
    pub children: Vec<String>,
    pub accessibility_label: Option<String>,
    pub accessibility_description: Option<String>,
    pub checks: Vec<CheckRecord>,
    /// The first failing check's message (inputs show it).
    pub validation_message: Option<String>,
    /// False when a check fails on an actionable component.
    pub enabled: bool,
    pub action: Option<ActionKindRecord>,
    pub bindings: Vec<BindingRecord>,
    pub weight: Option<f64>,
}

/// A change to a surface's nodes.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum SurfaceDiffRecord {
    /// Replace everything (the first notification of a subscription, a rebuild, a deletion).
    Reset { root: Option<String>, nodes: Vec<ResolvedNodeRecord> },
    /// Nodes added or changed, and ids removed.
    Patch { upserted: Vec<ResolvedNodeRecord>, removed: Vec<String> },
}

impl From<&ResolvedNode> for ResolvedNodeRecord {
    fn from(node: &ResolvedNode) -> Self {
        let accessibility = node.accessibility.as_ref();
        ResolvedNodeRecord {
            id: node.id.to_string(),
            component_id: node.component_id.to_string(),
            component_type: node.component_type.to_string(),
            props: node
                .props
                .iter()
                .map(|(name, value)| PropEntry { name: name.to_owned(), value: value.into() })
                .collect(),
            children: node.children.iter().map(|c| c.to_string()).collect(),
            accessibility_label: accessibility.and_then(|a| a.label.clone()),
            accessibility_description: accessibility.and_then(|a| a.description.clone()),
            checks: node.checks.iter().map(|c| CheckRecord { message: c.message.clone(), passed: c.passed }).collect(),
            validation_message: node.validation_message.clone(),
            enabled: node.enabled,
            action: node.action.as_ref().map(|a| match a {
                ActionKind::Event { name } => ActionKindRecord::Event { name: name.to_string() },
                ActionKind::FunctionCall { name } => ActionKindRecord::FunctionCall { name: name.to_string() },
            }),
            bindings: node
                .bindings
                .iter()
                .map(|b| BindingRecord { property: b.property.to_string(), path: b.path.to_string() })
                .collect(),
            weight: node.weight,
        }
    }
}

pub(crate) fn records(nodes: &[Arc<ResolvedNode>]) -> Vec<ResolvedNodeRecord> {
    nodes.iter().map(|n| n.as_ref().into()).collect()
}

impl From<&SurfaceDiff> for SurfaceDiffRecord {
    fn from(diff: &SurfaceDiff) -> Self {
        match diff {
            SurfaceDiff::Reset { root, nodes } => {
                SurfaceDiffRecord::Reset { root: root.clone(), nodes: records(nodes) }
            }
            SurfaceDiff::Patch { upserted, removed } => SurfaceDiffRecord::Patch {
                upserted: records(upserted),
                removed: removed.iter().map(|r| r.to_string()).collect(),
            },
        }
    }
}
