//! A message sequence validated as a whole without applying it: the envelopes (schema), each
//! component against its catalog (catalog and function checks), v1.0 component ids (UAX #31),
//! data-model paths, and the component graph each surface would hold once the sequence is
//! applied (self-reference, cycles and, in strict mode, dangling children, orphaned components
//! and a missing root).
//!
//! The engine finds most of these too, one message at a time, while it applies them; this
//! validator answers "is this sequence valid?" for tools (`agentui a2ui validate`, the
//! conformance harness) without touching a surface. Findings carry the conformance suite's
//! categories (`ValidationError`, `CatalogError`, `IntegrityError`) and dotted paths into the
//! sequence (`messages.0.version`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use crate::call_site;
use crate::catalog::CatalogRegistry;
use crate::component::{CompiledComponent, Reference};
use crate::error::A2uiError;
use crate::wire::{self, v09::ServerMessage, Version};

/// The class of a finding, named as the conformance suite names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// The message does not match the schema or a catalog's component schema.
    Validation,
    /// A catalog the message names is not available, or its version does not fit the surface.
    Catalog,
    /// The messages contradict each other or the component graph is broken.
    Integrity,
}

impl Category {
    /// The suite's name for the category.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Validation => "ValidationError",
            Category::Catalog => "CatalogError",
            Category::Integrity => "IntegrityError",
        }
    }
}

/// One problem of the sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub category: Category,
    /// `missing_field`, `type_mismatch`, `invalid_value`, `invalid_identifier`, `unknown_catalog`,
    /// `unknown_surface`, `duplicate_id`, `self_reference`, `cycle`, `dangling_reference`,
    /// `orphaned_component` or `missing_root`.
    pub code: &'static str,
    /// Where, as dotted segments into the sequence: `messages.2.updateComponents.components.0.id`.
    pub path: String,
    pub message: String,
}

impl Finding {
    fn new(category: Category, code: &'static str, path: String, message: impl Into<String>) -> Self {
        Finding { category, code, path, message: message.into() }
    }
}

/// What the validator knows of a surface the sequence created.
#[derive(Debug, Clone)]
struct SurfacePlan {
    version: Version,
    catalog_id: String,
    root_id: String,
    /// Component id -> the ids it refers to, as the last message defining it wrote it.
    components: HashMap<String, Vec<String>>,
}

/// What one [`SequenceValidator::check`] builds up.
#[derive(Debug, Default)]
struct Pass {
    surfaces: HashMap<String, SurfacePlan>,
    findings: Vec<Finding>,
    /// Surfaces whose components changed: their graph is checked at the end.
    touched: Vec<String>,
    /// Messages for a surface not created yet, as the engine buffers them.
    waiting: Vec<Waiting>,
}

/// A message waiting for its surface.
#[derive(Debug)]
struct Waiting {
    surface_id: String,
    /// Where the message is (`messages.N`) and its key.
    at: String,
    key: &'static str,
    version: Version,
    /// The components to judge once the surface exists (a data-model update was judged already).
    update: Option<crate::wire::v09::UpdateComponents>,
}

/// Validates batches of messages in order, each in the context of the batches before it that
/// were valid (the surfaces they create, the components they define). Nothing is applied.
#[derive(Debug, Clone)]
pub struct SequenceValidator<'a> {
    catalogs: &'a CatalogRegistry,
    /// Dangling children, orphaned components and a missing root are findings too (the suite's
    /// `strictMode`). Off, they are allowed, as the engine allows them while a surface streams in.
    strict: bool,
    surfaces: HashMap<String, SurfacePlan>,
}

/// [`SequenceValidator::check`] over one sequence, from nothing.
pub fn validate_messages(messages: &[Value], catalogs: &CatalogRegistry, strict: bool) -> Vec<Finding> {
    SequenceValidator::new(catalogs, strict).check(messages)
}

impl<'a> SequenceValidator<'a> {
    pub fn new(catalogs: &'a CatalogRegistry, strict: bool) -> Self {
        SequenceValidator { catalogs, strict, surfaces: HashMap::new() }
    }

