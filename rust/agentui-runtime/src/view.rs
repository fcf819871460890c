//! What a UI shows, built once, in the core: chat items and index-based list diffs.
//!
//! A [`ViewFeed`] turns one subscriber's [`Observed`] sequence into [`ViewBatch`]es, so that a
//! platform applies generic list diffs (`Reset`, `Insert`, `Set`, a text append for the
//! streaming tail) and replaces a few small values, and interprets nothing: no reducer, no JSON
//! Patch, no marks of its own. The feed keeps positions and marks only (ids, kept-local reasons,
//! waiting message ids, open steps), never a copy of the messages: those are held once, by the
//! conversation's model, and on the platform as the values it published.
//!
//! Assistant and reasoning text also arrives as a Markdown tree ([`ChatItem::markdown`]), parsed
//! here once for both platforms: a message's [`MarkdownStream`] takes its streamed pieces, and at
//! the end of each batch the blocks that changed go out as [`MessageDiff::Markdown`] ("blocks from
//! index `from` are now …"); finished blocks are never parsed or sent again (see
//! [`agentui_markdown::stream`] for the bound on the work per delta). A feed keeps the open tail
//! of each streaming message's text for that, and drops it when the run ends.
//!
//! A batch ends after an event (`CUSTOM`, `RAW`, a step, a warning), so a platform that applies
//! the batch and then hands the event to the app shows the state as it was when the event came.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use agentui_a2ui::functions::UrlPolicy;
use agentui_markdown::{MarkdownOptions, MarkdownStream, MarkdownText, MdBlock, Profile};

use agentui_agui::message::{ContentPart, Interrupt, MessageContent, Role};
use agentui_agui::patch::{apply_patch_weighed, PatchBounds};
use agentui_agui::reducer::LocalOnly;
use agentui_agui::Message;
use serde_json::Value;

use crate::timeline::{Timeline, TimelineChange, TimelineItemKind};

use crate::observe::{
    ConsentRequest, ConversationDelta, ConversationSnapshot, Observed, PendingSend, PendingSendKind, RunPhase,
    SessionWarning, SurfaceEntry, ToolCallUpdate,
};

/// A call an assistant message made; `arguments_json` is the text the model produced (it grows
/// while the arguments stream).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct MessageToolCall {
    pub id: String,
    pub name: String,
    pub arguments_json: String,
}

/// One chat message as a UI shows it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ChatItem {
    pub id: String,
    pub role: Role,
    /// The text: a text content, or the text parts of a multimodal one joined; empty if none.
    pub text: String,
    /// The content when it is more than text (parts, an activity's object); `None` for a text
    /// content, which is `text`.
    pub content: Option<MessageContent>,
    pub tool_calls: Vec<MessageToolCall>,
    pub tool_call_id: Option<String>,
    pub error: Option<String>,
    pub activity_type: Option<String>,
    /// Set when the message stays on this device and is not sent back: `Cancelled` is text cut
    /// short (show it as incomplete, never as a finished answer), `OrphanToolResult` a result that
    /// matched no call.
    pub local_only: Option<LocalOnly>,
    /// A user message the agent has not received yet (see `ConversationSnapshot::pending_sends`).
    pub pending: bool,
    /// `text` as Markdown, for assistant and reasoning messages; `None` for the others. While a
    /// long block streams, the tree may cover less than `text`: show the rest as plain text
    /// after the last block (see [`MarkdownText`]).
    pub markdown: Option<MarkdownText>,
}

impl ChatItem {
    fn new(message: &Message, local_only: Option<LocalOnly>, pending: bool) -> Self {
        let text = match &message.content {
            Some(MessageContent::Text(text)) => text.clone(),
            Some(MessageContent::Parts(parts)) => parts
                .iter()
                .filter_map(|part| match part {
                    ContentPart::Text(text) => Some(text.text.as_str()),
                    _ => None,
                })
                .collect(),
            Some(MessageContent::Object(_)) | None => String::new(),
        };
        ChatItem {
            id: message.id.clone(),
            role: message.role,
            text,
            content: match &message.content {
                Some(MessageContent::Text(_)) | None => None,
                Some(MessageContent::Parts(parts)) => {
                    Some(MessageContent::Parts(parts.iter().map(checked_part).collect()))
                }
                other => other.clone(),
            },
            tool_calls: message
                .tool_calls
                .iter()
                .flatten()
                .map(|call| MessageToolCall {
                    id: call.id.clone(),
                    name: call.function.name.clone(),
                    arguments_json: call.function.arguments.clone(),
                })
                .collect(),
            tool_call_id: message.tool_call_id.clone(),
            error: message.error.clone(),
            activity_type: message.activity_type.clone(),
            local_only,
            pending,
            markdown: None,
        }
    }
}

