//! JSON values as the bindings carry them (feature `uniffi`): a typed tree that Kotlin and Swift
//! pattern-match and never parse. `serde_json::Value` crosses as [`NodeValue`] (the UniFFI custom
//! type [`JsonValue`]), an object as its entries in order ([`JsonObject`]); the other crates
//! reuse both with `uniffi::use_remote_type!`.

use serde_json::{Map, Number, Value};

/// A JSON value, as the bindings see it: a [`NodeValue`].
pub type JsonValue = Value;
/// A JSON object, as the bindings see it: its members in order.
pub type JsonObject = Map<String, Value>;

/// A resolved value. Recursive: `Array` and `Object` hold further values.
///
/// `Array`, not `List`: a variant named `List` would shadow `kotlin.collections.List` inside
/// the generated Kotlin sealed class. Numbers are `f64`, as in JavaScript.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum NodeValue {
    Null,
    Bool { value: bool },
    Number { value: f64 },
    Text { value: String },
    Array { items: Vec<NodeValue> },
    Object { entries: Vec<PropEntry> },
}

/// One named value: a node property or an object member, in the agent's order.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct PropEntry {
    pub name: String,
    pub value: NodeValue,
}

uniffi::custom_type!(JsonValue, NodeValue, {
    remote,
    lower: |value| NodeValue::from(value),
    try_lift: |value| value.to_json().map_err(|e| uniffi::deps::anyhow::anyhow!("not a JSON value at '{}': {}", e.path, e.reason())),
});

uniffi::custom_type!(JsonObject, Vec<PropEntry>, {
    remote,
    lower: |map| entries(map),
    try_lift: |entries| match (NodeValue::Object { entries }).to_json() {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => unreachable!("an object converts to an object"),
        Err(e) => Err(uniffi::deps::anyhow::anyhow!("not a JSON object at '{}': {}", e.path, e.reason())),
    },
});

impl From<Value> for NodeValue {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => NodeValue::Null,
            Value::Bool(value) => NodeValue::Bool { value },
            // Every JSON number has an f64 reading (large integers round).
            Value::Number(n) => NodeValue::Number { value: n.as_f64().unwrap_or(f64::NAN) },
            Value::String(value) => NodeValue::Text { value },
            Value::Array(items) => NodeValue::Array { items: items.into_iter().map(NodeValue::from).collect() },
            Value::Object(map) => NodeValue::Object { entries: entries(map) },
        }
    }
}

/// An object's members as entries, in order.
pub fn entries(map: Map<String, Value>) -> Vec<PropEntry> {
    map.into_iter().map(|(name, value)| PropEntry { name, value: value.into() }).collect()
}

/// A value that JSON cannot carry (NaN or an infinity), or that nests deeper than
/// [`MAX_VALUE_DEPTH`], found at `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson {
    pub path: String,
    pub too_deep: bool,
}

/// Deepest nesting `to_json` converts: the data model's own bound (the engine refuses deeper
/// values anyway), so an app cannot overflow the stack by passing a pathologically deep value.
pub const MAX_VALUE_DEPTH: usize = 64;

impl NotJson {
    pub fn reason(&self) -> &'static str {
        if self.too_deep {
            "nested deeper than the 64 levels a value may have"
        } else {
            "NaN and infinities have no JSON form"
        }
    }
}

impl NodeValue {
    /// The JSON form. Whole numbers within ±2^53 become JSON integers, so a picker's `4` is
    /// stored as `4`, not `4.0`. Duplicate object names: the last one wins, as in JSON parsers.
    pub fn to_json(&self) -> Result<Value, NotJson> {
        self.to_json_at(&mut String::new(), 0)
    }

    fn to_json_at(&self, path: &mut String, depth: usize) -> Result<Value, NotJson> {
        if depth > MAX_VALUE_DEPTH {
            return Err(NotJson { path: path.clone(), too_deep: true });
        }
        Ok(match self {
            NodeValue::Null => Value::Null,
            NodeValue::Bool { value } => Value::Bool(*value),
            NodeValue::Number { value } => {
                Value::Number(number(*value).ok_or_else(|| NotJson { path: path.clone(), too_deep: false })?)
            }
            NodeValue::Text { value } => Value::String(value.clone()),
            NodeValue::Array { items } => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&i.to_string());
                    out.push(item.to_json_at(path, depth + 1)?);
                    path.truncate(len);
                }
                Value::Array(out)
            }
            NodeValue::Object { entries } => {
                let mut out = Map::new();
                for entry in entries {
                    let len = path.len();
                    path.push('/');
                    // JSON Pointer escaping, so the reported path is exact.
                    path.push_str(&entry.name.replace('~', "~0").replace('/', "~1"));
                    out.insert(entry.name.clone(), entry.value.to_json_at(path, depth + 1)?);
                    path.truncate(len);
                }
                Value::Object(out)
            }
        })
    }
}

const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0; // 2^53

fn number(value: f64) -> Option<Number> {
    if value.is_finite() && value.fract() == 0.0 && value.abs() <= MAX_EXACT_INTEGER {
        // In range and whole, so the cast is exact.
        return Some(Number::from(value as i64));
    }
    Number::from_f64(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_json_and_keeps_integers_integral() {
        let original = json!({"a": [1, 2.5, "x", null, true], "b": {"c": -3}});
        let value = NodeValue::from(original.clone());
        assert_eq!(value.to_json().unwrap(), original);
    }

    #[test]
    fn refuses_values_json_cannot_carry() {
        let value = NodeValue::Object {
            entries: vec![PropEntry {
                name: "a/b".into(),
                value: NodeValue::Array { items: vec![NodeValue::Null, NodeValue::Number { value: f64::NAN }] },
            }],
        };
        assert_eq!(value.to_json().unwrap_err(), NotJson { path: "/a~1b/1".into(), too_deep: false });
    }

    /// Issue #11: `to_json_at` recursed without a bound on a value the app passes to
    /// `set_value`; a deep enough value overflowed the stack.
    #[test]
    fn node_value_to_json_refuses_deep_values_without_recursing_past_the_bound() {
        let mut value = NodeValue::Null;
        for _ in 0..10_000 {
            value = NodeValue::Array { items: vec![value] };
        }
        let err = value.to_json().unwrap_err();
        assert!(err.too_deep);
        assert_eq!(err.path, "/0".repeat(MAX_VALUE_DEPTH + 1));
        // At the bound it converts.
        let mut ok = NodeValue::Null;
        for _ in 0..MAX_VALUE_DEPTH {
            ok = NodeValue::Array { items: vec![ok] };
        }
        assert!(ok.to_json().is_ok());
        // Take the deep value apart iteratively: dropping it whole would recurse 10,000 deep.
        let mut cur = value;
        while let NodeValue::Array { mut items } = cur {
            cur = items.pop().unwrap_or(NodeValue::Null);
        }
    }
}
