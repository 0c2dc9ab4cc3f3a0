//! Parses tokens into commands. One place says "expected X, found Y".

use std::ops::Range;

use super::ast::{Command, Spanned, Value};
use super::lexer::{lex_range, Tok, Token};
use super::script::parse_script;
use super::ParseError;

/// Parses the commands of `range` of `src` (one statement of a script, which `;` may split
/// into several commands), spans relative to the whole of `src`. A command that fails to parse
/// yields its error and parsing resumes at the next command; a lex error fails the range.
pub(super) fn parse_range(src: &str, range: Range<usize>) -> Vec<Result<Command, ParseError>> {
    let end = range.end.min(src.len());
    let tokens = match lex_range(src, range) {
        Ok(t) => t,
        Err(e) => return vec![Err(e)],
    };
    let mut p = Parser {
        tokens,
        pos: 0,
        end,
        depth: 0,
    };
    let mut out = Vec::new();
    loop {
        while p.peek_raw().is_some_and(|t| t.tok == Tok::End) {
            p.pos += 1;
        }
        if p.peek_raw().is_none() {
            break;
        }
        match p.command() {
            Ok(cmd) => out.push(Ok(cmd)),
            Err(e) => {
                out.push(Err(e));
                p.depth = 0;
                while p.peek_raw().is_some_and(|t| t.tok != Tok::End) {
                    p.pos += 1;
                }
            }
        }
    }
    out
}

/// Parses exactly one command.
pub fn parse_command(src: &str) -> Result<Command, ParseError> {
    let mut all = parse_script(src);
    match all.len() {
        0 => Err(ParseError::new("empty input", 0..0, "a command")),
        1 => all.remove(0),
        _ => Err(ParseError::new(
            "more than one command",
            0..src.len(),
            "a single command",
        )),
    }
}

/// Deepest nesting of arrays and hashes accepted.
pub const MAX_DEPTH: usize = 64;

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    end: usize,
    /// Bracket depth: inside brackets a newline is whitespace.
    depth: usize,
}

