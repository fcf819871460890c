//! The v0.8 adapter: every v0.8 conformance example converts, and each mapping rule and
//! structure error is pinned down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agentui_a2ui::catalog::Catalog;
use agentui_a2ui::wire::v08;
use agentui_a2ui::wire::v09::{ActionMessage, CreateSurface, ServerMessage, UpdateComponents, UpdateDataModel};
use agentui_a2ui::A2uiError;
use serde_json::{json, Map, Value};

const CATALOGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/a2ui/v0_8/json/catalogs/");

fn example_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for catalog in ["basic", "minimal"] {
        let dir = Path::new(CATALOGS).join(catalog).join("examples");
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every converted message of one example file, in order.
fn convert_file(path: &Path) -> Vec<ServerMessage> {
    let text = std::fs::read_to_string(path).unwrap();
    let messages: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        assert!(v08::is_v08(message), "{}: message {i} not recognized as v0.8", path.display());
        match v08::parse(message) {
            Ok(converted) => out.extend(converted),
            Err(e) => panic!("{}: message {i}: {e}", path.display()),
        }
    }
    out
}

fn components_of(messages: &[ServerMessage]) -> Vec<&Value> {
    messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::UpdateComponents(u) => Some(u.components.iter()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn every_conformance_example_converts_with_its_root() {
    let files = example_files();
    assert!(files.len() >= 35, "expected the 30 basic and 5 minimal examples, found {}", files.len());
    for file in &files {
        let messages = convert_file(file);
        let mut surfaces = BTreeSet::new();
        let mut roots = BTreeMap::new();
        let mut ids: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for message in &messages {
            surfaces.insert(message.surface_id().to_owned());
            match message {
                ServerMessage::CreateSurface(c) => {
                    roots.insert(c.surface_id.clone(), c.root_id.clone());
                }
                ServerMessage::UpdateComponents(u) => {
                    for component in &u.components {
                        let id = component["id"].as_str().expect("converted component has a string id");
                        ids.entry(u.surface_id.as_str()).or_default().insert(id);
                        assert!(component["component"].is_string(), "{}: {component}", file.display());
                    }
                }
                _ => {}
            }
        }
        for surface in &surfaces {
            let root =
                roots.get(surface).unwrap_or_else(|| panic!("{}: no beginRendering for {surface}", file.display()));
            let known = ids.get(surface.as_str()).cloned().unwrap_or_default();
            assert!(
                known.contains(root.as_str()),
                "{}: root {root:?} of {surface} not among components",
                file.display()
            );
        }
    }
}

/// The point of the adapter: what it produces is valid v0.9 for the basic catalog, component by
/// component and as whole envelopes (themes included).
#[test]
fn converted_examples_validate_against_the_v09_basic_catalog() {
    let catalog = Catalog::basic();
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in example_files() {
        for message in convert_file(&file) {
            if let ServerMessage::UpdateComponents(u) = &message {
                for component in &u.components {
                    checked += 1;
                    for error in catalog.validate_component(component) {
                        failures.push(format!("{}: {component}: {error:?}", file.display()));
                    }
                }
            }
            for error in catalog.validate_server_message(&message.to_wire()) {
                failures.push(format!("{}: envelope {}: {error:?}", file.display(), message.kind()));
            }
        }
    }
    assert!(checked > 500, "only {checked} components checked");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Every mapping rule, exercised once, also yields components the basic catalog accepts.
#[test]
fn every_mapped_component_type_validates_against_the_v09_basic_catalog() {
    let catalog = Catalog::basic();
    let components = [
        json!({"id": "a", "component": {"Image": {"url": {"path": "/img"}, "altText": {"literalString": "a"},
            "fit": "scale-down", "usageHint": "avatar"}}}),
        json!({"id": "b", "component": {"Button": {"child": "t", "primary": true, "action": {"name": "submit",
            "context": [{"key": "email", "value": {"path": "/form/email"}}, {"key": "n", "value": {"literalNumber": 2}},
            {"key": "f", "value": {"literalBoolean": true}}, {"key": "s", "value": {"literalString": "x"}}]}}}}),
        json!({"id": "c", "component": {"TextField": {"label": {"literalString": "Pw"},
            "text": {"path": "/pw", "literalString": ""}, "textFieldType": "date", "validationRegexp": "^.{8,}$"}}}),
        json!({"id": "d", "component": {"CheckBox": {"label": {"literalString": "L"},
            "value": {"path": "/on", "literalBoolean": true}}}}),
        json!({"id": "e", "component": {"DateTimeInput": {"value": {"path": "/when"}, "enableDate": true,
            "enableTime": false, "outputFormat": "x"}}}),
        json!({"id": "f", "component": {"Slider": {"label": {"literalString": "Vol"}, "value": {"path": "/v"},
            "minValue": 1, "maxValue": 11}}}),
        json!({"id": "g", "component": {"MultipleChoice": {"selections": {"path": "/picked", "literalArray": ["a"]},
            "options": [{"label": {"literalString": "A"}, "value": "a"}, {"label": {"path": "/b"}, "value": "b"}],
            "maxAllowedSelections": 1, "variant": "chips", "filterable": true}}}),
        json!({"id": "h", "component": {"MultipleChoice": {"selections": {"literalArray": []}, "options": []}}}),
        json!({"id": "i", "component": {"Tabs": {"tabItems": [{"title": {"literalString": "One"}, "child": "a"},
            {"title": {"path": "/t2"}, "child": "b"}]}}}),
        json!({"id": "j", "component": {"Modal": {"entryPointChild": "open", "contentChild": "body"}}}),
        json!({"id": "k", "component": {"Divider": {"axis": "vertical"}}}),
        json!({"id": "l", "component": {"Video": {"url": {"literalString": "https://v"}}}}),
        json!({"id": "m", "component": {"AudioPlayer": {"url": {"path": "/song"},
            "description": {"literalString": "Song"}}}}),
        json!({"id": "n", "component": {"List": {"children": {"template": {"componentId": "item",
            "dataBinding": "/items"}}, "direction": "horizontal", "alignment": "stretch"}}}),
        json!({"id": "o", "weight": 2, "component": {"Icon": {"name": {"path": "/icon"}}}}),
        json!({"id": "p", "component": {"Card": {"child": "x"}}}),
        json!({"id": "q", "component": {"Column": {"children": {"explicitList": ["a"]},
            "distribution": "spaceEvenly", "alignment": "center"}}}),
        json!({"id": "r", "component": {"Row": {"children": {"explicitList": ["a"]}, "distribution": "end",
            "alignment": "start"}}}),
        json!({"id": "s", "component": {"Text": {"text": {"path": "name"}, "usageHint": "caption"}}}),
    ];
    for component in components {
        let converted = convert_all(component.clone());
        let errors = catalog.validate_component(&converted);
        assert!(errors.is_empty(), "{component} -> {converted}: {errors:?}");
    }
    // The check is not vacuous: unconverted v0.8 shapes and unknown types are refused.
    let raw_v08 = json!({"id": "a", "component": "Text", "text": {"literalString": "x"}, "usageHint": "h1"});
    assert!(!catalog.validate_component(&raw_v08).is_empty());
    let unknown = convert(json!({"id": "x", "component": {"SignaturePad": {"penColor": "red"}}}));
    assert!(!catalog.validate_component(&unknown).is_empty());
    let styled = parse_one(json!({"beginRendering": {"surfaceId": "s", "root": "r",
        "styles": {"primaryColor": "#00BFFF", "font": "Roboto"}}}));
    let errors = catalog.validate_server_message(&styled.to_wire());
    assert!(errors.is_empty(), "{errors:?}");
}

/// No v0.8 shapes survive conversion of the conformance examples: no wrapper objects, no
/// `literal*`, `explicitList`, `usageHint`, `distribution`, `alignment`.
#[test]
fn conformance_examples_leave_no_v08_shapes() {
    fn walk(value: &Value, file: &Path) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    assert!(
                        !key.starts_with("literal")
                            && !["explicitList", "dataBinding", "usageHint", "distribution", "alignment"]
                                .contains(&key.as_str()),
                        "{}: v0.8 key {key} left in {value}",
                        file.display()
                    );
                    walk(v, file);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, file)),
            _ => {}
        }
    }
    for file in example_files() {
        let messages = convert_file(&file);
        for component in components_of(&messages) {
            walk(component, &file);
        }
    }
}

