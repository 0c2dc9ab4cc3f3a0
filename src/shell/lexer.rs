//! Tokens of HBase shell input, each with its byte span.

use std::ops::Range;

use super::ParseError;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A string literal's bytes; `double` for `"..."`, whose escapes were interpreted.
    Str {
        bytes: Vec<u8>,
        double: bool,
    },
    Int(i64),
    /// A Ruby Float literal, digits on both sides of the point (`0.8`).
    Float(f64),
    /// A bare word: a command, a constant (`VERSIONS`), `true`, `false`, `nil`.
    Ident(String),
    Arrow,
    /// `=` of an assignment (`t = get_table 't1'`).
    Assign,
    Comma,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    /// A newline or `;` between commands.
    End,
}

impl Tok {
    /// How an error message names the token.
    pub fn describe(&self) -> String {
        match self {
            Tok::Str { .. } => "a string".into(),
            Tok::Int(i) => format!("number {i}"),
            Tok::Float(x) => format!("number {x}"),
            Tok::Ident(w) => format!("'{w}'"),
            Tok::Arrow => "'=>'".into(),
            Tok::Assign => "'='".into(),
            Tok::Comma => "','".into(),
            Tok::LBrace => "'{'".into(),
            Tok::RBrace => "'}'".into(),
            Tok::LBracket => "'['".into(),
            Tok::RBracket => "']'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::End => "end of command".into(),
        }
    }
}

/// A token and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Range<usize>,
}

/// What one step of the lexer found at a position: the tolerant layer under [`lex`], which the
/// highlighter also reads so that colours and errors come from the same rules.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Raw {
    /// Blanks, or a backslash that joins two lines as in Ruby.
    Space,
    /// `#` to the end of the line.
    Comment,
    Tok(Tok),
    /// A string with no closing quote: it runs to the end of the input.
    Unterminated(ParseError),
    /// Anything else that is not a token; the step resumes after it.
    Error(ParseError),
}

