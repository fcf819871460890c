//! The conversation reducer: applies verified events to a [`ConversationState`].
//!
//! Messages are keyed by id; streamed text and arguments append; tool results are placed right
//! after the assistant message that made the call; snapshots reconcile by id; state and activity
//! deltas apply atomically or not at all (with a warning, and for state a resync flag).
//!
//! Tool calls are recorded with their status and origin. Calls that arrive as history
//! (`MESSAGES_SNAPSHOT`, `RUN_STARTED.input`, the initial messages) are marked so, and only a
//! call streamed live in the current run can ever be pending for the client to execute.

use std::borrow::Cow;

use foldhash::{HashMap, HashMapExt};

use serde_json::{Map, Value};

use crate::error::{ProtocolError, Warning, WarningKind};
use crate::event::*;
use crate::limits::Limits;
use crate::message::{
    ContentPart, FunctionCall, Interrupt, Message, MessageContent, Metadata, PartSource, Role, RunOutcome, ToolCall,
    ToolCallKind,
};
use crate::patch::{apply_patch_weighed, apply_patch_within, PatchBounds, PatchError};

mod users_parts;

/// What applying one event changed, as the reducer knows it: how the runtime tells its
/// observers without working it out again from the event and the conversation. Appends name
/// no id or text: the event that caused them carries both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Nothing a message list or the state shows (run lifecycle, steps, pass-through events,
    /// an event for an entity the conversation does not hold).
    None,
    /// The event's `delta` was appended to its message's text.
    TextAppended,
    /// The event's `delta` was appended to its tool call's arguments, in message `message_id`.
    ArgumentsAppended {
        message_id: String,
    },
    /// Message `id` was added at position `at`: the end, or right after the call a tool result
    /// answers.
    MessageInserted {
        id: String,
        at: usize,
    },
    /// Message `id` changed in some other way (metadata, a tool call added, activity content, an
    /// encrypted value, a tool result replaced).
    MessageChanged {
        id: String,
    },
    /// The message list was rebuilt (`MESSAGES_SNAPSHOT`, history echoed in `RUN_STARTED`).
    MessagesReset,
    StateReplaced,
    /// The event's JSON Patch applied to the state.
    StatePatched,
    /// A state delta did not apply: the state is kept, and a resync is due.
    StateDiverged,
}

/// Where a tool call came from. Only `Live` calls may ever be executed by the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolCallOrigin {
    /// Streamed by the producer in the run with this id.
    Live { run_id: Option<String> },
    /// Restored from history (snapshot, input echo or initial messages): never executed.
    History,
}

/// How far a tool call has got. "Requested" and "completed" are different states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolCallStatus {
    /// `TOOL_CALL_START` seen; arguments still streaming.
    Streaming,
    /// `TOOL_CALL_END` seen: the agent asked for this call; nobody has answered it yet.
    Requested,
    /// A tool message answers it (from the server's `TOOL_CALL_RESULT`, or from history).
    Completed { result_message_id: String },
}

/// What the conversation knows about one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallRecord {
    pub tool_call_id: String,
    pub tool_name: String,
    /// The assistant message that carries the call.
    pub message_id: String,
    pub status: ToolCallStatus,
    pub origin: ToolCallOrigin,
    pub subagent_run_id: Option<String>,
}

impl ToolCallRecord {
    /// A live call whose arguments are complete and that nobody has answered: the only kind a
    /// client-side tool loop may consider executing (subject to its own allowlist).
    pub fn is_pending_live(&self) -> bool {
        matches!(self.origin, ToolCallOrigin::Live { .. }) && self.status == ToolCallStatus::Requested
    }
}

/// Why a message stays on this device and is never sent back to the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum LocalOnly {
    /// A tool result whose `toolCallId` matches no call: strict model APIs reject an orphan.
    OrphanToolResult,
    /// A message still streaming when the run was cancelled: it is not complete, and sending it
    /// would present it as if it were.
    Cancelled,
}

/// Where the current (or last) run stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RunStatus {
    /// No run has started.
    #[default]
    Idle,
    Running {
        thread_id: String,
        run_id: String,
    },
    Finished {
        thread_id: String,
        run_id: String,
        outcome: Option<RunOutcome>,
        result: Option<Value>,
    },
    /// The producer reported the run failed (`RUN_ERROR`). Not a client rejection.
    Errored {
        message: String,
        code: Option<String>,
    },
}

/// A producer-reported run failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunErrorReport {
    pub message: String,
    pub code: Option<String>,
}

/// Lifecycle of one subagent invocation.
#[derive(Debug, Clone, PartialEq)]
pub enum SubagentStatus {
    Running,
    Finished { outcome: Option<crate::message::SubagentOutcome> },
    Failed { message: String, code: Option<String> },
}

/// One announced subagent invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct SubagentRecord {
    pub subagent_run_id: String,
    pub name: String,
    pub status: SubagentStatus,
}

