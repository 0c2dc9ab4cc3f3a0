//! Bringing a real table in: the output of an HBase 2.x shell `scan`, or a CSV whose header
//! names the key column `row` and the other columns `family:qualifier`, read into a table
//! ([`ImportedTable`]) that becomes shell commands: one `create` with the families, keeping as
//! many versions as the text shows, and one `put` per cell with its timestamp. Run through the
//! console like anything typed, the import is saved like any command and can be replayed.
//!
//! # A scan's output
//!
//! As hbase-shell prints it (`_scan_internal` and `to_string` in `hbase/table.rb`, the row
//! layout in `shell/formatter.rb`): a header `ROW  COLUMN+CELL`, then one line per cell
//!
//! ```text
//!  row1   column=f:q, timestamp=1700000000000, value=v
//!  row1   column=f:q, timestamp=2023-11-14T22:13:20.000, value=older
//! ```
//!
//! with the row key, qualifier and value as `Bytes.toStringBinary` prints them (`\xHH` for a
//! byte that is not printable ASCII), the family as text, the timestamp in epoch milliseconds
//! (`hbase.shell.timestamp.format.epoch`) or as a local date and time, and a trailer
//! `N row(s)` and `Took 0.0123 seconds`. A scan with `VERSIONS` shows every version, each on its
//! own line; a `RAW` scan shows delete markers as `type=Delete...`, which are counted and left
//! out. The row key is separated from `column=` by spaces (one when piped, padding on a
//! terminal), so trailing spaces of a row key cannot be told from the padding and are dropped.
//!
//! # A CSV
//!
//! RFC 4180 fields (quoted fields may hold commas, newlines and doubled quotes). The header names
//! the key column `row` (anywhere) and every other column `family:qualifier`. Each non-empty
//! field is a cell, its text taken as it is (no `\xHH` escapes), all at one timestamp.

use std::fmt;
use std::fmt::Write as _;

use crate::bytes::from_printable;
use crate::kit::order;
use crate::kit::sorted::SortedMap;
use crate::shell::quote;

/// One cell read from the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportCell {
    pub row: Vec<u8>,
    pub family: String,
    pub qualifier: Vec<u8>,
    pub timestamp: u64,
    pub value: Vec<u8>,
}

/// A table read from the text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportedTable {
    /// The name the text gives (a `scan 'name'` prompt line in a pasted session), if any.
    pub name: Option<String>,
    /// The families, in order of first appearance.
    pub families: Vec<String>,
    pub cells: Vec<ImportCell>,
    /// Delete markers of a `RAW` scan, left out.
    pub markers_skipped: usize,
    /// Cells those markers hide (the scan was `RAW`, so it shows them), left out with them:
    /// imported, they would show again.
    pub masked_skipped: usize,
    /// What the text was read as.
    pub format: Format,
}

/// The kinds of text an import reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Scan,
    Csv,
}

/// Why a text could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// 1-based line.
    pub line: usize,
    /// 1-based character column in the line, where it helps.
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {c}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ImportError {}

fn error(line: usize, column: Option<usize>, message: impl Into<String>) -> ImportError {
    ImportError {
        line,
        column,
        message: message.into(),
    }
}

/// How the ISO timestamps of a scan are read: the zone offset from UTC, in minutes, at an
/// instant (epoch milliseconds). HBase prints local time in the shell's zone.
pub type Offset<'a> = &'a dyn Fn(i64) -> i32;

/// Reads a scan's output or a CSV, whichever the text is: a scan's output has `column=` in a
/// line before any line could be a CSV header.
pub fn parse(text: &str, offset: Offset, csv_timestamp: u64) -> Result<ImportedTable, ImportError> {
    if looks_like_scan(text) {
        parse_scan(text, offset)
    } else {
        parse_csv(text, csv_timestamp)
    }
}

fn looks_like_scan(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(5)
        .any(|l| l.contains(" column=") || l.starts_with("ROW ") || l.starts_with("hbase("))
}

