//! cbt's writes: `set` and `addtocell` (one mutation of `family:column=value[@timestamp]`
//! cells), `deleterow` and `deletecolumn`. A delete removes the cells that exist and leaves no
//! marker ([`super::session::BIGTABLE_RULES`]).

use super::admin::TYPE_ATTRIBUTE;
use super::args::{go_parse_int, Call, CellArg};
use super::print;
use super::session::Session;
use crate::engine::{Mutation, Scan};

/// A cell to write: a parsed [`CellArg`] whose timestamp is not negative.
pub(super) struct Put {
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    pub timestamp: Option<u64>,
    pub value: Vec<u8>,
}

impl Put {
    /// The cell of `arg`, or the server's error for a negative timestamp (`action` names the
    /// call, as cbt's error does). `-1` is the server's time, as Bigtable documents it for a
    /// `SetCell` and the emulator takes it.
    pub fn new(arg: CellArg, action: &str) -> Result<Put, String> {
        let timestamp = match arg.timestamp {
            Some(-1) => None,
            Some(n) if n < 0 => {
                return Err(format!(
                    "{action}: rpc error: code = Unknown desc = invalid timestamp {n}"
                ))
            }
            Some(n) => Some(n as u64),
            None => None,
        };
        Ok(Put {
            family: arg.family,
            qualifier: arg.qualifier,
            timestamp,
            value: arg.value,
        })
    }
}

impl Session {
    pub(super) fn set(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        self.write(call, false)
    }

    pub(super) fn addtocell(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        self.write(call, true)
    }

    /// `set` and `addtocell`: `family:column=value[@timestamp]` arguments, one mutation.
    fn write(&mut self, call: &Call, add: bool) -> Result<Vec<u8>, String> {
        let action = "Applying mutation";
        let table = call.text(0);
        let row = call.word(1).to_vec();
        let mut cells: Vec<Put> = Vec::new();
        for arg in call.words.iter().skip(2) {
            if arg.starts_with(b"app-profile=") || (!add && arg.starts_with(b"authorized-view=")) {
                continue;
            }
            let Some(mut cell) = CellArg::parse(arg) else {
                let word = if add {
                    "Bad addtocell arg"
                } else {
                    "Bad set arg"
                };
                return Err(format!("{word} {}", print::go_quote(arg)));
            };
            if add {
                let n = go_parse_int(&cell.value)
                    .ok_or_else(|| "Only int values are supported by addtocell.".to_string())?;
                cell.value = n.to_be_bytes().to_vec();
            }
            cells.push(Put::new(cell, action)?);
        }
        let mutations = self.puts(action, &table, &row, cells, add)?;
        self.engine
            .mutate(&table, &row, &mutations)
            .map_err(|e| format!("{action}: rpc error: code = InvalidArgument desc = {e}"))?;
        Ok(Vec::new())
    }

