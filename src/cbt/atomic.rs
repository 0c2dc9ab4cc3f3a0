//! cbt's single-row atomic operations, as later cbt releases have them (cbt.go of
//! googleapis/cloud-bigtable-cbt-cli at 7fb42c4: `doCheckAndMutate` lines 1754-1795,
//! `doReadModifyWrite` lines 1797-1834):
//!
//! - `checkandmutate TABLE ROW [columns=...] [true=fam:col=val[@ts]] [false=...]`: Bigtable's
//!   `CheckAndMutateRow`. The predicate is cbt's filter (the latest cell of each column, or
//!   `columns=`'s interleave); if it yields any cell of the row the `true` mutation is applied,
//!   otherwise the `false` one. Nothing is printed.
//! - `readmodifywrite TABLE ROW FAMILY QUALIFIER append=VAL | increment=N`: Bigtable's
//!   `ReadModifyWriteRow`. The latest cell of the column gets `VAL` appended, or `N` added as
//!   a 64-bit big-endian signed integer (an unset cell counts as empty, or zero; a set cell that
//!   is not 8 bytes fails the request), and the new cell is printed as `read` prints a row.
//!
//! Both are atomic: the session owns the engine, so no write comes between the read and the
//! mutation, and the mutation is one engine mutation of the row.

use super::args::{go_parse_int, Call, CellArg};
use super::filter::ReadFilter;
use super::print;
use super::read::column_matches;
use super::session::Session;
use super::write::Put;
use crate::engine::{Cells, Mutation, Scan};

impl Session {
    pub(super) fn checkandmutate(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let action = "Applying conditional mutation";
        let table = call.text(0);
        let row = call.word(1).to_vec();
        // cbt's predicate: `LatestNFilter(1)`, or the `columns=` filter instead.
        let mut predicate = ReadFilter::default();
        let mut deferred = None;
        match call.keys.get("columns") {
            Some(columns) => {
                predicate.columns = column_matches(&columns, &mut deferred)
                    .map_err(|e| format!("While parsing columns=...: {e}"))?;
            }
            None => predicate.cells_per_column = Some(1),
        }
        let branch = |key: &str| -> Result<Option<CellArg>, String> {
            let Some(arg) = call.keys.raw(key) else {
                return Ok(None);
            };
            CellArg::parse(arg).map(Some).ok_or_else(|| {
                format!(
                    "While parsing {key}=... mutation: Bad set arg {}",
                    print::go_quote(arg)
                )
            })
        };
        let (on_true, on_false) = (branch("true")?, branch("false")?);
        if on_true.is_none() && on_false.is_none() {
            return Err("Need at least one of true=... or false=...".into());
        }
        self.bigtable(action, &table)?;
        if let Some(e) = deferred {
            return Err(format!("{action}: {e}"));
        }
        let mut mutations = |cell: Option<CellArg>| -> Result<Vec<Mutation>, String> {
            match cell {
                Some(cell) => {
                    let put = Put::new(cell, action)?;
                    self.puts(action, &table, &row, vec![put], false)
                }
                None => Ok(Vec::new()),
            }
        };
        let (on_true, on_false) = (mutations(on_true)?, mutations(on_false)?);
        let mut scan = Scan::get(&row);
        scan.max_versions = u32::MAX;
        scan.limit = Some(1);
        scan.filter = Some(Box::new(predicate));
        let matched = self
            .engine
            .read(&table, &mut scan)
            .map_err(|e| format!("{action}: {e}"))?
            .rows
            .iter()
            .any(|r| !r.cells.is_empty());
        let chosen = if matched { on_true } else { on_false };
        if !chosen.is_empty() {
            self.engine
                .mutate(&table, &row, &chosen)
                .map_err(|e| format!("{action}: rpc error: code = InvalidArgument desc = {e}"))?;
        }
        Ok(Vec::new())
    }