    /// The findings of `messages` as a whole. When there are none, the batch becomes the context
    /// of the next one; otherwise the context stays as it was.
    pub fn check(&mut self, messages: &[Value]) -> Vec<Finding> {
        let mut pass = Pass { surfaces: self.surfaces.clone(), ..Pass::default() };
        for (index, envelope) in messages.iter().enumerate() {
            let at = format!("messages.{index}");
            if let Some(finding) = check_envelope(envelope, &at) {
                pass.findings.push(finding);
                continue;
            }
            let version = match Version::of(envelope) {
                Ok(version) => version,
                Err(e) => {
                    pass.findings.push(from_error(&e, &at));
                    continue;
                }
            };
            let parsed = match wire::parse_server_message(envelope.clone()) {
                Ok(parsed) => parsed,
                Err(e) => {
                    pass.findings.push(from_error(&e, &at));
                    continue;
                }
            };
            for message in parsed {
                self.check_message(message, version, &at, &mut pass);
            }
        }
        // Messages still waiting: their surface never came (the engine reports them so when
        // the stream ends).
        for waiting in std::mem::take(&mut pass.waiting) {
            pass.findings
                .push(unknown_surface(&waiting.surface_id, &format!("{}.{}.surfaceId", waiting.at, waiting.key)));
        }
        let Pass { surfaces, mut findings, mut touched, .. } = pass;
        touched.sort();
        touched.dedup();
        for surface_id in touched {
            if let Some(plan) = surfaces.get(&surface_id) {
                findings.extend(check_topology(plan, &surface_id, self.strict));
            }
        }
        if findings.is_empty() {
            self.surfaces = surfaces;
        }
        findings
    }

