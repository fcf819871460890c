//! The building blocks of enforcement: reading a closed JSON object field by field, telling a
//! malformed known value (fatal) from unrecognised material (stripped with a warning).

use serde_json::{Map, Value};

use crate::error::{Warning, WarningKind};

/// Why a value could not be taken as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reject {
    /// A described field holds a value the schema rejects: fatal for the run.
    Malformed { path: String, message: String },
    /// A union member or closed-set value this implementation does not know: the value holding
    /// it is removed by whoever can remove it (optional field, list element, or the event).
    Unrecognised { path: String, what: String },
}

pub(crate) type Res<T> = Result<T, Reject>;

pub(crate) fn malformed<T>(path: impl Into<String>, message: impl Into<String>) -> Res<T> {
    Err(Reject::Malformed { path: path.into(), message: message.into() })
}

/// The JSON type name used in messages ("expected string, received number").
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

pub(crate) fn expected(path: &str, what: &str, value: &Value) -> Reject {
    Reject::Malformed { path: path.to_owned(), message: format!("expected {what}, received {}", type_name(value)) }
}

/// Append one RFC 6901 reference token to a pointer.
pub(crate) fn child(path: &str, key: &str) -> String {
    let mut out = String::with_capacity(path.len() + key.len() + 1);
    out.push_str(path);
    out.push('/');
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}/{i}")
}

/// Where stripped material is reported, and which event it came from.
pub(crate) struct Strip<'w> {
    pub warnings: &'w mut Vec<Warning>,
    pub owner: &'static str,
}

impl Strip<'_> {
    pub(crate) fn removed(&mut self, path: &str, what: &str) {
        self.warnings.push(Warning::new(WarningKind::Stripped, format!("stripped {path} from {}: {what}", self.owner)));
    }
}

/// A closed JSON object being read: every key taken is described; whatever is left at
/// [`ObjectReader::finish`] is unrecognised and stripped with a warning.
pub(crate) struct ObjectReader {
    map: Map<String, Value>,
    pub path: String,
}

impl ObjectReader {
    pub(crate) fn new(value: Value, path: &str) -> Res<Self> {
        match value {
            Value::Object(map) => Ok(ObjectReader { map, path: path.to_owned() }),
            other => Err(expected(path, "object", &other)),
        }
    }

    pub(crate) fn at(&self, key: &str) -> String {
        child(&self.path, key)
    }

    pub(crate) fn take(&mut self, key: &str) -> Option<Value> {
        self.map.remove(key)
    }

    pub(crate) fn required(&mut self, key: &str) -> Res<Value> {
        match self.map.remove(key) {
            Some(v) => Ok(v),
            None => malformed(self.at(key), "required field is missing"),
        }
    }

    pub(crate) fn req_string(&mut self, key: &str) -> Res<String> {
        match self.required(key)? {
            Value::String(s) => Ok(s),
            other => Err(expected(&self.at(key), "string", &other)),
        }
    }

    pub(crate) fn opt_string(&mut self, key: &str) -> Res<Option<String>> {
        match self.map.remove(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(expected(&self.at(key), "string", &other)),
        }
    }

    pub(crate) fn opt_bool(&mut self, key: &str) -> Res<Option<bool>> {
        match self.map.remove(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(expected(&self.at(key), "boolean", &other)),
        }
    }