    /// The mutations that write `cells` to `row`, checked as Bigtable checks a mutation list:
    /// the table exists, the row key is not empty, every family exists (and is an aggregate
    /// one for `addtocell`), every timestamp is a whole millisecond. Warns of a timestamp that
    /// looks like epoch milliseconds.
    pub(super) fn puts(
        &mut self,
        action: &str,
        table: &str,
        row: &[u8],
        cells: Vec<Put>,
        add: bool,
    ) -> Result<Vec<Mutation>, String> {
        let t = self.bigtable(action, table)?;
        if row.is_empty() {
            return Err(format!(
                "{action}: rpc error: code = InvalidArgument desc = Row keys must be non-empty"
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            let (fam, ts) = (&cell.family, cell.timestamp);
            if t.descriptor.family(fam).is_none() {
                return Err(format!(
                    "{action}: rpc error: code = Unknown desc = unknown family {}",
                    print::go_quote(fam)
                ));
            }
            let aggregate = t
                .descriptor
                .attributes
                .get(&format!("{TYPE_ATTRIBUTE}{}", String::from_utf8_lossy(fam)))
                .is_some_and(|t| super::admin::is_aggregate(t));
            if add && !aggregate {
                return Err(format!(
                    "{action}: rpc error: code = Unknown desc = illegal attempt to use AddToCell on non-aggregate cell"
                ));
            }
            // Bigtable's tables count microseconds at millisecond granularity
            // (https://cloud.google.com/bigtable/docs/garbage-collection).
            if let Some(ts) = ts {
                if ts % 1_000 != 0 {
                    return Err(format!(
                        "{action}: rpc error: code = InvalidArgument desc = Error in Mutation list : Error in element #{i} : Timestamp granularity mismatch. Expected a multiple of 1000 (millisecond granularity), but got {ts}."
                    ));
                }
            }
        }
        // Microseconds, stored in the table's unit (an HBase table's milliseconds).
        let per_unit = self.micros_per_unit(table);
        let mut mutations = Vec::with_capacity(cells.len());
        for Put {
            family: fam,
            qualifier: qual,
            timestamp: ts,
            value,
        } in cells
        {
            if let Some(line) = ts.and_then(super::lint::epoch_millis_warning) {
                self.warnings.push(line);
            }
            let ts = ts.map(|micros| micros / per_unit);
            if add && ts.is_some() {
                // Another input to the same cell earlier in this call: the server applies
                // them in order, so this one combines with what that one left.
                let earlier = mutations.iter_mut().find_map(|m| match m {
                    Mutation::Put {
                        family,
                        qualifier,
                        timestamp,
                        value,
                        ..
                    } if *family == fam && *qualifier == qual && *timestamp == ts => Some(value),
                    _ => None,
                });
                if let Some(earlier) = earlier {
                    *earlier = combine(&self.aggregator(table, &fam), int(earlier), &value);
                    continue;
                }
            }
            let value = if add {
                self.aggregate(table, row, &fam, &qual, ts, &value)
            } else {
                value
            };
            mutations.push(Mutation::Put {
                family: fam,
                qualifier: qual,
                timestamp: ts,
                value,
                ttl_ms: None,
            });
        }
        Ok(mutations)
    }

    /// The new value of an aggregate cell: the input combined with the cell already at that
    /// timestamp by the family's aggregator (sum, min or max of 64-bit big-endian integers).
    fn aggregate(
        &mut self,
        table: &str,
        row: &[u8],
        fam: &[u8],
        qual: &[u8],
        ts: Option<u64>,
        input: &[u8],
    ) -> Vec<u8> {
        let Some(ts) = ts else {
            return input.to_vec();
        };
        let mut scan = Scan::get(row);
        scan.columns = vec![(fam.to_vec(), Some(qual.to_vec()))];
        scan.max_versions = u32::MAX;
        scan.time_range = (ts, ts.saturating_add(1));
        let old = self
            .engine
            .read(table, &mut scan)
            .ok()
            .and_then(|out| out.rows.into_iter().next())
            .and_then(|r| r.cells.into_iter().next())
            .and_then(|c| int(&c.value));
        combine(&self.aggregator(table, fam), old, input)
    }

    /// The aggregator of an aggregate family (`intsum`, `intmin`, `intmax`); empty for another.
    fn aggregator(&self, table: &str, fam: &[u8]) -> String {
        self.engine
            .table(table)
            .ok()
            .and_then(|t| {
                t.descriptor
                    .attributes
                    .get(&format!("{TYPE_ATTRIBUTE}{}", String::from_utf8_lossy(fam)))
                    .cloned()
            })
            .unwrap_or_default()
    }

    pub(super) fn deleterow(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        let row = call.word(1);
        self.bigtable("Deleting row", &table)?;
        if row.is_empty() {
            return Err(
                "Deleting row: rpc error: code = InvalidArgument desc = Row keys must be non-empty"
                    .into(),
            );
        }
        self.engine
            .mutate(&table, row, &[Mutation::DeleteRow { timestamp: None }])
            .map_err(|e| format!("Deleting row: {e}"))?;
        Ok(Vec::new())
    }

    pub(super) fn deletecolumn(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        let (row, family, column) = (call.word(1), call.word(2), call.word(3));
        let t = self.bigtable("Deleting cells in column", &table)?;
        if row.is_empty() {
            return Err("Deleting cells in column: rpc error: code = InvalidArgument desc = Row keys must be non-empty".into());
        }
        if t.descriptor.family(family).is_none() {
            return Err(format!(
                "Deleting cells in column: rpc error: code = Unknown desc = unknown family {}",
                print::go_quote(family)
            ));
        }
        self.engine
            .mutate(
                &table,
                row,
                &[Mutation::Delete {
                    family: family.to_vec(),
                    qualifier: Some(column.to_vec()),
                    timestamp: None,
                    all_versions: true,
                }],
            )
            .map_err(|e| format!("Deleting cells in column: {e}"))?;
        Ok(Vec::new())
    }
}

/// A 64-bit big-endian integer's value; `None` for a value of another length.
fn int(value: &[u8]) -> Option<i64> {
    <[u8; 8]>::try_from(value).ok().map(i64::from_be_bytes)
}

/// An aggregate cell's value after `input` meets what it held (`old`) by the family's
/// aggregator: the sum (wrapping, as 64-bit integers do), the least or the greatest.
fn combine(aggregator: &str, old: Option<i64>, input: &[u8]) -> Vec<u8> {
    let new = int(input).unwrap_or(0);
    let combined = match (old, aggregator) {
        (None, _) => new,
        (Some(o), "intmin") => o.min(new),
        (Some(o), "intmax") => o.max(new),
        (Some(o), _) => o.wrapping_add(new),
    };
    combined.to_be_bytes().to_vec()
}
