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
    /// A bare word: a command, a constant (`VERSIONS`), `true`, `false`, `nil`.
    Ident(String),
    Arrow,
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
            Tok::Ident(w) => format!("'{w}'"),
            Tok::Arrow => "'=>'".into(),
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

/// Splits input into tokens. `#` starts a comment to the end of the line.
pub fn lex(src: &str) -> Result<Vec<Token>, ParseError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let start = i;
        let simple = match c {
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                while b.get(i).is_some_and(|c| *c != b'\n') {
                    i += 1;
                }
                continue;
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
            i += 1;
            out.push(Token {
                tok,
                span: start..i,
            });
            continue;
        }
        let tok = match c {
            b'=' if b.get(i + 1) == Some(&b'>') => {
                i += 2;
                Tok::Arrow
            }
            b'\'' => {
                let (bytes, end) = single_quoted(b, i)?;
                i = end;
                Tok::Str {
                    bytes,
                    double: false,
                }
            }
            b'"' => {
                let (bytes, end) = double_quoted(b, i)?;
                i = end;
                Tok::Str {
                    bytes,
                    double: true,
                }
            }
            b'0'..=b'9' | b'-' => {
                i += 1;
                while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
                    i += 1;
                }
                let text: String = src
                    .get(start..i)
                    .unwrap_or("")
                    .chars()
                    .filter(|c| *c != '_')
                    .collect();
                match text.parse::<i64>() {
                    Ok(v) => Tok::Int(v),
                    Err(_) => {
                        return Err(ParseError::new(
                            "invalid number",
                            start..i,
                            "an integer that fits in 64 bits",
                        ))
                    }
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while b.get(i).is_some_and(|c| {
                    c.is_ascii_alphanumeric()
                        || *c == b'_'
                        || *c == b'.'
                        || *c == b'?'
                        || *c == b'!'
                }) {
                    i += 1;
                }
                Tok::Ident(src.get(start..i).unwrap_or("").to_string())
            }
            _ => {
                let len = src
                    .get(start..)
                    .and_then(|s| s.chars().next())
                    .map(char::len_utf8)
                    .unwrap_or(1);
                let what = src.get(start..start + len).unwrap_or("?");
                return Err(ParseError::new(
                    format!("unexpected character '{what}'"),
                    start..start + len,
                    "a value",
                ));
            }
        };
        out.push(Token {
            tok,
            span: start..i,
        });
    }
    Ok(out)
}

/// `'...'`: only `\'` and `\\` are escapes, as in Ruby.
fn single_quoted(b: &[u8], open: usize) -> Result<(Vec<u8>, usize), ParseError> {
    let mut out = Vec::new();
    let mut i = open + 1;
    loop {
        match b.get(i) {
            None => {
                return Err(ParseError::new(
                    "unterminated string",
                    open..b.len(),
                    "a closing '",
                ))
            }
            Some(b'\'') => return Ok((out, i + 1)),
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

/// `"..."`: Ruby's escapes, `\xNN` giving any byte.
fn double_quoted(b: &[u8], open: usize) -> Result<(Vec<u8>, usize), ParseError> {
    let mut out = Vec::new();
    let mut i = open + 1;
    loop {
        match b.get(i) {
            None => {
                return Err(ParseError::new(
                    "unterminated string",
                    open..b.len(),
                    "a closing \"",
                ))
            }
            Some(b'"') => return Ok((out, i + 1)),
            Some(b'\\') => {
                let Some(&e) = b.get(i + 1) else {
                    return Err(ParseError::new(
                        "unterminated string",
                        open..b.len(),
                        "a closing \"",
                    ));
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
                        if digits == 0 {
                            return Err(ParseError::new(
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
                    b'0' => out.push(0),
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

/// Whether input ends inside an open string or bracket, so a line-based reader should read on.
pub fn is_incomplete(src: &str) -> bool {
    let b = src.as_bytes();
    let mut depth: i64 = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'\'' | b'"' => {
                let r = if c == b'\'' {
                    single_quoted(b, i)
                } else {
                    double_quoted(b, i)
                };
                match r {
                    Ok((_, end)) => i = end,
                    Err(_) => return true,
                }
                continue;
            }
            b'#' => {
                while b.get(i).is_some_and(|c| *c != b'\n') {
                    i += 1;
                }
                continue;
            }
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    depth > 0 || src.trim_end().ends_with(',')
}
