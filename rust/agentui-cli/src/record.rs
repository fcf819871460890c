//! Record and replay (issue 39): `agentui run --record DIR` talks to the agent through the test
//! kit's recording proxy; `serve-recording DIR` and `serve-script FILE` serve a recording or a
//! script on loopback until Ctrl-C, printing their URL first.

use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use agentui_agui::transport::{tls_client_config, TlsOptions};
use agentui_testing::{
    AgentServer, Forwarded, Recording, RecordingProxy, RecordingServer, RecordingWriter, Script, ScriptedAgent,
    Upstream,
};
use futures_util::future::BoxFuture;
use futures_util::{StreamExt, TryStreamExt};

/// The real agent at one URL, reached with the CLI's HTTP client and TLS options.
struct Agent {
    client: reqwest::Client,
    url: reqwest::Url,
}

impl Upstream for Agent {
    fn forward(
        &self,
        body: bytes::Bytes,
        headers: Vec<(String, String)>,
    ) -> BoxFuture<'static, Result<Forwarded, String>> {
        let mut request = self.client.post(self.url.clone()).body(body);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        Box::pin(async move {
            let response = request.send().await.map_err(|e| e.to_string())?;
            let status = response.status().as_u16();
            let content_type = response
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let body = response.bytes_stream().map_err(|e| e.to_string()).boxed();
            Ok(Forwarded { status, content_type, body })
        })
    }
}

/// Starts the recording proxy in front of `url`; the run talks to the returned server instead.
pub async fn start_recording(
    url: &str,
    dir: &Path,
    with_headers: bool,
    tls: &TlsOptions,
) -> Result<AgentServer, String> {
    let url = reqwest::Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
    let config = tls_client_config(tls, url.scheme() == "https").map_err(|e| e.to_string())?;
    let client = reqwest::Client::builder().use_preconfigured_tls(config).build().map_err(|e| e.to_string())?;
    let writer = RecordingWriter::create(dir, with_headers).map_err(|e| e.to_string())?;
    RecordingProxy::start(Arc::new(Agent { client, url }), writer, loopback(0))
        .await
        .map_err(|e| format!("cannot start the recording proxy: {e}"))
}

fn loopback(port: u16) -> SocketAddr {
    ([127, 0, 0, 1], port).into()
}

/// `agentui serve-recording DIR [--port N]`.
pub fn serve_recording(dir: &Path, port: u16) -> Result<ExitCode, String> {
    let recording = Recording::load(dir).map_err(|e| e.to_string())?;
    let exchanges = recording.exchanges.len();
    serve_until_stopped(port, format!("{exchanges} recorded exchange(s) from {}", dir.display()), move |addr| {
        Box::pin(async move { RecordingServer::start(recording, addr).await })
    })
}

/// `agentui serve-script FILE [--port N]`.
pub fn serve_script(file: &Path, port: u16) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let script = Script::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    serve_until_stopped(port, format!("the script {}", file.display()), move |addr| {
        Box::pin(async move { ScriptedAgent::start(script, addr).await })
    })
}

type Start = Box<dyn FnOnce(SocketAddr) -> BoxFuture<'static, std::io::Result<AgentServer>>>;

/// The URL on the first line (scripts read it), then each unanswered request on stderr as it
/// happens; on Ctrl-C, exit 1 if any request had no answer.
fn serve_until_stopped(
    port: u16,
    what: String,
    start: impl FnOnce(SocketAddr) -> BoxFuture<'static, std::io::Result<AgentServer>> + 'static,
) -> Result<ExitCode, String> {
    let start: Start = Box::new(start);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let addr = loopback(port);
        let server = start(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        outln!("{}", server.url());
        outln!("serving {what}; stop with Ctrl-C");
        let mut reported = 0;
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(200));
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let unmatched = server.unmatched();
                    for request in &unmatched[reported..] {
                        eprintln!("agentui: unanswered request: {request}");
                    }
                    reported = unmatched.len();
                }
                _ = tokio::signal::ctrl_c() => break,
            }
        }
        let failed = !server.unmatched().is_empty();
        server.shutdown().await.map_err(|e| e.to_string())?;
        Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
    })
}
