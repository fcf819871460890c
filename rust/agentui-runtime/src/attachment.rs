//! Attachments: images, audio, video and documents the app sends with a user message.
//!
//! An attachment is bytes or a file, with its MIME type and a name. Before anything is sent,
//! every attachment of a message is checked (its MIME type against the app's
//! [`AttachmentPolicy`], its size against the [`MemoryBudget`]'s per-attachment and per-message
//! bounds, the file's readability; and, before anything is read, the conversation's media with
//! this message's against its `max_conversation_media_bytes`, [`check_conversation_media`]) and
//! encoded into an AG-UI media part with an inline `data` source (base64) and the name in
//! `metadata.filename` (where ag-ui-adk reads it). The first that fails refuses the whole message with an [`AttachmentError`] naming it: nothing is half sent.
//! [`encode_parts`] reads and encodes; it blocks, so the conversation runs it on a blocking
//! thread, never on the caller's.
//!
//! A file is read in chunks and encoded as it is read, so a message's bytes are in memory once,
//! encoded (the conversation's copy), plus the request body while a run sends it.

use std::io::Read;
use std::path::PathBuf;

use agentui_agui::{ContentPart, MediaPart, MemoryBudget, PartSource, TextPart};
use base64::Engine as _;

/// One file the user attaches to a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct Attachment {
    /// What the user sees it as (a file name); sent as the part's `metadata.filename`.
    pub name: String,
    /// `type/subtype`, e.g. `image/jpeg`. Picks the part: an `image` type an image, `audio`
    /// audio, `video` video, anything else a document.
    pub mime_type: String,
    pub data: AttachmentData,
}

/// Where an attachment's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum AttachmentData {
    Bytes {
        bytes: Vec<u8>,
    },
    /// A file the library reads (off the caller's thread) when the message is sent.
    File {
        path: String,
    },
}

impl Attachment {
    pub fn bytes(name: impl Into<String>, mime_type: impl Into<String>, bytes: Vec<u8>) -> Self {
        Attachment { name: name.into(), mime_type: mime_type.into(), data: AttachmentData::Bytes { bytes } }
    }

    pub fn file(name: impl Into<String>, mime_type: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        let path = path.into().to_string_lossy().into_owned();
        Attachment { name: name.into(), mime_type: mime_type.into(), data: AttachmentData::File { path } }
    }
}

/// Why a message with attachments was refused before anything was sent. Each names the
/// attachment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttachmentError {
    #[error("attachment '{name}' is {size} bytes, over the limit of {limit}")]
    TooLarge { name: String, size: u64, limit: u64 },
    #[error("the attachments up to '{name}' are {total} bytes together, over the limit of {limit} for one message")]
    MessageTooLarge { name: String, total: u64, limit: u64 },
    #[error("attachment '{name}' is of type '{mime_type}', which this app does not send")]
    TypeNotAllowed { name: String, mime_type: String },
    #[error("attachment '{name}' could not be read: {detail}")]
    Unreadable { name: String, detail: String },
    #[error("attachment '{name}' cannot be sent: the agent's protocol ({version}) has no media parts")]
    NotSupportedByAgent { name: String, version: String },
    /// The conversation's media with this message's would be over the budget's
    /// `max_conversation_media_bytes` (every run re-sends them all).
    #[error(
        "the conversation holds {held} bytes of media; with the attachments up to '{name}' it would hold {total}, over the limit of {limit}"
    )]
    ConversationMediaFull { name: String, held: u64, total: u64, limit: u64 },
}

/// Which MIME types the app sends. A pattern is `type/subtype`, `type/*` or `*/*`, compared
/// without case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentPolicy {
    pub allowed_mime_types: Vec<String>,
}

impl Default for AttachmentPolicy {
    /// Images, audio, video, PDF and plain text.
    fn default() -> Self {
        let allowed = ["image/*", "audio/*", "video/*", "application/pdf", "text/plain"];
        AttachmentPolicy { allowed_mime_types: allowed.iter().map(|s| (*s).to_owned()).collect() }
    }
}

impl AttachmentPolicy {
    pub fn allows(&self, mime_type: &str) -> bool {
        let Some((kind, sub)) = split_mime(mime_type) else { return false };
        self.allowed_mime_types.iter().any(|pattern| match split_mime(pattern) {
            Some(("*", "*")) => true,
            Some((k, "*")) => k.eq_ignore_ascii_case(kind),
            Some((k, s)) => k.eq_ignore_ascii_case(kind) && s.eq_ignore_ascii_case(sub),
            None => false,
        })
    }
}

