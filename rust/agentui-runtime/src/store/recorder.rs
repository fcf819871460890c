//! Records one conversation into the store: a listener that notes what each update changed and
//! hands it to the store's writer ([`super::writer`]) without ever waiting for it.
//!
//! - At the end of a batch of the run (or of the actor's own input: a message, the state), what
//!   changed is taken on that thread, so a message that streamed a hundred pieces in one batch is
//!   written once, as it now is, and the rows are those of the batch's end. Taken, not
//!   serialized: under the conversation's lock each changed message's large media are moved out
//!   ([`super::media`]) and the message, small now, is copied; under the hub's lock the model's
//!   small rows are serialized; the bridge's lock is held to copy a changed surface. The writer's
//!   thread makes the messages' text and writes the media's files.
//! - A value the user wrote into a surface (`set_value`, on the UI thread) is only noted: the
//!   surface's id. The writer exports the surface on its own thread when it writes, taking the
//!   bridge's lock for that copy only.
//!
//! Either way the conversation's pending write ([`Recording`]) takes the change in, merged with
//! what is not written yet, and the conversation is queued on the writer if it was not already.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agentui_a2ui::SurfaceEvent;
use agentui_agui::message::Role;
use serde_json::Value;

use super::media::StoredMedia;
use super::writer::{BatchRows, SurfaceRow};
use super::{codec, ConversationStore};
use crate::a2ui_bridge::{A2uiBridge, PendingForAgent};
use crate::observe::{ConversationDelta, ConversationSnapshot};
use crate::observers::Observers;
use crate::session::outbox::OutboxEntry;
use crate::session::{lock, SessionListener, SessionUpdate, SessionWarning, SessionWarningKind, ToolCallPhase};

/// Characters of the first user message a conversation is listed by.
const TITLE_CHARS: usize = 80;

/// What changed since the last batch.
#[derive(Debug, Default)]
struct Changes {
    any: bool,
    /// Every message (the list was replaced).
    all_messages: bool,
    messages: HashSet<String>,
    state: bool,
    tool_calls: HashSet<String>,
    executed: Vec<String>,
    surfaces: HashSet<String>,
    /// Surfaces created in this batch (a subset of `surfaces`): their row is the batch's to write.
    created_surfaces: HashSet<String>,
    removed_surfaces: HashSet<String>,
    outbox: bool,
    /// The A2UI errors waiting for the agent, as the batch left them, when they changed.
    a2ui_errors: Option<PendingForAgent>,
}

/// State the recorder keeps whole because it is small and every write of it needs all of it.
#[derive(Debug, Default)]
struct Kept {
    changes: Changes,
    outbox: Vec<OutboxEntry>,
    needs_resync: bool,
}

/// What a conversation hands the writer and the writer has not taken yet.
#[derive(Default)]
struct Pending {
    /// Rows of the batches ended since the last write, merged.
    rows: Option<BatchRows>,
    /// Surfaces the user wrote into since the last write: exported when written.
    input_surfaces: HashSet<String>,
    /// The batches merged into `rows`, numbered, each with the conversation as it left it, when
    /// the store has a write observer (it is told of each).
    batches: Vec<(u64, ConversationSnapshot)>,
    /// Batches numbered so far: the run's, and writes of values only.
    numbered: u64,
    /// In the writer's queue: a change merged meanwhile is written by the round that takes it.
    queued: bool,
}

/// One write of one conversation, taken by the writer's thread.
pub(super) struct Write {
    pub rows: Option<BatchRows>,
    /// The surfaces the user wrote into, exported for this write (after `rows`: newer).
    pub input_surfaces: Vec<SurfaceRow>,
    /// The batches this write makes durable and the conversation as each left it, in order,
    /// when a [`super::WriteObserver`] is told: the last is the conversation as written.
    pub batches: Vec<(u64, ConversationSnapshot)>,
}

