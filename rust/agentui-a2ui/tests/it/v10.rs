//! A2UI v1.0 through the engine: the version strings, the messages, the reserved `@` keys and
//! the August form accepted beside them, and the basic catalog v1.

use crate::common::{assert_clean, errors};

use agentui_a2ui::catalog::{BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID};
use agentui_a2ui::wire::v09::ClientMessage;
use agentui_a2ui::{Outcome, SurfaceGroup};
use serde_json::{json, Value};

fn v10(key: &str, body: Value) -> Value {
    json!({"version": "v1.0", key: body})
}

fn create_with(id: &str, components: Value) -> Value {
    v10("createSurface", json!({"surfaceId": id, "catalogId": BASIC_V1_CATALOG_ID, "components": components}))
}

fn text(id: &str, value: Value) -> Value {
    json!({"id": id, "component": "Text", "text": value})
}

fn prop(group: &SurfaceGroup, surface: &str, node: &str, name: &str) -> Option<Value> {
    group.surface(surface)?.node(node)?.props.get(name).cloned()
}

/// The (pointer, code) of the only error sent back.
fn only_error(outcome: &Outcome) -> (String, String) {
    let errors = errors(outcome);
    assert_eq!(errors.len(), 1, "{errors:?}");
    (errors[0]["path"].as_str().unwrap_or_default().to_owned(), errors[0]["code"].as_str().unwrap().to_owned())
}

#[test]
fn both_version_strings_are_v10() {
    for version in ["1.0", "v1.0"] {
        let mut group = SurfaceGroup::default();
        let mut create = create_with("s", json!([text("root", json!("hi"))]));
        create["version"] = Value::from(version);
        assert_clean(&group.process_value(&create));
        assert_eq!(prop(&group, "s", "root", "text"), Some(json!("hi")), "{version}");
    }
}

#[test]
fn create_surface_carries_components_and_data_model_inline_and_no_theme() {
    let mut group = SurfaceGroup::default();
    let create = v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
               "dataModel": {"name": "Ada"},
               "components": [text("root", json!({"@path": "/name"}))]}),
    );
    let outcome = group.process_value(&create);
    assert_clean(&outcome);
    assert_eq!(prop(&group, "s", "root", "text"), Some(json!("Ada")));

    let themed = v10("createSurface", json!({"surfaceId": "t", "catalogId": BASIC_V1_CATALOG_ID, "theme": {}}));
    let outcome = group.process_value(&themed);
    assert_eq!(only_error(&outcome), ("/createSurface/theme".to_owned(), "VALIDATION_FAILED".to_owned()));
    // A v1.0 agent is answered in v1.0.
    assert_eq!(outcome.emitted[0].to_wire()["version"], "v1.0");
    assert!(group.surface("t").is_none());
}

/// v1.0: `null` deletes the key and `value` is required. v0.9: an omitted value deletes and
/// `null` is stored. The same words, opposite effects, so the rule is per version.
#[test]
fn null_deletes_in_v10_and_is_stored_in_v09() {
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "dataModel": {"a": 1, "b": 2}}),
    )));
    assert_clean(&group.process_value(&v10("updateDataModel", json!({"surfaceId": "s", "path": "/a", "value": null}))));
    assert_eq!(group.surface("s").unwrap().data_model(), &json!({"b": 2}));
    let missing = group.process_value(&v10("updateDataModel", json!({"surfaceId": "s", "path": "/b"})));
    assert_eq!(only_error(&missing).0, "/updateDataModel/value");
    assert_eq!(group.surface("s").unwrap().data_model(), &json!({"b": 2}));

    assert_clean(&group.process_value(
        &json!({"version": "v0.9", "createSurface": {"surfaceId": "o", "catalogId": BASIC_CATALOG_ID}}),
    ));
    let v09 = |body: Value| json!({"version": "v0.9", "updateDataModel": body});
    assert_clean(&group.process_value(&v09(json!({"surfaceId": "o", "path": "/a", "value": 1}))));
    assert_clean(&group.process_value(&v09(json!({"surfaceId": "o", "path": "/a", "value": null}))));
    assert_eq!(group.surface("o").unwrap().data_model(), &json!({"a": null}));
    assert_clean(&group.process_value(&v09(json!({"surfaceId": "o", "path": "/a"}))));
    assert_eq!(group.surface("o").unwrap().data_model(), &json!({}));
}

#[test]
fn at_keys_bind_call_and_escape() {
    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
               "dataModel": {"n": 3, "name": "Ada"},
               "components": [
                   {"id": "root", "component": "Column", "children": ["a", "b", "c"]},
                   text("a", json!({"@call": "formatString", "args": {"value": "${/name} has ${/n}"}, "returnType": "string"})),
                   {"id": "b", "component": "Button", "child": "c",
                    "action": {"event": {"name": "go", "context": {"lit": {"@@path": "/not-bound"}, "n": {"@path": "/n"}}}}},
                   text("c", json!("ok")),
               ]}),
    ));
    assert_clean(&outcome);
    assert_eq!(prop(&group, "s", "a", "text"), Some(json!("Ada has 3")));
    let action = group.dispatch_action("s", "b").unwrap().message.unwrap();
    let ClientMessage::Action(action) = action else { panic!("not an action") };
    // `@@path` is the literal key `@path`, never a binding; `@path` is one.
    assert_eq!(Value::Object(action.context), json!({"lit": {"@path": "/not-bound"}, "n": 3}));
}

#[test]
fn unknown_single_at_keys_are_refused_with_their_pointer() {
    let cases = [
        (text("root", json!({"@pth": "/x"})), "/createSurface/components/0/text/@pth"),
        (json!({"id": "root", "component": "Text", "text": "x", "@style": 1}), "/createSurface/components/0/@style"),
        (text("root", json!({"@path": "/x", "extra": 1})), "/createSurface/components/0/text/extra"),
        (text("root", json!({"@path": 7})), "/createSurface/components/0/text/@path"),
        (
            json!({"id": "root", "component": "Text", "text": "x", "@checks": [], "checks": []}),
            "/createSurface/components/0/checks",
        ),
    ];
    for (component, pointer) in cases {
        let mut group = SurfaceGroup::default();
        let outcome = group.process_value(&create_with("s", json!([component])));
        assert_eq!(only_error(&outcome), (pointer.to_owned(), "VALIDATION_FAILED".to_owned()), "{component}");
        assert!(group.surface("s").is_none(), "a refused message creates nothing");
    }
}

