//! The session loop: one run after another until the agent is done, on one task.
//!
//! Per run: build the input (tools from the registry, resume answers, resync flag), open the
//! stream, then select over three sources in priority order: cancellation, completed tool
//! handlers, and the next events. Tool calls are dispatched at their live `TOOL_CALL_END`;
//! results are appended as tool messages once the stream is done, paired by `toolCallId` only.

use futures_util::FutureExt;
use std::collections::{HashMap, HashSet};
use std::ops::{ControlFlow, Deref, DerefMut};

use serde_json::{Map, Value};

use super::consent::{Consent, MAX_PENDING_CONSENT};
use super::executor::{result_message, result_text, InFlight, ToolFailure, ToolOutcome};
use super::interrupts::{legacy_interrupt, LEGACY_INTERRUPT_EVENT};
use super::listener::{Listeners, RunPhase, SessionUpdate, SessionWarningKind, ToolCallPhase, ToolCallUpdate};
use super::lock;
use super::policy::ToolDecision;
use super::tools::ToolInvocation;
use super::{ConversationSession, RunSummary, SessionError, ToolCallReport, STATE_RESYNC_PROP};
use crate::observe::{ConsentAnswer, ConsentRequest, ConversationDelta};
use crate::shared_conversation::{lock_noted, SharedConversation};
use agentui_agui::compat::PeerEra;
use agentui_agui::event::*;
use agentui_agui::input::{encode_run_agent_input_with, RunRequest};
use agentui_agui::message::{Interrupt, Message, RunOutcome};
use agentui_agui::pipeline::EventPipeline;
use agentui_agui::reducer::{Change, ConversationState, LocalOnly, RunStatus, ToolCallOrigin, ToolCallStatus};
use agentui_agui::transport::{CancelToken, ReceivedEvent, RunStream, TransportError, Truncation, RELEASE_GRACE};

/// Events one batch holds at most, so a fast stream still ends a batch (and a store writes)
/// every so often.
const MAX_BATCH_EVENTS: usize = 256;

/// One run's stream, applying its events to the session's conversation in place (no copy per
/// run). If the run's future is dropped, or a panic unwinds it, mid-stream, the messages it
/// left incomplete are kept local as after a cancel, so they are never sent as complete.
struct OpenStream {
    stream: RunStream,
    conversation: SharedConversation,
    listeners: Listeners,
    /// Set once the run ended normally: nothing to mark then.
    ended: bool,
}

impl Deref for OpenStream {
    type Target = RunStream;
    fn deref(&self) -> &RunStream {
        &self.stream
    }
}

impl DerefMut for OpenStream {
    fn deref_mut(&mut self) -> &mut RunStream {
        &mut self.stream
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let mut conversation = self.conversation.lock();
        for id in self.stream.open_message_ids_in(&conversation) {
            if conversation.message(&id).is_some() && conversation.local_only(&id).is_none() {
                conversation.keep_local(&id, LocalOnly::Cancelled);
                let reason = LocalOnly::Cancelled;
                self.listeners.delta(ConversationDelta::MessageKeptLocal { message_id: id, reason });
            }
        }
        drop(conversation);
        self.listeners.batch_end();
    }
}

/// How one run ended.
enum RunEnd {
    Finished { run_id: String, outcome: Option<RunOutcome> },
    AgentError { message: String, code: Option<String> },
    Failed(TransportError),
    Cancelled,
}

/// What the loop tracks while one run streams.
struct RunContext {
    /// Tool names this run's input declared: the only calls the client answers.
    declared: HashSet<String>,
    /// Text and reasoning messages opened and not yet closed (cut short if the run is cancelled).
    open_messages: HashSet<String>,
    /// Tool results that matched no call: kept local.
    orphan_results: Vec<String>,
    /// Interrupts announced on the legacy `on_interrupt` channel.
    legacy_interrupts: Vec<Interrupt>,
    /// Call ids the conversation held before the run: history, never executed.
    known_before: HashSet<String>,
    /// Call ids that arrived as history during the run (snapshots, the input echo).
    history_ids: HashSet<String>,
    /// Live calls in `TOOL_CALL_START` order, with their tool names.
    started: Vec<(String, String)>,
    /// Calls the client took in this run.
    claimed: HashSet<String>,
    /// Calls of this run put to the user: answered by `answer_consent`, not when the run ends.
    awaiting_consent: HashSet<String>,
    /// Duplicates and replays that were not run.
    skipped: HashSet<String>,
    outcomes: HashMap<String, ToolOutcome>,
    in_flight: InFlight,
    warnings_seen: usize,
    resync_reported: bool,
    /// Messages changed by an SSE event that expanded to several events (a chunk), and whether
    /// the group added them: told as whole messages once the event is applied, since the
    /// conversation shows only the end result of the group.
    touched: Vec<(String, bool)>,
    state_touched: bool,
    /// The phase changed while the conversation was locked: the batch ends once it is released.
    batch_ended: bool,
}

impl RunContext {
    fn new(conversation: &ConversationState, declared: HashSet<String>) -> Self {
        RunContext {
            declared,
            open_messages: HashSet::new(),
            orphan_results: Vec::new(),
            legacy_interrupts: Vec::new(),
            known_before: conversation.tool_calls().iter().map(|r| r.tool_call_id.clone()).collect(),
            history_ids: HashSet::new(),
            started: Vec::new(),
            claimed: HashSet::new(),
            awaiting_consent: HashSet::new(),
            skipped: HashSet::new(),
            outcomes: HashMap::new(),
            in_flight: InFlight::default(),
            warnings_seen: conversation.warnings().len(),
            resync_reported: conversation.needs_resync(),
            touched: Vec::new(),
            state_touched: false,
            batch_ended: false,
        }
    }

    fn note_history(&mut self, messages: &[Message]) {
        for call in messages.iter().flat_map(|m| m.tool_calls.iter().flatten()) {
            // A snapshot that repeats a call streamed live in this run is not a replay of it.
            if !self.started.iter().any(|(id, _)| *id == call.id) {
                self.history_ids.insert(call.id.clone());
            }
        }
    }
}

