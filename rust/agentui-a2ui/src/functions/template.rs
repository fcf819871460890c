//! `formatString`: `${expression}` interpolation.
//!
//! Grammar (whitespace allowed around tokens inside `${ }`):
//! ```text
//! template   = { text | "\${" | "${" [ expr ] "}" }
//! expr       = "${" expr "}"                      nested interpolation
//!            | "'" chars "'" | '"' chars '"'      string literal (\' \" \\ \n \t \r escapes)
//!            | number | "true" | "false" | "null"
//!            | ident "(" [ arg { "," arg } ] ")"  function call
//!            | path                               absolute `/a/b` or relative `a/b`
//! arg        = ident ":" expr | expr              positional args take the parameter order
//! number     = [ "+" | "-" ] ( digits [ "." [ digits ] ] | "." digits ) [ ( "e" | "E" ) [ "+" | "-" ] digits ]
//! ```
//! A path runs until whitespace or one of `{ } ( ) , ' "`, so keys with those characters need an
//! explicit binding instead. `\${` is a literal `${`; any other backslash is kept as is. A token
//! that starts like a number (a digit, or a sign or `.` before one) and holds only number
//! characters must be a number (`1.2.3` and `1e` are errors); with other characters it is a
//! path (`0/name`). A number outside the double range is an error, one that underflows is zero.
//!
//! A template that does not parse is an error (the conformance suite's parser cases): an
//! unclosed `${`, characters after an expression, a call without its `)` or an argument name
//! without its `:`, a bad number, or nesting (interpolations and call arguments) deeper than
//! [`MAX_TEMPLATE_DEPTH`]. An empty `${}` interpolates nothing. Parsing is one pass, linear in
//! the template's length.

use serde_json::Value;

use super::{eval_dynamic, evaluate, invalid, positional_params, prepare, prepared, push_coerced, PreparedKind};
use crate::dynamic::{Call, Dynamic, Evaluator};
use crate::functions::FunctionError;

/// Deepest nesting of interpolations and call arguments inside one template: the limit of 100
/// the conformance suite says every engine applies.
pub const MAX_TEMPLATE_DEPTH: usize = 100;

/// A template that does not parse: what is wrong, and the byte offset where parsing stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at offset {offset})")]
pub struct TemplateError {
    pub offset: usize,
    pub message: String,
}

/// One part of a parsed template, in order: literal text or an expression's literal value, a
/// data binding, or a function call.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplatePart {
    Literal(Value),
    Path(String),
    Call(Call),
}