/// The rule the README states: a typed dynamic property holding `{"path": …}` (the August form)
/// can only be a binding; a free-form value holding it (the data model, metadata) is data.
#[test]
fn bare_path_is_a_binding_in_a_typed_property_and_data_in_a_free_form_value() {
    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
        "dataModel": {"name": "Ada", "card": {"path": "/name"}},
        "components": [
            {"id": "root", "component": "Column", "children": ["typed", "data"],
             "metadata": {"extensions": {"vendor": {"path": "/name"}}}},
            text("typed", json!({"path": "/name"})),
            {"id": "data", "component": "Button", "child": "typed",
             "action": {"event": {"name": "go", "context": {"card": {"@path": "/card"}}}}},
        ]}),
    ));
    assert_clean(&outcome);
    assert_eq!(prop(&group, "s", "typed", "text"), Some(json!("Ada")));
    // Stored as written, and read back as the literal object it is.
    assert_eq!(group.surface("s").unwrap().data_model()["card"], json!({"path": "/name"}));
    let ClientMessage::Action(action) = group.dispatch_action("s", "data").unwrap().message.unwrap() else {
        panic!("not an action")
    };
    assert_eq!(action.context["card"], json!({"path": "/name"}));
    // Metadata is never resolved: it does not reach the node.
    assert_eq!(prop(&group, "s", "root", "metadata"), None);

    // An updateDataModel value is data too.
    assert_clean(&group.process_value(&v10(
        "updateDataModel",
        json!({"surfaceId": "s", "path": "/name", "value": {"path": "/card"}}),
    )));
    assert_eq!(prop(&group, "s", "typed", "text"), Some(json!({"path": "/card"})));
}

#[test]
fn a_component_may_come_from_another_registered_v10_catalog() {
    let charts = || {
        let catalog = agentui_a2ui::catalog::Catalog::from_json(&json!({
            "catalogId": "charts", "protocolVersion": "1.0",
            "components": {"LineChart": {"type": "object", "properties": {
                "id": {"type": "string"}, "catalogId": {"type": "string"},
                "data": {"type": "string"}}, "required": ["id", "data"], "additionalProperties": false}},
        }))
        .unwrap();
        let mut group = SurfaceGroup::default();
        group.catalogs_mut().register(std::sync::Arc::new(catalog));
        group
    };
    let components = json!([
        {"id": "root", "component": "Column", "children": ["t", "chart"]},
        text("t", json!("Sales")),
        {"id": "chart", "@catalogId": "charts", "component": "LineChart", "data": "/series"},
    ]);
    let mut group = charts();
    assert_clean(&group.process_value(&create_with("s", components.clone())));
    let surface = group.surface("s").unwrap();
    let chart = surface.node("chart").unwrap();
    assert_eq!(chart.component_type.as_ref(), "LineChart");
    assert_eq!(chart.props.get("data"), Some(&json!("/series")));
    assert!(chart.props.get("catalogId").is_none(), "where it comes from is no property");
    // It is validated by its own catalog, and a component of the default catalog by that one.
    let mut wrong = components.clone();
    wrong[2]["data"] = json!(5);
    assert_eq!(only_error(&charts().process_value(&create_with("s", wrong))).0, "/createSurface/components/2/data");
    let mut unnamed = components.clone();
    unnamed[2].as_object_mut().unwrap().remove("@catalogId");
    assert_eq!(
        only_error(&charts().process_value(&create_with("s", unnamed))).0,
        "/createSurface/components/2/component"
    );
    // An exported surface says where each component comes from, so it restores.
    let mut restored = charts();
    assert_clean(&restored.restore_surface(surface.export()).unwrap());
    assert_eq!(restored.surface("s").unwrap().node("chart"), Some(chart));
}

#[test]
fn component_catalog_must_be_registered_and_of_the_surface_version() {
    let mut group = SurfaceGroup::default();
    let ok = json!({"id": "root", "component": "Text", "text": "x", "@catalogId": "https://a2ui.org/catalogs/basic/v1/catalog.json",
                    "@accessibility": {"label": "Greeting"}});
    assert_clean(&group.process_value(&create_with("s", json!([ok]))));
    let node = group.surface("s").unwrap().node("root").unwrap();
    assert_eq!(node.accessibility.as_ref().and_then(|a| a.label.as_deref()), Some("Greeting"));

    for other in [BASIC_CATALOG_ID, "https://example.com/unknown.json"] {
        let mut group = SurfaceGroup::default();
        let wrong = json!({"id": "root", "component": "Text", "text": "x", "catalogId": other});
        let outcome = group.process_value(&create_with("s", json!([wrong])));
        assert_eq!(only_error(&outcome).0, "/createSurface/components/0/catalogId", "{other}");
        assert!(!group.surface("s").unwrap().has_root(), "nothing falls back to another catalog");
    }
}

#[test]
fn agent_calls_to_renderer_functions_are_refused_and_change_nothing() {
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&create_with("s", json!([text("root", json!("x"))]))));
    for (name, catalog) in [("openUrl", BASIC_V1_CATALOG_ID), ("nope", BASIC_V1_CATALOG_ID), ("openUrl", "unknown")] {
        let call = v10(
            "callRendererFunction",
            json!({"functionCallId": "c1", "callFunction": {"@call": name, "catalogId": catalog, "args": {"url": "https://a.b"}}}),
        );
        let outcome = group.process_value(&call);
        assert!(outcome.events.is_empty());
        let wire: Vec<Value> = outcome.emitted.iter().map(ClientMessage::to_wire).collect();
        assert_eq!(wire.len(), 1);
        assert_eq!(wire[0]["version"], "v1.0");
        let response = &wire[0]["rendererFunctionResponse"];
        assert_eq!(response["functionCallId"], "c1");
        assert_eq!(response["error"]["code"], "INVALID_FUNCTION_CALL", "{name} in {catalog}");
        assert!(response.get("value").is_none());
    }
    let no_id = group
        .process_value(&v10("callRendererFunction", json!({"callFunction": {"call": "openUrl", "catalogId": "x"}})));
    assert_eq!(only_error(&no_id).0, "/callRendererFunction/functionCallId");
}

