//! A small vocabulary for writing JSON Schemas as Rust expressions.
//!
//! The basic catalog, the common types and the envelope schemas are written with it, so the
//! schemas an agent reads are defined (and reviewed) here rather than pasted in as JSON text.
//! Everything produces plain `serde_json` values.

use serde_json::{json, Map, Value};

use super::ReturnType;

/// `$id` of the A2UI v0.9 common types document.
pub const COMMON_TYPES_ID: &str = "https://a2ui.org/specification/v0_9/common_types.json";
/// Where the v1.0 common types live (catalogs written for protocol v1.0 refer to them).
pub const COMMON_TYPES_V1_ID: &str = "https://a2ui.org/specification/v1_0/common_types.json";

/// The JSON Schema dialect every document here is written in.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// One schema under construction.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(transparent)]
pub struct Schema(Map<String, Value>);

impl Schema {
    /// The empty schema (accepts anything).
    pub fn any() -> Self {
        Schema(Map::new())
    }

    /// Sets (or replaces) one keyword.
    pub fn with(mut self, keyword: &str, value: impl Into<Value>) -> Self {
        self.0.insert(keyword.to_string(), value.into());
        self
    }

    pub fn describe(self, description: &str) -> Self {
        self.with("description", description)
    }

    pub fn title(self, title: &str) -> Self {
        self.with("title", title)
    }

    pub fn default_value(self, value: impl Into<Value>) -> Self {
        self.with("default", value)
    }

    pub fn format(self, format: &str) -> Self {
        self.with("format", format)
    }

    pub fn pattern(self, pattern: &str) -> Self {
        self.with("pattern", pattern)
    }

    pub fn min_items(self, n: u64) -> Self {
        self.with("minItems", n)
    }

    pub fn minimum(self, n: i64) -> Self {
        self.with("minimum", n)
    }

    pub fn into_value(self) -> Value {
        Value::Object(self.0)
    }
}

impl From<Schema> for Value {
    fn from(schema: Schema) -> Value {
        schema.into_value()
    }
}

fn typed(name: &str) -> Schema {
    Schema::any().with("type", name)
}

pub fn string() -> Schema {
    typed("string")
}

pub fn number() -> Schema {
    typed("number")
}

pub fn integer() -> Schema {
    typed("integer")
}

pub fn boolean() -> Schema {
    typed("boolean")
}

/// An array whose items all match `items`.
pub fn array_of(items: Schema) -> Schema {
    typed("array").with("items", items)
}

/// A string restricted to `values`.
pub fn string_enum(values: &[&str]) -> Schema {
    string().with("enum", values.iter().map(|v| Value::from(*v)).collect::<Vec<_>>())
}

/// Exactly `value`.
pub fn constant(value: impl Into<Value>) -> Schema {
    Schema::any().with("const", value)
}

fn schemas(list: Vec<Schema>) -> Value {
    Value::Array(list.into_iter().map(Schema::into_value).collect())
}

pub fn one_of(branches: Vec<Schema>) -> Schema {
    Schema::any().with("oneOf", schemas(branches))
}

pub fn any_of(branches: Vec<Schema>) -> Schema {
    Schema::any().with("anyOf", schemas(branches))
}

pub fn all_of(parts: Vec<Schema>) -> Schema {
    Schema::any().with("allOf", schemas(parts))
}

/// `{"$ref": uri}`.
pub fn reference(uri: &str) -> Schema {
    Schema::any().with("$ref", uri)
}

/// A reference into the common types document by its absolute URL.
pub fn common(def: &str) -> Schema {
    reference(&format!("{COMMON_TYPES_ID}#/$defs/{def}"))
}

/// A reference to a definition of the same document.
pub fn local(def: &str) -> Schema {
    reference(&format!("#/$defs/{def}"))
}

pub fn component_id() -> Schema {
    common("ComponentId")
}

pub fn child_list() -> Schema {
    common("ChildList")
}

pub fn data_binding() -> Schema {
    common("DataBinding")
}

pub fn dyn_value() -> Schema {
    common("DynamicValue")
}

pub fn dyn_string() -> Schema {
    common("DynamicString")
}

pub fn dyn_number() -> Schema {
    common("DynamicNumber")
}

pub fn dyn_boolean() -> Schema {
    common("DynamicBoolean")
}

pub fn dyn_string_list() -> Schema {
    common("DynamicStringList")
}

pub fn action() -> Schema {
    common("Action")
}

/// Builds an object schema property by property.
#[derive(Debug, Clone, Default)]
pub struct ObjectBuilder {
    description: Option<String>,
    properties: Map<String, Value>,
    required: Vec<String>,
    last: Option<String>,
    extra: Map<String, Value>,
    typed: bool,
}

