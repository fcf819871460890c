//! The surface group end to end: messages in, resolved nodes, diffs and client messages out.

use crate::common;

use agentui_a2ui::catalog::{CatalogRegistry, BASIC_CATALOG_ID};
use agentui_a2ui::functions::UrlPolicy;
use agentui_a2ui::{Effect, Limits, Outcome, SurfaceDiff, SurfaceEvent, SurfaceGroup};
use common::*;
use serde_json::{json, Value};

fn group() -> SurfaceGroup {
    SurfaceGroup::default().with_clock(|| "2026-11-30T12:00:00Z".to_owned())
}

fn children(node: &agentui_a2ui::ResolvedNode) -> Vec<&str> {
    node.children.iter().map(|c| c.as_ref()).collect()
}

fn diff(outcome: &Outcome) -> &SurfaceDiff {
    outcome
        .events
        .iter()
        .find_map(|e| match e {
            SurfaceEvent::Changed { diff, .. } => Some(diff),
            _ => None,
        })
        .expect("a diff")
}

fn upserted_ids(outcome: &Outcome) -> Vec<String> {
    match diff(outcome) {
        SurfaceDiff::Patch { upserted, .. } => upserted.iter().map(|n| n.id.to_string()).collect(),
        SurfaceDiff::Reset { nodes, .. } => nodes.iter().map(|n| n.id.to_string()).collect(),
    }
}

#[test]
fn nothing_renders_until_root_then_progressively() {
    let mut g = group();
    assert_clean(&g.process_value(&create("s")));
    let out = g.process_value(&components("s", json!([{"id": "title", "component": "Text", "text": "Hi"}])));
    assert_clean(&out);
    assert!(out.events.is_empty(), "no render before root: {:?}", out.events);
    assert_eq!(g.surface("s").unwrap().node_count(), 0);

    // Root arrives after its child: first render is a reset with both nodes.
    let out = g.process_value(&components(
        "s",
        json!([{"id": "root", "component": "Column", "children": ["title", "later"]}]),
    ));
    assert_clean(&out);
    match diff(&out) {
        SurfaceDiff::Reset { root, nodes } => {
            assert_eq!(root.as_deref(), Some("root"));
            assert_eq!(nodes.len(), 2);
        }
        other => panic!("expected reset, got {other:?}"),
    }
    // The dangling child is pending: listed as a child, no node, no crash.
    let s = g.surface("s").unwrap();
    assert_eq!(children(s.node("root").unwrap()), vec!["title", "later"]);
    assert!(s.node("later").is_none());

    let out = g.process_value(&components("s", json!([{"id": "later", "component": "Text", "text": "now"}])));
    assert_eq!(upserted_ids(&out), vec!["later"]);
}

#[test]
fn reusing_an_id_with_another_type_recreates_the_node() {
    let mut g = group();
    g.process_value(&create("s"));
    g.process_value(&components("s", json!([{"id": "root", "component": "Text", "text": "a"}])));
    let out = g.process_value(&components("s", json!([{"id": "root", "component": "Divider"}])));
    assert_clean(&out);
    let node = g.surface("s").unwrap().node("root").unwrap();
    assert_eq!(&*node.component_type, "Divider");
    assert!(node.props.get("text").is_none());
}

#[test]
fn cycles_and_depth_are_rejected_and_leave_state_untouched() {
    let mut g = group();
    g.process_value(&create("s"));
    g.process_value(&components(
        "s",
        json!([{"id": "root", "component": "Card", "child": "a"}, {"id": "a", "component": "Text", "text": "x"}]),
    ));
    let out = g.process_value(&components("s", json!([{"id": "a", "component": "Card", "child": "root"}])));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0]["code"], "VALIDATION_FAILED");
    assert!(errs[0]["message"].as_str().unwrap().contains("cycle"));
    assert_eq!(errs[0]["path"], "/updateComponents/components/0");
    assert_eq!(&*g.surface("s").unwrap().node("a").unwrap().component_type, "Text", "rejected message changed state");

    let mut chain: Vec<Value> =
        (0..100).map(|i| json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)})).collect();
    chain.push(json!({"id": "root", "component": "Card", "child": "c0"}));
    let out = g.process_value(&components("s", Value::Array(chain)));
    assert!(errors(&out)[0]["message"].as_str().unwrap().contains("levels deep"), "{:?}", errors(&out));
    assert!(g.surface("s").unwrap().node("c0").is_none());
}

#[test]
fn invalid_component_is_reported_with_its_path_and_nothing_is_applied() {
    let mut g = group();
    g.process_value(&create("s"));
    let out = g.process_value(&components(
        "s",
        json!([{"id": "root", "component": "Column", "children": ["t"]}, {"id": "t", "component": "Text", "text": 42}]),
    ));
    let errs = errors(&out);
    assert_eq!(errs[0]["code"], "VALIDATION_FAILED");
    assert!(errs[0]["path"].as_str().unwrap().starts_with("/updateComponents/components/1/text"), "{errs:?}");
    assert_eq!(errs[0]["surfaceId"], "s");
    assert_eq!(g.surface("s").unwrap().node_count(), 0);
}