#[test]
fn basic_catalog_v1_differs_from_v09_where_the_spec_says() {
    // Headings are Markdown in v1: the h1 variant is gone.
    let mut group = SurfaceGroup::default();
    let h1 = json!({"id": "root", "component": "Text", "text": "# T", "variant": "h1"});
    assert_eq!(
        only_error(&group.process_value(&create_with("s", json!([h1.clone()])))).0,
        "/createSurface/components/0/variant"
    );
    let v09 = |key: &str, body: Value| json!({"version": "v0.9", key: body});
    assert_clean(&group.process_value(&v09("createSurface", json!({"surfaceId": "o", "catalogId": BASIC_CATALOG_ID}))));
    assert_clean(&group.process_value(&v09("updateComponents", json!({"surfaceId": "o", "components": [h1]}))));

    // New in v1: placeholder, steps, posterUrl; not in the v0.9 catalog.
    let new_props = [
        json!({"id": "root", "component": "TextField", "label": "Name", "placeholder": "Ada"}),
        json!({"id": "root", "component": "Slider", "max": 10, "value": 1, "steps": 5}),
        json!({"id": "root", "component": "Video", "url": "https://a.b/v.mp4", "posterUrl": "https://a.b/p.png"}),
    ];
    for component in new_props {
        let mut group = SurfaceGroup::default();
        assert_clean(&group.process_value(&create_with("s", json!([component.clone()]))));
        assert_clean(
            &group.process_value(&v09("createSurface", json!({"surfaceId": "o", "catalogId": BASIC_CATALOG_ID}))),
        );
        let outcome =
            group.process_value(&v09("updateComponents", json!({"surfaceId": "o", "components": [component]})));
        assert_eq!(errors(&outcome).len(), 1, "the v0.9 catalog has no such property");
    }
    let mut group = SurfaceGroup::default();
    let zero_steps = json!({"id": "root", "component": "Slider", "max": 10, "value": 1, "steps": 0});
    assert_eq!(
        only_error(&group.process_value(&create_with("s", json!([zero_steps])))).0,
        "/createSurface/components/0/steps"
    );
}

#[test]
fn metadata_extension_keys_are_unicode_identifiers() {
    for (key, ok) in [("vendor_x", true), ("_x", true), ("été", true), ("1x", false), ("a-b", false), ("", false)] {
        let mut group = SurfaceGroup::default();
        let component = json!({"id": "root", "component": "Text", "text": "x", "@metadata": {"extensions": {key: 1}}});
        let outcome = group.process_value(&create_with("s", json!([component])));
        assert_eq!(errors(&outcome).is_empty(), ok, "{key:?}: {:?}", errors(&outcome));
    }
}

#[test]
fn index_gives_the_template_item_position_and_is_refused_outside_a_template() {
    let index = json!({"@call": "@index", "args": {"offset": 1}});
    // Outside a template `@index` has no value: a component drawn there that calls it is refused
    // on arrival, with its pointer, and nothing is drawn.
    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
        "components": [{"id": "root", "component": "Slider", "max": 10, "value": index}]}),
    ));
    assert_eq!(only_error(&outcome), ("/createSurface/components/0".to_owned(), "VALIDATION_FAILED".to_owned()));
    // Also below the root through plain children, and when it arrives after its parent; the
    // August form (`call`) is the same call.
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&create_with(
        "s",
        json!([{"id": "root", "component": "Column", "children": ["a"]}, text("a", json!("A"))]),
    )));
    let bare = json!({"id": "a", "component": "Column", "children": ["b"]});
    let b = json!({"id": "b", "component": "Slider", "max": 10, "value": {"call": "@index"}});
    let outcome = group.process_value(&v10("updateComponents", json!({"surfaceId": "s", "components": [bare, b]})));
    assert_eq!(only_error(&outcome), ("/updateComponents/components/1".to_owned(), "VALIDATION_FAILED".to_owned()));
    assert_eq!(group.surface("s").unwrap().node("a").unwrap().component_type.as_ref(), "Text");
    // Not drawn yet (no parent holds it): nothing to judge.
    let loose = json!({"id": "loose", "component": "Slider", "max": 10, "value": index});
    assert_clean(&group.process_value(&v10("updateComponents", json!({"surfaceId": "s", "components": [loose]}))));

    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
        "dataModel": {"items": ["a", "b", "c"]},
        "components": [
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/items"}},
            {"id": "row", "component": "Slider", "max": 10, "value": {"@call": "@index", "args": {"offset": 1}}},
        ]}),
    ));
    assert_clean(&outcome);
    let surface = group.surface("s").unwrap();
    let values: Vec<Value> = surface
        .node("root")
        .unwrap()
        .children
        .iter()
        .map(|id| surface.node(id).unwrap().props.get("value").cloned().unwrap())
        .collect();
    assert_eq!(values, [json!(1), json!(2), json!(3)]);

    let bad_offset =
        json!({"id": "root", "component": "Slider", "max": 10, "value": {"@call": "@index", "args": {"offset": "1"}}});
    assert_eq!(
        only_error(&SurfaceGroup::default().process_value(&create_with("s", json!([bad_offset])))).1,
        "VALIDATION_FAILED"
    );
}

