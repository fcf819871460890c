//! A2UI v0.9 messages. Server-to-client: `createSurface`, `updateComponents`, `updateDataModel`,
//! `deleteSurface`. Client-to-server: `action` and `error`.

use serde_json::{json, Map, Value};

use crate::error::A2uiError;
use crate::wire::{v10, Version};

/// Protocol versions accepted in the `version` field of a v0.9 envelope.
pub const SUPPORTED_VERSIONS: [&str; 2] = [Version::V0_9.as_str(), Version::V0_9_1.as_str()];
/// Version written into messages this engine emits, whatever version the agent wrote: the v0.9
/// schemas accept only `"v0.9"`, v0.9.1's accept both, and v0.9.1's `a2uiClientDataModel`
/// schema still requires `"v0.9"`.
pub const EMITTED_VERSION: &str = Version::V0_9.as_str();

const SERVER_KEYS: [&str; 4] = ["createSurface", "updateComponents", "updateDataModel", "deleteSurface"];

#[derive(Debug, Clone, PartialEq)]
pub struct CreateSurface {
    pub surface_id: String,
    pub catalog_id: String,
    pub theme: Option<Value>,
    pub send_data_model: bool,
    /// Id of the root component. v0.9 always uses `"root"`; v0.8's `beginRendering` names it.
    pub root_id: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UpdateComponents {
    pub surface_id: String,
    /// Raw component objects; the engine validates each against the surface's catalog.
    pub components: Vec<Value>,
    /// v1.0: the catalogs function calls in the components named (`catalogId`), each with its
    /// pointer in the message; each must be the surface's catalog. Empty for earlier versions,
    /// which have no such key. (A component's own `catalogId` stays in the component.)
    pub catalog_ids: Vec<(String, String)>,
    /// v1.0: the components came inline in `createSurface`, so errors point there.
    pub inline_in_create: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UpdateDataModel {
    pub surface_id: String,
    /// Absolute path; `None` means the root.
    pub path: Option<String>,
    /// `None` (omitted) deletes the value at `path`; `Some` replaces it, `null` included (the
    /// v0.9 schema: "If present, the value at 'path' is replaced"). v0.8 messages map here too,
    /// always with an object or a typed literal.
    pub value: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DeleteSurface {
    pub surface_id: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ServerMessage {
    CreateSurface(CreateSurface),
    UpdateComponents(UpdateComponents),
    UpdateDataModel(UpdateDataModel),
    DeleteSurface(DeleteSurface),
    /// v1.0: the agent asks the renderer to run a function (no surface).
    CallRendererFunction(v10::CallRendererFunction),
    /// v1.0: the agent answers a `callAgentFunction` (no surface).
    AgentFunctionResponse(v10::AgentFunctionResponse),
}

impl ServerMessage {
    pub fn surface_id(&self) -> &str {
        match self {
            ServerMessage::CreateSurface(m) => &m.surface_id,
            ServerMessage::UpdateComponents(m) => &m.surface_id,
            ServerMessage::UpdateDataModel(m) => &m.surface_id,
            ServerMessage::DeleteSurface(m) => &m.surface_id,
            ServerMessage::CallRendererFunction(_) | ServerMessage::AgentFunctionResponse(_) => "",
        }
    }

    /// The message key (`createSurface`, ...), for reports.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMessage::CreateSurface(_) => "createSurface",
            ServerMessage::UpdateComponents(_) => "updateComponents",
            ServerMessage::UpdateDataModel(_) => "updateDataModel",
            ServerMessage::DeleteSurface(_) => "deleteSurface",
            ServerMessage::CallRendererFunction(_) => "callRendererFunction",
            ServerMessage::AgentFunctionResponse(_) => "agentFunctionResponse",
        }
    }

    /// Parses a v0.9 envelope. Zero or several message keys, a missing or unsupported
    /// `version`, or a wrongly typed field is an error naming the offending path.
    pub fn parse_v09(envelope: &Value) -> Result<ServerMessage, A2uiError> {
        Self::parse_v09_owned(envelope.clone())
    }

    /// [`ServerMessage::parse_v09`] taking the envelope by value: components and data-model
    /// values are moved, not copied (a 10,000-item data model arrives in one message).
    pub fn parse_v09_owned(envelope: Value) -> Result<ServerMessage, A2uiError> {
        let Value::Object(mut obj) = envelope else {
            return Err(A2uiError::validation("", "message must be a JSON object"));
        };
        match obj.get("version") {
            Some(Value::String(v)) if SUPPORTED_VERSIONS.contains(&v.as_str()) => {}
            Some(Value::String(v)) => return Err(A2uiError::UnsupportedVersion(v.clone())),
            Some(_) => return Err(A2uiError::validation("/version", "version must be a string")),
            None => return Err(A2uiError::validation("/version", "missing required property \"version\"")),
        }
        let key = single_message_key(&obj, &SERVER_KEYS)?;
        let Some(Value::Object(mut body)) = obj.remove(key) else {
            return Err(A2uiError::validation(format!("/{key}"), format!("{key} must be an object")));
        };
        let at = |field: &str| format!("/{key}/{field}");
        let surface_id = required_string(&body, "surfaceId", &at("surfaceId"))?;
        Ok(match key {
            "createSurface" => ServerMessage::CreateSurface(CreateSurface {
                surface_id,
                catalog_id: match required_string(&body, "catalogId", &at("catalogId"))? {
                    // "" is a v1.0 surface without a default catalog; v0.9 always names one.
                    id if id.is_empty() => {
                        return Err(A2uiError::validation(at("catalogId"), "catalogId must name a catalog"))
                    }
                    id => id,
                },
                theme: match body.remove("theme") {
                    None => None,
                    Some(t @ Value::Object(_)) => Some(t),
                    Some(_) => return Err(A2uiError::validation(at("theme"), "theme must be an object")),
                },
                send_data_model: match body.get("sendDataModel") {
                    None => false,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => {
                        return Err(A2uiError::validation(at("sendDataModel"), "sendDataModel must be a boolean"))
                    }
                },
                root_id: "root".to_owned(),
            }),
            "updateComponents" => ServerMessage::UpdateComponents(UpdateComponents {
                surface_id,
                components: match body.remove("components") {
                    Some(Value::Array(items)) => items,
                    Some(_) => return Err(A2uiError::validation(at("components"), "components must be an array")),
                    None => {
                        return Err(A2uiError::validation(at("components"), "missing required property \"components\""))
                    }
                },
                catalog_ids: Vec::new(),
                inline_in_create: false,
            }),
            "updateDataModel" => ServerMessage::UpdateDataModel(UpdateDataModel {
                surface_id,
                path: match body.remove("path") {
                    None => None,
                    Some(Value::String(p)) => Some(p),
                    Some(_) => return Err(A2uiError::validation(at("path"), "path must be a string")),
                },
                value: body.remove("value"),
            }),
            _ => ServerMessage::DeleteSurface(DeleteSurface { surface_id }),
        })
    }

    /// The v0.9 envelope of this message (v1.0 for the v1.0 function messages, which v0.9 lacks).
    pub fn to_wire(&self) -> Value {
        let body = match self {
            ServerMessage::CallRendererFunction(m) => {
                return json!({"version": v10::EMITTED_VERSION, "callRendererFunction": {
                    "functionCallId": m.function_call_id,
                    "callFunction": {"call": m.name, "catalogId": m.catalog_id, "args": m.args},
                }})
            }
            ServerMessage::AgentFunctionResponse(m) => {
                return json!({"version": v10::EMITTED_VERSION, "agentFunctionResponse": function_response_body(&m.function_call_id, &m.result)})
            }
            ServerMessage::CreateSurface(m) => {
                let mut b = json!({"surfaceId": m.surface_id, "catalogId": m.catalog_id});
                if let Some(theme) = &m.theme {
                    b["theme"] = theme.clone();
                }
                if m.send_data_model {
                    b["sendDataModel"] = Value::Bool(true);
                }
                b
            }
            ServerMessage::UpdateComponents(m) => json!({"surfaceId": m.surface_id, "components": m.components}),
            ServerMessage::UpdateDataModel(m) => {
                let mut b = json!({"surfaceId": m.surface_id});
                if let Some(path) = &m.path {
                    b["path"] = Value::String(path.clone());
                }
                if let Some(value) = &m.value {
                    b["value"] = value.clone();
                }
                b
            }
            ServerMessage::DeleteSurface(m) => json!({"surfaceId": m.surface_id}),
        };
        let mut envelope = Map::new();
        envelope.insert("version".into(), Value::String(EMITTED_VERSION.into()));
        envelope.insert(self.kind().into(), body);
        Value::Object(envelope)
    }
}

/// The one key of `keys` present in `obj`; zero or several is an error.
pub(crate) fn single_message_key<'k>(obj: &Map<String, Value>, keys: &[&'k str]) -> Result<&'k str, A2uiError> {
    let present: Vec<&str> = keys.iter().copied().filter(|k| obj.contains_key(*k)).collect();
    match present.as_slice() {
        [one] => Ok(one),
        [] => Err(A2uiError::validation(
            "",
            format!("message has no message key; expected exactly one of {}", keys.join(", ")),
        )),
        several => Err(A2uiError::validation(
            "",
            format!("message has {} message keys ({}); expected exactly one", several.len(), several.join(", ")),
        )),
    }
}

