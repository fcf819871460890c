//! The A2UI v1.0 adapter: v1.0 agent-to-renderer envelopes translated onto the v0.9 messages the
//! engine applies, as the v0.8 adapter does for v0.8.
//!
//! What v1.0 changes on the wire, and where it goes here:
//! - `version` is `"1.0"` (the live spec) or `"v1.0"` (every stored v1.0 file); both are v1.0.
//! - `createSurface` may carry its first `components` and `dataModel` inline, and has no `theme`.
//!   It becomes a creation, then a data-model write, then a component update, so the tree is
//!   built once.
//! - `updateDataModel.value` is required and `null` deletes the key (in v0.9 an *omitted* value
//!   deletes and `null` is stored).
//! - Reserved keys start with `@`: `{"@path": …}` is a binding, `{"@call": …}` a function call,
//!   `@@x` is the literal key `@x`, and any other single-`@` key is refused with its pointer.
//!   Component keys may be written `@catalogId`, `@accessibility`, `@metadata`, `@checks`.
//! - The August 2026 form, with bare `path` / `call`, is accepted too where it cannot be data:
//!   inside a component a property value `{"path": …}` is a binding (a typed dynamic property
//!   can hold nothing else), while a free-form value (`dataModel`, `updateDataModel.value`,
//!   `metadata`) is never read for bindings, so `{"path": …}` there is a literal object.
//! - `callRendererFunction` and `agentFunctionResponse` are function-call messages without a
//!   surface; they are parsed here and answered by the group.

use serde_json::{Map, Value};

use crate::error::A2uiError;
use crate::wire::v09::{
    required_string, single_message_key, CreateSurface, DeleteSurface, ServerMessage, UpdateComponents, UpdateDataModel,
};

/// Both spellings of the v1.0 `version` field: the live spec's and the stored files'.
pub const VERSION_STRINGS: [&str; 2] = ["1.0", "v1.0"];
/// Version written into v1.0 messages this engine emits. Every stored v1.0 schema has
/// `"const": "v1.0"`; the live spec's `"1.0"` is read, not written, until a schema says so.
pub const EMITTED_VERSION: &str = "v1.0";

const AGENT_KEYS: [&str; 6] = [
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
    "callRendererFunction",
    "agentFunctionResponse",
];

/// Component keys that may be written with or without `@` (the live spec prefixes them).
const COMPONENT_RESERVED: [&str; 4] = ["catalogId", "accessibility", "metadata", "checks"];

/// Deepest nesting the reserved-key walk follows (serde_json refuses deeper text anyway; a
/// value built in code could be deeper and must not overflow the stack).
pub(crate) const MAX_NESTING: usize = 128;

/// An agent's request that the renderer run one of its functions.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRendererFunction {
    pub function_call_id: String,
    /// The function's name (`@call`, or `call` in the August form).
    pub name: String,
    /// The catalog the agent names for the function (required by the schema).
    pub catalog_id: String,
    /// The arguments as sent, reserved keys translated.
    pub args: Map<String, Value>,
}

/// The agent's answer to a `callAgentFunction`.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentFunctionResponse {
    pub function_call_id: String,
    /// `Ok(value)` or `Err((code, message))`.
    pub result: Result<Value, (String, String)>,
}

