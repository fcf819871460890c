//! A surface's export recreates it: every example of the A2UI specification (v0.8, v0.9,
//! v0.9.1), with user input on top, goes through `Surface::export` and
//! `SurfaceGroup::restore_surface` into a fresh group and comes out the same, and answers later
//! agent messages the same. This is what lets a conversation's surfaces survive process death.

use crate::common;

use std::path::PathBuf;

use agentui_a2ui::catalog::{CatalogRegistry, BASIC_CATALOG_ID};
use agentui_a2ui::wire::v08::STANDARD_CATALOG_ID;
use agentui_a2ui::{A2uiError, Limits, Surface, SurfaceEvent, SurfaceGroup};
use common::{
    assert_clean, components, conformance, create, data, errors, group_with_catalogs, json_files, messages_of,
};
use serde_json::{json, Value};

/// Every example directory of the corpora, the catalogs it needs besides the built-in ones, and
/// how many examples it has at least (so a moved corpus fails instead of passing empty).
const CORPORA: [(&str, &[&str], usize); 5] = [
    ("v0_9/catalogs/basic/examples", &[], 36),
    ("v0_9_1/catalogs/basic/examples", &[], 36),
    ("v0_9_1/catalogs/minimal/examples", &["v0_9_1/catalogs/minimal/catalog.json"], 7),
    ("v0_8/json/catalogs/basic/examples", &[], 30),
    ("v0_8/json/catalogs/minimal/examples", &[], 5),
];

fn surface<'g>(group: &'g SurfaceGroup, id: &str) -> &'g Surface {
    group.surface(id).unwrap_or_else(|| panic!("surface {id:?}"))
}

fn assert_same_surface(restored: &Surface, original: &Surface, context: &str) {
    assert_eq!(restored.snapshot(), original.snapshot(), "{context}: resolved tree");
    assert_eq!(restored.data_model(), original.data_model(), "{context}: data model");
    assert_eq!(restored.catalog_id(), original.catalog_id(), "{context}: catalog");
    assert_eq!(restored.root_id(), original.root_id(), "{context}: root");
    assert_eq!(restored.theme(), original.theme(), "{context}: theme");
    assert_eq!(restored.send_data_model(), original.send_data_model(), "{context}: sendDataModel");
}

