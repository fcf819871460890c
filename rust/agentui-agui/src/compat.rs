//! Compatibility: translating retired shapes and downgrading for older peers.
//!
//! Incoming, in pipeline order (both run on raw JSON, before enforcement, so the shapes they
//! translate are still there to translate):
//! 1. [`CompatibilityBoundary`], always on: the retired `THINKING_*` events become `REASONING_*`.
//! 2. [`PeerEra`] shims chosen from the configured peer ceiling: for a peer at or below 0.0.57
//!    the `SUBAGENT_*` lifecycle is dropped (lossy, warned) and attribution stripped (lossless).
//!
//! Both ways, the retired `binary` content part is upgraded to a modern media part
//! (`upgrade_binary_part`, applied by the decoder to every content part), for every peer.
//! Outgoing ([`PeerEra::prepare_messages`]): a peer at or below 0.0.39 gets text-only content (lossy,
//! warned), one at or below 0.0.57 loses attribution, one from before 1.0 gets no
//! `protocolVersion`.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::error::{Warning, WarningKind};
use crate::message::{ContentPart, Message, MessageContent, Role};
use crate::version::VersionNumber;

/// The always-on translator for retired event shapes.
#[derive(Debug, Default)]
pub struct CompatibilityBoundary {
    span_id: Option<String>,
    message_id: Option<String>,
    minted: u64,
    warned: HashSet<&'static str>,
}

const THINKING: [(&str, &str); 5] = [
    ("THINKING_START", "REASONING_START"),
    ("THINKING_END", "REASONING_END"),
    ("THINKING_TEXT_MESSAGE_START", "REASONING_MESSAGE_START"),
    ("THINKING_TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT"),
    ("THINKING_TEXT_MESSAGE_END", "REASONING_MESSAGE_END"),
];

impl CompatibilityBoundary {
    pub fn new() -> Self {
        Self::default()
    }

    // Deterministic ids: the retired shapes carried none, and replays must reduce identically.
    fn mint(&mut self, kind: &str) -> String {
        self.minted += 1;
        format!("thinking-{kind}-{}", self.minted)
    }

    /// Translate `event` in place if it is a retired shape.
    pub fn translate(&mut self, event: &mut Value, warnings: &mut Vec<Warning>) {
        let Value::Object(map) = event else { return };
        let Some(Value::String(kind)) = map.get("type") else { return };
        let Some(&(old, new)) = THINKING.iter().find(|(old, _)| old == kind) else { return };
        let id = match old {
            "THINKING_START" => {
                let id = self.mint("span");
                self.span_id = Some(id.clone());
                id
            }
            "THINKING_END" => self.span_id.take().unwrap_or_else(|| self.mint("span")),
            "THINKING_TEXT_MESSAGE_START" => {
                let id = self.mint("message");
                self.message_id = Some(id.clone());
                map.insert("role".to_owned(), Value::String("reasoning".to_owned()));
                id
            }
            "THINKING_TEXT_MESSAGE_END" => self.message_id.take().unwrap_or_else(|| self.mint("message")),
            _ => self.message_id.clone().unwrap_or_else(|| self.mint("message")),
        };
        // The span's title has no place in 1.1; losing it is said out loud.
        let lost_title = if old == "THINKING_START" { map.remove("title").is_some() } else { false };
        map.insert("type".to_owned(), Value::String(new.to_owned()));
        map.insert("messageId".to_owned(), Value::String(id));
        if self.warned.insert(old) || lost_title {
            let title = if lost_title { "; its 'title' has no 1.1 equivalent and was dropped" } else { "" };
            warnings.push(Warning::new(
                WarningKind::Compatibility,
                format!("translated the retired {old} event into {new}{title}. Upgrade the producer to emit REASONING_* events."),
            ));
        }
    }
}

/// What the configured peer ceiling asks of this client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PeerEra {
    max_version: Option<VersionNumber>,
}

impl PeerEra {
    /// `None` (or an unparsable value) means the peer is treated as current.
    pub fn new(max_protocol_version: Option<&str>) -> Self {
        PeerEra { max_version: max_protocol_version.and_then(VersionNumber::parse) }
    }

    fn at_most(&self, version: &str) -> bool {
        // A current peer (the usual case) needs no parsing: the pipeline asks once per event.
        let Some(peer) = &self.max_version else { return false };
        VersionNumber::parse(version).is_some_and(|limit| *peer <= limit)
    }

    /// A 0.0.39 peer only understands text content.
    pub fn flattens_content(&self) -> bool {
        self.at_most("0.0.39")
    }

    /// A 0.0.57 peer has no subagents.
    pub fn drops_subagents(&self) -> bool {
        self.at_most("0.0.57")
    }

    /// A peer from before 1.0 predates `protocolVersion` on the input.
    pub fn omits_protocol_version(&self) -> bool {
        matches!(&self.max_version, Some(v) if Some(v) < VersionNumber::parse("1.0").as_ref())
    }

    /// Apply the incoming shims to one raw event. Returns `false` when the event is dropped.
    pub fn downgrade_event(&self, event: &mut Value, warnings: &mut Vec<Warning>) -> bool {
        if !self.drops_subagents() {
            return true;
        }
        let Value::Object(map) = event else { return true };
        if let Some(Value::String(kind)) = map.get("type") {
            if matches!(kind.as_str(), "SUBAGENT_STARTED" | "SUBAGENT_FINISHED" | "SUBAGENT_ERROR") {
                warnings.push(Warning::new(
                    WarningKind::Compatibility,
                    format!("dropping {kind} for a <=0.0.57 peer: that era has no subagent lifecycle, so the event cannot be represented. Upgrade the peer to keep it."),
                ));
                return false;
            }
        }
        // Attribution has nowhere to go in that era; the events still arrive, flattened.
        map.remove("subagentRunId");
        true
    }

