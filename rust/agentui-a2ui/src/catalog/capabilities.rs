//! Other ids of the basic catalog, and the `a2uiClientCapabilities` object.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::{Catalog, Registered, BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID};

/// Ids under which agents have asked for the basic catalog. Each maps onto
/// [`BASIC_CATALOG_ID`].
pub const BASIC_CATALOG_ALIASES: &[&str] = &[
    // v0.9.1: its protocol document names the basic catalog under the v0_9_1 directory, while its
    // catalog.json and examples keep the v0_9 id. v0.9.1 adds no component, so it is one catalog.
    "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json",
    // v0.9 before the catalogs/ directory: `$id` and `catalogId` of
    // specification/v0_9/json/basic_catalog.json in google/A2UI; still what many agents send.
    "https://a2ui.org/specification/v0_9/basic_catalog.json",
    // v0.9 while the basic catalog was called "standard": specification/v0_9/json/standard_catalog.json
    // in google/A2UI, first under the a2ui.dev host, later under a2ui.org.
    "https://a2ui.org/specification/v0_9/standard_catalog.json",
    "https://a2ui.dev/specification/v0_9/standard_catalog.json",
    // v0.8 standard catalog (specification/v0_8/json/standard_catalog_definition.json in
    // google/A2UI); the v0.8 adapter maps its components onto basic-catalog ones.
    "https://a2ui.org/specification/v0_8/standard_catalog_definition.json",
    // v0.8 minimal catalog (specification/v0_8/json/catalogs/minimal in google/A2UI): a subset of
    // the v0.8 standard components, mapped the same way.
    "https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json",
];

/// v0.9 inlines catalogs in the client-capabilities form (functions as an array); v1.0 in the
/// catalog JSON format (catalog_definition.json: functions as a map).
fn inline_form(catalog: &Catalog, v1: bool) -> Value {
    if v1 {
        catalog.to_json()
    } else {
        catalog.to_inline_json()
    }
}

/// Builds `{"v0.9": {"supportedCatalogIds": [...], "inlineCatalogs": [...]}, "v1.0": {...}}`:
/// each catalog under the protocol it is written for (v1.0 catalogs, such as the basic catalog
/// v1, are not offered to v0.9 agents, and the other way round). A protocol with no catalog is
/// left out.
///
/// Ids are listed catalog ids first (the basic catalog first, then the others sorted), then the
/// aliases sorted, so the object is the same from run to run.
pub(crate) fn client_capabilities(
    by_id: &HashMap<String, Registered>,
    aliases: &HashMap<String, String>,
    inline: bool,
) -> Value {
    let mut out = Map::new();
    for (key, v1) in [("v0.9", false), ("v1.0", true)] {
        let mut primary: Vec<&String> = by_id.iter().filter(|(_, c)| c.is_v1() == v1).map(|(id, _)| id).collect();
        if primary.is_empty() {
            continue;
        }
        primary.sort_by_key(|id| (id.as_str() != BASIC_CATALOG_ID && id.as_str() != BASIC_V1_CATALOG_ID, id.as_str()));
        let mut alias_ids: Vec<&String> = aliases
            .iter()
            .filter(|(alias, target)| {
                !by_id.contains_key(*alias) && by_id.get(*target).is_some_and(|c| c.is_v1() == v1)
            })
            .map(|(alias, _)| alias)
            .collect();
        alias_ids.sort();
        let ids: Vec<&String> = primary.iter().copied().chain(alias_ids).collect();
        let mut entry = json!({ "supportedCatalogIds": ids });
        if inline {
            let catalogs: Vec<Value> =
                primary.iter().filter_map(|id| by_id.get(*id)).map(|c| inline_form(&c.catalog(), v1)).collect();
            entry["inlineCatalogs"] = Value::Array(catalogs);
        }
        out.insert(key.to_owned(), entry);
    }
    Value::Object(out)
}