/// Parses a `formatString` template into its parts. Text between interpolations is one
/// literal; each interpolation is one part (an empty `${}` none).
pub fn parse_template(src: &str) -> Result<Vec<TemplatePart>, TemplateError> {
    let bytes = src.as_bytes();
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes[i + 1..].starts_with(b"${") {
            text.push_str("${");
            i += 3;
            continue;
        }
        if bytes[i..].starts_with(b"${") {
            if !text.is_empty() {
                parts.push(TemplatePart::Literal(Value::String(std::mem::take(&mut text))));
            }
            let mut p = Parser { src, bytes, pos: i + 2 };
            let expr = p.interpolation(1)?;
            i = p.pos;
            match expr {
                None => {}
                Some(Expr::Literal(v)) => parts.push(TemplatePart::Literal(v)),
                Some(Expr::Path(path)) => parts.push(TemplatePart::Path(path)),
                Some(Expr::Call(call)) => parts.push(TemplatePart::Call(call)),
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
    if !text.is_empty() {
        parts.push(TemplatePart::Literal(Value::String(text)));
    }
    Ok(parts)
}

/// A parsed template ready to render: literal text (constant expressions folded in) and the
/// expressions between it.
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
        return match t {
            Ok(t) => t.render(ev).map(Value::String),
            Err(e) => Err(invalid(&call.name, format!("invalid template: {e}"))),
        };
    }
    let Some(arg) = call.arg("value") else {
        return Err(invalid(&call.name, "missing argument `value`"));
    };
    match &*eval_dynamic(arg, ev) {
        Value::String(s) => match Template::parse(s) {
            Ok(t) => t.render(ev).map(Value::String),
            Err(e) => Err(invalid(&call.name, format!("invalid template: {e}"))),
        },
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
    pub(super) fn parse(src: &str) -> Result<Template, TemplateError> {
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut text_len = 0;
        for part in parse_template(src)? {
            match part {
                // A literal is constant: fold it into the text.
                TemplatePart::Literal(v) => push_coerced(&mut text, &v),
                TemplatePart::Path(path) => {
                    flush(&mut parts, &mut text, &mut text_len);
                    parts.push(Part::Path(path));
                }
                TemplatePart::Call(call) => {
                    flush(&mut parts, &mut text, &mut text_len);
                    parts.push(Part::Call(Box::new(call)));
                }
            }
        }
        flush(&mut parts, &mut text, &mut text_len);
        Ok(Template { parts, text_len })
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

type Parsed<T> = Result<T, TemplateError>;

fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b',' | b'\'' | b'"')
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_number_char(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn at_delimiter_or_end(&self) -> bool {
        self.peek().is_none_or(is_delimiter)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn error<T>(&self, message: impl Into<String>) -> Parsed<T> {
        Err(TemplateError { offset: self.pos, message: message.into() })
    }

    /// What is wrong where an expected byte is missing: the end of the template, or another one.
    fn unexpected<T>(&self, expected: &str) -> Parsed<T> {
        match self.peek() {
            None => self.error("Unclosed interpolation: the template ends before its \"}\""),
            Some(_) => self.error(format!("Unexpected characters: expected {expected}")),
        }
    }

    fn enter(&self, depth: usize) -> Parsed<()> {
        if depth > MAX_TEMPLATE_DEPTH {
            return self.error(format!("Max recursion depth ({MAX_TEMPLATE_DEPTH}) exceeded"));
        }
        Ok(())
    }

    /// After `${`: an expression (none for `${}`) and the closing `}`.
    fn interpolation(&mut self, depth: usize) -> Parsed<Option<Expr>> {
        self.enter(depth)?;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(None);
        }
        let expr = self.expr(depth)?;
        self.skip_ws();
        if self.peek() != Some(b'}') {
            return self.unexpected("\"}\" after the expression");
        }
        self.pos += 1;
        Ok(Some(expr))
    }

    fn expr(&mut self, depth: usize) -> Parsed<Expr> {
        let Some(b) = self.peek() else { return self.unexpected("an expression") };
        if self.bytes[self.pos..].starts_with(b"${") {
            self.pos += 2;
            return Ok(self.interpolation(depth + 1)?.unwrap_or(Expr::Literal(Value::Null)));
        }
        if b == b'\'' || b == b'"' {
            return self.string(b).map(|s| Expr::Literal(Value::String(s)));
        }
        let start = self.pos;
        if self.starts_number() {
            if let Some(n) = self.number()? {
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
            return self.unexpected("an expression");
        }
        Ok(Expr::Path(self.src[start..self.pos].to_owned()))
    }

    /// A digit, or a sign or `.` before one (`-.5`): the start of a number literal.
    fn starts_number(&self) -> bool {
        let digit_at = |offset: usize| self.peek_at(offset).is_some_and(|b| b.is_ascii_digit());
        let after_sign = usize::from(matches!(self.peek(), Some(b'+' | b'-')));
        digit_at(after_sign) || (self.peek_at(after_sign) == Some(b'.') && digit_at(after_sign + 1))
    }

    /// The token at a number's start: a number, an error if it holds only number characters
    /// but is not one, or `None` (the caller rewinds) when it is a path such as `0/name`.
    fn number(&mut self) -> Parsed<Option<Value>> {
        let start = self.pos;
        while !self.at_delimiter_or_end() {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        if !text.bytes().all(is_number_char) {
            return Ok(None);
        }
        if !is_number_literal(text.as_bytes()) {
            self.pos = start;
            return self.error(format!("Invalid number literal {text:?}"));
        }
        let unsigned = text.strip_prefix('+').unwrap_or(text);
        if !unsigned.contains(['.', 'e', 'E']) {
            if let Ok(i) = unsigned.parse::<i64>() {
                return Ok(Some(Value::from(i)));
            }
        }
        match unsigned.parse::<f64>().ok().filter(|f| f.is_finite()).and_then(serde_json::Number::from_f64) {
            Some(n) => Ok(Some(Value::Number(n))),
            None => {
                self.pos = start;
                self.error(format!("Number literal {text:?} is out of range"))
            }
        }
    }

    /// A quoted string starting at the quote `q`.
    fn string(&mut self, q: u8) -> Parsed<String> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while self.peek().is_some_and(|b| b != q && b != b'\\') {
                self.pos += 1;
            }
            out.push_str(&self.src[start..self.pos]);
            match self.peek() {
                None => {
                    self.pos = open;
                    return self.error("Unclosed interpolation: unterminated string literal");
                }
                Some(b) if b == q => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(_) => {
                    // Backslash escape.
                    self.pos += 1;
                    let Some(c) = self.src[self.pos..].chars().next() else { continue };
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
            self.enter(depth + 1)?;
            loop {
                let arg_name = self.arg_name()?;
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
                    _ => return self.unexpected("\",\" or \")\" after function arguments"),
                }
            }
        }
        let prepared = prepare(name, &args);
        Ok(Call { name: name.to_owned(), args, return_type: None, catalog_id: None, prepared })
    }

    /// `ident :` consumed and returned, or nothing consumed (a positional argument). An
    /// identifier followed by whitespace and then something other than `:`, `,` or `)` is an
    /// argument name missing its colon.
    fn arg_name(&mut self) -> Parsed<Option<String>> {
        let start = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return Ok(None);
        }
        while self.peek().is_some_and(is_ident) {
            self.pos += 1;
        }
        let end = self.pos;
        self.skip_ws();
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(Some(self.src[start..end].to_owned()))
            }
            Some(b) if self.pos > end && !matches!(b, b',' | b')' | b'(') => {
                self.error("Expected \":\" after argument name")
            }
            _ => {
                self.pos = start;
                Ok(None)
            }
        }
    }
}

/// `[+-] (digits [. [digits]] | . digits) [(e|E) [+-] digits]`, the whole of `text`.
fn is_number_literal(text: &[u8]) -> bool {
    let mut i = usize::from(matches!(text.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while text.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    let integer = digits(&mut i);
    let mut fraction = false;
    if text.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(&mut i);
    }
    if !integer && !fraction {
        return false;
    }
    if matches!(text.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(text.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == text.len()
}
