//! cbt's output, byte for byte: rows (`printRow`), Go's `%q`, timestamps, the `Summary
//! Stats` block and Go's `text/tabwriter` layout of `ls`.

use std::fmt::Write;

use crate::engine::{CellRef, Cells};
use crate::kit::civil::Zone;

/// A row as cbt prints it: 40 dashes, the key, then per family in name order and per column
/// `  fam:col` padded to 40 characters, `@ ` and the time, and the value as Go's `%q`; a blank
/// line ends the row. A timestamp times `micros_per_unit` counts microseconds (1,000 for an HBase
/// table's milliseconds).
pub fn row(out: &mut Vec<u8>, key: &[u8], cells: &Cells, zone: &Zone, micros_per_unit: u64) {
    out.extend_from_slice(b"----------------------------------------\n");
    out.extend_from_slice(key);
    out.push(b'\n');
    // Families in name order, columns and versions in the order the read returned them.
    let mut order: Vec<CellRef<'_>> = cells.iter().collect();
    crate::kit::order::sort_by(&mut order, |a, b| a.family.cmp(b.family));
    for cell in order {
        let mut column = cell.family.to_vec();
        column.push(b':');
        column.extend_from_slice(cell.qualifier);
        out.extend_from_slice(b"  ");
        let width = String::from_utf8_lossy(&column).chars().count();
        out.extend_from_slice(&column);
        out.extend(std::iter::repeat_n(b' ', 40usize.saturating_sub(width)));
        out.extend_from_slice(b" @ ");
        out.extend_from_slice(
            timestamp(zone, cell.timestamp.saturating_mul(micros_per_unit)).as_bytes(),
        );
        out.extend_from_slice(b"\n    ");
        out.extend_from_slice(go_quote(cell.value).as_bytes());
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// What a read saw and returned (`include-stats=full`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    pub rows_seen: u64,
    pub rows_returned: u64,
    pub cells_seen: u64,
    pub cells_returned: u64,
}

/// The `Summary Stats` block; the server's latency is Rowkey's own (it has no network).
pub fn stats(out: &mut Vec<u8>, s: &ReadStats, latency_ms: u64) {
    let mut text = String::new();
    let _ = write!(
        text,
        "Summary Stats\n====================\nrows_seen_count: {}\nrows_returned_count: {}\ncells_seen_count: {}\ncells_returned_count: {}\nfrontend_server_latency: {latency_ms}ms\n\n",
        s.rows_seen, s.rows_returned, s.cells_seen, s.cells_returned
    );
    out.extend_from_slice(text.as_bytes());
}

/// A timestamp in microseconds as cbt prints it, Go's `2006/01/02-15:04:05.000000` in the
/// zone cbt's process is in (`time.Local`; natively the zone `TZ` names, in the page the
/// browser's or UTC). cbt reads the timestamp as an `int64`; Rowkey holds one past that at the
/// largest.
pub fn timestamp(zone: &Zone, micros: u64) -> String {
    let t = zone.civil(micros.min(i64::MAX as u64) as i64);
    format!(
        "{:04}/{:02}/{:02}-{:02}:{:02}:{:02}.{:06}",
        t.year, t.month, t.day, t.hour, t.minute, t.second, t.micros
    )
}

/// Go's `%q` of a byte string (`strconv.Quote`): printable UTF-8 kept, `\a \b \f \n \r \t \v
/// \\ \"` escaped, other control characters as `\xNN` (below 0x80) or `\uNNNN`, bytes that are
/// not UTF-8 as `\xNN`.
pub fn go_quote(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                quote_str(&mut out, valid);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                quote_str(&mut out, std::str::from_utf8(valid).unwrap_or_default());
                let bad = e.error_len().unwrap_or(after.len()).max(1);
                for b in &after[..bad.min(after.len())] {
                    let _ = write!(out, "\\x{b:02x}");
                }
                rest = &after[bad.min(after.len())..];
            }
        }
    }
    out.push('"');
    out
}

/// Go's `%q` of one rune (`strconv.QuoteRune`).
pub fn go_quote_rune(c: char) -> String {
    let mut out = String::from("'");
    if c == '\'' {
        out.push_str("\\'");
    } else if c == '"' {
        out.push('"');
    } else {
        let mut s = String::new();
        quote_str(&mut s, c.encode_utf8(&mut [0; 4]));
        out.push_str(&s);
    }
    out.push('\'');
    out
}

fn quote_str(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
}

/// Go's `unicode.IsPrint` for the characters Rowkey's users write: letters, marks, numbers,
/// punctuation, symbols and the ASCII space; not controls, formats, other spaces or private use.
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F
        | 0x202A..=0x202E | 0x2060..=0x206F | 0xD800..=0xDFFF | 0xE000..=0xF8FF
        | 0xFEFF | 0xFFF9..=0xFFFB | 0xFFFE | 0xFFFF | 0xF0000..=0x10FFFF)
}

/// Go's `text/tabwriter` with cbt's settings (`NewWriter(w, 10, 8, 4, '\t', 0)`): cells end in a
/// tab, a column is as wide as its widest cell plus 4 (at least 10), rounded up to a multiple of
/// 8 and filled with tabs; the text after a line's last tab is not a cell.
pub fn tabwriter(lines: &[Vec<String>]) -> String {
    const MIN_WIDTH: usize = 10;
    const TAB_WIDTH: usize = 8;
    const PADDING: usize = 4;
    let columns = lines
        .iter()
        .map(|l| l.len().saturating_sub(1))
        .max()
        .unwrap_or(0);
    let mut widths = vec![MIN_WIDTH; columns];
    for line in lines {
        for (i, cell) in line.iter().take(line.len().saturating_sub(1)).enumerate() {
            let w = cell.chars().count() + PADDING;
            if w > widths[i] {
                widths[i] = w;
            }
        }
    }
    let mut out = String::new();
    for line in lines {
        let last = line.len().saturating_sub(1);
        for (i, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if i < last {
                let cellw = widths[i].div_ceil(TAB_WIDTH) * TAB_WIDTH;
                let n = cellw - cell.chars().count();
                out.extend(std::iter::repeat_n('\t', n.div_ceil(TAB_WIDTH)));
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quotes() {
        assert_eq!(go_quote(b"\x01\xff\"q"), r#""\x01\xff\"q""#);
        assert_eq!(go_quote("é\t".as_bytes()), "\"é\\t\"");
        assert_eq!(go_quote("\u{200b}".as_bytes()), "\"\\u200b\"");
    }

    #[test]
    fn timestamps() {
        assert_eq!(timestamp(&Zone::Utc, 4_000), "1970/01/01-00:00:00.004000");
        assert_eq!(
            timestamp(&Zone::Utc, 1_700_000_000_123_000),
            "2023/11/14-22:13:20.123000"
        );
        assert_eq!(
            timestamp(&Zone::Fixed(7200), 1_700_000_000_123_000),
            "2023/11/15-00:13:20.123000"
        );
    }

    #[test]
    fn tabwriter_as_go() {
        let lines = vec![
            vec![
                "Family Name".into(),
                "GC Policy".into(),
                "Value Type".into(),
            ],
            vec!["cf2".into(), "".into(), "{}".into()],
            vec!["cf1".into(), "versions() > 2".into(), "{}".into()],
        ];
        assert_eq!(
            tabwriter(&lines),
            "Family Name\tGC Policy\t\tValue Type\ncf2\t\t\t\t\t{}\ncf1\t\tversions() > 2\t\t{}\n"
        );
    }
}
