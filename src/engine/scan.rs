//! The read path: regions in key order (or reversed), per region one merged cursor per family,
//! per row the resolver (versions, deletes, TTL, time range, columns), then the filter, then
//! the bounds and the limit. Gets are scans of one row.
//!
//! Filters run as HBase runs them: each region scanner gets its own copy of the scan's filter
//! (`RegionScannerImpl`), the per-cell protocol is `UserScanQueryMatcher`'s (a filter sees up
//! to the family's VERSIONS and versions are counted again after it), a
//! `SEEK_NEXT_USING_HINT` seeks the family's merge cursor past cells it never reads, and the
//! row check is `RegionScannerImpl.nextInternal`'s (a row left empty is dropped before
//! `filter_row` is asked, so row-counting filters do not count it).

use std::sync::Arc;

use super::cell::{Cell, CellRef};
use super::error::{Error, Result};
use super::filter::{Filter, ReturnCode};
use super::resolve::{ReadSpec, RowResolver, Verdict};
use super::stats::OpStats;
use super::store::{Decoded, MergeIter};
use super::table::{Region, Table};

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
    /// Rows returned at most, over all regions (the client's `Scan.setLimit`, the shell's
    /// `LIMIT`).
    pub limit: Option<usize>,
    pub raw: bool,
    /// The filter as the client built it; it is never run itself: each region scanner runs a
    /// copy, so a scan can be run again with the same result.
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
    if scan.raw && scan.columns.iter().any(|(_, q)| q.is_some()) {
        // StoreScanner's constructor: a raw scan reads whole families.
        return Err(Error::IllegalArgument(
            "org.apache.hadoop.hbase.DoNotRetryIOException: Cannot specify any column for a raw scan"
                .into(),
        ));
    }
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
                    filtered: scan.filter.is_some(),
                },
            )
        })
        .collect();
    let mut template = scan.filter.take();
    if let Some(f) = template.as_mut() {
        f.set_reversed(scan.reversed);
    }
    let mut reader = Reader {
        table,
        scan,
        specs: &specs,
        template: template.as_deref(),
        filter: None,
        now,
        out: ScanOutput::default(),
        done: false,
        region_done: false,
        region_rows: 0,
        last_returned: false,
        closed: vec![false; specs.len()],
        cells_hint: 0,
    };
    reader.run();
    let out = std::mem::take(&mut reader.out);
    scan.filter = template;
    Ok(out)
}

/// Where a row reader takes cells from: a forward merge, or one row gathered backwards. Cells
/// come borrowed from the store; the family is what the cells copied out share.
trait CellSource<'t> {
    fn peek_cell(&self) -> Option<CellRef<'t>>;
    fn advance(&mut self);
    /// Moves to the first cell at or after `target` without reading the cells between.
    fn seek(&mut self, target: &Cell);
    fn family(&self) -> &'t Arc<[u8]>;
}

impl<'t> CellSource<'t> for MergeIter<'t> {
    #[inline]
    fn peek_cell(&self) -> Option<CellRef<'t>> {
        self.peek()
    }
    #[inline]
    fn advance(&mut self) {
        self.next();
    }
    fn seek(&mut self, target: &Cell) {
        MergeIter::seek(self, target);
    }
    fn family(&self) -> &'t Arc<[u8]> {
        self.family
    }
}

/// The cells of one row of one store, in cell order.
struct RowCells<'t> {
    family: &'t Arc<[u8]>,
    cells: Vec<CellRef<'t>>,
    at: usize,
}

impl<'t> CellSource<'t> for RowCells<'t> {
    fn peek_cell(&self) -> Option<CellRef<'t>> {
        self.cells.get(self.at).copied()
    }
    fn advance(&mut self) {
        self.at += 1;
    }
    fn seek(&mut self, target: &Cell) {
        let rest = self.cells.get(self.at..).unwrap_or(&[]);
        self.at += rest.partition_point(|c| c.cmp_cell(target) == std::cmp::Ordering::Less);
    }
    fn family(&self) -> &'t Arc<[u8]> {
        self.family
    }
}

