//! `formatDate(value, format)`: a Unicode TR35 (ICU) pattern applied to an ISO 8601 value, in
//! the surface's locale and time zone.
//!
//! Values: `2026-01-16` (a calendar date), `14:30[:05[.123]]` (a time of day), a date-time
//! joined by `T`, `t` or a space with an optional `Z` / `±HH:MM` / `±HHMM` / `±HH` offset, or a
//! number of milliseconds since the Unix epoch. `null` and `""` format as `""`.
//!
//! Time zones: a date-time with an offset, and an epoch number, name an instant; it is shown in
//! the surface's time zone (`2026-03-01T10:00:00Z` is 11:00 in Europe/Berlin and 19:00 in
//! Asia/Seoul; `2026-03-01T10:00:00+05:30` is the same as `2026-03-01T04:30:00Z`), so one
//! instant gives one text whatever offset it was written with. A date without a time is a
//! calendar date and is never shifted. A date-time without an offset is a wall-clock time and
//! is shown as written, as is a time of day (with an offset or not: without a date, no zone
//! conversion is defined).
//!
//! Pattern fields: `y` (`yy` two-digit, others padded to the count), `M`/`L` (1, 01, then the
//! locale's abbreviated, wide and narrow month names; `L` the stand-alone forms), `d`, `D` (day
//! of year), `E` (abbreviated for 1-3, wide, narrow, short weekday names), `a` (the locale's
//! day period: AM/PM, 오전/오후), `h`, `H`, `K`, `k`, `m`, `s`, `S` (fraction of a second).
//! Numeric fields use the locale's digits and are zero-padded to the count. Names come from
//! ICU4X's CLDR data for the locale; the pattern's order and literal text are the agent's. Text
//! in single quotes is literal, `''` is a quote, other non-letters are literal; an unterminated
//! quote runs to the end. Other letters are an error, as are date fields applied to a time-only
//! value.

use icu_calendar::Gregorian;
use icu_datetime::input::{Date as IcuDate, DateTime as IcuDateTime, Time as IcuTime};
use icu_datetime::pattern::{DateTimePattern, DayPeriodNameLength, MonthNameLength, WeekdayNameLength};
use icu_decimal::input::Decimal;
use jiff::civil::{Date, DateTime, Time};
use jiff::tz::Offset;
use jiff::Timestamp;
use serde_json::Value;
use writeable::{TryWriteable, Writeable};

use super::template::type_name;
use super::{invalid, prepared, req_arg, PreparedKind};
use crate::dynamic::{Call, Evaluator};
use crate::functions::FunctionError;
use crate::locale::{DateNames, Localization};

/// A parsed pattern.
#[derive(Debug)]
pub(super) struct Pattern {
    tokens: Vec<Token>,
}

#[derive(Debug)]
enum Token {
    Literal(String),
    /// A numeric field, zero-padded to `count` digits.
    Number {
        letter: u8,
        count: usize,
    },
    /// A name (month, weekday, day period), formatted by ICU4X from a one-field pattern.
    Name {
        letter: u8,
        names: DateNames,
        pattern: Box<DateTimePattern>,
    },
}

/// The token for `count` repetitions of `letter` (a letter the pattern accepts).
fn field(letter: u8, count: usize) -> Result<Token, String> {
    let (names, icu) = match (letter, count) {
        (b'M', 3) => (DateNames::Month(MonthNameLength::Abbreviated), "MMM"),
        (b'M', 4) => (DateNames::Month(MonthNameLength::Wide), "MMMM"),
        (b'M', _) if count >= 5 => (DateNames::Month(MonthNameLength::Narrow), "MMMMM"),
        (b'L', 3) => (DateNames::Month(MonthNameLength::StandaloneAbbreviated), "LLL"),
        (b'L', 4) => (DateNames::Month(MonthNameLength::StandaloneWide), "LLLL"),
        (b'L', _) if count >= 5 => (DateNames::Month(MonthNameLength::StandaloneNarrow), "LLLLL"),
        (b'E', 1..=3) => (DateNames::Weekday(WeekdayNameLength::Abbreviated), "EEE"),
        (b'E', 4) => (DateNames::Weekday(WeekdayNameLength::Wide), "EEEE"),
        (b'E', 5) => (DateNames::Weekday(WeekdayNameLength::Narrow), "EEEEE"),
        (b'E', _) => (DateNames::Weekday(WeekdayNameLength::Short), "EEEEEE"),
        (b'a', 1..=3) => (DateNames::DayPeriod(DayPeriodNameLength::Abbreviated), "a"),
        (b'a', 4) => (DateNames::DayPeriod(DayPeriodNameLength::Wide), "aaaa"),
        (b'a', _) => (DateNames::DayPeriod(DayPeriodNameLength::Narrow), "aaaaa"),
        _ => return Ok(Token::Number { letter, count }),
    };
    let pattern = icu.parse::<DateTimePattern>().map_err(|e| format!("pattern field {icu}: {e}"))?;
    Ok(Token::Name { letter, names, pattern: Box::new(pattern) })
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
                tokens.push(field(b, i - start)?);
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

    fn format(&self, value: &Moment, localization: &Localization) -> Result<String, String> {
        let mut out = String::new();
        for token in &self.tokens {
            match token {
                Token::Literal(t) => out.push_str(t),
                Token::Number { letter, count } => value.write_number(&mut out, localization, *letter, *count)?,
                Token::Name { letter, names, pattern } => {
                    value.write_name(&mut out, localization, *letter, *names, pattern)?
                }
            }
        }
        Ok(out)
    }
}

