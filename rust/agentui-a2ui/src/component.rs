//! A component definition compiled once when it arrives: properties parsed into dynamic values,
//! child references and templates recognised, checks and action parsed. Every template instance
//! of the component reuses this compiled form.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::dynamic::Dynamic;

/// A property value with its dynamic parts and child references located.
#[derive(Debug, Clone, PartialEq)]
pub enum PropTemplate {
    Dynamic(Dynamic),
    /// A reference to another component by id (`child`, Modal `trigger`/`content`, Tabs `child`).
    ChildRef(Arc<str>),
    /// A `children` list.
    Children(ChildSource),
    Object(Vec<(String, PropTemplate)>),
    Array(Vec<PropTemplate>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ChildSource {
    Ids(Vec<Arc<str>>),
    /// One instance of `component_id` per item of the array (or object) at `path`.
    Template {
        component_id: Arc<str>,
        path: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum CompiledAction {
    /// `user_message`: v1.0's `event.userMessage`, a line for the conversation history.
    Event {
        name: Arc<str>,
        context: Vec<(String, Dynamic)>,
        user_message: Option<Dynamic>,
    },
    FunctionCall(Dynamic),
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompiledCheck {
    pub condition: Dynamic,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CompiledComponent {
    pub id: Arc<str>,
    pub component_type: Arc<str>,
    pub props: Vec<(Arc<str>, PropTemplate)>,
    pub accessibility_label: Option<Dynamic>,
    pub accessibility_description: Option<Dynamic>,
    /// v1.0 `accessibility.live`, a literal enum the catalog checked.
    pub accessibility_live: Option<Arc<str>>,
    /// v1.0 `accessibility.hidden`, a dynamic boolean.
    pub accessibility_hidden: Option<Dynamic>,
    pub checks: Vec<CompiledCheck>,
    pub action: Option<CompiledAction>,
    pub weight: Option<f64>,
}

/// Message of the check a TextField's `validationRegexp` becomes.
pub const VALIDATION_REGEXP_MESSAGE: &str = "Invalid format";

/// A TextField's `validationRegexp` as one more check: `regex(value, pattern)`, evaluated here
/// with the linear-time `regex` crate, so renderers never run an agent's pattern on a
/// backtracking engine. The pattern must match the whole value.
fn validation_regexp_check(component_type: &str, component: &Map<String, Value>) -> Option<CompiledCheck> {
    if component_type != "TextField" {
        return None;
    }
    let pattern = component.get("validationRegexp")?.as_str()?;
    let value = component.get("value").cloned().unwrap_or(Value::Null);
    let anchored = format!("^(?:{pattern})$");
    let condition = serde_json::json!({"call": "regex", "args": {"value": value, "pattern": anchored}});
    Some(CompiledCheck { condition: Dynamic::parse(&condition), message: VALIDATION_REGEXP_MESSAGE.to_owned() })
}

/// Keys handled outside `props`.
const RESERVED: [&str; 7] = ["id", "component", "accessibility", "checks", "action", "weight", "catalogId"];

impl CompiledComponent {
    /// Compiles a component object that already passed catalog validation (so shapes are
    /// trusted here; anything unexpected degrades to a literal rather than failing).
    pub fn compile(component: &Map<String, Value>) -> CompiledComponent {
        let id: Arc<str> = component.get("id").and_then(Value::as_str).unwrap_or_default().into();
        let component_type: Arc<str> = component.get("component").and_then(Value::as_str).unwrap_or_default().into();
        let is_modal = component_type.as_ref() == "Modal";
        let props = component
            .iter()
            .filter(|(k, _)| !RESERVED.contains(&k.as_str()))
            .map(|(key, value)| {
                let template = match (key.as_str(), value) {
                    ("children", Value::Array(ids)) => PropTemplate::Children(ChildSource::Ids(
                        ids.iter().filter_map(Value::as_str).map(Arc::from).collect(),
                    )),
                    ("children", Value::Object(t)) => match (t.get("componentId"), t.get("path")) {
                        (Some(Value::String(c)), Some(Value::String(p))) => {
                            PropTemplate::Children(ChildSource::Template {
                                component_id: c.as_str().into(),
                                path: p.clone(),
                            })
                        }
                        _ => compile_value(value),
                    },
                    ("child", Value::String(id)) => PropTemplate::ChildRef(id.as_str().into()),
                    ("trigger" | "content", Value::String(id)) if is_modal => {
                        PropTemplate::ChildRef(id.as_str().into())
                    }
                    _ => compile_value(value),
                };
                (Arc::from(key.as_str()), template)
            })
            .collect();
        let accessibility = component.get("accessibility").and_then(Value::as_object);
        let mut checks: Vec<CompiledCheck> = component
            .get("checks")
            .and_then(Value::as_array)
            .map(|rules| {
                rules
                    .iter()
                    .filter_map(|rule| {
                        let condition = rule.get("condition")?;
                        Some(CompiledCheck {
                            condition: Dynamic::parse(condition),
                            message: rule.get("message").and_then(Value::as_str).unwrap_or_default().to_owned(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        checks.extend(validation_regexp_check(&component_type, component));
        CompiledComponent {
            id,
            component_type,
            props,
            accessibility_label: accessibility.and_then(|a| a.get("label")).map(Dynamic::parse),
            accessibility_description: accessibility.and_then(|a| a.get("description")).map(Dynamic::parse),
            accessibility_live: accessibility.and_then(|a| a.get("live")).and_then(Value::as_str).map(Arc::from),
            accessibility_hidden: accessibility.and_then(|a| a.get("hidden")).map(Dynamic::parse),
            checks,
            action: component.get("action").and_then(compile_action),
            weight: component.get("weight").and_then(Value::as_f64),
        }
    }

    /// Ids this definition refers to (child references and template components), in order.
    pub fn referenced_ids(&self) -> Vec<&str> {
        fn walk<'a>(template: &'a PropTemplate, out: &mut Vec<&'a str>) {
            match template {
                PropTemplate::ChildRef(id) => out.push(id),
                PropTemplate::Children(ChildSource::Ids(ids)) => out.extend(ids.iter().map(|id| id.as_ref())),
                PropTemplate::Children(ChildSource::Template { component_id, .. }) => out.push(component_id),
                PropTemplate::Object(fields) => fields.iter().for_each(|(_, t)| walk(t, out)),
                PropTemplate::Array(items) => items.iter().for_each(|t| walk(t, out)),
                PropTemplate::Dynamic(_) => {}
            }
        }
        let mut out = Vec::new();
        for (_, template) in &self.props {
            walk(template, &mut out);
        }
        out
    }
}

/// Nested values: `{path}` and `{call}` objects are dynamic, `child` keys inside nested objects
/// (Tabs items) are references, everything else is structure or literal.
fn compile_value(value: &Value) -> PropTemplate {
    match value {
        Value::Object(map) if map.contains_key("path") || map.contains_key("call") => {
            PropTemplate::Dynamic(Dynamic::parse(value))
        }
        Value::Object(map) => PropTemplate::Object(
            map.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("child", Value::String(id)) => (k.clone(), PropTemplate::ChildRef(id.as_str().into())),
                    _ => (k.clone(), compile_value(v)),
                })
                .collect(),
        ),
        Value::Array(items) => PropTemplate::Array(items.iter().map(compile_value).collect()),
        _ => PropTemplate::Dynamic(Dynamic::Literal(value.clone())),
    }
}

/// Calls `visit(location, path)` for every data-binding path [`CompiledComponent::compile`]
/// reads from `component`: `{"path"}` bindings wherever a dynamic value can be (properties,
/// function arguments, checks, accessibility, an event's context) and a child list template's
/// `path`. `location` is the JSON Pointer of the path string inside the component, so an agent
/// can be told exactly which one is wrong. The walk follows the rules of `compile`,
/// `compile_value`, `Dynamic::parse` and `compile_action`; literals are not looked into.
pub fn visit_binding_paths(component: &Map<String, Value>, mut visit: impl FnMut(&str, &str)) {
    visit_references(component, |location, found| {
        if let Reference::Path(path) = found {
            visit(location, path)
        }
    })
}

/// What [`visit_references`] finds in a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference<'a> {
    /// A data-binding path (a binding, or a child list template's `path`).
    Path(&'a str),
    /// The literal template of a `formatString` call (its `value` argument).
    Template(&'a str),
}

/// As [`visit_binding_paths`], and also every literal `formatString` template, so a template
/// that does not parse is refused on arrival with its location instead of failing each render.
pub fn visit_references(component: &Map<String, Value>, visit: impl FnMut(&str, Reference<'_>)) {
    let mut walk = BindingWalk { at: String::new(), visit };
    let is_modal = component.get("component").and_then(Value::as_str) == Some("Modal");
    for (key, value) in component.iter().filter(|(k, _)| !RESERVED.contains(&k.as_str())) {
        walk.enter(key, |walk| match (key.as_str(), value) {
            ("children", Value::Object(t)) => match (t.get("componentId"), t.get("path")) {
                (Some(Value::String(_)), Some(Value::String(path))) => walk.enter("path", |walk| walk.found(path)),
                _ => walk.value(value),
            },
            // An id list: `compile` keeps its strings and ignores anything else.
            ("children", Value::Array(_)) | ("child", Value::String(_)) => {}
            ("trigger" | "content", Value::String(_)) if is_modal => {}
            _ => walk.value(value),
        });
    }
    if let Some(Value::Object(accessibility)) = component.get("accessibility") {
        for key in ["label", "description", "hidden"] {
            if let Some(value) = accessibility.get(key) {
                walk.enter("accessibility", |walk| walk.enter(key, |walk| walk.dynamic(value)));
            }
        }
    }
    if let Some(Value::Array(rules)) = component.get("checks") {
        for (index, rule) in rules.iter().enumerate() {
            if let Some(condition) = rule.get("condition") {
                walk.enter("checks", |walk| {
                    walk.index(index, |walk| walk.enter("condition", |walk| walk.dynamic(condition)))
                });
            }
        }
    }
    if let Some(action) = component.get("action") {
        walk.enter("action", |walk| match (action.get("event"), action.get("functionCall")) {
            (Some(event), _) => {
                if event.get("name").is_some_and(Value::is_string) {
                    if let Some(user_message) = event.get("userMessage") {
                        walk.enter("event", |walk| walk.enter("userMessage", |walk| walk.dynamic(user_message)));
                    }
                    if let Some(Value::Object(context)) = event.get("context") {
                        for (key, value) in context {
                            walk.enter("event", |walk| {
                                walk.enter("context", |walk| walk.enter(key, |walk| walk.dynamic(value)))
                            });
                        }
                    }
                }
            }
            (None, Some(call)) => walk.enter("functionCall", |walk| walk.dynamic(call)),
            (None, None) => {}
        });
    }
}

/// The state of [`visit_binding_paths`]: where it is in the component, as a JSON Pointer.
struct BindingWalk<F> {
    at: String,
    visit: F,
}

impl<F: FnMut(&str, Reference<'_>)> BindingWalk<F> {
    fn enter(&mut self, key: &str, inside: impl FnOnce(&mut Self)) {
        let len = self.at.len();
        self.at.push('/');
        crate::pointer::push_escaped(&mut self.at, key);
        inside(self);
        self.at.truncate(len);
    }

    fn index(&mut self, index: usize, inside: impl FnOnce(&mut Self)) {
        self.enter(itoa::Buffer::new().format(index), inside);
    }

    fn found(&mut self, path: &str) {
        (self.visit)(&self.at, Reference::Path(path));
    }

    /// A property value, as `compile_value` reads it.
    fn value(&mut self, value: &Value) {
        match value {
            Value::Object(map) if map.contains_key("path") || map.contains_key("call") => self.dynamic(value),
            Value::Object(map) => {
                for (key, child) in map {
                    if !(key == "child" && child.is_string()) {
                        self.enter(key, |walk| walk.value(child));
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.index(index, |walk| walk.value(item));
                }
            }
            _ => {}
        }
    }

    /// A dynamic value, as `Dynamic::parse` reads it.
    fn dynamic(&mut self, value: &Value) {
        let Value::Object(map) = value else { return };
        if let (1, Some(Value::String(path))) = (map.len(), map.get("path")) {
            self.enter("path", |walk| walk.found(path));
        } else if let Some(Value::String(function)) = map.get("call") {
            if let Some(Value::Object(args)) = map.get("args") {
                if let ("formatString", Some(Value::String(template))) = (function.as_str(), args.get("value")) {
                    self.enter("args", |walk| {
                        walk.enter("value", |walk| (walk.visit)(&walk.at, Reference::Template(template)))
                    });
                }
                for (name, arg) in args {
                    self.enter("args", |walk| walk.enter(name, |walk| walk.dynamic(arg)));
                }
            }
        }
    }
}

fn compile_action(action: &Value) -> Option<CompiledAction> {
    if let Some(event) = action.get("event") {
        let name: Arc<str> = event.get("name").and_then(Value::as_str)?.into();
        let context = event
            .get("context")
            .and_then(Value::as_object)
            .map(|ctx| ctx.iter().map(|(k, v)| (k.clone(), Dynamic::parse(v))).collect())
            .unwrap_or_default();
        let user_message = event.get("userMessage").map(Dynamic::parse);
        return Some(CompiledAction::Event { name, context, user_message });
    }
    action.get("functionCall").map(|call| CompiledAction::FunctionCall(Dynamic::parse(call)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn compile(v: Value) -> CompiledComponent {
        CompiledComponent::compile(v.as_object().unwrap())
    }

    #[test]
    fn recognises_child_references_and_templates() {
        let c = compile(json!({"id": "l", "component": "List", "children": {"componentId": "row", "path": "/items"}}));
        assert_eq!(c.referenced_ids(), vec!["row"]);
        let tabs = compile(
            json!({"id": "t", "component": "Tabs", "tabs": [{"title": "A", "child": "a"}, {"title": {"path": "/t"}, "child": "b"}]}),
        );
        assert_eq!(tabs.referenced_ids(), vec!["a", "b"]);
        let modal = compile(json!({"id": "m", "component": "Modal", "trigger": "open", "content": "body"}));
        assert_eq!(modal.referenced_ids(), vec!["open", "body"]);
        // `content` is only a reference on a Modal.
        let other = compile(json!({"id": "x", "component": "Custom", "content": "text"}));
        assert!(other.referenced_ids().is_empty());
    }

    /// Every path a compiled component reads, from its compiled form.
    fn compiled_paths(c: &CompiledComponent) -> Vec<String> {
        fn dynamic(d: &Dynamic, out: &mut Vec<String>) {
            match d {
                Dynamic::Path(p) => out.push(p.clone()),
                Dynamic::Call(call) => call.args.iter().for_each(|(_, a)| dynamic(a, out)),
                Dynamic::Literal(_) => {}
            }
        }
        fn template(t: &PropTemplate, out: &mut Vec<String>) {
            match t {
                PropTemplate::Dynamic(d) => dynamic(d, out),
                PropTemplate::Children(ChildSource::Template { path, .. }) => out.push(path.clone()),
                PropTemplate::Object(fields) => fields.iter().for_each(|(_, t)| template(t, out)),
                PropTemplate::Array(items) => items.iter().for_each(|t| template(t, out)),
                PropTemplate::ChildRef(_) | PropTemplate::Children(ChildSource::Ids(_)) => {}
            }
        }
        let mut out = Vec::new();
        c.props.iter().for_each(|(_, t)| template(t, &mut out));
        c.accessibility_label
            .iter()
            .chain(&c.accessibility_description)
            .chain(&c.accessibility_hidden)
            .for_each(|d| dynamic(d, &mut out));
        c.checks.iter().for_each(|check| dynamic(&check.condition, &mut out));
        match &c.action {
            Some(CompiledAction::Event { context, .. }) => context.iter().for_each(|(_, d)| dynamic(d, &mut out)),
            Some(CompiledAction::FunctionCall(d)) => dynamic(d, &mut out),
            None => {}
        }
        out.sort();
        out
    }

    #[test]
    fn binding_paths_are_visited_where_compile_reads_them() {
        let component = json!({
            "id": "c", "component": "Modal", "trigger": "t", "content": "body",
            "title": {"path": "/p1"},
            "children": {"componentId": "row", "path": "/p2"},
            "tabs": [{"title": {"path": "p3"}, "child": "x"}, {"title": "plain", "child": "y"}],
            "value": {"call": "formatString", "args": {"value": "lit", "n": {"path": "/p4"},
                "nested": {"call": "not", "args": {"value": {"path": "/p5"}}}}},
            "literal": {"path": "/not-a-binding", "extra": 1},
            "pairs": ["a", {"path": "/p9"}],
            "accessibility": {"label": {"path": "/p6"}, "description": "plain", "hidden": {"path": "/p10"}, "live": "polite"},
            "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/p7"}}}, "message": "m"}],
            "action": {"event": {"name": "go", "context": {"a/b~": {"path": "/p8"}, "lit": 3}}}
        });
        let component = component.as_object().unwrap();
        let mut seen = Vec::new();
        visit_binding_paths(component, |at, path| seen.push((at.to_owned(), path.to_owned())));
        let expected = [
            ("/title/path", "/p1"),
            ("/children/path", "/p2"),
            ("/tabs/0/title/path", "p3"),
            ("/value/args/n/path", "/p4"),
            ("/value/args/nested/args/value/path", "/p5"),
            ("/pairs/1/path", "/p9"),
            ("/accessibility/label/path", "/p6"),
            ("/accessibility/hidden/path", "/p10"),
            ("/checks/0/condition/args/value/path", "/p7"),
            ("/action/event/context/a~1b~0/path", "/p8"),
        ];
        assert_eq!(seen, expected.map(|(a, p)| (a.to_owned(), p.to_owned())));
        let mut visited: Vec<String> = seen.into_iter().map(|(_, p)| p).collect();
        visited.sort();
        let compiled = compiled_paths(&CompiledComponent::compile(component));
        assert_eq!(visited, compiled, "the walk and compile disagree on what is a binding");

        // A function-call action, and a child id list (whose non-strings compile ignores).
        let call = json!({"id": "b", "component": "Button", "children": ["x", {"path": "/no"}],
            "action": {"functionCall": {"call": "openUrl", "args": {"url": {"path": "/u"}}}}});
        let call = call.as_object().unwrap();
        let mut seen = Vec::new();
        visit_binding_paths(call, |at, path| seen.push((at.to_owned(), path.to_owned())));
        assert_eq!(seen, [("/action/functionCall/args/url/path".to_owned(), "/u".to_owned())]);
        assert_eq!(compiled_paths(&CompiledComponent::compile(call)), ["/u"]);
    }

    #[test]
    fn parses_action_checks_and_accessibility() {
        let c = compile(json!({
            "id": "b", "component": "Button", "child": "t",
            "action": {"event": {"name": "submit", "context": {"who": {"path": "/name"}, "n": 1}}},
            "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "Name?"}],
            "accessibility": {"label": "Send"}
        }));
        match c.action {
            Some(CompiledAction::Event { name, context, .. }) => {
                assert_eq!(name.as_ref(), "submit");
                assert_eq!(context[0], ("who".to_owned(), Dynamic::Path("/name".into())));
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(c.checks.len(), 1);
        assert_eq!(c.checks[0].message, "Name?");
        assert_eq!(c.accessibility_label, Some(Dynamic::Literal(json!("Send"))));
    }
}
