//! `formatNumber`, `formatCurrency` and the number-to-string coercion.
//!
//! Numbers are formatted by ICU4X (`icu_decimal`) for the surface's locale: its digits, decimal
//! and grouping separators, grouping sizes and minus sign (`1,234.5` in en-US, `1.234,5` in
//! de-DE, `1 234,5` in fr-FR, `١٬٢٣٤٫٥` in ar-EG). The rounding is done here, before ICU4X
//! sees the digits: half away from zero, applied to the shortest decimal representation that
//! round-trips the number (what ICU / `Intl.NumberFormat` do), so `1.005` with 2 decimals is
//! `1.01` even though the nearest double is slightly below it. A result that rounds to zero has
//! no minus sign.
//!
//! Currency: ICU4X 2.x formats currencies only in `icu_experimental`, whose API and data may
//! change in any release, and no stable ICU4X crate carries CLDR's currency symbols or currency
//! patterns. So the amount is formatted by the stable decimal formatter and the currency is named
//! by its ISO 4217 code before it, `EUR 1.234,50` in de-DE. The en-US symbols this function
//! always showed (`$1,234.50`, `€1,234.50`) stay for en-US (and `en` without a region), the
//! locale they are right for. Decimals default to the currency's ISO 4217 minor unit.
//!
//! The number-to-string coercion (`formatString`'s `${/n}`) is locale-neutral, as the spec's
//! type conversion requires.

use std::fmt::Write as _;

use fixed_decimal::{Sign, SignedRoundingMode, UnsignedRoundingMode};
use icu_decimal::input::Decimal;
use serde_json::{Number, Value};
use writeable::Writeable;

use super::template::type_name;
use super::{as_number, invalid, opt_arg, req_arg};
use crate::dynamic::{Call, Evaluator};
use crate::functions::FunctionError;
use crate::locale::Localization;

/// Most decimals a caller may ask for.
const MAX_DECIMALS: u64 = 20;

/// Default fraction digits of `formatNumber` without `decimals` (`Intl.NumberFormat`'s default
/// for every locale).
const DEFAULT_MAX_FRACTION: usize = 3;

/// Appends a number the way JavaScript's `String(n)` prints it: integral values without a
/// fraction, `1e+21` and `1e-7` in exponent form beyond the plain range.
pub(super) fn push_js_number(out: &mut String, n: &Number) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(f) = n.as_f64() {
        push_js_f64(out, f);
    }
}

fn push_js_f64(out: &mut String, f: f64) {
    if f == 0.0 {
        out.push('0');
        return;
    }
    let abs = f.abs();
    if (1e-6..1e21).contains(&abs) {
        // Rust's `Display` prints the shortest round-trip digits without an exponent.
        let _ = write!(out, "{f}");
    } else {
        // Shortest digits with an exponent, e.g. "1e21" / "1.5e-7"; JavaScript writes "e+".
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => {
                out.push_str(mantissa);
                out.push_str("e+");
                out.push_str(exp);
            }
            _ => out.push_str(&s),
        }
    }
}

/// The amount to format: `None` for null (formats as `""`, e.g. while data is still streaming).
fn amount(call: &Call, ev: &mut dyn Evaluator) -> Result<Option<Decimal>, FunctionError> {
    let value = req_arg(call, "value", ev)?;
    match &*value {
        Value::Null => Ok(None),
        Value::Number(n) => Ok(Some(decimal_of_number(n))),
        v @ Value::String(_) => match as_number(v) {
            Some(f) => Ok(Some(decimal_of_f64(f))),
            None => Err(invalid(&call.name, "`value` is not a number")),
        },
        other => Err(invalid(&call.name, format!("`value` must be a number, got {}", type_name(other)))),
    }
}

/// A JSON number as exact decimal digits: integers as they are, floats as their shortest
/// round-trip representation.
pub(super) fn decimal_of_number(n: &Number) -> Decimal {
    if let Some(i) = n.as_i64() {
        return Decimal::from(i);
    }
    if let Some(u) = n.as_u64() {
        return Decimal::from(u);
    }
    decimal_of_f64(n.as_f64().unwrap_or(0.0))
}

pub(super) fn decimal_of_f64(f: f64) -> Decimal {
    // `Display` gives the shortest round-trip digits and never an exponent; JSON numbers are
    // finite, so the text always parses.
    Decimal::try_from_str(&format!("{f}")).unwrap_or_default()
}

/// Optional `decimals`: a non-negative integer up to 20; null counts as absent.
fn decimals(call: &Call, ev: &mut dyn Evaluator) -> Result<Option<usize>, FunctionError> {
    let Some(value) = opt_arg(call, "decimals", ev) else { return Ok(None) };
    match &*value {
        Value::Null => Ok(None),
        Value::Number(n) => {
            let d = n.as_u64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64));
            match d {
                Some(d) if d <= MAX_DECIMALS => Ok(Some(d as usize)),
                _ => Err(invalid(&call.name, format!("`decimals` must be an integer from 0 to {MAX_DECIMALS}"))),
            }
        }
        other => Err(invalid(&call.name, format!("`decimals` must be a number, got {}", type_name(other)))),
    }
}