/// `type/subtype` (parameters after `;` are not part of the type); `None` for anything else.
fn split_mime(mime_type: &str) -> Option<(&str, &str)> {
    let essence = mime_type.split(';').next()?.trim();
    let (kind, sub) = essence.split_once('/')?;
    let token = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-*".contains(&b));
    (token(kind) && token(sub)).then_some((kind, sub))
}

/// Refuses `attachments` if the conversation, holding `held` bytes of media, would hold more than
/// the budget's `max_conversation_media_bytes` with them. Sizes only: nothing is read.
pub fn check_conversation_media(
    attachments: &[Attachment],
    held: u64,
    budget: &MemoryBudget,
) -> Result<(), AttachmentError> {
    let limit = budget.max_conversation_media_bytes as u64;
    let mut total = held;
    for a in attachments {
        total = total.saturating_add(match &a.data {
            AttachmentData::Bytes { bytes } => bytes.len() as u64,
            // Unreadable files are refused by name when encoded; here they count as empty.
            AttachmentData::File { path } => std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
        });
        if total > limit {
            return Err(AttachmentError::ConversationMediaFull { name: a.name.clone(), held, total, limit });
        }
    }
    Ok(())
}

/// Checks every attachment, then encodes them into the parts of one user message: `text` first
/// (when not empty), then one media part per attachment in order. Blocks on file I/O.
pub fn encode_parts(
    text: &str,
    attachments: Vec<Attachment>,
    policy: &AttachmentPolicy,
    budget: &MemoryBudget,
) -> Result<Vec<ContentPart>, AttachmentError> {
    let per_attachment = budget.max_attachment_bytes as u64;
    let per_message = budget.max_message_attachment_bytes as u64;
    // Everything that can be known without reading is checked first, for every attachment.
    let mut total = 0u64;
    for a in &attachments {
        if !policy.allows(&a.mime_type) {
            return Err(AttachmentError::TypeNotAllowed { name: a.name.clone(), mime_type: a.mime_type.clone() });
        }
        let size = match &a.data {
            AttachmentData::Bytes { bytes } => bytes.len() as u64,
            AttachmentData::File { path } => std::fs::metadata(path)
                .and_then(|m| if m.is_file() { Ok(m.len()) } else { Err(std::io::Error::other("not a file")) })
                .map_err(|e| unreadable(a, &e))?,
        };
        if size > per_attachment {
            return Err(AttachmentError::TooLarge { name: a.name.clone(), size, limit: per_attachment });
        }
        total += size;
        if total > per_message {
            return Err(AttachmentError::MessageTooLarge { name: a.name.clone(), total, limit: per_message });
        }
    }
    let mut parts = Vec::with_capacity(attachments.len() + 1);
    if !text.is_empty() {
        parts.push(ContentPart::Text(TextPart { id: None, text: text.to_owned(), metadata: None }));
    }
    for a in attachments {
        let (kind, _) = split_mime(&a.mime_type).unwrap_or(("application", "octet-stream"));
        let kind = kind.to_ascii_lowercase();
        let value = match &a.data {
            AttachmentData::Bytes { bytes } => base64::engine::general_purpose::STANDARD.encode(bytes),
            AttachmentData::File { path } => encode_file(&a, path, per_attachment)?,
        };
        let part = MediaPart {
            id: None,
            source: PartSource::Data { value, mime_type: a.mime_type.clone() },
            metadata: Some(serde_json::json!({ "filename": a.name })),
        };
        parts.push(match kind.as_str() {
            "image" => ContentPart::Image(part),
            "audio" => ContentPart::Audio(part),
            "video" => ContentPart::Video(part),
            _ => ContentPart::Document(part),
        });
    }
    Ok(parts)
}

fn unreadable(a: &Attachment, e: &std::io::Error) -> AttachmentError {
    AttachmentError::Unreadable { name: a.name.clone(), detail: e.to_string() }
}