/// The component objects of an export.
fn exported_components(export: &[Value]) -> Vec<Value> {
    export
        .iter()
        .filter_map(|m| m.get("updateComponents"))
        .flat_map(|body| body["components"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// Absolute data-model paths bound to the `value` of TextFields and CheckBoxes, with the input a
/// user could type there.
fn inputs(surface: &Surface) -> Vec<(String, Value)> {
    exported_components(&surface.export())
        .iter()
        .filter_map(|c| {
            let path = c["value"]["path"].as_str().filter(|p| p.starts_with('/'))?;
            let input = match c["component"].as_str()? {
                "TextField" => json!("typed before the process died"),
                "CheckBox" => json!(surface.data_model().pointer(path) != Some(&json!(true))),
                _ => return None,
            };
            Some((path.to_owned(), input))
        })
        .collect()
}

/// Agent messages sent after the restore: a data write at an input, a component added to the
/// first explicit child list (by id) bound to a new path, that path written, and the input
/// deleted.
fn follow_ups(surface: &Surface, inputs: &[(String, Value)]) -> Vec<Value> {
    let id = surface.id();
    let mut messages = Vec::new();
    if let Some((path, _)) = inputs.first() {
        messages.push(data(id, path, json!("sent by the agent")));
    }
    let probe = json!({"id": "export-probe", "component": "Text", "text": {"path": "/exportProbe"}});
    let parent = exported_components(&surface.export()).into_iter().find(|c| c["children"].is_array());
    match parent {
        Some(mut parent) => {
            parent["children"].as_array_mut().unwrap().push(json!("export-probe"));
            messages.push(components(id, json!([parent, probe])));
        }
        None => messages.push(components(id, json!([probe]))),
    }
    messages.push(data(id, "/exportProbe", json!("probe")));
    if let Some((path, _)) = inputs.first() {
        messages.push(json!({"version": "v0.9", "updateDataModel": {"surfaceId": id, "path": path}}));
    }
    messages
}

#[test]
fn every_spec_example_round_trips_through_its_export() {
    let (mut examples, mut with_input, mut answered) = (0, 0, 0);
    for (dir, catalogs, expected_min) in CORPORA {
        let catalogs: Vec<PathBuf> = catalogs.iter().map(|c| conformance(c)).collect();
        let files = json_files(&conformance(dir));
        assert!(files.len() >= expected_min, "{dir}: only {} examples found", files.len());
        for file in files {
            let name = format!("{dir}/{}", file.file_name().unwrap().to_string_lossy());
            let mut original = group_with_catalogs(&catalogs);
            for message in messages_of(&file) {
                assert_clean(&original.process_value(&message));
            }
            assert_clean(&original.flush_pending());
            let ids: Vec<String> = original.surfaces().map(|s| s.id().to_owned()).collect();
            assert!(!ids.is_empty(), "{name}: no surface");

            // What the user did before the process died is in the data model, so it is exported.
            let mut inputs_of = Vec::new();
            for id in &ids {
                let inputs = inputs(surface(&original, id));
                for (path, value) in &inputs {
                    assert_clean(&original.set_value(id, path, value.clone()).expect("input applies"));
                }
                with_input += usize::from(!inputs.is_empty());
                inputs_of.push(inputs);
            }

            let mut restored = group_with_catalogs(&catalogs);
            for id in &ids {
                let context = format!("{name} surface {id}");
                let export = surface(&original, id).export();
                assert!(export.len() <= 3, "{context}: {export:?}");
                assert!(export[0].get("createSurface").is_some(), "{context}: {export:?}");
                assert!(export.iter().all(|m| m["version"] == "v0.9"), "{context}: {export:?}");
                let outcome = restored.restore_surface(export.clone()).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_clean(&outcome);
                assert_eq!(
                    outcome.events.last(),
                    Some(&SurfaceEvent::Changed { surface_id: id.clone(), diff: surface(&original, id).snapshot() }),
                    "{context}: the restore renders the whole surface once"
                );
                assert_same_surface(surface(&restored, id), surface(&original, id), &context);
                assert_eq!(surface(&restored, id).export(), export, "{context}: export of the restored surface");
            }

            // Both answer what the agent sends next the same way.
            for (id, inputs) in ids.iter().zip(&inputs_of) {
                for message in follow_ups(surface(&original, id), inputs) {
                    let expected = original.process_value(&message);
                    let actual = restored.process_value(&message);
                    assert_eq!(actual, expected, "{name} surface {id}: answer to {message}");
                    answered += usize::from(!expected.events.is_empty());
                    assert_same_surface(
                        surface(&restored, id),
                        surface(&original, id),
                        &format!("{name} after {message}"),
                    );
                }
            }
            examples += 1;
        }
    }
    assert!(examples >= 114, "only {examples} examples");
    assert!(with_input >= 10, "user input was applied on only {with_input} surfaces");
    assert!(answered >= 2 * examples, "only {answered} follow-ups changed anything");
}

/// A v0.8 agent names its root: the export starts with the `beginRendering` that says so, and
/// the v0.8 styles come back as the same theme.
#[test]
fn v08_surface_with_a_named_root_round_trips() {
    let messages = [
        json!({"beginRendering": {"surfaceId": "v8", "root": "main",
            "styles": {"primaryColor": "#112233", "font": "Serif"}}}),
        json!({"dataModelUpdate": {"surfaceId": "v8", "contents": [{"key": "name", "valueString": "Ada"}]}}),
        json!({"surfaceUpdate": {"surfaceId": "v8", "components": [
            {"id": "main", "component": {"Column": {"children": {"explicitList": ["title", "name"]}}}},
            {"id": "title", "component": {"Text": {"text": {"path": "/title", "literalString": "Hello"}}}},
            {"id": "name", "component": {"TextField": {"label": {"literalString": "Name"}, "text": {"path": "/name"}}}}
        ]}}),
    ];
    let mut original = SurfaceGroup::default();
    for message in &messages {
        assert_clean(&original.process_value(message));
    }
    assert_clean(&original.set_value("v8", "/name", json!("Grace")).unwrap());
    let export = surface(&original, "v8").export();
    assert_eq!(
        export[0],
        json!({"beginRendering": {"surfaceId": "v8", "root": "main", "catalogId": STANDARD_CATALOG_ID,
            "styles": {"primaryColor": "#112233", "font": "Serif"}}})
    );
    // The components as the engine keeps them: translated to v0.9.
    let title = exported_components(&export).into_iter().find(|c| c["id"] == "title").unwrap();
    assert_eq!(title, json!({"id": "title", "component": "Text", "text": {"path": "/title"}}));

    let mut restored = SurfaceGroup::default();
    assert_clean(&restored.restore_surface(export).unwrap());
    assert_same_surface(surface(&restored, "v8"), surface(&original, "v8"), "v0.8 named root");
    assert_eq!(surface(&restored, "v8").data_model(), &json!({"title": "Hello", "name": "Grace"}));
}

#[test]
fn theme_and_send_data_model_are_exported() {
    let mut original = SurfaceGroup::default();
    let create = json!({"version": "v0.9.1", "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID,
        "theme": {"primaryColor": "#00FF00"}, "sendDataModel": true}});
    assert_clean(&original.process_value(&create));
    assert_clean(&original.process_value(&components("s", json!([{"id": "root", "component": "Text", "text": "Hi"}]))));
    let export = surface(&original, "s").export();
    assert_eq!(
        export[0],
        json!({"version": "v0.9", "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID,
            "theme": {"primaryColor": "#00FF00"}, "sendDataModel": true}})
    );
    assert_eq!(export.len(), 2, "an empty data model is left out: {export:?}");
    let mut restored = SurfaceGroup::default();
    assert_clean(&restored.restore_surface(export).unwrap());
    assert_same_surface(surface(&restored, "s"), surface(&original, "s"), "theme");
    assert_eq!(restored.client_data_model("v0.9"), original.client_data_model("v0.9"));
    assert!(original.client_data_model("v0.9").is_some());
}

/// Only the last definition of each component is kept, as the agent sent it; a surface with no
/// component yet exports its creation (and data) alone.
#[test]
fn export_follows_the_latest_definitions() {
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&create("s")));
    assert_clean(&group.process_value(&data("s", "/x", json!(null))));
    assert_eq!(
        surface(&group, "s").export(),
        [create("s"), json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": {"x": null}}})]
    );
    let first = json!([{"id": "root", "component": "Column", "children": ["a"]},
        {"id": "a", "component": "Text", "text": "one"}]);
    assert_clean(&group.process_value(&components("s", first)));
    let replaced = json!({"id": "a", "component": "Button", "child": "b", "action": {"event": {"name": "go"}}});
    let b = json!({"id": "b", "component": "Text", "text": {"path": "/x"}});
    assert_clean(&group.process_value(&components("s", json!([replaced, b]))));
    let export = surface(&group, "s").export();
    assert_eq!(
        exported_components(&export),
        [replaced, b, json!({"id": "root", "component": "Column", "children": ["a"]})],
        "sorted by id"
    );
    let mut restored = SurfaceGroup::default();
    assert_clean(&restored.restore_surface(export).unwrap());
    assert_same_surface(surface(&restored, "s"), surface(&group, "s"), "replaced component");
}

