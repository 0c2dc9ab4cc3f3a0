//! cbt's arguments: the words a command takes, its `key=value` arguments (cbt's `parseArgs`),
//! the `family:column=value[@timestamp]` of a write, and Go's number and boolean parsing that
//! cbt reads them with.

use crate::kit::sorted::SortedMap;

use super::print;

/// What a command takes, as its entry in the command table declares it; the dispatcher checks
/// the count of words and parses the `key=value` arguments before the command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `words` leading words, then `key=value` arguments whose keys are `keys` (cbt's
    /// `parseArgs(args[words:], keys)`); fewer than `at_least` arguments in all is a usage error.
    Keyed {
        words: usize,
        at_least: usize,
        keys: &'static [&'static str],
    },
    /// Exactly this many words.
    Exactly(usize),
    /// At least this many words, which the command reads itself.
    AtLeast(usize),
    /// Exactly this many words, and optionally an `app-profile=` after them; anything else is
    /// a usage error (`doDeleteRow` and `doDeleteColumn` check so, without `parseArgs`).
    Profiled(usize),
    /// At most this many words.
    AtMost(usize),
}

/// What a command says when its words do not fit its [`Shape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// cbt's usage line.
    Text(&'static str),
    /// cbt's ``Can't do `cbt NAME [words]` ``.
    CantDo,
}

/// The arguments of one command line, checked against its shape.
pub struct Call {
    /// The leading words (every word, for a shape without `key=value` arguments).
    pub words: Vec<Vec<u8>>,
    /// The `key=value` arguments.
    pub keys: Args,
}

impl Call {
    /// Checks `args` (the words after the command's name) against `shape`.
    pub fn parse(name: &str, shape: Shape, usage: Usage, args: &[Vec<u8>]) -> Result<Call, String> {
        let fits = match shape {
            Shape::Keyed { at_least, .. } => args.len() >= at_least,
            Shape::Exactly(n) => args.len() == n,
            Shape::AtLeast(n) => args.len() >= n,
            Shape::AtMost(n) => args.len() <= n,
            Shape::Profiled(n) => {
                args.len() == n
                    || args.len() == n + 1
                        && args.last().is_some_and(|a| a.starts_with(b"app-profile="))
            }
        };
        if !fits {
            return Err(match usage {
                Usage::Text(text) => text.to_string(),
                Usage::CantDo => format!("Can't do `cbt {name} {}`", go_slice(args)),
            });
        }
        match shape {
            Shape::Keyed { words, keys, .. } => {
                let split = words.min(args.len());
                Ok(Call {
                    words: args[..split].to_vec(),
                    keys: parse_args(&args[split..], keys)?,
                })
            }
            Shape::Profiled(n) => Ok(Call {
                words: args[..n].to_vec(),
                keys: Args::default(),
            }),
            _ => Ok(Call {
                words: args.to_vec(),
                keys: Args::default(),
            }),
        }
    }

    /// Word `i` as bytes (empty when absent).
    pub fn word(&self, i: usize) -> &[u8] {
        self.words.get(i).map(Vec::as_slice).unwrap_or_default()
    }

    /// Word `i` as text.
    pub fn text(&self, i: usize) -> String {
        text(self.word(i))
    }
}

/// Bytes as text (a table or family name).
pub fn text(arg: &[u8]) -> String {
    String::from_utf8_lossy(arg).into_owned()
}

/// A slice of arguments as Go's `%v` prints a `[]string`: `[a b]`.
pub fn go_slice(args: &[Vec<u8>]) -> String {
    let items: Vec<String> = args.iter().map(|a| text(a)).collect();
    format!("[{}]", items.join(" "))
}

