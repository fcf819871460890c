//! Large inline media (an attachment the user sent, an image the agent returned) lives in files
//! beside the database, not in its rows: a message row holds a reference in the part's source
//! instead of the base64 text, so rows stay small and a restore of a conversation without media
//! reads nothing more.
//!
//! The files of a conversation are in one folder, `<database>-attachments/<thread>/`, one file
//! per part (`<message>.<part index>`, the part's base64 text as it was sent or received). The
//! store owns them: `fork` copies the folder, `delete` removes it. A file is written (to a
//! temporary name, then renamed) before the row that refers to it is handed to the writer, so a
//! row on disk never refers to a file that is not complete; a crash in between leaves at most an
//! unreferenced file, removed with its conversation.

use std::path::{Path, PathBuf};

use agentui_agui::{ContentPart, Message, MessageContent, PartSource};
use serde_json::Value;

use super::StoreError;

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
fn file_name(id: &str) -> String {
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

fn part_file(message_id: &str, index: usize) -> String {
    format!("{}.{index}", file_name(message_id))
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
                let name = part_file(&message.id, index);
                write_once(dir, &name, value)?;
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

/// Writes `value` as `dir/name` unless that file is there with this length (a message's parts
/// do not change; a row is rewritten whenever the message list is).
fn write_once(dir: &Path, name: &str, value: &str) -> Result<(), std::io::Error> {
    let path = dir.join(name);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == value.len() as u64) {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    let partial = dir.join(format!("{name}.partial"));
    std::fs::write(&partial, value.as_bytes())?;
    std::fs::rename(&partial, &path)
}

/// Whether some row in `text` refers to a file (a quick look before parsing it as such).
pub(crate) fn refers_to_files(text: &str) -> bool {
    text.contains(FILE_KEY)
}

/// Puts the files' contents back into the parts of `messages` (an array of message rows, or
/// one row) that refer to them.
pub(crate) fn hydrate(rows: &mut Value, dir: Option<&Path>) -> Result<(), StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt { what: "attachment".to_owned(), detail };
    let list: Vec<&mut Value> = match rows {
        Value::Array(list) => list.iter_mut().collect(),
        one => vec![one],
    };
    for message in list {
        let Some(Value::Array(parts)) = message.get_mut("content") else { continue };
        for part in parts {
            let Some(Value::Object(source)) = part.get_mut("source") else { continue };
            let Some(Value::String(name)) = source.remove(FILE_KEY) else { continue };
            let length = source.remove(LENGTH_KEY).and_then(|v| v.as_u64());
            let dir = dir.ok_or_else(|| corrupt(format!("'{name}' is in a file, and this store has none")))?;
            let text = std::fs::read_to_string(dir.join(&name)).map_err(|e| corrupt(format!("'{name}': {e}")))?;
            if length.is_some_and(|l| l != text.len() as u64) {
                return Err(corrupt(format!("'{name}' is {} bytes, the row says {length:?}", text.len())));
            }
            source.insert("value".to_owned(), Value::String(text));
        }
    }
    Ok(())
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
