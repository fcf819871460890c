//! An incremental decoder for `text/event-stream` bodies, following the WHATWG event-stream
//! interpretation rules over arbitrary byte chunks.
//!
//! Rules implemented: a leading UTF-8 BOM is skipped; lines end in LF, CRLF or CR (a CR at the
//! end of one chunk and an LF at the start of the next are one line end); a line starting with
//! `:` is a comment; `field:value` strips one leading space from the value; a line without a
//! colon is a field with an empty value; `data` lines join with `\n`; `event`, `id` (ignored if
//! it contains NUL) and `retry` (ASCII digits only) fields; an empty line dispatches the event
//! unless its data is empty; the last event id persists across events.
//!
//! Two deliberate choices, documented here because they differ from a browser:
//! - **Invalid UTF-8 is an error** ([`SseError::InvalidUtf8`]), not replaced with U+FFFD: the
//!   payload is JSON the client must trust, and silent replacement would change it.
//! - **[`SseDecoder::finish`] delivers a final event that lacks its terminating blank line**
//!   (browsers discard it). A producer that closes the connection right after its last
//!   `data:` line still has that event — typically `RUN_FINISHED` — seen, and the verifier, not
//!   the framing, judges whether the stream was complete.
//!
//! Line and event sizes are bounded ([`SseLimits`]); exceeding either is an error rather than
//! unbounded buffering.

/// One dispatched server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, or `message` when absent.
    pub event: String,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The last event id seen on the stream (persists across events), if any.
    pub id: Option<String>,
    /// Where `id` was set, relative to this event: what a resumption from `id` replays.
    pub id_placement: IdPlacement,
    /// The reconnection time the server asked for, in milliseconds, if this event or a block
    /// without data since the last event carried one.
    pub retry: Option<u64>,
}

/// Where an event's `id` was set. A server resumes after the point where the id it is given
/// was set, so this tells whether a resumption from that id sends this event again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IdPlacement {
    /// Not since the previous event (or never): the event carries an earlier id on, and comes
    /// after that id's point.
    #[default]
    Inherited,
    /// By a block without data since the previous event: the id's point is just before this
    /// event.
    BeforeThisEvent,
    /// By this event's own `id` field: the id's point is just after this event.
    OnThisEvent,
}

/// Bounds on what the decoder buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseLimits {
    /// Bytes in one line, terminator excluded.
    pub max_line_bytes: usize,
    /// Bytes of `data` in one event.
    pub max_event_bytes: usize,
}

impl Default for SseLimits {
    fn default() -> Self {
        SseLimits { max_line_bytes: 8 * 1024 * 1024, max_event_bytes: 16 * 1024 * 1024 }
    }
}

/// Why the byte stream could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    #[error("invalid UTF-8 in the event stream at byte {offset}")]
    InvalidUtf8 { offset: u64 },
    #[error("an event-stream line exceeds {limit} bytes")]
    LineTooLong { limit: usize },
    #[error("an event's data exceeds {limit} bytes")]
    EventTooLarge { limit: usize },
}

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Incremental event-stream decoder. Feed byte chunks with [`push`](Self::push), then call
/// [`finish`](Self::finish) at end of body.
#[derive(Debug, Default)]
pub struct SseDecoder {
    limits: SseLimits,
    line: Vec<u8>,
    // Byte offset (in the whole stream) of the first byte of `line`, for error reports.
    line_start: u64,
    consumed: u64,
    // Until three bytes are seen we cannot tell a BOM from content.
    bom_state: BomState,
    pending_cr: bool,
    data: String,
    has_data: bool,
    event_type: String,
    last_event_id: Option<String>,
    // Where `last_event_id` was set relative to the event being read.
    id_placement: IdPlacement,
    retry: Option<u64>,
    /// The error that stopped decoding. Once set, every later call returns it: the bytes after a
    /// framing error cannot be trusted to start where an event starts.
    failed: Option<SseError>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum BomState {
    #[default]
    Checking,
    Done,
}

impl SseDecoder {
    pub fn new(limits: SseLimits) -> Self {
        SseDecoder { limits, ..Default::default() }
    }

