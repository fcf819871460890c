//! The `format` values we assert: `uri`, `date`, `time`, `date-time` (RFC 3339) and `email`.
//! Unknown formats are annotations only and never fail.

use super::uri;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Uri,
    Date,
    Time,
    DateTime,
    Email,
}

impl Format {
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "uri" => Some(Format::Uri),
            "date" => Some(Format::Date),
            "time" => Some(Format::Time),
            "date-time" => Some(Format::DateTime),
            "email" => Some(Format::Email),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Uri => "uri",
            Format::Date => "date",
            Format::Time => "time",
            Format::DateTime => "date-time",
            Format::Email => "email",
        }
    }

    pub fn check(self, text: &str) -> bool {
        match self {
            Format::Uri => is_uri(text),
            Format::Date => is_date(text),
            Format::Time => is_time(text),
            Format::DateTime => is_date_time(text),
            Format::Email => is_email(text),
        }
    }
}

/// An absolute URI (RFC 3986 `URI`): a scheme, ":", then only URI characters with well-formed
/// percent-escapes. Relative references, spaces and non-ASCII (IRIs) are rejected.
fn is_uri(text: &str) -> bool {
    let Some(scheme) = uri::scheme(text) else {
        return false;
    };
    let rest = &text[scheme.len() + 1..];
    let (before_fragment, fragment) = uri::split_fragment(rest);
    if fragment.contains('#') {
        return false;
    }
    // Brackets are only legal around an IP literal host in the authority.
    let authority_end = match before_fragment.strip_prefix("//") {
        Some(after) => 2 + after.find(['/', '?']).unwrap_or(after.len()),
        None => 0,
    };
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let ok = match b {
            b'%' => {
                let hex = |j: usize| bytes.get(j).is_some_and(|c| c.is_ascii_hexdigit());
                if !(hex(i + 1) && hex(i + 2)) {
                    return false;
                }
                i += 2;
                true
            }
            b'[' | b']' => i < authority_end,
            b'#' => true,
            _ => b.is_ascii_alphanumeric() || b"-._~:/?@!$&'()*+,;=".contains(&b),
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

/// Parses a fixed-width run of ASCII digits.
fn digits(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || bytes.len() > 9 {
        return None;
    }
    bytes.iter().try_fold(0u32, |acc, b| b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0')))
}

fn is_leap_year(year: u32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// RFC 3339 `full-date`: `YYYY-MM-DD` with a day that exists in that month.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10])) else {
        return false;
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days_in_month).contains(&day)
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac](Z|±HH:MM)`. A leap second (`:60`) is only valid when
/// it falls on 23:59 UTC.
fn is_time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' || !text.is_char_boundary(8) {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (digits(&b[0..2]), digits(&b[3..5]), digits(&b[6..8])) else {
        return false;
    };
    let mut rest = &text[8..];
    if let Some(after_dot) = rest.strip_prefix('.') {
        let frac_len = after_dot.bytes().take_while(u8::is_ascii_digit).count();
        if frac_len == 0 {
            return false;
        }
        rest = &after_dot[frac_len..];
    }
    let offset_minutes: i64 = match rest {
        "Z" | "z" => 0,
        _ => {
            let ob = rest.as_bytes();
            if ob.len() != 6 || !matches!(ob[0], b'+' | b'-') || ob[3] != b':' {
                return false;
            }
            let (Some(oh), Some(om)) = (digits(&ob[1..3]), digits(&ob[4..6])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let magnitude = i64::from(oh * 60 + om);
            if ob[0] == b'-' {
                -magnitude
            } else {
                magnitude
            }
        }
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    if second == 60 {
        let utc_minutes = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc_minutes == 23 * 60 + 59;
    }
    true
}

/// RFC 3339 `date-time`: `full-date "T" full-time` (the `T` may be lowercase).
fn is_date_time(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() > 11 && matches!(b[10], b'T' | b't') && is_date(&text[..10]) && is_time(&text[11..])
}

/// A practical RFC 5321 mailbox: dot-atom or quoted local part, `@`, then a hostname or an
/// address literal in brackets. ASCII only (internationalised addresses are `idn-email`).
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    is_local_part(local) && is_mail_domain(domain)
}

fn is_local_part(local: &str) -> bool {
    if let Some(inner) = local.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        let mut escaped = false;
        for c in inner.chars() {
            if escaped {
                escaped = false;
                continue;
            }
            match c {
                '\\' => escaped = true,
                '"' => return false,
                ' '..='~' => {}
                _ => return false,
            }
        }
        return !escaped;
    }
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    !local.is_empty() && local.split('.').all(|atom| !atom.is_empty() && atom.chars().all(atext))
}

fn is_mail_domain(domain: &str) -> bool {
    if let Some(literal) = domain.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let address = literal.strip_prefix("IPv6:").unwrap_or(literal);
        return !address.is_empty() && address.chars().all(|c| c.is_ascii_hexdigit() || c == '.' || c == ':');
    }
    domain.len() <= 253
        && domain.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri() {
        for ok in ["https://example.com", "mailto:a@b.c", "urn:isbn:0451450523", "http://[::1]:80/a?b=c#d", "x:"] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in ["not a uri", "/relative/path", "example.com", "http://a b", "1http://x", "http://x/%zz", "é:x"] {
            assert!(!is_uri(bad), "{bad}");
        }
        assert!(!is_uri("http://x/[y]"));
        assert!(!is_uri("http://x/a#b#c"));
    }

    #[test]
    fn dates_and_times() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-1-01"));
        assert!(is_time("10:00:00Z"));
        assert!(is_time("10:00:00.123+05:30"));
        assert!(is_time("23:59:60Z"));
        assert!(is_time("15:59:60-08:00"));
        assert!(!is_time("12:59:60Z"));
        assert!(!is_time("24:00:00Z"));
        assert!(!is_time("10:00:00"));
        assert!(!is_time("10:00:00.Z"));
        assert!(is_date_time("2023-10-27T10:00:00Z"));
        assert!(is_date_time("2023-10-27t10:00:00.5z"));
        assert!(!is_date_time("2023-10-27 10:00:00Z"));
        assert!(!is_date_time("2023-10-27"));
        assert!(!is_date_time("2023-10-27Té0:00:00Z"));
    }

    #[test]
    fn email() {
        for ok in ["john.doe@example.com", "a+b@x", "\"john doe\"@example.com", "x@[127.0.0.1]", "x@[IPv6:::1]"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in ["plain", "@x.com", "a@", "a..b@x.com", ".a@x.com", "a@-x.com", "a b@x.com", "a@x..com"] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
