//! One ordered list of what a conversation screen shows, built once, in the core.
//!
//! The view batches carry the conversation's parts as separate lists (messages, tool calls,
//! surfaces, interrupts, consent requests, pending sends, the phase). Where each goes relative to
//! the others is decided here, by the rules below, and nowhere else: a platform lays out
//! [`TimelineItem`]s in order, keyed by [`TimelineItem::key`], and applies
//! [`TimelineChange`]s to keep them.
//!
//! The rules (docs/architecture.md, "The timeline", says why):
//! 1. Messages keep the conversation's order. A user message is shown with its delivery; an
//!    assistant message when it has text, media or an error. Tool, activity, reasoning, system
//!    and developer messages are not items of their own.
//! 2. The tool calls of an assistant message follow it, in the order it made them, with their
//!    last phase; a call's result updates its item instead of adding one.
//! 3. A consent request follows the tool call it asks about (at the end when that call is not
//!    in the list).
//! 4. A surface created by an `a2ui-surface` activity message takes that message's place. Any
//!    other surface (a tool result's, a `CUSTOM` or `RAW` event's: it arrived alone) takes the
//!    place after the last message there was when it was created. Either way the place is fixed
//!    when the surface first appears: later updates do not move it.
//! 5. After the messages: the pending interrupts, then a run error (the run ended with one), then
//!    a run in progress (a run is starting or streaming).
//!
//! [`Timeline::apply`] keeps the list as deltas arrive; [`Timeline::rebuild`] builds it from
//! the same state from nothing, and the two always agree (tested on every shared case). A
//! streamed piece of text is the hot path: it changes one item in place
//! ([`TimelineChange::TextAppended`]), without rebuilding the list.

use std::collections::{HashMap, HashSet};

use agentui_agui::message::{ContentPart, Interrupt, MessageContent, Role};
use agentui_agui::reducer::LocalOnly;
use agentui_agui::Message;

use crate::observe::{
    ConsentRequest, ConversationDelta, ConversationSnapshot, Observed, PendingReason, PendingSend, PendingSendKind,
    RunPhase, SurfaceEntry, ToolCallPhase, ToolCallUpdate,
};

/// What trying again would do, for a UI's retry button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum RetryAction {
    /// Deliver what waits for the agent now (`Conversation::retry_pending`).
    ResendPending,
    /// The agent refused the credentials: sign in again, then resend (`retry_pending`).
    SignInThenResend,
    /// Ask the agent to go on without a new message (`Conversation::continue_run`).
    ContinueRun,
}

/// Where a user message stands on its way to the agent.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum Delivery {
    /// Queued; no attempt has failed yet.
    Sending,
    /// Attempts could not reach the agent; it is sent again on its own when the network is back.
    WaitingForNetwork { attempts: u32, last_error: Option<String> },
    /// It is not sent again on its own; `retry` says what would send it.
    Failed { error: Option<String>, retry: RetryAction },
    /// The agent has it.
    Delivered,
}

/// Who runs a tool call, as far as its phase tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ToolSide {
    /// A tool of this client: its handler runs (or ran, or waits for the user's consent) here.
    Client,
    /// The agent's side answers it.
    Server,
    /// Not known yet (the arguments stream, or the call waits for the end of the run).
    Undecided,
}

/// Why a run ended with an error row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum RunErrorKind {
    /// The agent reported `RUN_ERROR`.
    Agent,
    /// The exchange failed on this side (network, protocol).
    Client,
    /// The app stopped while the run was open (restored from a store).
    Abandoned,
}

/// One row of the conversation screen.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum TimelineItemKind {
    UserMessage {
        message_id: String,
        text: String,
        /// The message's media parts, as the view's chat items show them (large inline data held
        /// back, URLs outside the media policy emptied).
        media: Vec<ContentPart>,
        delivery: Delivery,
    },
    AgentMessage {
        message_id: String,
        /// Markdown; its parsed tree is the chat item's of the same message id.
        text: String,
        media: Vec<ContentPart>,
        /// Text may still arrive: a run is in progress and this is the conversation's last message.
        streaming: bool,
        /// The run was cancelled while it streamed: show it as incomplete.
        cut_short: bool,
        error: Option<String>,
    },
    ToolActivity {
        tool_call_id: String,
        name: String,
        side: ToolSide,
        /// `None` until the call's first phase is known.
        phase: Option<ToolCallPhase>,
    },
    Surface {
        surface_id: String,
        catalog_id: String,
    },
    /// The agent's question; its answer's schema is `interrupt.response_schema`.
    Interrupt {
        interrupt: Interrupt,
    },
    ConsentRequest {
        request: ConsentRequest,
    },
    RunError {
        kind: RunErrorKind,
        message: String,
        code: Option<String>,
        retry: RetryAction,
    },
    RunInProgress {
        run_id: Option<String>,
    },
}

