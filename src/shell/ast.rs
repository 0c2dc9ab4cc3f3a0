//! The shell's syntax tree: a command name and its arguments, each with its span. Printing a
//! tree gives canonical shell text that parses back to the same tree.

use std::fmt;
use std::fmt::Write as _;
use std::ops::Range;

/// An argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(Vec<u8>),
    Int(i64),
    /// A Ruby Float (`LOCALITY_THRESHOLD => 0.8`), always finite.
    Float(f64),
    /// A bare word: a constant such as `VERSIONS`, or `true`, `false`, `nil`.
    Ident(String),
    Array(Vec<Spanned>),
    Hash(Vec<(Spanned, Spanned)>),
    /// A JRuby method call on a Java class: `org.apache.hadoop.hbase.filter.PageFilter.new(10)`,
    /// `Bytes.toBytes('r')`. The shell builds filter objects this way.
    Call {
        name: String,
        args: Vec<Spanned>,
    },
}

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned {
    pub value: Value,
    pub span: Range<usize>,
}

/// One command as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// The variable a table reference is assigned to (`t = get_table 't1'`), and its span.
    pub target: Option<(String, Range<usize>)>,
    pub name: String,
    pub name_span: Range<usize>,
    pub args: Vec<Spanned>,
    pub span: Range<usize>,
}

impl Value {
    /// The value ignoring spans, for comparing trees.
    pub fn strip(&self) -> Value {
        match self {
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| Spanned {
                        value: i.value.strip(),
                        span: 0..0,
                    })
                    .collect(),
            ),
            Value::Hash(pairs) => Value::Hash(
                pairs
                    .iter()
                    .map(|(k, v)| {
                        (
                            Spanned {
                                value: k.value.strip(),
                                span: 0..0,
                            },
                            Spanned {
                                value: v.value.strip(),
                                span: 0..0,
                            },
                        )
                    })
                    .collect(),
            ),
            Value::Call { name, args } => Value::Call {
                name: name.clone(),
                args: args
                    .iter()
                    .map(|a| Spanned {
                        value: a.value.strip(),
                        span: 0..0,
                    })
                    .collect(),
            },
            other => other.clone(),
        }
    }
}

/// A string literal as canonical text: single quotes when the bytes are printable and need
/// no escape, double quotes with `\xNN` escapes otherwise.
pub fn quote(bytes: &[u8]) -> String {
    let plain = bytes
        .iter()
        .all(|b| (b' '..=b'~').contains(b) && *b != b'\'' && *b != b'\\');
    if plain {
        return format!("'{}'", String::from_utf8_lossy(bytes));
    }
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'#' => out.push_str("\\x23"),
            b' '..=b'~' => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    out.push('"');
    out
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Str(b) => f.write_str(&quote(b)),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => {
                // Rust prints 1.0 as "1": keep the point, so it reads back as a Float.
                let text = x.to_string();
                if text.contains('.') {
                    f.write_str(&text)
                } else {
                    write!(f, "{text}.0")
                }
            }
            Value::Ident(w) => f.write_str(w),
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", item.value)?;
                }
                f.write_str("]")
            }
            Value::Call { name, args } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", a.value)?;
                }
                f.write_str(")")
            }
            Value::Hash(pairs) => {
                f.write_str("{")?;
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} => {}", k.value, v.value)?;
                }
                f.write_str("}")
            }
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((target, _)) = &self.target {
            write!(f, "{target} = ")?;
        }
        f.write_str(&self.name)?;
        for (i, arg) in self.args.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{}", arg.value)?;
        }
        Ok(())
    }
}
