//! A stored conversation handed to a session (see [`crate::session`]'s takeover).

use super::{StoreError, StoredConversation};
use crate::session::{ConversationSession, Takeover};

impl ConversationSession {
    /// Takes over `stored` (this session's thread): restored as it was last written, with no
    /// side effects. A run that was open when it was written is
    /// [`RunPhase::Abandoned`](crate::session::RunPhase::Abandoned), and its tool calls that had
    /// not finished are shown as skipped.
    pub fn restore_stored(&mut self, stored: StoredConversation) -> Result<(), StoreError> {
        self.set_stored_media(stored.media.clone());
        let takeover = Takeover {
            snapshot: stored.snapshot,
            surfaces: stored.surfaces.into_iter().map(|s| (s.surface_id, s.messages)).collect(),
            outbox: stored.outbox,
            a2ui_errors: stored.a2ui_errors,
            executed_tool_calls: stored.executed_tool_calls,
            needs_resync: stored.needs_resync,
        };
        self.take_over(takeover).map_err(|(surface_id, e)| StoreError::Corrupt {
            what: format!("surface '{surface_id}'"),
            detail: e.to_string(),
        })
    }
}
