//! Sending a 5 MB image (`Conversation::send` with one in-memory attachment) to an agent over
//! loopback, a fresh conversation each time (a conversation resends its history, images
//! included, on every run):
//!
//! - `calling thread`: how long the call holds the caller: making the future and its first
//!   poll, which is what the FFI's async call does on the Kotlin or Swift thread (the checks,
//!   the base64 encoding and the request run on the runtime's threads);
//! - `body on the wire`: from the call until the server has read the whole request body
//!   (checks, encoding on a blocking thread, the body encoded from the conversation, sent);
//!   and the same with a view subscription read as an app reads it.
//!
//! Then, under `cargo bench`, one send in a process whose peak RSS was reset
//! (`/proc/self/clear_refs`): the peak above what the process held before the image existed,
//! in copies of the image's base64 text; once without a subscriber and once with a view
//! subscription read as an app reads it, each in a fresh process of this bench (so the first
//! pass's freed memory, which the allocator keeps, does not count in the second). Only that
//! pass: `-- rss`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::task::{Context, Waker};
use std::time::{Duration, Instant};

use agentui_runtime::attachment::Attachment;
use agentui_runtime::session::{ConversationSession, SessionOptions};
use agentui_runtime::Conversation;
use criterion::{criterion_group, Criterion};
use tokio::runtime::Runtime;

const IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// A blocking HTTP/1.1 agent on its own thread: reads each request whole, tells when its body
/// was read, and answers a finished run for the request's thread and run ids.
fn agent() -> (String, mpsc::Receiver<Instant>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/agent", listener.local_addr().unwrap());
    let (read, reads) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let read = read.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if line == "\r\n" {
                            break;
                        }
                        if let Some((name, value)) = line.split_once(':') {
                            if name.eq_ignore_ascii_case("content-length") {
                                length = value.trim().parse().unwrap_or(0);
                            }
                        }
                    }
                    // Read and dropped as it comes (this process's peak RSS is measured): only
                    // the start is kept.
                    let mut body = Vec::with_capacity(256);
                    let mut chunk = vec![0u8; 64 * 1024];
                    let mut left = length;
                    while left > 0 {
                        let n = match reader.read(&mut chunk[..left.min(64 * 1024)]) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        let keep = (256 - body.len()).min(n);
                        body.extend_from_slice(&chunk[..keep]);
                        left -= n;
                    }
                    let _ = read.send(Instant::now());
                    // threadId and runId come first in the body.
                    let head = String::from_utf8_lossy(&body[..body.len().min(256)]).into_owned();
                    let field = |name: &str| {
                        let at = head.find(&format!("\"{name}\":\"")).map(|i| i + name.len() + 4).unwrap_or(0);
                        head[at..].split('"').next().unwrap_or_default().to_owned()
                    };
                    let (thread, run) = (field("threadId"), field("runId"));
                    let events = format!(
                        "data: {{\"type\":\"RUN_STARTED\",\"threadId\":\"{thread}\",\"runId\":\"{run}\"}}\n\n\
                         data: {{\"type\":\"RUN_FINISHED\",\"threadId\":\"{thread}\",\"runId\":\"{run}\"}}\n\n"
                    );
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\n\r\n{events}",
                        events.len()
                    );
                    if writer.write_all(response.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (url, reads)
}

fn image() -> Vec<u8> {
    (0..IMAGE_BYTES).map(|i| (i * 31 % 251) as u8).collect()
}

fn conversation(runtime: &Runtime, url: &str, n: u64) -> Conversation {
    let _guard = runtime.enter();
    let options = SessionOptions { thread_id: Some(format!("bench-{n}")), ..SessionOptions::default() };
    let session = ConversationSession::connect(url, &[], options).unwrap();
    Conversation::start(session, runtime.handle().clone())
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (url, reads) = agent();
    let image = image();
    let mut n = 0u64;
    let mut group = c.benchmark_group("send a 5 MB image");
    group.sample_size(20).measurement_time(Duration::from_secs(10));
    group.bench_function("calling thread", |b| {
        b.iter_custom(|iters| {
            let mut held = Duration::ZERO;
            for _ in 0..iters {
                n += 1;
                let conv = conversation(&runtime, &url, n);
                let attachment = Attachment::bytes("photo.png", "image/png", image.clone());
                let start = Instant::now();
                let mut send = Box::pin(conv.send("look".into(), vec![attachment]));
                let first = send.as_mut().poll(&mut Context::from_waker(Waker::noop()));
                held += start.elapsed();
                assert!(first.is_pending());
                runtime.block_on(send).unwrap();
                reads.recv().unwrap();
            }
            held
        })
    });
    group.bench_function("body on the wire", |b| {
        b.iter_custom(|iters| timed_to_wire(&runtime, &url, &reads, &image, &mut n, iters, false))
    });
    group.bench_function("body on the wire, view subscription read", |b| {
        b.iter_custom(|iters| timed_to_wire(&runtime, &url, &reads, &image, &mut n, iters, true))
    });
    group.finish();
}