fn parse_one(message: Value) -> ServerMessage {
    let mut out = v08::parse(&message).unwrap();
    assert_eq!(out.len(), 1, "{out:?}");
    out.remove(0)
}

/// Converts one component and returns it (asserting no data initialization came out).
fn convert(component: Value) -> Value {
    let out = v08::parse(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [component]}})).unwrap();
    match out.as_slice() {
        [ServerMessage::UpdateComponents(UpdateComponents { components, .. })] => components[0].clone(),
        other => panic!("unexpected messages {other:?}"),
    }
}

/// Converts one component, allowing data initializations before it.
fn convert_all(component: Value) -> Value {
    let out = v08::parse(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [component]}})).unwrap();
    match out.last() {
        Some(ServerMessage::UpdateComponents(UpdateComponents { components, .. })) => components[0].clone(),
        other => panic!("unexpected messages {other:?}"),
    }
}

fn error_path(message: Value) -> String {
    match v08::parse(&message) {
        Err(e @ A2uiError::Validation(_)) => e.path().unwrap().to_owned(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

fn component_error_path(component: Value) -> String {
    error_path(json!({"surfaceUpdate": {"surfaceId": "s", "components": [component]}}))
}

#[test]
fn is_v08_recognizes_only_versionless_v08_envelopes() {
    assert!(v08::is_v08(&json!({"beginRendering": {"surfaceId": "s", "root": "r"}})));
    assert!(v08::is_v08(&json!({"surfaceUpdate": {}})));
    assert!(v08::is_v08(&json!({"dataModelUpdate": {}})));
    assert!(v08::is_v08(&json!({"deleteSurface": {"surfaceId": "s"}})));
    assert!(!v08::is_v08(&json!({"version": "v0.9", "deleteSurface": {"surfaceId": "s"}})));
    assert!(!v08::is_v08(&json!({"createSurface": {}})));
    assert!(!v08::is_v08(&json!([{"deleteSurface": {}}])));
    assert!(!v08::is_v08(&json!("deleteSurface")));
}

#[test]
fn begin_rendering_becomes_create_surface() {
    let m = parse_one(json!({"beginRendering": {"surfaceId": "s", "root": "top"}}));
    assert_eq!(
        m,
        ServerMessage::CreateSurface(CreateSurface {
            surface_id: "s".into(),
            catalog_id: v08::STANDARD_CATALOG_ID.into(),
            theme: None,
            send_data_model: false,
            root_id: "top".into(),
        })
    );
    assert_eq!(v08::STANDARD_CATALOG_ID, "https://a2ui.org/specification/v0_8/standard_catalog_definition.json");
    let m = parse_one(json!({"beginRendering": {"surfaceId": "s", "root": "r", "catalogId": v08::MINIMAL_CATALOG_ID}}));
    assert!(matches!(m, ServerMessage::CreateSurface(c) if c.catalog_id == v08::MINIMAL_CATALOG_ID));
    let m = parse_one(
        json!({"beginRendering": {"surfaceId": "s", "root": "r", "catalogId": v08::LEGACY_STANDARD_CATALOG_ID}}),
    );
    assert!(matches!(m, ServerMessage::CreateSurface(c) if c.catalog_id == v08::STANDARD_CATALOG_ID));
}

#[test]
fn styles_become_theme() {
    let m = parse_one(json!({"beginRendering": {"surfaceId": "s", "root": "r",
        "styles": {"primaryColor": "#00BFFF", "font": "Roboto", "custom": 1}}}));
    let ServerMessage::CreateSurface(c) = m else { panic!() };
    assert_eq!(c.theme, Some(json!({"primaryColor": "#00BFFF", "font": "Roboto", "custom": 1})));
    let m = parse_one(json!({"beginRendering": {"surfaceId": "s", "root": "r", "styles": {}}}));
    assert!(matches!(m, ServerMessage::CreateSurface(CreateSurface { theme: None, .. })));
}

#[test]
fn begin_rendering_errors_name_the_field() {
    assert_eq!(error_path(json!({"beginRendering": {"surfaceId": "s"}})), "/beginRendering/root");
    assert_eq!(error_path(json!({"beginRendering": {"root": "r"}})), "/beginRendering/surfaceId");
    assert_eq!(error_path(json!({"beginRendering": {"surfaceId": "s", "root": 3}})), "/beginRendering/root");
    assert_eq!(
        error_path(json!({"beginRendering": {"surfaceId": "s", "root": "r", "catalogId": 1}})),
        "/beginRendering/catalogId"
    );
    assert_eq!(
        error_path(json!({"beginRendering": {"surfaceId": "s", "root": "r", "styles": "x"}})),
        "/beginRendering/styles"
    );
}

#[test]
fn envelope_needs_exactly_one_message_key() {
    let err = v08::parse(&json!({})).unwrap_err();
    assert!(err.to_string().contains("no message key"), "{err}");
    let err = v08::parse(&json!({"deleteSurface": {"surfaceId": "s"}, "beginRendering": {}})).unwrap_err();
    assert!(err.to_string().contains("2 message keys"), "{err}");
    assert_eq!(error_path(json!([1])), "");
    assert_eq!(error_path(json!({"surfaceUpdate": []})), "/surfaceUpdate");
}

#[test]
fn delete_surface_maps_one_to_one() {
    let m = parse_one(json!({"deleteSurface": {"surfaceId": "gone"}}));
    assert!(matches!(m, ServerMessage::DeleteSurface(d) if d.surface_id == "gone"));
    assert_eq!(error_path(json!({"deleteSurface": {}})), "/deleteSurface/surfaceId");
}

#[test]
fn components_are_flattened_with_weight() {
    let c = convert(json!({"id": "t", "weight": 2, "component": {"Text": {"text": {"literalString": "hi"}}}}));
    assert_eq!(c, json!({"id": "t", "component": "Text", "text": "hi", "weight": 2}));
}

#[test]
fn bound_values_become_literals_or_bindings() {
    let c = convert(json!({"id": "a", "component": {"Text": {"text": {"path": "/user/name"}}}}));
    assert_eq!(c["text"], json!({"path": "/user/name"}));
    let c = convert(json!({"id": "a", "component": {"Slider": {"value": {"literalNumber": 3}, "maxValue": 10}}}));
    assert_eq!(c["value"], json!(3));
    let c = convert(json!({"id": "a", "component": {"CheckBox": {"label": {"literalString": "ok"},
        "value": {"literalBoolean": true}}}}));
    assert_eq!((c["label"].clone(), c["value"].clone()), (json!("ok"), json!(true)));
    let c = convert(json!({"id": "a", "component": {"MultipleChoice": {"selections": {"literalArray": ["x"]},
        "options": []}}}));
    assert_eq!(c["value"], json!(["x"]));
}

#[test]
fn path_with_literal_initializes_before_components() {
    let out = v08::parse(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "f", "component": {"TextField": {"label": {"literalString": "Name"},
            "text": {"path": "/form/name", "literalString": "Guest"}}}},
        {"id": "c", "component": {"CheckBox": {"label": {"literalString": "Agree"},
            "value": {"path": "/form/ok", "literalBoolean": false}}}}
    ]}}))
    .unwrap();
    assert_eq!(out.len(), 3, "{out:?}");
    let init = |m: &ServerMessage| match m {
        ServerMessage::UpdateDataModel(UpdateDataModel { surface_id, path, value }) => {
            (surface_id.clone(), path.clone(), value.clone())
        }
        other => panic!("expected an updateDataModel, got {other:?}"),
    };
    assert_eq!(init(&out[0]), ("s".into(), Some("/form/name".into()), Some(json!("Guest"))));
    assert_eq!(init(&out[1]), ("s".into(), Some("/form/ok".into()), Some(json!(false))));
    let ServerMessage::UpdateComponents(u) = &out[2] else { panic!("components must come last: {out:?}") };
    assert_eq!(u.components[0]["value"], json!({"path": "/form/name"}));
    assert_eq!(u.components[1]["value"], json!({"path": "/form/ok"}));
}

