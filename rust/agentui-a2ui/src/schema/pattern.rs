//! `pattern` / `patternProperties` regexes. JSON Schema patterns are ECMA-262; the `regex` crate
//! (linear time, no backtracking) covers the common subset. A few ECMA meanings differ and are
//! rewritten first: `\d` and `\w` are ASCII-only in ECMA, and `[`, `&`, `~` are literals inside an
//! ECMA class but class syntax in `regex`. Backreferences and lookaround are not supported and
//! surface as compile errors.

use regex::{Regex, RegexBuilder};

/// Upper bound on one compiled regex, so a schema cannot make us allocate without limit
/// (`a{1000}{1000}` and friends).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern with its source kept for messages.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    pub source: String,
    pub regex: Regex,
}

impl Pattern {
    pub fn new(source: &str) -> Result<Pattern, String> {
        let translated = translate(source);
        let regex = RegexBuilder::new(&translated)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| format!("invalid pattern {source:?}: {e}"))?;
        Ok(Pattern { source: source.to_string(), regex })
    }

    /// Unanchored, as JSON Schema requires.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";

fn translate(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 8);
    let mut in_class = false;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    // A trailing backslash is an error either way; let `regex` report it.
                    out.push('\\');
                    break;
                };
                let (set, negated) = match next {
                    'd' => (Some(DIGIT), false),
                    'D' => (Some(DIGIT), true),
                    'w' => (Some(WORD), false),
                    'W' => (Some(WORD), true),
                    _ => (None, false),
                };
                match set {
                    // Inside a class a positive set is spliced in; anything else nests.
                    Some(set) if in_class && !negated => out.push_str(set),
                    Some(set) => {
                        out.push('[');
                        if negated {
                            out.push('^');
                        }
                        out.push_str(set);
                        out.push(']');
                    }
                    None => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_words_are_ascii() {
        let p = Pattern::new(r"^\d+$").unwrap();
        assert!(p.is_match("123"));
        assert!(!p.is_match("١٢٣"), "Arabic-Indic digits are not ECMA \\d");
        let w = Pattern::new(r"^[\w.-]+$").unwrap();
        assert!(w.is_match("a_b.c-d"));
        assert!(!w.is_match("é"));
        let nd = Pattern::new(r"^[\Da]+$").unwrap();
        assert!(nd.is_match("xa"));
        assert!(!nd.is_match("1"));
    }

    #[test]
    fn unanchored_and_class_literals() {
        assert!(Pattern::new("b").unwrap().is_match("abc"));
        let p = Pattern::new("^[[&~]+$").unwrap();
        assert!(p.is_match("[&~"));
        assert!(Pattern::new(r"^\/x$").unwrap().is_match("/x"));
        assert!(Pattern::new(r"^#[0-9a-fA-F]{6}$").unwrap().is_match("#00BFFF"));
    }

    #[test]
    fn invalid_patterns_are_errors() {
        assert!(Pattern::new("(").is_err());
        assert!(Pattern::new(r"(a)\1").is_err());
        assert!(Pattern::new("(?=a)").is_err());
    }
}
