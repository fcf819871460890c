//! Where A2UI travels in an AG-UI stream, and how the bridge reads its operations out of each
//! carrier.
//!
//! The conventions are those of `@ag-ui/a2ui-middleware` (ag-ui-protocol/ag-ui,
//! `middlewares/a2ui-middleware`) and CopilotKit's A2UI activity renderer
//! (`packages/react-core/src/v2/a2ui/A2UIMessageRenderer.tsx`), which is what agents built on
//! AG-UI emit today.
//!
//! - **Activity** `ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA` with `activityType: "a2ui-surface"`; the
//!   operations (v0.9, v0.9.1 or v0.8 envelopes) are `content.a2ui_operations`. The middleware sends one
//!   message id per tool call (`a2ui-surface-<toolCallId>`, or `a2ui-surface-<surfaceId>-<toolCallId>`
//!   when one call draws several surfaces), `replace: true`, and every snapshot is *cumulative*:
//!   it repeats the operations already sent and adds or rewrites some. Before the first paint the
//!   content may be a lifecycle placeholder (`{status: "building"}`) with no operations. Older
//!   middleware releases used `content.operations`; that key is read when `a2ui_operations` is
//!   absent. A delta is an RFC 6902 patch on the content, usually appending to the operations.
//! - **Tool result** `TOOL_CALL_RESULT` whose content is `{"a2ui_operations": [...]}` (the
//!   middleware's `tryParseA2UIOperations` also accepts that JSON encoded twice, a string holding
//!   the JSON). A bare envelope or an array of envelopes is accepted too. Text parts are joined;
//!   content that is not A2UI is an ordinary tool result and ignored.
//! - **CUSTOM** (this crate's choice; no public convention exists): `name: "a2ui"`, `value` one
//!   envelope, an array of envelopes, an `a2ui_operations` container, or any of these as a JSON
//!   string. A value that is none of these is an error: the event said it was A2UI.
//! - **RAW**: `event` holding the same shapes as CUSTOM. Anything else is some provider's native
//!   event and ignored.
//! - **MESSAGES_SNAPSHOT** (history restore): its `a2ui-surface` activity messages are fed like
//!   snapshots and its tool messages like tool results, so a reloaded conversation shows its
//!   surfaces. Messages absent from the snapshot delete nothing.

use agentui_agui::event::{ActivityDelta, ActivitySnapshot};
use agentui_agui::message::{ContentPart, Message, MessageContent, Role};
use agentui_agui::patch::{apply_patch_within, PatchBounds};
use serde_json::{Map, Value};

use super::replay::Feed;
use super::{A2uiBridge, BridgeError, BridgeOutcome};

/// `activityType` of activities carrying A2UI operations.
pub const A2UI_ACTIVITY_TYPE: &str = "a2ui-surface";
/// Key of the operation list in activity content and tool results.
pub const A2UI_OPERATIONS_KEY: &str = "a2ui_operations";
/// Key older middleware releases used for the operation list in activity content.
pub const LEGACY_OPERATIONS_KEY: &str = "operations";
/// `name` of a CUSTOM event carrying A2UI.
pub const A2UI_CUSTOM_EVENT_NAME: &str = "a2ui";

const V09_MESSAGE_KEYS: [&str; 4] = ["createSurface", "updateComponents", "updateDataModel", "deleteSurface"];
const V08_MESSAGE_KEYS: [&str; 4] = ["beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface"];
/// v1.0's function-call messages (its other keys are v0.9's); they name no surface.
const V10_FUNCTION_KEYS: [&str; 2] = ["callRendererFunction", "agentFunctionResponse"];
const CREATE_KEYS: [&str; 2] = ["createSurface", "beginRendering"];

impl A2uiBridge {
    pub(super) fn activity_snapshot(&mut self, e: &ActivitySnapshot, out: &mut BridgeOutcome) {
        if e.activity_type != A2UI_ACTIVITY_TYPE {
            // The message stopped being A2UI; its surfaces stay.
            self.forget_activity(&e.message_id);
            return;
        }
        if e.replace == Some(false) && self.activity_index(&e.message_id).is_some() {
            return;
        }
        self.feed_activity(&e.message_id, Value::Object(e.content.clone()), out, Feed::Apply);
    }

