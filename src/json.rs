//! JSON read and written by hand, for the documents Rowkey reads from people (workloads, share
//! links): a [`Value`] tree, a parser whose errors carry a line and a column, a writer (compact
//! or indented, as `JSON.stringify(v, null, 2)` writes), and [`Node`], a value with its JSON path,
//! whose typed accessors name that path in every error
//! (`$.tables[0].key[2].width: expected an integer, found "4"`).
//!
//! Numbers keep the text they were written as, so a `u64` seed reads exactly and a float reads
//! as Rust's correctly rounded parse gives it.
//!
//! ```
//! use rowkey::json::{self, Node};
//! let doc = json::parse(r#"{"tables": [{"name": "t", "width": "4"}]}"#)?;
//! let root = Node::root(&doc);
//! let table = root.object(&["tables"])?.required("tables")?.items()?.remove(0);
//! let fields = table.object(&["name", "width"])?;
//! assert_eq!(fields.required("name")?.str()?, "t");
//! let error = fields.required("width")?.u64().unwrap_err();
//! assert_eq!(error.to_string(), r#"$.tables[0].width: expected an integer, found "4""#);
//! # Ok::<(), json::Error>(())
//! ```

use std::fmt::Write;

/// How deep arrays and objects may nest: deeper text is refused rather than overflowing the
/// stack.
pub const MAX_DEPTH: usize = 128;

/// A JSON value. Objects keep their members in the order they were written.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number as written (checked against JSON's grammar when read).
    Number(String),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

/// Why a text is not the document it should be. Each variant keeps its details behind a box,
/// so a reader's `Result` moves one pointer through every `?` instead of three words (the
/// readers of every document use this type: 5 KB of the download).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// The text is not JSON: where (1-based, the column in characters) and why.
    #[error("line {}, column {}: {}", .0.line, .0.column, .0.message)]
    Syntax(Box<SyntaxError>),
    /// The JSON is not what was expected at `path` (`$.tables[0].name`).
    #[error("{}: {}", .0.path, .0.message)]
    Invalid(Box<Invalid>),
}

/// Where a text stops being JSON, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Where a document differs from what was expected, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub path: String,
    pub message: String,
}

/// Reads a whole text as one JSON value (whitespace around it allowed).
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = p.value(0)?;
    p.space();
    if p.at < p.bytes.len() {
        return Err(p.error("trailing characters after the value"));
    }
    Ok(value)
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl Parser<'_> {
    /// A syntax error at the current byte.
    fn error(&self, message: &str) -> Error {
        let before = &self.text[..floor_char_boundary(self.text, self.at)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Error::Syntax(Box::new(SyntaxError {
            line,
            column: before[line_start..].chars().count() + 1,
            message: message.to_string(),
        }))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after whitespace), or says what was expected instead.
    fn expect(&mut self, byte: u8, what: &str) -> Result<(), Error> {
        self.space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    /// "expected X, found Y" at the current byte.
    fn unexpected(&self, what: &str) -> Error {
        match self.text[floor_char_boundary(self.text, self.at)..]
            .chars()
            .next()
        {
            None => self.error(&format!("expected {what}, found the end of the text")),
            Some(c) => {
                let mut found = format!("expected {what}, found `");
                crate::kit::text::push_shown(&mut found, c, "'\"");
                found.push('`');
                self.error(&found)
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        self.space();
        if depth >= MAX_DEPTH {
            return Err(self.error(&format!("nested deeper than {MAX_DEPTH} levels")));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => {
                for (word, value) in [
                    ("null", Value::Null),
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                ] {
                    if self.bytes[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(value);
                    }
                }
                Err(self.unexpected("a value"))
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, Error> {
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.space();
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    self.space();
                    if self.peek() == Some(b']') {
                        return Err(self.error("trailing comma"));
                    }
                }
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, Error> {
        self.at += 1;
        let mut members = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected("a member's name in double quotes"));
            }
            let name = self.string()?;
            self.expect(b':', "`:`")?;
            members.push((name, self.value(depth + 1)?));
            self.space();
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    self.space();
                    if self.peek() == Some(b'}') {
                        return Err(self.error("trailing comma"));
                    }
                }
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.unexpected("`,` or `}`")),
            }
        }
    }

    /// A string at the opening quote.
    fn string(&mut self) -> Result<String, Error> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The run ends at an ASCII byte (or the end), so it is whole characters.
            out.push_str(&self.text[start..self.at]);
            match self.peek() {
                None => return Err(self.error("a string is not closed")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            out.push(self.unicode_escape()?);
                            continue;
                        }
                        _ => return Err(self.error("an unknown escape in a string")),
                    };
                    self.at += 1;
                    out.push(escaped);
                }
                Some(_) => return Err(self.error("a control character in a string (escape it)")),
            }
        }
    }

    /// The character of a `\u` escape, after the `u` (a surrogate pair takes two escapes).
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.bytes[self.at..].starts_with(b"\\u") {
                    return Err(self.error("a lone surrogate in a \\u escape"));
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("a lone surrogate in a \\u escape"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.error("a lone surrogate in a \\u escape")),
            code => code,
        };
        char::from_u32(code).ok_or_else(|| self.error("an invalid \\u escape"))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|b| (b as char).to_digit(16))
                .ok_or_else(|| self.error("a \\u escape needs four hex digits"))?;
            code = code * 16 + digit;
            self.at += 1;
        }
        Ok(code)
    }

    /// A number by JSON's grammar: `-`? int frac? exp?.
    fn number(&mut self) -> Result<Value, Error> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.unexpected("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.unexpected("a digit after the decimal point"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.unexpected("a digit in the exponent"));
            }
            self.digits();
        }
        Ok(Value::Number(self.text[start..self.at].to_string()))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }
}

