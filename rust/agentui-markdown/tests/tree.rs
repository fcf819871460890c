//! The tree, its policy and bounds, and streaming that gives the tree of the whole text.

use std::sync::Arc;

use agentui_markdown::html::to_html;
use agentui_markdown::{
    parse_document, plain_text, stream::DEFAULT_MAX_PARSE_BYTES as MAX_PARSE_BYTES, AnyUrl, MarkdownOptions,
    MarkdownStream, MdAlignment, MdBlock, MdInline, PlainReason, Profile, UrlGate,
};

/// The default policy's rule for links: http and https with a host (what `openUrl` allows).
#[derive(Debug)]
struct HttpOnly;

impl UrlGate for HttpOnly {
    fn allows_link(&self, url: &str) -> bool {
        url.starts_with("https://") || url.starts_with("http://")
    }
    fn allows_image(&self, url: &str) -> bool {
        url.starts_with("https://")
    }
}

fn chat() -> Arc<MarkdownOptions> {
    Arc::new(MarkdownOptions::new(Profile::Chat, Arc::new(HttpOnly)))
}

fn blocks(text: &str) -> Vec<MdBlock> {
    parse_document(text, chat()).blocks
}

fn text(s: &str) -> MdInline {
    MdInline::Text { text: s.into() }
}

/// Streams `text` in pieces of `piece` bytes (at char boundaries), applying each update as a
/// platform does, and returns the blocks after the final flush.
fn streamed(text: &str, piece: usize, options: Arc<MarkdownOptions>) -> Vec<MdBlock> {
    let mut stream = MarkdownStream::new(options);
    let mut shown: Vec<MdBlock> = Vec::new();
    let apply = |update: agentui_markdown::MarkdownUpdate, shown: &mut Vec<MdBlock>| {
        assert!(update.from as usize <= shown.len(), "an update starts within what is shown");
        shown.truncate(update.from as usize);
        shown.extend(update.blocks);
    };
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + piece).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        stream.push(&text[at..end]);
        if let Some(update) = stream.update() {
            apply(update, &mut shown);
        }
        at = end;
    }
    if let Some(update) = stream.flush() {
        apply(update, &mut shown);
    }
    shown
}

const SAMPLE: &str = "# Title\n\nSome *emphasis*, **strong**, ~~gone~~ and `code`.\n\n\
- one\n- two\n  - nested\n- [x] done\n- [ ] todo\n\n\
3. three\n4. four\n\n\
> quoted\n> more\n\n\
```rust\nfn main() {}\n```\n\n\
---\n\n\
| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n\n\
A [link](https://example.com \"t\") and [bad](javascript:alert(1)).\nline two  \nhard break\n\n\
[ref]: https://example.com/ref\n\nUse [ref] after.\n";

