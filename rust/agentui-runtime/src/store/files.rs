//! Large inline media (an attachment the user sent, an image the agent returned) lives in files
//! beside the database, not in its rows: a message row holds a reference in the part's source
//! instead of the base64 text, so rows stay small and a restore of a conversation without media
//! reads nothing more.
//!
//! The files of a conversation are in one folder, `<database>-attachments/<thread>/`, one file
//! per part (`<message>.<part index>.<content hash>`, the part's base64 text as it was sent or
//! received). The store owns them: `fork` copies the folder, `delete` removes it. The writer's
//! thread writes a file (to a temporary name, synced, renamed, the folder synced) before it
//! commits the row that names it, so a row on disk never names a file that is not complete and
//! durable; a crash in between leaves at most an unreferenced file, removed with its
//! conversation. A file that is lost anyway (deleted by hand, a damaged disk) costs only its
//! part (see [`restore_parts`]).

use std::path::{Path, PathBuf};

use agentui_agui::{ContentPart, Message, MessageContent, PartSource};
use serde_json::Value;

/// Inline data parts at least this long (base64 characters) go to a file.
pub(crate) const EXTERNAL_MIN_CHARS: usize = 16 * 1024;

/// The keys of a stored part's source that refer to its file. Never sent: rows are the store's.
pub(crate) const FILE_KEY: &str = "agentuiFile";
const LENGTH_KEY: &str = "agentuiLength";

/// The attachments folder of the store at `database`.
pub(crate) fn root(database: &Path) -> PathBuf {
    PathBuf::from(format!("{}-attachments", database.display()))
}

/// The folder of one conversation's files under `root`.
pub(crate) fn thread_dir(root: &Path, thread_id: &str) -> PathBuf {
    root.join(file_name(thread_id))
}