/// Whether a message's text is shown as Markdown.
fn shows_markdown(role: Role) -> bool {
    matches!(role, Role::Assistant | Role::Reasoning)
}

/// A media part as a UI may show it: a URL the media URL policy refuses (a scheme other than
/// http and https: `javascript:`, `file:`, an app's own) is emptied, with the reason in the
/// part's `metadata.agentuiBlocked`, so no view loads it. Inline data and provider file handles
/// are never fetched and stay as they are.
pub(crate) fn checked_part(part: &ContentPart) -> ContentPart {
    let media = match part {
        ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => p,
        ContentPart::Text(_) => return part.clone(),
    };
    let agentui_agui::PartSource::Url { value, mime_type } = &media.source else { return part.clone() };
    let Err(reason) = agentui_a2ui::functions::UrlPolicy::default().check(value) else { return part.clone() };
    let mut metadata = match &media.metadata {
        Some(serde_json::Value::Object(map)) => map.clone(),
        _ => serde_json::Map::new(),
    };
    metadata.insert("agentuiBlocked".to_owned(), serde_json::Value::String(reason));
    let blocked = agentui_agui::MediaPart {
        id: media.id.clone(),
        source: agentui_agui::PartSource::Url { value: String::new(), mime_type: mime_type.clone() },
        metadata: Some(serde_json::Value::Object(metadata)),
    };
    match part {
        ContentPart::Image(_) => ContentPart::Image(blocked),
        ContentPart::Audio(_) => ContentPart::Audio(blocked),
        ContentPart::Video(_) => ContentPart::Video(blocked),
        _ => ContentPart::Document(blocked),
    }
}

/// Inline media data longer than this (base64 characters) is held back from views: a chat item
/// carries the part's MIME type, name and decoded length (`metadata.agentuiHeldBytes`) with an
/// empty `data` value, and the platform fetches the bytes when it shows them
/// ([`crate::Conversation::media_bytes`]). A photo then exists once in the conversation, not again
/// in every view queue, chat item and platform copy. Smaller data (icons) stays inline.
pub const VIEW_INLINE_DATA_LIMIT: usize = 16 * 1024;

/// The metadata key of a held-back part's decoded byte length (see [`VIEW_INLINE_DATA_LIMIT`]).
pub const HELD_BYTES_KEY: &str = "agentuiHeldBytes";

/// `message` as views receive it: a copy without its large inline media data (see
/// [`VIEW_INLINE_DATA_LIMIT`]); the data is never copied.
pub(crate) fn for_view(message: &Message) -> Message {
    let Some(MessageContent::Parts(parts)) = &message.content else { return message.clone() };
    if !parts.iter().any(holds_large_data) {
        return message.clone();
    }
    Message {
        id: message.id.clone(),
        role: message.role,
        content: Some(MessageContent::Parts(parts.iter().map(held_back).collect())),
        name: message.name.clone(),
        tool_calls: message.tool_calls.clone(),
        tool_call_id: message.tool_call_id.clone(),
        error: message.error.clone(),
        activity_type: message.activity_type.clone(),
        encrypted_value: message.encrypted_value.clone(),
        encrypted_value_type: message.encrypted_value_type.clone(),
        metadata: message.metadata.clone(),
        subagent_run_id: message.subagent_run_id.clone(),
    }
}

fn media(part: &ContentPart) -> Option<&agentui_agui::MediaPart> {
    match part {
        ContentPart::Image(p) | ContentPart::Audio(p) | ContentPart::Video(p) | ContentPart::Document(p) => Some(p),
        ContentPart::Text(_) => None,
    }
}

fn holds_large_data(part: &ContentPart) -> bool {
    crate::store::media::stored_reference(part).is_some()
        || media(part).is_some_and(
            |p| matches!(&p.source, agentui_agui::PartSource::Data { value, .. } if value.len() > VIEW_INLINE_DATA_LIMIT),
        )
}

