//! The stream verifier: the 1.1 sequencing rules, checked over expanded events.
//!
//! - The first event is `RUN_STARTED` (or `RUN_ERROR`: a run may fail before it begins).
//! - A run is not nested; after `RUN_FINISHED` only `RUN_STARTED` (a new run) or a late
//!   `RUN_ERROR` may follow; after `RUN_ERROR` only a new `RUN_STARTED`.
//! - Messages, tool calls, reasoning messages and spans, steps and subagents are opened before
//!   they continue and closed before the run finishes.
//! - A continuation's `subagentRunId` never disagrees with its opener's (absent always agrees).

use std::collections::HashSet as StdHashSet;

use foldhash::{HashMap, HashSet};

use crate::error::ProtocolError;
use crate::event::*;
use crate::limits::Limits;
use crate::message::{Message, Role, RunOutcome};

type Owner = Option<String>;

/// Tracks what is open in the current run and rejects events that break the sequencing rules.
#[derive(Debug, Default)]
pub struct StreamVerifier {
    first_event_seen: bool,
    run_started: bool,
    run_finished: bool,
    run_errored: bool,
    active_messages: HashSet<String>,
    active_tool_calls: HashSet<String>,
    active_reasoning_spans: HashSet<String>,
    active_reasoning_messages: HashSet<String>,
    // Owners outlive the close of their entity: a late continuation is still checked.
    message_owners: HashMap<String, Owner>,
    tool_call_owners: HashMap<String, Owner>,
    activity_owners: HashMap<String, Owner>,
    reasoning_owners: HashMap<String, Owner>,
    active_steps: HashMap<Owner, HashSet<String>>,
    // Kept in start order so an error lists them the way they were opened.
    active_subagents: Vec<String>,
    closed_subagents: HashSet<String>,
    limits: Limits,
    /// The run id of the open (or last) `RUN_STARTED`: its terminal event must close that run.
    run_id: Option<String>,
    /// The thread of the stream's first `RUN_STARTED`; every run of one stream is on it.
    thread_id: Option<String>,
    /// The `threadId` of the input this stream answers, when the verifier knows it.
    input_thread_id: Option<String>,
}

fn describe(owner: &Owner) -> String {
    owner.as_deref().map_or_else(|| "(the parent agent)".to_owned(), |o| format!("'{o}'"))
}

fn sorted(set: &HashSet<String>) -> String {
    let mut ids: Vec<&str> = set.iter().map(String::as_str).collect();
    ids.sort_unstable();
    ids.join(", ")
}

/// A tagged continuation must agree with its entity's recorded owner.
fn check_owner(
    event_type: &str,
    tag: Option<&str>,
    owner: Option<&Owner>,
    entity: &str,
    id: &str,
) -> Result<(), ProtocolError> {
    match (tag, owner) {
        (Some(tag), Some(owner)) if owner.as_deref() != Some(tag) => Err(ProtocolError::sequence(format!(
            "Cannot send '{event_type}': subagentRunId '{tag}' does not match the {entity} '{id}' opener's subagent {}.",
            describe(owner)
        ))),
        _ => Ok(()),
    }
}

impl StreamVerifier {
    pub fn new(limits: Limits) -> Self {
        StreamVerifier { limits, ..Default::default() }
    }

    /// Whether the last run was closed by `RUN_FINISHED` or `RUN_ERROR`.
    pub fn run_closed(&self) -> bool {
        self.run_finished || self.run_errored
    }

    /// The text and reasoning messages and the tool calls opened and not yet closed: what a
    /// stream cut off now leaves incomplete.
    pub fn open_entities(&self) -> (impl Iterator<Item = &str>, impl Iterator<Item = &str>) {
        let messages = self.active_messages.iter().chain(&self.active_reasoning_messages).map(String::as_str);
        (messages, self.active_tool_calls.iter().map(String::as_str))
    }

    /// Whether a run is open (started and not yet finished or errored).
    pub fn run_active(&self) -> bool {
        self.run_started && !self.run_closed()
    }