#[test]
fn relative_path_with_literal_only_binds() {
    let out = v08::parse(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "t", "component": {"Text": {"text": {"path": "name", "literalString": "?"}}}}
    ]}}))
    .unwrap();
    assert_eq!(out.len(), 1);
    let ServerMessage::UpdateComponents(u) = &out[0] else { panic!() };
    assert_eq!(u.components[0]["text"], json!({"path": "name"}));
}

#[test]
fn malformed_bound_values_are_errors() {
    let text = |v: Value| component_error_path(json!({"id": "a", "component": {"Text": {"text": v}}}));
    let at = "/surfaceUpdate/components/0/component/Text/text";
    assert_eq!(text(json!("plain")), at);
    assert_eq!(text(json!({})), at);
    assert_eq!(text(json!({"literalString": "a", "literalNumber": 1})), at);
    assert_eq!(text(json!({"literalString": 1})), format!("{at}/literalString"));
    assert_eq!(text(json!({"path": 1})), format!("{at}/path"));
    assert_eq!(text(json!({"literalThing": 1})), format!("{at}/literalThing"));
}

#[test]
fn children_map_to_v09_child_lists() {
    let c = convert(json!({"id": "r", "component": {"Row": {"children": {"explicitList": ["a", "b"]},
        "distribution": "spaceBetween", "alignment": "center"}}}));
    assert_eq!(
        c,
        json!({"id": "r", "component": "Row", "children": ["a", "b"], "justify": "spaceBetween",
        "align": "center"})
    );
    let c = convert(json!({"id": "c", "component": {"Column": {"children":
        {"template": {"componentId": "item", "dataBinding": "/items"}}, "distribution": "start", "alignment": "end"}}}));
    assert_eq!(
        c,
        json!({"id": "c", "component": "Column", "children": {"componentId": "item", "path": "/items"},
        "justify": "start", "align": "end"})
    );
    let c = convert(json!({"id": "l", "component": {"List": {"children": {"explicitList": []},
        "direction": "horizontal", "alignment": "stretch"}}}));
    assert_eq!(
        c,
        json!({"id": "l", "component": "List", "children": [], "direction": "horizontal",
        "align": "stretch"})
    );
}