/// Parses one v1.0 envelope (its version already checked) into the messages that have its
/// effect, in order.
pub fn parse(envelope: Value) -> Result<Vec<ServerMessage>, A2uiError> {
    let Value::Object(mut obj) = envelope else {
        return Err(A2uiError::validation("", "message must be a JSON object"));
    };
    let key = single_message_key(&obj, &AGENT_KEYS)?;
    if let Some(extra) = obj.keys().find(|k| *k != "version" && *k != key) {
        return Err(A2uiError::validation(format!("/{}", escape(extra)), format!("unexpected property {extra:?}")));
    }
    let Some(Value::Object(mut body)) = obj.remove(key) else {
        return Err(A2uiError::validation(format!("/{key}"), format!("{key} must be an object")));
    };
    let at = format!("/{key}");
    match key {
        "createSurface" => create_surface(body, &at),
        "updateComponents" => {
            only_known(&body, &["surfaceId", "components"], &at)?;
            let surface_id = required_string(&body, "surfaceId", &format!("{at}/surfaceId"))?;
            let components = match body.remove("components") {
                Some(Value::Array(items)) => items,
                Some(_) => {
                    return Err(A2uiError::validation(format!("{at}/components"), "components must be an array"))
                }
                None => {
                    return Err(A2uiError::validation(
                        format!("{at}/components"),
                        "missing required property \"components\"",
                    ))
                }
            };
            Ok(vec![update_components(surface_id, components, &format!("{at}/components"))?])
        }
        "updateDataModel" => {
            only_known(&body, &["surfaceId", "path", "value"], &at)?;
            let surface_id = required_string(&body, "surfaceId", &format!("{at}/surfaceId"))?;
            let path = match body.remove("path") {
                None => None,
                Some(Value::String(p)) => Some(p),
                Some(_) => return Err(A2uiError::validation(format!("{at}/path"), "path must be a string")),
            };
            let value = match body.remove("value") {
                None => {
                    return Err(A2uiError::validation(format!("{at}/value"), "missing required property \"value\""))
                }
                // v1.0: an explicit null deletes the key.
                Some(Value::Null) => None,
                Some(value) => Some(value),
            };
            Ok(vec![ServerMessage::UpdateDataModel(UpdateDataModel { surface_id, path, value })])
        }
        "deleteSurface" => {
            only_known(&body, &["surfaceId"], &at)?;
            let surface_id = required_string(&body, "surfaceId", &format!("{at}/surfaceId"))?;
            Ok(vec![ServerMessage::DeleteSurface(DeleteSurface { surface_id })])
        }
        "callRendererFunction" => Ok(vec![ServerMessage::CallRendererFunction(call_renderer_function(body, &at)?)]),
        _ => Ok(vec![ServerMessage::AgentFunctionResponse(agent_function_response(body, &at)?)]),
    }
}

fn create_surface(mut body: Map<String, Value>, at: &str) -> Result<Vec<ServerMessage>, A2uiError> {
    only_known(&body, &["surfaceId", "catalogId", "sendDataModel", "components", "dataModel", "metadata"], at)?;
    let surface_id = required_string(&body, "surfaceId", &format!("{at}/surfaceId"))?;
    let catalog_id = match body.get("catalogId") {
        Some(Value::String(id)) if id.is_empty() => {
            return Err(A2uiError::validation(
                format!("{at}/catalogId"),
                "catalogId must name a catalog (or be left out)",
            ))
        }
        Some(Value::String(id)) => id.clone(),
        Some(_) => return Err(A2uiError::validation(format!("{at}/catalogId"), "catalogId must be a string")),
        // No default: every component and every function call names its catalog ("" here).
        None => String::new(),
    };
    let send_data_model = match body.get("sendDataModel") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(A2uiError::validation(format!("{at}/sendDataModel"), "sendDataModel must be a boolean")),
    };
    if let Some(metadata) = body.get("metadata") {
        check_metadata(metadata, &format!("{at}/metadata"))?;
    }
    let mut out = vec![ServerMessage::CreateSurface(CreateSurface {
        surface_id: surface_id.clone(),
        catalog_id,
        theme: None,
        send_data_model,
        root_id: "root".to_owned(),
    })];
    match body.remove("dataModel") {
        None => {}
        Some(data @ Value::Object(_)) => out.push(ServerMessage::UpdateDataModel(UpdateDataModel {
            surface_id: surface_id.clone(),
            path: None,
            value: Some(data),
        })),
        Some(_) => return Err(A2uiError::validation(format!("{at}/dataModel"), "dataModel must be an object")),
    }
    match body.remove("components") {
        None => {}
        Some(Value::Array(items)) => {
            let mut update = update_components(surface_id, items, &format!("{at}/components"))?;
            if let ServerMessage::UpdateComponents(update) = &mut update {
                update.inline_in_create = true;
            }
            out.push(update)
        }
        Some(_) => return Err(A2uiError::validation(format!("{at}/components"), "components must be an array")),
    }
    Ok(out)
}

fn update_components(surface_id: String, items: Vec<Value>, at: &str) -> Result<ServerMessage, A2uiError> {
    if items.is_empty() {
        return Err(A2uiError::validation(at, "components must hold at least one component"));
    }
    let mut components = Vec::with_capacity(items.len());
    let mut catalog_ids = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let item_at = format!("{at}/{index}");
        let Value::Object(component) = item else {
            return Err(A2uiError::validation(item_at, "a component must be an object"));
        };
        let mut component = translate_component(component, &item_at, &mut catalog_ids)?;
        // A component's own catalog stays in it: the group picks the catalog that validates it,
        // and an exported surface keeps saying where each component comes from.
        if component.get("catalogId").is_some_and(|c| !c.is_string()) {
            return Err(A2uiError::validation(format!("{item_at}/catalogId"), "catalogId must be a string"));
        }
        if let Some(metadata) = component.remove("metadata") {
            check_metadata(&metadata, &format!("{item_at}/metadata"))?;
        }
        components.push(Value::Object(component));
    }
    Ok(ServerMessage::UpdateComponents(UpdateComponents {
        surface_id,
        components,
        catalog_ids,
        inline_in_create: false,
    }))
}

