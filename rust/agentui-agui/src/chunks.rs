//! Expansion of the `*_CHUNK` shorthand into start/content/end events.
//!
//! A chunk stream is assembled per *lane*: the subagent its chunks are attributed to, or the
//! parent agent. A lane holds at most one open stream, because a continuation chunk identifies
//! its stream only as "the one already open". What closes a lane:
//! - the next explicit (non-chunk) event of the same lane, except the pass-through events
//!   (`RAW`, activities, encrypted values, `SUBAGENT_STARTED`);
//! - a subagent's own terminal (`SUBAGENT_FINISHED` / `SUBAGENT_ERROR`), for its lane only;
//! - a run-level event (`RUN_*`, `MESSAGES_SNAPSHOT`), for every lane;
//! - a chunk for a different stream in the same lane.
//!
//! Text, tool-call and reasoning chunks expand the same way; what sets them apart is data: the
//! fields each may state besides its id (`Claims`), what its opener establishes (`Opener`), and
//! the names and events of its kind (`Kind`).

use crate::error::ProtocolError;
use crate::event::*;
use crate::message::{Metadata, TextMessageRole};

type Owner = Option<String>;

/// What a chunk stream assembles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Tool,
    Reasoning,
}

/// How errors name a kind's chunks and streams.
struct Names {
    chunk_type: &'static str,
    id_field: &'static str,
    stream: &'static str,
}

impl Kind {
    fn names(self) -> Names {
        match self {
            Kind::Text => Names { chunk_type: "TEXT_MESSAGE_CHUNK", id_field: "messageId", stream: "text message" },
            Kind::Tool => Names { chunk_type: "TOOL_CALL_CHUNK", id_field: "toolCallId", stream: "tool call" },
            Kind::Reasoning => {
                Names { chunk_type: "REASONING_MESSAGE_CHUNK", id_field: "messageId", stream: "reasoning message" }
            }
        }
    }

    /// The event that carries one chunk's delta.
    fn content(self, id: String, delta: String, subagent_run_id: Owner, base: EventBase) -> Event {
        match self {
            Kind::Text => {
                Event::TextMessageContent(TextMessageContent { message_id: id, delta, subagent_run_id, base })
            }
            Kind::Tool => Event::ToolCallArgs(ToolCallArgs { tool_call_id: id, delta, subagent_run_id, base }),
            Kind::Reasoning => {
                Event::ReasoningMessageContent(ReasoningMessageContent { message_id: id, delta, subagent_run_id, base })
            }
        }
    }

    /// The synthesized event that closes a stream.
    fn end(self, id: String, subagent_run_id: Owner) -> Event {
        let base = EventBase::default();
        match self {
            Kind::Text => Event::TextMessageEnd(TextMessageEnd { message_id: id, subagent_run_id, base }),
            Kind::Tool => Event::ToolCallEnd(ToolCallEnd { tool_call_id: id, subagent_run_id, base }),
            Kind::Reasoning => {
                Event::ReasoningMessageEnd(ReasoningMessageEnd { message_id: id, subagent_run_id, base })
            }
        }
    }
}

/// The fields besides its id that a chunk may state about its stream: a first chunk establishes
/// them, a continuation may repeat them.
enum Claims {
    Text { role: Option<TextMessageRole>, name: Option<String> },
    Tool { tool_call_name: Option<String>, parent_message_id: Option<String> },
    // A reasoning message has nothing to establish besides its id.
    Reasoning,
}

impl Claims {
    fn kind(&self) -> Kind {
        match self {
            Claims::Text { .. } => Kind::Text,
            Claims::Tool { .. } => Kind::Tool,
            Claims::Reasoning => Kind::Reasoning,
        }
    }

