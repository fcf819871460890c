//! A surface printed as an indented text tree, for terminals and demos.

use std::collections::HashMap;

use agentui_a2ui::{ResolvedNode, Surface};
use agentui_runtime::SurfaceSnapshot;
use serde_json::Value;

pub fn render(surface: &Surface) -> String {
    let root = surface.has_root().then(|| surface.root_id());
    render_nodes(surface.id(), surface.catalog_id(), root, |id| surface.node(id))
}

/// A surface as a conversation's observers see it (its resolved nodes at one point).
pub fn render_snapshot(surface: &SurfaceSnapshot) -> String {
    let nodes: HashMap<&str, &ResolvedNode> = surface.nodes.iter().map(|n| (n.id.as_ref(), n.as_ref())).collect();
    let root = surface.root.as_deref().filter(|r| nodes.contains_key(r));
    render_nodes(&surface.surface_id, &surface.catalog_id, root, |id| nodes.get(id).copied())
}

fn render_nodes<'a>(
    surface_id: &str,
    catalog_id: &str,
    root: Option<&str>,
    node: impl Fn(&str) -> Option<&'a ResolvedNode>,
) -> String {
    let mut out = format!("surface {surface_id} ({catalog_id})\n");
    let Some(root) = root else {
        out.push_str("  (waiting for root component)\n");
        return out;
    };
    let mut stack = vec![(root.to_owned(), 1usize)];
    while let Some((id, depth)) = stack.pop() {
        let indent = "  ".repeat(depth);
        match node(&id) {
            Some(node) => {
                out.push_str(&format!("{indent}{}\n", describe(node)));
                stack.extend(node.children.iter().rev().map(|c| (c.to_string(), depth + 1)));
            }
            None => out.push_str(&format!("{indent}… {id} (pending)\n")),
        }
    }
    out
}

fn describe(node: &ResolvedNode) -> String {
    let mut line = format!("{} #{}", node.component_type, node.id);
    for key in ["text", "label", "value", "url", "name", "variant"] {
        if let Some(v) = node.props.get(key) {
            let shown = match v {
                Value::String(s) => format!("{s:?}"),
                other => other.to_string(),
            };
            line.push_str(&format!(" {key}={shown}"));
        }
    }
    if !node.enabled {
        line.push_str(" [disabled]");
    }
    if let Some(message) = &node.validation_message {
        line.push_str(&format!(" [check: {message}]"));
    }
    line
}