/// A restore that fails leaves no half-made surface, and never touches one that exists.
#[test]
fn a_refused_restore_leaves_nothing_behind() {
    let mut original = SurfaceGroup::default();
    assert_clean(&original.process_value(&create("s")));
    assert_clean(&original.process_value(&data("s", "/items", json!(["a", "b"]))));
    let list = json!([{"id": "root", "component": "List", "children": {"componentId": "item", "path": "/items"}},
        {"id": "item", "component": "Text", "text": {"path": ""}}]);
    assert_clean(&original.process_value(&components("s", list)));
    let export = surface(&original, "s").export();

    // A component the catalog does not know (a store written by a build with another catalog).
    let mut bad_components = export.clone();
    bad_components[2]["updateComponents"]["components"][0]["component"] = json!("Hologram");
    let mut group = SurfaceGroup::default();
    assert!(matches!(group.restore_surface(bad_components), Err(A2uiError::Validation(_))));
    assert_eq!(group.surfaces().count(), 0);

    // A data model larger than this group allows.
    let small = Limits { max_data_model_bytes: 8, ..Limits::default() };
    let mut group = SurfaceGroup::new(CatalogRegistry::with_basic(), small);
    let refused = group.restore_surface(export.clone()).unwrap_err();
    assert_eq!(refused.code(), "LIMIT_EXCEEDED", "{refused}");
    assert_eq!(group.surfaces().count(), 0);
    assert_eq!(group.pending_count(), 0);

    // Messages that are no export: no creation first, another surface, a deletion, garbage.
    let mut group = SurfaceGroup::default();
    for messages in [
        export[1..].to_vec(),
        vec![export[0].clone(), data("other", "/a", json!(1))],
        vec![export[0].clone(), json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}})],
        vec![export[0].clone(), json!({"version": "v0.9"})],
    ] {
        assert!(matches!(group.restore_surface(messages.clone()), Err(A2uiError::Validation(_))), "{messages:?}");
        assert_eq!(group.surfaces().count(), 0, "{messages:?}");
        assert_eq!(group.pending_count(), 0, "{messages:?}");
    }

    // The id is taken: the existing surface stays as it was.
    assert_clean(&group.restore_surface(export.clone()).unwrap());
    assert_clean(&group.set_value("s", "/items/0", json!("edited")).unwrap());
    let before = (surface(&group, "s").snapshot(), surface(&group, "s").data_model().clone());
    assert_eq!(group.restore_surface(export), Err(A2uiError::DuplicateSurface("s".into())));
    assert_eq!((surface(&group, "s").snapshot(), surface(&group, "s").data_model().clone()), before);
}

