//! Writes one conversation to the store: a listener that notes what each update changed, and
//! writes it in one transaction when the batch ends.
//!
//! Values are read when the batch is written, from the observers' model (messages, state,
//! phases) and the bridge (surfaces), so a message that streamed a hundred pieces in one batch
//! is written once, as it now is. A write that fails keeps its changes noted for the next one.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agentui_a2ui::SurfaceEvent;
use agentui_agui::message::Role;
use rusqlite::params;
use serde_json::Value;

use super::{codec, now_ms, ConversationStore, StoreError};
use crate::a2ui_bridge::A2uiBridge;
use crate::observe::ConversationDelta;
use crate::observers::Observers;
use crate::session::outbox::OutboxEntry;
use crate::session::{lock, SessionListener, SessionUpdate, SessionWarning, SessionWarningKind, ToolCallPhase};

/// Characters of the first user message a conversation is listed by.
const TITLE_CHARS: usize = 80;

/// What changed since the last write.
#[derive(Debug, Default)]
struct Changes {
    any: bool,
    /// Every message (the list was replaced).
    all_messages: bool,
    messages: HashSet<String>,
    state: bool,
    needs_resync: Option<bool>,
    tool_calls: HashSet<String>,
    executed: Vec<String>,
    surfaces: HashSet<String>,
    removed_surfaces: HashSet<String>,
    outbox: Option<Vec<OutboxEntry>>,
}

impl Changes {
    fn absorb(&mut self, later: Changes) {
        self.any |= later.any;
        self.all_messages |= later.all_messages;
        self.messages.extend(later.messages);
        self.state |= later.state;
        self.needs_resync = later.needs_resync.or(self.needs_resync);
        self.tool_calls.extend(later.tool_calls);
        self.executed.extend(later.executed);
        for id in later.surfaces {
            self.removed_surfaces.remove(&id);
            self.surfaces.insert(id);
        }
        for id in later.removed_surfaces {
            self.surfaces.remove(&id);
            self.removed_surfaces.insert(id);
        }
        if later.outbox.is_some() {
            self.outbox = later.outbox;
        }
    }
}

/// Rows of one write, serialized before the connection is taken.
struct Rows {
    messages: Vec<(String, i64, String)>,
    message_count: i64,
    title: Option<String>,
    state: Option<String>,
    phase: String,
    interrupts: String,
    kept_local: String,
    tool_calls: Vec<(String, i64, String)>,
    surfaces: Vec<(String, i64, String, String)>,
}

pub(crate) struct StoreRecorder {
    store: ConversationStore,
    thread_id: String,
    observers: Arc<Observers>,
    a2ui: Arc<Mutex<A2uiBridge>>,
    changes: Mutex<Changes>,
    /// Set while writes fail, so the warning is told once per failure, not per batch.
    failing: AtomicBool,
    /// Transactions committed, for the store's write observer.
    batches: AtomicU64,
}

impl StoreRecorder {
    pub fn new(
        store: ConversationStore,
        thread_id: String,
        observers: Arc<Observers>,
        a2ui: Arc<Mutex<A2uiBridge>>,
    ) -> Self {
        StoreRecorder {
            store,
            thread_id,
            observers,
            a2ui,
            changes: Mutex::new(Changes::default()),
            failing: AtomicBool::new(false),
            batches: AtomicU64::new(0),
        }
    }