    /// What a first chunk establishes, or the wire name of a field its start event needs and
    /// it lacks.
    fn into_opener(self) -> Result<Opener, &'static str> {
        Ok(match self {
            Claims::Text { role, name } => Opener::Text { role: role.unwrap_or(TextMessageRole::Assistant), name },
            Claims::Tool { tool_call_name, parent_message_id } => {
                Opener::Tool { tool_call_name: tool_call_name.ok_or("toolCallName")?, parent_message_id }
            }
            Claims::Reasoning => Opener::Reasoning,
        })
    }

    /// Fails when a continuation repeats a field of the open stream `id` with another value.
    fn check_repeated(&self, id: &str, opener: &Opener) -> Result<(), ProtocolError> {
        let kind = self.kind();
        match (self, opener) {
            (Claims::Text { role, name }, Opener::Text { role: opened_as, name: opened_name }) => {
                require_agreement(kind, id, "role", role.map(|r| r.as_str()), Some(opened_as.as_str()))?;
                require_agreement(kind, id, "name", name.as_deref(), opened_name.as_deref())
            }
            (
                Claims::Tool { tool_call_name, parent_message_id },
                Opener::Tool { tool_call_name: opened_name, parent_message_id: opened_parent },
            ) => {
                require_agreement(kind, id, "toolCallName", tool_call_name.as_deref(), Some(opened_name))?;
                require_agreement(kind, id, "parentMessageId", parent_message_id.as_deref(), opened_parent.as_deref())
            }
            // Only a stream of the chunk's own kind is continued.
            _ => Ok(()),
        }
    }
}

/// What a stream's first chunk established besides its id.
#[derive(Debug, Clone)]
enum Opener {
    Text { role: TextMessageRole, name: Option<String> },
    Tool { tool_call_name: String, parent_message_id: Option<String> },
    Reasoning,
}

impl Opener {
    /// The synthesized event that opens a stream.
    fn start(&self, id: String, subagent_run_id: Owner, base: EventBase) -> Event {
        match self {
            Opener::Text { role, name } => Event::TextMessageStart(TextMessageStart {
                message_id: id,
                role: *role,
                name: name.clone(),
                subagent_run_id,
                base,
            }),
            Opener::Tool { tool_call_name, parent_message_id } => Event::ToolCallStart(ToolCallStart {
                tool_call_id: id,
                tool_call_name: tool_call_name.clone(),
                parent_message_id: parent_message_id.clone(),
                subagent_run_id,
                base,
            }),
            Opener::Reasoning => Event::ReasoningMessageStart(ReasoningMessageStart {
                message_id: id,
                role: ReasoningRole::Reasoning,
                subagent_run_id,
                base,
            }),
        }
    }
}

/// A chunk stream being assembled.
#[derive(Debug, Clone)]
struct OpenStream {
    kind: Kind,
    id: String,
    owner: Owner,
    opener: Opener,
}

impl OpenStream {
    fn close(self) -> Event {
        self.kind.end(self.id, self.owner)
    }
}

/// Expands chunk events; every other event passes through, possibly preceded by the end events
/// of the chunk streams it closes.
#[derive(Debug, Default)]
pub struct ChunkExpander {
    // Insertion order matters: run-level events close lanes in the order they opened.
    lanes: Vec<(Owner, OpenStream)>,
}

impl ChunkExpander {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether any chunk stream is still being assembled.
    pub fn has_open_streams(&self) -> bool {
        !self.lanes.is_empty()
    }

