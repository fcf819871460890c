//! Turns registered schema documents into a [`Program`].
//!
//! Compilation is a worklist, not a recursion: every subschema location gets a node id the
//! first time it is seen (memoised on its location) and is queued for parsing. A `$ref` cycle
//! therefore just points back at an existing id, and no schema nesting depth can overflow the
//! stack.

use foldhash::HashMap;

use serde_json::{Map, Number, Value};

use super::discriminator;
use super::format::Format;
use super::json::TypeSet;
use super::node::{ArrayRules, Branches, Condition, Node, NodeId, NumberRules, ObjectRules, Program, StringRules};
use super::pattern::Pattern;
use super::registry::{base_of, Documents, Target};
use super::uri;
use super::SchemaCompileError;

/// A location waiting to be parsed into `nodes[id]`.
struct Pending<'d> {
    id: NodeId,
    doc: usize,
    pointer: String,
    value: &'d Value,
    base: String,
}

struct Compiler<'d> {
    documents: &'d Documents,
    nodes: Vec<Node>,
    ids: HashMap<(usize, String), NodeId>,
    queue: Vec<Pending<'d>>,
    /// Patterns compiled so far, by source: a catalog repeats some (v1.0's identifier pattern,
    /// Unicode classes, costs more than the rest of its schemas together), and a compiled regex
    /// is shared by cloning it.
    patterns: HashMap<String, Pattern>,
}

/// Compiles the schemas at `uris` into one program, so that what they share (common types,
/// the catalog's components referenced from every message) is compiled once. Returns each
/// schema's root node, in the order of `uris`.
pub(crate) fn compile_many(documents: &Documents, uris: &[&str]) -> Result<(Program, Vec<NodeId>), SchemaCompileError> {
    let mut compiler = Compiler {
        documents,
        nodes: Vec::new(),
        ids: HashMap::default(),
        queue: Vec::new(),
        patterns: HashMap::default(),
    };
    let mut roots = Vec::with_capacity(uris.len());
    for uri in uris {
        let target = documents.locate("", uri).ok_or_else(|| SchemaCompileError::UnresolvedRef(uri.to_string()))?;
        roots.push(compiler.node_for(target));
    }
    while let Some(pending) = compiler.queue.pop() {
        let node = compiler.parse(&pending)?;
        compiler.nodes[pending.id] = node;
    }
    let mut nodes = compiler.nodes;
    discriminator::annotate(&mut nodes);
    Ok((Program { nodes }, roots))
}

impl<'d> Compiler<'d> {
    /// The node id for a location, queueing it for parsing the first time it is seen.
    fn node_for(&mut self, target: Target<'d>) -> NodeId {
        let key = (target.doc, target.pointer);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.ids.insert(key.clone(), id);
        let (doc, pointer) = key;
        self.queue.push(Pending { id, doc, pointer, value: target.value, base: target.base });
        id
    }

    /// A subschema of `parent` at the relative pointer `tokens`.
    fn child(&mut self, parent: &Pending<'d>, tokens: &[&str], value: &'d Value) -> NodeId {
        let mut pointer = parent.pointer.clone();
        for token in tokens {
            pointer.push('/');
            pointer.push_str(&uri::escape_token(token));
        }
        let base = base_of(value, &parent.base);
        self.node_for(Target { doc: parent.doc, pointer, value, base })
    }

    fn invalid(&self, at: &Pending<'_>, keyword: &str, reason: impl Into<String>) -> SchemaCompileError {
        let location = format!("{}#{}/{}", self.documents.display_name(at.doc), at.pointer, uri::escape_token(keyword));
        SchemaCompileError::Invalid { location, reason: reason.into() }
    }

