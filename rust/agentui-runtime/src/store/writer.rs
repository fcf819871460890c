//! The store's writer: one thread with its own connection that writes what the conversations
//! changed, so a run or a UI thread never waits for the disk.
//!
//! Handing changes over never waits. A conversation keeps at most one pending write
//! ([`super::recorder::Recording`]): later changes merge into it (a message, a tool call, a
//! surface, the state, each once, as the latest change left it), and the conversation is queued
//! here once until the writer takes it. So memory is bounded by the conversation's size, not by
//! how far behind the disk is, and nothing a producer hands over is dropped.
//!
//! Each round takes every queued conversation and writes them in one transaction (a group
//! commit). A surface the user wrote into is exported here, on this thread, when the round takes
//! it; the messages, state and outbox a batch handed over are serialized here, and the files of
//! their large media written and synced before the transaction that names them. Only the
//! model's small rows and the surfaces a run changed were serialized at the batch's end.
//!
//! Values the user types are written at most once per [`INPUT_DEBOUNCE`]: a round that would
//! write nothing but input waits until that long after the last such round. Each export copies
//! the whole surface under the bridge's lock, which a keystroke on the UI thread also takes, and
//! costs a core the phone shares with that thread; typing does not need a commit per key. A
//! run's batch, a flush or closing the store ends the wait at once, so a killed process loses at
//! most that window of typing, never a run's message.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, Transaction};

use agentui_agui::Message;
use serde_json::Value;

use super::recorder::{EncodedRows, Recording, Write};
use super::{now_ms, StoreError, WriteObserver};
use crate::session::lock;
use crate::session::outbox::OutboxEntry;

/// One or more batches of one conversation; a later batch merges in with [`BatchRows::absorb`].
/// Messages, the state and the outbox are as the batch left them, serialized here when written
/// (large media were moved out of the messages, so a copy is small); the model's rows are small
/// and serialized by the batch.
#[derive(Debug, Default)]
pub(super) struct BatchRows {
    /// Every message row is rewritten (the list was replaced).
    pub all_messages: bool,
    /// (message id, position, message)
    pub messages: Vec<(String, i64, Message)>,
    pub message_count: i64,
    pub title: Option<String>,
    pub state: Option<Value>,
    pub phase: String,
    pub interrupts: String,
    /// The consent requests and grants (`StoredConsent` as JSON).
    pub consent: String,
    pub kept_local: String,
    /// (tool call id, position, body)
    pub tool_calls: Vec<(String, i64, String)>,
    pub surfaces: Vec<SurfaceRow>,
    pub removed_surfaces: Vec<String>,
    /// Every entry, when the outbox changed.
    pub outbox: Option<Vec<OutboxEntry>>,
    /// The A2UI errors waiting for the agent, when they changed ('' for none).
    pub a2ui_errors: Option<String>,
    pub executed: Vec<String>,
    pub needs_resync: bool,
}

impl BatchRows {
    /// Takes in the rows of a later batch: a row both have is written once, as the later one
    /// left it, so the result is the conversation at the end of `later`.
    pub fn absorb(&mut self, later: BatchRows) {
        if later.all_messages {
            self.all_messages = true;
            self.messages = later.messages;
        } else {
            upsert(&mut self.messages, later.messages, |m| &m.0);
        }
        self.message_count = later.message_count;
        self.title = later.title.or(self.title.take());
        self.state = later.state.or(self.state.take());
        self.phase = later.phase;
        self.interrupts = later.interrupts;
        self.consent = later.consent;
        self.kept_local = later.kept_local;
        upsert(&mut self.tool_calls, later.tool_calls, |t| &t.0);
        for removed in later.removed_surfaces {
            self.surfaces.retain(|s| s.surface_id != removed);
            if !self.removed_surfaces.contains(&removed) {
                self.removed_surfaces.push(removed);
            }
        }
        for surface in &later.surfaces {
            self.removed_surfaces.retain(|id| *id != surface.surface_id);
        }
        upsert(&mut self.surfaces, later.surfaces, |s| &s.surface_id);
        self.outbox = later.outbox.or(self.outbox.take());
        self.a2ui_errors = later.a2ui_errors.or(self.a2ui_errors.take());
        self.executed.extend(later.executed);
        self.needs_resync = later.needs_resync;
    }
}