/// Two definitions of one id in one message leave it unclear which the agent meant: the message
/// is refused, pointing at the second, and nothing of it is applied.
#[test]
fn duplicate_component_ids_in_one_message_are_refused_at_the_second() {
    let mut g = group();
    g.process_value(&create("s"));
    let out = g.process_value(&components(
        "s",
        json!([
            {"id": "root", "component": "Column", "children": ["a", "b"]},
            {"id": "a", "component": "Text", "text": "first"},
            {"id": "b", "component": "Divider"},
            {"id": "a", "component": "Text", "text": "second"}
        ]),
    ));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0]["code"], "VALIDATION_FAILED");
    assert_eq!(errs[0]["path"], "/updateComponents/components/3/id");
    let message = errs[0]["message"].as_str().unwrap();
    assert!(message.contains("\"a\"") && message.contains("/updateComponents/components/1"), "{message}");
    assert!(out.events.is_empty());
    assert!(!g.surface("s").unwrap().has_root(), "nothing of the refused message was applied");

    // Each duplicate is reported, with the other issues of the message.
    let out = g.process_value(&components(
        "s",
        json!([
            {"id": "root", "component": "Text", "text": "x"},
            {"id": "root", "component": "Text", "text": 1},
            {"id": "root", "component": "Divider"}
        ]),
    ));
    let report = errors(&out)[0]["message"].clone();
    assert!(report.as_str().unwrap().contains("(and 2 more)"), "{report}");
    assert_eq!(errors(&out)[0]["path"], "/updateComponents/components/1/id");

    // Redefining an id in a later message is an update, as before.
    assert_clean(&g.process_value(&components("s", json!([{"id": "root", "component": "Text", "text": "one"}]))));
    assert_clean(&g.process_value(&components("s", json!([{"id": "root", "component": "Text", "text": "two"}]))));
    assert_eq!(g.surface("s").unwrap().node("root").unwrap().props["text"], "two");
}

/// A binding path is a JSON Pointer (absolute, or relative to the template item): a `~` must
/// start `~0` or `~1`. Anything else is refused where it is written, not read as absent later.
#[test]
fn binding_paths_that_are_not_json_pointers_are_refused_where_they_are_written() {
    let cases = [
        (json!({"id": "root", "component": "Text", "text": {"path": "/a~2b"}}), "/text/path"),
        (json!({"id": "root", "component": "Text", "text": {"path": "name~"}}), "/text/path"),
        (
            json!({"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items~x"}}),
            "/children/path",
        ),
        (
            json!({"id": "root", "component": "TextField", "label": "Name", "value": {"path": "/name"},
                   "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name~"}}, "returnType": "boolean"},
                               "message": "Required"}]}),
            "/checks/0/condition/args/value/path",
        ),
        (
            json!({"id": "root", "component": "Button", "child": "label",
                   "action": {"event": {"name": "go", "context": {"ok": {"path": "/fine"}, "a/b": {"path": "/who~3"}}}}}),
            "/action/event/context/a~1b/path",
        ),
        (
            json!({"id": "root", "component": "Divider", "accessibility": {"label": {"path": "~2"}}}),
            "/accessibility/label/path",
        ),
        (
            json!({"id": "root", "component": "Tabs", "tabs": [{"title": "A", "child": "a"}, {"title": {"path": "/t~9"}, "child": "b"}]}),
            "/tabs/1/title/path",
        ),
    ];
    for (component, at) in cases {
        let mut g = group();
        g.process_value(&create("s"));
        let out = g.process_value(&components("s", json!([{"id": "first", "component": "Divider"}, component])));
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{at}: {errs:?}");
        assert_eq!(errs[0]["code"], "VALIDATION_FAILED", "{at}");
        assert_eq!(errs[0]["path"], format!("/updateComponents/components/1{at}"));
        assert!(errs[0]["message"].as_str().unwrap().contains("JSON Pointer"), "{errs:?}");
        assert!(!g.surface("s").unwrap().has_root(), "{at}: nothing of the message was applied");
    }

    // The two escapes RFC 6901 has are fine, absolute and relative.
    let mut g = group();
    g.process_value(&create("s"));
    g.process_value(&data("s", "/items", json!([{"a/b": "slash", "c~d": "tilde"}])));
    assert_clean(&g.process_value(&components(
        "s",
        json!([
            {"id": "root", "component": "Column", "children": ["top", "list"]},
            {"id": "top", "component": "Text", "text": {"path": "/items/0/a~1b"}},
            {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Text", "text": {"path": "c~0d"}}
        ]),
    )));
    let s = g.surface("s").unwrap();
    assert_eq!(s.node("top").unwrap().props["text"], "slash");
    assert_eq!(s.node("row@/items/0").unwrap().props["text"], "tilde");

    // updateDataModel's own path was already checked.
    let errs = errors(&g.process_value(&data("s", "/a~2b", json!(1))));
    assert_eq!(errs[0]["code"], "VALIDATION_FAILED");
    assert_eq!(errs[0]["path"], "/updateDataModel/path");
}

