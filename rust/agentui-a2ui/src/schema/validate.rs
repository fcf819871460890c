//! Walks an instance against a [`Program`].
//!
//! Two modes share one code path: *collect* (every error, with messages) and *fail fast* (stop
//! at the first failure, format nothing), used for `is_valid` and for probing `anyOf`/`oneOf`
//! branches. Errors for a failed `anyOf`/`oneOf` are only computed once we know it failed.
//!
//! `unevaluatedProperties` needs to know which properties the rest of its schema evaluated,
//! including through successful in-place subschemas (`allOf`, `anyOf`, `oneOf`, `if`/`then`/
//! `else`, `$ref`, `dependentSchemas`). That set is only tracked where some schema at the same
//! instance location has `unevaluatedProperties`.

use std::collections::HashMap;
use std::mem;

use serde_json::{Map, Number, Value};

use super::discriminator::{self, Discriminator};
use super::json::{cmp_numbers, exact_int, json_eq, json_hash, preview};
use super::message;
use super::node::{ArrayRules, Branches, Condition, Node, NodeId, NumberRules, ObjectRules, Program, StringRules};
use super::uri::escape_token;
use super::SchemaError;

/// Deepest nesting of schema applications (each `$ref`, subschema or child value is one level).
pub(crate) const MAX_DEPTH: usize = 256;

/// Node visits one validation may make before giving up. Generous for real payloads (a few
/// thousand components take well under a million); it stops schemas whose branch structure
/// would take exponential time from hanging the caller.
pub(crate) const MAX_STEPS: u64 = 20_000_000;

/// One step of the instance path.
#[derive(Debug, Clone, Copy)]
enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

/// The properties of one object (by position) that some keyword has evaluated.
#[derive(Debug, Clone)]
struct Evaluated(Vec<bool>);

impl Evaluated {
    fn new(len: usize) -> Self {
        Evaluated(vec![false; len])
    }

    fn mark(&mut self, index: usize) {
        if let Some(slot) = self.0.get_mut(index) {
            *slot = true;
        }
    }

    fn mark_all(&mut self) {
        self.0.iter_mut().for_each(|slot| *slot = true);
    }

    fn merge(&mut self, other: &Evaluated) {
        for (slot, &theirs) in self.0.iter_mut().zip(&other.0) {
            *slot |= theirs;
        }
    }

    fn contains(&self, index: usize) -> bool {
        self.0.get(index).copied().unwrap_or(false)
    }
}

/// A fresh evaluated set for `instance` when the caller tracks one and it is an object.
fn fresh(instance: &Value, tracking: bool) -> Option<Evaluated> {
    match instance {
        Value::Object(map) if tracking => Some(Evaluated::new(map.len())),
        _ => None,
    }
}

pub(crate) struct Validator<'p, 'v> {
    nodes: &'p [Node],
    path: Vec<Segment<'v>>,
    fail_fast: bool,
    errors: Vec<SchemaError>,
    depth: usize,
    steps: u64,
    /// Set when a limit is hit: validation stops and this is the one error that explains why.
    aborted: Option<SchemaError>,
    /// Whether unions may skip branches that certainly fail (off only to test that skipping
    /// never changes a verdict).
    narrow: bool,
}

/// Every error of `instance`, deepest path first.
pub(crate) fn validate(program: &Program, root: NodeId, instance: &Value) -> Vec<SchemaError> {
    let mut validator = Validator::new(&program.nodes, false);
    validator.node(root, instance, None);
    let mut errors = mem::take(&mut validator.errors);
    errors.extend(validator.aborted.take());
    message::sort_and_dedup(&mut errors);
    errors
}

pub(crate) fn is_valid(program: &Program, root: NodeId, instance: &Value) -> bool {
    let mut validator = Validator::new(&program.nodes, true);
    validator.node(root, instance, None) && validator.aborted.is_none()
}

/// The verdict with every union branch tried, as the spec describes it.
#[cfg(test)]
pub(crate) fn is_valid_without_narrowing(program: &Program, root: NodeId, instance: &Value) -> bool {
    let mut validator = Validator::new(&program.nodes, true);
    validator.narrow = false;
    validator.node(root, instance, None) && validator.aborted.is_none()
}

/// Records a keyword's verdict: in fail-fast mode the first failure returns `false` at once.
macro_rules! check {
    ($self:ident, $ok:ident, $verdict:expr) => {
        if !$verdict {
            $ok = false;
            if $self.fail_fast {
                return false;
            }
        }
    };
}

