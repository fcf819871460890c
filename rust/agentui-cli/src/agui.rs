//! `agentui agui …`: AG-UI streams for agent developers: decode a captured SSE body, replay it
//! through the verifier and reducer, run the conformance corpus.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use agentui_agui::conformance;
use agentui_agui::decode::{decode_event, fast_path};
use agentui_agui::message::Interrupt;
use agentui_agui::reducer::RunStatus;
use agentui_agui::{
    ConversationState, Event, EventPipeline, Limits, MemoryBudget, Message, PipelineOptions, SseDecoder, Warning,
};
use agentui_runtime::a2ui_bridge::{A2uiBridge, BridgeLimits};
use agentui_runtime::SurfaceBudget;
use serde::Serialize;
use serde_json::{json, Value};

/// The data of every SSE event in `body`, or the framing error that stopped decoding.
fn sse_data(body: &[u8]) -> (Vec<String>, Option<String>) {
    // The app's default budget, so a stream is judged as a phone would judge it.
    let mut decoder = SseDecoder::new(MemoryBudget::default().sse_limits());
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
    let write_error = crate::output::write_error;
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
pub fn replay(file: &Path, locale: &crate::locale::LocaleArgs) -> Result<ExitCode, String> {
    let localization = locale.localization()?;
    let cannot_read = |e: std::io::Error| format!("cannot read {}: {e}", file.display());
    let mut reader = std::io::BufReader::new(std::fs::File::open(file).map_err(cannot_read)?);
    let is_array = {
        use std::io::BufRead;
        let head = reader.fill_buf().map_err(cannot_read)?;
        head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
    };
    let budget = MemoryBudget::default();
    let options = PipelineOptions { limits: budget.agui_limits(Limits::default()), ..PipelineOptions::default() };
    let mut pipeline = EventPipeline::new(ConversationState::new(Vec::new(), None), &options);
    let mut delivered = 0usize;
    // A2UI carried by the stream is rendered too, so a developer sees what the app would show.
    let group = agentui_a2ui::SurfaceGroup::new(
        agentui_a2ui::catalog::CatalogRegistry::with_basic(),
        budget.a2ui_limits(agentui_a2ui::Limits::default()),
    )
    .with_localization(localization);
    let mut a2ui = A2uiBridge::with_limits(group, budget.bridge_limits(BridgeLimits::default()));
    let mut a2ui_errors = Vec::new();
    let mut error: Option<String> = None;
    let mut list: Vec<Event> = Vec::new();
    // One event's data through the pipeline; false once the stream is rejected.
    let mut feed = |data: &str, error: &mut Option<String>| -> bool {
        if error.is_some() {
            return false;
        }
        if data.trim().is_empty() {
            return true;
        }
        // Events from a JSON array did not pass the SSE decoder's bound: the same bound here.
        if data.len() > budget.max_message_bytes {
            *error = Some(format!(
                "limit exceeded: event size in bytes (limit {}, event of {} bytes)",
                budget.max_message_bytes,
                data.len()
            ));
            return false;
        }
        // One buffer for every push: a push that fails delivers nothing to the report.
        list.clear();
        match pipeline.push_str_with(data, |event| list.push(event)) {
            Ok(()) => {
                delivered += list.len();
                for event in &list {
                    a2ui_errors.extend(a2ui.on_event(event).emitted.iter().map(|m| m.to_wire()));
                }
                true
            }
            Err(e) => {
                *error = Some(e.to_string());
                false
            }
        }
    };
    if is_array {
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut reader, &mut body).map_err(cannot_read)?;
        // Each event's text, without building the events: the pipeline bounds their size first.
        let items = serde_json::from_slice::<Vec<&serde_json::value::RawValue>>(&body)
            .map_err(|e| format!("{}: not a JSON array of events: {e}", file.display()))?;
        for item in items {
            if !feed(item.get(), &mut error) {
                break;
            }
        }
    } else {
        // Streamed in chunks, as the transport does: the file is never held whole.
        let mut decoder = SseDecoder::new(budget.sse_limits());
        let mut chunk = vec![0u8; 64 * 1024];
        let mut framing = None;
        loop {
            let n = std::io::Read::read(&mut reader, &mut chunk).map_err(cannot_read)?;
            let mut go_on = true;
            let framed = if n == 0 {
                decoder.finish_with(|e| go_on = go_on && feed(&e.data, &mut error))
            } else {
                decoder.push_with(&chunk[..n], |e| go_on = go_on && feed(&e.data, &mut error))
            };
            if let Err(e) = framed {
                framing = Some(e.to_string());
            }
            if n == 0 || !go_on || framing.is_some() {
                break;
            }
        }
        if error.is_none() {
            error = framing;
        }
    }
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
    let write_error = crate::output::write_error;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, &report).map_err(crate::output::json_write_error)?;
    writeln!(out).and_then(|()| out.flush()).map_err(write_error)?;
    // The process exits next: freeing thousands of messages one by one would only delay it.
    std::mem::forget(pipeline);
    std::mem::forget(a2ui);
    Ok(if error.is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
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
        outln!("FAIL {}: {}", report.name, report.failures.join("; "));
    }
    for exception in &summary.spec_exceptions {
        outln!("passed by spec: {}: {}", exception.name, exception.spec_exception.as_deref().unwrap_or_default());
    }
    outln!("{} passed, {} failed", summary.passed, summary.failed);
    Ok(if summary.failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
