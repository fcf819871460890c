//! Unit tests for the validator, keyword by keyword, plus limits and error wording.

use serde_json::{json, Value};

use super::{CompiledSchema, SchemaCompileError, SchemaError, SchemaRegistry};

fn compile(document: Value) -> CompiledSchema {
    let mut registry = SchemaRegistry::new();
    registry.add_document("test.json", document);
    registry.compile("test.json").unwrap_or_else(|e| panic!("compile: {e}"))
}

fn compile_err(document: Value) -> SchemaCompileError {
    let mut registry = SchemaRegistry::new();
    registry.add_document("test.json", document);
    registry.compile("test.json").expect_err("schema should not compile")
}

/// The verdict, after checking that every way of asking agrees on it.
fn verdict(schema: &CompiledSchema, instance: &Value) -> bool {
    let errors = schema.validate(instance);
    let valid = errors.is_empty();
    assert_eq!(valid, schema.is_valid(instance), "is_valid disagrees for {instance}: {errors:?}");
    assert_eq!(valid, schema.is_valid_without_narrowing(instance), "narrowing changed the verdict for {instance}");
    valid
}

#[track_caller]
fn valid(schema: &CompiledSchema, instance: Value) {
    assert!(verdict(schema, &instance), "expected valid: {instance}\n{:#?}", schema.validate(&instance));
}

#[track_caller]
fn invalid(schema: &CompiledSchema, instance: Value) -> Vec<SchemaError> {
    assert!(!verdict(schema, &instance), "expected invalid: {instance}");
    schema.validate(&instance)
}

/// `(path, message)` pairs, for compact assertions.
fn pairs(errors: &[SchemaError]) -> Vec<(&str, &str)> {
    errors.iter().map(|e| (e.instance_path.as_str(), e.message.as_str())).collect()
}

#[test]
fn compiled_schema_is_shareable() {
    fn assert_traits<T: Send + Sync + Clone + std::fmt::Debug>() {}
    assert_traits::<CompiledSchema>();
    assert_traits::<SchemaRegistry>();
}

mod types_and_values {
    use super::*;

    #[test]
    fn single_and_multiple_types() {
        let s = compile(json!({"type": "string"}));
        valid(&s, json!("x"));
        let errors = invalid(&s, json!(1));
        assert_eq!(pairs(&errors), [("", "expected string, got number")]);
        let s = compile(json!({"type": ["string", "null"]}));
        valid(&s, json!(null));
        assert_eq!(invalid(&s, json!(true))[0].message, "expected null or string, got boolean");
    }

    #[test]
    fn integer_accepts_zero_fraction() {
        let s = compile(json!({"type": "integer"}));
        valid(&s, json!(1));
        valid(&s, json!(1.0));
        valid(&s, json!(-7));
        invalid(&s, json!(1.5));
        invalid(&s, json!("1"));
    }

    #[test]
    fn const_and_enum_use_json_equality() {
        let s = compile(json!({"const": 1}));
        valid(&s, json!(1.0));
        invalid(&s, json!(2));
        let s = compile(json!({"const": {"a": [1, 2.0]}}));
        valid(&s, json!({"a": [1.0, 2]}));
        invalid(&s, json!({"a": [2, 1]}));
        let s = compile(json!({"enum": ["a", 2, null, {"k": 1}]}));
        valid(&s, json!(2.0));
        valid(&s, json!({"k": 1.0}));
        valid(&s, json!(null));
        let errors = invalid(&s, json!("b"));
        assert_eq!(errors[0].message, r#""b" is not one of "a", 2, null, {"k":1}"#);
        let s = compile(json!({"const": false}));
        invalid(&s, json!(0));
    }

    #[test]
    fn boolean_schemas() {
        let s = compile(json!(true));
        valid(&s, json!({"anything": 1}));
        let s = compile(json!(false));
        invalid(&s, json!(null));
        let s = compile(json!({"properties": {"a": false}}));
        valid(&s, json!({"b": 1}));
        invalid(&s, json!({"a": 1}));
    }

    #[test]
    fn annotations_are_ignored() {
        let s = compile(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "T", "description": "d", "default": 5, "examples": [1], "$comment": "c",
            "deprecated": true, "discriminator": {"propertyName": "x"}, "format": "made-up-format",
            "x-custom": {"type": "string"}
        }));
        valid(&s, json!(42));
    }
}

mod numbers {
    use super::*;