/// A part without its large inline data, its decoded length in the metadata. A part the store
/// holds in a file is shown the same way (its reference is the store's, not the view's).
pub(crate) fn held_back(part: &ContentPart) -> ContentPart {
    let Some(media) = media(part).filter(|_| holds_large_data(part)) else { return part.clone() };
    let agentui_agui::PartSource::Data { value, mime_type } = &media.source else { return part.clone() };
    let mut metadata = match &media.metadata {
        Some(Value::Object(map)) => map.clone(),
        _ => serde_json::Map::new(),
    };
    let held_bytes = match crate::store::media::stored_reference(part) {
        Some((_, length)) => {
            crate::store::media::stored_bytes(part).unwrap_or_else(|| crate::store::media::decoded_len(length, 0))
        }
        None => decoded_len(value),
    };
    metadata.remove(crate::store::STORED_KEY);
    metadata.insert(HELD_BYTES_KEY.to_owned(), Value::from(held_bytes));
    let held = agentui_agui::MediaPart {
        id: media.id.clone(),
        source: agentui_agui::PartSource::Data { value: String::new(), mime_type: mime_type.clone() },
        metadata: Some(Value::Object(metadata)),
    };
    match part {
        ContentPart::Image(_) => ContentPart::Image(held),
        ContentPart::Audio(_) => ContentPart::Audio(held),
        ContentPart::Video(_) => ContentPart::Video(held),
        _ => ContentPart::Document(held),
    }
}

/// The byte length base64 text decodes to (padded or not), without decoding it.
fn decoded_len(base64: &str) -> u64 {
    let trimmed = base64.trim_end_matches('=');
    (trimmed.len() as u64 * 3) / 4
}

#[cfg(test)]
mod media_policy_tests {
    use super::*;
    use agentui_agui::{MediaPart, PartSource};

    fn image(url: &str) -> ContentPart {
        ContentPart::Image(MediaPart {
            id: None,
            source: PartSource::Url { value: url.to_owned(), mime_type: Some("image/png".to_owned()) },
            metadata: None,
        })
    }

    #[test]
    fn media_urls_outside_the_policy_are_emptied_and_say_why() {
        assert_eq!(checked_part(&image("https://example.com/a.png")), image("https://example.com/a.png"));
        for url in ["javascript:alert(1)", "file:///etc/passwd", "myapp://x"] {
            let ContentPart::Image(blocked) = checked_part(&image(url)) else { panic!() };
            assert_eq!(
                blocked.source,
                PartSource::Url { value: String::new(), mime_type: Some("image/png".to_owned()) }
            );
            assert!(blocked.metadata.unwrap()["agentuiBlocked"].is_string(), "{url}");
        }
    }

    #[test]
    fn views_get_large_inline_data_as_its_length_and_small_data_whole() {
        use base64::Engine as _;
        let part = |bytes: &[u8]| {
            ContentPart::Image(MediaPart {
                id: None,
                source: PartSource::Data {
                    value: base64::engine::general_purpose::STANDARD.encode(bytes),
                    mime_type: "image/png".to_owned(),
                },
                metadata: Some(serde_json::json!({ "filename": "a.png" })),
            })
        };
        let mut message = Message::new("m", Role::User);
        let (small, large) = (part(&[7; 100]), part(&vec![7; 20_000]));
        message.content = Some(MessageContent::Parts(vec![small.clone(), large]));
        let seen = for_view(&message);
        let Some(MessageContent::Parts(parts)) = &seen.content else { panic!() };
        assert_eq!(parts[0], small);
        let ContentPart::Image(held) = &parts[1] else { panic!() };
        assert_eq!(held.source, PartSource::Data { value: String::new(), mime_type: "image/png".to_owned() });
        assert_eq!(held.metadata, Some(serde_json::json!({ "filename": "a.png", HELD_BYTES_KEY: 20_000 })));
        for n in [0usize, 1, 2, 3, 4, 5, 20_000, 20_001] {
            let text = base64::engine::general_purpose::STANDARD.encode(vec![0u8; n]);
            assert_eq!(decoded_len(&text), n as u64, "{n}");
            assert_eq!(decoded_len(text.trim_end_matches('=')), n as u64, "{n} unpadded");
        }
    }
}

