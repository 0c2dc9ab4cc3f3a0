//! Reading a command's arguments: by position with count checks, values of the expected kind,
//! and `{KEY => value}` hashes whose unread keys are refused.

use std::fmt::Write as _;
use std::ops::Range;

use crate::commands;
use crate::shell::ast::{Command, Spanned, Value};
use crate::shell::ShellError;

/// What reading an argument gives: the value, or the error with its span. The error is boxed:
/// every `?` of the commands then moves one pointer, not the error's eight words.
pub(crate) type Res<T> = Result<T, Box<ShellError>>;

/// An error at `span`.
pub(super) fn fail<T>(message: impl Into<String>, span: Range<usize>) -> Res<T> {
    Err(error(message.into(), span))
}

/// The boxed error [`fail`] returns, made in one place rather than at each of the commands'
/// hundred-odd failures.
#[inline(never)]
fn error(message: String, span: Range<usize>) -> Box<ShellError> {
    Box::new(ShellError {
        message,
        span,
        command: None,
    })
}

/// The arguments of one command, read by position with checks.
pub(crate) struct Args<'a> {
    pub(super) cmd: &'a Command,
}

impl<'a> Args<'a> {
    /// Checks the count of arguments against the command table's, before the command runs;
    /// the error points at the arguments past the last one taken, or at the whole command.
    pub(super) fn check_arity(&self, arity: commands::Arity) -> Res<()> {
        let n = self.cmd.args.len();
        if arity.allows(n) {
            return Ok(());
        }
        let span = match arity.max.filter(|max| n > *max) {
            Some(max) => {
                self.cmd.args.get(max).map(|a| a.span.start).unwrap_or(0)..self.cmd.span.end
            }
            None => self.cmd.span.clone(),
        };
        fail(arity.message(n), span)
    }

    pub(super) fn get(&self, i: usize) -> Option<&'a Spanned> {
        self.cmd.args.get(i)
    }

    pub(super) fn bytes(&self, i: usize, what: &str) -> Res<Vec<u8>> {
        match self.get(i) {
            Some(a) => bytes_of(a, what),
            None => fail(
                format!("missing {what}"),
                self.cmd.span.end..self.cmd.span.end,
            ),
        }
    }

    /// A value written as table.rb writes a put's or an append's value,
    /// `value.to_s.to_java_bytes`: a number as Ruby prints it (`5`, `1.5`), `nil` as no bytes,
    /// `true` and `false` as their names, an array or a hash as Ruby inspects it (`[1, 2]`,
    /// `{"a"=>1}`; the shell's constants inside are strings).
    pub(super) fn value_text(&self, i: usize, what: &str) -> Res<Vec<u8>> {
        match self.get(i).map(|a| &a.value) {
            Some(Value::Float(x)) => Ok(crate::shell::convert::ruby_float(*x).into_bytes()),
            Some(v @ (Value::Array(_) | Value::Hash(_))) => {
                Ok(super::dml::ruby_inspect(v, true).into_bytes())
            }
            Some(Value::Ident(w)) if matches!(w.as_str(), "nil" | "true" | "false") => {
                Ok(if w == "nil" {
                    Vec::new()
                } else {
                    w.clone().into_bytes()
                })
            }
            _ => self.bytes(i, what),
        }
    }

    pub(super) fn text(&self, i: usize, what: &str) -> Res<String> {
        let b = self.bytes(i, what)?;
        String::from_utf8(b).or_else(|_| fail(format!("{what} must be text"), self.span(i)))
    }

    /// A table name: `TableName.valueOf` drops the `default:` namespace, so `'default:t'`
    /// names the table `t`.
    pub(super) fn table(&self, i: usize) -> Res<String> {
        let name = self.text(i, "table name")?;
        Ok(match name.strip_prefix("default:") {
            Some(rest) => rest.to_string(),
            None => name,
        })
    }

    pub(super) fn span(&self, i: usize) -> Range<usize> {
        self.get(i)
            .map(|a| a.span.clone())
            .unwrap_or(self.cmd.span.clone())
    }

    /// Where the arguments from the `from`-th on name `family` as a column (a string
    /// `'family'` or `'family:qualifier'`, alone, in a list, or under a `COLUMN` or `COLUMNS`
    /// key): what an error about that family points at. The `from`-th argument when none
    /// does, or the command.
    pub(super) fn family_span(&self, from: usize, family: &str) -> Range<usize> {
        fn find(v: &Spanned, family: &[u8]) -> Option<Range<usize>> {
            match &v.value {
                Value::Str(s) => {
                    let named = s.split(|b| *b == b':').next() == Some(family);
                    named.then(|| v.span.clone())
                }
                Value::Array(items) => items.iter().find_map(|i| find(i, family)),
                Value::Hash(pairs) => pairs
                    .iter()
                    .filter(|(k, _)| {
                        word_of(&k.value).is_some_and(|w| w == "COLUMN" || w == "COLUMNS")
                    })
                    .find_map(|(_, v)| find(v, family)),
                _ => None,
            }
        }
        let named = self.cmd.args.iter().skip(from);
        named
            .clone()
            .find_map(|a| find(a, family.as_bytes()))
            .unwrap_or_else(|| self.span(from))
    }

    /// The trailing options hash, if the last argument is one.
    pub(super) fn trailing_hash(&self) -> Option<&'a Spanned> {
        self.cmd
            .args
            .last()
            .filter(|a| matches!(a.value, Value::Hash(_)))
    }

    pub(super) fn positional(&self) -> usize {
        self.cmd.args.len() - usize::from(self.trailing_hash().is_some())
    }
}

