//! The read path, as HBase's scanners read: the region walk visits the table's regions in the
//! scan's direction and opens a region scanner on each; a region scanner takes rows from one
//! store scanner per family, within the scan's bounds and limit, and runs the row filter; a
//! store scanner merges the family's memstore and runs, resolves versions and deletes by the
//! table's rules and runs the per-cell filter. Gets are scans of one row.
//!
//! ```text
//! walk (regions, direction) -> RegionScanner (rows, bounds, limit, row filter)
//!                           -> StoreScanner per family (merge, versions/deletes, cell filter)
//!                           -> MergeIter (memstore + runs, cells read in place)
//! ```
//!
//! Each region scanner runs its own copy of the scan's filter (`RegionScannerImpl`); cells are
//! read in place and a result copies only the cells it returns.

mod region_scanner;
mod store_scanner;

use super::cell::CellRef;
use super::cells::Cells;
use super::error::{Error, Result};
use super::filter::Filter;
use super::resolve::ReadSpec;
use super::stats::OpStats;
use super::store::{Decoded, Input, Source};
use super::table::{Region, Table};
use crate::kit::order;
use region_scanner::{Direction, RegionScanner, Step};
use store_scanner::{StoreCursor, StoreScanner};

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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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

/// One row of a result: its cells in cell order, sharing one buffer of bytes, which holds the
/// row's key once for them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub cells: Cells,
}

impl Row {
    /// The row's key (a result row has at least one cell).
    pub fn row(&self) -> &[u8] {
        self.cells.first().map_or(&[][..], |c| c.row)
    }
}

/// The rows a read returned and what it cost.
#[derive(Clone, Debug, Default)]
pub struct ScanOutput {
    pub rows: Vec<Row>,
    pub stats: OpStats,
    /// What the read did in each region it read, in the order read.
    pub per_region: Vec<RegionRead>,
    /// Where the rows the read examined (returned or not) are.
    pub examined: Examined,
}

/// What a read did in one region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionRead {
    pub region: u64,
    /// Rows the region scanner read, returned or not.
    pub rows_examined: u64,
    /// Bytes of the cells its store scanners read.
    pub bytes_read: u64,
}

/// Where the rows a read examined are: the first and the last in the order read, and how
/// many. A scan reads rows in key order (reversed: backwards), so they all lie between the
/// two; only these two keys are copied, never a key per row, and into one buffer (a get's one
/// row once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Examined {
    /// The first row examined, then the last unless it is the first.
    keys: Vec<u8>,
    /// Where the first row ends in `keys`; `None` before any row is examined.
    first_end: Option<usize>,
    /// The last row is the first (one row examined, or one region's rows ended where they began).
    last_is_first: bool,
    pub count: u64,
}

impl Examined {
    /// The first row examined, in the order read.
    pub fn first(&self) -> Option<&[u8]> {
        self.keys.get(..self.first_end?)
    }

    /// The last row examined, in the order read.
    pub fn last(&self) -> Option<&[u8]> {
        let end = self.first_end?;
        if self.last_is_first {
            self.keys.get(..end)
        } else {
            self.keys.get(end..)
        }
    }

    /// Notes a region's first and last rows examined, in the order read.
    fn note(&mut self, first: Option<&[u8]>, last: Option<&[u8]>) {
        let end = match self.first_end {
            Some(end) => end,
            None => {
                let Some(first) = first else { return };
                // Room for the region's last row too: one allocation for the two.
                self.keys
                    .reserve_exact(first.len() + last.map_or(0, <[u8]>::len));
                self.keys.extend_from_slice(first);
                self.first_end = Some(first.len());
                first.len()
            }
        };
        if let Some(last) = last {
            self.keys.truncate(end);
            self.last_is_first = self.keys.get(..end) == Some(last);
            if !self.last_is_first {
                self.keys.extend_from_slice(last);
            }
        }
    }
}

