//! Schemas of the v0.9 envelopes (server-to-client messages, client-to-server events) and of
//! the client capabilities object. Components, functions and the theme are taken from whatever
//! document is registered as `catalog.json` (the catalog in use).

use serde_json::{json, Value};

use super::dsl::*;

pub const SERVER_TO_CLIENT_ID: &str = "https://a2ui.org/specification/v0_9/server_to_client.json";
pub const CLIENT_TO_SERVER_ID: &str = "https://a2ui.org/specification/v0_9/client_to_server.json";

/// The four server-to-client messages: (body key, definition name).
pub const SERVER_MESSAGES: [(&str, &str); 4] = [
    ("createSurface", "CreateSurfaceMessage"),
    ("updateComponents", "UpdateComponentsMessage"),
    ("updateDataModel", "UpdateDataModelMessage"),
    ("deleteSurface", "DeleteSurfaceMessage"),
];

fn version() -> Schema {
    string_enum(&crate::wire::v09::SUPPORTED_VERSIONS).describe("Protocol version of the message.")
}

/// `{"version": ..., key: body}` and nothing else.
fn message(key: &str, body: Schema) -> Schema {
    object().prop("version", version(), "").prop(key, body, "").require(&[key, "version"]).closed().build()
}

fn surface_id(what: &str) -> Schema {
    string().describe(what)
}

/// The server-to-client message schema.
pub fn server_to_client() -> Value {
    let create = object()
        .describe(
            "Creates a surface and starts rendering it; components and data follow in updateComponents and \
             updateDataModel messages for the same surface. Creating a surface id that already exists is an error \
             unless it was deleted first.",
        )
        .prop("surfaceId", surface_id("Id of the new surface."), "")
        .required()
        .prop(
            "catalogId",
            string(),
            "Id of the catalog the surface's components and functions come from; must be one the client supports.",
        )
        .required()
        .prop(
            "theme",
            reference("catalog.json#/$defs/theme"),
            "Theme parameters, checked against the catalog's theme schema.",
        )
        .prop(
            "sendDataModel",
            boolean(),
            "When true, the client attaches the surface's full data model to every message it sends to the agent \
             that created the surface. Default false.",
        )
        .closed()
        .build();
    let update_components = object()
        .describe(
            "Adds or replaces components of an existing surface (matched by id). The tree is rooted at the \
             component with id 'root'.",
        )
        .prop("surfaceId", surface_id("Id of the surface to update."), "")
        .required()
        .prop(
            "components",
            array_of(reference("catalog.json#/$defs/anyComponent")).min_items(1),
            "Component definitions, each a catalog component with a unique id.",
        )
        .required()
        .closed()
        .build();
    let update_data_model = object()
        .describe("Replaces, creates or removes a value in a surface's data model.")
        .prop("surfaceId", surface_id("Id of the surface whose data model changes."), "")
        .required()
        .prop("path", string(), "JSON Pointer of the value to change; omitted or '/' means the whole data model.")
        .prop("value", Schema::any(), "The new value at 'path'. When omitted, the value at 'path' is removed.")
        .closed()
        .build();
    let delete_surface = object()
        .describe("Removes a surface and everything in it.")
        .prop("surfaceId", surface_id("Id of the surface to delete."), "")
        .required()
        .closed()
        .build();
    let bodies = [create, update_components, update_data_model, delete_surface];
    let mut defs = serde_json::Map::new();
    let mut branches = Vec::new();
    for ((key, def), body) in SERVER_MESSAGES.iter().zip(bodies) {
        defs.insert((*def).to_string(), message(key, body).into_value());
        branches.push(local(def));
    }
    let body = one_of(branches)
        .describe("One message from the agent to the client: exactly one of the four operations, with the version.")
        .with("type", "object")
        .with("$defs", defs);
    with_header(
        json!({"$schema": DIALECT, "$id": SERVER_TO_CLIENT_ID, "title": "A2UI v0.9 server-to-client message"}),
        body,
    )
}

