//! The region scanner: one region's rows, a row at a time (HBase's `RegionScannerImpl`). It
//! picks the next row from its store scanners, stops at the scan's stop row and at the limit,
//! and runs the row half of the filter protocol: `filter_all_remaining` before a row,
//! `filter_row_key` before its cells, `filter_row_cells` and `filter_row` after them, `reset`
//! between rows (`RegionScannerImpl.nextInternal`). A row left empty is dropped before
//! `filter_row` is asked, so row-counting filters do not count it.

use super::super::cell::CellRef;
use super::super::cells::Cells;
use super::super::filter::Filter;
use super::super::table::Region;
use super::store_scanner::StoreScanner;
use super::{Row, RowView, Scan};

/// Room for the first row's cells: rows of up to this many cells are gathered without growing
/// the buffer (a get is one such row); later rows start as large as the last returned one.
pub(super) const FIRST_ROW_CELLS: usize = 16;

/// Room for the first row's bytes (its key, qualifiers and values).
const FIRST_ROW_BYTES: usize = 256;

/// What the region scanner did with the row it read.
pub(super) enum Step {
    /// A row for the result.
    Row(Row),
    /// A row for the result, its cells where they are ([`RegionScanner::view`]).
    Viewed,
    /// A row read and dropped (filtered, or left with no cells).
    Dropped,
    /// The region has no more rows for this scan (its end, or its filter is done).
    RegionDone,
    /// The scan is over: the stop row, or the limit.
    ScanDone,
}

/// Where the walk goes next: the lower row first, or the higher.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    Forward,
    Reversed,
}

impl Direction {
    fn next_of<'a>(self, rows: impl Iterator<Item = &'a [u8]>) -> Option<&'a [u8]> {
        match self {
            Direction::Forward => rows.min(),
            Direction::Reversed => rows.max(),
        }
    }
}

/// One region's scanner: its store scanners, its own copy of the scan's filter, and how many
/// rows the result may still take.
pub(super) struct RegionScanner<'a, 's> {
    pub region: &'a Region,
    scan: &'s Scan,
    direction: Direction,
    pub stores: Vec<StoreScanner<'a, 's>>,
    pub filter: Option<Box<dyn Filter>>,
    /// Rows the result may still take (`Scan.setLimit`), when limited.
    room: Option<usize>,
    /// Whether the last row read was returned.
    last_returned: bool,
    /// The row being read: the cells its stores keep. A dropped row leaves it empty for the
    /// next (no allocation per row read); a returned row takes it, and the next row read
    /// starts one as large as that one was (rows of a table tend to hold as many cells and
    /// bytes), so a get allocates none beyond its row.
    row_buf: Cells,
    /// The cells and bytes the next row's buffer makes room for.
    row_room: (usize, usize),
    /// With a list, rows are read as views of their cells ([`Step::Viewed`]) into it, not
    /// copied into `row_buf`: the rows are handed over as they are read, and there is no
    /// filter.
    view: Option<Vec<CellRef<'a>>>,
    /// Rows read (`ROWS_SCANNED`), dropped (`ROWS_FILTERED`), returned; cells and bytes
    /// returned.
    pub rows_examined: u64,
    pub rows_filtered: u64,
    pub rows_returned: u64,
    pub cells_returned: u64,
    pub bytes_returned: u64,
    /// The first and the last row read, in the order read.
    pub first_examined: Option<&'a [u8]>,
    pub last_examined: Option<&'a [u8]>,
}

impl<'a, 's> RegionScanner<'a, 's> {
    pub fn new(
        region: &'a Region,
        scan: &'s Scan,
        direction: Direction,
        stores: Vec<StoreScanner<'a, 's>>,
        filter: Option<Box<dyn Filter>>,
        room: Option<usize>,
        view: Option<Vec<CellRef<'a>>>,
    ) -> Self {
        RegionScanner {
            region,
            scan,
            direction,
            stores,
            filter,
            room,
            last_returned: false,
            row_buf: Cells::new(),
            row_room: (FIRST_ROW_CELLS, FIRST_ROW_BYTES),
            view,
            rows_examined: 0,
            rows_filtered: 0,
            rows_returned: 0,
            cells_returned: 0,
            bytes_returned: 0,
            first_examined: None,
            last_examined: None,
        }
    }