#[test]
fn function_catalogs_follow_the_component_rule() {
    let call = |catalog: &str| json!({"@call": "formatString", "args": {"value": "x"}, "catalogId": catalog});
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&create_with("s", json!([text("root", call(BASIC_V1_CATALOG_ID))]))));
    assert_eq!(prop(&group, "s", "root", "text"), Some(json!("x")));
    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&create_with("s", json!([text("root", call(BASIC_CATALOG_ID))])));
    assert_eq!(only_error(&outcome).0, "/createSurface/components/0/text/catalogId");
    let index = json!({"@call": "@index", "catalogId": BASIC_V1_CATALOG_ID});
    let outcome = SurfaceGroup::default()
        .process_value(&create_with("s", json!([{"id": "root", "component": "Slider", "max": 1, "value": index}])));
    assert_eq!(only_error(&outcome).0, "/createSurface/components/0/value/catalogId");
}

#[test]
fn accessibility_live_and_hidden_reach_the_node() {
    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "dataModel": {"quiet": true},
               "components": [{"id": "root", "component": "Text", "text": "3 new",
                               "@accessibility": {"live": "polite", "hidden": {"@path": "/quiet"}}}]}),
    ));
    assert_clean(&outcome);
    let a11y = |group: &SurfaceGroup| group.surface("s").unwrap().node("root").unwrap().accessibility.clone().unwrap();
    assert_eq!(a11y(&group).live.as_deref(), Some("polite"));
    assert_eq!(a11y(&group).hidden, Some(true));
    assert_clean(
        &group.process_value(&v10("updateDataModel", json!({"surfaceId": "s", "path": "/quiet", "value": false}))),
    );
    assert_eq!(a11y(&group).hidden, Some(false), "hidden follows its binding");

    let loud = json!({"id": "root", "component": "Text", "text": "x", "accessibility": {"live": "loud"}});
    let outcome = SurfaceGroup::default().process_value(&create_with("s", json!([loud])));
    assert_eq!(only_error(&outcome).0, "/createSurface/components/0/accessibility/live");
}

/// A store keeps a surface as the messages that recreate it (`Surface::export`); a v1.0 surface
/// comes back the same, literal `@` keys included.
#[test]
fn v10_surface_survives_export_and_restore() {
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "dataModel": {"name": "Ada"},
        "components": [
            {"id": "root", "component": "Column", "children": ["t", "b"]},
            text("t", json!({"@path": "/name"})),
            {"id": "b", "component": "Button", "child": "t",
             "action": {"event": {"name": "go", "context": {"lit": {"@@path": "/x"}}}}},
        ]}),
    )));
    let exported = group.surface("s").unwrap().export();
    let mut restored = SurfaceGroup::default();
    assert_clean(&restored.restore_surface(exported).unwrap());
    let before = group.surface("s").unwrap().nodes().into_iter().cloned().collect::<Vec<_>>();
    let after = restored.surface("s").unwrap().nodes().into_iter().cloned().collect::<Vec<_>>();
    assert_eq!(before, after);
    let ClientMessage::Action(action) = restored.dispatch_action("s", "b").unwrap().message.unwrap() else {
        panic!("not an action")
    };
    assert_eq!(action.context["lit"], json!({"@path": "/x"}));
}

#[test]
fn v10_action_carries_its_user_message_and_v09_has_none() {
    let b = json!({"id": "b", "component": "Button", "child": "c",
        "action": {"event": {"name": "buy", "userMessage": {"@call": "formatString",
            "args": {"value": "Bought ${/qty} for ${/who}"}, "returnType": "string"}}}});
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "dataModel": {"qty": 2, "who": "Ada"},
               "components": [{"id": "root", "component": "Column", "children": ["b"]}, b, text("c", json!("Buy"))]}),
    )));
    let message = group.dispatch_action("s", "b").unwrap().message.unwrap();
    let wire = message.to_wire();
    assert_eq!(wire["version"], "v1.0");
    assert_eq!(wire["action"]["userMessage"], "Bought 2 for Ada");
    assert_eq!(wire["action"]["name"], "buy");

    // v0.9 has no userMessage: the v0.9 schema refuses it, and a v0.9 action is written without.
    let mut group = SurfaceGroup::default();
    group
        .process_value(&json!({"version": "v0.9", "createSurface": {"surfaceId": "t", "catalogId": BASIC_CATALOG_ID}}));
    let outcome =
        group.process_value(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "t", "components": [
        {"id": "root", "component": "Button", "child": "c", "action": {"event": {"name": "buy", "userMessage": "x"}}},
        text("c", json!("Buy"))]}}));
    assert_eq!(errors(&outcome).len(), 1);
    group.process_value(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "t", "components": [
        {"id": "root", "component": "Button", "child": "c", "action": {"event": {"name": "buy"}}},
        text("c", json!("Buy"))]}}));
    let wire = group.dispatch_action("t", "root").unwrap().message.unwrap().to_wire();
    assert_eq!(wire["version"], "v0.9");
    assert!(wire["action"].get("userMessage").is_none());
}

/// renderer_to_agent.json's `action.metadata.extensions`: what the app attaches at dispatch
/// reaches the agent; a key that is no Unicode identifier, or metadata for a v0.9 action (which
/// has no such field), is refused rather than sent or dropped.
#[test]
fn v10_action_carries_the_apps_metadata_extensions() {
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID,
               "components": [{"id": "root", "component": "Button", "child": "c", "action": {"event": {"name": "go"}}},
                              text("c", json!("Go"))]}),
    )));
    let extensions = |key: &str| {
        let mut map = serde_json::Map::new();
        map.insert(key.into(), json!({"signature": "abc123token"}));
        map
    };
    let wire = group
        .dispatch_action_with_extensions("s", "root", extensions("client_audit"))
        .unwrap()
        .message
        .unwrap()
        .to_wire();
    assert_eq!(wire["action"]["metadata"], json!({"extensions": {"client_audit": {"signature": "abc123token"}}}));
    // None attached: no `metadata` at all.
    let wire = group.dispatch_action("s", "root").unwrap().message.unwrap().to_wire();
    assert!(wire["action"].get("metadata").is_none(), "{wire}");
    let err = group.dispatch_action_with_extensions("s", "root", extensions("invalid.key")).unwrap_err();
    assert_eq!(err.code(), "ACTION_REFUSED", "{err}");

    let mut group = SurfaceGroup::default();
    group
        .process_value(&json!({"version": "v0.9", "createSurface": {"surfaceId": "t", "catalogId": BASIC_CATALOG_ID}}));
    group.process_value(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "t", "components": [
        {"id": "root", "component": "Button", "child": "c", "action": {"event": {"name": "go"}}}, text("c", json!("Go"))]}}));
    let err = group.dispatch_action_with_extensions("t", "root", extensions("client_audit")).unwrap_err();
    assert!(err.to_string().contains("v1.0 only"), "{err}");
    assert!(group.dispatch_action("t", "root").unwrap().message.is_some());
}

