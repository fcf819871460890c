//! One surface: its component definitions, data model and resolved node tree.
//!
//! Every mutation is atomic: it is checked (and, for structure, resolved) on the side and only
//! then committed, so a rejected message leaves the surface exactly as it was.
//!
//! A surface can also say how to recreate itself ([`Surface::export`]): the messages a store
//! keeps so that a conversation's surfaces survive process death.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::RandomState;

use serde_json::{json, Map, Value};

use crate::catalog::Catalog;
use crate::component::{self, ChildSource, CompiledComponent, PropTemplate};
use crate::data_model::{DataModel, DataModelError};
use crate::dependency::DependencyIndex;
use crate::error::{A2uiError, ValidationIssue};
use crate::limits::Limits;
use crate::locale::Localization;
use crate::node::{ResolvedNode, SurfaceDiff};
use crate::pointer;
use crate::resolve::{self, ChildKey, ResolveOptions};
use crate::wire::v08;
use crate::wire::v09::{CreateSurface, ServerMessage, EMITTED_VERSION};

/// A resolved instance with what is needed to resolve it again.
#[derive(Debug, Clone)]
struct NodeEntry {
    node: Arc<ResolvedNode>,
    scope: Arc<str>,
    /// Paths the node read, as stored in the dependency index.
    reads: Vec<Arc<str>>,
}

/// The resolved tree of a surface plus its dependency indexes. foldhash: a fast, randomly
/// seeded hasher (ids come from the agent, so the seed matters; SipHash was 11% of a build).
#[derive(Debug, Default, Clone)]
struct Tree {
    /// Instance id -> position in `entries`.
    nodes: HashMap<Arc<str>, usize, RandomState>,
    /// Depth-first from the root, as built (structure only changes on a rebuild), so a reset or
    /// a diff walks a vector instead of hashing 60,000 ids.
    entries: Vec<NodeEntry>,
    reads: DependencyIndex,
    lists: DependencyIndex,
    template_instances: usize,
}

impl Tree {
    fn entry(&self, instance_id: &str) -> Option<&NodeEntry> {
        self.nodes.get(instance_id).map(|&slot| &self.entries[slot])
    }
}

/// A component definition: compiled for resolving, and the object as accepted (after v0.8
/// translation). The object is kept so that [`Surface::export`] can recreate the surface after
/// process death; it is bounded by the component-count limit, as the compiled form is.
#[derive(Debug)]
struct Definition {
    compiled: CompiledComponent,
    source: Map<String, Value>,
    /// v1.0: the component calls `@index`, so it may only be drawn inside a list template.
    calls_index: bool,
}

type Definitions = HashMap<String, Arc<Definition>, RandomState>;

/// v1.0: the catalogs besides the surface's default that components of one message name
/// (`catalogId`), by the id they are named with.
pub(crate) type OtherCatalogs = HashMap<String, Arc<Catalog>>;

#[derive(Debug)]
pub struct Surface {
    id: String,
    catalog_id: String,
    catalog: Arc<Catalog>,
    root_id: String,
    theme: Option<Value>,
    send_data_model: bool,
    definitions: Definitions,
    data: DataModel,
    tree: Tree,
    limits: Limits,
    options: ResolveOptions,
    /// True once the first render (a reset) was published.
    rendered: bool,
}

