//! v0.8 adapter: `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface` and
//! `userAction`, mapped onto the v0.9 types the engine uses.
//!
//! The engine only knows v0.9. A v0.8 envelope is translated here, once, into one or more v0.9
//! [`ServerMessage`]s; everything downstream (validator, data model, resolver) is shared.
//!
//! Mapping rules and the reasons behind them:
//!
//! - `beginRendering` becomes `createSurface`. A missing `catalogId` means the v0.8 standard
//!   catalog ([`STANDARD_CATALOG_ID`]). `styles` becomes `theme`: `primaryColor` has the same name
//!   and format in both versions; `font` and any other style has no v0.9 theme key and is kept
//!   as is (the v0.9 theme allows additional properties). The root id is kept (v0.9 fixes it to
//!   `"root"`, v0.8 names it).
//! - `surfaceUpdate` becomes `updateComponents`; each `{id, weight?, component: {Type: props}}`
//!   is flattened to `{id, component: "Type", ...props, weight?}` and its props are renamed and
//!   reshaped onto the v0.9 basic catalog (table in `component_rules`). Lossy spots: TextField
//!   `date` becomes `shortText` (v0.9 has no date text field), DateTimeInput `outputFormat` is
//!   dropped (v0.9 always uses ISO 8601), MultipleChoice `maxAllowedSelections` above 1 only
//!   selects the `multipleSelection` variant (v0.9 has no limit). A Slider without `maxValue`
//!   gets no `max`, which v0.9 requires, so the validator rejects it (no default is specified).
//! - Bound values: `{literalX}` becomes the literal, `{path}` becomes `{"path"}`. `{path, literalX}`
//!   is v0.8's initialization shorthand ("set the data model at `path` to the literal, then
//!   bind"): it becomes the binding plus an `updateDataModel` emitted *before* the
//!   `updateComponents`, so the data exists when the component first renders. Only absolute paths
//!   are initialized: a relative path is resolved against a template item that does not exist
//!   yet, so it is only bound.
//! - `dataModelUpdate` becomes one `updateDataModel` whose value is the object built from
//!   `contents`. The v0.8 schema says an omitted or `/` path replaces the whole data model, so the
//!   update replaces the value at `path` (no merge). A path without a leading `/` (the v0.8 spec's
//!   own examples write `"path": "user"`) is anchored at the root.
//! - `deleteSurface` maps one to one.
//! - Unknown component types (custom catalogs) pass through flat, with their props untouched;
//!   the v0.9 validator then accepts or rejects them against the surface's catalog.
//!
//! Errors in the v0.8 structure are [`A2uiError::Validation`] naming the v0.8 path (for example
//! `/surfaceUpdate/components/3/component`).

use serde_json::{json, Map, Value};

use crate::error::A2uiError;
use crate::limits::Limits;
use crate::wire::v09::{
    required_string, single_message_key, ActionMessage, CreateSurface, DeleteSurface, ServerMessage, UpdateComponents,
    UpdateDataModel,
};

/// Id of the v0.8 standard catalog, the default when `beginRendering` names none.
pub const STANDARD_CATALOG_ID: &str = "https://a2ui.org/specification/v0_8/standard_catalog_definition.json";
/// Id of the v0.8 minimal catalog (a strict subset of the standard one).
pub const MINIMAL_CATALOG_ID: &str = "https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json";
/// Id the v0.8 protocol document used for the standard catalog before the schema settled on
/// [`STANDARD_CATALOG_ID`]; agents built against that document still send it.
pub const LEGACY_STANDARD_CATALOG_ID: &str =
    "https://github.com/google/A2UI/blob/main/specification/0.8/json/standard_catalog_definition.json";

const MESSAGE_KEYS: [&str; 4] = ["beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface"];
const LITERAL_KEYS: [&str; 4] = ["literalString", "literalNumber", "literalBoolean", "literalArray"];

/// True for an object carrying a v0.8 message key and no `version` (v0.9 envelopes always have one).
pub fn is_v08(envelope: &Value) -> bool {
    match envelope.as_object() {
        Some(obj) => !obj.contains_key("version") && MESSAGE_KEYS.iter().any(|k| obj.contains_key(*k)),
        None => false,
    }
}