/// renderer_to_agent.json's `callAgentFunction` and its `agentFunctionResponse`: the answer is
/// handed over once, by its `functionCallId`; an answer to no waiting call, a duplicate id, a
/// call naming no function and a v0.9 surface change nothing or are refused.
#[test]
fn call_agent_function_is_answered_by_its_call_id() {
    let mut group = SurfaceGroup::default();
    assert_clean(
        &group.process_value(&v10("createSurface", json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID}))),
    );
    let call = json!({"call": "queryInventory", "args": {"sku": "X-1"}});
    let wire = group.call_agent_function("s", "c1", call.clone()).unwrap().to_wire();
    assert_eq!(
        wire,
        json!({"version": "v1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": "c1", "callFunction": call}})
    );
    assert!(group.call_agent_function("s", "c1", call.clone()).is_err(), "c1 already waits");
    assert!(group.call_agent_function("s", "c2", json!({"args": {}})).is_err(), "no function named");

    let answer = json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "c1", "value": {"inStock": 3}}});
    let stray = json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "zz", "value": 1}});
    assert!(group.process_value(&stray).agent_function_responses.is_empty());
    let outcome = group.process_value(&answer);
    assert_eq!(outcome.agent_function_responses.len(), 1);
    assert_eq!(outcome.agent_function_responses[0].function_call_id, "c1");
    assert_eq!(outcome.agent_function_responses[0].result, Ok(json!({"inStock": 3})));
    assert!(outcome.emitted.is_empty());
    // Answered once: the same answer again is stray, and the id may be used again.
    assert!(group.process_value(&answer).agent_function_responses.is_empty());
    assert!(group.call_agent_function("s", "c1", call.clone()).is_ok());

    // At most MAX_PENDING_AGENT_CALLS wait.
    for i in 1..agentui_a2ui::group::MAX_PENDING_AGENT_CALLS {
        group.call_agent_function("s", &format!("n{i}"), call.clone()).unwrap();
    }
    assert!(group.call_agent_function("s", "one-too-many", call.clone()).is_err());
    // A call the host gave up on frees its slot, and its late answer is stray.
    assert_eq!(group.pending_agent_calls(), agentui_a2ui::group::MAX_PENDING_AGENT_CALLS);
    assert!(group.forget_agent_call("n1"));
    assert!(!group.forget_agent_call("n1"), "forgotten once");
    assert_eq!(group.pending_agent_calls(), agentui_a2ui::group::MAX_PENDING_AGENT_CALLS - 1);
    let late = json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "n1", "value": 1}});
    assert!(group.process_value(&late).agent_function_responses.is_empty());
    assert!(group.call_agent_function("s", "one-more", call.clone()).is_ok());

    let mut group = SurfaceGroup::default();
    group
        .process_value(&json!({"version": "v0.9", "createSurface": {"surfaceId": "t", "catalogId": BASIC_CATALOG_ID}}));
    assert!(group.call_agent_function("t", "c1", call).unwrap_err().to_string().contains("not v1.0"));
}

#[test]
fn checks_give_structured_results_in_v10_and_booleans_in_v09() {
    let field = |checks: Value| json!({"id": "f", "component": "TextField", "label": "Email", "value": {"@path": "/email"}, "checks": checks});
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "dataModel": {"email": "nope", "age": 15},
               "components": [
                   {"id": "root", "component": "Column", "children": ["f", "g", "b"]},
                   field(json!([{"condition": {"@call": "email", "args": {"value": {"@path": "/email"}}}}])),
                   {"id": "g", "component": "TextField", "label": "Age", "value": {"@path": "/age"},
                    "checks": [{"condition": {"@call": "numeric", "args": {"value": {"@path": "/age"}, "min": 18}}, "message": "18 or older"}]},
                   // A warning (a result from data) is shown and does not disable the button.
                   {"id": "b", "component": "Button", "child": "c", "action": {"event": {"name": "go"}},
                    "checks": [{"condition": {"@path": "/advice"}, "message": "fallback"},
                               {"condition": {"@call": "not", "args": {"value": {"@call": "email", "args": {"value": "a@b.co"}}}}, "message": "never"}]},
                   text("c", json!("Go")),
               ]}),
    )));
    let surface = group.surface("s").unwrap();
    let f = &surface.node("f").unwrap().checks[0];
    assert!(!f.passed);
    assert_eq!(f.code.as_deref(), Some("INVALID_EMAIL"));
    assert!(f.message.starts_with("Please enter a valid email"), "{}", f.message);
    let g = &surface.node("g").unwrap().checks[0];
    assert_eq!((g.passed, g.code.as_deref(), g.message.as_str()), (false, None, "18 or older"));
    assert_eq!(g.severity, agentui_a2ui::node::Severity::Error);
    // `not` over a passing email result (`true`) is false: the second check fails.
    let b = surface.node("b").unwrap();
    assert!(!b.checks[1].passed);
    assert!(!b.enabled);

    group.process_value(&v10(
        "updateDataModel",
        json!({"surfaceId": "s", "path": "/advice",
        "value": {"valid": false, "message": "Consider a work address", "severity": "warning"}}),
    ));
    let b = group.surface("s").unwrap().node("b").unwrap();
    assert_eq!(b.checks[0].severity, agentui_a2ui::node::Severity::Warning);
    assert_eq!(b.checks[0].message, "Consider a work address");
    // Still disabled by the failing error-severity check, not by the warning.
    assert!(!b.enabled);
    group.process_value(&v10(
        "updateComponents",
        json!({"surfaceId": "s", "components": [
        {"id": "b", "component": "Button", "child": "c", "action": {"event": {"name": "go"}},
         "checks": [{"condition": {"@path": "/advice"}, "message": "fallback"}]}]}),
    ));
    let b = group.surface("s").unwrap().node("b").unwrap();
    assert!(!b.checks[0].passed && b.enabled, "a warning does not disable: {b:?}");

    // v0.9: email is a boolean; the rule's message, no code.
    let mut group = SurfaceGroup::default();
    group
        .process_value(&json!({"version": "v0.9", "createSurface": {"surfaceId": "t", "catalogId": BASIC_CATALOG_ID}}));
    group.process_value(&json!({"version": "v0.9", "updateDataModel": {"surfaceId": "t", "value": {"email": "nope"}}}));
    assert_clean(&group.process_value(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "t", "components": [
        {"id": "root", "component": "TextField", "label": "Email", "value": {"path": "/email"},
         "checks": [{"condition": {"call": "email", "args": {"value": {"path": "/email"}}}, "message": "Bad email"}]}]}})));
    let check = &group.surface("t").unwrap().node("root").unwrap().checks[0];
    assert_eq!((check.passed, check.code.as_deref(), check.message.as_str()), (false, None, "Bad email"));
}

