//! How fast the demo agent streams.

use std::time::Duration;

/// Timing of the streams. Every delay is multiplied by `time_scale`, so tests can keep the
/// shapes of the streams and shrink the waits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DemoAgentOptions {
    /// Gap between two events of any scenario, so the demo looks like a live agent.
    pub event_delay: Duration,
    /// Gap between the deltas of the slow scenario.
    pub slow_delay: Duration,
    /// Factor applied to both delays; `0.0` sends everything at once.
    pub time_scale: f64,
}

impl Default for DemoAgentOptions {
    fn default() -> Self {
        DemoAgentOptions {
            event_delay: Duration::from_millis(30),
            slow_delay: Duration::from_millis(200),
            time_scale: 1.0,
        }
    }
}

impl DemoAgentOptions {
    /// No gap between events, and `slow_delay` as given (for cancellation tests).
    pub fn for_tests(slow_delay: Duration) -> Self {
        DemoAgentOptions { event_delay: Duration::ZERO, slow_delay, time_scale: 1.0 }
    }

    pub(crate) fn scaled(&self, delay: Duration) -> Duration {
        if self.time_scale.is_finite() && self.time_scale > 0.0 {
            delay.mul_f64(self.time_scale)
        } else {
            Duration::ZERO
        }
    }
}