/// The largest index at or before `at` that starts a character.
fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(n.to_string())
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Number(n.to_string())
    }
}

/// A float's shortest text as a number, with a `.0` on whole numbers (a float stays a float
/// when read again); `null` for what JSON cannot hold (NaN, infinities).
fn float(finite: bool, mut text: String) -> Value {
    if !finite {
        return Value::Null;
    }
    if !text.contains(['.', 'e']) {
        text.push_str(".0");
    }
    Value::Number(text)
}

impl From<f64> for Value {
    /// The shortest text that reads back as the same float, with a `.0` on whole numbers (a
    /// float stays a float when read again); `null` for what JSON cannot hold (NaN, infinities).
    fn from(x: f64) -> Value {
        float(x.is_finite(), x.to_string())
    }
}

impl From<f32> for Value {
    /// As for `f64`: the shortest text that reads back as the same `f32`.
    fn from(x: f32) -> Value {
        float(x.is_finite(), x.to_string())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl Value {
    /// An object of the named members, in order.
    pub fn object(members: Vec<(&str, Value)>) -> Value {
        let mut out = Vec::with_capacity(members.len());
        for (name, value) in members {
            out.push((name.to_string(), value));
        }
        Value::Object(out)
    }

    /// The compact text (no whitespace).
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, None, 0);
        out
    }

    /// The text indented by two spaces, a member or an item a line.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, Some("  "), 0);
        out
    }

    fn write(&self, out: &mut String, indent: Option<&str>, depth: usize) {
        let newline = |out: &mut String, depth: usize| {
            if let Some(indent) = indent {
                out.push('\n');
                for _ in 0..depth {
                    out.push_str(indent);
                }
            }
        };
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(text) => out.push_str(text),
            Value::String(s) => write_string(out, s),
            Value::Array(items) if items.is_empty() => out.push_str("[]"),
            Value::Object(members) if members.is_empty() => out.push_str("{}"),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, depth + 1);
                    item.write(out, indent, depth + 1);
                }
                newline(out, depth);
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, depth + 1);
                    write_string(out, name);
                    out.push(':');
                    if indent.is_some() {
                        out.push(' ');
                    }
                    value.write(out, indent, depth + 1);
                }
                newline(out, depth);
                out.push('}');
            }
        }
    }

    /// What kind of value this is, for messages ("a string", "an object").
    fn describe(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(text) => text.clone(),
            Value::String(s) => {
                let mut out = String::new();
                write_string(&mut out, s);
                out
            }
            Value::Array(_) => "an array".into(),
            Value::Object(_) => "an object".into(),
        }
    }
}

/// `s` as a JSON string: quotes, backslashes and control characters escaped, the rest as is.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A value with its JSON path (`$`, `$.tables[0].key`): every accessor's error names the path.
#[derive(Clone, Debug)]
pub struct Node<'a> {
    value: &'a Value,
    path: String,
}