/// Lexes one step at `i` (which must be below `b.len()`): what is there and where the next
/// step starts. `b` is `src` cut where the lexing stops.
pub(super) fn step(src: &str, b: &[u8], i: usize) -> (Raw, usize) {
    let start = i;
    let Some(&c) = b.get(i) else {
        return (Raw::Space, i.max(b.len()));
    };
    let simple = match c {
        b' ' | b'\t' | b'\r' | 0x0b | 0x0c => return (Raw::Space, i + 1),
        // Ruby joins a line ending in a backslash with the next.
        b'\\' if b.get(i + 1) == Some(&b'\n') => return (Raw::Space, i + 2),
        b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => {
            return (Raw::Space, i + 3)
        }
        b'#' => {
            let len = b.get(i..).and_then(|r| r.iter().position(|c| *c == b'\n'));
            return (Raw::Comment, len.map(|n| i + n).unwrap_or(b.len()));
        }
        b'\n' | b';' => Some(Tok::End),
        b',' => Some(Tok::Comma),
        b'{' => Some(Tok::LBrace),
        b'}' => Some(Tok::RBrace),
        b'[' => Some(Tok::LBracket),
        b']' => Some(Tok::RBracket),
        b'(' => Some(Tok::LParen),
        b')' => Some(Tok::RParen),
        _ => None,
    };
    if let Some(tok) = simple {
        return (Raw::Tok(tok), i + 1);
    }
    match c {
        b'=' if b.get(i + 1) == Some(&b'>') => (Raw::Tok(Tok::Arrow), i + 2),
        b'=' if b.get(i + 1) != Some(&b'=') => (Raw::Tok(Tok::Assign), i + 1),
        b'\'' | b'"' => {
            let double = c == b'"';
            let (result, end) = if double {
                double_quoted(b, i)
            } else {
                single_quoted(b, i)
            };
            let raw = match result {
                Ok(bytes) => Raw::Tok(Tok::Str { bytes, double }),
                Err(e) if end >= b.len() && e.message == UNTERMINATED => Raw::Unterminated(e),
                Err(e) => Raw::Error(e),
            };
            (raw, end)
        }
        b'0'..=b'9' | b'-' => {
            let mut i = i + 1;
            while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
                i += 1;
            }
            // A Float: a point between digits (`0.8`); `1.foo` stays a number and a word.
            let float = b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if float {
                i += 1;
                while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
                    i += 1;
                }
            }
            let text: String = src
                .get(start..i)
                .unwrap_or("")
                .chars()
                .filter(|c| *c != '_')
                .collect();
            if float {
                let raw = match crate::decimal::parse_f64(&text) {
                    Some(v) if v.is_finite() => Raw::Tok(Tok::Float(v)),
                    _ => Raw::Error(ParseError::new(
                        "invalid number",
                        start..i,
                        "a finite decimal number",
                    )),
                };
                return (raw, i);
            }
            let raw = match text.parse::<i64>() {
                Ok(v) => Raw::Tok(Tok::Int(v)),
                Err(_) => Raw::Error(ParseError::new(
                    "invalid number",
                    start..i,
                    "an integer that fits in 64 bits",
                )),
            };
            (raw, i)
        }
        c if c.is_ascii_alphabetic()
            || c == b'_'
            || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic)) =>
        {
            // Words run on through `.` (`org.apache.hadoop.hbase.filter.PageFilter.new`) and
            // `::` (`CompareOperator::EQUAL`); a word may start with `.` right after a
            // string (`'r'.to_java_bytes`).
            let mut i = i + 1;
            loop {
                match b.get(i) {
                    Some(c)
                        if c.is_ascii_alphanumeric()
                            || *c == b'_'
                            || *c == b'.'
                            || *c == b'?'
                            || *c == b'!' =>
                    {
                        i += 1
                    }
                    Some(b':')
                        if b.get(i + 1) == Some(&b':')
                            && b.get(i + 2).is_some_and(u8::is_ascii_alphabetic) =>
                    {
                        i += 2
                    }
                    _ => break,
                }
            }
            let word = src.get(start..i).unwrap_or("").to_string();
            (Raw::Tok(Tok::Ident(word)), i)
        }
        _ => {
            let ch = src.get(start..).and_then(|s| s.chars().next());
            let len = ch.map(char::len_utf8).unwrap_or(1);
            let message = match ch {
                Some('\u{FFFD}') => {
                    "invalid bytes: the input is not UTF-8 text (binary data must be written \
                     as \"\\xNN\" escapes)"
                        .to_string()
                }
                Some(c) if c.is_control() => format!(
                    "invalid control character U+{:04X} (write it as \"\\x{:02X}\" inside a \
                     double-quoted string)",
                    u32::from(c),
                    u32::from(c)
                ),
                Some(c) => format!("unexpected character '{c}'"),
                None => "unexpected byte".to_string(),
            };
            (
                Raw::Error(ParseError::new(message, start..start + len, "a value")),
                start + len,
            )
        }
    }
}

const UNTERMINATED: &str = "unterminated string";

/// Lexes `range` of `src`, spans relative to the whole of `src`. A newline right after `,` or
/// `=>` is a blank, not the end of a command: the line continues, as irb continues it.
pub(super) fn lex_range(src: &str, range: Range<usize>) -> Result<Vec<Token>, ParseError> {
    let b = src.as_bytes().get(..range.end).unwrap_or(src.as_bytes());
    let mut out: Vec<Token> = Vec::new();
    let mut i = range.start;
    while i < b.len() {
        let start = i;
        let (raw, next) = step(src, b, i);
        i = next.max(start + 1);
        match raw {
            Raw::Space | Raw::Comment => {}
            Raw::Tok(Tok::End)
                if b.get(start) == Some(&b'\n')
                    && out
                        .last()
                        .is_some_and(|t| matches!(t.tok, Tok::Comma | Tok::Arrow)) => {}
            Raw::Tok(tok) => out.push(Token {
                tok,
                span: start..i,
            }),
            Raw::Unterminated(e) | Raw::Error(e) => return Err(e),
        }
    }
    Ok(out)
}

