//! An HBase shell line as the cbt line that reads or writes the same, where cbt has one: what
//! the gallery's access patterns run in the console's cbt mode.
//!
//! - `get T, ROW[, COLUMN]` is `lookup T ROW [columns=...] cells-per-column=1` (HBase's get
//!   returns the newest version; cbt's lookup every version unless told).
//! - `scan T, {STARTROW, STOPROW, ROWPREFIXFILTER, LIMIT, COLUMNS, REVERSED}` is
//!   `read T [start=] [end=] [prefix=] [count=] [columns=] [reversed=true] cells-per-column=1`.
//! - `count T[, {ROWPREFIXFILTER}]` is `count T [prefix=]`.
//! - `put T, ROW, 'f:q', VALUE[, TS]` is `set T ROW f:q=VALUE[@TS]`, the timestamp in
//!   microseconds (HBase counts milliseconds).
//! - `deleteall T, ROW` is `deleterow T ROW`; `delete T, ROW, 'f:q'` is
//!   `deletecolumn T ROW f q`.
//!
//! `columns=` entries are regular expressions in cbt, so a column's name is escaped. Anything
//! else (a filter, a time range, versions, raw scans, a count over a row range) has no cbt
//! argument: the error says which.

use crate::shell::{parse_script, Command, Value};
use std::fmt::Write as _;

use super::export::quote;

/// The cbt lines of an HBase shell script, one per command, or why one has none.
pub fn cbt_lines(script: &str) -> Result<String, String> {
    let mut out = Vec::new();
    for command in parse_script(script) {
        let command = command.map_err(|e| e.to_string())?;
        out.push(cbt_line(&command)?);
    }
    Ok(out.join("\n"))
}

/// The cbt line of one HBase shell command.
pub fn cbt_line(c: &Command) -> Result<String, String> {
    let args: Vec<&Value> = c.args.iter().map(|a| &a.value).collect();
    let word = |i: usize| -> Result<&[u8], String> {
        match args.get(i) {
            Some(Value::Str(b)) => Ok(b),
            _ => Err(format!("{}: argument {} is not a string", c.name, i + 1)),
        }
    };
    let table = || word(0).map(quote);
    let options = |i: usize| -> Result<Vec<(String, &Value)>, String> {
        match args.get(i) {
            None => Ok(Vec::new()),
            Some(Value::Hash(pairs)) => pairs
                .iter()
                .map(|(k, v)| match &k.value {
                    Value::Ident(name) => Ok((name.clone(), &v.value)),
                    Value::Str(name) => Ok((String::from_utf8_lossy(name).into_owned(), &v.value)),
                    _ => Err(format!("{}: an option that is not a name", c.name)),
                })
                .collect(),
            Some(_) => Err(format!("{}: argument {} is not a hash", c.name, i + 1)),
        }
    };
    match c.name.as_str() {
        "get" => {
            let mut line = format!("lookup {} {}", table()?, quote(word(1)?));
            let columns = match args.get(2) {
                None => Vec::new(),
                Some(Value::Str(col)) => vec![col.clone()],
                Some(Value::Hash(_)) => {
                    let mut columns = Vec::new();
                    for (key, v) in options(2)? {
                        match key.as_str() {
                            "COLUMN" | "COLUMNS" => columns = column_list(v)?,
                            other => return Err(no_argument("get", other)),
                        }
                    }
                    columns
                }
                Some(_) => return Err("get: a column that is not a string".into()),
            };
            push_columns(&mut line, &columns)?;
            line.push_str(" cells-per-column=1");
            Ok(line)
        }
        "scan" => {
            let mut line = format!("read {}", table()?);
            let mut columns = Vec::new();
            for (key, v) in options(1)? {
                match (key.as_str(), v) {
                    ("STARTROW", Value::Str(b)) => push_arg(&mut line, "start", b),
                    ("STOPROW", Value::Str(b)) => push_arg(&mut line, "end", b),
                    ("ROWPREFIXFILTER", Value::Str(b)) => push_arg(&mut line, "prefix", b),
                    ("LIMIT", Value::Int(n)) => {
                        let _ = write!(line, " count={n}");
                    }
                    ("REVERSED", Value::Ident(t)) if t == "true" => line.push_str(" reversed=true"),
                    ("COLUMN" | "COLUMNS", v) => columns = column_list(v)?,
                    (other, _) => return Err(no_argument("scan", other)),
                }
            }
            push_columns(&mut line, &columns)?;
            line.push_str(" cells-per-column=1");
            Ok(line)
        }
        "count" => {
            let mut line = format!("count {}", table()?);
            for (key, v) in options(1)? {
                match (key.as_str(), v) {
                    ("ROWPREFIXFILTER", Value::Str(b)) => push_arg(&mut line, "prefix", b),
                    // How often the shell reports progress: nothing to carry over.
                    ("INTERVAL" | "CACHE", _) => {}
                    (other, _) => {
                        return Err(format!(
                            "count: cbt's count takes only prefix=, not {other}"
                        ))
                    }
                }
            }
            Ok(line)
        }
        "put" if args.len() <= 5 => {
            let (family, qualifier) = column(word(2)?)?;
            let value = word(3)?;
            if value.contains(&b'@') {
                return Err("put: cbt's set would read the value's @ as a timestamp".into());
            }
            let mut cell = [family, b":", qualifier, b"=", value].concat();
            match args.get(4) {
                None => {}
                Some(Value::Int(ms)) if *ms >= 0 => {
                    cell.extend_from_slice(format!("@{}", ms.saturating_mul(1_000)).as_bytes())
                }
                Some(_) => return Err("put: only a timestamp may follow the value".into()),
            }
            Ok(format!(
                "set {} {} {}",
                table()?,
                quote(word(1)?),
                quote(&cell)
            ))
        }
        "deleteall" if args.len() == 2 => Ok(format!("deleterow {} {}", table()?, quote(word(1)?))),
        "delete" if args.len() == 3 => {
            let (family, qualifier) = column(word(2)?)?;
            Ok(format!(
                "deletecolumn {} {} {} {}",
                table()?,
                quote(word(1)?),
                quote(family),
                quote(qualifier)
            ))
        }
        other => Err(format!("{other}: cbt has no command for this form")),
    }
}

