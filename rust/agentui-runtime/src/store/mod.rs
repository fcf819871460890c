//! The on-device store: conversations that survive process death.
//!
//! One SQLite file (bundled SQLite, WAL) holds any number of conversations. A conversation
//! opened on a store ([`Conversation::open`](crate::Conversation::open)) hands what each applied
//! batch changed (the events the stream had ready without waiting, or one piece of user input)
//! to the store's writer thread without waiting, and the writer writes what is pending in one
//! transaction, later changes merged into earlier ones. What is written is the conversation as
//! observers see it, compacted: each message as it now is (streamed text is not kept piece by
//! piece), the state as it now is (not its patches), each tool call's last phase, each surface as
//! the messages that recreate it (components and data model, the user's unsent input included),
//! the pending interrupts, the run phase, the messages and actions waiting for the agent, and the
//! ids of the client tool calls that ran.
//!
//! Restoring replays nothing: the conversation comes back as it was, no client tool runs again,
//! no `openUrl` fires and nothing is re-sent except what never reached the agent (the outbox,
//! [`crate::session::outbox`]). A run that was open when the process died comes back as
//! [`RunPhase::Abandoned`].
//!
//! The vocabulary is that of the Agent Client Protocol's session lifecycle: `list` pages newest
//! first, `open` resumes without replay, `fork` copies, `delete` is idempotent.

mod codec;
mod files;
pub(crate) mod media;
mod recorder;
mod restore;
mod schema;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use crate::a2ui_bridge::PendingForAgent;
use crate::observe::{ConversationSnapshot, SurfaceEntry};
use crate::session::outbox::OutboxEntry;
use crate::session::RunPhase;

pub use media::STORED_KEY;
pub(crate) use media::{media_bytes, read_stored, stored_references, with_read_back, StoredMedia};
use recorder::Recording;
pub(crate) use recorder::StoreRecorder;
use writer::Writer;

/// What went wrong with the store. The conversation itself goes on in memory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Error))]
pub enum StoreError {
    /// SQLite refused (the file cannot be opened, the disk is full, the file is not a database).
    #[error("the conversation store failed: {0}")]
    Sqlite(String),
    /// A stored value could not be read back (written by a newer version, or damaged).
    #[error("the conversation store holds an unreadable {what}: {detail}")]
    Corrupt { what: String, detail: String },
    #[error("no stored conversation '{thread_id}'")]
    NotFound { thread_id: String },
    /// The files beside the database that hold large media parts could not be copied or removed.
    #[error("the conversation store's attachment files failed: {detail}")]
    Files { detail: String },
    #[error("a stored conversation '{thread_id}' already exists")]
    Exists { thread_id: String },
    /// The file was written by a newer version of this library.
    #[error("the conversation store has schema version {found}; this library reads up to {supported}")]
    NewerSchema { found: i64, supported: i64 },
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e.to_string())
    }
}

/// One line of [`ConversationStore::list`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ConversationSummary {
    pub thread_id: String,
    /// The start of the first user message (up to 80 characters); empty before there is one.
    pub title: String,
    /// The agent URL the conversation was opened with.
    pub agent_url: String,
    pub message_count: u64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    pub phase: RunPhase,
    /// Messages and actions waiting for the agent.
    pub pending_sends: u64,
}

/// One page of conversations, newest first.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ConversationPage {
    pub conversations: Vec<ConversationSummary>,
    /// Pass to the next `list` call for the page after this one; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// One surface as stored: the messages that recreate it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSurface {
    pub surface_id: String,
    pub catalog_id: String,
    pub messages: Vec<Value>,
}

/// A conversation as it was last written.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredConversation {
    pub agent_url: String,
    /// As observers saw it (tool calls, kept-local marks and pending sends included).
    pub snapshot: ConversationSnapshot,
    pub surfaces: Vec<StoredSurface>,
    pub outbox: Vec<OutboxEntry>,
    /// A2UI errors the next request carries to the agent.
    pub a2ui_errors: PendingForAgent,
    /// Client tool calls whose handler was started: never run again.
    pub executed_tool_calls: Vec<String>,
    /// A state delta failed before the process died: the next run resynchronises.
    pub needs_resync: bool,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// Media parts whose file beside the database is missing, cut short or unreadable: each is
    /// a text placeholder now (see [`UNAVAILABLE_KEY`]); the rest of the conversation is whole.
    pub unavailable_media: Vec<UnavailableMedia>,
    /// Where its media are read back from (`None` in memory).
    pub(crate) media: Option<Arc<StoredMedia>>,
}

/// A media part of a stored message that could not be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnavailableMedia {
    pub message_id: String,
    /// The part's index in the message's content.
    pub part: usize,
    /// What is wrong with its file.
    pub detail: String,
}

