//! The read path: regions in key order (or reversed), per region one merged cursor per family,
//! per row the resolver (versions, deletes, TTL, time range, columns), then the filter, then
//! the bounds and the limit. Gets are scans of one row.

use std::sync::Arc;

use super::cell::Cell;
use super::error::{Error, Result};
use super::resolve::{ReadSpec, RowResolver, Verdict};
use super::stats::OpStats;
use super::store::MergeIter;
use super::table::{Region, Table};
use crate::filter::{Filter, ReturnCode};

/// What a get or scan asks for. Bounds follow HBase: `start_row` inclusive, `stop_row`
/// exclusive, empty means unbounded; in a reversed scan `start_row` is the highest row.
#[derive(Debug)]
pub struct Scan {
    pub start_row: Vec<u8>,
    pub stop_row: Vec<u8>,
    /// The stop row itself is part of the scan (set for gets).
    pub stop_inclusive: bool,
    pub reversed: bool,
    /// `(family, None)` for a whole family, `(family, Some(qualifier))` for one column; empty
    /// for every family.
    pub columns: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    pub max_versions: u32,
    /// Half-open `[min, max)`.
    pub time_range: (u64, u64),
    pub limit: Option<usize>,
    pub raw: bool,
    pub filter: Option<Box<dyn Filter>>,
}

impl Default for Scan {
    fn default() -> Self {
        Scan {
            start_row: Vec::new(),
            stop_row: Vec::new(),
            stop_inclusive: false,
            reversed: false,
            columns: Vec::new(),
            max_versions: 1,
            time_range: (0, u64::MAX),
            limit: None,
            raw: false,
            filter: None,
        }
    }
}

impl Scan {
    /// A get of one row.
    pub fn get(row: &[u8]) -> Scan {
        Scan {
            start_row: row.to_vec(),
            stop_row: row.to_vec(),
            stop_inclusive: true,
            ..Scan::default()
        }
    }

    /// A scan of the rows starting with `prefix`.
    pub fn prefix(prefix: &[u8]) -> Scan {
        Scan {
            start_row: prefix.to_vec(),
            stop_row: crate::bytes::prefix_stop(prefix),
            ..Scan::default()
        }
    }

    fn past_stop(&self, row: &[u8]) -> bool {
        if self.stop_row.is_empty() && !self.stop_inclusive {
            return false;
        }
        let stop = self.stop_row.as_slice();
        match (self.reversed, self.stop_inclusive) {
            (false, false) => row >= stop,
            (false, true) => row > stop,
            (true, false) => row <= stop,
            (true, true) => row < stop,
        }
    }
}

/// One row of a result: its cells in cell order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub row: Vec<u8>,
    pub cells: Vec<Cell>,
}

/// The rows a read returned and what it cost.
#[derive(Clone, Debug, Default)]
pub struct ScanOutput {
    pub rows: Vec<Row>,
    pub stats: OpStats,
    /// `(region id, rows examined, bytes read)` per region read.
    pub per_region: Vec<(u64, u64, u64)>,
    /// The row keys the read examined, in the order examined (returned or not), up to
    /// [`EXAMINED_KEPT`]; `stats.rows_examined` has the full count.
    pub examined: Vec<Vec<u8>>,
}

/// How many examined row keys a read keeps for the views.
pub const EXAMINED_KEPT: usize = 20_000;

/// Runs a scan against a table.
pub(crate) fn run(table: &Table, scan: &mut Scan, now: u64) -> Result<ScanOutput> {
    let desc = &table.descriptor;
    // Which families, and which qualifiers of each, the read asks for.
    let mut wanted: Vec<(usize, Option<Vec<Vec<u8>>>)> = Vec::new();
    if scan.columns.is_empty() {
        wanted = (0..desc.families.len()).map(|i| (i, None)).collect();
    } else {
        for (family, qualifier) in &scan.columns {
            let Some(fi) = desc.family_index(family) else {
                let region = table
                    .regions
                    .first()
                    .map(|r| r.name(&desc.name))
                    .unwrap_or_default();
                return Err(Error::NoSuchColumnFamily {
                    family: crate::bytes::to_printable(family),
                    table: desc.name.clone(),
                    region,
                });
            };
            match wanted.iter_mut().find(|w| w.0 == fi) {
                Some((_, None)) => {}
                Some((_, Some(qs))) => match qualifier {
                    Some(q) => qs.push(q.clone()),
                    None => wanted
                        .iter_mut()
                        .filter(|w| w.0 == fi)
                        .for_each(|w| w.1 = None),
                },
                None => wanted.push((fi, qualifier.as_ref().map(|q| vec![q.clone()]))),
            }
        }
        wanted.sort_by_key(|w| w.0);
    }
    let specs: Vec<(usize, ReadSpec<'_>)> = wanted
        .iter()
        .map(|(fi, cols)| {
            (
                *fi,
                ReadSpec {
                    max_versions: scan.max_versions,
                    time_range: scan.time_range,
                    columns: cols.as_deref(),
                    raw: scan.raw,
                },
            )
        })
        .collect();
    let mut filter = scan.filter.take();
    if let Some(f) = filter.as_mut() {
        f.set_reversed(scan.reversed);
    }
    let mut reader = Reader {
        table,
        scan,
        specs: &specs,
        filter: filter.as_deref_mut(),
        now,
        out: ScanOutput::default(),
        done: false,
    };
    reader.run();
    let out = std::mem::take(&mut reader.out);
    scan.filter = filter;
    Ok(out)
}

/// Where a row reader takes cells from: a forward merge, or one row gathered backwards.
trait CellSource<'t> {
    fn peek_cell(&self) -> Option<&'t Cell>;
    fn advance(&mut self);
}