/// cbt's `parseArgs`: `key=value` arguments, each key one of `valid`; values stay bytes
/// (row keys and prefixes may be any bytes).
fn parse_args(args: &[Vec<u8>], valid: &[&str]) -> Result<Args, String> {
    let mut parsed = SortedMap::new();
    for arg in args {
        let Some(eq) = arg.iter().position(|&c| c == b'=') else {
            return Err(format!("bad arg {}", print::go_quote(arg)));
        };
        let key = text(&arg[..eq]);
        if !valid.contains(&key.as_str()) {
            return Err(format!(
                "unknown arg key {}",
                print::go_quote(key.as_bytes())
            ));
        }
        parsed.insert(key, arg[eq + 1..].to_vec());
    }
    Ok(Args(parsed))
}

/// Parsed `key=value` arguments.
#[derive(Default)]
pub struct Args(SortedMap<String, Vec<u8>>);

impl Args {
    /// The value as text.
    pub fn get(&self, key: &str) -> Option<String> {
        self.0.get(key).map(|v| text(v))
    }

    /// The value as bytes (empty when absent).
    pub fn bytes(&self, key: &str) -> Vec<u8> {
        self.0.get(key).cloned().unwrap_or_default()
    }

    /// The value as bytes, when given.
    pub fn raw(&self, key: &str) -> Option<&[u8]> {
        self.0.get(key).map(Vec::as_slice)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }
}

/// One `family:column=value[@timestamp]` of `set`, `addtocell` or `checkandmutate`.
pub struct CellArg {
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    /// The timestamp after the last `@`, when it parses as an integer.
    pub timestamp: Option<i64>,
    pub value: Vec<u8>,
}

impl CellArg {
    /// cbt's `setArg` (`([^:]+):([^=]*)=(.*)`): the family up to the first colon, the column up
    /// to the next `=`, the value up to a line break (Go's `.` stops there), then cbt's
    /// `value@timestamp`. `None` when the argument does not match.
    pub fn parse(arg: &[u8]) -> Option<CellArg> {
        let colon = arg.iter().position(|&c| c == b':').filter(|&c| c > 0)?;
        let rest = &arg[colon + 1..];
        let eq = rest.iter().position(|&c| c == b'=')?;
        let mut value = rest[eq + 1..].to_vec();
        if let Some(nl) = value.iter().position(|&c| c == b'\n') {
            value.truncate(nl);
        }
        let timestamp = take_timestamp(&mut value);
        Some(CellArg {
            family: arg[..colon].to_vec(),
            qualifier: rest[..eq].to_vec(),
            timestamp,
            value,
        })
    }
}

/// cbt's `value@timestamp`: when what follows the last `@` parses as an integer, it is the
/// timestamp and the value ends before the `@`; otherwise the `@` is part of the value.
pub fn take_timestamp(value: &mut Vec<u8>) -> Option<i64> {
    let at = value.iter().rposition(|&c| c == b'@')?;
    let n = go_parse_int(&value[at + 1..])?;
    value.truncate(at);
    Some(n)
}

/// Go's `strconv.ParseBool`.
pub fn go_parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        other => Err(format!(
            "strconv.ParseBool: parsing {}: invalid syntax",
            print::go_quote(other.as_bytes())
        )),
    }
}

/// Go's `strconv.ParseInt(s, 0, 64)`: a sign, then decimal, `0x` hex, `0o`/`0` octal or `0b`
/// binary digits, with `_` between digits.
pub fn go_parse_int(s: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(s).ok()?;
    let (negative, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d.to_string())
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d.to_string())
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d.to_string())
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower[1..].to_string())
    } else {
        (10, lower.clone())
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    let magnitude = u64::from_str_radix(&clean, radix).ok()?;
    if negative {
        if magnitude > i64::MAX as u64 + 1 {
            None
        } else {
            Some((magnitude as i64).wrapping_neg())
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// One CSV record (Go's `encoding/csv` reading `families=` and `splits=`).
pub fn csv_record(spec: &str) -> Result<Vec<String>, String> {
    super::csv::read_all(spec.as_bytes())?
        .into_iter()
        .next()
        .ok_or_else(|| "EOF".to_string())
}