/// Where a read's rows go: kept in its output ([`ScanOutput::rows`]), or each handed to the
/// caller as it is read and not kept (HBase's `ResultScanner`, row by row), so that a read of
/// a whole table holds one row at a time.
pub enum Rows<'f> {
    Keep,
    Each(&'f mut dyn FnMut(RowView<'_>)),
}

/// A row handed over as it is read ([`Rows::Each`]): its cells borrowed from where the table
/// keeps them (a memstore, a run's blocks), for the length of the call. A read without a
/// filter copies none of them; with one, they are the row's cells after the filter has
/// edited them.
#[derive(Clone, Copy, Debug)]
pub struct RowView<'v> {
    pub cells: &'v [CellRef<'v>],
}

impl<'v> RowView<'v> {
    /// The row's key (a row handed over has at least one cell).
    pub fn row(&self) -> &'v [u8] {
        self.cells.first().map_or(&[][..], |c| c.row)
    }

    /// How many cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The row with its cells copied, as a read that keeps its rows returns it.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn to_row(&self) -> Row {
        let mut cells = Cells::new();
        let unnamed: std::sync::Arc<[u8]> = std::sync::Arc::from(&[][..]);
        for c in self.cells {
            cells.push(*c, &unnamed);
        }
        Row { cells }
    }
}

/// What a read gathers its parts in, kept by the engine from read to read so that a get
/// allocates none of them: the read's plan (a spec per family), its store scanners, their
/// merges' lists of sources, the list a read that hands its rows over as views gathers each
/// row's cells in ([`RegionScanner`]'s), and a reversed read's row past its start and its lists
/// of cells. Between reads each list is empty and borrows nothing; each read types it anew for
/// what it borrows ([`emptied`], which keeps the allocation; the tests below check it). A read
/// started inside another's callback finds the lists taken and makes its own.
#[derive(Default)]
pub(crate) struct ReadRoom {
    cells: std::cell::Cell<Vec<CellRef<'static>>>,
    plan: std::cell::Cell<Vec<(usize, ReadSpec<'static>)>>,
    stores: std::cell::Cell<Vec<StoreScanner<'static, 'static>>>,
    sources: std::cell::Cell<Vec<Vec<Input<'static>>>>,
    /// A reversed read's row just past its start row.
    past_start: std::cell::Cell<Vec<u8>>,
    /// Lists a reversed read gathers a row's cells or a block's in.
    cell_lists: std::cell::Cell<Vec<Vec<CellRef<'static>>>>,
}

/// The most cells a list of cells kept from read to read may have room for (384 KB): a list
/// grown by a very wide row or a large block is freed after its read, not held.
const KEPT_CELLS: usize = 4096;

/// `list`, unless it has room for more than [`KEPT_CELLS`] cells.
fn roomy<T>(list: Vec<T>) -> Option<Vec<T>> {
    (list.capacity() <= KEPT_CELLS).then_some(list)
}

/// `list` emptied and typed anew for items of the same layout (the same type but for the
/// lifetimes it borrows for), its allocation kept.
fn emptied<T, U>(list: Vec<T>) -> Vec<U> {
    const {
        assert!(std::mem::size_of::<T>() == std::mem::size_of::<U>());
        assert!(std::mem::align_of::<T>() == std::mem::align_of::<U>());
    }
    let mut list = std::mem::ManuallyDrop::new(list);
    list.clear();
    let (at, capacity) = (list.as_mut_ptr(), list.capacity());
    // SAFETY: the allocation came from a `Vec<T>` of `capacity` items, and `U` has `T`'s size
    // and alignment (checked above), so it is the allocation of a `Vec<U>` of that capacity;
    // it holds no item (cleared), and `list` no longer owns it (not dropped).
    unsafe { Vec::from_raw_parts(at.cast::<U>(), 0, capacity) }
}

/// An empty list from `pool`, typed for the read asking (a new one when the pool is empty).
fn from_pool<T, U>(pool: &std::cell::Cell<Vec<Vec<T>>>) -> Vec<U> {
    let mut lists = pool.take();
    let list = lists.pop().map(emptied).unwrap_or_default();
    pool.set(lists);
    list
}

impl ReadRoom {
    /// The list, empty, for cells of a read's lifetime.
    fn take<'a>(&self) -> Vec<CellRef<'a>> {
        emptied(self.cells.take())
    }

