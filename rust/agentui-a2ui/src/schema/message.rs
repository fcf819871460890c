//! Wording of error messages: names for shapes, short lists, summaries of a branch's errors.
//! Messages go back to agents and developers, so they stay short and name what was expected.

use std::collections::HashSet;

use serde_json::Value;

use super::json::{preview, type_name};
use super::node::{Branches, Node, NodeId};
use super::SchemaError;

/// How far label/type look-ups follow `$ref`/`allOf`/`oneOf`; enough for real schemas, and a
/// bound for cyclic ones.
const LOOKUP_DEPTH: usize = 8;

/// Items listed before "and N more".
const LIST_LIMIT: usize = 20;

/// Errors quoted from the closest branch of a failed oneOf/anyOf.
const SUMMARY_LIMIT: usize = 2;

pub(crate) fn describe_type(instance: &Value) -> &'static str {
    type_name(instance)
}

pub(crate) fn plural(count: u64, word: &str) -> String {
    match (count, word) {
        (1, _) => word.to_string(),
        (_, "property") => "properties".to_string(),
        _ => format!("{word}s"),
    }
}

fn list(items: Vec<String>) -> String {
    let total = items.len();
    let mut shown: Vec<String> = items.into_iter().take(LIST_LIMIT).collect();
    if total > LIST_LIMIT {
        shown.push(format!("and {} more", total - LIST_LIMIT));
    }
    shown.join(", ")
}

pub(crate) fn list_values(values: &[Value]) -> String {
    list(values.iter().map(preview).collect())
}

pub(crate) fn list_strings(values: &[String]) -> String {
    list(values.iter().map(|v| format!("{v:?}")).collect())
}

pub(crate) fn list_shapes(shapes: &[String]) -> String {
    list(shapes.to_vec())
}

/// A name for the shape `id` accepts: its title, the `$ref` it stands for, its constant or its
/// type. `None` when the schema has nothing nameable.
pub(crate) fn label(nodes: &[Node], id: NodeId) -> Option<String> {
    find_label(nodes, id, 0)
}

fn find_label(nodes: &[Node], id: NodeId, depth: usize) -> Option<String> {
    let node = nodes.get(id)?;
    if depth > LOOKUP_DEPTH {
        return None;
    }
    match node.boolean {
        Some(true) => return Some("any value".to_string()),
        Some(false) => return Some("nothing".to_string()),
        None => {}
    }
    if let Some(label) = &node.label {
        return Some(label.to_string());
    }
    if let Some(constant) = &node.constant {
        return Some(preview(constant));
    }
    if let Some(values) = &node.enumeration {
        return Some(format!("one of {}", list_values(values)));
    }
    if let Some(types) = node.types {
        return Some(types.describe());
    }
    if let Some(required) = node.object.as_ref().map(|o| &o.required).filter(|r| !r.is_empty()) {
        let names: Vec<String> = required.iter().map(|name| format!("{name:?}")).collect();
        return Some(format!("object with {}", names.join(" and ")));
    }
    node.all_of.iter().find_map(|&part| find_label(nodes, part, depth + 1))
}

/// Whether `instance`'s type can possibly satisfy `id` (looking through `$ref`, `allOf`,
/// `anyOf`, `oneOf`). Branches that fail on type alone are not "close".
pub(crate) fn admits_type(nodes: &[Node], id: NodeId, instance: &Value) -> bool {
    admits(nodes, id, instance, 0)
}

fn admits(nodes: &[Node], id: NodeId, instance: &Value, depth: usize) -> bool {
    let Some(node) = nodes.get(id) else {
        return false;
    };
    if depth > LOOKUP_DEPTH {
        return true;
    }
    if node.boolean == Some(false) || node.types.is_some_and(|t| !t.matches(instance)) {
        return false;
    }
    let required = node.reference.iter().chain(&node.all_of);
    let any = |branches: &Option<Box<Branches>>| {
        branches.as_ref().is_none_or(|b| b.ids.iter().any(|&id| admits(nodes, id, instance, depth + 1)))
    };
    required.into_iter().all(|&part| admits(nodes, part, instance, depth + 1)) && any(&node.any_of) && any(&node.one_of)
}

/// "`message` at `path`" for up to a couple of errors, relative paths shown in full.
pub(crate) fn summarize(errors: &[SchemaError], here: &str) -> String {
    let mut sorted = errors.to_vec();
    sort_and_dedup(&mut sorted);
    let mut parts: Vec<String> = sorted
        .iter()
        .take(SUMMARY_LIMIT)
        .map(|e| {
            if e.instance_path == here {
                e.message.clone()
            } else {
                format!("{} (at {})", e.message, display_path(&e.instance_path))
            }
        })
        .collect();
    if sorted.len() > SUMMARY_LIMIT {
        parts.push(format!("and {} more", sorted.len() - SUMMARY_LIMIT));
    }
    parts.join("; ")
}

fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "the root"
    } else {
        path
    }
}

fn depth(path: &str) -> usize {
    path.matches('/').count()
}

/// Most specific (deepest) first, keeping document order among equals; exact repeats dropped.
pub(crate) fn sort_and_dedup(errors: &mut Vec<SchemaError>) {
    let mut seen = HashSet::new();
    errors.retain(|e| seen.insert((e.instance_path.clone(), e.message.clone())));
    errors.sort_by_key(|e| std::cmp::Reverse(depth(&e.instance_path)));
}