fn parse_arguments(text: &str) -> Result<Value, ToolFailure> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_str(text).map_err(|e| ToolFailure::InvalidArguments { detail: format!("not JSON: {e}") })
}

/// `forwardedProps` with the resync flag set; a non-object value the app chose is kept as is
/// (the state sent alongside is then the only signal).
/// Adds `extra` members to the app's `forwardedProps` (an object, or absent). Props that are not
/// an object are the app's business and stay as they are.
fn merge_props(props: Option<Value>, extra: Map<String, Value>) -> Option<Value> {
    if extra.is_empty() {
        return props;
    }
    match props {
        None | Some(Value::Null) => Some(Value::Object(extra)),
        Some(Value::Object(mut map)) => {
            map.extend(extra);
            Some(Value::Object(map))
        }
        other => other,
    }
}

fn with_resync_flag(props: Option<Value>) -> Option<Value> {
    match props {
        None | Some(Value::Null) => {
            Some(Value::Object(Map::from_iter([(STATE_RESYNC_PROP.to_owned(), Value::Bool(true))])))
        }
        Some(Value::Object(mut map)) => {
            map.insert(STATE_RESYNC_PROP.to_owned(), Value::Bool(true));
            Some(Value::Object(map))
        }
        other => other,
    }
}

impl ConversationSession {
    pub(super) async fn drive(&mut self) -> Result<RunSummary, SessionError> {
        let cancel = CancelToken::new();
        *self.current_cancel.lock().unwrap_or_else(|p| p.into_inner()) = cancel.clone();
        let mut summary = RunSummary {
            thread_id: self.thread_id.clone(),
            run_ids: Vec::new(),
            phase: RunPhase::Idle,
            tool_calls: Vec::new(),
            pending_interrupts: Vec::new(),
            follow_up_limit_reached: false,
            needs_resync: false,
            warnings: Vec::new(),
        };
        let mut follow_ups = 0usize;
        loop {
            let (end, results_added) = self.run_once(&cancel, &mut summary).await;
            let (run_id, outcome) = match end {
                RunEnd::Finished { run_id, outcome } => (run_id, outcome),
                RunEnd::AgentError { message, code } => {
                    self.set_phase(RunPhase::AgentError { message: message.clone(), code: code.clone() });
                    return Err(SessionError::Agent { message, code });
                }
                RunEnd::Cancelled => {
                    self.set_phase(RunPhase::Cancelled);
                    return Err(SessionError::Cancelled);
                }
                RunEnd::Failed(e) => {
                    self.set_phase(RunPhase::Failed { error: e.to_string() });
                    return Err(SessionError::Transport(e));
                }
            };
            let pending = lock(&self.shared.interrupts).pending().to_vec();
            let phase = match outcome {
                _ if !pending.is_empty() => RunPhase::Interrupted { run_id, interrupts: pending.clone() },
                Some(RunOutcome::Cancelled) => RunPhase::Finished { run_id, outcome },
                // While a call waits for the user, the results wait with it: the agent's next
                // step starts once every call of the turn is answered (`answer_consent`).
                _ if results_added && self.consent.has_pending() => RunPhase::Finished { run_id, outcome },
                _ if results_added && follow_ups < self.options.max_follow_up_runs => {
                    // The agent's next step must start from what really happened (lesson 1).
                    follow_ups += 1;
                    continue;
                }
                _ => {
                    if results_added {
                        summary.follow_up_limit_reached = true;
                        let message = format!(
                            "{} follow-up runs reached; tool results wait for continue_run()",
                            self.options.max_follow_up_runs
                        );
                        self.warn(&mut summary.warnings, SessionWarningKind::FollowUpLimit, message);
                    }
                    RunPhase::Finished { run_id, outcome }
                }
            };
            self.set_phase(phase.clone());
            summary.phase = phase;
            summary.pending_interrupts = pending;
            summary.needs_resync = self.conversation.lock().needs_resync();
            return Ok(summary);
        }
    }