/// A surface may hold more than one agent message can carry (it grew over several): its export
/// still restores, since the message-size bound is for agent input only.
#[test]
fn a_surface_larger_than_one_message_restores() {
    let limits = Limits { max_message_bytes: 2_000, ..Limits::default() };
    let mut original = SurfaceGroup::new(CatalogRegistry::with_basic(), limits.clone());
    assert_clean(&original.process_value(&create("s")));
    let text = "x".repeat(600);
    for i in 0..5 {
        assert_clean(&original.process_value(&data("s", &format!("/t{i}"), json!(text))));
    }
    let rows: Vec<Value> = (0..5)
        .map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": {"path": format!("/t{i}")}}))
        .collect();
    assert_clean(&original.process_value(&components(
        "s",
        json!([{"id": "root", "component": "Column", "children": ["t0", "t1", "t2", "t3", "t4"]}]),
    )));
    assert_clean(&original.process_value(&components("s", Value::Array(rows))));
    let export = surface(&original, "s").export();
    let too_big = SurfaceGroup::new(CatalogRegistry::with_basic(), limits.clone()).process_value(&export[1]);
    assert_eq!(errors(&too_big)[0]["code"], "LIMIT_EXCEEDED", "the export holds more than one message may");

    let mut restored = SurfaceGroup::new(CatalogRegistry::with_basic(), limits);
    assert_clean(&restored.restore_surface(export).unwrap());
    assert_same_surface(surface(&restored, "s"), surface(&original, "s"), "large surface");
}
