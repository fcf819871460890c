//! The SSE decoder on arbitrary bytes, fed whole and split at a point the input chooses: both
//! must give the same events and the same verdict, and no event may exceed the bounds.
#![no_main]

use agentui_agui::{SseDecoder, SseEvent, SseLimits};
use libfuzzer_sys::fuzz_target;

const LIMITS: SseLimits = SseLimits { max_line_bytes: 256, max_event_bytes: 1024 };

fn decode(chunks: &[&[u8]]) -> (Vec<SseEvent>, bool) {
    let mut d = SseDecoder::new(LIMITS);
    let mut events = Vec::new();
    for chunk in chunks {
        if d.push_with(chunk, |e| events.push(e)).is_err() {
            return (events, false);
        }
    }
    let ok = d.finish_with(|e| events.push(e)).is_ok();
    (events, ok)
}

fuzz_target!(|data: &[u8]| {
    let Some((&cut, body)) = data.split_first() else { return };
    let cut = usize::from(cut).min(body.len());
    let whole = decode(&[body]);
    let split = decode(&[&body[..cut], &body[cut..]]);
    assert_eq!(whole, split, "splitting the input changed the events");
    for e in &whole.0 {
        assert!(e.data.len() <= LIMITS.max_event_bytes);
    }
    // The Vec-returning push delivers the same events before an error.
    let mut d = SseDecoder::new(LIMITS);
    let mut events = Vec::new();
    if let Ok(list) = d.push(body) {
        events.extend(list);
        if let Ok(rest) = d.push(b"") {
            events.extend(rest);
            if let Ok(last) = d.finish() {
                events.extend(last);
            }
        }
    }
    assert_eq!(events, whole.0);
});