#[test]
fn malformed_children_are_errors() {
    let row = |v: Value| component_error_path(json!({"id": "r", "component": {"Row": {"children": v}}}));
    let at = "/surfaceUpdate/components/0/component/Row/children";
    assert_eq!(row(json!(["a"])), at);
    assert_eq!(row(json!({})), at);
    assert_eq!(row(json!({"explicitList": [], "template": {"componentId": "x", "dataBinding": "/x"}})), at);
    assert_eq!(row(json!({"explicitList": "a"})), format!("{at}/explicitList"));
    assert_eq!(row(json!({"template": {"componentId": "x"}})), format!("{at}/template/dataBinding"));
}

#[test]
fn text_and_image_usage_hints_become_variants() {
    let c = convert(json!({"id": "t", "component": {"Text": {"text": {"literalString": "T"}, "usageHint": "h2"}}}));
    assert_eq!(c, json!({"id": "t", "component": "Text", "text": "T", "variant": "h2"}));
    let c =
        convert(json!({"id": "i", "component": {"Image": {"url": {"path": "/img"}, "altText": {"literalString": "a"},
        "fit": "scale-down", "usageHint": "avatar"}}}));
    assert_eq!(
        c,
        json!({"id": "i", "component": "Image", "url": {"path": "/img"}, "description": "a",
        "fit": "scaleDown", "variant": "avatar"})
    );
    let c = convert(json!({"id": "i", "component": {"Image": {"url": {"literalString": "u"}, "fit": "cover"}}}));
    assert_eq!(c["fit"], "cover");
}