    pub(super) fn activity_delta(&mut self, e: &ActivityDelta, out: &mut BridgeOutcome) {
        if e.activity_type != A2UI_ACTIVITY_TYPE {
            self.forget_activity(&e.message_id);
            return;
        }
        let Some(base) = self.activity_content(&e.message_id) else {
            out.fail("", BridgeError::UnknownActivity(e.message_id.clone()));
            return;
        };
        let mut content = base.clone();
        let bounds = PatchBounds { max_weight: self.limits.max_content_bytes, max_depth: 64 };
        if let Err(err) = apply_patch_within(&mut content, &e.patch, bounds) {
            out.fail("", BridgeError::PatchNotApplied { message_id: e.message_id.clone(), reason: err.to_string() });
            return;
        }
        self.feed_activity(&e.message_id, content, out, Feed::Apply);
    }

    pub(super) fn tool_result(&mut self, tool_call_id: &str, body: Body<'_>, out: &mut BridgeOutcome, feed: Feed) {
        if self.knows_tool_result(tool_call_id) {
            return;
        }
        let found = match body {
            Body::Text(text) => self.operations_in_text(text, "TOOL_CALL_RESULT"),
            Body::Parts(parts) => self.operations_in_parts(parts),
        };
        let ops = match found {
            Ok(None) => return,
            Ok(Some(ops)) => ops,
            Err(error) => {
                out.fail("", error);
                Vec::new()
            }
        };
        self.feed_tool_result(tool_call_id, &ops, out, feed);
    }

