//! The incoming event pipeline, in the order the processing model requires:
//!
//! ```text
//! JSON → compatibility boundary → era shims → enforcement → chunk expansion → verification → reducer
//! ```
//!
//! Each stage is its own module; this one wires them and keeps the stream's verdict: after the
//! first fatal error the pipeline rejects everything that follows.

use serde_json::Value;

use crate::chunks::ChunkExpander;
use crate::compat::{CompatibilityBoundary, PeerEra};
use crate::decode::decode_event;
use crate::error::{ProtocolError, Warning};
use crate::event::Event;
use crate::limits::Limits;
use crate::reducer::{Change, ConversationReducer, ConversationState};
use crate::sse::{SseDecoder, SseError, SseLimits};
use crate::verify::StreamVerifier;
use crate::version::negotiate;

/// How the pipeline is configured.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PipelineOptions {
    /// The newest protocol version the peer is known to speak; selects the era shims. `None`
    /// treats the peer as current.
    pub peer_max_protocol_version: Option<String>,
    pub limits: Limits,
}

/// Consumes one event stream into a [`ConversationState`].
#[derive(Debug)]
pub struct EventPipeline {
    boundary: CompatibilityBoundary,
    era: PeerEra,
    // Fixed by the era: whether events are rewritten before enforcement (fast path unusable).
    general_path_only: bool,
    expander: ChunkExpander,
    verifier: StreamVerifier,
    reducer: ConversationReducer,
    rejection: Option<ProtocolError>,
    scratch: Vec<Warning>,
    /// What each delivered event changed, in delivery order, when asked for
    /// ([`record_changes`](Self::record_changes)); drained by [`take_changes`](Self::take_changes).
    changes: Option<Vec<Change>>,
}

impl EventPipeline {
    pub fn new(conversation: ConversationState, options: &PipelineOptions) -> Self {
        EventPipeline {
            boundary: CompatibilityBoundary::new(),
            era: PeerEra::new(options.peer_max_protocol_version.as_deref()),
            general_path_only: PeerEra::new(options.peer_max_protocol_version.as_deref()).drops_subagents(),
            expander: ChunkExpander::new(),
            verifier: StreamVerifier::new(options.limits),
            reducer: ConversationReducer::new(conversation, options.limits),
            rejection: None,
            scratch: Vec::new(),
            changes: None,
        }
    }

    /// A pipeline for the answer to an input sent on thread `thread_id`: a run on any other
    /// thread is a protocol error.
    pub fn for_input_thread(conversation: ConversationState, options: &PipelineOptions, thread_id: &str) -> Self {
        let mut pipeline = Self::new(conversation, options);
        pipeline.verifier = StreamVerifier::for_input_thread(options.limits, thread_id);
        pipeline
    }

    pub fn conversation(&self) -> &ConversationState {
        self.reducer.conversation()
    }

    pub fn into_conversation(self) -> ConversationState {
        self.reducer.into_conversation()
    }

    /// See [`ConversationReducer::swap_conversation`].
    pub fn swap_conversation(&mut self, other: &mut Box<ConversationState>) {
        self.reducer.swap_conversation(other);
    }

    /// From now on, notes what each delivered event changed: one [`Change`] per event, in the
    /// order the events are delivered. Off by default, so a consumer that never drains them
    /// holds none.
    pub fn record_changes(&mut self) {
        self.changes.get_or_insert_with(Vec::new);
    }

