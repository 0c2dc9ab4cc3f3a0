//! Tab completion from the live schema: command names, table names, column families and the
//! qualifiers a table holds, option keys and filter names, each where the shell expects it.

use std::ops::Range;

use super::ast::quote;
use super::lexer::{step, Raw, Tok};
use crate::commands::{self, CommandSpec, Dialect, Role};
use crate::engine::{Engine, Scan};
use crate::filter::{filter_names, parse_filter};
use crate::kit::sorted::SortedSet;

/// What Tab offers: the byte range of the input to replace and what may replace it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    pub replace: Range<usize>,
    /// Sorted, without duplicates; empty when there is nothing to offer.
    pub candidates: Vec<String>,
}

impl Completion {
    /// The longest prefix the candidates share: what Tab fills in when there are several.
    pub fn common(&self) -> String {
        let Some(first) = self.candidates.first() else {
            return String::new();
        };
        let mut len = first.len();
        for c in self.candidates.iter().skip(1) {
            len = first
                .char_indices()
                .zip(c.chars())
                .take_while(|((i, a), b)| *i < len && a == b)
                .map(|((i, a), _)| i + a.len_utf8())
                .last()
                .unwrap_or(0);
        }
        first.get(..len).unwrap_or_default().to_string()
    }
}

/// How many rows, and cells, completion reads to learn a family's qualifiers.
const QUALIFIER_ROWS: usize = 2_000;
const QUALIFIER_CELLS: usize = 2_000;

/// Completes the input at `cursor` (a byte offset; clamped to the input and moved back to a
/// char boundary).
pub fn complete(src: &str, cursor: usize, engine: &Engine) -> Completion {
    let mut cursor = cursor.min(src.len());
    while !src.is_char_boundary(cursor) {
        cursor -= 1;
    }
    let statement = statement_before(src, cursor);
    let (word, earlier) = match statement.split_last() {
        Some((last, earlier)) if last.0.end == cursor => match &last.1 {
            Raw::Tok(Tok::Ident(w)) => (Word::Bare(w.clone(), last.0.start), earlier),
            Raw::Unterminated(_) => (Word::Quoted(last.0.start), earlier),
            Raw::Tok(Tok::Arrow) | Raw::Tok(Tok::Comma) | Raw::Tok(Tok::LBrace) => {
                (Word::Empty, statement.as_slice())
            }
            Raw::Tok(Tok::LBracket) | Raw::Tok(Tok::LParen) => (Word::Empty, statement.as_slice()),
            _ => return Completion::at(cursor),
        },
        _ => (Word::Empty, statement.as_slice()),
    };
    let place = place(earlier);
    let c = Context {
        src,
        cursor,
        engine,
        word,
    };
    c.complete(place).unwrap_or_else(|| Completion::at(cursor))
}

impl Completion {
    fn at(cursor: usize) -> Completion {
        Completion {
            replace: cursor..cursor,
            candidates: Vec::new(),
        }
    }
}

/// The word being completed.
enum Word {
    /// Nothing typed yet.
    Empty,
    /// A bare word and where it starts.
    Bare(String, usize),
    /// An open string and where its quote is.
    Quoted(usize),
}