/// What the recorder and the writer share, per conversation: the pending write, what the writer
/// reads to export a surface, and how it tells a failed or recovered write.
pub(super) struct Recording {
    pub thread_id: String,
    observers: Arc<Observers>,
    a2ui: Arc<Mutex<A2uiBridge>>,
    pending: Mutex<Pending>,
    /// Surface exports so far, counted under the bridge's lock: the order of the states they
    /// copy. A batch's export can reach the writer after a later one of the user's values
    /// (serialized before, handed over after), and must not overwrite it.
    exports: AtomicU64,
    /// The export last written of each surface. Only the writer's thread uses it.
    written_exports: Mutex<HashMap<String, u64>>,
    failing: AtomicBool,
    /// The conversation as the last write left it (when observed): a write of values only
    /// leaves the rest as it was (a value in a surface is not part of a snapshot).
    last_snapshot: Mutex<Option<ConversationSnapshot>>,
    /// Where its large media go (`None` for a store in memory: rows hold everything).
    media: Option<Arc<StoredMedia>>,
}

/// A write's rows as text, made on the writer's thread.
pub(super) struct EncodedRows {
    /// (message id, position, body)
    pub messages: Vec<(String, i64, String)>,
    /// (key, body) of every entry, when the outbox changed.
    pub outbox: Option<Vec<(String, String)>>,
    pub state: Option<String>,
    /// Parts whose file this write wrote: (message id, part index, reference, file).
    pub new_files: Vec<(String, usize, String, String)>,
}

impl Recording {
    /// Merges a change into the pending write; `true` when the conversation must be queued.
    fn hand_over(&self, merge: impl FnOnce(&mut Pending)) -> bool {
        let mut pending = lock(&self.pending);
        merge(&mut pending);
        !std::mem::replace(&mut pending.queued, true)
    }

    /// Whether the pending write is values the user typed and nothing of a run's.
    pub fn holds_input_only(&self) -> bool {
        let pending = lock(&self.pending);
        pending.rows.is_none() && !pending.input_surfaces.is_empty()
    }

    /// Takes the pending write, with the surfaces the user wrote into exported now. On the
    /// writer's thread. `None` when there is nothing to write.
    pub fn take_write(&self, observed: bool) -> Option<Write> {
        let (rows, input, mut batches, number) = {
            let mut pending = lock(&self.pending);
            pending.queued = false;
            let (rows, input) = (pending.rows.take(), std::mem::take(&mut pending.input_surfaces));
            if rows.is_none() && input.is_empty() {
                return None;
            }
            let batches = std::mem::take(&mut pending.batches);
            // A write with no batch to be told by (values only, or batches that ended before the
            // observer was set) is numbered as one.
            let number = (observed && batches.is_empty()).then(|| {
                pending.numbered += 1;
                pending.numbered
            });
            (rows, input, batches, number)
        };
        let mut input_surfaces = Vec::with_capacity(input.len());
        for surface_id in input {
            // The bridge's lock for the copy only (a set_value on the UI thread waits for it);
            // the text is made after.
            let exported = {
                let a2ui = lock(&self.a2ui);
                a2ui.group()
                    .surface(&surface_id)
                    .map(|s| (s.catalog_id().to_owned(), s.export(), self.exports.fetch_add(1, Ordering::Relaxed)))
            };
            let Some((catalog_id, messages, export)) = exported else { continue };
            // Listed by now, unless a batch still open created it (then it comes last).
            let position = self.observers.read(|_, model| {
                model.surface_entries().iter().position(|s| s.surface_id == surface_id).map_or(i64::MAX, |at| at as i64)
            });
            let messages = Value::Array(messages).to_string();
            input_surfaces.push(SurfaceRow { surface_id, position, catalog_id, messages, export });
        }
        let mut rows = rows;
        {
            let written = lock(&self.written_exports);
            let newer = |s: &SurfaceRow| written.get(&s.surface_id).is_none_or(|&last| s.export > last);
            if let Some(rows) = &mut rows {
                rows.surfaces.retain(newer);
            }
            input_surfaces.retain(newer);
        }
        if let Some(number) = number {
            let snapshot = match &rows {
                // Values only: the rest of the conversation is as the last write left it.
                None => lock(&self.last_snapshot).clone().unwrap_or_else(|| self.observers.snapshot()),
                Some(_) => self.observers.snapshot(),
            };
            batches.push((number, snapshot));
        }
        Some(Write { rows, input_surfaces, batches })
    }

