//! A minimal HTTP/1.1 client over a raw socket, so tests see exactly what the server wrote
//! (chunk framing, truncation, invalid bytes), and helpers to read AG-UI events.
#![allow(dead_code)]

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use agentui_demo_agent::{DemoAgent, DemoAgentHandle, DemoAgentOptions};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Every test finishes within this.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `test` bounded by [`TEST_TIMEOUT`].
pub async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(TEST_TIMEOUT, test).await.expect("test timed out");
}

/// A server on a free loopback port with no pacing and a 5 ms slow delay.
pub async fn start() -> DemoAgentHandle {
    start_with(DemoAgentOptions::for_tests(Duration::from_millis(5))).await
}

pub async fn start_with(options: DemoAgentOptions) -> DemoAgentHandle {
    DemoAgent::new(options).serve("127.0.0.1:0".parse().unwrap()).await.expect("server starts")
}

#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// The body with chunk framing removed.
    pub body: Vec<u8>,
    /// Whether the body ended properly (final chunk, or Content-Length reached).
    pub complete: bool,
}

impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("JSON body")
    }
}

pub fn request(method: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    req
}

/// Opens a connection and sends the request; the caller reads.
pub async fn send(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(&request(method, path, body)).await.expect("write request");
    stream
}

/// Sends a request and reads the whole response, until the server closes (cleanly or not).
pub async fn call(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> RawResponse {
    let mut stream = send(addr, method, path, body).await;
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    parse_response(&raw)
}

pub async fn post(addr: SocketAddr, path: &str, body: &Value) -> RawResponse {
    call(addr, "POST", path, body.to_string().as_bytes()).await
}

pub fn parse_response(raw: &[u8]) -> RawResponse {
    let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("response head") + 4;
    let head = std::str::from_utf8(&raw[..head_end]).expect("ASCII head");
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_owned(), v.trim().to_owned())
        })
        .collect();
    let rest = &raw[head_end..];
    let get = |name: &str| headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
    let (body, complete) = if get("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        dechunk(rest)
    } else if let Some(len) = get("content-length") {
        let len: usize = len.parse().unwrap();
        (rest[..rest.len().min(len)].to_vec(), rest.len() >= len)
    } else {
        (rest.to_vec(), true)
    };
    RawResponse { status, headers, body, complete }
}

fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else { return (body, false) };
        let size_text = std::str::from_utf8(&rest[..eol]).unwrap();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        rest = &rest[eol + 2..];
        if size == 0 {
            return (body, true);
        }
        if rest.len() < size {
            body.extend_from_slice(rest);
            return (body, false);
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size..];
        if rest.len() < 2 {
            return (body, false);
        }
        rest = &rest[2..];
    }
}

/// The JSON of every complete `data:` frame of an SSE body.
pub fn events(body: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(body).expect("UTF-8 event stream");
    let mut out = Vec::new();
    let mut frames: Vec<&str> = text.split("\n\n").collect();
    frames.pop(); // whatever follows the last blank line is not a complete frame
    for frame in frames {
        let data: Vec<&str> = frame.lines().filter_map(|l| l.strip_prefix("data: ")).collect();
        assert_eq!(data.len(), 1, "one data line per frame: {frame:?}");
        out.push(serde_json::from_str(data[0]).expect("event JSON"));
    }
    out
}

pub fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

/// The text of every assistant text message, concatenated per message, in order.
pub fn texts(events: &[Value]) -> Vec<String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for e in events {
        match e["type"].as_str().unwrap() {
            "TEXT_MESSAGE_START" => out.push((e["messageId"].as_str().unwrap().to_owned(), String::new())),
            "TEXT_MESSAGE_CONTENT" => {
                let id = e["messageId"].as_str().unwrap();
                let slot = out.iter_mut().find(|(m, _)| m == id).expect("content after start");
                slot.1.push_str(e["delta"].as_str().unwrap());
            }
            _ => {}
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
}

pub fn last_text(events: &[Value]) -> String {
    texts(events).pop().expect("a text message")
}

pub fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

/// A `RunAgentInput` with these messages and tools.
pub fn input(run_id: &str, messages: Value, tools: &[&str]) -> Value {
    let tools: Vec<Value> =
        tools.iter().map(|n| json!({"name": n, "description": format!("{n} (test)"), "parameters": {}})).collect();
    json!({
        "threadId": "thread-1",
        "runId": run_id,
        "state": {},
        "messages": messages,
        "tools": tools,
        "context": [],
        "forwardedProps": {},
    })
}

pub fn user(text: &str) -> Value {
    json!({"id": "u-1", "role": "user", "content": text})
}

/// Posts `body` to `path`, checks it is a complete event stream, and returns its events.
pub async fn run(agent: &DemoAgentHandle, path: &str, body: &Value) -> Vec<Value> {
    let response = post(agent.local_addr(), path, body).await;
    assert_eq!(response.status, 200, "{}", String::from_utf8_lossy(&response.body));
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    assert!(response.complete, "the stream ended properly");
    events(&response.body)
}

/// The assistant message (with its tool calls, as the client would send it back) built from a
/// run's events.
pub fn assistant_with_calls(events: &[Value]) -> Value {
    let mut calls: Vec<Value> = Vec::new();
    let mut parent = String::new();
    for e in events {
        match e["type"].as_str().unwrap() {
            "TOOL_CALL_START" => {
                parent = e["parentMessageId"].as_str().unwrap().to_owned();
                calls.push(json!({"id": e["toolCallId"], "type": "function",
                    "function": {"name": e["toolCallName"], "arguments": ""}}));
            }
            "TOOL_CALL_ARGS" => {
                let call = calls.iter_mut().find(|c| c["id"] == e["toolCallId"]).unwrap();
                let args =
                    format!("{}{}", call["function"]["arguments"].as_str().unwrap(), e["delta"].as_str().unwrap());
                call["function"]["arguments"] = Value::String(args);
            }
            _ => {}
        }
    }
    json!({"id": parent, "role": "assistant", "content": texts(events).first().cloned().unwrap_or_default(), "toolCalls": calls})
}
