//! Output exactly as the HBase 2.x shell prints it when not attached to a terminal.

use super::convert::Converters;
use crate::engine::descriptor_text;
use crate::engine::{CellRef, OpStats, Row, Table};
use crate::kit::civil::CivilTime;
use crate::kit::order;
use std::fmt::Write as _;

/// How cell timestamps print in `get` and `scan`.
pub enum TimeFormat {
    /// Epoch milliseconds: `timestamp=1700000000000`, as HBase prints with
    /// `hbase.shell.timestamp.format.epoch=true`.
    Epoch,
    /// Local date and time as HBase 2.x prints by default (`toLocalDateTime` in hbase-shell's
    /// `hbase/table.rb`: `LocalDateTime.ofInstant(instant, ZoneId.systemDefault()).toString`),
    /// e.g. `2023-11-14T22:13:20.123`. The function gives the zone's offset from UTC in minutes
    /// at an instant (epoch milliseconds), so a browser can pass its time zone.
    Local(Box<dyn Fn(i64) -> i32>),
}

impl std::fmt::Debug for TimeFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TimeFormat::Epoch => "Epoch",
            TimeFormat::Local(_) => "Local",
        })
    }
}

impl Default for TimeFormat {
    /// HBase's default since 2.3: local date and time, here in UTC until the host says which
    /// zone it is in.
    fn default() -> TimeFormat {
        TimeFormat::Local(Box::new(|_| 0))
    }
}

impl TimeFormat {
    /// A cell timestamp as this format prints it.
    pub fn timestamp(&self, ts: u64) -> String {
        match self {
            TimeFormat::Epoch => ts.to_string(),
            TimeFormat::Local(offset) => {
                let millis = i64::try_from(ts).unwrap_or(i64::MAX);
                let local = millis.saturating_add(i64::from(offset(millis)) * 60_000);
                local_date_time(local)
            }
        }
    }
}

/// Milliseconds since 1970-01-01T00:00 local time as Java's `LocalDateTime.toString` prints
/// them: `uuuu-MM-dd'T'HH:mm`, then `:ss` unless seconds and fraction are zero, then `.SSS`
/// unless the fraction is zero; years below 1000 padded to four digits, above 9999 with `+`.
fn local_date_time(millis: i64) -> String {
    let t = CivilTime::from_millis(millis);
    let (year, month, day, hour, minute) = (t.year, t.month, t.day, t.hour, t.minute);
    let (second, milli) = (t.second, t.millis());
    let year = if year.abs() < 1000 {
        format!("{}{:04}", if year < 0 { "-" } else { "" }, year.abs())
    } else if year > 9999 {
        format!("+{year}")
    } else {
        year.to_string()
    };
    let mut out = format!("{year}-{month:02}-{day:02}T{hour:02}:{minute:02}");
    if second > 0 || milli > 0 {
        let _ = write!(out, ":{second:02}");
        if milli > 0 {
            let _ = write!(out, ".{milli:03}");
        }
    }
    out
}

/// `timestamp=..., value=...` (or `type=...` for a marker), cut to `maxlength` characters as
/// HBase cuts it; the value goes through its column's converter, whose exception is the error.
pub fn cell_text(
    cell: CellRef<'_>,
    maxlength: Option<usize>,
    time: &TimeFormat,
    conv: &Converters,
) -> Result<String, String> {
    let ts = time.timestamp(conv.millis(cell.timestamp));
    let text = if cell.kind.is_delete() {
        format!("timestamp={ts}, type={}", cell.kind.name())
    } else {
        let value = conv.value(cell.family, cell.qualifier, cell.value)?;
        format!("timestamp={ts}, value={value}")
    };
    Ok(match maxlength {
        Some(n) => text.chars().take(n).collect(),
        None => text,
    })
}

/// A cell's `family:qualifier` as `get` and `scan` print it (by the read's `FORMATTER`).
fn column_name(cell: CellRef<'_>, conv: &Converters) -> Result<String, String> {
    Ok(format!(
        "{}:{}",
        conv.name(cell.family, true)?,
        conv.name(cell.qualifier, true)?
    ))
}

/// Scan metrics HBase 2.5's client reports (`ScanMetrics`) that are zero by construction in
/// one engine in one page: there is no remote server to call or retry, and no region moves.
const ZERO_METRICS: &[&str] = &[
    "BYTES_IN_REMOTE_RESULTS",
    "NOT_SERVING_REGION_EXCEPTION",
    "REMOTE_RPC_CALLS",
    "REMOTE_RPC_RETRIES",
    "RPC_RETRIES",
];

/// Scan metrics HBase reports that Rowkey does not measure: they time or count the calls
/// between a client and region servers.
const UNMEASURED_METRICS: &[&str] = &["MILLIS_BETWEEN_NEXTS", "RPC_CALLS"];