/// Everything a client holds about one conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct ConversationState {
    messages: Vec<Message>,
    positions: HashMap<String, usize>,
    state: Value,
    needs_resync: bool,
    tool_calls: Vec<ToolCallRecord>,
    tool_call_positions: HashMap<String, usize>,
    run: RunStatus,
    run_errors: Vec<RunErrorReport>,
    interrupts: Vec<Interrupt>,
    subagents: Vec<SubagentRecord>,
    producer_protocol_version: Option<String>,
    warnings: Vec<Warning>,
    suppressed_warnings: usize,
    local_only: HashMap<String, LocalOnly>,
}

impl Default for ConversationState {
    /// An empty conversation whose state is the empty object, the baseline the spec gives a run
    /// whose input carried no state.
    fn default() -> Self {
        ConversationState {
            messages: Vec::new(),
            positions: HashMap::new(),
            state: Value::Object(Map::new()),
            needs_resync: false,
            tool_calls: Vec::new(),
            tool_call_positions: HashMap::new(),
            run: RunStatus::Idle,
            run_errors: Vec::new(),
            interrupts: Vec::new(),
            subagents: Vec::new(),
            producer_protocol_version: None,
            warnings: Vec::new(),
            suppressed_warnings: 0,
            local_only: HashMap::new(),
        }
    }
}

impl ConversationState {
    /// A conversation starting from `history` and `state` (`None` means the empty object). The
    /// history's tool calls are marked as history and never become executable.
    pub fn new(history: Vec<Message>, state: Option<Value>) -> Self {
        let mut c =
            ConversationState { state: state.unwrap_or_else(|| Value::Object(Map::new())), ..Default::default() };
        for m in history {
            c.insert_history_message(m);
        }
        c
    }

    /// Add a message the client itself produced (the user's input, a client tool's result).
    /// A message with an id already held replaces it in place. A tool message completes the
    /// call it answers, paired by `toolCallId` only.
    pub fn append_local_message(&mut self, message: Message) {
        if let (Role::Tool, Some(call_id)) = (message.role, &message.tool_call_id) {
            let result_message_id = message.id.clone();
            if let Some(r) = self.tool_call_record_mut(call_id) {
                r.status = ToolCallStatus::Completed { result_message_id };
            }
        }
        match self.positions.get(&message.id) {
            Some(&i) => self.messages[i] = message,
            None => self.push_message(message),
        }
    }

    /// Keep message `id` on this device: it stays in the conversation for the app to show, but
    /// the next run's input leaves it out.
    pub fn keep_local(&mut self, id: &str, reason: LocalOnly) {
        if self.positions.contains_key(id) {
            self.local_only.insert(id.to_owned(), reason);
        }
    }

    /// Why message `id` is kept on this device, if it is.
    pub fn local_only(&self, id: &str) -> Option<LocalOnly> {
        self.local_only.get(id).copied()
    }

    /// Replace the state locally (an application edit that the next run's input carries).
    pub fn set_state(&mut self, state: Value) {
        self.state = state;
        self.needs_resync = false;
    }

    /// Mark the state as possibly diverged (a conversation restored with a failed delta).
    pub fn mark_needs_resync(&mut self) {
        self.needs_resync = true;
    }

    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Message `id`'s position in [`messages`](Self::messages).
    pub fn position(&self, id: &str) -> Option<usize> {
        self.positions.get(id).copied()
    }

    pub fn message(&self, id: &str) -> Option<&Message> {
        self.positions.get(id).map(|&i| &self.messages[i])
    }

    /// Activity messages, in conversation order.
    pub fn activities(&self) -> impl Iterator<Item = &Message> {
        self.messages.iter().filter(|m| m.role == Role::Activity)
    }

    pub fn state(&self) -> &Value {
        &self.state
    }

    /// Whether a state delta failed to apply since the last snapshot: the local state may have
    /// diverged from the agent's and should be resynchronised from a `STATE_SNAPSHOT`.
    pub fn needs_resync(&self) -> bool {
        self.needs_resync
    }

    pub fn tool_calls(&self) -> &[ToolCallRecord] {
        &self.tool_calls
    }

    pub fn tool_call(&self, id: &str) -> Option<&ToolCallRecord> {
        self.tool_call_positions.get(id).map(|&i| &self.tool_calls[i])
    }

    /// Live calls the agent requested and nobody answered, in the order they were made.
    pub fn pending_live_tool_calls(&self) -> impl Iterator<Item = &ToolCallRecord> {
        self.tool_calls.iter().filter(|r| r.is_pending_live())
    }

    pub fn run_status(&self) -> &RunStatus {
        &self.run
    }

    /// Every `RUN_ERROR` the producer reported, in order.
    pub fn run_errors(&self) -> &[RunErrorReport] {
        &self.run_errors
    }

    /// The interrupts of the last run, when it finished with an interrupt outcome.
    pub fn pending_interrupts(&self) -> &[Interrupt] {
        &self.interrupts
    }

    pub fn subagents(&self) -> &[SubagentRecord] {
        &self.subagents
    }

    /// What the producer declared on the last `RUN_STARTED`.
    pub fn producer_protocol_version(&self) -> Option<&str> {
        self.producer_protocol_version.as_deref()
    }

    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Record a warning, bounded by `max`.
    pub(crate) fn warn(&mut self, warning: Warning, max: usize) {
        if self.warnings.len() < max {
            self.warnings.push(warning);
        } else {
            self.suppressed_warnings += 1;
        }
    }