impl<'p, 'v> Validator<'p, 'v> {
    fn new(nodes: &'p [Node], fail_fast: bool) -> Self {
        Validator {
            nodes,
            path: Vec::new(),
            fail_fast,
            errors: Vec::new(),
            depth: 0,
            steps: 0,
            aborted: None,
            narrow: true,
        }
    }

    fn pointer(&self) -> String {
        let mut out = String::new();
        for segment in &self.path {
            out.push('/');
            match segment {
                Segment::Key(key) => out.push_str(&escape_token(key)),
                Segment::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// Reports an error at the current path (message built only when collecting).
    fn error(&mut self, message: impl FnOnce() -> String) {
        if !self.fail_fast {
            let instance_path = self.pointer();
            self.errors.push(SchemaError { instance_path, message: message() });
        }
    }

    /// Reports an error at a child of the current path.
    fn error_at(&mut self, segment: Segment<'v>, message: impl FnOnce() -> String) {
        self.path.push(segment);
        self.error(message);
        self.path.pop();
    }

    fn abort(&mut self, message: String) {
        if self.aborted.is_none() {
            self.aborted = Some(SchemaError { instance_path: self.pointer(), message });
        }
    }

    /// Validates a child value (array item or property value) against `id`.
    fn child(&mut self, segment: Segment<'v>, id: NodeId, value: &'v Value) -> bool {
        self.path.push(segment);
        let ok = self.node(id, value, None);
        self.path.pop();
        ok
    }

    /// The verdict of `id` without recording errors (branch probing).
    fn probe(&mut self, id: NodeId, instance: &'v Value, evaluated: Option<&mut Evaluated>) -> bool {
        let saved = mem::replace(&mut self.fail_fast, true);
        let ok = self.node(id, instance, evaluated);
        self.fail_fast = saved;
        ok
    }

    /// Every error of `id` in isolation (for explaining a failed branch).
    fn collect(&mut self, id: NodeId, instance: &'v Value) -> Vec<SchemaError> {
        let saved = mem::replace(&mut self.fail_fast, false);
        let start = self.errors.len();
        self.node(id, instance, None);
        self.fail_fast = saved;
        self.errors.split_off(start)
    }

    fn node(&mut self, id: NodeId, instance: &'v Value, evaluated: Option<&mut Evaluated>) -> bool {
        if self.aborted.is_some() {
            return false;
        }
        self.steps += 1;
        if self.depth >= MAX_DEPTH {
            self.abort(format!("schema nesting deeper than {MAX_DEPTH} levels; validation stopped"));
            return false;
        }
        if self.steps > MAX_STEPS {
            self.abort(format!("validation needed more than {MAX_STEPS} steps and was stopped"));
            return false;
        }
        let nodes = self.nodes;
        let Some(node) = nodes.get(id) else {
            return false;
        };
        if let Some(accept) = node.boolean {
            if !accept {
                self.error(|| "no value is allowed here".to_string());
            }
            return accept;
        }
        self.depth += 1;
        let ok = self.keywords(node, instance, evaluated);
        self.depth -= 1;
        ok
    }

    fn keywords(&mut self, node: &'p Node, instance: &'v Value, evaluated: Option<&mut Evaluated>) -> bool {
        // A type mismatch makes every other keyword noise, so it is reported alone.
        if let Some(types) = node.types {
            if !types.matches(instance) {
                self.error(|| format!("expected {}, got {}", types.describe(), message::describe_type(instance)));
                return false;
            }
        }
        let mut ok = true;
        if let Some(constant) = &node.constant {
            check!(self, ok, self.constant(constant, instance));
        }
        if let Some(values) = &node.enumeration {
            check!(self, ok, self.enumeration(values, instance));
        }
        match instance {
            Value::Number(n) => {
                if let Some(rules) = &node.number {
                    check!(self, ok, self.number(rules, n));
                }
            }
            Value::String(s) => {
                if let Some(rules) = &node.string {
                    check!(self, ok, self.string(rules, s));
                }
            }
            Value::Array(items) => {
                if let Some(rules) = &node.array {
                    check!(self, ok, self.array(rules, items));
                }
            }
            _ => {}
        }
        let unevaluated = match (instance, &node.object) {
            (Value::Object(map), Some(rules)) => rules.unevaluated_properties.map(|u| (map, u)),
            _ => None,
        };
        match unevaluated {
            Some((map, schema)) => {
                // This node's own view of what was evaluated; siblings in the parent must not
                // count towards it.
                let mut own = Evaluated::new(map.len());
                check!(self, ok, self.in_place(node, instance, Some(&mut own)));
                check!(self, ok, self.unevaluated(schema, map, &own));
                // Every property has now been evaluated, by this node or by its
                // unevaluatedProperties.
                if let Some(parent) = evaluated {
                    parent.mark_all();
                }
            }
            None => check!(self, ok, self.in_place(node, instance, evaluated)),
        }
        ok
    }

    /// Object keywords and the in-place applicators: everything that can evaluate properties.
    fn in_place(&mut self, node: &'p Node, instance: &'v Value, mut evaluated: Option<&mut Evaluated>) -> bool {
        let mut ok = true;
        if let (Value::Object(map), Some(rules)) = (instance, &node.object) {
            check!(self, ok, self.object(rules, instance, map, evaluated.as_deref_mut()));
        }
        // `$ref` and `allOf` are conjunctive: if one fails the node fails anyway, so their
        // annotations are kept even on failure. That keeps a bad `text` from also being
        // reported as an unexpected property.
        if let Some(target) = node.reference {
            check!(self, ok, self.node(target, instance, evaluated.as_deref_mut()));
        }
        for &part in &node.all_of {
            check!(self, ok, self.node(part, instance, evaluated.as_deref_mut()));
        }
        if let Some(branches) = &node.any_of {
            check!(self, ok, self.union(branches, false, instance, evaluated.as_deref_mut()));
        }
        if let Some(branches) = &node.one_of {
            check!(self, ok, self.union(branches, true, instance, evaluated.as_deref_mut()));
        }
        if let Some(forbidden) = node.not {
            check!(self, ok, self.not(forbidden, instance));
        }
        if let Some(condition) = &node.condition {
            check!(self, ok, self.condition(condition, instance, evaluated));
        }
        ok
    }

    fn constant(&mut self, constant: &Value, instance: &Value) -> bool {
        if json_eq(constant, instance) {
            return true;
        }
        self.error(|| format!("expected {}, got {}", preview(constant), preview(instance)));
        false
    }

    fn enumeration(&mut self, values: &[Value], instance: &Value) -> bool {
        if values.iter().any(|v| json_eq(v, instance)) {
            return true;
        }
        self.error(|| format!("{} is not one of {}", preview(instance), message::list_values(values)));
        false
    }

    fn number(&mut self, rules: &NumberRules, n: &Number) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let mut ok = true;
        // (limit, how a valid value relates to it, orderings that violate it)
        let bounds = [
            (&rules.minimum, ">=", [Less].as_slice()),
            (&rules.maximum, "<=", [Greater].as_slice()),
            (&rules.exclusive_minimum, ">", [Less, Equal].as_slice()),
            (&rules.exclusive_maximum, "<", [Greater, Equal].as_slice()),
        ];
        for (limit, relation, failing) in bounds {
            let Some(limit) = limit else {
                continue;
            };
            if cmp_numbers(n, limit).is_none_or(|order| failing.contains(&order)) {
                self.error(|| format!("must be {relation} {limit}, got {n}"));
                check!(self, ok, false);
            }
        }
        if let Some(divisor) = rules.multiple_of.as_ref().filter(|d| !is_multiple_of(n, d)) {
            self.error(|| format!("must be a multiple of {divisor}, got {n}"));
            check!(self, ok, false);
        }
        ok
    }

    fn string(&mut self, rules: &'p StringRules, s: &str) -> bool {
        let mut ok = true;
        if rules.min_length.is_some() || rules.max_length.is_some() {
            let length = s.chars().count() as u64;
            if let Some(min) = rules.min_length.filter(|&min| length < min) {
                self.error(|| {
                    format!("must be at least {min} {} long, got {length}", message::plural(min, "character"))
                });
                check!(self, ok, false);
            }
            if let Some(max) = rules.max_length.filter(|&max| length > max) {
                self.error(|| {
                    format!("must be at most {max} {} long, got {length}", message::plural(max, "character"))
                });
                check!(self, ok, false);
            }
        }
        if let Some(pattern) = &rules.pattern {
            if !pattern.is_match(s) {
                self.error(|| format!("{} does not match pattern {:?}", preview(&Value::from(s)), pattern.source));
                check!(self, ok, false);
            }
        }
        if let Some(format) = rules.format {
            if !format.check(s) {
                self.error(|| format!("{} is not a valid {}", preview(&Value::from(s)), format.name()));
                check!(self, ok, false);
            }
        }
        ok
    }

    fn array(&mut self, rules: &'p ArrayRules, items: &'v [Value]) -> bool {
        let mut ok = true;
        let len = items.len() as u64;
        if let Some(min) = rules.min_items.filter(|&min| len < min) {
            self.error(|| format!("expected at least {min} {}, got {len}", message::plural(min, "item")));
            check!(self, ok, false);
        }
        if let Some(max) = rules.max_items.filter(|&max| len > max) {
            self.error(|| format!("expected at most {max} {}, got {len}", message::plural(max, "item")));
            check!(self, ok, false);
        }
        if rules.unique_items {
            if let Some((first, second)) = first_duplicate(items) {
                self.error(|| format!("items {first} and {second} are equal; items must be unique"));
                check!(self, ok, false);
            }
        }
        for (i, (item, &schema)) in items.iter().zip(&rules.prefix_items).enumerate() {
            check!(self, ok, self.child(Segment::Index(i), schema, item));
        }
        if let Some(schema) = rules.items {
            let start = rules.prefix_items.len();
            if self.nodes.get(schema).is_some_and(|n| n.boolean == Some(false)) && items.len() > start {
                for i in start..items.len() {
                    self.error_at(Segment::Index(i), || format!("unexpected item; at most {start} allowed"));
                }
                check!(self, ok, false);
            } else {
                for (i, item) in items.iter().enumerate().skip(start) {
                    check!(self, ok, self.child(Segment::Index(i), schema, item));
                }
            }
        }
        if let Some(schema) = rules.contains {
            check!(self, ok, self.contains(rules, schema, items));
        }
        ok
    }

    fn contains(&mut self, rules: &ArrayRules, schema: NodeId, items: &'v [Value]) -> bool {
        let mut found: u64 = 0;
        for (i, item) in items.iter().enumerate() {
            self.path.push(Segment::Index(i));
            found += u64::from(self.probe(schema, item, None));
            self.path.pop();
        }
        let min = rules.min_contains.unwrap_or(1);
        if found < min {
            self.error(|| format!("expected at least {min} matching {}, found {found}", message::plural(min, "item")));
            return false;
        }
        if let Some(max) = rules.max_contains.filter(|&max| found > max) {
            self.error(|| format!("expected at most {max} matching {}, found {found}", message::plural(max, "item")));
            return false;
        }
        true
    }

    fn object(
        &mut self,
        rules: &'p ObjectRules,
        instance: &'v Value,
        map: &'v Map<String, Value>,
        mut evaluated: Option<&mut Evaluated>,
    ) -> bool {
        let mut ok = true;
        for name in &rules.required {
            if !map.contains_key(name) {
                self.error(|| format!("missing required property {:?}", name));
                check!(self, ok, false);
            }
        }
        let count = map.len() as u64;
        if let Some(min) = rules.min_properties.filter(|&min| count < min) {
            self.error(|| format!("expected at least {min} {}, got {count}", message::plural(min, "property")));
            check!(self, ok, false);
        }
        if let Some(max) = rules.max_properties.filter(|&max| count > max) {
            self.error(|| format!("expected at most {max} {}, got {count}", message::plural(max, "property")));
            check!(self, ok, false);
        }
        for (name, required) in &rules.dependent_required {
            if map.contains_key(name) {
                for other in required.iter().filter(|other| !map.contains_key(*other)) {
                    self.error(|| format!("missing property {other:?}, required when {name:?} is present"));
                    check!(self, ok, false);
                }
            }
        }
        let has_applicators = !rules.properties.is_empty()
            || !rules.pattern_properties.is_empty()
            || rules.additional_properties.is_some();
        if has_applicators {
            for (index, (name, value)) in map.iter().enumerate() {
                let mut matched = false;
                if let Some(&schema) = rules.properties.get(name) {
                    matched = true;
                    check!(self, ok, self.child(Segment::Key(name), schema, value));
                }
                for (pattern, schema) in &rules.pattern_properties {
                    if pattern.is_match(name) {
                        matched = true;
                        check!(self, ok, self.child(Segment::Key(name), *schema, value));
                    }
                }
                if !matched {
                    if let Some(schema) = rules.additional_properties {
                        matched = true;
                        check!(self, ok, self.extra_property(schema, name, value));
                    }
                }
                if matched {
                    if let Some(set) = evaluated.as_deref_mut() {
                        set.mark(index);
                    }
                }
            }
        }
        if let Some(schema) = rules.property_names {
            for name in map.keys() {
                check!(self, ok, self.property_name(schema, name));
            }
        }
        for (name, schema) in &rules.dependent_schemas {
            if map.contains_key(name) {
                check!(self, ok, self.node(*schema, instance, evaluated.as_deref_mut()));
            }
        }
        ok
    }

    /// A property covered only by additionalProperties / unevaluatedProperties.
    fn extra_property(&mut self, schema: NodeId, name: &'v str, value: &'v Value) -> bool {
        if self.nodes.get(schema).is_some_and(|n| n.boolean == Some(false)) {
            self.error_at(Segment::Key(name), || format!("unexpected property {name:?}"));
            return false;
        }
        self.child(Segment::Key(name), schema, value)
    }

    fn unevaluated(&mut self, schema: NodeId, map: &'v Map<String, Value>, evaluated: &Evaluated) -> bool {
        let mut ok = true;
        for (index, (name, value)) in map.iter().enumerate() {
            if !evaluated.contains(index) {
                check!(self, ok, self.extra_property(schema, name, value));
            }
        }
        ok
    }

    /// `propertyNames`: the name is validated as a string instance of its own, so it runs in a
    /// nested validator (the name does not live in the instance tree).
    fn property_name(&mut self, schema: NodeId, name: &'v str) -> bool {
        let as_value = Value::String(name.to_string());
        let mut nested = Validator::new(self.nodes, self.fail_fast);
        nested.narrow = self.narrow;
        nested.depth = self.depth;
        nested.steps = self.steps;
        let ok = nested.node(schema, &as_value, None);
        self.steps = nested.steps;
        if let Some(aborted) = nested.aborted {
            self.abort(aborted.message);
        }
        for error in nested.errors {
            self.error_at(Segment::Key(name), || format!("property name {name:?}: {}", error.message));
        }
        ok
    }

    /// `anyOf` (`exactly_one == false`) and `oneOf`.
    fn union(
        &mut self,
        union: &'p Branches,
        exactly_one: bool,
        instance: &'v Value,
        evaluated: Option<&mut Evaluated>,
    ) -> bool {
        let ids = union.ids.as_slice();
        // A single branch is just a conjunction: its errors are the errors.
        if let [only] = ids {
            return self.node(*only, instance, evaluated);
        }
        let tag = union.tag.as_ref().filter(|_| self.narrow);
        if let (Some(tag), Value::Object(map)) = (tag, instance) {
            if let Some((key, Value::String(value))) = map.get_key_value(&tag.property) {
                return match tag.branches.get(value).and_then(|&i| ids.get(i)) {
                    Some(&branch) => self.node(branch, instance, evaluated),
                    None => {
                        self.unknown_tag(tag, key, value);
                        false
                    }
                };
            }
        }
        // Branches that certainly fail are skipped; if one is left, it is the shape meant.
        let candidates = match self.narrow {
            true => discriminator::candidates(self.nodes, union, instance),
            false => (0..ids.len()).collect(),
        };
        if let [only] = candidates.as_slice() {
            return self.node(ids[*only], instance, evaluated);
        }
        let tracking = evaluated.is_some() && instance.is_object();
        let mut matched: Vec<usize> = Vec::new();
        let mut gathered: Option<Evaluated> = None;
        for &index in &candidates {
            let mut own = fresh(instance, tracking);
            if self.probe(ids[index], instance, own.as_mut()) {
                matched.push(index);
                if let Some(own) = own {
                    gathered.get_or_insert_with(|| Evaluated::new(own.0.len())).merge(&own);
                }
                // oneOf is decided by a second match; anyOf by the first, unless every passing
                // branch's annotations are needed.
                if (exactly_one && matched.len() > 1) || (!exactly_one && !tracking) {
                    break;
                }
            }
        }
        let ok = if exactly_one { matched.len() == 1 } else { !matched.is_empty() };
        if ok {
            if let (Some(parent), Some(gathered)) = (evaluated, &gathered) {
                parent.merge(gathered);
            }
            return true;
        }
        if !self.fail_fast && self.aborted.is_none() {
            self.report_union(ids, exactly_one, &matched, candidates, instance);
        }
        false
    }

    #[cold]
    #[inline(never)]
    fn unknown_tag(&mut self, tag: &Discriminator, key: &'v str, value: &str) {
        self.error_at(Segment::Key(key), || {
            let expected = message::list_strings(&tag.expected);
            format!("unknown value {value:?} for {:?}; expected one of {expected}", tag.property)
        });
    }

    /// The one error for a failed union. Kept out of `union` so the recursion's stack frames
    /// stay small.
    #[cold]
    #[inline(never)]
    fn report_union(
        &mut self,
        ids: &[NodeId],
        exactly_one: bool,
        matched: &[usize],
        candidates: Vec<usize>,
        instance: &'v Value,
    ) {
        if let [first, second, ..] = matched {
            let (a, b) = (self.shape(ids, *first), self.shape(ids, *second));
            self.error(|| format!("does not match exactly one of the allowed shapes: matches both {a} and {b}"));
            return;
        }
        let pool: Vec<usize> = if candidates.is_empty() { (0..ids.len()).collect() } else { candidates };
        let explanation = self.explain_no_match(ids, &pool, instance);
        let quantity = if exactly_one { "exactly one" } else { "any" };
        self.error(|| format!("does not match {quantity} of the allowed shapes: {explanation}"));
    }

    fn not(&mut self, forbidden: NodeId, instance: &'v Value) -> bool {
        if !self.probe(forbidden, instance, None) {
            return true;
        }
        if self.aborted.is_none() {
            match message::label(self.nodes, forbidden) {
                Some(label) => self.error(|| format!("must not be {label}")),
                None => self.error(|| "must not match the schema in \"not\"".to_string()),
            }
        }
        false
    }

    fn condition(&mut self, condition: &Condition, instance: &'v Value, evaluated: Option<&mut Evaluated>) -> bool {
        let mut own = fresh(instance, evaluated.is_some());
        let holds = self.probe(condition.test, instance, own.as_mut());
        if self.aborted.is_some() {
            return false;
        }
        let (parent, branch) = if holds {
            let parent = match (evaluated, &own) {
                (Some(parent), Some(own)) => {
                    parent.merge(own);
                    Some(parent)
                }
                (parent, _) => parent,
            };
            (parent, condition.then)
        } else {
            (evaluated, condition.otherwise)
        };
        match branch {
            Some(branch) => self.node(branch, instance, parent),
            None => true,
        }
    }

    /// Explains why no branch matched: the shapes on offer and, when one of them fits the
    /// instance's type, what is wrong with the closest one.
    fn explain_no_match(&mut self, branches: &[NodeId], pool: &[usize], instance: &'v Value) -> String {
        let shapes: Vec<String> = (0..branches.len()).map(|i| self.shape(branches, i)).collect();
        let here = self.pointer();
        let mut best: Option<((usize, usize), usize, Vec<SchemaError>)> = None;
        for &index in pool {
            let Some(&branch) = branches.get(index) else {
                continue;
            };
            if !message::admits_type(self.nodes, branch, instance) {
                continue;
            }
            let errors = self.collect(branch, instance);
            if errors.is_empty() {
                continue;
            }
            // Closest: fewest errors at the instance itself, then fewest errors overall.
            let shallow = errors.iter().filter(|e| e.instance_path == here).count();
            let score = (shallow, errors.len());
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, index, errors));
            }
        }
        let list = message::list_shapes(&shapes);
        match best {
            None => format!("{list}; got {}", message::describe_type(instance)),
            Some((_, index, errors)) => {
                format!("{list}; closest is {}: {}", shapes[index], message::summarize(&errors, &here))
            }
        }
    }

    /// The name of branch `index` of a oneOf/anyOf.
    fn shape(&self, branches: &[NodeId], index: usize) -> String {
        let id = branches.get(index).copied().unwrap_or_default();
        message::label(self.nodes, id).unwrap_or_else(|| format!("shape {}", index + 1))
    }
}

fn is_multiple_of(n: &Number, divisor: &Number) -> bool {
    if let (Some(x), Some(d)) = (exact_int(n), exact_int(divisor)) {
        return d != 0 && x % d == 0;
    }
    let (Some(x), Some(d)) = (n.as_f64(), divisor.as_f64()) else {
        return false;
    };
    let quotient = x / d;
    if !quotient.is_finite() {
        return false;
    }
    // Decimal divisors are inexact in binary (0.3 / 0.1 = 2.9999999999999996); tolerate that.
    (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
}

/// The first pair of equal items, found by hashing so large arrays stay linear.
fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let bucket = seen.entry(json_hash(item)).or_default();
        if let Some(&j) = bucket.iter().find(|&&j| json_eq(&items[j], item)) {
            return Some((j, i));
        }
        bucket.push(i);
    }
    None
}
