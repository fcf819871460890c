//! A surface printed as an indented text tree, for terminals and demos.

use agentui_a2ui::{ResolvedNode, Surface};
use serde_json::Value;

pub fn render(surface: &Surface) -> String {
    let mut out = format!("surface {} ({})\n", surface.id(), surface.catalog_id());
    if !surface.has_root() {
        out.push_str("  (waiting for root component)\n");
        return out;
    }
    let mut stack = vec![(surface.root_id().to_owned(), 1usize)];
    while let Some((id, depth)) = stack.pop() {
        let indent = "  ".repeat(depth);
        match surface.node(&id) {
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
