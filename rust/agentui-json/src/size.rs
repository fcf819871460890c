//! How big a JSON value is, measured without recursion and without allocating, and stopping as
//! soon as a bound is crossed. Agent payloads are untrusted: a size is always checked against its
//! bound while it is measured, never by building something first and looking at it afterwards.
//!
//! Two measures:
//! - **weight** ([`measure_within`]): the approximate bytes a parsed value holds in memory, which
//!   is what a memory budget is about. Every value counts `size_of::<Value>()`, a string its bytes,
//!   an object member its key plus the map's per-entry bookkeeping. An array of 3.5 million zeros
//!   is 7 MB of JSON but over 100 MB of weight, and the weight is what a phone has to find.
//! - **encoded length** ([`encoded_len_within`]): the bytes of the value serialized as compact
//!   JSON, for message-size limits that are defined on the wire.

use serde_json::Value;

/// Weight of one JSON value slot, whatever it holds.
pub const VALUE_WEIGHT: usize = std::mem::size_of::<Value>();
/// Extra weight of one object member besides its value: the key and the map's index entry.
pub const ENTRY_WEIGHT: usize = std::mem::size_of::<String>() + 2 * std::mem::size_of::<usize>();

/// Weight and nesting depth of a value (a scalar has depth 0, a container 1 + its deepest child).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measure {
    pub weight: usize,
    pub depth: usize,
}

/// Which bound a measured value crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    Weight,
    Depth,
}

/// The weight of one object member with key `key` and a value of weight `value_weight`.
pub fn entry_weight(key: &str, value_weight: usize) -> usize {
    ENTRY_WEIGHT + key.len() + value_weight
}

/// Measures `value`, stopping at the first step that makes its weight exceed `max_weight` or its
/// depth exceed `max_depth`. Iterative, so a value nested a million levels deep is refused, not a
/// stack overflow.
pub fn measure_within(value: &Value, max_weight: usize, max_depth: usize) -> Result<Measure, Exceeded> {
    let mut m = Walk { weight: 0, depth: 0, max_weight, max_depth, stack: Vec::new() };
    m.enter(value, 0)?;
    m.run()
}

/// [`measure_within`] for an object given as its members (e.g. a `Map` held outside a `Value`).
pub fn measure_members_within(
    members: &serde_json::Map<String, Value>,
    max_weight: usize,
    max_depth: usize,
) -> Result<Measure, Exceeded> {
    let mut m = Walk { weight: VALUE_WEIGHT, depth: 1, max_weight, max_depth, stack: Vec::new() };
    m.check()?;
    m.stack.push(Frame::Object(members.iter()));
    m.run()
}

/// One container being walked. The walk holds an iterator per level, never the items: its
/// memory grows with the depth (bounded by `max_depth`), not with the width of an array.
enum Frame<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(serde_json::map::Iter<'a>),
}

struct Walk<'a> {
    weight: usize,
    depth: usize,
    max_weight: usize,
    max_depth: usize,
    stack: Vec<Frame<'a>>,
}

impl<'a> Walk<'a> {
    fn check(&self) -> Result<(), Exceeded> {
        if self.depth > self.max_depth {
            return Err(Exceeded::Depth);
        }
        if self.weight > self.max_weight {
            return Err(Exceeded::Weight);
        }
        Ok(())
    }

    /// Counts `value` found at nesting `level` and descends into it if it is a container.
    fn enter(&mut self, value: &'a Value, level: usize) -> Result<(), Exceeded> {
        self.weight = self.weight.saturating_add(VALUE_WEIGHT);
        match value {
            Value::String(s) => self.weight = self.weight.saturating_add(s.len()),
            Value::Array(items) => {
                self.depth = self.depth.max(level + 1);
                self.check()?;
                self.stack.push(Frame::Array(items.iter()));
            }
            Value::Object(map) => {
                self.depth = self.depth.max(level + 1);
                self.check()?;
                self.stack.push(Frame::Object(map.iter()));
            }
            _ => {}
        }
        self.check()
    }

    fn run(mut self) -> Result<Measure, Exceeded> {
        loop {
            let level = self.stack.len();
            let next = match self.stack.last_mut() {
                None => return Ok(Measure { weight: self.weight, depth: self.depth }),
                Some(Frame::Array(items)) => items.next(),
                Some(Frame::Object(members)) => match members.next() {
                    Some((key, item)) => {
                        self.weight = self.weight.saturating_add(ENTRY_WEIGHT + key.len());
                        Some(item)
                    }
                    None => None,
                },
            };
            match next {
                Some(item) => self.enter(item, level)?,
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

/// The weight of `value` with no bound (for values the engine already holds).
pub fn weight(value: &Value) -> usize {
    measure(value).weight
}

/// Weight and depth with no bound.
pub fn measure(value: &Value) -> Measure {
    measure_within(value, usize::MAX, usize::MAX).unwrap_or_default()
}

/// Bytes of `value` as compact JSON, or `None` once more than `max` bytes would be written.
/// Nothing is allocated: the serializer writes into a counter.
pub fn encoded_len_within(value: &Value, max: usize) -> Option<usize> {
    struct Counter {
        written: usize,
        max: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.written = self.written.saturating_add(buf.len());
            if self.written > self.max {
                return Err(std::io::Error::other("over the bound"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter { written: 0, max };
    serde_json::to_writer(&mut counter, value).ok().map(|()| counter.written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn weight_counts_values_strings_and_keys() {
        assert_eq!(weight(&json!(1)), VALUE_WEIGHT);
        assert_eq!(weight(&json!("abcd")), VALUE_WEIGHT + 4);
        assert_eq!(weight(&json!([1, 2])), 3 * VALUE_WEIGHT);
        assert_eq!(weight(&json!({"ab": null})), 2 * VALUE_WEIGHT + ENTRY_WEIGHT + 2);
    }

    #[test]
    fn depth_matches_the_data_model_measure() {
        assert_eq!(measure(&json!(1)).depth, 0);
        assert_eq!(measure(&json!([])).depth, 1);
        assert_eq!(measure(&json!({"a": [1, {"b": 2}]})).depth, 3);
    }

    #[test]
    fn bounds_stop_the_walk() {
        let big = Value::Array(vec![json!(0); 1000]);
        assert_eq!(measure_within(&big, 100 * VALUE_WEIGHT, 10), Err(Exceeded::Weight));
        assert!(measure_within(&big, 1001 * VALUE_WEIGHT, 10).is_ok());
        let mut deep = json!(0);
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        assert_eq!(measure_within(&deep, usize::MAX, 64), Err(Exceeded::Depth));
        // Dropping a value this deep recurses in serde_json: take it apart iteratively.
        let mut cur = deep;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn encoded_len_is_exact_and_bounded() {
        let v = json!({"a": [1, "x\"y"], "b": null});
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(encoded_len_within(&v, usize::MAX), Some(text.len()));
        assert_eq!(encoded_len_within(&v, text.len()), Some(text.len()));
        assert_eq!(encoded_len_within(&v, text.len() - 1), None);
    }
}
