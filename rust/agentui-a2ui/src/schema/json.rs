//! JSON value helpers with JSON Schema semantics: numbers compare by value (`1 == 1.0`), object
//! key order never matters.

use std::cmp::Ordering;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use serde_json::{Number, Value};

/// The JSON Schema type names, as a bit set so `type: [..]` checks are one AND.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeSet(u8);

impl TypeSet {
    pub const NULL: TypeSet = TypeSet(1);
    pub const BOOLEAN: TypeSet = TypeSet(1 << 1);
    pub const OBJECT: TypeSet = TypeSet(1 << 2);
    pub const ARRAY: TypeSet = TypeSet(1 << 3);
    pub const NUMBER: TypeSet = TypeSet(1 << 4);
    pub const STRING: TypeSet = TypeSet(1 << 5);
    pub const INTEGER: TypeSet = TypeSet(1 << 6);

    const NAMES: [(TypeSet, &'static str); 7] = [
        (TypeSet::NULL, "null"),
        (TypeSet::BOOLEAN, "boolean"),
        (TypeSet::OBJECT, "object"),
        (TypeSet::ARRAY, "array"),
        (TypeSet::NUMBER, "number"),
        (TypeSet::STRING, "string"),
        (TypeSet::INTEGER, "integer"),
    ];

    pub fn empty() -> TypeSet {
        TypeSet(0)
    }

    pub fn from_name(name: &str) -> Option<TypeSet> {
        TypeSet::NAMES.iter().find(|(_, n)| *n == name).map(|(t, _)| *t)
    }

    pub fn insert(&mut self, other: TypeSet) {
        self.0 |= other.0;
    }

    fn contains(self, other: TypeSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether `value` is one of these types ("number" includes integers, "integer" accepts
    /// any number with a zero fraction, such as `1.0`).
    pub fn matches(self, value: &Value) -> bool {
        match value {
            Value::Null => self.contains(TypeSet::NULL),
            Value::Bool(_) => self.contains(TypeSet::BOOLEAN),
            Value::Object(_) => self.contains(TypeSet::OBJECT),
            Value::Array(_) => self.contains(TypeSet::ARRAY),
            Value::String(_) => self.contains(TypeSet::STRING),
            Value::Number(n) => self.contains(TypeSet::NUMBER) || (self.contains(TypeSet::INTEGER) && is_integer(n)),
        }
    }

    /// "string", or "string or object" for messages.
    pub fn describe(self) -> String {
        let names: Vec<&str> = TypeSet::NAMES.iter().filter(|(t, _)| self.contains(*t)).map(|(_, n)| *n).collect();
        names.join(" or ")
    }
}

/// The type name of an instance, for messages ("integer" for whole numbers is not used: a
/// value is reported as "number" unless that would be confusing).
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
    }
}

pub(crate) fn is_integer(n: &Number) -> bool {
    if n.is_i64() || n.is_u64() {
        return true;
    }
    n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Integers that serde_json holds exactly, widened so i64 and u64 compare without loss.
pub(crate) fn exact_int(n: &Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

/// Numeric order by value. `None` only for NaN, which serde_json never produces.
pub(crate) fn cmp_numbers(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (exact_int(a), exact_int(b)) {
        return Some(x.cmp(&y));
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

/// Structural equality where numbers compare by value and object key order is ignored.
/// Iterative: instances can be arbitrarily deep.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        let equal = match (a, b) {
            (Value::Number(x), Value::Number(y)) => cmp_numbers(x, y) == Some(Ordering::Equal),
            (Value::Array(x), Value::Array(y)) => {
                pending.extend(x.iter().zip(y));
                x.len() == y.len()
            }
            (Value::Object(x), Value::Object(y)) => {
                for (k, v) in x {
                    match y.get(k) {
                        Some(w) => pending.push((v, w)),
                        None => return false,
                    }
                }
                x.len() == y.len()
            }
            _ => a == b,
        };
        if !equal {
            return false;
        }
    }
    true
}

/// Below this depth `json_hash` stops looking: equal values still hash equally, and deep
/// instances cannot exhaust the stack.
const HASH_DEPTH: usize = 16;

/// A hash consistent with [`json_eq`]: equal values hash equally. Used by `uniqueItems` so
/// large arrays are not compared pairwise.
pub(crate) fn json_hash(value: &Value) -> u64 {
    let mut hasher = DefaultHasher::new();
    hash_into(value, &mut hasher, 0);
    hasher.finish()
}

fn hash_into(value: &Value, hasher: &mut DefaultHasher, depth: usize) {
    if depth >= HASH_DEPTH {
        return;
    }
    match value {
        Value::Null => 0u8.hash(hasher),
        Value::Bool(b) => (1u8, b).hash(hasher),
        Value::String(s) => (2u8, s).hash(hasher),
        Value::Number(n) => {
            // Every number hashes through f64 so 1 and 1.0 collide; `json_eq` decides.
            let f = n.as_f64().unwrap_or(0.0);
            let f = if f == 0.0 { 0.0 } else { f };
            (3u8, f.to_bits()).hash(hasher)
        }
        Value::Array(items) => {
            (4u8, items.len()).hash(hasher);
            for item in items {
                hash_into(item, hasher, depth + 1);
            }
        }
        Value::Object(map) => {
            // Order-independent: combine per-entry hashes commutatively.
            let mut sum = 0u64;
            for (k, v) in map {
                let mut entry = DefaultHasher::new();
                k.hash(&mut entry);
                hash_into(v, &mut entry, depth + 1);
                sum = sum.wrapping_add(entry.finish());
            }
            (5u8, map.len(), sum).hash(hasher)
        }
    }
}

/// A short rendering of a value for messages: JSON, cut after a few levels and characters.
pub(crate) fn preview(value: &Value) -> String {
    const MAX_CHARS: usize = 60;
    let mut out = String::new();
    write_preview(value, &mut out, 0);
    if out.chars().count() <= MAX_CHARS {
        return out;
    }
    let cut: String = out.chars().take(MAX_CHARS).collect();
    format!("{cut}…")
}

fn write_preview(value: &Value, out: &mut String, depth: usize) {
    // Only the start is shown, so stop building long before it could matter.
    const MAX_BUILD: usize = 200;
    if out.len() > MAX_BUILD {
        return;
    }
    match value {
        Value::Array(items) if depth >= 2 => out.push_str(if items.is_empty() { "[]" } else { "[…]" }),
        Value::Object(map) if depth >= 2 => out.push_str(if map.is_empty() { "{}" } else { "{…}" }),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_preview(item, out, depth + 1);
                if out.len() > MAX_BUILD {
                    break;
                }
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push(':');
                write_preview(v, out, depth + 1);
                if out.len() > MAX_BUILD {
                    break;
                }
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        assert!(!json_eq(&json!(1), &json!(1.5)));
        assert!(!json_eq(&json!(1), &json!("1")));
        assert!(!json_eq(&json!(u64::MAX), &json!(i64::MAX)));
        assert_eq!(json_hash(&json!({"a": 1, "b": [2]})), json_hash(&json!({"b": [2.0], "a": 1.0})));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!json_eq(&json!([1, [2]]), &json!([1, [3]])));
    }

    #[test]
    fn deep_values_are_safe() {
        let mut a = json!(1);
        let mut b = json!(1);
        for _ in 0..100_000 {
            a = Value::Array(vec![a]);
            b = Value::Array(vec![b]);
        }
        assert!(json_eq(&a, &b));
        assert_eq!(json_hash(&a), json_hash(&b));
        assert_eq!(preview(&a), "[[[…]]]");
        std::mem::forget((a, b));
    }

    #[test]
    fn previews_are_short() {
        assert_eq!(preview(&json!({"k": "v", "n": [1, {"x": 2}]})), r#"{"k":"v","n":[1,{…}]}"#);
        let long = preview(&json!("a".repeat(500)));
        assert_eq!(long.chars().count(), 61);
    }

    #[test]
    fn integer_type_accepts_zero_fraction() {
        assert!(TypeSet::INTEGER.matches(&json!(1.0)));
        assert!(TypeSet::INTEGER.matches(&json!(-3)));
        assert!(!TypeSet::INTEGER.matches(&json!(1.5)));
        assert!(TypeSet::NUMBER.matches(&json!(7)));
    }
}
