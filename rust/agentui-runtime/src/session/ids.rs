//! Ids the client mints (threads, runs, messages). Unique per process and per session, without
//! a random-number dependency: a per-session nonce from the clock and a process-wide counter.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static SESSIONS: AtomicU64 = AtomicU64::new(0);

#[derive(Debug, Clone)]
pub(crate) struct IdGenerator {
    nonce: String,
    next: u64,
}

impl IdGenerator {
    pub fn new() -> Self {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let session = SESSIONS.fetch_add(1, Ordering::Relaxed);
        IdGenerator { nonce: format!("{nanos:x}{session:x}"), next: 0 }
    }

    pub fn next(&mut self, kind: &str) -> String {
        self.next += 1;
        format!("{kind}-{}-{}", self.nonce, self.next)
    }
}