impl<'t> CellSource<'t> for MergeIter<'t> {
    fn peek_cell(&self) -> Option<&'t Cell> {
        self.peek()
    }
    fn advance(&mut self) {
        self.next();
    }
}

/// The cells of one row of one store, in cell order.
struct RowCells<'t> {
    cells: Vec<&'t Cell>,
    at: usize,
}

impl<'t> CellSource<'t> for RowCells<'t> {
    fn peek_cell(&self) -> Option<&'t Cell> {
        self.cells.get(self.at).copied()
    }
    fn advance(&mut self) {
        self.at += 1;
    }
}

struct Reader<'t, 's> {
    table: &'t Table,
    scan: &'s Scan,
    specs: &'s [(usize, ReadSpec<'s>)],
    filter: Option<&'s mut (dyn Filter + 'static)>,
    now: u64,
    out: ScanOutput,
    done: bool,
}

impl<'t, 's> Reader<'t, 's> {
    fn run(&mut self) {
        let regions = &self.table.regions;
        let first = self.table.region_index(&self.scan.start_row);
        if self.scan.reversed {
            let first = if self.scan.start_row.is_empty() {
                regions.len().saturating_sub(1)
            } else {
                first
            };
            for region in regions.iter().take(first + 1).rev() {
                if self.done
                    || (!region.end.is_empty()
                        && self.scan.past_stop(&region.end)
                        && self.scan.past_stop(&region.start))
                {
                    break;
                }
                self.reversed_region(region);
            }
        } else {
            for region in regions.iter().skip(first) {
                if self.done || (!region.start.is_empty() && self.scan.past_stop(&region.start)) {
                    break;
                }
                self.forward_region(region);
            }
        }
        self.out.stats.rows_returned = self.out.rows.len() as u64;
    }

    fn forward_region(&mut self, region: &'t Region) {
        let lower = if self.scan.start_row.as_slice() > region.start.as_slice() {
            &self.scan.start_row
        } else {
            &region.start
        };
        let mut cursors: Vec<MergeIter<'t>> = self
            .specs
            .iter()
            .filter_map(|(fi, _)| region.stores.get(*fi))
            .map(|s| s.cursor_from(lower))
            .collect();
        self.begin_region(region);
        while !self.done {
            let Some(row) = cursors
                .iter()
                .filter_map(|c| c.peek())
                .map(|c| c.row.as_slice())
                .min()
            else {
                break;
            };
            if !region.contains(row) {
                break;
            }
            if self.scan.past_stop(row) {
                self.done = true;
                break;
            }
            self.read_row(row, &mut cursors);
        }
        self.end_region(&cursors);
    }

    fn reversed_region(&mut self, region: &'t Region) {
        // The upper bound (exclusive): just past the start row, or the region's end.
        let mut probe = Cell::first_on_row(&[], &Arc::from(&b""[..]));
        let mut start_bound = self.scan.start_row.clone();
        start_bound.push(0);
        let bound: Option<&[u8]> = match (self.scan.start_row.is_empty(), region.end.is_empty()) {
            (true, true) => None,
            (true, false) => Some(&region.end),
            (false, true) => Some(&start_bound),
            (false, false) => Some(if start_bound < region.end {
                &start_bound
            } else {
                &region.end
            }),
        };
        probe.row.extend_from_slice(bound.unwrap_or_default());
        let mut backwards: Vec<MergeIter<'t>> = self
            .specs
            .iter()
            .filter_map(|(fi, _)| region.stores.get(*fi))
            .map(|s| s.cursor_back(bound.map(|_| &probe)))
            .collect();
        self.begin_region(region);
        while !self.done {
            let Some(row) = backwards
                .iter()
                .filter_map(|c| c.peek())
                .map(|c| c.row.as_slice())
                .max()
            else {
                break;
            };
            if row < region.start.as_slice() {
                break;
            }
            if self.scan.past_stop(row) {
                self.done = true;
                break;
            }
            // Gather the row's cells from each store (they come greatest first) and read them
            // in cell order, as a forward scan would.
            let mut rows: Vec<RowCells<'t>> = backwards
                .iter_mut()
                .map(|c| {
                    let mut cells = Vec::new();
                    while let Some(cell) = c.peek().filter(|cell| cell.row.as_slice() == row) {
                        cells.push(cell);
                        c.next();
                    }
                    cells.reverse();
                    RowCells { cells, at: 0 }
                })
                .collect();
            self.read_row(row, &mut rows);
        }
        self.end_region(&backwards);
    }

