//! The crate's tests of the session and the conversation, one module per concern, built into
//! the crate's unit-test binary: the session's run and input methods are crate-private (one
//! public face per conversation, `Conversation`), and these tests drive the session loop
//! directly. They name the crate `agentui_runtime`, as a user would. nextest still runs each
//! test in a process of its own.

mod support;

mod a2ui_bridge;
mod agent_function;
mod app_catalogs;
mod attachments;
mod consent;
mod conversation_actor;
mod demo_agent;
mod hostile_session;
mod lessons;
mod messages_reset;
mod mobile_networks;
mod server_interop_defects;
mod session_budget;
mod session_runtime;
mod store;
mod surface_case;
mod timeline;
mod tls_trust;
mod view;