#[test]
fn the_sample_has_every_kind_of_block() {
    let b = blocks(SAMPLE);
    assert_eq!(b[0], MdBlock::Heading { level: 1, inlines: vec![text("Title")] });
    let MdBlock::Paragraph { inlines } = &b[1] else { panic!("{:?}", b[1]) };
    assert!(inlines.contains(&MdInline::Emphasis { children: vec![text("emphasis")] }));
    assert!(inlines.contains(&MdInline::Strong { children: vec![text("strong")] }));
    assert!(inlines.contains(&MdInline::Strikethrough { children: vec![text("gone")] }));
    assert!(inlines.contains(&MdInline::Code { text: "code".into() }));
    let MdBlock::ItemList { start: None, tight: true, items } = &b[2] else { panic!("{:?}", b[2]) };
    assert_eq!(items.len(), 4);
    assert_eq!((items[2].task, items[3].task, items[0].task), (Some(true), Some(false), None));
    assert!(matches!(items[1].blocks[1], MdBlock::ItemList { .. }), "the nested list is in its item");
    assert!(matches!(b[3], MdBlock::ItemList { start: Some(3), .. }));
    assert!(matches!(&b[4], MdBlock::Quote { blocks } if blocks.len() == 1));
    assert_eq!(b[5], MdBlock::Code { language: Some("rust".into()), text: "fn main() {}\n".into() });
    assert_eq!(b[6], MdBlock::Rule);
    let MdBlock::Table { alignments, header, rows } = &b[7] else { panic!("{:?}", b[7]) };
    assert_eq!(alignments, &[MdAlignment::Left, MdAlignment::Center, MdAlignment::Right]);
    assert_eq!((header.len(), rows.len(), rows[0].len()), (3, 1, 3));
    let MdBlock::Paragraph { inlines } = &b[8] else { panic!("{:?}", b[8]) };
    assert!(inlines.contains(&MdInline::Link {
        url: "https://example.com".into(),
        title: Some("t".into()),
        children: vec![text("link")]
    }));
    assert!(inlines.contains(&MdInline::HardBreak) && inlines.contains(&MdInline::SoftBreak));
    assert!(plain_text(inlines).contains("and bad."), "a refused link keeps its label as text: {inlines:?}");
    assert_eq!(
        b[9],
        MdBlock::Paragraph {
            inlines: vec![
                text("Use "),
                MdInline::Link { url: "https://example.com/ref".into(), title: None, children: vec![text("ref")] },
                text(" after."),
            ]
        }
    );
    assert_eq!(b.len(), 10);
}

#[test]
fn links_follow_the_policy_and_never_become_tappable_for_other_schemes() {
    for url in ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "mailto:a@b.c", "/relative"] {
        let b = blocks(&format!("[label]({url}) and <{url}>"));
        let MdBlock::Paragraph { inlines } = &b[0] else { panic!() };
        assert!(!inlines.iter().any(|i| matches!(i, MdInline::Link { .. })), "{url}: {inlines:?}");
        assert!(plain_text(inlines).starts_with("label and "), "{url}: the label stays");
    }
    let b = blocks("<https://example.com/a>");
    assert!(
        matches!(&b[0], MdBlock::Paragraph { inlines } if matches!(&inlines[0], MdInline::Link { url, .. } if url == "https://example.com/a"))
    );
}

#[test]
fn raw_html_is_shown_as_its_text() {
    let b = blocks("<script>alert(1)</script>\n\nHi <b onclick=\"x\">there</b>\n");
    assert_eq!(b[0], MdBlock::PlainText { text: "<script>alert(1)</script>\n".into(), reason: PlainReason::Html });
    assert_eq!(
        b[1],
        MdBlock::Paragraph {
            inlines: vec![
                text("Hi "),
                MdInline::RawHtml { text: "<b onclick=\"x\">".into() },
                text("there"),
                MdInline::RawHtml { text: "</b>".into() },
            ]
        }
    );
    assert!(to_html(&b).contains("&lt;script&gt;"), "escaped in HTML too");
}

#[test]
fn images_are_alt_text_unless_the_app_turns_them_on() {
    let src = "![a cat](https://example.com/cat.png \"Cat\") ![bad](javascript:x)";
    let MdBlock::Paragraph { inlines } = &blocks(src)[0] else { panic!() };
    assert_eq!(inlines, &vec![text("a cat bad")]);
    let mut on = MarkdownOptions::new(Profile::Chat, Arc::new(HttpOnly));
    on.images = true;
    let MdBlock::Paragraph { inlines } = &parse_document(src, Arc::new(on)).blocks[0] else { panic!() };
    assert_eq!(
        inlines[0],
        MdInline::Image { url: "https://example.com/cat.png".into(), title: Some("Cat".into()), alt: "a cat".into() }
    );
    assert_eq!(inlines[1..], [text(" bad")], "a refused image is its alt text");
}

