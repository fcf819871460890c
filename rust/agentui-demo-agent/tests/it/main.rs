//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod common;

mod a2ui_engine;
mod faults;
mod follow_ups;
mod scenarios;
mod server;