    fn check_message(&self, message: ServerMessage, version: Version, at: &str, pass: &mut Pass) {
        let key = message.kind();
        match message {
            ServerMessage::CreateSurface(create) => {
                // v1.0 lets a surface name no default catalog: each component names its own.
                if !create.catalog_id.is_empty() {
                    if let Err(e) = self.catalogs.get(&create.catalog_id) {
                        pass.findings.push(Finding::new(
                            Category::Catalog,
                            "unknown_catalog",
                            format!("{at}.{key}.catalogId"),
                            e.to_string(),
                        ));
                    }
                }
                if pass.surfaces.contains_key(&create.surface_id) {
                    pass.findings.push(Finding::new(
                        Category::Integrity,
                        "duplicate_surface",
                        format!("{at}.{key}.surfaceId"),
                        format!("surface {:?} is created twice", create.surface_id),
                    ));
                }
                pass.surfaces.insert(
                    create.surface_id.clone(),
                    SurfacePlan {
                        version,
                        catalog_id: create.catalog_id,
                        root_id: create.root_id,
                        components: HashMap::new(),
                    },
                );
                // Messages that waited for this surface are judged now, in their order.
                let (ready, waiting): (Vec<Waiting>, Vec<Waiting>) =
                    std::mem::take(&mut pass.waiting).into_iter().partition(|w| w.surface_id == create.surface_id);
                pass.waiting = waiting;
                for waiting in ready {
                    if let Some(update) = waiting.update {
                        self.check_message(ServerMessage::UpdateComponents(update), waiting.version, &waiting.at, pass);
                    }
                }
            }
            ServerMessage::UpdateComponents(update) => {
                let Some(plan) = pass.surfaces.get_mut(&update.surface_id) else {
                    // Judged when its surface is created, as the engine applies it then.
                    pass.waiting.push(Waiting {
                        surface_id: update.surface_id.clone(),
                        at: at.to_owned(),
                        key,
                        version,
                        update: Some(update),
                    });
                    return;
                };
                // Inline components of a v1.0 createSurface point into it.
                let list = if update.inline_in_create {
                    format!("{at}.createSurface.components")
                } else {
                    format!("{at}.{key}.components")
                };
                let mut seen: HashSet<&str> = HashSet::new();
                for (j, component) in update.components.iter().enumerate() {
                    let here = format!("{list}.{j}");
                    let Value::Object(fields) = component else {
                        pass.findings.push(Finding::new(
                            Category::Validation,
                            "type_mismatch",
                            here,
                            "a component is an object",
                        ));
                        continue;
                    };
                    let id = fields.get("id").and_then(Value::as_str).unwrap_or_default();
                    if plan.version == Version::V1_0 && !is_component_identifier(id) {
                        pass.findings.push(Finding::new(
                            Category::Validation,
                            "invalid_identifier",
                            format!("{here}.id"),
                            format!("Component id '{id}' must be a valid Unicode identifier (UAX #31)"),
                        ));
                    }
                    if !seen.insert(id) {
                        pass.findings.push(Finding::new(
                            Category::Integrity,
                            "duplicate_id",
                            format!("{here}.id"),
                            format!("component id {id:?} is defined twice in one message"),
                        ));
                    }
                    // The component's own catalog (v1.0 `catalogId`), else the surface's.
                    let catalog_id =
                        fields.get("catalogId").and_then(Value::as_str).unwrap_or(plan.catalog_id.as_str());
                    let default = self.catalogs.get(&plan.catalog_id).ok();
                    match self.catalogs.get(catalog_id) {
                        Ok(catalog) => {
                            if plan.version == Version::V1_0 && !catalog.is_v1() {
                                pass.findings.push(Finding::new(
                                    Category::Catalog,
                                    "version_mismatch",
                                    format!("{here}.catalogId"),
                                    format!(
                                        "catalog {catalog_id:?} is not a v1.0 catalog: a v1.0 surface cannot use it"
                                    ),
                                ));
                            }
                            // A call naming no catalog is the surface default's, not the
                            // component's catalog's: that schema judges only its shape here.
                            let judged = match &default {
                                Some(default) if !Arc::ptr_eq(default, &catalog) => {
                                    call_site::naming_default_catalog(component, &default.id)
                                }
                                _ => component.clone(),
                            };
                            let first = pass.findings.len();
                            for error in catalog.validate_component(&judged) {
                                pass.findings.push(Finding::new(
                                    Category::Validation,
                                    schema_code(&error.message),
                                    format!("{here}{}{}", dotted(&error.instance_path), missing_name(&error.message)),
                                    error.message,
                                ));
                            }
                            let schema_found: Vec<String> =
                                pass.findings[first..].iter().map(|f| f.path.clone()).collect();
                            for site in call_site::outermost_calls(fields) {
                                let call_at = format!("{here}{}", dotted(&site.pointer));
                                // The schema reported this call already (a typed property).
                                if schema_found.iter().any(|p| *p == call_at || p.starts_with(&format!("{call_at}."))) {
                                    continue;
                                }
                                let Some(Value::Object(call)) = component.pointer(&site.pointer) else { continue };
                                let runs_in = match &site.catalog_id {
                                    None => default.clone(),
                                    Some(id) => match self.catalogs.get(id) {
                                        Ok(named) => Some(named),
                                        Err(e) => {
                                            pass.findings.push(Finding::new(
                                                Category::Catalog,
                                                "unknown_catalog",
                                                format!("{call_at}.catalogId"),
                                                e.to_string(),
                                            ));
                                            continue;
                                        }
                                    },
                                };
                                // No default: the engine refuses the call for naming no catalog.
                                let Some(runs_in) = runs_in else { continue };
                                let mut own = call.clone();
                                own.remove("catalogId");
                                for error in runs_in.validate_function_call(&Value::Object(own)) {
                                    pass.findings.push(Finding::new(
                                        Category::Validation,
                                        schema_code(&error.message),
                                        format!(
                                            "{call_at}{}{}",
                                            dotted(&error.instance_path),
                                            missing_name(&error.message)
                                        ),
                                        error.message,
                                    ));
                                }
                            }
                        }
                        // A surface whose own catalog is unknown was reported at its createSurface.
                        Err(_) if !fields.contains_key("catalogId") => {}
                        Err(e) => pass.findings.push(Finding::new(
                            Category::Catalog,
                            "unknown_catalog",
                            format!("{here}.catalogId"),
                            e.to_string(),
                        )),
                    }
                    // Binding paths and `formatString` templates, which the schema only types as
                    // strings (the engine refuses the same ones when it applies them).
                    crate::component::visit_references(fields, |location, found| {
                        let error = match found {
                            Reference::Path(path) => crate::pointer::check_binding(path).err().map(|e| e.to_string()),
                            Reference::Template(template) => {
                                crate::functions::parse_template(template).err().map(|e| e.to_string())
                            }
                        };
                        if let Some(error) = error {
                            pass.findings.push(Finding::new(
                                Category::Validation,
                                "invalid_value",
                                format!("{here}{}", dotted(location)),
                                error,
                            ));
                        }
                    });
                    let refs =
                        CompiledComponent::compile(fields).referenced_ids().into_iter().map(str::to_owned).collect();
                    plan.components.insert(id.to_owned(), refs);
                }
                pass.touched.push(update.surface_id);
            }
            ServerMessage::UpdateDataModel(update) => {
                if !pass.surfaces.contains_key(&update.surface_id) {
                    let surface_id = update.surface_id.clone();
                    pass.waiting.push(Waiting { surface_id, at: at.to_owned(), key, version, update: None });
                }
                if let Some(path) = update.path.as_deref() {
                    if let Err(e) = check_data_path(path) {
                        pass.findings.push(Finding::new(
                            Category::Validation,
                            "invalid_value",
                            format!("{at}.{key}.path"),
                            format!("{path:?} is not a JSON Pointer: {e}"),
                        ));
                    }
                }
            }
            ServerMessage::DeleteSurface(delete) => {
                // Deleting a surface that does not exist is a no-op, not an error.
                pass.surfaces.remove(&delete.surface_id);
            }
            ServerMessage::CallRendererFunction(_) | ServerMessage::AgentFunctionResponse(_) => {}
        }
    }
}