impl Surface {
    pub(crate) fn create(
        message: &CreateSurface,
        catalog: Arc<Catalog>,
        limits: &Limits,
        options: &ResolveOptions,
    ) -> Result<Surface, A2uiError> {
        if let Some(theme) = &message.theme {
            let errors = catalog.validate_theme(theme);
            if !errors.is_empty() {
                return Err(A2uiError::Validation(
                    errors
                        .into_iter()
                        .map(|e| ValidationIssue::new(format!("/createSurface/theme{}", e.instance_path), e.message))
                        .collect(),
                ));
            }
        }
        Ok(Surface {
            id: message.surface_id.clone(),
            catalog_id: message.catalog_id.clone(),
            catalog: catalog.clone(),
            root_id: message.root_id.clone(),
            theme: message.theme.clone(),
            send_data_model: message.send_data_model,
            definitions: HashMap::default(),
            data: DataModel::new(limits),
            tree: Tree::default(),
            limits: limits.clone(),
            // A v1.0 surface draws from v1.0 catalogs only, whose checks give structured results;
            // its `Text` is Markdown under the catalog's profile.
            options: ResolveOptions {
                text_profile: Some(crate::markdown::text_profile(&catalog)),
                markdown_limits: limits.markdown,
                validation_results: catalog.is_v1(),
                functions: crate::functions::FunctionScope {
                    host: options.functions.host.clone(),
                    default_catalog: catalog.id.clone(),
                },
                ..options.clone()
            },
            rendered: false,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// The locale and time zone this surface formats for.
    pub fn localization(&self) -> &Localization {
        &self.options.localization
    }

    pub fn catalog_id(&self) -> &str {
        &self.catalog_id
    }

    pub fn catalog(&self) -> &Arc<Catalog> {
        &self.catalog
    }

    pub fn root_id(&self) -> &str {
        &self.root_id
    }

    pub fn theme(&self) -> Option<&Value> {
        self.theme.as_ref()
    }

    pub fn send_data_model(&self) -> bool {
        self.send_data_model
    }

    pub fn data_model(&self) -> &Value {
        self.data.root()
    }

    pub(crate) fn data(&self) -> &DataModel {
        &self.data
    }

    /// True once the root component exists (nothing renders before).
    pub fn has_root(&self) -> bool {
        self.definitions.contains_key(&self.root_id)
    }

    pub fn node(&self, instance_id: &str) -> Option<&ResolvedNode> {
        self.tree.entry(instance_id).map(|e| e.node.as_ref())
    }

    pub(crate) fn definition(&self, component_id: &str) -> Option<&CompiledComponent> {
        self.definitions.get(component_id).map(|d| &d.compiled)
    }

    pub(crate) fn scope_of(&self, instance_id: &str) -> Option<&str> {
        self.tree.entry(instance_id).map(|e| e.scope.as_ref())
    }

    pub fn node_count(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Nodes in depth-first order from the root (each once).
    pub fn nodes(&self) -> Vec<&ResolvedNode> {
        self.shared_nodes().into_iter().map(Arc::as_ref).collect()
    }

    fn shared_nodes(&self) -> Vec<&Arc<ResolvedNode>> {
        self.tree.entries.iter().map(|e| &e.node).collect()
    }

    /// The full current state, as the first notification of a subscription.
    pub fn snapshot(&self) -> SurfaceDiff {
        SurfaceDiff::Reset {
            root: self.has_root().then(|| self.root_id.clone()),
            nodes: self.shared_nodes().into_iter().cloned().collect(),
        }
    }

    /// The server messages that recreate this surface as it is now, in a fresh group with the
    /// same catalogs ([`crate::SurfaceGroup::restore_surface`]): what a store keeps so that a
    /// conversation's surfaces survive process death. In order: the creation, the whole data
    /// model (user input included; left out while empty) and every component as last accepted
    /// (after v0.8 translation; left out while there is none), by id. Data first, so the tree
    /// is built once. v0.9 envelopes, except that a surface whose root is not `"root"` (a v0.8
    /// agent named it) starts with v0.8's `beginRendering`, the only creation that names a root.
    pub fn export(&self) -> Vec<Value> {
        let mut messages = Vec::with_capacity(3);
        let create = CreateSurface {
            surface_id: self.id.clone(),
            catalog_id: self.catalog_id.clone(),
            theme: self.theme.clone(),
            send_data_model: self.send_data_model,
            root_id: self.root_id.clone(),
        };
        messages.push(if self.catalog_id.is_empty() {
            // v1.0 without a default catalog: no v0.9 envelope can say that.
            let mut body = json!({"surfaceId": self.id});
            if self.send_data_model {
                body["sendDataModel"] = Value::Bool(true);
            }
            json!({"version": crate::wire::v10::EMITTED_VERSION, "createSurface": body})
        } else if self.root_id == "root" {
            ServerMessage::CreateSurface(create).to_wire()
        } else {
            v08::begin_rendering_wire(&create)
        });
        if self.data.root().as_object().is_some_and(|root| !root.is_empty()) {
            messages.push(json!({"version": EMITTED_VERSION, "updateDataModel": {
                "surfaceId": self.id,
                "value": self.data.root().clone(),
            }}));
        }
        if !self.definitions.is_empty() {
            let mut definitions: Vec<(&String, &Arc<Definition>)> = self.definitions.iter().collect();
            definitions.sort_unstable_by(|a, b| a.0.cmp(b.0));
            let components: Vec<Value> =
                definitions.into_iter().map(|(_, d)| Value::Object(d.source.clone())).collect();
            messages.push(json!({"version": EMITTED_VERSION, "updateComponents": {
                "surfaceId": self.id,
                "components": components,
            }}));
        }
        messages
    }

    /// Validates, compiles and merges components. All or nothing. The objects are moved in:
    /// each accepted one is kept next to its compiled form (see [`Definition`]).
    pub(crate) fn update_components(
        &mut self,
        components: Vec<Value>,
        others: &OtherCatalogs,
    ) -> Result<SurfaceDiff, A2uiError> {
        // Before validating or compiling anything: a message that alone holds too many
        // components costs nothing more than its parsed form.
        if components.len() > self.limits.max_components_per_surface {
            return Err(A2uiError::LimitExceeded {
                what: "components per surface",
                limit: self.limits.max_components_per_surface,
                actual: components.len(),
            });
        }
        let mut issues = Vec::new();
        // Where this message defines each id first: a second definition is ambiguous (which one
        // did the agent mean?), so it is refused rather than silently winning.
        let mut first_at: HashMap<&str, usize, RandomState> = HashMap::default();
        for (index, component) in components.iter().enumerate() {
            let at = format!("/updateComponents/components/{index}");
            if let Some(id) = component.get("id").and_then(Value::as_str) {
                match first_at.entry(id) {
                    Entry::Vacant(vacant) => {
                        vacant.insert(index);
                    }
                    Entry::Occupied(first) => issues.push(ValidationIssue::new(
                        format!("{at}/id"),
                        format!(
                            "component id {id:?} is already defined at /updateComponents/components/{} of this message",
                            first.get()
                        ),
                    )),
                }
            }
            // A v1.0 component that names a catalog is that catalog's (the group checked it).
            let catalog = component
                .get("catalogId")
                .and_then(Value::as_str)
                .and_then(|id| others.get(id))
                .unwrap_or(&self.catalog);
            let errors = catalog.validate_component(component);
            if !errors.is_empty() {
                issues.extend(
                    errors.into_iter().map(|e| ValidationIssue::new(format!("{at}{}", e.instance_path), e.message)),
                );
                continue;
            }
            match component.as_object() {
                Some(obj) => {
                    // The schema only says a binding path or a template is a string. A malformed
                    // path would read as absent forever and a malformed template fail every
                    // render; refuse them here, where their location can still be named.
                    component::visit_references(obj, |location, found| {
                        let error = match found {
                            component::Reference::Path(path) => {
                                pointer::check_binding(path).err().map(|e| e.to_string())
                            }
                            component::Reference::Template(template) => {
                                crate::functions::parse_template(template).err().map(|e| e.to_string())
                            }
                        };
                        if let Some(error) = error {
                            issues.push(ValidationIssue::new(format!("{at}{location}"), error));
                        }
                    });
                }
                None => issues.push(ValidationIssue::new(at, "component must be an object")),
            }
        }
        if !issues.is_empty() {
            return Err(A2uiError::Validation(issues));
        }
        let mut definitions = self.definitions.clone();
        // The ids in message order, to name the component at fault below.
        let mut ids = Vec::with_capacity(components.len());
        for component in components {
            // Every component is an object here (checked above).
            let Value::Object(source) = component else { continue };
            let compiled = CompiledComponent::compile(&source);
            ids.push(compiled.id.clone());
            // `@index` is v1.0's; a v0.9 surface never reads it as the system function.
            let calls_index = self.options.validation_results && source.values().any(calls_index);
            // Reusing an id with another type replaces the definition: the node is recreated.
            definitions.insert(compiled.id.to_string(), Arc::new(Definition { compiled, source, calls_index }));
        }
        if definitions.len() > self.limits.max_components_per_surface {
            return Err(A2uiError::LimitExceeded {
                what: "components per surface",
                limit: self.limits.max_components_per_surface,
                actual: definitions.len(),
            });
        }
        if self.catalog.has_composition_rules() {
            check_composition(&definitions, &self.root_id, &self.catalog)?;
        }
        check_graph(&definitions, &self.root_id, self.limits.max_depth).map_err(|(component_id, message)| {
            // Point at the component of this message that closed the cycle or deepened the tree.
            let index = ids.iter().position(|id| id.as_ref() == component_id);
            let path = index
                .map_or("/updateComponents/components".to_owned(), |i| format!("/updateComponents/components/{i}"));
            A2uiError::validation(path, message)
        })?;
        if definitions.values().any(|d| d.calls_index) {
            if let Some(outside) = index_outside_templates(&definitions, &self.root_id) {
                let index = ids.iter().position(|id| id.as_ref() == outside);
                let path = index
                    .map_or("/updateComponents/components".to_owned(), |i| format!("/updateComponents/components/{i}"));
                return Err(A2uiError::validation(
                    path,
                    format!("component {outside:?} calls @index but is drawn outside a list template, where @index has no value"),
                ));
            }
        }
        let tree =
            build_tree(&definitions, &self.root_id, &self.data, &self.limits, self.tree.nodes.len(), &self.options)?;
        self.definitions = definitions;
        Ok(self.commit_tree(tree))
    }

    /// Writes the data model and recomputes what depends on the written path. All or nothing.
    /// `Some` stores the value as is, `null` included; `None` deletes (v0.9 `updateDataModel`
    /// semantics). `max_weight` bounds the data model's weight after the write (the group passes
    /// what its shared budget leaves this surface).
    pub(crate) fn update_data(
        &mut self,
        path: Option<&str>,
        value: Option<Value>,
        max_weight: usize,
    ) -> Result<SurfaceDiff, A2uiError> {
        let path = path.unwrap_or("");
        let undo = self.data.undo_for(path);
        let written = match value {
            Some(value) => self.data.replace_within(path, value, max_weight),
            None => self.data.set_within(path, None, max_weight),
        };
        let mut change = written.map_err(data_model_error)?;
        match self.recompute_after_write(&change.path) {
            Ok(diff) => Ok(diff),
            Err(error) => {
                // Take the write back so the surface is exactly as it was before the message.
                if let Some(undo) = undo {
                    self.data.undo(undo, change.previous.take());
                }
                Err(error)
            }
        }
    }

    fn recompute_after_write(&mut self, changed: &str) -> Result<SurfaceDiff, A2uiError> {
        if !self.has_root() {
            return Ok(empty_patch());
        }
        for owner in self.tree.lists.affected_structurally(changed) {
            let Some(entry) = self.tree.entry(&owner) else { continue };
            let Some(def) = self.definitions.get(entry.node.component_id.as_ref()) else { continue };
            let resolution = resolve::resolve_bounded(
                &def.compiled,
                owner.clone(),
                &entry.scope,
                &self.data,
                &self.options,
                self.limits.max_template_instances,
            );
            if resolution.template_overflow.is_some() || resolution.node.children != entry.node.children {
                // Items were added or removed: resolve everything again and diff.
                let tree = build_tree(
                    &self.definitions,
                    &self.root_id,
                    &self.data,
                    &self.limits,
                    self.tree.nodes.len(),
                    &self.options,
                )?;
                return Ok(self.commit_tree(tree));
            }
        }
        let mut upserted = Vec::new();
        for id in self.tree.reads.affected_by_write(changed) {
            let Some(&slot) = self.tree.nodes.get(&id) else { continue };
            let entry = &self.tree.entries[slot];
            let Some(def) = self.definitions.get(entry.node.component_id.as_ref()) else { continue };
            let resolution = resolve::resolve(&def.compiled, id.clone(), &entry.scope, &self.data, &self.options);
            let reads_changed = resolution.reads.len() != entry.reads.len()
                || resolution.reads.iter().zip(&entry.reads).any(|(new, old)| new != old);
            if reads_changed {
                let old_reads = std::mem::take(&mut self.tree.entries[slot].reads);
                self.tree.reads.remove(&id, &old_reads);
                self.tree.entries[slot].reads = self.tree.reads.add(&id, resolution.reads);
            }
            let entry = &mut self.tree.entries[slot];
            if *entry.node != resolution.node {
                entry.node = Arc::new(resolution.node);
                upserted.push(entry.node.clone());
            }
        }
        upserted.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(SurfaceDiff::Patch { upserted, removed: Vec::new() })
    }

    /// Replaces the tree and reports the difference (a reset the first time something renders).
    fn commit_tree(&mut self, tree: Tree) -> SurfaceDiff {
        let old = std::mem::replace(&mut self.tree, tree);
        if !self.rendered {
            if self.tree.nodes.is_empty() {
                return empty_patch();
            }
            self.rendered = true;
            return self.snapshot();
        }
        // Walk the old tree once (usually much smaller than the new one after a first data
        // load) to find what was removed and which new nodes are unchanged.
        let mut unchanged = vec![false; self.tree.entries.len()];
        let mut removed = Vec::new();
        for old_entry in &old.entries {
            match self.tree.nodes.get(&old_entry.node.id) {
                Some(&slot) => unchanged[slot] = self.tree.entries[slot].node == old_entry.node,
                None => removed.push(old_entry.node.id.clone()),
            }
        }
        // Tree order (depth-first from the root): what a renderer wants, and no sort needed.
        let upserted: Vec<Arc<ResolvedNode>> = self
            .tree
            .entries
            .iter()
            .zip(unchanged)
            .filter(|(_, unchanged)| !unchanged)
            .map(|(entry, _)| entry.node.clone())
            .collect();
        SurfaceDiff::Patch { upserted, removed }
    }
}

/// Size limits are `LIMIT_EXCEEDED`; a path the model cannot take is the agent's validation error.
fn data_model_error(error: DataModelError) -> A2uiError {
    match error {
        DataModelError::IndexTooLarge { index, limit, .. } => {
            A2uiError::LimitExceeded { what: "data-model array index", limit, actual: index }
        }
        DataModelError::TooDeep { limit, .. } => {
            A2uiError::LimitExceeded { what: "data-model value depth", limit, actual: limit + 1 }
        }
        DataModelError::TooLarge { limit, .. } => {
            A2uiError::LimitExceeded { what: "data-model size in bytes", limit, actual: limit + 1 }
        }
        // Only a root write has an empty path: the value was not an object.
        DataModelError::InvalidPath { path, reason } if path.is_empty() => {
            A2uiError::validation("/updateDataModel/value", reason)
        }
        other => A2uiError::validation("/updateDataModel/path", other.to_string()),
    }
}

fn empty_patch() -> SurfaceDiff {
    SurfaceDiff::Patch { upserted: Vec::new(), removed: Vec::new() }
}

/// Rejects cycles and trees deeper than `max_depth` among the definitions reachable from the
/// root (including through templates). Dangling references are allowed: they render as pending.
/// The error names the component at fault.
fn check_graph(definitions: &Definitions, root: &str, max_depth: usize) -> Result<(), (String, String)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Active,
        Done(usize),
    }
    let mut marks: HashMap<&str, Mark> = HashMap::new();
    // Iterative DFS computing the height of each definition; an Active node seen again is a cycle.
    let mut stack: Vec<(&str, usize)> = Vec::new();
    for start in std::iter::once(root).chain(definitions.keys().map(String::as_str)) {
        if !definitions.contains_key(start) || marks.contains_key(start) {
            continue;
        }
        stack.push((start, 0));
        while let Some((id, next_child)) = stack.pop() {
            let refs = definitions[id].compiled.referenced_ids();
            if next_child == 0 {
                marks.insert(id, Mark::Active);
            }
            let mut descended = false;
            for (i, child) in refs.iter().enumerate().skip(next_child) {
                match marks.get(child) {
                    Some(Mark::Active) => {
                        return Err((
                            id.to_owned(),
                            format!(
                                "component {id:?} refers to {child:?}, which contains {id:?}: cycles are not allowed"
                            ),
                        ));
                    }
                    Some(Mark::Done(_)) => {}
                    None if definitions.contains_key(*child) => {
                        stack.push((id, i + 1));
                        stack.push((definitions.get_key_value(*child).map(|(k, _)| k.as_str()).unwrap_or(child), 0));
                        descended = true;
                        break;
                    }
                    None => {}
                }
            }
            if descended {
                continue;
            }
            let height = 1 + refs
                .iter()
                .filter_map(|c| match marks.get(c) {
                    Some(Mark::Done(h)) => Some(*h),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            if height > max_depth {
                return Err((
                    id.to_owned(),
                    format!("component {id:?} nests {height} levels deep; the limit is {max_depth}"),
                ));
            }
            marks.insert(id, Mark::Done(height));
        }
    }
    Ok(())
}

/// Whether a value holds a call of `@index` (the engine's form: `{"call": "@index", …}`).
fn calls_index(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get("call").and_then(Value::as_str) == Some(crate::functions::INDEX_FUNCTION)
                || map.values().any(calls_index)
        }
        Value::Array(items) => items.iter().any(calls_index),
        _ => false,
    }
}

/// The first component calling `@index` that is drawn outside every list template: reached from
/// the root through plain child references, not through a template. The graph is acyclic here
/// (checked before).
fn index_outside_templates<'a>(definitions: &'a Definitions, root: &'a str) -> Option<&'a str> {
    fn static_children<'a>(template: &'a PropTemplate, out: &mut Vec<&'a str>) {
        match template {
            PropTemplate::ChildRef(id) => out.push(id),
            PropTemplate::Children(ChildSource::Ids(ids)) => out.extend(ids.iter().map(|id| id.as_ref())),
            PropTemplate::Object(fields) => fields.iter().for_each(|(_, t)| static_children(t, out)),
            PropTemplate::Array(items) => items.iter().for_each(|t| static_children(t, out)),
            PropTemplate::Children(ChildSource::Template { .. }) | PropTemplate::Dynamic(_) => {}
        }
    }
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let Some(definition) = definitions.get(id) else { continue };
        if !seen.insert(id) {
            continue;
        }
        if definition.calls_index {
            return Some(id);
        }
        definition.compiled.props.iter().for_each(|(_, t)| static_children(t, &mut stack));
    }
    None
}