    fn note(&self, update: &SessionUpdate) {
        let mut changes = lock(&self.changes);
        changes.any = true;
        match update {
            SessionUpdate::Delta(delta) => match delta {
                ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => {
                    changes.messages.insert(m.id.clone());
                }
                ConversationDelta::TextAppended { message_id, .. }
                | ConversationDelta::ToolCallArgsAppended { message_id, .. } => {
                    if !changes.messages.contains(message_id) {
                        changes.messages.insert(message_id.clone());
                    }
                }
                ConversationDelta::MessagesReset(_) => {
                    changes.all_messages = true;
                    changes.messages.clear();
                }
                ConversationDelta::StatePatched(_) => changes.state = true,
                ConversationDelta::StateReplaced(_) => {
                    changes.state = true;
                    changes.needs_resync = Some(false);
                }
                ConversationDelta::StateResyncNeeded { .. } => changes.needs_resync = Some(true),
                ConversationDelta::ToolCall(update) => {
                    changes.tool_calls.insert(update.tool_call_id.clone());
                    // The handler was started: it never runs again, whatever happens next.
                    if update.phase == ToolCallPhase::Running {
                        changes.executed.push(update.tool_call_id.clone());
                    }
                }
                // The conversation's row is written with every batch.
                ConversationDelta::MessageKeptLocal { .. }
                | ConversationDelta::RunPhase(_)
                | ConversationDelta::Interrupts(_)
                | ConversationDelta::PendingSends(_)
                | ConversationDelta::SurfaceAdded(_)
                | ConversationDelta::SurfaceRemoved { .. } => {}
                // Moments, not state: nothing to restore.
                ConversationDelta::Warning(_)
                | ConversationDelta::Custom { .. }
                | ConversationDelta::Raw { .. }
                | ConversationDelta::Step { .. } => {}
            },
            SessionUpdate::Surface(event) => match event {
                SurfaceEvent::Created { surface_id, .. } | SurfaceEvent::Changed { surface_id, .. } => {
                    changes.removed_surfaces.remove(surface_id);
                    changes.surfaces.insert(surface_id.clone());
                }
                SurfaceEvent::Deleted { surface_id } => {
                    changes.surfaces.remove(surface_id);
                    changes.removed_surfaces.insert(surface_id.clone());
                }
            },
            SessionUpdate::Outbox(entries) => changes.outbox = Some(entries.clone()),
        }
    }

    /// Writes what changed since the last write, in one transaction.
    pub fn write(&self) -> Result<(), StoreError> {
        let changes = std::mem::take(&mut *lock(&self.changes));
        if !changes.any {
            return Ok(());
        }
        let rows = self.rows(&changes);
        match self.write_rows(&changes, rows) {
            Ok(()) => {
                if self.failing.swap(false, Ordering::Relaxed) {
                    self.tell(format!("the conversation store writes again ({})", self.thread_id));
                }
                Ok(())
            }
            Err(error) => {
                // Noted again, so the next write carries them.
                let mut noted = lock(&self.changes);
                let later = std::mem::take(&mut *noted);
                *noted = changes;
                noted.absorb(later);
                drop(noted);
                if !self.failing.swap(true, Ordering::Relaxed) {
                    self.tell(format!("{error}; the conversation is kept in memory until a write succeeds"));
                }
                Err(error)
            }
        }
    }

    /// Tells observers directly: this runs inside a listener call, where the session's
    /// listeners cannot be called again.
    fn tell(&self, message: String) {
        let warning = SessionWarning { kind: SessionWarningKind::Store, message };
        self.observers.on_update(&SessionUpdate::Delta(ConversationDelta::Warning(warning)));
    }

