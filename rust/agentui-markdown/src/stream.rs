//! Incremental parsing of streamed text.
//!
//! A Markdown document is a sequence of top-level blocks, and CommonMark closes a top-level block
//! for good as soon as a line starts the next one: later text can reopen none of them. So a
//! [`MarkdownStream`] keeps the text in two parts:
//!
//! - **committed** blocks, every top-level block but the last of the complete lines received:
//!   each is parsed once, on its own, when it is committed, and never parsed or sent again;
//! - the **open tail**, from the start of the last top-level block to the end of the text
//!   received (the last, partial line included): re-parsed on an update, and sent as "the blocks
//!   from index `from` are now …" ([`MarkdownUpdate`]).
//!
//! **Bounded work per delta.** [`MarkdownStream::push`] only appends (O(delta)).
//! [`MarkdownStream::update`] re-parses the open tail only once it has grown by at least
//! 1/[`REPARSE_GROWTH`] of its length at the last parse, and looks for newly committed blocks
//! only when a line was completed meanwhile. A re-parse costs O(tail), and between two of them
//! the tail grew by a fixed fraction of it, so the parse work is amortised to at most
//! `2 × REPARSE_GROWTH` bytes parsed per byte received, whatever the length of the open block
//! (a 10 MB paragraph streamed one character at a time is linear). The price is that the tree
//! of a long open block lags its text by at most that fraction: [`MarkdownText::covered_utf8`]
//! says how much of the text the tree covers, and a renderer shows the rest as plain text after
//! the last block. [`MarkdownStream::flush`] parses what is pending (at the end of a run).
//!
//! **One tree per text.** Each committed block is parsed on its own with the link reference
//! definitions of the blocks before it, so the tree depends on the text only, not on how it was
//! cut into deltas: [`parse_document`] (a message restored from the store, or replaced whole)
//! runs the same steps in one go. The differences from a whole-document CommonMark parse: a
//! reference used in a block before the block that defines it stays text (a streamed message
//! cannot wait for definitions that may come at its end); and a top-level block longer than
//! [`MarkdownLimits::max_parse_bytes`](crate::MarkdownLimits::max_parse_bytes) is cut into
//! consecutive blocks, where the cut falls depending on what was
//! committed before (the one case where the tree depends on the pieces).

use std::sync::Arc;

use crate::convert::{parse_blocks, top_level_starts, Definitions};
use crate::{MarkdownOptions, MarkdownText, MdBlock};

/// The open tail is re-parsed once it grew by at least 1/`REPARSE_GROWTH` of its parsed length.
pub const REPARSE_GROWTH: usize = 4;

/// The most text parsed at once by default ([`crate::MarkdownLimits::max_parse_bytes`], from the
/// memory budget). pulldown-cmark's first pass holds a node per run of text (tens
/// of bytes each for markup-dense text), so a tail longer than this is first cut, at its last
/// line break within the bound (or at the bound), and the part before the cut is committed as
/// blocks of its own: a block longer than this shows as consecutive blocks.
pub const DEFAULT_MAX_PARSE_BYTES: usize = 256 * 1024;

/// "The blocks from index `from` on are now `blocks`": a streamed text's tree after an update.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownUpdate {
    pub from: u32,
    pub blocks: Vec<MdBlock>,
    pub covered_utf8: u64,
    pub covered_utf16: u64,
}

/// One streamed text's parse state: the open tail's text and what the committed blocks left
/// (their count, reference definitions and node budget), never the committed text itself.
#[derive(Debug)]
pub struct MarkdownStream {
    options: Arc<MarkdownOptions>,
    definitions: Definitions,
    nodes_left: u32,
    committed_blocks: u32,
    committed_utf8: u64,
    committed_utf16: u64,
    tail: String,
    /// `tail.len()` at the last parse.
    parsed_len: usize,
    /// Where the complete lines of `tail` ended at the last look for committed blocks.
    lines_checked: usize,
}

/// The tree of a whole text, as streaming it would give.
pub fn parse_document(text: &str, options: Arc<MarkdownOptions>) -> MarkdownText {
    MarkdownStream::start(text, options).1
}

fn utf16_len(s: &str) -> u64 {
    s.chars().map(|c| c.len_utf16() as u64).sum()
}

impl MarkdownStream {
    pub fn new(options: Arc<MarkdownOptions>) -> Self {
        let nodes_left = options.limits.max_nodes;
        MarkdownStream {
            options,
            definitions: Definitions::new(),
            nodes_left,
            committed_blocks: 0,
            committed_utf8: 0,
            committed_utf16: 0,
            tail: String::new(),
            parsed_len: 0,
            lines_checked: 0,
        }
    }