pub(super) fn bytes_of(a: &Spanned, what: &str) -> Res<Vec<u8>> {
    match &a.value {
        Value::Str(b) => Ok(b.clone()),
        Value::Int(i) => Ok(i.to_string().into_bytes()),
        other => fail(
            format!("expected {what} as a string, found {}", kind_name(other)),
            a.span.clone(),
        ),
    }
}

pub(super) fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Str(_) => "a string",
        Value::Int(_) => "a number",
        Value::Float(_) => "a Float",
        Value::Ident(_) => "a constant",
        Value::Array(_) => "an array",
        Value::Hash(_) => "a hash",
        Value::Call { .. } => "a Java object",
    }
}

pub(super) fn int_of(a: &Spanned, what: &str) -> Res<i64> {
    match &a.value {
        Value::Int(i) => Ok(*i),
        Value::Str(b) => match std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            Some(v) => Ok(v),
            None => fail(format!("{what} must be a number"), a.span.clone()),
        },
        other => fail(
            format!("{what} must be a number, found {}", kind_name(other)),
            a.span.clone(),
        ),
    }
}

pub(super) fn uint_of(a: &Spanned, what: &str) -> Res<u64> {
    let v = int_of(a, what)?;
    u64::try_from(v).or_else(|_| fail(format!("{what} must not be negative"), a.span.clone()))
}

/// The text of a word-like argument: a constant (`TRUE`, `FOREVER`) or a string.
pub(super) fn word_of(v: &Value) -> Option<String> {
    match v {
        Value::Ident(w) => Some(w.clone()),
        Value::Str(b) => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    }
}

pub(super) fn bool_of(a: &Spanned, what: &str) -> Res<bool> {
    let Some(text) = word_of(&a.value) else {
        return fail(
            format!(
                "{what} must be true or false, found {}",
                kind_name(&a.value)
            ),
            a.span.clone(),
        );
    };
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => fail(format!("{what} must be true or false"), a.span.clone()),
    }
}

/// A `{KEY => value}` hash whose keys are checked off as they are read.
pub(super) struct Opts<'a> {
    pub(super) pairs: Vec<(String, &'a Spanned, Range<usize>)>,
}

impl<'a> Opts<'a> {
    pub(super) fn of(a: &'a Spanned) -> Res<Opts<'a>> {
        let Value::Hash(pairs) = &a.value else {
            return fail(
                format!("expected a hash of options, found {}", kind_name(&a.value)),
                a.span.clone(),
            );
        };
        let mut out = Vec::new();
        for (k, v) in pairs {
            let Some(key) = word_of(&k.value) else {
                return fail(
                    format!(
                        "option names are constants or strings, found {}",
                        kind_name(&k.value)
                    ),
                    k.span.clone(),
                );
            };
            out.push((key, v, k.span.clone()));
        }
        Ok(Opts { pairs: out })
    }

    pub(super) fn empty() -> Opts<'a> {
        Opts { pairs: Vec::new() }
    }

    pub(super) fn take(&mut self, key: &str) -> Option<&'a Spanned> {
        let i = self.pairs.iter().position(|p| p.0 == key)?;
        Some(self.pairs.remove(i).1)
    }

    /// Refuses any option nobody read, naming the ones that exist and the likely one meant.
    pub(super) fn done(self, known: &[&str], ignored: &[&str]) -> Res<()> {
        for (key, _, span) in self.pairs {
            if !ignored.contains(&key.as_str()) {
                let mut message =
                    format!("unknown option {key}; expected one of {}", known.join(", "));
                if let Some(near) = commands::closest(&key, known.iter().copied()) {
                    let _ = write!(message, "\nDid you mean {near}?");
                }
                return fail(message, span);
            }
        }
        Ok(())
    }
}

/// `family:qualifier` (a bare `family` means the whole family).
pub(super) fn split_column(col: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
    match col.iter().position(|b| *b == b':') {
        Some(i) => (
            col.get(..i).unwrap_or(&[]).to_vec(),
            Some(col.get(i + 1..).unwrap_or(&[]).to_vec()),
        ),
        None => (col.to_vec(), None),
    }
}

/// A column as reads take it: a family, and a qualifier unless the whole family.
pub(super) type Column = (Vec<u8>, Option<Vec<u8>>);

/// One column or an array of columns.
pub(super) fn columns_of(a: &Spanned) -> Res<Vec<Column>> {
    match &a.value {
        Value::Array(items) => items
            .iter()
            .map(|i| bytes_of(i, "column").map(|c| split_column(&c)))
            .collect(),
        _ => Ok(vec![split_column(&bytes_of(a, "column")?)]),
    }
}

/// The column of `incr`, `get_counter` and `append`: `family:qualifier`, or a bare `family`
/// for the family's empty qualifier. Recent `table.rb` splits these with `split_column_name`
/// and passes a missing qualifier on as `nil`, which `Increment.addColumn`, `Get.addColumn`
/// and `Append.addColumn` take as the empty qualifier (older shells refused it with "Failed to
/// provide both column family and column qualifier").
pub(super) fn counter_column(args: &Args<'_>, i: usize) -> Res<(Vec<u8>, Vec<u8>)> {
    let (family, qualifier) = split_column(&args.bytes(i, "column")?);
    Ok((family, qualifier.unwrap_or_default()))
}

/// A `family:qualifier` argument that must name a column.
pub(super) fn qualified(args: &Args<'_>, i: usize) -> Res<(Vec<u8>, Vec<u8>)> {
    let col = args.bytes(i, "column")?;
    match split_column(&col) {
        (f, Some(q)) => Ok((f, q)),
        (_, None) => fail(
            "Failed to provide both column family and column qualifier",
            args.span(i),
        ),
    }
}
