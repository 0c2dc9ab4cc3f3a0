//! A submitted text read statement by statement, as the HBase shell reads pasted lines: each
//! statement is lexed and parsed only when its turn comes, so the first command runs before the
//! rest of a large paste has been looked at, and an error stays with its own statement.
//!
//! A statement is a line, continued while a bracket or string is open or the line ends in a
//! token that asks for more (a comma, `=>`, an operator), by the rule of [`is_incomplete`].
//! Where irb would read on to the end of the input, a paste stops an open statement at the next
//! line that starts with a command name: an unterminated string or bracket is then an error of
//! its own statement, and the commands after it still run.
//!
//! [`is_incomplete`]: super::is_incomplete

use std::collections::VecDeque;
use std::ops::Range;

use super::ast::Command;
use super::lexer::Reader;
use super::parser::parse_range;
use super::ParseError;
use crate::commands::{self, Dialect};

/// A submitted text and how far it has been read.
#[derive(Debug)]
pub struct Script {
    text: String,
    /// Where the next statement starts.
    pos: usize,
    /// The 1-based line number at `pos`.
    line: usize,
    /// Commands of the statement read last (a line may hold several, split by `;`), not yet
    /// handed out.
    pending: VecDeque<Statement>,
}

/// One command of a script, parsed or not.
#[derive(Debug)]
pub(super) struct Statement {
    pub result: Result<Command, ParseError>,
    /// The text of the command, or of the part of the statement that failed to parse.
    pub span: Range<usize>,
    /// 1-based line number of `span.start`.
    pub line: usize,
}

impl Script {
    pub fn new(text: String) -> Script {
        let mut script = Script {
            text,
            pos: 0,
            line: 1,
            pending: VecDeque::new(),
        };
        script.skip_blanks();
        script
    }

    /// The submitted text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether every statement has been handed out.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty() && self.pos >= self.text.len()
    }

    /// Bytes read so far and the total: what a progress bar shows.
    pub fn progress(&self) -> (usize, usize) {
        let done = self
            .pending
            .front()
            .map(|s| s.span.start)
            .unwrap_or(self.pos);
        (done.min(self.text.len()), self.text.len())
    }

    /// The next command, reading the next statement when the last one is used up.
    pub(super) fn next_statement(&mut self) -> Option<Statement> {
        while self.pending.is_empty() && self.pos < self.text.len() {
            self.read_statement();
        }
        self.pending.pop_front()
    }

    /// The next line as it is, moving past it (what Ruby's `gets` reads while a command waits
    /// for an answer); `None` at the end of the text. Commands of the last statement that
    /// are not handed out yet stay for after it.
    pub(super) fn next_line(&mut self) -> Option<(Range<usize>, usize)> {
        let start = self.pos;
        let rest = self.text.get(start..).filter(|r| !r.is_empty())?;
        let len = rest.find('\n').unwrap_or(rest.len());
        let end = start
            + rest
                .get(..len)
                .map_or(0, |l| l.trim_end_matches('\r').len());
        let line = self.line;
        self.pos = start + len;
        self.skip_blanks();
        Some((start..end, line))
    }

    /// Moves past blanks, empty lines and `;`, counting lines.
    fn skip_blanks(&mut self) {
        let b = self.text.as_bytes();
        while let Some(&c) = b.get(self.pos) {
            match c {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' | b';' | 0x0b | 0x0c => {}
                _ => break,
            }
            self.pos += 1;
        }
    }

    /// Reads one statement from `pos`: finds where it ends, parses it, queues its commands.
    fn read_statement(&mut self) {
        let start = self.pos;
        let end = statement_end(&self.text, start);
        let first_line = self.line;
        let results = parse_range(&self.text, start..end);
        let text = &self.text;
        let mut line = first_line;
        let mut counted = start;
        let mut line_at = |at: usize| {
            let at = at.clamp(counted, end);
            line += text
                .as_bytes()
                .get(counted..at)
                .map(|s| s.iter().filter(|c| **c == b'\n').count())
                .unwrap_or(0);
            counted = at;
            line
        };
        // An error covers the part of the statement between the commands around it.
        let mut seg_start = start;
        let n = results.len();
        let mut queued = Vec::with_capacity(n);
        for (k, result) in results.iter().enumerate() {
            let span = match result {
                Ok(cmd) => cmd.span.clone(),
                Err(_) => {
                    let seg_end = results
                        .get(k + 1..)
                        .and_then(|rest| rest.iter().find_map(|r| r.as_ref().ok()))
                        .map(|c| c.span.start)
                        .unwrap_or(end);
                    trim(text, seg_start..seg_end)
                }
            };
            seg_start = span.end;
            queued.push(span);
        }
        for (result, span) in results.into_iter().zip(queued) {
            let line = line_at(span.start);
            self.pending.push_back(Statement { result, span, line });
        }
        self.line = line_at(end);
        self.pos = end;
        self.skip_blanks();
    }
}

/// Where the statement starting at `start` ends: the end of its last line (before the
/// newline), or of the text.
fn statement_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let mut reader = Reader::default();
    let mut i = start;
    loop {
        let line_end = b
            .get(i..)
            .and_then(|r| r.iter().position(|c| *c == b'\n'))
            .map(|n| i + n)
            .unwrap_or(b.len());
        reader.line(b.get(i..line_end).unwrap_or_default());
        let next = line_end + 1;
        if !reader.is_open() || next >= b.len() || starts_command(b.get(next..).unwrap_or_default())
        {
            return line_end;
        }
        i = next;
    }
}

/// Whether a line starts with a known command name followed by what may follow one.
fn starts_command(line: &[u8]) -> bool {
    let word_start = line
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t'))
        .unwrap_or(line.len());
    let rest = line.get(word_start..).unwrap_or_default();
    let len = rest
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .unwrap_or(rest.len());
    let after = rest.get(len).copied();
    let word = std::str::from_utf8(rest.get(..len).unwrap_or_default()).unwrap_or("");
    let follows = matches!(
        after,
        None | Some(b' ' | b'\t' | b'\r' | b'\'' | b'"' | b'(' | b';' | b'#')
    );
    follows && commands::find(Dialect::HBase, word).is_some()
}

/// `range` without blanks and `;` at either end.
fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let Some(s) = text.get(range.clone()) else {
        return range;
    };
    let blank = |c: char| c.is_whitespace() || c == ';';
    let lead = s.len() - s.trim_start_matches(blank).len();
    let kept = s.trim_start_matches(blank).trim_end_matches(blank).len();
    if kept == 0 {
        return range;
    }
    range.start + lead..range.start + lead + kept
}

/// Parses a whole script at once: every command, or its error.
pub fn parse_script(src: &str) -> Vec<Result<Command, ParseError>> {
    let mut script = Script::new(src.to_string());
    std::iter::from_fn(|| script.next_statement())
        .map(|s| s.result)
        .collect()
}
