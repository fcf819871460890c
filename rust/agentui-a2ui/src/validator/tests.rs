use serde_json::json;

use super::*;
use crate::catalog::BASIC_V1_CATALOG_ID;

fn catalogs() -> CatalogRegistry {
    CatalogRegistry::with_basic()
}

fn create(components: Value) -> Value {
    json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID, "components": components}})
}

fn text(id: &str) -> Value {
    json!({"id": id, "component": "Text", "text": id})
}

fn column(id: &str, children: &[&str]) -> Value {
    json!({"id": id, "component": "Column", "children": children})
}

fn codes(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.code).collect()
}

#[test]
fn a_valid_sequence_has_no_findings_even_in_strict_mode() {
    let messages = [
        create(json!([column("root", &["a"]), text("a")])),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/user/name", "value": "Ada"}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [text("a")]}}),
        json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}),
    ];
    assert_eq!(validate_messages(&messages, &catalogs(), true), vec![]);
}

#[test]
fn a_missing_version_is_a_missing_field_at_its_dotted_path() {
    let findings = validate_messages(&[json!({"createSurface": {"surfaceId": "s1"}})], &catalogs(), false);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!((findings[0].category, findings[0].code), (Category::Validation, "missing_field"));
    assert_eq!(findings[0].path, "messages.0.version");
}

#[test]
fn a_surface_id_that_is_not_a_string_is_a_type_mismatch() {
    let findings =
        validate_messages(&[json!({"version": "v1.0", "createSurface": {"surfaceId": 123}})], &catalogs(), false);
    assert_eq!(codes(&findings), ["type_mismatch"]);
    assert_eq!(findings[0].path, "messages.0.createSurface.surfaceId");
}

#[test]
fn two_actions_in_one_envelope_and_an_unknown_version_are_refused() {
    let both = json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}, "deleteSurface": {"surfaceId": "s"}});
    assert_eq!(validate_messages(&[both], &catalogs(), false)[0].category, Category::Validation);
    let future = json!({"version": "v99.0", "createSurface": {"surfaceId": "s"}});
    let findings = validate_messages(&[future], &catalogs(), false);
    assert_eq!((findings[0].code, findings[0].path.as_str()), ("invalid_value", "messages.0.version"));
}

#[test]
fn component_schema_errors_name_the_component_property() {
    let bad = json!({"id": "root", "component": "Text"});
    let findings = validate_messages(&[create(json!([bad]))], &catalogs(), false);
    assert_eq!(codes(&findings), ["missing_field"], "{findings:?}");
    assert_eq!(findings[0].path, "messages.0.createSurface.components.0.text");
    let unknown = json!({"id": "root", "component": "UnknownWidget"});
    let findings = validate_messages(&[create(json!([unknown]))], &catalogs(), false);
    assert_eq!(findings[0].category, Category::Validation, "{findings:?}");
}

#[test]
fn an_unknown_function_is_a_validation_error() {
    let button = json!({"id": "root", "component": "Button", "child": "t",
        "action": {"functionCall": {"call": "unknownFunc", "args": {}}}});
    let findings = validate_messages(&[create(json!([button, text("t")]))], &catalogs(), false);
    assert!(findings.iter().any(|f| f.category == Category::Validation), "{findings:?}");
}

#[test]
fn an_unknown_catalog_is_a_catalog_error() {
    let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "nowhere"}});
    let findings = validate_messages(&[message], &catalogs(), false);
    assert_eq!((findings[0].category, findings[0].code), (Category::Catalog, "unknown_catalog"));
}

#[test]
fn a_component_id_that_is_no_unicode_identifier_is_refused_in_v10() {
    let findings = validate_messages(
        &[create(json!([column("root", &["123invalid_id"]), text("123invalid_id")]))],
        &catalogs(),
        false,
    );
    assert_eq!(codes(&findings), ["invalid_identifier"], "{findings:?}");
    assert_eq!(findings[0].path, "messages.0.createSurface.components.1.id");
    assert!(findings[0].message.contains("Component id '123invalid_id' must be a valid"));
    // Hyphens inside an id are medial characters of the profile (the pack's example 31), not at
    // an end; non-ASCII identifiers are identifiers.
    let hyphens = [column("root", &["content-grid"]), text("content-grid")];
    assert_eq!(validate_messages(&[create(json!(hyphens))], &catalogs(), true), vec![]);
    for bad in ["-a", "a-", "a--b"] {
        let findings = validate_messages(&[create(json!([column("root", &[bad]), text(bad)]))], &catalogs(), false);
        assert_eq!(codes(&findings), ["invalid_identifier"], "{bad}");
    }
    assert_eq!(
        validate_messages(&[create(json!([column("root", &["größe"]), text("größe")]))], &catalogs(), true),
        vec![]
    );
}

