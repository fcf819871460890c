//! `formatString` on an arbitrary template, bound into a Text node over a small data model:
//! parsing and evaluating it must never panic.
#![no_main]

use agentui_a2ui::catalog::{CatalogRegistry, BASIC_CATALOG_ID};
use agentui_a2ui::{Limits, SurfaceGroup};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(template) = std::str::from_utf8(data) else { return };
    let mut group = SurfaceGroup::new(CatalogRegistry::with_basic(), Limits::default());
    group.process_owned(json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID}}));
    group.process_owned(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/",
        "value": {"name": "Ada", "n": 3, "items": [{"price": 1.5}], "nested": {"a": {"b": "c"}}}}}));
    group.process_owned(json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": {"call": "formatString", "args": {"value": template}, "returnType": "string"}}
    ]}}));
});
