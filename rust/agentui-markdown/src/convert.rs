//! pulldown-cmark's events to the tree, under the options' policy and bounds.
//!
//! The builder descends one level per container, so its recursion is as deep as
//! [`MarkdownLimits::max_depth`](crate::MarkdownLimits) at most: a container below that depth is
//! skipped over (iteratively) and shown as its source text.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{
    Alignment, BrokenLink, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, OffsetIter, Options, Parser, Tag,
    TagEnd,
};

use crate::autolink;
use crate::{MarkdownOptions, MdAlignment, MdBlock, MdCell, MdInline, MdListItem, PlainReason};

/// Link reference definitions seen so far: normalised label → (destination, title).
pub(crate) type Definitions = HashMap<String, (String, String)>;

/// The extensions of every profile: GitHub tables, strikethrough and task lists.
pub(crate) fn parser_options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// A label as CommonMark matches it: whitespace runs as one space, case folded (Unicode lower
/// case, which folds all but a few special cases such as `ẞ`).
pub(crate) fn normalize_label(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for word in label.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// The blocks of `src`, parsed on its own with the reference definitions `known` (from the text
/// before it). `nodes_left` is charged for each node made. The definitions `src` makes are added
/// to `learned` when given.
pub(crate) fn parse_blocks(
    src: &str,
    known: &Definitions,
    options: &MarkdownOptions,
    nodes_left: &mut u32,
    learned: Option<&mut Definitions>,
) -> Vec<MdBlock> {
    let callback = |link: BrokenLink<'_>| {
        known
            .get(&normalize_label(&link.reference))
            .map(|(dest, title)| (CowStr::from(dest.clone()), CowStr::from(title.clone())))
    };
    let parser = Parser::new_with_broken_link_callback(src, parser_options(), Some(callback));
    let mut builder = Builder { src, events: parser.into_offset_iter(), peeked: None, options, nodes_left, in_link: 0 };
    let blocks = builder.blocks(0).0;
    if let Some(learned) = learned {
        for (label, def) in builder.events.reference_definitions().iter() {
            learned.entry(normalize_label(label)).or_insert_with(|| {
                (def.dest.to_string(), def.title.as_ref().map(|t| t.to_string()).unwrap_or_default())
            });
        }
    }
    blocks
}

