//! Turning catalog JSON into a [`Catalog`]: checking its shape, normalising it into one schema
//! document, compiling its schemas, and writing it back out (full and inline forms).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::dsl::{COMMON_TYPES_ID, COMMON_TYPES_V1_ID, DIALECT};
use super::envelope::{self, SERVER_MESSAGES, SERVER_TO_CLIENT_ID};
use super::{common_types, AllowedCallers, Catalog, CatalogError, ComponentDef, FunctionDef, ReturnType};
use crate::schema::{CompiledSchema, SchemaCompileError, SchemaError, SchemaRegistry};

/// Where the catalog in use is registered for `$ref`s such as `catalog.json#/$defs/anyFunction`.
const CATALOG_URI: &str = "catalog.json";

const TOP_LEVEL_KEYS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "catalogId",
    "components",
    "functions",
    "theme",
    "$defs",
    // v1.0 catalogs
    "protocolVersion",
    "instructions",
];

const FUNCTION_DEFINITION_KEYS: &[&str] = &["name", "description", "parameters", "returnType"];

/// Keys of `$defs` the loader writes itself.
const GENERATED_DEFS: &[&str] = &["anyComponent", "anyFunction"];

/// How deep local `$ref`s are expanded when writing the inline form (guards against cycles).
const MAX_INLINE_DEPTH: usize = 8;

impl ReturnType {
    pub const ALL: [ReturnType; 7] = [
        ReturnType::String,
        ReturnType::Number,
        ReturnType::Boolean,
        ReturnType::Array,
        ReturnType::Object,
        ReturnType::Any,
        ReturnType::Void,
    ];

    /// The name used in catalogs (`"string"`, `"void"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnType::String => "string",
            ReturnType::Number => "number",
            ReturnType::Boolean => "boolean",
            ReturnType::Array => "array",
            ReturnType::Object => "object",
            ReturnType::Any => "any",
            ReturnType::Void => "void",
        }
    }

    /// Parses a catalog return type name.
    pub fn parse(name: &str) -> Option<ReturnType> {
        ReturnType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// How deeply catalog JSON may nest (what `serde_json` itself accepts when parsing); the
/// loader's and the schema compiler's walks stay well within the stack below that.
const MAX_NESTING: usize = 128;

/// A catalog's schemas, compiled once when the catalog is built.
pub(crate) struct Compiled {
    components: HashMap<String, CompiledSchema>,
    functions: HashMap<String, CompiledSchema>,
    theme: CompiledSchema,
    /// One per server message kind, in the order of [`SERVER_MESSAGES`].
    messages: Vec<CompiledSchema>,
}

impl std::fmt::Debug for Compiled {
    // The compiled graphs are large and say little; counts are enough to tell catalogs apart.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("components", &self.components.len())
            .field("functions", &self.functions.len())
            .field("messages", &self.messages.len())
            .finish_non_exhaustive()
    }
}

fn invalid(message: impl Into<String>) -> CatalogError {
    CatalogError::Invalid(message.into())
}

fn error(path: &str, message: impl Into<String>) -> SchemaError {
    SchemaError { instance_path: path.to_string(), message: message.into() }
}

/// Loads catalog JSON (either the full form with `functions` as an object of call schemas, or the
/// inline form of client capabilities with `functions` as an array of function definitions).
pub(crate) fn from_json(value: &Value) -> Result<Catalog, CatalogError> {
    let document = normalise(value)?;
    build(document)
}

/// Builds a catalog from an already normalised document (what [`normalise`] returns), its
/// schemas compiled now, so a catalog that does not compile is refused here.
pub(crate) fn build(document: Value) -> Result<Catalog, CatalogError> {
    let catalog = prepare(document)?;
    let compiled = compile(&catalog.document)?;
    // Just made: nothing else can have set it.
    let _ = catalog.compiled.set(compiled);
    Ok(catalog)
}

/// A catalog from an already normalised document, its schemas compiled on first use
/// ([`Catalog`]'s `compiled`). For the built-in catalogs, whose compilation the tests check: a
/// process pays only for the catalogs its surfaces use, and only when one is first validated.
pub(crate) fn prepare(document: Value) -> Result<Catalog, CatalogError> {
    let id = document["catalogId"].as_str().unwrap_or_default().to_string();
    let description = document.get("description").and_then(Value::as_str).unwrap_or_default().to_string();
    let protocol_version = document.get("protocolVersion").and_then(Value::as_str).unwrap_or("0.9").to_string();
    let empty = Map::new();
    let component_schemas = document["components"].as_object().unwrap_or(&empty);
    let function_schemas = document["functions"].as_object().unwrap_or(&empty);

    let components = component_schemas
        .iter()
        .map(|(name, schema)| ComponentDef {
            name: name.clone(),
            description: describe(schema),
            schema: schema.clone(),
            allowed_parents: schema.get("allowedParents").and_then(type_names),
            allowed_children: schema.get("allowedChildren").and_then(type_names),
        })
        .collect();
    let functions =
        function_schemas.iter().map(|(name, schema)| function_def(name, schema)).collect::<Result<Vec<_>, _>>()?;
    Ok(Catalog {
        id,
        description,
        protocol_version,
        components,
        functions,
        document,
        compiled: std::sync::OnceLock::new(),
    })
}

