//! The tree written back as HTML, laid out as the CommonMark reference renderer (commonmark.js)
//! lays it out, so that the tree can be checked against the spec's examples. Only the CLI uses
//! it. Raw HTML is written escaped, as the platforms show it ([`to_html`]); [`to_html_raw`]
//! writes it through unescaped, as the spec's reference does, only to check the parser against
//! the spec's examples.

use crate::{MdAlignment, MdBlock, MdCell, MdInline, PlainReason};

/// `blocks` as HTML, raw HTML escaped.
pub fn to_html(blocks: &[MdBlock]) -> String {
    let mut out = String::new();
    Writer { out: &mut out, raw: false }.blocks(blocks, false);
    out
}

/// `blocks` as HTML with raw HTML written through: never for agent text a user sees.
pub fn to_html_raw(blocks: &[MdBlock]) -> String {
    let mut out = String::new();
    Writer { out: &mut out, raw: true }.blocks(blocks, false);
    out
}

struct Writer<'a> {
    out: &'a mut String,
    raw: bool,
}

/// A line break unless the output already ends with one (or is empty).
fn cr(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// A URL as the reference renderer writes it: percent-encoded but for the characters URLs keep
/// (and `%` that already starts an escape), then escaped for an attribute.
fn escape_url(out: &mut String, url: &str) {
    let bytes = url.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let keep = b.is_ascii_alphanumeric() || b";/?:@=+$,-_.!~*'()#".contains(&b);
        if keep {
            out.push(b as char);
        } else if b == b'&' {
            out.push_str("&amp;");
        } else if b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.push('%');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

impl Writer<'_> {
    fn blocks(&mut self, blocks: &[MdBlock], tight: bool) {
        for block in blocks {
            match block {
                MdBlock::Paragraph { inlines } if tight => self.inlines(inlines),
                MdBlock::Paragraph { inlines } => {
                    cr(self.out);
                    self.out.push_str("<p>");
                    self.inlines(inlines);
                    self.out.push_str("</p>");
                    cr(self.out);
                }
                MdBlock::Heading { level, inlines } => {
                    cr(self.out);
                    self.out.push_str(&format!("<h{level}>"));
                    self.inlines(inlines);
                    self.out.push_str(&format!("</h{level}>"));
                    cr(self.out);
                }
                MdBlock::Quote { blocks } => {
                    cr(self.out);
                    self.out.push_str("<blockquote>");
                    cr(self.out);
                    self.blocks(blocks, false);
                    cr(self.out);
                    self.out.push_str("</blockquote>");
                    cr(self.out);
                }
                MdBlock::ItemList { start, tight, items } => {
                    cr(self.out);
                    match start {
                        None => self.out.push_str("<ul>"),
                        Some(1) => self.out.push_str("<ol>"),
                        Some(n) => self.out.push_str(&format!("<ol start=\"{n}\">")),
                    }
                    cr(self.out);
                    for item in items {
                        self.out.push_str("<li>");
                        if let Some(checked) = item.task {
                            self.out.push_str(if checked {
                                "<input checked=\"\" disabled=\"\" type=\"checkbox\"> "
                            } else {
                                "<input disabled=\"\" type=\"checkbox\"> "
                            });
                        }
                        self.blocks(&item.blocks, *tight);
                        self.out.push_str("</li>");
                        cr(self.out);
                    }
                    self.out.push_str(if start.is_some() { "</ol>" } else { "</ul>" });
                    cr(self.out);
                }
                MdBlock::Code { language, text } => {
                    cr(self.out);
                    self.out.push_str("<pre><code");
                    if let Some(language) = language {
                        self.out.push_str(" class=\"language-");
                        escape(self.out, language);
                        self.out.push('"');
                    }
                    self.out.push('>');
                    escape(self.out, text);
                    self.out.push_str("</code></pre>");
                    cr(self.out);
                }
                MdBlock::Rule => {
                    cr(self.out);
                    self.out.push_str("<hr />");
                    cr(self.out);
                }
                MdBlock::Table { alignments, header, rows } => {
                    cr(self.out);
                    self.out.push_str("<table>\n<thead>\n");
                    self.row(header, alignments, "th");
                    self.out.push_str("</thead>\n");
                    if !rows.is_empty() {
                        self.out.push_str("<tbody>\n");
                        for row in rows {
                            self.row(row, alignments, "td");
                        }
                        self.out.push_str("</tbody>\n");
                    }
                    self.out.push_str("</table>");
                    cr(self.out);
                }
                MdBlock::PlainText { text, reason } => {
                    cr(self.out);
                    if self.raw && *reason == PlainReason::Html {
                        self.out.push_str(text);
                    } else {
                        escape(self.out, text);
                    }
                    cr(self.out);
                }
            }
        }
    }

    fn row(&mut self, cells: &[MdCell], alignments: &[MdAlignment], tag: &str) {
        self.out.push_str("<tr>\n");
        for (i, cell) in cells.iter().enumerate() {
            match alignments.get(i).copied().unwrap_or(MdAlignment::None) {
                MdAlignment::None => self.out.push_str(&format!("<{tag}>")),
                MdAlignment::Left => self.out.push_str(&format!("<{tag} align=\"left\">")),
                MdAlignment::Center => self.out.push_str(&format!("<{tag} align=\"center\">")),
                MdAlignment::Right => self.out.push_str(&format!("<{tag} align=\"right\">")),
            }
            self.inlines(&cell.inlines);
            self.out.push_str(&format!("</{tag}>\n"));
        }
        self.out.push_str("</tr>\n");
    }

    fn inlines(&mut self, inlines: &[MdInline]) {
        for inline in inlines {
            match inline {
                MdInline::Text { text } => escape(self.out, text),
                MdInline::RawHtml { text } if self.raw => self.out.push_str(text),
                MdInline::RawHtml { text } => escape(self.out, text),
                MdInline::Code { text } => {
                    self.out.push_str("<code>");
                    escape(self.out, text);
                    self.out.push_str("</code>");
                }
                MdInline::Emphasis { children } => self.wrap("em", children),
                MdInline::Strong { children } => self.wrap("strong", children),
                MdInline::Strikethrough { children } => self.wrap("del", children),
                MdInline::Link { url, title, children } => {
                    self.out.push_str("<a href=\"");
                    escape_url(self.out, url);
                    self.out.push('"');
                    if let Some(title) = title {
                        self.out.push_str(" title=\"");
                        escape(self.out, title);
                        self.out.push('"');
                    }
                    self.out.push('>');
                    self.inlines(children);
                    self.out.push_str("</a>");
                }
                MdInline::Image { url, title, alt } => {
                    self.out.push_str("<img src=\"");
                    escape_url(self.out, url);
                    self.out.push_str("\" alt=\"");
                    escape(self.out, alt);
                    self.out.push('"');
                    if let Some(title) = title {
                        self.out.push_str(" title=\"");
                        escape(self.out, title);
                        self.out.push('"');
                    }
                    self.out.push_str(" />");
                }
                MdInline::SoftBreak => self.out.push('\n'),
                MdInline::HardBreak => self.out.push_str("<br />\n"),
            }
        }
    }

    fn wrap(&mut self, tag: &str, children: &[MdInline]) {
        self.out.push_str(&format!("<{tag}>"));
        self.inlines(children);
        self.out.push_str(&format!("</{tag}>"));
    }
}
