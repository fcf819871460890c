//! The compiled form of a schema: a flat arena of nodes that refer to each other by index, so
//! recursive `$ref`s are plain back-edges and the whole program is one `Arc` to share.
//! Keywords are grouped by the instance type they constrain, so a node only pays for the groups
//! it has.

use std::collections::HashMap;

use serde_json::{Number, Value};

use super::discriminator::{BranchShape, Discriminator};
use super::format::Format;
use super::json::TypeSet;
use super::pattern::Pattern;

pub(crate) type NodeId = usize;

/// Everything one `compile` call reached.
#[derive(Debug)]
pub(crate) struct Program {
    pub nodes: Vec<Node>,
}

#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `Some(b)` for the boolean schemas `true` and `false`; every other field is then unused.
    pub boolean: Option<bool>,
    /// `title`, or the last token of the `$ref`: names this shape in oneOf/anyOf messages.
    pub label: Option<Box<str>>,
    pub types: Option<TypeSet>,
    pub constant: Option<Value>,
    pub enumeration: Option<Vec<Value>>,
    pub reference: Option<NodeId>,
    pub all_of: Vec<NodeId>,
    pub any_of: Option<Box<Branches>>,
    pub one_of: Option<Box<Branches>>,
    pub not: Option<NodeId>,
    pub condition: Option<Box<Condition>>,
    pub number: Option<Box<NumberRules>>,
    pub string: Option<Box<StringRules>>,
    pub array: Option<Box<ArrayRules>>,
    pub object: Option<Box<ObjectRules>>,
}

/// `if` / `then` / `else`.
#[derive(Debug)]
pub(crate) struct Condition {
    pub test: NodeId,
    pub then: Option<NodeId>,
    pub otherwise: Option<NodeId>,
}

#[derive(Debug, Default)]
pub(crate) struct NumberRules {
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<Number>,
}

#[derive(Debug, Default)]
pub(crate) struct StringRules {
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<Pattern>,
    pub format: Option<Format>,
}

#[derive(Debug, Default)]
pub(crate) struct ArrayRules {
    pub prefix_items: Vec<NodeId>,
    pub items: Option<NodeId>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub contains: Option<NodeId>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
}

#[derive(Debug, Default)]
pub(crate) struct ObjectRules {
    pub properties: HashMap<String, NodeId>,
    pub pattern_properties: Vec<(Pattern, NodeId)>,
    pub additional_properties: Option<NodeId>,
    pub unevaluated_properties: Option<NodeId>,
    pub required: Vec<String>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub property_names: Option<NodeId>,
    pub dependent_required: Vec<(String, Vec<String>)>,
    pub dependent_schemas: Vec<(String, NodeId)>,
}

/// The branches of an `anyOf` or `oneOf`, with what is known about each (filled in by
/// `discriminator::annotate` once every node exists).
#[derive(Debug, Default)]
pub(crate) struct Branches {
    pub ids: Vec<NodeId>,
    pub shapes: Vec<BranchShape>,
    pub tag: Option<Discriminator>,
}