/// A v1.0 component id: a UAX #31 identifier whose profile adds the hyphen-minus as a medial
/// character (UAX #31 table 3a), so `content-grid` (the pack's own example 31) is one and
/// `123invalid_id` (the upstream validator suite's) is not.
fn is_component_identifier(id: &str) -> bool {
    let mut parts = id.split('-');
    parts.next().is_some_and(wire::v10::is_unicode_identifier)
        && parts.all(|part| !part.is_empty() && wire::v10::is_unicode_identifier(&format!("_{part}")))
}

/// What the suite reports before any parsing: a message that is no object, a missing or
/// mistyped `version`, a `surfaceId` that is not a string.
fn check_envelope(envelope: &Value, at: &str) -> Option<Finding> {
    let Value::Object(fields) = envelope else {
        return Some(Finding::new(Category::Validation, "type_mismatch", at.to_owned(), "a message is a JSON object"));
    };
    match fields.get("version") {
        // v0.8 envelopes carry no version; every later one must.
        None if !wire::v08::is_v08(envelope) => {
            return Some(Finding::new(
                Category::Validation,
                "missing_field",
                format!("{at}.version"),
                "Missing required version field",
            ))
        }
        Some(version) if !version.is_string() => {
            return Some(Finding::new(
                Category::Validation,
                "type_mismatch",
                format!("{at}.version"),
                "version must be a string",
            ))
        }
        _ => {}
    }
    for (key, body) in fields.iter().filter(|(k, _)| *k != "version") {
        if let Some(id) = body.get("surfaceId").filter(|id| !id.is_string()) {
            return Some(Finding::new(
                Category::Validation,
                "type_mismatch",
                format!("{at}.{key}.surfaceId"),
                format!("surfaceId must be a string, got {id}"),
            ));
        }
    }
    None
}

/// A parse error of the wire layer as a finding at the same place.
fn from_error(error: &A2uiError, at: &str) -> Finding {
    let (code, path) = match error {
        A2uiError::UnsupportedVersion(_) => ("invalid_value", format!("{at}.version")),
        A2uiError::Validation(issues) => {
            let first = issues.first().map(|i| i.message.as_str()).unwrap_or_default();
            (schema_code(first), format!("{at}{}", dotted(error.path().unwrap_or_default())))
        }
        _ => ("invalid_value", at.to_owned()),
    };
    let category = match error {
        A2uiError::UnknownCatalog(_) => Category::Catalog,
        _ => Category::Validation,
    };
    Finding::new(category, code, path, error.to_string())
}

/// The suite's detail code for a schema error, by the schema validator's wording (see
/// `schema::validate`: "missing required property", "expected X, got Y").
fn schema_code(message: &str) -> &'static str {
    if message.starts_with("missing required property") || message.starts_with("missing property") {
        "missing_field"
    } else if message.starts_with("expected ") && message.contains(", got ") {
        "type_mismatch"
    } else {
        "invalid_value"
    }
}

/// The property a "missing required property \"x\"" error names, as a path segment (`.x`): the
/// suite reports a missing field at the field, the schema validator at the object holding it.
fn missing_name(message: &str) -> String {
    message
        .strip_prefix("missing required property ")
        .and_then(|rest| serde_json::from_str::<String>(rest).ok())
        .map(|name| format!(".{name}"))
        .unwrap_or_default()
}

/// A JSON Pointer as dotted segments (`/a/0` -> `.a.0`).
fn dotted(pointer: &str) -> String {
    pointer.split('/').skip(1).map(|s| format!(".{}", s.replace("~1", "/").replace("~0", "~"))).collect()
}