/// A name any id maps to, one-to-one for the ids of usual length (hex of the bytes); a long
/// one is hashed (FNV-1a 64 with its length).
pub(crate) fn file_name(id: &str) -> String {
    let bytes = id.as_bytes();
    if bytes.len() <= 48 {
        let mut out = String::with_capacity(1 + bytes.len() * 2);
        out.push('x');
        for b in bytes {
            out.push_str(&format!("{b:02x}"));
        }
        return out;
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("h{hash:016x}{:x}", bytes.len())
}

/// The file of part `index` of message `message_id` holding `value`: named by its content too,
/// so a part replaced under the same id never finds the old one's file and keeps stale bytes,
/// and the same part written again (a row rewritten, an outbox entry) finds its own.
pub(crate) fn content_file_name(message_id: &str, index: usize, value: &str) -> String {
    format!("{}.{index}.{:016x}", file_name(message_id), content_hash(value.as_bytes()))
}

/// FNV-1a over 8-byte words, with the length: tells apart the contents of one part's files
/// (not a defence against a chosen collision: at worst a part shows the bytes the same
/// message's same part had before).
fn content_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        hash ^= u64::from_le_bytes(word.try_into().unwrap_or_default());
        hash = hash.wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    }
    for b in words.remainder() {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn large_data(part: &ContentPart) -> Option<(&str, &str)> {
    let media = match part {
        ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => p,
        ContentPart::Text(_) => return None,
    };
    match &media.source {
        PartSource::Data { value, mime_type } if value.len() >= EXTERNAL_MIN_CHARS => Some((value, mime_type)),
        _ => None,
    }
}

/// Whether `message` has a part that goes to a file.
fn has_large_data(message: &Message) -> bool {
    matches!(&message.content, Some(MessageContent::Parts(parts)) if parts.iter().any(|p| large_data(p).is_some()))
}

/// The message's row: its JSON, with each large data part written to a file in `dir` (when not
/// there yet) and referred to. Without a folder (a store in memory) the row holds everything.
pub(crate) fn encode_message(message: &Message, dir: Option<&Path>) -> Result<String, std::io::Error> {
    let Some(dir) = dir.filter(|_| has_large_data(message)) else {
        return Ok(super::codec::encode(message));
    };
    // The row is made from a copy of the message without the large values (never a copy of
    // them).
    let mut stub = Message { content: None, ..message.clone() };
    let Some(MessageContent::Parts(parts)) = &message.content else { unreachable!("has_large_data") };
    let mut files = Vec::new();
    let mut stub_parts = Vec::with_capacity(parts.len());
    for (index, part) in parts.iter().enumerate() {
        match large_data(part) {
            Some((value, mime_type)) => {
                let name = content_file_name(&message.id, index, value);
                write_synced(dir, &name, value)?;
                files.push((index, name, value.len()));
                let mut part = part_without_value(part);
                if let Some(media) = media_mut(&mut part) {
                    media.source = PartSource::Data { value: String::new(), mime_type: mime_type.to_owned() };
                }
                stub_parts.push(part);
            }
            None => stub_parts.push(part.clone()),
        }
    }
    stub.content = Some(MessageContent::Parts(stub_parts));
    let mut row = serde_json::to_value(&stub).unwrap_or(Value::Null);
    for (index, name, length) in files {
        if let Some(Value::Object(source)) = row.pointer_mut(&format!("/content/{index}/source")) {
            source.insert(FILE_KEY.to_owned(), Value::String(name));
            source.insert(LENGTH_KEY.to_owned(), Value::from(length));
        }
    }
    Ok(row.to_string())
}

/// A media part with an empty source value, cloned without its (large) value.
fn part_without_value(part: &ContentPart) -> ContentPart {
    let strip = |p: &agentui_agui::MediaPart| agentui_agui::MediaPart {
        id: p.id.clone(),
        source: PartSource::Url { value: String::new(), mime_type: None },
        metadata: p.metadata.clone(),
    };
    match part {
        ContentPart::Image(p) => ContentPart::Image(strip(p)),
        ContentPart::Audio(p) => ContentPart::Audio(strip(p)),
        ContentPart::Video(p) => ContentPart::Video(strip(p)),
        ContentPart::Document(p) => ContentPart::Document(strip(p)),
        ContentPart::Text(t) => ContentPart::Text(t.clone()),
    }
}

fn media_mut(part: &mut ContentPart) -> Option<&mut agentui_agui::MediaPart> {
    match part {
        ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => Some(p),
        ContentPart::Text(_) => None,
    }
}

/// Writes `value` as `dir/name` unless that file is there with this length (a name is its
/// content's), durably: the data, then the name, then the folder's entry are synced before this
/// returns, so a row committed after it never names a file a power loss can take back.
pub(crate) fn write_synced(dir: &Path, name: &str, value: &str) -> Result<(), std::io::Error> {
    use std::io::Write as _;
    let path = dir.join(name);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == value.len() as u64) {
        return Ok(());
    }
    if !dir.exists() {
        std::fs::create_dir_all(dir)?;
        // The new folder's own entry, in the attachments folder.
        if let Some(parent) = dir.parent() {
            sync_dir(parent)?;
        }
    }
    let partial = dir.join(format!("{name}.partial"));
    let mut file = std::fs::File::create(&partial)?;
    file.write_all(value.as_bytes())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&partial, &path)?;
    sync_dir(dir)
}

