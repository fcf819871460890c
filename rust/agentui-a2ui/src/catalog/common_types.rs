//! The v0.9 common types: the building blocks every catalog's components and functions refer to
//! (component ids, child lists, data bindings, dynamic values, function calls, checks, actions).

use serde_json::{json, Value};

use super::dsl::*;

/// The common types document, registered under [`COMMON_TYPES_ID`].
pub fn document() -> Value {
    let defs = json!({
        "ComponentId": string()
            .describe("Id of a component on the same surface. Used both to define a component and to refer to it."),
        "AccessibilityAttributes": object()
            .describe("What assistive technologies (e.g. screen readers) announce for a component.")
            .prop("label", local("DynamicString"), "A short name for the element, one to three words (e.g. 'Submit').")
            .prop(
                "description",
                local("DynamicString"),
                "Extra information for assistive technologies: instructions, expected format, or what an action does.",
            )
            .build(),
        "ComponentCommon": object()
            .prop("id", local("ComponentId"), "")
            .required()
            .prop("accessibility", local("AccessibilityAttributes"), "")
            .build(),
        "ChildList": one_of(vec![
            array_of(local("ComponentId")).title("id list").describe("A fixed list of child component ids."),
            object()
                .title("template")
                .describe(
                    "Generates one child per element of a list in the data model, each rendered with the \
                     template component `componentId` and scoped to that element.",
                )
                .prop("componentId", local("ComponentId"), "")
                .required()
                .prop("path", string(), "Data model path of the list to repeat over.")
                .required()
                .closed()
                .build(),
        ]),
        "DataBinding": object()
            .prop("path", string(), "JSON Pointer into the data model (absolute, or relative to the current list item).")
            .required()
            .closed()
            .build(),
        "DynamicValue": one_of(vec![
            string(),
            number(),
            boolean(),
            typed_array(),
            local("DataBinding"),
            local("FunctionCall"),
        ])
        .describe("Any value: a literal, a data model binding, or a function call."),
        "DynamicString": dynamic(string(), "string")
            .describe("A string: a literal, a data model binding, or a call of a function returning a string."),
        "DynamicNumber": dynamic(number(), "number")
            .describe("A number: a literal, a data model binding, or a call of a function returning a number."),
        "DynamicBoolean": dynamic(boolean(), "boolean")
            .describe("A boolean: a literal, a data model binding, or a call of a function returning a boolean."),
        "DynamicStringList": dynamic(array_of(string()), "array")
            .describe("A list of strings: a literal array, a data model binding, or a call of a function returning an array."),
        "FunctionCall": object()
            .describe("Calls a function of the catalog on the client.")
            .prop("call", string(), "Name of the function.")
            .required()
            .prop(
                "args",
                object()
                    .with(
                        "additionalProperties",
                        any_of(vec![
                            local("DynamicValue"),
                            object().describe("A literal object, e.g. a configuration.").build(),
                        ]),
                    )
                    .build(),
                "Named arguments of the call.",
            )
            .prop(
                "returnType",
                string_enum(&["string", "number", "boolean", "array", "object", "any", "void"]).default_value("boolean"),
                "What the call is expected to return.",
            )
            // Which functions exist, and what their arguments are, is up to the catalog in use.
            .with("oneOf", json!([{ "$ref": "catalog.json#/$defs/anyFunction" }]))
            .build(),
        "CheckRule": object()
            .describe("One client-side validation rule of an input.")
            .prop("condition", local("DynamicBoolean"), "Must evaluate to true for the input to be valid.")
            .required()
            .prop("message", string(), "Shown to the user when the condition is false.")
            .required()
            .closed()
            .build(),
        "Checkable": object()
            .describe("Mix-in for components that run client-side checks.")
            .prop(
                "checks",
                array_of(local("CheckRule")),
                "Checks evaluated on the client; each condition is a boolean function call or binding.",
            )
            .build(),
        "Action": one_of(vec![
            object()
                .title("event")
                .describe("Sends an event to the agent.")
                .prop(
                    "event",
                    object()
                        .prop("name", string(), "Name of the event the agent receives.")
                        .required()
                        .prop(
                            "context",
                            object().with("additionalProperties", local("DynamicValue")).build(),
                            "Key/value pairs sent with the event, resolved on the client. Prefer literals; bind to \
                             the data model only for values the user can change.",
                        )
                        .closed()
                        .build(),
                    "The event to send.",
                )
                .required()
                .closed()
                .build(),
            object()
                .title("function call")
                .describe("Runs a function on the client.")
                .prop("functionCall", local("FunctionCall"), "")
                .required()
                .closed()
                .build(),
        ])
        .describe("What happens on interaction: an event sent to the agent, or a function run on the client."),
    });
    json!({
        "$schema": DIALECT,
        "$id": COMMON_TYPES_ID,
        "title": "A2UI common types",
        "description": "Types shared by the components and functions of A2UI v0.9 catalogs.",
        "$defs": defs,
    })
}