/// A parsed value: a date, a time of day, or both; with the offset it was written with, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Moment {
    date: Option<Date>,
    time: Option<Time>,
    offset: Option<Offset>,
}

impl Moment {
    /// The moment as the user's clock shows it: an instant (a date-time with an offset)
    /// converted to `zone`, anything else as written.
    fn in_zone(self, zone: &jiff::tz::TimeZone) -> Result<Moment, String> {
        let (Some(date), Some(time), Some(offset)) = (self.date, self.time, self.offset) else {
            return Ok(self);
        };
        let instant = offset.to_timestamp(DateTime::from_parts(date, time)).map_err(|e| e.to_string())?;
        Ok(Moment::at(instant, zone))
    }

    fn at(instant: Timestamp, zone: &jiff::tz::TimeZone) -> Moment {
        let local = zone.to_datetime(instant);
        Moment { date: Some(local.date()), time: Some(local.time()), offset: None }
    }

    fn date(&self, letter: u8) -> Result<Date, String> {
        self.date.ok_or_else(|| format!("pattern letter '{}' needs a date, the value is a time", letter as char))
    }

    /// Writes a numeric field in the locale's digits, zero-padded to `count`.
    fn write_number(
        &self,
        out: &mut String,
        localization: &Localization,
        letter: u8,
        count: usize,
    ) -> Result<(), String> {
        // A date without a time is midnight.
        let time = self.time.unwrap_or(Time::midnight());
        let hour = i64::from(time.hour());
        let n = match letter {
            b'y' => {
                let year = i64::from(self.date(letter)?.year());
                if count == 2 {
                    year.rem_euclid(100)
                } else {
                    year
                }
            }
            b'M' | b'L' => i64::from(self.date(letter)?.month()),
            b'd' => i64::from(self.date(letter)?.day()),
            b'D' => i64::from(self.date(letter)?.day_of_year()),
            b'h' => (hour + 11) % 12 + 1,
            b'H' => hour,
            b'K' => hour % 12,
            b'k' => {
                if hour == 0 {
                    24
                } else {
                    hour
                }
            }
            b'm' => i64::from(time.minute()),
            b's' => i64::from(time.second()),
            b'S' => {
                // Fraction of a second, truncated to `count` digits (zeros past nanoseconds).
                let digits = count.min(9);
                let nanos = i64::from(time.subsec_nanosecond());
                push_padded(out, localization, nanos / 10i64.pow(9 - digits as u32), digits);
                if count > digits {
                    let mut zero = String::new();
                    push_padded(&mut zero, localization, 0, 1);
                    out.push_str(&zero.repeat(count - digits));
                }
                return Ok(());
            }
            other => return Err(format!("unsupported pattern letter '{}'", other as char)),
        };
        push_padded(out, localization, n, count);
        Ok(())
    }

