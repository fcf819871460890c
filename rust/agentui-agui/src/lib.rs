//! AG-UI 1.1 client: event types, SSE decoding, the stream verifier and the conversation reducer
//! (pure and synchronous), plus the async edge built on them: [`transport`] (HTTP + SSE over
//! reqwest/rustls). Protocol only: the conversation runtime (client tools, interrupts, A2UI
//! surfaces, observers) is `agentui-runtime`; rendering and FFI live elsewhere.
//!
//! Data flow for one response body:
//!
//! ```text
//! bytes ─▶ SseDecoder ─▶ EventPipeline: compat ─▶ enforcement ─▶ ChunkExpander ─▶ StreamVerifier ─▶ ConversationReducer
//! ```

pub mod budget;
pub mod chunks;
pub mod compat;
pub mod conformance;
pub mod decode;
pub mod error;
pub mod event;
pub mod input;
pub mod limits;
pub mod message;
pub mod patch;
pub mod pipeline;
pub mod reducer;
pub mod sse;
pub mod transport;
pub mod verify;
pub mod version;

pub use budget::MemoryBudget;
pub use chunks::ChunkExpander;
pub use compat::{CompatibilityBoundary, PeerEra};
pub use error::{ProtocolError, Warning, WarningKind};
pub use event::Event;
pub use input::{build_run_agent_input, RunRequest};
pub use limits::Limits;
pub use message::{ContentPart, MediaPart, Message, MessageContent, PartSource, RunAgentInput, TextPart};
pub use pipeline::{process_sse_body, EventPipeline, PipelineOptions, StreamError, StreamSummary};
pub use reducer::{
    Change, ConversationReducer, ConversationState, LocalOnly, ToolCallOrigin, ToolCallRecord, ToolCallStatus,
};
pub use sse::{IdPlacement, SseDecoder, SseError, SseEvent, SseLimits};
pub use verify::StreamVerifier;
pub use version::PROTOCOL_VERSION;

#[cfg(feature = "uniffi")]
uniffi::setup_scaffolding!();

/// JSON values and objects cross the bindings as agentui-json defines them.
#[cfg(feature = "uniffi")]
mod bindings {
    use agentui_json::value::{JsonObject, JsonValue};

    uniffi::use_remote_type!(agentui_json::JsonValue);
    uniffi::use_remote_type!(agentui_json::JsonObject);
}