#[test]
fn icon_names_become_plain_strings() {
    let c = convert(json!({"id": "i", "component": {"Icon": {"name": {"literalString": "shoppingCart"}}}}));
    assert_eq!(c, json!({"id": "i", "component": "Icon", "name": "shoppingCart"}));
    let c = convert(json!({"id": "i", "component": {"Icon": {"name": {"path": "/icon"}}}}));
    assert_eq!(c["name"], json!({"path": "/icon"}));
}

#[test]
fn button_maps_primary_and_action() {
    let c = convert(json!({"id": "b", "component": {"Button": {"child": "t", "primary": true, "action": {
    "name": "submit", "context": [
        {"key": "email", "value": {"path": "/form/email"}},
        {"key": "id", "value": {"literalString": "f-1"}},
        {"key": "n", "value": {"literalNumber": 2}},
        {"key": "flag", "value": {"literalBoolean": true}}
    ]}}}}));
    assert_eq!(
        c,
        json!({"id": "b", "component": "Button", "child": "t", "variant": "primary", "action": {"event": {
            "name": "submit",
            "context": {"email": {"path": "/form/email"}, "id": "f-1", "n": 2, "flag": true}
        }}})
    );
    let c = convert(json!({"id": "b", "component": {"Button": {"child": "t", "primary": false,
        "action": {"name": "go"}}}}));
    assert_eq!(c, json!({"id": "b", "component": "Button", "child": "t", "action": {"event": {"name": "go"}}}));
}

#[test]
fn malformed_button_actions_are_errors() {
    let button = |action: Value| {
        component_error_path(json!({"id": "b", "component": {"Button": {"child": "t", "action": action}}}))
    };
    let at = "/surfaceUpdate/components/0/component/Button/action";
    assert_eq!(button(json!("go")), at);
    assert_eq!(button(json!({})), format!("{at}/name"));
    assert_eq!(button(json!({"name": "go", "context": {}})), format!("{at}/context"));
    assert_eq!(
        button(json!({"name": "go", "context": [{"value": {"literalString": "x"}}]})),
        format!("{at}/context/0/key")
    );
    assert_eq!(button(json!({"name": "go", "context": [{"key": "k"}]})), format!("{at}/context/0/value"));
    assert_eq!(
        component_error_path(json!({"id": "b", "component": {"Button": {"child": "t", "primary": "yes",
            "action": {"name": "go"}}}})),
        "/surfaceUpdate/components/0/component/Button/primary"
    );
}

#[test]
fn text_field_maps_text_and_type() {
    let c = convert(json!({"id": "f", "component": {"TextField": {"label": {"literalString": "Pw"},
        "text": {"path": "/pw"}, "textFieldType": "obscured", "validationRegexp": "^.{8,}$"}}}));
    assert_eq!(
        c,
        json!({"id": "f", "component": "TextField", "label": "Pw", "value": {"path": "/pw"},
        "variant": "obscured", "validationRegexp": "^.{8,}$"})
    );
    for (v08_type, v09_variant) in
        [("shortText", "shortText"), ("longText", "longText"), ("number", "number"), ("date", "shortText")]
    {
        let c = convert(json!({"id": "f", "component": {"TextField": {"label": {"literalString": "L"},
            "textFieldType": v08_type}}}));
        assert_eq!(c["variant"], v09_variant, "{v08_type}");
    }
}