/// One surface's row, as exported at one point.
#[derive(Debug)]
pub(super) struct SurfaceRow {
    pub surface_id: String,
    pub position: i64,
    pub catalog_id: String,
    /// The A2UI messages that recreate it, as JSON text.
    pub messages: String,
    /// Orders the exports of one conversation (numbered under the bridge's lock, so a later
    /// number is a later state): a row never replaces one exported after it.
    pub export: u64,
}

/// Replaces the rows of `rows` that `later` has (by id, in place) and appends the others.
fn upsert<T>(rows: &mut Vec<T>, later: Vec<T>, id: impl Fn(&T) -> &String) {
    if rows.is_empty() {
        *rows = later;
        return;
    }
    // A batch changes a few rows, mostly the last ones (the message that streams): those are
    // looked up from the end, under the lock a keystroke may wait for; an index only for many.
    if later.len() <= 16 {
        for row in later {
            match rows.iter().rposition(|r| id(r) == id(&row)) {
                Some(n) => rows[n] = row,
                None => rows.push(row),
            }
        }
        return;
    }
    let mut at: HashMap<String, usize> = rows.iter().enumerate().map(|(n, r)| (id(r).clone(), n)).collect();
    for row in later {
        match at.get(id(&row)) {
            Some(&n) => rows[n] = row,
            None => {
                at.insert(id(&row).clone(), rows.len());
                rows.push(row);
            }
        }
    }
}

/// The shortest time between two rounds that write only values the user typed.
pub(super) const INPUT_DEBOUNCE: Duration = Duration::from_millis(200);

/// What the producers and the writer's thread share.
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    /// Wakes the writer: something was queued, or the store is closing.
    work: Condvar,
    /// Wakes those waiting in [`Writer::flush`]: a round ended, or the writer stopped.
    rounds: Condvar,
}

#[derive(Default)]
struct QueueState {
    /// Conversations with a pending write, each once, in the order they were queued.
    queued: Vec<Arc<Recording>>,
    /// How many times a conversation was queued, ever.
    marked: u64,
    /// `marked` as the last finished round began: everything queued before is written (or
    /// failed).
    written: u64,
    closing: bool,
    stopped: bool,
    /// Callers waiting in [`Writer::flush`]: the writer does not hold input back for them.
    flushing: usize,
    /// [`INPUT_DEBOUNCE`], unless a test changed it.
    input_debounce: Duration,
}

pub(super) struct Writer {
    queue: Arc<Queue>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    pub fn start(conn: Connection, observer: Arc<Mutex<Option<Arc<dyn WriteObserver>>>>) -> Result<Self, StoreError> {
        let queue = Arc::new(Queue::default());
        lock(&queue.state).input_debounce = INPUT_DEBOUNCE;
        let writer_queue = queue.clone();
        let thread = std::thread::Builder::new()
            .name("agentui-store".to_owned())
            .spawn(move || write_loop(conn, &writer_queue, &observer))
            .map_err(|e| StoreError::Sqlite(format!("cannot start the store's writer thread: {e}")))?;
        Ok(Writer { queue, thread: Some(thread) })
    }

    /// Queues `recording` for the next round. Never waits for the disk: the lock is held for a
    /// push, and the writer holds it only to take the queue.
    pub fn queue(&self, recording: Arc<Recording>) {
        let mut state = lock(&self.queue.state);
        state.queued.push(recording);
        state.marked += 1;
        drop(state);
        self.queue.work.notify_one();
    }