/// Translates one v0.8 envelope into the v0.9 messages that have the same effect, in order.
pub fn parse(envelope: &Value) -> Result<Vec<ServerMessage>, A2uiError> {
    let obj = envelope.as_object().ok_or_else(|| A2uiError::validation("", "message must be a JSON object"))?;
    let key = single_message_key(obj, &MESSAGE_KEYS)?;
    let at = format!("/{key}");
    let body = obj[key].as_object().ok_or_else(|| A2uiError::validation(&at, format!("{key} must be an object")))?;
    let surface_id = required_string(body, "surfaceId", &format!("{at}/surfaceId"))?;
    match key {
        "beginRendering" => begin_rendering(surface_id, body, &at).map(|m| vec![m]),
        "surfaceUpdate" => surface_update(surface_id, body, &at),
        "dataModelUpdate" => data_model_update(surface_id, body, &at).map(|m| vec![m]),
        _ => Ok(vec![ServerMessage::DeleteSurface(DeleteSurface { surface_id })]),
    }
}

/// The v0.8 wire form of a user action: `{"userAction": {name, surfaceId, sourceComponentId,
/// timestamp, context}}` (no `version`, unlike v0.9).
pub fn user_action(action: &ActionMessage) -> Value {
    json!({
        "userAction": {
            "name": action.name,
            "surfaceId": action.surface_id,
            "sourceComponentId": action.source_component_id,
            "timestamp": action.timestamp,
            "context": action.context,
        }
    })
}

/// The `beginRendering` that creates what `create` describes: a surface whose root has its own
/// id, which no v0.9 `createSurface` can say (see [`crate::Surface::export`]). The theme
/// becomes `styles`, the inverse of the mapping above; v0.8 has no `sendDataModel`.
pub fn begin_rendering_wire(create: &CreateSurface) -> Value {
    let mut body = json!({"surfaceId": create.surface_id, "root": create.root_id, "catalogId": create.catalog_id});
    if let Some(theme) = &create.theme {
        body["styles"] = theme.clone();
    }
    json!({ "beginRendering": body })
}

fn begin_rendering(surface_id: String, body: &Map<String, Value>, at: &str) -> Result<ServerMessage, A2uiError> {
    let root_id = required_string(body, "root", &format!("{at}/root"))?;
    let catalog_id = match body.get("catalogId") {
        None => STANDARD_CATALOG_ID.to_owned(),
        Some(Value::String(id)) if id == LEGACY_STANDARD_CATALOG_ID => STANDARD_CATALOG_ID.to_owned(),
        Some(Value::String(id)) => id.clone(),
        Some(_) => return Err(A2uiError::validation(format!("{at}/catalogId"), "catalogId must be a string")),
    };
    let theme = match body.get("styles") {
        None => None,
        Some(Value::Object(styles)) => theme_from_styles(styles),
        Some(_) => return Err(A2uiError::validation(format!("{at}/styles"), "styles must be an object")),
    };
    Ok(ServerMessage::CreateSurface(CreateSurface { surface_id, catalog_id, theme, send_data_model: false, root_id }))
}

/// v0.8 `styles` as a v0.9 `theme`. The only v0.8 style with a v0.9 theme key, `primaryColor`,
/// has the same name and `#RRGGBB` format in both; `font` and anything else has no v0.9 key and
/// is kept as is, since the v0.9 theme allows additional properties. So the object carries over
/// unchanged; an empty one is no theme.
fn theme_from_styles(styles: &Map<String, Value>) -> Option<Value> {
    (!styles.is_empty()).then(|| Value::Object(styles.clone()))
}

fn surface_update(surface_id: String, body: &Map<String, Value>, at: &str) -> Result<Vec<ServerMessage>, A2uiError> {
    let items = match body.get("components") {
        Some(Value::Array(items)) => items,
        Some(_) => return Err(A2uiError::validation(format!("{at}/components"), "components must be an array")),
        None => {
            return Err(A2uiError::validation(format!("{at}/components"), "missing required property \"components\""))
        }
    };
    let mut inits = Vec::new();
    let mut components = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        components.push(convert_component(item, &format!("{at}/components/{i}"), &mut inits)?);
    }
    let mut out: Vec<ServerMessage> = inits
        .into_iter()
        .map(|(path, value)| {
            ServerMessage::UpdateDataModel(UpdateDataModel {
                surface_id: surface_id.clone(),
                path: Some(path),
                value: Some(value),
            })
        })
        .collect();
    out.push(ServerMessage::UpdateComponents(UpdateComponents {
        surface_id,
        components,
        catalog_ids: Vec::new(),
        inline_in_create: false,
    }));
    Ok(out)
}