/// The metadata key of the text part that stands in for a media part whose stored file was lost:
/// `{"type", "mimeType", "filename", "reason"}` of the part it replaces.
pub const UNAVAILABLE_KEY: &str = "agentuiUnavailable";

/// A handle on one store file. Cheap to clone; every clone is the same connection.
#[derive(Clone)]
pub struct ConversationStore {
    inner: Arc<StoreInner>,
}

struct StoreInner {
    path: Option<PathBuf>,
    /// Reads, and the rare writes of `fork`, `delete` and a new conversation's row.
    conn: Mutex<Connection>,
    /// Conversations' changes go here, to a connection of its own on its own thread.
    writer: Writer,
    /// Shared with the writer, which tells it.
    observer: Arc<Mutex<Option<Arc<dyn WriteObserver>>>>,
}

/// Told around every transaction a conversation writes: for crash tests and diagnostics, which
/// need to know exactly what is durable. Called on the writing thread; keep it short.
///
/// A conversation's batches are numbered from 1: each batch of a run or of the actor's input,
/// and each write of the user's values alone. One transaction makes durable every batch applied
/// since the last one (merged), and is told once per batch, in order; the last batch's snapshot
/// is the conversation as written. While an observer is set, each batch's snapshot is kept
/// until it is written.
pub trait WriteObserver: Send + Sync {
    /// Batch `batch` of `thread_id` is about to commit; `snapshot` is the conversation as
    /// observers saw it at the end of that batch.
    fn writing(&self, thread_id: &str, batch: u64, snapshot: &ConversationSnapshot);
    /// Batch `batch` committed.
    fn written(&self, thread_id: &str, batch: u64);
}

impl std::fmt::Debug for ConversationStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConversationStore").field("path", &self.inner.path).finish_non_exhaustive()
    }
}

/// The store files this process has open, by canonical path.
static OPEN_FILES: Mutex<std::collections::BTreeMap<PathBuf, std::sync::Weak<StoreInner>>> =
    Mutex::new(std::collections::BTreeMap::new());