    /// One request/response. Returns how it ended and whether client results were appended.
    async fn run_once(&mut self, cancel: &CancelToken, summary: &mut RunSummary) -> (RunEnd, bool) {
        let run_id = self.ids.next("run");
        summary.run_ids.push(run_id.clone());
        let (book_before, answers) = {
            let mut book = lock(&self.shared.interrupts);
            (book.clone(), book.take_resume())
        };
        if !book_before.pending().is_empty() {
            // The answers are on their way: nothing is pending while the run streams.
            self.shared.listeners.delta(ConversationDelta::Interrupts(Vec::new()));
        }
        for id in &answers.unanswered {
            let message = format!("interrupt '{id}' was left unanswered");
            self.warn(&mut summary.warnings, SessionWarningKind::UnansweredInterrupt, message);
        }
        let resync = self.conversation.lock().needs_resync();
        let forwarded_props = if resync {
            with_resync_flag(self.options.forwarded_props.clone())
        } else {
            self.options.forwarded_props.clone()
        };
        // A2UI: the user's action (once), engine errors for the agent, and the catalogs this
        // client renders, so the agent only asks for what can be shown. The catalogs ride in
        // context alone: that is where AG-UI agents read them (the A2UI middleware and the
        // frameworks' toolkits put context in front of the model), and not at all for an app
        // that shows no A2UI.
        let (pending_a2ui, capabilities_context) = {
            let mut a2ui = lock(&self.shared.a2ui);
            let capabilities = self.options.advertise_a2ui.then(|| a2ui.capabilities_context());
            (a2ui.take_pending_for_agent(), capabilities)
        };
        let mut a2ui_props = std::mem::take(&mut self.next_forwarded);
        if let Some(resume) = answers.command_resume.clone() {
            // ag-ui-langgraph's legacy channel: `forwardedProps.command.resume`.
            a2ui_props.insert("command".to_owned(), serde_json::json!({ "resume": resume }));
        }
        a2ui_props.extend(pending_a2ui.forwarded_props());
        let forwarded_props = merge_props(forwarded_props, a2ui_props);
        let mut context = self.options.context.clone();
        context.extend(capabilities_context);
        context.extend(pending_a2ui.context());
        context.append(&mut self.next_context);
        let request = RunRequest {
            thread_id: self.thread_id.clone(),
            run_id: run_id.clone(),
            parent_run_id: None,
            tools: lock(&self.shared.registry).declarations(),
            context,
            forwarded_props,
            resume: answers.entries.clone(),
        };
        let declared: HashSet<String> = request.tools.iter().map(|t| t.name.clone()).collect();
        let era = PeerEra::new(self.options.pipeline.peer_max_protocol_version.as_deref());
        // The media a store holds in files are read first, off the conversation's lock (and off
        // this task's thread); a part that cannot be read back is sent as a text placeholder.
        let stored_parts = self.stored_media.as_ref().map(|media| {
            let wanted = crate::store::stored_references(&self.conversation.lock());
            (media.clone(), wanted)
        });
        let read_back = match stored_parts {
            Some((media, wanted)) if !wanted.is_empty() => {
                tokio::task::spawn_blocking(move || crate::store::read_stored(&media, wanted)).await.unwrap_or_default()
            }
            _ => std::collections::HashMap::new(),
        };
        let mut unavailable = Vec::new();
        // Encoded from the conversation as it is, under its lock: no copy of the messages (an
        // attachment's parts are large) beyond the body itself, and those read back above.
        let (encoded, sent_media) = {
            let conversation = self.conversation.lock();
            let extra = read_back.values().filter_map(|r| r.as_ref().ok()).map(|d| d.len()).sum::<usize>();
            let mut substitute =
                |m: &agentui_agui::Message| crate::store::with_read_back(m, &read_back, &mut unavailable);
            (
                encode_run_agent_input_with(&conversation, &request, &era, &mut substitute, extra),
                conversation
                    .messages()
                    .iter()
                    .filter(|m| m.role == agentui_agui::message::Role::User)
                    .map(|m| crate::store::media_bytes(m) as usize / 3 * 4)
                    .sum::<usize>(),
            )
        };
        drop(read_back);
        for (message_id, part, reason) in unavailable {
            let message = format!("message '{message_id}', part {part}: sent as a placeholder, {reason}");
            self.warn(&mut summary.warnings, SessionWarningKind::Store, message);
        }
        // An agent may echo the conversation back in one event (ag-ui-langgraph's
        // MESSAGES_SNAPSHOT does): the user's own attachments then arrive inside it. One event
        // may be that much larger than the budget's message bound, never more.
        let mut sse = self.options.budget.sse_limits();
        sse.max_event_bytes = sse.max_event_bytes.saturating_add(sent_media);
        sse.max_line_bytes = sse.max_line_bytes.saturating_add(sent_media);
        self.transport.set_sse_limits(sse);
        let opened = match encoded {
            Ok((body, downgrades)) => {
                for w in downgrades {
                    self.warn(&mut summary.warnings, SessionWarningKind::InputDowngrade, w.message);
                }
                self.set_phase(RunPhase::Starting { run_id });
                self.transport.open_body(body, cancel).await
            }
            Err(e) => Err(TransportError::Encode(e.to_string())),
        };
        let events = match opened {
            Ok(events) => events,
            Err(e) => {
                // The request never reached the agent: the answers and the A2UI errors are still
                // to be sent, with the next request.
                let pending = book_before.pending().to_vec();
                lock(&self.shared.interrupts).restore(book_before);
                if !pending.is_empty() {
                    self.shared.listeners.delta(ConversationDelta::Interrupts(pending));
                }
                if !pending_a2ui.is_empty() {
                    let mut a2ui = lock(&self.shared.a2ui);
                    a2ui.restore_pending_for_agent(pending_a2ui);
                    self.shared.listeners.emit(SessionUpdate::A2uiErrors(a2ui.pending_for_agent().clone()));
                }
                let end = if e == TransportError::Cancelled { RunEnd::Cancelled } else { RunEnd::Failed(e) };
                return (end, false);
            }
        };
        // The agent answered: the message or action this run carries is delivered, and so are
        // the A2UI errors it carries (the store forgets them in the same batch).
        if !pending_a2ui.is_empty() {
            let a2ui = lock(&self.shared.a2ui);
            self.shared.listeners.emit(SessionUpdate::A2uiErrors(a2ui.pending_for_agent().clone()));
        }
        self.delivered();
        let conversation = self.conversation.clone();
        let mut ctx = {
            let mut conversation = conversation.lock();
            if resync {
                // The input just sent carries the kept state as the baseline both sides now share.
                let kept = conversation.state().clone();
                conversation.set_state(kept);
            }
            RunContext::new(&conversation, declared)
        };
        // The pipeline applies each event to the conversation itself, under its lock: one copy.
        let mut pipeline =
            EventPipeline::for_input_thread(ConversationState::default(), &self.options.pipeline, &self.thread_id);
        // The reducer says what each event changed; observers are told from that.
        pipeline.record_changes();
        let mut stream = OpenStream {
            stream: RunStream::new(events, pipeline),
            conversation: conversation.clone(),
            listeners: self.shared.listeners.clone(),
            ended: false,
        };
        // Events applied since the last batch end: a batch is what the stream had ready without
        // waiting (bounded), so a store writes one transaction per batch, not per event.
        let mut unbatched = 0usize;
        let failure = loop {
            if unbatched > 0 {
                let ready = if unbatched < MAX_BATCH_EVENTS { stream.next_received().now_or_never() } else { None };
                match ready {
                    Some(step) => {
                        let room = MAX_BATCH_EVENTS - unbatched;
                        match self.apply_step(step, room, &mut stream, &conversation, &mut ctx, summary) {
                            ControlFlow::Continue(applied) => unbatched += applied,
                            ControlFlow::Break(end) => break end,
                        }
                        continue;
                    }
                    None => {
                        self.shared.listeners.batch_end();
                        unbatched = 0;
                    }
                }
            }
            tokio::select! {
                biased;
                _ = cancel.cancelled() => break Some(TransportError::Cancelled),
                Some((id, outcome)) = ctx.in_flight.next_completed(), if !ctx.in_flight.is_empty() => {
                    self.tool_completed(&mut ctx, &id, outcome);
                    self.shared.listeners.batch_end();
                }
                step = stream.next_received() => match self.apply_step(step, MAX_BATCH_EVENTS, &mut stream, &conversation, &mut ctx, summary) {
                    ControlFlow::Continue(applied) => unbatched += applied,
                    ControlFlow::Break(end) => break end,
                },
            }
        };
        let mut cancelled = failure == Some(TransportError::Cancelled) || cancel.is_cancelled();
        // Handlers already running finish (each is time-bounded) unless the run is cancelled.
        while !cancelled && !ctx.in_flight.is_empty() {
            tokio::select! {
                biased;
                _ = cancel.cancelled() => cancelled = true,
                Some((id, outcome)) = ctx.in_flight.next_completed() => self.tool_completed(&mut ctx, &id, outcome),
            }
        }
        if cancelled {
            ctx.in_flight.abort_all();
        } else {
            stream.release_connection(RELEASE_GRACE).await;
        }
        if stream.resumed() > 0 {
            let message =
                format!("the stream broke and was resumed from its last event ({} time(s))", stream.resumed());
            self.warn(&mut summary.warnings, SessionWarningKind::StreamResumed, message);
        }
        if stream.ignored_after_close() > 0 {
            let message = format!("{} events after the run ended were ignored", stream.ignored_after_close());
            self.warn(&mut summary.warnings, SessionWarningKind::IgnoredAfterRunEnd, message);
        }
        stream.ended = true;
        drop(stream);
        // A message the run left open is incomplete whether a cancel or a failure cut it.
        let cut_by = match (&failure, cancelled) {
            (_, true) => Some("the cancel"),
            (Some(_), false) => Some("the run's failure"),
            (None, false) => None,
        };
        self.keep_local(&mut ctx, cut_by, summary);
        let (run_status, agent_interrupts) = {
            let conversation = conversation.lock();
            (conversation.run_status().clone(), conversation.pending_interrupts().to_vec())
        };
        let finished = matches!(run_status, RunStatus::Finished { .. });
        let legacy = if finished && !cancelled { std::mem::take(&mut ctx.legacy_interrupts) } else { Vec::new() };
        let pending = {
            let mut book = lock(&self.shared.interrupts);
            book.set_pending(agent_interrupts, legacy);
            book.pending().to_vec()
        };
        if !pending.is_empty() {
            self.shared.listeners.delta(ConversationDelta::Interrupts(pending));
        }
        let results_added = self.settle_tool_calls(&mut ctx, cancelled, summary);
        let end = match (cancelled, failure, run_status) {
            (true, _, _) => RunEnd::Cancelled,
            (false, Some(e), _) => RunEnd::Failed(e),
            (false, None, RunStatus::Finished { run_id, outcome, .. }) => RunEnd::Finished { run_id, outcome },
            (false, None, RunStatus::Errored { message, code }) => RunEnd::AgentError { message, code },
            // Unreachable by construction (the stream only closes on those two events).
            (false, None, _) => RunEnd::Failed(TransportError::Truncated(Truncation::RunOpen)),
        };
        (end, results_added)
    }