/// A delete marker a `RAW` scan shows (`type=Delete`, `DeleteColumn`, `DeleteFamily`,
/// `DeleteFamilyVersion`).
struct Marker {
    row: Vec<u8>,
    family: String,
    qualifier: Vec<u8>,
    timestamp: u64,
    kind: String,
}

impl Marker {
    /// Whether the marker masks `cell`, as a read decides it (`ScanDeleteTracker.isDeleted`):
    /// a family marker every version of its family at or before its time, a column marker
    /// every version of its column at or before it, a version marker the one version at it.
    fn hides(&self, cell: &ImportCell) -> bool {
        if self.row != cell.row || self.family != cell.family {
            return false;
        }
        let column = self.qualifier == cell.qualifier;
        match self.kind.as_str() {
            "DeleteFamily" => cell.timestamp <= self.timestamp,
            "DeleteFamilyVersion" => cell.timestamp == self.timestamp,
            "DeleteColumn" => column && cell.timestamp <= self.timestamp,
            "Delete" => column && cell.timestamp == self.timestamp,
            _ => false,
        }
    }
}

impl ImportedTable {
    fn add(&mut self, cell: ImportCell) {
        if !self.families.contains(&cell.family) {
            self.families.push(cell.family.clone());
        }
        self.cells.push(cell);
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        let mut rows: Vec<&[u8]> = self.cells.iter().map(|c| c.row.as_slice()).collect();
        order::sort(&mut rows);
        rows.dedup();
        rows.len()
    }

    /// The most versions any one cell has in the text, per family: what `VERSIONS` must keep.
    pub fn versions(&self) -> SortedMap<&str, usize> {
        let mut stamps: Vec<(&str, &[u8], &[u8], u64)> = self
            .cells
            .iter()
            .map(|c| {
                (
                    c.family.as_str(),
                    c.row.as_slice(),
                    c.qualifier.as_slice(),
                    c.timestamp,
                )
            })
            .collect();
        order::sort(&mut stamps);
        stamps.dedup();
        let mut out: SortedMap<&str, usize> = SortedMap::new();
        for cell in stamps.chunk_by(|a, b| (a.0, a.1, a.2) == (b.0, b.1, b.2)) {
            if let Some((family, ..)) = cell.first() {
                let n = out.entry(*family).or_insert(1);
                *n = (*n).max(cell.len());
            }
        }
        out
    }

    /// The shell commands that load the table as `name`: a `create` with every family keeping
    /// at least as many versions as the text shows (HBase's default of 1 otherwise), then a put
    /// per cell with its timestamp.
    pub fn script(&self, name: &str) -> String {
        let versions = self.versions();
        let families: Vec<String> = self
            .families
            .iter()
            .map(|f| {
                let v = versions.get(f.as_str()).copied().unwrap_or(1);
                if v > 1 {
                    format!("{{NAME => {}, VERSIONS => {v}}}", quote(f.as_bytes()))
                } else {
                    quote(f.as_bytes())
                }
            })
            .collect();
        let table = quote(name.as_bytes());
        let mut out = format!("create {table}, {}\n", families.join(", "));
        for c in &self.cells {
            let mut column = c.family.as_bytes().to_vec();
            column.push(b':');
            column.extend_from_slice(&c.qualifier);
            let _ = write!(
                out,
                "put {table}, {}, {}, {}, {}\n",
                quote(&c.row),
                quote(&column),
                quote(&c.value),
                c.timestamp
            );
        }
        out
    }
}

