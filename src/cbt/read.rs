//! cbt's reads: `lookup`, `read` and `count`, the filter their arguments make (`columns`,
//! `cells-per-column`, `regex`, `keys-only`) and `include-stats`; and Rowkey's `export`.

use super::args::{go_parse_bool, go_parse_int, Args, Call};
use super::filter::{ColumnMatch, ReadFilter};
use super::print::{self, ReadStats};
use super::regex::FullMatch;
use super::session::Session;
use crate::engine::{Cells, Scan};

impl Session {
    pub(super) fn lookup(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let parsed = &call.keys;
        let table = call.text(0);
        let row = call.word(1);
        let (filter, deferred) = read_filter(parsed)?;
        let include_stats = include_stats(parsed)?;
        let mut scan = Scan::get(row);
        scan.max_versions = u32::MAX;
        let stats = std::rc::Rc::clone(&filter.stats);
        scan.filter = Some(Box::new(filter));
        let started = (self.timer)();
        self.bigtable("Reading row", &table)?;
        if let Some(e) = deferred {
            if self.any_row(&table, Scan::get(row), "Reading row")? {
                return Err(format!("Reading row: {e}"));
            }
        }
        let result = self
            .engine
            .scan(&table, &mut scan)
            .map_err(|e| format!("Reading row: {e}"))?;
        let mut out = Vec::new();
        let none = Cells::new();
        let (key, cells) = match result.rows.first() {
            Some(r) => (r.row(), &r.cells),
            None => (&[][..], &none),
        };
        print::row(
            &mut out,
            key,
            cells,
            &self.zone,
            self.micros_per_unit(&table),
        );
        if include_stats {
            let mut s = *stats.borrow();
            s.rows_returned = result.rows.len() as u64;
            s.cells_returned = cells.len() as u64;
            print::stats(&mut out, &s, ((self.timer)() - started) as u64);
        }
        Ok(out)
    }

    pub(super) fn read(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let parsed = &call.keys;
        if parsed.contains_key("limit") {
            return Err("Unknown arg key 'limit'; did you mean 'end'?".into());
        }
        let get = |k: &str| parsed.bytes(k);
        if (!get("start").is_empty() || !get("end").is_empty()) && !get("prefix").is_empty() {
            return Err("\"start\"/\"end\" may not be mixed with \"prefix\"".into());
        }
        // cbt reads an option given empty (`reversed=`) as one not given.
        let reversed = match parsed.get("reversed").filter(|v| !v.is_empty()) {
            Some(v) => go_parse_bool(&v)?,
            None => false,
        };
        let mut limit = None;
        if let Some(count) = parsed.get("count").filter(|c| !c.is_empty()) {
            let n = go_parse_int(count.as_bytes()).ok_or_else(|| {
                format!(
                    "Bad count {}: strconv.ParseInt: parsing {}: invalid syntax",
                    print::go_quote(count.as_bytes()),
                    print::go_quote(count.as_bytes())
                )
            })?;
            // `count=0` reads no row at all; a negative count the Go client refuses before
            // it asks the server.
            if n < 0 {
                return Err("Reading rows: bigtable: row limit cannot be negative".into());
            }
            limit = Some(usize::try_from(n).unwrap_or(usize::MAX));
        }
        let (mut filter, deferred) = read_filter(parsed)?;
        let include_stats = include_stats(parsed)?;
        let table = call.text(0);
        let (start, end) = if !get("prefix").is_empty() {
            let p = get("prefix");
            let stop = crate::bytes::prefix_stop(&p);
            (p, stop)
        } else {
            (get("start"), get("end"))
        };
        let mut scan = Scan {
            max_versions: u32::MAX,
            limit,
            reversed,
            ..Scan::default()
        };
        if reversed {
            // The engine's reversed scan starts at its highest row, inclusive; the end stays
            // exclusive through the filter.
            scan.start_row = end.clone();
            scan.stop_row = start;
            scan.stop_inclusive = !scan.stop_row.is_empty();
            if !end.is_empty() {
                filter.end_exclusive = Some(end);
            }
        } else {
            scan.start_row = start;
            scan.stop_row = end;
        }
        let stats = std::rc::Rc::clone(&filter.stats);
        scan.filter = Some(Box::new(filter));
        let started = (self.timer)();
        self.bigtable("Reading rows", &table)?;
        if let Some(e) = deferred {
            let probe = Scan {
                start_row: scan.start_row.clone(),
                stop_row: scan.stop_row.clone(),
                stop_inclusive: scan.stop_inclusive,
                reversed: scan.reversed,
                ..Scan::default()
            };
            if self.any_row(&table, probe, "Reading rows")? {
                return Err(format!("Reading rows: {e}"));
            }
            return Ok(Vec::new());
        }
        if scan.limit == Some(0) {
            return Ok(Vec::new());
        }
        let result = self
            .engine
            .scan(&table, &mut scan)
            .map_err(|e| format!("Reading rows: {e}"))?;
        let mut out = Vec::new();
        let mut s: ReadStats = *stats.borrow();
        let per_unit = self.micros_per_unit(&table);
        for r in &result.rows {
            print::row(&mut out, r.row(), &r.cells, &self.zone, per_unit);
            s.rows_returned += 1;
            s.cells_returned += r.cells.len() as u64;
        }
        if include_stats {
            print::stats(&mut out, &s, ((self.timer)() - started) as u64);
        }
        Ok(out)
    }

