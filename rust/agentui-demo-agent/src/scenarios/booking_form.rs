//! The table-booking form, as A2UI v0.9 operations and as the equivalent v0.8 operations.
//!
//! The Book button's action is `book` with context `{name, date, guests}` bound to
//! `/booking/name`, `/booking/date` and `/booking/guests` (a string list: the picker's
//! selection). Its checks require a name and a date, so the button stays disabled until both
//! are filled in.

use serde_json::{json, Value};

pub(super) const SURFACE_ID: &str = "booking";
pub(super) const ACTION: &str = "book";
pub(super) const CATALOG_V09: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// createSurface, updateComponents, updateDataModel.
pub(super) fn v09_operations() -> Vec<Value> {
    let required = |path: &str| json!({"call": "required", "args": {"value": {"path": path}}});
    let guest_options: Vec<Value> = (1..=4)
        .map(|n| json!({"label": if n == 1 { "1 guest".to_owned() } else { format!("{n} guests") }, "value": n.to_string()}))
        .collect();
    vec![
        json!({"version": "v0.9", "createSurface": {
            "surfaceId": SURFACE_ID,
            "catalogId": CATALOG_V09,
            "sendDataModel": true,
        }}),
        json!({"version": "v0.9", "updateComponents": {"surfaceId": SURFACE_ID, "components": [
            {"id": "root", "component": "Card", "child": "form"},
            {"id": "form", "component": "Column", "children": ["title", "name", "date", "guests", "book"]},
            {"id": "title", "component": "Text", "text": "Book a table", "variant": "h3"},
            {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/booking/name"},
                "checks": [{"condition": required("/booking/name"), "message": "Please enter a name"}]},
            {"id": "date", "component": "DateTimeInput", "label": "Date", "value": {"path": "/booking/date"},
                "enableDate": true,
                "checks": [{"condition": required("/booking/date"), "message": "Please pick a date"}]},
            {"id": "guests", "component": "ChoicePicker", "label": "Guests", "variant": "mutuallyExclusive",
                "options": guest_options, "value": {"path": "/booking/guests"}},
            {"id": "book-label", "component": "Text", "text": "Book"},
            {"id": "book", "component": "Button", "child": "book-label", "variant": "primary",
                "action": {"event": {"name": ACTION, "context": {
                    "name": {"path": "/booking/name"},
                    "date": {"path": "/booking/date"},
                    "guests": {"path": "/booking/guests"},
                }}},
                "checks": [{
                    "condition": {"call": "and", "args": {"values": [required("/booking/name"), required("/booking/date")]}},
                    "message": "Fill in a name and a date first",
                }]},
        ]}}),
        json!({"version": "v0.9", "updateDataModel": {
            "surfaceId": SURFACE_ID,
            "value": {"booking": {"name": "", "date": "", "guests": ["2"]}},
        }}),
    ]
}

/// The same form in v0.8: beginRendering, dataModelUpdate, surfaceUpdate. v0.8 has no checks;
/// its data entries cannot hold lists, so the guests selection is initialised through the
/// picker's `{path, literalArray}` binding.
pub(super) fn v08_operations() -> Vec<Value> {
    let literal = |text: &str| json!({"literalString": text});
    let guest_options: Vec<Value> = (1..=4)
        .map(|n| {
            let label = if n == 1 { "1 guest".to_owned() } else { format!("{n} guests") };
            json!({"label": literal(&label), "value": n.to_string()})
        })
        .collect();
    vec![
        json!({"beginRendering": {"surfaceId": SURFACE_ID, "root": "root"}}),
        json!({"dataModelUpdate": {"surfaceId": SURFACE_ID, "path": "/booking", "contents": [
            {"key": "name", "valueString": ""},
            {"key": "date", "valueString": ""},
        ]}}),
        json!({"surfaceUpdate": {"surfaceId": SURFACE_ID, "components": [
            {"id": "root", "component": {"Card": {"child": "form"}}},
            {"id": "form", "component": {"Column": {"children": {"explicitList": ["title", "name", "date", "guests", "book"]}}}},
            {"id": "title", "component": {"Text": {"text": literal("Book a table"), "usageHint": "h3"}}},
            {"id": "name", "component": {"TextField": {"label": literal("Name"), "text": {"path": "/booking/name"}}}},
            {"id": "date", "component": {"DateTimeInput": {"value": {"path": "/booking/date"}, "enableDate": true}}},
            {"id": "guests", "component": {"MultipleChoice": {
                "selections": {"path": "/booking/guests", "literalArray": ["2"]},
                "options": guest_options,
                "maxAllowedSelections": 1,
            }}},
            {"id": "book-label", "component": {"Text": {"text": literal("Book")}}},
            {"id": "book", "component": {"Button": {"child": "book-label", "primary": true, "action": {
                "name": ACTION,
                "context": [
                    {"key": "name", "value": {"path": "/booking/name"}},
                    {"key": "date", "value": {"path": "/booking/date"}},
                    {"key": "guests", "value": {"path": "/booking/guests"}},
                ],
            }}}},
        ]}}),
    ]
}

/// Removes the form once the booking is made.
pub(super) fn delete_operation(surface_id: &str) -> Value {
    json!({"version": "v0.9", "deleteSurface": {"surfaceId": surface_id}})
}