pub(crate) fn required_string(body: &Map<String, Value>, field: &str, path: &str) -> Result<String, A2uiError> {
    match body.get(field) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(A2uiError::validation(path, format!("{field} must be a string"))),
        None => Err(A2uiError::validation(path, format!("missing required property {field:?}"))),
    }
}

/// A user action reported to the agent.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionMessage {
    pub name: String,
    pub surface_id: String,
    pub source_component_id: String,
    /// RFC 3339 UTC timestamp of the user gesture.
    pub timestamp: String,
    pub context: Map<String, Value>,
    /// v1.0: the event's `userMessage`, its bindings resolved.
    pub user_message: Option<String>,
    /// v1.0: the renderer-side `metadata.extensions` the host attached at dispatch (keys are
    /// Unicode identifiers); empty writes no `metadata`.
    pub extensions: Map<String, Value>,
    /// The version of the surface the action comes from: a v1.0 surface's action is a v1.0
    /// message (with `userMessage`); any other is written as v0.9 (v0.8 has its own form).
    pub version: Version,
}

/// An error reported to the agent. `path` is set for `VALIDATION_FAILED`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorMessage {
    pub code: String,
    pub surface_id: String,
    pub path: Option<String>,
    pub message: String,
    /// The version of the message the error is about; its envelope says the same (`v0.9` for
    /// v0.8 and v0.9.1 too, as before v1.0).
    pub version: Version,
}

