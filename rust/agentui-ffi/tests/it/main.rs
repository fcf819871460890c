//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod common;

mod app_catalogs;
mod bindings;
mod conversation;
mod locale;
mod network;
mod panics;
mod store;
mod surface;
mod tls;
mod typed_values;