#[test]
fn duplicate_create_and_unknown_catalog_are_errors() {
    let mut g = group();
    assert_clean(&g.process_value(&create("s")));
    assert_eq!(errors(&g.process_value(&create("s")))[0]["code"], "SURFACE_EXISTS");
    let out = g.process_value(
        &json!({"version": "v0.9", "createSurface": {"surfaceId": "t", "catalogId": "https://example.com/nope.json"}}),
    );
    assert_eq!(errors(&out)[0]["code"], "CATALOG_NOT_FOUND");
    assert!(g.surface("t").is_none());
}

/// A catalog id is a name agreed between agent and client, not a URL: it is never fetched or
/// resolved, and it matches only itself (or an alias registered for it).
#[test]
fn catalog_ids_are_identifiers_matched_exactly() {
    let create = |surface: &str, catalog: &str| json!({"version": "v0.9.1", "createSurface": {"surfaceId": surface, "catalogId": catalog}});
    let mut g = group();
    // The v0.9.1 documents name the basic catalog under a v0_9_1 URI: the same catalog.
    let v091_basic = "https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json";
    let out = g.process_value(&create("v091", v091_basic));
    assert_clean(&out);
    assert_eq!(out.events, vec![SurfaceEvent::Created { surface_id: "v091".into(), catalog_id: v091_basic.into() }]);
    assert_clean(&g.process_value(&components("v091", json!([{"id": "root", "component": "Text", "text": "hi"}]))));
    assert_eq!(g.surface("v091").unwrap().node("root").unwrap().props["text"], "hi");

    // Spellings a URL parser would take for the same resource are other ids.
    for near in [
        "HTTPS://A2UI.ORG/specification/v0_9/catalogs/basic/catalog.json",
        "http://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
        "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json/",
        "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json#",
        "https://a2ui.org/specification/v0_9/catalogs/basic/./catalog.json",
        "https://a2ui.org:443/specification/v0_9/catalogs/basic/catalog.json",
        " https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
    ] {
        let out = g.process_value(&create("near", near));
        assert_eq!(errors(&out)[0]["code"], "CATALOG_NOT_FOUND", "{near}");
        assert!(g.surface("near").is_none(), "{near}");
    }

    // Ids that are not URLs at all, or that point nowhere, work as well as any other.
    for (n, id) in ["acme-widgets", "urn:acme:widgets:2", "Acme Widgets (v2)", "https://acme.example/nowhere#v2"]
        .into_iter()
        .enumerate()
    {
        let common = "https://a2ui.org/specification/v0_9/common_types.json#/$defs";
        let catalog = agentui_a2ui::catalog::Catalog::from_json(&json!({
            "catalogId": id,
            "components": {"Badge": {"allOf": [
                {"$ref": format!("{common}/ComponentCommon")},
                {"properties": {"component": {"const": "Badge"}, "label": {"$ref": format!("{common}/DynamicString")}},
                 "required": ["component", "label"]}
            ], "unevaluatedProperties": false}}
        }))
        .unwrap_or_else(|e| panic!("{id}: {e}"));
        g.catalogs_mut().register(std::sync::Arc::new(catalog));
        let surface = format!("custom{n}");
        assert_clean(&g.process_value(&create(&surface, id)));
        assert_clean(&g.process_value(&components(
            &surface,
            json!([{"id": "root", "component": "Badge", "label": {"path": "/l"}}]),
        )));
        assert_clean(&g.process_value(&data(&surface, "/l", json!(id))));
        assert_eq!(g.surface(&surface).unwrap().node("root").unwrap().props["label"], id);
        assert_eq!(g.surface(&surface).unwrap().catalog_id(), id);
    }
}

#[test]
fn messages_before_create_are_buffered_then_applied_or_reported() {
    let mut g = group();
    assert_clean(
        &g.process_value(&components("s", json!([{"id": "root", "component": "Text", "text": {"path": "/msg"}}]))),
    );
    assert_clean(&g.process_value(&data("s", "/msg", json!("hello"))));
    assert_eq!(g.pending_count(), 2);
    let out = g.process_value(&create("s"));
    assert_clean(&out);
    assert_eq!(g.pending_count(), 0);
    assert_eq!(g.surface("s").unwrap().node("root").unwrap().props["text"], "hello");

    g.process_value(&data("ghost", "/x", json!(1)));
    let out = g.flush_pending();
    assert_eq!(errors(&out)[0]["code"], "SURFACE_NOT_FOUND");
    assert_eq!(errors(&out)[0]["surfaceId"], "ghost");
}

#[test]
fn buffer_is_bounded() {
    let limits = Limits { max_buffered_messages: 3, ..Limits::default() };
    let mut g = SurfaceGroup::new(CatalogRegistry::with_basic(), limits);
    for i in 0..3 {
        assert_clean(&g.process_value(&data("later", &format!("/v{i}"), json!(i))));
    }
    let out = g.process_value(&data("later", "/v3", json!(3)));
    assert_eq!(errors(&out)[0]["code"], "LIMIT_EXCEEDED");
    assert_eq!(g.pending_count(), 3);
}