    /// Expand one event into the events it stands for, in order.
    pub fn expand(&mut self, event: Event) -> Result<Vec<Event>, ProtocolError> {
        match event {
            Event::TextMessageChunk(c) => {
                let claims = Claims::Text { role: c.role, name: c.name };
                self.chunk(c.message_id, claims, c.delta, c.subagent_run_id, c.base)
            }
            Event::ToolCallChunk(c) => {
                let claims = Claims::Tool { tool_call_name: c.tool_call_name, parent_message_id: c.parent_message_id };
                self.chunk(c.tool_call_id, claims, c.delta, c.subagent_run_id, c.base)
            }
            Event::ReasoningMessageChunk(c) => {
                self.chunk(c.message_id, Claims::Reasoning, c.delta, c.subagent_run_id, c.base)
            }
            Event::RunStarted(_) | Event::RunFinished(_) | Event::RunError(_) | Event::MessagesSnapshot(_) => {
                let mut out: Vec<Event> = self.lanes.drain(..).map(|(_, s)| s.close()).collect();
                out.push(event);
                Ok(out)
            }
            Event::Raw(_)
            | Event::ActivitySnapshot(_)
            | Event::ActivityDelta(_)
            | Event::ReasoningEncryptedValue(_)
            | Event::SubagentStarted(_) => Ok(vec![event]),
            Event::SubagentFinished(SubagentFinished { ref subagent_run_id, .. })
            | Event::SubagentError(SubagentError { ref subagent_run_id, .. }) => {
                let owner = Some(subagent_run_id.clone());
                let mut out = self.close_lane(&owner);
                out.push(event);
                Ok(out)
            }
            other => {
                let owner = other.attribution().map(str::to_owned);
                let mut out = self.close_lane(&owner);
                out.push(other);
                Ok(out)
            }
        }
    }

    fn close_lane(&mut self, owner: &Owner) -> Vec<Event> {
        match self.lanes.iter().position(|(o, _)| o == owner) {
            Some(i) => vec![self.lanes.remove(i).1.close()],
            None => Vec::new(),
        }
    }

    fn lane(&self, owner: &Owner) -> Option<&OpenStream> {
        self.lanes.iter().find(|(o, _)| o == owner).map(|(_, s)| s)
    }

    /// Decide which lane a chunk belongs to; continuation chunks may omit both id and tag.
    fn resolve_lane(&self, kind: Kind, id: Option<&str>, tag: Option<&str>) -> Result<Owner, ProtocolError> {
        if let Some(id) = id {
            // A named id continues wherever it is open, whoever sends it.
            if let Some((holder, _)) = self.lanes.iter().find(|(_, s)| s.kind == kind && s.id == id) {
                if let Some(tag) = tag {
                    if holder.as_deref() != Some(tag) {
                        return Err(ProtocolError::sequence(format!(
                            "Cannot continue {} '{id}': chunk subagentRunId '{tag}' does not match the open stream's subagent {}.",
                            kind.names().stream,
                            describe_owner(holder)
                        )));
                    }
                }
                return Ok(holder.clone());
            }
            return Ok(tag.map(str::to_owned));
        }
        if let Some(tag) = tag {
            return Ok(Some(tag.to_owned()));
        }
        if self.lane(&None).is_some_and(|s| s.kind == kind) {
            return Ok(None);
        }
        // The sole open stream of this kind is an id-less chunk's only possible referent.
        let candidates: Vec<&Owner> = self.lanes.iter().filter(|(_, s)| s.kind == kind).map(|(o, _)| o).collect();
        match candidates.len() {
            0 => Ok(None),
            1 => Ok(candidates[0].clone()),
            n => {
                let Names { chunk_type, stream, .. } = kind.names();
                Err(ProtocolError::sequence(format!(
                    "Ambiguous {chunk_type}: it carries neither an id nor a subagentRunId, but {n} lanes have an open {stream}."
                )))
            }
        }
    }

