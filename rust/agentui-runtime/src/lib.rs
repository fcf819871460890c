//! The conversation runtime: the layer between the protocol crates and the app, shared by the
//! FFI and the CLI.
//!
//! - [`session`]: one conversation with one agent: the run loop, client tools, interrupts,
//!   the tool policy.
//! - [`a2ui_bridge`]: A2UI carried over AG-UI: finding it in its carriers, replay fingerprints,
//!   what goes back to the agent.
//! - [`conversation`]: the actor apps hold: runs serialised, input applied at once.
//! - [`observe`]: what observers see: a snapshot, then deltas; the model they observe and the
//!   bounded queues that deliver it are internal (`model`, `observers`), and so is the one copy
//!   of the conversation the session and the observers share (`shared_conversation`).
//! - [`budget`]: where the memory budget meets the A2UI engine.
//! - [`store`]: conversations that survive process death (SQLite).
//!
//! `agentui-agui` is protocol only (events, SSE, verifier, reducer, transport) and
//! `agentui-a2ui` is the surface engine; neither knows the other.

pub mod a2ui_bridge;
pub mod attachment;
pub mod budget;
pub mod conversation;
mod model;
pub mod observe;
mod observers;
pub mod session;
mod shared_conversation;
pub mod store;
pub mod surface_case;
pub mod timeline;
pub mod view;

// The crate's own tests drive the session directly (its run and input methods are crate-private:
// apps and the CLI use `Conversation`); they name the crate as a user would.
#[cfg(test)]
extern crate self as agentui_runtime;
#[cfg(test)]
mod tests;

#[cfg(feature = "uniffi")]
uniffi::setup_scaffolding!();

/// JSON values cross the bindings as agentui-json defines them.
#[cfg(feature = "uniffi")]
mod bindings {
    use agentui_json::value::JsonValue;

    uniffi::use_remote_type!(agentui_json::JsonValue);
}

pub use budget::SurfaceBudget;
pub use conversation::{
    Conversation, Subscription, SurfaceCloser, SurfaceSnapshot, SurfaceSubscription, ViewSubscription, MAX_QUEUED_RUNS,
};
pub use observe::{
    ConsentAnswer, ConsentRequest, ConversationDelta, ConversationSnapshot, KeptLocal, Observed, SurfaceEntry,
    ABSORB_LIMIT,
};
pub use shared_conversation::ConversationGuard;
pub use store::{
    ConversationPage, ConversationStore, ConversationSummary, StoreError, StoredConversation, WriteObserver,
};