impl ErrorMessage {
    /// The report of `error` for `surface_id`.
    pub fn from_error(surface_id: &str, error: &A2uiError) -> Self {
        let (path, message) = match error {
            A2uiError::Validation(issues) => {
                let first = issues.first();
                let mut message = first.map(|i| i.message.clone()).unwrap_or_default();
                if issues.len() > 1 {
                    message.push_str(&format!(" (and {} more)", issues.len() - 1));
                }
                (Some(first.map(|i| i.path.clone()).unwrap_or_default()), message)
            }
            other => (None, other.to_string()),
        };
        ErrorMessage {
            code: error.code().to_owned(),
            surface_id: surface_id.to_owned(),
            path,
            message,
            version: Version::V0_9,
        }
    }
}

/// v1.0: the renderer's answer to a `callRendererFunction`.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionResponseMessage {
    pub function_call_id: String,
    /// `Ok(value)` or `Err((code, message))`, e.g. `INVALID_FUNCTION_CALL`.
    pub result: Result<Value, (String, String)>,
}

/// The body of a v1.0 function response (`rendererFunctionResponse`, `agentFunctionResponse`).
pub(crate) fn function_response_body(function_call_id: &str, result: &Result<Value, (String, String)>) -> Value {
    match result {
        Ok(value) => json!({"functionCallId": function_call_id, "value": value}),
        Err((code, message)) => {
            json!({"functionCallId": function_call_id, "error": {"code": code, "message": message}})
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ClientMessage {
    Action(ActionMessage),
    Error(ErrorMessage),
    /// v1.0 only; its envelope says `"v1.0"`.
    RendererFunctionResponse(FunctionResponseMessage),
    /// v1.0: the renderer asks the agent to run a function (`callAgentFunction`).
    CallAgentFunction(CallAgentFunctionMessage),
}

/// v1.0 `callAgentFunction`: the agent answers with an `agentFunctionResponse` naming
/// `function_call_id`.
#[derive(Debug, Clone, PartialEq)]
pub struct CallAgentFunctionMessage {
    pub surface_id: String,
    pub function_call_id: String,
    /// The `FunctionCall` object (`{"call" | "@call": name, "args": {...}, "catalogId"?}`).
    pub call_function: Value,
}

impl ClientMessage {
    pub fn surface_id(&self) -> &str {
        match self {
            ClientMessage::Action(a) => &a.surface_id,
            ClientMessage::Error(e) => &e.surface_id,
            ClientMessage::RendererFunctionResponse(_) => "",
            ClientMessage::CallAgentFunction(c) => &c.surface_id,
        }
    }

    /// The v0.9 envelope (`{"version": "v0.9", "action": {...}}` or `{..., "error": {...}}`).
    pub fn to_wire(&self) -> Value {
        match self {
            ClientMessage::Action(a) => {
                let mut body = json!({
                    "name": a.name,
                    "surfaceId": a.surface_id,
                    "sourceComponentId": a.source_component_id,
                    "timestamp": a.timestamp,
                    "context": a.context,
                });
                let version = if a.version == Version::V1_0 {
                    if let Some(message) = &a.user_message {
                        body["userMessage"] = Value::String(message.clone());
                    }
                    if !a.extensions.is_empty() {
                        body["metadata"] = json!({"extensions": a.extensions});
                    }
                    v10::EMITTED_VERSION
                } else {
                    EMITTED_VERSION
                };
                json!({"version": version, "action": body})
            }
            ClientMessage::Error(e) => {
                let mut body = json!({"code": e.code, "surfaceId": e.surface_id, "message": e.message});
                if let Some(path) = &e.path {
                    body["path"] = Value::String(path.clone());
                }
                let version = if e.version == Version::V1_0 { v10::EMITTED_VERSION } else { EMITTED_VERSION };
                json!({"version": version, "error": body})
            }
            ClientMessage::CallAgentFunction(c) => json!({
                "version": v10::EMITTED_VERSION,
                "callAgentFunction": {"surfaceId": c.surface_id, "functionCallId": c.function_call_id, "callFunction": c.call_function},
            }),
            ClientMessage::RendererFunctionResponse(r) => json!({
                "version": v10::EMITTED_VERSION,
                "rendererFunctionResponse": function_response_body(&r.function_call_id, &r.result),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_envelopes_without_exactly_one_message_key() {
        let none = json!({"version": "v0.9"});
        let err = ServerMessage::parse_v09(&none).unwrap_err();
        assert!(err.to_string().contains("no message key"), "{err}");
        let two = json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": "c"}, "deleteSurface": {"surfaceId": "s"}});
        let err = ServerMessage::parse_v09(&two).unwrap_err();
        assert!(err.to_string().contains("2 message keys"), "{err}");
    }

    #[test]
    fn accepts_both_v09_versions_and_rejects_others() {
        for v in ["v0.9", "v0.9.1"] {
            let m = ServerMessage::parse_v09(&json!({"version": v, "deleteSurface": {"surfaceId": "s"}})).unwrap();
            assert_eq!(m.surface_id(), "s");
        }
        let err =
            ServerMessage::parse_v09(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}})).unwrap_err();
        assert_eq!(err, A2uiError::UnsupportedVersion("v1.0".into()));
    }

    #[test]
    fn wrong_field_type_names_its_path() {
        let err = ServerMessage::parse_v09(
            &json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": {}}}),
        )
        .unwrap_err();
        assert_eq!(err.path(), Some("/updateComponents/components"));
    }

    #[test]
    fn round_trips_through_wire_form() {
        let wire = json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/a", "value": [1, 2]}});
        assert_eq!(ServerMessage::parse_v09(&wire).unwrap().to_wire(), wire);
        let omitted =
            ServerMessage::parse_v09(&json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/a"}}))
                .unwrap();
        assert!(matches!(omitted, ServerMessage::UpdateDataModel(UpdateDataModel { value: None, .. })));
    }

    #[test]
    fn validation_error_message_carries_path() {
        let err = A2uiError::validation("/components/3/text", "expected a string");
        let wire = ClientMessage::Error(ErrorMessage::from_error("s1", &err)).to_wire();
        assert_eq!(wire["error"]["code"], "VALIDATION_FAILED");
        assert_eq!(wire["error"]["path"], "/components/3/text");
        assert_eq!(wire["error"]["surfaceId"], "s1");
    }
}
