//! Resolution of one component instance: dynamic values evaluated against the data model in the
//! instance's scope, child references turned into instance ids, templates expanded, checks run.

use std::sync::Arc;

use serde_json::Value;

use crate::component::{ChildSource, CompiledComponent, PropTemplate};
use crate::data_model::DataModel;
use crate::dynamic::{Dynamic, Evaluator};
use crate::functions::{self, UrlPolicy};
use crate::locale::Localization;
use crate::node::{Accessibility, ActionKind, Binding, CheckResult, Props, ResolvedNode, Severity};
use crate::pointer;

/// Instance id of component `component_id` in `scope` (the canonical path of the template item
/// it belongs to, `""` outside templates). Stable for as long as the item keeps its index.
pub fn instance_id(component_id: &Arc<str>, scope: &str) -> Arc<str> {
    if scope.is_empty() {
        return component_id.clone();
    }
    // Not `format!` (13% of a build) and not a fresh String per id: one allocation, the Arc.
    with_scratch(|buf| {
        buf.push_str(component_id);
        buf.push('@');
        buf.push_str(scope);
    })
}

thread_local! {
    static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Builds a string in a reused per-thread buffer and returns it as an `Arc<str>`.
fn with_scratch(build: impl FnOnce(&mut String)) -> Arc<str> {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut buf) => {
            buf.clear();
            build(&mut buf);
            Arc::from(buf.as_str())
        }
        // Re-entered (never expected): fall back to a fresh buffer.
        Err(_) => {
            let mut buf = String::new();
            build(&mut buf);
            Arc::from(buf)
        }
    })
}

/// Components whose `url` the renderer loads.
const MEDIA_COMPONENTS: [&str; 3] = ["Image", "Video", "AudioPlayer"];

/// What resolution takes from the app rather than from the agent: the schemes media URLs may use
/// and the locale and time zone the formatting functions follow.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolveOptions {
    pub url_policy: UrlPolicy,
    pub localization: Localization,
    /// The Markdown profile of `Text` on this surface (set from its catalog); `None`: no tree.
    pub text_profile: Option<agentui_markdown::Profile>,
    /// Bounds on each `Text`'s tree (set from the surface's limits).
    pub markdown_limits: agentui_markdown::MarkdownLimits,
    /// v1.0 surfaces: checks give structured validation results (see
    /// [`Evaluator::validation_results`]).
    pub validation_results: bool,
    /// The app's functions and the surface's default catalog, which calls run in.
    pub functions: crate::functions::FunctionScope,
}

/// A child to resolve next: its definition, scope and the instance id the parent listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildKey {
    pub component_id: Arc<str>,
    /// Shared by every node of one template item.
    pub scope: Arc<str>,
    pub id: Arc<str>,
}

/// Everything one instance's resolution produced.
#[derive(Debug)]
pub struct Resolution {
    pub node: ResolvedNode,
    /// Data paths whose value the node read.
    pub reads: Vec<Arc<str>>,
    /// Data paths of the lists the node expanded as templates.
    pub lists: Vec<String>,
    pub children: Vec<ChildKey>,
    /// Items of templates that were not expanded because they exceeded the bound given to
    /// [`resolve_bounded`] (`None`: every template was expanded).
    pub template_overflow: Option<usize>,
}

/// Evaluates dynamic values in one scope, recording every path read.
pub struct ScopedEvaluator<'a> {
    pub data: &'a DataModel,
    pub scope: &'a str,
    pub reads: Vec<Arc<str>>,
    pub localization: &'a Localization,
    pub validation_results: bool,
    /// Where calls find the app's functions; `None`: built-ins only.
    pub functions: Option<&'a crate::functions::FunctionScope>,
}

impl<'a> ScopedEvaluator<'a> {
    pub fn new(data: &'a DataModel, scope: &'a str, localization: &'a Localization) -> Self {
        ScopedEvaluator { data, scope, reads: Vec::new(), localization, validation_results: false, functions: None }
    }

