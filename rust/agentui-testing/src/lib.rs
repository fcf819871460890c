//! The test kit for app teams (issue 39): a scripted AG-UI agent and a recording server on
//! loopback, so an app's conversation screen is tested offline and deterministically.
//!
//! - [`Script`]: rules matched on the user's message, a tool result or an interrupt's answer,
//!   each answering with [`Step`]s; loaded from JSON with typed, located errors ([`ScriptError`]).
//! - [`ScriptedAgent::start`]: serves a script; [`RecordingServer::start`] serves a folder written
//!   by `agentui run --record`. Both return an [`AgentServer`] that keeps every request it
//!   received and every request it could not answer ([`AgentServer::assert_all_matched`]).
//!
//! The HTTP side is the demo agent's (framing, pacing, shutdown, request parsing). Never linked
//! into the phone library: the platforms get it through its own native library
//! (`agentui-testing-ffi`).

mod agent;
mod error;
mod proxy;
mod recording;
mod reply;
mod script;
mod server;

pub use agent::{latest_user_text, ScriptedAgent};
pub use error::{RecordingError, ScriptError};
pub use proxy::{Forwarded, RecordingProxy, Upstream};
pub use recording::{is_credential, Recording, RecordingServer, RecordingWriter};
pub use script::{Script, Step, DEFAULT_CHUNK_CHARS, MAX_DELAY_MS, MAX_PATTERN_BYTES, MAX_RULES, MAX_STEPS};
pub use server::{AgentServer, Unmatched, UnmatchedRequests, MAX_RECORDED_REQUESTS, UNMATCHED_STATUS};