    fn rows(&self, changes: &Changes) -> Rows {
        let mut rows = self.observers.read(|model| {
            let view = model.view();
            let encode_message = |at: usize, m: &agentui_agui::Message| (m.id.clone(), at as i64, codec::encode(m));
            let messages = if changes.all_messages {
                view.messages.iter().enumerate().map(|(at, m)| encode_message(at, m)).collect()
            } else {
                changes
                    .messages
                    .iter()
                    .filter_map(|id| model.message(id))
                    .map(|(at, m)| encode_message(at, m))
                    .collect()
            };
            let title = view
                .messages
                .iter()
                .find(|m| m.role == Role::User)
                .and_then(|m| m.text())
                .map(|t| t.chars().take(TITLE_CHARS).collect::<String>());
            Rows {
                messages,
                message_count: view.messages.len() as i64,
                title,
                state: changes.state.then(|| codec::encode(&view.state)),
                phase: codec::encode(&view.phase),
                interrupts: codec::encode(&view.pending_interrupts),
                kept_local: codec::encode(&view.kept_local),
                tool_calls: changes
                    .tool_calls
                    .iter()
                    .filter_map(|id| model.tool_call(id))
                    .map(|(at, t)| (t.tool_call_id.clone(), at as i64, codec::encode(t)))
                    .collect(),
                surfaces: Vec::new(),
            }
        });
        // Read after the model's lock is released: a surface change is told under the bridge's
        // lock and takes the model's, so the two are never held the other way round.
        if !changes.surfaces.is_empty() {
            let positions = self.observers.read(|model| {
                model
                    .view()
                    .surfaces
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.surface_id.clone(), i as i64))
                    .collect::<Vec<_>>()
            });
            let a2ui = lock(&self.a2ui);
            for id in &changes.surfaces {
                if let Some(surface) = a2ui.group().surface(id) {
                    let at = positions.iter().find(|(s, _)| s == id).map_or(i64::MAX, |(_, at)| *at);
                    let messages = Value::Array(surface.export());
                    rows.surfaces.push((id.clone(), at, surface.catalog_id().to_owned(), messages.to_string()));
                }
            }
        }
        rows
    }

    fn write_rows(&self, changes: &Changes, rows: Rows) -> Result<(), StoreError> {
        let id = self.thread_id.as_str();
        let mut conn = self.store.conn();
        let tx = conn.transaction()?;
        if changes.all_messages {
            tx.execute("DELETE FROM messages WHERE thread_id = ?1", [id])?;
        }
        {
            let mut upsert = tx.prepare_cached(
                "INSERT INTO messages (thread_id, message_id, position, body) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (thread_id, message_id) DO UPDATE SET position = excluded.position, body = excluded.body",
            )?;
            for (message_id, at, body) in &rows.messages {
                upsert.execute(params![id, message_id, at, body])?;
            }
            let mut upsert = tx.prepare_cached(
                "INSERT INTO tool_calls (thread_id, tool_call_id, position, body) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET position = excluded.position, body = excluded.body",
            )?;
            for (call_id, at, body) in &rows.tool_calls {
                upsert.execute(params![id, call_id, at, body])?;
            }
            let mut insert = tx.prepare_cached(
                "INSERT OR IGNORE INTO executed_tool_calls (thread_id, tool_call_id) VALUES (?1, ?2)",
            )?;
            for call_id in &changes.executed {
                insert.execute(params![id, call_id])?;
            }
            let mut upsert = tx.prepare_cached(
                "INSERT INTO surfaces (thread_id, surface_id, position, catalog_id, messages) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (thread_id, surface_id) DO UPDATE SET position = excluded.position,
                     catalog_id = excluded.catalog_id, messages = excluded.messages",
            )?;
            for (surface_id, at, catalog_id, messages) in &rows.surfaces {
                upsert.execute(params![id, surface_id, at, catalog_id, messages])?;
            }
            let mut delete = tx.prepare_cached("DELETE FROM surfaces WHERE thread_id = ?1 AND surface_id = ?2")?;
            for surface_id in &changes.removed_surfaces {
                delete.execute(params![id, surface_id])?;
            }
        }
        if let Some(entries) = &changes.outbox {
            tx.execute("DELETE FROM outbox WHERE thread_id = ?1", [id])?;
            let mut insert =
                tx.prepare_cached("INSERT INTO outbox (thread_id, key, position, body) VALUES (?1, ?2, ?3, ?4)")?;
            for (at, entry) in entries.iter().enumerate() {
                insert.execute(params![id, entry.pending.key, at as i64, codec::encode_outbox_entry(entry)])?;
            }
            tx.execute(
                "UPDATE conversations SET pending_sends = ?2 WHERE thread_id = ?1",
                params![id, entries.len() as i64],
            )?;
        }
        if let Some(state) = &rows.state {
            tx.execute("UPDATE conversations SET state = ?2 WHERE thread_id = ?1", params![id, state])?;
        }
        if let Some(resync) = changes.needs_resync {
            tx.execute("UPDATE conversations SET needs_resync = ?2 WHERE thread_id = ?1", params![id, resync])?;
        }
        tx.execute(
            "UPDATE conversations SET updated_ms = ?2, message_count = ?3, phase = ?4, interrupts = ?5,
                 kept_local = ?6, title = CASE WHEN title = '' THEN COALESCE(?7, '') ELSE title END
             WHERE thread_id = ?1",
            params![id, now_ms(), rows.message_count, rows.phase, rows.interrupts, rows.kept_local, rows.title],
        )?;
        let observer = self.store.write_observer();
        let batch = self.batches.load(Ordering::Relaxed) + 1;
        if let Some(observer) = &observer {
            observer.writing(id, batch, &self.observers.snapshot());
        }
        tx.commit()?;
        self.batches.store(batch, Ordering::Relaxed);
        if let Some(observer) = &observer {
            observer.written(id, batch);
        }
        Ok(())
    }
}

impl SessionListener for StoreRecorder {
    fn on_update(&self, update: &SessionUpdate) {
        self.note(update);
    }

    fn batch_end(&self) {
        // A failure was told to observers and the changes stay noted.
        let _ = self.write();
    }
}