/// A component with its reserved keys in the engine's (v0.9) form: component-level `@` keys
/// bare, and every property value translated by [`translate_value`].
/// The catalogs named by function calls inside it go into `catalogs` with their pointers.
fn translate_component(
    component: Map<String, Value>,
    at: &str,
    catalogs: &mut Vec<(String, String)>,
) -> Result<Map<String, Value>, A2uiError> {
    let mut out = Map::with_capacity(component.len());
    for (key, value) in component {
        let key_at = format!("{at}/{}", escape(&key));
        let name = match key.strip_prefix('@') {
            None => key,
            Some(rest) if rest.starts_with('@') => rest.to_owned(),
            Some(rest) if COMPONENT_RESERVED.contains(&rest) => rest.to_owned(),
            Some(_) => return Err(unknown_reserved_key(&key, &key_at)),
        };
        if out.contains_key(&name) {
            return Err(A2uiError::validation(key_at, format!("{name:?} is given twice (with and without \"@\")")));
        }
        // Metadata is free-form: never read for bindings or calls.
        let value = if name == "metadata" { value } else { translate_value(value, &key_at, 0, catalogs)? };
        out.insert(name, value);
    }
    Ok(out)
}

/// A dynamic value or a structure holding some, in the engine's form: `{"@path": p}` becomes
/// `{"path": p}`, `{"@call": f, …}` becomes `{"call": f, …}`, a key `@@x` becomes `x` prefixed
/// with one `@` (a literal key the engine never reads as reserved), and any other single-`@`
/// key is refused. Bare `path` / `call` objects (the August form) are left as they are. A call's
/// `catalogId` is taken out into `catalogs` (with its pointer), for the group to check.
pub fn translate_value(
    value: Value,
    at: &str,
    depth: usize,
    catalogs: &mut Vec<(String, String)>,
) -> Result<Value, A2uiError> {
    if depth > MAX_NESTING {
        return Err(A2uiError::LimitExceeded { what: "nesting of a v1.0 value", limit: MAX_NESTING, actual: depth });
    }
    match value {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| translate_value(item, &format!("{at}/{i}"), depth + 1, catalogs))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        Value::Object(map) => translate_object(map, at, depth, catalogs).map(Value::Object),
        other => Ok(other),
    }
}

fn translate_object(
    map: Map<String, Value>,
    at: &str,
    depth: usize,
    catalogs: &mut Vec<(String, String)>,
) -> Result<Map<String, Value>, A2uiError> {
    if map.contains_key("@path") && !map.contains_key("componentId") {
        if map.len() != 1 {
            let extra = map.keys().find(|k| *k != "@path").cloned().unwrap_or_default();
            return Err(A2uiError::validation(
                format!("{at}/{}", escape(&extra)),
                "a binding holds \"@path\" and nothing else",
            ));
        }
        return match map.into_iter().next() {
            Some((_, path @ Value::String(_))) => Ok(Map::from_iter([("path".to_owned(), path)])),
            _ => Err(A2uiError::validation(format!("{at}/@path"), "@path must be a string")),
        };
    }
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map {
        let key_at = format!("{at}/{}", escape(&key));
        let (name, value) = match key.strip_prefix('@') {
            None => {
                let value = translate_value(value, &key_at, depth + 1, catalogs)?;
                (key, value)
            }
            Some(rest) if rest.starts_with('@') => {
                (rest.to_owned(), translate_value(value, &key_at, depth + 1, catalogs)?)
            }
            Some("call") => match value {
                Value::String(name) => ("call".to_owned(), Value::String(name)),
                _ => return Err(A2uiError::validation(key_at, "@call must be a string")),
            },
            // A child list template's path (`{"componentId", "@path"}`).
            Some("path") => ("path".to_owned(), value),
            Some(_) => return Err(unknown_reserved_key(&key, &key_at)),
        };
        if out.contains_key(&name) {
            return Err(A2uiError::validation(key_at, format!("{name:?} is given twice (with and without \"@\")")));
        }
        out.insert(name, value);
    }
    let system_function = match out.get("call") {
        Some(Value::String(function)) => Some(function.starts_with('@').then(|| function.clone())),
        _ => None,
    };
    if let Some(system_function) = system_function {
        // The call keeps its catalogId; the group resolves it (see `SurfaceGroup`).
        if let Some(catalog) = out.get("catalogId") {
            let catalog_at = format!("{at}/catalogId");
            let Value::String(catalog) = catalog else {
                return Err(A2uiError::validation(catalog_at, "catalogId must be a string"));
            };
            if let Some(function) = system_function {
                return Err(A2uiError::validation(catalog_at, format!("system function {function} has no catalog")));
            }
            catalogs.push((catalog_at, catalog.clone()));
        }
    }
    Ok(out)
}