    /// Warnings beyond the configured bound, counted but not stored.
    pub fn suppressed_warnings(&self) -> usize {
        self.suppressed_warnings
    }

    fn push_message(&mut self, m: Message) {
        self.positions.insert(m.id.clone(), self.messages.len());
        self.messages.push(m);
    }

    fn insert_message_at(&mut self, at: usize, m: Message) {
        if at >= self.messages.len() {
            return self.push_message(m);
        }
        self.messages.insert(at, m);
        self.reindex_from(at);
    }

    fn reindex_from(&mut self, from: usize) {
        for (i, m) in self.messages.iter().enumerate().skip(from) {
            self.positions.insert(m.id.clone(), i);
        }
    }

    fn reindex_all(&mut self) {
        self.positions.clear();
        self.reindex_from(0);
    }

    /// Message `id` to change in place, keeping its id and place (a client moving a large part's
    /// data elsewhere, e.g. into a file). The id must not change.
    pub fn message_mut(&mut self, id: &str) -> Option<&mut Message> {
        let i = *self.positions.get(id)?;
        self.messages.get_mut(i)
    }

    fn record_tool_call(&mut self, record: ToolCallRecord) {
        match self.tool_call_positions.get(&record.tool_call_id) {
            Some(&i) => self.tool_calls[i] = record,
            None => {
                self.tool_call_positions.insert(record.tool_call_id.clone(), self.tool_calls.len());
                self.tool_calls.push(record);
            }
        }
    }

    fn tool_call_record_mut(&mut self, id: &str) -> Option<&mut ToolCallRecord> {
        let i = *self.tool_call_positions.get(id)?;
        self.tool_calls.get_mut(i)
    }

    /// Record the tool calls and answers a history message carries, all as history.
    fn note_history(&mut self, m: &Message) {
        for call in m.tool_calls.iter().flatten() {
            let answered = self.tool_call(&call.id).and_then(|r| match &r.status {
                ToolCallStatus::Completed { result_message_id } => Some(result_message_id.clone()),
                _ => None,
            });
            self.record_tool_call(ToolCallRecord {
                tool_call_id: call.id.clone(),
                tool_name: call.function.name.clone(),
                message_id: m.id.clone(),
                status: match answered {
                    Some(result_message_id) => ToolCallStatus::Completed { result_message_id },
                    None => ToolCallStatus::Requested,
                },
                origin: ToolCallOrigin::History,
                subagent_run_id: m.subagent_run_id.clone(),
            });
        }
        if let (Role::Tool, Some(call_id)) = (m.role, &m.tool_call_id) {
            let result_message_id = m.id.clone();
            match self.tool_call_record_mut(call_id) {
                Some(r) => r.status = ToolCallStatus::Completed { result_message_id },
                // An answer whose call is not held yet: remember it so the call arrives answered.
                None => self.record_tool_call(ToolCallRecord {
                    tool_call_id: call_id.clone(),
                    tool_name: String::new(),
                    message_id: String::new(),
                    status: ToolCallStatus::Completed { result_message_id },
                    origin: ToolCallOrigin::History,
                    subagent_run_id: None,
                }),
            }
        }
    }

    fn insert_history_message(&mut self, m: Message) {
        self.note_history(&m);
        if !self.positions.contains_key(&m.id) {
            self.push_message(m);
        }
    }
}

/// The bytes a content part holds: its text, inline data, URL or file handle.
fn part_bytes(part: &ContentPart) -> usize {
    match part {
        ContentPart::Text(t) => t.text.len(),
        ContentPart::Image(m) | ContentPart::Audio(m) | ContentPart::Video(m) | ContentPart::Document(m) => {
            match &m.source {
                PartSource::Data { value, .. } | PartSource::Url { value, .. } | PartSource::File { value, .. } => {
                    value.len()
                }
            }
        }
    }
}

fn merge_metadata(target: &mut Option<Metadata>, incoming: &Option<Box<Metadata>>) {
    if let Some(incoming) = incoming {
        let target = target.get_or_insert_with(Map::new);
        for (k, v) in incoming.iter() {
            target.insert(k.clone(), v.clone());
        }
    }
}

fn append_text(content: &mut Option<MessageContent>, delta: &str, max: usize) -> Result<(), ProtocolError> {
    match content {
        Some(MessageContent::Text(text)) => {
            if text.len() + delta.len() > max {
                return Err(ProtocolError::LimitExceeded { what: "bytes in one message", limit: max });
            }
            text.push_str(delta);
        }
        other => *other = Some(MessageContent::Text(delta.to_owned())),
    }
    Ok(())
}

/// Applies verified events to a [`ConversationState`].
#[derive(Debug, Clone, Default)]
pub struct ConversationReducer {
    // Boxed: a conversation kept elsewhere is swapped in and out per event (a pointer, not its
    // 500-odd bytes).
    conversation: Box<ConversationState>,
    limits: Limits,
    current_run_id: Option<String>,
    /// Content bytes streamed since the last `RUN_STARTED` (see `Limits::max_run_content_bytes`).
    run_content_bytes: usize,
    /// The state's weight, once measured: only this reducer changes the state, so each
    /// STATE_DELTA updates it instead of walking the whole state again.
    state_weight: Option<usize>,
}