    /// The rows of `rows` as text, with the files of the media moved out of the conversation
    /// written (and synced) first. On the writer's thread: nothing here holds a lock a UI
    /// thread takes but for a lookup.
    pub fn encode(&self, rows: &BatchRows) -> EncodedRows {
        let mut new_files = Vec::new();
        let messages = rows
            .messages
            .iter()
            .map(|(id, at, message)| (id.clone(), *at, self.encode_message(message, &mut new_files)))
            .collect();
        let dir = self.media.as_deref().map(StoredMedia::dir);
        let outbox = rows.outbox.as_ref().map(|entries| {
            entries.iter().map(|e| (e.pending.key.clone(), codec::encode_outbox_entry(e, dir))).collect()
        });
        EncodedRows { messages, outbox, state: rows.state.as_ref().map(codec::encode), new_files }
    }

    fn encode_message(
        &self,
        message: &agentui_agui::Message,
        new_files: &mut Vec<(String, usize, String, String)>,
    ) -> String {
        let Some(media) = &self.media else { return codec::encode(message) };
        let mut written = Vec::new();
        match media.write_files(message, &mut written) {
            Ok(Some(row)) => {
                new_files.extend(written);
                codec::encode(&row)
            }
            Ok(None) => codec::encode_message(message, Some(media.dir())),
            Err(_) => {
                // A file could not be written (a full disk): the row holds the data, larger,
                // never lost; the next write of the message tries the file again.
                let wanted = super::media::stored_references_of(message);
                let read_back = super::media::read_stored(media, wanted);
                let whole = super::media::with_read_back(message, &read_back, &mut Vec::new());
                codec::encode(whole.as_ref().unwrap_or(message))
            }
        }
    }

    /// The rows naming `new_files` are committed: the conversation's parts now name their files
    /// (as a restore would), and the moved values are dropped; the files those parts had before
    /// (a part replaced under the same id) are removed.
    pub fn files_committed(&self, new_files: &[(String, usize, String, String)]) {
        let Some(media) = &self.media else { return };
        if new_files.is_empty() {
            return;
        }
        self.observers.quietly_mut(|conversation| {
            for (message_id, index, reference, file) in new_files {
                let Some(message) = conversation.message_mut(message_id) else { continue };
                let Some(agentui_agui::MessageContent::Parts(parts)) = &mut message.content else { continue };
                let Some(part) = parts.get_mut(*index) else { continue };
                if let Some((current, length)) = super::media::stored_reference(part) {
                    if current == reference {
                        let bytes = super::media::stored_bytes(part).unwrap_or_default();
                        super::media::mark_stored(part, file, length, bytes);
                    }
                }
            }
        });
        media.committed(new_files.iter().map(|(_, _, reference, _)| reference.as_str()));
        for (message_id, index, _, file) in new_files {
            super::files::remove_replaced(media.dir(), message_id, *index, file);
        }
    }

    /// `write` committed.
    pub fn written(&self, mut write: Write) {
        *lock(&self.last_snapshot) = write.batches.pop().map(|(_, snapshot)| snapshot);
        {
            let mut written = lock(&self.written_exports);
            let batch_surfaces = write.rows.iter().flat_map(|rows| &rows.surfaces);
            for s in batch_surfaces.chain(&write.input_surfaces) {
                let last = written.entry(s.surface_id.clone()).or_default();
                *last = (*last).max(s.export);
            }
            // A surface made again under the same id has later exports anyway.
            for removed in write.rows.iter().flat_map(|rows| &rows.removed_surfaces) {
                written.remove(removed);
            }
        }
        if self.failing.swap(false, Ordering::Relaxed) {
            self.tell(format!("the conversation store writes again ({})", self.thread_id));
        }
    }

