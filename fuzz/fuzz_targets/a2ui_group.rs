//! The A2UI surface group on arbitrary JSON Lines messages, followed by user input on every
//! node (a write to each binding, an action on each node): never a panic, and the data model
//! stays within its bound.
#![no_main]

use agentui_a2ui::catalog::CatalogRegistry;
use agentui_a2ui::{size, Limits, SurfaceGroup};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let limits = Limits {
        max_message_bytes: 64 * 1024,
        max_components_per_surface: 200,
        max_template_instances: 1_000,
        max_data_model_bytes: 64 * 1024,
        max_total_data_model_bytes: 128 * 1024,
        max_surfaces: 8,
        ..Limits::default()
    };
    let mut group = SurfaceGroup::new(CatalogRegistry::with_basic(), limits.clone()).with_clock(|| "t".to_owned());
    for line in text.lines() {
        group.process_json(line);
    }
    group.flush_pending();
    let targets: Vec<(String, String, Vec<String>)> = group
        .surfaces()
        .flat_map(|s| {
            s.nodes()
                .into_iter()
                .map(|n| (s.id().to_owned(), n.id.to_string(), n.bindings.iter().map(|b| b.path.to_string()).collect()))
        })
        .collect();
    for (surface, node, paths) in targets.into_iter().take(64) {
        for path in paths {
            let _ = group.set_value(&surface, &path, Value::String("typed".into()));
        }
        let _ = group.dispatch_action(&surface, &node);
    }
    for s in group.surfaces() {
        assert!(size::weight(s.data_model()) <= limits.max_data_model_bytes);
    }
});