    fn parse(&mut self, at: &Pending<'d>) -> Result<Node, SchemaCompileError> {
        let map = match at.value {
            Value::Bool(b) => return Ok(Node { boolean: Some(*b), ..Node::default() }),
            Value::Object(map) => map,
            _ => {
                let location = format!("{}#{}", self.documents.display_name(at.doc), at.pointer);
                let reason = "a schema must be an object or a boolean".to_string();
                return Err(SchemaCompileError::Invalid { location, reason });
            }
        };
        let mut node = Node {
            label: map.get("title").and_then(Value::as_str).map(Into::into),
            types: self.types(at, map)?,
            constant: map.get("const").cloned(),
            ..Node::default()
        };
        if let Some(values) = map.get("enum") {
            let values = values.as_array().ok_or_else(|| self.invalid(at, "enum", "must be an array"))?;
            node.enumeration = Some(values.clone());
        }
        if let Some(reference) = map.get("$ref") {
            let reference = reference.as_str().ok_or_else(|| self.invalid(at, "$ref", "must be a string"))?;
            let target = self
                .documents
                .locate(&at.base, reference)
                .ok_or_else(|| SchemaCompileError::UnresolvedRef(reference.to_string()))?;
            node.reference = Some(self.node_for(target));
            if node.label.is_none() {
                node.label = ref_label(reference).map(Into::into);
            }
        }
        node.all_of = self.schema_list(at, map, "allOf")?;
        node.any_of = self.branches(at, map, "anyOf")?;
        node.one_of = self.branches(at, map, "oneOf")?;
        node.not = self.schema(at, map, "not");
        if let Some(test) = self.schema(at, map, "if") {
            let then = self.schema(at, map, "then");
            let otherwise = self.schema(at, map, "else");
            node.condition = Some(Box::new(Condition { test, then, otherwise }));
        }
        node.number = self.number_rules(at, map)?.map(Box::new);
        node.string = self.string_rules(at, map)?.map(Box::new);
        node.array = self.array_rules(at, map)?.map(Box::new);
        node.object = self.object_rules(at, map)?.map(Box::new);
        Ok(node)
    }

    fn types(&self, at: &Pending<'_>, map: &Map<String, Value>) -> Result<Option<TypeSet>, SchemaCompileError> {
        let Some(value) = map.get("type") else {
            return Ok(None);
        };
        let names: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        let mut set = TypeSet::empty();
        for name in names {
            let parsed = name.as_str().and_then(TypeSet::from_name);
            set.insert(parsed.ok_or_else(|| self.invalid(at, "type", format!("unknown type {name}")))?);
        }
        Ok(Some(set))
    }

    fn schema(&mut self, at: &Pending<'d>, map: &'d Map<String, Value>, keyword: &str) -> Option<NodeId> {
        map.get(keyword).map(|value| self.child(at, &[keyword], value))
    }

    /// `allOf`/`anyOf`/`oneOf`/`prefixItems`: a non-empty array of schemas.
    fn schema_list(
        &mut self,
        at: &Pending<'d>,
        map: &'d Map<String, Value>,
        keyword: &str,
    ) -> Result<Vec<NodeId>, SchemaCompileError> {
        let Some(value) = map.get(keyword) else {
            return Ok(Vec::new());
        };
        match value.as_array() {
            Some(items) if !items.is_empty() => {
                Ok(items.iter().enumerate().map(|(i, item)| self.child(at, &[keyword, &i.to_string()], item)).collect())
            }
            _ => Err(self.invalid(at, keyword, "must be a non-empty array of schemas")),
        }
    }

    fn branches(
        &mut self,
        at: &Pending<'d>,
        map: &'d Map<String, Value>,
        keyword: &str,
    ) -> Result<Option<Box<Branches>>, SchemaCompileError> {
        let ids = self.schema_list(at, map, keyword)?;
        Ok((!ids.is_empty()).then(|| Box::new(Branches { ids, ..Branches::default() })))
    }