fn composition_catalog() -> std::sync::Arc<agentui_a2ui::catalog::Catalog> {
    // A v1.0 catalog as its definition schema allows: components need not fix `component`,
    // and a function schema may write the wire's "@call".
    let catalog = agentui_a2ui::catalog::Catalog::from_json(&json!({
        "catalogId": "custom", "protocolVersion": "1.0",
        "components": {
            "Page": {"allowedParents": ["Surface"], "allowedChildren": ["Header", "Box"]},
            "Header": {"allowedParents": ["Page", "Box"]},
            "Box": {"type": "object"},
        },
        "functions": {"shout": {"type": "object", "returnType": "string",
            "properties": {"@call": {"const": "shout"}, "args": {"type": "object"}}, "required": ["@call"]}},
    }))
    .expect("a v1.0 catalog in its definition's shorthand loads");
    assert!(catalog.function("shout").is_some());
    std::sync::Arc::new(catalog)
}

#[test]
fn allowed_parents_and_children_are_enforced_with_surface_as_the_root() {
    let run = |components: Value| {
        let mut group = SurfaceGroup::default();
        group.catalogs_mut().register(composition_catalog());
        let outcome = group.process_value(&v10(
            "createSurface",
            json!({"surfaceId": "s", "catalogId": "custom", "components": components}),
        ));
        errors(&outcome).iter().map(|e| e["code"].as_str().unwrap_or_default().to_owned()).collect::<Vec<_>>()
    };
    let ok = run(json!([{"id": "root", "component": "Page", "children": ["h", "b"]},
        {"id": "h", "component": "Header"}, {"id": "b", "component": "Box", "children": ["h2"]},
        {"id": "h2", "component": "Header"}]));
    assert!(ok.is_empty(), "{ok:?}");
    // Page may only be the root (its parent is the reserved Surface).
    assert_eq!(
        run(json!([{"id": "root", "component": "Box", "children": ["p"]}, {"id": "p", "component": "Page"}])),
        ["UNALLOWED_PARENT"]
    );
    // Header may not be the root, nor sit under a Box's parent that is not listed.
    assert_eq!(run(json!([{"id": "root", "component": "Header"}])), ["UNALLOWED_PARENT"]);
    // Page holds only Header and Box.
    assert_eq!(
        run(json!([{"id": "root", "component": "Page", "children": ["p2"]}, {"id": "p2", "component": "Page"}])),
        ["UNALLOWED_CHILD"]
    );

    // A later update that breaks a rule is refused and changes nothing.
    let mut group = SurfaceGroup::default();
    group.catalogs_mut().register(composition_catalog());
    assert_clean(&group.process_value(&v10(
        "createSurface",
        json!({"surfaceId": "s", "catalogId": "custom",
        "components": [{"id": "root", "component": "Page", "children": ["b"]}, {"id": "b", "component": "Box"}]}),
    )));
    let outcome = group.process_value(&v10(
        "updateComponents",
        json!({"surfaceId": "s", "components": [
        {"id": "b", "component": "Box", "children": ["x"]}, {"id": "x", "component": "Page"}]}),
    ));
    assert_eq!(only_error(&outcome).1, "UNALLOWED_PARENT");
    assert!(group.surface("s").unwrap().node("x").is_none());
}

#[test]
fn surface_is_reserved_and_v09_catalogs_still_fix_component() {
    let load = |doc: Value| agentui_a2ui::catalog::Catalog::from_json(&doc).map(|_| ()).map_err(|e| e.to_string());
    assert!(load(json!({"catalogId": "c", "protocolVersion": "1.0", "components": {"Surface": {}}})).is_err());
    assert!(load(
        json!({"catalogId": "c", "protocolVersion": "1.0", "components": {"A": {"allowedParents": "Surface"}}})
    )
    .is_err());
    assert!(load(
        json!({"catalogId": "c", "protocolVersion": "1.0", "components": {"A": {"allowedParents": ["B", "B"]}}})
    )
    .is_err());
    let v09 = load(json!({"catalogId": "c", "components": {"A": {"type": "object"}}}));
    assert!(v09.unwrap_err().contains("must fix `component`"));
}