impl<'a> Node<'a> {
    /// The document's root, `$`.
    pub fn root(value: &'a Value) -> Node<'a> {
        Node {
            value,
            path: "$".into(),
        }
    }

    /// The value itself.
    pub fn value(&self) -> &'a Value {
        self.value
    }

    /// The JSON path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// An error at this node.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::Invalid(Box::new(Invalid {
            path: self.path.clone(),
            message: message.into(),
        }))
    }

    fn expected(&self, what: &str) -> Error {
        self.error(format!("expected {what}, found {}", self.value.describe()))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    pub fn bool(&self) -> Result<bool, Error> {
        match self.value {
            Value::Bool(b) => Ok(*b),
            _ => Err(self.expected("true or false")),
        }
    }

    pub fn str(&self) -> Result<&'a str, Error> {
        match self.value {
            Value::String(s) => Ok(s),
            _ => Err(self.expected("a string")),
        }
    }

    pub fn string(&self) -> Result<String, Error> {
        self.str().map(str::to_string)
    }

    /// A whole number of 0 or above (no fraction, no exponent).
    pub fn u64(&self) -> Result<u64, Error> {
        match self.value {
            Value::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => {
                text.parse().map_err(|_| {
                    self.error(format!("{text} is above the largest integer, {}", u64::MAX))
                })
            }
            Value::Number(text) if text.starts_with('-') && !text.contains(['.', 'e', 'E']) => {
                Err(self.error(format!("expected an integer of 0 or above, found {text}")))
            }
            _ => Err(self.expected("an integer")),
        }
    }

    /// A whole number from 0 to `u32::MAX`.
    pub fn u32(&self) -> Result<u32, Error> {
        let n = self.u64()?;
        u32::try_from(n).map_err(|_| {
            self.error(format!(
                "expected an integer from 0 to {}, found {n}",
                u32::MAX
            ))
        })
    }

    pub fn f64(&self) -> Result<f64, Error> {
        match self.value {
            Value::Number(text) => match crate::decimal::parse_f64(text) {
                Some(x) if x.is_finite() => Ok(x),
                _ => Err(self.error(format!("{text} is out of a float's range"))),
            },
            _ => Err(self.expected("a number")),
        }
    }

    /// The items of an array, each with its path (`$.tables[0]`).
    pub fn items(&self) -> Result<Vec<Node<'a>>, Error> {
        match self.value {
            Value::Array(items) => Ok(items
                .iter()
                .enumerate()
                .map(|(i, value)| Node {
                    value,
                    path: format!("{}[{i}]", self.path),
                })
                .collect()),
            _ => Err(self.expected("an array")),
        }
    }

    /// Each item of an array read by `read`.
    pub fn list<T>(&self, read: impl Fn(&Node<'a>) -> Result<T, Error>) -> Result<Vec<T>, Error> {
        let items = self.items()?;
        let mut out = Vec::with_capacity(items.len());
        for item in &items {
            out.push(read(item)?);
        }
        Ok(out)
    }

    /// An object whose members are all among `fields` (an unknown or repeated member is an
    /// error at its own path).
    pub fn object(&self, fields: &[&str]) -> Result<Fields<'a>, Error> {
        self.checked_fields(None, fields)
    }

    /// An object tagged by its member `tag` (`{"kind": "entity", ...}`): the tag's value, one
    /// of `variants`, and the other members, checked against `fields(variant)`.
    pub fn tagged(
        &self,
        tag: &str,
        variants: &[&str],
        fields: impl Fn(&str) -> &'static [&'static str],
    ) -> Result<(&'a str, Fields<'a>), Error> {
        let variant = self.members()?.required(tag)?.variant(variants)?;
        Ok((variant, self.checked_fields(Some(tag), fields(variant))?))
    }

    /// An object, whatever its members (unknown ones are left for the reader to ignore).
    pub fn members(&self) -> Result<Fields<'a>, Error> {
        match self.value {
            Value::Object(members) => Ok(Fields {
                node: self.clone(),
                members,
            }),
            _ => Err(self.expected("an object")),
        }
    }

    fn checked_fields(&self, tag: Option<&str>, fields: &[&str]) -> Result<Fields<'a>, Error> {
        let all = self.members()?;
        let members = all.members;
        for (i, (name, _)) in members.iter().enumerate() {
            let at = || self.member(name);
            if members[..i].iter().any(|(other, _)| other == name) {
                return Err(at().error(format!("duplicate field `{name}`")));
            }
            if !fields.contains(&name.as_str()) && tag != Some(name.as_str()) {
                return Err(at().error(if fields.is_empty() {
                    format!("unknown field `{name}`, there are no fields")
                } else {
                    format!("unknown field `{name}`, expected {}", one_of(fields))
                }));
            }
        }
        Ok(all)
    }

    fn member(&self, name: &str) -> Node<'a> {
        Node {
            value: self.value,
            path: format!("{}.{name}", self.path),
        }
    }

    /// A string naming one of `variants`.
    pub fn variant(&self, variants: &[&str]) -> Result<&'a str, Error> {
        let name = self.str()?;
        self.known_variant(name, variants)
    }

    /// An enum written as `"name"` (no contents) or `{"name": contents}`: its name, one of
    /// `variants`, and its contents at `$.path.name`.
    pub fn enumeration(&self, variants: &[&str]) -> Result<(&'a str, Option<Node<'a>>), Error> {
        match self.value {
            Value::String(_) => Ok((self.variant(variants)?, None)),
            Value::Object(members) if members.len() == 1 => {
                let (name, value) = &members[0];
                let at = Node {
                    value,
                    path: format!("{}.{name}", self.path),
                };
                Ok((at.known_variant(name, variants)?, Some(at)))
            }
            _ => Err(self.expected("a variant's name, or an object of one variant")),
        }
    }

    fn known_variant<'n>(&self, name: &'n str, variants: &[&str]) -> Result<&'n str, Error> {
        if variants.contains(&name) {
            Ok(name)
        } else {
            Err(self.error(format!(
                "unknown variant `{name}`, expected {}",
                one_of(variants)
            )))
        }
    }
}

