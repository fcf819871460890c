//! A rule's steps turned into what goes on the wire for one request: the events of the run
//! (framed with SSE ids when a drop in it is resumable) and where the connection breaks.

use std::time::Duration;

use agentui_demo_agent::serving::{frame, Delay, RunInput, Script as Events, Step as Wire};
use serde_json::{json, Map, Value};

use crate::script::Step;

/// Long enough for hyper to flush what was written before a drop aborts the connection.
const FLUSH_GRACE: Duration = Duration::from_millis(50);

/// How one request is answered.
#[derive(Debug, Clone)]
pub(crate) enum Answer {
    /// `200 text/event-stream` playing these steps.
    Stream(Vec<Wire>),
    /// A run with a resumable drop: played up to its first drop now, the rest on resumption.
    Resumable(ResumableRun),
    Status {
        status: u16,
        body: String,
    },
}

/// The whole run of a reply with a resumable drop, every event with an id (its 1-based number).
#[derive(Debug, Clone)]
pub(crate) struct ResumableRun {
    /// Events as `(id, frame)`, pauses and drops, in order.
    items: Vec<Item>,
    /// Drops the client has already been through: a resumption never breaks at them again.
    drops_taken: usize,
}

#[derive(Debug, Clone)]
enum Item {
    Event(u64, Value),
    Pause(Duration),
    Drop,
}

/// Interrupts the reply raised, by id, with their reason (so their answer finds its rule).
pub(crate) type RaisedInterrupts = Vec<(String, String)>;

/// The answer to `input` following `steps`.
pub(crate) fn answer(input: &RunInput, steps: &[Step]) -> (Answer, RaisedInterrupts) {
    if let [Step::HttpError { status, body }] = steps {
        return (Answer::Status { status: *status, body: body.clone() }, Vec::new());
    }
    let (wire, raised) = events(input, steps);
    if steps.iter().any(Step::is_resumable_drop) {
        let mut id = 0;
        let items = wire
            .into_iter()
            .filter_map(|step| match step {
                Wire::Event(event) => {
                    id += 1;
                    Some(Item::Event(id, event))
                }
                Wire::Pause(Delay::Fixed(d)) => Some(Item::Pause(d)),
                Wire::Abort => Some(Item::Drop),
                _ => None,
            })
            .collect();
        return (Answer::Resumable(ResumableRun { items, drops_taken: 0 }), raised);
    }
    (Answer::Stream(wire), raised)
}

impl ResumableRun {
    /// What to send for a request that follows the event with id `after` (0: from the start),
    /// up to and including the next drop not taken yet.
    pub fn play_after(&mut self, after: u64) -> Vec<Wire> {
        let mut wire = Vec::new();
        let mut drops_seen = 0;
        let mut started = after == 0;
        for item in &self.items {
            match item {
                Item::Event(id, event) => {
                    if started {
                        wire.push(Wire::Raw(with_id(*id, event)));
                    }
                    started = started || *id == after;
                }
                Item::Pause(d) if started => wire.push(Wire::Pause(Delay::Fixed(*d))),
                Item::Pause(_) => {}
                Item::Drop => {
                    drops_seen += 1;
                    if started && drops_seen > self.drops_taken {
                        self.drops_taken = drops_seen;
                        wire.push(Wire::Pause(Delay::Fixed(FLUSH_GRACE)));
                        wire.push(Wire::Abort);
                        return wire;
                    }
                }
            }
        }
        wire
    }

    /// Whether `id` is one of this run's event ids.
    pub fn has_id(&self, id: u64) -> bool {
        self.items.iter().any(|item| matches!(item, Item::Event(n, _) if *n == id))
    }
}

fn with_id(id: u64, event: &Value) -> axum::body::Bytes {
    let mut bytes = format!("id: {id}\n").into_bytes();
    bytes.extend_from_slice(&frame(event));
    bytes.into()
}

/// The events of the run, opened with `RUN_STARTED`; ids derive from the run id.
fn events(input: &RunInput, steps: &[Step]) -> (Vec<Wire>, RaisedInterrupts) {
    let mut s = Events::start(&input.thread_id, &input.run_id);
    let mut last_message: Option<String> = None;
    let mut pending_calls = Vec::new();
    for step in steps {
        match step {
            Step::Text { text, chunk_chars } => {
                let id = s.text(&chunks(text, chunk_chars.unwrap_or(crate::script::DEFAULT_CHUNK_CHARS)));
                last_message = Some(id);
            }
            Step::ToolCall { name, arguments } => {
                let parent = last_message.clone().unwrap_or_else(|| s.next_message_id());
                pending_calls.push(s.tool_call(name, &parent, &[&arguments.to_string()]));
            }
            Step::ServerTool { name, arguments, result } => {
                let parent = last_message.clone().unwrap_or_else(|| s.next_message_id());
                let call = s.tool_call(name, &parent, &[&arguments.to_string()]);
                let content = match result {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                s.tool_result(&call, &content);
            }
            Step::Surface { messages } => {
                let id = s.next_message_id();
                s.event(json!({
                    "type": "ACTIVITY_SNAPSHOT",
                    "messageId": id,
                    "activityType": "a2ui-surface",
                    "content": {"a2ui_operations": messages},
                }));
            }
            Step::StateSnapshot { snapshot } => s.event(json!({"type": "STATE_SNAPSHOT", "snapshot": snapshot})),
            Step::StateDelta { delta } => s.event(json!({"type": "STATE_DELTA", "delta": delta})),
            Step::Interrupt { reason, message, response_schema, metadata } => {
                let id = format!("int-{}-1", s.run_id());
                let mut interrupt = Map::new();
                interrupt.insert("id".into(), json!(id));
                interrupt.insert("reason".into(), json!(reason));
                for (key, value) in [
                    ("message", message.as_ref().map(|m| json!(m))),
                    ("responseSchema", response_schema.clone()),
                    ("metadata", metadata.clone()),
                ] {
                    if let Some(value) = value {
                        interrupt.insert(key.into(), value);
                    }
                }
                return (s.finish_interrupted(vec![Value::Object(interrupt)]), vec![(id, reason.clone())]);
            }
            Step::RunError { message, code } => {
                return (s.fail(message, code.as_deref().unwrap_or("scripted_error")), Vec::new());
            }
            // Only ever the sole step (checked at load), answered before any event.
            Step::HttpError { .. } => {}
            Step::DropStream { resumable } => {
                if !resumable {
                    s.step(Wire::Pause(Delay::Fixed(FLUSH_GRACE)));
                }
                s.step(Wire::Abort);
                if !resumable {
                    // Nothing after a drop that cannot be resumed reaches anyone.
                    return (s.into_steps(), Vec::new());
                }
            }
            Step::Delay { ms } => s.step(Wire::Pause(Delay::Fixed(Duration::from_millis(*ms)))),
            Step::Event { event } => s.event(event.clone()),
        }
    }
    let wire = if pending_calls.is_empty() { s.finish() } else { s.finish_pending(&pending_calls) };
    (wire, Vec::new())
}

/// `text` in pieces of `size` characters (never splitting a character).
fn chunks(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(size.max(1)).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_into_whole_characters() {
        assert_eq!(chunks("café ☕ ok", 3), ["caf", "é ☕", " ok"]);
        assert_eq!(chunks("", 3), Vec::<String>::new());
    }
}
