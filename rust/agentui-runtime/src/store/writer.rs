//! The store's writer: one thread with its own connection that commits the batches the
//! conversations hand it, so a run or a UI thread never waits for the disk.
//!
//! Batches are written in the order they were handed over. What is queued when the writer gets
//! to it is written in one transaction (a group commit); each batch is whole in it, so what
//! survives a crash is always the conversation at the end of some batch. The queue is bounded:
//! a producer faster than the disk waits for it instead of growing memory.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use rusqlite::{params, Connection, Transaction};

use super::recorder::RecorderLink;
use super::{now_ms, StoreError, WriteObserver};
use crate::observe::ConversationSnapshot;

/// Batches that may wait for the writer before a producer waits.
const QUEUE_BATCHES: usize = 64;

/// One batch of one conversation, serialized.
#[derive(Debug, Default)]
pub(super) struct BatchRows {
    /// Every message row is rewritten (the list was replaced, or a write failed).
    pub all_messages: bool,
    /// (message id, position, body)
    pub messages: Vec<(String, i64, String)>,
    pub message_count: i64,
    pub title: Option<String>,
    pub state: Option<String>,
    pub phase: String,
    pub interrupts: String,
    pub kept_local: String,
    /// (tool call id, position, body)
    pub tool_calls: Vec<(String, i64, String)>,
    /// Every surface row is rewritten.
    pub all_surfaces: bool,
    /// (surface id, position, catalog id, messages)
    pub surfaces: Vec<(String, i64, String, String)>,
    pub removed_surfaces: Vec<String>,
    /// Every entry (key, body), when the outbox changed.
    pub outbox: Option<Vec<(String, String)>>,
    pub executed: Vec<String>,
    pub needs_resync: bool,
}

pub(super) struct Batch {
    pub link: Arc<RecorderLink>,
    pub batch: u64,
    pub rows: BatchRows,
    /// The store's write observer and the conversation as this batch leaves it.
    pub observed: Option<(Arc<dyn WriteObserver>, ConversationSnapshot)>,
}

enum Job {
    Write(Box<Batch>),
    /// Answered once every job before it is written (or failed).
    Flush(mpsc::Sender<()>),
}

pub(super) struct Writer {
    jobs: Option<SyncSender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    pub fn start(conn: Connection) -> Result<Self, StoreError> {
        let (jobs, queue) = mpsc::sync_channel(QUEUE_BATCHES);
        let thread = std::thread::Builder::new()
            .name("agentui-store".to_owned())
            .spawn(move || write_loop(conn, queue))
            .map_err(|e| StoreError::Sqlite(format!("cannot start the store's writer thread: {e}")))?;
        Ok(Writer { jobs: Some(jobs), thread: Some(thread) })
    }

    pub fn submit(&self, batch: Batch) {
        if let Some(jobs) = &self.jobs {
            // The writer only stops when this handle drops.
            let _ = jobs.send(Job::Write(Box::new(batch)));
        }
    }

    /// Waits until everything submitted before is written.
    pub fn flush(&self) {
        let Some(jobs) = &self.jobs else { return };
        let (done, wait) = mpsc::channel();
        if jobs.send(Job::Flush(done)).is_ok() {
            let _ = wait.recv();
        }
    }
}

impl Drop for Writer {
    /// Writes what is queued, then stops.
    fn drop(&mut self) {
        drop(self.jobs.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn write_loop(mut conn: Connection, queue: Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut group = Vec::new();
        let mut flushes = Vec::new();
        let mut take = |job: Job| match job {
            Job::Write(batch) => group.push(batch),
            Job::Flush(done) => flushes.push(done),
        };
        take(first);
        while let Ok(job) = queue.try_recv() {
            take(job);
        }
        if !group.is_empty() {
            write_group(&mut conn, &group);
        }
        for done in flushes {
            let _ = done.send(());
        }
    }
}

fn write_group(conn: &mut Connection, group: &[Box<Batch>]) {
    for batch in group {
        if let Some((observer, snapshot)) = &batch.observed {
            observer.writing(&batch.link.thread_id, batch.batch, snapshot);
        }
    }
    let result = (|| -> Result<(), StoreError> {
        let tx = conn.transaction()?;
        for batch in group {
            write_batch(&tx, &batch.link.thread_id, &batch.rows)?;
        }
        tx.commit()?;
        Ok(())
    })();
    match result {
        Ok(()) => {
            for batch in group {
                batch.link.succeeded();
                if let Some((observer, _)) = &batch.observed {
                    observer.written(&batch.link.thread_id, batch.batch);
                }
            }
        }
        Err(error) => {
            for batch in group {
                batch.link.failed(&error.to_string());
            }
        }
    }
}

fn write_batch(tx: &Transaction<'_>, id: &str, rows: &BatchRows) -> Result<(), StoreError> {
    let updated = tx
        .prepare_cached(
            "UPDATE conversations SET updated_ms = ?2, message_count = ?3, phase = ?4, interrupts = ?5,
                 kept_local = ?6, needs_resync = ?7, title = CASE WHEN title = '' THEN COALESCE(?8, '') ELSE title END
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
            rows.title
        ])?;
    if updated == 0 {
        // Deleted from the store while it was open: nothing to write to.
        return Ok(());
    }
    if rows.all_messages {
        tx.prepare_cached("DELETE FROM messages WHERE thread_id = ?1")?.execute([id])?;
    }
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
    let mut insert =
        tx.prepare_cached("INSERT OR IGNORE INTO executed_tool_calls (thread_id, tool_call_id) VALUES (?1, ?2)")?;
    for call_id in &rows.executed {
        insert.execute(params![id, call_id])?;
    }
    if rows.all_surfaces {
        tx.prepare_cached("DELETE FROM surfaces WHERE thread_id = ?1")?.execute([id])?;
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
    for surface_id in &rows.removed_surfaces {
        delete.execute(params![id, surface_id])?;
    }
    if let Some(entries) = &rows.outbox {
        tx.prepare_cached("DELETE FROM outbox WHERE thread_id = ?1")?.execute([id])?;
        let mut insert =
            tx.prepare_cached("INSERT INTO outbox (thread_id, key, position, body) VALUES (?1, ?2, ?3, ?4)")?;
        for (at, (key, body)) in entries.iter().enumerate() {
            insert.execute(params![id, key, at as i64, body])?;
        }
        tx.prepare_cached("UPDATE conversations SET pending_sends = ?2 WHERE thread_id = ?1")?
            .execute(params![id, entries.len() as i64])?;
    }
    if let Some(state) = &rows.state {
        tx.prepare_cached("UPDATE conversations SET state = ?2 WHERE thread_id = ?1")?.execute(params![id, state])?;
    }
    Ok(())
}