impl ConversationReducer {
    pub fn new(conversation: ConversationState, limits: Limits) -> Self {
        ConversationReducer {
            conversation: Box::new(conversation),
            limits,
            current_run_id: None,
            run_content_bytes: 0,
            state_weight: None,
        }
    }

    /// Counts `bytes` of content against the run's bound before they are stored.
    fn charge_content(&mut self, bytes: usize) -> Result<(), ProtocolError> {
        let max = self.limits.max_run_content_bytes;
        match self.run_content_bytes.checked_add(bytes) {
            Some(total) if total <= max => {
                self.run_content_bytes = total;
                Ok(())
            }
            _ => Err(ProtocolError::LimitExceeded { what: "content bytes streamed in one run", limit: max }),
        }
    }

    /// Refuses a document (state, activity content) heavier or deeper than the state bound.
    /// Returns the document's weight.
    fn check_document(&self, value: &Value, what: &'static str) -> Result<usize, ProtocolError> {
        let limits = &self.limits;
        self.check_measure(
            agentui_json::size::measure_within(value, limits.max_state_bytes, limits.max_value_depth),
            what,
        )
    }

    fn check_measure(
        &self,
        measure: Result<agentui_json::size::Measure, agentui_json::size::Exceeded>,
        what: &'static str,
    ) -> Result<usize, ProtocolError> {
        let limits = &self.limits;
        match measure {
            Ok(measure) => Ok(measure.weight),
            Err(agentui_json::size::Exceeded::Weight) => {
                Err(ProtocolError::LimitExceeded { what, limit: limits.max_state_bytes })
            }
            Err(agentui_json::size::Exceeded::Depth) => Err(ProtocolError::LimitExceeded {
                what: "nesting depth of state or activity content",
                limit: limits.max_value_depth,
            }),
        }
    }

    fn patch_bounds(&self) -> PatchBounds {
        PatchBounds {
            max_weight: self.limits.max_state_bytes.min(self.limits.max_patch_result_bytes),
            max_depth: self.limits.max_value_depth,
        }
    }

    /// A patch refused for its size fails the stream; one that does not fit is a warning.
    fn patch_limit(&self, err: &PatchError) -> Option<ProtocolError> {
        err.limit_exceeded.then(|| ProtocolError::LimitExceeded {
            what: "size of a JSON Patch result in bytes",
            limit: self.patch_bounds().max_weight,
        })
    }

    pub fn conversation(&self) -> &ConversationState {
        &self.conversation
    }

    pub fn into_conversation(self) -> ConversationState {
        *self.conversation
    }

    /// Exchanges the conversation this reducer applies to with `other`. For a conversation that
    /// lives elsewhere between events (behind its observers' lock): it is swapped in for one
    /// event and out again, and must not be changed by anyone else in between, since the
    /// reducer keeps measures of it (the state's weight).
    pub fn swap_conversation(&mut self, other: &mut Box<ConversationState>) {
        std::mem::swap(&mut self.conversation, other);
    }

    pub(crate) fn warn(&mut self, kind: WarningKind, message: String) {
        self.conversation.warn(Warning::new(kind, message), self.limits.max_warnings);
    }

    pub(crate) fn warn_all(&mut self, warnings: impl IntoIterator<Item = Warning>) {
        for w in warnings {
            self.conversation.warn(w, self.limits.max_warnings);
        }
    }

    pub(crate) fn set_producer_protocol_version(&mut self, version: Option<String>) {
        self.conversation.producer_protocol_version = version;
    }

    fn guard_message_count(&self) -> Result<(), ProtocolError> {
        if self.conversation.messages.len() >= self.limits.max_messages {
            return Err(ProtocolError::LimitExceeded { what: "messages", limit: self.limits.max_messages });
        }
        Ok(())
    }

    /// Message `id` pushed at the end, as a change.
    fn push_new(&mut self, m: Message) -> Change {
        let id = m.id.clone();
        self.conversation.push_message(m);
        Change::MessageInserted { id, at: self.conversation.messages.len() - 1 }
    }

