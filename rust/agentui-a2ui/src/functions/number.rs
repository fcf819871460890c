//! `formatNumber`, `formatCurrency` and the number-to-string coercion. Locale: en-US (`,` groups
//! of three, `.` decimal point).
//!
//! Rounding is half away from zero, applied to the shortest decimal representation that
//! round-trips the number (what ICU / `Intl.NumberFormat` do), so `1.005` with 2 decimals is
//! `1.01` even though the nearest double is slightly below it. A result that rounds to zero has
//! no minus sign.

use std::fmt::Write as _;

use serde_json::{Number, Value};

use super::template::type_name;
use super::{as_number, invalid, opt_arg, req_arg};
use crate::dynamic::{Call, Evaluator};
use crate::functions::FunctionError;

/// Most decimals a caller may ask for.
const MAX_DECIMALS: u64 = 20;

/// Default fraction digits of `formatNumber` without `decimals` (en-US `Intl.NumberFormat`).
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
        Value::Number(n) => Ok(Some(Decimal::from_number(n))),
        v @ Value::String(_) => match as_number(v) {
            Some(f) => Ok(Some(Decimal::from_f64(f))),
            None => Err(invalid(&call.name, "`value` is not a number")),
        },
        other => Err(invalid(&call.name, format!("`value` must be a number, got {}", type_name(other)))),
    }
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

/// `formatNumber(value, decimals?, grouping?)`: without `decimals`, up to 3 fraction digits with
/// trailing zeros dropped (en-US default); with `decimals`, exactly that many.
pub(super) fn format_number(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    let amount = amount(call, ev)?;
    let decimals = decimals(call, ev)?;
    let grouping = grouping(call, ev)?;
    let Some(amount) = amount else { return Ok(Value::String(String::new())) };
    let (min, max) = match decimals {
        Some(d) => (d, d),
        None => (0, DEFAULT_MAX_FRACTION),
    };
    let mut out = String::new();
    amount.write(&mut out, "", min, max, grouping);
    Ok(Value::String(out))
}

/// `formatCurrency(value, currency, decimals?, grouping?)`: `-$1,234.50` for known symbols,
/// `CHF 1,234.50` (code and a space) otherwise; decimals default to the currency's minor unit.
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
    let mut prefix = String::new();
    match symbol(&code) {
        Some(s) => prefix.push_str(s),
        None => {
            prefix.push_str(&code);
            prefix.push(' ');
        }
    }
    let mut out = String::new();
    amount.write(&mut out, &prefix, d, d, grouping);
    Ok(Value::String(out))
}

/// en-US symbols for common currencies (as `Intl.NumberFormat("en-US")` shows them).
fn symbol(code: &str) -> Option<&'static str> {
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

/// A number as its decimal digits (sign apart), ready for rounding without float error.
struct Decimal {
    negative: bool,
    int: Vec<u8>,
    frac: Vec<u8>,
}

impl Decimal {
    fn from_number(n: &Number) -> Decimal {
        if let Some(i) = n.as_i64() {
            return Decimal::from_digits(i < 0, &i.unsigned_abs().to_string());
        }
        if let Some(u) = n.as_u64() {
            return Decimal::from_digits(false, &u.to_string());
        }
        Decimal::from_f64(n.as_f64().unwrap_or(0.0))
    }

    fn from_f64(f: f64) -> Decimal {
        // `Display` gives the shortest round-trip digits and never uses an exponent.
        Decimal::from_digits(f.is_sign_negative(), &format!("{}", f.abs()))
    }

    fn from_digits(negative: bool, s: &str) -> Decimal {
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        Decimal { negative, int: int.as_bytes().to_vec(), frac: frac.as_bytes().to_vec() }
    }

    /// Writes `[-]prefix digits` with between `min` and `max` fraction digits.
    fn write(mut self, out: &mut String, prefix: &str, min: usize, max: usize, grouping: bool) {
        if self.frac.len() > max {
            let round_up = self.frac[max] >= b'5';
            self.frac.truncate(max);
            if round_up && carry(&mut self.frac) && carry(&mut self.int) {
                self.int.insert(0, b'1');
            }
        }
        while self.frac.len() > min && self.frac.last() == Some(&b'0') {
            self.frac.pop();
        }
        self.frac.resize(self.frac.len().max(min), b'0');
        let first_nonzero = self.int.iter().position(|&d| d != b'0');
        let int: &[u8] = match first_nonzero {
            Some(i) => &self.int[i..],
            None => b"0",
        };
        let is_zero = first_nonzero.is_none() && self.frac.iter().all(|&d| d == b'0');
        if self.negative && !is_zero {
            out.push('-');
        }
        out.push_str(prefix);
        for (i, &d) in int.iter().enumerate() {
            if grouping && i > 0 && (int.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(d as char);
        }
        if !self.frac.is_empty() {
            out.push('.');
            out.extend(self.frac.iter().map(|&d| d as char));
        }
    }
}

/// Adds one to the last digit; true when the carry runs out of the front.
fn carry(digits: &mut [u8]) -> bool {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return false;
        }
    }
    true
}