/// A change to the list of chat items, by position.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum MessageDiff {
    /// The whole list.
    Reset {
        items: Vec<ChatItem>,
    },
    Insert {
        index: u32,
        item: ChatItem,
    },
    Set {
        index: u32,
        item: ChatItem,
    },
    /// Streamed text: append `text` to the item's `text`.
    AppendText {
        index: u32,
        text: String,
    },
    /// Streamed arguments: append `text` to tool call `call` of the item.
    AppendArguments {
        index: u32,
        call: u32,
        text: String,
    },
    /// The item's marks changed; the rest of it did not.
    Marks {
        index: u32,
        local_only: Option<LocalOnly>,
        pending: bool,
    },
    /// The item's Markdown blocks from index `from` on are now `blocks` (the ones before stay),
    /// and they cover the item's text up to `covered_utf8` bytes (`covered_utf16` code units).
    Markdown {
        index: u32,
        from: u32,
        blocks: Vec<MdBlock>,
        covered_utf8: u64,
        covered_utf16: u64,
    },
}

/// A change to the ordered list of tool calls (each call's last phase), by position.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ToolCallDiff {
    Reset { calls: Vec<ToolCallUpdate> },
    Insert { index: u32, call: ToolCallUpdate },
    Set { index: u32, call: ToolCallUpdate },
}

/// What the agent streams besides the conversation's state, in stream order.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Enum))]
pub enum ViewEvent {
    /// A `CUSTOM` event, as it came.
    Custom {
        name: String,
        value: Value,
    },
    /// A `RAW` event, as it came.
    Raw {
        event: Value,
        source: Option<String>,
    },
    StepStarted {
        name: String,
    },
    StepFinished {
        name: String,
    },
    /// A non-fatal observation (a dropped event, a tool result kept local...).
    Warning {
        warning: SessionWarning,
    },
}

/// What changed since the previous batch. A platform applies the diffs and replaces the values
/// that are set, publishes, then hands `event` (if any) to the app.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "uniffi", derive(uniffi::Record))]
pub struct ViewBatch {
    /// The batch starts from the whole state (the first batch, and after falling behind): every
    /// value below is set, and the lists start with a `Reset`.
    pub reset: bool,
    pub messages: Vec<MessageDiff>,
    pub tool_calls: Vec<ToolCallDiff>,
    pub phase: Option<RunPhase>,
    /// The steps of the current run that started and have not finished, outermost first.
    pub active_steps: Option<Vec<String>>,
    pub interrupts: Option<Vec<Interrupt>>,
    /// The calls waiting for the user's consent (see [`ConsentRequest`]), all of them, when they
    /// changed.
    pub consent_requests: Option<Vec<ConsentRequest>>,
    /// The tools the user allowed for the rest of the conversation, all of them, when they
    /// changed.
    pub consent_grants: Option<Vec<String>>,
    pub surfaces: Option<Vec<SurfaceEntry>>,
    pub pending_sends: Option<Vec<PendingSend>>,
    /// The shared state, when it changed: read once for the batch.
    pub state: Option<Value>,
    /// At most one, the batch's last item: the app gets it after the values above are published.
    pub event: Option<ViewEvent>,
    /// The highest barrier (see `ViewSubscription::barrier`) this batch completes; 0 if none yet.
    pub settled: u64,
    /// The changes to the conversation's timeline (see [`crate::timeline`]), in order; a reset
    /// batch starts with the whole list. Empty unless the view was asked for it
    /// (`Conversation::subscribe_timeline_view`).
    pub timeline: Vec<TimelineChange>,
}

impl ViewBatch {
    /// Whether the batch carries nothing (only `settled` moved).
    pub fn is_empty(&self) -> bool {
        !self.reset
            && self.messages.is_empty()
            && self.tool_calls.is_empty()
            && self.phase.is_none()
            && self.active_steps.is_none()
            && self.interrupts.is_none()
            && self.consent_requests.is_none()
            && self.consent_grants.is_none()
            && self.surfaces.is_none()
            && self.pending_sends.is_none()
            && self.state.is_none()
            && self.event.is_none()
            && self.timeline.is_empty()
    }

    /// Whether this batch must end here: after an event, the app sees the state of that moment.
    pub(crate) fn ends(&self) -> bool {
        self.event.is_some()
    }
}

/// How chat text becomes Markdown; by default the chat profile, links through the default URL
/// policy (http and https, as `openUrl`), images off. `None`: no tree.
#[derive(Debug, Clone)]
struct ChatMarkdown(Option<Arc<MarkdownOptions>>);

impl Default for ChatMarkdown {
    fn default() -> Self {
        ChatMarkdown(Some(Arc::new(MarkdownOptions::new(Profile::Chat, Arc::new(UrlPolicy::default())))))
    }
}

