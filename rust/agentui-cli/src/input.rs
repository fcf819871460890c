//! Reading message files in the shapes agent developers have at hand: a JSON array of messages,
//! JSON Lines, or the A2UI spec's example format `{name, description, messages}`.

use std::path::Path;

use serde_json::Value;

/// Reads `path` as a list of message envelopes.
pub fn read_messages(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_messages(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse_messages(text: &str) -> Result<Vec<Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(items)) => Ok(items),
        Ok(Value::Object(mut obj)) => match obj.remove("messages") {
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err("\"messages\" must be an array".into()),
            // A single envelope.
            None => Ok(vec![Value::Object(obj)]),
        },
        Ok(_) => Err("expected a JSON array, an object with \"messages\", or JSON Lines".into()),
        Err(whole) => text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| {
                serde_json::from_str(line).map_err(|e| {
                    if i == 0 {
                        format!("not JSON ({whole}) and not JSON Lines (line 1: {e})")
                    } else {
                        format!("line {}: {e}", i + 1)
                    }
                })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_three_shapes() {
        assert_eq!(parse_messages("[{\"a\":1},{\"b\":2}]").unwrap().len(), 2);
        assert_eq!(parse_messages("{\"name\":\"x\",\"messages\":[{\"a\":1}]}").unwrap().len(), 1);
        assert_eq!(parse_messages("{\"a\":1}\n\n{\"b\":2}\n").unwrap().len(), 2);
    }

    #[test]
    fn reports_the_bad_line() {
        let err = parse_messages("{\"a\":1}\n{oops}\n").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
    }
}