#[test]
fn delete_surface_frees_it() {
    let mut g = group();
    g.process_value(&create("s"));
    let out = g.process_value(&json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}}));
    assert!(matches!(out.events[0], SurfaceEvent::Deleted { .. }));
    assert!(g.surface("s").is_none());
    assert_clean(&g.process_value(&create("s")));
}

/// v0.9.1: a surface id is unique among the surfaces that exist, not for the renderer's lifetime.
#[test]
fn a_deleted_surface_id_can_be_created_again_from_scratch() {
    let v091 = |key: &str, body: Value| json!({"version": "v0.9.1", key: body});
    let create = |send_data_model: bool| {
        v091(
            "createSurface",
            json!({"surfaceId": "s", "catalogId": BASIC_CATALOG_ID, "sendDataModel": send_data_model}),
        )
    };
    let mut g = group();
    assert_clean(&g.process_value(&create(true)));
    assert_clean(&g.process_value(&v091(
        "updateComponents",
        json!({"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": {"path": "/msg"}}]}),
    )));
    assert_clean(&g.process_value(&v091("updateDataModel", json!({"surfaceId": "s", "path": "/msg", "value": "old"}))));

    // While it exists, the id is taken, and the refused create changes nothing.
    assert_eq!(errors(&g.process_value(&create(false)))[0]["code"], "SURFACE_EXISTS");
    assert_eq!(g.surface("s").unwrap().node("root").unwrap().props["text"], "old");
    assert!(g.surface("s").unwrap().send_data_model());

    for round in 0..2 {
        let out = g.process_value(&v091("deleteSurface", json!({"surfaceId": "s"})));
        assert_clean(&out);
        assert_eq!(out.events, vec![SurfaceEvent::Deleted { surface_id: "s".into() }], "round {round}");

        let out = g.process_value(&create(false));
        assert_clean(&out);
        assert_eq!(
            out.events,
            vec![SurfaceEvent::Created { surface_id: "s".into(), catalog_id: BASIC_CATALOG_ID.into() }],
            "round {round}"
        );
        // Nothing of the deleted surface survives: components, data model, sendDataModel.
        let s = g.surface("s").unwrap();
        assert!(!s.has_root(), "round {round}");
        assert_eq!(s.node_count(), 0);
        assert_eq!(s.data_model(), &json!({}));
        assert!(!s.send_data_model());
        assert_eq!(g.surfaces().count(), 1);

        let out = g.process_value(&v091(
            "updateComponents",
            json!({"surfaceId": "s", "components": [{"id": "root", "component": "Text", "text": "new"}]}),
        ));
        assert_clean(&out);
        assert!(matches!(diff(&out), SurfaceDiff::Reset { root: Some(_), .. }), "the new surface renders from scratch");
        assert_eq!(g.surface("s").unwrap().node("root").unwrap().props["text"], "new");
    }
}

fn list_surface(g: &mut SurfaceGroup, items: usize) {
    g.process_value(&create("s"));
    let items: Vec<Value> = (0..items).map(|i| json!({"name": format!("n{i}"), "price": i})).collect();
    assert_clean(&g.process_value(&data("s", "/items", Value::Array(items))));
    assert_clean(&g.process_value(&components(
        "s",
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Row", "children": ["name", "price"]},
            {"id": "name", "component": "Text", "text": {"path": "name"}},
            {"id": "price", "component": "Text", "text": {"call": "formatString", "args": {"value": "${price} USD"}, "returnType": "string"}}
        ]),
    )));
}

#[test]
fn templates_expand_with_stable_instance_ids() {
    let mut g = group();
    list_surface(&mut g, 3);
    let s = g.surface("s").unwrap();
    assert_eq!(children(s.node("root").unwrap()), vec!["row@/items/0", "row@/items/1", "row@/items/2"]);
    assert_eq!(s.node("name@/items/1").unwrap().props["text"], "n1");
    assert_eq!(s.node("price@/items/2").unwrap().props["text"], "2 USD");
    assert_eq!(s.node_count(), 1 + 3 * 3);
}

#[test]
fn a_leaf_update_recomputes_only_the_nodes_reading_it() {
    for size in [10, 2000] {
        let mut g = group();
        list_surface(&mut g, size);
        let out = g.process_value(&data("s", "/items/7/price", json!(99)));
        assert_clean(&out);
        assert_eq!(upserted_ids(&out), vec!["price@/items/7"], "size {size}");
        assert_eq!(g.surface("s").unwrap().node("price@/items/7").unwrap().props["text"], "99 USD");
    }
}