/// Compiles the schemas of a normalised catalog document.
pub(crate) fn compile(document: &Value) -> Result<Compiled, CatalogError> {
    let empty = Map::new();
    let component_schemas = document["components"].as_object().unwrap_or(&empty);
    let function_schemas = document["functions"].as_object().unwrap_or(&empty);
    let mut registry = SchemaRegistry::new();
    registry.add_document(COMMON_TYPES_ID, common_types_document().clone());
    registry.add_document(COMMON_TYPES_V1_ID, common_types_v1_document().clone());
    registry.add_document(SERVER_TO_CLIENT_ID, envelope::server_to_client());
    registry.add_document(CATALOG_URI, document.clone());

    // One compilation for every schema of the catalog: the message schemas reach every
    // component, and components share the common types.
    let component_names: Vec<&String> = component_schemas.keys().collect();
    let function_names: Vec<&String> = function_schemas.keys().collect();
    let mut uris: Vec<String> = Vec::new();
    uris.extend(component_names.iter().map(|name| format!("{CATALOG_URI}#/components/{name}")));
    uris.extend(function_names.iter().map(|name| format!("{CATALOG_URI}#/functions/{name}")));
    uris.push(format!("{CATALOG_URI}#/$defs/theme"));
    uris.extend(SERVER_MESSAGES.iter().map(|(_, def)| format!("{SERVER_TO_CLIENT_ID}#/$defs/{def}")));
    let theme_uri = format!("{CATALOG_URI}#/$defs/theme");
    let mut schemas = registry.compile_many(&uris.iter().map(String::as_str).collect::<Vec<_>>())?.into_iter();
    let mut named = |names: &[&String]| -> HashMap<String, CompiledSchema> {
        names.iter().map(|name| (*name).clone()).zip(schemas.by_ref()).collect()
    };
    let compiled_components = named(&component_names);
    let compiled_functions = named(&function_names);
    let theme = schemas.next().ok_or(SchemaCompileError::UnresolvedRef(theme_uri))?;
    Ok(Compiled { components: compiled_components, functions: compiled_functions, theme, messages: schemas.collect() })
}

fn common_types_v1_document() -> &'static Value {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    DOC.get_or_init(common_types::document_v1)
}

fn common_types_document() -> &'static Value {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    DOC.get_or_init(common_types::document)
}

/// The `description` of a component schema, or of its last `allOf` part (where some catalogs
/// put it).
fn describe(schema: &Value) -> String {
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        return d.to_string();
    }
    schema
        .get("allOf")
        .and_then(Value::as_array)
        .and_then(|parts| parts.iter().rev().find_map(|p| p.get("description").and_then(Value::as_str)))
        .unwrap_or_default()
        .to_string()
}

fn function_def(name: &str, schema: &Value) -> Result<FunctionDef, CatalogError> {
    let properties = schema.get("properties");
    let parameters = properties.and_then(|p| p.get("args")).cloned().unwrap_or_else(|| json!({}));
    let return_type = match properties.and_then(|p| p.get("returnType")).and_then(|r| r.get("const")) {
        None => ReturnType::Any,
        Some(value) => value.as_str().and_then(ReturnType::parse).ok_or_else(|| {
            invalid(format!("function {name:?}: returnType {value} is not one of {}", return_type_names()))
        })?,
    };
    let allowed_callers = match schema.get("allowedCallers") {
        None => AllowedCallers::default(),
        Some(value) => value.as_str().and_then(AllowedCallers::parse).ok_or_else(|| {
            invalid(format!(
                "function {name:?}: allowedCallers {value} is not rendererOnly, agentOnly or rendererOrAgent"
            ))
        })?,
    };
    let requires_user_activation = match schema.get("requiresUserActivation") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(invalid(format!("function {name:?}: requiresUserActivation must be a boolean"))),
    };
    Ok(FunctionDef {
        name: name.to_string(),
        description: schema.get("description").and_then(Value::as_str).unwrap_or_default().to_string(),
        parameters,
        return_type,
        allowed_callers,
        requires_user_activation,
    })
}

fn return_type_names() -> String {
    ReturnType::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
}

