//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod agent_framework;
mod cli;
mod crewai;
mod pydantic_ai;
mod record_replay;
mod servers;
mod strands;
