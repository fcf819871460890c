//! Just enough RFC 3986 to resolve `$ref`/`$id` values against a base URI, plus JSON Pointer
//! fragment handling. Bases may themselves be relative (a document registered as
//! `"catalog.json"` without `$id`); resolution then works on the path alone.

/// Splits `uri` into the part before `#` and the fragment (without `#`).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.split_once('#') {
        Some((doc, fragment)) => (doc, fragment),
        None => (uri, ""),
    }
}

/// The scheme of `uri`, if it starts with one (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
pub(crate) fn scheme(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let candidate = &uri[..colon];
    let mut chars = candidate.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(candidate)
}

/// The components of a URI reference (fragment already removed).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

fn parse(uri: &str) -> Parts<'_> {
    let scheme = scheme(uri);
    let rest = match scheme {
        Some(s) => &uri[s.len() + 1..],
        None => uri,
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query }
}

fn assemble(scheme: Option<&str>, authority: Option<&str>, path: &str, query: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// RFC 3986 §5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "." => trailing_slash = i == last,
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                trailing_slash = i == last;
            }
            s => {
                out.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut joined = out.join("/");
    if trailing_slash {
        joined.push('/');
    }
    if absolute && !joined.starts_with('/') {
        joined.insert(0, '/');
    }
    joined
}

/// Resolves `reference` (no fragment) against `base` (no fragment), RFC 3986 §5.2.2.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = parse(reference);
    if r.scheme.is_some() {
        return assemble(r.scheme, r.authority, &remove_dot_segments(r.path), r.query);
    }
    let b = parse(base);
    if r.authority.is_some() {
        return assemble(b.scheme, r.authority, &remove_dot_segments(r.path), r.query);
    }
    if r.path.is_empty() {
        return assemble(b.scheme, b.authority, b.path, r.query.or(b.query));
    }
    let path = if r.path.starts_with('/') {
        remove_dot_segments(r.path)
    } else {
        let merged = if b.authority.is_some() && b.path.is_empty() {
            format!("/{}", r.path)
        } else {
            match b.path.rfind('/') {
                Some(slash) => format!("{}{}", &b.path[..=slash], r.path),
                None => r.path.to_string(),
            }
        };
        remove_dot_segments(&merged)
    };
    assemble(b.scheme, b.authority, &path, r.query)
}

/// The last path segment of a reference, e.g. `catalog.json` for `../x/catalog.json`.
pub(crate) fn last_segment(reference: &str) -> &str {
    let path = reference.split(['?', '#']).next().unwrap_or(reference);
    path.rsplit('/').next().unwrap_or(path)
}

/// Decodes `%XX` escapes in a URI fragment. Malformed escapes are kept literally.
pub(crate) fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex_digit(bytes[i + 1]), hex_digit(bytes[i + 2])) {
                out.push(hi << 4 | lo);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_digit(byte: u8) -> Option<u8> {
    char::from(byte).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// Splits a JSON Pointer into unescaped reference tokens. `None` if it is not a pointer.
pub(crate) fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(rest.split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect())
}

/// Escapes one JSON Pointer reference token.
pub(crate) fn escape_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_references() {
        let base = "https://a2ui.org/specification/v0_9/common_types.json";
        assert_eq!(resolve(base, "catalog.json"), "https://a2ui.org/specification/v0_9/catalog.json");
        assert_eq!(resolve(base, ""), base);
        assert_eq!(resolve(base, "../x.json"), "https://a2ui.org/specification/x.json");
        assert_eq!(resolve(base, "/root.json"), "https://a2ui.org/root.json");
        assert_eq!(resolve(base, "//other.org/a"), "https://other.org/a");
        assert_eq!(resolve(base, "urn:x:y"), "urn:x:y");
        assert_eq!(resolve("catalog.json", "common.json"), "common.json");
        assert_eq!(resolve("dir/a.json", "b.json"), "dir/b.json");
        assert_eq!(resolve("http://h", "a.json"), "http://h/a.json");
    }

    #[test]
    fn fragments_and_pointers() {
        assert_eq!(split_fragment("a.json#/$defs/X"), ("a.json", "/$defs/X"));
        assert_eq!(percent_decode("/a%25b/c%20d/%zz"), "/a%b/c d/%zz");
        assert_eq!(pointer_tokens("/a~1b/c~0d"), Some(vec!["a/b".to_string(), "c~d".to_string()]));
        assert_eq!(pointer_tokens("x"), None);
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
        assert_eq!(last_segment("../x/catalog.json"), "catalog.json");
    }
}