    /// Writes a month, weekday or day period name through ICU4X.
    fn write_name(
        &self,
        out: &mut String,
        localization: &Localization,
        letter: u8,
        which: DateNames,
        pattern: &DateTimePattern,
    ) -> Result<(), String> {
        let date = match (self.date, letter) {
            (Some(date), _) => date,
            // A day period of a time-only value: any date gives the same name.
            (None, b'a') => Date::constant(1970, 1, 1),
            (None, _) => self.date(letter)?,
        };
        let time = self.time.unwrap_or(Time::midnight());
        let input = IcuDateTime {
            date: IcuDate::try_new_gregorian(i32::from(date.year()), date.month() as u8, date.day() as u8)
                .map_err(|e| e.to_string())?,
            time: IcuTime::try_new(
                time.hour() as u8,
                time.minute() as u8,
                time.second() as u8,
                time.subsec_nanosecond() as u32,
            )
            .map_err(|e| e.to_string())?,
        };
        let names = localization.date_names(which)?;
        let formatted = names.with_pattern_unchecked(pattern).format::<IcuDateTime<Gregorian>>(&input);
        match formatted.try_write_to(out) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("cannot format {which:?}: {e}")),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// `n` in the locale's digits (no grouping), zero-padded to `width` digits.
fn push_padded(out: &mut String, localization: &Localization, n: i64, width: usize) {
    let mut decimal = Decimal::from(n);
    decimal.absolute.pad_start(i16::try_from(width).unwrap_or(i16::MAX));
    // Writing to a String cannot fail.
    let _ = localization.decimal(false).format(&decimal).write_to(out);
}

pub(super) fn format_date(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    if is_iso_format(call, ev) {
        return format_iso(call, ev);
    }
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
    let localization = ev.localization();
    let zone = localization.zone();
    let moment = match &*value {
        Value::Null => return Ok(Value::String(String::new())),
        Value::String(s) if s.trim().is_empty() => return Ok(Value::String(String::new())),
        // A calendar date written right but not on the calendar (`2026-02-30`, `2026-13-01`)
        // shows as nothing, as an absent one does; it never rolls over into the next month or
        // year. A time off the clock is still an error.
        Value::String(s) if parse_iso(s.trim()).is_none() && is_date_shaped(s.trim()) => {
            return Ok(Value::String(String::new()))
        }
        Value::String(s) => parse_iso(s.trim())
            .ok_or_else(|| invalid(&call.name, format!("invalid date {s:?}")))?
            .in_zone(zone)
            .map_err(|e| invalid(&call.name, format!("date {s:?} out of range: {e}")))?,
        Value::Number(n) => n
            .as_f64()
            .and_then(epoch_millis)
            .map(|instant| Moment::at(instant, zone))
            .ok_or_else(|| invalid(&call.name, format!("timestamp {n} is out of range")))?,
        other => return Err(invalid(&call.name, format!("`value` must be a date string, got {}", type_name(other)))),
    };
    pattern.format(&moment, localization).map(Value::String).map_err(|e| invalid(&call.name, e))
}

/// The format `"ISO"` (no TR35 pattern: `I` is no pattern letter), which the conformance suite
/// uses for the normalised ISO 8601 form (`toISOString`).
fn is_iso_format(call: &Call, ev: &mut dyn Evaluator) -> bool {
    match call.arg("format") {
        Some(crate::dynamic::Dynamic::Literal(Value::String(format))) => format == "ISO",
        Some(crate::dynamic::Dynamic::Literal(_)) | None => false,
        Some(bound) => ev.eval(bound) == Value::String("ISO".into()),
    }
}

/// `"ISO"`: the instant in UTC with milliseconds, `2026-08-26T12:00:00.000Z`, as JavaScript's
/// `toISOString` writes it. A date or date-time without an offset is read in UTC (never in the
/// surface's zone, so the text names the instant the agent wrote); a time of day has no date
/// and is an error. `null` and `""` give `""`, as every format does.
fn format_iso(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let value = req_arg(call, "value", ev)?;
    let instant = match &*value {
        Value::Null => return Ok(Value::String(String::new())),
        Value::String(s) if s.trim().is_empty() => return Ok(Value::String(String::new())),
        Value::String(s) => {
            let moment = parse_iso(s.trim()).ok_or_else(|| invalid(&call.name, format!("invalid date {s:?}")))?;
            let date = moment.date.ok_or_else(|| invalid(&call.name, format!("{s:?} is a time of day, not a date")))?;
            let at = DateTime::from_parts(date, moment.time.unwrap_or(Time::midnight()));
            moment.offset.unwrap_or(Offset::UTC).to_timestamp(at).map_err(|e| invalid(&call.name, e.to_string()))?
        }
        Value::Number(n) => n
            .as_f64()
            .and_then(epoch_millis)
            .ok_or_else(|| invalid(&call.name, format!("timestamp {n} is out of range")))?,
        other => return Err(invalid(&call.name, format!("`value` must be a date string, got {}", type_name(other)))),
    };
    let utc = Offset::UTC.to_datetime(instant);
    Ok(Value::String(format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        utc.year(),
        utc.month(),
        utc.day(),
        utc.hour(),
        utc.minute(),
        utc.second(),
        utc.subsec_nanosecond() / 1_000_000
    )))
}