impl Parser {
    fn peek_raw(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn peek(&mut self) -> Option<&Token> {
        if self.depth > 0 {
            while self.tokens.get(self.pos).is_some_and(|t| t.tok == Tok::End) {
                self.pos += 1;
            }
        }
        self.tokens.get(self.pos)
    }

    fn at_end(&mut self) -> bool {
        self.peek().is_none_or(|t| t.tok == Tok::End)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek().is_some_and(|t| &t.tok == tok) {
            self.pos += 1;
            return true;
        }
        false
    }

    /// The one place that words "expected X, found Y".
    fn expected<T>(&mut self, what: &str) -> Result<T, ParseError> {
        let end = self.end;
        match self.peek() {
            Some(t) if t.tok != Tok::End => Err(ParseError::new(
                format!("expected {what}, found {}", t.tok.describe()),
                t.span.clone(),
                what,
            )),
            Some(t) => Err(ParseError::new(
                format!("expected {what}, found end of command"),
                t.span.start..t.span.start,
                what,
            )),
            None => Err(ParseError::new(
                format!("expected {what}, found end of input"),
                end..end,
                what,
            )),
        }
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<Range<usize>, ParseError> {
        match self.peek() {
            Some(t) if t.tok == tok => {
                let span = t.span.clone();
                self.pos += 1;
                Ok(span)
            }
            _ => self.expected(what),
        }
    }

    /// Refuses nesting deeper than [`MAX_DEPTH`], before it can exhaust the stack.
    fn check_depth(&self, open: &Range<usize>) -> Result<(), ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(
                format!("nesting deeper than {MAX_DEPTH} levels"),
                open.clone(),
                "fewer nested brackets",
            ));
        }
        Ok(())
    }

    fn command(&mut self) -> Result<Command, ParseError> {
        // `name = command ...`: a variable assigned the command's result.
        let target = match (self.tokens.get(self.pos), self.tokens.get(self.pos + 1)) {
            (
                Some(Token {
                    tok: Tok::Ident(var),
                    span,
                }),
                Some(Token {
                    tok: Tok::Assign, ..
                }),
            ) => Some((var.clone(), span.clone())),
            _ => None,
        };
        if target.is_some() {
            self.pos += 2;
        }
        let Some(Token {
            tok: Tok::Ident(name),
            span: name_span,
        }) = self.peek().cloned()
        else {
            return self.expected("a command name");
        };
        self.pos += 1;
        let mut args = Vec::new();
        let parenthesised = self.eat(&Tok::LParen);
        if parenthesised {
            self.depth += 1;
        }
        let closing =
            |p: &mut Parser| parenthesised && p.peek().is_some_and(|t| t.tok == Tok::RParen);
        if !self.at_end() && !closing(self) {
            loop {
                let value = self.value()?;
                if self.peek().is_some_and(|t| t.tok == Tok::Arrow) {
                    args.push(self.bare_hash(value)?);
                    break;
                }
                args.push(value);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        if parenthesised {
            self.expect(Tok::RParen, "')'")?;
            self.depth -= 1;
        }
        if !self.at_end() {
            return self.expected("',' or end of command");
        }
        let end = args.last().map(|a| a.span.end).unwrap_or(name_span.end);
        let start = target.as_ref().map_or(name_span.start, |t| t.1.start);
        Ok(Command {
            target,
            span: start..end,
            name,
            name_span,
            args,
        })
    }

    /// `KEY => value, KEY => value` written without braces as the last argument.
    fn bare_hash(&mut self, first_key: Spanned) -> Result<Spanned, ParseError> {
        let start = first_key.span.start;
        let mut pairs = Vec::new();
        let mut key = first_key;
        loop {
            self.expect(Tok::Arrow, "'=>'")?;
            let value = self.value()?;
            pairs.push((key, value));
            if !self.eat(&Tok::Comma) {
                break;
            }
            key = self.value()?;
        }
        let end = pairs.last().map(|p| p.1.span.end).unwrap_or(start);
        Ok(Spanned {
            value: Value::Hash(pairs),
            span: start..end,
        })
    }

    fn value(&mut self) -> Result<Spanned, ParseError> {
        let Some(t) = self.peek().cloned() else {
            return self.expected("a value");
        };
        let value = match t.tok {
            Tok::Str { bytes, .. } => {
                self.pos += 1;
                // `'r1'.to_java_bytes`: a Ruby string's bytes, as the shell's JRuby examples
                // pass byte arrays.
                let mut end = t.span.end;
                let suffix = self
                    .peek_raw()
                    .filter(|n| {
                        n.span.start == end
                            && matches!(&n.tok, Tok::Ident(w) if w == ".to_java_bytes")
                    })
                    .map(|n| n.span.end);
                if let Some(e) = suffix {
                    end = e;
                    self.pos += 1;
                }
                return Ok(Spanned {
                    value: Value::Str(bytes),
                    span: t.span.start..end,
                });
            }
            Tok::Int(i) => Value::Int(i),
            Tok::Float(x) => Value::Float(x),
            Tok::Ident(w) => {
                let call = self
                    .tokens
                    .get(self.pos + 1)
                    .is_some_and(|n| n.tok == Tok::LParen && n.span.start == t.span.end);
                if call {
                    self.pos += 1;
                    let (args, parens) =
                        self.bracketed((Tok::LParen, "("), (Tok::RParen, ")"), |p| p.value())?;
                    return Ok(Spanned {
                        value: Value::Call { name: w, args },
                        span: t.span.start..parens.end,
                    });
                }
                Value::Ident(w)
            }
            Tok::LBracket => return self.array(),
            Tok::LBrace => return self.hash(),
            _ => return self.expected("a value"),
        };
        self.pos += 1;
        Ok(Spanned {
            value,
            span: t.span,
        })
    }

    fn array(&mut self) -> Result<Spanned, ParseError> {
        let (items, span) =
            self.bracketed((Tok::LBracket, "["), (Tok::RBracket, "]"), |p| p.value())?;
        Ok(Spanned {
            value: Value::Array(items),
            span,
        })
    }

    fn hash(&mut self) -> Result<Spanned, ParseError> {
        let (pairs, span) = self.bracketed((Tok::LBrace, "{"), (Tok::RBrace, "}"), |p| {
            let key = p.value()?;
            p.expect(Tok::Arrow, "'=>'")?;
            Ok((key, p.value()?))
        })?;
        Ok(Spanned {
            value: Value::Hash(pairs),
            span,
        })
    }

    /// `open item, item, ... close` (a trailing comma allowed), with its whole span.
    fn bracketed<T>(
        &mut self,
        (open_tok, open_text): (Tok, &str),
        (close_tok, close_text): (Tok, &str),
        mut item: impl FnMut(&mut Parser) -> Result<T, ParseError>,
    ) -> Result<(Vec<T>, Range<usize>), ParseError> {
        let open = self.expect(open_tok, &format!("'{open_text}'"))?;
        self.check_depth(&open)?;
        self.depth += 1;
        let mut items = Vec::new();
        while !self.eat(&close_tok) {
            if self.peek().is_none() {
                return Err(ParseError::new(
                    format!("unclosed '{open_text}'"),
                    open,
                    format!("'{close_text}'"),
                ));
            }
            items.push(item(self)?);
            if self.peek().is_none() {
                return Err(ParseError::new(
                    format!("unclosed '{open_text}'"),
                    open,
                    format!("'{close_text}'"),
                ));
            }
            if !self.eat(&Tok::Comma) && !self.peek().is_some_and(|t| t.tok == close_tok) {
                return self.expected(&format!("',' or '{close_text}'"));
            }
        }
        self.depth -= 1;
        let end = self
            .tokens
            .get(self.pos.saturating_sub(1))
            .map(|t| t.span.end)
            .unwrap_or(open.end);
        Ok((items, open.start..end))
    }
}
