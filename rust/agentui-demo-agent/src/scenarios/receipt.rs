//! A payment receipt whose texts are formatted on the device: an amount (`formatCurrency`), the
//! instant it was paid (`formatDate` over a UTC timestamp, shown in the app's time zone), a
//! delivery day (`formatDate` over a calendar date, never shifted), a points balance
//! (`formatNumber`) and an item count (`pluralize`). The agent sends only raw values, so the
//! same stream reads `€1,234.50 … Sunday 1 March 2026 10:00` for en-US in UTC and
//! `EUR 1.234,50 … Sonntag 1 März 2026 11:00` for de-DE in Europe/Berlin.

use serde_json::json;

use super::a2ui::ACTIVITY_TYPE;
use super::booking_form::CATALOG_V09;
use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const SURFACE_ID: &str = "receipt";

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.text(&["Here is your receipt."]);
    let id = s.next_message_id();
    let text = |id: &str, call: serde_json::Value| json!({"id": id, "component": "Text", "text": call});
    let operations = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": SURFACE_ID, "catalogId": CATALOG_V09}},
        {"version": "v0.9", "updateComponents": {"surfaceId": SURFACE_ID, "components": [
            {"id": "root", "component": "Card", "child": "lines"},
            {"id": "lines", "component": "Column", "children": ["total", "paid", "delivery", "points", "items"]},
            text("total", json!({"call": "formatCurrency", "args": {"value": {"path": "/total"}, "currency": "EUR"}})),
            text("paid", json!({"call": "formatDate",
                "args": {"value": {"path": "/paidAt"}, "format": "EEEE d MMMM yyyy HH:mm"}})),
            text("delivery", json!({"call": "formatDate",
                "args": {"value": {"path": "/deliveryDate"}, "format": "EEE d MMM yyyy"}})),
            text("points", json!({"call": "formatNumber", "args": {"value": {"path": "/points"}}})),
            text("items", json!({"call": "pluralize", "args": {"value": {"path": "/items"},
                "one": "1 item", "few": "a few items", "many": "many items", "other": "several items"}})),
        ]}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": SURFACE_ID, "value": {
            "total": 1234.5,
            "paidAt": "2026-03-01T10:00:00Z",
            "deliveryDate": "2026-03-02",
            "points": 12345.678,
            "items": 3,
        }}},
    ]);
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": operations},
    }));
    s.finish()
}
