//! Records one conversation into the store: a listener that notes what each update changed and,
//! when the batch ends, turns it into rows for the store's writer.
//!
//! Values are read when the batch ends, from the observers' model (messages, state, phases) and
//! the bridge (surfaces), so a message that streamed a hundred pieces in one batch is written
//! once, as it now is. Serializing happens here, on the thread that applied the batch; the SQL
//! runs on the writer's thread ([`super::writer`]), so a run never waits for the disk.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agentui_a2ui::SurfaceEvent;
use agentui_agui::message::Role;
use serde_json::Value;

use super::writer::{Batch, BatchRows};
use super::{codec, ConversationStore};
use crate::a2ui_bridge::A2uiBridge;
use crate::observe::ConversationDelta;
use crate::observers::Observers;
use crate::session::outbox::OutboxEntry;
use crate::session::{lock, SessionListener, SessionUpdate, SessionWarning, SessionWarningKind, ToolCallPhase};

/// Characters of the first user message a conversation is listed by.
const TITLE_CHARS: usize = 80;

/// What changed since the last batch.
#[derive(Debug, Default)]
struct Changes {
    any: bool,
    /// Every message (the list was replaced).
    all_messages: bool,
    messages: HashSet<String>,
    state: bool,
    tool_calls: HashSet<String>,
    executed: Vec<String>,
    surfaces: HashSet<String>,
    removed_surfaces: HashSet<String>,
    outbox: bool,
}

/// What the recorder and the writer share: the writer says when a write failed, and the next
/// batch then carries the whole conversation (the failed rows are not kept).
pub(super) struct RecorderLink {
    pub thread_id: String,
    observers: Arc<Observers>,
    rewrite_all: AtomicBool,
    failing: AtomicBool,
}

impl RecorderLink {
    pub fn failed(&self, error: &str) {
        self.rewrite_all.store(true, Ordering::Relaxed);
        if !self.failing.swap(true, Ordering::Relaxed) {
            self.tell(format!("{error}; the conversation is kept in memory until a write succeeds"));
        }
    }

    pub fn succeeded(&self) {
        if self.failing.swap(false, Ordering::Relaxed) {
            self.tell(format!("the conversation store writes again ({})", self.thread_id));
        }
    }

    /// Tells observers directly: the session's listeners may be mid-call.
    fn tell(&self, message: String) {
        let warning = SessionWarning { kind: SessionWarningKind::Store, message };
        self.observers.on_update(&SessionUpdate::Delta(ConversationDelta::Warning(warning)));
    }
}

/// State the recorder keeps whole because it is small and a rewrite needs it.
#[derive(Debug, Default)]
struct Kept {
    changes: Changes,
    outbox: Vec<OutboxEntry>,
    executed: Vec<String>,
    needs_resync: bool,
}

pub(crate) struct StoreRecorder {
    store: ConversationStore,
    link: Arc<RecorderLink>,
    a2ui: Arc<Mutex<A2uiBridge>>,
    kept: Mutex<Kept>,
    /// Batches handed to the writer.
    batches: AtomicU64,
}

impl StoreRecorder {
    pub fn new(
        store: ConversationStore,
        thread_id: String,
        observers: Arc<Observers>,
        a2ui: Arc<Mutex<A2uiBridge>>,
        outbox: Vec<OutboxEntry>,
        executed: Vec<String>,
        needs_resync: bool,
    ) -> Self {
        let link =
            RecorderLink { thread_id, observers, rewrite_all: AtomicBool::new(false), failing: AtomicBool::new(false) };
        StoreRecorder {
            store,
            link: Arc::new(link),
            a2ui,
            kept: Mutex::new(Kept { outbox, executed, needs_resync, ..Kept::default() }),
            batches: AtomicU64::new(0),
        }
    }

    fn note(&self, update: &SessionUpdate) {
        let mut kept = lock(&self.kept);
        let kept = &mut *kept;
        let changes = &mut kept.changes;
        changes.any = true;
        match update {
            SessionUpdate::Delta(delta) => match delta {
                ConversationDelta::MessageAdded(m) | ConversationDelta::MessageReplaced(m) => {
                    changes.messages.insert(m.id.clone());
                }
                ConversationDelta::TextAppended { message_id, .. }
                | ConversationDelta::ToolCallArgsAppended { message_id, .. } => {
                    if !changes.messages.contains(message_id) {
                        changes.messages.insert(message_id.clone());
                    }
                }
                ConversationDelta::MessagesReset(_) => {
                    changes.all_messages = true;
                    changes.messages.clear();
                }
                ConversationDelta::StatePatched(_) => changes.state = true,
                ConversationDelta::StateReplaced(_) => {
                    changes.state = true;
                    kept.needs_resync = false;
                }
                ConversationDelta::StateResyncNeeded { .. } => kept.needs_resync = true,
                ConversationDelta::ToolCall(update) => {
                    changes.tool_calls.insert(update.tool_call_id.clone());
                    // The handler was started: it never runs again, whatever happens next.
                    if update.phase == ToolCallPhase::Running {
                        changes.executed.push(update.tool_call_id.clone());
                        kept.executed.push(update.tool_call_id.clone());
                    }
                }
                // The conversation's row is written with every batch.
                ConversationDelta::MessageKeptLocal { .. }
                | ConversationDelta::RunPhase(_)
                | ConversationDelta::Interrupts(_)
                | ConversationDelta::PendingSends(_)
                | ConversationDelta::SurfaceAdded(_)
                | ConversationDelta::SurfaceRemoved { .. } => {}
                // Moments, not state: nothing to restore.
                ConversationDelta::Warning(_)
                | ConversationDelta::Custom { .. }
                | ConversationDelta::Raw { .. }
                | ConversationDelta::Step { .. } => {}
            },
            SessionUpdate::Surface(event) => match event {
                SurfaceEvent::Created { surface_id, .. } | SurfaceEvent::Changed { surface_id, .. } => {
                    changes.removed_surfaces.remove(surface_id);
                    changes.surfaces.insert(surface_id.clone());
                }
                SurfaceEvent::Deleted { surface_id } => {
                    changes.surfaces.remove(surface_id);
                    changes.removed_surfaces.insert(surface_id.clone());
                }
            },
            SessionUpdate::Outbox(entries) => {
                changes.outbox = true;
                kept.outbox = entries.clone();
            }
        }
    }

