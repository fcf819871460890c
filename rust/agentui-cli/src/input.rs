//! Reading message files in the shapes agent developers have at hand: a JSON array of messages,
//! JSON Lines, or the A2UI spec's example format `{name, description, messages}`.

use serde_json::value::RawValue;

/// The JSON text of each message in `text`, found without building any message: an engine can
/// then refuse a message by its length before parsing it.
pub fn message_texts(text: &str) -> Result<Vec<&str>, String> {
    match text.trim_start().as_bytes().first() {
        Some(b'[') => {
            if let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(text) {
                return Ok(items.into_iter().map(RawValue::get).collect());
            }
        }
        Some(b'{') => {
            if let Ok(members) = serde_json::from_str::<std::collections::HashMap<String, &RawValue>>(text) {
                return match members.get("messages") {
                    Some(messages) => serde_json::from_str::<Vec<&RawValue>>(messages.get())
                        .map(|items| items.into_iter().map(RawValue::get).collect())
                        .map_err(|_| "\"messages\" must be an array".to_owned()),
                    // A single envelope.
                    None => Ok(vec![text.trim()]),
                };
            }
        }
        _ => {}
    }
    let whole = serde_json::from_str::<&RawValue>(text).err();
    if whole.is_none() {
        return Err("expected a JSON array, an object with \"messages\", or JSON Lines".into());
    }
    let whole = whole.map(|e| e.to_string()).unwrap_or_default();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str::<&RawValue>(line).map(RawValue::get).map_err(|e| {
                if i == 0 {
                    format!("not JSON ({whole}) and not JSON Lines (line 1: {e})")
                } else {
                    format!("line {}: {e}", i + 1)
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_three_shapes() {
        assert_eq!(message_texts("[{\"a\":1},{\"b\":2}]").unwrap().len(), 2);
        assert_eq!(message_texts("{\"name\":\"x\",\"messages\":[{\"a\":1}]}").unwrap().len(), 1);
        assert_eq!(message_texts("{\"a\":1}\n\n{\"b\":2}\n").unwrap().len(), 2);
    }

    #[test]
    fn reports_the_bad_line() {
        let err = message_texts("{\"a\":1}\n{oops}\n").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
    }
}
