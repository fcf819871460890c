//! `formatString`: `${expression}` interpolation.
//!
//! Grammar (whitespace allowed around tokens inside `${ }`):
//! ```text
//! template   = { text | "\${" | "${" expr "}" }
//! expr       = "${" expr "}"                      nested interpolation
//!            | "'" chars "'" | '"' chars '"'      string literal (\' \" \\ \n \t \r escapes)
//!            | number | "true" | "false" | "null"
//!            | ident "(" [ arg { "," arg } ] ")"  function call
//!            | path                               absolute `/a/b` or relative `a/b`
//! arg        = ident ":" expr | expr              positional args take the parameter order
//! ```
//! A path runs until whitespace or one of `{ } ( ) , ' "`, so keys with those characters need an
//! explicit binding instead. `\${` is a literal `${`; any other backslash is kept as is.
//! A `${` whose expression does not parse stays literal text up to the point where parsing
//! failed, and scanning resumes there (so parsing is linear and later interpolations still work).
//! An empty `${}` interpolates nothing.

use serde_json::Value;

use super::{eval_dynamic, evaluate, invalid, positional_params, prepare, prepared, push_coerced, PreparedKind};
use crate::dynamic::{Call, Dynamic, Evaluator};
use crate::functions::FunctionError;

/// Deepest `${` / call nesting inside one template.
const MAX_TEMPLATE_DEPTH: usize = 32;

/// A parsed template: literal text and the expressions between it.
#[derive(Debug)]
pub(super) struct Template {
    parts: Vec<Part>,
    /// Total length of the literal text, to size the output once.
    text_len: usize,
}

#[derive(Debug)]
enum Part {
    Text(String),
    Path(String),
    Call(Box<Call>),
}

/// A parsed expression before it becomes a template part or a call argument.
enum Expr {
    Literal(Value),
    Path(String),
    Call(Call),
}

impl Expr {
    fn into_dynamic(self) -> Dynamic {
        match self {
            Expr::Literal(v) => Dynamic::Literal(v),
            Expr::Path(p) => Dynamic::Path(p),
            Expr::Call(c) => Dynamic::Call(Box::new(c)),
        }
    }
}

/// `formatString(value)`: a string template; `null` formats as `""`.
pub(super) fn format_string(call: &Call, ev: &mut dyn Evaluator) -> Result<Value, FunctionError> {
    if let Some(PreparedKind::Template(t)) = prepared(call) {
        return t.render(ev).map(Value::String);
    }
    let Some(arg) = call.arg("value") else {
        return Err(invalid(&call.name, "missing argument `value`"));
    };
    match &*eval_dynamic(arg, ev) {
        Value::String(s) => Template::parse(s).render(ev).map(Value::String),
        Value::Null => Ok(Value::String(String::new())),
        other => Err(invalid(&call.name, format!("`value` must be a string, got {}", type_name(other)))),
    }
}

pub(super) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Template {
    pub(super) fn parse(src: &str) -> Template {
        let bytes = src.as_bytes();
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut text_len = 0;
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\\' && bytes[i + 1..].starts_with(b"${") {
                text.push_str("${");
                i += 3;
                continue;
            }
            if bytes[i..].starts_with(b"${") {
                let mut p = Parser { src, bytes, pos: i + 2 };
                match p.interpolation(0) {
                    Ok(expr) => {
                        i = p.pos;
                        match expr {
                            // A literal expression is constant: fold it into the text.
                            Expr::Literal(v) => push_coerced(&mut text, &v),
                            Expr::Path(path) => {
                                flush(&mut parts, &mut text, &mut text_len);
                                parts.push(Part::Path(path));
                            }
                            Expr::Call(call) => {
                                flush(&mut parts, &mut text, &mut text_len);
                                parts.push(Part::Call(Box::new(call)));
                            }
                        }
                    }
                    Err(fail) => {
                        text.push_str(&src[i..fail]);
                        i = fail;
                    }
                }
                continue;
            }
            // Plain text up to the next byte that may start an escape or an interpolation (both
            // ASCII, so the slice ends on a char boundary).
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b'\\' && bytes[i] != b'$' {
                i += 1;
            }
            text.push_str(&src[start..i]);
        }
        flush(&mut parts, &mut text, &mut text_len);
        Template { parts, text_len }
    }

    fn render(&self, ev: &mut dyn Evaluator) -> Result<String, FunctionError> {
        let dynamic_parts = self.parts.len().saturating_sub(1);
        let mut out = String::with_capacity(self.text_len + 8 * dynamic_parts);
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Path(p) => push_coerced(&mut out, &ev.read_path(p)),
                Part::Call(c) => push_coerced(&mut out, &evaluate(c, ev)?),
            }
        }
        Ok(out)
    }
}

fn flush(parts: &mut Vec<Part>, text: &mut String, text_len: &mut usize) {
    if !text.is_empty() {
        *text_len += text.len();
        parts.push(Part::Text(std::mem::take(text)));
    }
}

/// Recursive-descent parser over one interpolation. Errors carry the byte offset where parsing
/// failed (always a char boundary: the parser stops only at ASCII bytes or the end).
struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