    #[cfg(test)]
    pub fn set_input_debounce(&self, debounce: Duration) {
        lock(&self.queue.state).input_debounce = debounce;
    }

    /// Wakes the writer to look at its queue again (a queued write grew a run's batch). Under
    /// the queue's lock, so a writer about to wait has either seen the change or is waiting.
    pub fn wake(&self) {
        let _state = lock(&self.queue.state);
        self.queue.work.notify_one();
    }

    /// Waits until everything queued before is written.
    pub fn flush(&self) {
        let mut state = lock(&self.queue.state);
        let target = state.marked;
        if state.written < target && !state.stopped {
            state.flushing += 1;
            self.queue.work.notify_one();
            while state.written < target && !state.stopped {
                state = self.queue.rounds.wait(state).unwrap_or_else(|p| p.into_inner());
            }
            state.flushing -= 1;
        }
    }
}

impl Drop for Writer {
    /// Writes what is queued, then stops.
    fn drop(&mut self) {
        lock(&self.queue.state).closing = true;
        self.queue.work.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn write_loop(mut conn: Connection, queue: &Queue, observer: &Mutex<Option<Arc<dyn WriteObserver>>>) {
    let mut state = lock(&queue.state);
    let mut last_input_round: Option<Instant> = None;
    loop {
        if state.queued.is_empty() {
            if state.closing {
                break;
            }
            state = queue.work.wait(state).unwrap_or_else(|p| p.into_inner());
            continue;
        }
        let input_only = state.queued.iter().all(|recording| recording.holds_input_only());
        if input_only && !state.closing && state.flushing == 0 {
            let due = last_input_round.map(|at| at + state.input_debounce);
            if let Some(wait) = due.and_then(|due| due.checked_duration_since(Instant::now())) {
                // Woken early by a batch, a flush or closing: the loop looks again.
                state = queue.work.wait_timeout(state, wait).unwrap_or_else(|p| p.into_inner()).0;
                continue;
            }
        }
        if input_only {
            last_input_round = Some(Instant::now());
        }
        let round = std::mem::take(&mut state.queued);
        let target = state.marked;
        drop(state);
        let observer = lock(observer).clone();
        // A panic here (an observer's, or a defect) must not stop the writer, or every flush
        // would wait forever: the round is told as a failed write instead.
        if catch_unwind(AssertUnwindSafe(|| write_round(&mut conn, &round, observer.as_deref()))).is_err() {
            for recording in &round {
                recording.told_failed("the conversation store's writer failed on an internal error");
            }
        }
        state = lock(&queue.state);
        state.written = target;
        queue.rounds.notify_all();
    }
    state.stopped = true;
    queue.rounds.notify_all();
}

/// Writes each conversation's pending write (taken now) in one transaction.
fn write_round(conn: &mut Connection, round: &[Arc<Recording>], observer: Option<&dyn WriteObserver>) {
    let writes: Vec<(&Arc<Recording>, Write)> =
        round.iter().filter_map(|recording| recording.take_write(observer.is_some()).map(|w| (recording, w))).collect();
    if writes.is_empty() {
        return;
    }
    if let Some(observer) = observer {
        for (recording, write) in &writes {
            for (batch, snapshot) in &write.batches {
                observer.writing(&recording.thread_id, *batch, snapshot);
            }
        }
    }
    // Made here, off every lock a UI thread takes: the rows' text and the media's files, synced
    // before the transaction that names them.
    let encoded: Vec<Option<EncodedRows>> =
        writes.iter().map(|(recording, write)| write.rows.as_ref().map(|rows| recording.encode(rows))).collect();
    let result = (|| -> Result<(), StoreError> {
        let tx = conn.transaction()?;
        for ((recording, write), encoded) in writes.iter().zip(&encoded) {
            write_conversation(&tx, &recording.thread_id, write, encoded.as_ref())?;
        }
        tx.commit()?;
        Ok(())
    })();
    match result {
        Ok(()) => {
            for ((recording, write), encoded) in writes.into_iter().zip(encoded) {
                if let Some(encoded) = &encoded {
                    recording.files_committed(&encoded.new_files);
                }
                if let Some(observer) = observer {
                    for (batch, _) in &write.batches {
                        observer.written(&recording.thread_id, *batch);
                    }
                }
                recording.written(write);
            }
        }
        Err(error) => {
            let error = error.to_string();
            for (recording, write) in writes {
                recording.failed(&error, write);
            }
        }
    }
}

fn write_conversation(
    tx: &Transaction<'_>,
    id: &str,
    write: &Write,
    encoded: Option<&EncodedRows>,
) -> Result<(), StoreError> {
    let exists = match (&write.rows, encoded) {
        (Some(rows), Some(encoded)) => write_batch(tx, id, rows, encoded)?,
        _ => {
            tx.prepare_cached("UPDATE conversations SET updated_ms = ?2 WHERE thread_id = ?1")?
                .execute(params![id, now_ms()])?
                > 0
        }
    };
    if !exists {
        // Deleted from the store while it was open: nothing to write to.
        return Ok(());
    }
    // After the batch's rows: a surface the user wrote into since is newer than its row there.
    upsert_surfaces(tx, id, &write.input_surfaces)
}

fn upsert_surfaces(tx: &Transaction<'_>, id: &str, surfaces: &[SurfaceRow]) -> Result<(), StoreError> {
    let mut upsert = tx.prepare_cached(
        "INSERT INTO surfaces (thread_id, surface_id, position, catalog_id, messages) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (thread_id, surface_id) DO UPDATE SET position = excluded.position,
             catalog_id = excluded.catalog_id, messages = excluded.messages",
    )?;
    for s in surfaces {
        upsert.execute(params![id, s.surface_id, s.position, s.catalog_id, s.messages])?;
    }
    Ok(())
}

/// Writes `rows`; `false` when the conversation has no row to write to.
fn write_batch(tx: &Transaction<'_>, id: &str, rows: &BatchRows, encoded: &EncodedRows) -> Result<bool, StoreError> {
    let updated = tx
        .prepare_cached(
            "UPDATE conversations SET updated_ms = ?2, message_count = ?3, phase = ?4, interrupts = ?5,
                 kept_local = ?6, needs_resync = ?7, title = CASE WHEN title = '' THEN COALESCE(?8, '') ELSE title END,
                 consent = ?9
             WHERE thread_id = ?1",
        )?
        .execute(params![
            id,
            now_ms(),
            rows.message_count,
            rows.phase,
            rows.interrupts,
            rows.kept_local,
            rows.needs_resync,
            rows.title,
            rows.consent
        ])?;
    if updated == 0 {
        return Ok(false);
    }
    if rows.all_messages {
        tx.prepare_cached("DELETE FROM messages WHERE thread_id = ?1")?.execute([id])?;
    }
    let mut upsert = tx.prepare_cached(
        "INSERT INTO messages (thread_id, message_id, position, body) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (thread_id, message_id) DO UPDATE SET position = excluded.position, body = excluded.body",
    )?;
    for (message_id, at, body) in &encoded.messages {
        upsert.execute(params![id, message_id, at, body])?;
    }
    let mut upsert = tx.prepare_cached(
        "INSERT INTO tool_calls (thread_id, tool_call_id, position, body) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET position = excluded.position, body = excluded.body",
    )?;
    for (call_id, at, body) in &rows.tool_calls {
        upsert.execute(params![id, call_id, at, body])?;
    }
    let mut insert =
        tx.prepare_cached("INSERT OR IGNORE INTO executed_tool_calls (thread_id, tool_call_id) VALUES (?1, ?2)")?;
    for call_id in &rows.executed {
        insert.execute(params![id, call_id])?;
    }
    upsert_surfaces(tx, id, &rows.surfaces)?;
    let mut delete = tx.prepare_cached("DELETE FROM surfaces WHERE thread_id = ?1 AND surface_id = ?2")?;
    for surface_id in &rows.removed_surfaces {
        delete.execute(params![id, surface_id])?;
    }
    if let Some(entries) = &encoded.outbox {
        tx.prepare_cached("DELETE FROM outbox WHERE thread_id = ?1")?.execute([id])?;
        let mut insert =
            tx.prepare_cached("INSERT INTO outbox (thread_id, key, position, body) VALUES (?1, ?2, ?3, ?4)")?;
        for (at, (key, body)) in entries.iter().enumerate() {
            insert.execute(params![id, key, at as i64, body])?;
        }
        tx.prepare_cached("UPDATE conversations SET pending_sends = ?2 WHERE thread_id = ?1")?
            .execute(params![id, entries.len() as i64])?;
    }
    if let Some(errors) = &rows.a2ui_errors {
        tx.prepare_cached("UPDATE conversations SET a2ui_errors = ?2 WHERE thread_id = ?1")?
            .execute(params![id, errors])?;
    }
    if let Some(state) = &encoded.state {
        tx.prepare_cached("UPDATE conversations SET state = ?2 WHERE thread_id = ?1")?.execute(params![id, state])?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: &str, at: i64, body: &str) -> (String, i64, Message) {
        let mut message = Message::new(id, agentui_agui::message::Role::Assistant);
        message.content = Some(agentui_agui::MessageContent::Text(body.to_owned()));
        (id.to_owned(), at, message)
    }

    fn surface(id: &str, export: u64) -> SurfaceRow {
        SurfaceRow {
            surface_id: id.to_owned(),
            position: 0,
            catalog_id: "c".to_owned(),
            messages: format!("[{export}]"),
            export,
        }
    }

    #[test]
    fn merged_batches_write_each_row_once_as_the_later_batch_left_it() {
        let mut rows = BatchRows {
            messages: vec![message("m1", 0, "hel"), message("m2", 1, "a")],
            state: Some(serde_json::json!({"n": 1})),
            phase: "running".to_owned(),
            surfaces: vec![surface("kept", 1), surface("gone", 2)],
            outbox: Some(Vec::new()),
            executed: vec!["c1".to_owned()],
            ..BatchRows::default()
        };
        rows.absorb(BatchRows {
            messages: vec![message("m1", 0, "hello"), message("m3", 2, "b")],
            phase: "finished".to_owned(),
            surfaces: vec![surface("kept", 3)],
            removed_surfaces: vec!["gone".to_owned()],
            executed: vec!["c2".to_owned()],
            ..BatchRows::default()
        });
        assert_eq!(rows.messages, vec![message("m1", 0, "hello"), message("m2", 1, "a"), message("m3", 2, "b")]);
        assert_eq!(rows.state, Some(serde_json::json!({"n": 1})), "a batch that did not change the state keeps it");
        assert_eq!(rows.phase, "finished");
        assert_eq!(rows.surfaces.iter().map(|s| (s.surface_id.as_str(), s.export)).collect::<Vec<_>>(), [("kept", 3)]);
        assert_eq!(rows.removed_surfaces, ["gone"]);
        assert!(rows.outbox.is_some(), "an outbox change is kept until written");
        assert_eq!(rows.executed, ["c1", "c2"]);

        // A replaced list replaces the merged rows; a surface made again is no longer removed.
        rows.absorb(BatchRows {
            all_messages: true,
            messages: vec![message("m9", 0, "new")],
            surfaces: vec![surface("gone", 4)],
            ..BatchRows::default()
        });
        assert!(rows.all_messages);
        assert_eq!(rows.messages, vec![message("m9", 0, "new")]);
        assert!(rows.removed_surfaces.is_empty());
        assert_eq!(rows.surfaces.len(), 2);
    }
}