#[test]
fn a_self_reference_is_found_without_applying() {
    let findings = validate_messages(&[create(json!([column("root", &["root"])]))], &catalogs(), false);
    assert_eq!(codes(&findings), ["self_reference"], "{findings:?}");
    assert!(findings[0].message.contains("Self-reference detected"));
}

#[test]
fn a_cycle_across_messages_is_found() {
    let messages = [
        create(json!([column("root", &["c1"]), column("c1", &[])])),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [column("c1", &["root"])]}}),
    ];
    let findings = validate_messages(&messages, &catalogs(), false);
    assert_eq!(codes(&findings), ["cycle"], "{findings:?}");
    assert!(findings[0].message.contains("Circular component reference"), "{}", findings[0].message);
}

#[test]
fn dangling_orphaned_and_missing_root_only_in_strict_mode() {
    let dangling = [create(json!([column("root", &["missing_child"])]))];
    let orphan = [create(json!([text("root"), text("orphan")]))];
    let no_root = [create(json!([text("c1")]))];
    for (messages, code) in
        [(&dangling, "dangling_reference"), (&orphan, "orphaned_component"), (&no_root, "missing_root")]
    {
        assert_eq!(validate_messages(messages, &catalogs(), false), vec![], "{code} is allowed when not strict");
        let findings = validate_messages(messages, &catalogs(), true);
        assert_eq!(codes(&findings), [code], "{findings:?}");
    }
}

#[test]
fn duplicate_ids_in_one_message_and_unknown_surfaces_are_integrity_errors() {
    let findings =
        validate_messages(&[create(json!([column("root", &["c1"]), text("c1"), text("c1")]))], &catalogs(), false);
    assert_eq!(codes(&findings), ["duplicate_id"], "{findings:?}");
    let update = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "gone", "path": "/k", "value": 1}});
    let findings = validate_messages(&[update], &catalogs(), false);
    assert_eq!((findings[0].category, findings[0].code), (Category::Integrity, "unknown_surface"));
}

#[test]
fn a_data_path_that_is_no_json_pointer_is_refused() {
    let messages = [
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "invalid path [0]", "value": "x"}}),
    ];
    let findings = validate_messages(&messages, &catalogs(), false);
    assert_eq!(codes(&findings), ["invalid_value"], "{findings:?}");
    assert_eq!(findings[0].path, "messages.1.updateDataModel.path");
}

#[test]
fn a_batch_with_findings_does_not_become_the_context() {
    let registry = catalogs();
    let mut validator = SequenceValidator::new(&registry, false);
    assert_eq!(validator.check(&[create(json!([column("root", &["c1"]), text("c1")]))]), vec![]);
    let cyclic = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components":
        [column("c1", &["c2"]), column("c2", &["c1"])]}});
    assert_eq!(codes(&validator.check(&[cyclic])), ["cycle"]);
    // The cycle was not kept: a valid update after it is fine.
    let update = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [text("c1")]}});
    assert_eq!(validator.check(&[update]), vec![]);
}

#[test]
fn a_malformed_template_or_binding_path_is_refused() {
    let template = json!({"id": "root", "component": "Text",
        "text": {"@call": "formatString", "args": {"value": "Hi ${/name"}}});
    let findings = validate_messages(&[create(json!([template]))], &catalogs(), false);
    assert_eq!(codes(&findings), ["invalid_value"], "{findings:?}");
    assert_eq!(findings[0].path, "messages.0.createSurface.components.0.text.args.value");
    let binding = json!({"id": "root", "component": "Text", "text": {"@path": "/a~2b"}});
    let findings = validate_messages(&[create(json!([binding]))], &catalogs(), false);
    assert_eq!(codes(&findings), ["invalid_value"], "{findings:?}");
}

