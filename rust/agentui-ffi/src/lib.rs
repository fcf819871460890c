//! UniFFI bindings of the agent UI runtime (Kotlin package `dev.agentui.core`, Swift module
//! `AgentUICore`). Thin wrappers only: conversation state and protocol logic live in
//! `agentui-runtime`, `agentui-agui` and `agentui-a2ui`, whose types carry their own UniFFI
//! derives (feature `uniffi`; Kotlin packages `dev.agentui.core.runtime`, `.agui`, `.a2ui`,
//! `.json`), so nothing here mirrors them. See `API.md` for the surface as Kotlin and Swift see it.
//!
//! - [`Runtime`] owns the one tokio runtime; [`Runtime::connect`] makes a [`Conversation`] in
//!   memory, [`Runtime::open`] one kept in a [`ConversationStore`] (restored if it holds it).
//! - What a UI shows is pulled, never pushed: [`ViewSubscription`] (batches of list diffs built
//!   by the core) and [`SurfaceFeed`] (one surface's diffs); no thread per subscriber. Client
//!   tools ([`ClientToolHandler`], [`TypedClientToolHandler`]) and the app's A2UI catalog functions
//!   ([`A2uiFunctionHandler`], for the catalogs in `ConversationOptions.catalogs_json`) are
//!   foreign traits.
//! - Panics: UniFFI catches a panic in any exported function; async calls contain their own;
//!   tool handler panics become failed tool results.

uniffi::setup_scaffolding!();

/// JSON values cross the bindings as agentui-json defines them (`call_agent_function`'s answer).
mod bindings {
    use agentui_json::value::JsonValue;

    uniffi::use_remote_type!(agentui_json::JsonValue);
}

mod conversation;
mod error;
mod functions;
mod logging;
mod markdown;
mod network;
mod runtime;
mod store;
mod tls;
mod tools;

/// The host-test helpers (`demo-agent` feature), linked into this library in their own namespace.
#[cfg(feature = "demo-agent")]
pub use agentui_ffi_demo as demo;
#[cfg(feature = "demo-agent")]
pub use conversation::a2ui_case_surface;
#[cfg(feature = "demo-agent")]
pub use conversation::timeline_case_changes;
pub use conversation::{Conversation, SurfaceFeed, ValueWrite, ViewSubscription};
pub use error::{ConversationError, RuntimeStartError, SurfaceError};
pub use functions::{A2uiFunction, A2uiFunctionError, A2uiFunctionHandler};
pub use logging::{set_log_level, LogLevel};
pub use network::{HeaderProviderError, RequestHeaderProvider};
pub use runtime::{default_memory_budget, ConversationOptions, Header, Runtime};
pub use store::ConversationStore;
pub use tools::{ClientToolHandler, ToolHandlerError, TypedClientToolHandler, TypedToolResult};

// The core types the API carries, as they are, for Rust callers of this crate.
pub use agentui_a2ui::node::{Accessibility, ActionKind, Binding, CheckResult, ResolvedNode, Severity, SurfaceDiff};
pub use agentui_agui::budget::MemoryBudget;
pub use agentui_agui::message::{
    ContentPart, Context, Interrupt, Message, MessageContent, PartSource, Role, RunOutcome,
};
pub use agentui_agui::reducer::LocalOnly;
pub use agentui_agui::transport::{CertificateRejection, HeaderReason, TrustStore};
pub use agentui_json::value::{NodeValue, PropEntry};
pub use agentui_markdown::{MarkdownText, MdAlignment, MdBlock, MdCell, MdInline, MdListItem, PlainReason};
pub use agentui_runtime::session::{
    ActionResult, Consent, ConsentAnswer, ConsentRequest, PendingReason, PendingSend, PendingSendKind, RunPhase,
    RunSummary, SessionWarning, SessionWarningKind, ToolCallPhase, ToolCallUpdate, ToolFailure,
};
pub use agentui_runtime::timeline::{
    Delivery, RetryAction, RunErrorKind, TimelineChange, TimelineItem, TimelineItemKind, ToolSide,
};
pub use agentui_runtime::view::{ChatItem, MessageDiff, MessageToolCall, ToolCallDiff, ViewBatch, ViewEvent};
pub use agentui_runtime::{
    ConversationDelta, ConversationPage, ConversationSnapshot, ConversationSummary, KeptLocal, Observed, StoreError,
    SurfaceEntry, SurfaceSnapshot,
};
pub use markdown::markdown_text;
