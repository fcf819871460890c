//! A recorded conversation with a real agent: each request and the raw body that answered it,
//! numbered in order, and the server that plays them back in that order.
//!
//! Folder layout (written by `agentui run --record`, read by `agentui serve-recording` and the
//! kits), for each exchange `N` counted from 1 and written with four digits:
//!
//! - `N-request.json`: the `RunAgentInput` sent;
//! - `N-response.json`: `{"status", "contentType"}` of the answer;
//! - `N-response.sse`: the answer's body, byte for byte;
//! - `N-headers.json`: the request's headers, only when asked for, never credentials.

use std::fs;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use agentui_demo_agent::serving::Step as Wire;
use axum::body::Bytes;
use serde_json::{json, Value};

use crate::error::RecordingError;
use crate::server::{serve, AgentServer, Reply, Request, Responder};

/// Most exchanges a recording may hold.
pub const MAX_EXCHANGES: usize = 10_000;
/// Largest recorded body served back.
pub const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;
/// Request headers that carry credentials: never written, even with `--record-headers`.
const CREDENTIAL_HEADERS: &[&str] =
    &["authorization", "proxy-authorization", "cookie", "set-cookie", "dpop", "x-api-key", "api-key"];

/// One recorded request and its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub request: Value,
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

/// A loaded recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub exchanges: Vec<Exchange>,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RecordingError + '_ {
    move |source| RecordingError::Io { path: path.display().to_string(), source }
}

fn exchange_path(dir: &Path, number: usize, suffix: &str) -> PathBuf {
    dir.join(format!("{number:04}-{suffix}"))
}

impl Recording {
    /// Reads every exchange of `dir`, from 1 up to the first number that is missing.
    pub fn load(dir: &Path) -> Result<Recording, RecordingError> {
        if !dir.is_dir() {
            return Err(RecordingError::Invalid { path: dir.display().to_string(), message: "not a folder".into() });
        }
        let mut exchanges = Vec::new();
        for number in 1.. {
            let request_path = exchange_path(dir, number, "request.json");
            if !request_path.exists() {
                break;
            }
            if number > MAX_EXCHANGES {
                let message = format!("more than {MAX_EXCHANGES} exchanges");
                return Err(RecordingError::Invalid { path: dir.display().to_string(), message });
            }
            let request = read_json(&request_path)?;
            let meta_path = exchange_path(dir, number, "response.json");
            let meta = read_json(&meta_path)?;
            let status = meta.get("status").and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok());
            let Some(status) = status.filter(|s| (100..=599).contains(s)) else {
                let message = "\"status\" must be an HTTP status".into();
                return Err(RecordingError::Invalid { path: meta_path.display().to_string(), message });
            };
            let content_type =
                meta.get("contentType").and_then(Value::as_str).unwrap_or("text/event-stream").to_owned();
            let body_path = exchange_path(dir, number, "response.sse");
            let size = fs::metadata(&body_path).map_err(io_error(&body_path))?.len();
            if size > MAX_BODY_BYTES {
                let message = format!("{size} bytes, at most {MAX_BODY_BYTES}");
                return Err(RecordingError::Invalid { path: body_path.display().to_string(), message });
            }
            let body = fs::read(&body_path).map_err(io_error(&body_path))?;
            exchanges.push(Exchange { request, status, content_type, body });
        }
        if exchanges.is_empty() {
            let message = "no exchange (0001-request.json is missing)".into();
            return Err(RecordingError::Invalid { path: dir.display().to_string(), message });
        }
        Ok(Recording { exchanges })
    }
}

fn read_json(path: &Path) -> Result<Value, RecordingError> {
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    serde_json::from_str(&text)
        .map_err(|e| RecordingError::Invalid { path: path.display().to_string(), message: e.to_string() })
}

/// Writes a recording, one exchange after the other.
#[derive(Debug)]
pub struct RecordingWriter {
    dir: PathBuf,
    written: usize,
    with_headers: bool,
}

