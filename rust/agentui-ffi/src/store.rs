//! The on-device conversation store: one SQLite file of conversations that survive process
//! death. A thin object over `agentui_runtime::ConversationStore`; `Runtime::open` opens a
//! conversation on it.

use std::sync::Arc;

use agentui_runtime::{ConversationPage, StoreError};

/// A store file. Conversations opened on it keep it open until they are closed too.
#[derive(Debug, uniffi::Object)]
pub struct ConversationStore {
    inner: agentui_runtime::ConversationStore,
}

impl ConversationStore {
    pub(crate) fn core(&self) -> &agentui_runtime::ConversationStore {
        &self.inner
    }
}

#[uniffi::export]
impl ConversationStore {
    /// Opens (or creates) the store file at `path`. Blocks on disk I/O.
    #[uniffi::constructor]
    pub fn open(path: String) -> Result<Arc<Self>, StoreError> {
        Ok(Arc::new(ConversationStore { inner: agentui_runtime::ConversationStore::open(path)? }))
    }

    /// A store that lives in memory, gone with its last reference (tests, previews).
    #[uniffi::constructor]
    pub fn open_in_memory() -> Result<Arc<Self>, StoreError> {
        Ok(Arc::new(ConversationStore { inner: agentui_runtime::ConversationStore::open_in_memory()? }))
    }

    /// Conversations, most recently written first, `limit` per page (at least 1); `cursor` is
    /// the previous page's `next_cursor`.
    pub fn list(&self, limit: u32, cursor: Option<String>) -> Result<ConversationPage, StoreError> {
        self.inner.list(limit as usize, cursor.as_deref())
    }

    /// Copies conversation `thread_id` to `new_thread_id` (a fresh id when `None`) and returns
    /// the copy's id; the source is untouched. What waits for the agent stays with the source.
    /// `NotFound`, or `Exists` when `new_thread_id` is taken.
    pub fn fork(&self, thread_id: String, new_thread_id: Option<String>) -> Result<String, StoreError> {
        self.inner.fork(&thread_id, new_thread_id.as_deref())
    }

    /// Deletes a stored conversation; idempotent, `false` when there was none. Close the
    /// conversation first if it is open.
    pub fn delete(&self, thread_id: String) -> Result<bool, StoreError> {
        self.inner.delete(&thread_id)
    }

    /// The file and its write-ahead log, in bytes (0 in memory).
    pub fn size_on_disk(&self) -> u64 {
        self.inner.size_on_disk()
    }
}