    /// Applies what one read of the stream delivered, then the rest of the burst the stream
    /// already holds decoded (at most `room` SSE events in all), under one lock of the
    /// conversation: locking it per event cost the one-character-delta stream a fifth of its
    /// speed. The lock is never held across a wait (the burst reads nothing), and a batch end
    /// an event asks for ends the burst, so the store still sees it at once. `Continue` with
    /// the SSE events applied; `Break` with how the stream ended. A snapshot holds each event
    /// applied and told, or not yet applied.
    fn apply_step(
        &mut self,
        step: Result<Option<ReceivedEvent>, TransportError>,
        room: usize,
        stream: &mut RunStream,
        conversation: &SharedConversation,
        ctx: &mut RunContext,
        summary: &mut RunSummary,
    ) -> ControlFlow<Option<TransportError>, usize> {
        let mut received = match step {
            Ok(Some(received)) => received,
            Ok(None) => return ControlFlow::Break(None),
            Err(e) => return ControlFlow::Break(Some(e)),
        };
        let mut applied = 0usize;
        let mut conversation = conversation.lock();
        loop {
            let events = stream.apply_to(&received, conversation.boxed());
            let changes = stream.take_changes();
            let grouped = events.len() > 1;
            for (e, change) in events.iter().zip(&changes) {
                self.on_event(e, change, &conversation, ctx, summary, grouped);
            }
            if grouped {
                self.flush_touched(&conversation, ctx);
            }
            applied += 1;
            if ctx.batch_ended || applied >= room {
                break;
            }
            match stream.next_buffered() {
                Some(next) => received = next,
                None => break,
            }
        }
        drop(conversation);
        if std::mem::take(&mut ctx.batch_ended) {
            self.shared.listeners.batch_end();
        }
        ControlFlow::Continue(applied)
    }

