//! An A2UI v1.0 sign-up card, for the sample apps to show what v1.0 adds: `createSurface` with
//! its components and data model inline, `@path`/`@call` reserved keys, a `TextField`
//! placeholder and an `email` check (a structured result: `INVALID_EMAIL`), a `Slider` with
//! `steps`, a status line read out as it changes (`live`), a decorative divider hidden from
//! screen readers, a `Video` with a `posterUrl`, and a button whose action carries a
//! `userMessage`. The `sign_up` action is answered with the values the user entered (and the
//! action's `metadata.extensions`, quoted, when the app attached some).
//!
//! The card's surface also answers v1.0 `callAgentFunction`s
//! (`forwardedProps.a2uiCallAgentFunction`) with an `agentFunctionResponse` in an
//! `ACTIVITY_SNAPSHOT`: `checkEmail` `{email}` gives `{"email", "available"}` (an address
//! starting with `taken` is not available), `silent` gives no answer at all, any other name an
//! error `{"code": "UNKNOWN_FUNCTION"}`.

use serde_json::{json, Value};

use super::a2ui::{SubmittedAction, ACTIVITY_TYPE};
use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const SURFACE_ID: &str = "signup";
/// The basic catalog v1.
pub(super) const CATALOG_V1: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
pub(super) const ACTION: &str = "sign_up";

/// The v1.0 operations of the card.
pub(super) fn operations() -> Value {
    let path = |p: &str| json!({"@path": p});
    json!([{"version": "1.0", "createSurface": {
        "surfaceId": SURFACE_ID,
        "catalogId": CATALOG_V1,
        "dataModel": {"email": "", "newsletter": 2, "status": "Fill in your email to sign up."},
        "components": [
            {"id": "root", "component": "Card", "child": "form"},
            {"id": "form", "component": "Column", "children": ["title", "intro", "email", "level", "rule", "status", "join"]},
            {"id": "title", "component": "Text", "text": "## Join the beta"},
            {"id": "intro", "component": "Video", "url": "https://example.com/beta-tour.mp4",
             "posterUrl": "https://example.com/beta-tour.jpg", "@accessibility": {"label": "Beta tour"}},
            {"id": "email", "component": "TextField", "label": "Email", "value": path("/email"),
             "placeholder": "you@example.com",
             "@checks": [{"condition": {"@call": "email", "args": {"value": path("/email")}}}]},
            {"id": "level", "component": "Slider", "label": "Newsletters per month", "min": 0, "max": 4,
             "steps": 4, "value": path("/newsletter")},
            {"id": "rule", "component": "Divider", "@accessibility": {"hidden": true}},
            {"id": "status", "component": "Text", "text": path("/status"), "variant": "caption",
             "@accessibility": {"live": "polite"}},
            {"id": "join-label", "component": "Text", "text": "Sign up"},
            {"id": "join", "component": "Button", "child": "join-label", "variant": "primary",
             "@checks": [{"condition": {"@call": "email", "args": {"value": path("/email")}}}],
             "action": {"event": {"name": ACTION,
                "userMessage": {"@call": "formatString", "args": {"value": "Sign me up as ${/email}"}, "returnType": "string"},
                "context": {"email": path("/email"), "newsletters": path("/newsletter")}}}},
        ],
    }}])
}

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.text(&["Here is the sign-up card."]);
    let id = s.next_message_id();
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": operations()},
    }));
    s.finish()
}

/// `Signed up <email> for <n> newsletters a month.`, then the card's status updated (a v1.0
/// `updateDataModel`, read out by the live region) and the button's label.
pub(super) fn answer(input: &RunInput, action: &SubmittedAction) -> Vec<Step> {
    let mut s = script(input);
    let email = action.context.get("email").and_then(Value::as_str).unwrap_or_default();
    if email.is_empty() {
        s.text(&["The sign-up arrived without an email; nothing was done."]);
        return s.finish();
    }
    let count = action.context.get("newsletters").and_then(Value::as_f64).unwrap_or(0.0);
    let mut said = vec![format!("Signed up {email} for {count} newsletters a month.")];
    // Renderer metadata the app attached is quoted back, so a test sees it arrived.
    if let Some(extensions) = action.extensions.as_ref().filter(|e| !e.is_empty()) {
        said.push(format!(" Metadata: {}", Value::Object(extensions.clone())));
    }
    s.text(&said);
    let id = s.next_message_id();
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": [
            {"version": "1.0", "updateDataModel": {"surfaceId": action.surface_id, "path": "/status",
                "value": format!("Welcome aboard, {email}!")}},
        ]},
    }));
    s.finish()
}

/// The `callAgentFunction` envelope's body a request forwards, if any.
pub(super) fn agent_function_call(input: &RunInput) -> Option<&Value> {
    input.forwarded_props.as_ref()?.get("a2uiCallAgentFunction")?.get("callAgentFunction")
}

/// Answers a `callAgentFunction` (see the module notes): one line of text, then the
/// `agentFunctionResponse` naming its `functionCallId`.
pub(super) fn answer_function(input: &RunInput, call: &Value) -> Vec<Step> {
    let mut s = script(input);
    let id = call.get("functionCallId").and_then(Value::as_str).unwrap_or_default();
    let function = call.get("callFunction").unwrap_or(&Value::Null);
    let name = function.get("call").or_else(|| function.get("@call")).and_then(Value::as_str).unwrap_or_default();
    let response = match name {
        "checkEmail" => {
            let email = function.pointer("/args/email").and_then(Value::as_str).unwrap_or_default();
            s.text(&[format!("Checked {email}.")]);
            json!({"functionCallId": id, "value": {"email": email, "available": !email.starts_with("taken")}})
        }
        "silent" => {
            s.text(&["I will not answer that call."]);
            return s.finish();
        }
        other => {
            s.text(&[format!("I have no function {other:?}.")]);
            json!({"functionCallId": id, "error": {"code": "UNKNOWN_FUNCTION", "message": format!("no agent function {other:?}")}})
        }
    };
    let message_id = s.next_message_id();
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": message_id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": [{"version": "v1.0", "agentFunctionResponse": response}]},
    }));
    s.finish()
}