fn data_model_update(surface_id: String, body: &Map<String, Value>, at: &str) -> Result<ServerMessage, A2uiError> {
    let path = match body.get("path") {
        None => None,
        Some(Value::String(p)) => normalize_model_path(p),
        Some(_) => return Err(A2uiError::validation(format!("{at}/path"), "path must be a string")),
    };
    let contents = match body.get("contents") {
        Some(Value::Array(entries)) => entries,
        Some(_) => return Err(A2uiError::validation(format!("{at}/contents"), "contents must be an array")),
        None => return Err(A2uiError::validation(format!("{at}/contents"), "missing required property \"contents\"")),
    };
    let value = value_map(contents, &format!("{at}/contents"), 1)?;
    Ok(ServerMessage::UpdateDataModel(UpdateDataModel { surface_id, path, value: Some(value) }))
}

/// `None` (the root) for an empty or `/` path; otherwise an absolute JSON Pointer.
fn normalize_model_path(path: &str) -> Option<String> {
    match path {
        "" | "/" => None,
        p if p.starts_with('/') => Some(p.to_owned()),
        p => Some(format!("/{p}")),
    }
}

/// The object described by a v0.8 adjacency list of `{key, valueString|valueNumber|valueBoolean|
/// valueMap}` entries. Later duplicates of a key win.
fn value_map(entries: &[Value], at: &str, depth: usize) -> Result<Value, A2uiError> {
    let max_depth = Limits::default().max_value_depth;
    if depth > max_depth {
        return Err(A2uiError::validation(at, format!("valueMap nesting deeper than {max_depth}")));
    }
    let mut object = Map::new();
    for (i, entry) in entries.iter().enumerate() {
        let entry_at = format!("{at}/{i}");
        let entry = entry.as_object().ok_or_else(|| A2uiError::validation(&entry_at, "entry must be an object"))?;
        let key = required_string(entry, "key", &format!("{entry_at}/key"))?;
        let mut value = None;
        for (field, raw) in entry {
            let field_at = format!("{entry_at}/{}", escape(field));
            let converted = match field.as_str() {
                "key" => continue,
                "valueString" if raw.is_string() => raw.clone(),
                "valueNumber" if raw.is_number() => raw.clone(),
                "valueBoolean" if raw.is_boolean() => raw.clone(),
                "valueMap" => match raw {
                    Value::Array(inner) => value_map(inner, &field_at, depth + 1)?,
                    _ => return Err(A2uiError::validation(field_at, "valueMap must be an array")),
                },
                "valueString" | "valueNumber" | "valueBoolean" => {
                    let kind = &field["value".len()..];
                    return Err(A2uiError::validation(field_at, format!("{field} must be a {}", kind.to_lowercase())));
                }
                other => {
                    return Err(A2uiError::validation(field_at, format!("unknown data entry property {other:?}")));
                }
            };
            if value.replace(converted).is_some() {
                return Err(A2uiError::validation(&entry_at, "entry has several value* properties; expected one"));
            }
        }
        let value = value.ok_or_else(|| {
            A2uiError::validation(&entry_at, "entry has no valueString, valueNumber, valueBoolean or valueMap")
        })?;
        object.insert(key, value);
    }
    Ok(Value::Object(object))
}