/// Reads and encodes a file chunk by chunk, never holding its raw bytes whole. A file that grew
/// past the limit since it was measured is refused.
fn encode_file(a: &Attachment, path: &str, limit: u64) -> Result<String, AttachmentError> {
    // A multiple of 3: base64 of whole chunks joins without padding in between.
    const CHUNK: usize = 3 * 16 * 1024;
    let mut file = std::fs::File::open(path).map_err(|e| unreadable(a, &e))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut out = String::with_capacity(base64::encoded_len(size as usize, true).unwrap_or(0));
    let mut chunk = vec![0u8; CHUNK];
    let mut read_total = 0u64;
    loop {
        // Fill the chunk whole (a read may return less) so only the last one is padded.
        let mut filled = 0;
        while filled < CHUNK {
            match file.read(&mut chunk[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(unreadable(a, &e)),
            }
        }
        read_total += filled as u64;
        if read_total > limit {
            return Err(AttachmentError::TooLarge { name: a.name.clone(), size: read_total, limit });
        }
        base64::engine::general_purpose::STANDARD.encode_string(&chunk[..filled], &mut out);
        if filled < CHUNK {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(per: usize, total: usize) -> MemoryBudget {
        MemoryBudget { max_attachment_bytes: per, max_message_attachment_bytes: total, ..MemoryBudget::default() }
    }

    fn data(part: &ContentPart) -> (&str, &str, &serde_json::Value) {
        match part {
            ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => {
                match &p.source {
                    PartSource::Data { value, mime_type } => (value, mime_type, p.metadata.as_ref().unwrap()),
                    other => panic!("not inline data: {other:?}"),
                }
            }
            ContentPart::Text(_) => panic!("a text part"),
        }
    }

    #[test]
    fn mime_patterns_match_type_and_subtype_without_case() {
        let policy = AttachmentPolicy::default();
        assert!(policy.allows("image/png"));
        assert!(policy.allows("IMAGE/JPEG"));
        assert!(policy.allows("text/plain; charset=utf-8"));
        assert!(policy.allows("application/pdf"));
        assert!(!policy.allows("application/zip"));
        assert!(!policy.allows("text/html"));
        assert!(!policy.allows("image"));
        assert!(!policy.allows("image/"));
        assert!(!policy.allows("image/png\r\nx: y"));
        let any = AttachmentPolicy { allowed_mime_types: vec!["*/*".into()] };
        assert!(any.allows("application/zip"));
        assert!(!any.allows("nonsense"));
    }

    /// A file larger than one chunk, whose length is not a multiple of 3, encodes as the whole
    /// file would.
    #[test]
    fn a_file_is_encoded_chunk_by_chunk_as_a_whole() {
        let dir = std::env::temp_dir().join(format!("agentui-attach-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.bin");
        let bytes: Vec<u8> = (0..200_003u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let parts = encode_parts(
            "caption",
            vec![
                Attachment::file("big.bin", "audio/ogg", &path),
                Attachment::bytes("b.pdf", "application/pdf", vec![1, 2]),
            ],
            &AttachmentPolicy::default(),
            &MemoryBudget::default(),
        )
        .unwrap();
        assert!(matches!(&parts[0], ContentPart::Text(t) if t.text == "caption"));
        assert!(matches!(parts[1], ContentPart::Audio(_)));
        let (value, mime, meta) = data(&parts[1]);
        assert_eq!(value, base64::engine::general_purpose::STANDARD.encode(&bytes));
        assert_eq!(mime, "audio/ogg");
        assert_eq!(meta["filename"], "big.bin");
        assert!(matches!(parts[2], ContentPart::Document(_)));
        assert_eq!(data(&parts[2]).0, "AQI=");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_refusal_names_the_attachment() {
        let ok = || Attachment::bytes("ok.png", "image/png", vec![0; 10]);
        let policy = AttachmentPolicy::default();
        let refuse = |list: Vec<Attachment>, b: MemoryBudget| encode_parts("", list, &policy, &b).unwrap_err();
        assert_eq!(
            refuse(vec![ok(), Attachment::bytes("big.png", "image/png", vec![0; 11])], budget(10, 100)),
            AttachmentError::TooLarge { name: "big.png".into(), size: 11, limit: 10 }
        );
        assert_eq!(
            refuse(vec![ok(), ok(), Attachment::bytes("third.png", "image/png", vec![0; 10])], budget(10, 25)),
            AttachmentError::MessageTooLarge { name: "third.png".into(), total: 30, limit: 25 }
        );
        assert_eq!(
            refuse(vec![ok(), Attachment::bytes("x.zip", "application/zip", vec![1])], budget(10, 100)),
            AttachmentError::TypeNotAllowed { name: "x.zip".into(), mime_type: "application/zip".into() }
        );
        let missing =
            refuse(vec![ok(), Attachment::file("gone.png", "image/png", "/nonexistent/gone.png")], budget(10, 100));
        assert!(matches!(missing, AttachmentError::Unreadable { ref name, .. } if name == "gone.png"), "{missing:?}");
        let dir = refuse(vec![Attachment::file("dir.png", "image/png", std::env::temp_dir())], budget(10, 100));
        assert!(matches!(dir, AttachmentError::Unreadable { ref name, .. } if name == "dir.png"), "{dir:?}");
    }
}
