//! Narrowing `oneOf`/`anyOf` branches before trying them.
//!
//! Each branch gets a [`BranchShape`]: facts that hold for everything it requires
//! unconditionally (the branch itself, its `$ref` and `allOf` chain). Any one of them failing
//! means the branch fails, so a branch whose shape rules the instance out can be skipped without
//! changing the verdict or the annotations (failed branches contribute none):
//!
//! - a `type` the instance does not have;
//! - a `required` property the object lacks;
//! - a property the object has but an `additionalProperties: false` (without
//!   `patternProperties`) does not list;
//! - a property pinned by `properties.<k>.const` (or a one-value `enum`) to another value.
//!
//! When only one branch survives, its own errors (with their precise paths) are the errors.
//!
//! On top of that, a union whose branches all pin the same property to distinct strings is a
//! tagged union (`anyComponent` by `component`, `anyFunction` by `call`): the tag selects the
//! branch directly, and an unknown tag gets its own message.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::json::{json_eq, TypeSet};
use super::node::{Branches, Node, NodeId};

/// How many nodes one branch walk may visit: real chains are short, cyclic or huge ones are cut.
const WALK_LIMIT: usize = 256;

/// What a branch unconditionally requires (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct BranchShape {
    /// The branch contains the `false` schema in its chain and can never match.
    never: bool,
    types: Vec<TypeSet>,
    required: Vec<String>,
    /// Nodes with `additionalProperties: false` and no `patternProperties`: only their
    /// `properties` may appear.
    closed: Vec<NodeId>,
    /// Properties that must equal a constant when present.
    pinned: Vec<(String, Value)>,
}

impl BranchShape {
    /// Whether this branch certainly fails for `instance`.
    pub fn rules_out(&self, nodes: &[Node], instance: &Value) -> bool {
        if self.never || self.types.iter().any(|t| !t.matches(instance)) {
            return true;
        }
        let Value::Object(map) = instance else {
            return false;
        };
        if self.required.iter().any(|name| !map.contains_key(name)) {
            return true;
        }
        let listed = |id: NodeId, name: &str| {
            nodes.get(id).and_then(|n| n.object.as_ref()).is_some_and(|o| o.properties.contains_key(name))
        };
        if self.closed.iter().any(|&id| map.keys().any(|name| !listed(id, name))) {
            return true;
        }
        self.pinned.iter().any(|(name, constant)| map.get(name).is_some_and(|v| !json_eq(v, constant)))
    }
}

/// A union whose branches each pin one property to a distinct string.
#[derive(Debug)]
pub(crate) struct Discriminator {
    pub property: String,
    /// Tag value -> branch index.
    pub branches: HashMap<String, usize>,
    /// The tag values in branch order, for "expected one of" messages.
    pub expected: Vec<String>,
}

/// Fills in the shapes and tags of every union, once all nodes exist.
pub(crate) fn annotate(nodes: &mut [Node]) {
    for id in 0..nodes.len() {
        let any_of = nodes[id].any_of.as_ref().map(|b| analyse(nodes, &b.ids));
        let one_of = nodes[id].one_of.as_ref().map(|b| analyse(nodes, &b.ids));
        if let (Some(branches), Some((shapes, tag))) = (nodes[id].any_of.as_mut(), any_of) {
            (branches.shapes, branches.tag) = (shapes, tag);
        }
        if let (Some(branches), Some((shapes, tag))) = (nodes[id].one_of.as_mut(), one_of) {
            (branches.shapes, branches.tag) = (shapes, tag);
        }
    }
}

fn analyse(nodes: &[Node], ids: &[NodeId]) -> (Vec<BranchShape>, Option<Discriminator>) {
    let shapes: Vec<BranchShape> = ids.iter().map(|&id| shape(nodes, id)).collect();
    let tag = if shapes.len() >= 2 { find_tag(&shapes) } else { None };
    (shapes, tag)
}

fn shape(nodes: &[Node], branch: NodeId) -> BranchShape {
    let mut shape = BranchShape::default();
    let mut seen = HashSet::new();
    let mut stack = vec![branch];
    while let Some(id) = stack.pop() {
        if seen.len() >= WALK_LIMIT || !seen.insert(id) {
            continue;
        }
        let Some(node) = nodes.get(id) else {
            continue;
        };
        if node.boolean == Some(false) {
            shape.never = true;
        }
        shape.types.extend(node.types);
        if let Some(object) = &node.object {
            shape.required.extend(object.required.iter().cloned());
            let forbids_others = object.additional_properties.is_some_and(|a| is_false(nodes, a));
            if forbids_others && object.pattern_properties.is_empty() {
                shape.closed.push(id);
            }
            let mut names: Vec<&String> = object.properties.keys().collect();
            names.sort();
            for name in names {
                if let Some(constant) = object.properties.get(name).and_then(|&p| required_constant(nodes, p)) {
                    shape.pinned.push((name.clone(), constant));
                }
            }
        }
        stack.extend(node.reference);
        stack.extend(node.all_of.iter().rev().copied());
    }
    shape
}

fn is_false(nodes: &[Node], id: NodeId) -> bool {
    nodes.get(id).is_some_and(|n| n.boolean == Some(false))
}

/// The constant a schema requires (`const`, or a one-value `enum`), looking through `$ref` and
/// `allOf`.
fn required_constant(nodes: &[Node], id: NodeId) -> Option<Value> {
    let mut seen = HashSet::new();
    let mut stack = vec![id];
    while let Some(current) = stack.pop() {
        if seen.len() >= WALK_LIMIT || !seen.insert(current) {
            continue;
        }
        let node = nodes.get(current)?;
        if let Some(constant) = &node.constant {
            return Some(constant.clone());
        }
        if let Some([only]) = node.enumeration.as_deref() {
            return Some(only.clone());
        }
        stack.extend(node.reference);
        stack.extend(node.all_of.iter().rev().copied());
    }
    None
}

/// The first property (by name) that every branch pins to a string, all different.
fn find_tag(shapes: &[BranchShape]) -> Option<Discriminator> {
    let string_pins = |shape: &BranchShape, name: &str| {
        shape.pinned.iter().find(|(k, _)| k == name).and_then(|(_, v)| v.as_str().map(str::to_string))
    };
    let mut names: Vec<&String> = shapes.first()?.pinned.iter().map(|(k, _)| k).collect();
    names.sort();
    names.dedup();
    'names: for name in names {
        let mut branches = HashMap::new();
        let mut expected = Vec::new();
        for (index, shape) in shapes.iter().enumerate() {
            let Some(value) = string_pins(shape, name) else {
                continue 'names;
            };
            if branches.insert(value.clone(), index).is_some() {
                continue 'names;
            }
            expected.push(value);
        }
        return Some(Discriminator { property: name.clone(), branches, expected });
    }
    None
}

/// Indexes of the branches `instance` might satisfy.
pub(crate) fn candidates(nodes: &[Node], branches: &Branches, instance: &Value) -> Vec<usize> {
    (0..branches.ids.len())
        .filter(|&i| branches.shapes.get(i).is_none_or(|shape| !shape.rules_out(nodes, instance)))
        .collect()
}