pub(crate) fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl ConversationStore {
    /// Opens (or creates) the store at `path`.
    ///
    /// Opening a file this process already has open gives the same store (one writer per file),
    /// so a `load` through either handle sees everything applied through both.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref();
        let conn = Connection::open(path)?;
        // The file exists now, so its canonical name identifies it whatever path reached it.
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        let mut open = OPEN_FILES.lock().unwrap_or_else(|p| p.into_inner());
        open.retain(|_, inner| inner.strong_count() > 0);
        if let Some(inner) = open.get(&key).and_then(std::sync::Weak::upgrade) {
            return Ok(ConversationStore { inner });
        }
        schema::prepare(&conn)?;
        let writer = Connection::open(path)?;
        let store = Self::with_connections(conn, writer, Some(path.to_owned()))?;
        open.insert(key, Arc::downgrade(&store.inner));
        Ok(store)
    }

    /// A store that lives in memory until the last handle is dropped (tests, and apps that
    /// want the API without the file).
    pub fn open_in_memory() -> Result<Self, StoreError> {
        use rusqlite::OpenFlags;
        static STORES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        // Two connections to one in-memory database: a named one with a shared cache.
        let name = format!(
            "file:agentui-store-{}-{}?mode=memory&cache=shared",
            std::process::id(),
            STORES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(&name, flags)?;
        schema::prepare(&conn)?;
        let writer = Connection::open_with_flags(&name, flags)?;
        Self::with_connections(conn, writer, None)
    }

    fn with_connections(conn: Connection, writer: Connection, path: Option<PathBuf>) -> Result<Self, StoreError> {
        schema::configure(&writer)?;
        let observer = Arc::new(Mutex::new(None));
        let inner =
            StoreInner { path, conn: Mutex::new(conn), writer: Writer::start(writer, observer.clone())?, observer };
        Ok(ConversationStore { inner: Arc::new(inner) })
    }

    /// Waits until every change applied so far is written. Dropping the last handle of a store
    /// also writes what is queued; call this before a process exits on its own.
    pub fn flush(&self) {
        self.inner.writer.flush();
    }

    /// Queues `recording`'s pending write; never waits.
    fn queue(&self, recording: Arc<Recording>) {
        self.inner.writer.queue(recording);
    }

    /// Sets (or with `None` removes) the observer told around every transaction.
    pub fn set_write_observer(&self, observer: Option<Arc<dyn WriteObserver>>) {
        *self.inner.observer.lock().unwrap_or_else(|p| p.into_inner()) = observer;
    }

    pub(crate) fn write_observer(&self) -> Option<Arc<dyn WriteObserver>> {
        self.inner.observer.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// The folder beside the database where conversation `thread_id` keeps its large media
    /// parts; `None` in memory.
    pub fn attachments_dir(&self, thread_id: &str) -> Option<PathBuf> {
        self.files_dir(thread_id)
    }

    pub(crate) fn files_dir(&self, thread_id: &str) -> Option<PathBuf> {
        self.path().map(|p| files::thread_dir(&files::root(p), thread_id))
    }

    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        self.inner.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Conversations, most recently written first, `limit` per page (at least 1). `cursor` is
    /// the previous page's `next_cursor`.
    pub fn list(&self, limit: usize, cursor: Option<&str>) -> Result<ConversationPage, StoreError> {
        // What conversations applied so far is part of what this sees.
        self.flush();
        let limit = limit.max(1);
        let after = match cursor {
            Some(c) => Some(codec::parse_cursor(c)?),
            None => None,
        };
        let conn = self.conn();
        let mut statement = conn.prepare_cached(
            "SELECT thread_id, title, agent_url, message_count, created_ms, updated_ms, phase, pending_sends
             FROM conversations
             WHERE ?1 IS NULL OR updated_ms < ?1 OR (updated_ms = ?1 AND thread_id > ?2)
             ORDER BY updated_ms DESC, thread_id ASC LIMIT ?3",
        )?;
        let (after_ms, after_id) = match &after {
            Some((ms, id)) => (Some(*ms), id.as_str()),
            None => (None, ""),
        };
        let rows = statement.query_map(params![after_ms, after_id, (limit + 1) as i64], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, i64>(3)?,
                row.get::<_, i64>(4)?,
                row.get::<_, i64>(5)?,
                row.get::<_, String>(6)?,
                row.get::<_, i64>(7)?,
            ))
        })?;
        let mut page = ConversationPage::default();
        for row in rows {
            let (thread_id, title, agent_url, messages, created, updated, phase, pending) = row?;
            if page.conversations.len() == limit {
                let last = &page.conversations[limit - 1];
                page.next_cursor = Some(codec::cursor(last.updated_at_ms, &last.thread_id));
                break;
            }
            page.conversations.push(ConversationSummary {
                phase: codec::decode("run phase", &phase)?,
                thread_id,
                title,
                agent_url,
                message_count: messages.max(0) as u64,
                created_at_ms: created,
                updated_at_ms: updated,
                pending_sends: pending.max(0) as u64,
            });
        }
        Ok(page)
    }

    /// The conversation as last written, or `None`.
    pub fn load(&self, thread_id: &str) -> Result<Option<StoredConversation>, StoreError> {
        // What conversations applied so far is part of what this sees.
        self.flush();
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT agent_url, state, phase, interrupts, kept_local, needs_resync, created_ms, updated_ms, a2ui_errors,
                     consent
                 FROM conversations WHERE thread_id = ?1",
                [thread_id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, String>(4)?,
                        row.get::<_, bool>(5)?,
                        row.get::<_, i64>(6)?,
                        row.get::<_, i64>(7)?,
                        row.get::<_, String>(8)?,
                        row.get::<_, String>(9)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            agent_url,
            state,
            phase,
            interrupts,
            kept_local,
            needs_resync,
            created,
            updated,
            a2ui_errors,
            consent,
        )) = row
        else {
            return Ok(None);
        };
        let (consent_requests, consent_grants) = codec::decode_consent(&consent)?;
        let a2ui_errors = match a2ui_errors.as_str() {
            "" => PendingForAgent::default(),
            text => codec::decode("A2UI errors", text)?,
        };
        // One JSON array, built by SQLite and parsed once: a row and a string per message
        // cost more than the parse on a 4,000-message restore.
        let messages: String = conn
            .prepare_cached(
                "SELECT '[' || coalesce(group_concat(body, ','), '') || ']'
             FROM (SELECT body FROM messages WHERE thread_id = ?1 ORDER BY position)",
            )?
            .query_row([thread_id], |row| row.get(0))?;
        let files = self.files_dir(thread_id);
        // Every row parsed straight into messages (a part in a file comes out with empty data);
        // then only the rows that refer to files are parsed again, as JSON trees, to check their
        // files and mark their parts (no file is read: the media are read back when needed, see
        // [`media`]). A tree of the whole list cost several times the typed parse.
        let refers_to_files = files::refers_to_files(&messages);
        let mut messages = codec::decode::<Vec<agentui_agui::Message>>("messages", &messages)?;
        let mut unavailable_media = Vec::new();
        if refers_to_files {
            let mut statement = conn.prepare_cached(
                "SELECT body FROM messages WHERE thread_id = ?1
                 AND (instr(body, ?2) > 0 OR instr(body, ?3) > 0) ORDER BY position",
            )?;
            let rows = statement
                .query_map(rusqlite::params![thread_id, files::FILE_KEY, media::STORED_KEY], |row| {
                    row.get::<_, String>(0)
                })?;
            for body in rows {
                let mut row: Value = codec::decode("messages", &body?)?;
                files::restore_parts(&mut row, files.as_deref(), files::Restore::Lazily, &mut unavailable_media);
                let message: agentui_agui::Message = serde_json::from_value(row)
                    .map_err(|e| StoreError::Corrupt { what: "messages".to_owned(), detail: e.to_string() })?;
                if let Some(slot) = messages.iter_mut().find(|m| m.id == message.id) {
                    *slot = message;
                }
            }
        }
        let mut tool_calls = Vec::new();
        for body in texts(&conn, "SELECT body FROM tool_calls WHERE thread_id = ?1 ORDER BY position", thread_id)? {
            tool_calls.push(codec::decode("tool call", &body)?);
        }
        let mut surfaces = Vec::new();
        {
            let mut statement = conn.prepare_cached(
                "SELECT surface_id, catalog_id, messages FROM surfaces WHERE thread_id = ?1 ORDER BY position",
            )?;
            let rows = statement.query_map([thread_id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?))
            })?;
            for row in rows {
                let (surface_id, catalog_id, messages) = row?;
                let messages = codec::decode("surface", &messages)?;
                surfaces.push(StoredSurface { surface_id, catalog_id, messages });
            }
        }
        let mut outbox = Vec::new();
        for body in texts(&conn, "SELECT body FROM outbox WHERE thread_id = ?1 ORDER BY position", thread_id)? {
            outbox.push(codec::decode_outbox_entry(&body, files.as_deref(), &mut unavailable_media)?);
        }
        let executed_tool_calls =
            texts(&conn, "SELECT tool_call_id FROM executed_tool_calls WHERE thread_id = ?1", thread_id)?;
        let snapshot = ConversationSnapshot {
            thread_id: thread_id.to_owned(),
            messages,
            state: codec::decode("state", &state)?,
            phase: codec::decode("run phase", &phase)?,
            tool_calls,
            pending_interrupts: codec::decode("interrupts", &interrupts)?,
            surfaces: surfaces
                .iter()
                .map(|s| SurfaceEntry { surface_id: s.surface_id.clone(), catalog_id: s.catalog_id.clone() })
                .collect(),
            kept_local: codec::decode("kept-local marks", &kept_local)?,
            pending_sends: outbox.iter().map(|e: &OutboxEntry| e.pending.clone()).collect(),
            // Steps are not stored: a restored run is abandoned, and no step of it is open.
            active_steps: Vec::new(),
            consent_requests,
            consent_grants,
        };
        Ok(Some(StoredConversation {
            agent_url,
            snapshot,
            surfaces,
            outbox,
            a2ui_errors,
            executed_tool_calls,
            needs_resync,
            created_at_ms: created,
            updated_at_ms: updated,
            unavailable_media,
            media: files.map(StoredMedia::new),
        }))
    }

    /// Copies conversation `thread_id` to `new_thread_id` (a fresh id when `None`) and returns
    /// the copy's id. The source is untouched. What waits for the agent is not copied: it is
    /// delivered once, by the source.
    pub fn fork(&self, thread_id: &str, new_thread_id: Option<&str>) -> Result<String, StoreError> {
        // What conversations applied so far is part of what this sees.
        self.flush();
        let new_id = match new_thread_id {
            Some(id) => id.to_owned(),
            None => {
                // Two forks in one millisecond still get two ids.
                static FORKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let n = FORKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                format!("{thread_id}-fork-{:x}-{n}", now_ms())
            }
        };
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        if !exists(&tx, thread_id)? {
            return Err(StoreError::NotFound { thread_id: thread_id.to_owned() });
        }
        if exists(&tx, &new_id)? {
            return Err(StoreError::Exists { thread_id: new_id });
        }
        let now = now_ms();
        tx.execute(
            "INSERT INTO conversations (thread_id, agent_url, created_ms, updated_ms, title, state, phase,
                 interrupts, kept_local, needs_resync, message_count, pending_sends, consent)
             SELECT ?2, agent_url, ?3, ?3, title, state, phase, interrupts, kept_local, needs_resync,
                 message_count, 0, consent
             FROM conversations WHERE thread_id = ?1",
            params![thread_id, new_id, now],
        )?;
        for table in ["messages (thread_id, position, message_id, body) SELECT ?2, position, message_id, body FROM messages",
            "tool_calls (thread_id, position, tool_call_id, body) SELECT ?2, position, tool_call_id, body FROM tool_calls",
            "surfaces (thread_id, position, surface_id, catalog_id, messages) SELECT ?2, position, surface_id, catalog_id, messages FROM surfaces",
            "executed_tool_calls (thread_id, tool_call_id) SELECT ?2, tool_call_id FROM executed_tool_calls"]
        {
            tx.execute(&format!("INSERT INTO {table} WHERE thread_id = ?1"), params![thread_id, new_id])?;
        }
        // The files first: a fork whose rows are committed has every file they refer to.
        if let (Some(from), Some(to)) = (self.files_dir(thread_id), self.files_dir(&new_id)) {
            files::copy_dir(&from, &to).map_err(|e| StoreError::Files { detail: e.to_string() })?;
        }
        tx.commit()?;
        Ok(new_id)
    }

    /// Deletes conversation `thread_id`. Idempotent: `false` when there was none.
    pub fn delete(&self, thread_id: &str) -> Result<bool, StoreError> {
        // What conversations applied so far is part of what this sees.
        self.flush();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let existed = tx.execute("DELETE FROM conversations WHERE thread_id = ?1", [thread_id])? > 0;
        for table in ["messages", "tool_calls", "surfaces", "executed_tool_calls", "outbox"] {
            tx.execute(&format!("DELETE FROM {table} WHERE thread_id = ?1"), [thread_id])?;
        }
        tx.commit()?;
        // After the rows: a file is never missing for a row that is still there.
        if let Some(dir) = self.files_dir(thread_id) {
            files::remove_dir(&dir).map_err(|e| StoreError::Files { detail: e.to_string() })?;
        }
        Ok(existed)
    }

    /// Creates the conversation's row if it has none (a new conversation opened on the store),
    /// with the state the session starts from: later batches write the state only when it
    /// changes, so a conversation whose agent never sends any comes back with this one.
    pub(crate) fn ensure(&self, thread_id: &str, agent_url: &str, state: &Value) -> Result<(), StoreError> {
        let now = now_ms();
        self.conn().execute(
            "INSERT INTO conversations (thread_id, agent_url, created_ms, updated_ms, title, state, phase,
                 interrupts, kept_local, needs_resync, message_count, pending_sends)
             VALUES (?1, ?2, ?3, ?3, '', ?5, ?4, '[]', '[]', 0, 0, 0)
             ON CONFLICT (thread_id) DO NOTHING",
            params![thread_id, agent_url, now, codec::encode(&RunPhase::Idle), codec::encode(state)],
        )?;
        Ok(())
    }

    /// The size of the store file and its write-ahead log, in bytes (0 in memory).
    pub fn size_on_disk(&self) -> u64 {
        let Some(path) = self.path() else { return 0 };
        let wal = PathBuf::from(format!("{}-wal", path.display()));
        [path.to_owned(), wal].iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum()
    }
}