    /// Apply one verified event; says what it changed.
    pub fn apply(&mut self, event: &Event) -> Result<Change, ProtocolError> {
        let change = match event {
            Event::TextMessageStart(e) => {
                // A closed message is not sealed: a second start with its id continues it.
                let c = &mut self.conversation;
                if let Some(m) = c.message_mut(&e.message_id) {
                    merge_metadata(&mut m.metadata, &e.base.metadata);
                    Change::MessageChanged { id: e.message_id.clone() }
                } else {
                    self.guard_message_count()?;
                    let mut m = Message::new(e.message_id.clone(), e.role.role());
                    m.content = Some(MessageContent::Text(String::new()));
                    m.name = e.name.clone();
                    m.subagent_run_id = e.subagent_run_id.clone();
                    merge_metadata(&mut m.metadata, &e.base.metadata);
                    self.push_new(m)
                }
            }
            Event::TextMessageContent(TextMessageContent { message_id, delta, base, .. })
            | Event::ReasoningMessageContent(ReasoningMessageContent { message_id, delta, base, .. }) => {
                let max = self.limits.max_message_bytes;
                if self.conversation.positions.contains_key(message_id.as_str()) {
                    self.charge_content(delta.len())?;
                }
                match self.conversation.message_mut(message_id) {
                    Some(m) => {
                        append_text(&mut m.content, delta, max)?;
                        merge_metadata(&mut m.metadata, &base.metadata);
                        // Metadata merged into the message is more than an append.
                        match base.metadata {
                            None => Change::TextAppended,
                            Some(_) => Change::MessageChanged { id: message_id.clone() },
                        }
                    }
                    None => {
                        self.warn(WarningKind::Skipped, format!("content for unknown message '{message_id}'"));
                        Change::None
                    }
                }
            }
            Event::TextMessageEnd(TextMessageEnd { message_id, base, .. })
            | Event::ReasoningMessageEnd(ReasoningMessageEnd { message_id, base, .. }) => {
                match self.conversation.message_mut(message_id) {
                    Some(m) if base.metadata.is_some() => {
                        merge_metadata(&mut m.metadata, &base.metadata);
                        Change::MessageChanged { id: message_id.clone() }
                    }
                    _ => Change::None,
                }
            }
            Event::ReasoningMessageStart(e) => {
                if let Some(m) = self.conversation.message_mut(&e.message_id) {
                    merge_metadata(&mut m.metadata, &e.base.metadata);
                    Change::MessageChanged { id: e.message_id.clone() }
                } else {
                    self.guard_message_count()?;
                    let mut m = Message::new(e.message_id.clone(), Role::Reasoning);
                    m.content = Some(MessageContent::Text(String::new()));
                    m.subagent_run_id = e.subagent_run_id.clone();
                    merge_metadata(&mut m.metadata, &e.base.metadata);
                    self.push_new(m)
                }
            }
            Event::ToolCallStart(e) => self.tool_call_start(e)?,
            Event::ToolCallArgs(e) => {
                let max = self.limits.max_tool_args_bytes;
                if self.live_call_mut(&e.tool_call_id).is_some() {
                    self.charge_content(e.delta.len())?;
                }
                match self.live_call_mut(&e.tool_call_id) {
                    Some(call) => {
                        if call.function.arguments.len() + e.delta.len() > max {
                            return Err(ProtocolError::LimitExceeded {
                                what: "bytes of tool call arguments",
                                limit: max,
                            });
                        }
                        call.function.arguments.push_str(&e.delta);
                        merge_metadata(&mut call.metadata, &e.base.metadata);
                        let message_id = self.carrier(&e.tool_call_id);
                        match e.base.metadata {
                            None => Change::ArgumentsAppended { message_id },
                            Some(_) => Change::MessageChanged { id: message_id },
                        }
                    }
                    None => Change::None,
                }
            }
            Event::ToolCallEnd(e) => {
                let changed = match self.live_call_mut(&e.tool_call_id) {
                    Some(call) if e.base.metadata.is_some() => {
                        merge_metadata(&mut call.metadata, &e.base.metadata);
                        true
                    }
                    _ => false,
                };
                if let Some(r) = self.conversation.tool_call_record_mut(&e.tool_call_id) {
                    if r.status == ToolCallStatus::Streaming {
                        r.status = ToolCallStatus::Requested;
                    }
                }
                if changed {
                    Change::MessageChanged { id: self.carrier(&e.tool_call_id) }
                } else {
                    Change::None
                }
            }
            Event::ToolCallResult(e) => self.tool_call_result(e)?,
            Event::StateSnapshot(e) => {
                let weight = self.check_document(&e.snapshot, "state size in bytes")?;
                self.conversation.state = e.snapshot.clone();
                self.state_weight = Some(weight);
                self.conversation.needs_resync = false;
                Change::StateReplaced
            }
            Event::StateDelta(e) => {
                self.guard_patch(&e.delta)?;
                let bounds = self.patch_bounds();
                match apply_patch_weighed(&mut self.conversation.state, self.state_weight, &e.delta, bounds) {
                    Ok(weight) => {
                        self.state_weight = Some(weight);
                        Change::StatePatched
                    }
                    Err(err) => {
                        if let Some(limit) = self.patch_limit(&err) {
                            // The state is unchanged and the run fails: the agent asked for more
                            // than this client holds, which is not a divergence to resync.
                            return Err(limit);
                        }
                        self.conversation.needs_resync = true;
                        self.warn(
                            WarningKind::PatchNotApplied,
                            format!("Failed to apply state patch: {err}; the previous state is kept until a snapshot"),
                        );
                        Change::StateDiverged
                    }
                }
            }
            Event::MessagesSnapshot(e) => {
                self.messages_snapshot(&e.messages)?;
                Change::MessagesReset
            }
            Event::ActivitySnapshot(e) => self.activity_snapshot(e)?,
            Event::ActivityDelta(e) => self.activity_delta(e)?,
            Event::ReasoningEncryptedValue(e) => self.encrypted_value(e),
            Event::RunStarted(e) => {
                self.current_run_id = Some(e.run_id.clone());
                self.run_content_bytes = 0;
                self.conversation.run = RunStatus::Running { thread_id: e.thread_id.clone(), run_id: e.run_id.clone() };
                self.conversation.interrupts.clear();
                if let Some(input) = &e.input {
                    for m in &input.messages {
                        if !self.conversation.positions.contains_key(&m.id) {
                            self.guard_message_count()?;
                        }
                        self.conversation.insert_history_message(m.clone());
                    }
                    Change::MessagesReset
                } else {
                    Change::None
                }
            }
            Event::RunFinished(e) => {
                self.conversation.interrupts = match &e.outcome {
                    Some(RunOutcome::Interrupt { interrupts }) => interrupts.clone(),
                    _ => Vec::new(),
                };
                self.conversation.run = RunStatus::Finished {
                    thread_id: e.thread_id.clone(),
                    run_id: e.run_id.clone(),
                    outcome: e.outcome.clone(),
                    result: e.result.clone(),
                };
                Change::None
            }
            Event::RunError(e) => {
                let report = RunErrorReport { message: e.message.clone(), code: e.code.clone() };
                self.conversation.run = RunStatus::Errored { message: e.message.clone(), code: e.code.clone() };
                self.conversation.run_errors.push(report);
                Change::None
            }
            Event::SubagentStarted(e) => {
                self.conversation.subagents.push(SubagentRecord {
                    subagent_run_id: e.subagent_run_id.clone(),
                    name: e.name.clone(),
                    status: SubagentStatus::Running,
                });
                Change::None
            }
            Event::SubagentFinished(e) => {
                self.set_subagent(&e.subagent_run_id, SubagentStatus::Finished { outcome: e.outcome.clone() });
                Change::None
            }
            Event::SubagentError(e) => {
                let status = SubagentStatus::Failed { message: e.message.clone(), code: e.code.clone() };
                self.set_subagent(&e.subagent_run_id, status);
                Change::None
            }
            // Spans, steps and pass-through events change no conversation value.
            Event::ReasoningStart(_)
            | Event::ReasoningEnd(_)
            | Event::StepStarted(_)
            | Event::StepFinished(_)
            | Event::Raw(_)
            | Event::Custom(_) => Change::None,
            // Chunks are expanded before they reach the reducer.
            Event::TextMessageChunk(_) | Event::ToolCallChunk(_) | Event::ReasoningMessageChunk(_) => Change::None,
        };
        Ok(change)
    }