    /// Calls run in this scope: the app's functions, and the surface's default catalog.
    pub fn with_functions(mut self, functions: &'a crate::functions::FunctionScope) -> Self {
        self.functions = Some(functions);
        self
    }

    /// With v1.0's structured validation results.
    pub fn with_validation_results(mut self, on: bool) -> Self {
        self.validation_results = on;
        self
    }

    fn absolute(&self, path: &str) -> Option<String> {
        pointer::resolve(self.scope, path).ok()
    }

    /// Reads a canonical absolute path, recording it.
    fn read_absolute(&mut self, abs: Arc<str>) -> Value {
        let value = self.data.get(&abs).cloned().unwrap_or(Value::Null);
        self.reads.push(abs);
        value
    }
}

impl Evaluator for ScopedEvaluator<'_> {
    fn read_path(&mut self, path: &str) -> Value {
        let Some(abs) = self.absolute(path) else { return Value::Null };
        self.read_absolute(abs.into())
    }

    fn eval(&mut self, value: &Dynamic) -> Value {
        match value {
            Dynamic::Literal(v) => v.clone(),
            Dynamic::Path(p) => self.read_path(p),
            // A failing function renders as null; its arguments were validated on arrival.
            Dynamic::Call(call) => functions::evaluate(call, self).unwrap_or(Value::Null),
        }
    }

    fn localization(&self) -> &Localization {
        self.localization
    }

    fn validation_results(&self) -> bool {
        self.validation_results
    }

    fn implementation(&self, catalog: Option<&str>, name: &str) -> functions::Implementation {
        match self.functions {
            Some(scope) => scope.implementation(catalog, name),
            None => functions::Implementation::BuiltIn,
        }
    }

    /// A template instance's scope is its item's path (`/items/3`): the last segment is the index.
    fn template_index(&self) -> Option<usize> {
        let (_, last) = self.scope.rsplit_once('/')?;
        last.parse().ok()
    }
}

/// Resolves one instance of `def` in `scope`; `id` is the instance id its parent listed.
pub fn resolve(
    def: &CompiledComponent,
    id: Arc<str>,
    scope: &Arc<str>,
    data: &DataModel,
    options: &ResolveOptions,
) -> Resolution {
    resolve_bounded(def, id, scope, data, options, usize::MAX)
}