    /// Apply the listener side of one delivered event and dispatch tool calls. `change` is what
    /// the reducer said the event changed; `grouped`: the event came with others from one SSE
    /// event, and `conv` shows the whole group applied.
    fn on_event(
        &mut self,
        event: &Event,
        change: &Change,
        conv: &ConversationState,
        ctx: &mut RunContext,
        summary: &mut RunSummary,
        grouped: bool,
    ) {
        // A2UI operations ride on activities, tool results and custom events; the bridge feeds
        // them to the engine and queues its errors for the agent's next run. Its surface changes
        // are told under the bridge's lock, so they keep their place among the user's input.
        let a2ui_errors = {
            // Noted: an app's function the engine runs meanwhile cannot call back into it.
            let mut a2ui = lock_noted(&self.shared.a2ui);
            let outcome = a2ui.on_event(event);
            for surface_event in outcome.events {
                self.shared.listeners.emit(SessionUpdate::Surface(surface_event));
            }
            if !outcome.emitted.is_empty() {
                // Queued for the agent: a store keeps them until a request carries them.
                self.shared.listeners.emit(SessionUpdate::A2uiErrors(a2ui.pending_for_agent().clone()));
            }
            outcome.errors
        };
        for error in a2ui_errors {
            self.warn(&mut summary.warnings, SessionWarningKind::A2ui, error.to_string());
        }
        // History that arrives during the run is never executed: noted before anything runs.
        match event {
            Event::RunStarted(RunStarted { input: Some(input), .. }) => ctx.note_history(&input.messages),
            Event::MessagesSnapshot(e) => ctx.note_history(&e.messages),
            _ => {}
        }
        self.publish_change(event, change, conv, ctx, grouped);
        match event {
            Event::RunStarted(e) => {
                // The batch ends once the conversation is released (a store reads it then).
                self.tell_phase(RunPhase::Running { run_id: e.run_id.clone() });
                ctx.batch_ended = true;
            }
            Event::TextMessageStart(TextMessageStart { message_id, .. })
            | Event::ReasoningMessageStart(ReasoningMessageStart { message_id, .. }) => {
                ctx.open_messages.insert(message_id.clone());
            }
            Event::TextMessageEnd(TextMessageEnd { message_id, .. })
            | Event::ReasoningMessageEnd(ReasoningMessageEnd { message_id, .. }) => {
                ctx.open_messages.remove(message_id);
            }
            Event::ToolCallStart(e) => {
                ctx.started.push((e.tool_call_id.clone(), e.tool_call_name.clone()));
                self.emit_tool(&e.tool_call_id, &e.tool_call_name, ToolCallPhase::Streaming);
            }
            Event::ToolCallEnd(e) => {
                let name = conv.tool_call(&e.tool_call_id).map(|r| r.tool_name.clone()).unwrap_or_default();
                self.emit_tool(&e.tool_call_id, &name, ToolCallPhase::Requested);
                self.dispatch(&e.tool_call_id, conv, ctx, summary);
            }
            Event::ToolCallResult(e) => {
                let id = &e.tool_call_id;
                match conv.tool_call(id).filter(|r| !r.tool_name.is_empty()) {
                    Some(record) => {
                        if ctx.claimed.contains(id) {
                            let message = format!(
                                "the server answered '{id}' ({}), a call this client executes; the client's result replaces it",
                                record.tool_name
                            );
                            self.warn(&mut summary.warnings, SessionWarningKind::ServerAnsweredClientTool, message);
                        } else {
                            self.emit_tool(id, &record.tool_name, ToolCallPhase::CompletedByServer);
                        }
                    }
                    None => {
                        let message = format!(
                            "TOOL_CALL_RESULT for toolCallId '{id}' matches no tool call; it is kept on this device and not sent back"
                        );
                        self.warn(&mut summary.warnings, SessionWarningKind::UnmatchedToolResult, message);
                        ctx.orphan_results.push(e.message_id.clone());
                    }
                }
            }
            Event::Custom(e) => {
                if e.name == LEGACY_INTERRUPT_EVENT {
                    let ordinal = ctx.legacy_interrupts.len() + 1;
                    let mut interrupt = legacy_interrupt(&e.value, e.base.raw_event.as_deref(), ordinal);
                    interrupt.subagent_run_id = e.subagent_run_id.clone();
                    ctx.legacy_interrupts.push(interrupt);
                }
                self.shared.listeners.delta(ConversationDelta::Custom { name: e.name.clone(), value: e.value.clone() });
            }
            Event::Raw(e) => {
                self.shared.listeners.delta(ConversationDelta::Raw { event: e.event.clone(), source: e.source.clone() })
            }
            Event::StepStarted(e) => {
                self.shared.listeners.delta(ConversationDelta::Step { name: e.step_name.clone(), started: true })
            }
            Event::StepFinished(e) => {
                self.shared.listeners.delta(ConversationDelta::Step { name: e.step_name.clone(), started: false })
            }
            _ => {}
        }
        let warnings = conv.warnings();
        for w in warnings.get(ctx.warnings_seen..).unwrap_or_default() {
            self.warn(&mut summary.warnings, SessionWarningKind::Protocol(w.kind), w.message.clone());
        }
        ctx.warnings_seen = warnings.len();
    }

    /// A live call's arguments are complete: decide, at most once per id, whether it runs.
    fn dispatch(&mut self, id: &str, conv: &ConversationState, ctx: &mut RunContext, summary: &mut RunSummary) {
        let Some(record) = conv.tool_call(id) else { return };
        let name = record.tool_name.clone();
        // A tool this run did not declare belongs to the server (a server may well re-stream
        // its own call when it resumes it); a declared one whose handler is gone gets its
        // explicit error when the run is settled.
        if !ctx.declared.contains(&name) {
            return;
        }
        let skip = if self.ledger.contains(id) {
            Some("the client already took this call id")
        } else if ctx.known_before.contains(id) || ctx.history_ids.contains(id) {
            Some("the call id belongs to history")
        } else if !matches!(record.origin, ToolCallOrigin::Live { .. }) {
            Some("the call is not live")
        } else {
            None
        };
        if let Some(reason) = skip {
            ctx.skipped.insert(id.to_owned());
            let message = format!("tool call '{id}' ({name}) was not run: {reason}");
            self.warn(&mut summary.warnings, SessionWarningKind::DuplicateToolCall, message);
            self.emit_tool(id, &name, ToolCallPhase::Skipped { reason: reason.to_owned() });
            return;
        }
        let Some(tool) = lock(&self.shared.registry).get(&name).cloned() else { return };
        self.ledger.claim(id);
        ctx.claimed.insert(id.to_owned());
        let arguments = conv
            .message(&record.message_id)
            .and_then(|m| m.tool_calls.as_ref())
            .and_then(|calls| calls.iter().find(|c| c.id == id))
            .map_or("", |c| c.function.arguments.as_str());
        let checked = parse_arguments(arguments)
            .and_then(|v| tool.validate(&v).map(|()| v).map_err(|detail| ToolFailure::InvalidArguments { detail }));
        let invocation = match checked {
            Ok(arguments) => ToolInvocation { tool_call_id: id.to_owned(), tool_name: name.clone(), arguments },
            Err(failure) => return self.tool_completed(ctx, id, Err(failure)),
        };
        if let ToolDecision::Deny { reason } = self.policy.decide(&invocation) {
            return self.tool_completed(ctx, id, Err(ToolFailure::Denied { reason }));
        }
        if tool.consent() == Consent::Ask && !self.consent.granted(&name) {
            if self.consent.is_full() {
                let reason = format!("{MAX_PENDING_CONSENT} calls already wait for the user's consent");
                let message = format!("tool call '{id}' ({name}) was refused: {reason}");
                self.warn(&mut summary.warnings, SessionWarningKind::UnresolvedToolCall, message);
                return self.tool_completed(ctx, id, Err(ToolFailure::Denied { reason }));
            }
            // Nothing runs until the user answers.
            self.consent.ask(id, &name, invocation.arguments);
            ctx.awaiting_consent.insert(id.to_owned());
            self.shared.listeners.delta(self.consent.delta());
            self.emit_tool(id, &name, ToolCallPhase::AwaitingConsent);
            return;
        }
        let limit = tool.timeout().unwrap_or(self.options.tool_timeout);
        ctx.in_flight.spawn(&tool, invocation, limit);
        self.emit_tool(id, &name, ToolCallPhase::Running);
    }