/// The scan metrics after a scan's rows, as hbase-shell's `formatter.rb` `scan_metrics` prints
/// them: an empty line, `METRIC  VALUE`, then one ` NAME value` line per metric in
/// alphabetical order, only those in `names` unless it is empty. HBase's names come from
/// [`OpStats::metrics`]; Rowkey's own counters and the metrics it does not measure follow on
/// lines of their own, so the table holds only what HBase would print.
pub fn scan_metrics(stats: &OpStats, names: &[String]) -> String {
    let wanted = |name: &str| names.is_empty() || names.iter().any(|n| n == name);
    let measured = stats.metrics();
    let mut hbase: Vec<(&str, u64)> = measured
        .iter()
        .filter(|m| m.hbase)
        .map(|m| (m.name, m.value))
        .chain(ZERO_METRICS.iter().map(|n| (*n, 0)))
        .filter(|(n, _)| wanted(n))
        .collect();
    order::sort(&mut hbase);
    let mut out = String::from("\nMETRIC  VALUE\n");
    for (name, value) in hbase {
        let _ = writeln!(out, " {name} {value}");
    }
    let own: Vec<String> = measured
        .iter()
        .filter(|m| !m.hbase && wanted(m.name))
        .map(|m| format!("{} {}", m.name, m.value))
        .collect();
    if !own.is_empty() {
        let _ = write!(
            out,
            "Rowkey's own counters (HBase has none): {}\n",
            own.join(", ")
        );
    }
    let unmeasured: Vec<&str> = UNMEASURED_METRICS
        .iter()
        .copied()
        .filter(|n| wanted(n))
        .collect();
    if !unmeasured.is_empty() {
        let _ = write!(
            out,
            "Not measured in a single-machine playground (no client-server calls): {}\n",
            unmeasured.join(", ")
        );
    }
    let unknown: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| {
            !measured.iter().any(|m| m.name == *n)
                && !ZERO_METRICS.contains(n)
                && !UNMEASURED_METRICS.contains(n)
        })
        .collect();
    if !unknown.is_empty() {
        let _ = write!(
            out,
            "No scan metric is called {} (HBase prints nothing for it).\n",
            unknown.join(", ")
        );
    }
    out
}

/// The header line of a scan's output.
pub const SCAN_HEADER: &str = "ROW  COLUMN+CELL\n";

/// The cell lines of a scan's rows, without header or count (one page of a paged scan).
pub fn scan_row_lines(
    rows: &[Row],
    maxlength: Option<usize>,
    time: &TimeFormat,
    conv: &Converters,
) -> Result<String, String> {
    let mut out = String::new();
    for row in rows {
        row_lines(&mut out, row.cells.iter(), maxlength, time, conv)?;
    }
    Ok(out)
}

/// One row's lines of a scan's table (` key column=f:q, timestamp=..., value=...`).
pub fn row_lines<'c>(
    out: &mut String,
    mut cells: impl Iterator<Item = CellRef<'c>>,
    maxlength: Option<usize>,
    time: &TimeFormat,
    conv: &Converters,
) -> Result<(), String> {
    let Some(first) = cells.next() else {
        return Ok(());
    };
    let key = conv.name(first.row, false)?;
    for cell in std::iter::once(first).chain(cells) {
        let _ = write!(
            out,
            " {} column={}, {}\n",
            key,
            column_name(cell, conv)?,
            cell_text(cell, maxlength, time, conv)?
        );
    }
    Ok(())
}

/// The header line of a get's output. The count that ends it is of rows: `_get_internal` in
/// hbase-shell's `table.rb` returns a count of 1 for a row it found, and `formatter.footer`
/// prints `0 row(s)` when it found none.
pub const GET_HEADER: &str = "COLUMN  CELL\n";

/// A get's lines (` f:q timestamp=..., value=...`), one a cell.
pub fn get_lines<'a>(
    out: &mut String,
    cells: impl Iterator<Item = CellRef<'a>>,
    maxlength: Option<usize>,
    time: &TimeFormat,
    conv: &Converters,
) -> Result<(), String> {
    for cell in cells {
        let _ = write!(
            out,
            " {} {}\n",
            column_name(cell, conv)?,
            cell_text(cell, maxlength, time, conv)?
        );
    }
    Ok(())
}

pub fn took(seconds: f64) -> String {
    format!("Took {seconds:.4} seconds\n")
}

/// `describe`'s output.
pub fn describe(table: &Table) -> String {
    let d = &table.descriptor;
    let mut out = format!(
        "Table {} is {}\n",
        d.name,
        if table.enabled { "ENABLED" } else { "DISABLED" }
    );
    out.push_str(&d.name);
    out.push_str(&descriptor_text::attributes(d));
    out.push('\n');
    out.push_str("COLUMN FAMILIES DESCRIPTION\n");
    for f in &d.families {
        out.push_str(&descriptor_text::family(f));
        out.push_str("\n\n");
    }
    let _ = writeln!(out, "{} row(s)", d.families.len());
    // describe.rb: without the `hbase:quota` table (quotas are off unless
    // `hbase.quota.enabled`, and Rowkey has none), the last line says so.
    out.push_str("Quota is disabled\n");
    out
}

/// A Ruby array of strings, as the shell echoes return values.
pub fn ruby_array(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::local_date_time;

    /// Years as `java.time.LocalDate.toString` pads them.
    #[test]
    fn years_pad_to_four_digits_and_sign_past_9999() {
        assert_eq!(local_date_time(0), "1970-01-01T00:00");
        assert_eq!(local_date_time(-62_135_596_800_000), "0001-01-01T00:00");
        assert_eq!(local_date_time(253_402_300_800_000), "+10000-01-01T00:00");
        assert_eq!(
            local_date_time(951_782_400_000 - 1),
            "2000-02-28T23:59:59.999"
        );
        assert_eq!(local_date_time(951_868_800_000), "2000-03-01T00:00");
    }
}
