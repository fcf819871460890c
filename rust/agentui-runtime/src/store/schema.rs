//! The store's tables. `PRAGMA user_version` holds the schema version; a newer file is refused
//! rather than misread.

use rusqlite::Connection;

use super::StoreError;

pub(super) const SCHEMA_VERSION: i64 = 3;

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

/// Version 2: the A2UI errors waiting for the agent (`PendingForAgent` as JSON; '' for none),
/// kept like the outbox until a request carrying them reached the agent. Not copied by a fork.
const MIGRATION_V2: &str = "
ALTER TABLE conversations ADD COLUMN a2ui_errors TEXT NOT NULL DEFAULT '';
";

/// Version 3: the calls waiting for the user's consent and the tools granted for the rest of the
/// conversation (`StoredConsent` as JSON; '' for none), so a request is asked again after a
/// restart and a grant holds.
const MIGRATION_V3: &str = "
ALTER TABLE conversations ADD COLUMN consent TEXT NOT NULL DEFAULT '';
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
    // Each step brings a file one version up, in one transaction with its version number.
    let steps = match version {
        0 => [SCHEMA_V1, MIGRATION_V2, MIGRATION_V3].concat(),
        1 => [MIGRATION_V2, MIGRATION_V3].concat(),
        2 => MIGRATION_V3.to_owned(),
        SCHEMA_VERSION => return Ok(()),
        found => return Err(StoreError::NewerSchema { found, supported: SCHEMA_VERSION }),
    };
    conn.execute_batch(&format!("BEGIN; {steps} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_1_file_is_migrated_in_place() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&format!("{SCHEMA_V1} PRAGMA user_version = 1;")).unwrap();
        conn.execute(
            "INSERT INTO conversations VALUES ('t', 'u', 0, 0, '', '{}', '\"idle\"', '[]', '[]', 0, 0, 0)",
            [],
        )
        .unwrap();
        prepare(&conn).unwrap();
        let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
        let errors: String = conn.query_row("SELECT a2ui_errors FROM conversations", [], |row| row.get(0)).unwrap();
        assert_eq!((version, errors.as_str()), (SCHEMA_VERSION, ""), "the row is kept, with no errors waiting");
        prepare(&conn).unwrap();
    }

    #[test]
    fn a_version_2_file_is_migrated_in_place() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&format!("{SCHEMA_V1} {MIGRATION_V2} PRAGMA user_version = 2;")).unwrap();
        conn.execute(
            "INSERT INTO conversations VALUES ('t', 'u', 0, 0, '', '{}', '\"idle\"', '[]', '[]', 0, 0, 0, 'e')",
            [],
        )
        .unwrap();
        prepare(&conn).unwrap();
        let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
        let (errors, consent): (String, String) = conn
            .query_row("SELECT a2ui_errors, consent FROM conversations", [], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap();
        assert_eq!(
            (version, errors.as_str(), consent.as_str()),
            (SCHEMA_VERSION, "e", ""),
            "the row is kept as it was, with no consent request and no grant"
        );
        prepare(&conn).unwrap();
    }
}