    /// Prepare outgoing history: upgrade retired parts, enforce, then downgrade for the peer.
    pub fn prepare_messages(
        &self,
        raw: Value,
        warnings: &mut Vec<Warning>,
    ) -> Result<Vec<Message>, crate::ProtocolError> {
        let mut messages = prepare_history(raw, warnings)?;
        self.downgrade_messages(&mut messages, warnings);
        Ok(messages)
    }

    /// Whether [`downgrade_messages`](Self::downgrade_messages) would change `m` for this peer.
    pub fn changes(&self, m: &Message) -> bool {
        (self.drops_subagents() && m.subagent_run_id.is_some())
            || (self.flattens_content() && matches!(m.content, Some(MessageContent::Parts(_))))
    }

    /// Downgrade typed messages for the peer.
    pub fn downgrade_messages(&self, messages: &mut [Message], warnings: &mut Vec<Warning>) {
        for m in messages.iter_mut() {
            if self.drops_subagents() {
                m.subagent_run_id = None;
            }
            if self.flattens_content() {
                if let Some(MessageContent::Parts(parts)) = &m.content {
                    let dropped: Vec<&str> =
                        parts.iter().filter(|p| !matches!(p, ContentPart::Text(_))).map(ContentPart::kind).collect();
                    if !dropped.is_empty() {
                        warnings.push(Warning::new(
                            WarningKind::Compatibility,
                            format!(
                                "flattening message content for a <=0.0.39 peer DROPS non-text parts ({}) of message '{}'. Upgrade the peer to keep media content.",
                                dropped.join(", "),
                                m.id
                            ),
                        ));
                    }
                    let text: String = parts
                        .iter()
                        .filter_map(|p| match p {
                            ContentPart::Text(t) => Some(t.text.as_str()),
                            _ => None,
                        })
                        .collect();
                    m.content = Some(MessageContent::Text(text));
                }
            }
        }
    }
}

/// Turn an application's raw message history (possibly holding retired shapes) into typed
/// messages: enforced like any input, the retired `binary` part upgraded on the way
/// (`upgrade_binary_part`, which the decoder applies to every content part).
pub fn prepare_history(raw: Value, warnings: &mut Vec<Warning>) -> Result<Vec<Message>, crate::ProtocolError> {
    crate::decode::decode_messages(raw, warnings)
}

/// The retired `{type: "binary"}` part becomes an image/audio/video/document part whose source
/// carries the same payload (URL, inline data, or provider file id). Applied in both
/// directions: pre-1.0 SDKs still echo the user's attachment in this shape, and dropping it
/// would drop what the user sent. A part with no payload is left as it is, for enforcement to
/// strip and say so.
pub(crate) fn upgrade_binary_part(part: &mut Map<String, Value>) {
    if part.get("type").and_then(Value::as_str) != Some("binary") {
        return;
    }
    let mime = part.get("mimeType").and_then(Value::as_str).unwrap_or_default().to_owned();
    let kind = match mime.split('/').next() {
        Some("image") => "image",
        Some("audio") => "audio",
        Some("video") => "video",
        _ => "document",
    };
    // The same precedence as the retired shape's readers: a URL, then inline data, then an id.
    let Some((source_type, value)) = [("url", "url"), ("data", "data"), ("id", "file")]
        .into_iter()
        .find_map(|(key, source_type)| part.get(key).map(|v| (source_type, v.clone())))
    else {
        return;
    };
    if source_type == "data" && mime.is_empty() {
        return; // a data source needs its MIME type: without one the part cannot be read
    }
    let mut source = Map::new();
    source.insert("type".into(), source_type.into());
    source.insert("value".into(), value);
    if !mime.is_empty() {
        source.insert("mimeType".into(), Value::String(mime));
    }
    let mut upgraded = Map::new();
    upgraded.insert("type".into(), Value::String(kind.to_owned()));
    upgraded.insert("source".into(), Value::Object(source));
    *part = upgraded;
}

/// Messages that never travel to the producer: activities are client-only.
pub(crate) fn travels_to_producer(m: &Message) -> bool {
    m.role != Role::Activity
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn thinking_is_translated_with_one_warning_per_type() {
        let mut b = CompatibilityBoundary::new();
        let mut w = Vec::new();
        let mut start = json!({"type": "THINKING_TEXT_MESSAGE_START"});
        let mut content = json!({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "x"});
        b.translate(&mut start, &mut w);
        b.translate(&mut content, &mut w);
        assert_eq!(start["type"], "REASONING_MESSAGE_START");
        assert_eq!(start["role"], "reasoning");
        assert_eq!(start["messageId"], content["messageId"]);
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn eras_are_gated_by_version() {
        assert!(PeerEra::new(Some("0.0.39")).flattens_content());
        assert!(!PeerEra::new(Some("0.0.40")).flattens_content());
        assert!(PeerEra::new(Some("0.0.57")).drops_subagents());
        assert!(PeerEra::new(Some("0.0.57")).omits_protocol_version());
        assert!(!PeerEra::new(None).omits_protocol_version());
        assert!(!PeerEra::new(Some("1.1")).drops_subagents());
    }

    #[test]
    fn binary_part_is_upgraded() {
        let mut raw = json!([{"id": "u", "role": "user", "content": [
            {"type": "binary", "mimeType": "image/png", "url": "https://x/y.png"}]}]);
        let mut w = Vec::new();
        let messages = PeerEra::new(None).prepare_messages(raw.take(), &mut w).unwrap();
        assert!(w.is_empty());
        assert_eq!(
            messages[0].to_json()["content"][0],
            json!({"type": "image", "source": {"type": "url", "value": "https://x/y.png", "mimeType": "image/png"}})
        );
    }
}