/// Optional `grouping` (default true); null counts as absent.
fn grouping(call: &Call, ev: &mut dyn Evaluator) -> Result<bool, FunctionError> {
    let Some(value) = opt_arg(call, "grouping", ev) else { return Ok(true) };
    match &*value {
        Value::Null => Ok(true),
        Value::Bool(b) => Ok(*b),
        other => Err(invalid(&call.name, format!("`grouping` must be a boolean, got {}", type_name(other)))),
    }
}

/// Rounds half away from zero to at most `max` fraction digits and keeps at least `min`
/// (trailing zeros beyond `min` are dropped); a result of zero loses its sign.
fn round(mut amount: Decimal, min: usize, max: usize) -> Decimal {
    // Both are at most MAX_DECIMALS.
    let (min, max) = (min as i16, max as i16);
    amount.round_with_mode(-max, SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand));
    amount.absolute.pad_end(-min);
    if amount.absolute.is_zero() {
        amount.sign = Sign::None;
    }
    amount
}

/// `formatNumber(value, decimals?, grouping?)`: without `decimals`, up to 3 fraction digits with
/// trailing zeros dropped; with `decimals`, exactly that many. In the surface's locale.
pub(super) fn format_number(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let amount = amount(call, ev)?;
    let decimals = decimals(call, ev)?;
    let grouping = grouping(call, ev)?;
    let Some(amount) = amount else { return Ok(Value::String(String::new())) };
    let (min, max) = match decimals {
        Some(d) => (d, d),
        None => (0, DEFAULT_MAX_FRACTION),
    };
    let rounded = round(amount, min, max);
    let formatted = ev.localization().decimal(grouping).format(&rounded).write_to_string().into_owned();
    Ok(Value::String(formatted))
}

/// `formatCurrency(value, currency, decimals?, grouping?)`: see the module notes for how the
/// currency is shown; decimals default to the currency's minor unit.
pub(super) fn format_currency(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let amount = amount(call, ev)?;
    let code = req_arg(call, "currency", ev)?;
    let Value::String(code) = &*code else {
        return Err(invalid(&call.name, format!("`currency` must be a string, got {}", type_name(&code))));
    };
    let code = code.trim();
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(invalid(&call.name, format!("`currency` must be an ISO 4217 code, got {code:?}")));
    }
    let code = code.to_ascii_uppercase();
    let decimals = decimals(call, ev)?;
    let grouping = grouping(call, ev)?;
    let Some(amount) = amount else { return Ok(Value::String(String::new())) };
    let d = decimals.unwrap_or_else(|| minor_units(&code));
    let rounded = round(amount, d, d);
    let localization = ev.localization();
    let formatter = localization.decimal(grouping);
    let mut prefix = String::new();
    match en_us_symbol(localization, &code) {
        Some(symbol) => prefix.push_str(symbol),
        None => {
            prefix.push_str(&code);
            prefix.push(' ');
        }
    }
    // The locale's minus sign (with any bidi marks around it) goes before the currency, as in
    // `-$5.00`: format the magnitude, and take what the signed form adds in front of it.
    let magnitude = Decimal::new(Sign::None, rounded.absolute.clone());
    let digits = formatter.format(&magnitude).write_to_string().into_owned();
    let signed = formatter.format(&rounded).write_to_string().into_owned();
    let mut out = String::with_capacity(signed.len() + prefix.len());
    match signed.strip_suffix(digits.as_str()) {
        Some(sign) => {
            out.push_str(sign);
            out.push_str(&prefix);
            out.push_str(&digits);
        }
        // A locale whose sign follows the number.
        None => {
            out.push_str(&prefix);
            out.push_str(&signed);
        }
    }
    Ok(Value::String(out))
}

/// The symbols `Intl.NumberFormat("en-US")` shows for common currencies, used only when the
/// locale is English for the United States (`en-US`, or `en` alone, which CLDR resolves to it).
fn en_us_symbol(localization: &Localization, code: &str) -> Option<&'static str> {
    let id = &localization.icu_locale().id;
    let us_english = id.language.as_str() == "en" && id.region.is_none_or(|r| r.as_str() == "US");
    if !us_english {
        return None;
    }
    Some(match code {
        "USD" => "$",
        "EUR" => "€",
        "GBP" => "£",
        "JPY" => "¥",
        "CNY" => "CN¥",
        "KRW" => "₩",
        "INR" => "₹",
        "CAD" => "CA$",
        "AUD" => "A$",
        "NZD" => "NZ$",
        "HKD" => "HK$",
        "TWD" => "NT$",
        "MXN" => "MX$",
        "BRL" => "R$",
        "ILS" => "₪",
        "VND" => "₫",
        "PHP" => "₱",
        _ => return None,
    })
}

/// ISO 4217 minor units: 2 unless listed.
fn minor_units(code: &str) -> usize {
    match code {
        "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX" | "UYI" | "VND"
        | "VUV" | "XAF" | "XOF" | "XPF" => 0,
        "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
        _ => 2,
    }
}