impl RecordingWriter {
    /// Creates `dir` (which must not hold a recording already). Headers are written only when
    /// `with_headers`, and credentials never.
    pub fn create(dir: &Path, with_headers: bool) -> Result<RecordingWriter, RecordingError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        if exchange_path(dir, 1, "request.json").exists() {
            let message = "already holds a recording".into();
            return Err(RecordingError::Invalid { path: dir.display().to_string(), message });
        }
        Ok(RecordingWriter { dir: dir.to_owned(), written: 0, with_headers })
    }

    /// Writes the next exchange; returns its number.
    pub fn write(
        &mut self,
        request: &Value,
        headers: &[(String, String)],
        status: u16,
        content_type: &str,
        body: &[u8],
    ) -> Result<usize, RecordingError> {
        let number = self.reserve();
        self.write_request(number, request, headers)?;
        self.write_response(number, status, content_type, body)?;
        Ok(number)
    }

    /// The number of the next exchange, taken when its request arrives (its answer may be
    /// written later, once its body ended).
    pub fn reserve(&mut self) -> usize {
        self.written += 1;
        self.written
    }

    /// The request of exchange `number`, and its headers when asked for (never credentials).
    pub fn write_request(
        &self,
        number: usize,
        request: &Value,
        headers: &[(String, String)],
    ) -> Result<(), RecordingError> {
        self.write_file(number, "request.json", &pretty(request))?;
        if self.with_headers {
            let kept: serde_json::Map<String, Value> = headers
                .iter()
                .filter(|(name, _)| !is_credential(name))
                .map(|(name, value)| (name.to_ascii_lowercase(), Value::String(value.clone())))
                .collect();
            self.write_file(number, "headers.json", &pretty(&Value::Object(kept)))?;
        }
        Ok(())
    }

    /// The answer of exchange `number`: its status, content type and body byte for byte.
    pub fn write_response(
        &self,
        number: usize,
        status: u16,
        content_type: &str,
        body: &[u8],
    ) -> Result<(), RecordingError> {
        self.write_file(number, "response.json", &pretty(&json!({"status": status, "contentType": content_type})))?;
        self.write_file(number, "response.sse", body)
    }

    fn write_file(&self, number: usize, suffix: &str, bytes: &[u8]) -> Result<(), RecordingError> {
        let path = exchange_path(&self.dir, number, suffix);
        fs::write(&path, bytes).map_err(io_error(&path))
    }
}

/// Whether a header carries credentials (never written to a recording).
pub fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    CREDENTIAL_HEADERS.contains(&name.as_str()) || name.contains("token") || name.contains("secret")
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Serves a recording: the N-th request gets the N-th recorded answer.
#[derive(Debug)]
pub struct RecordingServer;

impl RecordingServer {
    pub async fn start(recording: Recording, addr: SocketAddr) -> io::Result<AgentServer> {
        serve(Arc::new(Replay { recording, next: AtomicUsize::new(0) }), addr).await
    }
}

struct Replay {
    recording: Recording,
    next: AtomicUsize,
}

impl Responder for Replay {
    fn reply(&self, request: &Request<'_>) -> Reply {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        let Some(exchange) = self.recording.exchanges.get(index) else {
            return Reply::Unmatched(format!(
                "request {} is beyond the recording, which has {} exchange(s)",
                index + 1,
                self.recording.exchanges.len()
            ));
        };
        if exchange.status != 200 || !exchange.content_type.starts_with("text/event-stream") {
            let body = String::from_utf8_lossy(&exchange.body).into_owned();
            return Reply::Status { status: exchange.status, body };
        }
        Reply::Stream(frames(&for_this_run(&exchange.body, &exchange.request, request.body)))
    }
}

/// The recorded body with the recorded thread and run ids replaced by the ones of the request
/// being answered: the client checks that a run's events are about the run it asked for, and an
/// app's thread ids are fresh each time. Ids are replaced as whole JSON strings, byte for byte;
/// everything else is sent as recorded.
fn for_this_run(body: &[u8], recorded: &Value, incoming: &Value) -> Vec<u8> {
    let mut body = body.to_vec();
    for key in ["threadId", "runId"] {
        let (Some(old), Some(new)) =
            (recorded.get(key).and_then(Value::as_str), incoming.get(key).and_then(Value::as_str))
        else {
            continue;
        };
        if old.is_empty() || old == new {
            continue;
        }
        let (old, new) = (Value::from(old).to_string(), Value::from(new).to_string());
        body = replace_all(&body, old.as_bytes(), new.as_bytes());
    }
    body
}

fn replace_all(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

/// The body in the pieces it was framed in (one SSE block each), so a client sees it streamed.
fn frames(body: &[u8]) -> Vec<Wire> {
    let body = Bytes::copy_from_slice(body);
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 1 < body.len() {
        if body[i] == b'\n' && body[i + 1] == b'\n' {
            pieces.push(Wire::Raw(body.slice(start..i + 2)));
            start = i + 2;
            i += 2;
        } else {
            i += 1;
        }
    }
    if start < body.len() {
        pieces.push(Wire::Raw(body.slice(start..)));
    }
    pieces
}