fn exists(conn: &Connection, thread_id: &str) -> Result<bool, StoreError> {
    Ok(conn
        .query_row("SELECT 1 FROM conversations WHERE thread_id = ?1", [thread_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The first column of every row `sql` selects for `thread_id`.
fn texts(conn: &Connection, sql: &str, thread_id: &str) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare_cached(sql)?;
    let rows = statement.query_map([thread_id], |row| row.get::<_, String>(0))?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{ConversationSession, SessionOptions, SessionWarningKind};
    use crate::{Conversation, ConversationDelta, Observed};
    use agentui_test_server::{run_of, text, Reply, TestServer};
    use serde_json::json;
    use std::sync::Condvar;
    use std::time::Duration;

    const FORM: &str = "f";

    /// A run that creates surface `FORM`: a text field bound to `/form/name`.
    fn form_run(run: &str) -> Vec<Value> {
        let form = json!({"type": "CUSTOM", "name": "a2ui", "value": {"a2ui_operations": [
            {"version": "v0.9", "createSurface": {"surfaceId": FORM, "catalogId": agentui_a2ui::catalog::BASIC_CATALOG_ID}},
            {"version": "v0.9", "updateComponents": {"surfaceId": FORM, "components": [
                {"id": "root", "component": "TextField", "label": "Name", "value": {"path": "/form/name"}}
            ]}}
        ]}});
        run_of(run, vec![text("a1", "Here is a form."), vec![form]])
    }

    /// `/form/name` in the data model of surface `FORM` as stored.
    fn stored_name(store: &ConversationStore, thread_id: &str) -> Option<Value> {
        let stored = store.load(thread_id).unwrap()?;
        let surface = stored.surfaces.into_iter().find(|s| s.surface_id == FORM)?;
        surface.messages.iter().find_map(|m| m.pointer("/updateDataModel/value/form/name").cloned())
    }

    fn temp_store_path(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("agentui-store-{name}-{}.db", std::process::id()));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        path
    }

    /// A conversation on an in-memory store whose writes `writes` counts (and can hold), after
    /// its first run (`replies[0]`, a form) is stored. Bind its fields in the order they are
    /// declared backwards (`runtime` first) so that the conversation drops first, the runtime last.
    struct FormRun {
        conv: Conversation,
        writes: Arc<HeldWriter>,
        store: ConversationStore,
        _server: TestServer,
        runtime: tokio::runtime::Runtime,
    }

    impl FormRun {
        /// `input_debounce`: the typing window, set before anything is written.
        fn start(replies: Vec<Reply>, input_debounce: Option<Duration>) -> FormRun {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            let server = runtime.block_on(TestServer::start(replies));
            let store = ConversationStore::open_in_memory().unwrap();
            if let Some(window) = input_debounce {
                store.inner.writer.set_input_debounce(window);
            }
            let writes = Arc::new(HeldWriter::default());
            store.set_write_observer(Some(writes.clone()));
            let conv = open_conversation(&server, &store, runtime.handle().clone());
            runtime.block_on(conv.send_message("a form please".into())).unwrap();
            store.flush();
            FormRun { conv, writes, store, _server: server, runtime }
        }
    }

    fn open_conversation(
        server: &TestServer,
        store: &ConversationStore,
        runtime: tokio::runtime::Handle,
    ) -> Conversation {
        let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
        let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
        Conversation::open(session, store, "url", runtime).unwrap()
    }

    #[test]
    fn the_last_of_a_thousand_rapid_values_is_on_disk_once_the_conversation_and_store_are_dropped() {
        let path = temp_store_path("rapid-values");
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let server = runtime.block_on(TestServer::start(vec![Reply::sse(&form_run("r1"))]));
        {
            let store = ConversationStore::open(&path).unwrap();
            let conv = open_conversation(&server, &store, runtime.handle().clone());
            runtime.block_on(conv.send_message("a form please".into())).unwrap();
            for n in 0..1_000 {
                conv.set_value(FORM, "/form/name", json!(format!("value {n}"))).unwrap();
            }
            // No flush: closing is what must write them.
        }
        // The conversation's task (and with it the store's last handle) ends with the runtime.
        drop(runtime);
        let key = std::fs::canonicalize(&path).unwrap();
        let still_open = OPEN_FILES.lock().unwrap().get(&key).and_then(std::sync::Weak::upgrade).is_some();
        assert!(!still_open, "the store was closed, so what follows reads the file as a new process would");
        let store = ConversationStore::open(&path).unwrap();
        assert_eq!(stored_name(&store, "t"), Some(json!("value 999")));
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    /// Holds the store's writer in `writing` while `held`, and counts the writes it announces.
    #[derive(Default)]
    struct HeldWriter {
        gate: Mutex<(bool, u64)>,
        changed: Condvar,
    }

    impl HeldWriter {
        fn hold(&self, held: bool) {
            self.gate.lock().unwrap().0 = held;
            self.changed.notify_all();
        }

        fn writes(&self) -> u64 {
            self.gate.lock().unwrap().1
        }

        /// Waits until more than `than` writes were announced (a bound only against a hang).
        fn wait_for_more(&self, than: u64) {
            let gate = self.gate.lock().unwrap();
            let (gate, _) = self.changed.wait_timeout_while(gate, Duration::from_secs(30), |g| g.1 <= than).unwrap();
            assert!(gate.1 > than, "no write came");
        }

        /// Waits until the writer is in `writing` while held (a bound only against a hang).
        fn wait_until_held(&self) {
            let gate = self.gate.lock().unwrap();
            let (gate, _) =
                self.changed.wait_timeout_while(gate, Duration::from_secs(30), |g| !(g.0 && g.1 > 0)).unwrap();
            assert!(gate.0 && gate.1 > 0, "the writer never reached a held write");
        }
    }

    impl WriteObserver for HeldWriter {
        fn writing(&self, _: &str, _: u64, _: &ConversationSnapshot) {
            let mut gate = self.gate.lock().unwrap();
            gate.1 += 1;
            self.changed.notify_all();
            while gate.0 {
                gate = self.changed.wait(gate).unwrap();
            }
        }

        fn written(&self, _: &str, _: u64) {}
    }

    #[test]
    fn values_written_while_the_writer_is_held_do_not_wait_and_are_written_once_together() {
        let FormRun { runtime: _runtime, _server, store, writes: writer, conv } =
            FormRun::start(vec![Reply::sse(&form_run("r1"))], None);

        writer.hold(true);
        let before = writer.writes();
        conv.set_value(FORM, "/form/name", json!("first")).unwrap();
        writer.wait_until_held();
        // Far more writes than any queue would hold, from another thread: the test would hang
        // here (and fail at the bound) if a write waited for the writer.
        let typing = conv.clone();
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for n in 0..1_000 {
                typing.set_value(FORM, "/form/name", json!(format!("value {n}"))).unwrap();
            }
            let _ = done.send(());
        });
        let typed = finished.recv_timeout(Duration::from_secs(30));
        let writes_while_held = writer.writes();
        // Released before asserting: a writer left held would hang the store's drop.
        writer.hold(false);
        typed.expect("1,000 values written while the writer is held");
        assert_eq!(writes_while_held, before + 1, "the writer was still in the held write");

        store.flush();
        assert_eq!(stored_name(&store, "t"), Some(json!("value 999")));
        assert_eq!(writer.writes(), before + 2, "the 1,000 values wait as one pending write, not 1,000");
    }

    #[test]
    fn a_burst_of_typed_values_is_written_at_most_once_per_debounce_window() {
        let FormRun { runtime: _runtime, _server, store, writes, conv } =
            FormRun::start(vec![Reply::sse(&form_run("r1"))], None);

        let before = writes.writes();
        let started = std::time::Instant::now();
        for n in 0..2_000 {
            conv.set_value(FORM, "/form/name", json!(format!("value {n}"))).unwrap();
            // Spread over time, as typing is: without the window, each pause lets a round run.
            if n % 20 == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let elapsed = started.elapsed();
        let rounds = writes.writes() - before;
        // One round may start each window, plus the one the first value starts at once.
        let bound = 2 + (elapsed.as_millis() / writer::INPUT_DEBOUNCE.as_millis()) as u64;
        assert!(rounds <= bound, "{rounds} writes in {elapsed:?} of typing (at most {bound})");
        store.flush();
        assert_eq!(stored_name(&store, "t"), Some(json!("value 1999")));
    }

    #[test]
    fn a_run_a_flush_or_closing_does_not_wait_for_the_typing_window() {
        // A window no test outlives: whatever is written below was not held for it.
        let FormRun { runtime, _server, store, writes, conv } = FormRun::start(
            vec![Reply::sse(&form_run("r1")), Reply::sse(&run_of("r2", vec![text("a2", "second answer")]))],
            Some(Duration::from_secs(3_600)),
        );

        let before = writes.writes();
        conv.set_value(FORM, "/form/name", json!("first")).unwrap();
        writes.wait_for_more(before);
        // Held now: the window began with the write of "first".
        conv.set_value(FORM, "/form/name", json!("second")).unwrap();
        let held = writes.writes();
        // A run's batch is written as it ends, and takes the typed value with it.
        runtime.block_on(conv.send_message("two".into())).unwrap();
        writes.wait_for_more(held);
        let stored = store.load("t").unwrap().unwrap();
        assert!(stored.snapshot.messages.iter().any(|m| m.id == "a2"), "the run's answer is on disk");
        assert_eq!(stored_name(&store, "t"), Some(json!("second")));

        // A flush does not wait either (it would hang for the hour).
        conv.set_value(FORM, "/form/name", json!("third")).unwrap();
        let (done, flushed) = std::sync::mpsc::channel();
        let flushing = store.clone();
        std::thread::spawn(move || {
            flushing.flush();
            let _ = done.send(());
        });
        flushed.recv_timeout(Duration::from_secs(30)).expect("flush returned");
        assert_eq!(stored_name(&store, "t"), Some(json!("third")));
    }

    /// Issue 43: a batch's end (on the run's thread, under the conversation's and the hub's
    /// locks) neither encodes a photo nor writes its file: with the writer held, the message's
    /// batch has ended and nothing is on disk; the writer writes it when it runs.
    #[test]
    fn a_photos_file_is_written_by_the_writer_not_at_the_batch_end() {
        let path = temp_store_path("photo-off-lock");
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let server = runtime.block_on(TestServer::start(vec![Reply::sse(&run_of("r1", vec![text("a1", "Nice.")]))]));
        let store = ConversationStore::open(&path).unwrap();
        let writes = Arc::new(HeldWriter::default());
        store.set_write_observer(Some(writes.clone()));
        let conv = open_conversation(&server, &store, runtime.handle().clone());
        let dir = store.attachments_dir("t").unwrap();
        let files = |dir: &Path| std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);

        writes.hold(true);
        let photo = crate::attachment::Attachment::bytes("photo.png", "image/png", vec![7u8; 200_000]);
        runtime.block_on(conv.send("look".into(), vec![photo])).unwrap();
        writes.wait_until_held();
        let on_disk_while_held = files(&dir);
        let held_in_memory = conv.held_media_chars();
        writes.hold(false);
        assert_eq!(on_disk_while_held, 0, "the batch's end wrote no file");
        assert!(held_in_memory > 0, "the photo waits in memory for the writer");
        store.flush();
        assert_eq!(files(&dir), 1, "the writer wrote it");
        assert_eq!(conv.held_media_chars(), 0, "and the conversation no longer holds it");
        drop(conv);
        drop(runtime);
        drop(store);
        let _ = files::remove_dir(&dir);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[tokio::test]
    async fn a_value_written_after_a_failed_write_carries_what_failed() {
        let server = TestServer::start(vec![
            Reply::sse(&form_run("r1")),
            Reply::sse(&run_of("r2", vec![text("a2", "second answer")])),
        ])
        .await;
        let store = failing_store("told-once");
        let conv = open_conversation(&server, &store, tokio::runtime::Handle::current());
        conv.send_message("a form please".into()).await.unwrap();

        store.conn().execute("UPDATE flags SET fail = 1", []).unwrap();
        conv.send_message("two".into()).await.unwrap();
        store.flush();
        store.conn().execute("UPDATE flags SET fail = 0", []).unwrap();
        // Only a value this time: the write it makes carries the run that could not be written.
        conv.set_value(FORM, "/form/name", json!("Ada")).unwrap();
        store.flush();

        let stored = store.load("t").unwrap().unwrap();
        assert_eq!(stored.snapshot.messages, conv.snapshot().unwrap().messages);
        assert_eq!(stored.snapshot.phase, conv.snapshot().unwrap().phase);
        assert_eq!(stored_name(&store, "t"), Some(json!("Ada")));
    }

    /// A store whose writer fails while `flags.fail` is 1, as a full disk would: a trigger on the
    /// writer's connection only, switched from the other connection.
    fn failing_store(name: &str) -> ConversationStore {
        let path = temp_store_path(&format!("failing-{name}"));
        let conn = Connection::open(&path).unwrap();
        schema::prepare(&conn).unwrap();
        conn.execute_batch("CREATE TABLE flags (fail INTEGER); INSERT INTO flags VALUES (0);").unwrap();
        let writer = Connection::open(&path).unwrap();
        writer
            .execute_batch(
                "CREATE TEMP TRIGGER simulated_full_disk BEFORE UPDATE ON main.conversations
                 WHEN (SELECT fail FROM main.flags) = 1
                 BEGIN SELECT RAISE(ABORT, 'database or disk is full (simulated)'); END;",
            )
            .unwrap();
        ConversationStore::with_connections(conn, writer, Some(path)).unwrap()
    }

    #[tokio::test]
    async fn a_failed_write_is_told_once_and_the_next_write_carries_the_whole_conversation() {
        let server = TestServer::start(vec![
            Reply::sse(&run_of("r1", vec![text("a1", "first answer")])),
            Reply::sse(&run_of("r2", vec![text("a2", "second answer")])),
        ])
        .await;
        let store = failing_store("carried");
        let options = SessionOptions { thread_id: Some("t".into()), ..SessionOptions::default() };
        let session = ConversationSession::connect(&server.url("/agent"), &[], options).unwrap();
        let conv = Conversation::open(session, &store, "url", tokio::runtime::Handle::current()).unwrap();
        let mut sub = conv.subscribe();

        store.conn().execute("UPDATE flags SET fail = 1", []).unwrap();
        conv.send_message("one".into()).await.unwrap();
        store.flush();
        assert!(store.load("t").unwrap().unwrap().snapshot.messages.is_empty(), "nothing could be written");
        store.conn().execute("UPDATE flags SET fail = 0", []).unwrap();
        conv.send_message("two".into()).await.unwrap();
        store.flush();

        let stored = store.load("t").unwrap().unwrap();
        assert_eq!(stored.snapshot.messages, conv.snapshot().unwrap().messages, "the first run's messages too");
        let mut store_warnings = Vec::new();
        while let Some(item) = sub.try_recv() {
            if let Observed::Delta(ConversationDelta::Warning(w)) = item {
                if w.kind == SessionWarningKind::Store {
                    store_warnings.push(w.message);
                }
            }
        }
        assert_eq!(store_warnings.len(), 2, "one when it failed, one when it recovered: {store_warnings:?}");
        assert!(store_warnings[0].contains("disk is full"), "{store_warnings:?}");
    }
}
