//! `agentui serve-sse FILE`: answers every POST with FILE as a `text/event-stream` body, so a
//! recorded or generated stream (a benchmark workload) can be played to `agentui run` over
//! loopback. A test and measurement aid, not an agent: the request is read and ignored.

use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Largest request head and body read before the reply (a long conversation still fits).
const MAX_REQUEST_BYTES: usize = 64 * 1024 * 1024;

pub fn serve_sse(file: &Path, port: u16) -> Result<ExitCode, String> {
    let body = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let body: Arc<[u8]> = body.into();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let listener = TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        outln!("serving {} ({} bytes) to every POST on http://{local}/", file.display(), body.len());
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((socket, _)) = accepted else { continue };
                    tokio::spawn(answer(socket, body.clone()));
                }
                _ = tokio::signal::ctrl_c() => return Ok(ExitCode::SUCCESS),
            }
        }
    })
}

/// Reads one request (head and `Content-Length` body), then writes the file and closes.
async fn answer(mut socket: TcpStream, body: Arc<[u8]>) {
    let mut request = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let head_end = loop {
        if let Some(i) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) if request.len() + n > MAX_REQUEST_BYTES => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    };
    let head = String::from_utf8_lossy(&request[..head_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_REQUEST_BYTES);
    let mut read = request.len() - head_end;
    while read < length {
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => read += n,
        }
    }
    let reply = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if socket.write_all(reply.as_bytes()).await.is_ok() {
        let _ = socket.write_all(&body).await;
    }
    let _ = socket.shutdown().await;
}