/// An object schema (`"type": "object"`).
pub fn object() -> ObjectBuilder {
    ObjectBuilder { typed: true, ..ObjectBuilder::default() }
}

/// A bag of properties without `"type"` (a mix-in, or a branch that only adds constraints).
pub fn properties() -> ObjectBuilder {
    ObjectBuilder::default()
}

impl ObjectBuilder {
    pub fn describe(mut self, description: &str) -> Self {
        self.description = Some(description.to_string());
        self
    }

    /// Adds a property; `description` (if not empty) is attached to its schema.
    pub fn prop(mut self, name: &str, schema: Schema, description: &str) -> Self {
        let schema = if description.is_empty() { schema } else { schema.describe(description) };
        self.properties.insert(name.to_string(), schema.into_value());
        self.last = Some(name.to_string());
        self
    }

    pub fn title(self, title: &str) -> Self {
        self.with("title", title)
    }

    /// Marks the property added last as required.
    pub fn required(mut self) -> Self {
        if let Some(name) = self.last.clone() {
            if !self.required.contains(&name) {
                self.required.push(name);
            }
        }
        self
    }

    /// Marks properties as required by name.
    pub fn require(mut self, names: &[&str]) -> Self {
        for name in names {
            if !self.required.iter().any(|r| r == name) {
                self.required.push((*name).to_string());
            }
        }
        self
    }

    /// No properties beyond the declared ones (`additionalProperties: false`).
    pub fn closed(self) -> Self {
        self.with("additionalProperties", false)
    }

    /// Any further keyword.
    pub fn with(mut self, keyword: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(keyword.to_string(), value.into());
        self
    }

    pub fn build(self) -> Schema {
        let mut out = Schema::any();
        if self.typed {
            out = out.with("type", "object");
        }
        if let Some(description) = self.description {
            out = out.describe(&description);
        }
        if !self.properties.is_empty() {
            out = out.with("properties", Value::Object(self.properties));
        }
        if !self.required.is_empty() {
            out = out.with("required", self.required);
        }
        for (keyword, value) in self.extra {
            out = out.with(&keyword, value);
        }
        out
    }
}

/// Builds one component schema in the shape A2UI catalogs use: the common component
/// properties, the catalog's own common properties, optional checks, then the component's
/// own properties, closed with `unevaluatedProperties: false`.
#[derive(Debug, Clone)]
pub struct ComponentBuilder {
    name: String,
    description: String,
    body: ObjectBuilder,
    checkable: bool,
}

/// Starts a component named `name` (its `component` property is fixed to that name).
pub fn component(name: &str) -> ComponentBuilder {
    ComponentBuilder {
        name: name.to_string(),
        description: String::new(),
        body: object().prop("component", constant(name), "").required(),
        checkable: false,
    }
}

impl ComponentBuilder {
    pub fn describe(mut self, description: &str) -> Self {
        self.description = description.to_string();
        self
    }

    pub fn prop(mut self, name: &str, schema: Schema, description: &str) -> Self {
        self.body = self.body.prop(name, schema, description);
        self
    }

    /// [`ComponentBuilder::prop`] when `present` (a property only some catalog editions have).
    pub fn prop_if(self, present: bool, name: &str, schema: Schema, description: &str) -> Self {
        if present {
            self.prop(name, schema, description)
        } else {
            self
        }
    }

    /// Marks the property added last as required.
    pub fn required(mut self) -> Self {
        self.body = self.body.required();
        self
    }

    /// The component takes client-side `checks` (the common `Checkable` mix-in).
    pub fn checkable(mut self) -> Self {
        self.checkable = true;
        self
    }

    pub fn build(self) -> (String, Value) {
        let mut parts = vec![common("ComponentCommon"), local("CatalogComponentCommon")];
        if self.checkable {
            parts.push(common("Checkable"));
        }
        parts.push(self.body.build());
        let mut schema = typed("object");
        if !self.description.is_empty() {
            schema = schema.describe(&self.description);
        }
        let schema = schema.with("allOf", schemas(parts)).with("unevaluatedProperties", false);
        (self.name, schema.into_value())
    }
}

/// Builds the schema of a call to one catalog function:
/// `{"call": name, "args": {...}, "returnType": ...}`.
#[derive(Debug, Clone)]
pub struct FunctionBuilder {
    name: String,
    description: String,
    returns: ReturnType,
    args: ObjectBuilder,
}

/// Starts a function named `name`.
pub fn function(name: &str) -> FunctionBuilder {
    FunctionBuilder { name: name.to_string(), description: String::new(), returns: ReturnType::Any, args: object() }
}

impl FunctionBuilder {
    pub fn describe(mut self, description: &str) -> Self {
        self.description = description.to_string();
        self
    }

    pub fn returns(mut self, returns: ReturnType) -> Self {
        self.returns = returns;
        self
    }