/// Checks catalog JSON and rewrites it into the one document shape the validator works on:
/// `components` and `functions` as objects of schemas, `$defs` holding `theme`,
/// `anyComponent` and `anyFunction`, common-types references absolute.
pub(crate) fn normalise(value: &Value) -> Result<Value, CatalogError> {
    let obj = value.as_object().ok_or_else(|| invalid("a catalog must be a JSON object"))?;
    check_nesting(value)?;
    if let Some(key) = obj.keys().find(|k| !TOP_LEVEL_KEYS.contains(&k.as_str())) {
        return Err(invalid(format!("unknown key {key:?}; a catalog has the keys {}", TOP_LEVEL_KEYS.join(", "))));
    }
    let catalog_id = match obj.get("catalogId") {
        Some(Value::String(id)) if !id.trim().is_empty() => id.clone(),
        Some(_) => return Err(invalid("`catalogId` must be a non-empty string")),
        None => return Err(invalid("`catalogId` is missing")),
    };
    let text = |key: &str| -> Result<Option<String>, CatalogError> {
        match obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(invalid(format!("`{key}` must be a string"))),
        }
    };
    let title = text("title")?;
    let description = text("description")?;
    let instructions = text("instructions")?;
    let protocol_version = text("protocolVersion")?;
    if let Some(version) = &protocol_version {
        // ^MAJOR.MINOR[.PATCH], as the v1.0 catalog schema has it.
        let parts: Vec<&str> = version.split('.').collect();
        let numeric = parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if !(2..=3).contains(&parts.len()) || !numeric {
            return Err(invalid(format!("`protocolVersion` {version:?} is not MAJOR.MINOR[.PATCH]")));
        }
    }
    let doc_id = match text("$id")? {
        Some(id) => Some(id),
        None if catalog_id.contains("://") => Some(catalog_id.clone()),
        None => None,
    };
    if let Some(id) = &doc_id {
        if [COMMON_TYPES_ID, COMMON_TYPES_V1_ID, SERVER_TO_CLIENT_ID, envelope::CLIENT_TO_SERVER_ID, CATALOG_URI]
            .contains(&id.as_str())
        {
            return Err(invalid(format!("{id:?} is the id of an A2UI schema, not of a catalog")));
        }
    }

    let mut defs = match obj.get("$defs") {
        None => Map::new(),
        Some(Value::Object(defs)) => defs.clone(),
        Some(_) => return Err(invalid("`$defs` must be an object of schemas")),
    };
    // A catalog's own `anyComponent` / `anyFunction` say which of its entries a message may
    // use; the loader writes them again from what is left.
    let listed_components = listed_refs(defs.get("anyComponent"), "components")?;
    let listed_functions = listed_refs(defs.get("anyFunction"), "functions")?;
    for generated in GENERATED_DEFS {
        defs.remove(*generated);
    }

    let is_v1 = protocol_version.as_deref().is_some_and(|v| !v.starts_with("0."));
    let mut components = components(obj.get("components"), is_v1)?;
    let mut functions = functions(obj.get("functions"), is_v1)?;
    if is_v1 {
        // A v1.0 call may name the catalog it comes from, this one included (a component of
        // another catalog than its surface's default names it for its calls).
        for schema in functions.values_mut() {
            if let Some(Value::Object(properties)) = schema.get_mut("properties") {
                properties.entry("catalogId").or_insert_with(|| json!({"type": "string"}));
            }
        }
    }
    for (section, listed, entries) in
        [("components", listed_components, &mut components), ("functions", listed_functions, &mut functions)]
    {
        let Some(listed) = listed else { continue };
        if let Some(missing) = listed.iter().find(|name| !entries.contains_key(*name)) {
            return Err(invalid(format!("`$defs` lists {missing:?}, which `{section}` does not define")));
        }
        entries.retain(|name, _| listed.contains(name));
    }

    let theme = match (defs.get("theme"), obj.get("theme")) {
        (Some(theme), _) if theme.is_object() || theme.is_boolean() => theme.clone(),
        (Some(_), _) => return Err(invalid("`$defs.theme` must be a schema")),
        (None, Some(theme)) => theme_schema(theme)?,
        (None, None) => json!({"type": "object", "additionalProperties": true}),
    };
    defs.insert("theme".into(), theme);
    defs.insert("anyComponent".into(), any_of_section("components", components.keys(), Some("component")));
    let own_functions = any_of_section("functions", functions.keys(), None);
    let any_function = if is_v1 { own_or_foreign_call(own_functions, &catalog_id) } else { own_functions };
    defs.insert("anyFunction".into(), any_function);

    let mut document = Map::new();
    document.insert("$schema".into(), DIALECT.into());
    if let Some(id) = doc_id {
        document.insert("$id".into(), id.into());
    }
    if let Some(title) = title {
        document.insert("title".into(), title.into());
    }
    if let Some(description) = description {
        document.insert("description".into(), description.into());
    }
    if let Some(version) = protocol_version {
        document.insert("protocolVersion".into(), version.into());
    }
    if let Some(instructions) = instructions {
        document.insert("instructions".into(), instructions.into());
    }
    document.insert("catalogId".into(), catalog_id.into());
    document.insert("components".into(), Value::Object(components));
    document.insert("functions".into(), Value::Object(functions));
    document.insert("$defs".into(), Value::Object(defs));
    let mut document = Value::Object(document);
    absolutise_common_refs(&mut document, if is_v1 { COMMON_TYPES_V1_ID } else { COMMON_TYPES_ID });
    Ok(document)
}