/// `'...'`: only `\'` and `\\` are escapes, as in Ruby. Returns the bytes (or the error) and
/// where the string ends.
fn single_quoted(b: &[u8], open: usize) -> (Result<Vec<u8>, ParseError>, usize) {
    let mut out = Vec::new();
    let mut i = open + 1;
    loop {
        match b.get(i) {
            None => {
                let e = ParseError::new(UNTERMINATED, open..b.len(), "a closing '");
                return (Err(e), b.len());
            }
            Some(b'\'') => return (Ok(out), i + 1),
            Some(b'\\') if matches!(b.get(i + 1), Some(b'\'' | b'\\')) => {
                out.extend(b.get(i + 1));
                i += 2;
            }
            Some(c) => {
                out.push(*c);
                i += 1;
            }
        }
    }
}

/// `"..."`: Ruby's escapes, `\xNN` giving any byte. A bad escape is reported once the string
/// has been read to its end, so that lexing can resume after it.
fn double_quoted(b: &[u8], open: usize) -> (Result<Vec<u8>, ParseError>, usize) {
    let mut out = Vec::new();
    let mut error = None;
    let mut i = open + 1;
    loop {
        match b.get(i) {
            None => {
                let e = ParseError::new(UNTERMINATED, open..b.len(), "a closing \"");
                return (Err(e), b.len());
            }
            Some(b'"') => {
                return match error {
                    Some(e) => (Err(e), i + 1),
                    None => (Ok(out), i + 1),
                }
            }
            Some(b'\\') => {
                let Some(&e) = b.get(i + 1) else {
                    let e = ParseError::new(UNTERMINATED, open..b.len(), "a closing \"");
                    return (Err(e), b.len());
                };
                i += 2;
                match e {
                    b'x' => {
                        let mut v: u32 = 0;
                        let mut digits = 0;
                        while digits < 2 {
                            match b.get(i).and_then(|c| char::from(*c).to_digit(16)) {
                                Some(d) => {
                                    v = v * 16 + d;
                                    i += 1;
                                    digits += 1;
                                }
                                None => break,
                            }
                        }
                        if digits == 0 && error.is_none() {
                            error = Some(ParseError::new(
                                "invalid hex escape",
                                i - 2..i,
                                "one or two hex digits after \\x",
                            ));
                        }
                        out.push(v as u8);
                    }
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    // Ruby's octal escape: one to three digits (`"key\003\023"`, as
                    // HBase's shell help writes bytes), the value's low byte.
                    b'0'..=b'7' => {
                        let mut v = u32::from(e - b'0');
                        let mut digits = 1;
                        while digits < 3 {
                            match b.get(i) {
                                Some(&d @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(d - b'0');
                                    i += 1;
                                    digits += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push(v as u8);
                    }
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'e' => out.push(0x1b),
                    b'f' => out.push(0x0c),
                    b'v' => out.push(0x0b),
                    b's' => out.push(b' '),
                    other => out.push(other),
                }
            }
            Some(c) => {
                out.push(*c);
                i += 1;
            }
        }
    }
}

/// Where a line-based reader stands: open brackets, an open string, and whether the last
/// token asks for more. The one rule for "does Enter continue the entry", shared by
/// [`is_incomplete`] and the script reader.
///
/// irb continues a line that ends inside a string or bracket, and one whose last token leaves
/// Ruby's lexer expecting an operand (`,`, `=>`, a binary operator, `.`) or ends in a
/// backslash; not one ending in `;` (ruby/irb `lib/irb/ruby-lex.rb`, `process_continue` and
/// `check_code_block`).
#[derive(Clone, Debug, Default)]
pub(super) struct Reader {
    depth: i64,
    /// The quote of the string open at the end of the last line.
    quote: Option<u8>,
    /// Lines read, and the line (from 1) where the open string began.
    lines: usize,
    quote_line: usize,
    /// The last token was a comma, `=>` or an operator.
    wants_more: bool,
}

impl Reader {
    /// Reads one line (without its newline).
    pub(super) fn line(&mut self, line: &[u8]) {
        self.lines += 1;
        let mut i = 0;
        while i < line.len() {
            if let Some(q) = self.quote {
                match line
                    .get(i..)
                    .and_then(|r| r.iter().position(|c| *c == q || *c == b'\\'))
                {
                    Some(n) if line.get(i + n) == Some(&b'\\') => i += n + 2,
                    Some(n) => {
                        self.quote = None;
                        self.wants_more = false;
                        i += n + 1;
                    }
                    None => i = line.len(),
                }
                continue;
            }
            let Some(&c) = line.get(i) else { break };
            match c {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {}
                b'#' => break,
                b'\'' | b'"' => {
                    self.quote = Some(c);
                    self.quote_line = self.lines;
                }
                b'{' | b'[' | b'(' => {
                    self.depth += 1;
                    self.wants_more = true;
                }
                b'}' | b']' | b')' => {
                    self.depth -= 1;
                    self.wants_more = false;
                }
                b',' | b'+' | b'-' | b'*' | b'/' | b'%' | b'|' | b'&' | b'^' | b'<' | b'>'
                | b'=' | b'!' | b'~' | b'.' | b'\\' => self.wants_more = true,
                c if c.is_ascii_alphanumeric() || c == b'_' => {
                    while line.get(i + 1).is_some_and(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, b'_' | b'?' | b'!')
                    }) {
                        i += 1;
                    }
                    self.wants_more = false;
                }
                _ => self.wants_more = false,
            }
            i += 1;
        }
    }

    /// Whether the entry read so far goes on to the next line.
    pub(super) fn is_open(&self) -> bool {
        self.quote.is_some() || self.depth > 0 || self.wants_more
    }
}

/// Whether input ends inside an open string or bracket, or after a token that asks for more
/// (`,`, `=>`, a binary operator, a backslash), so a line-based reader should read on.
pub fn is_incomplete(src: &str) -> bool {
    open_at_end(src).is_some()
}

/// What keeps an input open at its end, so the console can say why Enter continues it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    /// A string opened with this quote, on this line (from 1), is not closed.
    String(char, usize),
    /// A `[`, `{` or `(` is not closed.
    Bracket,
    /// The input ends with `,`, `=>`, an operator or a backslash.
    Continued,
}