    /// Hands what changed since the last batch to the writer, as rows.
    fn end_batch(&self) {
        let rewrite_all = self.link.rewrite_all.swap(false, Ordering::Relaxed);
        let (changes, outbox, executed, needs_resync) = {
            let mut kept = lock(&self.kept);
            if !kept.changes.any && !rewrite_all {
                return;
            }
            let changes = std::mem::take(&mut kept.changes);
            let outbox = (changes.outbox || rewrite_all).then(|| kept.outbox.clone());
            let executed = if rewrite_all { kept.executed.clone() } else { changes.executed.clone() };
            (changes, outbox, executed, kept.needs_resync)
        };
        let mut rows = self.rows(&changes, rewrite_all);
        rows.outbox = outbox
            .map(|entries| entries.iter().map(|e| (e.pending.key.clone(), codec::encode_outbox_entry(e))).collect());
        rows.executed = executed;
        rows.needs_resync = needs_resync;
        let batch = self.batches.fetch_add(1, Ordering::Relaxed) + 1;
        let observed = self.store.write_observer().map(|o| (o, self.link.observers.snapshot()));
        self.store.submit(Batch { link: self.link.clone(), batch, rows, observed });
    }

    fn rows(&self, changes: &Changes, all: bool) -> BatchRows {
        let mut rows = self.link.observers.read(|model| {
            let view = model.view();
            let encode_message = |at: usize, m: &agentui_agui::Message| (m.id.clone(), at as i64, codec::encode(m));
            let messages = if all || changes.all_messages {
                view.messages.iter().enumerate().map(|(at, m)| encode_message(at, m)).collect()
            } else {
                changes
                    .messages
                    .iter()
                    .filter_map(|id| model.message(id))
                    .map(|(at, m)| encode_message(at, m))
                    .collect()
            };
            let tool_calls = if all {
                view.tool_calls
                    .iter()
                    .enumerate()
                    .map(|(at, t)| (t.tool_call_id.clone(), at as i64, codec::encode(t)))
                    .collect()
            } else {
                changes
                    .tool_calls
                    .iter()
                    .filter_map(|id| model.tool_call(id))
                    .map(|(at, t)| (t.tool_call_id.clone(), at as i64, codec::encode(t)))
                    .collect()
            };
            let title = view
                .messages
                .iter()
                .find(|m| m.role == Role::User)
                .and_then(|m| m.text())
                .map(|t| t.chars().take(TITLE_CHARS).collect::<String>());
            let surface_positions = view.surfaces.iter().map(|s| s.surface_id.clone()).collect::<Vec<_>>();
            (
                BatchRows {
                    all_messages: all || changes.all_messages,
                    messages,
                    message_count: view.messages.len() as i64,
                    title,
                    state: (all || changes.state).then(|| codec::encode(&view.state)),
                    phase: codec::encode(&view.phase),
                    interrupts: codec::encode(&view.pending_interrupts),
                    kept_local: codec::encode(&view.kept_local),
                    tool_calls,
                    all_surfaces: all,
                    removed_surfaces: changes.removed_surfaces.iter().cloned().collect(),
                    ..BatchRows::default()
                },
                surface_positions,
            )
        });
        let (ref mut rows_out, ref positions) = rows;
        // Read after the model's lock is released: a surface change is told under the bridge's
        // lock and takes the model's, so the two are never held the other way round.
        if all || !changes.surfaces.is_empty() {
            let a2ui = lock(&self.a2ui);
            let position = |id: &str| positions.iter().position(|s| s == id).map_or(i64::MAX, |at| at as i64);
            let mut add = |surface: &agentui_a2ui::Surface| {
                let messages = Value::Array(surface.export()).to_string();
                rows_out.surfaces.push((
                    surface.id().to_owned(),
                    position(surface.id()),
                    surface.catalog_id().to_owned(),
                    messages,
                ));
            };
            if all {
                a2ui.group().surfaces().for_each(&mut add);
            } else {
                changes.surfaces.iter().filter_map(|id| a2ui.group().surface(id)).for_each(&mut add);
            }
        }
        rows.0
    }
}

impl SessionListener for StoreRecorder {
    fn on_update(&self, update: &SessionUpdate) {
        self.note(update);
    }

    fn batch_end(&self) {
        self.end_batch();
    }
}