#[test]
fn checkbox_date_time_and_slider() {
    let c = convert(json!({"id": "c", "component": {"CheckBox": {"label": {"literalString": "L"},
        "value": {"path": "/on"}}}}));
    assert_eq!(c, json!({"id": "c", "component": "CheckBox", "label": "L", "value": {"path": "/on"}}));
    let c = convert(json!({"id": "d", "component": {"DateTimeInput": {"value": {"path": "/when"}, "enableDate": true,
        "enableTime": false, "outputFormat": "yyyy-MM-dd"}}}));
    assert_eq!(
        c,
        json!({"id": "d", "component": "DateTimeInput", "value": {"path": "/when"}, "enableDate": true,
        "enableTime": false})
    );
    let c = convert(json!({"id": "s", "component": {"Slider": {"label": {"literalString": "Vol"},
        "value": {"path": "/v"}, "minValue": 1, "maxValue": 11}}}));
    assert_eq!(
        c,
        json!({"id": "s", "component": "Slider", "label": "Vol", "value": {"path": "/v"}, "min": 1,
        "max": 11})
    );
}

#[test]
fn multiple_choice_becomes_choice_picker() {
    let c = convert(json!({"id": "m", "component": {"MultipleChoice": {
        "selections": {"path": "/picked"},
        "options": [{"label": {"literalString": "A"}, "value": "a"}, {"label": {"path": "/bLabel"}, "value": "b"}],
        "maxAllowedSelections": 1, "variant": "chips", "filterable": true}}}));
    assert_eq!(
        c,
        json!({"id": "m", "component": "ChoicePicker", "value": {"path": "/picked"},
            "options": [{"label": "A", "value": "a"}, {"label": {"path": "/bLabel"}, "value": "b"}],
            "variant": "mutuallyExclusive", "displayStyle": "chips", "filterable": true})
    );
    let c = convert(json!({"id": "m", "component": {"MultipleChoice": {"selections": {"literalArray": []},
        "options": [], "maxAllowedSelections": 3}}}));
    assert_eq!(c["variant"], "multipleSelection");
    let c = convert(
        json!({"id": "m", "component": {"MultipleChoice": {"selections": {"literalArray": []}, "options": []}}}),
    );
    assert_eq!(c["variant"], "multipleSelection");
    assert_eq!(
        component_error_path(json!({"id": "m", "component": {"MultipleChoice": {"selections": {"literalArray": []},
            "options": [], "maxAllowedSelections": "one"}}})),
        "/surfaceUpdate/components/0/component/MultipleChoice/maxAllowedSelections"
    );
    assert_eq!(
        component_error_path(json!({"id": "m", "component": {"MultipleChoice": {"selections": {"literalArray": []},
            "options": [{"label": "A", "value": "a"}]}}})),
        "/surfaceUpdate/components/0/component/MultipleChoice/options/0/label"
    );
}

#[test]
fn tabs_modal_divider_card_and_media() {
    let c = convert(json!({"id": "t", "component": {"Tabs": {"tabItems": [
        {"title": {"literalString": "One"}, "child": "a"}, {"title": {"path": "/t2"}, "child": "b"}]}}}));
    assert_eq!(
        c,
        json!({"id": "t", "component": "Tabs", "tabs": [{"title": "One", "child": "a"},
        {"title": {"path": "/t2"}, "child": "b"}]})
    );
    let c = convert(json!({"id": "m", "component": {"Modal": {"entryPointChild": "open", "contentChild": "body"}}}));
    assert_eq!(c, json!({"id": "m", "component": "Modal", "trigger": "open", "content": "body"}));
    let c = convert(json!({"id": "d", "component": {"Divider": {"axis": "vertical"}}}));
    assert_eq!(c, json!({"id": "d", "component": "Divider", "axis": "vertical"}));
    let c = convert(json!({"id": "d", "component": {"Divider": {}}}));
    assert_eq!(c, json!({"id": "d", "component": "Divider"}));
    let c = convert(json!({"id": "c", "component": {"Card": {"child": "x"}}}));
    assert_eq!(c, json!({"id": "c", "component": "Card", "child": "x"}));
    let c = convert(json!({"id": "v", "component": {"Video": {"url": {"literalString": "https://v"}}}}));
    assert_eq!(c, json!({"id": "v", "component": "Video", "url": "https://v"}));
    let c = convert(json!({"id": "a", "component": {"AudioPlayer": {"url": {"path": "/song"},
        "description": {"literalString": "Song"}}}}));
    assert_eq!(c, json!({"id": "a", "component": "AudioPlayer", "url": {"path": "/song"}, "description": "Song"}));
    assert_eq!(
        component_error_path(json!({"id": "t", "component": {"Tabs": {"tabItems": {}}}})),
        "/surfaceUpdate/components/0/component/Tabs/tabItems"
    );
}

#[test]
fn unknown_types_pass_through_flat() {
    let c = convert(json!({"id": "x", "weight": 1, "component": {"SignaturePad": {"penColor": "red",
        "label": {"literalString": "raw"}}}}));
    assert_eq!(
        c,
        json!({"id": "x", "component": "SignaturePad", "penColor": "red",
        "label": {"literalString": "raw"}, "weight": 1})
    );
}