#[test]
fn a2ui_profiles_decide_links_and_images() {
    let src = "# Head\n\n[site](https://example.com) ![img](https://example.com/i.png)";
    let mut v09 = MarkdownOptions::new(Profile::A2uiV09, Arc::new(AnyUrl));
    v09.images = true;
    let b = parse_document(src, Arc::new(v09)).blocks;
    assert!(matches!(b[0], MdBlock::Heading { level: 1, .. }));
    assert_eq!(b[1], MdBlock::Paragraph { inlines: vec![text("site img")] }, "v0.9: no links, no images");
    let b = parse_document(src, Arc::new(MarkdownOptions::new(Profile::A2uiV10, Arc::new(HttpOnly)))).blocks;
    let MdBlock::Paragraph { inlines } = &b[1] else { panic!() };
    assert!(matches!(inlines[0], MdInline::Link { .. }), "v1.0: links through the policy");
    assert_eq!(inlines[1..], [text(" img")], "v1.0: no images");
}

#[test]
fn deep_nesting_is_bounded_and_shown_as_text() {
    let deep = format!("{}deep\n", "> ".repeat(10_000));
    let b = blocks(&deep);
    let mut depth = 0;
    let mut at = &b;
    while let Some(MdBlock::Quote { blocks }) = at.first() {
        depth += 1;
        at = blocks;
    }
    assert_eq!(depth, 16);
    assert!(matches!(&at[0], MdBlock::PlainText { reason: PlainReason::TooDeep, text } if text.ends_with("deep\n")));

    let list = format!("{}x\n", (0..500).map(|i| format!("{}- ", "  ".repeat(i))).collect::<String>());
    assert!(!blocks(&list).is_empty());
    let emphasis = format!("{}x{}", "*a ".repeat(5_000), " a*".repeat(5_000));
    let MdBlock::Paragraph { inlines } = &blocks(&emphasis)[0] else { panic!() };
    assert!(plain_text(inlines).contains('x'), "the text inside stays");
}

#[test]
fn huge_tables_and_too_many_nodes_become_text() {
    let mut table = String::from("| a | b |\n|---|---|\n");
    for i in 0..3_000 {
        table.push_str(&format!("| {i} | {i} |\n"));
    }
    let b = blocks(&table);
    assert!(
        matches!(&b[0], MdBlock::PlainText { reason: PlainReason::TooManyCells, text } if text.contains("| 2999 |"))
    );

    let many = "x\n\n".repeat(70_000);
    let b = blocks(&many);
    assert!(b.len() > 60_000);
    let over = b.iter().filter(|b| matches!(b, MdBlock::PlainText { reason: PlainReason::TooManyNodes, .. })).count();
    assert!(over > 0, "past the node bound, blocks are text");
    let shown: usize = b
        .iter()
        .map(|b| match b {
            MdBlock::Paragraph { inlines } => plain_text(inlines).matches('x').count(),
            MdBlock::PlainText { text, .. } => text.matches('x').count(),
            _ => 0,
        })
        .sum();
    assert_eq!(shown, 70_000, "nothing is dropped");
}

#[test]
fn streaming_in_any_pieces_gives_the_tree_of_the_whole_text() {
    let whole = blocks(SAMPLE);
    for piece in [1, 2, 3, 7, 16, 64, 1000] {
        assert_eq!(streamed(SAMPLE, piece, chat()), whole, "pieces of {piece}");
    }
}

#[test]
fn finished_blocks_are_not_sent_again() {
    let mut stream = MarkdownStream::new(chat());
    stream.push("# One\n\npara");
    let first = stream.update().expect("first parse");
    assert_eq!((first.from, first.blocks.len()), (0, 2));
    stream.push(" more words here and more\n\n- item\n");
    let second = stream.flush().expect("grew");
    assert_eq!(second.from, 0, "nothing was committed yet: the heading was the last complete block");
    assert_eq!(second.blocks.len(), 3, "heading and paragraph committed, the list open");
    stream.push("- item two\n\nnext\n");
    let third = stream.flush().expect("grew");
    assert_eq!(third.from, 2, "the paragraph is committed");
    assert_eq!(
        third.covered_utf8,
        "# One\n\npara more words here and more\n\n- item\n- item two\n\nnext\n".len() as u64
    );
}