/// `iters` sends of `image` to the agent at `url`, each on a fresh conversation (`n` numbers
/// them), timed from the call until the agent has read the whole body (`reads`); with
/// `view_read`, a view subscription reads the conversation meanwhile, as an app's chat does.
fn timed_to_wire(
    runtime: &Runtime,
    url: &str,
    reads: &mpsc::Receiver<Instant>,
    image: &[u8],
    n: &mut u64,
    iters: u64,
    view_read: bool,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        *n += 1;
        let conv = conversation(runtime, url, *n);
        let reader = view_read.then(|| {
            let view = conv.subscribe_view();
            runtime.spawn(async move { while view.next_batch().await.unwrap().is_some() {} })
        });
        let attachment = Attachment::bytes("photo.png", "image/png", image.to_vec());
        let start = Instant::now();
        let done = runtime.spawn({
            let conv = conv.clone();
            async move { conv.send("look".into(), vec![attachment]).await }
        });
        let read = reads.recv().unwrap();
        total += read - start;
        runtime.block_on(done).unwrap().unwrap();
        drop(conv);
        if let Some(reader) = reader {
            let _ = runtime.block_on(reader);
        }
    }
    total
}

use std::future::Future as _;

/// Peak resident memory of one send, above what the process held before the image existed.
fn rss() {
    fn status(key: &str) -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .unwrap_or(0)
            * 1024
    }
    // Each case in a process of its own.
    let Ok(case) = std::env::var("AGENTUI_RSS_CASE") else {
        for case in ["no subscriber", "view"] {
            let status = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--bench", "rss"])
                .env("AGENTUI_RSS_CASE", case)
                .status()
                .unwrap();
            assert!(status.success());
        }
        return;
    };
    let with_view = case == "view";
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (url, reads) = agent();
    // Warm: the runtime, the connection pool's first connection, allocator arenas.
    let warm = conversation(&runtime, &url, 0);
    runtime.block_on(warm.send("warm".into(), vec![Attachment::bytes("w.png", "image/png", vec![1; 1024])])).unwrap();
    reads.recv().unwrap();
    let conv = conversation(&runtime, &url, 1);
    // As an app: a view subscription whose batches are read as they come.
    let reader = with_view.then(|| {
        let view = conv.subscribe_view();
        runtime.spawn(async move { while view.next_batch().await.unwrap().is_some() {} })
    });
    let before = status("VmRSS:");
    if std::fs::write("/proc/self/clear_refs", "5").is_err() {
        println!("RSS: /proc/self/clear_refs is not writable here; no figure");
        return;
    }
    let image = image();
    let encoded = IMAGE_BYTES.div_ceil(3) * 4;
    runtime.block_on(conv.send("look".into(), vec![Attachment::bytes("photo.png", "image/png", image)])).unwrap();
    reads.recv().unwrap();
    let peak = status("VmHWM:");
    let above = peak.saturating_sub(before);
    println!(
        "RSS ({}): one send of a {} byte image ({} bytes of base64): peak {:.1} MB above the {:.1} MB before it, {:.2} copies of the base64 ({:.2} of the image)",
        if with_view { "with a view subscription read" } else { "no subscriber" },
        IMAGE_BYTES,
        encoded,
        above as f64 / 1e6,
        before as f64 / 1e6,
        above as f64 / encoded as f64,
        above as f64 / IMAGE_BYTES as f64
    );
    drop(conv);
    if let Some(reader) = reader {
        let _ = runtime.block_on(reader);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let only_rss = args.iter().any(|a| a == "rss");
    if args.iter().any(|a| a == "--bench") {
        rss();
    }
    if !only_rss {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}

criterion_group!(benches, bench);