/// A row and the key a lazy list keeps it by: stable for as long as the row exists.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct TimelineItem {
    pub key: String,
    pub kind: TimelineItemKind,
}

/// A change to the timeline. Applied in order, the changes of one [`Timeline::apply`] turn the
/// list before it into the list after it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum TimelineChange {
    /// The whole list.
    Reset {
        items: Vec<TimelineItem>,
    },
    Inserted {
        index: u32,
        item: TimelineItem,
    },
    Updated {
        index: u32,
        item: TimelineItem,
    },
    Removed {
        index: u32,
        key: String,
    },
    /// Streamed text: append `text` to the message item's text (the item at `index`, key `key`).
    TextAppended {
        index: u32,
        key: String,
        text: String,
    },
}

/// What the timeline keeps of one message: the fields its rows show, never the whole message.
#[derive(Debug, Clone)]
struct MessageEntry {
    id: String,
    role: Role,
    text: String,
    media: Vec<ContentPart>,
    error: Option<String>,
    /// The calls it made: id and tool name, in order.
    calls: Vec<(String, String)>,
    /// The surfaces it creates (an `a2ui-surface` activity).
    surfaces: Vec<String>,
}

impl MessageEntry {
    fn new(message: &Message) -> Self {
        let (text, media) = match &message.content {
            Some(MessageContent::Text(text)) => (text.clone(), Vec::new()),
            Some(MessageContent::Parts(parts)) => (
                parts
                    .iter()
                    .filter_map(|p| match p {
                        ContentPart::Text(t) => Some(t.text.as_str()),
                        _ => None,
                    })
                    .collect(),
                // As chat items show them: large inline data held back, URLs the media policy
                // refuses emptied.
                parts
                    .iter()
                    .filter(|p| !matches!(p, ContentPart::Text(_)))
                    .map(|p| crate::view::checked_part(&crate::view::held_back(p)))
                    .collect(),
            ),
            Some(MessageContent::Object(_)) | None => (String::new(), Vec::new()),
        };
        let surfaces = match (&message.activity_type, &message.content) {
            (Some(kind), Some(MessageContent::Object(content))) if kind == crate::a2ui_bridge::A2UI_ACTIVITY_TYPE => {
                crate::a2ui_bridge::surfaces_created_by_activity(content)
            }
            _ => Vec::new(),
        };
        MessageEntry {
            id: message.id.clone(),
            role: message.role,
            text,
            media,
            error: message.error.clone(),
            calls: message.tool_calls.iter().flatten().map(|c| (c.id.clone(), c.function.name.clone())).collect(),
            surfaces,
        }
    }

    /// Whether the message is a row of its own (rule 1).
    fn shown(&self) -> bool {
        match self.role {
            Role::User => true,
            Role::Assistant => !self.text.is_empty() || !self.media.is_empty() || self.error.is_some(),
            _ => false,
        }
    }
}

/// A surface and the message it is placed after when no message carries it (rule 4).
#[derive(Debug, Clone)]
struct PlacedSurface {
    entry: SurfaceEntry,
    /// The last message there was when it first appeared; `None`: it came before any message.
    after: Option<String>,
}

/// One subscriber's timeline: the state its rows are built from, and the rows as last sent.
///
/// The rows are segments in a row: the surfaces placed before any message, one segment per
/// message (its row, its calls and their consent requests, the surfaces at or after it), then the
/// tail (consent requests without their call, interrupts, the run's error or progress). A delta
/// rebuilds only from the first segment it can change to the end, so a message added to a long
/// conversation costs the last segments, not the whole list.
#[derive(Debug, Default)]
pub struct Timeline {
    messages: Vec<MessageEntry>,
    message_index: HashMap<String, usize>,
    /// The first message that made each call: the one whose segment shows it.
    call_owner: HashMap<String, usize>,
    /// The first message that creates each surface: its carrier (rule 4).
    carrier: HashMap<String, usize>,
    kept_local: HashMap<String, LocalOnly>,
    pending: Vec<PendingSend>,
    tool_calls: HashMap<String, ToolCallUpdate>,
    surfaces: Vec<PlacedSurface>,
    interrupts: Vec<Interrupt>,
    consent: Vec<ConsentRequest>,
    phase: RunPhase,
    items: Vec<TimelineItem>,
    /// The row each message's segment starts at; one more entry for the tail.
    starts: Vec<usize>,
}