#[test]
fn appending_and_removing_items_changes_the_instances() {
    let mut g = group();
    list_surface(&mut g, 2);
    let out = g.process_value(&data("s", "/items/-", json!({"name": "new", "price": 5})));
    assert_clean(&out);
    let ids = upserted_ids(&out);
    assert!(ids.contains(&"root".to_owned()) && ids.contains(&"name@/items/2".to_owned()), "{ids:?}");
    let out = g.process_value(&data("s", "/items", json!([{"name": "only", "price": 1}])));
    match diff(&out) {
        SurfaceDiff::Patch { removed, .. } => assert!(removed.iter().any(|r| &**r == "name@/items/1"), "{removed:?}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(g.surface("s").unwrap().node_count(), 1 + 3);
}

#[test]
fn huge_array_index_is_refused_without_allocating() {
    let mut g = group();
    list_surface(&mut g, 1);
    let out = g.process_value(&data("s", "/items/99999999", json!({"name": "x"})));
    assert_eq!(errors(&out)[0]["code"], "LIMIT_EXCEEDED");
    assert!(errors(&out)[0]["message"].as_str().unwrap().contains("99999999"));
    assert_eq!(g.surface("s").unwrap().data_model()["items"].as_array().unwrap().len(), 1);
}

#[test]
fn template_instance_limit_is_enforced_atomically() {
    let limits = Limits { max_template_instances: 10, ..Limits::default() };
    let mut g = SurfaceGroup::new(CatalogRegistry::with_basic(), limits);
    list_surface(&mut g, 3); // 9 instances
    let out = g.process_value(&data("s", "/items/-", json!({"name": "x", "price": 1})));
    assert_eq!(errors(&out)[0]["code"], "LIMIT_EXCEEDED");
    assert_eq!(g.surface("s").unwrap().data_model()["items"].as_array().unwrap().len(), 3, "data write rolled back");
    assert_eq!(g.surface("s").unwrap().node_count(), 10);
}

/// v0.9: "If present, the value at 'path' is replaced (or created). If omitted, the key at
/// 'path' is removed." A present `null` is a value like any other.
#[test]
fn update_data_model_with_a_null_value_stores_null_and_only_an_absent_value_deletes() {
    for version in ["v0.9", "v0.9.1"] {
        let update = |path: Option<&str>, value: Option<Value>| {
            let mut body = json!({"surfaceId": "s"});
            if let Some(path) = path {
                body["path"] = json!(path);
            }
            if let Some(value) = value {
                body["value"] = value;
            }
            json!({"version": version, "updateDataModel": body})
        };
        let mut g = group();
        g.process_value(&json!({"version": version, "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID, "sendDataModel": true}}));
        assert_clean(&g.process_value(&components(
            "s",
            json!([{"id": "root", "component": "Text", "text": {"path": "/user/nick"}}]),
        )));
        assert_clean(
            &g.process_value(&update(None, Some(json!({"user": {"name": "Ada", "nick": "A"}, "items": [1, 2, 3]})))),
        );
        assert_eq!(g.surface("s").unwrap().node("root").unwrap().props["text"], "A");

        // A present null replaces: the key stays, holding null, and the binding reads it as absent.
        let out = g.process_value(&update(Some("/user/nick"), Some(Value::Null)));
        assert_clean(&out);
        assert_eq!(upserted_ids(&out), vec!["root"], "{version}: the node reading the path is recomputed");
        let s = g.surface("s").unwrap();
        assert_eq!(s.data_model()["user"], json!({"name": "Ada", "nick": null}), "{version}");
        let text_of_null = s.node("root").unwrap().props["text"].clone();
        assert_eq!(
            g.client_data_model(version).unwrap()["surfaces"]["s"]["user"],
            json!({"name": "Ada", "nick": null}),
            "{version}: the agent gets back what it wrote"
        );
        // Only an absent value removes the key; the binding reads the same either way.
        assert_clean(&g.process_value(&update(Some("/user/nick"), None)));
        let s = g.surface("s").unwrap();
        assert_eq!(s.data_model()["user"], json!({"name": "Ada"}), "{version}");
        assert_eq!(s.node("root").unwrap().props["text"], text_of_null);
        // A missing key is created holding null.
        assert_clean(&g.process_value(&update(Some("/user/email"), Some(Value::Null))));
        assert_eq!(g.surface("s").unwrap().data_model()["user"], json!({"name": "Ada", "email": null}));

        // Array slots hold null either way (removing an element would shift every later item).
        assert_clean(&g.process_value(&update(Some("/items/1"), Some(Value::Null))));
        assert_clean(&g.process_value(&update(Some("/items/2"), None)));
        assert_eq!(g.surface("s").unwrap().data_model()["items"], json!([1, null, null]));

        // The root is an object: null cannot replace it (as no other non-object can); an absent
        // value still resets it to {}.
        let before = g.surface("s").unwrap().data_model().clone();
        for path in [None, Some("/")] {
            let errs = errors(&g.process_value(&update(path, Some(Value::Null))));
            assert_eq!(errs[0]["code"], "VALIDATION_FAILED", "{version} {path:?}");
            assert_eq!(errs[0]["path"], "/updateDataModel/value", "{version} {path:?}");
            assert_eq!(g.surface("s").unwrap().data_model(), &before);
        }
        assert_clean(&g.process_value(&update(None, None)));
        assert_eq!(g.surface("s").unwrap().data_model(), &json!({}));
    }
}

/// User input is not an `updateDataModel`: writing `null` from the UI clears the value (deletes
/// it), as it always has.
#[test]
fn user_input_of_null_clears_the_value() {
    let mut g = group();
    form(&mut g, true);
    g.set_value("f", "/form/name", json!("Ada")).unwrap();
    g.set_value("f", "/form/name", Value::Null).unwrap();
    assert_eq!(g.surface("f").unwrap().data_model(), &json!({"form": {}}));
}

#[test]
fn a_path_through_an_array_is_a_validation_error_naming_the_path_field() {
    let mut g = group();
    list_surface(&mut g, 1);
    let errs = errors(&g.process_value(&data("s", "/items/name", json!("x"))));
    assert_eq!(errs[0]["code"], "VALIDATION_FAILED");
    assert_eq!(errs[0]["path"], "/updateDataModel/path");
}

#[test]
fn oversized_and_malformed_messages_are_typed_errors() {
    let limits = Limits { max_message_bytes: 100, ..Limits::default() };
    let mut g = SurfaceGroup::new(CatalogRegistry::with_basic(), limits);
    let big = format!("{{\"version\":\"v0.9\",\"deleteSurface\":{{\"surfaceId\":\"{}\"}}}}", "x".repeat(200));
    assert_eq!(errors(&g.process_json(&big))[0]["code"], "LIMIT_EXCEEDED");
    assert_eq!(errors(&g.process_json("{not json"))[0]["code"], "MALFORMED_MESSAGE");
    let out = g.process_json(r#"{"version":"v0.9"}"#);
    assert_eq!(errors(&out)[0]["code"], "VALIDATION_FAILED");
}

#[test]
fn components_per_surface_limit() {
    let limits = Limits { max_components_per_surface: 3, ..Limits::default() };
    let mut g = SurfaceGroup::new(CatalogRegistry::with_basic(), limits);
    g.process_value(&create("s"));
    let many: Vec<Value> = (0..4).map(|i| json!({"id": format!("t{i}"), "component": "Divider"})).collect();
    assert_eq!(errors(&g.process_value(&components("s", Value::Array(many))))[0]["code"], "LIMIT_EXCEEDED");
}

fn form(g: &mut SurfaceGroup, send_data_model: bool) {
    g.process_value(&json!({"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": BASIC_CATALOG_ID, "sendDataModel": send_data_model}}));
    assert_clean(&g.process_value(&components(
        "f",
        json!([
            {"id": "root", "component": "Column", "children": ["name", "send", "site"]},
            {"id": "name", "component": "TextField", "label": "Name", "value": {"path": "/form/name"},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/form/name"}}, "returnType": "boolean"}, "message": "Name is required"}]},
            {"id": "send-label", "component": "Text", "text": "Send"},
            {"id": "send", "component": "Button", "child": "send-label",
             "action": {"event": {"name": "submit", "context": {"name": {"path": "/form/name"}, "source": "form"}}},
             "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/form/name"}}, "returnType": "boolean"}, "message": "Name is required"}]},
            {"id": "site-label", "component": "Text", "text": "Site"},
            {"id": "site", "component": "Button", "child": "site-label",
             "action": {"functionCall": {"call": "openUrl", "args": {"url": "https://example.com/help"}, "returnType": "void"}}}
        ]),
    )));
}

#[test]
fn checks_disable_buttons_and_show_input_messages() {
    let mut g = group();
    form(&mut g, false);
    let s = g.surface("f").unwrap();
    assert!(!s.node("send").unwrap().enabled);
    assert_eq!(s.node("name").unwrap().validation_message.as_deref(), Some("Name is required"));
    assert_eq!(&*s.node("name").unwrap().bindings[0].path, "/form/name");
    let refused = g.dispatch_action("f", "send").unwrap_err();
    assert_eq!(refused.code(), "ACTION_REFUSED");

    let out = g.set_value("f", "/form/name", json!("Ada")).unwrap();
    let mut ids = upserted_ids(&out);
    ids.sort();
    assert_eq!(ids, vec!["name", "send"]);
    assert!(g.surface("f").unwrap().node("send").unwrap().enabled);
}

#[test]
fn dispatch_action_resolves_context_at_that_moment() {
    let mut g = group();
    form(&mut g, true);
    g.set_value("f", "/form/name", json!("Ada")).unwrap();
    let outcome = g.dispatch_action("f", "send").unwrap();
    let wire = outcome.message.unwrap().to_wire();
    assert_eq!(
        wire,
        json!({"version": "v0.9", "action": {"name": "submit", "surfaceId": "f", "sourceComponentId": "send",
               "timestamp": "2026-11-30T12:00:00Z", "context": {"name": "Ada", "source": "form"}}})
    );
    assert_eq!(
        outcome.client_data_model.unwrap(),
        json!({"version": "v0.9", "surfaces": {"f": {"form": {"name": "Ada"}}}})
    );
}

/// A v1.0 surface's data model goes out as v1.0 (renderer_data_model.json: `"version": {"const":
/// "v1.0"}`), with an action and in the group's report, never under the v0.9 version string.
#[test]
fn a_v10_surface_reports_its_data_model_as_v10() {
    let mut g = group();
    let v10 = |body: Value| {
        let mut message = json!({"version": "v1.0"});
        message.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
        message
    };
    let created = g.process_value(&v10(json!({"createSurface": {
    "surfaceId": "s", "catalogId": "https://a2ui.org/catalogs/basic/v1/catalog.json", "sendDataModel": true,
    "dataModel": {"n": 1},
    "components": [
        {"id": "root", "component": "Button", "child": "label", "action": {"event": {"name": "go"}}},
        {"id": "label", "component": "Text", "text": "Go"}
    ]}})));
    assert!(created.emitted.is_empty(), "{:?}", created.emitted);
    let outcome = g.dispatch_action("s", "root").unwrap();
    assert_eq!(outcome.client_data_model.unwrap(), json!({"version": "v1.0", "surfaces": {"s": {"n": 1}}}));
    assert_eq!(g.client_data_model("v1.0").unwrap(), json!({"version": "v1.0", "surfaces": {"s": {"n": 1}}}));
    assert_eq!(g.client_data_model("v0.9"), None, "a v0.9 report holds no v1.0 surface");
}

#[test]
fn data_model_is_not_attached_without_send_data_model() {
    let mut g = group();
    form(&mut g, false);
    g.set_value("f", "/form/name", json!("Ada")).unwrap();
    assert!(g.dispatch_action("f", "send").unwrap().client_data_model.is_none());
}

#[test]
fn open_url_runs_only_from_an_action_and_only_for_allowed_schemes() {
    let mut g = group();
    form(&mut g, false);
    // Binding never opened anything: the node just advertises its action.
    assert!(g.surface("f").unwrap().node("site").unwrap().action.is_some());
    let outcome = g.dispatch_action("f", "site").unwrap();
    assert_eq!(outcome.effects, vec![Effect::OpenUrl("https://example.com/help".into())]);
    assert!(outcome.message.is_none());

    let mut strict = group().with_url_policy(UrlPolicy { allowed_schemes: vec!["myapp".into()] });
    form(&mut strict, false);
    assert_eq!(strict.dispatch_action("f", "site").unwrap_err().code(), "ACTION_REFUSED");
}

/// The basic catalog's implementation guide makes an http/https allowlist mandatory for
/// `openUrl`; a policy that allows more schemes (for media, say) does not widen it.
#[test]
fn open_url_opens_only_http_and_https_even_when_the_policy_allows_more() {
    let policy = UrlPolicy { allowed_schemes: ["https", "http", "mailto", "myapp", "tel"].map(String::from).to_vec() };
    let mut g = group().with_url_policy(policy);
    g.process_value(&create("u"));
    let urls = [
        ("https", json!("https://example.com/help"), true),
        ("http-upper", json!("HTTP://example.com/x"), true),
        ("mailto", json!("mailto:help@example.com"), false),
        ("custom", json!("myapp://settings"), false),
        ("tel", json!("tel:+15550100"), false),
        ("javascript", json!("javascript:alert(1)"), false),
    ];
    let mut list = vec![json!({"id": "root", "component": "Column",
        "children": urls.iter().map(|(id, _, _)| *id).chain(["pic"]).collect::<Vec<_>>()})];
    for (id, url, _) in &urls {
        list.push(json!({"id": format!("{id}-label"), "component": "Text", "text": id}));
        list.push(json!({"id": id, "component": "Button", "child": format!("{id}-label"),
            "action": {"functionCall": {"call": "openUrl", "args": {"url": url}, "returnType": "void"}}}));
    }
    // Media keep the policy's schemes.
    list.push(json!({"id": "pic", "component": "Image", "url": "myapp://images/logo.png"}));
    assert_clean(&g.process_value(&components("u", Value::Array(list))));
    assert_eq!(g.surface("u").unwrap().node("pic").unwrap().props["url"], "myapp://images/logo.png");

    for (id, url, opens) in urls {
        match g.dispatch_action("u", id) {
            Ok(outcome) if opens => {
                assert_eq!(outcome.effects, vec![Effect::OpenUrl(url.as_str().unwrap().to_owned())], "{id}");
                assert!(outcome.message.is_none());
            }
            Err(error) if !opens => assert_eq!(error.code(), "ACTION_REFUSED", "{id}: {error}"),
            other => panic!("{id}: {other:?}"),
        }
    }
}

#[test]
fn actions_in_template_instances_use_the_item_scope() {
    let mut g = group();
    g.process_value(&create("s"));
    g.process_value(&data("s", "/items", json!([{"id": "a"}, {"id": "b"}])));
    assert_clean(&g.process_value(&components(
        "s",
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "buy", "path": "/items"}},
            {"id": "label", "component": "Text", "text": {"path": "id"}},
            {"id": "buy", "component": "Button", "child": "label", "action": {"event": {"name": "buy", "context": {"item": {"path": "id"}}}}}
        ]),
    )));
    let message = g.dispatch_action("s", "buy@/items/1").unwrap().message.unwrap().to_wire();
    assert_eq!(message["action"]["context"]["item"], "b");
    assert_eq!(message["action"]["sourceComponentId"], "buy@/items/1");
}