/// Reads the output of an HBase shell `scan`.
pub fn parse_scan(text: &str, offset: Offset) -> Result<ImportedTable, ImportError> {
    let mut table = ImportedTable {
        format: Format::Scan,
        ..ImportedTable::default()
    };
    let mut markers: Vec<Marker> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() || is_chrome(trimmed) {
            continue;
        }
        if let Some(name) = prompt_table(trimmed) {
            table.name.get_or_insert(name);
            continue;
        }
        let Some(at) = line.find(" column=") else {
            return Err(error(
                n,
                None,
                format!(
                    "not a line of a scan's output (expected “ROW  column=family:qualifier, timestamp=…, value=…”): {}",
                    shorten(trimmed)
                ),
            ));
        };
        let row_text = line[..at].trim_start().trim_end_matches(' ');
        if row_text.is_empty() {
            return Err(error(
                n,
                Some(1),
                "the line has no row key before “column=”",
            ));
        }
        let col_start = at + " column=".len();
        let rest = &line[col_start..];
        let Some(colon) = rest.find(':') else {
            return Err(error(
                n,
                Some(char_col(line, col_start)),
                "the column has no family: expected column=family:qualifier",
            ));
        };
        let family = &rest[..colon];
        if family.is_empty() {
            return Err(error(
                n,
                Some(char_col(line, col_start)),
                "the column's family is empty",
            ));
        }
        let Some(ts_at) = rest.find(", timestamp=") else {
            return Err(error(
                n,
                Some(char_col(line, col_start)),
                "expected “, timestamp=” after the column",
            ));
        };
        if ts_at < colon {
            return Err(error(
                n,
                Some(char_col(line, col_start)),
                "the column has no family: expected column=family:qualifier",
            ));
        }
        let qualifier = &rest[colon + 1..ts_at];
        let ts_start = col_start + ts_at + ", timestamp=".len();
        let after_ts = &line[ts_start..];
        let (ts_text, tail) = match after_ts.find(", ") {
            Some(p) => (&after_ts[..p], &after_ts[p + 2..]),
            None => (after_ts, ""),
        };
        let ts_col = char_col(line, ts_start);
        let timestamp = parse_timestamp(ts_text, offset).map_err(|m| error(n, Some(ts_col), m))?;
        if let Some(kind) = tail.strip_prefix("type=") {
            table.markers_skipped += 1;
            markers.push(Marker {
                row: from_printable(row_text),
                family: family.to_string(),
                qualifier: from_printable(qualifier),
                timestamp,
                kind: kind.trim().to_string(),
            });
            continue;
        }
        let Some(value) = tail.strip_prefix("value=") else {
            return Err(error(
                n,
                Some(char_col(line, ts_start + ts_text.len())),
                "expected “, value=” after the timestamp",
            ));
        };
        table.add(ImportCell {
            row: from_printable(row_text),
            family: family.to_string(),
            qualifier: from_printable(qualifier),
            timestamp,
            value: from_printable(value),
        });
    }
    // Each cell against its own row's markers only: a paste of a scan with many markers stays
    // linear in its lines.
    let mut by_row: crate::kit::hash::FastMap<&[u8], Vec<&Marker>> = Default::default();
    for m in &markers {
        by_row.entry(m.row.as_slice()).or_default().push(m);
    }
    let before = table.cells.len();
    table.cells.retain(|c| {
        !by_row
            .get(c.row.as_slice())
            .is_some_and(|ms| ms.iter().any(|m| m.hides(c)))
    });
    table.masked_skipped = before - table.cells.len();
    if table.cells.is_empty() {
        return Err(error(
            text.lines().count().max(1),
            None,
            "no cells: the text has no line of the form “ROW  column=family:qualifier, timestamp=…, value=…”",
        ));
    }
    Ok(table)
}

/// The header, the trailer, and the shell's other lines around a scan.
fn is_chrome(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["ROW", "COLUMN+CELL"] => true,
        [n, "row(s)", ..] => n.parse::<u64>().is_ok(),
        ["Took", _, "seconds"] => true,
        ["=>", ..] => true,
        _ => false,
    }
}