struct Reader<'t, 's> {
    table: &'t Table,
    scan: &'s Scan,
    specs: &'s [(usize, ReadSpec<'s>)],
    /// The scan's filter, copied for each region.
    template: Option<&'s dyn Filter>,
    /// The current region scanner's copy.
    filter: Option<Box<dyn Filter>>,
    now: u64,
    out: ScanOutput,
    /// The whole scan is over (stop row, limit, or a finished filter that returned nothing).
    done: bool,
    /// The current region scanner is over (its filter is done).
    region_done: bool,
    /// Rows the current region scanner returned.
    region_rows: u64,
    /// Whether the last row the region scanner read was returned.
    last_returned: bool,
    /// Per family (in spec order): its store scanner was closed by a filter that finished in
    /// the middle of a row (the matcher's DONE_SCAN closes the `StoreScanner`).
    closed: Vec<bool>,
    /// Cells in the last row returned: the next row's vector starts that large.
    cells_hint: usize,
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
                self.end_region_scanner();
            }
        } else {
            for region in regions.iter().skip(first) {
                if self.done || (!region.start.is_empty() && self.scan.past_stop(&region.start)) {
                    break;
                }
                self.forward_region(region);
                self.end_region_scanner();
            }
        }
        self.out.stats.rows_returned = self.out.rows.len() as u64;
    }

    /// What the client learns from a region scanner's last answer: a finished filter with no
    /// rows in the answer ends the whole scan (`RSRpcServices.scan` sets `moreResults` false
    /// when `isFilterDone() && results.isEmpty()`); otherwise the next region gets a fresh copy
    /// of the filter. One answer per region here: a client that caches every row of a region.
    fn end_region_scanner(&mut self) {
        // The server resets the filter after each row before it asks (`nextRaw`).
        let finished = self.filter.as_deref_mut().is_some_and(|f| {
            f.reset();
            f.filter_all_remaining()
        });
        if finished && self.region_rows == 0 {
            self.done = true;
        }
    }

    fn begin_region(&mut self, region: &Region) {
        self.out.stats.regions.push(region.id);
        self.out.per_region.push((region.id, 0, 0));
        self.filter = self.template.map(|t| t.clone_box());
        self.region_done = false;
        self.region_rows = 0;
        self.last_returned = false;
        self.closed.iter_mut().for_each(|c| *c = false);
    }

    fn forward_region(&mut self, region: &'t Region) {
        let lower = if self.scan.start_row.as_slice() > region.start.as_slice() {
            &self.scan.start_row
        } else {
            &region.start
        };
        // A get asks each run's key range and bloom filter before reading it.
        let get = self.scan.stop_inclusive && self.scan.start_row == self.scan.stop_row;
        // The blocks the region scanner decodes live as long as it does.
        let arena = Decoded::with_capacity(0);
        let arena = &arena;
        let mut cursors: Vec<MergeIter<'_>> = self
            .specs
            .iter()
            .filter_map(|(fi, spec)| region.stores.get(*fi).map(|s| (s, spec)))
            .map(|(s, spec)| {
                if get {
                    s.cursor_get(lower, spec.columns, arena)
                } else {
                    s.cursor_from(lower, arena)
                }
            })
            .collect();
        self.begin_region(region);
        while !self.done && !self.region_done {
            let Some(row) = cursors
                .iter()
                .zip(&self.closed)
                .filter(|(_, closed)| !**closed)
                .filter_map(|(c, _)| c.peek())
                .map(|c| c.row)
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
        let arena = Decoded::with_capacity(0);
        let mut backwards: Vec<MergeIter<'_>> = self
            .specs
            .iter()
            .filter_map(|(fi, _)| region.stores.get(*fi))
            .map(|s| s.cursor_back(bound.map(|_| &probe), &arena))
            .collect();
        self.begin_region(region);
        while !self.done && !self.region_done {
            let Some(row) = backwards
                .iter()
                .zip(&self.closed)
                .filter(|(_, closed)| !**closed)
                .filter_map(|(c, _)| c.peek())
                .map(|c| c.row)
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
            let mut rows: Vec<RowCells<'_>> = backwards
                .iter_mut()
                .map(|c| {
                    let mut cells = Vec::new();
                    while let Some(cell) = c.peek().filter(|cell| cell.row == row) {
                        cells.push(cell);
                        c.next();
                    }
                    cells.reverse();
                    RowCells {
                        family: c.family,
                        cells,
                        at: 0,
                    }
                })
                .collect();
            self.read_row(row, &mut rows);
        }
        self.end_region(&backwards);
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
        for c in cursors {
            let counts = c.counts();
            let stats = &mut self.out.stats;
            stats.blocks_read += counts.blocks_read;
            stats.block_bytes_read += counts.bytes_read;
            stats.blocks_skipped += counts.blocks_skipped;
            stats.runs_skipped_bloom += counts.runs_skipped_bloom;
            stats.runs_skipped_range += counts.runs_skipped_range;
        }
    }

    /// Counts a row as read by the region scanner (`ROWS_SCANNED`).
    fn count_row(&mut self, row: &[u8]) {
        self.out.stats.rows_examined += 1;
        if self.out.examined.len() < EXAMINED_KEPT {
            self.out.examined.push(row.to_vec());
        }
        if let Some((_, rows, _)) = self.out.per_region.last_mut() {
            *rows += 1;
        }
    }

    /// Reads one row from the cursors (each positioned at or before it) and leaves each cursor
    /// past it, as `RegionScannerImpl.nextInternal` reads a row.
    fn read_row<'c, C: CellSource<'c>>(&mut self, row: &'c [u8], cursors: &mut [C]) {
        if let Some(f) = self.filter.as_deref_mut() {
            f.reset();
            if f.filter_all_remaining() {
                // After a returned row the scanner stops at once (`nextRaw`); after a dropped
                // one it looks at the next row first, which counts as scanned and filtered.
                if !self.last_returned {
                    self.count_row(row);
                    self.out.stats.rows_filtered += 1;
                }
                self.region_done = true;
                return;
            }
        }
        self.count_row(row);
        let drop_row = self
            .filter
            .as_deref_mut()
            .is_some_and(|f| f.filter_row_key(row));
        // Sized as the previous row was: rows of a table tend to hold as many cells.
        let mut cells: Vec<Cell> = Vec::with_capacity(self.cells_hint);
        for (si, (cursor, (fi, spec))) in cursors.iter_mut().zip(self.specs).enumerate() {
            let Some(family) = self.table.descriptor.families.get(*fi) else {
                continue;
            };
            if self.closed.get(si).copied().unwrap_or(false) {
                continue;
            }
            let mut resolver = RowResolver::new(spec, family, self.now);
            // Versions counted again after the filter (`mergeFilterResponse`).
            let after_filter = resolver.versions_after_filter();
            let mut column: Option<&'c [u8]> = None;
            let mut versions = 0u32;
            // The rest of the row in this family is skipped (NEXT_ROW, a row key dropped).
            let mut rest_of_row = drop_row;
            let family_name = cursor.family();
            while let Some(cell) = cursor.peek_cell() {
                if cell.row != row {
                    // The matcher asks the filter before it sees the row change
                    // (`NormalUserScanQueryMatcher.match` calls `filterAllRemaining` before
                    // `preCheck`): a filter done in this row answers the next row's first cell
                    // with DONE_SCAN, and the store scanner closes.
                    if self
                        .filter
                        .as_deref()
                        .is_some_and(|f| f.filter_all_remaining())
                    {
                        if let Some(closed) = self.closed.get_mut(si) {
                            *closed = true;
                        }
                    }
                    break;
                }
                cursor.advance();
                self.out.stats.cells_examined += 1;
                self.out.stats.bytes_read += cell.size() as u64;
                if let Some((_, _, bytes)) = self.out.per_region.last_mut() {
                    *bytes += cell.size() as u64;
                }
                if rest_of_row {
                    continue;
                }
                let Some(f) = self.filter.as_deref_mut() else {
                    if resolver.offer(&cell) == Verdict::Include {
                        cells.push(cell.to_cell(family_name));
                    }
                    continue;
                };
                // DONE_SCAN: the matcher asks before anything else, and the store scanner
                // closes for the rest of the region.
                if f.filter_all_remaining() {
                    if let Some(closed) = self.closed.get_mut(si) {
                        *closed = true;
                    }
                    break;
                }
                if resolver.offer(&cell) != Verdict::Include {
                    continue;
                }
                // The filter protocol takes owned cells: the cell is copied once, and it is
                // the copy a result keeps.
                let owned = cell.to_cell(family_name);
                match f.filter_cell(&owned) {
                    ReturnCode::Skip => {}
                    ReturnCode::NextCol => resolver.skip_column(&cell),
                    ReturnCode::NextRow => rest_of_row = true,
                    ReturnCode::SeekNextUsingHint => {
                        // StoreScanner seeks only in the scan's direction (HBASE-26232): a
                        // forward scan to a hint after the cell; a reversed one to a hint
                        // before it, which no column hint is, so it reads on. Without a hint it
                        // reads on too.
                        if !self.scan.reversed {
                            if let Some(hint) = f.next_cell_hint(&owned).filter(|h| *h > owned) {
                                cursor.seek(&hint);
                            }
                        }
                    }
                    ReturnCode::IncludeAndNextCol => {
                        cells.push(f.transform_cell(owned));
                        resolver.skip_column(&cell);
                    }
                    // The matcher keeps its own INCLUDE for INCLUDE_AND_SEEK_NEXT_ROW and
                    // counts the version.
                    ReturnCode::Include | ReturnCode::IncludeAndSeekNextRow => {
                        if column != Some(cell.qualifier) {
                            column = Some(cell.qualifier);
                            versions = 0;
                        }
                        versions += 1;
                        if versions > after_filter {
                            resolver.skip_column(&cell);
                        } else {
                            cells.push(f.transform_cell(owned));
                        }
                    }
                }
            }
        }
        self.last_returned = false;
        if drop_row {
            self.out.stats.rows_filtered += 1;
            if self
                .filter
                .as_deref()
                .is_some_and(|f| f.filter_all_remaining())
            {
                self.region_done = true;
            }
            return;
        }
        let was_empty = cells.is_empty();
        let mut excluded = false;
        if let Some(f) = self.filter.as_deref_mut() {
            if f.has_filter_row() {
                // FilterWrapper.filterRowCellsWithRet: filter_row only when cells are left.
                f.filter_row_cells(&mut cells);
                excluded = !cells.is_empty() && f.filter_row();
            } else {
                excluded = !was_empty && f.filter_row();
            }
        }
        if was_empty || excluded || cells.is_empty() {
            self.out.stats.rows_filtered += 1;
            return;
        }
        self.out.stats.cells_returned += cells.len() as u64;
        self.out.stats.bytes_returned += cells.iter().map(|c| c.size() as u64).sum::<u64>();
        self.cells_hint = cells.len();
        self.out.rows.push(Row {
            row: row.to_vec(),
            cells,
        });
        self.region_rows += 1;
        self.last_returned = true;
        // `nextRaw`: the filter is reset, then asked whether it is done.
        if let Some(f) = self.filter.as_deref_mut() {
            f.reset();
            if f.filter_all_remaining() {
                self.region_done = true;
            }
        }
        if self.scan.limit.is_some_and(|l| self.out.rows.len() >= l) {
            self.done = true;
        }
    }
}