#[test]
fn v08_messages_drive_the_same_engine() {
    let mut g = group();
    let out = g.process_value(&json!({"surfaceUpdate": {"surfaceId": "old", "components": [
        {"id": "greeting", "component": {"Text": {"text": {"path": "/who"}}}}
    ]}}));
    assert_clean(&out);
    assert_clean(&g.process_value(
        &json!({"dataModelUpdate": {"surfaceId": "old", "contents": [{"key": "who", "valueString": "world"}]}}),
    ));
    assert_clean(&g.process_value(&json!({"beginRendering": {"surfaceId": "old", "root": "greeting"}})));
    let s = g.surface("old").unwrap();
    assert_eq!(s.root_id(), "greeting");
    assert_eq!(s.node("greeting").unwrap().props["text"], "world");
}

#[test]
fn media_urls_outside_the_scheme_policy_never_reach_the_renderer() {
    let mut g = group();
    g.process_value(&create("m"));
    g.process_value(&data("m", "/pic", json!("javascript:alert(1)")));
    assert_clean(&g.process_value(&components(
        "m",
        json!([
            {"id": "root", "component": "Column", "children": ["ok", "bad", "bound"]},
            {"id": "ok", "component": "Image", "url": "https://example.com/a.png"},
            {"id": "bad", "component": "Video", "url": "file:///etc/passwd"},
            {"id": "bound", "component": "Image", "url": {"path": "/pic"}}
        ]),
    )));
    let s = g.surface("m").unwrap();
    assert_eq!(s.node("ok").unwrap().props["url"], "https://example.com/a.png");
    assert_eq!(s.node("bad").unwrap().props["url"], Value::Null);
    assert_eq!(s.node("bound").unwrap().props["url"], Value::Null);
    // A later write of an allowed URL shows up.
    g.process_value(&data("m", "/pic", json!("https://example.com/b.png")));
    assert_eq!(g.surface("m").unwrap().node("bound").unwrap().props["url"], "https://example.com/b.png");
}

