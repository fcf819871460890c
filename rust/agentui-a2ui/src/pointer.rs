//! JSON Pointer (RFC 6901) as A2UI uses it: `""` and `"/"` both mean the root, one trailing slash is
//! stripped, and paths without a leading slash are relative to the current template item.
//!
//! OWNER: helper "data-model". Interface below is fixed; bodies are to be written.
//!
//! # Rules
//!
//! * **Escapes** (RFC 6901): inside a reference token `~1` stands for `/` and `~0` for `~`. Decoding
//!   reads each escape once, left to right, so `~01` is the two characters `~1` (not `/`). A `~`
//!   followed by anything other than `0` or `1`, or at the end of a token, is an error.
//! * **Root**: `""` and `"/"` both address the whole document. (Plain RFC 6901 would read `"/"` as
//!   the key `""` of the root object; A2UI agents write `"/"` for the root, so we follow them.)
//! * **Trailing slash**: exactly one trailing `/` is dropped before parsing, so `/a/b/` is `/a/b`.
//!   A second one is kept: `/a/b//` is the tokens `a`, `b`, `""`.
//! * **Canonical form** (what [`encode`] and [`canonical`] produce): `""` for the root, otherwise
//!   `/tok/tok` with every `~` written as `~0` and every `/` as `~1`. Because of the trailing-slash
//!   rule, a path whose *last* token is the empty string gets one extra `/` at the end (the tokens
//!   `a`, `""` encode as `/a//`), so that parsing the canonical form always gives back the same
//!   tokens. This is the only case where a canonical path ends with `/`.
//! * **Relative paths** (no leading `/`, only meaningful inside templates) are resolved by
//!   [`resolve`] against the canonical absolute path of the current template item.

use std::borrow::Cow;

use jsonptr::{ParseError, Pointer, Token};

/// Decoded reference tokens of a path (`~1` -> `/`, `~0` -> `~`).
pub type Tokens = Vec<String>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointerError {
    #[error("invalid JSON Pointer {path:?}: {reason}")]
    Invalid { path: String, reason: String },
}

fn invalid(path: &str, reason: impl Into<String>) -> PointerError {
    PointerError::Invalid { path: path.to_owned(), reason: reason.into() }
}

/// Error text for a `~` at byte `at` of the path that is not followed by `0` or `1`.
fn bad_tilde_reason(at: usize) -> String {
    format!("'~' at byte {at} must be followed by '0' or '1'")
}

/// Applies the A2UI root and trailing-slash rules, then validates the rest as RFC 6901. Does not
/// allocate on success; the returned pointer borrows from `path`.
pub(crate) fn normalise(path: &str) -> Result<&Pointer, PointerError> {
    if path.is_empty() || path == "/" {
        return Ok(Pointer::root());
    }
    if !path.starts_with('/') {
        return Err(invalid(path, "an absolute path must start with '/'"));
    }
    let trimmed = path.strip_suffix('/').unwrap_or(path);
    Pointer::parse(trimmed).map_err(|err| match err {
        ParseError::NoLeadingSlash => invalid(path, "an absolute path must start with '/'"),
        ParseError::InvalidEncoding { offset, source } => invalid(path, bad_tilde_reason(offset + source.offset)),
    })
}

/// Lazily decoded tokens of an absolute path: `Cow::Borrowed` unless the token holds an escape.
/// Validates the whole path up front (so a bad escape late in the path is reported before any
/// token is used) but allocates nothing unless a token contains `~`.
pub fn iter_absolute(path: &str) -> Result<impl Iterator<Item = Cow<'_, str>>, PointerError> {
    let pointer = normalise(path)?;
    Ok(pointer.tokens().map(|token| {
        if token.encoded().contains('~') {
            Cow::Owned(token.decoded().into_owned())
        } else {
            token.into_encoded()
        }
    }))
}

/// Parses an absolute pointer (leading `/`, or `""`/`"/"` for the root) into decoded tokens.
///
/// Exactly one trailing `/` is ignored (`/a/b/` is `[a, b]`). Errors when the path does not start
/// with `/` or contains a `~` not followed by `0` or `1`.
pub fn parse_absolute(path: &str) -> Result<Tokens, PointerError> {
    Ok(iter_absolute(path)?.map(Cow::into_owned).collect())
}