/// The table of a prompt line such as `hbase(main):001:0> scan 'users'`, or `hbase:001:0>` in
/// newer shells.
fn prompt_table(line: &str) -> Option<String> {
    if !line.starts_with("hbase") {
        return None;
    }
    let gt = line.find('>')?;
    let command = line[gt + 1..].trim_start();
    let rest = command.strip_prefix("scan")?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let end = rest[1..].find(quote)?;
    Some(rest[1..1 + end].to_string())
}

/// Epoch milliseconds, or a local date and time as Java's `LocalDateTime.toString` prints it
/// (`2023-11-14T22:13`, `…:20`, `…:20.5`, `…:20.123`, up to nanoseconds).
fn parse_timestamp(text: &str, offset: Offset) -> Result<u64, String> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text
            .parse::<u64>()
            .ok()
            .filter(|t| *t <= i64::MAX as u64)
            .ok_or_else(|| format!("the timestamp {text} is too large"));
    }
    let bad = || {
        format!(
            "the timestamp “{}” is neither epoch milliseconds nor a date and time like 2023-11-14T22:13:20.000",
            shorten(text)
        )
    };
    let (date, time) = text.split_once('T').ok_or_else(bad)?;
    let d: Vec<&str> = date.split('-').collect();
    let [y, mo, da] = d.as_slice() else {
        return Err(bad());
    };
    let (hms, frac) = match time.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (time, None),
    };
    let t: Vec<&str> = hms.split(':').collect();
    let (h, mi, s) = match t.as_slice() {
        [h, m] => (*h, *m, "0"),
        [h, m, s] => (*h, *m, *s),
        _ => return Err(bad()),
    };
    let num = |s: &str, max: i64| -> Result<i64, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 4 {
            return Err(bad());
        }
        s.parse::<i64>().ok().filter(|v| *v <= max).ok_or_else(bad)
    };
    let (y, mo, da) = (num(y, 9999)?, num(mo, 12)?, num(da, 31)?);
    let (h, mi, s) = (num(h, 23)?, num(mi, 59)?, num(s, 59)?);
    if mo == 0 || da == 0 {
        return Err(bad());
    }
    let millis = match frac {
        None => 0,
        Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            let padded = format!("{f:0<9}");
            padded[..3].parse::<i64>().map_err(|_| bad())?
        }
        Some(_) => return Err(bad()),
    };
    let local = crate::kit::civil::days_from_civil(y, mo as u32, da as u32) * 86_400_000
        + ((h * 60 + mi) * 60 + s) * 1000
        + millis;
    // The instant whose local time this is: the offset at the guess, then at the instant.
    let guess = local - i64::from(offset(local)) * 60_000;
    let utc = local - i64::from(offset(guess)) * 60_000;
    u64::try_from(utc).map_err(|_| format!("the timestamp “{text}” is before 1970"))
}

/// 1-based character column of a byte offset in a line.
fn char_col(line: &str, byte: usize) -> usize {
    line.get(..byte).map(|s| s.chars().count()).unwrap_or(0) + 1
}

fn shorten(text: &str) -> String {
    crate::kit::text::clipped(text, 60)
}

/// One CSV field, and where it started.
struct Field {
    text: String,
    line: usize,
    column: usize,
}