/// An `updateDataModel` path: empty or `/`-led, each `~` an escape.
fn check_data_path(path: &str) -> Result<(), String> {
    if !(path.is_empty() || path.starts_with('/')) {
        return Err("it must be empty or start with \"/\"".into());
    }
    crate::pointer::check_binding(path).map_err(|e| e.to_string())
}

fn unknown_surface(surface_id: &str, path: &str) -> Finding {
    Finding::new(
        Category::Integrity,
        "unknown_surface",
        path.to_owned(),
        format!("surface {surface_id:?} is not created in the sequence (after its deletion, if any): a message for it waits for its createSurface"),
    )
}

/// The component graph of one surface after the sequence.
fn check_topology(plan: &SurfacePlan, surface_id: &str, strict: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    let at = format!("surfaces.{surface_id}");
    let mut ids: Vec<&String> = plan.components.keys().collect();
    ids.sort();
    for id in &ids {
        if plan.components[*id].iter().any(|child| child == *id) {
            findings.push(Finding::new(
                Category::Integrity,
                "self_reference",
                format!("{at}.components.{id}"),
                format!("Self-reference detected: component {id:?} lists itself as a child"),
            ));
        }
    }
    if let Some(cycle) = find_cycle(plan) {
        findings.push(Finding::new(
            Category::Integrity,
            "cycle",
            format!("{at}.components.{}", cycle[0]),
            format!("Circular component reference: {}", cycle.join(" -> ")),
        ));
    }
    if !strict {
        return findings;
    }
    for id in &ids {
        for child in &plan.components[*id] {
            if !plan.components.contains_key(child) {
                findings.push(Finding::new(
                    Category::Integrity,
                    "dangling_reference",
                    format!("{at}.components.{id}"),
                    format!("Dangling reference: component {id:?} refers to {child:?}, which is not defined"),
                ));
            }
        }
    }
    if !plan.components.is_empty() && !plan.components.contains_key(&plan.root_id) {
        findings.push(Finding::new(
            Category::Integrity,
            "missing_root",
            format!("{at}.components"),
            format!("Missing root component: no component has the id {:?}", plan.root_id),
        ));
        return findings;
    }
    // Reachable from the root (through children and templates).
    let mut reached: HashSet<&str> = HashSet::new();
    let mut stack = vec![plan.root_id.as_str()];
    while let Some(id) = stack.pop() {
        if !reached.insert(id) {
            continue;
        }
        stack.extend(plan.components.get(id).into_iter().flatten().map(String::as_str));
    }
    for id in ids {
        if !reached.contains(id.as_str()) {
            findings.push(Finding::new(
                Category::Integrity,
                "orphaned_component",
                format!("{at}.components.{id}"),
                format!("component {id:?} is not reachable from the root {:?}", plan.root_id),
            ));
        }
    }
    findings
}

/// A cycle of two or more components, as the ids along it (the first repeated at the end).
fn find_cycle(plan: &SurfacePlan) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Active,
        Done,
    }
    let mut marks: HashMap<&str, Mark> = HashMap::new();
    let mut starts: Vec<&String> = plan.components.keys().collect();
    starts.sort();
    for start in starts {
        if marks.contains_key(start.as_str()) {
            continue;
        }
        // Iterative DFS: (id, index of the next child to visit); the stack is the current path.
        let mut stack: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
        marks.insert(start, Mark::Active);
        while let Some((id, next)) = stack.pop() {
            let children = plan.components.get(id).map(Vec::as_slice).unwrap_or_default();
            match children.get(next) {
                None => {
                    marks.insert(id, Mark::Done);
                }
                Some(child) => {
                    stack.push((id, next + 1));
                    // A self-reference is reported on its own.
                    if child == id {
                        continue;
                    }
                    match marks.get(child.as_str()) {
                        Some(Mark::Active) => {
                            let from = stack.iter().position(|(s, _)| s == child).unwrap_or(0);
                            let mut path: Vec<String> = stack[from..].iter().map(|(s, _)| (*s).to_owned()).collect();
                            path.push(child.clone());
                            return Some(path);
                        }
                        Some(Mark::Done) => {}
                        None if plan.components.contains_key(child) => {
                            marks.insert(child, Mark::Active);
                            stack.push((child, 0));
                        }
                        None => {}
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
