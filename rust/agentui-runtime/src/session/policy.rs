//! The client's say over what it executes (lesson 6): a tool-call event is a request, not a
//! permission. The policy sees every call of a registered tool, after its arguments validated
//! and before its handler runs; a denial becomes an error result the agent reads.

use super::tools::ToolInvocation;

/// The application's verdict on one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolDecision {
    Allow,
    Deny { reason: String },
}

impl ToolDecision {
    pub fn deny(reason: impl Into<String>) -> Self {
        ToolDecision::Deny { reason: reason.into() }
    }
}

/// Decides, per call, whether a registered tool may run. Implemented for closures.
pub trait ToolPolicy: Send + Sync {
    fn decide(&self, call: &ToolInvocation) -> ToolDecision;
}

impl<F> ToolPolicy for F
where
    F: Fn(&ToolInvocation) -> ToolDecision + Send + Sync,
{
    fn decide(&self, call: &ToolInvocation) -> ToolDecision {
        self(call)
    }
}

/// The default: every registered tool may run (registration is itself the allowlist).
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowRegistered;

impl ToolPolicy for AllowRegistered {
    fn decide(&self, _call: &ToolInvocation) -> ToolDecision {
        ToolDecision::Allow
    }
}
