//! The `text/event-stream` side: framing events and playing a script onto a response body.
//!
//! A script is played by its own task into a small bounded channel, so a large body (the
//! oversized fault) is streamed with bounded memory, and a client that goes away stops the task
//! at its next write.

use std::io;

use axum::body::{Body, Bytes};
use axum::http::{header, StatusCode};
use axum::response::Response;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::options::DemoAgentOptions;
use crate::script::{Delay, Step};
use crate::shutdown::Shutdown;

/// Chunks in flight between the script task and the socket.
const CHANNEL_DEPTH: usize = 8;

/// `data: <json>\n\n`: one event per frame, on one line (JSON never contains a raw newline).
pub fn frame(event: &Value) -> Bytes {
    let mut line = Vec::with_capacity(128);
    line.extend_from_slice(b"data: ");
    // Serializing a `Value` cannot fail.
    serde_json::to_writer(&mut line, event).unwrap_or_default();
    line.extend_from_slice(b"\n\n");
    Bytes::from(line)
}

/// A 200 `text/event-stream` response that plays `steps`.
pub fn event_stream(steps: Vec<Step>, options: DemoAgentOptions, shutdown: Shutdown) -> Response {
    let (tx, mut rx) = mpsc::channel(CHANNEL_DEPTH);
    tokio::spawn(play(steps, options, shutdown, tx));
    let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, header::HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-cache"));
    response
}

type Chunk = Result<Bytes, io::Error>;

async fn play(steps: Vec<Step>, options: DemoAgentOptions, mut shutdown: Shutdown, tx: mpsc::Sender<Chunk>) {
    let mut events_sent = 0usize;
    for step in steps {
        let chunk = match step {
            Step::Event(event) => {
                if events_sent > 0 && !pause(options.scaled(options.event_delay), &mut shutdown, &tx).await {
                    return;
                }
                events_sent += 1;
                frame(&event)
            }
            Step::Raw(bytes) => bytes,
            Step::Pause(delay) => {
                let wait = match delay {
                    Delay::Slow => options.scaled(options.slow_delay),
                    Delay::Fixed(d) => d,
                };
                if !pause(wait, &mut shutdown, &tx).await {
                    return;
                }
                continue;
            }
            Step::Stall => {
                tokio::select! {
                    _ = shutdown.wait() => {}
                    _ = tx.closed() => {}
                }
                return;
            }
            Step::Abort => {
                // An error from the body makes hyper drop the connection mid-body.
                let _ = tx.send(Err(io::Error::new(io::ErrorKind::ConnectionAborted, "fault injection"))).await;
                return;
            }
        };
        tokio::select! {
            sent = tx.send(Ok(chunk)) => if sent.is_err() { return },
            _ = shutdown.wait() => return,
        }
    }
}

/// Waits `delay`; false when the client left or the server is stopping.
async fn pause(delay: std::time::Duration, shutdown: &mut Shutdown, tx: &mpsc::Sender<Chunk>) -> bool {
    if delay.is_zero() {
        return !tx.is_closed();
    }
    tokio::select! {
        _ = tokio::time::sleep(delay) => true,
        _ = shutdown.wait() => false,
        _ = tx.closed() => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_frame_is_one_data_line_and_a_blank_line() {
        let bytes = frame(&json!({"type": "TEXT_MESSAGE_CONTENT", "delta": "a\nb ☕"}));
        let text = std::str::from_utf8(&bytes).unwrap();
        assert!(text.starts_with("data: {\"type\":\"TEXT_MESSAGE_CONTENT\""));
        assert!(text.ends_with("}\n\n"));
        assert_eq!(text.matches('\n').count(), 2);
    }
}
