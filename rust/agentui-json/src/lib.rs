//! Bounded measures of JSON values, shared by the AG-UI client (state, activity content, patch
//! results) and the A2UI engine (data models): both bound what an agent makes the app hold, and
//! must weigh a value the same way for one memory budget to mean one thing.

pub mod size;
#[cfg(feature = "uniffi")]
pub mod value;

#[cfg(feature = "uniffi")]
uniffi::setup_scaffolding!();
