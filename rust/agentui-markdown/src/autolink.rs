//! GitHub's extended autolinks: `http://…`, `https://…` and `www.…` written bare in text become
//! links (pulldown-cmark finds only `<…>` autolinks). The rules are GFM's: the link starts a
//! line, or follows whitespace or one of `*`, `_`, `~`, `(`; its domain has at least one period
//! and no underscore in its last two segments; it runs to the next whitespace or `<`, less
//! trailing punctuation (`?!.,:*_~'"`), a `)` without its `(`, and an entity-like `&name;`. A
//! `www.` link goes to `http://`. Email autolinks without `<…>` are not found.
//!
//! One scan, linear in the text: where a link ends and where a run of domain characters ends are
//! found once for every start that shares them, and a domain longer than DNS allows is refused
//! before it is looked at (a word of a million `(www.` or `www.a_` is not quadratic).

use std::ops::Range;

/// A bare URL in text: where it is, and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Autolink {
    pub range: Range<usize>,
    pub url: String,
}

/// Every extended autolink of `text`, in order, none overlapping.
pub(crate) fn find(text: &str) -> Vec<Autolink> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    // The end of the word (next whitespace or `<`) last found, and of the run of domain
    // characters last found with its start: shared by every candidate inside them.
    let mut word: Range<usize> = 0..0;
    let mut run: Range<usize> = 0..0;
    let mut at = 0;
    while at < bytes.len() {
        let Some(prefix) = prefix_at(bytes, at) else {
            at += 1;
            continue;
        };
        if !starts_word(text, at) {
            at += 1;
            continue;
        }
        if !word.contains(&at) {
            word = at..text[at..].find(|c: char| c.is_whitespace() || c == '<').map_or(text.len(), |end| at + end);
        }
        let domain_start = at + prefix;
        if !(run.start <= domain_start && domain_start < run.end) {
            let len = text[domain_start..].find(|c: char| !is_domain_char(c)).unwrap_or(text.len() - domain_start);
            run = domain_start..domain_start + len;
        }
        // The domain first (cheap), the trailing punctuation only for a link.
        let domain_end = run.end.min(word.end);
        if domain_start < domain_end && valid_domain(&text[domain_start..domain_end]) {
            let end = trim_end(text, at, word.end);
            let domain_end = domain_end.min(end);
            if domain_start < domain_end && valid_domain(&text[domain_start..domain_end]) {
                let link = &text[at..end];
                let url = if prefix_is_www(bytes, at) { format!("http://{link}") } else { link.to_owned() };
                found.push(Autolink { range: at..end, url });
                at = end;
                continue;
            }
        }
        at += 1;
    }
    found
}

/// The length of the prefix (`www.`, `http://`, `https://`, ASCII case aside) at `at`.
fn prefix_at(bytes: &[u8], at: usize) -> Option<usize> {
    let has = |p: &[u8]| bytes.get(at..at + p.len()).is_some_and(|b| b.eq_ignore_ascii_case(p));
    if has(b"www.") {
        Some(4)
    } else if has(b"http://") {
        Some(7)
    } else if has(b"https://") {
        Some(8)
    } else {
        None
    }
}

fn prefix_is_www(bytes: &[u8], at: usize) -> bool {
    bytes.get(at..at + 4).is_some_and(|b| b.eq_ignore_ascii_case(b"www."))
}

/// Whether a link may start at `at`: at the start, after whitespace or `*`, `_`, `~`, `(`.
fn starts_word(text: &str, at: usize) -> bool {
    text[..at].chars().next_back().is_none_or(|c| c.is_whitespace() || matches!(c, '*' | '_' | '~' | '('))
}

fn is_domain_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '-' | '_')
}

/// The longest domain name DNS allows: a longer run is no domain, and checking it first keeps
/// the scan linear (every start inside one long run of domain characters is refused at once).
const MAX_DOMAIN_BYTES: usize = 253;

/// A domain (with whatever trailing periods) GFM links: at least one period, no empty segment,
/// no underscore in the last two, at most [`MAX_DOMAIN_BYTES`].
fn valid_domain(domain: &str) -> bool {
    // Measured before the trailing periods are trimmed (a sentence's full stop fits).
    if domain.len() > MAX_DOMAIN_BYTES + 1 {
        return false;
    }
    let domain = domain.trim_end_matches('.');
    let segments: Vec<&str> = domain.split('.').collect();
    segments.len() >= 2
        && segments.iter().all(|s| !s.is_empty())
        && segments.iter().rev().take(2).all(|s| !s.contains('_'))
}

/// The end of a link from `start` to `end` without its trailing punctuation, unmatched `)` and
/// entity-like `&name;`. The parentheses are counted once; only a `)` drops one of them.
fn trim_end(text: &str, start: usize, mut end: usize) -> usize {
    let opens = text[start..end].matches('(').count();
    let mut closes = text[start..end].matches(')').count();
    loop {
        let link = &text[start..end];
        let Some(last) = link.chars().next_back() else { return end };
        match last {
            '?' | '!' | '.' | ',' | ':' | '*' | '_' | '~' | '\'' | '"' => end -= 1,
            ')' if closes > opens => {
                closes -= 1;
                end -= 1;
            }
            ';' => {
                let name = link[..link.len() - 1].trim_end_matches(|c: char| c.is_ascii_alphanumeric());
                if name.len() < link.len() - 1 && name.ends_with('&') {
                    end = start + name.len() - 1;
                } else {
                    return end;
                }
            }
            _ => return end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(text: &str) -> Vec<(&str, String)> {
        find(text).into_iter().map(|l| (&text[l.range], l.url)).collect()
    }

    #[test]
    fn bare_urls_and_www_become_links() {
        assert_eq!(
            links("see https://example.com/a?b=1 and www.example.org."),
            [
                ("https://example.com/a?b=1", "https://example.com/a?b=1".to_owned()),
                ("www.example.org", "http://www.example.org".to_owned())
            ]
        );
        assert_eq!(
            links("(www.example.com/a(b))"),
            [("www.example.com/a(b)", "http://www.example.com/a(b)".to_owned())]
        );
        assert_eq!(links("www.example.com/a&amp;"), [("www.example.com/a", "http://www.example.com/a".to_owned())]);
        assert_eq!(links("http://a.b/x<y"), [("http://a.b/x", "http://a.b/x".to_owned())]);
        assert_eq!(links("*https://a.b*"), [("https://a.b", "https://a.b".to_owned())]);
    }

    #[test]
    fn not_every_www_or_scheme_is_a_link() {
        for text in
            ["xwww.example.com", "www.", "www.example", "http://localhost", "www.a_b.c_d", "ahttp://a.b", "www..x"]
        {
            assert!(links(text).is_empty(), "{text}");
        }
        assert_eq!(links("www.a_b.c.d")[0].0, "www.a_b.c.d", "underscores only outside the last two segments");
    }

    #[test]
    fn the_scan_is_linear_on_many_starts_in_one_word() {
        // Each `(www.` is a candidate whose word runs to the end of the text.
        let text = "(www.".repeat(100_000);
        assert!(links(&text).is_empty());
        let text = "www.a_".repeat(100_000);
        assert!(links(&text).is_empty(), "no domain is that long");
        let text = format!("{}{}", "www._".repeat(100_000), ".".repeat(100_000));
        assert!(links(&text).is_empty());
        let text = format!("www.a.b{}", ")".repeat(100_000));
        assert_eq!(links(&text)[0].0, "www.a.b", "unmatched parentheses dropped one by one, counted once");
    }
}
