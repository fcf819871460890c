//! The test kit's native library for the platform kits (Kotlin `dev.agentui.testing`, Swift
//! `AgentUITesting`): thin wrappers over `agentui-testing`, which owns the scripts, the servers
//! and their logs. Each server runs on a small runtime of its own, apart from the app's.

uniffi::setup_scaffolding!();

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};

use agentui_testing::{AgentServer, Recording, RecordingServer, Script, ScriptError, ScriptedAgent};

/// Why a kit server could not start (`detail`, not `message`: Kotlin exceptions own that name).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum KitError {
    /// The script does not load: `path` is a JSON pointer into it, `line`/`column` 0 when unknown.
    #[error("{detail}")]
    Script { detail: String, path: String, line: u32, column: u32 },
    #[error("{detail}")]
    Recording { detail: String },
    #[error("{detail}")]
    Server { detail: String },
}

impl From<ScriptError> for KitError {
    fn from(error: ScriptError) -> Self {
        let (line, column) = match &error {
            ScriptError::Syntax { line, column, .. } | ScriptError::UnknownStep { line, column, .. } => {
                (Some(*line), Some(*column))
            }
            ScriptError::Invalid { line, column, .. } => (*line, *column),
            ScriptError::UnsupportedA2uiVersion { .. } => (None, None),
        };
        let number = |n: Option<usize>| n.and_then(|n| u32::try_from(n).ok()).unwrap_or(0);
        KitError::Script {
            detail: error.to_string(),
            path: error.path().to_owned(),
            line: number(line),
            column: number(column),
        }
    }
}

/// A scripted agent or a recording served on 127.0.0.1.
#[derive(uniffi::Object)]
pub struct KitServer {
    url: String,
    running: Mutex<Option<(tokio::runtime::Runtime, AgentServer)>>,
}

impl std::fmt::Debug for KitServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KitServer").field("url", &self.url).finish_non_exhaustive()
    }
}

fn server_error(e: impl std::fmt::Display) -> KitError {
    KitError::Server { detail: e.to_string() }
}

fn start(
    port: u16,
    serve: impl FnOnce(SocketAddr) -> std::pin::Pin<Box<dyn std::future::Future<Output = std::io::Result<AgentServer>> + Send>>
        + Send,
) -> Result<Arc<KitServer>, KitError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("agentui-testing")
        .enable_all()
        .build()
        .map_err(server_error)?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    // On a thread of its own: the caller may be inside a runtime (a coroutine test).
    let server = std::thread::scope(|scope| scope.spawn(|| runtime.block_on(serve(addr))).join())
        .map_err(|_| server_error("the kit's server thread panicked"))?
        .map_err(server_error)?;
    Ok(Arc::new(KitServer { url: server.url(), running: Mutex::new(Some((runtime, server))) }))
}

/// Serves the script (JSON, docs/testing-apps.md) on 127.0.0.1:`port` (0: a free port).
#[uniffi::export]
pub fn start_scripted_agent(script_json: String, port: u16) -> Result<Arc<KitServer>, KitError> {
    let script = Script::from_json(&script_json)?;
    start(port, move |addr| Box::pin(ScriptedAgent::start(script, addr)))
}

/// Serves a folder written by `agentui run --record` on 127.0.0.1:`port` (0: a free port).
#[uniffi::export]
pub fn start_recording_server(dir: String, port: u16) -> Result<Arc<KitServer>, KitError> {
    let recording = Recording::load(Path::new(&dir)).map_err(|e| KitError::Recording { detail: e.to_string() })?;
    start(port, move |addr| Box::pin(RecordingServer::start(recording, addr)))
}

/// Checks a script without serving it (a builder's test of what it produces).
#[uniffi::export]
pub fn check_script(script_json: String) -> Result<(), KitError> {
    Script::from_json(&script_json).map(|_| ()).map_err(Into::into)
}

impl KitServer {
    fn with_server<T>(&self, f: impl FnOnce(&AgentServer) -> T, stopped: T) -> T {
        let running = self.running.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        running.as_ref().map_or(stopped, |(_, server)| f(server))
    }
}

#[uniffi::export]
impl KitServer {
    /// The agent's endpoint, `http://127.0.0.1:<port>/agent`.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Every request body received so far (`RunAgentInput` JSON), in order.
    pub fn requests(&self) -> Vec<String> {
        self.with_server(|s| s.requests().iter().map(ToString::to_string).collect(), Vec::new())
    }

    /// The requests that had no answer, each with why and the request, in order.
    pub fn unmatched(&self) -> Vec<String> {
        self.with_server(|s| s.unmatched().iter().map(ToString::to_string).collect(), Vec::new())
    }

    /// Stops the server; the logs read empty afterwards. Idempotent.
    pub fn stop(&self) {
        let taken = self.running.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some((runtime, server)) = taken {
            server.stop();
            drop(server);
            runtime.shutdown_background();
        }
    }
}

impl Drop for KitServer {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_that_does_not_load_is_a_located_error() {
        let error = check_script(r#"{"rules": [{"when": {"userSays": "x"}, "reply": [{"type": "dance"}]}]}"#.into())
            .unwrap_err();
        let KitError::Script { path, line, .. } = error else { panic!("{error:?}") };
        assert_eq!((path.as_str(), line), ("/rules/0/reply/0", 1));
    }

    #[test]
    fn a_server_starts_logs_and_stops() {
        let server = start_scripted_agent(r#"{"rules": []}"#.into(), 0).unwrap();
        assert!(server.url().starts_with("http://127.0.0.1:"));
        assert!(server.requests().is_empty() && server.unmatched().is_empty());
        server.stop();
        server.stop();
        assert!(matches!(start_recording_server("/nonexistent".into(), 0), Err(KitError::Recording { .. })));
    }
}