fn check_nesting(value: &Value) -> Result<(), CatalogError> {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            return Err(invalid(format!("the catalog nests deeper than {MAX_NESTING} levels")));
        }
        match value {
            Value::Object(map) => stack.extend(map.values().map(|child| (child, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// Component and function names become JSON Pointer segments and appear in messages. Before
/// v1.0 they are plain ASCII names (v0.9 catalogs use `-` and `.`); from v1.0 they, and the
/// property and argument names, are Unicode identifiers (UAX #31), as the v1.0 catalog rules
/// say, and `@index` is the one function of the reserved `@` namespace.
fn check_name(kind: &str, name: &str, v1: bool) -> Result<(), CatalogError> {
    if v1 {
        let ok = name.chars().count() <= 128
            && (crate::wire::v10::is_unicode_identifier(name) || (kind == "function" && name == INDEX_FUNCTION));
        return if ok {
            Ok(())
        } else {
            Err(invalid(format!(
                "{kind} name {name:?} is not a Unicode identifier (UAX #31) of at most 128 characters"
            )))
        };
    }
    let ok = !name.is_empty()
        && name.len() <= 128
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(invalid(format!("{kind} name {name:?} must be 1-128 ASCII letters, digits, '_', '-' or '.'")))
    }
}

/// The system function a v1.0 catalog may declare in the reserved `@` namespace.
const INDEX_FUNCTION: &str = "@index";

/// v1.0: the names a schema gives its properties (at its top level and in its `allOf` parts)
/// are Unicode identifiers too.
fn check_property_names(kind: &str, owner: &str, schema: &Value) -> Result<(), CatalogError> {
    let parts = std::iter::once(schema).chain(schema.get("allOf").and_then(Value::as_array).into_iter().flatten());
    for part in parts {
        for name in part.get("properties").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k) {
            check_name(kind, name, true).map_err(|e| invalid(format!("{owner:?}: {e}")))?;
        }
    }
    Ok(())
}

/// The `const` a schema fixes `key` to, at its top level or in one of its `allOf` parts.
fn fixed_value<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    let direct = |s: &'a Value| s.get("properties").and_then(|p| p.get(key)).and_then(|p| p.get("const"));
    direct(schema)
        .or_else(|| schema.get("allOf").and_then(Value::as_array).and_then(|parts| parts.iter().find_map(direct)))
}

fn check_fixed(kind: &str, key: &str, name: &str, schema: &Value) -> Result<(), CatalogError> {
    match fixed_value(schema, key) {
        Some(Value::String(fixed)) if fixed == name => Ok(()),
        Some(other) => Err(invalid(format!("{kind} {name:?}: its `{key}` property is fixed to {other}, not to its name"))),
        None => Err(invalid(format!(
            "{kind} {name:?}: the schema must fix `{key}` to {name:?} (\"properties\": {{\"{key}\": {{\"const\": {name:?}}}}})"
        ))),
    }
}

/// The component schemas. A v1.0 catalog may leave `component` unfixed (its catalog definition
/// lets a component be any schema): the name fixes it then. `allowedParents` and
/// `allowedChildren` must be lists of names; `Surface` is the reserved root, not a component.
fn components(value: Option<&Value>, v1: bool) -> Result<Map<String, Value>, CatalogError> {
    let map = match value {
        None => return Ok(Map::new()),
        Some(Value::Object(map)) => map,
        Some(_) => return Err(invalid("`components` must be an object mapping component names to schemas")),
    };
    let mut out = Map::with_capacity(map.len());
    for (name, schema) in map {
        check_name("component", name, v1)?;
        if name == SURFACE_COMPONENT {
            return Err(invalid("\"Surface\" is the reserved root of every surface, not a catalog component"));
        }
        let Value::Object(fields) = schema else {
            return Err(invalid(format!("component {name:?}: the schema must be a JSON object")));
        };
        for key in ["allowedParents", "allowedChildren"] {
            if let Some(list) = fields.get(key) {
                if type_names(list).is_none() {
                    return Err(invalid(format!(
                        "component {name:?}: `{key}` must be a list of distinct component names"
                    )));
                }
            }
        }
        let mut schema = schema.clone();
        if v1 {
            unprefix_reserved_keys(&mut schema);
            check_property_names("property", name, &schema)?;
            if fixed_value(&schema, "component").is_none() {
                fix_property(&mut schema, "component", name);
            }
        }
        check_fixed("component", "component", name, &schema)?;
        out.insert(name.clone(), schema);
    }
    Ok(out)
}

/// The reserved root every surface's `root` sits under, for `allowedParents`.
pub const SURFACE_COMPONENT: &str = "Surface";

/// `allowedParents` / `allowedChildren`: distinct names, or `None` when the value is not that.
pub(crate) fn type_names(list: &Value) -> Option<Vec<String>> {
    let items = list.as_array()?;
    let names: Vec<String> = items.iter().map(|n| n.as_str().map(str::to_owned)).collect::<Option<_>>()?;
    let distinct = names.iter().enumerate().all(|(i, n)| !names[..i].contains(n));
    distinct.then_some(names)
}

/// Adds `"properties": {key: {"const": name}}` and `key` to `required`.
fn fix_property(schema: &mut Value, key: &str, name: &str) {
    let Value::Object(fields) = schema else { return };
    let properties = fields.entry("properties").or_insert_with(|| json!({}));
    if let Value::Object(properties) = properties {
        properties.insert(key.to_owned(), json!({"const": name}));
    }
    match fields.entry("required").or_insert_with(|| json!([])) {
        Value::Array(required) if !required.iter().any(|r| r == key) => required.push(key.into()),
        _ => {}
    }
}

/// A v1.0 catalog may write the reserved keys as the wire does (`"@call"`, `"@path"`): the
/// engine validates calls and bindings after translating them to `call` / `path`, so the
/// schema's `properties` and `required` are translated the same way.
fn unprefix_reserved_keys(schema: &mut Value) {
    const RESERVED: [(&str, &str); 2] = [("@call", "call"), ("@path", "path")];
    match schema {
        Value::Object(fields) => {
            if let Some(Value::Object(properties)) = fields.get_mut("properties") {
                for (prefixed, bare) in RESERVED {
                    if !properties.contains_key(bare) {
                        if let Some(value) = properties.remove(prefixed) {
                            properties.insert(bare.to_owned(), value);
                        }
                    }
                }
            }
            if let Some(Value::Array(required)) = fields.get_mut("required") {
                for name in required.iter_mut() {
                    if let Some((_, bare)) = RESERVED.iter().find(|(prefixed, _)| name == prefixed) {
                        *name = Value::from(*bare);
                    }
                }
            }
            fields.values_mut().for_each(unprefix_reserved_keys);
        }
        Value::Array(items) => items.iter_mut().for_each(unprefix_reserved_keys),
        _ => {}
    }
}

fn functions(value: Option<&Value>, v1: bool) -> Result<Map<String, Value>, CatalogError> {
    match value {
        None => Ok(Map::new()),
        Some(Value::Object(map)) => {
            let mut out = Map::with_capacity(map.len());
            for (name, schema) in map {
                check_name("function", name, v1)?;
                if !schema.is_object() {
                    return Err(invalid(format!("function {name:?}: the schema must be a JSON object")));
                }
                let mut schema = schema.clone();
                if v1 {
                    unprefix_reserved_keys(&mut schema);
                    if let Some(args) = schema.get("properties").and_then(|p| p.get("args")) {
                        check_property_names("argument", name, args)?;
                    }
                }
                check_fixed("function", "call", name, &schema)?;
                out.insert(name.clone(), schema);
            }
            Ok(out)
        }
        Some(Value::Array(definitions)) => {
            let mut out = Map::new();
            for (index, definition) in definitions.iter().enumerate() {
                let (name, schema) = function_from_definition(index, definition, v1)?;
                if out.contains_key(&name) {
                    return Err(invalid(format!("functions[{index}]: function {name:?} is defined twice")));
                }
                out.insert(name, schema);
            }
            Ok(out)
        }
        Some(_) => Err(invalid(
            "`functions` must be an object mapping function names to call schemas, or an array of function definitions",
        )),
    }
}

/// The call schema of a function given as `{name, description?, parameters, returnType}`.
fn function_from_definition(index: usize, definition: &Value, v1: bool) -> Result<(String, Value), CatalogError> {
    let at = format!("functions[{index}]");
    let def = definition.as_object().ok_or_else(|| invalid(format!("{at} must be an object")))?;
    if let Some(key) = def.keys().find(|k| !FUNCTION_DEFINITION_KEYS.contains(&k.as_str())) {
        return Err(invalid(format!(
            "{at}: unknown key {key:?}; a function definition has {}",
            FUNCTION_DEFINITION_KEYS.join(", ")
        )));
    }
    let name =
        def.get("name").and_then(Value::as_str).ok_or_else(|| invalid(format!("{at}: `name` must be a string")))?;
    check_name("function", name, v1)?;
    let description = match def.get("description") {
        None => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => return Err(invalid(format!("{at} ({name}): `description` must be a string"))),
    };
    let parameters = match def.get("parameters") {
        Some(p @ Value::Object(_)) => p.clone(),
        Some(_) => return Err(invalid(format!("{at} ({name}): `parameters` must be a JSON Schema object"))),
        None => return Err(invalid(format!("{at} ({name}): `parameters` is missing"))),
    };
    if v1 {
        check_property_names("argument", name, &parameters)?;
    }
    let return_type = match def.get("returnType") {
        Some(Value::String(t)) => ReturnType::parse(t)
            .ok_or_else(|| invalid(format!("{at} ({name}): returnType {t:?} is not one of {}", return_type_names())))?,
        Some(_) => return Err(invalid(format!("{at} ({name}): `returnType` must be a string"))),
        None => return Err(invalid(format!("{at} ({name}): `returnType` is missing"))),
    };
    // `args` may only be left out when nothing in it is required.
    let args_required = parameters.get("required").and_then(Value::as_array).is_some_and(|r| !r.is_empty());
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    if let Some(description) = description {
        schema.insert("description".into(), description.into());
    }
    schema.insert(
        "properties".into(),
        json!({
            "call": {"const": name},
            "args": parameters,
            "returnType": {"const": return_type.as_str()},
        }),
    );
    schema.insert("required".into(), if args_required { json!(["call", "args"]) } else { json!(["call"]) });
    schema.insert("unevaluatedProperties".into(), false.into());
    Ok((name.to_string(), Value::Object(schema)))
}

/// A top-level `theme`: either a whole schema, or (as in client capabilities) an object mapping
/// each theme parameter to its schema.
fn theme_schema(theme: &Value) -> Result<Value, CatalogError> {
    let map = theme.as_object().ok_or_else(|| invalid("`theme` must be an object"))?;
    let is_whole_schema = map.get("type").and_then(Value::as_str) == Some("object")
        || map.get("properties").is_some_and(Value::is_object);
    if is_whole_schema {
        return Ok(theme.clone());
    }
    if let Some((name, _)) = map.iter().find(|(_, schema)| !(schema.is_object() || schema.is_boolean())) {
        return Err(invalid(format!("theme parameter {name:?}: the schema must be a JSON object")));
    }
    Ok(json!({"type": "object", "properties": theme, "additionalProperties": true}))
}

/// The names a catalog's own `anyComponent` / `anyFunction` lists (`oneOf` of
/// `{"$ref": "#/<section>/<name>"}`), or `None` when it gives none.
fn listed_refs(any: Option<&Value>, section: &str) -> Result<Option<Vec<String>>, CatalogError> {
    let Some(any) = any else { return Ok(None) };
    let prefix = format!("#/{section}/");
    let branches = any.get("oneOf").and_then(Value::as_array).ok_or_else(|| {
        invalid(format!("`$defs` of {section}: a list of the usable {section} is a `oneOf` of `$ref`s"))
    })?;
    branches
        .iter()
        .map(|branch| {
            branch
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(&prefix))
                .map(|name| name.replace("~1", "/").replace("~0", "~"))
                .ok_or_else(|| invalid(format!("`$defs` of {section}: {branch} is not a {prefix}<name> reference")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// v1.0: a call that names another catalog runs there, so this catalog cannot judge its function
/// or its arguments' types; it still checks each argument as a dynamic value (a call nested in
/// them names its own catalog or runs in the surface's default). The group checks the call
/// against the catalog it names.
fn own_or_foreign_call(own: Value, catalog_id: &str) -> Value {
    /// UAX #31 default identifier, as `wire::v10::is_unicode_identifier` checks one.
    const IDENTIFIER_PATTERN: &str = r"^[\p{XID_Start}_]\p{XID_Continue}*$";
    let mut own_ids = vec![catalog_id];
    if catalog_id == super::BASIC_V1_CATALOG_ID {
        own_ids.extend(super::BASIC_V1_CATALOG_ALIASES);
    }
    json!({
        "if": {"required": ["catalogId"], "properties": {"catalogId": {"not": {"enum": own_ids}}}},
        // What it can judge without the other catalog: the names are identifiers (a function of
        // the reserved `@` namespace has no catalog), each argument a dynamic value.
        "then": {
            "properties": {
                "call": {"type": "string", "pattern": IDENTIFIER_PATTERN},
                "args": {
                    "type": "object",
                    "propertyNames": {"pattern": IDENTIFIER_PATTERN},
                    "additionalProperties": {"$ref": "common_types.json#/$defs/DynamicValue"}
                }
            }
        },
        "else": own,
    })
}

/// `anyComponent` / `anyFunction`: one branch per entry of `section`.
fn any_of_section<'a>(section: &str, names: impl Iterator<Item = &'a String>, discriminator: Option<&str>) -> Value {
    let branches: Vec<Value> = names.map(|name| json!({"$ref": format!("#/{section}/{name}")})).collect();
    if branches.is_empty() {
        return json!({"description": format!("This catalog has no {section}."), "not": {}});
    }
    let mut out = json!({ "oneOf": branches });
    if let Some(property) = discriminator {
        out["discriminator"] = json!({ "propertyName": property });
    }
    out
}

/// Older catalogs refer to the common types relatively (`common_types.json#/...`) or under the
/// old a2ui.dev host; both mean the common types of the catalog's protocol (`common`). A v1.0
/// catalog that names the v0.9 ones gets the v1.0 ones, which only add to them.
fn absolutise_common_refs(value: &mut Value, common: &str) {
    let v09 = format!("{COMMON_TYPES_ID}#");
    let relative: [&str; 2] = ["common_types.json#", "https://a2ui.dev/specification/v0_9/common_types.json#"];
    let rewrite_v09 = common != COMMON_TYPES_ID;
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if key == "$ref" {
                    if let Value::String(target) = child {
                        let rest = relative
                            .iter()
                            .find_map(|form| target.strip_prefix(form))
                            .or_else(|| target.strip_prefix(v09.as_str()).filter(|_| rewrite_v09));
                        if let Some(rest) = rest {
                            *target = format!("{common}#{rest}");
                        }
                        continue;
                    }
                }
                absolutise_common_refs(child, common);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| absolutise_common_refs(item, common)),
        _ => {}
    }
}

impl Compiled {
    pub(crate) fn validate_component(&self, catalog: &Catalog, component: &Value) -> Vec<SchemaError> {
        let Some(obj) = component.as_object() else {
            return vec![error("", "a component must be a JSON object")];
        };
        match obj.get("component") {
            Some(Value::String(name)) => match self.components.get(name) {
                Some(schema) => schema.validate(component),
                None => vec![error(
                    "/component",
                    format!(
                        "unknown component type {name:?}; catalog {} has: {}",
                        catalog.id,
                        names(catalog.components.iter().map(|c| c.name.as_str()))
                    ),
                )],
            },
            Some(_) => vec![error(
                "/component",
                format!(
                    "`component` must be a string naming the component type, one of: {}",
                    names(catalog.components.iter().map(|c| c.name.as_str()))
                ),
            )],
            None => vec![error(
                "",
                format!(
                    "missing `component` (the component type, one of: {})",
                    names(catalog.components.iter().map(|c| c.name.as_str()))
                ),
            )],
        }
    }

    pub(crate) fn validate_function_call(&self, catalog: &Catalog, call: &Value) -> Vec<SchemaError> {
        let Some(obj) = call.as_object() else {
            return vec![error("", "a function call must be a JSON object")];
        };
        let known = || names(catalog.functions.iter().map(|f| f.name.as_str()));
        match obj.get("call") {
            Some(Value::String(name)) => match self.functions.get(name) {
                Some(schema) => schema.validate(call),
                None => {
                    vec![error("/call", format!("unknown function {name:?}; catalog {} has: {}", catalog.id, known()))]
                }
            },
            Some(_) => {
                vec![error("/call", format!("`call` must be a string naming the function, one of: {}", known()))]
            }
            None => vec![error("", format!("missing `call` (the function name, one of: {})", known()))],
        }
    }

    pub(crate) fn validate_theme(&self, theme: &Value) -> Vec<SchemaError> {
        self.theme.validate(theme)
    }

    pub(crate) fn validate_server_message(&self, envelope: &Value) -> Vec<SchemaError> {
        let Some(obj) = envelope.as_object() else {
            return vec![error("", "a message must be a JSON object")];
        };
        let present: Vec<usize> = SERVER_MESSAGES
            .iter()
            .enumerate()
            .filter(|(_, (key, _))| obj.contains_key(*key))
            .map(|(index, _)| index)
            .collect();
        let kinds = || names(SERVER_MESSAGES.iter().map(|(key, _)| *key));
        match present.as_slice() {
            [index] => match self.messages.get(*index) {
                Some(schema) => schema.validate(envelope),
                None => vec![error("", "message schema missing")],
            },
            [] => vec![error("", format!("a message must carry exactly one of: {}", kinds()))],
            several => vec![error(
                "",
                format!(
                    "a message must carry exactly one operation, found {}",
                    names(several.iter().map(|i| SERVER_MESSAGES[*i].0))
                ),
            )],
        }
    }
}

fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<&str> = names.collect();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    }
}