/// Resolves the whole tree from the root.
fn build_tree(
    definitions: &Definitions,
    root: &str,
    data: &DataModel,
    limits: &Limits,
    expected_nodes: usize,
    options: &ResolveOptions,
) -> Result<Tree, A2uiError> {
    let mut tree = Tree::default();
    tree.nodes.reserve(expected_nodes);
    tree.entries.reserve(expected_nodes);
    let Some(root_def) = definitions.get(root) else { return Ok(tree) };
    let root_id = &root_def.compiled.id;
    let root_key = ChildKey { component_id: root_id.clone(), scope: "".into(), id: root_id.clone() };
    let mut stack = vec![(root_key, 1usize)];
    // Template instances waiting on the stack: counted as soon as they are listed, so the next
    // template is bounded by what is really left.
    let mut pending_instances = 0usize;
    let too_many = |actual: usize| A2uiError::LimitExceeded {
        what: "template instances",
        limit: limits.max_template_instances,
        actual,
    };
    while let Some((key, depth)) = stack.pop() {
        if !key.scope.is_empty() {
            pending_instances -= 1;
        }
        let Some(def) = definitions.get(key.component_id.as_ref()) else { continue };
        let slot = tree.entries.len();
        match tree.nodes.entry(key.id.clone()) {
            // A component listed by two parents in the same scope is one node.
            Entry::Occupied(_) => continue,
            Entry::Vacant(vacant) => vacant.insert(slot),
        };
        if depth > limits.max_depth {
            return Err(A2uiError::LimitExceeded { what: "nesting depth", limit: limits.max_depth, actual: depth });
        }
        if !key.scope.is_empty() {
            tree.template_instances += 1;
            if tree.template_instances > limits.max_template_instances {
                return Err(too_many(tree.template_instances));
            }
        }
        let committed = tree.template_instances + pending_instances;
        let left = limits.max_template_instances.saturating_sub(committed);
        let resolution = resolve::resolve_bounded(&def.compiled, key.id.clone(), &key.scope, data, options, left);
        if let Some(items) = resolution.template_overflow {
            return Err(too_many(committed.saturating_add(items)));
        }
        let scoped = resolution.children.iter().filter(|c| !c.scope.is_empty()).count();
        pending_instances += scoped;
        if tree.template_instances + pending_instances > limits.max_template_instances {
            return Err(too_many(tree.template_instances + pending_instances));
        }
        let reads = tree.reads.add(&key.id, resolution.reads);
        tree.lists.add(&key.id, resolution.lists.into_iter().map(Arc::from).collect());
        // A large template expands here: grow the tables once rather than by doubling.
        tree.nodes.reserve(resolution.children.len());
        tree.entries.reserve(resolution.children.len());
        stack.extend(resolution.children.into_iter().rev().map(|child| (child, depth + 1)));
        tree.entries.push(NodeEntry { node: Arc::new(resolution.node), scope: key.scope, reads });
    }
    Ok(tree)
}

