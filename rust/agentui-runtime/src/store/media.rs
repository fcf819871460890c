//! A stored conversation's large media, out of memory: a part whose data the store holds in a
//! file (see [`super::files`]) is kept in the conversation as a reference, read back only when
//! something needs its bytes (a request to the agent, a view's `media_bytes`).
//!
//! - At the end of a batch the recorder moves each new large inline part out of the conversation
//!   (no copy: the value is moved, under the conversation's lock) into [`StoredMedia`], and
//!   leaves a reference in its place: the part's `data` source with an empty value, and
//!   `metadata.agentuiStored = {"file", "length"}` (base64 characters).
//! - The store's writer thread writes the file (named by the part's message, index and a hash
//!   of its content: a part replaced under the same id gets a new file, never stale bytes),
//!   syncs it and its folder, then commits the row; only then is the moved value dropped.
//!   Until then readers take it from here.
//! - A restore reads no file: it only checks that each is there with its length. A file that is
//!   missing or cut short makes its part a text placeholder ([`placeholder`]); one that reads
//!   back wrong later (not base64) is sent as a placeholder too, with a warning.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agentui_agui::reducer::ConversationState;
use agentui_agui::{ContentPart, MediaPart, Message, MessageContent, PartSource, TextPart};
use serde_json::{json, Map, Value};

use super::files;
use crate::session::lock;

/// The metadata key of a part whose data the store holds: `{"file": name, "length": base64
/// characters, "bytes": decoded bytes}`.
pub const STORED_KEY: &str = "agentuiStored";

/// Where the bytes of one moved-out part are.
#[derive(Debug)]
struct Moved {
    /// The value, until its file and the row naming it are committed.
    data: Option<Arc<String>>,
    /// The file it is written to, once written.
    file: Option<String>,
}

/// One conversation's media held by the store (see the module notes).
#[derive(Debug)]
pub(crate) struct StoredMedia {
    dir: PathBuf,
    /// By reference (what the conversation's part names): parts moved out this session.
    moved: Mutex<HashMap<String, Moved>>,
    references: AtomicU64,
}

/// A part's stored reference: (reference, base64 length).
pub(crate) fn stored_reference(part: &ContentPart) -> Option<(&str, usize)> {
    let media = media(part)?;
    let stored = media.metadata.as_ref()?.get(STORED_KEY)?;
    Some((stored.get("file")?.as_str()?, stored.get("length")?.as_u64()? as usize))
}

fn media(part: &ContentPart) -> Option<&MediaPart> {
    match part {
        ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => Some(p),
        ContentPart::Text(_) => None,
    }
}

fn media_mut(part: &mut ContentPart) -> Option<&mut MediaPart> {
    match part {
        ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => Some(p),
        ContentPart::Text(_) => None,
    }
}

/// The decoded bytes of a stored part.
pub(crate) fn stored_bytes(part: &ContentPart) -> Option<u64> {
    media(part)?.metadata.as_ref()?.get(STORED_KEY)?.get("bytes")?.as_u64()
}

/// The byte length base64 text decodes to, from its length and its padding.
pub(crate) fn decoded_len(length: usize, padding: usize) -> u64 {
    (length as u64 / 4 * 3).saturating_sub(padding as u64)
}

fn padding(text: &[u8]) -> usize {
    text.iter().rev().take(2).take_while(|b| **b == b'=').count()
}