    /// A decoder for a stream that continues another (a reconnection): the last event id
    /// buffer starts at `last_event_id`, as it persists across a reconnection in the spec.
    pub fn continuing(limits: SseLimits, last_event_id: Option<String>) -> Self {
        SseDecoder { limits, last_event_id, ..Default::default() }
    }

    /// Decode one chunk, returning the events it completes.
    ///
    /// When the chunk completes events and then breaks a rule (a line too long, invalid UTF-8),
    /// the completed events are returned and the error is returned by the next call (`push` or
    /// `finish`): nothing that was decoded is lost, and nothing after the error is decoded.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        match self.push_with(chunk, |e| out.push(e)) {
            Ok(()) => Ok(out),
            // `failed` is set: the next call reports the error.
            Err(_) if !out.is_empty() => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// Decode one chunk, handing each completed event to `sink` (no intermediate vector).
    pub fn push_with(&mut self, chunk: &[u8], sink: impl FnMut(SseEvent)) -> Result<(), SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = self.push_inner(chunk, sink);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn push_inner(&mut self, mut chunk: &[u8], mut sink: impl FnMut(SseEvent)) -> Result<(), SseError> {
        if self.bom_state == BomState::Checking {
            // Hold back bytes that could still be the start of a BOM.
            let mut held = std::mem::take(&mut self.line);
            let need = BOM.len().saturating_sub(held.len()).min(chunk.len());
            held.extend_from_slice(&chunk[..need]);
            chunk = &chunk[need..];
            if held.len() < BOM.len() && BOM.starts_with(&held) {
                self.line = held;
                return Ok(());
            }
            self.bom_state = BomState::Done;
            if held.starts_with(&BOM) {
                self.consumed += BOM.len() as u64;
                self.line_start = self.consumed;
                held.drain(..BOM.len());
            }
            self.feed(&held, &mut sink)?;
        }
        self.feed(chunk, &mut sink)
    }

    fn feed(&mut self, mut bytes: &[u8], sink: &mut impl FnMut(SseEvent)) -> Result<(), SseError> {
        while !bytes.is_empty() {
            if self.pending_cr {
                self.pending_cr = false;
                if bytes[0] == b'\n' {
                    bytes = &bytes[1..];
                    self.consumed += 1;
                    self.line_start = self.consumed;
                    continue;
                }
            }
            match line_end(bytes) {
                Some(end) => {
                    let (line, rest) = bytes.split_at(end);
                    self.pending_cr = rest[0] == b'\r';
                    bytes = &rest[1..];
                    self.consumed += end as u64 + 1;
                    if self.line.is_empty() {
                        // The whole line is in this chunk: read in place, not copied first.
                        self.check_line(line.len())?;
                        self.process_line(line, sink)?;
                    } else {
                        self.append_line(line)?;
                        self.end_line(sink)?;
                    }
                    self.line_start = self.consumed;
                }
                None => {
                    self.append_line(bytes)?;
                    self.consumed += bytes.len() as u64;
                    bytes = &[];
                }
            }
        }
        Ok(())
    }