#[test]
fn v10_catalog_names_are_unicode_identifiers_and_v09_names_stay_ascii() {
    let load = |version: &str, components: Value, functions: Value| {
        let mut doc = json!({"catalogId": "c", "components": components, "functions": functions});
        if !version.is_empty() {
            doc["protocolVersion"] = Value::from(version);
        }
        agentui_a2ui::catalog::Catalog::from_json(&doc).map(|_| ()).map_err(|e| e.to_string())
    };
    let call = |name: &str, args: Value| {
        json!({name: {"type": "object", "properties": {"@call": {"const": name},
            "args": {"type": "object", "properties": args}}, "required": ["@call"]}})
    };
    // Non-ASCII identifiers (U+2113) and the reserved `@index` load in v1.0.
    let good = load(
        "1.0",
        json!({"Component_\u{2113}": {"type": "object", "properties": {"property_\u{2113}": {"type": "string"}}}}),
        json!({}),
    );
    assert_eq!(good, Ok(()));
    assert_eq!(load("1.0", json!({}), call("func_\u{2113}", json!({"arg_\u{2113}": {}}))), Ok(()));
    assert_eq!(load("1.0", json!({}), call("@index", json!({"offset": {}}))), Ok(()));
    // Hyphens, dashes, a leading digit, punctuation and other `@` names are refused in v1.0.
    for name in ["My-Component", "123Invalid", "Component\u{2013}Name"] {
        let refused = load("1.0", json!({name: {"type": "object"}}), json!({}));
        assert!(refused.as_ref().is_err_and(|e| e.contains("UAX #31")), "{name}: {refused:?}");
    }
    for property in ["invalid-prop-name!", "prop\u{2014}name"] {
        let refused = load("1.0", json!({"Valid": {"type": "object", "properties": {property: {}}}}), json!({}));
        assert!(refused.as_ref().is_err_and(|e| e.contains("UAX #31")), "{property}: {refused:?}");
    }
    for function in ["invalid-func-name!", "func\u{058a}name", "@foo"] {
        let refused = load("1.0", json!({}), call(function, json!({})));
        assert!(refused.as_ref().is_err_and(|e| e.contains("UAX #31")), "{function}: {refused:?}");
    }
    let refused = load("1.0", json!({}), call("validFunc", json!({"123invalid_arg": {}})));
    assert!(refused.is_err_and(|e| e.contains("UAX #31")));
    // Before v1.0 a hyphen stays allowed, and non-ASCII names stay refused.
    let component = |name: &str| json!({name: {"properties": {"component": {"const": name}}}});
    assert_eq!(load("", component("My-Component"), json!({})), Ok(()));
    assert!(load("", component("Component_\u{2113}"), json!({})).is_err());
}