#[test]
fn component_structure_errors_name_the_v08_path() {
    let update = |components: Value| error_path(json!({"surfaceUpdate": {"surfaceId": "s", "components": components}}));
    let ok = json!({"id": "ok", "component": {"Divider": {}}});
    assert_eq!(update(json!({})), "/surfaceUpdate/components");
    assert_eq!(error_path(json!({"surfaceUpdate": {"surfaceId": "s"}})), "/surfaceUpdate/components");
    assert_eq!(update(json!([ok, "x"])), "/surfaceUpdate/components/1");
    assert_eq!(update(json!([ok, {"component": {"Divider": {}}}])), "/surfaceUpdate/components/1/id");
    assert_eq!(update(json!([ok, {"id": "a"}])), "/surfaceUpdate/components/1/component");
    assert_eq!(update(json!([ok, ok, ok, {"id": "a", "component": {}}])), "/surfaceUpdate/components/3/component");
    assert_eq!(
        update(json!([{"id": "a", "component": {"Text": {}, "Divider": {}}}])),
        "/surfaceUpdate/components/0/component"
    );
    assert_eq!(update(json!([{"id": "a", "component": "Text"}])), "/surfaceUpdate/components/0/component");
    assert_eq!(update(json!([{"id": "a", "component": {"Text": []}}])), "/surfaceUpdate/components/0/component/Text");
    assert_eq!(
        update(json!([{"id": "a", "weight": "2", "component": {"Divider": {}}}])),
        "/surfaceUpdate/components/0/weight"
    );
    assert_eq!(
        update(json!([{"id": "a", "component": {"Custom": {"component": "x"}}}])),
        "/surfaceUpdate/components/0/component/Custom/component"
    );
    assert_eq!(
        update(json!([{"id": "a", "component": {"a/b~c": {"id": "x"}}}])),
        "/surfaceUpdate/components/0/component/a~1b~0c/id"
    );
}

#[test]
fn data_model_update_builds_the_object() {
    let m = parse_one(json!({"dataModelUpdate": {"surfaceId": "s", "contents": [
        {"key": "name", "valueString": "Bob"},
        {"key": "age", "valueNumber": 42},
        {"key": "ok", "valueBoolean": true},
        {"key": "a/b", "valueMap": [{"key": "street", "valueString": "Main"},
            {"key": "deep", "valueMap": [{"key": "x", "valueNumber": 1.5}]}]}
    ]}}));
    assert_eq!(
        m,
        ServerMessage::UpdateDataModel(UpdateDataModel {
            surface_id: "s".into(),
            path: None,
            value: Some(json!({"name": "Bob", "age": 42, "ok": true,
                "a/b": {"street": "Main", "deep": {"x": 1.5}}})),
        })
    );
}

#[test]
fn data_model_update_paths_are_normalized() {
    let path_of = |path: Value| match parse_one(json!({"dataModelUpdate": {"surfaceId": "s", "path": path,
        "contents": [{"key": "k", "valueString": "v"}]}}))
    {
        ServerMessage::UpdateDataModel(u) => u.path,
        other => panic!("{other:?}"),
    };
    assert_eq!(path_of(json!("/")), None);
    assert_eq!(path_of(json!("")), None);
    assert_eq!(path_of(json!("/user")), Some("/user".into()));
    assert_eq!(path_of(json!("user")), Some("/user".into()));
    let m = parse_one(json!({"dataModelUpdate": {"surfaceId": "s", "contents": []}}));
    assert!(matches!(m, ServerMessage::UpdateDataModel(UpdateDataModel { path: None, value: Some(v), .. })
        if v == json!({})));
}