    fn append_line(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        self.check_line(self.line.len() + bytes.len())?;
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn check_line(&self, length: usize) -> Result<(), SseError> {
        if length > self.limits.max_line_bytes {
            return Err(SseError::LineTooLong { limit: self.limits.max_line_bytes });
        }
        Ok(())
    }

    fn end_line(&mut self, sink: &mut impl FnMut(SseEvent)) -> Result<(), SseError> {
        let line = std::mem::take(&mut self.line);
        let result = self.process_line(&line, sink);
        // Keep the allocation for the next line.
        self.line = line;
        self.line.clear();
        result
    }

    fn process_line(&mut self, line: &[u8], sink: &mut impl FnMut(SseEvent)) -> Result<(), SseError> {
        if line.is_empty() {
            self.dispatch(sink);
            return Ok(());
        }
        let text = std::str::from_utf8(line)
            .map_err(|e| SseError::InvalidUtf8 { offset: self.line_start + e.valid_up_to() as u64 })?;
        if text.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match text.find(':') {
            Some(i) => {
                let v = &text[i + 1..];
                (&text[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (text, ""),
        };
        match field {
            "data" => {
                let extra = value.len() + usize::from(self.has_data);
                if self.data.len() + extra > self.limits.max_event_bytes {
                    return Err(SseError::EventTooLarge { limit: self.limits.max_event_bytes });
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => {
                self.event_type.clear();
                self.event_type.push_str(value);
            }
            "id" if !value.contains('\0') => {
                self.last_event_id = Some(value.to_owned());
                self.id_placement = IdPlacement::OnThisEvent;
            }
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok();
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self, sink: &mut impl FnMut(SseEvent)) {
        if !self.has_data {
            // A `retry:` sent on its own (servers send it first, without data) still counts:
            // it goes out with the next event. So does an `id:`, as the point before it.
            self.event_type.clear();
            if self.id_placement == IdPlacement::OnThisEvent {
                self.id_placement = IdPlacement::BeforeThisEvent;
            }
            return;
        }
        let id_placement = std::mem::take(&mut self.id_placement);
        let retry = self.retry.take();
        let event =
            if self.event_type.is_empty() { "message".to_owned() } else { std::mem::take(&mut self.event_type) };
        self.has_data = false;
        sink(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
            id: self.last_event_id.clone(),
            id_placement,
            retry,
        });
    }

    /// End of body: a pending line is processed and a final event without its blank line is
    /// delivered (see the module notes).
    pub fn finish(&mut self) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        self.finish_with(|e| out.push(e))?;
        Ok(out)
    }

    /// [`finish`](Self::finish) with a sink.
    pub fn finish_with(&mut self, mut sink: impl FnMut(SseEvent)) -> Result<(), SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.bom_state == BomState::Checking {
            self.bom_state = BomState::Done;
            if self.line.starts_with(&BOM) {
                self.line.drain(..BOM.len());
            }
        }
        if !self.line.is_empty() {
            self.end_line(&mut sink)?;
        }
        self.pending_cr = false;
        self.dispatch(&mut sink);
        Ok(())
    }
}

/// Where the first `\n` or `\r` of `bytes` is. Eight bytes at a time: a body is mostly long
/// `data:` lines, and a scan byte by byte led the replay's profile (issue 42).
fn line_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Non-zero exactly when some byte of `word` equals `byte` (which one is found below).
    let holds = |word: u64, byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut start = 0;
    for word in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if holds(word, b'\n') | holds(word, b'\r') != 0 {
            break;
        }
        start += 8;
    }
    bytes[start..].iter().position(|&b| b == b'\n' || b == b'\r').map(|at| start + at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time scan finds the first line end wherever it is, as a byte scan does,
    /// with bytes around it that differ from `\n` and `\r` by one bit or by carry.
    #[test]
    fn line_end_finds_the_first_cr_or_lf_anywhere() {
        let naive = |b: &[u8]| b.iter().position(|&c| c == b'\n' || c == b'\r');
        let fillers = [b'a', 0x0b, 0x0c, 0x0e, 0x8a, 0x8d, 0x00, 0xff, b'\t'];
        for len in 0..40 {
            for filler in fillers {
                let plain = vec![filler; len];
                assert_eq!(line_end(&plain), naive(&plain), "{len} {filler:#x}");
                for at in 0..len {
                    for end in [b'\n', b'\r'] {
                        let mut bytes = plain.clone();
                        bytes[at] = end;
                        if at + 3 < len {
                            bytes[at + 3] = b'\n';
                        }
                        assert_eq!(line_end(&bytes), Some(at), "{len} {filler:#x} {at}");
                    }
                }
            }
        }
    }

    fn decode_whole(input: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut d = SseDecoder::new(SseLimits::default());
        let mut out = d.push(input)?;
        out.extend(d.finish()?);
        Ok(out)
    }

    /// Decode `input` split at every byte position (two chunks), and byte by byte; every split
    /// must give the same events as the whole.
    fn decode_all_splits(input: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let whole = decode_whole(input);
        for cut in 0..=input.len() {
            let mut d = SseDecoder::new(SseLimits::default());
            let split = (|| {
                let mut out = d.push(&input[..cut])?;
                out.extend(d.push(&input[cut..])?);
                out.extend(d.finish()?);
                Ok(out)
            })();
            assert_eq!(split, whole, "split at byte {cut} of {:?}", String::from_utf8_lossy(input));
        }
        let mut d = SseDecoder::new(SseLimits::default());
        let bytewise = (|| {
            let mut out = Vec::new();
            for b in input {
                out.extend(d.push(std::slice::from_ref(b))?);
            }
            out.extend(d.finish()?);
            Ok(out)
        })();
        assert_eq!(bytewise, whole, "byte by byte");
        whole
    }

    fn data(events: &[SseEvent]) -> Vec<&str> {
        events.iter().map(|e| e.data.as_str()).collect()
    }

    #[test]
    fn line_endings_lf_crlf_cr() {
        for input in [&b"data: a\n\ndata: b\n\n"[..], b"data: a\r\n\r\ndata: b\r\n\r\n", b"data: a\r\rdata: b\r\r"] {
            assert_eq!(data(&decode_all_splits(input).unwrap()), ["a", "b"]);
        }
        // Mixed endings, and CR then LF counted once: exactly two events, no stray empty line.
        assert_eq!(data(&decode_all_splits(b"data: a\r\n\rdata: b\n\r\n").unwrap()), ["a", "b"]);
    }

    #[test]
    fn multi_line_data_joins_with_newline() {
        let events = decode_all_splits(b"data: one\ndata:two\ndata\ndata:  four\n\n").unwrap();
        assert_eq!(data(&events), ["one\ntwo\n\n four"]);
    }

    #[test]
    fn comments_and_unknown_fields_are_ignored() {
        let events = decode_all_splits(b": keep-alive\nfoo: bar\ndata: x\n:another\n\n").unwrap();
        assert_eq!(data(&events), ["x"]);
    }

    #[test]
    fn an_events_id_placement_says_where_its_id_was_set() {
        let input = b"id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\nid: 3\nretry: 5\n\nid: 4\ndata: d\n\n";
        let events = decode_all_splits(input).unwrap();
        let seen: Vec<_> = events.iter().map(|e| (e.data.as_str(), e.id.as_deref(), e.id_placement)).collect();
        assert_eq!(
            seen,
            [
                ("a", Some("1"), IdPlacement::OnThisEvent),
                ("b", Some("1"), IdPlacement::Inherited),
                ("c", Some("2"), IdPlacement::BeforeThisEvent),
                ("d", Some("4"), IdPlacement::OnThisEvent),
            ]
        );
        // A reconnection's decoder carries the last id on, as the spec's buffer persists.
        let mut d = SseDecoder::continuing(SseLimits::default(), Some("4".into()));
        let events = d.push(b"data: e\n\n").unwrap();
        assert_eq!((events[0].id.as_deref(), events[0].id_placement), (Some("4"), IdPlacement::Inherited));
    }

    #[test]
    fn event_id_and_retry_fields() {
        let events =
            decode_all_splits(b"event: agui\nid: 7\nretry: 1500\ndata: a\n\nretry: x1\ndata: b\n\nid\ndata: c\n\n")
                .unwrap();
        assert_eq!(events[0].event, "agui");
        assert_eq!(events[0].id.as_deref(), Some("7"));
        assert_eq!(events[0].retry, Some(1500));
        assert_eq!(events[1].event, "message");
        assert_eq!(events[1].id.as_deref(), Some("7"), "the last event id persists");
        assert_eq!(events[1].retry, None, "a non-digit retry is ignored");
        let alone = decode_all_splits(b"retry: 2500\n\n: comment\n\ndata: a\n\ndata: b\n\n").unwrap();
        assert_eq!(alone.len(), 2);
        assert_eq!(alone[0].retry, Some(2500), "a retry sent alone goes with the next event");
        assert_eq!(alone[1].retry, None);
        assert_eq!(events[2].id.as_deref(), Some(""), "a field without a colon has an empty value");
        let nul = decode_all_splits(b"id: a\0b\ndata: x\n\n").unwrap();
        assert_eq!(nul[0].id, None, "an id containing NUL is ignored");
    }

    #[test]
    fn empty_data_dispatches_nothing_and_resets_the_type() {
        let events = decode_all_splits(b"event: x\n\ndata: y\n\n").unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].event, "message");
        let events = decode_all_splits(b"data\n\n").unwrap();
        assert_eq!(data(&events), [""], "a data field with no value is an event with empty data");
    }

    #[test]
    fn one_space_after_the_colon_is_stripped() {
        assert_eq!(data(&decode_all_splits(b"data:x\n\ndata: x\n\ndata:  x\n\n").unwrap()), ["x", "x", " x"]);
    }

    #[test]
    fn leading_bom_is_skipped_once() {
        let events = decode_all_splits(b"\xEF\xBB\xBFdata: a\n\n").unwrap();
        assert_eq!(data(&events), ["a"]);
        // A BOM-looking sequence later in the stream is content, not skipped.
        let events = decode_all_splits("data: \u{FEFF}b\n\n".as_bytes()).unwrap();
        assert_eq!(data(&events), ["\u{FEFF}b"]);
        // A short body that is only part of a BOM is judged as content (and is not UTF-8).
        assert_eq!(decode_all_splits(b"\xEF\xBB").unwrap_err(), SseError::InvalidUtf8 { offset: 0 });
    }

    #[test]
    fn utf8_split_across_chunks() {
        let input = "data: 질문 🔎 ☀️\n\n".as_bytes();
        assert_eq!(data(&decode_all_splits(input).unwrap()), ["질문 🔎 ☀️"]);
    }

    #[test]
    fn invalid_utf8_is_a_typed_error() {
        let err = decode_all_splits(b"data: ok\n\ndata: \xFF\xFE\n\n").unwrap_err();
        assert_eq!(err, SseError::InvalidUtf8 { offset: 16 });
        assert!(err.to_string().contains("invalid UTF-8"));
    }

    #[test]
    fn final_event_without_blank_line_is_delivered_by_finish() {
        assert_eq!(data(&decode_all_splits(b"data: a\n\ndata: last").unwrap()), ["a", "last"]);
        assert_eq!(data(&decode_all_splits(b"data: last\n").unwrap()), ["last"]);
        assert_eq!(data(&decode_all_splits(b"data: last\r").unwrap()), ["last"]);
    }

    /// Issue #11: `push` dropped the events completed earlier in the same chunk when a later
    /// line was too long.
    #[test]
    fn sse_push_keeps_events_completed_before_an_error_in_the_same_chunk() {
        let mut d = SseDecoder::new(SseLimits { max_line_bytes: 16, max_event_bytes: 100 });
        let events = d.push(b"data: one\n\ndata: two\n\ndata: 0123456789abcdef\n\n").unwrap();
        assert_eq!(data(&events), ["one", "two"]);
        // The error comes with the next call, and stays.
        assert_eq!(d.push(b"data: three\n\n").unwrap_err(), SseError::LineTooLong { limit: 16 });
        assert_eq!(d.finish().unwrap_err(), SseError::LineTooLong { limit: 16 });
        // With nothing completed before it, the error is immediate.
        let mut d = SseDecoder::new(SseLimits { max_line_bytes: 100, max_event_bytes: 100 });
        assert_eq!(d.push(b"data: \xFF\n\n").unwrap_err(), SseError::InvalidUtf8 { offset: 6 });
    }

    #[test]
    fn limits_are_enforced() {
        let mut d = SseDecoder::new(SseLimits { max_line_bytes: 8, max_event_bytes: 100 });
        assert_eq!(d.push(b"data: 123").unwrap_err(), SseError::LineTooLong { limit: 8 });
        let mut d = SseDecoder::new(SseLimits { max_line_bytes: 100, max_event_bytes: 5 });
        assert_eq!(d.push(b"data: 123\ndata: 45\n").unwrap_err(), SseError::EventTooLarge { limit: 5 });
    }
}
