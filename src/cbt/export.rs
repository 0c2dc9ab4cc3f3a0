//! A Bigtable table taken to a real instance: as a cbt script (`createtable` with its families,
//! policies and splits, then one `set` per row with every version and its timestamp) and as a
//! CSV for `cbt import TABLE FILE timestamp=value-encoded` (the newest version of each column;
//! a CSV has one cell per column).

use super::session::Session;
use crate::engine::{Row, Scan};
use crate::kit::sorted::SortedMap;
use std::fmt::Write as _;

/// Every row of the table, all versions, in key order.
fn rows(session: &mut Session, table: &str) -> Result<Vec<Row>, String> {
    let mut scan = Scan {
        max_versions: u32::MAX,
        ..Scan::default()
    };
    session
        .engine
        .read(table, &mut scan)
        .map(|out| out.rows)
        .map_err(|e| e.to_string())
}

/// A family's policy in cbt's syntax: a Bigtable table's as cbt set it, an HBase table's as its
/// retention reads in Bigtable's terms (`None`: keep every version).
fn policy(session: &Session, table: &str, family: &str) -> Option<String> {
    let t = session.engine.table(table).ok()?;
    if t.descriptor.rules == super::BIGTABLE_RULES {
        return session.gc_policy(table, family);
    }
    let policy = super::GcPolicy::of_family(t.descriptor.family(family.as_bytes())?);
    (policy != super::GcPolicy::Never).then(|| policy.to_cbt())
}

/// The table as cbt lines; an HBase table as the Bigtable table that holds the same cells.
pub fn script(session: &mut Session, table: &str) -> Result<String, String> {
    let t = session.engine.table(table).map_err(|e| e.to_string())?;
    let families: Vec<String> = t
        .descriptor
        .families
        .iter()
        .map(|f| f.name.clone())
        .collect();
    let per_milli = session.micros_per_unit(table);
    let splits = session.engine.splits(table).map_err(|e| e.to_string())?;
    let mut out = format!("createtable {}", quote(table.as_bytes()));
    if !families.is_empty() {
        let specs: Vec<String> = families
            .iter()
            .map(|f| match policy(session, table, f) {
                Some(p) => format!("{f}:{p}"),
                None => f.clone(),
            })
            .collect();
        out.push(' ');
        out.push_str(&quote(format!("families={}", specs.join(",")).as_bytes()));
    }
    if !splits.is_empty() {
        let mut arg = b"splits=".to_vec();
        for (i, key) in splits.iter().enumerate() {
            if i > 0 {
                arg.push(b',');
            }
            arg.extend_from_slice(&csv_field(key));
        }
        out.push(' ');
        out.push_str(&quote(&arg));
    }
    out.push('\n');
    for row in rows(session, table)? {
        let mut line = format!("set {} {}", quote(table.as_bytes()), quote(row.row()));
        for cell in &row.cells {
            let mut arg = cell.family.to_vec();
            arg.push(b':');
            arg.extend_from_slice(&cell.qualifier);
            arg.push(b'=');
            arg.extend_from_slice(&cell.value);
            arg.extend_from_slice(
                format!("@{}", cell.timestamp.saturating_mul(per_milli)).as_bytes(),
            );
            line.push(' ');
            line.push_str(&quote(&arg));
        }
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// The table as a CSV with a family row and a column row (bytes: keys and values are any bytes).
pub fn csv(session: &mut Session, table: &str) -> Result<Vec<u8>, String> {
    let per_milli = session.micros_per_unit(table);
    let rows = rows(session, table)?;
    // Every column, grouped by family, in name order.
    let mut columns: SortedMap<(Vec<u8>, Vec<u8>), usize> = SortedMap::new();
    for row in &rows {
        for cell in &row.cells {
            columns.insert((cell.family.to_vec(), cell.qualifier.to_vec()), 0);
        }
    }
    for (i, slot) in columns.values_mut().enumerate() {
        *slot = i + 1;
    }
    let mut family_row = vec![Vec::new()];
    let mut column_row = vec![Vec::new()];
    let mut last_family: Option<&[u8]> = None;
    for (family, qualifier) in columns.keys() {
        if last_family != Some(family.as_slice()) {
            family_row.push(csv_field(family));
            last_family = Some(family.as_slice());
        } else {
            family_row.push(Vec::new());
        }
        column_row.push(csv_field(qualifier));
    }
    let mut out = family_row.join(&b',');
    out.push(b'\n');
    out.extend_from_slice(&column_row.join(&b','));
    out.push(b'\n');
    for row in &rows {
        let mut fields = vec![Vec::new(); columns.len() + 1];
        fields[0] = csv_field(row.row());
        for cell in &row.cells {
            let Some(&i) = columns.get(&(cell.family.to_vec(), cell.qualifier.to_vec())) else {
                continue;
            };
            // Cells come newest first within a column: the first one wins.
            if fields[i].is_empty() {
                let mut value = cell.value.to_vec();
                let micros = cell.timestamp.saturating_mul(per_milli);
                value.extend_from_slice(format!("@{micros}").as_bytes());
                fields[i] = csv_field(&value);
            }
        }
        out.extend_from_slice(&fields.join(&b','));
        out.push(b'\n');
    }
    Ok(out)
}

/// A field of Go's CSV: quoted when it holds a comma, a quote or a line break, or starts
/// with a space.
fn csv_field(bytes: &[u8]) -> Vec<u8> {
    let special = bytes
        .iter()
        .any(|&c| matches!(c, b',' | b'"' | b'\n' | b'\r'))
        || bytes.first() == Some(&b' ');
    if !special {
        return bytes.to_vec();
    }
    let mut out = vec![b'"'];
    for &c in bytes {
        if c == b'"' {
            out.push(b'"');
        }
        out.push(c);
    }
    out.push(b'"');
    out
}

/// A shell word that reads back as `bytes`: bare when it is plain, in single quotes when it is
/// printable text, and in bash's `$'...'` otherwise.
pub fn quote(bytes: &[u8]) -> String {
    let plain = |c: u8| c.is_ascii_alphanumeric() || b"-_.:/=,@%+#".contains(&c);
    if !bytes.is_empty() && bytes.iter().all(|&c| plain(c)) && bytes[0] != b'#' {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !text.chars().any(|c| c.is_control() || c == '\'') {
            return format!("'{text}'");
        }
    }
    let mut out = String::from("$'");
    for &b in bytes {
        match b {
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out.push('\'');
    out
}
