//! A run as a fixed list of steps, built from the request alone so the same input always yields
//! the same stream. Ids are derived from the run id: `msg-<runId>-<n>`, `call-<runId>-<n>`.

use std::time::Duration;

use axum::body::Bytes;
use serde_json::{json, Value};

/// The protocol version the demo agent declares on `RUN_STARTED`.
pub const PROTOCOL_VERSION: &str = "1.1";

/// A wait inside a stream. Resolved against the server options when played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delay {
    /// The slow scenario's gap between deltas (`slow_delay`, scaled).
    Slow,
    /// A fixed wait that is not scaled (used by faults so bytes reach the socket first).
    Fixed(Duration),
}

/// One thing the server does on the response body.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// An AG-UI event, framed as `data: <json>\n\n`.
    Event(Value),
    /// Bytes written as they are (faults).
    Raw(Bytes),
    Pause(Delay),
    /// Keep the connection open, sending nothing, until the client leaves or the server stops.
    Stall,
    /// Abort the connection without ending the body properly.
    Abort,
}

/// Builds the steps of one run.
#[derive(Debug)]
pub struct Script {
    thread_id: String,
    run_id: String,
    messages: usize,
    calls: usize,
    steps: Vec<Step>,
}

impl Script {
    /// A script whose first event is `RUN_STARTED`.
    pub fn start(thread_id: &str, run_id: &str) -> Script {
        let mut script = Script::without_run_started(thread_id, run_id);
        script.event(json!({
            "type": "RUN_STARTED",
            "threadId": thread_id,
            "runId": run_id,
            "protocolVersion": PROTOCOL_VERSION,
        }));
        script
    }

    /// A script with nothing in it yet (for faults that write their own bytes).
    pub fn without_run_started(thread_id: &str, run_id: &str) -> Script {
        Script { thread_id: thread_id.to_owned(), run_id: run_id.to_owned(), messages: 0, calls: 0, steps: Vec::new() }
    }

    pub fn next_message_id(&mut self) -> String {
        self.messages += 1;
        format!("msg-{}-{}", self.run_id, self.messages)
    }

    pub fn next_call_id(&mut self) -> String {
        self.calls += 1;
        format!("call-{}-{}", self.run_id, self.calls)
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    pub fn event(&mut self, event: Value) {
        self.steps.push(Step::Event(event));
    }

    pub fn step(&mut self, step: Step) {
        self.steps.push(step);
    }

    /// An assistant text message streamed as one `TEXT_MESSAGE_CONTENT` per delta. Returns its id.
    pub fn text<S: AsRef<str>>(&mut self, deltas: &[S]) -> String {
        let id = self.open_text();
        for delta in deltas {
            self.text_delta(&id, delta.as_ref());
        }
        self.event(json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
        id
    }

    /// Opens an assistant text message and returns its id; the caller streams and closes it.
    pub fn open_text(&mut self) -> String {
        let id = self.next_message_id();
        self.event(json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}));
        id
    }

    pub fn text_delta(&mut self, message_id: &str, delta: &str) {
        self.event(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": delta}));
    }

    /// `TOOL_CALL_START`; arguments follow with [`Script::tool_args`] and [`Script::tool_end`].
    pub fn tool_start(&mut self, call_id: &str, name: &str, parent_message_id: &str) {
        self.event(json!({
            "type": "TOOL_CALL_START",
            "toolCallId": call_id,
            "toolCallName": name,
            "parentMessageId": parent_message_id,
        }));
    }

    pub fn tool_args(&mut self, call_id: &str, delta: &str) {
        self.event(json!({"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": delta}));
    }

    pub fn tool_end(&mut self, call_id: &str) {
        self.event(json!({"type": "TOOL_CALL_END", "toolCallId": call_id}));
    }

    /// A complete tool call (start, arguments in the given fragments, end). Returns its id.
    pub fn tool_call(&mut self, name: &str, parent_message_id: &str, args: &[&str]) -> String {
        let id = self.next_call_id();
        self.tool_start(&id, name, parent_message_id);
        for fragment in args {
            self.tool_args(&id, fragment);
        }
        self.tool_end(&id);
        id
    }

    /// A server-side tool result: mints a tool message. `content` is the result text.
    pub fn tool_result(&mut self, call_id: &str, content: &str) -> String {
        let id = self.next_message_id();
        self.event(json!({
            "type": "TOOL_CALL_RESULT",
            "messageId": id,
            "toolCallId": call_id,
            "content": content,
            "role": "tool",
        }));
        id
    }

    /// Closes the run successfully.
    pub fn finish(mut self) -> Vec<Step> {
        let event = self.run_finished(json!({"type": "success"}));
        self.event(event);
        self.steps
    }

    /// Closes the run with no `outcome` member, as servers on the AG-UI 1.0 schema (and
    /// ag-ui-langgraph on its legacy interrupt channel) do.
    pub fn finish_without_outcome(mut self) -> Vec<Step> {
        let event = json!({"type": "RUN_FINISHED", "threadId": self.thread_id, "runId": self.run_id});
        self.event(event);
        self.steps
    }

    /// Closes the run successfully, telling the client which calls await its results.
    pub fn finish_pending(mut self, call_ids: &[String]) -> Vec<Step> {
        let event = self.run_finished(json!({"type": "success", "pendingToolCallIds": call_ids}));
        self.event(event);
        self.steps
    }

    /// Closes the run waiting for outside input.
    pub fn finish_interrupted(mut self, interrupts: Vec<Value>) -> Vec<Step> {
        let event = self.run_finished(json!({"type": "interrupt", "interrupts": interrupts}));
        self.event(event);
        self.steps
    }

    /// Ends the run with `RUN_ERROR`.
    pub fn fail(mut self, message: &str, code: &str) -> Vec<Step> {
        self.event(json!({"type": "RUN_ERROR", "message": message, "code": code}));
        self.steps
    }

    /// Ends the script as it is, without closing the run.
    pub fn into_steps(self) -> Vec<Step> {
        self.steps
    }

    fn run_finished(&self, outcome: Value) -> Value {
        json!({"type": "RUN_FINISHED", "threadId": self.thread_id, "runId": self.run_id, "outcome": outcome})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_derive_from_the_run_id_and_count_up() {
        let mut s = Script::start("t", "r1");
        assert_eq!(s.next_message_id(), "msg-r1-1");
        assert_eq!(s.next_message_id(), "msg-r1-2");
        assert_eq!(s.next_call_id(), "call-r1-1");
    }

    #[test]
    fn a_script_opens_and_closes_the_run() {
        let steps = Script::start("t", "r").finish();
        let Step::Event(first) = &steps[0] else { panic!() };
        let Step::Event(last) = &steps[1] else { panic!() };
        assert_eq!(first["type"], "RUN_STARTED");
        assert_eq!(first["runId"], "r");
        assert_eq!(last["type"], "RUN_FINISHED");
        assert_eq!(last["outcome"]["type"], "success");
    }
}
