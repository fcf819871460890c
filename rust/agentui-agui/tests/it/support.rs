//! What the transport tests share: one input and the options they run with.

use std::time::Duration;

use agentui_agui::message::RunAgentInput;
use agentui_agui::transport::TransportOptions;

/// A run on thread "t" with nothing in it.
pub fn input() -> RunAgentInput {
    RunAgentInput::new("t", "r1")
}

/// A short idle timeout, so a stalled body fails fast.
pub fn options() -> TransportOptions {
    TransportOptions { idle_timeout: Duration::from_millis(500), ..TransportOptions::default() }
}