/// [`resolve`] expanding at most `max_template_items` template items in all: a template over a
/// longer list expands nothing (no child is allocated) and sets [`Resolution::template_overflow`].
pub fn resolve_bounded(
    def: &CompiledComponent,
    id: Arc<str>,
    scope: &Arc<str>,
    data: &DataModel,
    options: &ResolveOptions,
    max_template_items: usize,
) -> Resolution {
    let mut ev = ScopedEvaluator::new(data, scope, &options.localization)
        .with_validation_results(options.validation_results)
        .with_functions(&options.functions);
    let mut walk = PropWalk {
        scope,
        children: Vec::new(),
        lists: Vec::new(),
        bindings: Vec::new(),
        items_left: max_template_items,
        overflow: None,
    };
    // Child references are not repeated in the props: a Card or Column needs no props vector.
    let listed =
        def.props.iter().filter(|(_, t)| !matches!(t, PropTemplate::Children(_) | PropTemplate::ChildRef(_))).count();
    let mut props = Props::with_capacity(listed);
    for (key, template) in &def.props {
        // `child` and `children` are exactly `node.children`; repeating 10,000 ids as strings
        // in the props would double the cost of a large list.
        match template {
            PropTemplate::Children(_) => {
                walk.value(template, &mut ev);
                continue;
            }
            PropTemplate::ChildRef(id) if key.as_ref() == "child" => {
                walk.child(id, scope);
                continue;
            }
            PropTemplate::Dynamic(Dynamic::Path(path)) => {
                // A bound property: the renderer writes user input back to this path.
                let value = match ev.absolute(path) {
                    Some(abs) => {
                        let abs: Arc<str> = abs.into();
                        walk.bindings.push(Binding { property: key.clone(), path: abs.clone() });
                        ev.read_absolute(abs)
                    }
                    None => Value::Null,
                };
                props.push(key.clone(), value);
                continue;
            }
            _ => {}
        }
        let value = walk.value(template, &mut ev);
        props.push(key.clone(), value);
    }
    // Media URLs come from the agent (or data it wrote): only allowed schemes reach the renderer.
    // A v1.0 Video's `posterUrl` is a media URL too.
    if MEDIA_COMPONENTS.contains(&def.component_type.as_ref()) {
        for key in ["url", "posterUrl"] {
            if let Some(url @ Value::String(_)) = props.get_mut(key) {
                if url.as_str().is_some_and(|u| options.url_policy.check(u).is_err()) {
                    *url = Value::Null;
                }
            }
        }
    }
    let checks: Vec<CheckResult> =
        def.checks.iter().map(|check| check_result(&check.message, &ev.eval(&check.condition))).collect();
    let validation_message = checks.iter().find(|c| !c.passed).map(|c| c.message.clone());
    let blocked = checks.iter().any(|c| !c.passed && c.severity == Severity::Error);
    let accessibility = if def.accessibility_label.is_some()
        || def.accessibility_description.is_some()
        || def.accessibility_live.is_some()
        || def.accessibility_hidden.is_some()
    {
        Some(Accessibility {
            label: def.accessibility_label.as_ref().map(|d| functions::coerce_to_string(&ev.eval(d))),
            description: def.accessibility_description.as_ref().map(|d| functions::coerce_to_string(&ev.eval(d))),
            live: def.accessibility_live.as_deref().map(str::to_owned),
            hidden: def.accessibility_hidden.as_ref().map(|d| functions::coerce_to_bool(&ev.eval(d))),
        })
    } else {
        None
    };
    let action = def.action.as_ref().map(|action| match action {
        crate::component::CompiledAction::Event { name, .. } => ActionKind::Event { name: name.clone() },
        crate::component::CompiledAction::FunctionCall(Dynamic::Call(call)) => {
            ActionKind::FunctionCall { name: call.name.as_str().into() }
        }
        crate::component::CompiledAction::FunctionCall(_) => ActionKind::FunctionCall { name: "".into() },
    });
    let enabled = action.is_none() || !blocked;
    let markdown = match (options.text_profile, def.component_type.as_ref(), props.get("text")) {
        (Some(profile), "Text", Some(Value::String(text))) => {
            Some(crate::markdown::text_tree(text, profile, &options.url_policy, options.markdown_limits))
        }
        _ => None,
    };
    let child_ids = walk.children.iter().map(|c| c.id.clone()).collect();
    let mut reads = ev.reads;
    reads.sort_unstable();
    reads.dedup();
    Resolution {
        node: ResolvedNode {
            id,
            component_id: def.id.clone(),
            component_type: def.component_type.clone(),
            props,
            children: child_ids,
            accessibility,
            checks,
            validation_message,
            enabled,
            action,
            bindings: walk.bindings,
            weight: def.weight,
            markdown,
        },
        reads,
        lists: walk.lists,
        children: walk.children,
        template_overflow: walk.overflow,
    }
}

struct PropWalk<'s> {
    scope: &'s Arc<str>,
    children: Vec<ChildKey>,
    lists: Vec<String>,
    bindings: Vec<Binding>,
    items_left: usize,
    overflow: Option<usize>,
}