#[test]
fn published_basic_catalog_v1_loads_from_its_file_and_refuses_extra_call_keys() {
    let path = crate::common::conformance("v1_0/catalogs/basic/v1/catalog.json");
    let document: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // It types `child` with the common type `Child`, and writes its calls with `@call`.
    let catalog = std::sync::Arc::new(agentui_a2ui::catalog::Catalog::from_json(&document).expect("it loads"));
    let mut group = SurfaceGroup::default();
    group.catalogs_mut().register(catalog);
    assert_clean(
        &group.process_value(&v10("createSurface", json!({"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID}))),
    );
    let button =
        |call: Value| json!({"id": "b", "component": "Button", "child": "t", "action": {"functionCall": call}});
    let update = |component: Value| v10("updateComponents", json!({"surfaceId": "s", "components": [component]}));
    let open = json!({"@call": "openUrl", "args": {"url": "https://example.com"}});
    assert_clean(&group.process_value(&update(button(open.clone()))));
    let mut extra = open;
    extra["bogus"] = json!(1);
    let (path, code) = only_error(&group.process_value(&update(button(extra))));
    assert_eq!(code, "VALIDATION_FAILED");
    assert!(path.starts_with("/updateComponents/components/0/action/functionCall"), "{path}");
}

#[test]
fn any_component_and_any_function_of_a_catalog_list_what_a_message_may_use() {
    let load = |defs: Value| {
        agentui_a2ui::catalog::Catalog::from_json(&json!({
            "catalogId": "c",
            "$defs": defs,
            "components": {
                "Text": {"properties": {"component": {"const": "Text"}}},
                "Hidden": {"properties": {"component": {"const": "Hidden"}}},
            },
            "functions": {
                "shown": {"properties": {"call": {"const": "shown"}}},
                "secret": {"properties": {"call": {"const": "secret"}}},
            },
        }))
    };
    let catalog = load(json!({"anyComponent": {"oneOf": [{"$ref": "#/components/Text"}]},
        "anyFunction": {"oneOf": [{"$ref": "#/functions/shown"}]}}))
    .unwrap();
    assert!(catalog.component("Text").is_some() && catalog.component("Hidden").is_none());
    assert!(catalog.function("shown").is_some() && catalog.function("secret").is_none());
    assert!(!catalog.validate_component(&json!({"id": "h", "component": "Hidden"})).is_empty());
    // Without the lists every entry is usable; a list naming what the catalog lacks is refused.
    assert_eq!(load(json!({})).unwrap().components.len(), 2);
    let refused = load(json!({"anyComponent": {"oneOf": [{"$ref": "#/components/Missing"}]}}));
    assert!(refused.unwrap_err().to_string().contains("Missing"));
}

#[test]
fn agent_may_call_the_functions_its_catalog_allows_and_no_others() {
    let mut group = SurfaceGroup::default();
    let catalog = agentui_a2ui::catalog::Catalog::from_json(&json!({
        "catalogId": "tools", "protocolVersion": "1.0",
        "functions": {
            "formatString": {"type": "object", "allowedCallers": "rendererOrAgent",
                "properties": {"@call": {"const": "formatString"}, "args": {"type": "object",
                    "properties": {"value": {"type": "string"}}, "required": ["value"]}}, "required": ["@call"]},
            "formatDate": {"type": "object", "allowedCallers": "agentOnly",
                "properties": {"@call": {"const": "formatDate"}, "args": {"type": "object"}}, "required": ["@call"]},
            "openUrl": {"type": "object", "allowedCallers": "rendererOrAgent", "requiresUserActivation": true,
                "properties": {"@call": {"const": "openUrl"}, "args": {"type": "object"}}, "required": ["@call"]},
            "required": {"type": "object",
                "properties": {"@call": {"const": "required"}, "args": {"type": "object"}}, "required": ["@call"]},
        },
    }))
    .unwrap();
    group.catalogs_mut().register(std::sync::Arc::new(catalog));
    let mut ask = |id: &str, function: &str, args: Value| {
        let outcome = group.process_value(&v10(
            "callRendererFunction",
            json!({"functionCallId": id,
            "callFunction": {"@call": function, "catalogId": "tools", "args": args}}),
        ));
        assert!(outcome.events.is_empty());
        let [answer] = outcome.emitted.as_slice() else { panic!("{:?}", outcome.emitted) };
        answer.to_wire()["rendererFunctionResponse"].clone()
    };
    assert_eq!(ask("1", "formatString", json!({"value": "a${'b'}"})), json!({"functionCallId": "1", "value": "ab"}));
    let code = |answer: Value| answer["error"]["code"].as_str().unwrap_or_default().to_owned();
    // Wrong arguments for the catalog's schema: refused, not run.
    assert_eq!(code(ask("2", "formatString", json!({"value": 3}))), "INVALID_FUNCTION_CALL");
    // Runs and fails: an execution error.
    assert_eq!(code(ask("3", "formatDate", json!({"value": "not a date", "format": "yyyy"}))), "EXECUTION_ERROR");
    // Needs a user gesture; rendererOnly (the default): refused.
    assert_eq!(code(ask("4", "openUrl", json!({"url": "https://example.com"}))), "INVALID_FUNCTION_CALL");
    assert_eq!(code(ask("5", "required", json!({"value": "x"}))), "INVALID_FUNCTION_CALL");
    // The built-in basic catalog v1 marks openUrl as needing a gesture.
    let basic = agentui_a2ui::catalog::Catalog::basic_v1();
    assert!(basic.function("openUrl").unwrap().requires_user_activation);
    assert!(!basic.function("formatString").unwrap().allowed_callers.agent_may_call());
}

#[test]
fn video_poster_goes_through_the_media_url_policy() {
    let mut group = SurfaceGroup::default();
    assert_clean(&group.process_value(&create_with(
        "s",
        json!([{"id": "root", "component": "Column", "children": ["ok", "bad"]},
               {"id": "ok", "component": "Video", "url": "https://a.b/v.mp4", "posterUrl": {"@path": "/poster"}},
               {"id": "bad", "component": "Video", "url": "https://a.b/v.mp4", "posterUrl": "javascript:alert(1)"}]),
    )));
    assert_eq!(prop(&group, "s", "ok", "posterUrl"), Some(Value::Null));
    assert_eq!(prop(&group, "s", "bad", "posterUrl"), Some(Value::Null));
    group.process_value(&v10(
        "updateDataModel",
        json!({"surfaceId": "s", "path": "/poster", "value": "https://a.b/p.png"}),
    ));
    assert_eq!(prop(&group, "s", "ok", "posterUrl"), Some(json!("https://a.b/p.png")));
}

/// v1.0 lets `createSurface` name no default catalog: then each component and each function call
/// names its own (the spec's resolution: its own, else the default, else an error).
#[test]
fn a_surface_without_a_default_catalog_takes_what_names_its_catalog() {
    let basic = |mut component: Value| {
        component["catalogId"] = json!(BASIC_V1_CATALOG_ID);
        component
    };
    let greet = json!({"@call": "formatString", "catalogId": BASIC_V1_CATALOG_ID, "args": {"value": "Hi ${/name}"}});
    let create = |components: Value| {
        v10("createSurface", json!({"surfaceId": "s", "dataModel": {"name": "Ada"}, "components": components}))
    };
    let mut group = SurfaceGroup::default();
    let outcome = group.process_value(&create(json!([
        basic(json!({"id": "root", "component": "Column", "children": ["t"]})),
        basic(text("t", greet.clone())),
    ])));
    assert_clean(&outcome);
    assert_eq!(group.surface("s").unwrap().catalog_id(), "");
    assert_eq!(prop(&group, "s", "t", "text"), Some(json!("Hi Ada")));

    // It survives export and restore (a v1.0 creation without catalogId).
    let exported = group.surface("s").unwrap().export();
    assert_eq!(exported[0], json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}}));
    let mut restored = SurfaceGroup::default();
    assert_clean(&restored.restore_surface(exported).unwrap());
    assert_eq!(prop(&restored, "s", "t", "text"), Some(json!("Hi Ada")));

    // A component or a call that names none is refused with its pointer.
    let refused = |components: Value| {
        let outcome = SurfaceGroup::default().process_value(&create(components));
        let errors = errors(&outcome);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0]["message"].as_str().unwrap().contains("no default catalog"), "{errors:?}");
        errors[0]["path"].as_str().unwrap().to_owned()
    };
    let unnamed = json!({"@call": "formatString", "args": {"value": "x"}});
    assert_eq!(
        refused(json!([basic(json!({"id": "root", "component": "Column", "children": ["t"]})), text("t", json!("x"))])),
        "/createSurface/components/1"
    );
    assert_eq!(
        refused(json!([
            basic(json!({"id": "root", "component": "Column", "children": ["t"]})),
            basic(text("t", unnamed))
        ])),
        "/createSurface/components/1/text"
    );
    // "" names no catalog: refused in v1.0 and v0.9 alike.
    let empty = v10("createSurface", json!({"surfaceId": "e", "catalogId": ""}));
    assert_eq!(only_error(&SurfaceGroup::default().process_value(&empty)).0, "/createSurface/catalogId");
    let v09 = json!({"version": "v0.9", "createSurface": {"surfaceId": "e", "catalogId": ""}});
    assert_eq!(only_error(&SurfaceGroup::default().process_value(&v09)).0, "/createSurface/catalogId");
}
