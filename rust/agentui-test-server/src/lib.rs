//! A tiny scripted HTTP/1.1 server on 127.0.0.1 for transport, runtime and interop tests, plus
//! AG-UI event builders. Each request takes the next scripted reply; each reply is
//! a list of steps (write bytes, sleep, drop the connection, hang), so faults and timing are
//! exact and owned by the test. Replies close their connection unless made with
//! [`Reply::keep_alive`]: on tokio's paused clock a request on a reused keep-alive connection
//! was not answered before the clock jumped to the client's idle timeout, and one connection
//! per request keeps the timing the script's own. Keep-alive tests run on the real clock.
//!
//! A server that must read the request (its `Authorization`, its `Last-Event-ID`) answers with a
//! [`Handler`] once the scripted replies are used up ([`TestServer::with_handler`]);
//! [`ResumableRun`] is such a server for stream resumption, [`RequireBearer`] one that answers
//! 401 until the token changes.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Every test is bounded by this.
pub const TEST_BOUND: Duration = Duration::from_secs(20);

/// How long a keep-alive test waits between runs. After a body ends, hyper returns the connection
/// to its pool from a task of its own, so a request sent at once can race it and open a second
/// connection (CI saw it). A person's next message always leaves this time; a run that did not
/// read its body to the end closes its connection however long the wait.
pub const POOL_RETURN: Duration = Duration::from_millis(100);

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    /// Which accepted connection carried it, counting from 0: equal numbers mean a reused one.
    pub connection: usize,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone)]
pub enum Step {
    /// Write these bytes (as one chunk when the reply is chunked).
    Send(Vec<u8>),
    Sleep(Duration),
    /// Drop the connection here, without finishing the body.
    Drop,
    /// Stop writing but keep the connection open for a long time.
    Hang,
}

#[derive(Debug, Clone)]
pub struct Reply {
    head: String,
    chunked: bool,
    steps: Vec<Step>,
}

impl Reply {
    /// The same reply, leaving the connection open for the client's next request.
    pub fn keep_alive(mut self) -> Self {
        self.head = self.head.replace("Connection: close\r\n", "");
        self
    }

    /// A chunked `text/event-stream` reply made of `steps`, properly terminated unless a step
    /// drops or hangs.
    pub fn sse_steps(steps: Vec<Step>) -> Self {
        Reply {
            head: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n".into(),
            chunked: true,
            steps,
        }
    }

    /// Each event in its own chunk.
    pub fn sse(events: &[Value]) -> Self {
        Self::sse_steps(events.iter().map(|e| Step::Send(frame(e))).collect())
    }

    /// A complete response with a body and a content length.
    pub fn status(code: u16, content_type: &str, body: &[u8]) -> Self {
        let head = format!(
            "HTTP/1.1 {code} Whatever\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        Reply { head, chunked: false, steps: vec![Step::Send(body.to_vec())] }
    }
}

/// One SSE frame carrying `event`.
pub fn frame(event: &Value) -> Vec<u8> {
    format!("data: {event}\n\n").into_bytes()
}

/// Answers every request the scripted replies leave, reading it first.
pub type Handler = Arc<dyn Fn(&Recorded) -> Reply + Send + Sync>;

#[derive(Clone)]
struct Script {
    replies: Arc<Mutex<VecDeque<Reply>>>,
    handler: Option<Handler>,
}

impl Script {
    fn answer(&self, request: &Recorded) -> Reply {
        if let Some(reply) = self.replies.lock().unwrap().pop_front() {
            return reply;
        }
        match &self.handler {
            Some(handler) => handler(request),
            None => Reply::status(500, "text/plain", b"the test server has no more scripted replies"),
        }
    }
}

pub struct TestServer {
    addr: std::net::SocketAddr,
    replies: Arc<Mutex<VecDeque<Reply>>>,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    pub async fn start(replies: Vec<Reply>) -> TestServer {
        Self::start_script(replies, None).await
    }