    /// Reads the next row.
    pub fn next_row(&mut self) -> Step {
        let Some(row) = self
            .direction
            .next_of(self.stores.iter().filter_map(StoreScanner::next_row))
        else {
            return Step::RegionDone;
        };
        if !self.region.contains(row) {
            return Step::RegionDone;
        }
        if self.scan.past_stop(row) {
            return Step::ScanDone;
        }
        if let Some(f) = self.filter.as_deref_mut() {
            f.reset();
            if f.filter_all_remaining() {
                // After a returned row the scanner stops at once (`nextRaw`); after a dropped
                // one it looks at the next row first, which counts as read and filtered.
                if !self.last_returned {
                    self.examine(row);
                    self.rows_filtered += 1;
                }
                return Step::RegionDone;
            }
        }
        self.examine(row);
        if let Some(view) = self.view.as_mut() {
            view.clear();
            for store in &mut self.stores {
                store.read_row_view(row, view);
            }
            self.last_returned = false;
            if view.is_empty() {
                self.rows_filtered += 1;
                return Step::Dropped;
            }
            let (cells, bytes) = (view.len(), view.iter().map(CellRef::size).sum::<usize>());
            self.returned(cells, bytes as u64);
            return Step::Viewed;
        }
        let drop_row = self
            .filter
            .as_deref_mut()
            .is_some_and(|f| f.filter_row_key(row));
        let mut cells = std::mem::take(&mut self.row_buf);
        if !cells.has_room() {
            cells = Cells::with_capacity(self.row_room.0, self.row_room.1);
        }
        for store in &mut self.stores {
            store.read_row(row, self.filter.as_deref_mut(), drop_row, &mut cells);
        }
        self.last_returned = false;
        if drop_row || !self.keeps(&mut cells) {
            cells.clear();
            self.row_buf = cells;
            self.rows_filtered += 1;
            // A filter done after dropping a row key ends the region at once.
            let done = drop_row
                && self
                    .filter
                    .as_deref()
                    .is_some_and(|f| f.filter_all_remaining());
            return if done {
                Step::RegionDone
            } else {
                Step::Dropped
            };
        }
        self.row_room = (cells.len(), cells.byte_len());
        self.returned(cells.len(), cells.counted_bytes());
        Step::Row(Row { cells })
    }

    /// Counts a row of `cells` cells counting `bytes` bytes as returned.
    fn returned(&mut self, cells: usize, bytes: u64) {
        self.rows_returned += 1;
        self.cells_returned += cells as u64;
        self.bytes_returned += bytes;
        self.last_returned = true;
        if let Some(room) = self.room.as_mut() {
            *room = room.saturating_sub(1);
        }
    }

    /// The row just read as a view ([`Step::Viewed`]).
    pub fn view(&self) -> RowView<'_> {
        RowView {
            cells: self.view.as_deref().unwrap_or_default(),
        }
    }

    /// The list the rows were read as views into, for the next region or read.
    pub fn take_view(&mut self) -> Option<Vec<CellRef<'a>>> {
        self.view.take()
    }

    /// Whether the row's cells make a row of the result once the filter has seen the whole
    /// row (`FilterWrapper.filterRowCellsWithRet`: `filter_row` only when cells are left).
    fn keeps(&mut self, cells: &mut Cells) -> bool {
        let was_empty = cells.is_empty();
        match self.filter.as_deref_mut() {
            None => !was_empty,
            Some(f) if f.has_filter_row() => {
                // The filter edits owned cells (`filterRowCells(List<Cell>)`).
                cells.edit_owned(&mut |owned| f.filter_row_cells(owned));
                !cells.is_empty() && !f.filter_row()
            }
            Some(f) => !was_empty && !f.filter_row(),
        }
    }

    /// Takes back a returned row's buffer once its caller has read the row (a read that hands
    /// each row over instead of keeping it: [`super::Rows::Each`]), so the next row is read
    /// into the same room and a scan allocates nothing per row.
    pub fn give_back(&mut self, mut cells: Cells) {
        cells.clear();
        self.row_buf = cells;
    }

    /// Whether the scanner has returned its last row: the limit is reached, or (`nextRaw`)
    /// the filter, reset after a returned row, says nothing more can pass.
    pub fn finished_after_row(&mut self) -> Option<Step> {
        if self.room == Some(0) {
            return Some(Step::ScanDone);
        }
        let f = self.filter.as_deref_mut()?;
        f.reset();
        f.filter_all_remaining().then_some(Step::RegionDone)
    }

    /// Counts a row as read by the region scanner (`ROWS_SCANNED`).
    fn examine(&mut self, row: &'a [u8]) {
        self.rows_examined += 1;
        if self.first_examined.is_none() {
            self.first_examined = Some(row);
        }
        self.last_examined = Some(row);
    }
}