    /// `write` failed: its changes go back into the pending write, under what came since, so
    /// the next write carries them (they are not queued again: the next change queues them).
    pub fn failed(&self, error: &str, write: Write) {
        {
            let mut pending = lock(&self.pending);
            if let Some(mut rows) = write.rows {
                if let Some(later) = pending.rows.take() {
                    rows.absorb(later);
                }
                pending.rows = Some(rows);
            }
            // Exported again when written: the user may have typed since.
            pending.input_surfaces.extend(write.input_surfaces.into_iter().map(|s| s.surface_id));
            // Told again when written: they were not.
            pending.batches.splice(0..0, write.batches);
        }
        self.told_failed(error);
    }

    /// Tells a failure once, until a write succeeds.
    pub fn told_failed(&self, error: &str) {
        if !self.failing.swap(true, Ordering::Relaxed) {
            self.tell(format!("{error}; the conversation is kept in memory until a write succeeds"));
        }
    }

    /// Tells observers directly: the session's listeners may be mid-call.
    fn tell(&self, message: String) {
        let warning = SessionWarning { kind: SessionWarningKind::Store, message };
        self.observers.on_update(&SessionUpdate::Delta(ConversationDelta::Warning(warning)));
    }
}

pub(crate) struct StoreRecorder {
    store: ConversationStore,
    recording: Arc<Recording>,
    kept: Mutex<Kept>,
}

impl StoreRecorder {
    pub fn new(
        store: ConversationStore,
        thread_id: String,
        observers: Arc<Observers>,
        a2ui: Arc<Mutex<A2uiBridge>>,
        media: Option<Arc<StoredMedia>>,
        outbox: Vec<OutboxEntry>,
        needs_resync: bool,
    ) -> Self {
        let recording = Recording {
            thread_id,
            observers,
            a2ui,
            pending: Mutex::default(),
            exports: AtomicU64::new(0),
            written_exports: Mutex::default(),
            failing: AtomicBool::new(false),
            last_snapshot: Mutex::default(),
            media,
        };
        StoreRecorder {
            store,
            recording: Arc::new(recording),
            kept: Mutex::new(Kept { outbox, needs_resync, ..Kept::default() }),
        }
    }

