//! UniFFI bindings of the agent UI runtime (Kotlin package `dev.agentui.core`, Swift module
//! `AgentUICore`). Thin wrappers only: conversation state and protocol logic live in
//! `agentui-runtime`, `agentui-agui` and `agentui-a2ui`. See `API.md` for the surface as Kotlin
//! and Swift see it.
//!
//! - [`Runtime`] owns the one tokio runtime; [`Runtime::connect`] makes a [`Conversation`] in
//!   memory, [`Runtime::open`] one kept in a [`ConversationStore`] (restored if it holds it).
//! - Listeners ([`ConversationListener`], [`SurfaceListener`]) get a snapshot, then deltas, on a
//!   [`TaskHandle`] that cancels on drop. Client tools ([`ClientToolHandler`]) are foreign traits.
//! - Panics: UniFFI catches a panic in any exported function; async calls and listener
//!   deliveries contain their own; tool handler panics become failed tool results.

uniffi::setup_scaffolding!();

/// Declares a bindings enum of unit variants mirroring a core enum one to one, with its `From`.
#[macro_export]
#[doc(hidden)]
macro_rules! mirror {
    ($(#[$meta:meta])* $name:ident from $($core:ident)::+ { $($variant:ident),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
        pub enum $name { $($variant),* }

        impl From<$($core)::+> for $name {
            fn from(value: $($core)::+) -> Self {
                use $($core)::+ as Core;
                match value { $(Core::$variant => $name::$variant),* }
            }
        }
    };
}

mod budget;
mod conversation;
mod error;
mod logging;
mod message;
mod node;
mod runtime;
mod store;
mod tls;
mod tools;
mod update;
mod value;

/// The host-test helpers (`demo-agent` feature), linked into this library in their own namespace.
#[cfg(feature = "demo-agent")]
pub use agentui_ffi_demo as demo;
pub use budget::{default_memory_budget, MemoryBudget};
pub use conversation::{Conversation, ConversationListener, SurfaceListener, TaskHandle};
pub use error::{ConversationError, ListenerError, RuntimeStartError, StoreError, SurfaceError};
pub use logging::{set_log_level, LogLevel};
pub use message::{
    ContentPart, InterruptRecord, MediaSource, MessageContent, MessageRecord, MessageRole, MessageToolCall,
};
pub use node::{ActionKindRecord, BindingRecord, CheckRecord, ResolvedNodeRecord, SurfaceDiffRecord};
pub use runtime::{ContextEntry, ConversationOptions, Header, Runtime};
pub use store::{ConversationPage, ConversationStore, ConversationSummary};
pub use tls::{CertificateRejection, TrustStore};
pub use tools::{ClientToolHandler, ToolHandlerError};
pub use update::{
    ActionResultRecord, ConversationDelta, ConversationSnapshot, ConversationUpdate, KeptLocalMessage, LocalOnlyReason,
    PatchOp, PatchOperationRecord, PendingSend, PendingSendKind, RunOutcome, RunPhase, RunSummary, SessionWarning,
    SessionWarningKind, SurfaceEntry, SurfaceSnapshot, ToolCallPhase, ToolCallUpdate, ToolFailureKind,
};
pub use value::{NodeValue, PropEntry};