    /// The id of the message that carries tool call `id` (empty when none does).
    fn carrier(&self, id: &str) -> String {
        self.conversation.tool_call(id).map(|r| r.message_id.clone()).unwrap_or_default()
    }

    fn set_subagent(&mut self, id: &str, status: SubagentStatus) {
        if let Some(r) = self.conversation.subagents.iter_mut().rev().find(|r| r.subagent_run_id == id) {
            r.status = status;
        }
    }

    fn guard_patch(&self, ops: &[PatchOperation]) -> Result<(), ProtocolError> {
        if ops.len() > self.limits.max_patch_operations {
            return Err(ProtocolError::LimitExceeded {
                what: "operations in one patch",
                limit: self.limits.max_patch_operations,
            });
        }
        Ok(())
    }

    /// The tool call `id` inside its carrying message.
    fn live_call_mut(&mut self, id: &str) -> Option<&mut ToolCall> {
        let c = &mut self.conversation;
        let record = c.tool_calls.get(*c.tool_call_positions.get(id)?)?;
        let at = *c.positions.get(record.message_id.as_str())?;
        c.messages.get_mut(at)?.tool_calls.as_mut()?.iter_mut().find(|call| call.id == id)
    }

    fn tool_call_start(&mut self, e: &ToolCallStart) -> Result<Change, ProtocolError> {
        let c = &mut self.conversation;
        // Attach to the named assistant message; otherwise create one (keyed by the parent id,
        // or by the call id when there is none or the name belongs to a non-assistant message).
        let parent = e.parent_message_id.as_deref().and_then(|p| c.message(p).map(|m| (p, m.role)));
        let message_id = match (e.parent_message_id.as_deref(), parent) {
            (_, Some((p, Role::Assistant))) => p.to_owned(),
            (Some(p), None) => p.to_owned(),
            _ => e.tool_call_id.clone(),
        };
        let created = !self.conversation.positions.contains_key(&message_id);
        if created {
            self.guard_message_count()?;
            let mut m = Message::new(message_id.clone(), Role::Assistant);
            m.subagent_run_id = e.subagent_run_id.clone();
            self.conversation.push_message(m);
        }
        let Some(message) = self.conversation.message_mut(&message_id) else { return Ok(Change::None) };
        let calls = message.tool_calls.get_or_insert_with(Vec::new);
        match calls.iter_mut().find(|c| c.id == e.tool_call_id) {
            Some(existing) => merge_metadata(&mut existing.metadata, &e.base.metadata),
            None => calls.push(ToolCall {
                id: e.tool_call_id.clone(),
                kind: ToolCallKind::Function,
                function: FunctionCall { name: e.tool_call_name.clone(), arguments: String::new() },
                encrypted_value: None,
                encrypted_value_type: None,
                metadata: e.base.metadata.as_deref().cloned(),
            }),
        }
        let run_id = self.current_run_id.clone();
        self.conversation.record_tool_call(ToolCallRecord {
            tool_call_id: e.tool_call_id.clone(),
            tool_name: e.tool_call_name.clone(),
            message_id: message_id.clone(),
            status: ToolCallStatus::Streaming,
            origin: ToolCallOrigin::Live { run_id },
            subagent_run_id: e.subagent_run_id.clone(),
        });
        Ok(match self.conversation.position(&message_id) {
            Some(at) if created => Change::MessageInserted { id: message_id, at },
            _ => Change::MessageChanged { id: message_id },
        })
    }