/// Marks `part` as held by the store in `file` (`length` base64 characters, `bytes` decoded),
/// its value empty.
pub(crate) fn mark_stored(part: &mut ContentPart, file: &str, length: usize, bytes: u64) {
    let Some(media) = media_mut(part) else { return };
    let mut metadata = match media.metadata.take() {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    metadata.insert(STORED_KEY.to_owned(), json!({ "file": file, "length": length, "bytes": bytes }));
    media.metadata = Some(Value::Object(metadata));
}

/// Decoded bytes of the media a message holds, in memory or in the store's files.
pub(crate) fn media_bytes(message: &Message) -> u64 {
    let Some(MessageContent::Parts(parts)) = &message.content else { return 0 };
    parts
        .iter()
        .map(|part| match (media(part).map(|m| &m.source), stored_reference(part)) {
            (_, Some((_, length))) => stored_bytes(part).unwrap_or(decoded_len(length, 0)),
            (Some(PartSource::Data { value, .. }), None) => decoded_len(value.len(), padding(value.as_bytes())),
            _ => 0,
        })
        .sum()
}

/// The text part that stands in for a media part whose data is lost: it says what was there
/// and why it is not, in the text the agent and the user read, and in
/// `metadata.agentuiUnavailable` for an app that shows it otherwise.
pub(crate) fn placeholder(part: &ContentPart, reason: &str) -> ContentPart {
    let media = media(part);
    let mime_type = media.and_then(|m| match &m.source {
        PartSource::Data { mime_type, .. } => Some(mime_type.clone()),
        PartSource::Url { mime_type, .. } | PartSource::File { mime_type, .. } => mime_type.clone(),
    });
    let filename = media
        .and_then(|m| m.metadata.as_ref())
        .and_then(|m| m.get("filename"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let named = filename.as_deref().map(|n| format!(" '{n}'")).unwrap_or_default();
    ContentPart::Text(TextPart {
        id: media.and_then(|m| m.id.clone()),
        text: format!("[{}{named} is unavailable: {reason}]", part.kind()),
        metadata: Some(json!({ super::UNAVAILABLE_KEY: {
            "type": part.kind(),
            "mimeType": mime_type,
            "filename": filename,
            "reason": reason,
        }})),
    })
}

/// Whether `text` is base64 as a data part holds it (the alphabet, padding only at the end).
fn is_base64(text: &str) -> bool {
    let body = text.trim_end_matches('=');
    text.len() - body.len() <= 2 && body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// Reads a part's file and checks it: the length the row recorded, base64 text.
pub(crate) fn read_file(path: &Path, length: usize) -> Result<String, String> {
    let text = std::fs::read(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            "its file is missing".to_owned()
        } else {
            format!("its file cannot be read ({e})")
        }
    })?;
    if text.len() != length {
        return Err(format!("its file holds {} of {length} bytes", text.len()));
    }
    let text = String::from_utf8(text).map_err(|_| "its file is damaged".to_owned())?;
    if !is_base64(&text) {
        return Err("its file is damaged".to_owned());
    }
    Ok(text)
}

/// Checks a part's file without reading it (there, with its length) and gives the bytes it
/// decodes to (its last two characters are read for the padding).
pub(crate) fn check_file(path: &Path, length: usize) -> Result<u64, String> {
    use std::io::{Read as _, Seek as _};
    let unreadable = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::NotFound {
            "its file is missing".to_owned()
        } else {
            format!("its file cannot be read ({e})")
        }
    };
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    if size != length as u64 {
        return Err(format!("its file holds {size} of {length} bytes"));
    }
    let mut tail = [0u8; 2];
    let tail_len = size.min(2) as usize;
    file.seek(std::io::SeekFrom::End(-(tail_len as i64))).map_err(unreadable)?;
    file.read_exact(&mut tail[..tail_len]).map_err(unreadable)?;
    Ok(decoded_len(length, padding(&tail[..tail_len])))
}

/// Two handles on one conversation's folder hold the same media.
impl PartialEq for StoredMedia {
    fn eq(&self, other: &Self) -> bool {
        self.dir == other.dir
    }
}

impl StoredMedia {
    pub fn new(dir: PathBuf) -> Arc<Self> {
        Arc::new(StoredMedia { dir, moved: Mutex::default(), references: AtomicU64::new(0) })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Moves every large inline part of `message` out (the value is moved, not copied) and
    /// leaves a reference. Under the conversation's lock, at a batch's end: a move per part.
    pub fn move_out(&self, message: &mut Message) {
        let id = message.id.clone();
        let Some(MessageContent::Parts(parts)) = &mut message.content else { return };
        for (index, part) in parts.iter_mut().enumerate() {
            if stored_reference(part).is_some() {
                continue;
            }
            let Some(media) = media_mut(part) else { continue };
            let PartSource::Data { value, .. } = &mut media.source else { continue };
            if value.len() < files::EXTERNAL_MIN_CHARS {
                continue;
            }
            let data = std::mem::take(value);
            let length = data.len();
            let bytes = decoded_len(length, padding(data.as_bytes()));
            let n = self.references.fetch_add(1, Ordering::Relaxed);
            let reference = format!("{}.{index}.m{n}", files::file_name(&id));
            lock(&self.moved).insert(reference.clone(), Moved { data: Some(Arc::new(data)), file: None });
            mark_stored(part, &reference, length, bytes);
        }
    }

    /// The file a reference names once written: a reference moved out this session maps to its
    /// file (`None` before it is written); any other is a file name already (a restored part).
    fn file_of(&self, reference: &str) -> Option<String> {
        match lock(&self.moved).get(reference) {
            Some(moved) => moved.file.clone(),
            None => Some(reference.to_owned()),
        }
    }

    /// The base64 text of a stored part. On the thread that needs it (never under a hot lock).
    pub fn read(&self, reference: &str, length: usize) -> Result<Arc<String>, String> {
        let file = {
            let moved = lock(&self.moved);
            match moved.get(reference) {
                Some(Moved { data: Some(data), .. }) => return Ok(data.clone()),
                Some(Moved { file, .. }) => file.clone(),
                None => Some(reference.to_owned()),
            }
        };
        let file = file.ok_or_else(|| "its file was never written".to_owned())?;
        read_file(&self.dir.join(file), length).map(Arc::new)
    }

    /// On the writer's thread: the file each stored part of `message` is in, written (and
    /// synced) now if it is not yet. The message as its row holds it, every reference a file
    /// name (`None`: it is so already). `written` collects (message id, part index, reference,
    /// file) of each part moved out this session that the row names by its file.
    pub fn write_files(
        &self,
        message: &Message,
        written: &mut Vec<(String, usize, String, String)>,
    ) -> std::io::Result<Option<Message>> {
        let Some(MessageContent::Parts(parts)) = &message.content else { return Ok(None) };
        if !parts.iter().any(|p| stored_reference(p).is_some_and(|(r, _)| self.file_of(r).as_deref() != Some(r))) {
            return Ok(None);
        }
        let mut row = message.clone();
        let Some(MessageContent::Parts(row_parts)) = &mut row.content else { return Ok(None) };
        for (index, part) in row_parts.iter_mut().enumerate() {
            let Some((reference, length)) = stored_reference(part).map(|(r, l)| (r.to_owned(), l)) else { continue };
            let bytes = stored_bytes(part).unwrap_or(decoded_len(length, 0));
            let file = match self.file_of(&reference) {
                // A restored part: its reference is its file.
                Some(file) if file == reference => file,
                // Written by an earlier write whose commit failed: named again here.
                Some(file) => {
                    written.push((message.id.clone(), index, reference.clone(), file.clone()));
                    file
                }
                None => {
                    let data = lock(&self.moved).get(&reference).and_then(|m| m.data.clone());
                    let Some(data) = data else { continue };
                    let name = files::content_file_name(&message.id, index, &data);
                    files::write_synced(&self.dir, &name, &data)?;
                    if let Some(moved) = lock(&self.moved).get_mut(&reference) {
                        moved.file = Some(name.clone());
                    }
                    written.push((message.id.clone(), index, reference.clone(), name.clone()));
                    name
                }
            };
            mark_stored(part, &file, length, bytes);
        }
        Ok(Some(row))
    }

    /// The rows naming the files of `references` are committed and the conversation's parts
    /// name the files: the moved values are dropped (readers read the files now). The reference
    /// still maps to its file, for a reader that found it before the part was renamed.
    pub fn committed<'a>(&self, references: impl Iterator<Item = &'a str>) {
        let mut moved = lock(&self.moved);
        for reference in references {
            if let Some(m) = moved.get_mut(reference) {
                m.data = None;
            }
        }
    }

    /// Bytes of moved values not yet dropped (a test's view of what is still in memory).
    #[cfg(test)]
    pub fn held_bytes(&self) -> usize {
        lock(&self.moved).values().filter_map(|m| m.data.as_ref()).map(|d| d.len()).sum()
    }
}

/// What was read back for a request, by reference: the text, or why it cannot be had.
pub(crate) type ReadBack = HashMap<String, Result<Arc<String>, String>>;

/// The stored parts of one message: (reference, base64 length).
pub(crate) fn stored_references_of(message: &Message) -> Vec<(String, usize)> {
    match &message.content {
        Some(MessageContent::Parts(parts)) => {
            parts.iter().filter_map(stored_reference).map(|(r, l)| (r.to_owned(), l)).collect()
        }
        _ => Vec::new(),
    }
}

/// The stored parts of the messages a request carries: (reference, base64 length).
pub(crate) fn stored_references(conversation: &ConversationState) -> Vec<(String, usize)> {
    conversation
        .messages()
        .iter()
        .filter_map(|m| match &m.content {
            Some(MessageContent::Parts(parts)) => Some(parts),
            _ => None,
        })
        .flatten()
        .filter_map(stored_reference)
        .map(|(reference, length)| (reference.to_owned(), length))
        .collect()
}

/// Reads back each of `wanted`. Blocks on the files.
pub(crate) fn read_stored(media: &StoredMedia, wanted: Vec<(String, usize)>) -> ReadBack {
    wanted
        .into_iter()
        .map(|(reference, length)| {
            let read = media.read(&reference, length);
            (reference, read)
        })
        .collect()
}

/// A copy of `message` with each stored part's data put back from `read_back`, for a request;
/// `None` when it has none. A part that could not be read back is sent as a [`placeholder`]
/// and told in `unavailable` (message id, part index, reason).
pub(crate) fn with_read_back(
    message: &Message,
    read_back: &ReadBack,
    unavailable: &mut Vec<(String, usize, String)>,
) -> Option<Message> {
    let Some(MessageContent::Parts(parts)) = &message.content else { return None };
    if !parts.iter().any(|p| stored_reference(p).is_some()) {
        return None;
    }
    let mut copy = message.clone();
    let Some(MessageContent::Parts(copy_parts)) = &mut copy.content else { return None };
    for (index, part) in copy_parts.iter_mut().enumerate() {
        let Some((reference, _)) = stored_reference(part) else { continue };
        match read_back.get(reference) {
            Some(Ok(data)) => {
                let media = media_mut(part).expect("a stored part is a media part");
                if let Some(Value::Object(metadata)) = &mut media.metadata {
                    metadata.remove(STORED_KEY);
                    if metadata.is_empty() {
                        media.metadata = None;
                    }
                }
                if let PartSource::Data { value, .. } = &mut media.source {
                    // The one copy a request needs: the body is made from it.
                    *value = data.as_str().to_owned();
                }
            }
            Some(Err(reason)) => {
                let reason = reason.clone();
                *part = placeholder(part, &reason);
                unavailable.push((message.id.clone(), index, reason));
            }
            None => {
                let reason = "it was not read back for this request".to_owned();
                *part = placeholder(part, &reason);
                unavailable.push((message.id.clone(), index, reason));
            }
        }
    }
    Some(copy)
}
