//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod bench_stream;
mod conformance;
mod credentials;
mod fast_decode;
mod pipeline;
mod resume;
mod support;
mod transport_faults;
