//! The tree written back as HTML, laid out as the CommonMark reference renderer (commonmark.js)
//! lays it out, so that the tree can be checked against the spec's examples. Only the CLI uses
//! it; raw HTML stays escaped text here too.

use crate::{MdAlignment, MdBlock, MdCell, MdInline};

/// `blocks` as HTML.
pub fn to_html(blocks: &[MdBlock]) -> String {
    let mut out = String::new();
    write_blocks(&mut out, blocks, false);
    out
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

fn write_blocks(out: &mut String, blocks: &[MdBlock], tight: bool) {
    for block in blocks {
        match block {
            MdBlock::Paragraph { inlines } if tight => write_inlines(out, inlines),
            MdBlock::Paragraph { inlines } => {
                cr(out);
                out.push_str("<p>");
                write_inlines(out, inlines);
                out.push_str("</p>");
                cr(out);
            }
            MdBlock::Heading { level, inlines } => {
                cr(out);
                out.push_str(&format!("<h{level}>"));
                write_inlines(out, inlines);
                out.push_str(&format!("</h{level}>"));
                cr(out);
            }
            MdBlock::Quote { blocks } => {
                cr(out);
                out.push_str("<blockquote>");
                cr(out);
                write_blocks(out, blocks, false);
                cr(out);
                out.push_str("</blockquote>");
                cr(out);
            }
            MdBlock::List { start, tight, items } => {
                cr(out);
                match start {
                    None => out.push_str("<ul>"),
                    Some(1) => out.push_str("<ol>"),
                    Some(n) => out.push_str(&format!("<ol start=\"{n}\">")),
                }
                cr(out);
                for item in items {
                    out.push_str("<li>");
                    if let Some(checked) = item.task {
                        out.push_str(if checked {
                            "<input checked=\"\" disabled=\"\" type=\"checkbox\"> "
                        } else {
                            "<input disabled=\"\" type=\"checkbox\"> "
                        });
                    }
                    write_blocks(out, &item.blocks, *tight);
                    out.push_str("</li>");
                    cr(out);
                }
                out.push_str(if start.is_some() { "</ol>" } else { "</ul>" });
                cr(out);
            }
            MdBlock::Code { language, text } => {
                cr(out);
                out.push_str("<pre><code");
                if let Some(language) = language {
                    out.push_str(" class=\"language-");
                    escape(out, language);
                    out.push('"');
                }
                out.push('>');
                escape(out, text);
                out.push_str("</code></pre>");
                cr(out);
            }
            MdBlock::Rule => {
                cr(out);
                out.push_str("<hr />");
                cr(out);
            }
            MdBlock::Table { alignments, header, rows } => {
                cr(out);
                out.push_str("<table>\n<thead>\n");
                write_row(out, header, alignments, "th");
                out.push_str("</thead>\n");
                if !rows.is_empty() {
                    out.push_str("<tbody>\n");
                    for row in rows {
                        write_row(out, row, alignments, "td");
                    }
                    out.push_str("</tbody>\n");
                }
                out.push_str("</table>");
                cr(out);
            }
            MdBlock::PlainText { text, .. } => {
                cr(out);
                escape(out, text);
                cr(out);
            }
        }
    }
}

fn write_row(out: &mut String, cells: &[MdCell], alignments: &[MdAlignment], tag: &str) {
    out.push_str("<tr>\n");
    for (i, cell) in cells.iter().enumerate() {
        match alignments.get(i).copied().unwrap_or(MdAlignment::None) {
            MdAlignment::None => out.push_str(&format!("<{tag}>")),
            MdAlignment::Left => out.push_str(&format!("<{tag} align=\"left\">")),
            MdAlignment::Center => out.push_str(&format!("<{tag} align=\"center\">")),
            MdAlignment::Right => out.push_str(&format!("<{tag} align=\"right\">")),
        }
        write_inlines(out, &cell.inlines);
        out.push_str(&format!("</{tag}>\n"));
    }
    out.push_str("</tr>\n");
}

fn write_inlines(out: &mut String, inlines: &[MdInline]) {
    for inline in inlines {
        match inline {
            MdInline::Text { text } => escape(out, text),
            MdInline::Code { text } => {
                out.push_str("<code>");
                escape(out, text);
                out.push_str("</code>");
            }
            MdInline::Emphasis { children } => wrap(out, "em", children),
            MdInline::Strong { children } => wrap(out, "strong", children),
            MdInline::Strikethrough { children } => wrap(out, "del", children),
            MdInline::Link { url, title, children } => {
                out.push_str("<a href=\"");
                escape_url(out, url);
                out.push('"');
                if let Some(title) = title {
                    out.push_str(" title=\"");
                    escape(out, title);
                    out.push('"');
                }
                out.push('>');
                write_inlines(out, children);
                out.push_str("</a>");
            }
            MdInline::Image { url, title, alt } => {
                out.push_str("<img src=\"");
                escape_url(out, url);
                out.push_str("\" alt=\"");
                escape(out, alt);
                out.push('"');
                if let Some(title) = title {
                    out.push_str(" title=\"");
                    escape(out, title);
                    out.push('"');
                }
                out.push_str(" />");
            }
            MdInline::SoftBreak => out.push('\n'),
            MdInline::HardBreak => out.push_str("<br />\n"),
        }
    }
}

fn wrap(out: &mut String, tag: &str, children: &[MdInline]) {
    out.push_str(&format!("<{tag}>"));
    write_inlines(out, children);
    out.push_str(&format!("</{tag}>"));
}