    pub fn arg(mut self, name: &str, schema: Schema, description: &str) -> Self {
        self.args = self.args.prop(name, schema, description);
        self
    }

    /// Marks the argument added last as required.
    pub fn required(mut self) -> Self {
        self.args = self.args.required();
        self
    }

    /// At least one of `names` must be given.
    pub fn at_least_one_of(mut self, names: &[&str]) -> Self {
        let branches: Vec<Value> = names.iter().map(|n| json!({ "required": [n] })).collect();
        self.args = self.args.with("anyOf", branches);
        self
    }

    pub fn build(self) -> (String, Value) {
        let schema = object()
            .describe(&self.description)
            .prop("call", constant(self.name.as_str()), "")
            .prop("args", self.args.closed().build(), "")
            .prop("returnType", constant(self.returns.as_str()), "")
            .require(&["call", "args"])
            .with("unevaluatedProperties", false)
            .build();
        (self.name, schema.into_value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_schemas_carry_their_keywords() {
        assert_eq!(string().into_value(), json!({"type": "string"}));
        assert_eq!(
            string_enum(&["a", "b"]).default_value("a").into_value(),
            json!({"type": "string", "enum": ["a", "b"], "default": "a"})
        );
        assert_eq!(
            array_of(number()).min_items(2).into_value(),
            json!({"type": "array", "items": {"type": "number"}, "minItems": 2})
        );
        assert_eq!(integer().minimum(0).into_value(), json!({"type": "integer", "minimum": 0}));
        assert_eq!(dyn_string().into_value(), json!({"$ref": format!("{COMMON_TYPES_ID}#/$defs/DynamicString")}));
        assert_eq!(local("X").into_value(), json!({"$ref": "#/$defs/X"}));
    }

    #[test]
    fn object_builder_tracks_required_and_descriptions() {
        let schema = object()
            .describe("a thing")
            .prop("a", string(), "first")
            .required()
            .prop("b", number(), "")
            .required()
            .required()
            .prop("c", boolean(), "third")
            .closed()
            .build()
            .into_value();
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "description": "a thing",
                "properties": {
                    "a": {"type": "string", "description": "first"},
                    "b": {"type": "number"},
                    "c": {"type": "boolean", "description": "third"}
                },
                "required": ["a", "b"],
                "additionalProperties": false
            })
        );
        // A bag of properties has no type.
        assert_eq!(
            properties().prop("x", string(), "").build().into_value(),
            json!({"properties": {"x": {"type": "string"}}})
        );
    }

    #[test]
    fn component_builder_produces_the_catalog_shape() {
        let (name, schema) = component("Badge")
            .describe("A small label.")
            .prop("text", dyn_string(), "What it says.")
            .required()
            .checkable()
            .build();
        assert_eq!(name, "Badge");
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["description"], "A small label.");
        assert_eq!(schema["unevaluatedProperties"], false);
        let parts = schema["allOf"].as_array().unwrap();
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0]["$ref"], format!("{COMMON_TYPES_ID}#/$defs/ComponentCommon"));
        assert_eq!(parts[1]["$ref"], "#/$defs/CatalogComponentCommon");
        assert_eq!(parts[2]["$ref"], format!("{COMMON_TYPES_ID}#/$defs/Checkable"));
        assert_eq!(parts[3]["properties"]["component"], json!({"const": "Badge"}));
        assert_eq!(parts[3]["properties"]["text"]["description"], "What it says.");
        assert_eq!(parts[3]["required"], json!(["component", "text"]));

        let (_, plain) = component("Spacer").build();
        assert_eq!(plain["allOf"].as_array().unwrap().len(), 3);
        assert!(plain.get("description").is_none());
    }

    #[test]
    fn function_builder_produces_a_call_schema() {
        let (name, schema) = function("clamp")
            .describe("Clamps a number.")
            .returns(ReturnType::Number)
            .arg("value", dyn_number(), "The number.")
            .required()
            .arg("min", number(), "")
            .arg("max", number(), "")
            .at_least_one_of(&["min", "max"])
            .build();
        assert_eq!(name, "clamp");
        assert_eq!(schema["description"], "Clamps a number.");
        assert_eq!(schema["properties"]["call"], json!({"const": "clamp"}));
        assert_eq!(schema["properties"]["returnType"], json!({"const": "number"}));
        assert_eq!(schema["required"], json!(["call", "args"]));
        assert_eq!(schema["unevaluatedProperties"], false);
        let args = &schema["properties"]["args"];
        assert_eq!(args["type"], "object");
        assert_eq!(args["required"], json!(["value"]));
        assert_eq!(args["additionalProperties"], false);
        assert_eq!(args["anyOf"], json!([{"required": ["min"]}, {"required": ["max"]}]));
    }
}