    /// Text parts joined (one JSON document split across parts), else each part on its own.
    fn operations_in_parts(&self, parts: &[ContentPart]) -> Result<Option<Vec<Value>>, BridgeError> {
        let texts: Vec<&str> = parts
            .iter()
            .filter_map(|p| match p {
                ContentPart::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect();
        let total: usize = texts.iter().map(|t| t.len()).sum();
        if total > self.limits.max_payload_bytes {
            return self.oversized(total, texts.iter().any(|t| mentions_a2ui(t)));
        }
        if let Some(ops) = self.operations_in_text(&texts.concat(), "TOOL_CALL_RESULT")? {
            return Ok(Some(ops));
        }
        if texts.len() < 2 {
            return Ok(None);
        }
        let mut all: Option<Vec<Value>> = None;
        for text in texts {
            if let Some(ops) = self.operations_in_text(text, "TOOL_CALL_RESULT")? {
                all.get_or_insert_with(Vec::new).extend(ops);
            }
        }
        Ok(all)
    }

    fn oversized(&self, size: usize, claims_a2ui: bool) -> Result<Option<Vec<Value>>, BridgeError> {
        if claims_a2ui {
            Err(BridgeError::LimitExceeded {
                what: "A2UI payload bytes",
                limit: self.limits.max_payload_bytes,
                actual: size,
            })
        } else {
            Ok(None)
        }
    }

    /// The operations in a text that may be JSON, JSON encoded twice, or no JSON at all.
    /// `Ok(None)`: not A2UI. Text that mentions `a2ui_operations` but does not parse is an error.
    fn operations_in_text(&self, text: &str, carrier: &'static str) -> Result<Option<Vec<Value>>, BridgeError> {
        let text = text.trim();
        if text.len() > self.limits.max_payload_bytes {
            return self.oversized(text.len(), mentions_a2ui(text));
        }
        // Most tool output is not A2UI: skip parsing text that names no A2UI key at all.
        if !mentions_any_a2ui_key(text) {
            return Ok(None);
        }
        let Some(value) = parse_json_like(text, carrier)? else { return Ok(None) };
        let value = match value {
            // Encoded twice: a JSON string holding the JSON.
            Value::String(inner) => match parse_json_like(inner.trim(), carrier)? {
                Some(Value::String(_)) | None => return Ok(None),
                Some(v) => v,
            },
            other => other,
        };
        operations_in_payload(value, carrier)
    }

    pub(super) fn custom(&mut self, value: &Value, out: &mut BridgeOutcome) {
        let carrier = "CUSTOM a2ui";
        let found = match value {
            Value::String(text) => self.operations_in_text(text, carrier),
            other => operations_in_payload(other.clone(), carrier),
        };
        match found {
            Ok(Some(ops)) => self.apply_operations(&ops, 0, &mut Vec::new(), out),
            Ok(None) => out.fail(
                "",
                BridgeError::Malformed {
                    carrier,
                    message: "value is not an A2UI message, a list of them or an a2ui_operations container".into(),
                },
            ),
            Err(error) => out.fail("", error),
        }
    }

    pub(super) fn raw(&mut self, event: &Value, out: &mut BridgeOutcome) {
        let carrier = "RAW";
        let found = match event {
            Value::String(text) => self.operations_in_text(text, carrier),
            // Provider-native events can be large: look before cloning.
            Value::Object(_) | Value::Array(_) if looks_like_a2ui(event) => {
                operations_in_payload(event.clone(), carrier)
            }
            _ => Ok(None),
        };
        match found {
            Ok(Some(ops)) => self.apply_operations(&ops, 0, &mut Vec::new(), out),
            Ok(None) => {}
            Err(error) => out.fail("", error),
        }
    }

    pub(super) fn messages_snapshot(&mut self, messages: &[Message], out: &mut BridgeOutcome, feed: Feed) {
        for message in messages {
            match (message.role, &message.content) {
                (Role::Activity, Some(MessageContent::Object(content)))
                    if message.activity_type.as_deref() == Some(A2UI_ACTIVITY_TYPE) =>
                {
                    self.feed_activity(&message.id, Value::Object(content.clone()), out, feed);
                }
                (Role::Tool, Some(content)) => {
                    let Some(tool_call_id) = message.tool_call_id.as_deref() else { continue };
                    let body = match content {
                        MessageContent::Text(text) => Body::Text(text),
                        MessageContent::Parts(parts) => Body::Parts(parts),
                        MessageContent::Object(_) => continue,
                    };
                    self.tool_result(tool_call_id, body, out, feed);
                }
                _ => {}
            }
        }
    }
}

/// A tool result body.
#[derive(Clone, Copy)]
pub(super) enum Body<'a> {
    Text(&'a str),
    Parts(&'a [ContentPart]),
}

fn mentions_a2ui(text: &str) -> bool {
    text.contains(A2UI_OPERATIONS_KEY)
}

fn mentions_any_a2ui_key(text: &str) -> bool {
    mentions_a2ui(text)
        || V09_MESSAGE_KEYS
            .iter()
            .chain(V08_MESSAGE_KEYS.iter())
            .chain(V10_FUNCTION_KEYS.iter())
            .any(|k| text.contains(k))
}

/// What [`operations_in_payload`] would accept or report, without taking the value apart.
fn looks_like_a2ui(value: &Value) -> bool {
    match value {
        Value::Object(obj) => obj.contains_key(A2UI_OPERATIONS_KEY) || is_envelope(obj),
        Value::Array(items) => !items.is_empty() && items.iter().all(|i| i.as_object().is_some_and(is_envelope)),
        _ => false,
    }
}

/// Parses text that looks like JSON (object, array or string). `Ok(None)` for text that does not
/// look like JSON or does not parse, unless it mentions `a2ui_operations`.
fn parse_json_like(text: &str, carrier: &'static str) -> Result<Option<Value>, BridgeError> {
    if !text.starts_with(['{', '[', '"']) {
        return Ok(None);
    }
    match serde_json::from_str(text) {
        Ok(value) => Ok(Some(value)),
        Err(e) if mentions_a2ui(text) => Err(BridgeError::Malformed { carrier, message: e.to_string() }),
        Err(_) => Ok(None),
    }
}

/// The operations a parsed payload holds: an `a2ui_operations` container, one envelope, or a
/// non-empty array of envelopes. `Ok(None)`: not A2UI.
fn operations_in_payload(value: Value, carrier: &'static str) -> Result<Option<Vec<Value>>, BridgeError> {
    match value {
        Value::Object(mut obj) => match obj.shift_remove(A2UI_OPERATIONS_KEY) {
            Some(Value::Array(ops)) => Ok(Some(ops)),
            Some(_) => Err(BridgeError::OperationsNotAList { carrier }),
            None if is_envelope(&obj) => Ok(Some(vec![Value::Object(obj)])),
            None => Ok(None),
        },
        Value::Array(items) if !items.is_empty() && items.iter().all(|i| i.as_object().is_some_and(is_envelope)) => {
            Ok(Some(items))
        }
        _ => Ok(None),
    }
}

/// An object carrying an A2UI message key (v1.0, v0.9 or v0.8) whose body is an object. The
/// engine validates the rest (version, single key, fields) and reports what is wrong.
fn is_envelope(obj: &Map<String, Value>) -> bool {
    V09_MESSAGE_KEYS
        .iter()
        .chain(V08_MESSAGE_KEYS.iter())
        .chain(V10_FUNCTION_KEYS.iter())
        .any(|k| obj.get(*k).is_some_and(Value::is_object))
}

/// The operation list of activity content (empty for a lifecycle placeholder).
pub(super) fn operations_in_content(content: &Value) -> Result<&[Value], BridgeError> {
    let carrier = "a2ui-surface activity";
    let Some(obj) = content.as_object() else {
        return Err(BridgeError::Malformed { carrier, message: "content must be an object".into() });
    };
    match obj.get(A2UI_OPERATIONS_KEY) {
        Some(Value::Array(ops)) => Ok(ops),
        Some(_) => Err(BridgeError::OperationsNotAList { carrier }),
        None => match obj.get(LEGACY_OPERATIONS_KEY) {
            Some(Value::Array(ops)) => Ok(ops),
            _ => Ok(&[]),
        },
    }
}

pub(super) fn operation_surface_id(op: &Value) -> Option<String> {
    let obj = op.as_object()?;
    V09_MESSAGE_KEYS
        .iter()
        .chain(V08_MESSAGE_KEYS.iter())
        .find_map(|k| obj.get(*k)?.get("surfaceId")?.as_str())
        .map(str::to_owned)
}

/// The surfaces an operation creates (`createSurface` or `beginRendering`; at most one in a
/// valid envelope).
pub(super) fn created_surface_ids(op: &Value) -> impl Iterator<Item = &str> {
    let obj = op.as_object();
    CREATE_KEYS.iter().filter_map(move |k| obj?.get(*k)?.get("surfaceId")?.as_str())
}

/// The surfaces an `a2ui-surface` activity message's content creates, for the timeline to place
/// each where its carrier is. Content that carries no operations creates none.
pub(crate) fn surfaces_created_by_activity(content: &Map<String, Value>) -> Vec<String> {
    let ops = match content.get(A2UI_OPERATIONS_KEY).or_else(|| content.get(LEGACY_OPERATIONS_KEY)) {
        Some(Value::Array(ops)) => ops,
        _ => return Vec::new(),
    };
    ops.iter().flat_map(created_surface_ids).map(str::to_owned).collect()
}

pub(super) fn first_surface_hint(ops: &[Value]) -> String {
    ops.iter().find_map(operation_surface_id).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn payload_shapes() {
        let envelope = json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}});
        let c = "test";
        assert_eq!(operations_in_payload(envelope.clone(), c).unwrap(), Some(vec![envelope.clone()]));
        assert_eq!(operations_in_payload(json!([envelope.clone()]), c).unwrap(), Some(vec![envelope.clone()]));
        assert_eq!(
            operations_in_payload(json!({"a2ui_operations": [envelope.clone()]}), c).unwrap(),
            Some(vec![envelope.clone()])
        );
        assert_eq!(
            operations_in_payload(json!({"a2ui_operations": {}}), c),
            Err(BridgeError::OperationsNotAList { carrier: c })
        );
        // Ordinary tool output is not A2UI.
        assert_eq!(operations_in_payload(json!({"temperature": 21}), c).unwrap(), None);
        assert_eq!(operations_in_payload(json!([]), c).unwrap(), None);
        assert_eq!(operations_in_payload(json!([envelope, {"x": 1}]), c).unwrap(), None);
        assert_eq!(operations_in_payload(json!({"createSurface": "no"}), c).unwrap(), None);
    }

    #[test]
    fn text_that_is_not_json_is_not_a2ui() {
        let bridge = A2uiBridge::default();
        assert_eq!(bridge.operations_in_text("sunny, 21 degrees", "t").unwrap(), None);
        assert_eq!(bridge.operations_in_text("{not json", "t").unwrap(), None);
        assert_eq!(bridge.operations_in_text("\"just a string\"", "t").unwrap(), None);
        assert!(matches!(
            bridge.operations_in_text("{\"a2ui_operations\": [", "t"),
            Err(BridgeError::Malformed { carrier: "t", .. })
        ));
    }
}
