//! `UrlPolicy::check`: the gate before `openUrl` (and media URLs) reach the platform.
//!
//! A URL passes when it is absolute (RFC 3986 scheme `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
//! then `:` and something after it), its scheme is in the allowed list (ASCII case-insensitive),
//! it has no whitespace, control characters or invisible bidi/format characters anywhere, and
//! for `http`/`https` it has `//` and a non-empty host. No trimming: leading or trailing spaces
//! are refused rather than silently fixed.
//!
//! `openUrl` is narrower ([`check_open_url`]): the basic catalog's implementation guide (v0.9.1)
//! makes an `http`/`https` allowlist mandatory for it, so a policy that lets media use an app's
//! own scheme does not let an agent open `mailto:`, `tel:` or another app. The guide resolves a
//! relative URL against the page first; an app has no page, so a relative URL is refused (the
//! catalog's `format: uri` already rejects it when the message arrives).

pub(super) fn check<'a>(allowed: &[String], url: &'a str) -> Result<&'a str, String> {
    if url.is_empty() {
        return Err("empty URL".into());
    }
    if let Some(c) = url.chars().find(|&c| c.is_whitespace() || c.is_control() || is_invisible_format(c)) {
        return Err(format!("URL contains a forbidden character U+{:04X}", c as u32));
    }
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err("not an absolute URL (no scheme)".into());
    };
    let mut chars = scheme.chars();
    let valid_scheme = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !valid_scheme {
        return Err("not an absolute URL (invalid scheme)".into());
    }
    if !allowed.iter().any(|a| a.eq_ignore_ascii_case(scheme)) {
        return Err(format!("URL scheme {:?} is not allowed", scheme.to_ascii_lowercase()));
    }
    if rest.is_empty() {
        return Err("URL has nothing after the scheme".into());
    }
    if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
        let Some(after) = rest.strip_prefix("//") else {
            return Err("http(s) URL without //authority".into());
        };
        let authority = after.split(['/', '?', '#']).next().unwrap_or("");
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let host = if host_port.starts_with('[') {
            host_port.split_once(']').map_or("", |(h, _)| h.trim_start_matches('['))
        } else {
            host_port.split(':').next().unwrap_or("")
        };
        if host.is_empty() {
            return Err("http(s) URL without a host".into());
        }
    }
    Ok(url)
}

/// [`check`], then `http` or `https` only: the schemes `openUrl` may open.
pub(super) fn check_open_url<'a>(allowed: &[String], url: &'a str) -> Result<&'a str, String> {
    let url = check(allowed, url)?;
    let scheme = url.split_once(':').map_or(url, |(scheme, _)| scheme);
    if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
        Ok(url)
    } else {
        Err(format!("openUrl opens only http and https URLs, not {:?}", scheme.to_ascii_lowercase()))
    }
}

/// Zero-width and bidi control characters that can disguise what a URL says.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_url_is_http_or_https_whatever_the_policy_allows() {
        let wide: Vec<String> = ["http", "HTTPS", "mailto", "myapp"].map(String::from).to_vec();
        for url in ["https://example.com/a", "HTTP://example.com", "Https://[::1]/"] {
            assert_eq!(check_open_url(&wide, url), Ok(url));
        }
        for (url, scheme) in [("mailto:a@b.co", "\"mailto\""), ("MyApp://x", "\"myapp\"")] {
            assert_eq!(check(&wide, url), Ok(url), "the policy itself allows {url}");
            let err = check_open_url(&wide, url).unwrap_err();
            assert!(err.contains("only http and https") && err.contains(scheme), "{err}");
        }
        // The policy still applies first: a narrower one is not widened to http.
        let https_only = vec!["https".to_owned()];
        assert!(check_open_url(&https_only, "http://example.com").unwrap_err().contains("not allowed"));
        assert!(check_open_url(&wide, "https://").is_err());
        assert!(check_open_url(&wide, "javascript:alert(1)").is_err());
    }
}