    /// `properties`/`patternProperties`/`dependentSchemas`: an object whose values are schemas.
    fn schema_map(
        &mut self,
        at: &Pending<'d>,
        map: &'d Map<String, Value>,
        keyword: &str,
    ) -> Result<Vec<(String, NodeId)>, SchemaCompileError> {
        let Some(value) = map.get(keyword) else {
            return Ok(Vec::new());
        };
        let entries = value.as_object().ok_or_else(|| self.invalid(at, keyword, "must be an object of schemas"))?;
        Ok(entries.iter().map(|(name, schema)| (name.clone(), self.child(at, &[keyword, name], schema))).collect())
    }

    fn number(
        &self,
        at: &Pending<'_>,
        map: &Map<String, Value>,
        keyword: &str,
    ) -> Result<Option<Number>, SchemaCompileError> {
        match map.get(keyword) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(Some(n.clone())),
            Some(_) => Err(self.invalid(at, keyword, "must be a number")),
        }
    }

    /// `minLength` and friends: a non-negative integer (`2.0` counts).
    fn count(
        &self,
        at: &Pending<'_>,
        map: &Map<String, Value>,
        keyword: &str,
    ) -> Result<Option<u64>, SchemaCompileError> {
        let Some(value) = map.get(keyword) else {
            return Ok(None);
        };
        let exact = value.as_u64();
        let whole = value.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f.min(u64::MAX as f64) as u64);
        exact.or(whole).map(Some).ok_or_else(|| self.invalid(at, keyword, "must be a non-negative integer"))
    }

    fn strings(&self, at: &Pending<'_>, value: &Value, keyword: &str) -> Result<Vec<String>, SchemaCompileError> {
        let items = value.as_array().ok_or_else(|| self.invalid(at, keyword, "must be an array of strings"))?;
        items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| self.invalid(at, keyword, "must be an array of strings"))
            })
            .collect()
    }

    fn number_rules(
        &self,
        at: &Pending<'_>,
        map: &Map<String, Value>,
    ) -> Result<Option<NumberRules>, SchemaCompileError> {
        let rules = NumberRules {
            minimum: self.number(at, map, "minimum")?,
            maximum: self.number(at, map, "maximum")?,
            exclusive_minimum: self.number(at, map, "exclusiveMinimum")?,
            exclusive_maximum: self.number(at, map, "exclusiveMaximum")?,
            multiple_of: self.number(at, map, "multipleOf")?,
        };
        if rules.multiple_of.as_ref().is_some_and(|m| m.as_f64().is_none_or(|f| f <= 0.0)) {
            return Err(self.invalid(at, "multipleOf", "must be greater than 0"));
        }
        let any = rules.minimum.is_some()
            || rules.maximum.is_some()
            || rules.exclusive_minimum.is_some()
            || rules.exclusive_maximum.is_some()
            || rules.multiple_of.is_some();
        Ok(any.then_some(rules))
    }

    /// The compiled `source`, compiled once per compilation.
    fn pattern(&mut self, source: &str) -> Result<Pattern, String> {
        if let Some(pattern) = self.patterns.get(source) {
            return Ok(pattern.clone());
        }
        let pattern = Pattern::new(source)?;
        self.patterns.insert(source.to_owned(), pattern.clone());
        Ok(pattern)
    }

    fn string_rules(
        &mut self,
        at: &Pending<'_>,
        map: &Map<String, Value>,
    ) -> Result<Option<StringRules>, SchemaCompileError> {
        let pattern = match map.get("pattern") {
            None => None,
            Some(Value::String(source)) => match self.pattern(source) {
                Ok(pattern) => Some(pattern),
                Err(e) => return Err(self.invalid(at, "pattern", e)),
            },
            Some(_) => return Err(self.invalid(at, "pattern", "must be a string")),
        };
        let format = match map.get("format") {
            None => None,
            Some(Value::String(name)) => Format::from_name(name),
            Some(_) => return Err(self.invalid(at, "format", "must be a string")),
        };
        let rules = StringRules {
            min_length: self.count(at, map, "minLength")?,
            max_length: self.count(at, map, "maxLength")?,
            pattern,
            format,
        };
        let any = rules.min_length.is_some()
            || rules.max_length.is_some()
            || rules.pattern.is_some()
            || rules.format.is_some();
        Ok(any.then_some(rules))
    }

    fn array_rules(
        &mut self,
        at: &Pending<'d>,
        map: &'d Map<String, Value>,
    ) -> Result<Option<ArrayRules>, SchemaCompileError> {
        if map.get("items").is_some_and(Value::is_array) {
            return Err(self.invalid(at, "items", "must be a schema (use prefixItems for tuples)"));
        }
        let unique_items = match map.get("uniqueItems") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(self.invalid(at, "uniqueItems", "must be a boolean")),
        };
        let rules = ArrayRules {
            prefix_items: self.schema_list(at, map, "prefixItems")?,
            items: self.schema(at, map, "items"),
            min_items: self.count(at, map, "minItems")?,
            max_items: self.count(at, map, "maxItems")?,
            unique_items,
            contains: self.schema(at, map, "contains"),
            min_contains: self.count(at, map, "minContains")?,
            max_contains: self.count(at, map, "maxContains")?,
        };
        let any = !rules.prefix_items.is_empty()
            || rules.items.is_some()
            || rules.min_items.is_some()
            || rules.max_items.is_some()
            || rules.unique_items
            || rules.contains.is_some();
        Ok(any.then_some(rules))
    }

    fn object_rules(
        &mut self,
        at: &Pending<'d>,
        map: &'d Map<String, Value>,
    ) -> Result<Option<ObjectRules>, SchemaCompileError> {
        let mut pattern_properties = Vec::new();
        for (source, id) in self.schema_map(at, map, "patternProperties")? {
            let pattern = match self.pattern(&source) {
                Ok(pattern) => pattern,
                Err(e) => return Err(self.invalid(at, "patternProperties", e)),
            };
            pattern_properties.push((pattern, id));
        }
        let required = match map.get("required") {
            None => Vec::new(),
            Some(value) => self.strings(at, value, "required")?,
        };
        let mut dependent_required = Vec::new();
        if let Some(value) = map.get("dependentRequired") {
            let entries =
                value.as_object().ok_or_else(|| self.invalid(at, "dependentRequired", "must be an object"))?;
            for (name, names) in entries {
                dependent_required.push((name.clone(), self.strings(at, names, "dependentRequired")?));
            }
        }
        let rules = ObjectRules {
            properties: self.schema_map(at, map, "properties")?.into_iter().collect(),
            pattern_properties,
            additional_properties: self.schema(at, map, "additionalProperties"),
            unevaluated_properties: self.schema(at, map, "unevaluatedProperties"),
            required,
            min_properties: self.count(at, map, "minProperties")?,
            max_properties: self.count(at, map, "maxProperties")?,
            property_names: self.schema(at, map, "propertyNames"),
            dependent_required,
            dependent_schemas: self.schema_map(at, map, "dependentSchemas")?,
        };
        let any = !rules.properties.is_empty()
            || !rules.pattern_properties.is_empty()
            || rules.additional_properties.is_some()
            || rules.unevaluated_properties.is_some()
            || !rules.required.is_empty()
            || rules.min_properties.is_some()
            || rules.max_properties.is_some()
            || rules.property_names.is_some()
            || !rules.dependent_required.is_empty()
            || !rules.dependent_schemas.is_empty();
        Ok(any.then_some(rules))
    }
}

/// `DataBinding` for `#/$defs/DataBinding`; the document name when there is no fragment.
fn ref_label(reference: &str) -> Option<&str> {
    let (doc, fragment) = uri::split_fragment(reference);
    let last = fragment.rsplit('/').next().unwrap_or("");
    let label = if last.is_empty() { uri::last_segment(doc) } else { last };
    (!label.is_empty()).then_some(label)
}