#[test]
fn a_missing_component_property_is_reported_at_the_property() {
    let finding = validate_messages(&[create(json!([{"id": "root", "component": "Column"}]))], &catalogs(), false);
    assert_eq!(codes(&finding), ["missing_field"], "{finding:?}");
    assert_eq!(finding[0].path, "messages.0.createSurface.components.0.children");
}

#[test]
fn messages_before_their_surface_wait_for_it_as_the_engine_buffers_them() {
    let early = [
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [column("root", &["a"]), text("a")]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/x", "value": 1}}),
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_V1_CATALOG_ID}}),
    ];
    assert_eq!(validate_messages(&early, &catalogs(), true), vec![]);
    // The waiting components are judged against the surface's catalog once it exists.
    let mut bad = early.clone();
    bad[0]["updateComponents"]["components"][1] = json!({"id": "a", "component": "NoSuchThing"});
    let findings = validate_messages(&bad, &catalogs(), false);
    assert_eq!(findings[0].path, "messages.0.updateComponents.components.1.component", "{findings:?}");
    // A surface that never comes: each waiting message is reported.
    let never = &early[..2];
    let findings = validate_messages(never, &catalogs(), false);
    assert_eq!(codes(&findings), ["unknown_surface", "unknown_surface"], "{findings:?}");
    assert_eq!(findings[1].path, "messages.1.updateDataModel.surfaceId");
}

/// A v1.0 catalog with a `Sticker` (a typed caption), a `Shelf` (an untyped array) and a
/// function `loud(text: string)`.
fn with_stickers() -> CatalogRegistry {
    let mut registry = catalogs();
    let catalog = crate::catalog::Catalog::from_json(&json!({
        "catalogId": "stickers", "protocolVersion": "1.0",
        "components": {
            "Sticker": {"type": "object", "properties": {"component": {"const": "Sticker"},
                "caption": {"$ref": "common_types.json#/$defs/DynamicString"}}, "required": ["component", "caption"]},
            "Shelf": {"type": "object", "properties": {"component": {"const": "Shelf"}, "entries": {"type": "array"}},
                "required": ["component", "entries"]},
        },
        "functions": {"loud": {"type": "object", "properties": {"@call": {"const": "loud"},
            "args": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                     "additionalProperties": false}}, "required": ["@call", "args"]}},
    }))
    .unwrap();
    registry.register(std::sync::Arc::new(catalog));
    registry
}

#[test]
fn a_call_without_catalog_in_another_catalogs_component_is_the_surface_defaults() {
    let sticker =
        |call: Value| create(json!([{"id": "root", "component": "Sticker", "catalogId": "stickers", "caption": call}]));
    let ok = sticker(json!({"@call": "formatString", "args": {"value": "hi"}}));
    assert_eq!(validate_messages(&[ok], &with_stickers(), true), vec![]);
    // `loud` is the component's catalog's, not the default's: it must name its catalog.
    let findings =
        validate_messages(&[sticker(json!({"@call": "loud", "args": {"text": "a"}}))], &with_stickers(), true);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].path, "messages.0.createSurface.components.0.caption.call");
}

#[test]
fn a_call_naming_a_catalog_has_its_args_checked_there_even_in_an_untyped_array() {
    let text = |call: Value| create(json!([{"id": "root", "component": "Text", "text": call}]));
    let bad = json!({"@call": "loud", "catalogId": "stickers", "args": {"text": 3}});
    let findings = validate_messages(&[text(bad.clone())], &with_stickers(), true);
    assert_eq!(codes(&findings), vec!["type_mismatch"], "{findings:?}");
    assert_eq!(findings[0].path, "messages.0.createSurface.components.0.text.args.text");
    let shelf =
        create(json!([{"id": "root", "component": "Shelf", "catalogId": "stickers", "entries": [{"g": [bad]}]}]));
    let findings = validate_messages(&[shelf], &with_stickers(), true);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0].path.starts_with("messages.0.createSurface.components.0.entries.0.g.0"), "{findings:?}");
    let good = json!({"@call": "loud", "catalogId": "stickers", "args": {"text": "a"}});
    assert_eq!(validate_messages(&[text(good)], &with_stickers(), true), vec![]);
    // A catalog the renderer lacks.
    let unknown = json!({"@call": "loud", "catalogId": "nowhere", "args": {"text": "a"}});
    assert_eq!(codes(&validate_messages(&[text(unknown)], &with_stickers(), true)), vec!["unknown_catalog"]);
}