/// `YYYY-MM-DD` and nothing else: the shape of an ISO calendar date, whatever its numbers.
fn is_date_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10 && b[4] == b'-' && b[7] == b'-' && [0, 1, 2, 3, 5, 6, 8, 9].iter().all(|&i| b[i].is_ascii_digit())
}

fn epoch_millis(ms: f64) -> Option<Timestamp> {
    // Beyond jiff's range (years -9999..=9999) anyway; keeps the product in an i128 easily.
    if !ms.is_finite() || ms.abs() > 1e16 {
        return None;
    }
    Timestamp::from_nanosecond((ms * 1e6).round() as i128).ok()
}

/// Parses the ISO 8601 forms listed in the module docs.
pub(super) fn parse_iso(s: &str) -> Option<Moment> {
    let b = s.as_bytes();
    if b.len() >= 10 && b[4] == b'-' && b[7] == b'-' {
        let date = parse_date(&b[..10])?;
        if b.len() == 10 {
            return Some(Moment { date: Some(date), time: None, offset: None });
        }
        if !matches!(b[10], b'T' | b't' | b' ') {
            return None;
        }
        let (time, offset) = parse_time_with_offset(&b[11..])?;
        return Some(Moment { date: Some(date), time: Some(time), offset });
    }
    let (time, offset) = parse_time_with_offset(b)?;
    Some(Moment { date: None, time: Some(time), offset })
}

fn num(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    b.iter().try_fold(0u32, |acc, d| acc.checked_mul(10)?.checked_add(u32::from(d - b'0')))
}

fn parse_date(b: &[u8]) -> Option<Date> {
    let year = i16::try_from(num(&b[0..4])?).ok()?;
    let month = i8::try_from(num(&b[5..7])?).ok()?;
    let day = i8::try_from(num(&b[8..10])?).ok()?;
    Date::new(year, month, day).ok()
}

/// `HH:MM[:SS[.fraction]]` followed by an optional offset.
fn parse_time_with_offset(b: &[u8]) -> Option<(Time, Option<Offset>)> {
    let offset_at = b.iter().position(|&c| matches!(c, b'Z' | b'z' | b'+' | b'-')).unwrap_or(b.len());
    let (clock, offset) = b.split_at(offset_at);
    let offset = if offset.is_empty() { None } else { Some(parse_offset(offset)?) };
    if clock.len() < 5 || clock[2] != b':' {
        return None;
    }
    let hour = i8::try_from(num(&clock[0..2])?).ok()?;
    let minute = i8::try_from(num(&clock[3..5])?).ok()?;
    let (mut second, mut nanos) = (0i8, 0i32);
    let rest = &clock[5..];
    if !rest.is_empty() {
        if rest.len() < 3 || rest[0] != b':' {
            return None;
        }
        second = i8::try_from(num(&rest[1..3])?).ok()?;
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
            nanos = i32::try_from(num(kept)? * 10u32.pow(9 - kept.len() as u32)).ok()?;
        }
    }
    Some((Time::new(hour, minute, second, nanos).ok()?, offset))
}

/// `Z`, `±HH`, `±HHMM` or `±HH:MM`, hours up to 23.
fn parse_offset(b: &[u8]) -> Option<Offset> {
    if b == b"Z" || b == b"z" {
        return Some(Offset::UTC);
    }
    let (hours, minutes) = match b.len() {
        3 => (&b[1..3], &b"00"[..]),
        5 => (&b[1..3], &b[3..5]),
        6 if b[3] == b':' => (&b[1..3], &b[4..6]),
        _ => return None,
    };
    let (hours, minutes) = (num(hours)?, num(minutes)?);
    if hours > 23 || minutes > 59 {
        return None;
    }
    let seconds = i32::try_from(hours * 3600 + minutes * 60).ok()?;
    let sign = match b[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    Offset::from_seconds(sign * seconds).ok()
}
