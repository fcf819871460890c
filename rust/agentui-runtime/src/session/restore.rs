//! A session taking over a conversation kept elsewhere (the store), with no side effects:
//! nothing is run, opened or sent. Surfaces are recreated from their own messages, not from the
//! history that made them, and the bridge adopts that history so an agent repeating it applies
//! nothing. Said in the session's own terms, so the session does not know the store.

use agentui_a2ui::A2uiError;
use agentui_agui::reducer::ConversationState;
use serde_json::Value;

use super::outbox::{Outbox, OutboxEntry};
use super::{lock, ConversationSession, RunPhase, ToolCallPhase, ToolCallUpdate};
use crate::a2ui_bridge::PendingForAgent;
use crate::observe::ConversationSnapshot;

/// What a session takes over.
pub(crate) struct Takeover {
    /// As observers saw it last (tool calls, kept-local marks and pending sends included).
    pub snapshot: ConversationSnapshot,
    /// Each surface as the messages that recreate it, with its id.
    pub surfaces: Vec<(String, Vec<Value>)>,
    pub outbox: Vec<OutboxEntry>,
    /// A2UI errors the next request carries to the agent.
    pub a2ui_errors: PendingForAgent,
    /// Client tool calls whose handler was started: never run again.
    pub executed_tool_calls: Vec<String>,
    pub needs_resync: bool,
}

impl ConversationSession {
    /// Takes over `takeover` (this session's thread). A run that was open when it was kept is
    /// [`RunPhase::Abandoned`], and its tool calls that had not finished are shown as skipped.
    /// A surface that cannot be recreated fails the takeover, with its id.
    pub(crate) fn take_over(&mut self, takeover: Takeover) -> Result<(), (String, A2uiError)> {
        let snapshot = takeover.snapshot;
        let mut conversation = ConversationState::new(snapshot.messages, Some(snapshot.state));
        for kept in &snapshot.kept_local {
            conversation.keep_local(&kept.message_id, kept.reason);
        }
        if takeover.needs_resync {
            conversation.mark_needs_resync();
        }
        {
            // Noted: recreating a surface resolves it, which may run an app's function.
            let mut a2ui = crate::shared_conversation::lock_noted(&self.shared.a2ui);
            for (surface_id, messages) in takeover.surfaces {
                a2ui.group_mut().restore_surface(messages).map_err(|e| (surface_id, e))?;
            }
            a2ui.adopt_history(conversation.messages());
            a2ui.restore_pending_for_agent(takeover.a2ui_errors);
        }
        for call in conversation.tool_calls() {
            // History: never executed after a restore, answered or not.
            self.ledger.claim(&call.tool_call_id);
        }
        *self.conversation.lock() = conversation;
        lock(&self.shared.interrupts).set_pending(snapshot.pending_interrupts, Vec::new());
        // A call that waited for the user waits again: it runs only after an answer.
        self.consent = super::consent::ConsentBook::from_parts(snapshot.consent_requests, snapshot.consent_grants);
        for id in &takeover.executed_tool_calls {
            self.ledger.claim(id);
        }
        self.outbox = Outbox::from_entries(takeover.outbox);
        self.phase = match snapshot.phase {
            RunPhase::Starting { run_id } | RunPhase::Running { run_id } => {
                RunPhase::Abandoned { run_id: Some(run_id) }
            }
            other => other,
        };
        let abandoned = matches!(self.phase, RunPhase::Abandoned { .. });
        let consent = self.consent.clone();
        let waits_for_consent = |id: &str| consent.requests().iter().any(|r| r.tool_call_id == id);
        self.restored_tool_calls = snapshot
            .tool_calls
            .into_iter()
            .map(|call| match call.phase {
                // A call put to the user still waits for the answer, abandoned run or not (stored
                // as `Requested` by versions before `AwaitingConsent`).
                ToolCallPhase::Requested | ToolCallPhase::AwaitingConsent if waits_for_consent(&call.tool_call_id) => {
                    ToolCallUpdate { phase: ToolCallPhase::AwaitingConsent, ..call }
                }
                ToolCallPhase::Streaming
                | ToolCallPhase::Requested
                | ToolCallPhase::Running
                | ToolCallPhase::AwaitingConsent
                    if abandoned =>
                {
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