    /// Keeps `list`'s room for the next read, its cells dropped.
    fn keep(&self, list: Vec<CellRef<'_>>) {
        self.cells.set(roomy(list).map(emptied).unwrap_or_default());
    }

    /// An empty list for a merge's sources: one kept from an earlier read, or a new one.
    fn sources<'a>(&self) -> Vec<Input<'a>> {
        from_pool(&self.sources)
    }

    /// An empty list for a reversed read's cells: one kept from an earlier read, or a new one.
    fn cell_list<'a>(&self) -> Vec<CellRef<'a>> {
        from_pool(&self.cell_lists)
    }

    /// Keeps the region's store scanners' room for the next read, and the lists they read in:
    /// their merges' lists of sources, and a reversed read's lists of cells.
    fn keep_stores(&self, mut stores: Vec<StoreScanner<'_, '_>>) {
        let mut source_lists = self.sources.take();
        let mut cell_lists = self.cell_lists.take();
        for store in stores.drain(..) {
            let (mut sources, row) = store.into_lists();
            cell_lists.extend(row.and_then(roomy).map(emptied));
            for (_, source) in sources.drain(..) {
                if let Source::RunBack(cursor) = source {
                    cell_lists.extend(roomy(cursor.into_cells()).map(emptied));
                }
            }
            source_lists.push(emptied(sources));
        }
        self.sources.set(source_lists);
        self.cell_lists.set(cell_lists);
        self.stores.set(emptied(stores));
    }
}

/// Runs a scan against a table.
pub(crate) fn run(
    table: &Table,
    scan: &mut Scan,
    now: u64,
    rows: Rows<'_>,
    room: &ReadRoom,
) -> Result<ScanOutput> {
    let desc = &table.descriptor;
    if scan.raw && scan.columns.iter().any(|(_, q)| q.is_some()) {
        // StoreScanner's constructor: a raw scan reads whole families.
        return Err(Error::IllegalArgument(
            "org.apache.hadoop.hbase.DoNotRetryIOException: Cannot specify any column for a raw scan"
                .into(),
        ));
    }
    // Which families, and which qualifiers of each, the read asks for (none listed: every
    // family, whole).
    let mut wanted: Vec<(usize, Option<Vec<Vec<u8>>>)> = Vec::new();
    if !scan.columns.is_empty() {
        for (family, qualifier) in &scan.columns {
            let Some(fi) = desc.family_index(family) else {
                let region = table
                    .regions
                    .first()
                    .map(|r| r.name(&desc.name))
                    .unwrap_or_default();
                return Err(Error::no_such_family(family, desc, region));
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
        order::sort_by_key(&mut wanted, |w| w.0);
    }
    let spec = |columns| ReadSpec {
        max_versions: scan.max_versions,
        time_range: scan.time_range,
        columns,
        raw: scan.raw,
        filtered: scan.filter.is_some(),
        rules: desc.rules,
    };
    let mut specs: Vec<(usize, ReadSpec<'_>)> = emptied(room.plan.take());
    if scan.columns.is_empty() {
        specs.extend((0..desc.families.len()).map(|i| (i, spec(None))));
    } else {
        specs.extend(wanted.iter().map(|(fi, cols)| (*fi, spec(cols.as_deref()))));
    }
    let mut template = scan.filter.take();
    if let Some(f) = template.as_mut() {
        f.set_reversed(scan.reversed);
    }
    let out = walk(table, scan, &specs, template.as_deref(), now, rows, room);
    room.plan.set(emptied(specs));
    scan.filter = template;
    Ok(out)
}

/// The region walk: the one place that knows the scan's direction. It visits the regions the
/// scan's bounds reach, in key order or reversed, opens each one's store cursors from the
/// scan's start, and runs a region scanner over them until the scan is done.
fn walk(
    table: &Table,
    scan: &Scan,
    specs: &[(usize, ReadSpec<'_>)],
    template: Option<&dyn Filter>,
    now: u64,
    mut rows: Rows<'_>,
    room: &ReadRoom,
) -> ScanOutput {
    let mut out = ScanOutput::default();
    let mut returned = 0;
    let regions = &table.regions;
    let first = if scan.reversed && scan.start_row.is_empty() {
        regions.len().saturating_sub(1)
    } else {
        table.region_index(&scan.start_row)
    };
    let direction = if scan.reversed {
        Direction::Reversed
    } else {
        Direction::Forward
    };
    // The regions in the scan's direction from the first, while the stop row is not behind
    // the region.
    let order = (0..regions.len())
        .map(|i| match direction {
            Direction::Forward => first + i,
            Direction::Reversed => first.wrapping_sub(i),
        })
        .map_while(|i| regions.get(i))
        .take_while(|r| match direction {
            Direction::Forward => r.start.is_empty() || !scan.past_stop(&r.start),
            Direction::Reversed => {
                r.end.is_empty() || !scan.past_stop(&r.end) || !scan.past_stop(&r.start)
            }
        });
    // A reversed scan reads each region from below this row (exclusive): just past the
    // start row.
    let mut past_start = room.past_start.take();
    if scan.reversed {
        past_start.clear();
        past_start.extend_from_slice(&scan.start_row);
        past_start.push(0);
    }
    // A limited scan's rows are gathered without growing the list (up to a thousand rows
    // reserved; a longer limit grows it as the rows come).
    if let (Some(limit), Rows::Keep) = (scan.limit, &rows) {
        out.rows.reserve(limit.min(1024));
    }
    for region in order {
        // The blocks the region scanner decodes live as long as it does.
        let arena = Decoded::default();
        let mut stores = emptied(room.stores.take());
        match direction {
            Direction::Forward => stores.extend(store_scanners(
                table,
                forward_cursors(region, scan, specs, &arena, room),
                specs,
                now,
            )),
            Direction::Reversed => stores.extend(store_scanners(
                table,
                backward_cursors(region, scan, specs, &past_start, &arena, room),
                specs,
                now,
            )),
        }
        let room_left = scan.limit.map(|l| l.saturating_sub(returned));
        let filter = template.map(|t| t.clone_box());
        // Rows handed over are views of the cells where they are, unless a filter may edit
        // them (`transform_cell`, `filter_row_cells`): then of the row's copies.
        let view = (matches!(rows, Rows::Each(_)) && filter.is_none()).then(|| room.take());
        let mut scanner =
            RegionScanner::new(region, scan, direction, stores, filter, room_left, view);
        let returned_before = returned;
        let mut scan_done = false;
        loop {
            let step = scanner.next_row();
            if matches!(step, Step::Row(_) | Step::Viewed) {
                returned += 1;
                match (step, &mut rows) {
                    (Step::Row(row), Rows::Keep) => out.rows.push(row),
                    (Step::Row(row), Rows::Each(each)) => {
                        // The filtered row's copies, viewed through the room's list.
                        let mut cells = room.take();
                        cells.extend(row.cells.iter());
                        each(RowView { cells: &cells });
                        room.keep(cells);
                        scanner.give_back(row.cells);
                    }
                    (_, Rows::Each(each)) => each(scanner.view()),
                    _ => {}
                }
                match scanner.finished_after_row() {
                    Some(Step::ScanDone) => {
                        scan_done = true;
                        break;
                    }
                    Some(_) => break,
                    None => continue,
                }
            }
            match step {
                Step::RegionDone => break,
                Step::ScanDone => {
                    scan_done = true;
                    break;
                }
                _ => {}
            }
        }
        // A finished filter with no rows in the region's answer ends the whole scan
        // (`RSRpcServices.scan` sets `moreResults` false when `isFilterDone() &&
        // results.isEmpty()`); otherwise the next region gets a fresh copy of the filter. One
        // answer per region here: a client that caches every row of a region.
        let filter_done = scanner.filter.as_deref_mut().is_some_and(|f| {
            f.reset();
            f.filter_all_remaining()
        });
        record_region(&mut out, &scanner);
        if let Some(view) = scanner.take_view() {
            room.keep(view);
        }
        room.keep_stores(std::mem::take(&mut scanner.stores));
        if scan_done || (filter_done && returned == returned_before) {
            break;
        }
    }
    room.past_start.set(past_start);
    out.stats.rows_returned = returned as u64;
    out
}

/// One store scanner per family the read asks for, over its store's cursor.
fn store_scanners<'a, 's>(
    table: &'s Table,
    cursors: impl Iterator<Item = StoreCursor<'a>>,
    specs: &'s [(usize, ReadSpec<'s>)],
    now: u64,
) -> impl Iterator<Item = StoreScanner<'a, 's>> {
    cursors.zip(specs).filter_map(move |(cursor, (fi, spec))| {
        let family = table.descriptor.families.get(*fi)?;
        Some(StoreScanner::new(cursor, family, spec, now))
    })
}

/// A region's store cursors for a forward read from the scan's start row; a get asks each
/// run's key range and bloom filter before reading it.
fn forward_cursors<'a, 'r>(
    region: &'a Region,
    scan: &'r Scan,
    specs: &'r [(usize, ReadSpec<'_>)],
    arena: &'a Decoded,
    room: &'r ReadRoom,
) -> impl Iterator<Item = StoreCursor<'a>> + 'r
where
    'a: 'r,
{
    let lower = scan.start_row.as_slice().max(region.start.as_slice());
    let get = scan.stop_inclusive && scan.start_row == scan.stop_row;
    // A store whose first cell from the start on is at or past the stop row is not read on:
    // that cell would end the scan (`StoreFileReader.passesKeyRangeFilter` leaves out a file
    // past the stop row; here by the cell the seek finds).
    let ceiling =
        (!scan.stop_row.is_empty() && !scan.stop_inclusive).then_some(scan.stop_row.as_slice());
    specs
        .iter()
        .filter_map(|(fi, spec)| region.stores.get(*fi).map(|s| (s, spec)))
        .map(move |(store, spec)| {
            StoreCursor::Forward(if get {
                store.cursor_get(lower, spec.columns, arena, room.sources())
            } else {
                store.cursor_from(lower, ceiling, arena, room.sources())
            })
        })
}

/// A region's store cursors for a reversed read: greatest cell first, from below the
/// nearer of the region's end and the row just past the scan's start.
fn backward_cursors<'a, 'r>(
    region: &'a Region,
    scan: &'r Scan,
    specs: &'r [(usize, ReadSpec<'_>)],
    past_start: &'r [u8],
    arena: &'a Decoded,
    room: &'r ReadRoom,
) -> impl Iterator<Item = StoreCursor<'a>> + 'r
where
    'a: 'r,
{
    let bound: Option<&[u8]> = match (scan.start_row.is_empty(), region.end.is_empty()) {
        (true, true) => None,
        (true, false) => Some(&region.end),
        (false, true) => Some(past_start),
        (false, false) => Some(past_start.min(region.end.as_slice())),
    };
    let probe = bound.map(|row| CellRef::first_on_row(row, b""));
    // A store with nothing between the stop row and the bound is not read: the first cell it
    // would hand out ends the scan (`StoreFileReader.passesKeyRangeFilter` leaves out a file
    // below a reversed scan's stop row; here by the block the bound falls in).
    let floor = (!scan.stop_row.is_empty()).then_some(scan.stop_row.as_slice());
    specs
        .iter()
        .filter_map(|(fi, _)| region.stores.get(*fi))
        .map(move |store| StoreCursor::Backward {
            merge: store.cursor_back(probe, floor, arena, room.sources(), &|| room.cell_list()),
            row: room.cell_list(),
            left: 0,
            checked: false,
        })
}

