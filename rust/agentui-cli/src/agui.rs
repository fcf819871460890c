//! `agentui agui …`: AG-UI streams for agent developers: decode a captured SSE body, replay it
//! through the verifier and reducer, run the conformance corpus.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use agentui_agui::a2ui_bridge::A2uiBridge;
use agentui_agui::conformance;
use agentui_agui::decode::{decode_event, fast_path};
use agentui_agui::message::Interrupt;
use agentui_agui::reducer::RunStatus;
use agentui_agui::{Conversation, Event, EventPipeline, Message, PipelineOptions, SseDecoder, SseLimits, Warning};
use serde::Serialize;
use serde_json::{json, Value};

/// The data of every SSE event in `body`, or the framing error that stopped decoding.
fn sse_data(body: &[u8]) -> (Vec<String>, Option<String>) {
    let mut decoder = SseDecoder::new(SseLimits::default());
    let mut data = Vec::new();
    let framed = decoder.push_with(body, |e| data.push(e.data));
    let framed = framed.and_then(|()| decoder.finish_with(|e| data.push(e.data)));
    data.retain(|d| !d.trim().is_empty());
    (data, framed.err().map(|e| e.to_string()))
}

/// `agentui agui decode FILE`: raw SSE → one JSON line per event (as the client sees it after
/// enforcement), warnings and errors as their own lines.
pub fn decode(file: &Path) -> Result<ExitCode, String> {
    let body = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let (data, framing_error) = sse_data(&body);
    let mut failed = false;
    // One write per buffer, not per line: stdout is line-buffered.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let write_error = |e: std::io::Error| format!("cannot write the output: {e}");
    for (index, item) in data.iter().enumerate() {
        // The hot event types decode straight from the text, warning-free by construction.
        if let Some(event) = fast_path(item) {
            let line = serde_json::to_string(&event).unwrap_or_else(|_| "null".to_owned());
            writeln!(out, "{line}").map_err(write_error)?;
            continue;
        }
        let line = match serde_json::from_str::<Value>(item) {
            Err(e) => {
                failed = true;
                json!({"index": index, "error": format!("not JSON: {e}")})
            }
            Ok(value) => {
                let mut warnings = Vec::new();
                match decode_event(value, &mut warnings) {
                    Ok(Some(event)) if warnings.is_empty() => serde_json::to_value(&event).unwrap_or(Value::Null),
                    Ok(Some(event)) => json!({"event": event, "warnings": warnings}),
                    Ok(None) => json!({"index": index, "dropped": true, "warnings": warnings}),
                    Err(e) => {
                        failed = true;
                        json!({"index": index, "error": e.to_string()})
                    }
                }
            }
        };
        writeln!(out, "{line}").map_err(write_error)?;
    }
    if let Some(error) = framing_error {
        writeln!(out, "{}", json!({"error": error})).map_err(write_error)?;
        failed = true;
    }
    out.flush().map_err(write_error)?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `agentui agui replay FILE`: verify and apply a captured stream (SSE body or JSON array of
/// events) and print the final conversation, warnings and errors.
pub fn replay(file: &Path) -> Result<ExitCode, String> {
    let body = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut replay = Replay {
        pipeline: EventPipeline::new(Conversation::new(Vec::new(), None), &PipelineOptions::default()),
        delivered: 0,
        a2ui: A2uiBridge::default(),
        a2ui_errors: Vec::new(),
        list: Vec::new(),
        error: None,
    };
    // An SSE body is replayed as it is decoded, without holding every event's text at once; a
    // framing error still takes precedence over a protocol error, as it is reported first.
    let framing_error = if body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        match serde_json::from_slice::<Vec<Value>>(&body) {
            Ok(items) => items.into_iter().for_each(|v| replay.push(&v.to_string())),
            Err(e) => return Err(format!("{}: not a JSON array of events: {e}", file.display())),
        }
        None
    } else {
        let mut decoder = SseDecoder::new(SseLimits::default());
        let framed = decoder.push_with(&body, |e| replay.push(&e.data));
        framed.and_then(|()| decoder.finish_with(|e| replay.push(&e.data))).err().map(|e| e.to_string())
    };
    let Replay { pipeline, delivered, a2ui, a2ui_errors, error, .. } = replay;
    let mut error = framing_error.or(error);
    if error.is_none() && pipeline.run_active() {
        error = Some("stream ended in the middle of a run (no RUN_FINISHED or RUN_ERROR)".into());
    }
    let conversation = pipeline.conversation();
    // Serialized straight to stdout: no Value copy of the conversation, no whole-text buffer.
    let report = ReplayReport {
        outcome: if error.is_some() { "failed" } else { "completed" },
        error: &error,
        delivered_events: delivered,
        run_status: run_status(conversation.run_status()),
        messages: conversation.messages(),
        state: conversation.state(),
        needs_resync: conversation.needs_resync(),
        activities: conversation.activities().collect(),
        pending_interrupts: conversation.pending_interrupts(),
        run_errors: conversation.run_errors().iter().map(|e| json!({"message": e.message, "code": e.code})).collect(),
        warnings: conversation.warnings(),
        surfaces: a2ui.group().surfaces().map(crate::surface_report).collect(),
        a2ui_errors,
    };
    let write_error = |e: std::io::Error| format!("cannot write the output: {e}");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, &report).map_err(|e| e.to_string())?;
    writeln!(out).and_then(|()| out.flush()).map_err(write_error)?;
    Ok(if error.is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The stream being replayed.
struct Replay {
    pipeline: EventPipeline,
    delivered: usize,
    // A2UI carried by the stream is rendered too, so a developer sees what the app would show.
    a2ui: A2uiBridge,
    a2ui_errors: Vec<Value>,
    // One buffer for every push: a push that fails delivers nothing to the report.
    list: Vec<Event>,
    error: Option<String>,
}

impl Replay {
    fn push(&mut self, data: &str) {
        // Blank data is a keep-alive, not an event; nothing is pushed after the first error.
        if self.error.is_some() || data.chars().all(char::is_whitespace) {
            return;
        }
        self.list.clear();
        let list = &mut self.list;
        match self.pipeline.push_str_with(data, |event| list.push(event)) {
            Ok(()) => {
                self.delivered += self.list.len();
                for event in &self.list {
                    self.a2ui_errors.extend(self.a2ui.on_event(event).emitted.iter().map(|m| m.to_wire()));
                }
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }
}

/// What `agentui agui replay` prints, in this key order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReplayReport<'a> {
    outcome: &'static str,
    error: &'a Option<String>,
    delivered_events: usize,
    run_status: Value,
    messages: &'a [Message],
    state: &'a Value,
    needs_resync: bool,
    activities: Vec<&'a Message>,
    pending_interrupts: &'a [Interrupt],
    run_errors: Vec<Value>,
    warnings: &'a [Warning],
    surfaces: Vec<Value>,
    a2ui_errors: Vec<Value>,
}

fn run_status(status: &RunStatus) -> Value {
    match status {
        RunStatus::Idle => json!({"status": "idle"}),
        RunStatus::Running { thread_id, run_id } => {
            json!({"status": "running", "threadId": thread_id, "runId": run_id})
        }
        RunStatus::Finished { thread_id, run_id, outcome, result } => {
            json!({"status": "finished", "threadId": thread_id, "runId": run_id, "outcome": outcome, "result": result})
        }
        RunStatus::Errored { message, code } => json!({"status": "errored", "message": message, "code": code}),
    }
}

/// `agentui agui conformance DIR`: `N passed, M failed`, one line per failure.
pub fn conformance(dir: &Path) -> Result<ExitCode, String> {
    let summary = conformance::run_directory(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for report in &summary.failures {
        println!("FAIL {}: {}", report.name, report.failures.join("; "));
    }
    for exception in &summary.spec_exceptions {
        println!("passed by spec: {}: {}", exception.name, exception.spec_exception.as_deref().unwrap_or_default());
    }
    println!("{} passed, {} failed", summary.passed, summary.failed);
    Ok(if summary.failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