/// "scan: cbt has no argument for FILTER".
fn no_argument(command: &str, option: &str) -> String {
    format!("{command}: cbt has no argument for {option}")
}

/// `family:qualifier` split at its first colon.
fn column(bytes: &[u8]) -> Result<(&[u8], &[u8]), String> {
    let at = bytes
        .iter()
        .position(|&b| b == b':')
        .ok_or("a column without a family")?;
    Ok((&bytes[..at], &bytes[at + 1..]))
}

/// The columns of `COLUMN => 'f:q'` or `COLUMNS => ['f', 'f:q']`.
fn column_list(v: &Value) -> Result<Vec<Vec<u8>>, String> {
    match v {
        Value::Str(b) => Ok(vec![b.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|i| match &i.value {
                Value::Str(b) => Ok(b.clone()),
                _ => Err("a column that is not a string".to_string()),
            })
            .collect(),
        _ => Err("columns that are not strings".into()),
    }
}

/// ` name=value` as one shell word.
fn push_arg(line: &mut String, name: &str, value: &[u8]) {
    line.push(' ');
    line.push_str(&quote(&[name.as_bytes(), b"=", value].concat()));
}

/// `columns=` with each HBase column as the regular expressions cbt reads: `f:` for a family,
/// `f:q` with the qualifier's special characters escaped.
fn push_columns(line: &mut String, columns: &[Vec<u8>]) -> Result<(), String> {
    if columns.is_empty() {
        return Ok(());
    }
    let mut entries = Vec::new();
    for col in columns {
        let (family, qualifier) = match col.iter().position(|&b| b == b':') {
            Some(at) => (&col[..at], Some(&col[at + 1..])),
            None => (&col[..], None),
        };
        let mut entry = escape(family)?;
        entry.push(':');
        if let Some(q) = qualifier {
            entry.push_str(&escape(q)?);
        }
        entries.push(entry);
    }
    push_arg(line, "columns", entries.join(",").as_bytes());
    Ok(())
}

/// A name as a regular expression that matches only it; a comma (cbt's separator) has no
/// escape in `columns=`.
fn escape(name: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(name).map_err(|_| "a column name that is not UTF-8")?;
    if text.contains(',') {
        return Err("a column name with a comma, which cbt's columns= cannot hold".into());
    }
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if r"\.+*?()|[]{}^$".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(hbase: &str) -> Result<String, String> {
        cbt_lines(hbase)
    }

    #[test]
    fn reads() -> Result<(), String> {
        assert_eq!(line("get 't', 'r1'")?, "lookup t r1 cells-per-column=1");
        assert_eq!(
            line("get 't', 'r1', 'f:a.b'")?,
            r"lookup t r1 'columns=f:a\.b' cells-per-column=1"
        );
        assert_eq!(
            line("scan 't', {STARTROW => 'a', STOPROW => 'b c', LIMIT => 10}")?,
            "read t start=a 'end=b c' count=10 cells-per-column=1"
        );
        assert_eq!(
            line("scan 't', {ROWPREFIXFILTER => 'u1', COLUMNS => ['f', 'g:x']}")?,
            "read t prefix=u1 columns=f:,g:x cells-per-column=1"
        );
        assert_eq!(
            line("count 't', {ROWPREFIXFILTER => 'p'}")?,
            "count t prefix=p"
        );
        Ok(())
    }

    #[test]
    fn writes() -> Result<(), String> {
        assert_eq!(
            line("put 't', 'r1', 'cf:a', 'old', 1000")?,
            "set t r1 cf:a=old@1000000"
        );
        assert_eq!(line("deleteall 't', 'r1'")?, "deleterow t r1");
        assert_eq!(line("delete 't', 'r1', 'cf:a'")?, "deletecolumn t r1 cf a");
        Ok(())
    }

    #[test]
    fn what_cbt_cannot_say() {
        assert_eq!(
            line("scan 't', {FILTER => \"PrefixFilter('a')\"}"),
            Err("scan: cbt has no argument for FILTER".to_string())
        );
        assert_eq!(
            line("count 't', {STARTROW => 'a'}"),
            Err("count: cbt's count takes only prefix=, not STARTROW".to_string())
        );
        assert_eq!(
            line("major_compact 't'"),
            Err("major_compact: cbt has no command for this form".to_string())
        );
    }
}