/// Adds what one region scanner did to the read's output: its rows and cells, the memstores
/// and runs its stores read, and where its examined rows are.
fn record_region(out: &mut ScanOutput, scanner: &RegionScanner<'_, '_>) {
    let stats = &mut out.stats;
    stats.regions.push(scanner.region.id);
    stats.rows_examined += scanner.rows_examined;
    stats.rows_filtered += scanner.rows_filtered;
    stats.cells_returned += scanner.cells_returned;
    stats.bytes_returned += scanner.bytes_returned;
    let mut bytes_read = 0;
    for store in &scanner.stores {
        let (counts, touched) = store.counts();
        stats.cells_examined += store.cells_examined;
        bytes_read += store.bytes_read;
        stats.memstores_touched += (touched & 1) as u32;
        stats.runs_touched += (touched >> 1).count_ones();
        stats.blocks_read += counts.blocks_read;
        stats.block_bytes_read += counts.bytes_read;
        stats.blocks_skipped += counts.blocks_skipped;
        stats.runs_skipped_bloom += counts.runs_skipped_bloom;
        stats.runs_skipped_range += counts.runs_skipped_range;
    }
    stats.bytes_read += bytes_read;
    out.per_region.push(RegionRead {
        region: scanner.region.id,
        rows_examined: scanner.rows_examined,
        bytes_read,
    });
    out.examined
        .note(scanner.first_examined, scanner.last_examined);
    out.examined.count += scanner.rows_examined;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The room's lists keep their allocation from one read to the next: an emptied list is
    /// typed anew over the same buffer, and the items it held are dropped.
    #[test]
    fn the_read_room_keeps_its_lists_between_reads() {
        let room = ReadRoom::default();
        let bytes = b"r".to_vec();
        let mut list = room.take();
        list.extend((0..10).map(|_| CellRef::first_on_row(&bytes, b"f")));
        let (capacity, at) = (list.capacity(), list.as_ptr() as usize);
        room.keep(list);
        let again = room.take();
        assert_eq!(
            (again.len(), again.capacity(), again.as_ptr() as usize),
            (0, capacity, at)
        );
        // Owned items are dropped when their list is emptied: none is left behind.
        let shared = std::rc::Rc::new(());
        let owners: Vec<_> = (0..3).map(|_| std::rc::Rc::clone(&shared)).collect();
        let (capacity, at) = (owners.capacity(), owners.as_ptr() as usize);
        let kept: Vec<std::rc::Rc<()>> = emptied(owners);
        assert_eq!(std::rc::Rc::strong_count(&shared), 1);
        assert_eq!(
            (kept.len(), kept.capacity(), kept.as_ptr() as usize),
            (0, capacity, at)
        );
    }

    /// The first and the last row examined over a read's regions, in one buffer: a region
    /// that examined no row changes neither, and a last row that is the first is kept once.
    #[test]
    fn examined_rows_keep_the_first_and_the_last() {
        let mut examined = Examined::default();
        assert_eq!((examined.first(), examined.last()), (None, None));
        examined.note(Some(b"b"), Some(b"b"));
        assert_eq!(
            (examined.first(), examined.last()),
            (Some(&b"b"[..]), Some(&b"b"[..]))
        );
        assert_eq!(examined.keys, b"b");
        examined.note(Some(b"c"), Some(b"f"));
        examined.note(None, None);
        examined.note(Some(b"g"), Some(b"h"));
        assert_eq!(
            (examined.first(), examined.last()),
            (Some(&b"b"[..]), Some(&b"h"[..]))
        );
        assert_eq!(examined.keys, b"bh");
    }

    /// A list of cells grown past [`KEPT_CELLS`] (a very wide row) is not kept: the next read
    /// starts a new one.
    #[test]
    fn a_list_grown_by_a_very_wide_row_is_not_kept() {
        let room = ReadRoom::default();
        let bytes = b"r".to_vec();
        let mut list = room.take();
        list.extend((0..=KEPT_CELLS).map(|_| CellRef::first_on_row(&bytes, b"f")));
        room.keep(list);
        assert_eq!(room.take().capacity(), 0);
    }
}
