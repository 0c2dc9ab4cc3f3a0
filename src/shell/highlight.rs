//! Syntax colours for shell input, from the shell's own lexer: what the input box shows is
//! what the parser will see. Never fails: what does not lex is marked, and lexing resumes.

use std::ops::Range;

use super::lexer::{step, Raw, Tok};
use crate::commands::{self, CommandSpec, Dialect};

/// What a span of input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A known command name at the start of a statement.
    Command,
    /// A hash key that is an option of the statement's command.
    Option,
    /// A string literal; one with no closing quote runs to the end of the input.
    Str,
    Number,
    /// Any other bare word: `true`, `nil`, a key the command does not know.
    Constant,
    /// `,` `=>` `;` and brackets.
    Punct,
    Comment,
    /// What the parser will refuse: an unknown command, a stray character, a bad number.
    Error,
}

impl Class {
    /// The CSS class the console gives the span.
    pub fn css(self) -> &'static str {
        match self {
            Class::Command => "hl-cmd",
            Class::Option => "hl-opt",
            Class::Str => "hl-str",
            Class::Number => "hl-num",
            Class::Constant => "hl-const",
            Class::Punct => "hl-punct",
            Class::Comment => "hl-comment",
            Class::Error => "hl-error",
        }
    }
}

/// The classes of `src` in order: byte ranges on char boundaries, not overlapping; what lies
/// between them (blanks, newlines) is plain. Linear in the length of `src`.
pub fn highlight(src: &str) -> Vec<(Range<usize>, Class)> {
    let b = src.as_bytes();
    let mut raws = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let (raw, next) = step(src, b, i);
        let next = next.max(i + 1).min(b.len());
        raws.push((i..next, raw));
        i = next;
    }
    let mut out = Vec::with_capacity(raws.len());
    // Where a statement starts, a word is a command name.
    let mut at_start = true;
    let mut command: Option<&'static CommandSpec> = None;
    let mut depth = 0usize;
    let mut continues = false;
    for (k, (span, raw)) in raws.iter().enumerate() {
        let class = match raw {
            Raw::Space => continue,
            Raw::Comment => Some(Class::Comment),
            Raw::Unterminated(_) => Some(Class::Str),
            Raw::Error(_) => Some(Class::Error),
            Raw::Tok(Tok::End) => {
                let newline = b.get(span.start) == Some(&b'\n');
                if !newline || (depth == 0 && !continues) {
                    at_start = true;
                    command = None;
                    depth = 0;
                    continues = false;
                }
                if newline {
                    continue;
                }
                Some(Class::Punct)
            }
            Raw::Tok(Tok::Ident(word)) if at_start => {
                command = commands::find(Dialect::HBase, word);
                Some(if command.is_some() {
                    Class::Command
                } else {
                    Class::Error
                })
            }
            Raw::Tok(Tok::Ident(word)) => {
                let is_key = raws
                    .get(k + 1..)
                    .and_then(|rest| rest.iter().find(|(_, r)| *r != Raw::Space))
                    .is_some_and(|(_, r)| *r == Raw::Tok(Tok::Arrow));
                let known = command.is_some_and(|c| c.options.contains(&word.as_str()));
                Some(if is_key && known {
                    Class::Option
                } else {
                    Class::Constant
                })
            }
            Raw::Tok(Tok::Str { .. }) => Some(Class::Str),
            Raw::Tok(Tok::Int(_) | Tok::Float(_)) => Some(Class::Number),
            Raw::Tok(tok) => {
                match tok {
                    Tok::LBrace | Tok::LBracket | Tok::LParen => depth += 1,
                    Tok::RBrace | Tok::RBracket | Tok::RParen => depth = depth.saturating_sub(1),
                    _ => {}
                }
                Some(Class::Punct)
            }
        };
        if let Some(class) = class {
            if !matches!(raw, Raw::Comment | Raw::Tok(Tok::End)) {
                at_start = false;
                continues = matches!(raw, Raw::Tok(Tok::Comma | Tok::Arrow));
            }
            out.push((span.clone(), class));
        }
    }
    out
}