/// Validates a client-to-server event; the schema is compiled on first use.
pub(crate) fn validate_client_message(envelope: &Value) -> Vec<SchemaError> {
    static SCHEMA: std::sync::OnceLock<Result<CompiledSchema, String>> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(|| {
        let mut registry = SchemaRegistry::new();
        registry.add_document(envelope::CLIENT_TO_SERVER_ID, envelope::client_to_server());
        registry.compile(&format!("{}#", envelope::CLIENT_TO_SERVER_ID)).map_err(|e| e.to_string())
    });
    match schema {
        Ok(schema) => schema.validate(envelope),
        Err(reason) => vec![error("", format!("the client message schema does not compile: {reason}"))],
    }
}

/// The catalog in the inline form of client capabilities: `catalogId`, `components` (local
/// `$defs` references expanded, since the inline form has no `$defs`), `functions` as an array
/// of function definitions, and `theme` as a map of theme parameter schemas.
pub(crate) fn to_inline_json(catalog: &Catalog) -> Value {
    let document = &catalog.document;
    let mut out = Map::new();
    out.insert("catalogId".into(), catalog.id.clone().into());
    let components: Map<String, Value> =
        catalog.components.iter().map(|c| (c.name.clone(), inline_local_refs(&c.schema, document, 0))).collect();
    out.insert("components".into(), Value::Object(components));
    let functions: Vec<Value> = catalog
        .functions
        .iter()
        .map(|f| {
            let mut def = Map::new();
            def.insert("name".into(), f.name.clone().into());
            if !f.description.is_empty() {
                def.insert("description".into(), f.description.clone().into());
            }
            def.insert("parameters".into(), inline_local_refs(&f.parameters, document, 0));
            def.insert("returnType".into(), f.return_type.as_str().into());
            Value::Object(def)
        })
        .collect();
    out.insert("functions".into(), Value::Array(functions));
    if let Some(Value::Object(params)) = document.pointer("/$defs/theme/properties") {
        let params: Map<String, Value> =
            params.iter().map(|(k, v)| (k.clone(), inline_local_refs(v, document, 0))).collect();
        out.insert("theme".into(), Value::Object(params));
    }
    Value::Object(out)
}

