//! A long text stream with `slow_delay` between deltas, for cancellation tests.

use super::script;
use crate::input::RunInput;
use crate::script::{Delay, Step};

pub(super) const DELTAS: usize = 50;

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    let id = s.open_text();
    for n in 1..=DELTAS {
        if n > 1 {
            s.step(Step::Pause(Delay::Slow));
        }
        s.text_delta(&id, &format!("Slow token {n}. "));
    }
    s.event(serde_json::json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
    s.finish()
}
