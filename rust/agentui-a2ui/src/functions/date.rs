//! `formatDate(value, format)`: a Unicode TR35 (ICU) pattern applied to an ISO 8601 value.
//!
//! Values: `2026-01-16` (date), `14:30[:05[.123]]` (time), a date-time joined by `T`, `t` or a
//! space with an optional `Z` / `±HH:MM` / `±HHMM` / `±HH` offset, or a number of milliseconds
//! since the Unix epoch (UTC). Date-times are shown in the offset they carry: the engine knows
//! no device time zone, so there is no conversion. `null` and `""` format as `""`.
//!
//! Pattern fields: `y` (`yy` two-digit, others padded to the count), `M`/`L` (1, 01, Jan,
//! January, J), `d`, `D` (day of year), `E` (Tue for 1-3, Tuesday, T, Tu), `a` (AM/PM), `h`,
//! `H`, `K`, `k`, `m`, `s`, `S` (fraction of a second). Numeric fields are zero-padded to the
//! count. Text in single quotes is literal, `''` is a quote, other non-letters are literal; an
//! unterminated quote runs to the end. Other letters are an error, as are date fields applied
//! to a time-only value. Names are English.

use serde_json::Value;
use time::{Date, Month, OffsetDateTime, Time};

use super::template::type_name;
use super::{invalid, prepared, req_arg, PreparedKind};
use crate::dynamic::{Call, Evaluator};
use crate::functions::FunctionError;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const WEEKDAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// A parsed pattern.
#[derive(Debug)]
pub(super) struct Pattern {
    tokens: Vec<Token>,
}

#[derive(Debug)]
enum Token {
    Literal(String),
    Field { letter: u8, count: usize },
}

impl Pattern {
    pub(super) fn parse(src: &str) -> Result<Pattern, String> {
        let bytes = src.as_bytes();
        let mut tokens = Vec::new();
        let mut text = String::new();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'\'' {
                if bytes.get(i + 1) == Some(&b'\'') {
                    text.push('\'');
                    i += 2;
                    continue;
                }
                // Quoted text up to the closing quote; `''` inside is a quote.
                i += 1;
                loop {
                    let start = i;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += 1;
                    }
                    text.push_str(&src[start..i]);
                    if i >= bytes.len() {
                        break;
                    }
                    if bytes.get(i + 1) == Some(&b'\'') {
                        text.push('\'');
                        i += 2;
                    } else {
                        i += 1;
                        break;
                    }
                }
            } else if b.is_ascii_alphabetic() {
                let start = i;
                while i < bytes.len() && bytes[i] == b {
                    i += 1;
                }
                if !b"yMLdDEahHKkmsS".contains(&b) {
                    return Err(format!("unsupported pattern letter '{}'", b as char));
                }
                if !text.is_empty() {
                    tokens.push(Token::Literal(std::mem::take(&mut text)));
                }
                tokens.push(Token::Field { letter: b, count: i - start });
            } else {
                // Any other text up to the next quote or ASCII letter (both ASCII: char boundary).
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'\'' && !bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                text.push_str(&src[start..i]);
            }
        }
        if !text.is_empty() {
            tokens.push(Token::Literal(text));
        }
        Ok(Pattern { tokens })
    }

    fn format(&self, value: &Moment) -> Result<String, String> {
        let mut out = String::new();
        for token in &self.tokens {
            match token {
                Token::Literal(t) => out.push_str(t),
                Token::Field { letter, count } => value.write_field(&mut out, *letter, *count)?,
            }
        }
        Ok(out)
    }
}

/// A parsed value: a date, a time of day, or both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Moment {
    date: Option<Date>,
    time: Option<Time>,
}

impl Moment {
    fn date(&self, letter: u8) -> Result<Date, String> {
        self.date.ok_or_else(|| format!("pattern letter '{}' needs a date, the value is a time", letter as char))
    }

    fn write_field(&self, out: &mut String, letter: u8, count: usize) -> Result<(), String> {
        // A date without a time is midnight.
        let time = self.time.unwrap_or(Time::MIDNIGHT);
        match letter {
            b'y' => {
                let year = self.date(letter)?.year();
                if count == 2 {
                    pad(out, i64::from(year.rem_euclid(100)), 2);
                } else {
                    pad(out, i64::from(year), count);
                }
            }
            b'M' | b'L' => {
                let month = self.date(letter)?.month();
                let name = MONTHS[usize::from(u8::from(month)) - 1];
                match count {
                    1 | 2 => pad(out, i64::from(u8::from(month)), count),
                    3 => out.push_str(&name[..3]),
                    4 => out.push_str(name),
                    _ => out.push_str(&name[..1]),
                }
            }
            b'd' => pad(out, i64::from(self.date(letter)?.day()), count),
            b'D' => pad(out, i64::from(self.date(letter)?.ordinal()), count),
            b'E' => {
                let name = WEEKDAYS[usize::from(self.date(letter)?.weekday().number_days_from_monday())];
                match count {
                    1..=3 => out.push_str(&name[..3]),
                    4 => out.push_str(name),
                    5 => out.push_str(&name[..1]),
                    _ => out.push_str(&name[..2]),
                }
            }
            b'a' => {
                let pm = time.hour() >= 12;
                out.push_str(match (pm, count >= 5) {
                    (false, false) => "AM",
                    (true, false) => "PM",
                    (false, true) => "a",
                    (true, true) => "p",
                });
            }
            b'h' => pad(out, i64::from((time.hour() + 11) % 12 + 1), count),
            b'H' => pad(out, i64::from(time.hour()), count),
            b'K' => pad(out, i64::from(time.hour() % 12), count),
            b'k' => pad(out, i64::from(if time.hour() == 0 { 24 } else { time.hour() }), count),
            b'm' => pad(out, i64::from(time.minute()), count),
            b's' => pad(out, i64::from(time.second()), count),
            b'S' => {
                // Fraction of a second, truncated to `count` digits (zeros past nanoseconds).
                let nanos = format!("{:09}", time.nanosecond());
                let digits = count.min(9);
                out.push_str(&nanos[..digits]);
                out.extend(std::iter::repeat_n('0', count - digits));
            }
            other => return Err(format!("unsupported pattern letter '{}'", other as char)),
        }
        Ok(())
    }
}