    fn begin_region(&mut self, region: &Region) {
        self.out.stats.regions.push(region.id);
        self.out.per_region.push((region.id, 0, 0));
    }

    /// Adds the memstores and runs the region's cursors read to the statistics. Cursors of one
    /// store repeat in the list in spec order (a reversed scan opens one set per row), so
    /// sources are told apart per store before counting.
    fn end_region(&mut self, cursors: &[MergeIter<'_>]) {
        let stores = self.specs.len().max(1);
        let mut seen = vec![0u64; stores];
        for (i, c) in cursors.iter().enumerate() {
            if let Some(slot) = seen.get_mut(i % stores) {
                *slot |= c.touched;
            }
        }
        for bits in seen {
            self.out.stats.memstores_touched += (bits & 1) as u32;
            self.out.stats.runs_touched += (bits >> 1).count_ones();
        }
    }

    /// Reads one row from the cursors (each positioned at or before it) and leaves each cursor
    /// past it.
    fn read_row<C: CellSource<'t>>(&mut self, row: &'t [u8], cursors: &mut [C]) {
        self.out.stats.rows_examined += 1;
        if self.out.examined.len() < EXAMINED_KEPT {
            self.out.examined.push(row.to_vec());
        }
        if let Some((_, rows, _)) = self.out.per_region.last_mut() {
            *rows += 1;
        }
        let mut drop_row = false;
        if let Some(f) = self.filter.as_deref_mut() {
            f.reset();
            if f.filter_all_remaining() {
                self.done = true;
                return;
            }
            drop_row = f.filter_row_key(row);
        }
        let mut cells: Vec<Cell> = Vec::new();
        for (cursor, (fi, spec)) in cursors.iter_mut().zip(self.specs) {
            let Some(family) = self.table.descriptor.families.get(*fi) else {
                continue;
            };
            let mut resolver = RowResolver::new(spec, family, self.now);
            let mut rest_of_row = drop_row;
            while let Some(cell) = cursor.peek_cell() {
                if cell.row.as_slice() != row {
                    break;
                }
                cursor.advance();
                self.out.stats.cells_examined += 1;
                self.out.stats.bytes_read += cell.size() as u64;
                if let Some((_, _, bytes)) = self.out.per_region.last_mut() {
                    *bytes += cell.size() as u64;
                }
                if rest_of_row || resolver.offer(cell) != Verdict::Include {
                    continue;
                }
                let Some(f) = self.filter.as_deref_mut() else {
                    cells.push(cell.clone());
                    continue;
                };
                if f.filter_all_remaining() {
                    self.done = true;
                    rest_of_row = true;
                    continue;
                }
                let code = f.filter_cell(cell);
                if code.includes() {
                    cells.push(f.transform_cell(cell.clone()));
                }
                match code {
                    ReturnCode::IncludeAndNextCol | ReturnCode::NextCol => {
                        resolver.skip_column(cell)
                    }
                    ReturnCode::IncludeAndSeekNextRow | ReturnCode::NextRow => rest_of_row = true,
                    _ => {}
                }
            }
        }
        if drop_row {
            return;
        }
        if let Some(f) = self.filter.as_deref_mut() {
            if f.has_filter_row() {
                f.filter_row_cells(&mut cells);
            }
            let dropped = f.filter_row();
            // A filter that is done now ends the scan before the next row is read.
            if f.filter_all_remaining() {
                self.done = true;
            }
            if dropped {
                return;
            }
        }
        if cells.is_empty() {
            return;
        }
        self.out.stats.cells_returned += cells.len() as u64;
        self.out.rows.push(Row {
            row: row.to_vec(),
            cells,
        });
        if self.scan.limit.is_some_and(|l| self.out.rows.len() >= l) {
            self.done = true;
        }
    }
}
