//! Broken responses on `POST /fault/<kind>`, for the client's transport and decoder tests.
//!
//! The request body is optional here; when it is a `RunAgentInput`, its ids are used.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::input::RunInput;
use crate::options::DemoAgentOptions;
use crate::script::{Delay, Script, Step};
use crate::shutdown::Shutdown;
use crate::sse::{self, frame};

/// Every fault kind.
pub const FAULTS: &[&str] =
    &["close-mid-event", "stall", "http-500", "html", "invalid-utf8", "oversized-event", "truncated-run"];

/// Length of the one `data:` line the `oversized-event` fault sends (the line itself, without
/// its terminating blank line).
pub const OVERSIZED_EVENT_BYTES: usize = 20 * 1024 * 1024;

/// Size of each write of the oversized line; one buffer, shared by every write.
const PADDING_CHUNK: usize = 64 * 1024;
/// Long enough for hyper to flush what was written before a fault aborts the connection.
const FLUSH_GRACE: Duration = Duration::from_millis(50);

pub(crate) fn is_fault(kind: &str) -> bool {
    FAULTS.contains(&kind)
}

/// The response for fault `kind` (callers check it with [`is_fault`]).
pub(crate) fn respond(kind: &str, body: &[u8], options: DemoAgentOptions, shutdown: Shutdown) -> Response {
    let (thread_id, run_id) = match RunInput::parse(body) {
        Ok(input) => (input.thread_id, input.run_id),
        Err(_) => ("fault-thread".to_owned(), format!("fault-{kind}")),
    };
    let steps = match kind {
        "http-500" => {
            return (StatusCode::INTERNAL_SERVER_ERROR, "demo agent: internal server error (fault injection)\n")
                .into_response()
        }
        "html" => {
            let page = "<!doctype html>\n<html><head><title>Sign in</title></head>\
                        <body><h1>Please sign in</h1></body></html>\n";
            return ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response();
        }
        "close-mid-event" => close_mid_event(&thread_id, &run_id),
        "stall" => {
            let mut steps = Script::start(&thread_id, &run_id).into_steps();
            steps.push(Step::Stall);
            steps
        }
        "invalid-utf8" => invalid_utf8(&thread_id, &run_id),
        "oversized-event" => oversized_event(&thread_id, &run_id),
        _ => truncated_run(&thread_id, &run_id),
    };
    sse::event_stream(steps, options, shutdown)
}

/// RUN_STARTED, then the first half of a `data:` line, then the connection is aborted.
fn close_mid_event(thread_id: &str, run_id: &str) -> Vec<Step> {
    let mut s = Script::start(thread_id, run_id);
    let id = s.next_message_id();
    let line = frame(&json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}));
    let half = line.slice(..line.len() / 2);
    s.step(Step::Raw(half));
    s.step(Step::Pause(Delay::Fixed(FLUSH_GRACE)));
    s.step(Step::Abort);
    s.into_steps()
}

/// A complete run whose one content event carries bytes that are not UTF-8.
fn invalid_utf8(thread_id: &str, run_id: &str) -> Vec<Step> {
    let mut s = Script::start(thread_id, run_id);
    let id = s.open_text();
    let mut line = Vec::new();
    line.extend_from_slice(b"data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"");
    line.extend_from_slice(id.as_bytes());
    // A truncated two-byte sequence, a lone continuation byte, and 0xFF (never valid).
    line.extend_from_slice(b"\",\"delta\":\"caf\xC3 \x80 \xFF\"}\n\n");
    s.step(Step::Raw(Bytes::from(line)));
    s.event(json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
    s.finish()
}

/// A run whose content event is one `data:` line of [`OVERSIZED_EVENT_BYTES`], written in
/// chunks of one shared buffer.
fn oversized_event(thread_id: &str, run_id: &str) -> Vec<Step> {
    let mut s = Script::start(thread_id, run_id);
    let id = s.open_text();
    let prefix = format!("data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"{id}\",\"delta\":\"");
    let suffix = "\"}";
    let mut padding = OVERSIZED_EVENT_BYTES - prefix.len() - suffix.len();
    s.step(Step::Raw(Bytes::from(prefix)));
    let chunk = Bytes::from(vec![b'x'; PADDING_CHUNK]);
    while padding > 0 {
        let n = padding.min(PADDING_CHUNK);
        s.step(Step::Raw(chunk.slice(..n)));
        padding -= n;
    }
    s.step(Step::Raw(Bytes::from(format!("{suffix}\n\n"))));
    s.event(json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
    s.finish()
}

/// RUN_STARTED and some text, then the body ends cleanly: no TEXT_MESSAGE_END, no RUN_FINISHED.
fn truncated_run(thread_id: &str, run_id: &str) -> Vec<Step> {
    let mut s = Script::start(thread_id, run_id);
    let id = s.open_text();
    s.text_delta(&id, "This answer will never ");
    s.text_delta(&id, "be finished");
    s.into_steps()
}