    /// Expands a chunk of any kind: it continues the stream open in its lane, or closes that
    /// lane and opens one; then its delta (or raw event, or metadata alone) becomes a content
    /// event.
    fn chunk(
        &mut self,
        id: Option<String>,
        claims: Claims,
        delta: Option<String>,
        tag: Owner,
        base: EventBase,
    ) -> Result<Vec<Event>, ProtocolError> {
        let kind = claims.kind();
        let lane = self.resolve_lane(kind, id.as_deref(), tag.as_deref())?;
        let mut out = Vec::new();
        let continues = match self.lane(&lane) {
            Some(open) if open.kind == kind && id.as_ref().is_none_or(|id| *id == open.id) => {
                claims.check_repeated(&open.id, &open.opener)?;
                Some((open.id.clone(), open.owner.clone()))
            }
            _ => None,
        };
        let (id, owner) = match continues {
            Some(found) => found,
            None => {
                out.extend(self.close_lane(&lane));
                let missing =
                    |field| ProtocolError::sequence(format!("First {} must have a {field}", kind.names().chunk_type));
                let id = id.ok_or_else(|| missing(kind.names().id_field))?;
                let opener = claims.into_opener().map_err(missing)?;
                let owner = tag.clone();
                out.push(opener.start(id.clone(), owner.clone(), metadata_only(&base.metadata)));
                self.lanes.push((lane, OpenStream { kind, id: id.clone(), owner: owner.clone(), opener }));
                (id, owner)
            }
        };
        let carries_payload = delta.is_some() || base.raw_event.is_some();
        if carries_payload || (out.is_empty() && base.metadata.is_some()) {
            let base = EventBase { timestamp: None, raw_event: base.raw_event, metadata: base.metadata };
            out.push(kind.content(id, delta.unwrap_or_default(), tag.or(owner), base));
        }
        Ok(out)
    }
}

fn describe_owner(owner: &Owner) -> String {
    owner.as_deref().map_or_else(|| "(the parent agent)".to_owned(), |o| format!("'{o}'"))
}

// The opener is synthesized; it carries the chunk's metadata but claims no raw event.
fn metadata_only(metadata: &Option<Box<Metadata>>) -> EventBase {
    EventBase { timestamp: None, raw_event: None, metadata: metadata.clone() }
}