/// The client-to-server event schema.
pub fn client_to_server() -> Value {
    let action = object()
        .describe("A user interaction reported to the agent.")
        .prop("name", string(), "Name of the action, from the component's action.event.name.")
        .required()
        .prop("surfaceId", string(), "Surface the interaction happened on.")
        .required()
        .prop("sourceComponentId", string(), "Component the user interacted with.")
        .required()
        .prop("timestamp", string().format("date-time"), "When it happened, ISO 8601.")
        .required()
        .prop(
            "context",
            object().with("additionalProperties", true).build(),
            "The action's context with every binding resolved to its current value.",
        )
        .required()
        .build();
    let validation_failed = object()
        .title("Validation failed")
        .prop("code", constant("VALIDATION_FAILED"), "")
        .required()
        .prop("surfaceId", string(), "Surface the rejected message was for.")
        .required()
        .prop("path", string(), "JSON Pointer of the offending value inside the message (e.g. '/components/0/text').")
        .required()
        .prop("message", string(), "One or two sentences on why the value was rejected.")
        .required()
        .closed()
        .build();
    let generic = object()
        .title("Other error")
        .prop("code", Schema::any().with("not", constant("VALIDATION_FAILED")), "Machine-readable error code.")
        .required()
        .prop("surfaceId", string(), "Surface the error concerns.")
        .required()
        .prop("message", string(), "One or two sentences on what went wrong.")
        .required()
        .with("additionalProperties", true)
        .build();
    let body = object()
        .describe("One event from the client to the agent: a user action or an error report, with the version.")
        .prop("version", version(), "")
        .prop("action", action, "")
        .prop("error", one_of(vec![validation_failed, generic]).describe("A client-side error."), "")
        .with("minProperties", 2)
        .with("maxProperties", 2)
        .with(
            "oneOf",
            json!([
                { "title": "action event", "required": ["action", "version"] },
                { "title": "error event", "required": ["error", "version"] }
            ]),
        )
        .build();
    with_header(
        json!({"$schema": DIALECT, "$id": CLIENT_TO_SERVER_ID, "title": "A2UI v0.9 client-to-server event"}),
        body,
    )
}

/// `header` keywords first (dialect, id, title), then the schema's own.
fn with_header(header: Value, body: Schema) -> Value {
    let mut out = match header {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    if let Value::Object(mut rest) = body.into_value() {
        out.append(&mut rest);
    }
    Value::Object(out)
}

/// JSON Schema of the `a2uiClientCapabilities` object that
/// [`CatalogRegistry::client_capabilities`](super::CatalogRegistry::client_capabilities) produces.
pub fn client_capabilities() -> Value {
    let return_types = ["string", "number", "boolean", "array", "object", "any", "void"];
    let json_schema = Schema::any().with("type", json!(["object", "boolean"])).describe("A JSON Schema.");
    let function_definition = object()
        .describe("The interface of one client-side function.")
        .prop("name", string(), "Name used in `call`.")
        .required()
        .prop("description", string(), "What the function does and how to call it.")
        .prop("parameters", object().build(), "JSON Schema of the function's `args` object.")
        .required()
        .prop("returnType", string_enum(&return_types), "Type of the value the function returns.")
        .required()
        .closed()
        .build();
    let catalog = object()
        .describe("A catalog sent inline: its components, functions and theme parameters.")
        .prop("catalogId", string(), "Id of the catalog.")
        .required()
        .prop(
            "components",
            object().with("additionalProperties", json_schema.clone()).build(),
            "Schema of each component, by component name.",
        )
        .prop("functions", array_of(local("FunctionDefinition")), "The catalog's functions.")
        .prop(
            "theme",
            object().with("additionalProperties", json_schema).build(),
            "Schema of each theme parameter, by parameter name.",
        )
        .closed()
        .build();
    let v09 = object()
        .describe("Capabilities for A2UI v0.9.")
        .prop(
            "supportedCatalogIds",
            array_of(string()),
            "Every catalog id the client can render, older ids of the same catalogs included.",
        )
        .required()
        .prop(
            "inlineCatalogs",
            array_of(local("Catalog")),
            "Full definitions of catalogs, for agents that accept inline catalogs.",
        )
        .build();
    let v10 = object()
        .describe("Capabilities for A2UI v1.0 (the renderer capabilities' `v1.0` entry).")
        .prop("supportedCatalogIds", array_of(string()), "Every v1.0 catalog id the renderer can render.")
        .required()
        .prop(
            "inlineCatalogs",
            array_of(object().build()),
            "Full definitions of the v1.0 catalogs, in the catalog JSON format.",
        )
        .build();
    let body = object()
        .describe("What the client can render, sent to the agent with each request (a2uiClientCapabilities).")
        .prop("v0.9", v09, "")
        .required()
        .prop("v1.0", v10, "")
        .with("$defs", json!({ "FunctionDefinition": function_definition, "Catalog": catalog }))
        .build();
    with_header(json!({"$schema": DIALECT, "title": "A2UI client capabilities"}), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_messages_accept_both_patch_versions() {
        let doc = server_to_client();
        assert_eq!(doc["$id"], SERVER_TO_CLIENT_ID);
        for (key, def) in SERVER_MESSAGES {
            let message = &doc["$defs"][def];
            assert_eq!(message["properties"]["version"]["enum"], json!(["v0.9", "v0.9.1"]));
            assert_eq!(message["required"], json!([key, "version"]));
            assert_eq!(message["additionalProperties"], false);
        }
        assert_eq!(doc["oneOf"].as_array().unwrap().len(), 4);
    }

    #[test]
    fn client_schema_has_dialect_first() {
        let doc = client_to_server();
        assert_eq!(doc.as_object().unwrap().keys().next().map(String::as_str), Some("$schema"));
        assert_eq!(doc["maxProperties"], 2);
    }
}