    fn tool_call_result(&mut self, e: &ToolCallResult) -> Result<Change, ProtocolError> {
        let bytes = match &e.content {
            ToolResultContent::Text(s) => s.len(),
            ToolResultContent::Parts(parts) => {
                self.check_media_parts(parts)?;
                parts.iter().map(part_bytes).fold(0, usize::saturating_add)
            }
        };
        self.charge_content(bytes)?;
        let mut m = Message::new(e.message_id.clone(), Role::Tool);
        m.tool_call_id = Some(e.tool_call_id.clone());
        m.content = Some(match &e.content {
            ToolResultContent::Text(s) => MessageContent::Text(s.clone()),
            ToolResultContent::Parts(p) => MessageContent::Parts(p.clone()),
        });
        m.subagent_run_id = e.subagent_run_id.clone();
        let c = &mut self.conversation;
        let change = if let Some(&i) = c.positions.get(&e.message_id) {
            c.messages[i] = m;
            Change::MessageChanged { id: e.message_id.clone() }
        } else {
            self.guard_message_count()?;
            let c = &mut self.conversation;
            // Right after the calling assistant message and any results already placed there,
            // so the history reads call → result even if text streamed in between.
            let owner = c.tool_call(&e.tool_call_id).and_then(|r| c.positions.get(&r.message_id).copied());
            match owner {
                Some(i) => {
                    let mut at = i + 1;
                    while at < c.messages.len() && c.messages[at].role == Role::Tool {
                        at += 1;
                    }
                    c.insert_message_at(at, m);
                }
                None => c.push_message(m),
            }
            let at = c.position(&e.message_id).unwrap_or(c.messages.len() - 1);
            Change::MessageInserted { id: e.message_id.clone(), at }
        };
        let result_message_id = e.message_id.clone();
        if let Some(r) = self.conversation.tool_call_record_mut(&e.tool_call_id) {
            r.status = ToolCallStatus::Completed { result_message_id };
        }
        Ok(change)
    }

    /// Refuses a message from the agent with more media parts than the limit.
    fn check_media_parts(&self, parts: &[ContentPart]) -> Result<(), ProtocolError> {
        let max = self.limits.max_media_parts;
        if parts.iter().filter(|p| !matches!(p, ContentPart::Text(_))).count() > max {
            return Err(ProtocolError::LimitExceeded { what: "media parts in one message", limit: max });
        }
        Ok(())
    }

    fn messages_snapshot(&mut self, incoming: &[Message]) -> Result<(), ProtocolError> {
        if incoming.len() > self.limits.max_messages {
            return Err(ProtocolError::LimitExceeded { what: "messages", limit: self.limits.max_messages });
        }
        let adopted = self.keep_users_parts(incoming);
        let incoming: Vec<&Message> = adopted.iter().map(|m| &**m).collect();
        // A message the snapshot adds or changes is bounded like a tool result; one it repeats
        // as this client holds it (the user's own, with its attachments) is not refused again.
        for m in &incoming {
            let Some(MessageContent::Parts(parts)) = &m.content else { continue };
            let held = self.conversation.message(&m.id).is_some_and(|have| have.content == m.content);
            if !held {
                self.check_media_parts(parts)?;
            }
        }
        // Client-only roles survive unless the snapshot itself carries that role.
        let carries_activity = incoming.iter().any(|m| m.role == Role::Activity);
        let carries_reasoning = incoming.iter().any(|m| m.role == Role::Reasoning);
        let mut by_id: HashMap<&str, &Message> = incoming.iter().map(|m| (m.id.as_str(), *m)).collect();
        let mut kept = Vec::with_capacity(self.conversation.messages.len().max(incoming.len()));
        for m in self.conversation.messages.drain(..) {
            if let Some(replacement) = by_id.remove(m.id.as_str()) {
                kept.push(replacement.clone());
            } else if (m.role == Role::Activity && !carries_activity)
                || (m.role == Role::Reasoning && !carries_reasoning)
            {
                kept.push(m);
            }
        }
        for m in &incoming {
            if by_id.remove(m.id.as_str()).is_some() {
                kept.push((*m).clone());
            }
        }
        self.conversation.messages = kept;
        self.conversation.reindex_all();
        for m in &incoming {
            // The agent holds what its own snapshot carries.
            self.conversation.local_only.remove(&m.id);
            self.conversation.note_history(m);
        }
        let positions = &self.conversation.positions;
        self.conversation.local_only.retain(|id, _| positions.contains_key(id));
        Ok(())
    }

