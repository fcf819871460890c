//! A session taking over a conversation from the store, with no side effects: nothing is run,
//! opened or sent. Surfaces are recreated from their stored messages, not from the history that
//! made them, and the bridge adopts that history so an agent repeating it applies nothing.

use super::outbox::Outbox;
use super::{lock, ConversationSession, RunPhase, ToolCallPhase, ToolCallUpdate};
use crate::store::{StoreError, StoredConversation};
use agentui_agui::reducer::ConversationState;

impl ConversationSession {
    /// Takes over `stored` (this session's thread). A run that was open when it was written is
    /// [`RunPhase::Abandoned`], and its tool calls that had not finished are shown as skipped.
    pub fn restore_stored(&mut self, stored: StoredConversation) -> Result<(), StoreError> {
        let snapshot = stored.snapshot;
        let mut conversation = ConversationState::new(snapshot.messages, Some(snapshot.state));
        for kept in &snapshot.kept_local {
            conversation.keep_local(&kept.message_id, kept.reason);
        }
        if stored.needs_resync {
            conversation.mark_needs_resync();
        }
        {
            let mut a2ui = lock(&self.shared.a2ui);
            for surface in stored.surfaces {
                let what = format!("surface '{}'", surface.surface_id);
                a2ui.group_mut()
                    .restore_surface(surface.messages)
                    .map_err(|e| StoreError::Corrupt { what, detail: e.to_string() })?;
            }
            a2ui.adopt_history(conversation.messages());
        }
        for call in conversation_calls(&conversation) {
            // History: never executed after a restore, answered or not.
            self.ledger.claim(&call);
        }
        *self.conversation.lock() = conversation;
        lock(&self.shared.interrupts).set_pending(snapshot.pending_interrupts, Vec::new());
        for id in &stored.executed_tool_calls {
            self.ledger.claim(id);
        }
        self.outbox = Outbox::from_entries(stored.outbox);
        self.phase = match snapshot.phase {
            RunPhase::Starting { run_id } | RunPhase::Running { run_id } => {
                RunPhase::Abandoned { run_id: Some(run_id) }
            }
            other => other,
        };
        let abandoned = matches!(self.phase, RunPhase::Abandoned { .. });
        self.restored_tool_calls = snapshot
            .tool_calls
            .into_iter()
            .map(|call| match call.phase {
                ToolCallPhase::Streaming | ToolCallPhase::Requested | ToolCallPhase::Running if abandoned => {
                    ToolCallUpdate {
                        phase: ToolCallPhase::Skipped {
                            reason: "the app stopped before this call finished".to_owned(),
                        },
                        ..call
                    }
                }
                _ => call,
            })
            .collect();
        Ok(())
    }
}

fn conversation_calls(conversation: &ConversationState) -> Vec<String> {
    conversation.tool_calls().iter().map(|r| r.tool_call_id.clone()).collect()
}