    #[test]
    fn bounds() {
        let s = compile(json!({"minimum": 0, "maximum": 10}));
        valid(&s, json!(0));
        valid(&s, json!(10.0));
        assert_eq!(invalid(&s, json!(-1))[0].message, "must be >= 0, got -1");
        invalid(&s, json!(10.5));
        valid(&s, json!("not a number"));
        let s = compile(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1.5}));
        valid(&s, json!(1));
        invalid(&s, json!(0));
        invalid(&s, json!(1.5));
        let big = compile(json!({"maximum": 18446744073709551615u64}));
        valid(&big, json!(18446744073709551615u64));
        invalid(&big, json!(1.9e19));
    }

    #[test]
    fn multiple_of() {
        let s = compile(json!({"multipleOf": 0.1}));
        valid(&s, json!(0.3));
        valid(&s, json!(7));
        invalid(&s, json!(0.35));
        let s = compile(json!({"multipleOf": 3}));
        valid(&s, json!(-9));
        valid(&s, json!(9.0));
        invalid(&s, json!(10));
        let s = compile(json!({"type": "integer", "multipleOf": 0.123456789}));
        invalid(&s, json!(1e308));
        assert!(matches!(compile_err(json!({"multipleOf": 0})), SchemaCompileError::Invalid { .. }));
    }
}

mod strings {
    use super::*;

    #[test]
    fn length_counts_scalar_values() {
        let s = compile(json!({"minLength": 2, "maxLength": 3}));
        valid(&s, json!("ab"));
        valid(&s, json!("😀😀"));
        assert_eq!(invalid(&s, json!("😀"))[0].message, "must be at least 2 characters long, got 1");
        invalid(&s, json!("abcd"));
        valid(&s, json!(5));
    }