impl PropWalk<'_> {
    fn child(&mut self, component_id: &Arc<str>, scope: &Arc<str>) -> Arc<str> {
        let id = instance_id(component_id, scope);
        self.children.push(ChildKey { component_id: component_id.clone(), scope: scope.clone(), id: id.clone() });
        id
    }

    fn value(&mut self, template: &PropTemplate, ev: &mut ScopedEvaluator<'_>) -> Value {
        match template {
            PropTemplate::Dynamic(d) => ev.eval(d),
            PropTemplate::ChildRef(id) => Value::String(String::from(&*self.child(id, self.scope))),
            // Only recorded as children: the caller does not repeat `children` in the props.
            PropTemplate::Children(ChildSource::Ids(ids)) => {
                for id in ids {
                    self.child(id, self.scope);
                }
                Value::Null
            }
            PropTemplate::Children(ChildSource::Template { component_id, path }) => {
                let Ok(list_path) = pointer::resolve(self.scope, path) else { return Value::Null };
                let list = ev.data.get(&list_path);
                let items = match list {
                    Some(Value::Array(items)) => items.len(),
                    Some(Value::Object(members)) => members.len(),
                    _ => 0,
                };
                // Checked before a single scope is built: a list of millions allocates nothing.
                if items > self.items_left {
                    self.overflow = Some(self.overflow.unwrap_or(0).saturating_add(items));
                    self.lists.push(list_path);
                    return Value::Null;
                }
                self.items_left -= items;
                for item_scope in template_item_scopes(list, &list_path) {
                    self.child(component_id, &item_scope);
                }
                self.lists.push(list_path);
                Value::Null
            }
            PropTemplate::Object(fields) => {
                Value::Object(fields.iter().map(|(k, t)| (k.clone(), self.value(t, ev))).collect())
            }
            PropTemplate::Array(items) => Value::Array(items.iter().map(|t| self.value(t, ev)).collect()),
        }
    }
}

/// Scopes of a template's items: one per array element (by index) or object member (by key).
fn template_item_scopes(list: Option<&Value>, list_path: &str) -> Vec<Arc<str>> {
    match list {
        Some(Value::Array(items)) => (0..items.len())
            .map(|i| {
                with_scratch(|path| {
                    path.push_str(list_path);
                    path.push('/');
                    path.push_str(itoa::Buffer::new().format(i));
                })
            })
            .collect(),
        Some(Value::Object(members)) => members
            .keys()
            .map(|k| {
                let mut path = list_path.to_owned();
                pointer::push_token(&mut path, k);
                Arc::from(path)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One check's outcome from its condition's value: a v1.0 validation result
/// (`{valid, code?, message?, severity?}`: its message, else the rule's) or a boolean (the rule's
/// message, severity error). A value that is neither is read with [`functions::is_true`].
fn check_result(rule_message: &str, value: &Value) -> CheckResult {
    if let Value::Object(result) = value {
        if let Some(Value::Bool(valid)) = result.get("valid") {
            let text = |key: &str| result.get(key).and_then(Value::as_str).map(str::to_owned);
            return CheckResult {
                passed: *valid,
                message: text("message").unwrap_or_else(|| rule_message.to_owned()),
                code: text("code"),
                severity: match result.get("severity").and_then(Value::as_str) {
                    Some("warning") => Severity::Warning,
                    Some("info") => Severity::Info,
                    _ => Severity::Error,
                },
            };
        }
    }
    CheckResult {
        passed: functions::is_true(value, false),
        message: rule_message.to_owned(),
        code: None,
        severity: Severity::Error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_ids_and_item_scopes() {
        let row: Arc<str> = "row".into();
        assert_eq!(&*instance_id(&row, ""), "row");
        assert_eq!(&*instance_id(&row, "/items/3"), "row@/items/3");
        let scopes = template_item_scopes(Some(&serde_json::json!([1, 2, 3])), "/items");
        assert_eq!(scopes.iter().map(|s| s.as_ref()).collect::<Vec<_>>(), vec!["/items/0", "/items/1", "/items/2"]);
        let keyed = template_item_scopes(Some(&serde_json::json!({"a/b": 1})), "/m");
        assert_eq!(&*keyed[0], "/m/a~1b");
    }
}