    /// Takes the consent request of `id` out with the user's `answer`, runs the handler when
    /// allowed, and appends the result as a tool message (for the next run to carry).
    pub(super) async fn settle_consent(
        &mut self,
        id: &str,
        answer: ConsentAnswer,
    ) -> Result<ToolCallReport, SessionError> {
        let Some(request) = self.consent.answer(id, answer) else {
            return Err(SessionError::UnknownConsentRequest { tool_call_id: id.to_owned() });
        };
        self.shared.listeners.delta(self.consent.delta());
        let name = request.tool_name.clone();
        let outcome = match answer {
            ConsentAnswer::Decline => Err(ToolFailure::Declined),
            ConsentAnswer::AllowOnce | ConsentAnswer::AllowAlways => self.run_consented(request).await,
        };
        let phase = match &outcome {
            Ok(v) => ToolCallPhase::Succeeded { result: result_text(v) },
            Err(failure) => ToolCallPhase::Failed { failure: failure.clone() },
        };
        self.emit_tool(id, &name, phase);
        // A server answer to the call meanwhile is replaced in place by the truth, as at a
        // run's end: one result per call.
        let answered_by_server = match self.conversation.lock().tool_call(id).map(|r| r.status.clone()) {
            Some(ToolCallStatus::Completed { result_message_id }) => Some(result_message_id),
            _ => None,
        };
        let message_id = answered_by_server.unwrap_or_else(|| self.ids.next("tool-result"));
        let message = result_message(message_id, id, &outcome);
        self.ledger.set_result(id, message.clone());
        self.append_local(message);
        self.shared.listeners.batch_end();
        if outcome == Err(ToolFailure::Cancelled) {
            self.set_phase(RunPhase::Cancelled);
            return Err(SessionError::Cancelled);
        }
        Ok(ToolCallReport { tool_call_id: id.to_owned(), tool_name: name, outcome })
    }

    /// An allowed call: checked again against the tool as registered now (the app may have
    /// registered it again since, after a restart) and the policy, then run under its timeout.
    /// A cancel of the conversation stops it.
    async fn run_consented(&mut self, request: ConsentRequest) -> ToolOutcome {
        let name = request.tool_name;
        let Some(tool) = lock(&self.shared.registry).get(&name).cloned() else {
            return Err(ToolFailure::NotRegistered { name });
        };
        tool.validate(&request.arguments).map_err(|detail| ToolFailure::InvalidArguments { detail })?;
        let invocation = ToolInvocation {
            tool_call_id: request.tool_call_id.clone(),
            tool_name: name.clone(),
            arguments: request.arguments,
        };
        if let ToolDecision::Deny { reason } = self.policy.decide(&invocation) {
            return Err(ToolFailure::Denied { reason });
        }
        let cancel = CancelToken::new();
        *self.current_cancel.lock().unwrap_or_else(|p| p.into_inner()) = cancel.clone();
        let mut in_flight = InFlight::default();
        in_flight.spawn(&tool, invocation, tool.timeout().unwrap_or(self.options.tool_timeout));
        self.emit_tool(&request.tool_call_id, &name, ToolCallPhase::Running);
        // Noted as started before it can finish: a store never runs it again.
        self.shared.listeners.batch_end();
        tokio::select! {
            biased;
            _ = cancel.cancelled() => Err(ToolFailure::Cancelled),
            Some((_, outcome)) = in_flight.next_completed() => outcome,
        }
    }

    fn tool_completed(&mut self, ctx: &mut RunContext, id: &str, outcome: ToolOutcome) {
        let name = ctx.started.iter().find(|(i, _)| i == id).map(|(_, n)| n.clone()).unwrap_or_default();
        let phase = match &outcome {
            Ok(v) => ToolCallPhase::Succeeded { result: result_text(v) },
            Err(failure) => ToolCallPhase::Failed { failure: failure.clone() },
        };
        self.emit_tool(id, &name, phase);
        ctx.outcomes.insert(id.to_owned(), outcome);
    }

    /// After the stream: marks what stays on this device. Orphan tool results never go back;
    /// after a cancel, messages still streaming (and the results of calls they carry) are kept
    /// local and marked as cut short, never presented as complete.
    fn keep_local(&mut self, ctx: &mut RunContext, cut_by: Option<&str>, summary: &mut RunSummary) {
        let mut marks: Vec<(String, LocalOnly)> =
            ctx.orphan_results.drain(..).map(|id| (id, LocalOnly::OrphanToolResult)).collect();
        let shared = self.conversation.clone();
        let mut conversation = shared.lock();
        if cut_by.is_some() {
            let mut open: Vec<String> = ctx.open_messages.drain().collect();
            open.extend(
                ctx.started
                    .iter()
                    .filter_map(|(id, _)| conversation.tool_call(id))
                    .filter(|r| r.status == ToolCallStatus::Streaming)
                    .map(|r| r.message_id.clone()),
            );
            open.sort_unstable();
            open.dedup();
            marks.extend(open.into_iter().map(|id| (id, LocalOnly::Cancelled)));
        }
        for (id, reason) in marks {
            if conversation.message(&id).is_none() || conversation.local_only(&id).is_some() {
                continue;
            }
            conversation.keep_local(&id, reason);
            self.shared.listeners.delta(ConversationDelta::MessageKeptLocal { message_id: id.clone(), reason });
            if reason == LocalOnly::Cancelled {
                let cause = cut_by.unwrap_or("the cancel");
                let message =
                    format!("message '{id}' was cut short by {cause}; it is kept on this device and not sent back");
                self.warn(&mut summary.warnings, SessionWarningKind::KeptLocal, message);
            }
        }
    }

