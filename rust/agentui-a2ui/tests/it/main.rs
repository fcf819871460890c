//! The crate's integration tests, one module per concern, linked into one binary so that a
//! change relinks one test executable instead of one per file (nextest still runs each test
//! in a process of its own).

mod common;

mod catalog_conformance;
mod data_model_props;
mod engine;
mod host_functions;
mod locale;
mod schema_spec_cases;
mod spec_examples;
mod surface_export;
mod v08_adapter;
mod v10;