/// Where in a command the cursor stands.
#[derive(Debug)]
enum Place {
    CommandName,
    /// The n-th argument of a command, at the top level.
    Arg(&'static CommandSpec, usize, Option<String>),
    /// A key of a hash.
    Key(&'static CommandSpec),
    /// The value of a hash key (or an item of an array that is that value).
    Value(String, Option<String>),
    Nothing,
}

/// The tokens of the statement the cursor is in, up to the cursor.
fn statement_before(src: &str, cursor: usize) -> Vec<(Range<usize>, Raw)> {
    let b = src.as_bytes().get(..cursor).unwrap_or_default();
    let mut out: Vec<(Range<usize>, Raw)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let (raw, next) = step(src, b, i);
        let next = next.max(i + 1).min(b.len());
        let span = i..next;
        i = next;
        match &raw {
            Raw::Space | Raw::Comment => continue,
            Raw::Tok(Tok::End) => {
                let newline = b.get(span.start) == Some(&b'\n');
                let continues = out
                    .last()
                    .is_some_and(|(_, r)| matches!(r, Raw::Tok(Tok::Comma | Tok::Arrow)));
                if !newline || (depth == 0 && !continues) {
                    out.clear();
                    depth = 0;
                }
                continue;
            }
            Raw::Tok(Tok::LBrace | Tok::LBracket | Tok::LParen) => depth += 1,
            Raw::Tok(Tok::RBrace | Tok::RBracket | Tok::RParen) => depth = depth.saturating_sub(1),
            _ => {}
        }
        out.push((span, raw));
    }
    out
}

/// Where the tokens leave the cursor.
fn place(tokens: &[(Range<usize>, Raw)]) -> Place {
    let Some((first, rest)) = tokens.split_first() else {
        return Place::CommandName;
    };
    let Raw::Tok(Tok::Ident(name)) = &first.1 else {
        return Place::Nothing;
    };
    let Some(spec) = commands::find(Dialect::HBase, name) else {
        return Place::Nothing;
    };
    let mut arg = 0;
    let mut table: Option<String> = None;
    // Open brackets: for a hash, the key whose value is being written (if past `=>`).
    let mut stack: Vec<(Tok, Option<String>)> = Vec::new();
    // A hash without braces at the top level: the key being written, if past `=>`.
    let mut bare: Option<Option<String>> = None;
    let mut last_key: Option<String> = None;
    for (_, raw) in rest {
        match raw {
            Raw::Tok(Tok::LParen) if stack.is_empty() && arg == 0 => {}
            Raw::Tok(Tok::LBrace) => stack.push((Tok::LBrace, None)),
            Raw::Tok(Tok::LBracket) => stack.push((Tok::LBracket, None)),
            Raw::Tok(Tok::RBrace | Tok::RBracket | Tok::RParen) => {
                stack.pop();
            }
            Raw::Tok(Tok::Arrow) => {
                let key = last_key.take();
                match stack.last_mut() {
                    Some((Tok::LBrace, k)) => *k = key,
                    Some(_) => {}
                    None => bare = Some(key),
                }
            }
            Raw::Tok(Tok::Comma) => match stack.last_mut() {
                Some((Tok::LBrace, k)) => *k = None,
                Some(_) => {}
                None => {
                    if let Some(k) = bare.as_mut() {
                        *k = None;
                    } else {
                        arg += 1;
                    }
                }
            },
            Raw::Tok(Tok::Ident(w)) => last_key = Some(w.clone()),
            Raw::Tok(Tok::Str { bytes, .. }) => {
                if stack.is_empty() && bare.is_none() && arg == 0 {
                    table = Some(String::from_utf8_lossy(bytes).into_owned());
                }
                last_key = Some(String::from_utf8_lossy(bytes).into_owned());
            }
            _ => {}
        }
    }
    let in_hash = |key: &Option<String>| match key {
        Some(k) => Place::Value(k.clone(), table.clone()),
        None => Place::Key(spec),
    };
    // The innermost hash, and whether an array sits inside its value.
    match stack.last() {
        Some((Tok::LBrace, key)) => in_hash(key),
        Some(_) => match stack.iter().rev().find(|(t, _)| *t == Tok::LBrace) {
            Some((_, Some(k))) => Place::Value(k.clone(), table.clone()),
            Some((_, None)) => Place::Nothing,
            None => match &bare {
                Some(Some(k)) => Place::Value(k.clone(), table.clone()),
                _ => Place::Nothing,
            },
        },
        None => match &bare {
            Some(key) => in_hash(key),
            None => Place::Arg(spec, arg, table),
        },
    }
}

struct Context<'a> {
    src: &'a str,
    cursor: usize,
    engine: &'a Engine,
    word: Word,
}