fn call_renderer_function(body: Map<String, Value>, at: &str) -> Result<CallRendererFunction, A2uiError> {
    only_known(&body, &["functionCallId", "callFunction"], at)?;
    let function_call_id = required_string(&body, "functionCallId", &format!("{at}/functionCallId"))?;
    let call_at = format!("{at}/callFunction");
    let Some(Value::Object(call)) = body.get("callFunction") else {
        return Err(A2uiError::validation(call_at, "callFunction must be an object"));
    };
    let mut catalogs = Vec::new();
    let call = translate_object(call.clone(), &call_at, 0, &mut catalogs)?;
    let name = required_string(&call, "call", &format!("{call_at}/call"))?;
    // Required here: the agent names the catalog of the function it calls.
    let Some((_, catalog_id)) = catalogs.pop() else {
        return Err(A2uiError::validation(format!("{call_at}/catalogId"), "missing required property \"catalogId\""));
    };
    let args = match call.get("args") {
        None => Map::new(),
        Some(Value::Object(args)) => args.clone(),
        Some(_) => return Err(A2uiError::validation(format!("{call_at}/args"), "args must be an object")),
    };
    Ok(CallRendererFunction { function_call_id, name, catalog_id, args })
}

fn agent_function_response(mut body: Map<String, Value>, at: &str) -> Result<AgentFunctionResponse, A2uiError> {
    only_known(&body, &["functionCallId", "value", "error"], at)?;
    let function_call_id = required_string(&body, "functionCallId", &format!("{at}/functionCallId"))?;
    let result = match (body.remove("value"), body.remove("error")) {
        (Some(value), None) => Ok(value),
        (None, Some(Value::Object(error))) => {
            let code = required_string(&error, "code", &format!("{at}/error/code"))?;
            let message = required_string(&error, "message", &format!("{at}/error/message"))?;
            Err((code, message))
        }
        (None, Some(_)) => return Err(A2uiError::validation(format!("{at}/error"), "error must be an object")),
        _ => return Err(A2uiError::validation(at, "a function response holds exactly one of \"value\" and \"error\"")),
    };
    Ok(AgentFunctionResponse { function_call_id, result })
}

/// Surface and component metadata: an object whose only member is `extensions`, itself keyed by
/// Unicode identifiers (UAX #31). Its values are free-form and never interpreted.
fn check_metadata(metadata: &Value, at: &str) -> Result<(), A2uiError> {
    let Value::Object(metadata) = metadata else {
        return Err(A2uiError::validation(at, "metadata must be an object"));
    };
    only_known(metadata, &["extensions"], at)?;
    match metadata.get("extensions") {
        None => Ok(()),
        Some(Value::Object(extensions)) => match extensions.keys().find(|k| !is_unicode_identifier(k)) {
            None => Ok(()),
            Some(bad) => Err(A2uiError::validation(
                format!("{at}/extensions/{}", escape(bad)),
                "extension keys must be Unicode identifiers (UAX #31)",
            )),
        },
        Some(_) => Err(A2uiError::validation(format!("{at}/extensions"), "extensions must be an object")),
    }
}

/// UAX #31 default identifier: XID_Start or `_`, then XID_Continue (the schemas' pattern, run
/// on the linear-time `regex` crate).
pub fn is_unicode_identifier(s: &str) -> bool {
    static IDENTIFIER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    IDENTIFIER
        .get_or_init(|| regex::Regex::new(r"^[\p{XID_Start}_]\p{XID_Continue}*$").expect("a fixed pattern"))
        .is_match(s)
}

fn only_known(body: &Map<String, Value>, known: &[&str], at: &str) -> Result<(), A2uiError> {
    match body.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(extra) => {
            Err(A2uiError::validation(format!("{at}/{}", escape(extra)), format!("unexpected property {extra:?}")))
        }
    }
}

fn unknown_reserved_key(key: &str, at: &str) -> A2uiError {
    A2uiError::validation(
        at,
        format!("{key:?} is not a reserved key; write \"@{key}\" for a literal key starting with \"@\""),
    )
}

fn escape(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    crate::pointer::push_escaped(&mut out, key);
    out
}
