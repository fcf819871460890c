//! Delivering the booking form three ways, and answering its `book` action.
//!
//! The A2UI operations travel as `{"a2ui_operations": [...]}`: the content of an
//! `ACTIVITY_SNAPSHOT` of type `a2ui-surface`, the (JSON-encoded) content of a
//! `TOOL_CALL_RESULT`, or appended one by one to the activity content with `ACTIVITY_DELTA`
//! (`{"op": "add", "path": "/a2ui_operations/-", "value": ...}`). The action comes back in
//! `forwardedProps.a2uiAction.userAction` (or `.action`), `{name, surfaceId, context, ...}`
//! (with `metadata.extensions` when the app attached renderer metadata to a v1.0 action).

use serde_json::{json, Map, Value};

use super::booking_form::{self, ACTION, SURFACE_ID};
use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const ACTIVITY_TYPE: &str = "a2ui-surface";
pub(super) const RENDER_TOOL: &str = "render_booking_form";

/// Text, then the form in one `ACTIVITY_SNAPSHOT`.
pub(super) fn run_activity(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.text(&["Here is a booking form. ", "Fill it in and press Book."]);
    let id = s.next_message_id();
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": booking_form::v09_operations()},
    }));
    s.finish()
}

/// A server tool whose result carries the operations as a JSON string.
pub(super) fn run_tool_result(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let intro = s.text(&["Let me render ", "a booking form."]);
    let call = s.tool_call(RENDER_TOOL, &intro, &["{}"]);
    let content = json!({"a2ui_operations": booking_form::v09_operations()}).to_string();
    s.tool_result(&call, &content);
    s.text(&["Fill in the form ", "and press Book."]);
    s.finish()
}

/// v0.8 operations: the snapshot holds the first, each delta appends the next.
pub(super) fn run_v08(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.text(&["Here is a booking form ", "(A2UI v0.8)."]);
    let id = s.next_message_id();
    let mut operations = booking_form::v08_operations().into_iter();
    let first: Vec<Value> = operations.next().into_iter().collect();
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": first},
    }));
    for operation in operations {
        s.event(json!({
            "type": "ACTIVITY_DELTA",
            "messageId": id,
            "activityType": ACTIVITY_TYPE,
            "patch": [{"op": "add", "path": "/a2ui_operations/-", "value": operation}],
        }));
    }
    s.finish()
}

/// A user action the client forwarded.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SubmittedAction {
    pub name: String,
    pub surface_id: String,
    pub context: Map<String, Value>,
    /// v1.0: the renderer's `metadata.extensions`, if the app attached any.
    pub extensions: Option<Map<String, Value>>,
}

pub(super) fn submitted_action(input: &RunInput) -> Option<SubmittedAction> {
    let forwarded = input.forwarded_props.as_ref()?.get("a2uiAction")?;
    let action = forwarded.get("userAction").or_else(|| forwarded.get("action"))?;
    Some(SubmittedAction {
        name: action.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
        surface_id: action.get("surfaceId").and_then(Value::as_str).unwrap_or(SURFACE_ID).to_owned(),
        context: action.get("context").and_then(Value::as_object).cloned().unwrap_or_default(),
        extensions: action.pointer("/metadata/extensions").and_then(Value::as_object).cloned(),
    })
}

/// `Booked a table for <guests> on <date> under the name <name>.`, quoting the submitted
/// context, then a `deleteSurface` for the form (in a new activity message). A missing field
/// or an unknown action is said plainly and leaves the form in place.
pub(super) fn answer_action(input: &RunInput, action: &SubmittedAction) -> Vec<Step> {
    let mut s = script(input);
    if action.name != ACTION {
        s.text(&[format!("I do not know the action {:?}; nothing was booked.", action.name)]);
        return s.finish();
    }
    let field = |key: &str| action.context.get(key).map(display).filter(|v| !v.is_empty());
    let missing: Vec<&str> = ["name", "date", "guests"].into_iter().filter(|k| field(k).is_none()).collect();
    if !missing.is_empty() {
        s.text(&[format!("The booking form arrived without {}; nothing was booked.", missing.join(", "))]);
        return s.finish();
    }
    let (name, date, guests) = (field("name"), field("date"), field("guests"));
    s.text(&[
        format!("Booked a table for {} ", guests.unwrap_or_default()),
        format!("on {} ", date.unwrap_or_default()),
        format!("under the name {}.", name.unwrap_or_default()),
    ]);
    let id = s.next_message_id();
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": [booking_form::delete_operation(&action.surface_id)]},
    }));
    s.finish()
}

/// A context value as text: strings as they are, lists joined with ", ".
fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(items) => items.iter().map(display).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}