/// Where each top-level block of `src` starts (byte offsets of the events' ranges), and whether
/// `src` defines link references.
pub(crate) fn top_level_starts(src: &str) -> (Vec<usize>, bool) {
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut events = Parser::new_ext(src, parser_options()).into_offset_iter();
    for (event, range) in events.by_ref() {
        match event {
            Event::Start(_) => {
                if depth == 0 {
                    starts.push(range.start);
                }
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            _ if depth == 0 => starts.push(range.start),
            _ => {}
        }
    }
    let defines = events.reference_definitions().iter().next().is_some();
    (starts, defines)
}

struct Builder<'a, 'o, F: pulldown_cmark::BrokenLinkCallback<'a>> {
    src: &'a str,
    events: OffsetIter<'a, F>,
    peeked: Option<(Event<'a>, Range<usize>)>,
    options: &'o MarkdownOptions,
    nodes_left: &'o mut u32,
    /// Links (and images) the inlines being built are inside: no autolink there.
    in_link: u32,
}

fn is_inline(event: &Event<'_>) -> bool {
    match event {
        Event::Start(tag) => matches!(
            tag,
            Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::Superscript
                | Tag::Subscript
                | Tag::Link { .. }
                | Tag::Image { .. }
        ),
        Event::Text(_)
        | Event::Code(_)
        | Event::InlineHtml(_)
        | Event::InlineMath(_)
        | Event::DisplayMath(_)
        | Event::FootnoteReference(_)
        | Event::SoftBreak
        | Event::HardBreak => true,
        _ => false,
    }
}

fn alignment(a: &Alignment) -> MdAlignment {
    match a {
        Alignment::None => MdAlignment::None,
        Alignment::Left => MdAlignment::Left,
        Alignment::Center => MdAlignment::Center,
        Alignment::Right => MdAlignment::Right,
    }
}

fn level(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Appends `inline`, joining text to text (the parser splits text at every special character).
fn push_inline(out: &mut Vec<MdInline>, inline: MdInline) {
    if let (Some(MdInline::Text { text }), MdInline::Text { text: more }) = (out.last_mut(), &inline) {
        text.push_str(more);
        return;
    }
    out.push(inline);
}

pub(crate) fn push_plain(out: &mut String, inlines: &[MdInline]) {
    for inline in inlines {
        match inline {
            MdInline::Text { text } | MdInline::Code { text } | MdInline::RawHtml { text } => out.push_str(text),
            MdInline::Emphasis { children }
            | MdInline::Strong { children }
            | MdInline::Strikethrough { children }
            | MdInline::Link { children, .. } => push_plain(out, children),
            MdInline::Image { alt, .. } => out.push_str(alt),
            MdInline::SoftBreak | MdInline::HardBreak => out.push('\n'),
        }
    }
}

impl<'a, F: pulldown_cmark::BrokenLinkCallback<'a>> Builder<'a, '_, F> {
    fn peek(&mut self) -> Option<&(Event<'a>, Range<usize>)> {
        if self.peeked.is_none() {
            self.peeked = self.events.next();
        }
        self.peeked.as_ref()
    }

    fn next(&mut self) -> Option<(Event<'a>, Range<usize>)> {
        self.peeked.take().or_else(|| self.events.next())
    }

    /// One node more, if the bound allows it.
    fn charge(&mut self) -> bool {
        if *self.nodes_left == 0 {
            return false;
        }
        *self.nodes_left -= 1;
        true
    }

    /// Consumes the rest of an element whose start was just read, iteratively.
    fn skip_element(&mut self) {
        let mut depth = 1usize;
        while let Some((event, _)) = self.next() {
            match event {
                Event::Start(_) => depth += 1,
                Event::End(_) => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// Consumes the end event that closes the current element.
    fn end(&mut self) {
        if let Some((Event::End(_), _)) = self.peek() {
            self.next();
        }
    }

    fn source(&self, range: &Range<usize>) -> String {
        self.src.get(range.clone()).unwrap_or_default().to_owned()
    }

    /// Blocks until the end of the enclosing element (not consumed). Also whether a paragraph
    /// was tagged as one (a loose list item's are; a tight one's inlines come bare).
    fn blocks(&mut self, depth: u32) -> (Vec<MdBlock>, bool) {
        let mut blocks = Vec::new();
        let mut tagged_paragraph = false;
        while let Some((event, _)) = self.peek() {
            if matches!(event, Event::End(_)) {
                break;
            }
            if is_inline(event) {
                // Bare inlines: a tight list item's text.
                let inlines = self.inlines(depth);
                if self.charge() {
                    blocks.push(MdBlock::Paragraph { inlines });
                }
                continue;
            }
            let Some((event, range)) = self.next() else { break };
            let Event::Start(tag) = event else {
                match event {
                    Event::Rule if self.charge() => blocks.push(MdBlock::Rule),
                    Event::Rule => blocks.push(plain(self.source(&range), PlainReason::TooManyNodes)),
                    Event::Html(html) => blocks.push(plain(html.into_string(), PlainReason::Html)),
                    // A task marker outside an item's start cannot occur; nothing else is a block.
                    _ => {}
                }
                continue;
            };
            if !self.charge() {
                self.skip_element();
                blocks.push(plain(self.source(&range), PlainReason::TooManyNodes));
                continue;
            }
            let container = matches!(tag, Tag::BlockQuote(_) | Tag::List(_));
            if container && depth + 1 > self.options.limits.max_depth {
                self.skip_element();
                blocks.push(plain(self.source(&range), PlainReason::TooDeep));
                continue;
            }
            let block = match tag {
                Tag::Paragraph => {
                    tagged_paragraph = true;
                    let inlines = self.inlines(depth);
                    MdBlock::Paragraph { inlines }
                }
                Tag::Heading { level: l, .. } => {
                    let inlines = self.inlines(depth);
                    MdBlock::Heading { level: level(l), inlines }
                }
                Tag::BlockQuote(_) => MdBlock::Quote { blocks: self.blocks(depth + 1).0 },
                Tag::CodeBlock(kind) => {
                    let language = match kind {
                        CodeBlockKind::Fenced(info) => info.split_whitespace().next().map(str::to_owned),
                        CodeBlockKind::Indented => None,
                    };
                    MdBlock::Code { language, text: self.text_until_end() }
                }
                Tag::HtmlBlock => MdBlock::PlainText { text: self.text_until_end(), reason: PlainReason::Html },
                Tag::List(start) => self.list(start, depth + 1),
                Tag::Table(alignments) => self.table(&alignments, &range),
                // Not enabled (footnotes, definition lists, metadata): their source, as text.
                _ => {
                    self.skip_element();
                    blocks.push(plain(self.source(&range), PlainReason::Html));
                    continue;
                }
            };
            self.end();
            blocks.push(block);
        }
        (blocks, tagged_paragraph)
    }

    /// The text events up to the element's end (not consumed): a code or HTML block's content.
    fn text_until_end(&mut self) -> String {
        let mut text = String::new();
        while let Some((event, _)) = self.peek() {
            match event {
                Event::End(_) => break,
                Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) | Event::Code(t) => text.push_str(t),
                _ => {}
            }
            self.next();
        }
        text
    }

    fn list(&mut self, start: Option<u64>, depth: u32) -> MdBlock {
        let mut items = Vec::new();
        let mut loose = false;
        while let Some((Event::Start(Tag::Item), _)) = self.peek() {
            self.next();
            let task = match self.peek() {
                Some((Event::TaskListMarker(checked), _)) => {
                    let checked = *checked;
                    self.next();
                    Some(checked)
                }
                _ => None,
            };
            let (blocks, tagged) = self.blocks(depth);
            loose |= tagged;
            self.end();
            items.push(MdListItem { task, blocks });
        }
        MdBlock::ItemList { start, tight: !loose, items }
    }

    fn table(&mut self, alignments: &[Alignment], range: &Range<usize>) -> MdBlock {
        let max_cells = self.options.limits.max_table_cells as usize;
        let mut header = Vec::new();
        let mut rows: Vec<Vec<MdCell>> = Vec::new();
        let mut cells = 0usize;
        while let Some((event, _)) = self.peek() {
            let in_head = match event {
                Event::Start(Tag::TableHead) => true,
                Event::Start(Tag::TableRow) => false,
                _ => break,
            };
            self.next();
            let mut row = Vec::new();
            while let Some((Event::Start(Tag::TableCell), _)) = self.peek() {
                self.next();
                cells += 1;
                if cells > max_cells {
                    // Over the bound: the whole table as its source, the rest read and dropped.
                    self.skip_element();
                    while let Some((event, _)) = self.peek() {
                        if matches!(event, Event::End(TagEnd::Table)) {
                            break;
                        }
                        self.next();
                    }
                    return plain(self.source(range), PlainReason::TooManyCells);
                }
                let inlines = self.inlines(0);
                self.end();
                row.push(MdCell { inlines });
            }
            self.end();
            if in_head {
                header = row;
            } else {
                rows.push(row);
            }
        }
        MdBlock::Table { alignments: alignments.iter().map(alignment).collect(), header, rows }
    }

    /// Inlines until the end of the enclosing element or a block starts (neither consumed).
    /// `depth` counts the containers around them.
    fn inlines(&mut self, depth: u32) -> Vec<MdInline> {
        let mut out = Vec::new();
        while let Some((event, _)) = self.peek() {
            if !is_inline(event) {
                break;
            }
            let Some((event, range)) = self.next() else { break };
            let is_container = matches!(event, Event::Start(_));
            if !self.charge() {
                // Over the node bound: the rest of this run as its source text.
                let mut end = range.end;
                if is_container {
                    self.skip_element();
                }
                while let Some((event, range)) = self.peek() {
                    if !is_inline(event) {
                        break;
                    }
                    end = end.max(range.end);
                    let start = matches!(event, Event::Start(_));
                    self.next();
                    if start {
                        self.skip_element();
                    }
                }
                push_inline(
                    &mut out,
                    MdInline::Text { text: self.src.get(range.start..end).unwrap_or_default().into() },
                );
                break;
            }
            if is_container && depth + 1 > self.options.limits.max_depth {
                self.skip_element();
                push_inline(&mut out, MdInline::Text { text: self.source(&range) });
                continue;
            }
            match event {
                Event::Text(text) => push_inline(&mut out, MdInline::Text { text: text.into_string() }),
                Event::InlineHtml(text) | Event::Html(text) => out.push(MdInline::RawHtml { text: text.into_string() }),
                // Math is not enabled; kept as text if a later option turns it on.
                Event::InlineMath(text) | Event::DisplayMath(text) => {
                    push_inline(&mut out, MdInline::Text { text: text.into_string() })
                }
                Event::FootnoteReference(label) => {
                    push_inline(&mut out, MdInline::Text { text: format!("[^{label}]") })
                }
                Event::Code(text) => out.push(MdInline::Code { text: text.into_string() }),
                Event::SoftBreak => out.push(MdInline::SoftBreak),
                Event::HardBreak => out.push(MdInline::HardBreak),
                Event::Start(tag) => {
                    let link = matches!(tag, Tag::Link { .. } | Tag::Image { .. });
                    self.in_link += u32::from(link);
                    let children = self.inlines(depth + 1);
                    self.in_link -= u32::from(link);
                    self.end();
                    match tag {
                        Tag::Emphasis => out.push(MdInline::Emphasis { children }),
                        Tag::Strong => out.push(MdInline::Strong { children }),
                        Tag::Strikethrough => out.push(MdInline::Strikethrough { children }),
                        Tag::Link { link_type, dest_url, title, .. } => {
                            // An email autolink's destination comes without its scheme.
                            let url = match link_type {
                                LinkType::Email => format!("mailto:{dest_url}"),
                                _ => dest_url.into_string(),
                            };
                            if self.options.links_allowed(&url) {
                                out.push(MdInline::Link {
                                    url,
                                    title: (!title.is_empty()).then(|| title.into_string()),
                                    children,
                                });
                            } else {
                                // The label stays, as text: never a tappable link.
                                for child in children {
                                    push_inline(&mut out, child);
                                }
                            }
                        }
                        Tag::Image { dest_url, title, .. } => {
                            let mut alt = String::new();
                            push_plain(&mut alt, &children);
                            if self.options.image_allowed(&dest_url) {
                                out.push(MdInline::Image {
                                    url: dest_url.into_string(),
                                    title: (!title.is_empty()).then(|| title.into_string()),
                                    alt,
                                });
                            } else {
                                push_inline(&mut out, MdInline::Text { text: alt });
                            }
                        }
                        // Superscript and subscript are not enabled: their content, as is.
                        _ => {
                            for child in children {
                                push_inline(&mut out, child);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if self.in_link == 0 && self.options.autolinks {
            out = self.autolinked(out);
        }
        out
    }

    /// `inlines` with the bare URLs of their text as links, where the policy allows the URL and
    /// the node bound two more nodes (the link and its text).
    fn autolinked(&mut self, inlines: Vec<MdInline>) -> Vec<MdInline> {
        let mut out = Vec::with_capacity(inlines.len());
        for inline in inlines {
            let MdInline::Text { text } = inline else {
                out.push(inline);
                continue;
            };
            let mut shown = 0;
            for link in autolink::find(&text) {
                if !self.options.links_allowed(&link.url) || *self.nodes_left < 2 {
                    continue;
                }
                *self.nodes_left -= 2;
                if link.range.start > shown {
                    out.push(MdInline::Text { text: text[shown..link.range.start].to_owned() });
                }
                let children = vec![MdInline::Text { text: text[link.range.clone()].to_owned() }];
                out.push(MdInline::Link { url: link.url, title: None, children });
                shown = link.range.end;
            }
            if shown == 0 {
                out.push(MdInline::Text { text });
            } else if shown < text.len() {
                out.push(MdInline::Text { text: text[shown..].to_owned() });
            }
        }
        out
    }
}

fn plain(text: String, reason: PlainReason) -> MdBlock {
    MdBlock::PlainText { text, reason }
}