/// One subscriber's positions and marks, to turn its deltas into [`ViewBatch`]es.
#[derive(Debug, Default)]
pub struct ViewFeed {
    messages: Vec<String>,
    message_index: HashMap<String, usize>,
    /// The tool call ids of each message with calls, in order: where streamed arguments go.
    calls: HashMap<String, Vec<String>>,
    kept_local: HashMap<String, LocalOnly>,
    waiting: HashSet<String>,
    tool_calls: HashMap<String, usize>,
    steps: Vec<String>,
    surfaces: Vec<SurfaceEntry>,
    markdown: ChatMarkdown,
    /// The Markdown parse of each assistant or reasoning message that may still stream.
    streams: HashMap<String, MarkdownStream>,
    /// Messages whose stream took text in this batch, in the order they first did.
    streamed: Vec<String>,
    /// The conversation's rows, when this view carries them.
    timeline: Option<Timeline>,
}

fn index(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

impl ViewFeed {
    pub fn new() -> Self {
        ViewFeed::default()
    }

    /// A feed whose chat Markdown follows `options` (an app's URL policy, images on), or that
    /// builds no tree (`None`: an app that draws its text itself).
    pub fn with_markdown(options: Option<Arc<MarkdownOptions>>) -> Self {
        ViewFeed { markdown: ChatMarkdown(options), ..ViewFeed::default() }
    }

    /// This feed, carrying the conversation's timeline too ([`ViewBatch::timeline`]).
    pub fn with_timeline(self) -> Self {
        ViewFeed { timeline: Some(Timeline::new()), ..self }
    }

    /// Ends `batch`: the Markdown of the messages that streamed in it, where it changed enough
    /// to be parsed again.
    pub fn finish(&mut self, batch: &mut ViewBatch) {
        for id in std::mem::take(&mut self.streamed) {
            if let (Some(&at), Some(stream)) = (self.message_index.get(&id), self.streams.get_mut(&id)) {
                if let Some(update) = stream.update() {
                    fold_markdown(&mut batch.messages, at, update);
                }
            }
        }
    }

    /// Parses what every stream has pending, and forgets them: the run that streamed is over.
    fn flush_streams(&mut self, batch: &mut ViewBatch) {
        self.streamed.clear();
        let mut flushed: Vec<(usize, agentui_markdown::MarkdownUpdate)> = self
            .streams
            .iter_mut()
            .filter_map(|(id, stream)| Some((*self.message_index.get(id)?, stream.flush()?)))
            .collect();
        flushed.sort_by_key(|(at, _)| *at);
        batch.messages.extend(flushed.into_iter().map(|(at, update)| markdown_diff(at, update)));
        self.streams.clear();
    }

    /// Adds `item` to `batch`. `state` reads the model's current state, once per batch, when a
    /// state change is met. False once the batch must end (it carries an event).
    pub fn push(&mut self, batch: &mut ViewBatch, item: &Observed, state: &mut dyn FnMut() -> Value) -> bool {
        if let Some(timeline) = self.timeline.as_mut() {
            for change in timeline.apply(item) {
                join_timeline_change(&mut batch.timeline, change);
            }
        }
        match item {
            Observed::Snapshot(snapshot) => self.reset(batch, snapshot),
            Observed::Delta(delta) => self.delta(batch, delta, state),
        }
        !batch.ends()
    }

    fn reset(&mut self, batch: &mut ViewBatch, snapshot: &ConversationSnapshot) {
        *self = ViewFeed { markdown: self.markdown.clone(), timeline: self.timeline.take(), ..ViewFeed::default() };
        self.kept_local = snapshot.kept_local.iter().map(|k| (k.message_id.clone(), k.reason)).collect();
        self.waiting = waiting_ids(&snapshot.pending_sends);
        self.steps = snapshot.active_steps.clone();
        self.surfaces = snapshot.surfaces.clone();
        let items = self.reindex(&snapshot.messages);
        *batch = ViewBatch {
            reset: true,
            messages: vec![MessageDiff::Reset { items }],
            tool_calls: vec![ToolCallDiff::Reset { calls: snapshot.tool_calls.clone() }],
            phase: Some(snapshot.phase.clone()),
            active_steps: Some(self.steps.clone()),
            interrupts: Some(snapshot.pending_interrupts.clone()),
            consent_requests: Some(snapshot.consent_requests.clone()),
            consent_grants: Some(snapshot.consent_grants.clone()),
            surfaces: Some(self.surfaces.clone()),
            pending_sends: Some(snapshot.pending_sends.clone()),
            state: Some(snapshot.state.clone()),
            event: None,
            settled: batch.settled,
            // The timeline's reset, made in `push` before this.
            timeline: std::mem::take(&mut batch.timeline),
        };
        self.tool_calls = snapshot.tool_calls.iter().enumerate().map(|(i, t)| (t.tool_call_id.clone(), i)).collect();
    }

    /// Positions of `messages`, and their items with this feed's marks.
    fn reindex(&mut self, messages: &[Message]) -> Vec<ChatItem> {
        self.messages = messages.iter().map(|m| m.id.clone()).collect();
        self.message_index = self.messages.iter().enumerate().map(|(i, id)| (id.clone(), i)).collect();
        self.calls.clear();
        self.streams.clear();
        self.streamed.clear();
        messages.iter().map(|m| self.item(m)).collect()
    }

    /// `message` as an item with this feed's marks; notes its calls' order.
    fn item(&mut self, message: &Message) -> ChatItem {
        let mut item =
            ChatItem::new(message, self.kept_local.get(&message.id).copied(), self.waiting.contains(&message.id));
        // Built whole: its tree too, and the stream that later pieces of its text go to.
        self.streamed.retain(|id| *id != message.id);
        if let (true, Some(options)) = (shows_markdown(message.role), &self.markdown.0) {
            let (stream, tree) = MarkdownStream::start(&item.text, options.clone());
            self.streams.insert(message.id.clone(), stream);
            item.markdown = Some(tree);
        } else {
            self.streams.remove(&message.id);
        }
        if item.tool_calls.is_empty() {
            self.calls.remove(&message.id);
        } else {
            self.calls.insert(message.id.clone(), item.tool_calls.iter().map(|c| c.id.clone()).collect());
        }
        item
    }

    fn marks(&self, id: &str, at: usize) -> MessageDiff {
        MessageDiff::Marks {
            index: index(at),
            local_only: self.kept_local.get(id).copied(),
            pending: self.waiting.contains(id),
        }
    }

    fn delta(&mut self, batch: &mut ViewBatch, delta: &ConversationDelta, state: &mut dyn FnMut() -> Value) {
        match delta {
            ConversationDelta::MessageAdded(message) | ConversationDelta::MessageReplaced(message) => {
                let item = self.item(message);
                match self.message_index.get(&message.id) {
                    Some(&at) => {
                        // Replaced after this batch's insert or replacement of it (a tool call
                        // started after the text): that diff takes the new item, which crosses once.
                        let at = index(at);
                        match batch.messages.last_mut() {
                            Some(
                                MessageDiff::Insert { index, item: queued } | MessageDiff::Set { index, item: queued },
                            ) if *index == at => *queued = item,
                            _ => batch.messages.push(MessageDiff::Set { index: at, item }),
                        }
                    }
                    None => {
                        let at = self.messages.len();
                        self.messages.push(message.id.clone());
                        self.message_index.insert(message.id.clone(), at);
                        batch.messages.push(MessageDiff::Insert { index: index(at), item });
                    }
                }
            }
            ConversationDelta::TextAppended { message_id, delta } => {
                if let Some(&at) = self.message_index.get(message_id) {
                    let at = index(at);
                    // Pieces of one message in a row join: one append per frame while it streams,
                    // none for a message this batch inserts or replaces (its item takes them).
                    match batch.messages.last_mut() {
                        Some(MessageDiff::AppendText { index, text }) if *index == at => text.push_str(delta),
                        Some(MessageDiff::Insert { index, item } | MessageDiff::Set { index, item })
                            if *index == at =>
                        {
                            item.text.push_str(delta)
                        }
                        _ => batch.messages.push(MessageDiff::AppendText { index: at, text: delta.clone() }),
                    }
                    // Parsed at the batch's end (`finish`), once however many pieces it joined.
                    if let Some(stream) = self.streams.get_mut(message_id) {
                        stream.push(delta);
                        if !self.streamed.contains(message_id) {
                            self.streamed.push(message_id.clone());
                        }
                    }
                }
            }
            ConversationDelta::ToolCallArgsAppended { message_id, tool_call_id, delta } => {
                // The call's position in its message: the platform's item has the same calls.
                let call = self.calls.get(message_id).and_then(|calls| calls.iter().position(|c| c == tool_call_id));
                if let (Some(&at), Some(call)) = (self.message_index.get(message_id), call) {
                    let (at, call) = (index(at), index(call));
                    match batch.messages.last_mut() {
                        Some(MessageDiff::AppendArguments { index, call: c, text }) if *index == at && *c == call => {
                            text.push_str(delta)
                        }
                        Some(MessageDiff::Insert { index, item } | MessageDiff::Set { index, item })
                            if *index == at && (call as usize) < item.tool_calls.len() =>
                        {
                            item.tool_calls[call as usize].arguments_json.push_str(delta)
                        }
                        _ => batch.messages.push(MessageDiff::AppendArguments { index: at, call, text: delta.clone() }),
                    }
                }
            }
            ConversationDelta::MessagesReset(messages) => {
                // A reset clears the marks; the core re-sends the ones that still hold.
                self.kept_local.clear();
                let items = self.reindex(messages);
                batch.messages = vec![MessageDiff::Reset { items }];
            }
            ConversationDelta::MessageKeptLocal { message_id, reason } => {
                self.kept_local.insert(message_id.clone(), *reason);
                if let Some(&at) = self.message_index.get(message_id) {
                    batch.messages.push(self.marks(message_id, at));
                }
            }
            ConversationDelta::PendingSends(pending) => {
                let now = waiting_ids(pending);
                let mut changed: Vec<&String> = now.symmetric_difference(&self.waiting).collect();
                changed.sort_by_key(|id| self.message_index.get(*id).copied().unwrap_or(usize::MAX));
                let changed: Vec<String> = changed.into_iter().cloned().collect();
                self.waiting = now;
                for id in changed {
                    if let Some(&at) = self.message_index.get(&id) {
                        batch.messages.push(self.marks(&id, at));
                    }
                }
                batch.pending_sends = Some(pending.clone());
            }
            ConversationDelta::StatePatched(_) | ConversationDelta::StateReplaced(_) => batch.state = Some(state()),
            ConversationDelta::StateResyncNeeded { .. } => {}
            ConversationDelta::RunPhase(phase) => {
                // The run's text is complete: its trees catch up with it, and the streams go.
                if !matches!(phase, RunPhase::Running { .. }) {
                    self.flush_streams(batch);
                }
                // Steps belong to one run: none is open before it streams or after it ended.
                if !matches!(phase, RunPhase::Running { .. }) && !self.steps.is_empty() {
                    self.steps.clear();
                    batch.active_steps = Some(Vec::new());
                }
                batch.phase = Some(phase.clone());
            }
            ConversationDelta::ToolCall(update) => match self.tool_calls.get(&update.tool_call_id) {
                // A call's phases in a row take one diff: the platform publishes the last anyway.
                Some(&at) => {
                    let at = index(at);
                    match batch.tool_calls.last_mut() {
                        Some(ToolCallDiff::Insert { index, call } | ToolCallDiff::Set { index, call })
                            if *index == at =>
                        {
                            *call = update.clone()
                        }
                        _ => batch.tool_calls.push(ToolCallDiff::Set { index: at, call: update.clone() }),
                    }
                }
                None => {
                    let at = self.tool_calls.len();
                    self.tool_calls.insert(update.tool_call_id.clone(), at);
                    batch.tool_calls.push(ToolCallDiff::Insert { index: index(at), call: update.clone() });
                }
            },
            ConversationDelta::Interrupts(pending) => batch.interrupts = Some(pending.clone()),
            ConversationDelta::Consent { requests, granted_tools } => {
                batch.consent_requests = Some(requests.clone());
                batch.consent_grants = Some(granted_tools.clone());
            }
            ConversationDelta::SurfaceAdded(entry) => {
                self.surfaces.retain(|s| s.surface_id != entry.surface_id);
                self.surfaces.push(entry.clone());
                batch.surfaces = Some(self.surfaces.clone());
            }
            ConversationDelta::SurfaceRemoved { surface_id } => {
                self.surfaces.retain(|s| s.surface_id != *surface_id);
                batch.surfaces = Some(self.surfaces.clone());
            }
            ConversationDelta::Step { name, started } => {
                if *started {
                    self.steps.push(name.clone());
                    batch.event = Some(ViewEvent::StepStarted { name: name.clone() });
                } else {
                    if let Some(at) = self.steps.iter().rposition(|s| s == name) {
                        self.steps.remove(at);
                    }
                    batch.event = Some(ViewEvent::StepFinished { name: name.clone() });
                }
                batch.active_steps = Some(self.steps.clone());
            }
            ConversationDelta::Warning(warning) => batch.event = Some(ViewEvent::Warning { warning: warning.clone() }),
            ConversationDelta::Custom { name, value } => {
                batch.event = Some(ViewEvent::Custom { name: name.clone(), value: value.clone() })
            }
            ConversationDelta::Raw { event, source } => {
                batch.event = Some(ViewEvent::Raw { event: event.clone(), source: source.clone() })
            }
        }
    }
}

/// Adds `change` to a batch's timeline changes: a reset drops what came before it, and a streamed
/// piece joins the previous piece of the same row, or the text of the row this batch inserts or
/// updates (one change per row and frame while it streams).
fn join_timeline_change(changes: &mut Vec<TimelineChange>, change: TimelineChange) {
    match (changes.last_mut(), change) {
        (_, change @ TimelineChange::Reset { .. }) => *changes = vec![change],
        (
            Some(TimelineChange::TextAppended { index, text, .. }),
            TimelineChange::TextAppended { index: at, text: more, .. },
        ) if *index == at => text.push_str(&more),
        (
            Some(TimelineChange::Inserted { index, item } | TimelineChange::Updated { index, item }),
            TimelineChange::TextAppended { index: at, text: more, .. },
        ) if *index == at => {
            if let TimelineItemKind::UserMessage { text, .. } | TimelineItemKind::AgentMessage { text, .. } =
                &mut item.kind
            {
                text.push_str(&more)
            }
        }
        (_, change) => changes.push(change),
    }
}

/// Sends `update` for the item at `at`: inside the item when this batch's last word on it is its
/// insert or replacement (whose text already holds the streamed pieces), else as its own diff.
fn fold_markdown(diffs: &mut Vec<MessageDiff>, at: usize, update: agentui_markdown::MarkdownUpdate) {
    let target = index(at);
    let last = diffs.iter_mut().rev().find(|diff| match diff {
        MessageDiff::Insert { index, .. } | MessageDiff::Set { index, .. } | MessageDiff::AppendText { index, .. } => {
            *index == target
        }
        _ => false,
    });
    if let Some(MessageDiff::Insert { item, .. } | MessageDiff::Set { item, .. }) = last {
        if let Some(tree) = item.markdown.as_mut() {
            tree.blocks.truncate(update.from as usize);
            tree.blocks.extend(update.blocks);
            tree.covered_utf8 = update.covered_utf8;
            tree.covered_utf16 = update.covered_utf16;
            return;
        }
    }
    diffs.push(markdown_diff(at, update));
}

fn markdown_diff(at: usize, update: agentui_markdown::MarkdownUpdate) -> MessageDiff {
    MessageDiff::Markdown {
        index: index(at),
        from: update.from,
        blocks: update.blocks,
        covered_utf8: update.covered_utf8,
        covered_utf16: update.covered_utf16,
    }
}

fn waiting_ids(pending: &[PendingSend]) -> HashSet<String> {
    pending
        .iter()
        .filter_map(|entry| match &entry.kind {
            PendingSendKind::Message { message_id, .. } => Some(message_id.clone()),
            PendingSendKind::Action { .. } => None,
        })
        .collect()
}

/// The batches a subscriber that joins at `snapshot` and reads after `deltas` gets: what the
/// platforms' shared adapter cases (tests/adapter-cases) are played through, so both apply what
/// the core really builds. Batches end at events, as when read live.
pub fn replay(snapshot: ConversationSnapshot, deltas: &[ConversationDelta]) -> Vec<ViewBatch> {
    // The state as the session would hold it after each delta (a batch carries it whole).
    let mut state = snapshot.state.clone();
    let mut feed = ViewFeed::new();
    let mut batches = Vec::new();
    let mut batch = ViewBatch::default();
    feed.push(&mut batch, &Observed::Snapshot(Box::new(snapshot)), &mut || Value::Null);
    for delta in deltas {
        match delta {
            ConversationDelta::StateReplaced(value) => state = value.clone(),
            // The session tells of a patch only once it applied; one that fails leaves the
            // state as it was, there and here.
            ConversationDelta::StatePatched(ops) => {
                let _ = apply_patch_weighed(&mut state, None, ops, PatchBounds::UNBOUNDED);
            }
            _ => {}
        }
        let more = feed.push(&mut batch, &Observed::Delta(delta.clone()), &mut || state.clone());
        if !more {
            feed.finish(&mut batch);
            batches.push(std::mem::take(&mut batch));
        }
    }
    feed.finish(&mut batch);
    if !batch.is_empty() {
        batches.push(batch);
    }
    batches
}