/// The v1.0 common types, registered under [`COMMON_TYPES_V1_ID`]: the v0.9 ones with what
/// v1.0 adds. A `DynamicValue` may be a literal object (one without `path` or `call`, which are
/// a binding and a call); accessibility has `live` and `hidden`; a check's `message` is
/// optional; an event may carry a `userMessage`.
pub fn document_v1() -> Value {
    let mut doc = document();
    doc["$id"] = Value::from(COMMON_TYPES_V1_ID);
    doc["description"] = Value::from("Types shared by the components and functions of A2UI v1.0 catalogs.");
    let defs = &mut doc["$defs"];
    if let Some(Value::Array(branches)) = defs["DynamicValue"].get_mut("oneOf") {
        let not_dynamic = json!({"anyOf": [{"required": ["path"]}, {"required": ["call"]}]});
        branches.push(json!({"type": "object", "not": not_dynamic, "title": "literal object"}));
    }
    let accessibility = &mut defs["AccessibilityAttributes"]["properties"];
    accessibility["live"] = string_enum(&["off", "polite", "assertive"])
        .default_value("off")
        .describe("How a screen reader announces changes: not at all, when the user pauses, or at once.")
        .into_value();
    accessibility["hidden"] = local("DynamicBoolean")
        .describe("Hides the element and its children from assistive technologies.")
        .into_value();
    defs["CheckRule"]["required"] = json!(["condition"]);
    // A component may come from another catalog than its surface's default.
    defs["ComponentCommon"]["properties"]["catalogId"] = json!({"type": "string",
        "description": "The catalog this component comes from, instead of the surface's default."});
    // One child by id (the published basic catalog v1 types `child` with it).
    defs["Child"] = local("ComponentId").describe("A reference to a single child component ID.").into_value();
    // `@index`: the system function of list templates, beside the catalog's functions.
    defs["IndexSystemFunction"] = json!({
        "type": "object",
        "description": "The 0-based index of the current item of a list template, plus `offset`.",
        "properties": {
            "call": {"const": "@index"},
            "args": {
                "type": "object",
                "properties": {"offset": {"$ref": "#/$defs/DynamicNumber"}},
                "additionalProperties": false,
            },
            "returnType": {"const": "number"},
        },
        "required": ["call"],
    });
    if let Some(Value::Array(branches)) = defs["FunctionCall"].get_mut("oneOf") {
        branches.push(json!({"$ref": "#/$defs/IndexSystemFunction"}));
    }
    // A call holds what FunctionCall names and nothing else, whatever its function's schema says
    // (the v1.0 schema's rule; the published basic catalog v1 leaves it to this type).
    defs["FunctionCall"]["unevaluatedProperties"] = Value::Bool(false);
    // The catalog the function comes from, when not the surface's default.
    defs["FunctionCall"]["properties"]["catalogId"] = json!({"type": "string",
        "description": "The catalog the function comes from, instead of the surface's default."});
    // The reserved root every surface's `root` sits under (`allowedParents: ["Surface"]`).
    defs["Surface"] = json!({
        "type": "object",
        "description": "The reserved root of a surface: it always holds the component `root`.",
        "properties": {"component": {"const": "Surface"}, "child": {"const": "root"}},
        "additionalProperties": false,
    });
    if let Some(event) = defs.pointer_mut("/Action/oneOf/0/properties/event/properties") {
        event["userMessage"] =
            local("DynamicString").describe("A human-readable line describing what the user did.").into_value();
    }
    doc
}

fn typed_array() -> Schema {
    Schema::any().with("type", "array")
}

/// A literal of `literal`'s type, a data binding, or a call of a function declaring `returns`.
fn dynamic(literal: Schema, returns: &str) -> Schema {
    one_of(vec![
        literal,
        local("DataBinding"),
        all_of(vec![local("FunctionCall"), properties().prop("returnType", constant(returns), "").build()]),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_every_common_type() {
        let doc = document();
        assert_eq!(doc["$id"], COMMON_TYPES_ID);
        let defs = doc["$defs"].as_object().unwrap();
        for name in [
            "ComponentId",
            "AccessibilityAttributes",
            "ComponentCommon",
            "ChildList",
            "DataBinding",
            "DynamicValue",
            "DynamicString",
            "DynamicNumber",
            "DynamicBoolean",
            "DynamicStringList",
            "FunctionCall",
            "CheckRule",
            "Checkable",
            "Action",
        ] {
            assert!(defs.contains_key(name), "missing {name}");
        }
        assert_eq!(defs["DynamicNumber"]["oneOf"][2]["allOf"][1]["properties"]["returnType"]["const"], "number");
        assert_eq!(defs["FunctionCall"]["required"], json!(["call"]));
        assert!(!defs.contains_key("Child"));
        let v1 = document_v1();
        assert_eq!(v1["$defs"]["Child"]["$ref"], "#/$defs/ComponentId");
    }
}
