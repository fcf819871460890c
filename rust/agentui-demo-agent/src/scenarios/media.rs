//! Media both ways: a scenario that answers with an image (a server tool whose
//! `TOOL_CALL_RESULT` carries a text part and an inline PNG), and the chat's answer to a message
//! with attachments, which says what arrived: each part's type, MIME type, name, decoded length
//! and an FNV-1a 64 hash of its bytes, so a test can prove the bytes arrived intact.

use base64::Engine as _;
use serde_json::{json, Value};

use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const TOOL: &str = "draw_picture";
/// An 8×8 RGB PNG, 166 bytes: a colour gradient.
pub const PICTURE_PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAbUlEQVR42hXOUREAUQhCUaMYhShEMcqNQhSi7Fs/OQzjzLCDBg83MGToMLPsosXLLSxZug/ECgmLE4iI6oFZI2NzBhNTPzj20OHjDo4cvQf/7Bt41Rf+F+h7YsIGBYfLHyc0D8oWFZfrX05p+QDeqGABtJu0bQAAAABJRU5ErkJggg==";

pub(super) fn picture(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let intro = s.text(&["Let me draw ", "a picture for you."]);
    let call = s.tool_call(TOOL, &intro, &[r#"{"subject":"#, r#""gradient"}"#]);
    let id = s.next_message_id();
    s.event(json!({
        "type": "TOOL_CALL_RESULT",
        "messageId": id,
        "toolCallId": call,
        "role": "tool",
        "content": [
            {"type": "text", "text": "An 8×8 gradient."},
            {"type": "image", "source": {"type": "data", "value": PICTURE_PNG_BASE64, "mimeType": "image/png"},
             "metadata": {"filename": "gradient.png"}}
        ],
    }));
    s.text(&["Here is ", "your picture."]);
    s.finish()
}

/// One line per media part of the latest user message; `None` when it has none.
pub(super) fn describe_received(input: &RunInput) -> Option<Vec<String>> {
    let user = input.messages.iter().rev().find(|m| m.role == "user")?;
    let Some(Value::Array(parts)) = &user.content else { return None };
    let lines: Vec<String> = parts.iter().filter(|p| p["type"] != "text").map(describe_part).collect();
    (!lines.is_empty()).then_some(lines)
}

fn describe_part(part: &Value) -> String {
    let kind = part["type"].as_str().unwrap_or("?");
    let name = part["metadata"]["filename"].as_str().unwrap_or("-");
    let source = &part["source"];
    let mime = source["mimeType"].as_str().unwrap_or("-");
    match source["type"].as_str() {
        Some("data") => {
            match base64::engine::general_purpose::STANDARD.decode(source["value"].as_str().unwrap_or("")) {
                Ok(bytes) => format!("{kind} {mime} {name} bytes={} fnv={:016x}", bytes.len(), fnv1a64(&bytes)),
                Err(e) => format!("{kind} {mime} {name} undecodable: {e}"),
            }
        }
        Some(other) => format!("{kind} {mime} {name} {other}={}", source["value"].as_str().unwrap_or("")),
        None => format!("{kind} without a source"),
    }
}

/// FNV-1a, 64 bits: a hash any test can recompute in a few lines.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

pub(super) fn received(input: &RunInput, lines: &[String]) -> Vec<Step> {
    let mut s = script(input);
    let mut deltas = vec![format!("Received {} attachment(s):", lines.len())];
    deltas.extend(lines.iter().map(|l| format!("\n{l}")));
    s.text(&deltas);
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_is_a_png() {
        let bytes = base64::engine::general_purpose::STANDARD.decode(PICTURE_PNG_BASE64).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(bytes.len(), 166);
    }

    #[test]
    fn received_parts_are_described_with_length_and_hash() {
        let input = RunInput::from_value(json!({"threadId": "t", "runId": "r", "messages": [
            {"id": "u", "role": "user", "content": [
                {"type": "text", "text": "look"},
                {"type": "image", "source": {"type": "data", "value": "AAEC", "mimeType": "image/png"}, "metadata": {"filename": "a.png"}}
            ]}
        ]}))
        .unwrap();
        let lines = describe_received(&input).unwrap();
        assert_eq!(lines, vec![format!("image image/png a.png bytes=3 fnv={:016x}", fnv1a64(&[0, 1, 2]))]);
    }
}