    /// A server answering every request with `handler` (after the scripted `replies`).
    pub async fn with_handler(
        replies: Vec<Reply>,
        handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> TestServer {
        Self::start_script(replies, Some(Arc::new(handler))).await
    }

    async fn start_script(replies: Vec<Reply>, handler: Option<Handler>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let replies = Arc::new(Mutex::new(VecDeque::from(replies)));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let script = Script { replies: replies.clone(), handler };
        let q = requests.clone();
        let task = tokio::spawn(async move {
            let mut connection = 0;
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, connection, script.clone(), q.clone()));
                connection += 1;
            }
        });
        TestServer { addr, replies, requests, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    pub fn push(&self, reply: Reply) {
        self.replies.lock().unwrap().push_back(reply);
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

async fn serve(mut socket: TcpStream, connection: usize, script: Script, requests: Arc<Mutex<Vec<Recorded>>>) {
    loop {
        let Some(request) = read_request(&mut socket, connection).await else { return };
        let reply = script.answer(&request);
        requests.lock().unwrap().push(request);
        if socket.write_all(reply.head.as_bytes()).await.is_err() {
            return;
        }
        for step in reply.steps {
            match step {
                Step::Send(bytes) => {
                    let out = if reply.chunked {
                        let mut c = format!("{:x}\r\n", bytes.len()).into_bytes();
                        c.extend_from_slice(&bytes);
                        c.extend_from_slice(b"\r\n");
                        c
                    } else {
                        bytes
                    };
                    if socket.write_all(&out).await.is_err() {
                        return;
                    }
                    let _ = socket.flush().await;
                }
                Step::Sleep(d) => tokio::time::sleep(d).await,
                Step::Drop => return,
                Step::Hang => {
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                    return;
                }
            }
        }
        if reply.chunked && socket.write_all(b"0\r\n\r\n").await.is_err() {
            return;
        }
    }
}

async fn read_request(socket: &mut TcpStream, connection: usize) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = socket.read(&mut tmp).await.ok()?;
        if n == 0 || buf.len() > 1 << 20 {
            return None;
        }
        buf.extend_from_slice(&tmp[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned())).collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut tmp).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&tmp[..n]);
    }
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Some(Recorded { method, path, headers, body, connection })
}

// ---- servers that read the request ----

/// One SSE frame carrying `event` with SSE id `id`.
pub fn numbered_frame(id: usize, event: &Value) -> Vec<u8> {
    format!("id: {id}\ndata: {event}\n\n").into_bytes()
}

/// Which events of a [`ResumableRun`] carry their number as an SSE id. The spec lets a server
/// send ids at checkpoints only; it resumes after the event that carried the id it is given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum IdPattern {
    /// Every event.
    #[default]
    Every,
    /// The even-numbered events (2, 4, …): a checkpoint every other event.
    EveryOther,
    /// The events whose `type` is listed.
    Types(Vec<String>),
    /// None: the run cannot be resumed.
    Never,
}

impl IdPattern {
    fn carries(&self, number: usize, event: &Value) -> bool {
        match self {
            IdPattern::Every => true,
            IdPattern::EveryOther => number % 2 == 0,
            IdPattern::Types(types) => event["type"].as_str().is_some_and(|t| types.iter().any(|x| x == t)),
            IdPattern::Never => false,
        }
    }
}

/// A run whose events are numbered 1, 2, … (SSE ids on those `ids` picks), served by a server
/// that can resume it: a request with `Last-Event-ID: n` gets the events after `n`, those
/// without ids included. Connection `k` (counting the requests this handler answers, from 0)
/// drops after `drops[k]` events, if listed; a request with `Last-Event-ID` is answered
/// `refuse_resume` instead, when set (204 tells a client not to reconnect). `retry_ms` goes out
/// as `retry:` before the first event.
#[derive(Debug, Clone, Default)]
pub struct ResumableRun {
    pub events: Vec<Value>,
    pub drops: Vec<usize>,
    pub refuse_resume: Option<u16>,
    pub retry_ms: Option<u64>,
    pub ids: IdPattern,
}

impl ResumableRun {
    pub fn new(events: Vec<Value>, drops: Vec<usize>) -> Self {
        ResumableRun { events, drops, ..Default::default() }
    }