#[test]
fn the_tree_lags_a_long_open_block_by_a_bounded_fraction() {
    let mut stream = MarkdownStream::new(chat());
    let mut received = 0u64;
    let mut parses = 0;
    let mut covered = 0u64;
    for _ in 0..200_000 {
        stream.push("a");
        received += 1;
        if let Some(update) = stream.update() {
            parses += 1;
            covered = update.covered_utf8;
        }
        assert!(covered * 5 + 5 >= received * 4, "covered {covered} of {received}");
    }
    assert!(parses < 100, "re-parses grow geometrically: {parses}");
    assert_eq!(stream.flush().map(|u| u.covered_utf8), Some(received));
}

#[test]
fn utf16_coverage_counts_code_units() {
    let doc = parse_document("é😀\n", chat());
    assert_eq!((doc.covered_utf8, doc.covered_utf16), (7, 4));
}

#[test]
fn a_10_mb_single_paragraph_streamed_is_parsed_in_bounded_pieces() {
    let piece = "lorem ipsum **dolor** sit amet ".repeat(32); // 1 KiB, no line break
    let pieces = 10 * 1024 * 1024 / piece.len();
    let mut stream = MarkdownStream::new(chat());
    let mut shown: Vec<MdBlock> = Vec::new();
    let mut parses = 0u64;
    let apply = |update: agentui_markdown::MarkdownUpdate, shown: &mut Vec<MdBlock>| {
        shown.truncate(update.from as usize);
        shown.extend(update.blocks);
        update.covered_utf8
    };
    for _ in 0..pieces {
        stream.push(&piece);
        if let Some(update) = stream.update() {
            parses += 1;
            // Never more than the bound parsed and sent again.
            let open: u64 = update
                .blocks
                .iter()
                .map(|b| match b {
                    MdBlock::Paragraph { inlines } => plain_text(inlines).len() as u64,
                    _ => 0,
                })
                .sum();
            assert!(open <= 2 * MAX_PARSE_BYTES as u64, "{open}");
            apply(update, &mut shown);
        }
    }
    let total = (pieces * piece.len()) as u64;
    // Between two cuts the open part is parsed again each time it grew by a quarter: about
    // log1.25(bound / piece) = 25 times per bound's worth of text, each parse at most the bound.
    assert!(parses <= (total / MAX_PARSE_BYTES as u64 + 1) * 30, "{parses} parses");
    let covered = apply(stream.flush().expect("the rest"), &mut shown);
    assert_eq!(covered, total);
    assert!(shown.len() >= 40, "cut into blocks of at most the bound: {}", shown.len());
    // Nothing dropped: every character is shown, as styled text or, past the node bound, as source.
    let text: String = shown
        .iter()
        .map(|b| match b {
            MdBlock::Paragraph { inlines } => plain_text(inlines),
            MdBlock::PlainText { text, .. } => text.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let shown_len = text.len() as u64;
    assert!(shown_len <= total && shown_len >= total - count_markers(&piece) * pieces as u64, "{shown_len} of {total}");
    assert!(text.trim_end().ends_with("sit amet"), "the end is shown");
}

/// The `**` markers of a piece: source characters the tree shows as strong text, not as text.
fn count_markers(piece: &str) -> u64 {
    piece.matches("**").count() as u64 * 2
}

#[test]
fn a_smaller_parse_bound_cuts_long_blocks_smaller() {
    let options = |max_parse_bytes| {
        let limits = agentui_markdown::MarkdownLimits { max_parse_bytes, ..Default::default() };
        Arc::new(MarkdownOptions { limits, ..MarkdownOptions::new(Profile::Chat, Arc::new(HttpOnly)) })
    };
    let paragraph = "word ".repeat(2_000); // 10,000 bytes, one paragraph
    assert_eq!(parse_document(&paragraph, options(1 << 20)).blocks.len(), 1);
    let cut = parse_document(&paragraph, options(1_000)).blocks;
    assert!(cut.len() >= 10, "at most 1,000 bytes a block: {}", cut.len());
    let shown: String = cut
        .iter()
        .map(|b| match b {
            MdBlock::Paragraph { inlines } => plain_text(inlines),
            other => panic!("{other:?}"),
        })
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(shown.split_whitespace().count(), 2_000, "nothing dropped");

    // A bound smaller than a character still moves on, a character at a time.
    let wide = "😀é".repeat(50);
    let doc = parse_document(&wide, options(1));
    assert_eq!(doc.covered_utf8, wide.len() as u64);
    assert_eq!(doc.blocks.len(), 100, "one block per character");
}

#[test]
fn bare_urls_become_links_through_the_policy_outside_code_and_links() {
    let link = |url: &str, label: &str| MdInline::Link { url: url.into(), title: None, children: vec![text(label)] };
    let b = blocks("See https://example.com/a, www.example.org and `https://code.example` or [x https://in.example](https://l.example).");
    let MdBlock::Paragraph { inlines } = &b[0] else { panic!("{b:?}") };
    assert_eq!(
        inlines[..4],
        [
            text("See "),
            link("https://example.com/a", "https://example.com/a"),
            text(", "),
            link("http://www.example.org", "www.example.org")
        ]
    );
    assert!(matches!(&inlines[5], MdInline::Code { text } if text == "https://code.example"), "{inlines:?}");
    let MdInline::Link { url, children, .. } = &inlines[7] else { panic!("{inlines:?}") };
    assert_eq!(
        (url.as_str(), children),
        ("https://l.example", &vec![text("x https://in.example")]),
        "no link in a link"
    );

    // The policy decides: an http link the gate refuses stays text; v0.9 has no links at all.
    let strict = UrlPolicyHttpsOnly;
    let options = Arc::new(MarkdownOptions::new(Profile::Chat, Arc::new(strict)));
    assert_eq!(
        parse_document("go www.example.org now", options).blocks,
        [MdBlock::Paragraph { inlines: vec![text("go www.example.org now")] }]
    );
    let v09 = Arc::new(MarkdownOptions::new(Profile::A2uiV09, Arc::new(AnyUrl)));
    assert_eq!(
        parse_document("# https://example.com", v09).blocks,
        [MdBlock::Heading { level: 1, inlines: vec![text("https://example.com")] }]
    );
    // Off (the CommonMark check): text.
    let off = Arc::new(MarkdownOptions { autolinks: false, ..MarkdownOptions::new(Profile::Chat, Arc::new(HttpOnly)) });
    assert_eq!(
        parse_document("https://example.com", off).blocks,
        [MdBlock::Paragraph { inlines: vec![text("https://example.com")] }]
    );
    // A table cell and a list item link too.
    let html = to_html(&blocks("| a |\n|---|\n| www.x.io |\n\n- https://y.io\n"));
    assert!(html.contains(r#"<td><a href="http://www.x.io">www.x.io</a></td>"#), "{html}");
    assert!(html.contains(r#"<li><a href="https://y.io">https://y.io</a></li>"#), "{html}");
}

#[derive(Debug)]
struct UrlPolicyHttpsOnly;

impl UrlGate for UrlPolicyHttpsOnly {
    fn allows_link(&self, url: &str) -> bool {
        url.starts_with("https://")
    }
    fn allows_image(&self, _url: &str) -> bool {
        false
    }
}

#[test]
fn autolinks_are_charged_to_the_node_bound() {
    let limits = agentui_markdown::MarkdownLimits { max_nodes: 3, ..Default::default() };
    let options = Arc::new(MarkdownOptions { limits, ..MarkdownOptions::new(Profile::Chat, Arc::new(HttpOnly)) });
    // Paragraph and text take 2 nodes: one left, not enough for a link and its text.
    let b = parse_document("a https://x.io b", options).blocks;
    assert_eq!(b, [MdBlock::Paragraph { inlines: vec![text("a https://x.io b")] }]);
}