#[test]
fn validation_regexp_is_a_whole_value_check_run_in_linear_time() {
    let mut g = group();
    assert_clean(&g.process_value(&create("z")));
    assert_clean(&g.process_value(&components(
        "z",
        json!([
            {"id": "root", "component": "Column", "children": ["zip", "word"]},
            {"id": "zip", "component": "TextField", "label": "ZIP", "value": {"path": "/zip"}, "validationRegexp": "[0-9]{5}"},
            // Exponential on a backtracking engine; linear here.
            {"id": "word", "component": "TextField", "label": "Word", "value": {"path": "/word"}, "validationRegexp": "(a+)+"}
        ]),
    )));
    let message = |g: &SurfaceGroup, id: &str| g.surface("z").unwrap().node(id).unwrap().validation_message.clone();
    assert_eq!(message(&g, "zip").as_deref(), Some(agentui_a2ui::component::VALIDATION_REGEXP_MESSAGE));

    g.set_value("z", "/zip", json!("75001")).unwrap();
    assert_eq!(message(&g, "zip"), None);
    // Anchored: a match inside a longer value is not enough.
    g.set_value("z", "/zip", json!("750012")).unwrap();
    assert!(message(&g, "zip").is_some());

    let hostile = format!("{}b", "a".repeat(5_000));
    g.set_value("z", "/word", json!(hostile)).unwrap();
    assert!(message(&g, "word").is_some());
    g.set_value("z", "/word", json!("aaaa")).unwrap();
    assert_eq!(message(&g, "word"), None);
}