    fn note(&self, update: &SessionUpdate) {
        let mut kept = lock(&self.kept);
        let kept = &mut *kept;
        let changes = &mut kept.changes;
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
                    kept.needs_resync = false;
                }
                ConversationDelta::StateResyncNeeded { .. } => kept.needs_resync = true,
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
                | ConversationDelta::Consent { .. }
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
                SurfaceEvent::Created { surface_id, .. } => {
                    changes.removed_surfaces.remove(surface_id);
                    changes.surfaces.insert(surface_id.clone());
                    changes.created_surfaces.insert(surface_id.clone());
                }
                SurfaceEvent::Changed { surface_id, .. } => {
                    if !changes.surfaces.contains(surface_id) {
                        changes.surfaces.insert(surface_id.clone());
                    }
                }
                SurfaceEvent::Deleted { surface_id } => {
                    changes.surfaces.remove(surface_id);
                    changes.created_surfaces.remove(surface_id);
                    changes.removed_surfaces.insert(surface_id.clone());
                }
            },
            // All message rows: read from the conversation at the batch's end.
            SessionUpdate::MessagesReset => {
                changes.all_messages = true;
                changes.messages.clear();
            }
            SessionUpdate::Outbox(entries) => {
                changes.outbox = true;
                kept.outbox = entries.clone();
            }
            SessionUpdate::A2uiErrors(pending) => changes.a2ui_errors = Some(pending.clone()),
        }
    }

    /// Hands what the batch changed to the writer, as rows serialized here.
    fn end_batch(&self) {
        let (changes, outbox, needs_resync) = {
            let mut kept = lock(&self.kept);
            if !kept.changes.any {
                return;
            }
            let changes = std::mem::take(&mut kept.changes);
            let outbox = changes.outbox.then(|| kept.outbox.clone());
            (changes, outbox, kept.needs_resync)
        };
        let mut rows = self.rows(&changes);
        // Entries share their messages (`Arc`s): encoded on the writer's thread.
        rows.outbox = outbox;
        rows.a2ui_errors = changes.a2ui_errors.map(|p| if p.is_empty() { String::new() } else { codec::encode(&p) });
        rows.executed = changes.executed;
        rows.needs_resync = needs_resync;
        let snapshot = self.store.write_observer().map(|_| self.recording.observers.snapshot());
        let queue = self.recording.hand_over(|pending| {
            match &mut pending.rows {
                Some(earlier) => earlier.absorb(rows),
                None => pending.rows = Some(rows),
            }
            pending.numbered += 1;
            if let Some(snapshot) = snapshot {
                pending.batches.push((pending.numbered, snapshot));
            }
        });
        if queue {
            self.store.queue(self.recording.clone());
        } else {
            // Queued already, maybe as typing the writer holds back: a batch is written now.
            self.store.inner.writer.wake();
        }
    }

    /// A value the user wrote into `surface_id` is noted for the writer, which exports the
    /// surface on its own thread: nothing is read or serialized here, on the UI thread.
    fn end_input(&self, surface_id: &str) {
        {
            let mut kept = lock(&self.kept);
            let changes = &mut kept.changes;
            if changes.created_surfaces.contains(surface_id) {
                // Created in a batch of the run still open: that batch's end writes it, value
                // included, with the conversation that lists it.
                return;
            }
            // The writer's export is at least as new as anything the open batch did to it.
            changes.surfaces.remove(surface_id);
        }
        let queue = self.recording.hand_over(|pending| {
            if !pending.input_surfaces.contains(surface_id) {
                pending.input_surfaces.insert(surface_id.to_owned());
            }
        });
        if queue {
            self.store.queue(self.recording.clone());
        }
    }

    /// What the batch changed, for the writer: the changed messages (their large media moved
    /// out first, so what is copied is small), the state as a value, the model's small rows. No
    /// text is made and no file written here: the writer's thread does that.
    fn rows(&self, changes: &Changes) -> BatchRows {
        let media = self.recording.media.as_deref();
        // The conversation's lock alone (a keystroke does not take it).
        let (messages, message_count, title, state, kept_local) =
            self.recording.observers.quietly_mut(|conversation| {
                let ids: Vec<String> = if changes.all_messages {
                    conversation.messages().iter().map(|m| m.id.clone()).collect()
                } else {
                    changes.messages.iter().cloned().collect()
                };
                if let Some(media) = media {
                    for id in &ids {
                        if let Some(message) = conversation.message_mut(id) {
                            media.move_out(message);
                        }
                    }
                }
                let messages: Vec<_> = ids
                    .iter()
                    .filter_map(|id| Some((conversation.position(id)?, conversation.message(id)?)))
                    .map(|(at, m)| (m.id.clone(), at as i64, m.clone()))
                    .collect();
                let title = conversation
                    .messages()
                    .iter()
                    .find(|m| m.role == Role::User)
                    .map(codec::message_text)
                    .map(|t| t.chars().take(TITLE_CHARS).collect::<String>());
                (
                    messages,
                    conversation.messages().len() as i64,
                    title,
                    changes.state.then(|| conversation.state().clone()),
                    codec::encode(&crate::model::kept_local(conversation)),
                )
            });
        // Then the model's lock alone, for its small rows (a keystroke takes it: kept short).
        let mut rows = self.recording.observers.read_model(|model| {
            let tool_calls = changes
                .tool_calls
                .iter()
                .filter_map(|id| model.tool_call(id))
                .map(|(at, t)| (t.tool_call_id.clone(), at as i64, codec::encode(t)))
                .collect();
            let surface_positions = model.surface_entries().iter().map(|s| s.surface_id.clone()).collect::<Vec<_>>();
            (
                BatchRows {
                    all_messages: changes.all_messages,
                    messages,
                    message_count,
                    title,
                    state,
                    phase: codec::encode(model.phase()),
                    interrupts: codec::encode(model.pending_interrupts()),
                    consent: codec::encode_consent(model.consent()),
                    kept_local,
                    tool_calls,
                    removed_surfaces: changes.removed_surfaces.iter().cloned().collect(),
                    ..BatchRows::default()
                },
                surface_positions,
            )
        });
        let (ref mut rows_out, ref positions) = rows;
        // Read after the model's lock is released: a surface change is told under the bridge's
        // lock and takes the model's, so the two are never held the other way round.
        if !changes.surfaces.is_empty() {
            // The bridge's lock for the copies only (a set_value waits for it); the text is made
            // after.
            let exported: Vec<_> = {
                let a2ui = lock(&self.recording.a2ui);
                let group = a2ui.group();
                let exports = &self.recording.exports;
                changes
                    .surfaces
                    .iter()
                    .filter_map(|id| group.surface(id))
                    .map(|s| {
                        (
                            s.id().to_owned(),
                            s.catalog_id().to_owned(),
                            s.export(),
                            exports.fetch_add(1, Ordering::Relaxed),
                        )
                    })
                    .collect()
            };
            let position = |id: &str| positions.iter().position(|s| s == id).map_or(i64::MAX, |at| at as i64);
            for (surface_id, catalog_id, messages, export) in exported {
                let position = position(&surface_id);
                let messages = Value::Array(messages).to_string();
                rows_out.surfaces.push(SurfaceRow { surface_id, position, catalog_id, messages, export });
            }
        }
        rows.0
    }
}

