//! A scripted, deterministic AG-UI 1.1 server (no LLM) on loopback, for the `agentui` demo, the
//! AG-UI client's HTTP tests, and the Kotlin tests.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use agentui_demo_agent::{DemoAgent, DemoAgentOptions};
//! let agent = DemoAgent::new(DemoAgentOptions::default()).serve("127.0.0.1:0".parse().unwrap()).await?;
//! println!("POST {}", agent.agent_url());
//! agent.shutdown().await
//! # }
//! ```
//!
//! # Endpoints
//!
//! - `POST /agent` with a `RunAgentInput` body answers `text/event-stream`, one `data: <json>`
//!   frame per event. The scenario is chosen by a keyword in the latest user message (see
//!   [`SCENARIOS`]: delete, fail, slow, compare, location, open, weather, book, sign up,
//!   receipt, loyalty, picture, counter, steps, legacy, hello; first match wins, default chat).
//! - `POST /agent/<scenario>` runs that scenario whatever the message says.
//! - On either, a follow-up is answered first: `resume` entries (interrupt answers),
//!   `forwardedProps.command.resume` (a LangGraph-style legacy interrupt answer),
//!   `forwardedProps.a2uiCallAgentFunction` (a v1.0 `callAgentFunction`, answered by the sign-up
//!   scenario's functions), `forwardedProps.a2uiAction` (the booking form's `book` action, the
//!   sign-up card's `sign_up`), or tool messages at the end
//!   of `messages` (client tool results, quoted back verbatim and paired by `toolCallId`).
//! - `POST /fault/<kind>`: broken responses, see [`FAULTS`].
//! - `POST /dpop/agent`: as `/agent` once the request's `DPoP` header mentions
//!   [`DEMO_DPOP_NONCE`]; before that a 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
//!   and `DPoP-Nonce` (for header provider tests).
//! - A body that is not JSON, or not a `RunAgentInput`, gets 400 with
//!   `{"error": {"code": "malformed_json" | "invalid_input", "message"}}`.
//!
//! Every run opens with `RUN_STARTED {threadId, runId}` from the input and closes with
//! `RUN_FINISHED {threadId, runId, outcome}` (or `RUN_ERROR`; `approve-legacy` and its answer
//! leave `outcome` out, as ag-ui-langgraph does). Ids are derived from the run id:
//! `msg-<runId>-<n>`, `call-<runId>-<n>`, `int-<runId>-1`. Nothing is logged.

mod faults;
mod input;
mod options;
mod scenarios;
mod script;
mod server;
mod shutdown;
mod sse;
#[cfg(feature = "tls")]
pub mod tls;

pub use faults::{FAULTS, OVERSIZED_EVENT_BYTES};
pub use options::DemoAgentOptions;
pub use scenarios::custom_catalog::{loyalty_catalog_json, LOYALTY_CATALOG_ID};
pub use scenarios::media::{fnv1a64, PICTURE_PNG_BASE64};
pub use scenarios::{ScenarioInfo, SCENARIOS};
pub use server::{DemoAgent, DemoAgentHandle, DEMO_DPOP_NONCE};

/// The server pieces the test kit's scripted agent and recording server (`agentui-testing`)
/// build on, so both servers frame, pace, stop and parse requests the same way as this one.
pub mod serving {
    pub use crate::input::{InputError, InputFunction, InputMessage, InputTool, InputToolCall, ResumeEntry, RunInput};
    pub use crate::script::{Delay, Script, Step, PROTOCOL_VERSION};
    pub use crate::shutdown::{channel, Shutdown, ShutdownTrigger};
    pub use crate::sse::{event_stream, frame};
}