#[test]
fn text_markdown_is_bounded_by_the_surface_limits() {
    use agentui_markdown::{MarkdownLimits, MdBlock, PlainReason};

    let text = "> > nested\n\n| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n";
    let tree = |limits: Limits| {
        let mut g = SurfaceGroup::new(CatalogRegistry::with_basic(), limits);
        assert_clean(&g.process_value(&create("s")));
        assert_clean(&g.process_value(&components("s", json!([{"id": "root", "component": "Text", "text": text}]))));
        g.surface("s").unwrap().node("root").unwrap().markdown.clone().expect("a Text has a tree")
    };
    let roomy = tree(Limits::default());
    assert!(matches!(&roomy[0], MdBlock::Quote { blocks } if matches!(blocks[0], MdBlock::Quote { .. })));
    assert!(matches!(roomy[1], MdBlock::Table { .. }));

    let small = MarkdownLimits { max_depth: 1, max_table_cells: 5, ..MarkdownLimits::default() };
    let bounded = tree(Limits { markdown: small, ..Limits::default() });
    let MdBlock::Quote { blocks } = &bounded[0] else { panic!("{bounded:?}") };
    assert!(matches!(&blocks[0], MdBlock::PlainText { reason: PlainReason::TooDeep, text } if text.contains("nested")));
    assert!(
        matches!(&bounded[1], MdBlock::PlainText { reason: PlainReason::TooManyCells, text } if text.contains("| 3 |"))
    );
}