/// Replaces `{"$ref": "#/..."}` with the schema it points to (keeping sibling keywords, with
/// the target moved into `allOf`).
fn inline_local_refs(value: &Value, document: &Value, depth: usize) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            let mut target = None;
            for (key, child) in map {
                if key == "$ref" && depth < MAX_INLINE_DEPTH {
                    if let Some(found) =
                        child.as_str().and_then(|r| r.strip_prefix('#')).and_then(|pointer| document.pointer(pointer))
                    {
                        target = Some(inline_local_refs(found, document, depth + 1));
                        continue;
                    }
                }
                out.insert(key.clone(), inline_local_refs(child, document, depth));
            }
            match target {
                None => Value::Object(out),
                Some(target) if out.is_empty() => target,
                Some(target) => match out.get_mut("allOf") {
                    Some(Value::Array(parts)) => {
                        parts.push(target);
                        Value::Object(out)
                    }
                    Some(_) => json!({ "allOf": [target, Value::Object(out)] }),
                    None => {
                        out.insert("allOf".into(), json!([target]));
                        Value::Object(out)
                    }
                },
            }
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| inline_local_refs(item, document, depth)).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> Value {
        json!({
            "catalogId": "https://example.com/c.json",
            "components": {
                "Badge": {
                    "type": "object",
                    "allOf": [
                        {"$ref": "common_types.json#/$defs/ComponentCommon"},
                        {"properties": {"component": {"const": "Badge"}, "text": {"$ref": "#/$defs/Label"}}, "required": ["component"]}
                    ],
                    "unevaluatedProperties": false
                }
            },
            "functions": [{"name": "shout", "parameters": {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]}, "returnType": "string"}],
            "theme": {"accent": {"type": "string"}},
            "$defs": {"Label": {"type": "string"}}
        })
    }

    #[test]
    fn normalise_builds_one_document() {
        let doc = normalise(&minimal()).unwrap();
        assert_eq!(doc["$id"], "https://example.com/c.json");
        assert_eq!(doc["components"]["Badge"]["allOf"][0]["$ref"], format!("{COMMON_TYPES_ID}#/$defs/ComponentCommon"));
        let shout = &doc["functions"]["shout"];
        assert_eq!(shout["properties"]["call"]["const"], "shout");
        assert_eq!(shout["properties"]["returnType"]["const"], "string");
        assert_eq!(shout["required"], json!(["call", "args"]));
        assert_eq!(doc["$defs"]["theme"]["properties"]["accent"]["type"], "string");
        assert_eq!(doc["$defs"]["anyComponent"]["oneOf"][0]["$ref"], "#/components/Badge");
        assert_eq!(doc["$defs"]["anyFunction"]["oneOf"][0]["$ref"], "#/functions/shout");
    }

    fn deep(levels: usize) -> Value {
        (0..levels).fold(json!({"type": "string"}), |inner, _| json!({ "items": inner }))
    }

    #[test]
    fn normalise_rejects_bad_shapes() {
        let cases = [
            (json!([]), "JSON object"),
            (json!({"components": {}}), "catalogId"),
            (json!({"catalogId": ""}), "catalogId"),
            (json!({"catalogId": "x", "component": {}}), "unknown key"),
            (json!({"catalogId": "x", "components": []}), "components"),
            (json!({"catalogId": "x", "components": {"A": {"type": "object"}}}), "must fix `component`"),
            (
                json!({"catalogId": "x", "components": {"A": {"properties": {"component": {"const": "B"}}}}}),
                "not to its name",
            ),
            (json!({"catalogId": "x", "components": {"a/b": {}}}), "name"),
            (json!({"catalogId": "x", "functions": 3}), "functions"),
            (json!({"catalogId": "x", "functions": [{"name": "f", "parameters": {}}]}), "returnType"),
            (
                json!({"catalogId": "x", "functions": [{"name": "f", "parameters": {}, "returnType": "text"}]}),
                "not one of",
            ),
            (json!({"catalogId": "x", "functions": [{"name": "f", "returnType": "void"}]}), "parameters"),
            (
                json!({"catalogId": "x", "functions": [{"name": "f", "parameters": {}, "returnType": "void", "x": 1}]}),
                "unknown key",
            ),
            (
                json!({"catalogId": "x", "functions": [
                    {"name": "f", "parameters": {}, "returnType": "void"},
                    {"name": "f", "parameters": {}, "returnType": "void"}
                ]}),
                "twice",
            ),
            (json!({"catalogId": "x", "$defs": []}), "$defs"),
            (json!({"catalogId": "x", "theme": "dark"}), "theme"),
            (json!({"catalogId": COMMON_TYPES_ID}), "A2UI schema"),
            (json!({"catalogId": "x", "$defs": {"Deep": deep(200)}}), "nests deeper"),
        ];
        for (input, expected) in cases {
            match normalise(&input) {
                Err(CatalogError::Invalid(message)) => {
                    assert!(message.contains(expected), "{input}: {message:?} lacks {expected:?}")
                }
                other => panic!("{input}: expected an error, got {other:?}"),
            }
        }
    }

    #[test]
    fn inline_refs_are_expanded_with_siblings_kept() {
        let doc = json!({"$defs": {"A": {"type": "string"}, "Loop": {"$ref": "#/$defs/Loop"}}});
        assert_eq!(inline_local_refs(&json!({"$ref": "#/$defs/A"}), &doc, 0), json!({"type": "string"}));
        assert_eq!(
            inline_local_refs(&json!({"$ref": "#/$defs/A", "description": "d"}), &doc, 0),
            json!({"description": "d", "allOf": [{"type": "string"}]})
        );
        assert_eq!(
            inline_local_refs(&json!({"allOf": [{"$ref": "#/$defs/A"}]}), &doc, 0),
            json!({"allOf": [{"type": "string"}]})
        );
        // Cycles stop expanding instead of recursing forever.
        assert_eq!(inline_local_refs(&json!({"$ref": "#/$defs/Loop"}), &doc, 0), json!({"$ref": "#/$defs/Loop"}));
        // External references stay.
        let external = json!({"$ref": format!("{COMMON_TYPES_ID}#/$defs/DynamicString")});
        assert_eq!(inline_local_refs(&external, &doc, 0), external);
    }

    #[test]
    fn return_types_round_trip() {
        for t in ReturnType::ALL {
            assert_eq!(ReturnType::parse(t.as_str()), Some(t));
        }
        assert_eq!(ReturnType::parse("text"), None);
    }
}