/// Makes a folder's entries (a file created or renamed in it) durable. Where a folder cannot be
/// opened to sync (not on Unix), the file's own sync is what there is.
fn sync_dir(dir: &Path) -> Result<(), std::io::Error> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Removes the files of part `index` of message `message_id` other than `keep` (what a replaced
/// part left behind), once the row naming `keep` is committed.
pub(crate) fn remove_replaced(dir: &Path, message_id: &str, index: usize, keep: &str) {
    let prefix = format!("{}.{index}", file_name(message_id));
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let same_part = name == prefix || name.strip_prefix(&prefix).is_some_and(|rest| rest.starts_with('.'));
        if same_part && name != keep && !name.ends_with(".partial") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether some row in `text` refers to a file (a quick look before parsing it as such).
pub(crate) fn refers_to_files(text: &str) -> bool {
    text.contains(FILE_KEY) || text.contains(super::media::STORED_KEY)
}

/// How [`restore_parts`] brings a stored part back.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Restore {
    /// As a reference, its file only checked (there, with its length): the conversation's
    /// messages, read back when needed.
    Lazily,
    /// With its data read: a message waiting for the agent in the outbox.
    Whole,
}

/// Brings back the stored parts of `rows` (an array of message rows, or one row). A part whose
/// file is missing, cut short or unreadable becomes a text placeholder and is told in
/// `unavailable` (message id, part index, reason): one lost file never costs the conversation.
pub(crate) fn restore_parts(
    rows: &mut Value,
    dir: Option<&Path>,
    how: Restore,
    unavailable: &mut Vec<super::UnavailableMedia>,
) {
    let list: Vec<&mut Value> = match rows {
        Value::Array(list) => list.iter_mut().collect(),
        one => vec![one],
    };
    for message in list {
        let message_id = message.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
        let Some(Value::Array(parts)) = message.get_mut("content") else { continue };
        for (index, part) in parts.iter_mut().enumerate() {
            let Some((name, length)) = take_file_reference(part) else { continue };
            let result = match dir {
                None => Err("this store keeps no files".to_owned()),
                Some(dir) => match how {
                    Restore::Lazily => super::media::check_file(&dir.join(&name), length).map(Err),
                    Restore::Whole => super::media::read_file(&dir.join(&name), length).map(Ok),
                },
            };
            let Ok(typed) = serde_json::from_value::<ContentPart>(part.clone()) else { continue };
            let restored = match result {
                Ok(Err(bytes)) => {
                    let mut typed = typed;
                    super::media::mark_stored(&mut typed, &name, length, bytes);
                    typed
                }
                Ok(Ok(text)) => {
                    let mut typed = typed;
                    if let Some(media) = media_mut(&mut typed) {
                        if let PartSource::Data { value, .. } = &mut media.source {
                            *value = text;
                        }
                    }
                    typed
                }
                Err(reason) => {
                    let placeholder = super::media::placeholder(&typed, &reason);
                    unavailable.push(super::UnavailableMedia {
                        message_id: message_id.clone(),
                        part: index,
                        detail: reason,
                    });
                    placeholder
                }
            };
            *part = serde_json::to_value(&restored).unwrap_or(Value::Null);
        }
    }
}

/// Takes a part's file reference out of its row: (file name, base64 length). Rows name the file
/// in the part's source (`agentuiFile`, `agentuiLength`) or, written from a part moved out of
/// memory, in its `metadata.agentuiStored`.
fn take_file_reference(part: &mut Value) -> Option<(String, usize)> {
    if let Some(Value::Object(source)) = part.get_mut("source") {
        if let Some(Value::String(name)) = source.remove(FILE_KEY) {
            let length = source.remove(LENGTH_KEY).and_then(|v| v.as_u64()).unwrap_or(0);
            return Some((name, length as usize));
        }
    }
    let Some(Value::Object(metadata)) = part.get_mut("metadata") else { return None };
    let stored = metadata.remove(super::media::STORED_KEY)?;
    if metadata.is_empty() {
        if let Some(part) = part.as_object_mut() {
            part.remove("metadata");
        }
    }
    let name = stored.get("file")?.as_str()?.to_owned();
    Some((name, stored.get("length")?.as_u64()? as usize))
}

/// Copies the files of one conversation's folder to another's (a fork).
pub(crate) fn copy_dir(from: &Path, to: &Path) -> Result<(), std::io::Error> {
    let entries = match std::fs::read_dir(from) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    std::fs::create_dir_all(to)?;
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// Removes one conversation's folder (nothing there is fine).
pub(crate) fn remove_dir(dir: &Path) -> Result<(), std::io::Error> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_safe() {
        assert_eq!(file_name("t1"), "x7431");
        assert_ne!(file_name("a/b"), file_name("a_b"));
        let long = "y".repeat(200);
        assert!(file_name(&long).starts_with('h'));
        assert_ne!(file_name(&long), file_name(&"y".repeat(201)));
        assert!(file_name("../..").bytes().all(|b| b.is_ascii_alphanumeric()));
    }
}