impl SessionListener for StoreRecorder {
    fn on_update(&self, update: &SessionUpdate) {
        self.note(update);
    }

    fn batch_end(&self) {
        self.end_batch();
    }

    fn input_end(&self, surface_id: &str) {
        self.end_input(surface_id);
    }
}

impl Drop for StoreRecorder {
    /// A batch the session left open (its task dropped mid-run) is handed over too.
    fn drop(&mut self) {
        self.end_batch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ConversationModel;
    use serde_json::json;

    fn recording() -> Recording {
        let mut bridge = A2uiBridge::default();
        bridge
            .group_mut()
            .restore_surface(vec![
                json!({"version": "v0.9", "createSurface": {"surfaceId": "f", "catalogId": agentui_a2ui::catalog::BASIC_CATALOG_ID}}),
                json!({"version": "v0.9", "updateDataModel": {"surfaceId": "f", "value": {"name": "typed"}}}),
            ])
            .unwrap();
        Recording {
            thread_id: "t".to_owned(),
            observers: Observers::new(
                ConversationModel::new(ConversationSnapshot::default(), Vec::new()),
                Default::default(),
            ),
            a2ui: Arc::new(Mutex::new(bridge)),
            pending: Mutex::default(),
            exports: AtomicU64::new(0),
            written_exports: Mutex::default(),
            failing: AtomicBool::new(false),
            last_snapshot: Mutex::default(),
            media: None,
        }
    }

    #[test]
    fn a_batch_exported_before_a_written_value_does_not_overwrite_it() {
        let recording = recording();
        // A batch of the run copies the surface, then the user types and the writer writes the
        // value before that batch is handed over.
        let stale = SurfaceRow {
            surface_id: "f".to_owned(),
            position: 0,
            catalog_id: agentui_a2ui::catalog::BASIC_CATALOG_ID.to_owned(),
            messages: "[\"before the value\"]".to_owned(),
            export: recording.exports.fetch_add(1, Ordering::Relaxed),
        };
        recording.hand_over(|pending| {
            pending.input_surfaces.insert("f".to_owned());
        });
        let value = recording.take_write(false).expect("the value's write");
        assert_eq!(value.input_surfaces.len(), 1);
        assert!(value.input_surfaces[0].messages.contains("typed"), "{}", value.input_surfaces[0].messages);
        recording.written(value);

        recording.hand_over(|pending| {
            pending.rows = Some(BatchRows { surfaces: vec![stale], ..BatchRows::default() });
        });
        let batch = recording.take_write(false).expect("the batch's write");
        assert!(batch.rows.expect("its rows").surfaces.is_empty(), "the older copy is not written over the value");
    }
}