/// The data model as the agent sees it in `a2uiClientDataModel`.
pub(crate) fn data_model_report(surfaces: &[&Surface], v1: bool) -> Value {
    let mut map = Map::new();
    for s in surfaces {
        map.insert(s.id.clone(), s.data.root().clone());
    }
    // renderer_data_model.json of each version fixes its version string.
    let version = if v1 { crate::wire::v10::EMITTED_VERSION } else { crate::wire::v09::EMITTED_VERSION };
    serde_json::json!({"version": version, "surfaces": map})
}

/// v1.0 composition rules of the catalog: every parent-child pair of definitions (children not
/// arrived yet are checked when they arrive) and the root, whose parent is the reserved
/// `Surface`. One pass over the definitions, run only for catalogs that have such rules.
fn check_composition(
    definitions: &HashMap<String, Arc<Definition>, RandomState>,
    root_id: &str,
    catalog: &Catalog,
) -> Result<(), A2uiError> {
    use crate::catalog::SURFACE_COMPONENT;
    let list = |names: &[String]| names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ");
    let may_sit_under = |child_type: &str, parent_type: &str| {
        catalog
            .component(child_type)
            .and_then(|c| c.allowed_parents.as_ref())
            .is_none_or(|allowed| allowed.iter().any(|p| p == parent_type))
    };
    if let Some(root) = definitions.get(root_id) {
        let root_type = root.compiled.component_type.as_ref();
        if !may_sit_under(root_type, SURFACE_COMPONENT) {
            let allowed = catalog.component(root_type).and_then(|c| c.allowed_parents.as_deref()).unwrap_or_default();
            return Err(A2uiError::UnallowedParent(format!(
                "component {root_id:?} ({root_type}) cannot be the surface's root; allowed parents: {}",
                list(allowed)
            )));
        }
    }
    let mut ids: Vec<&String> = definitions.keys().collect();
    // The same error for the same message, whatever the map's order.
    ids.sort_unstable();
    for id in ids {
        let parent = &definitions[id].compiled;
        let parent_type = parent.component_type.as_ref();
        let allowed_children = catalog.component(parent_type).and_then(|c| c.allowed_children.as_ref());
        for child_id in parent.referenced_ids() {
            let Some(child) = definitions.get(child_id) else { continue };
            let child_type = child.compiled.component_type.as_ref();
            if let Some(allowed) = allowed_children {
                if !allowed.iter().any(|c| c == child_type) {
                    return Err(A2uiError::UnallowedChild(format!(
                        "container {id:?} ({parent_type}) cannot hold child {child_id:?} ({child_type}); allowed children: {}",
                        list(allowed)
                    )));
                }
            }
            if !may_sit_under(child_type, parent_type) {
                let allowed =
                    catalog.component(child_type).and_then(|c| c.allowed_parents.as_deref()).unwrap_or_default();
                return Err(A2uiError::UnallowedParent(format!(
                    "component {child_id:?} ({child_type}) cannot be placed under {id:?} ({parent_type}); allowed parents: {}",
                    list(allowed)
                )));
            }
        }
    }
    Ok(())
}
