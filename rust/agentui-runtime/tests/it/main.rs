//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod support;

mod a2ui_bridge;
mod conversation_actor;
mod demo_agent;
mod hostile_session;
mod lessons;
mod mobile_networks;
mod server_interop_defects;
mod session_runtime;
mod store;
mod tls_trust;
mod view;