    /// An open-by-key object (metadata, activity content, a schema): kept whole.
    pub(crate) fn opt_object(&mut self, key: &str) -> Res<Option<Map<String, Value>>> {
        match self.map.remove(key) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(other) => Err(expected(&self.at(key), "object", &other)),
        }
    }

    pub(crate) fn req_object(&mut self, key: &str) -> Res<Map<String, Value>> {
        match self.required(key)? {
            Value::Object(m) => Ok(m),
            other => Err(expected(&self.at(key), "object", &other)),
        }
    }

    /// Any JSON value except `null`.
    pub(crate) fn opt_non_null(&mut self, key: &str) -> Res<Option<Value>> {
        match self.map.remove(key) {
            None => Ok(None),
            Some(Value::Null) => malformed(self.at(key), "expected a value, received null"),
            Some(v) => Ok(Some(v)),
        }
    }

    /// An integer in the range JSON numbers survive a round trip in.
    pub(crate) fn opt_safe_integer(&mut self, key: &str, min: i64) -> Res<Option<i64>> {
        const SAFE: i64 = 9_007_199_254_740_991;
        let Some(v) = self.map.remove(key) else { return Ok(None) };
        let path = self.at(key);
        match v.as_i64() {
            Some(n) if (min..=SAFE).contains(&n) => Ok(Some(n)),
            Some(n) => malformed(path, format!("expected an integer in [{min}, {SAFE}], received {n}")),
            None if v.is_number() => malformed(path, "expected integer, received number"),
            None => Err(expected(&path, "integer", &v)),
        }
    }

    /// A closed set of strings in an optional position: an unknown member is stripped.
    pub(crate) fn opt_enum<T>(&mut self, key: &str, parse: fn(&str) -> Option<T>, strip: &mut Strip) -> Res<Option<T>> {
        match self.map.remove(key) {
            None => Ok(None),
            Some(Value::String(s)) => match parse(&s) {
                Some(t) => Ok(Some(t)),
                None => {
                    strip.removed(&self.at(key), &format!("unrecognised value {}", quoted(&s)));
                    Ok(None)
                }
            },
            Some(other) => Err(expected(&self.at(key), "string", &other)),
        }
    }

    /// A closed set of strings in a required position: an unknown member removes the container.
    pub(crate) fn req_enum<T>(&mut self, key: &str, parse: fn(&str) -> Option<T>) -> Res<T> {
        let path = self.at(key);
        match self.required(key)? {
            Value::String(s) => match parse(&s) {
                Some(t) => Ok(t),
                None => {
                    Err(Reject::Unrecognised { what: format!("unrecognised value {} at {path}", quoted(&s)), path })
                }
            },
            other => Err(expected(&path, "string", &other)),
        }
    }

    /// A field fixed to one string: any other value is malformed, never stripped.
    pub(crate) fn constant(&mut self, key: &str, value: &str, required: bool) -> Res<bool> {
        match self.map.remove(key) {
            None if required => malformed(self.at(key), "required field is missing"),
            None => Ok(false),
            Some(Value::String(s)) if s == value => Ok(true),
            Some(other) => malformed(
                self.at(key),
                format!("expected {}, received {}", quoted(value), serde_json::to_string(&other).unwrap_or_default()),
            ),
        }
    }

    pub(crate) fn into_map(self) -> Map<String, Value> {
        self.map
    }

    /// Strip whatever was not read, warning once per property.
    pub(crate) fn finish(self, strip: &mut Strip) {
        for key in self.map.keys() {
            strip.removed(&child(&self.path, key), "unrecognised property");
        }
    }

    /// Read the discriminator of a union member: a string is required.
    pub(crate) fn discriminator(&mut self, key: &str) -> Res<String> {
        self.req_string(key)
    }
}

pub(crate) fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("'{s}'"))
}

/// Read a JSON array whose elements are union members: an unrecognised element is dropped with
/// a warning and the list survives.
pub(crate) fn list<T>(
    value: Value,
    path: &str,
    strip: &mut Strip,
    mut item: impl FnMut(Value, &str, &mut Strip) -> Res<T>,
) -> Res<Vec<T>> {
    let Value::Array(items) = value else { return Err(expected(path, "array", &value)) };
    let mut out = Vec::with_capacity(items.len());
    for (i, v) in items.into_iter().enumerate() {
        let at = index(path, i);
        match item(v, &at, strip) {
            Ok(t) => out.push(t),
            Err(Reject::Unrecognised { what, .. }) => strip.removed(&at, &what),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// An array of strings.
pub(crate) fn string_list(value: Value, path: &str) -> Res<Vec<String>> {
    let Value::Array(items) = value else { return Err(expected(path, "array", &value)) };
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::String(s) => Ok(s),
            other => Err(expected(&index(path, i), "string", &other)),
        })
        .collect()
}

/// Optional position holding a union: unrecognised members are stripped with a warning.
pub(crate) fn optional_member<T>(result: Res<T>, path: &str, strip: &mut Strip) -> Res<Option<T>> {
    match result {
        Ok(t) => Ok(Some(t)),
        Err(Reject::Unrecognised { what, .. }) => {
            strip.removed(path, &what);
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Whether a string is an RFC 6901 JSON Pointer.
pub(crate) fn is_json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'~' {
            match bytes.get(i + 1) {
                Some(b'0') | Some(b'1') => i += 2,
                _ => return false,
            }
        } else {
            i += 1;
        }
    }
    true
}