    /// A stream that has received `text`, and its whole tree.
    pub fn start(text: &str, options: Arc<MarkdownOptions>) -> (Self, MarkdownText) {
        let mut stream = MarkdownStream::new(options);
        stream.push(text);
        let update = stream.reparse();
        let text = MarkdownText {
            blocks: update.blocks,
            covered_utf8: update.covered_utf8,
            covered_utf16: update.covered_utf16,
        };
        (stream, text)
    }

    /// Appends received text. Parses nothing.
    pub fn push(&mut self, delta: &str) {
        self.tail.push_str(delta);
    }

    /// Whether text was received since the last parse.
    pub fn is_pending(&self) -> bool {
        self.tail.len() != self.parsed_len
    }

    /// The tree's change since the last update, if the open tail grew enough to be parsed again
    /// (see the module's documentation); `None` otherwise.
    pub fn update(&mut self) -> Option<MarkdownUpdate> {
        let grown = self.tail.len().saturating_sub(self.parsed_len);
        if grown == 0 || grown * REPARSE_GROWTH < self.parsed_len {
            return None;
        }
        Some(self.reparse())
    }

    /// The tree's change since the last update, whatever the growth; `None` if nothing arrived.
    pub fn flush(&mut self) -> Option<MarkdownUpdate> {
        self.is_pending().then(|| self.reparse())
    }

    fn reparse(&mut self) -> MarkdownUpdate {
        let from = self.committed_blocks;
        let mut blocks = Vec::new();
        let max_parse = (self.options.limits.max_parse_bytes as usize).max(1);
        while self.tail.len() > max_parse {
            let mut bound = max_parse;
            while !self.tail.is_char_boundary(bound) {
                bound -= 1;
            }
            if bound == 0 {
                // A bound smaller than the first character: that character, so the cut advances.
                bound = self.tail.chars().next().map_or(1, char::len_utf8);
            }
            let cut = self.tail[..bound].rfind('\n').map_or(bound, |at| at + 1);
            let tail = std::mem::take(&mut self.tail);
            self.commit_part(&tail[..cut], &mut blocks);
            self.tail = tail;
            self.tail.drain(..cut);
            self.lines_checked = 0;
        }
        let lines_end = self.tail.rfind('\n').map_or(0, |at| at + 1);
        if lines_end > self.lines_checked {
            let tail = std::mem::take(&mut self.tail);
            let done = self.commit(&tail[..lines_end], &mut blocks);
            self.tail = tail;
            self.tail.drain(..done);
            self.lines_checked = lines_end - done;
        }
        // The open tail: parsed for this update, its nodes not charged for good.
        let mut nodes_left = self.nodes_left;
        blocks.extend(parse_blocks(&self.tail, &self.definitions, &self.options, &mut nodes_left, None));
        self.parsed_len = self.tail.len();
        MarkdownUpdate {
            from,
            blocks,
            covered_utf8: self.committed_utf8 + self.tail.len() as u64,
            covered_utf16: self.committed_utf16 + utf16_len(&self.tail),
        }
    }

    /// Commits every top-level block of `lines` (the tail's complete lines) but the last; the
    /// length of `lines` they took.
    fn commit(&mut self, lines: &str, blocks: &mut Vec<MdBlock>) -> usize {
        let (starts, defines) = top_level_starts(lines);
        // A block starts at the beginning of its line (its range may start after the
        // indentation or a container's marker).
        let line_starts: Vec<usize> =
            starts.iter().skip(1).map(|&start| lines[..start].rfind('\n').map_or(0, |at| at + 1)).collect();
        let Some(&end) = line_starts.iter().filter(|&&at| at > 0).max() else {
            return 0;
        };
        if !defines {
            // No definition among them: parsed together, each block sees the same definitions
            // as parsed alone, for one parser's setup instead of one per block.
            self.commit_part(&lines[..end], blocks);
            return end;
        }
        let mut done = 0;
        for line_start in line_starts {
            if line_start > done {
                self.commit_part(&lines[done..line_start], blocks);
                done = line_start;
            }
        }
        done
    }

    /// Parses `part` (whole blocks) for good, with the definitions before it, and learns its own.
    fn commit_part(&mut self, part: &str, blocks: &mut Vec<MdBlock>) {
        let mut learned = Definitions::new();
        let parsed = parse_blocks(part, &self.definitions, &self.options, &mut self.nodes_left, Some(&mut learned));
        // The first definition of a label wins.
        for (label, def) in learned {
            self.definitions.entry(label).or_insert(def);
        }
        self.committed_blocks += u32::try_from(parsed.len()).unwrap_or(u32::MAX);
        blocks.extend(parsed);
        self.committed_utf8 += part.len() as u64;
        self.committed_utf16 += utf16_len(part);
    }
}