/// "one of `a`, `b`" (or "`a`" alone).
fn one_of(names: &[&str]) -> String {
    let list = names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() == 1 {
        list
    } else {
        format!("one of {list}")
    }
}

/// The members of an object, read by name.
#[derive(Clone, Debug)]
pub struct Fields<'a> {
    node: Node<'a>,
    members: &'a [(String, Value)],
}

impl<'a> Fields<'a> {
    /// The object itself.
    pub fn node(&self) -> &Node<'a> {
        &self.node
    }

    /// The member `name`, if the object has it.
    pub fn get(&self, name: &str) -> Option<Node<'a>> {
        self.members
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| Node {
                value,
                path: format!("{}.{name}", self.node.path),
            })
    }

    /// The member `name`, which the object must have.
    pub fn required(&self, name: &str) -> Result<Node<'a>, Error> {
        self.get(name)
            .ok_or_else(|| self.node.error(format!("missing field `{name}`")))
    }

    /// The member `name`, which the object must have, read by `read`. One call instead of
    /// [`Fields::required`] then the reader at each of the documents' hundred-odd fields: a
    /// function pointer, so that every reader of one type shares one copy.
    pub fn read<T>(&self, name: &str, read: fn(&Node<'a>) -> Result<T, Error>) -> Result<T, Error> {
        read(&self.required(name)?)
    }

    /// The items of the array `name`, which the object must have, each read by `read`.
    pub fn list<T>(
        &self,
        name: &str,
        read: impl Fn(&Node<'a>) -> Result<T, Error>,
    ) -> Result<Vec<T>, Error> {
        self.required(name)?.list(read)
    }

    /// The member `name` read by `read`, or `default` when the object lacks it.
    pub fn or<T>(
        &self,
        name: &str,
        default: T,
        read: impl Fn(&Node<'a>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.get(name).map_or(Ok(default), |n| read(&n))
    }

    /// The member `name` read by `read`; `None` when the object lacks it or it is `null`.
    pub fn optional<T>(
        &self,
        name: &str,
        read: impl Fn(&Node<'a>) -> Result<T, Error>,
    ) -> Result<Option<T>, Error> {
        match self.get(name) {
            Some(n) if !n.is_null() => read(&n).map(Some),
            _ => Ok(None),
        }
    }
}
