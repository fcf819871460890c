//! The store's tables. `PRAGMA user_version` holds the schema version; a newer file is refused
//! rather than misread.

use rusqlite::Connection;

use super::StoreError;

pub(super) const SCHEMA_VERSION: i64 = 1;

const SCHEMA_V1: &str = "
CREATE TABLE conversations (
    thread_id     TEXT PRIMARY KEY,
    agent_url     TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    updated_ms    INTEGER NOT NULL,
    title         TEXT NOT NULL,
    state         TEXT NOT NULL,
    phase         TEXT NOT NULL,
    interrupts    TEXT NOT NULL,
    kept_local    TEXT NOT NULL,
    needs_resync  INTEGER NOT NULL,
    message_count INTEGER NOT NULL,
    pending_sends INTEGER NOT NULL
);
CREATE INDEX conversations_newest ON conversations (updated_ms DESC, thread_id);
CREATE TABLE messages (
    thread_id  TEXT NOT NULL,
    message_id TEXT NOT NULL,
    position   INTEGER NOT NULL,
    body       TEXT NOT NULL
);
CREATE UNIQUE INDEX messages_id ON messages (thread_id, message_id);
CREATE INDEX messages_order ON messages (thread_id, position);
CREATE TABLE tool_calls (
    thread_id    TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    position     INTEGER NOT NULL,
    body         TEXT NOT NULL,
    PRIMARY KEY (thread_id, tool_call_id)
) WITHOUT ROWID;
CREATE INDEX tool_calls_order ON tool_calls (thread_id, position);
CREATE TABLE surfaces (
    thread_id  TEXT NOT NULL,
    surface_id TEXT NOT NULL,
    position   INTEGER NOT NULL,
    catalog_id TEXT NOT NULL,
    messages   TEXT NOT NULL,
    PRIMARY KEY (thread_id, surface_id)
) WITHOUT ROWID;
CREATE TABLE executed_tool_calls (
    thread_id    TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    PRIMARY KEY (thread_id, tool_call_id)
);
CREATE TABLE outbox (
    thread_id TEXT NOT NULL,
    key       TEXT NOT NULL,
    position  INTEGER NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (thread_id, key)
) WITHOUT ROWID;
";

/// Sets a connection up.
pub(super) fn configure(conn: &Connection) -> Result<(), StoreError> {
    // WAL: the writer does not block readers, and a commit appends instead of rewriting pages.
    // NORMAL: a commit survives the process being killed (the WAL is in the OS's hands); only
    // a power loss can take the last transactions, never corrupt the file.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // The WAL is checkpointed at about 4 MB (SQLite's default); this truncates it afterwards,
    // so a phone does not keep the peak on disk.
    conn.pragma_update(None, "journal_size_limit", 1024 * 1024)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

/// Sets the connection up and creates or checks the tables.
pub(super) fn prepare(conn: &Connection) -> Result<(), StoreError> {
    configure(conn)?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    match version {
        0 => {
            conn.execute_batch(&format!("BEGIN; {SCHEMA_V1} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"))?;
            Ok(())
        }
        SCHEMA_VERSION => Ok(()),
        found => Err(StoreError::NewerSchema { found, supported: SCHEMA_VERSION }),
    }
}