    /// After the stream: the client answers exactly the live calls to tools it declared in this
    /// run's input (lesson 2). Client outcomes become tool messages; a declared call without an
    /// outcome gets an explicit error result. Any other call belongs to the server: recorded and
    /// shown, never answered, and it never starts a run. A call an interrupt names is answered
    /// only through that interrupt's resume. Returns whether the client appended any result (a
    /// follow-up run is then due).
    fn settle_tool_calls(&mut self, ctx: &mut RunContext, cancelled: bool, summary: &mut RunSummary) -> bool {
        let mut added = false;
        let mut seen = HashSet::new();
        let named: HashMap<String, String> = self
            .shared
            .interrupts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pending()
            .iter()
            .filter_map(|i| i.tool_call_id.clone().map(|call| (call, i.id.clone())))
            .collect();
        for (id, name) in std::mem::take(&mut ctx.started) {
            if !seen.insert(id.clone()) {
                continue;
            }
            if ctx.skipped.contains(&id) {
                self.repair_pairing(&id);
                continue;
            }
            let (status, carrier_kept_local) = {
                let conversation = self.conversation.lock();
                let record = conversation.tool_call(&id);
                let kept_local = record.is_some_and(|r| conversation.local_only(&r.message_id).is_some());
                (record.map(|r| r.status.clone()), kept_local)
            };
            if ctx.awaiting_consent.contains(&id) {
                // A call whose message stays on this device, or that an interrupt answers, can
                // never get a tool message: its request is withdrawn.
                if (carrier_kept_local || named.contains_key(&id)) && self.consent.withdraw(&id) {
                    self.shared.listeners.delta(self.consent.delta());
                }
                if !named.contains_key(&id) {
                    continue;
                }
            }
            if let Some(interrupt_id) = named.get(&id) {
                if ctx.outcomes.remove(&id).is_some() || ctx.claimed.contains(&id) {
                    let message = format!(
                        "tool call '{id}' ({name}) is named by interrupt '{interrupt_id}': it is answered through the interrupt's resume, so the handler's result is not sent"
                    );
                    self.warn(&mut summary.warnings, SessionWarningKind::AnsweredByInterrupt, message);
                }
                self.emit_tool(&id, &name, ToolCallPhase::AwaitingInterrupt { interrupt_id: interrupt_id.clone() });
                continue;
            }
            if !ctx.declared.contains(&name) {
                if status == Some(ToolCallStatus::Requested) || status == Some(ToolCallStatus::Streaming) {
                    self.emit_tool(&id, &name, ToolCallPhase::OwnedByServer);
                }
                continue;
            }
            if carrier_kept_local {
                // The call's own message is not sent, so an answer would be an orphan.
                ctx.outcomes.remove(&id);
                continue;
            }
            let outcome = match ctx.outcomes.remove(&id) {
                Some(outcome) => outcome,
                None => {
                    let failure = match (&status, ctx.claimed.contains(&id)) {
                        (_, true) => ToolFailure::Cancelled,
                        (Some(ToolCallStatus::Completed { .. }) | None, false) => continue,
                        (_, false) if cancelled => ToolFailure::Cancelled,
                        (Some(ToolCallStatus::Streaming), false) => ToolFailure::Incomplete,
                        (Some(ToolCallStatus::Requested), false) => {
                            // Declared but not executable any more (lesson 2): an explicit error.
                            let message = format!(
                                "tool call '{id}' ({name}) was declared by this client but its handler is gone"
                            );
                            self.warn(&mut summary.warnings, SessionWarningKind::UnresolvedToolCall, message);
                            ToolFailure::NotRegistered { name: name.clone() }
                        }
                    };
                    self.ledger.claim(&id);
                    self.emit_tool(&id, &name, ToolCallPhase::Failed { failure: failure.clone() });
                    Err(failure)
                }
            };
            // A server answer to a client-executed call is replaced in place by the truth.
            let message_id = match status {
                Some(ToolCallStatus::Completed { result_message_id }) => result_message_id,
                _ => self.ids.next("tool-result"),
            };
            let message = result_message(message_id, &id, &outcome);
            self.ledger.set_result(&id, message.clone());
            self.append_local(message);
            summary.tool_calls.push(ToolCallReport { tool_call_id: id, tool_name: name, outcome });
            added = true;
        }
        added
    }

    /// A replayed call re-opened by the stream is paired again with the answer already given,
    /// without running anything (the answer may be gone from a snapshot: the ledger keeps it).
    fn repair_pairing(&mut self, id: &str) {
        let answered = {
            let conversation = self.conversation.lock();
            if matches!(conversation.tool_call(id).map(|r| &r.status), Some(ToolCallStatus::Completed { .. })) {
                return;
            }
            conversation
                .messages()
                .iter()
                .rev()
                .find(|m| m.role == agentui_agui::message::Role::Tool && m.tool_call_id.as_deref() == Some(id))
                .cloned()
        };
        let answer = answered.or_else(|| self.ledger.result(id).cloned());
        if let Some(answer) = answer {
            self.append_local(answer);
        }
    }

    /// Appends (or replaces in place) a message the client made, and tells observers.
    fn append_local(&mut self, message: Message) {
        let mut conversation = self.conversation.lock();
        let existed = conversation.message(&message.id).is_some();
        let id = message.id.clone();
        conversation.append_local_message(message);
        let Some(now) = conversation.message(&id).cloned() else { return };
        let delta =
            if existed { ConversationDelta::MessageReplaced(now) } else { ConversationDelta::MessageAdded(now) };
        self.shared.listeners.delta(delta);
    }