    /// Whether the scan's range holds a row; the read's own error (a disabled HBase table)
    /// is `what`'s, as the read it stands before would have said it.
    fn any_row(&mut self, table: &str, mut scan: Scan, what: &str) -> Result<bool, String> {
        scan.limit = Some(1);
        self.engine
            .read(table, &mut scan)
            .map(|out| !out.rows.is_empty())
            .map_err(|e| format!("{what}: {e}"))
    }

    pub(super) fn count(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let parsed = &call.keys;
        let table = call.text(0);
        self.bigtable("Reading rows", &table)?;
        let mut scan = match Some(parsed.bytes("prefix")).filter(|p| !p.is_empty()) {
            Some(p) => Scan::prefix(&p),
            None => Scan::default(),
        };
        // A count is a read of the rows (cbt reads them with a keys-only filter): the views and
        // the tablets' load see it as one.
        let mut rows = 0u64;
        self.engine
            .scan_each(&table, &mut scan, &mut |_| rows += 1)
            .map_err(|e| format!("Reading rows: {e}"))?;
        Ok(format!("{rows}\n").into_bytes())
    }

    pub(super) fn export(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let parsed = &call.keys;
        let table = call.text(0);
        self.bigtable("Exporting", &table)?;
        let exported = match parsed.get("format").as_deref() {
            None | Some("script") => super::export::script(self, &table).map(String::into_bytes),
            Some("csv") => super::export::csv(self, &table),
            Some(other) => {
                return Err(format!(
                    "unknown export format {}",
                    print::go_quote(other.as_bytes())
                ))
            }
        };
        exported.map_err(|e| format!("Exporting: {e}"))
    }
}

