//! Arbitrary text as Markdown, parsed whole and streamed in pieces under small bounds: never a
//! panic, the whole text covered after the flush, and the streamed tree the same as the whole
//! one (the tree depends on the text only, as long as no block is longer than the parse bound).
#![no_main]

use std::sync::Arc;

use agentui_markdown::{parse_document, AnyUrl, MarkdownLimits, MarkdownOptions, MarkdownStream, MdBlock, Profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [piece, depth, images, rest @ ..] = data else { return };
    let text = String::from_utf8_lossy(rest);
    let piece = usize::from(*piece % 32) + 1;
    let limits = MarkdownLimits {
        max_depth: u32::from(depth % 8),
        max_nodes: 512,
        max_table_cells: 16,
        ..MarkdownLimits::default()
    };
    let profile = [Profile::Chat, Profile::A2uiV09, Profile::A2uiV10][usize::from(*images % 3)];
    let mut options = MarkdownOptions::new(profile, Arc::new(AnyUrl));
    options.images = images & 4 != 0;
    options.limits = limits;
    let options = Arc::new(options);

    let whole = parse_document(&text, options.clone());
    assert_eq!(whole.covered_utf8, text.len() as u64);

    let mut stream = MarkdownStream::new(options);
    let mut shown: Vec<MdBlock> = Vec::new();
    let mut covered = 0;
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + piece).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        stream.push(&text[at..end]);
        if let Some(update) = stream.update() {
            assert!(update.from as usize <= shown.len(), "blocks from an index past the end");
            shown.truncate(update.from as usize);
            shown.extend(update.blocks);
            covered = update.covered_utf8;
        }
        at = end;
    }
    if let Some(update) = stream.flush() {
        shown.truncate(update.from as usize);
        shown.extend(update.blocks);
        covered = update.covered_utf8;
    }
    assert_eq!(covered, text.len() as u64);
    assert_eq!(shown, whole.blocks, "streamed in pieces of {piece}");
});
