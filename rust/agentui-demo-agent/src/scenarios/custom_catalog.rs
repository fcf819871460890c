//! A surface drawn with the app's own catalog: a loyalty badge ([`LOYALTY_CATALOG_ID`]) whose
//! points text comes from `formatPoints`, a function the catalog declares and the app
//! implements. The agent sends only the raw balance; what the badge says is the app's.
//!
//! As an agent should, it first reads the catalogs the client advertised (the context entry whose
//! value is `{"a2uiClientCapabilities": …}`, where AG-UI agents read them): a client without the
//! loyalty catalog gets a text answer saying so and no surface, which is what an app that forgot
//! to register it sees.

use serde_json::{json, Value};

use super::a2ui::ACTIVITY_TYPE;
use super::script;
use crate::input::RunInput;
use crate::script::Step;

/// The id of the demo's custom catalog.
pub const LOYALTY_CATALOG_ID: &str = "https://agentui.dev/demo/catalogs/loyalty/v1/catalog.json";

pub(super) const SURFACE_ID: &str = "loyalty";

const COMMON: &str = "https://a2ui.org/specification/v0_9/common_types.json#/$defs";

/// The loyalty catalog (A2UI v0.9 catalog JSON): one component, `LoyaltyBadge {tier, points}`,
/// and one function, `formatPoints {value: number} -> string`, which the engine does not have:
/// the app registers its implementation.
pub fn loyalty_catalog_json() -> String {
    json!({
        "catalogId": LOYALTY_CATALOG_ID,
        "description": "The demo app's loyalty card.",
        "components": {
            "LoyaltyBadge": {
                "type": "object",
                "description": "A member's tier and points balance.",
                "allOf": [
                    {"$ref": format!("{COMMON}/ComponentCommon")},
                    {
                        "type": "object",
                        "properties": {
                            "component": {"const": "LoyaltyBadge"},
                            "tier": {"$ref": format!("{COMMON}/DynamicString"), "description": "The tier's name."},
                            "points": {"$ref": format!("{COMMON}/DynamicString"), "description": "The balance, as shown."}
                        },
                        "required": ["component", "tier", "points"]
                    }
                ],
                "unevaluatedProperties": false
            }
        },
        "functions": [
            {
                "name": "formatPoints",
                "description": "A points balance as the app writes it.",
                "parameters": {
                    "type": "object",
                    "properties": {"value": {"$ref": format!("{COMMON}/DynamicNumber")}},
                    "required": ["value"],
                    "additionalProperties": false
                },
                "returnType": "string"
            }
        ]
    })
    .to_string()
}

/// Whether the client said it renders `catalog_id`, under any protocol version.
fn advertised(input: &RunInput, catalog_id: &str) -> bool {
    // A context value is text; the capabilities entry's is a JSON object. Other entries (plain
    // text, another JSON shape) are passed over.
    let capabilities = input.context.iter().filter_map(|entry| {
        let value: Value = serde_json::from_str(&entry.value).ok()?;
        value.get("a2uiClientCapabilities")?.as_object().cloned()
    });
    capabilities.flat_map(|versions| versions.into_iter().map(|(_, v)| v)).any(|v| {
        v.get("supportedCatalogIds").and_then(Value::as_array).is_some_and(|ids| ids.iter().any(|id| id == catalog_id))
    })
}

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    if !advertised(input, LOYALTY_CATALOG_ID) {
        s.text(&["Your app does not render the loyalty catalog, so here it is in words: Gold, 1250 points."]);
        return s.finish();
    }
    s.text(&["Here is your loyalty card."]);
    let id = s.next_message_id();
    let operations = json!([
        {"version": "v0.9", "createSurface": {"surfaceId": SURFACE_ID, "catalogId": LOYALTY_CATALOG_ID}},
        {"version": "v0.9", "updateComponents": {"surfaceId": SURFACE_ID, "components": [
            {"id": "root", "component": "LoyaltyBadge", "tier": {"path": "/tier"},
             "points": {"call": "formatPoints", "args": {"value": {"path": "/points"}}, "returnType": "string"}},
        ]}},
        {"version": "v0.9", "updateDataModel": {"surfaceId": SURFACE_ID, "value": {"tier": "Gold", "points": 1250}}},
    ]);
    s.event(json!({
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": id,
        "activityType": ACTIVITY_TYPE,
        "content": {"a2ui_operations": operations},
    }));
    s.finish()
}
