//! A2UI engine (v0.9 and v0.9.1, v0.8 through an adapter): owns the surfaces an agent creates
//! and turns agent messages into resolved, renderable nodes with fine-grained diffs.
//!
//! No I/O, no FFI, no knowledge of AG-UI: bytes in and out are the caller's business.

mod call_site;
pub mod catalog;
pub mod component;
pub mod data_model;
pub mod dependency;
pub mod dynamic;
pub mod error;
pub mod functions;
pub mod group;
pub mod limits;
pub mod locale;
pub mod markdown;
pub mod node;
pub mod pointer;
pub mod resolve;
pub mod schema;
/// Weights and depths of JSON values (shared with the AG-UI crate, which bounds state the same way).
pub use agentui_json::size;
pub mod surface;
pub mod validator;
pub mod wire;

pub use error::{A2uiError, ValidationIssue};
pub use group::{ActionOutcome, Effect, Outcome, SurfaceEvent, SurfaceGroup};
pub use limits::Limits;
pub use locale::{Localization, LocalizationError};
pub use node::{ResolvedNode, SurfaceDiff};
pub use surface::Surface;

#[cfg(feature = "uniffi")]
uniffi::setup_scaffolding!();