fn index(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

impl Timeline {
    pub fn new() -> Self {
        Timeline::default()
    }

    /// The timeline of `snapshot`, built whole.
    pub fn of(snapshot: &ConversationSnapshot) -> Self {
        let mut timeline = Timeline::new();
        timeline.apply(&Observed::Snapshot(Box::new(snapshot.clone())));
        timeline
    }

    /// The rows as last sent.
    pub fn items(&self) -> &[TimelineItem] {
        &self.items
    }

    /// Takes `observed` into the timeline; the changes that bring the rows up to date.
    pub fn apply(&mut self, observed: &Observed) -> Vec<TimelineChange> {
        match observed {
            Observed::Snapshot(snapshot) => {
                self.reset(snapshot);
                let (rows, starts) = self.build_from(0);
                self.items = rows;
                self.starts = starts;
                vec![TimelineChange::Reset { items: self.items.clone() }]
            }
            Observed::Delta(delta) => self.delta(delta),
        }
    }

    fn reset(&mut self, snapshot: &ConversationSnapshot) {
        *self = Timeline {
            kept_local: snapshot.kept_local.iter().map(|k| (k.message_id.clone(), k.reason)).collect(),
            pending: snapshot.pending_sends.clone(),
            tool_calls: snapshot.tool_calls.iter().map(|t| (t.tool_call_id.clone(), t.clone())).collect(),
            interrupts: snapshot.pending_interrupts.clone(),
            consent: snapshot.consent_requests.clone(),
            phase: snapshot.phase.clone(),
            ..Timeline::default()
        };
        self.set_messages(&snapshot.messages);
        // When each surface of a snapshot appeared is not known: one no message carries is
        // placed after the last message, and stays there from now on.
        let last = self.messages.last().map(|m| m.id.clone());
        self.surfaces =
            snapshot.surfaces.iter().map(|entry| PlacedSurface { entry: entry.clone(), after: last.clone() }).collect();
    }

    fn set_messages(&mut self, messages: &[Message]) {
        self.messages = messages.iter().map(MessageEntry::new).collect();
        self.message_index = self.messages.iter().enumerate().map(|(i, m)| (m.id.clone(), i)).collect();
        self.index_owners();
    }

    /// Who shows each call and carries each surface: the first message that names it.
    fn index_owners(&mut self) {
        self.call_owner.clear();
        self.carrier.clear();
        for (at, message) in self.messages.iter().enumerate() {
            for (call, _) in &message.calls {
                self.call_owner.entry(call.clone()).or_insert(at);
            }
            for surface in &message.surfaces {
                self.carrier.entry(surface.clone()).or_insert(at);
            }
        }
    }

    /// The message whose segment shows surface `id` (`None`: before any message).
    fn surface_segment(&self, placed: &PlacedSurface) -> Option<usize> {
        if let Some(&at) = self.carrier.get(&placed.entry.surface_id) {
            return Some(at);
        }
        match placed.after.as_ref() {
            None => None,
            // Its message is gone (a reset): it goes where the list ends.
            Some(id) => self.message_index.get(id).copied().or(self.messages.len().checked_sub(1)),
        }
    }

    /// The first segment a change of call `id` touches (the tail when no message shows it).
    fn call_segment(&self, id: &str) -> usize {
        self.call_owner.get(id).copied().unwrap_or(self.messages.len())
    }

    fn message_segment(&self, id: &str) -> usize {
        self.message_index.get(id).copied().unwrap_or(self.messages.len())
    }

    fn last_segment(&self) -> usize {
        self.messages.len().saturating_sub(1)
    }

    fn delta(&mut self, delta: &ConversationDelta) -> Vec<TimelineChange> {
        // The first segment this delta can change; the rows before it stay as they are.
        let from = match delta {
            ConversationDelta::TextAppended { message_id, delta } => {
                let Some(&at) = self.message_index.get(message_id) else { return Vec::new() };
                let was_shown = self.messages[at].shown();
                self.messages[at].text.push_str(delta);
                // Text of a message that is no row (reasoning, a tool's) changes no row.
                if !was_shown && !self.messages[at].shown() {
                    return Vec::new();
                }
                // The hot path: the row exists (a shown message's row opens its segment) and only
                // its text grew.
                let key = message_key(message_id);
                let row = self.starts.get(at).copied().filter(|&row| self.items.get(row).is_some_and(|i| i.key == key));
                if let (true, Some(row)) = (was_shown, row) {
                    if let Some(
                        TimelineItemKind::UserMessage { text, .. } | TimelineItemKind::AgentMessage { text, .. },
                    ) = self.items.get_mut(row).map(|item| &mut item.kind)
                    {
                        text.push_str(delta);
                        return vec![TimelineChange::TextAppended { index: index(row), key, text: delta.clone() }];
                    }
                }
                at
            }
            ConversationDelta::MessageAdded(message) | ConversationDelta::MessageReplaced(message) => {
                let entry = MessageEntry::new(message);
                match self.message_index.get(&message.id).copied() {
                    Some(at) => {
                        let old = std::mem::replace(&mut self.messages[at], entry);
                        let entry = &self.messages[at];
                        let only_added_calls =
                            entry.surfaces == old.surfaces && old.calls.iter().all(|call| entry.calls.contains(call));
                        if only_added_calls {
                            // A call started on the message: it is shown here unless an earlier
                            // message made it.
                            for (call, _) in &entry.calls {
                                self.call_owner.entry(call.clone()).or_insert(at);
                            }
                            at
                        } else {
                            // Rare: who shows a call or carries a surface may move to or from
                            // another segment.
                            self.index_owners();
                            0
                        }
                    }
                    None => {
                        let at = self.messages.len();
                        for (call, _) in &entry.calls {
                            self.call_owner.entry(call.clone()).or_insert(at);
                        }
                        let carries = !entry.surfaces.is_empty();
                        for surface in &entry.surfaces {
                            self.carrier.entry(surface.clone()).or_insert(at);
                        }
                        self.message_index.insert(message.id.clone(), at);
                        self.messages.push(entry);
                        // The previous last message stops streaming, and a surface whose
                        // message is gone follows the last one; a carrier may take a surface
                        // from wherever it was.
                        if carries {
                            0
                        } else {
                            at.saturating_sub(1)
                        }
                    }
                }
            }
            // Arguments are not shown: a call's row is its name and phase.
            ConversationDelta::ToolCallArgsAppended { .. } => return Vec::new(),
            ConversationDelta::MessagesReset(messages) => {
                // As in the view: a reset clears the marks, the ones that still hold follow.
                self.kept_local.clear();
                self.set_messages(messages);
                0
            }
            ConversationDelta::MessageKeptLocal { message_id, reason } => {
                self.kept_local.insert(message_id.clone(), *reason);
                self.message_segment(message_id)
            }
            ConversationDelta::PendingSends(pending) => {
                let from = self
                    .pending
                    .iter()
                    .chain(pending)
                    .filter_map(|p| match &p.kind {
                        PendingSendKind::Message { message_id, .. } => Some(self.message_segment(message_id)),
                        PendingSendKind::Action { .. } => None,
                    })
                    .min()
                    .unwrap_or(self.messages.len());
                self.pending = pending.clone();
                from
            }
            ConversationDelta::RunPhase(phase) => {
                self.phase = phase.clone();
                self.last_segment()
            }
            ConversationDelta::ToolCall(update) => {
                self.tool_calls.insert(update.tool_call_id.clone(), update.clone());
                self.call_segment(&update.tool_call_id)
            }
            ConversationDelta::Interrupts(pending) => {
                self.interrupts = pending.clone();
                self.messages.len()
            }
            ConversationDelta::Consent { requests, .. } => {
                let from = self
                    .consent
                    .iter()
                    .chain(requests)
                    .map(|c| self.call_segment(&c.tool_call_id))
                    .min()
                    .unwrap_or(self.messages.len());
                self.consent = requests.clone();
                from
            }
            ConversationDelta::SurfaceAdded(entry) => {
                match self.surfaces.iter().position(|s| s.entry.surface_id == entry.surface_id) {
                    // Created again, or its catalog changed: it keeps its place (rule 4).
                    Some(at) => {
                        self.surfaces[at].entry = entry.clone();
                        self.surface_segment(&self.surfaces[at]).unwrap_or(0)
                    }
                    None => {
                        let after = self.messages.last().map(|m| m.id.clone());
                        let placed = PlacedSurface { entry: entry.clone(), after };
                        let from = self.surface_segment(&placed).unwrap_or(0);
                        self.surfaces.push(placed);
                        from
                    }
                }
            }
            ConversationDelta::SurfaceRemoved { surface_id } => {
                match self.surfaces.iter().position(|s| s.entry.surface_id == *surface_id) {
                    Some(at) => {
                        let from = self.surface_segment(&self.surfaces[at]).unwrap_or(0);
                        self.surfaces.remove(at);
                        from
                    }
                    None => return Vec::new(),
                }
            }
            ConversationDelta::StatePatched(_)
            | ConversationDelta::StateReplaced(_)
            | ConversationDelta::StateResyncNeeded { .. }
            | ConversationDelta::Warning(_)
            | ConversationDelta::Custom { .. }
            | ConversationDelta::Raw { .. }
            | ConversationDelta::Step { .. } => return Vec::new(),
        };
        self.rebuild_from(from)
    }

    /// Rebuilds the rows from segment `from` to the end and sends what changed there.
    fn rebuild_from(&mut self, from: usize) -> Vec<TimelineChange> {
        // Segments before `from` keep their rows; a segment the previous rows did not have
        // (a message just added) starts where the tail started.
        let from = from.min(self.starts.len().saturating_sub(1));
        let start = if from == 0 { 0 } else { self.starts[from] };
        let (next, starts) = self.build_from(from);
        let mut suffix = self.items.split_off(start);
        let mut changes = diff(&mut suffix, next);
        for change in &mut changes {
            match change {
                TimelineChange::Inserted { index, .. }
                | TimelineChange::Updated { index, .. }
                | TimelineChange::Removed { index, .. }
                | TimelineChange::TextAppended { index, .. } => *index = self::index(*index as usize + start),
                TimelineChange::Reset { .. } => {}
            }
        }
        self.items.append(&mut suffix);
        self.starts.truncate(from);
        self.starts.extend(starts.into_iter().map(|s| s + start));
        changes
    }

    /// The rows of the current state, built from nothing by the rules above.
    pub fn rebuild(&self) -> Vec<TimelineItem> {
        self.build_from(0).0
    }

    /// The rows from segment `from` on (the surfaces placed before any message too when `from`
    /// is 0), and where each segment from `from` on starts, counted from the first row returned.
    fn build_from(&self, from: usize) -> (Vec<TimelineItem>, Vec<usize>) {
        let in_progress = matches!(self.phase, RunPhase::Starting { .. } | RunPhase::Running { .. });
        let waiting = |id: &str| {
            self.pending
                .iter()
                .find(|p| matches!(&p.kind, PendingSendKind::Message { message_id, .. } if message_id == id))
        };
        let consent_for = |call: &str| self.consent.iter().find(|c| c.tool_call_id == call);

        // Rule 4: the surfaces of each segment, carried first, then those placed after.
        let mut carried_at: HashMap<usize, Vec<&SurfaceEntry>> = HashMap::new();
        let mut after: HashMap<usize, Vec<&SurfaceEntry>> = HashMap::new();
        let mut first: Vec<&SurfaceEntry> = Vec::new();
        for placed in &self.surfaces {
            match (self.carrier.get(&placed.entry.surface_id), self.surface_segment(placed)) {
                (Some(&at), _) if at >= from => carried_at.entry(at).or_default().push(&placed.entry),
                (None, Some(at)) if at >= from => after.entry(at).or_default().push(&placed.entry),
                (None, None) if from == 0 => first.push(&placed.entry),
                _ => {}
            }
        }

        let mut rows: Vec<TimelineItem> = first.into_iter().map(surface_row).collect();
        let mut starts = Vec::with_capacity(self.messages.len().saturating_sub(from) + 1);
        let last = self.messages.len().checked_sub(1);
        for (at, message) in self.messages.iter().enumerate().skip(from) {
            starts.push(rows.len());
            if let Some(surfaces) = carried_at.remove(&at) {
                rows.extend(surfaces.into_iter().map(surface_row));
            }
            if message.shown() {
                rows.push(self.message_row(message, waiting(&message.id), in_progress && Some(at) == last));
            }
            for (call_id, name) in &message.calls {
                // Keys are unique: a call an earlier message made is shown there only.
                if self.call_owner.get(call_id) != Some(&at) {
                    continue;
                }
                let phase = self.tool_calls.get(call_id).map(|t| t.phase.clone());
                let asks = consent_for(call_id);
                rows.push(TimelineItem {
                    key: format!("t:{call_id}"),
                    kind: TimelineItemKind::ToolActivity {
                        tool_call_id: call_id.clone(),
                        name: name.clone(),
                        side: side(phase.as_ref(), asks.is_some()),
                        phase,
                    },
                });
                rows.extend(asks.map(consent_row));
            }
            if let Some(surfaces) = after.remove(&at) {
                rows.extend(surfaces.into_iter().map(surface_row));
            }
        }
        starts.push(rows.len());
        rows.extend(self.consent.iter().filter(|c| !self.call_owner.contains_key(&c.tool_call_id)).map(consent_row));
        rows.extend(self.interrupts.iter().map(|interrupt| TimelineItem {
            key: format!("i:{}", interrupt.id),
            kind: TimelineItemKind::Interrupt { interrupt: interrupt.clone() },
        }));
        if let Some(kind) = self.run_error() {
            rows.push(TimelineItem { key: "run-error".to_owned(), kind });
        }
        if in_progress {
            let run_id = match &self.phase {
                RunPhase::Starting { run_id } | RunPhase::Running { run_id } => Some(run_id.clone()),
                _ => None,
            };
            rows.push(TimelineItem { key: "run".to_owned(), kind: TimelineItemKind::RunInProgress { run_id } });
        }
        (rows, starts)
    }

    fn message_row(&self, message: &MessageEntry, waiting: Option<&PendingSend>, streaming: bool) -> TimelineItem {
        let kind = if message.role == Role::User {
            TimelineItemKind::UserMessage {
                message_id: message.id.clone(),
                text: message.text.clone(),
                media: message.media.clone(),
                delivery: delivery(waiting),
            }
        } else {
            TimelineItemKind::AgentMessage {
                message_id: message.id.clone(),
                text: message.text.clone(),
                media: message.media.clone(),
                streaming,
                cut_short: self.kept_local.get(&message.id) == Some(&LocalOnly::Cancelled),
                error: message.error.clone(),
            }
        };
        TimelineItem { key: message_key(&message.id), kind }
    }

    /// The error row of a run that ended with one: what happened, and what a retry would do.
    fn run_error(&self) -> Option<TimelineItemKind> {
        // What waits for the agent goes with a retry; without it, the agent is asked to go on.
        let retry = match self.pending.first() {
            Some(p) if p.reason == PendingReason::Unauthorized => RetryAction::SignInThenResend,
            Some(_) => RetryAction::ResendPending,
            None => RetryAction::ContinueRun,
        };
        let (kind, message, code) = match &self.phase {
            RunPhase::AgentError { message, code } => (RunErrorKind::Agent, message.clone(), code.clone()),
            RunPhase::Failed { error } => (RunErrorKind::Client, error.clone(), None),
            RunPhase::Abandoned { .. } => (RunErrorKind::Abandoned, String::new(), None),
            _ => return None,
        };
        Some(TimelineItemKind::RunError { kind, message, code, retry })
    }
}

fn message_key(id: &str) -> String {
    format!("m:{id}")
}

fn surface_row(entry: &SurfaceEntry) -> TimelineItem {
    TimelineItem {
        key: format!("s:{}", entry.surface_id),
        kind: TimelineItemKind::Surface { surface_id: entry.surface_id.clone(), catalog_id: entry.catalog_id.clone() },
    }
}

fn consent_row(request: &ConsentRequest) -> TimelineItem {
    TimelineItem {
        key: format!("c:{}", request.tool_call_id),
        kind: TimelineItemKind::ConsentRequest { request: request.clone() },
    }
}

fn delivery(waiting: Option<&PendingSend>) -> Delivery {
    match waiting {
        None => Delivery::Delivered,
        Some(p) if p.reason == PendingReason::Unauthorized => {
            Delivery::Failed { error: p.last_error.clone(), retry: RetryAction::SignInThenResend }
        }
        Some(p) if p.attempts == 0 => Delivery::Sending,
        Some(p) => Delivery::WaitingForNetwork { attempts: p.attempts, last_error: p.last_error.clone() },
    }
}

fn side(phase: Option<&ToolCallPhase>, asks_consent: bool) -> ToolSide {
    match phase {
        _ if asks_consent => ToolSide::Client,
        Some(
            ToolCallPhase::Running
            | ToolCallPhase::Succeeded { .. }
            | ToolCallPhase::Failed { .. }
            | ToolCallPhase::Skipped { .. }
            | ToolCallPhase::AwaitingConsent,
        ) => ToolSide::Client,
        Some(ToolCallPhase::CompletedByServer | ToolCallPhase::OwnedByServer) => ToolSide::Server,
        Some(ToolCallPhase::Streaming | ToolCallPhase::Requested | ToolCallPhase::AwaitingInterrupt { .. }) | None => {
            ToolSide::Undecided
        }
    }
}

/// The changes that turn `rows` (updated in place) into `next`, by key: removals first, from the
/// end, then each position of `next` in order (kept, updated, inserted, or moved as a removal and
/// an insertion).
fn diff(rows: &mut Vec<TimelineItem>, next: Vec<TimelineItem>) -> Vec<TimelineChange> {
    let mut changes = Vec::new();
    let next_keys: HashSet<&str> = next.iter().map(|item| item.key.as_str()).collect();
    for at in (0..rows.len()).rev() {
        if !next_keys.contains(rows[at].key.as_str()) {
            let gone = rows.remove(at);
            changes.push(TimelineChange::Removed { index: index(at), key: gone.key });
        }
    }
    drop(next_keys);
    let mut present: HashSet<String> = rows.iter().map(|item| item.key.clone()).collect();
    for (at, item) in next.into_iter().enumerate() {
        if rows.get(at).is_some_and(|row| row.key == item.key) {
            if rows[at] != item {
                rows[at] = item.clone();
                changes.push(TimelineChange::Updated { index: index(at), item });
            }
            continue;
        }
        if present.contains(&item.key) {
            // Moved: rare (a call's message was replaced by a reset); a removal and an insertion.
            if let Some(from) = rows.iter().skip(at).position(|row| row.key == item.key).map(|p| p + at) {
                let gone = rows.remove(from);
                changes.push(TimelineChange::Removed { index: index(from), key: gone.key });
            }
        }
        present.insert(item.key.clone());
        rows.insert(at, item.clone());
        changes.push(TimelineChange::Inserted { index: index(at), item });
    }
    changes
}

/// The changes a timeline that starts at `snapshot` makes for it and for each of `deltas`, one
/// list per step: what the platforms' tests play the shared timeline cases (tests/timeline-cases)
/// through.
pub fn replay(snapshot: ConversationSnapshot, deltas: &[ConversationDelta]) -> Vec<Vec<TimelineChange>> {
    let mut timeline = Timeline::new();
    let mut steps = vec![timeline.apply(&Observed::Snapshot(Box::new(snapshot)))];
    steps.extend(deltas.iter().map(|delta| timeline.apply(&Observed::Delta(delta.clone()))));
    steps
}

/// Applies `changes` to `rows`, as a platform does: what the tests check the timeline's own rows
/// against.
pub fn apply_changes(rows: &mut Vec<TimelineItem>, changes: &[TimelineChange]) {
    for change in changes {
        match change {
            TimelineChange::Reset { items } => *rows = items.clone(),
            TimelineChange::Inserted { index, item } => rows.insert((*index as usize).min(rows.len()), item.clone()),
            TimelineChange::Updated { index, item } => {
                if let Some(row) = rows.get_mut(*index as usize) {
                    *row = item.clone()
                }
            }
            TimelineChange::Removed { index, .. } => {
                if (*index as usize) < rows.len() {
                    rows.remove(*index as usize);
                }
            }
            TimelineChange::TextAppended { index, text, .. } => {
                if let Some(
                    TimelineItemKind::UserMessage { text: t, .. } | TimelineItemKind::AgentMessage { text: t, .. },
                ) = rows.get_mut(*index as usize).map(|row| &mut row.kind)
                {
                    t.push_str(text)
                }
            }
        }
    }
}