/// Appends the RFC 6901 escaped form of `token` (`~` -> `~0`, `/` -> `~1`) to `out`.
pub(crate) fn push_escaped(out: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Encodes tokens back into the canonical absolute form (`""` for the root, `~0`/`~1` escaped).
///
/// When the last token is empty one extra `/` is added (`["a", ""]` -> `/a//`) so that the one
/// trailing slash [`parse_absolute`] strips does not lose it; `parse_absolute(&encode(t)) == t`
/// for every token list.
pub fn encode(tokens: &[String]) -> String {
    let mut out = String::with_capacity(tokens.iter().map(|t| t.len() + 1).sum::<usize>() + 1);
    for token in tokens {
        push_token(&mut out, token);
    }
    out
}

/// Appends one decoded token to a canonical absolute path, keeping it canonical
/// (`push_token("/items", "3")` gives `/items/3`; `push_token("", "a/b")` gives `/a~1b`).
///
/// Handles the empty-last-token marker described in [`encode`], so building a template item's
/// path with this is always equivalent to `encode` of the joined tokens.
pub fn push_token(path: &mut String, token: &str) {
    // A canonical path ends with '/' only when its last token is empty; drop that marker
    // slash first, the token is already represented by the '/' before it.
    if path.ends_with('/') {
        path.pop();
    }
    path.push('/');
    push_escaped(path, token);
    if token.is_empty() {
        path.push('/');
    }
}

/// Whether canonical path `path` is `ancestor` itself or lies below it, comparing whole tokens
/// (`/a` is an ancestor of `/a/b` but not of `/ab`; the root `""` is an ancestor of everything).
/// Both arguments must be canonical (see [`canonical`]).
pub fn is_ancestor_or_self(ancestor: &str, path: &str) -> bool {
    let stem = ancestor.strip_suffix('/').unwrap_or(ancestor);
    match path.strip_prefix(stem) {
        Some(rest) => rest.is_empty() || rest.starts_with('/'),
        None => false,
    }
}

/// Resolves `path` as written by the agent against `base` (the canonical absolute path of the
/// current template item, `""` outside templates), returning the canonical absolute path.
///
/// * `path` starting with `/` is absolute: `base` is ignored and `path` is canonicalised
///   (`resolve("/items/3", "/title/")` is `/title`; `"/"` is the root `""`).
/// * An empty `path` is the template item itself: the result is `base` (canonicalised).
/// * Anything else is relative: its tokens (split on `/`, `~0`/`~1` decoded, one trailing `/`
///   ignored) are appended to `base`. `resolve("/items/3", "name")` is `/items/3/name`,
///   `resolve("/items/3", "a/b")` is `/items/3/a/b`, `resolve("", "name")` is `/name`.
///   There is no `.`/`..` navigation: those are ordinary keys.
///
/// Errors when `base` or `path` holds a malformed escape, or `base` is not absolute.
pub fn resolve(base: &str, path: &str) -> Result<String, PointerError> {
    if path.starts_with('/') {
        return canonical(path);
    }
    // Fast path (every bound property of every template instance comes through here): without
    // escapes or trailing slashes the canonical result is plain concatenation.
    if is_plain(path) && !path.starts_with('/') && is_plain(base) && (base.is_empty() || base.starts_with('/')) {
        let mut out = String::with_capacity(base.len() + 1 + path.len());
        out.push_str(base);
        out.push('/');
        out.push_str(path);
        return Ok(out);
    }
    let mut out = canonical(base)?;
    if path.is_empty() {
        return Ok(out);
    }
    let trimmed = path.strip_suffix('/').unwrap_or(path);
    // Validate every token before touching `out`, so the first bad token is the one reported.
    let mut offset = 0;
    let mut tokens = Vec::new();
    for raw in trimmed.split('/') {
        match Token::from_encoded(raw) {
            Ok(token) => tokens.push(token),
            // `jsonptr` reports the byte after the offending '~' here; point at the '~' itself.
            Err(err) => return Err(invalid(path, bad_tilde_reason(offset + err.offset.saturating_sub(1)))),
        }
        offset += raw.len() + 1;
    }
    for token in &tokens {
        push_token(&mut out, &token.decoded());
    }
    Ok(out)
}

/// Checks a data-binding path as the agent wrote it (absolute, or relative to the template
/// item) without resolving it: every `~` must start a `~0` or `~1` escape. The same paths fail
/// here as in [`resolve`], when the binding would be read.
pub fn check_binding(path: &str) -> Result<(), PointerError> {
    if path.starts_with('/') {
        normalise(path).map(drop)
    } else {
        resolve("", path).map(drop)
    }
}

/// Canonical form of an absolute path (`"/"` -> `""`, trailing slash stripped, escapes normalised).
pub fn canonical(path: &str) -> Result<String, PointerError> {
    if path.starts_with('/') && is_plain(path) {
        return Ok(path.to_owned());
    }
    Ok(encode(&parse_absolute(path)?))
}

/// Non-empty, no escapes and no trailing slash: already in canonical form as far as it goes.
fn is_plain(path: &str) -> bool {
    !path.is_empty() && !path.ends_with('/') && !path.contains('~')
}

/// Parses a token as an array index the way A2UI accepts them: a canonical non-negative decimal
/// integer (`0`, or digits not starting with `0`; no sign, no spaces).
///
/// Returns `None` for anything else, `Some(Err(()))` when the digits overflow `usize`.
pub(crate) fn parse_index(token: &str) -> Option<Result<usize, ()>> {
    let bytes = token.as_bytes();
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) || (bytes.len() > 1 && bytes[0] == b'0') {
        return None;
    }
    let mut value: usize = 0;
    for &b in bytes {
        let digit = usize::from(b - b'0');
        match value.checked_mul(10).and_then(|v| v.checked_add(digit)) {
            Some(v) => value = v,
            None => return Some(Err(())),
        }
    }
    Some(Ok(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(list: &[&str]) -> Tokens {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn root_forms() {
        assert_eq!(parse_absolute("").unwrap(), Tokens::new());
        assert_eq!(parse_absolute("/").unwrap(), Tokens::new());
        assert_eq!(canonical("/").unwrap(), "");
        assert_eq!(canonical("").unwrap(), "");
        assert_eq!(encode(&[]), "");
    }

    #[test]
    fn plain_tokens() {
        assert_eq!(parse_absolute("/a/b").unwrap(), toks(&["a", "b"]));
        assert_eq!(parse_absolute("/items/3/name").unwrap(), toks(&["items", "3", "name"]));
    }

    #[test]
    fn one_trailing_slash_is_stripped() {
        assert_eq!(parse_absolute("/a/b/").unwrap(), toks(&["a", "b"]));
        assert_eq!(canonical("/a/b/").unwrap(), "/a/b");
        assert_eq!(parse_absolute("/a/b//").unwrap(), toks(&["a", "b", ""]));
        assert_eq!(parse_absolute("//").unwrap(), toks(&[""]));
    }

    #[test]
    fn empty_tokens_inside() {
        assert_eq!(parse_absolute("/a//b").unwrap(), toks(&["a", "", "b"]));
        assert_eq!(canonical("/a//b").unwrap(), "/a//b");
    }

    #[test]
    fn binding_paths_are_checked_like_resolve_reads_them() {
        for ok in ["", "/", "/a", "/a~0b~1c", "/a/", "name", "a/b", "x~1y", "~0", "items/3/name/"] {
            assert_eq!(check_binding(ok), Ok(()), "{ok}");
            assert!(resolve("/base", ok).is_ok(), "{ok}");
        }
        for bad in ["/a~2b", "/a~", "/~", "a~2b", "name~", "~", "a/b~x/c", "relative/~3"] {
            let err = check_binding(bad).unwrap_err();
            assert_eq!(Err(err), resolve("/base", bad).map(drop), "{bad}: the same error as when it is read");
        }
    }

    #[test]
    fn escapes_decode() {
        assert_eq!(parse_absolute("/a~1b").unwrap(), toks(&["a/b"]));
        assert_eq!(parse_absolute("/a~0b").unwrap(), toks(&["a~b"]));
        assert_eq!(parse_absolute("/~01").unwrap(), toks(&["~1"]));
        assert_eq!(parse_absolute("/~10").unwrap(), toks(&["/0"]));
        assert_eq!(parse_absolute("/~0~1~0").unwrap(), toks(&["~/~"]));
    }

    #[test]
    fn invalid_escapes() {
        for bad in ["/a~", "/a~2", "/~x/b", "/ok/~", "/a/b~~0"] {
            let err = parse_absolute(bad).unwrap_err();
            let PointerError::Invalid { path, reason } = err;
            assert_eq!(path, bad);
            assert!(reason.contains('~'), "{reason}");
        }
    }

    #[test]
    fn invalid_escape_offset_is_reported() {
        let PointerError::Invalid { reason, .. } = parse_absolute("/ab/c~x").unwrap_err();
        assert!(reason.contains("byte 5"), "{reason}");
    }

    #[test]
    fn missing_leading_slash() {
        assert!(parse_absolute("a/b").is_err());
        assert!(parse_absolute("a").is_err());
        assert!(canonical("name").is_err());
    }

    #[test]
    fn encode_escapes() {
        assert_eq!(encode(&toks(&["a/b", "c~d"])), "/a~1b/c~0d");
        assert_eq!(encode(&toks(&["~1"])), "/~01");
    }

    #[test]
    fn encode_trailing_empty_token_round_trips() {
        assert_eq!(encode(&toks(&["a", ""])), "/a//");
        assert_eq!(parse_absolute("/a//").unwrap(), toks(&["a", ""]));
        assert_eq!(encode(&toks(&[""])), "//");
        assert_eq!(parse_absolute("//").unwrap(), toks(&[""]));
        assert_eq!(encode(&toks(&["", ""])), "///");
        assert_eq!(parse_absolute("///").unwrap(), toks(&["", ""]));
    }

    #[test]
    fn canonical_normalises_and_is_idempotent() {
        for p in ["", "/", "/a/", "/a~1b", "/a//", "/~01/x/", "/a/b//"] {
            let once = canonical(p).unwrap();
            assert_eq!(canonical(&once).unwrap(), once, "{p}");
        }
    }

    #[test]
    fn resolve_relative() {
        assert_eq!(resolve("/items/3", "name").unwrap(), "/items/3/name");
        assert_eq!(resolve("/items/3", "a/b").unwrap(), "/items/3/a/b");
        assert_eq!(resolve("", "name").unwrap(), "/name");
        assert_eq!(resolve("/items/3", "a~1b").unwrap(), "/items/3/a~1b");
        assert_eq!(resolve("/items/3", "name/").unwrap(), "/items/3/name");
    }

    #[test]
    fn resolve_empty_is_base() {
        assert_eq!(resolve("/items/3", "").unwrap(), "/items/3");
        assert_eq!(resolve("", "").unwrap(), "");
    }

    #[test]
    fn resolve_absolute_ignores_base() {
        assert_eq!(resolve("/items/3", "/title").unwrap(), "/title");
        assert_eq!(resolve("/items/3", "/").unwrap(), "");
        assert_eq!(resolve("/items/3", "/title/").unwrap(), "/title");
    }

    #[test]
    fn resolve_errors() {
        assert!(resolve("/items/3", "a~2").is_err());
        assert!(resolve("/items/3", "a/~").is_err());
        assert!(resolve("/items/3", "/a~").is_err());
        assert!(resolve("items", "x").is_err());
        let PointerError::Invalid { path, reason } = resolve("", "ab/c~x").unwrap_err();
        assert_eq!(path, "ab/c~x");
        assert!(reason.contains("byte 4"), "{reason}");
        let PointerError::Invalid { reason, .. } = resolve("", "a/~").unwrap_err();
        assert!(reason.contains("byte 2"), "{reason}");
    }

    #[test]
    fn resolve_against_base_with_empty_last_token() {
        assert_eq!(resolve("/a//", "x").unwrap(), "/a//x");
        assert_eq!(parse_absolute(&resolve("/a//", "x").unwrap()).unwrap(), toks(&["a", "", "x"]));
    }

    #[test]
    fn push_token_keeps_canonical() {
        let mut p = String::new();
        push_token(&mut p, "items");
        push_token(&mut p, "3");
        assert_eq!(p, "/items/3");
        push_token(&mut p, "");
        assert_eq!(p, "/items/3//");
        push_token(&mut p, "a/b");
        assert_eq!(p, "/items/3//a~1b");
        assert_eq!(parse_absolute(&p).unwrap(), toks(&["items", "3", "", "a/b"]));
    }

    #[test]
    fn ancestor_checks() {
        assert!(is_ancestor_or_self("", "/a"));
        assert!(is_ancestor_or_self("", ""));
        assert!(is_ancestor_or_self("/a", "/a"));
        assert!(is_ancestor_or_self("/a", "/a/b"));
        assert!(!is_ancestor_or_self("/a", "/ab"));
        assert!(!is_ancestor_or_self("/a/b", "/a"));
        assert!(is_ancestor_or_self("/a//", "/a//x"));
        assert!(is_ancestor_or_self("/a//", "/a//"));
        assert!(!is_ancestor_or_self("/a//", "/a/x"));
        assert!(is_ancestor_or_self("/a", "/a//"));
    }

    #[test]
    fn iter_absolute_borrows_plain_tokens() {
        let tokens: Vec<_> = iter_absolute("/a/b~1c").unwrap().collect();
        assert!(matches!(tokens[0], Cow::Borrowed("a")));
        assert_eq!(tokens[1], "b/c");
        assert!(iter_absolute("/a/~").is_err());
    }

    #[test]
    fn index_parsing() {
        assert_eq!(parse_index("0"), Some(Ok(0)));
        assert_eq!(parse_index("42"), Some(Ok(42)));
        assert_eq!(parse_index("007"), None);
        assert_eq!(parse_index("+1"), None);
        assert_eq!(parse_index("-1"), None);
        assert_eq!(parse_index("-"), None);
        assert_eq!(parse_index(""), None);
        assert_eq!(parse_index("1a"), None);
        assert_eq!(parse_index(" 1"), None);
        assert_eq!(parse_index("99999999999999999999999999"), Some(Err(())));
    }

    #[test]
    fn no_panics_on_odd_input() {
        for p in ["~", "/~", "//~0", "/\u{e9}~1", "/\u{1F600}/~", "\u{0}", "/a/\u{0}/"] {
            let _ = parse_absolute(p);
            let _ = canonical(p);
            let _ = resolve("", p);
            let _ = resolve("/x", p);
        }
    }
}
