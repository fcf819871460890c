//! How values are written to the store: JSON text, messages in their AG-UI wire form (so what
//! a store holds reads like the protocol).

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use std::path::Path;

use agentui_agui::{ContentPart, Message, MessageContent};

use super::StoreError;
use crate::observe::ConsentRequest;
use crate::session::outbox::{OutboxEntry, OutboxPayload, PendingSend};

pub(super) fn encode<T: Serialize + ?Sized>(value: &T) -> String {
    // Everything written here is plain data (strings, numbers, JSON values): it serializes.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

pub(super) fn decode<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt { what: what.to_owned(), detail: e.to_string() })
}

/// The `consent` column: the calls waiting for the user and the granted tools ('' for neither).
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredConsent {
    requests: Vec<ConsentRequest>,
    grants: Vec<String>,
}

pub(super) fn encode_consent((requests, grants): (&[ConsentRequest], &[String])) -> String {
    if requests.is_empty() && grants.is_empty() {
        return String::new();
    }
    encode(&StoredConsent { requests: requests.to_vec(), grants: grants.to_vec() })
}

pub(super) fn decode_consent(text: &str) -> Result<(Vec<ConsentRequest>, Vec<String>), StoreError> {
    if text.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let stored: StoredConsent = decode("consent", text)?;
    Ok((stored.requests, stored.grants))
}

/// A message's row; its large media parts go to files in `files` (see [`super::files`]). When a
/// file cannot be written the row holds everything: larger, never lost.
pub(super) fn encode_message(message: &Message, files: Option<&Path>) -> String {
    super::files::encode_message(message, files).unwrap_or_else(|_| encode(message))
}

/// The text a message shows: its text, or its text parts joined.
pub(super) fn message_text(message: &Message) -> &str {
    match &message.content {
        Some(MessageContent::Text(text)) => text,
        Some(MessageContent::Parts(parts)) => parts
            .iter()
            .find_map(|p| match p {
                ContentPart::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .unwrap_or_default(),
        _ => "",
    }
}

pub(super) fn encode_outbox_entry(entry: &OutboxEntry, files: Option<&Path>) -> String {
    match &entry.payload {
        OutboxPayload::Message(Some(message)) => {
            format!("{{\"pending\":{},\"message\":{}}}", encode(&entry.pending), encode_message(message, files))
        }
        OutboxPayload::Message(None) => json!({ "pending": entry.pending, "message": Value::Null }).to_string(),
        OutboxPayload::Action(props) => json!({ "pending": entry.pending, "props": props }).to_string(),
    }
}

pub(super) fn decode_outbox_entry(
    text: &str,
    files: Option<&Path>,
    unavailable: &mut Vec<super::UnavailableMedia>,
) -> Result<OutboxEntry, StoreError> {
    let mut body: Value = decode("outbox entry", text)?;
    if super::files::refers_to_files(text) {
        if let Some(message) = body.get_mut("message") {
            // Whole: the message is sent as it is once the agent is reachable.
            super::files::restore_parts(message, files, super::files::Restore::Whole, unavailable);
        }
    }
    let corrupt = |detail: &str| StoreError::Corrupt { what: "outbox entry".to_owned(), detail: detail.to_owned() };
    let pending: PendingSend = serde_json::from_value(body.get_mut("pending").map(Value::take).unwrap_or(Value::Null))
        .map_err(|e| corrupt(&e.to_string()))?;
    let payload = match (body.get_mut("props").map(Value::take), body.get_mut("message").map(Value::take)) {
        (Some(Value::Object(props)), _) => OutboxPayload::Action(props),
        (_, Some(Value::Null)) => OutboxPayload::Message(None),
        (_, Some(message)) => OutboxPayload::Message(Some(std::sync::Arc::new(
            serde_json::from_value(message).map_err(|e| corrupt(&e.to_string()))?,
        ))),
        _ => return Err(corrupt("neither a message nor an action")),
    };
    Ok(OutboxEntry { pending, payload })
}

/// A `list` cursor: where the previous page ended.
pub(super) fn cursor(updated_ms: i64, thread_id: &str) -> String {
    format!("{updated_ms}:{thread_id}")
}

pub(super) fn parse_cursor(text: &str) -> Result<(i64, String), StoreError> {
    let bad = || StoreError::Corrupt { what: "list cursor".to_owned(), detail: format!("'{text}' is not a cursor") };
    let (ms, id) = text.split_once(':').ok_or_else(bad)?;
    Ok((ms.parse().map_err(|_| bad())?, id.to_owned()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    /// Every role and content shape the wire admits reads back equal from the store's form.
    #[test]
    fn messages_read_back_as_written() {
        let wire = json!([
            {"id": "u1", "role": "user", "content": [
                {"type": "text", "text": "look"},
                {"type": "image", "source": {"type": "url", "value": "https://example.com/a.png", "mimeType": "image/png"}}
            ]},
            {"id": "a1", "role": "assistant", "content": "sure", "toolCalls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}, "metadata": {"k": true}}
            ]},
            {"id": "t1", "role": "tool", "content": "done", "toolCallId": "c1", "error": "partly"},
            {"id": "act1", "role": "activity", "activityType": "a2ui-surface", "content": {"a2ui_operations": [{"x": [1, 2]}]}},
            {"id": "r1", "role": "reasoning", "content": "thinking", "encryptedValue": "opaque"},
            {"id": "s1", "role": "system", "content": "be brief", "name": "setup"}
        ]);
        let mut warnings = Vec::new();
        let messages = agentui_agui::decode::decode_messages(wire, &mut warnings).unwrap();
        assert_eq!(messages.len(), 6);
        let stored = super::encode(&messages);
        let read: Vec<agentui_agui::Message> = super::decode("messages", &stored).unwrap();
        assert_eq!(read, messages);
    }
}
