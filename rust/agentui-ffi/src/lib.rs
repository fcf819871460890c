//! UniFFI bindings of the agent UI runtime (Kotlin package `dev.agentui.core`, Swift module
//! `AgentUICore`). Thin wrappers only: conversation and protocol logic live in `agentui-runtime`,
//! `agentui-agui` and `agentui-a2ui`. See `API.md` for the surface as Kotlin and Swift see it.
//!
//! - [`Runtime`] owns the one tokio runtime; [`Runtime::connect`] makes a [`Conversation`].
//! - Listeners ([`ConversationListener`], [`SurfaceListener`]) and client tools
//!   ([`ClientToolHandler`]) are foreign traits; subscriptions return a [`SubscriptionHandle`]
//!   that cancels on drop.
//! - Panics: UniFFI catches a panic in any exported function and raises it as an internal
//!   exception; listener panics are contained per delivery, tool handler panics become failed
//!   tool results (the core runs handlers on their own tasks).

uniffi::setup_scaffolding!();

mod budget;
mod conversation;
#[cfg(feature = "demo-agent")]
mod demo;
mod error;
mod logging;
mod message;
mod node;
mod runtime;
mod surface;
mod tls;
mod tools;
mod update;
mod value;
mod view;

pub use budget::{default_memory_budget, MemoryBudget};
pub use conversation::{Conversation, ConversationListener};
#[cfg(feature = "demo-agent")]
pub use demo::{
    panic_for_tests, start_demo_agent, start_demo_agent_with, start_tls_demo_agent, DemoAgentError, DemoAgentHandle,
    TlsDemoAgentHandle,
};
pub use error::{ConversationError, ListenerError, RuntimeStartError, SurfaceError};
pub use logging::{set_log_level, LogLevel};
pub use message::{
    ContentPart, InterruptRecord, MediaSource, MessageContent, MessageRecord, MessageRole, ToolCallRecord,
};
pub use node::{ActionKindRecord, BindingRecord, CheckRecord, ResolvedNodeRecord, SurfaceDiffRecord};
pub use runtime::{ContextEntry, ConversationOptions, Header, Runtime};
pub use surface::{Surface, SurfaceListener};
pub use tls::{CertificateRejection, TrustStore};
pub use tools::{ClientToolHandler, ToolHandlerError};
pub use update::{
    ActionResultRecord, ConversationUpdate, RunOutcome, RunStatus, RunSummary, ToolCallReport, ToolCallStatus,
    ToolFailureKind, WarningKind, WarningRecord,
};
pub use value::{NodeValue, PropEntry};
pub use view::SubscriptionHandle;