    /// The snapshot's messages, a user message this client holds keeping the media the user
    /// sent ([`users_parts`]); a warning names what the snapshot's copy lacked.
    fn keep_users_parts<'a>(&mut self, incoming: &'a [Message]) -> Vec<Cow<'a, Message>> {
        let mut adopted = Vec::with_capacity(incoming.len());
        for m in incoming {
            let kept = self.conversation.message(&m.id).and_then(|held| users_parts::keep_users_parts(held, m));
            let content = match kept {
                None => {
                    adopted.push(Cow::Borrowed(m));
                    continue;
                }
                Some(users_parts::Kept::PartByPart(content)) => content,
                Some(users_parts::Kept::Whole(content, missing)) => {
                    self.warn(
                        WarningKind::Skipped,
                        format!(
                            "MESSAGES_SNAPSHOT carries the user's message '{}' without its {} part(s) (missing or unreadable); the app's own parts are kept",
                            m.id,
                            missing.join(", ")
                        ),
                    );
                    content
                }
            };
            adopted.push(Cow::Owned(Message { content: Some(content), ..m.clone() }));
        }
        adopted
    }

    fn activity_snapshot(&mut self, e: &ActivitySnapshot) -> Result<Change, ProtocolError> {
        let limits = &self.limits;
        let measure =
            agentui_json::size::measure_members_within(&e.content, limits.max_state_bytes, limits.max_value_depth);
        self.check_measure(measure, "activity content size in bytes")?;
        let replace = e.replace.unwrap_or(true);
        let mut fresh = Message::new(e.message_id.clone(), Role::Activity);
        fresh.activity_type = Some(e.activity_type.clone());
        fresh.content = Some(MessageContent::Object(e.content.clone()));
        fresh.subagent_run_id = e.subagent_run_id.clone();
        let id = e.message_id.clone();
        Ok(match self.conversation.message_mut(&e.message_id) {
            None => {
                self.guard_message_count()?;
                self.push_new(fresh)
            }
            // replace:false leaves an existing message exactly as it is, type and content.
            Some(_) if !replace => Change::None,
            Some(existing) if existing.role == Role::Activity => {
                existing.activity_type = fresh.activity_type;
                existing.content = fresh.content;
                Change::MessageChanged { id }
            }
            Some(existing) => {
                *existing = fresh;
                Change::MessageChanged { id }
            }
        })
    }

    fn activity_delta(&mut self, e: &ActivityDelta) -> Result<Change, ProtocolError> {
        self.guard_patch(&e.patch)?;
        let bounds = self.patch_bounds();
        let mut refused = None;
        let outcome = match self.conversation.message_mut(&e.message_id) {
            None => Err(format!("ACTIVITY_DELTA for '{}' skipped: no such activity message", e.message_id)),
            Some(m) if m.role != Role::Activity => {
                Err(format!("ACTIVITY_DELTA for '{}' skipped: it is not an activity message", e.message_id))
            }
            Some(m) => {
                let mut content = match m.content.take() {
                    Some(MessageContent::Object(o)) => Value::Object(o),
                    _ => Value::Object(Map::new()),
                };
                let result = apply_patch_within(&mut content, &e.patch, bounds);
                m.content = Some(match content {
                    Value::Object(o) => MessageContent::Object(o),
                    // A patch that replaced the root with a non-object: keep it as-is but boxed.
                    other => MessageContent::Object(Map::from_iter([("value".to_owned(), other)])),
                });
                match result {
                    Ok(()) => {
                        m.activity_type = Some(e.activity_type.clone());
                        Ok(())
                    }
                    Err(err) if err.limit_exceeded => {
                        refused = Some(err);
                        Ok(())
                    }
                    Err(err) => Err(format!("Failed to apply activity patch for '{}': {err}", e.message_id)),
                }
            }
        };
        if let Some(err) = refused {
            return Err(self.patch_limit(&err).unwrap_or(ProtocolError::LimitExceeded {
                what: "size of a JSON Patch result in bytes",
                limit: bounds.max_weight,
            }));
        }
        match outcome {
            // A failed patch leaves the content as it was, but the message is told whole anyway:
            // the patch is applied to a copy that is put back either way.
            Ok(()) => Ok(Change::MessageChanged { id: e.message_id.clone() }),
            Err(message) => {
                let failed = message.starts_with("Failed");
                let kind = if failed { WarningKind::PatchNotApplied } else { WarningKind::Skipped };
                self.warn(kind, message);
                Ok(if failed { Change::MessageChanged { id: e.message_id.clone() } } else { Change::None })
            }
        }
    }

    fn encrypted_value(&mut self, e: &ReasoningEncryptedValue) -> Change {
        // An entity the conversation does not hold is dropped, as the spec permits.
        match e.subtype {
            EncryptedValueSubtype::Message => match self.conversation.message_mut(&e.entity_id) {
                Some(m) => {
                    m.encrypted_value = Some(e.encrypted_value.clone());
                    m.encrypted_value_type = e.encrypted_value_type.clone();
                    Change::MessageChanged { id: e.entity_id.clone() }
                }
                None => Change::None,
            },
            EncryptedValueSubtype::ToolCall => match self.live_call_mut(&e.entity_id) {
                Some(call) => {
                    call.encrypted_value = Some(e.encrypted_value.clone());
                    call.encrypted_value_type = e.encrypted_value_type.clone();
                    Change::MessageChanged { id: self.carrier(&e.entity_id) }
                }
                None => Change::None,
            },
        }
    }
}