    fn reset_messages(&self, conv: &ConversationState, ctx: &mut RunContext) {
        ctx.touched.clear();
        // No copy of the list (photos included) under the lock: readers take it from the
        // conversation when they read the reset.
        self.shared.listeners.messages_reset();
        // The reset cleared the observers' marks; the ones the conversation still holds follow.
        for m in conv.messages() {
            if let Some(reason) = conv.local_only(&m.id) {
                self.shared.listeners.delta(ConversationDelta::MessageKeptLocal { message_id: m.id.clone(), reason });
            }
        }
    }

    fn note_resync(&self, conv: &ConversationState, ctx: &mut RunContext) {
        match (conv.needs_resync(), ctx.resync_reported) {
            (true, false) => {
                ctx.resync_reported = true;
                let reason =
                    "a STATE_DELTA could not be applied; the previous state is kept and the next run resynchronises"
                        .to_owned();
                self.shared.listeners.delta(ConversationDelta::StateResyncNeeded { reason });
            }
            (false, true) => ctx.resync_reported = false,
            _ => {}
        }
    }

    /// Tells observers what the reducer said `event` changed: only the appended piece for
    /// streamed text and arguments (a long message costs each delta its own size, not the
    /// message's), the whole message otherwise. Inside a group, the messages are noted and told
    /// whole once the group is applied ([`Self::flush_touched`]).
    fn publish_change(
        &self,
        event: &Event,
        change: &Change,
        conv: &ConversationState,
        ctx: &mut RunContext,
        grouped: bool,
    ) {
        let touch = |ctx: &mut RunContext, id: &str, added: bool| match ctx.touched.iter_mut().find(|(t, _)| t == id) {
            Some((_, was_added)) => *was_added |= added,
            None => ctx.touched.push((id.to_owned(), added)),
        };
        let listeners = &self.shared.listeners;
        match change {
            Change::None => {}
            Change::MessagesReset => self.reset_messages(conv, ctx),
            Change::TextAppended => {
                let (Event::TextMessageContent(TextMessageContent { message_id, delta, .. })
                | Event::ReasoningMessageContent(ReasoningMessageContent { message_id, delta, .. })) = event
                else {
                    return;
                };
                if grouped {
                    touch(ctx, message_id, false);
                } else {
                    listeners.delta(ConversationDelta::TextAppended {
                        message_id: message_id.clone(),
                        delta: delta.clone(),
                    });
                }
            }
            Change::ArgumentsAppended { message_id } => {
                let Event::ToolCallArgs(e) = event else { return };
                if grouped {
                    touch(ctx, message_id, false);
                } else {
                    listeners.delta(ConversationDelta::ToolCallArgsAppended {
                        message_id: message_id.clone(),
                        tool_call_id: e.tool_call_id.clone(),
                        delta: e.delta.clone(),
                    });
                }
            }
            Change::MessageInserted { id, .. } if grouped => touch(ctx, id, true),
            Change::MessageInserted { id, at } => self.message_added(conv, ctx, id, *at),
            Change::MessageChanged { id } if grouped => touch(ctx, id, false),
            Change::MessageChanged { id } => {
                if let Some(message) = conv.message(id) {
                    listeners.delta(ConversationDelta::MessageReplaced(message.clone()));
                }
            }
            Change::StateReplaced | Change::StatePatched | Change::StateDiverged if grouped => ctx.state_touched = true,
            Change::StateReplaced => {
                listeners.delta(ConversationDelta::StateReplaced(conv.state().clone()));
                self.note_resync(conv, ctx);
            }
            Change::StatePatched => {
                if let Event::StateDelta(e) = event {
                    listeners.delta(ConversationDelta::StatePatched(e.delta.clone()));
                }
            }
            // The state is as it was: observers hear of the resync only.
            Change::StateDiverged => self.note_resync(conv, ctx),
        }
    }

    /// Message `id`, added at position `at`. Observers' lists grow at the end: a message placed
    /// before others (a tool result answering an earlier call while later messages streamed)
    /// goes out as the whole list, so every observer keeps the order the agent is sent.
    fn message_added(&self, conv: &ConversationState, ctx: &mut RunContext, id: &str, at: usize) {
        match conv.message(id) {
            Some(message) if at + 1 == conv.messages().len() => {
                self.shared.listeners.delta(ConversationDelta::MessageAdded(message.clone()))
            }
            Some(_) => self.reset_messages(conv, ctx),
            None => {}
        }
    }

    /// After a group of events from one SSE event: the messages and state it changed, whole.
    fn flush_touched(&self, conv: &ConversationState, ctx: &mut RunContext) {
        let touched = std::mem::take(&mut ctx.touched);
        // Messages the group added are at the end, in the order it added them, unless one was
        // placed before others: then the whole list goes.
        let added: Vec<&str> = touched.iter().filter(|(_, added)| *added).map(|(id, _)| id.as_str()).collect();
        let tail = conv.messages().len().saturating_sub(added.len());
        if added.iter().enumerate().all(|(k, id)| conv.position(id) == Some(tail + k)) {
            for (id, added) in &touched {
                let Some(message) = conv.message(id) else { continue };
                let delta = if *added {
                    ConversationDelta::MessageAdded(message.clone())
                } else {
                    ConversationDelta::MessageReplaced(message.clone())
                };
                self.shared.listeners.delta(delta);
            }
        } else {
            self.reset_messages(conv, ctx);
        }
        if std::mem::take(&mut ctx.state_touched) {
            self.shared.listeners.delta(ConversationDelta::StateReplaced(conv.state().clone()));
            self.note_resync(conv, ctx);
        }
    }

    fn emit_tool(&self, id: &str, name: &str, phase: ToolCallPhase) {
        let update = ToolCallUpdate { tool_call_id: id.to_owned(), tool_name: name.to_owned(), phase };
        self.shared.listeners.delta(ConversationDelta::ToolCall(update));
    }
}