type Parsed<T> = Result<T, usize>;

fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b',' | b'\'' | b'"')
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn at_delimiter_or_end(&self) -> bool {
        self.peek().is_none_or(is_delimiter)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn fail<T>(&self) -> Parsed<T> {
        Err(self.pos)
    }

    /// After `${`: an expression and the closing `}`.
    fn interpolation(&mut self, depth: usize) -> Parsed<Expr> {
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Expr::Literal(Value::Null));
        }
        let expr = self.expr(depth)?;
        self.skip_ws();
        if self.peek() != Some(b'}') {
            return self.fail();
        }
        self.pos += 1;
        Ok(expr)
    }

    fn expr(&mut self, depth: usize) -> Parsed<Expr> {
        if depth >= MAX_TEMPLATE_DEPTH {
            return self.fail();
        }
        let Some(b) = self.peek() else { return self.fail() };
        if self.bytes[self.pos..].starts_with(b"${") {
            self.pos += 2;
            return self.interpolation(depth + 1);
        }
        if b == b'\'' || b == b'"' {
            return self.string(b).map(|s| Expr::Literal(Value::String(s)));
        }
        let start = self.pos;
        if b.is_ascii_digit() || (b == b'-' && self.bytes.get(self.pos + 1).is_some_and(u8::is_ascii_digit)) {
            if let Some(n) = self.number() {
                return Ok(Expr::Literal(n));
            }
            self.pos = start;
        } else if is_ident_start(b) {
            while self.peek().is_some_and(is_ident) {
                self.pos += 1;
            }
            let ident_end = self.pos;
            self.skip_ws();
            if self.peek() == Some(b'(') {
                let name = &self.src[start..ident_end];
                return self.call(name, depth).map(Expr::Call);
            }
            self.pos = ident_end;
            if self.at_delimiter_or_end() {
                match &self.src[start..ident_end] {
                    "true" => return Ok(Expr::Literal(Value::Bool(true))),
                    "false" => return Ok(Expr::Literal(Value::Bool(false))),
                    "null" => return Ok(Expr::Literal(Value::Null)),
                    _ => {}
                }
            }
            self.pos = start;
        }
        // A path: everything up to a delimiter.
        while !self.at_delimiter_or_end() {
            self.pos += 1;
        }
        if self.pos == start {
            return self.fail();
        }
        Ok(Expr::Path(self.src[start..self.pos].to_owned()))
    }

    /// A JSON-style number followed by a delimiter; `None` (caller rewinds) otherwise.
    fn number(&mut self) -> Option<Value> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.peek().is_some_and(|b| b.is_ascii_digit()) {
                p.pos += 1;
            }
            p.pos > s
        };
        if !digits(self) {
            return None;
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        if !self.at_delimiter_or_end() {
            return None;
        }
        let text = &self.src[start..self.pos];
        if let Ok(i) = text.parse::<i64>() {
            return Some(Value::from(i));
        }
        let f = text.parse::<f64>().ok().filter(|f| f.is_finite())?;
        serde_json::Number::from_f64(f).map(Value::Number)
    }

    /// A quoted string starting at the quote `q`.
    fn string(&mut self, q: u8) -> Parsed<String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while self.peek().is_some_and(|b| b != q && b != b'\\') {
                self.pos += 1;
            }
            out.push_str(&self.src[start..self.pos]);
            match self.peek() {
                None => return self.fail(),
                Some(b) if b == q => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(_) => {
                    // Backslash escape.
                    self.pos += 1;
                    let Some(c) = self.src[self.pos..].chars().next() else { return self.fail() };
                    self.pos += c.len_utf8();
                    out.push(match c {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        other => other,
                    });
                }
            }
        }
    }

    /// `name(` ... `)`; `self.pos` is at the `(`.
    fn call(&mut self, name: &str, depth: usize) -> Parsed<Call> {
        self.pos += 1;
        self.skip_ws();
        let mut args: Vec<(String, Dynamic)> = Vec::new();
        let params = positional_params(name);
        let mut positional = 0;
        if self.peek() == Some(b')') {
            self.pos += 1;
        } else {
            loop {
                let arg_name = self.arg_name();
                self.skip_ws();
                let value = self.expr(depth + 1)?.into_dynamic();
                let arg_name = arg_name.unwrap_or_else(|| {
                    let n = params.get(positional).map_or_else(|| positional.to_string(), |p| (*p).to_owned());
                    positional += 1;
                    n
                });
                args.push((arg_name, value));
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                    }
                    Some(b')') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return self.fail(),
                }
            }
        }
        let prepared = prepare(name, &args);
        Ok(Call { name: name.to_owned(), args, return_type: None, prepared })
    }

    /// `ident :` consumed and returned, or nothing consumed.
    fn arg_name(&mut self) -> Option<String> {
        let start = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        while self.peek().is_some_and(is_ident) {
            self.pos += 1;
        }
        let end = self.pos;
        self.skip_ws();
        if self.peek() == Some(b':') {
            self.pos += 1;
            return Some(self.src[start..end].to_owned());
        }
        self.pos = start;
        None
    }
}