    pub(super) fn readmodifywrite(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let action = "Applying read modify write";
        let table = call.text(0);
        let (row, family, qualifier) = (call.word(1), call.word(2), call.word(3));
        let append = call.keys.raw("append");
        let increment = call.keys.get("increment");
        if append.is_some() && increment.is_some() {
            return Err("Cannot both append and increment, choose one".into());
        }
        let delta = match &increment {
            Some(text) => Some(go_parse_int(text.as_bytes()).ok_or_else(|| {
                let digits = text.trim_start_matches(['+', '-']);
                let why = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    "value out of range"
                } else {
                    "invalid syntax"
                };
                format!(
                    "While parsing increment=...: strconv.ParseInt: parsing {}: {why}",
                    print::go_quote(text.as_bytes())
                )
            })?),
            None => None,
        };
        let t = self.bigtable(action, &table)?;
        let unit = t.descriptor.rules.timestamps;
        if row.is_empty() {
            return Err(format!(
                "{action}: rpc error: code = InvalidArgument desc = Row keys must be non-empty"
            ));
        }
        // bttest's ReadModifyWriteRow: `unknown family %q`, an error without a gRPC code.
        if t.descriptor.family(family).is_none() {
            return Err(format!(
                "{action}: rpc error: code = Unknown desc = unknown family {}",
                print::go_quote(family)
            ));
        }
        // ReadModifyWriteRowRequest.rules: "At least one entry must be specified."
        if append.is_none() && delta.is_none() {
            return Err(format!(
                "{action}: rpc error: code = InvalidArgument desc = No rules specified."
            ));
        }
        let latest = self
            .latest(&table, row, family, qualifier)
            .map_err(|e| format!("{action}: {e}"))?
            .into_iter()
            .next()
            .map(|c| (c.timestamp, c.value));
        let value = match (append, delta) {
            (Some(suffix), _) => {
                let mut value = latest.as_ref().map(|l| l.1.clone()).unwrap_or_default();
                value.extend_from_slice(suffix);
                value
            }
            (None, delta) => {
                let old = match &latest {
                    None => 0,
                    Some((_, v)) => <[u8; 8]>::try_from(v.as_slice())
                        .map(i64::from_be_bytes)
                        .map_err(|_| {
                            format!("{action}: rpc error: code = Unknown desc = increment on non-64-bit value")
                        })?,
                };
                old.wrapping_add(delta.unwrap_or(0)).to_be_bytes().to_vec()
            }
        };
        // bttest: the new cell's timestamp is the later of now and the latest cell's, and a
        // cell at the latest cell's timestamp replaces it.
        // In the table's unit: an HBase table's milliseconds, a Bigtable table's microseconds.
        let now = unit.from_millis(self.engine.now());
        let timestamp = latest.map_or(now, |l| l.0.max(now));
        let put = Mutation::Put {
            family: family.to_vec(),
            qualifier: qualifier.to_vec(),
            timestamp: Some(timestamp),
            value,
            ttl_ms: None,
        };
        self.engine
            .mutate(&table, row, &[put])
            .map_err(|e| format!("{action}: rpc error: code = InvalidArgument desc = {e}"))?;
        let cells = self
            .latest(&table, row, family, qualifier)
            .map_err(|e| format!("{action}: {e}"))?;
        let mut out = Vec::new();
        print::row(
            &mut out,
            row,
            &cells,
            &self.zone,
            self.micros_per_unit(&table),
        );
        Ok(out)
    }

    /// The latest cell of a column (none when the column is unset).
    fn latest(
        &self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
    ) -> Result<Cells, crate::engine::Error> {
        let mut scan = Scan::get(row);
        scan.columns = vec![(family.to_vec(), Some(qualifier.to_vec()))];
        Ok(self
            .engine
            .read(table, &mut scan)?
            .rows
            .into_iter()
            .next()
            .map(|r| r.cells)
            .unwrap_or_default())
    }
}