    /// The handler serving it (give it to [`TestServer::with_handler`]).
    pub fn handler(self) -> impl Fn(&Recorded) -> Reply + Send + Sync + 'static {
        let served = Mutex::new(0usize);
        move |request: &Recorded| {
            let connection = {
                let mut n = served.lock().unwrap();
                *n += 1;
                *n - 1
            };
            let after = match request.header("last-event-id") {
                Some(id) => {
                    if let Some(status) = self.refuse_resume {
                        return Reply::status(status, "text/plain", b"");
                    }
                    match id.parse::<usize>() {
                        Ok(n) if n <= self.events.len() => n,
                        _ => return Reply::status(400, "text/plain", b"unknown Last-Event-ID"),
                    }
                }
                None => 0,
            };
            let mut steps = Vec::new();
            if let Some(ms) = self.retry_ms {
                steps.push(Step::Send(format!("retry: {ms}\n\n").into_bytes()));
            }
            for (i, event) in self.events.iter().enumerate().skip(after) {
                if self.drops.get(connection).is_some_and(|&n| i - after == n) {
                    steps.push(Step::Drop);
                    break;
                }
                let bytes = if self.ids.carries(i + 1, event) { numbered_frame(i + 1, event) } else { frame(event) };
                steps.push(Step::Send(bytes));
            }
            Reply::sse_steps(steps)
        }
    }
}

/// Answers 401 (with a `WWW-Authenticate` challenge) unless the request carries
/// `Authorization: Bearer <the current token>`; otherwise `inner` answers. The test changes the
/// token to make the one a client holds expire.
pub struct RequireBearer {
    pub token: Arc<Mutex<String>>,
}

impl RequireBearer {
    pub fn new(token: &str) -> Self {
        RequireBearer { token: Arc::new(Mutex::new(token.to_owned())) }
    }

    pub fn set_token(&self, token: &str) {
        *self.token.lock().unwrap() = token.to_owned();
    }

    pub fn handler(
        &self,
        inner: impl Fn(&Recorded) -> Reply + Send + Sync + 'static,
    ) -> impl Fn(&Recorded) -> Reply + Send + Sync + 'static {
        let token = self.token.clone();
        move |request: &Recorded| {
            let expected = format!("Bearer {}", token.lock().unwrap());
            if request.header("authorization") == Some(expected.as_str()) {
                inner(request)
            } else {
                unauthorized()
            }
        }
    }
}

/// A 401 with a bearer challenge.
pub fn unauthorized() -> Reply {
    unauthorized_with(&[("WWW-Authenticate", "Bearer error=\"invalid_token\"")])
}

/// A 401 carrying `headers` (challenges, a `DPoP-Nonce`), in order, with a short text body.
pub fn unauthorized_with(headers: &[(&str, &str)]) -> Reply {
    let body = b"token expired";
    let mut head = String::from("HTTP/1.1 401 Unauthorized\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()));
    Reply { head, chunked: false, steps: vec![Step::Send(body.to_vec())] }
}

// ---- events ----

pub fn started(run: &str) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t", "runId": run})
}

pub fn finished(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t", "runId": run})
}

pub fn text(id: &str, content: &str) -> Vec<Value> {
    vec![
        json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": content}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": id}),
    ]
}

pub fn tool_call(id: &str, name: &str, args: &str, parent: &str) -> Vec<Value> {
    vec![
        json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name, "parentMessageId": parent}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": args}),
        json!({"type": "TOOL_CALL_END", "toolCallId": id}),
    ]
}

/// A whole run: started, `body`, finished.
pub fn run_of(run: &str, body: Vec<Vec<Value>>) -> Vec<Value> {
    let mut all = vec![started(run)];
    all.extend(body.into_iter().flatten());
    all.push(finished(run));
    all
}

/// The tool messages of `body.messages` as (toolCallId, content, error).
pub fn tool_results(body: &Value) -> Vec<(String, String, Option<String>)> {
    body["messages"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .filter(|m| m["role"] == "tool")
                .map(|m| {
                    (
                        m["toolCallId"].as_str().unwrap_or_default().to_owned(),
                        m["content"].as_str().unwrap_or_default().to_owned(),
                        m["error"].as_str().map(str::to_owned),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A database file of a test's or bench's own in the temp folder, named per process; removed,
/// with SQLite's `-wal` and `-shm` companions and the store's `-attachments` folder, when created
/// and when dropped.
pub struct TempDbFile(std::path::PathBuf);

impl TempDbFile {
    pub fn new(name: &str) -> Self {
        let file = TempDbFile(std::env::temp_dir().join(format!("agentui-{name}-{}.db", std::process::id())));
        file.remove();
        file
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }

    /// Removes the file and its companions (what is not there is fine).
    pub fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
        // The store's files of large media parts.
        let _ = std::fs::remove_dir_all(format!("{}-attachments", self.0.display()));
    }
}

impl Drop for TempDbFile {
    fn drop(&mut self) {
        self.remove();
    }
}