/// A continuation may repeat a field its opener established, with the same value only.
fn require_agreement(
    kind: Kind,
    id: &str,
    field: &str,
    incoming: Option<&str>,
    established: Option<&str>,
) -> Result<(), ProtocolError> {
    match incoming {
        Some(value) if Some(value) != established => Err(ProtocolError::sequence(format!(
            "Cannot continue {} '{id}': chunk {field} '{value}' does not match the open stream's {field} {}.",
            kind.names().stream,
            established.map_or_else(|| "(absent)".to_owned(), |v| format!("'{v}'"))
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::decode::decode_event;

    /// The three chunk types; every scenario below runs for each of them.
    #[derive(Debug, Clone, Copy)]
    enum Of {
        Text,
        Tool,
        Reasoning,
    }

    const ALL: [Of; 3] = [Of::Text, Of::Tool, Of::Reasoning];

    fn event(wire: Value) -> Event {
        let mut warnings = Vec::new();
        let event = decode_event(wire, &mut warnings).expect("decodes").expect("not dropped");
        assert!(warnings.is_empty(), "{warnings:?}");
        event
    }

    /// A chunk of kind `of` with the members in `extra`; `id` is spelled as the kind spells it,
    /// and a tool chunk naming its call also names the tool.
    fn chunk(of: Of, id: Option<&str>, extra: Value) -> Event {
        let (kind, id_key) = match of {
            Of::Text => ("TEXT_MESSAGE_CHUNK", "messageId"),
            Of::Tool => ("TOOL_CALL_CHUNK", "toolCallId"),
            Of::Reasoning => ("REASONING_MESSAGE_CHUNK", "messageId"),
        };
        let mut wire = json!({ "type": kind });
        if let Some(id) = id {
            wire[id_key] = json!(id);
            if let Of::Tool = of {
                wire["toolCallName"] = json!("search");
            }
        }
        wire.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        event(wire)
    }

    /// One line per event, the same for every kind: `START m`, `CONTENT m "a" @sub +meta`, …
    fn lines(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .map(|e| {
                let wire = serde_json::to_value(e).unwrap();
                let name = e.type_name();
                let step = ["_START", "_CONTENT", "_ARGS", "_END"]
                    .iter()
                    .find(|s| name.ends_with(*s))
                    .map_or(name, |s| if *s == "_ARGS" { "CONTENT" } else { &s[1..] });
                let mut line = step.to_owned();
                if let Some(id) = wire.get("messageId").or(wire.get("toolCallId")) {
                    line += &format!(" {}", id.as_str().unwrap());
                }
                if let Some(delta) = wire.get("delta") {
                    line += &format!(" {delta}");
                }
                if let Some(owner) = wire.get("subagentRunId") {
                    line += &format!(" @{}", owner.as_str().unwrap());
                }
                if wire.get("metadata").is_some() {
                    line += " +meta";
                }
                if wire.get("rawEvent").is_some() {
                    line += " +raw";
                }
                line
            })
            .collect()
    }

    /// Feeds `events` in order and returns each one's expansion, or the first error's text.
    fn expand_all(events: Vec<Event>) -> Result<Vec<Vec<String>>, String> {
        let mut expander = ChunkExpander::new();
        events.into_iter().map(|e| expander.expand(e).map(|out| lines(&out)).map_err(|e| e.to_string())).collect()
    }

    /// Runs `scenario` for each kind and checks each event's expansion against `want`.
    fn assert_expands(scenario: impl Fn(Of) -> Vec<Event>, want: &[&[&str]]) {
        for of in ALL {
            assert_eq!(expand_all(scenario(of)).unwrap(), want, "{of:?}");
        }
    }

    fn run_finished() -> Event {
        event(json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}))
    }

    #[test]
    fn opener_continuation_and_run_end_make_the_triad() {
        assert_expands(
            |of| {
                vec![
                    chunk(of, Some("m"), json!({"delta": "a"})),
                    chunk(of, None, json!({"delta": "b"})),
                    chunk(of, Some("m"), json!({})),
                    run_finished(),
                ]
            },
            &[&["START m", "CONTENT m \"a\""], &["CONTENT m \"b\""], &[], &["END m", "RUN_FINISHED"]],
        );
    }

    #[test]
    fn metadata_goes_on_the_opener_or_an_empty_content_and_raw_event_on_the_content() {
        assert_expands(
            |of| {
                vec![
                    chunk(of, Some("m"), json!({"metadata": {"k": 1}})),
                    chunk(of, None, json!({"metadata": {"k": 2}})),
                    chunk(of, None, json!({"rawEvent": {"native": true}, "timestamp": 5})),
                ]
            },
            &[&["START m +meta"], &["CONTENT m \"\" +meta"], &["CONTENT m \"\" +raw"]],
        );
    }

    #[test]
    fn a_new_id_or_an_explicit_event_closes_the_lane_but_pass_through_events_do_not() {
        assert_expands(
            |of| {
                vec![
                    chunk(of, Some("m"), json!({"delta": "a"})),
                    chunk(of, Some("n"), json!({"delta": "b"})),
                    event(json!({"type": "RAW", "event": {}})),
                    event(json!({"type": "STEP_STARTED", "stepName": "s"})),
                ]
            },
            &[
                &["START m", "CONTENT m \"a\""],
                &["END m", "START n", "CONTENT n \"b\""],
                &["RAW"],
                &["END n", "STEP_STARTED"],
            ],
        );
    }

    #[test]
    fn lanes_are_per_subagent_and_closed_by_its_terminal() {
        assert_expands(
            |of| {
                vec![
                    chunk(of, Some("m"), json!({"delta": "a", "subagentRunId": "s"})),
                    // The sole open stream of this kind is where an untagged id-less chunk goes.
                    chunk(of, None, json!({"delta": "b"})),
                    // A named id continues in its lane, whoever sends it.
                    chunk(of, Some("m"), json!({"delta": "c"})),
                    chunk(of, Some("p"), json!({"delta": "d"})),
                    event(json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s"})),
                    chunk(of, None, json!({"delta": "e"})),
                ]
            },
            &[
                &["START m @s", "CONTENT m \"a\" @s"],
                &["CONTENT m \"b\" @s"],
                &["CONTENT m \"c\" @s"],
                &["START p", "CONTENT p \"d\""],
                &["END m @s", "SUBAGENT_FINISHED @s"],
                &["CONTENT p \"e\""],
            ],
        );
    }

    #[test]
    fn lane_errors_name_the_kind() {
        for (of, label, chunk_type, id_key) in [
            (Of::Text, "text message", "TEXT_MESSAGE_CHUNK", "messageId"),
            (Of::Tool, "tool call", "TOOL_CALL_CHUNK", "toolCallId"),
            (Of::Reasoning, "reasoning message", "REASONING_MESSAGE_CHUNK", "messageId"),
        ] {
            let ambiguous = expand_all(vec![
                chunk(of, Some("m"), json!({"subagentRunId": "s"})),
                chunk(of, Some("n"), json!({"subagentRunId": "t"})),
                chunk(of, None, json!({"delta": "x"})),
            ]);
            let want = format!(
                "Ambiguous {chunk_type}: it carries neither an id nor a subagentRunId, but 2 lanes have an open {label}."
            );
            assert!(ambiguous.unwrap_err().contains(&want), "{of:?}");

            let retagged = expand_all(vec![
                chunk(of, Some("m"), json!({"subagentRunId": "s"})),
                chunk(of, Some("m"), json!({"subagentRunId": "t"})),
            ]);
            let want = format!(
                "Cannot continue {label} 'm': chunk subagentRunId 't' does not match the open stream's subagent 's'."
            );
            assert!(retagged.unwrap_err().contains(&want), "{of:?}");

            let unnamed = expand_all(vec![chunk(of, None, json!({"delta": "x"}))]);
            assert!(unnamed.unwrap_err().contains(&format!("First {chunk_type} must have a {id_key}")), "{of:?}");
        }
    }

    #[test]
    fn text_chunks_default_the_role_and_hold_role_and_name_to_the_opener() {
        let text = |id: Option<&str>, extra| chunk(Of::Text, id, extra);
        let mut expander = ChunkExpander::new();
        let start = expander.expand(text(Some("m"), json!({"name": "bot"}))).unwrap();
        let Event::TextMessageStart(start) = &start[0] else { panic!("{start:?}") };
        assert_eq!((start.role, start.name.as_deref()), (TextMessageRole::Assistant, Some("bot")));
        assert!(expander.expand(text(None, json!({"role": "assistant", "name": "bot"}))).is_ok());
        let role = expander.expand(text(None, json!({"role": "user"}))).unwrap_err().to_string();
        assert!(role.contains("chunk role 'user' does not match the open stream's role 'assistant'"), "{role}");

        let unnamed = expand_all(vec![text(Some("m"), json!({})), text(None, json!({"name": "bot"}))]);
        assert!(unnamed.unwrap_err().contains("chunk name 'bot' does not match the open stream's name (absent)"));
    }

    #[test]
    fn tool_chunks_need_a_name_first_and_hold_name_and_parent_to_the_opener() {
        let unnamed = expand_all(vec![event(json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c"}))]);
        assert!(unnamed.unwrap_err().contains("First TOOL_CALL_CHUNK must have a toolCallName"));

        let mut expander = ChunkExpander::new();
        let opener = chunk(Of::Tool, Some("c"), json!({"parentMessageId": "m"}));
        let start = expander.expand(opener).unwrap();
        let Event::ToolCallStart(start) = &start[0] else { panic!("{start:?}") };
        assert_eq!((start.tool_call_name.as_str(), start.parent_message_id.as_deref()), ("search", Some("m")));
        assert!(expander.expand(chunk(Of::Tool, Some("c"), json!({"parentMessageId": "m"}))).is_ok());
        let renamed = event(json!({"type": "TOOL_CALL_CHUNK", "toolCallName": "delete"}));
        let renamed = expander.expand(renamed).unwrap_err().to_string();
        assert!(renamed.contains("toolCallName 'delete' does not match the open stream's toolCallName 'search'"));
        let moved = event(json!({"type": "TOOL_CALL_CHUNK", "parentMessageId": "n"}));
        let moved = expander.expand(moved).unwrap_err().to_string();
        assert!(moved.contains("parentMessageId 'n' does not match the open stream's parentMessageId 'm'"));
    }
}