impl Open {
    /// Why Enter goes on to a new line, in a person's words.
    pub fn describe(self) -> String {
        match self {
            Open::String(q, 1) => format!("a string opened with {q} is not closed"),
            Open::String(q, line) => {
                format!("a string opened with {q} on line {line} is not closed")
            }
            Open::Bracket => "a bracket is not closed".to_string(),
            Open::Continued => "the line ends with a comma, => or an operator".to_string(),
        }
    }
}

/// What is still open at the end of `src`, if anything (see [`is_incomplete`]).
pub fn open_at_end(src: &str) -> Option<Open> {
    let mut reader = Reader::default();
    for line in src.as_bytes().split(|c| *c == b'\n') {
        reader.line(line);
    }
    if let Some(q) = reader.quote {
        // In a paste of one-line commands the string still open at the end often began on a
        // later line than the mistake: a quote left open shifts every quote after it. Name the
        // first line that, read alone, leaves a string open; else where this one began.
        let alone = src.as_bytes().split(|c| *c == b'\n').position(|line| {
            let mut one = Reader::default();
            one.line(line);
            one.quote.is_some()
        });
        Some(Open::String(
            char::from(q),
            alone.map_or(reader.quote_line, |i| i + 1),
        ))
    } else if reader.depth > 0 {
        Some(Open::Bracket)
    } else if reader.wants_more {
        Some(Open::Continued)
    } else {
        None
    }
}