/// The filter of `cells-per-column`, `regex`, `columns` and `keys-only`, and the server's
/// error for a regular expression that does not compile: the server reports it only once it
/// has a row to match, so a read that finds no row succeeds.
fn read_filter(parsed: &Args) -> Result<(ReadFilter, Option<String>), String> {
    // What cbt reads elsewhere than in the table, and Rowkey has not: a YAML file of the
    // columns' types that formats values, and authorized views (a subset of a table with its
    // own permissions). An empty value counts as not given, as cbt counts it.
    if let Some(file) = parsed.get("format-file").filter(|f| !f.is_empty()) {
        return Err(format!(
            "format-file={file}: Rowkey reads no format files; without one cbt prints each value as bytes, as here"
        ));
    }
    if let Some(view) = parsed.get("authorized-view").filter(|v| !v.is_empty()) {
        return Err(format!(
            "authorized-view={view}: Rowkey has no authorized views; read the table itself"
        ));
    }
    let mut filter = ReadFilter::default();
    let mut deferred = None;
    if let Some(n) = parsed.get("cells-per-column").filter(|c| !c.is_empty()) {
        let v: i64 = n.parse().map_err(|_| {
            format!(
                "Bad number of cells per column {}: strconv.Atoi: parsing {}: invalid syntax",
                print::go_quote(n.as_bytes()),
                print::go_quote(n.as_bytes())
            )
        })?;
        if v <= 0 {
            deferred = Some(
                "rpc error: code = InvalidArgument desc = Error in field 'cells_per_column_limit_filter' : argument must be > 0"
                    .into(),
            );
        }
        filter.cells_per_column = Some(usize::try_from(v.max(0)).unwrap_or(usize::MAX));
    }
    let re = parsed.bytes("regex");
    if !re.is_empty() {
        match FullMatch::new(&re) {
            Ok(compiled) => filter.row_regex = Some(compiled),
            Err(e) => {
                deferred = Some(format!(
                    "rpc error: code = InvalidArgument desc = Error in field 'row_key_regex_filter' : {e}"
                ))
            }
        }
    }
    if let Some(columns) = parsed.get("columns").filter(|c| !c.is_empty()) {
        filter.columns = column_matches(&columns, &mut deferred)?;
    }
    if let Some(v) = parsed.get("keys-only").filter(|v| !v.is_empty()) {
        filter.keys_only = go_parse_bool(&v)?;
    }
    Ok((filter, deferred))
}

fn include_stats(parsed: &Args) -> Result<bool, String> {
    match parsed.get("include-stats").as_deref() {
        None | Some("") => Ok(false),
        Some("full") => Ok(true),
        Some(other) => Err(format!(
            "Bad include-stats value: {} is not one of the supported stats views.",
            print::go_quote(other.as_bytes())
        )),
    }
}

/// cbt's `parseColumnsFilter`: `columns=` entries separated by commas, each `qualifier`,
/// `family:`, `:qualifier` or `family:qualifier`, every part a regular expression. A part that
/// does not compile is the server's error, kept in `deferred` (the first one).
pub(super) fn column_matches(
    columns: &str,
    deferred: &mut Option<String>,
) -> Result<Vec<ColumnMatch>, String> {
    let mut out = Vec::new();
    for entry in columns.split(',').filter(|e| !e.is_empty()) {
        let parts: Vec<&str> = entry.split(':').collect();
        let mut compile = |p: &str, field: &str| match FullMatch::new(p.as_bytes()) {
            Ok(m) => Some(m),
            Err(e) => {
                deferred.get_or_insert(format!(
                    "rpc error: code = InvalidArgument desc = Error in field '{field}' : {e}"
                ));
                None
            }
        };
        let m = match parts.as_slice() {
            [q] => ColumnMatch {
                family: None,
                qualifier: compile(q, "column_qualifier_regex_filter"),
            },
            [f, ""] => ColumnMatch {
                family: compile(f, "family_name_regex_filter"),
                qualifier: None,
            },
            ["", q] => ColumnMatch {
                family: None,
                qualifier: compile(q, "column_qualifier_regex_filter"),
            },
            [f, q] => ColumnMatch {
                family: compile(f, "family_name_regex_filter"),
                qualifier: compile(q, "column_qualifier_regex_filter"),
            },
            _ => {
                return Err(format!(
                    "bad format for column {}",
                    print::go_quote(entry.as_bytes())
                ))
            }
        };
        out.push(m);
    }
    // Only commas (`columns=,`): cbt's `parseColumnsFilter` interleaves no filter at all, which
    // the server refuses.
    if out.is_empty() {
        deferred.get_or_insert(
            "rpc error: code = InvalidArgument desc = Interleave must contain at least two RowFilters"
                .into(),
        );
    }
    Ok(out)
}