fn pad(out: &mut String, n: i64, width: usize) {
    if n < 0 {
        out.push('-');
    }
    let digits = n.unsigned_abs().to_string();
    out.extend(std::iter::repeat_n('0', width.saturating_sub(digits.len())));
    out.push_str(&digits);
}

pub(super) fn format_date(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let local;
    let pattern = match prepared(call) {
        Some(PreparedKind::DatePattern(p)) => p.as_ref(),
        _ => {
            let format = req_arg(call, "format", ev)?;
            let Value::String(format) = &*format else {
                return Err(invalid(&call.name, format!("`format` must be a string, got {}", type_name(&format))));
            };
            local = Pattern::parse(format);
            local.as_ref()
        }
    };
    let pattern = pattern.map_err(|e| invalid(&call.name, e.clone()))?;
    let value = req_arg(call, "value", ev)?;
    let moment = match &*value {
        Value::Null => return Ok(Value::String(String::new())),
        Value::String(s) if s.trim().is_empty() => return Ok(Value::String(String::new())),
        Value::String(s) => parse_iso(s.trim()).ok_or_else(|| invalid(&call.name, format!("invalid date {s:?}")))?,
        Value::Number(n) => n
            .as_f64()
            .and_then(from_epoch_millis)
            .ok_or_else(|| invalid(&call.name, format!("timestamp {n} is out of range")))?,
        other => return Err(invalid(&call.name, format!("`value` must be a date string, got {}", type_name(other)))),
    };
    pattern.format(&moment).map(Value::String).map_err(|e| invalid(&call.name, e))
}

fn from_epoch_millis(ms: f64) -> Option<Moment> {
    // time's range is years -9999..=9999; anything near that bound in ms fits an i128 easily.
    if !ms.is_finite() || ms.abs() > 1e16 {
        return None;
    }
    let nanos = (ms * 1e6).round() as i128;
    let t = OffsetDateTime::from_unix_timestamp_nanos(nanos).ok()?;
    Some(Moment { date: Some(t.date()), time: Some(t.time()) })
}

/// Parses the ISO 8601 forms listed in the module docs.
pub(super) fn parse_iso(s: &str) -> Option<Moment> {
    let b = s.as_bytes();
    if b.len() >= 10 && b[4] == b'-' && b[7] == b'-' {
        let date = parse_date(&b[..10])?;
        if b.len() == 10 {
            return Some(Moment { date: Some(date), time: None });
        }
        if !matches!(b[10], b'T' | b't' | b' ') {
            return None;
        }
        let time = parse_time_with_offset(&b[11..])?;
        return Some(Moment { date: Some(date), time: Some(time) });
    }
    let time = parse_time_with_offset(b)?;
    Some(Moment { date: None, time: Some(time) })
}

fn num(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    b.iter().try_fold(0u32, |acc, d| acc.checked_mul(10)?.checked_add(u32::from(d - b'0')))
}

fn parse_date(b: &[u8]) -> Option<Date> {
    let year = i32::try_from(num(&b[0..4])?).ok()?;
    let month = Month::try_from(u8::try_from(num(&b[5..7])?).ok()?).ok()?;
    let day = u8::try_from(num(&b[8..10])?).ok()?;
    Date::from_calendar_date(year, month, day).ok()
}

/// `HH:MM[:SS[.fraction]]` followed by an optional offset (validated, then ignored: the wall
/// clock is shown as written).
fn parse_time_with_offset(b: &[u8]) -> Option<Time> {
    let offset_at = b.iter().position(|&c| matches!(c, b'Z' | b'z' | b'+' | b'-')).unwrap_or(b.len());
    let (clock, offset) = b.split_at(offset_at);
    if !offset.is_empty() && !valid_offset(offset) {
        return None;
    }
    if clock.len() < 5 || clock[2] != b':' {
        return None;
    }
    let hour = u8::try_from(num(&clock[0..2])?).ok()?;
    let minute = u8::try_from(num(&clock[3..5])?).ok()?;
    let (mut second, mut nanos) = (0u8, 0u32);
    let rest = &clock[5..];
    if !rest.is_empty() {
        if rest.len() < 3 || rest[0] != b':' {
            return None;
        }
        second = u8::try_from(num(&rest[1..3])?).ok()?;
        let frac = &rest[3..];
        if !frac.is_empty() {
            if !matches!(frac[0], b'.' | b',') || frac.len() < 2 {
                return None;
            }
            let digits = &frac[1..];
            if !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            // Nanosecond precision: further digits are dropped.
            let kept = &digits[..digits.len().min(9)];
            nanos = num(kept)? * 10u32.pow(9 - kept.len() as u32);
        }
    }
    Time::from_hms_nano(hour, minute, second, nanos).ok()
}

fn valid_offset(b: &[u8]) -> bool {
    if b == b"Z" || b == b"z" {
        return true;
    }
    let (hours, minutes) = match b.len() {
        3 => (&b[1..3], &b"00"[..]),
        5 => (&b[1..3], &b[3..5]),
        6 if b[3] == b':' => (&b[1..3], &b[4..6]),
        _ => return false,
    };
    matches!((num(hours), num(minutes)), (Some(h), Some(m)) if h <= 23 && m <= 59)
}
