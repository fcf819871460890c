//! The on-device conversation store: one SQLite file of conversations that survive process
//! death. A thin object over `agentui_runtime::ConversationStore`; `Runtime::open` opens a
//! conversation on it.

use std::sync::Arc;

use crate::error::StoreError;
use crate::update::RunPhase;

/// One line of [`ConversationStore::list`].
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ConversationSummary {
    pub thread_id: String,
    /// The start of the first user message (up to 80 characters); empty before there is one.
    pub title: String,
    /// The agent URL the conversation was opened with.
    pub agent_url: String,
    pub message_count: u64,
    /// Milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// As last written: a run open when the app stopped is still `Starting`/`Running` here, and
    /// comes back `Abandoned` when the conversation is opened.
    pub phase: RunPhase,
    /// Messages and actions waiting for the agent.
    pub pending_sends: u64,
}

/// One page of conversations, most recently written first.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ConversationPage {
    pub conversations: Vec<ConversationSummary>,
    /// Pass to `list` for the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

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
        let page = self.inner.list(limit as usize, cursor.as_deref())?;
        let summary = |c: agentui_runtime::ConversationSummary| ConversationSummary {
            phase: (&c.phase).into(),
            thread_id: c.thread_id,
            title: c.title,
            agent_url: c.agent_url,
            message_count: c.message_count,
            created_at_ms: c.created_at_ms,
            updated_at_ms: c.updated_at_ms,
            pending_sends: c.pending_sends,
        };
        Ok(ConversationPage {
            conversations: page.conversations.into_iter().map(summary).collect(),
            next_cursor: page.next_cursor,
        })
    }

    /// Copies conversation `thread_id` to `new_thread_id` (a fresh id when `None`) and returns
    /// the copy's id; the source is untouched. What waits for the agent stays with the source.
    /// `NotFound`, or `Exists` when `new_thread_id` is taken.
    pub fn fork(&self, thread_id: String, new_thread_id: Option<String>) -> Result<String, StoreError> {
        Ok(self.inner.fork(&thread_id, new_thread_id.as_deref())?)
    }

    /// Deletes a stored conversation; idempotent, `false` when there was none. Close the
    /// conversation first if it is open.
    pub fn delete(&self, thread_id: String) -> Result<bool, StoreError> {
        Ok(self.inner.delete(&thread_id)?)
    }

    /// The file and its write-ahead log, in bytes (0 in memory).
    pub fn size_on_disk(&self) -> u64 {
        self.inner.size_on_disk()
    }
}