impl Context<'_> {
    fn complete(&self, place: Place) -> Option<Completion> {
        match place {
            Place::CommandName => {
                let (prefix, start) = self.bare()?;
                // The commands Rowkey runs; the cluster ones answer only when typed in full.
                let names = commands::complete_name(Dialect::HBase, &prefix).map(str::to_string);
                Some(self.offer(start, names))
            }
            Place::Arg(spec, 0, _) if spec.name == "help" => {
                let (prefix, start, double) = self.text()?;
                let names = commands::of(Dialect::HBase).map(|c| c.name);
                let names = names.filter(|n| n.starts_with(&prefix));
                Some(self.offer(start, names.map(|n| quoted(n.as_bytes(), double))))
            }
            Place::Arg(spec, 0, _) if spec.role(0) == Some(Role::Table) => {
                let (prefix, start, double) = self.text()?;
                let tables = self.engine.tables().map(|t| t.descriptor.name.clone());
                let tables = tables.filter(|n| n.starts_with(&prefix));
                Some(self.offer(start, tables.map(|n| quoted(n.as_bytes(), double))))
            }
            Place::Arg(spec, 2, Some(table)) if spec.role(2) == Some(Role::Column) => {
                self.columns(&table, false)
            }
            Place::Key(spec) => {
                let (prefix, start) = self.bare()?;
                let keys = spec.options.iter().map(|k| k.to_string());
                Some(self.offer(start, keys.filter(|k| k.starts_with(&prefix))))
            }
            Place::Value(key, Some(table)) if key == "COLUMN" || key == "COLUMNS" => {
                self.columns(&table, true)
            }
            Place::Value(key, _) if key == "FILTER" => self.filter_name(),
            _ => None,
        }
    }

    /// The bare word typed so far and where it starts; none inside a string.
    fn bare(&self) -> Option<(String, usize)> {
        match &self.word {
            Word::Empty => Some((String::new(), self.cursor)),
            Word::Bare(w, start) => Some((w.clone(), *start)),
            Word::Quoted(_) => None,
        }
    }

    /// What is typed of a string value (a bare word counts as its start), where it starts,
    /// and whether it is double-quoted.
    fn text(&self) -> Option<(String, usize, bool)> {
        match &self.word {
            Word::Empty => Some((String::new(), self.cursor, false)),
            Word::Bare(w, start) => Some((w.clone(), *start, false)),
            Word::Quoted(open) => {
                let double = self.src.as_bytes().get(*open) == Some(&b'"');
                let typed = self.src.get(open + 1..self.cursor)?;
                Some((typed.to_string(), *open, double))
            }
        }
    }

    /// The candidates, replacing from `start` to the cursor and what continues the word
    /// after it (the rest of a bare word, or of a string up to its closing quote).
    fn offer(&self, start: usize, candidates: impl Iterator<Item = String>) -> Completion {
        let candidates: SortedSet<String> = candidates.into_iter().collect();
        let after = self.src.get(self.cursor..).unwrap_or_default();
        let tail = match &self.word {
            Word::Bare(..) => after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len()),
            Word::Quoted(open) => {
                let quote = char::from(self.src.as_bytes().get(*open).copied().unwrap_or(b'\''));
                let line = after.split('\n').next().unwrap_or_default();
                line.find(quote).map(|n| n + 1).unwrap_or(0)
            }
            Word::Empty => 0,
        };
        Completion {
            replace: start..self.cursor + tail,
            candidates: candidates.into_iter().collect(),
        }
    }

    /// Families (`'f:`, and `'f'` where a whole family may stand) or, after a colon, the
    /// qualifiers a bounded read of the table finds in that family.
    fn columns(&self, table: &str, family_alone: bool) -> Option<Completion> {
        let (typed, start, double) = self.text()?;
        let t = self.engine.table(table).ok()?;
        let families = t.descriptor.families.iter().map(|f| f.name.clone());
        let Some((family, qualifier)) = typed.split_once(':') else {
            let mut out = Vec::new();
            for f in families.filter(|f| f.starts_with(&typed)) {
                let mut open = quoted(format!("{f}:").as_bytes(), double);
                open.pop();
                out.push(open);
                if family_alone {
                    out.push(quoted(f.as_bytes(), double));
                }
            }
            return Some(self.offer(start, out.into_iter()));
        };
        let qualifiers = self.qualifiers(table, family);
        let matching = qualifiers
            .into_iter()
            .filter(|q| q.starts_with(qualifier.as_bytes()))
            .map(|q| {
                let mut column = format!("{family}:").into_bytes();
                column.extend(q);
                quoted(&column, double)
            });
        Some(self.offer(start, matching))
    }

    /// Distinct qualifiers of `family` in the first rows of the table.
    fn qualifiers(&self, table: &str, family: &str) -> SortedSet<Vec<u8>> {
        let mut scan = Scan {
            columns: vec![(family.as_bytes().to_vec(), None)],
            limit: Some(QUALIFIER_ROWS),
            filter: parse_filter("KeyOnlyFilter() AND ColumnPaginationFilter(200, 0)").ok(),
            ..Scan::default()
        };
        let Ok(out) = self.engine.read(table, &mut scan) else {
            return SortedSet::new();
        };
        out.rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .take(QUALIFIER_CELLS)
            .map(|c| c.qualifier.to_vec())
            .collect()
    }

    /// Filter names, for the word before the cursor inside a FILTER string where a filter
    /// may start (the string's start, after `(`, or after `AND`, `OR`, `SKIP`, `WHILE`).
    fn filter_name(&self) -> Option<Completion> {
        let Word::Quoted(open) = self.word else {
            return None;
        };
        let inside = self.src.get(open + 1..self.cursor)?;
        let word_len = inside
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        let before = inside.get(..inside.len() - word_len)?.trim_end();
        let word = inside.get(inside.len() - word_len..)?;
        let starts = before.is_empty()
            || before.ends_with('(')
            || ["AND", "OR", "SKIP", "WHILE"]
                .iter()
                .any(|k| before.ends_with(k));
        if !starts {
            return None;
        }
        let names = filter_names().filter(|n| n.starts_with(word));
        Some(Completion {
            replace: self.cursor - word_len..self.cursor,
            candidates: names
                .map(|n| n.to_string())
                .collect::<SortedSet<String>>()
                .into_iter()
                .collect(),
        })
    }
}

/// A string literal in the quotes the user chose.
fn quoted(bytes: &[u8], double: bool) -> String {
    let single = quote(bytes);
    if !double || single.starts_with('"') {
        return single;
    }
    let mut out = String::from("\"");
    for c in single
        .get(1..single.len().saturating_sub(1))
        .unwrap_or_default()
        .chars()
    {
        match c {
            '"' => out.push_str("\\\""),
            '#' => out.push_str("\\x23"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