    #[test]
    fn pattern_is_unanchored_and_cached() {
        let s = compile(json!({"pattern": "^#[0-9a-fA-F]{6}$"}));
        valid(&s, json!("#00BFFF"));
        let errors = invalid(&s, json!("invalid-color"));
        assert_eq!(errors[0].message, r##""invalid-color" does not match pattern "^#[0-9a-fA-F]{6}$""##);
        let s = compile(json!({"pattern": "b+"}));
        valid(&s, json!("abbc"));
        invalid(&s, json!("ac"));
    }

    #[test]
    fn invalid_pattern_is_a_compile_error() {
        let err = compile_err(json!({"properties": {"a": {"pattern": "(unclosed"}}}));
        match err {
            SchemaCompileError::Invalid { location, reason } => {
                assert_eq!(location, "test.json#/properties/a/pattern");
                assert!(reason.contains("(unclosed"), "{reason}");
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(compile_err(json!({"patternProperties": {"[": {}}})), SchemaCompileError::Invalid { .. }));
    }

    #[test]
    fn formats() {
        let s = compile(json!({"format": "uri"}));
        valid(&s, json!("https://example.com/a?b#c"));
        assert_eq!(invalid(&s, json!("not a uri"))[0].message, r#""not a uri" is not a valid uri"#);
        invalid(&s, json!("/relative"));
        let s = compile(json!({"format": "date-time"}));
        valid(&s, json!("2023-10-27T10:00:00Z"));
        valid(&s, json!("2023-10-27T10:00:00.123+02:00"));
        invalid(&s, json!("2023-10-27"));
        invalid(&s, json!("2023-02-30T10:00:00Z"));
        let s = compile(json!({"format": "date"}));
        valid(&s, json!("2024-02-29"));
        invalid(&s, json!("2024-02-30"));
        let s = compile(json!({"format": "time"}));
        valid(&s, json!("08:30:00Z"));
        invalid(&s, json!("8:30"));
        let s = compile(json!({"format": "email"}));
        valid(&s, json!("john.doe@example.com"));
        invalid(&s, json!("john.doe"));
        let s = compile(json!({"format": "unknown-format"}));
        valid(&s, json!("anything"));
        let s = compile(json!({"format": "email"}));
        valid(&s, json!(12));
    }
}

mod arrays {
    use super::*;

    #[test]
    fn items_and_prefix_items() {
        let s = compile(json!({"prefixItems": [{"type": "string"}, {"type": "number"}], "items": {"type": "boolean"}}));
        valid(&s, json!([]));
        valid(&s, json!(["a", 1, true, false]));
        let errors = invalid(&s, json!(["a", "b", true, 3]));
        assert_eq!(pairs(&errors), [("/1", "expected number, got string"), ("/3", "expected boolean, got number")]);
        let closed = compile(json!({"prefixItems": [{}], "items": false}));
        valid(&closed, json!([1]));
        assert_eq!(pairs(&invalid(&closed, json!([1, 2]))), [("/1", "unexpected item; at most 1 allowed")]);
        assert!(matches!(compile_err(json!({"items": [{}]})), SchemaCompileError::Invalid { .. }));
    }

    #[test]
    fn counts_and_uniqueness() {
        let s = compile(json!({"minItems": 1, "maxItems": 3, "uniqueItems": true}));
        valid(&s, json!([1, "1", [1]]));
        assert_eq!(invalid(&s, json!([]))[0].message, "expected at least 1 item, got 0");
        invalid(&s, json!([1, 2, 3, 4]));
        assert_eq!(invalid(&s, json!([1, 2, 1.0]))[0].message, "items 0 and 2 are equal; items must be unique");
        invalid(&s, json!([{"a": 1, "b": 2}, {"b": 2, "a": 1}]));
        valid(&s, json!([{"a": 1}, {"a": 2}]));
        let many: Vec<Value> = (0..20_000).map(|i| json!(i)).collect();
        let unique = compile(json!({"uniqueItems": true}));
        valid(&unique, Value::Array(many));
    }

    #[test]
    fn contains() {
        let s = compile(json!({"contains": {"type": "string"}, "maxContains": 2}));
        valid(&s, json!([1, "a"]));
        invalid(&s, json!([1, 2]));
        invalid(&s, json!(["a", "b", "c"]));
        let none = compile(json!({"contains": {"type": "string"}, "minContains": 0}));
        valid(&none, json!([1]));
    }
}

mod objects {
    use super::*;

    #[test]
    fn required_reports_at_the_object() {
        let s = compile(json!({"properties": {"x": {"required": ["text"]}}}));
        let errors = invalid(&s, json!({"x": {}}));
        assert_eq!(pairs(&errors), [("/x", r#"missing required property "text""#)]);
    }

    #[test]
    fn additional_properties() {
        let s = compile(
            json!({"properties": {"a": {}}, "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}),
        );
        valid(&s, json!({"a": 1, "x-b": "s"}));
        let errors = invalid(&s, json!({"a": 1, "x-b": 2, "enabled": true}));
        assert_eq!(
            pairs(&errors),
            [("/x-b", "expected string, got number"), ("/enabled", r#"unexpected property "enabled""#)]
        );
        let s = compile(json!({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}));
        valid(&s, json!({"a": "s", "b": 2}));
        assert_eq!(pairs(&invalid(&s, json!({"b": 2.5}))), [("/b", "expected integer, got number")]);
        let s = compile(json!({"additionalProperties": true}));
        valid(&s, json!({"any": 1}));
    }

    #[test]
    fn property_counts_names_and_dependencies() {
        let s = compile(json!({"minProperties": 2, "maxProperties": 2}));
        valid(&s, json!({"a": 1, "b": 2}));
        assert_eq!(invalid(&s, json!({"a": 1}))[0].message, "expected at least 2 properties, got 1");
        invalid(&s, json!({"a": 1, "b": 2, "c": 3}));
        let s = compile(json!({"propertyNames": {"maxLength": 3}}));
        valid(&s, json!({"abc": 1}));
        let errors = invalid(&s, json!({"abcd": 1}));
        assert_eq!(errors[0].instance_path, "/abcd");
        assert!(errors[0].message.starts_with("property name \"abcd\""), "{}", errors[0].message);
        let s = compile(json!({"dependentRequired": {"a": ["b"]}}));
        valid(&s, json!({"b": 1}));
        invalid(&s, json!({"a": 1}));
    }

    #[test]
    fn paths_escape_pointer_characters() {
        let s = compile(json!({"additionalProperties": false}));
        let errors = invalid(&s, json!({"a/b~c": 1}));
        assert_eq!(pairs(&errors), [("/a~1b~0c", r#"unexpected property "a/b~c""#)]);
    }
}

mod unevaluated_properties {
    use super::*;

    #[test]
    fn sees_properties_of_the_same_object_and_all_of() {
        let s = compile(json!({
            "properties": {"id": {}},
            "allOf": [{"properties": {"component": {}}}, {"patternProperties": {"^x": {}}}],
            "unevaluatedProperties": false
        }));
        valid(&s, json!({"id": 1, "component": "Text", "xy": 1}));
        let errors = invalid(&s, json!({"id": 1, "enabled": true}));
        assert_eq!(pairs(&errors), [("/enabled", r#"unexpected property "enabled""#)]);
    }

    #[test]
    fn only_successful_any_of_branches_count() {
        let s = compile(json!({
            "anyOf": [
                {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "string"}}, "required": ["b"]}
            ],
            "unevaluatedProperties": false
        }));
        valid(&s, json!({"a": "x"}));
        valid(&s, json!({"a": "x", "b": "y"}));
        // `b` is declared by the failed branch only, so it stays unevaluated.
        let errors = invalid(&s, json!({"a": "x", "b": 1}));
        assert_eq!(pairs(&errors), [("/b", r#"unexpected property "b""#)]);
    }

    #[test]
    fn one_of_counts_the_matching_branch() {
        let s = compile(json!({
            "oneOf": [
                {"properties": {"kind": {"const": "a"}, "x": {}}, "required": ["kind"]},
                {"properties": {"kind": {"const": "b"}, "y": {}}, "required": ["kind"]}
            ],
            "unevaluatedProperties": false
        }));
        valid(&s, json!({"kind": "a", "x": 1}));
        let errors = invalid(&s, json!({"kind": "a", "y": 1}));
        assert_eq!(pairs(&errors), [("/y", r#"unexpected property "y""#)]);
    }

    #[test]
    fn if_then_else_annotations() {
        let s = compile(json!({
            "if": {"properties": {"foo": {"const": "then"}}, "required": ["foo"]},
            "then": {"properties": {"bar": {}}},
            "else": {"properties": {"baz": {}}},
            "unevaluatedProperties": false
        }));
        valid(&s, json!({"foo": "then", "bar": 1}));
        invalid(&s, json!({"foo": "then", "baz": 1}));
        valid(&s, json!({"baz": 1}));
        // A failed `if` contributes nothing, so its `foo` is unevaluated.
        invalid(&s, json!({"foo": "else", "baz": 1}));
        invalid(&s, json!({"bar": 1}));
    }

    #[test]
    fn refs_and_dependent_schemas_count() {
        let s = compile(json!({
            "$ref": "#/$defs/base",
            "dependentSchemas": {"a": {"properties": {"b": {}}}},
            "unevaluatedProperties": false,
            "$defs": {"base": {"properties": {"a": {}}}}
        }));
        valid(&s, json!({"a": 1, "b": 2}));
        invalid(&s, json!({"b": 2}));
    }

    #[test]
    fn not_contributes_nothing() {
        let s = compile(json!({
            "properties": {"a": {}},
            "not": {"not": {"properties": {"b": {}}}},
            "unevaluatedProperties": false
        }));
        invalid(&s, json!({"a": 1, "b": 1}));
    }

    #[test]
    fn nested_scope_does_not_see_parent_properties() {
        let s = compile(json!({"properties": {"a": {}}, "allOf": [{"unevaluatedProperties": false}]}));
        invalid(&s, json!({"a": 1}));
        valid(&s, json!({}));
    }

    #[test]
    fn nested_unevaluated_marks_everything_for_the_parent() {
        let s = compile(json!({
            "allOf": [{"properties": {"a": {}}, "unevaluatedProperties": true}],
            "unevaluatedProperties": false
        }));
        valid(&s, json!({"a": 1, "b": 2}));
        let s = compile(json!({"allOf": [{"additionalProperties": true}], "unevaluatedProperties": false}));
        valid(&s, json!({"x": 1}));
    }

    #[test]
    fn schema_valued_unevaluated_properties() {
        let s = compile(json!({"properties": {"a": {}}, "unevaluatedProperties": {"type": "number"}}));
        valid(&s, json!({"a": "s", "b": 1}));
        assert_eq!(pairs(&invalid(&s, json!({"b": "s"}))), [("/b", "expected number, got string")]);
    }

    #[test]
    fn invalid_declared_property_is_not_reported_as_unexpected() {
        let s =
            compile(json!({"allOf": [{"properties": {"text": {"type": "string"}}}], "unevaluatedProperties": false}));
        let errors = invalid(&s, json!({"text": 5}));
        assert_eq!(pairs(&errors), [("/text", "expected string, got number")]);
    }
}

mod applicators {
    use super::*;

    #[test]
    fn one_of_is_exactly_one() {
        let s = compile(json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}));
        valid(&s, json!(1));
        valid(&s, json!(2.5));
        let errors = invalid(&s, json!(3));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].instance_path, "");
        assert!(errors[0].message.contains("matches both integer and shape 2"), "{}", errors[0].message);
        // 1.5 can only be meant for the second branch (it is not an integer): its error is the error.
        assert_eq!(pairs(&invalid(&s, json!(1.5))), [("", "must be >= 2, got 1.5")]);
        let s = compile(json!({"oneOf": [{"type": "integer", "minimum": 5}, {"type": "integer", "maximum": 0}]}));
        let errors = invalid(&s, json!(3));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.starts_with("does not match exactly one of the allowed shapes"), "{errors:?}");
    }

    #[test]
    fn any_of_all_of_not() {
        let s = compile(json!({"anyOf": [{"type": "string"}, {"type": "number"}]}));
        valid(&s, json!(1));
        valid(&s, json!("a"));
        let errors = invalid(&s, json!(null));
        assert_eq!(pairs(&errors), [("", "does not match any of the allowed shapes: string, number; got null")]);
        let s = compile(json!({"allOf": [{"minimum": 1}, {"maximum": 3}]}));
        valid(&s, json!(2));
        invalid(&s, json!(4));
        let s = compile(json!({"not": {"const": "VALIDATION_FAILED"}}));
        valid(&s, json!("OTHER"));
        assert_eq!(invalid(&s, json!("VALIDATION_FAILED"))[0].message, r#"must not be "VALIDATION_FAILED""#);
    }

    #[test]
    fn if_then_else() {
        let s = compile(json!({"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"minimum": 5}}));
        valid(&s, json!("ab"));
        invalid(&s, json!("a"));
        valid(&s, json!(6));
        invalid(&s, json!(4));
        let only_then = compile(json!({"if": {"type": "string"}, "then": {"minLength": 2}}));
        valid(&only_then, json!(1));
    }

    #[test]
    fn closest_branch_is_quoted() {
        let s = compile(json!({
            "$defs": {
                "Binding": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false},
                "Call": {"type": "object", "properties": {"call": {"type": "string"}}, "required": ["call"]}
            },
            "oneOf": [{"type": "string"}, {"$ref": "#/$defs/Binding"}, {"$ref": "#/$defs/Call"}]
        }));
        // Only Binding can match an object with just `path`: its error is reported directly.
        assert_eq!(pairs(&invalid(&s, json!({"path": 5}))), [("/path", "expected string, got number")]);
        // Only Call can match once `call` is present (Binding is closed).
        assert_eq!(pairs(&invalid(&s, json!({"path": "/a", "call": 5}))), [("/call", "expected string, got number")]);
        // Nothing can match: one error at the value, naming the shapes and the closest one.
        let errors = invalid(&s, json!({"nothing": 1}));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].instance_path, "");
        assert_eq!(
            errors[0].message,
            r#"does not match exactly one of the allowed shapes: string, Binding, Call; closest is Call: missing required property "call""#
        );
    }
}

mod discriminated_unions {
    use super::*;

    fn components() -> CompiledSchema {
        compile(json!({
            "$defs": {
                "Common": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                "Text": {
                    "allOf": [
                        {"$ref": "#/$defs/Common"},
                        {"properties": {"component": {"const": "Text"}, "text": {"type": "string"}}, "required": ["component", "text"]}
                    ],
                    "unevaluatedProperties": false
                },
                "Image": {
                    "allOf": [
                        {"$ref": "#/$defs/Common"},
                        {"properties": {"component": {"const": "Image"}, "url": {"type": "string"}}, "required": ["component", "url"]}
                    ],
                    "unevaluatedProperties": false
                },
                "Any": {"oneOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]}
            },
            "type": "object",
            "properties": {"components": {"type": "array", "items": {"$ref": "#/$defs/Any"}}}
        }))
    }

    #[test]
    fn errors_come_from_the_selected_branch() {
        let s = components();
        valid(
            &s,
            json!({"components": [{"id": "a", "component": "Text", "text": "hi"}, {"id": "b", "component": "Image", "url": "u"}]}),
        );
        let doc = json!({"components": [
            {"id": "a", "component": "Text", "text": "hi"},
            {"id": "b", "component": "Image", "url": "u"},
            {"id": "c", "component": "Text", "text": "x", "enabled": true},
            {"id": "d", "component": "Text", "text": 5}
        ]});
        let errors = invalid(&s, doc);
        assert_eq!(
            pairs(&errors),
            [
                ("/components/2/enabled", r#"unexpected property "enabled""#),
                ("/components/3/text", "expected string, got number")
            ]
        );
        let errors = invalid(&s, json!({"components": [{"id": "a", "component": "Text"}]}));
        assert_eq!(pairs(&errors), [("/components/0", r#"missing required property "text""#)]);
    }

    #[test]
    fn unknown_tag_is_reported_at_the_tag() {
        let errors = invalid(&components(), json!({"components": [{"id": "a", "component": "Foo"}]}));
        assert_eq!(
            pairs(&errors),
            [("/components/0/component", r#"unknown value "Foo" for "component"; expected one of "Text", "Image""#)]
        );
    }

    #[test]
    fn missing_or_non_string_tag_falls_back_to_one_of() {
        let s = components();
        let errors = invalid(&s, json!({"components": [{"id": "a", "text": "x"}]}));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].instance_path, "/components/0");
        assert!(errors[0].message.starts_with("does not match exactly one"), "{}", errors[0].message);
        invalid(&s, json!({"components": [{"id": "a", "component": 7, "text": "x"}]}));
        invalid(&s, json!({"components": ["Text"]}));
    }
}

mod references {
    use super::*;

    #[test]
    fn recursive_refs() {
        let s = compile(json!({
            "$defs": {"node": {
                "type": "object",
                "properties": {"value": {"type": "number"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "additionalProperties": false
            }},
            "$ref": "#/$defs/node"
        }));
        valid(&s, json!({"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}));
        let errors = invalid(&s, json!({"children": [{"children": [{"value": "x"}]}]}));
        assert_eq!(pairs(&errors), [("/children/0/children/0/value", "expected number, got string")]);
        let root = compile(json!({"properties": {"next": {"$ref": "#"}}, "type": "object"}));
        valid(&root, json!({"next": {"next": {}}}));
        invalid(&root, json!({"next": {"next": 1}}));
    }

    #[test]
    fn refs_across_documents() {
        let mut registry = SchemaRegistry::new();
        registry.add_document(
            "https://a2ui.org/specification/v0_9/common_types.json",
            json!({
                "$id": "https://a2ui.org/specification/v0_9/common_types.json",
                "$defs": {
                    "DynamicString": {"oneOf": [{"type": "string"}, {"$ref": "catalog.json#/$defs/anyFunction"}]}
                }
            }),
        );
        // The catalog in use, registered under the bare name; its `$id` lives elsewhere.
        registry.add_document(
            "catalog.json",
            json!({
                "$id": "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
                "components": {
                    "Text": {"properties": {"text": {"$ref": "https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicString"}}}
                },
                "$defs": {"anyFunction": {"type": "object", "required": ["call"]}}
            }),
        );
        let text = registry.compile("catalog.json#/components/Text").expect("compiles");
        valid(&text, json!({"text": "hi"}));
        valid(&text, json!({"text": {"call": "now"}}));
        invalid(&text, json!({"text": {}}));
        let by_id =
            registry.compile("https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json#/components/Text");
        assert!(by_id.is_ok());
    }

    #[test]
    fn relative_refs_resolve_against_the_document() {
        let mut registry = SchemaRegistry::new();
        registry.add_document("https://example.com/schemas/a.json", json!({"$ref": "b.json#/$defs/n"}));
        registry.add_document("https://example.com/schemas/b.json", json!({"$defs": {"n": {"type": "number"}}}));
        let a = registry.compile("https://example.com/schemas/a.json").expect("compiles");
        valid(&a, json!(1));
        invalid(&a, json!("1"));
    }

    #[test]
    fn nested_ids_anchors_and_escaped_pointers() {
        let s = compile(json!({
            "$id": "https://example.com/root.json",
            "$defs": {
                "inner": {"$id": "nested/inner.json", "$defs": {"x": {"type": "string"}}, "$ref": "#/$defs/x"},
                "anchored": {"$anchor": "num", "type": "number"},
                "a/b": {"type": "boolean"},
                "per%cent": {"type": "null"}
            },
            "properties": {
                "inner": {"$ref": "nested/inner.json"},
                "anchor": {"$ref": "#num"},
                "slash": {"$ref": "#/$defs/a~1b"},
                "percent": {"$ref": "#/$defs/per%25cent"}
            }
        }));
        valid(&s, json!({"inner": "s", "anchor": 1, "slash": true, "percent": null}));
        invalid(&s, json!({"inner": 1}));
        invalid(&s, json!({"anchor": "1"}));
        invalid(&s, json!({"slash": 1}));
        invalid(&s, json!({"percent": 1}));
    }

    #[test]
    fn unresolvable_refs_fail_compilation() {
        assert_eq!(
            compile_err(json!({"$ref": "#/$defs/missing"})),
            SchemaCompileError::UnresolvedRef("#/$defs/missing".to_string())
        );
        assert!(matches!(compile_err(json!({"$ref": "other.json"})), SchemaCompileError::UnresolvedRef(_)));
        let registry = SchemaRegistry::new();
        assert!(matches!(registry.compile("nothing.json"), Err(SchemaCompileError::UnresolvedRef(_))));
    }

    #[test]
    fn malformed_schemas_fail_compilation() {
        for bad in [
            json!({"type": "strin"}),
            json!({"type": 5}),
            json!({"minLength": -1}),
            json!({"required": "a"}),
            json!({"properties": {"a": 5}}),
            json!({"anyOf": []}),
            json!({"enum": "a"}),
            json!({"$ref": 5}),
            json!(7),
        ] {
            assert!(matches!(compile_err(bad.clone()), SchemaCompileError::Invalid { .. }), "{bad}");
        }
    }
}

mod limits {
    use super::*;

    #[test]
    fn self_referencing_schema_stops_at_the_depth_limit() {
        let s = compile(json!({"$ref": "#"}));
        let errors = s.validate(&json!(1));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains("deeper than 256"), "{}", errors[0].message);
        assert!(!s.is_valid(&json!(1)));
        let loop_schema = compile(
            json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
        );
        assert!(!loop_schema.is_valid(&json!(null)));
    }

    #[test]
    fn deep_instances_stop_at_the_depth_limit_without_overflowing() {
        let s = compile(json!({"anyOf": [{"type": "number"}, {"type": "array", "items": {"$ref": "#"}}]}));
        let mut deep = json!(1);
        for _ in 0..5_000 {
            deep = Value::Array(vec![deep]);
        }
        // Well under the 2 MiB of a default thread: the depth limit needs ~400 KiB in debug
        // builds (about 1.5 KiB per level), much less in release.
        let handle = std::thread::Builder::new()
            .stack_size(1024 * 1024)
            .spawn(move || {
                let errors = s.validate(&deep);
                let valid = s.is_valid(&deep);
                let shallow = s.is_valid(&json!([[[1]]]));
                // Dropping a 5,000-deep Value recurses in serde_json; keep that out of this test.
                std::mem::forget(deep);
                (errors, valid, shallow)
            })
            .expect("spawn");
        let (errors, valid, shallow) = handle.join().expect("no stack overflow");
        assert!(!valid);
        assert!(shallow);
        assert!(errors.iter().any(|e| e.message.contains("deeper than 256")), "{errors:?}");
    }

    #[test]
    fn exponential_schemas_hit_the_step_limit() {
        // Each level tries both branches, and both recurse: 2^40 paths without a budget.
        let mut defs = serde_json::Map::new();
        for level in 0..40 {
            let next = if level == 39 {
                json!({"type": "string"})
            } else {
                json!({"$ref": format!("#/$defs/l{}", level + 1)})
            };
            defs.insert(format!("l{level}"), json!({"anyOf": [{"allOf": [next.clone(), {"type": "number"}]}, next]}));
        }
        let s = compile(json!({"$defs": defs, "$ref": "#/$defs/l0"}));
        let started = std::time::Instant::now();
        assert!(!s.is_valid(&json!(1)));
        let errors = s.validate(&json!(1));
        assert!(errors.iter().any(|e| e.message.contains("steps and was stopped")), "{errors:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
    }
}

/// Branch narrowing and tagged unions must never change a verdict. Checked on the spec's own
/// schemas with every spec case mutated in many small ways, and on random instances.
mod narrowing_is_sound {
    use std::path::PathBuf;

    use proptest::prelude::*;

    use super::*;

    fn spec_dir() -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/conformance/a2ui/v0_9/"))
    }

    fn read(relative: &str) -> Value {
        let path = spec_dir().join(relative);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).expect("spec JSON")
    }

    fn spec_registry() -> SchemaRegistry {
        let mut registry = SchemaRegistry::new();
        registry.add_document("common_types.json", read("json/common_types.json"));
        registry.add_document("catalog.json", read("catalogs/basic/catalog.json"));
        registry.add_document("server_to_client.json", read("json/server_to_client.json"));
        registry.add_document("client_to_server.json", read("json/client_to_server.json"));
        registry
    }

    /// Variants of `value`: each position removed, replaced by values of other types, or (for
    /// strings) by tags the schemas switch on.
    fn mutations(value: &Value) -> Vec<Value> {
        let replacements = [
            json!(null),
            json!(0),
            json!(-2.5),
            json!("x"),
            json!(true),
            json!([]),
            json!({}),
            json!("Text"),
            json!("Button"),
            json!("required"),
            json!("boolean"),
            json!("string"),
            json!({"path": "/p"}),
            json!({"call": "not", "args": {"value": true}}),
        ];
        let mut pointers = Vec::new();
        let mut stack = vec![(String::new(), value)];
        while let Some((pointer, v)) = stack.pop() {
            match v {
                Value::Object(map) => {
                    for (k, child) in map {
                        stack.push((format!("{pointer}/{}", super::super::uri::escape_token(k)), child));
                    }
                }
                Value::Array(items) => {
                    for (i, child) in items.iter().enumerate() {
                        stack.push((format!("{pointer}/{i}"), child));
                    }
                }
                _ => {}
            }
            pointers.push(pointer);
        }
        let mut out = Vec::new();
        for pointer in pointers {
            let Some((parent, last)) = pointer.rsplit_once('/') else {
                continue;
            };
            let token = last.replace("~1", "/").replace("~0", "~");
            let mut removed = value.clone();
            match removed.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.shift_remove(&token);
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = token.parse::<usize>() {
                        items.remove(i);
                    }
                }
                _ => {}
            }
            out.push(removed);
            for replacement in &replacements {
                let mut replaced = value.clone();
                if let Some(slot) = replaced.pointer_mut(&pointer) {
                    *slot = replacement.clone();
                }
                out.push(replaced);
            }
            let mut extended = value.clone();
            if let Some(Value::Object(map)) = extended.pointer_mut(&pointer) {
                map.insert("extra".to_string(), json!(1));
                out.push(extended);
            }
        }
        out
    }

    #[test]
    fn on_mutated_spec_cases() {
        let registry = spec_registry();
        let mut dir: Vec<PathBuf> = std::fs::read_dir(spec_dir().join("test/cases"))
            .expect("cases")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        dir.sort();
        let (mut checked, mut invalid_seen) = (0, 0);
        for path in dir {
            let suite: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
            let schema = registry.compile(suite["schema"].as_str().expect("schema")).expect("compile");
            for case in suite["tests"].as_array().expect("tests") {
                for variant in mutations(&case["data"]) {
                    invalid_seen += usize::from(!verdict(&schema, &variant));
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000 && invalid_seen > 5_000, "checked {checked}, invalid {invalid_seen}");
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(|n| json!(n)),
            (-1e6f64..1e6).prop_map(|f| json!(f)),
            prop::sample::select(vec![
                "Text",
                "Button",
                "call",
                "required",
                "v0.9",
                "/p",
                "",
                "x",
                "string",
                "object",
                "number",
                "#",
                "#/$defs/d",
                "^a",
            ])
            .prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(5, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "version",
                            "updateComponents",
                            "surfaceId",
                            "components",
                            "id",
                            "component",
                            "text",
                            "path",
                            "call",
                            "args",
                            "value",
                            "returnType",
                            "child",
                            "action",
                            "event",
                            "name",
                            // Schema keywords, so random values are also interesting schemas.
                            "type",
                            "properties",
                            "oneOf",
                            "anyOf",
                            "allOf",
                            "items",
                            "required",
                            "const",
                            "enum",
                            "additionalProperties",
                            "unevaluatedProperties",
                            "not",
                            "if",
                            "then",
                            "minimum",
                            "pattern",
                            "$ref",
                            "$defs",
                            "uniqueItems",
                            "minLength",
                        ]),
                        inner
                    ),
                    0..5
                )
                .prop_map(|entries| Value::Object(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    /// (server_to_client.json, anyComponent), compiled once for all proptest cases.
    fn spec_schemas() -> &'static (CompiledSchema, CompiledSchema) {
        static SCHEMAS: std::sync::OnceLock<(CompiledSchema, CompiledSchema)> = std::sync::OnceLock::new();
        SCHEMAS.get_or_init(|| {
            let registry = spec_registry();
            let message = registry.compile("server_to_client.json").expect("compile");
            let component = registry.compile("catalog.json#/$defs/anyComponent").expect("compile");
            (message, component)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn on_random_instances(components in prop::collection::vec(any_json(), 0..3), tail in any_json()) {
            let (schema, component) = spec_schemas();
            let message = json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": components}});
            verdict(schema, &message);
            verdict(schema, &tail);
            verdict(component, &tail);
        }

        /// Random schemas either fail to compile or validate without panicking.
        #[test]
        fn random_schemas_never_panic(schema in any_json(), instance in any_json()) {
            let keywords = ["type", "properties", "items", "oneOf", "anyOf", "$ref", "const", "required", "minimum"];
            let mut registry = SchemaRegistry::new();
            registry.add_document("r.json", schema.clone());
            if let Ok(compiled) = registry.compile("r.json") {
                verdict(&compiled, &instance);
            }
            // And with the random values placed under real keywords.
            for keyword in keywords {
                let mut registry = SchemaRegistry::new();
                registry.add_document("k.json", json!({ keyword: schema.clone(), "$defs": {"d": schema.clone()} }));
                if let Ok(compiled) = registry.compile("k.json") {
                    verdict(&compiled, &instance);
                }
            }
        }
    }
}
