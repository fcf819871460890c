//! Plain streamed text, several deltas, with non-ASCII on purpose.

use super::script;
use crate::input::RunInput;
use crate::script::Step;

pub(super) const GREETING: [&str; 6] = [
    "Hello! ",
    "I am the demo agent, ",
    "a scripted AG-UI server with no language model behind it. ",
    "Grab a café ☕ ",
    "and try: weather, location, compare, book, receipt, counter, delete, fail or slow. ",
    "Ünïcödé survives the trip: 日本語, emoji 🎉.",
];

pub(super) fn run(input: &RunInput) -> Vec<Step> {
    let mut s = script(input);
    s.text(&GREETING);
    s.finish()
}
