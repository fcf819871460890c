//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod cli;
mod closed_output;
mod hostile;
mod locale;
mod markdown;
mod mobile_networks;
mod record_replay;
mod store_commands;
mod store_crash;
mod tls;
mod turn_summary;