/// Splits CSV text into records of fields (RFC 4180, with `\n` or `\r\n` line ends).
fn csv_records(text: &str) -> Result<Vec<(usize, Vec<Field>)>, ImportError> {
    let mut records = Vec::new();
    let mut fields: Vec<Field> = Vec::new();
    let mut field = String::new();
    let (mut line, mut column) = (1usize, 1usize);
    let mut start = (1usize, 1usize);
    let mut record_line = 1usize;
    let mut chars = text.chars().peekable();
    // Inside quotes; the line and column where they opened.
    let mut quoted: Option<(usize, usize)> = None;
    let mut was_quoted = false;
    let mut at_field_start = true;
    while let Some(c) = chars.next() {
        let here = (line, column);
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
        if quoted.is_some() {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    column += 1;
                    field.push('"');
                } else {
                    quoted = None;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' if at_field_start => {
                quoted = Some(here);
                was_quoted = true;
                at_field_start = false;
            }
            '"' => {
                return Err(error(
                    here.0,
                    Some(here.1),
                    "a quote inside a field that does not start with one (quote the whole field and double the quote: \"a \"\"b\"\"\")",
                ))
            }
            ',' => {
                fields.push(Field {
                    text: std::mem::take(&mut field),
                    line: start.0,
                    column: start.1,
                });
                start = (line, column);
                at_field_start = true;
                was_quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                fields.push(Field {
                    text: std::mem::take(&mut field),
                    line: start.0,
                    column: start.1,
                });
                records.push((record_line, std::mem::take(&mut fields)));
                start = (line, column);
                record_line = line;
                at_field_start = true;
                was_quoted = false;
            }
            _ if was_quoted => {
                return Err(error(
                    here.0,
                    Some(here.1),
                    "text after a quoted field's closing quote (expected a comma or the end of the line)",
                ))
            }
            _ => {
                at_field_start = false;
                field.push(c);
            }
        }
    }
    if let Some((l, c)) = quoted {
        return Err(error(l, Some(c), "this quoted field is never closed"));
    }
    if !field.is_empty() || !fields.is_empty() || was_quoted {
        fields.push(Field {
            text: field,
            line: start.0,
            column: start.1,
        });
        records.push((record_line, fields));
    }
    // Blank lines are no records.
    records.retain(|(_, f)| !(f.len() == 1 && f[0].text.is_empty()));
    Ok(records)
}

/// Reads a CSV whose header names the key column `row` and the others `family:qualifier`; every
/// cell gets `timestamp`.
pub fn parse_csv(text: &str, timestamp: u64) -> Result<ImportedTable, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = csv_records(text)?.into_iter();
    let Some((header_line, header)) = records.next() else {
        return Err(error(1, None, "the text is empty"));
    };
    let key = header
        .iter()
        .position(|f| f.text.trim() == "row")
        .ok_or_else(|| {
            error(
                header_line,
                None,
                "the header has no column named “row” (the row key); name the key column row and the others family:qualifier",
            )
        })?;
    let mut columns: Vec<Option<(String, Vec<u8>)>> = Vec::with_capacity(header.len());
    for (i, f) in header.iter().enumerate() {
        if i == key {
            columns.push(None);
            continue;
        }
        let name = f.text.trim();
        match name.split_once(':') {
            Some((family, qualifier)) if !family.is_empty() => {
                columns.push(Some((family.to_string(), qualifier.as_bytes().to_vec())));
            }
            _ => {
                return Err(error(
                    f.line,
                    Some(f.column),
                    format!(
                        "the header column “{}” has no family: write it as family:qualifier",
                        shorten(name)
                    ),
                ))
            }
        }
    }
    let mut table = ImportedTable {
        format: Format::Csv,
        ..ImportedTable::default()
    };
    for (line, fields) in records {
        if fields.len() > header.len() {
            let extra = &fields[header.len()];
            return Err(error(
                extra.line,
                Some(extra.column),
                format!(
                    "{} fields, but the header names {}",
                    fields.len(),
                    header.len()
                ),
            ));
        }
        let Some(row) = fields.get(key).filter(|f| !f.text.is_empty()) else {
            return Err(error(line, None, "the row key (column “row”) is empty"));
        };
        let row = row.text.as_bytes().to_vec();
        for (f, column) in fields.iter().zip(&columns) {
            let Some((family, qualifier)) = column else {
                continue;
            };
            if f.text.is_empty() {
                continue;
            }
            table.add(ImportCell {
                row: row.clone(),
                family: family.clone(),
                qualifier: qualifier.clone(),
                timestamp,
                value: f.text.as_bytes().to_vec(),
            });
        }
    }
    if table.families.is_empty() {
        return Err(error(
            header_line,
            None,
            "no cells: the CSV has no family:qualifier column with a value",
        ));
    }
    Ok(table)
}