/// How one v0.8 component property becomes its v0.9 counterpart.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Same name, same value.
    Keep,
    /// New name, same value.
    Rename(&'static str),
    /// A v0.8 bound value (`{path}` / `{literalX}` / both), under the given v0.9 name.
    Bound(&'static str),
    /// `{explicitList}` / `{template}` to a v0.9 child list.
    Children,
    /// Button `action: {name, context: [{key, value}]}` to `{event: {name, context: {}}}`.
    Action,
    /// Button `primary: bool` to `variant: "primary"`.
    Primary,
    /// Image `fit`: v0.8 uses CSS spelling `scale-down`, v0.9 camelCase `scaleDown`.
    ImageFit,
    /// TextField `textFieldType` to `variant`; `date` has no v0.9 variant.
    TextFieldType,
    /// Tabs `tabItems: [{title, child}]` to `tabs`.
    TabItems,
    /// MultipleChoice `options: [{label, value}]` (label is a bound value).
    Options,
    /// MultipleChoice `maxAllowedSelections` to ChoicePicker `variant`.
    MaxSelections,
    /// No v0.9 equivalent; dropped.
    Drop,
}

/// The v0.9 type name and the property rules of a v0.8 standard catalog component; `None` for a
/// type outside the standard catalog. Properties not listed are copied unchanged, so the v0.9
/// validator reports them.
fn component_rules(v08_type: &str) -> Option<(&'static str, &'static [(&'static str, Rule)])> {
    use Rule::*;
    Some(match v08_type {
        "Text" => ("Text", &[("text", Bound("text")), ("usageHint", Rename("variant"))]),
        "Image" => (
            "Image",
            &[
                ("url", Bound("url")),
                ("altText", Bound("description")),
                ("fit", ImageFit),
                ("usageHint", Rename("variant")),
            ],
        ),
        "Icon" => ("Icon", &[("name", Bound("name"))]),
        "Video" => ("Video", &[("url", Bound("url"))]),
        "AudioPlayer" => ("AudioPlayer", &[("url", Bound("url")), ("description", Bound("description"))]),
        "Row" => {
            ("Row", &[("children", Children), ("distribution", Rename("justify")), ("alignment", Rename("align"))])
        }
        "Column" => {
            ("Column", &[("children", Children), ("distribution", Rename("justify")), ("alignment", Rename("align"))])
        }
        "List" => ("List", &[("children", Children), ("direction", Keep), ("alignment", Rename("align"))]),
        "Card" => ("Card", &[("child", Keep)]),
        "Tabs" => ("Tabs", &[("tabItems", TabItems)]),
        "Divider" => ("Divider", &[("axis", Keep)]),
        "Modal" => ("Modal", &[("entryPointChild", Rename("trigger")), ("contentChild", Rename("content"))]),
        "Button" => ("Button", &[("child", Keep), ("primary", Primary), ("action", Action)]),
        "CheckBox" => ("CheckBox", &[("label", Bound("label")), ("value", Bound("value"))]),
        "TextField" => (
            "TextField",
            &[
                ("label", Bound("label")),
                ("text", Bound("value")),
                ("textFieldType", TextFieldType),
                ("validationRegexp", Keep),
            ],
        ),
        "DateTimeInput" => (
            "DateTimeInput",
            &[("value", Bound("value")), ("enableDate", Keep), ("enableTime", Keep), ("outputFormat", Drop)],
        ),
        "MultipleChoice" => (
            "ChoicePicker",
            &[
                ("selections", Bound("value")),
                ("options", Options),
                ("maxAllowedSelections", MaxSelections),
                ("variant", Rename("displayStyle")),
                ("filterable", Keep),
            ],
        ),
        "Slider" => (
            "Slider",
            &[
                ("label", Bound("label")),
                ("value", Bound("value")),
                ("minValue", Rename("min")),
                ("maxValue", Rename("max")),
            ],
        ),
        _ => return None,
    })
}

/// One v0.8 component wrapper as a flat v0.9 component. Absolute-path initializations found in
/// its bound values are appended to `inits`.
fn convert_component(item: &Value, at: &str, inits: &mut Vec<(String, Value)>) -> Result<Value, A2uiError> {
    let item = item.as_object().ok_or_else(|| A2uiError::validation(at, "component must be an object"))?;
    let id = required_string(item, "id", &format!("{at}/id"))?;
    let weight = match item.get("weight") {
        None => None,
        Some(w @ Value::Number(_)) => Some(w.clone()),
        Some(_) => return Err(A2uiError::validation(format!("{at}/weight"), "weight must be a number")),
    };
    let wrapper_at = format!("{at}/component");
    let wrapper = match item.get("component") {
        Some(Value::Object(w)) => w,
        Some(_) => return Err(A2uiError::validation(wrapper_at, "component must be an object")),
        None => return Err(A2uiError::validation(wrapper_at, "missing required property \"component\"")),
    };
    let mut types = wrapper.iter();
    let (v08_type, props) = match (types.next(), types.next()) {
        (Some(only), None) => only,
        _ => {
            return Err(A2uiError::validation(
                wrapper_at,
                format!("component must contain exactly one component type key, found {}", wrapper.len()),
            ))
        }
    };
    let props_at = format!("{wrapper_at}/{}", escape(v08_type));
    let props = props.as_object().ok_or_else(|| A2uiError::validation(&props_at, "properties must be an object"))?;

    let mut out = Map::new();
    out.insert("id".into(), Value::String(id));
    let rules = component_rules(v08_type);
    let v09_type = rules.map(|(name, _)| name).unwrap_or(v08_type);
    out.insert("component".into(), Value::String(v09_type.to_owned()));
    for (name, value) in props {
        let prop_at = format!("{props_at}/{}", escape(name));
        if name == "id" || name == "component" {
            return Err(A2uiError::validation(
                prop_at,
                format!("property {name:?} clashes with the v0.9 component field"),
            ));
        }
        let rule = rules.and_then(|(_, table)| table.iter().find(|(n, _)| n == name)).map(|(_, r)| *r);
        apply_rule(rule.unwrap_or(Rule::Keep), name, value, &prop_at, &mut out, inits)?;
    }
    // v0.8 MultipleChoice without a limit allows several selections; v0.9's default variant is
    // mutually exclusive, so say it explicitly.
    if v08_type == "MultipleChoice" && !out.contains_key("variant") {
        out.insert("variant".into(), Value::String("multipleSelection".into()));
    }
    if let Some(weight) = weight {
        out.insert("weight".into(), weight);
    }
    Ok(Value::Object(out))
}

fn apply_rule(
    rule: Rule,
    name: &str,
    value: &Value,
    at: &str,
    out: &mut Map<String, Value>,
    inits: &mut Vec<(String, Value)>,
) -> Result<(), A2uiError> {
    let (key, converted) = match rule {
        Rule::Keep => (name, value.clone()),
        Rule::Rename(to) => (to, value.clone()),
        Rule::Bound(to) => (to, bound_value(value, at, inits)?),
        Rule::Children => (name, children(value, at)?),
        Rule::Action => (name, action(value, at, inits)?),
        Rule::Primary => match value {
            Value::Bool(true) => ("variant", Value::String("primary".into())),
            Value::Bool(false) => return Ok(()),
            _ => return Err(A2uiError::validation(at, "primary must be a boolean")),
        },
        Rule::ImageFit => match value.as_str() {
            Some("scale-down") => (name, Value::String("scaleDown".into())),
            _ => (name, value.clone()),
        },
        Rule::TextFieldType => match value.as_str() {
            // v0.9 has no date text field (DateTimeInput is the date picker): plain text keeps
            // the field usable.
            Some("date") => ("variant", Value::String("shortText".into())),
            _ => ("variant", value.clone()),
        },
        Rule::TabItems => ("tabs", items_with_bound(value, at, "title", inits)?),
        Rule::Options => (name, items_with_bound(value, at, "label", inits)?),
        Rule::MaxSelections => match value.as_u64() {
            Some(1) => ("variant", Value::String("mutuallyExclusive".into())),
            Some(_) => ("variant", Value::String("multipleSelection".into())),
            None => return Err(A2uiError::validation(at, "maxAllowedSelections must be a non-negative integer")),
        },
        Rule::Drop => return Ok(()),
    };
    out.insert(key.to_owned(), converted);
    Ok(())
}

/// A v0.8 bound value as a v0.9 dynamic value. `{path, literalX}` binds to `path` and, when the
/// path is absolute, records the initialization.
fn bound_value(value: &Value, at: &str, inits: &mut Vec<(String, Value)>) -> Result<Value, A2uiError> {
    let obj = value.as_object().ok_or_else(|| {
        A2uiError::validation(at, "expected a bound value object with \"path\" and/or one \"literal*\" property")
    })?;
    let mut path = None;
    let mut literal: Option<(&str, &Value)> = None;
    for (key, raw) in obj {
        let key_at = format!("{at}/{}", escape(key));
        match key.as_str() {
            "path" => match raw {
                Value::String(p) => path = Some(p.clone()),
                _ => return Err(A2uiError::validation(key_at, "path must be a string")),
            },
            k if LITERAL_KEYS.contains(&k) => {
                let ok = match k {
                    "literalString" => raw.is_string(),
                    "literalNumber" => raw.is_number(),
                    "literalBoolean" => raw.is_boolean(),
                    _ => raw.is_array(),
                };
                if !ok {
                    let kind = &k["literal".len()..];
                    return Err(A2uiError::validation(key_at, format!("{k} must be a {}", kind.to_lowercase())));
                }
                if let Some((previous, _)) = literal {
                    return Err(A2uiError::validation(at, format!("bound value has both {previous} and {k}")));
                }
                literal = Some((k, raw));
            }
            other => return Err(A2uiError::validation(key_at, format!("unknown bound value property {other:?}"))),
        }
    }
    match (path, literal) {
        (Some(path), Some((_, lit))) => {
            if path.starts_with('/') {
                inits.push((path.clone(), lit.clone()));
            }
            Ok(json!({ "path": path }))
        }
        (Some(path), None) => Ok(json!({ "path": path })),
        (None, Some((_, lit))) => Ok(lit.clone()),
        (None, None) => Err(A2uiError::validation(at, "bound value needs \"path\" or a \"literal*\" property")),
    }
}

/// `{explicitList: [ids]}` to `[ids]`; `{template: {componentId, dataBinding}}` to
/// `{componentId, path}`.
fn children(value: &Value, at: &str) -> Result<Value, A2uiError> {
    let obj = value.as_object().ok_or_else(|| A2uiError::validation(at, "children must be an object"))?;
    match (obj.get("explicitList"), obj.get("template")) {
        (Some(list), None) if obj.len() == 1 => match list {
            Value::Array(_) => Ok(list.clone()),
            _ => Err(A2uiError::validation(format!("{at}/explicitList"), "explicitList must be an array")),
        },
        (None, Some(template)) if obj.len() == 1 => {
            let template_at = format!("{at}/template");
            let template = template
                .as_object()
                .ok_or_else(|| A2uiError::validation(&template_at, "template must be an object"))?;
            let component_id = required_string(template, "componentId", &format!("{template_at}/componentId"))?;
            let path = required_string(template, "dataBinding", &format!("{template_at}/dataBinding"))?;
            Ok(json!({ "componentId": component_id, "path": path }))
        }
        _ => Err(A2uiError::validation(at, "children must contain exactly one of explicitList or template")),
    }
}

/// Button `action: {name, context?: [{key, value}]}` to `{event: {name, context?: {key: dynamic}}}`.
fn action(value: &Value, at: &str, inits: &mut Vec<(String, Value)>) -> Result<Value, A2uiError> {
    let obj = value.as_object().ok_or_else(|| A2uiError::validation(at, "action must be an object"))?;
    let name = required_string(obj, "name", &format!("{at}/name"))?;
    let mut event = Map::new();
    event.insert("name".into(), Value::String(name));
    match obj.get("context") {
        None => {}
        Some(Value::Array(entries)) => {
            let mut context = Map::new();
            for (i, entry) in entries.iter().enumerate() {
                let entry_at = format!("{at}/context/{i}");
                let entry = entry
                    .as_object()
                    .ok_or_else(|| A2uiError::validation(&entry_at, "context entry must be an object"))?;
                let key = required_string(entry, "key", &format!("{entry_at}/key"))?;
                let value = entry.get("value").ok_or_else(|| {
                    A2uiError::validation(format!("{entry_at}/value"), "missing required property \"value\"")
                })?;
                context.insert(key, bound_value(value, &format!("{entry_at}/value"), inits)?);
            }
            event.insert("context".into(), Value::Object(context));
        }
        Some(_) => return Err(A2uiError::validation(format!("{at}/context"), "context must be an array")),
    }
    Ok(json!({ "event": event }))
}

/// An array of objects whose `bound_key` is a v0.8 bound value (Tabs items, MultipleChoice
/// options); every other field is copied.
fn items_with_bound(
    value: &Value,
    at: &str,
    bound_key: &str,
    inits: &mut Vec<(String, Value)>,
) -> Result<Value, A2uiError> {
    let items = value.as_array().ok_or_else(|| A2uiError::validation(at, "expected an array"))?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let item_at = format!("{at}/{i}");
        let item = item.as_object().ok_or_else(|| A2uiError::validation(&item_at, "item must be an object"))?;
        let mut converted = Map::new();
        for (key, field) in item {
            let field = if key == bound_key {
                bound_value(field, &format!("{item_at}/{}", escape(key)), inits)?
            } else {
                field.clone()
            };
            converted.insert(key.clone(), field);
        }
        out.push(Value::Object(converted));
    }
    Ok(Value::Array(out))
}

/// A key as a JSON Pointer reference token (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