    /// The changes noted since the last call, one per event delivered since then.
    pub fn take_changes(&mut self) -> Vec<Change> {
        self.changes.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The messages a stream cut off now would leave incomplete: text and reasoning messages
    /// still open, and the messages carrying tool calls still streaming. Sorted, no repeats.
    pub fn open_message_ids(&self) -> Vec<String> {
        self.open_message_ids_in(self.reducer.conversation())
    }

    /// [`open_message_ids`](Self::open_message_ids) for a conversation this pipeline applies to
    /// from elsewhere (see [`swap_conversation`](Self::swap_conversation)).
    pub fn open_message_ids_in(&self, conversation: &ConversationState) -> Vec<String> {
        let (messages, calls) = self.verifier.open_entities();
        let carriers = calls.filter_map(|id| conversation.tool_call(id).map(|r| r.message_id.as_str()));
        let mut open: Vec<String> = messages.chain(carriers).map(str::to_owned).collect();
        open.sort_unstable();
        open.dedup();
        open
    }

    /// The fatal error that ended this stream, if any.
    pub fn rejection(&self) -> Option<&ProtocolError> {
        self.rejection.as_ref()
    }

    /// Whether a run is open (started, not finished or errored).
    pub fn run_active(&self) -> bool {
        self.verifier.run_active()
    }

    /// Process one event given as SSE `data` text.
    pub fn push_str(&mut self, data: &str) -> Result<Vec<Event>, ProtocolError> {
        let mut delivered = Vec::new();
        self.push_str_with(data, |e| delivered.push(e))?;
        Ok(delivered)
    }

    /// [`push_str`](Self::push_str) with a sink. The hot event types are decoded straight from
    /// the text ([`crate::decode::fast_path`]); anything unusual goes through `Value` and the
    /// general enforcement, so warnings and errors are the same either way.
    pub fn push_str_with(&mut self, data: &str, mut sink: impl FnMut(Event)) -> Result<(), ProtocolError> {
        if let Some(e) = &self.rejection {
            return Err(ProtocolError::StreamRejected(Box::new(e.clone())));
        }
        // An era that drops subagents rewrites events before enforcement: general path only.
        let fast = if self.general_path_only { None } else { crate::decode::fast_path(data) };
        let result = match fast {
            Some(event) => self.deliver(event, &mut sink),
            None => match serde_json::from_str::<Value>(data) {
                Ok(value) => self.process(value, &mut sink),
                Err(e) => Err(ProtocolError::InvalidJson(e.to_string())),
            },
        };
        self.settle(result)
    }

    /// Process one raw event, returning the events delivered to the application.
    pub fn push_json(&mut self, value: Value) -> Result<Vec<Event>, ProtocolError> {
        let mut delivered = Vec::new();
        self.push_json_with(value, |e| delivered.push(e))?;
        Ok(delivered)
    }

    /// Process one raw event, handing each delivered event to `sink` as soon as it is applied,
    /// so events delivered before a failure in the same push are not lost.
    pub fn push_json_with(&mut self, value: Value, mut sink: impl FnMut(Event)) -> Result<(), ProtocolError> {
        if let Some(e) = &self.rejection {
            return Err(ProtocolError::StreamRejected(Box::new(e.clone())));
        }
        let result = self.process(value, &mut sink);
        self.settle(result)
    }

    fn settle(&mut self, result: Result<(), ProtocolError>) -> Result<(), ProtocolError> {
        if !self.scratch.is_empty() {
            let warnings = std::mem::take(&mut self.scratch);
            self.reducer.warn_all(warnings);
        }
        result.map_err(|e| self.reject(e))
    }

    fn reject(&mut self, error: ProtocolError) -> ProtocolError {
        self.rejection = Some(error.clone());
        error
    }

    fn process(&mut self, mut value: Value, sink: &mut impl FnMut(Event)) -> Result<(), ProtocolError> {
        self.boundary.translate(&mut value, &mut self.scratch);
        if !self.era.downgrade_event(&mut value, &mut self.scratch) {
            return Ok(());
        }
        let Some(event) = decode_event(value, &mut self.scratch)? else { return Ok(()) };
        self.deliver(event, sink)
    }

    /// Expand, verify, apply and hand on one enforced event.
    fn deliver(&mut self, event: Event, sink: &mut impl FnMut(Event)) -> Result<(), ProtocolError> {
        // With no chunk stream open, a non-chunk event expands to itself.
        let is_chunk =
            matches!(event, Event::TextMessageChunk(_) | Event::ToolCallChunk(_) | Event::ReasoningMessageChunk(_));
        if !is_chunk && !self.expander.has_open_streams() {
            return self.apply(event, sink);
        }
        for event in self.expander.expand(event)? {
            self.apply(event, sink)?;
        }
        Ok(())
    }

    fn apply(&mut self, event: Event, sink: &mut impl FnMut(Event)) -> Result<(), ProtocolError> {
        self.verifier.check(&event)?;
        if let Event::RunStarted(e) = &event {
            if let Some(w) = negotiate(e.protocol_version.as_deref()) {
                self.scratch.push(w);
            }
            self.reducer.set_producer_protocol_version(e.protocol_version.clone());
        }
        let change = self.reducer.apply(&event)?;
        if let Some(changes) = &mut self.changes {
            changes.push(change);
        }
        sink(event);
        Ok(())
    }
}

/// Why a whole SSE body could not be consumed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    #[error(transparent)]
    Sse(#[from] SseError),
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
}

/// The result of consuming a whole body.
#[derive(Debug, Clone)]
pub struct StreamSummary {
    pub conversation: ConversationState,
    /// Events delivered to the application (after expansion, before any failure).
    pub delivered_events: usize,
    /// The error that ended consumption early, if any.
    pub error: Option<StreamError>,
}

/// Decode, verify and reduce a complete SSE body in one call: the unit the benchmarks measure.
pub fn process_sse_body(
    body: &[u8],
    conversation: ConversationState,
    options: &PipelineOptions,
    sse_limits: SseLimits,
) -> StreamSummary {
    let mut pipeline = EventPipeline::new(conversation, options);
    let mut decoder = SseDecoder::new(sse_limits);
    let mut delivered = 0usize;
    let mut failure: Option<StreamError> = None;
    let mut on_event = |pipeline: &mut EventPipeline, data: &str, failure: &mut Option<StreamError>| {
        // An event whose data is blank carries no AG-UI event (a keep-alive); it is not JSON to judge.
        if failure.is_none() && !data.chars().all(char::is_whitespace) {
            // As with `push_str`: a push that fails counts none of its events.
            let mut n = 0usize;
            match pipeline.push_str_with(data, |_| n += 1) {
                Ok(()) => delivered += n,
                Err(e) => *failure = Some(e.into()),
            }
        }
    };
    let framed = decoder.push_with(body, |e| on_event(&mut pipeline, &e.data, &mut failure));
    let framed = framed.and_then(|()| decoder.finish_with(|e| on_event(&mut pipeline, &e.data, &mut failure)));
    if let (Err(e), None) = (framed, &failure) {
        failure = Some(e.into());
    }
    StreamSummary { conversation: pipeline.into_conversation(), delivered_events: delivered, error: failure }
}