/// v0.8 has no null and no deletion: `dataModelUpdate` carries typed values only, and the object
/// it builds replaces what is at `path` (keys it does not list go). v0.9's null rules (stored when
/// present, deleted when absent) never come into play.
#[test]
fn v08_data_model_updates_replace_and_cannot_write_null() {
    let mut g = agentui_a2ui::SurfaceGroup::default();
    let errors = |outcome: &agentui_a2ui::Outcome| -> Vec<Value> {
        outcome.emitted.iter().map(|m| m.to_wire()["error"].clone()).collect()
    };
    let update = |path: &str, contents: Value| json!({"dataModelUpdate": {"surfaceId": "s", "path": path, "contents": contents}});
    for message in [
        json!({"beginRendering": {"surfaceId": "s", "root": "t"}}),
        json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": {"path": "/user/name"}}}}]}}),
        update("/user", json!([{"key": "name", "valueString": "Ada"}, {"key": "nick", "valueString": "A"}])),
        update("/user", json!([{"key": "name", "valueString": "Bob"}])),
    ] {
        let out = g.process_value(&message);
        assert!(out.emitted.is_empty(), "{:?}", errors(&out));
    }
    assert_eq!(g.surface("s").unwrap().data_model(), &json!({"user": {"name": "Bob"}}));
    assert_eq!(g.surface("s").unwrap().node("t").unwrap().props["text"], "Bob");

    // A null where a typed value belongs is refused, and changes nothing.
    for (kind, at) in [("valueString", "valueString"), ("valueNumber", "valueNumber"), ("valueBoolean", "valueBoolean")]
    {
        let out = g.process_value(&update("/user", json!([{"key": "name", kind: null}])));
        assert_eq!(errors(&out)[0]["path"], format!("/dataModelUpdate/contents/0/{at}"));
    }
    let out = g.process_value(&json!({"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "t", "component": {"Text": {"text": {"path": "/user/name", "literalString": null}}}}]}}));
    assert_eq!(errors(&out)[0]["path"], "/surfaceUpdate/components/0/component/Text/text/literalString");
    assert_eq!(g.surface("s").unwrap().data_model(), &json!({"user": {"name": "Bob"}}));

    // Empty contents still write (an empty object); nothing in v0.8 deletes.
    assert!(g.process_value(&update("/user", json!([]))).emitted.is_empty());
    assert_eq!(g.surface("s").unwrap().data_model(), &json!({"user": {}}));
}

#[test]
fn malformed_data_model_updates_are_errors() {
    let dmu = |contents: Value| error_path(json!({"dataModelUpdate": {"surfaceId": "s", "contents": contents}}));
    assert_eq!(error_path(json!({"dataModelUpdate": {"surfaceId": "s"}})), "/dataModelUpdate/contents");
    assert_eq!(
        error_path(json!({"dataModelUpdate": {"surfaceId": "s", "path": 1, "contents": []}})),
        "/dataModelUpdate/path"
    );
    assert_eq!(dmu(json!({})), "/dataModelUpdate/contents");
    assert_eq!(dmu(json!([1])), "/dataModelUpdate/contents/0");
    assert_eq!(dmu(json!([{"valueString": "x"}])), "/dataModelUpdate/contents/0/key");
    assert_eq!(dmu(json!([{"key": "k"}])), "/dataModelUpdate/contents/0");
    assert_eq!(dmu(json!([{"key": "k", "valueString": "x", "valueNumber": 1}])), "/dataModelUpdate/contents/0");
    assert_eq!(dmu(json!([{"key": "k", "valueNumber": "1"}])), "/dataModelUpdate/contents/0/valueNumber");
    assert_eq!(dmu(json!([{"key": "k", "valueMap": {}}])), "/dataModelUpdate/contents/0/valueMap");
    assert_eq!(
        dmu(json!([{"key": "k", "valueMap": [{"key": "j", "valueBoolean": "no"}]}])),
        "/dataModelUpdate/contents/0/valueMap/0/valueBoolean"
    );
    assert_eq!(dmu(json!([{"key": "k", "valueList": []}])), "/dataModelUpdate/contents/0/valueList");
}

#[test]
fn deeply_nested_value_maps_are_refused_not_overflowed() {
    let mut entry = json!({"key": "leaf", "valueString": "x"});
    for _ in 0..200 {
        entry = json!({"key": "k", "valueMap": [entry]});
    }
    let err = v08::parse(&json!({"dataModelUpdate": {"surfaceId": "s", "contents": [entry]}})).unwrap_err();
    assert!(err.to_string().contains("nesting"), "{err}");
}

#[test]
fn user_action_has_the_v08_wire_form() {
    let mut context = Map::new();
    context.insert("email".into(), json!("a@b.c"));
    let action = ActionMessage {
        name: "submit".into(),
        surface_id: "s".into(),
        source_component_id: "btn".into(),
        timestamp: "2025-09-19T17:05:00Z".into(),
        context,
        user_message: None,
        extensions: Map::new(),
        version: agentui_a2ui::wire::Version::V0_8,
    };
    assert_eq!(
        v08::user_action(&action),
        json!({"userAction": {"name": "submit", "surfaceId": "s", "sourceComponentId": "btn",
            "timestamp": "2025-09-19T17:05:00Z", "context": {"email": "a@b.c"}}})
    );
}

#[test]
fn arbitrary_shapes_never_panic() {
    let shapes = [
        json!(null),
        json!(1),
        json!({"beginRendering": null}),
        json!({"surfaceUpdate": {"surfaceId": "s", "components": [null, 1, [], {"id": 1}]}}),
        json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "a", "component": {"Row": {"children": null}}}]}}),
        json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "a", "component": {"Button": {"action": []}}}]}}),
        json!({"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "a", "component": {"Tabs": {"tabItems": [1]}}}]}}),
        json!({"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": null}]}}),
        json!({"deleteSurface": {"surfaceId": null}}),
    ];
    for shape in shapes {
        let _ = v08::parse(&shape);
        let _ = v08::is_v08(&shape);
    }
}