    /// A verifier for the answer to an input on thread `thread_id`: every run in the stream must
    /// be on that thread.
    pub fn for_input_thread(limits: Limits, thread_id: &str) -> Self {
        StreamVerifier { limits, input_thread_id: Some(thread_id.to_owned()), ..Default::default() }
    }

    fn reset_run(&mut self) {
        let limits = self.limits;
        let thread_id = self.thread_id.take();
        let input_thread_id = self.input_thread_id.take();
        *self = StreamVerifier {
            limits,
            first_event_seen: true,
            run_started: true,
            thread_id,
            input_thread_id,
            ..Default::default()
        };
    }

    /// Run identity (`/basic/run-input`): one stream stays on one thread, the input's when it
    /// is known, and a run's terminal event names the run it closes.
    fn check_run_identity(&mut self, event: &Event) -> Result<(), ProtocolError> {
        match event {
            Event::RunStarted(e) => {
                if let Some(expected) = &self.input_thread_id {
                    if *expected != e.thread_id {
                        return Err(ProtocolError::sequence(format!(
                            "'RUN_STARTED' is on thread '{}' but the input was sent on thread '{expected}'",
                            e.thread_id
                        )));
                    }
                }
                if let Some(first) = &self.thread_id {
                    if *first != e.thread_id {
                        return Err(ProtocolError::sequence(format!(
                            "a second 'RUN_STARTED' switches the stream from thread '{first}' to thread '{}'",
                            e.thread_id
                        )));
                    }
                }
                self.thread_id = Some(e.thread_id.clone());
                self.run_id = Some(e.run_id.clone());
            }
            Event::RunFinished(e) => {
                if let Some(run_id) = self.run_id.as_ref().filter(|r| **r != e.run_id) {
                    return Err(ProtocolError::sequence(format!(
                        "'RUN_FINISHED' closes run '{}' but the open run is '{run_id}'",
                        e.run_id
                    )));
                }
                if let Some(thread_id) = self.thread_id.as_ref().filter(|t| **t != e.thread_id) {
                    return Err(ProtocolError::sequence(format!(
                        "'RUN_FINISHED' is on thread '{}' but its run is on thread '{thread_id}'",
                        e.thread_id
                    )));
                }
                if let Some(RunOutcome::Interrupt { interrupts }) = &e.outcome {
                    let mut ids = StdHashSet::new();
                    if let Some(dup) = interrupts.iter().find(|i| !ids.insert(i.id.as_str())) {
                        return Err(ProtocolError::sequence(format!(
                            "'RUN_FINISHED' lists interrupt '{}' twice; interrupt ids are unique within an outcome",
                            dup.id
                        )));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn tracked(&self) -> usize {
        self.message_owners.len()
            + self.tool_call_owners.len()
            + self.activity_owners.len()
            + self.reasoning_owners.len()
            + self.closed_subagents.len()
            + self.active_subagents.len()
    }

    fn guard_size(&self) -> Result<(), ProtocolError> {
        if self.tracked() >= self.limits.max_tracked_ids {
            return Err(ProtocolError::LimitExceeded {
                what: "ids tracked in one run",
                limit: self.limits.max_tracked_ids,
            });
        }
        Ok(())
    }

    /// Record the owners of replayed history so later events cannot reopen it under another owner.
    fn seed_owners(&mut self, messages: &[Message], authoritative: bool) {
        for m in messages {
            let bucket = match m.role {
                Role::Reasoning => &mut self.reasoning_owners,
                Role::Activity => &mut self.activity_owners,
                _ => &mut self.message_owners,
            };
            if authoritative || !bucket.contains_key(&m.id) {
                bucket.insert(m.id.clone(), m.subagent_run_id.clone());
            }
            for call in m.tool_calls.iter().flatten() {
                if authoritative || !self.tool_call_owners.contains_key(&call.id) {
                    self.tool_call_owners.insert(call.id.clone(), m.subagent_run_id.clone());
                }
            }
        }
    }

    /// Check one event against the rules and record what it opens or closes.
    pub fn check(&mut self, event: &Event) -> Result<(), ProtocolError> {
        let event_type = event.type_name();
        let is_run_started = matches!(event, Event::RunStarted(_));
        if self.run_errored && !is_run_started {
            return Err(ProtocolError::sequence(format!(
                "Cannot send event type '{event_type}': The run has already errored with 'RUN_ERROR'. No further events can be sent."
            )));
        }
        if self.run_finished && !is_run_started && !matches!(event, Event::RunError(_)) {
            return Err(ProtocolError::sequence(format!(
                "Cannot send event type '{event_type}': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'."
            )));
        }
        if !self.first_event_seen {
            self.first_event_seen = true;
            if !is_run_started && !matches!(event, Event::RunError(_)) {
                return Err(ProtocolError::sequence(format!(
                    "First event must be 'RUN_STARTED' (or 'RUN_ERROR'), received '{event_type}'"
                )));
            }
        } else if is_run_started {
            if self.run_active() {
                return Err(ProtocolError::sequence(
                    "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.",
                ));
            }
            if self.run_closed() {
                self.reset_run();
            }
        }
        self.check_run_identity(event)?;
        let tag = event.attribution();
        self.guard_size()?;
        match event {
            Event::TextMessageStart(e) => {
                let id = &e.message_id;
                if self.active_messages.contains(id) {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '{id}' is already in progress. Complete it with 'TEXT_MESSAGE_END' first."
                    )));
                }
                check_owner(event_type, tag, self.message_owners.get(id), "message", id)?;
                self.active_messages.insert(id.clone());
                self.message_owners.entry(id.clone()).or_insert_with(|| tag.map(str::to_owned));
            }
            Event::TextMessageContent(TextMessageContent { message_id: id, .. })
            | Event::TextMessageEnd(TextMessageEnd { message_id: id, .. }) => {
                if !self.active_messages.contains(id) {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send '{event_type}' event: No active text message found with ID '{id}'. Start a text message with 'TEXT_MESSAGE_START' first."
                    )));
                }
                check_owner(event_type, tag, self.message_owners.get(id), "message", id)?;
                if matches!(event, Event::TextMessageEnd(_)) {
                    self.active_messages.remove(id);
                }
            }
            Event::ToolCallStart(e) => self.tool_call_start(e)?,
            Event::ToolCallArgs(ToolCallArgs { tool_call_id: id, .. })
            | Event::ToolCallEnd(ToolCallEnd { tool_call_id: id, .. }) => {
                if !self.active_tool_calls.contains(id) {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send '{event_type}' event: No active tool call found with ID '{id}'. Start a tool call with 'TOOL_CALL_START' first."
                    )));
                }
                check_owner(event_type, tag, self.tool_call_owners.get(id), "tool call", id)?;
                if matches!(event, Event::ToolCallEnd(_)) {
                    self.active_tool_calls.remove(id);
                }
            }
            Event::ToolCallResult(e) => {
                // A result mints a tool message; newest mint owns the id.
                self.message_owners.insert(e.message_id.clone(), tag.map(str::to_owned));
            }
            Event::StepStarted(e) => {
                let owner: Owner = tag.map(str::to_owned);
                let steps = self.active_steps.entry(owner).or_default();
                if !steps.insert(e.step_name.clone()) {
                    return Err(ProtocolError::sequence(format!(
                        "Step \"{}\" is already active for 'STEP_STARTED'",
                        e.step_name
                    )));
                }
            }
            Event::StepFinished(e) => {
                let owner: Owner = tag.map(str::to_owned);
                let removed = self.active_steps.get_mut(&owner).is_some_and(|s| s.remove(&e.step_name));
                if !removed {
                    let other = self
                        .active_steps
                        .iter()
                        .find(|(o, names)| **o != owner && names.contains(&e.step_name))
                        .map(|(o, _)| o.clone());
                    return Err(ProtocolError::sequence(match other {
                        Some(other) => format!(
                            "Cannot send 'STEP_FINISHED' for step \"{}\" attributed to {}: that step is open under {}. A step must be finished by whoever started it.",
                            e.step_name,
                            describe(&owner),
                            describe(&other)
                        ),
                        None => format!("Cannot send 'STEP_FINISHED' for step \"{}\" that was not started", e.step_name),
                    }));
                }
            }
            Event::ActivitySnapshot(e) => {
                // Only a replacing snapshot re-owns an existing activity.
                let known = self.activity_owners.contains_key(&e.message_id);
                if !known || e.replace != Some(false) {
                    self.activity_owners.insert(e.message_id.clone(), tag.map(str::to_owned));
                }
            }
            Event::ActivityDelta(e) => {
                check_owner(event_type, tag, self.activity_owners.get(&e.message_id), "activity", &e.message_id)?;
            }
            Event::ReasoningStart(ReasoningStart { message_id: id, .. })
            | Event::ReasoningMessageStart(ReasoningMessageStart { message_id: id, .. }) => {
                let span = matches!(event, Event::ReasoningStart(_));
                let open = if span { &self.active_reasoning_spans } else { &self.active_reasoning_messages };
                if open.contains(id) {
                    let what = if span { "reasoning span" } else { "reasoning message" };
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send '{event_type}' event: A {what} with ID '{id}' is already in progress."
                    )));
                }
                check_owner(event_type, tag, self.reasoning_owners.get(id), "reasoning message", id)?;
                if span {
                    self.active_reasoning_spans.insert(id.clone());
                } else {
                    self.active_reasoning_messages.insert(id.clone());
                }
                self.reasoning_owners.entry(id.clone()).or_insert_with(|| tag.map(str::to_owned));
            }
            Event::ReasoningMessageContent(ReasoningMessageContent { message_id: id, .. })
            | Event::ReasoningMessageEnd(ReasoningMessageEnd { message_id: id, .. })
            | Event::ReasoningEnd(ReasoningEnd { message_id: id, .. }) => {
                let span = matches!(event, Event::ReasoningEnd(_));
                let open = if span { &self.active_reasoning_spans } else { &self.active_reasoning_messages };
                if !open.contains(id) {
                    return Err(ProtocolError::sequence(if span {
                        format!("Cannot send 'REASONING_END' event: No active reasoning span found with ID '{id}'. A 'REASONING_START' event must be sent first.")
                    } else {
                        format!("Cannot send '{event_type}' event: No active reasoning message found with ID '{id}'. Start a reasoning message with 'REASONING_MESSAGE_START' first.")
                    }));
                }
                check_owner(event_type, tag, self.reasoning_owners.get(id), "reasoning message", id)?;
                match event {
                    Event::ReasoningEnd(_) => {
                        self.active_reasoning_spans.remove(id);
                    }
                    Event::ReasoningMessageEnd(_) => {
                        self.active_reasoning_messages.remove(id);
                    }
                    _ => {}
                }
            }
            Event::ReasoningEncryptedValue(e) => {
                let (owner, entity) = match e.subtype {
                    EncryptedValueSubtype::ToolCall => (self.tool_call_owners.get(&e.entity_id), "tool call"),
                    EncryptedValueSubtype::Message => (
                        self.message_owners.get(&e.entity_id).or_else(|| self.reasoning_owners.get(&e.entity_id)),
                        "message",
                    ),
                };
                check_owner(event_type, tag, owner, entity, &e.entity_id)?;
            }
            Event::SubagentStarted(e) => {
                let id = &e.subagent_run_id;
                if self.active_subagents.contains(id) {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send 'SUBAGENT_STARTED': subagent '{id}' is already active. Finish it with 'SUBAGENT_FINISHED' first."
                    )));
                }
                if self.closed_subagents.contains(id) {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send 'SUBAGENT_STARTED': subagent '{id}' has already finished in this run. Subagent IDs are per-invocation and cannot be reused."
                    )));
                }
                if let Some(parent) = &e.parent_subagent_run_id {
                    if !self.active_subagents.contains(parent) && !self.closed_subagents.contains(parent) {
                        return Err(ProtocolError::sequence(format!(
                            "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '{parent}' has not been started in this run."
                        )));
                    }
                }
                self.active_subagents.push(id.clone());
            }
            Event::SubagentFinished(SubagentFinished { subagent_run_id: id, .. })
            | Event::SubagentError(SubagentError { subagent_run_id: id, .. }) => {
                let Some(pos) = self.active_subagents.iter().position(|s| s == id) else {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send '{event_type}': no active subagent found with ID '{id}'. A 'SUBAGENT_STARTED' event must be sent first."
                    )));
                };
                self.active_subagents.remove(pos);
                self.closed_subagents.insert(id.clone());
            }
            Event::MessagesSnapshot(e) => self.seed_owners(&e.messages, true),
            Event::RunStarted(e) => {
                self.run_started = true;
                if let Some(input) = &e.input {
                    self.seed_owners(&input.messages, false);
                }
            }
            Event::RunFinished(_) => self.run_finished_checks()?,
            Event::RunError(_) => self.run_errored = true,
            Event::StateSnapshot(_)
            | Event::StateDelta(_)
            | Event::Raw(_)
            | Event::Custom(_)
            | Event::TextMessageChunk(_)
            | Event::ToolCallChunk(_)
            | Event::ReasoningMessageChunk(_) => {}
        }
        Ok(())
    }

    fn tool_call_start(&mut self, e: &ToolCallStart) -> Result<(), ProtocolError> {
        let id = &e.tool_call_id;
        if self.active_tool_calls.contains(id) {
            return Err(ProtocolError::sequence(format!(
                "Cannot send 'TOOL_CALL_START' event: A tool call with ID '{id}' is already in progress. Complete it with 'TOOL_CALL_END' first."
            )));
        }
        let tag = e.subagent_run_id.as_deref();
        // A call lives inside its parent message and inherits that message's owner.
        let mut inherited: Option<Owner> = None;
        if let Some(parent) = &e.parent_message_id {
            if let Some(parent_owner) = self.message_owners.get(parent) {
                if let Some(tag) = tag {
                    if parent_owner.as_deref() != Some(tag) {
                        return Err(ProtocolError::sequence(format!(
                            "Cannot send 'TOOL_CALL_START': subagentRunId '{tag}' does not match its parent message '{parent}' owner {}. A tool call belongs to the message that carries it.",
                            describe(parent_owner)
                        )));
                    }
                }
                inherited = Some(parent_owner.clone());
            }
        }
        if let Some(existing) = self.tool_call_owners.get(id) {
            check_owner("TOOL_CALL_START", tag, Some(existing), "tool call", id)?;
            if let (None, Some(inherited)) = (tag, &inherited) {
                if inherited != existing {
                    return Err(ProtocolError::sequence(format!(
                        "Cannot send 'TOOL_CALL_START': tool call '{id}' is owned by {} but its parent message is owned by {}. A tool call belongs to the message that carries it.",
                        describe(existing),
                        describe(inherited)
                    )));
                }
            }
        } else {
            let owner = match tag {
                Some(t) => Some(t.to_owned()),
                None => inherited.unwrap_or(None),
            };
            self.tool_call_owners.insert(id.clone(), owner);
        }
        self.active_tool_calls.insert(id.clone());
        Ok(())
    }

    fn run_finished_checks(&mut self) -> Result<(), ProtocolError> {
        let mut open_steps: Vec<String> = self
            .active_steps
            .iter()
            .flat_map(|(owner, names)| {
                names.iter().map(move |n| match owner {
                    Some(o) => format!("{n} (subagent '{o}')"),
                    None => n.clone(),
                })
            })
            .collect();
        open_steps.sort_unstable();
        let checks: [(bool, &str, String); 6] = [
            (!open_steps.is_empty(), "steps", open_steps.join(", ")),
            (!self.active_messages.is_empty(), "text messages", sorted(&self.active_messages)),
            (!self.active_reasoning_messages.is_empty(), "reasoning messages", sorted(&self.active_reasoning_messages)),
            (!self.active_reasoning_spans.is_empty(), "reasoning spans", sorted(&self.active_reasoning_spans)),
            (!self.active_tool_calls.is_empty(), "tool calls", sorted(&self.active_tool_calls)),
            (!self.active_subagents.is_empty(), "subagents", self.active_subagents.join(", ")),
        ];
        for (open, what, ids) in checks {
            if open {
                return Err(ProtocolError::sequence(format!(
                    "Cannot send 'RUN_FINISHED' while {what} are still active: {ids}"
                )));
            }
        }
        self.run_finished = true;
        Ok(())
    }
}
