//! The store scanner: one family of one region, read a row at a time (HBase's `StoreScanner`
//! with its `UserScanQueryMatcher`). It takes the merged cells of the store's memstore and runs,
//! resolves versions and deletes by the table's rules ([`RowResolver`]), and runs the per-cell
//! filter protocol on the cells that survive, read in place. Only a cell the row keeps is
//! copied.

use std::sync::Arc;

use super::super::block::ReadCounts;
use super::super::cell::{Cell, CellRef};
use super::super::cells::{Cells, RowPlace};
use super::super::family::FamilyDescriptor;
use super::super::filter::{Filter, ReturnCode};
use super::super::resolve::{ReadSpec, RowResolver, Verdict};
use super::super::store::{Input, MergeIter};

/// A store's cells in the order the region walk reads rows, and within a row in cell order.
///
/// Forward, the merge is read as it is. Backward, the merge runs greatest cell first; a row's
/// cells are gathered when the row begins and handed out in cell order, as a forward read
/// would see them (HBase's `ReversedStoreScanner` reads each row forwards too): from the end
/// of the list gathered, greatest first.
pub(super) enum StoreCursor<'a> {
    Forward(MergeIter<'a>),
    Backward {
        merge: MergeIter<'a>,
        /// The row's cells, greatest first.
        row: Vec<CellRef<'a>>,
        /// How many of them are still to be handed out: the next is `row[left - 1]`.
        left: usize,
        /// The cells still to be handed out are known to be of the row being read: gathered
        /// for it (they all share one row), or the first of them compared with it.
        checked: bool,
    },
}

impl<'a> StoreCursor<'a> {
    /// The next row the walk reaches in this store.
    fn next_row(&self) -> Option<&'a [u8]> {
        match self {
            StoreCursor::Forward(merge) => merge.peek().map(|c| c.row),
            StoreCursor::Backward {
                merge, row, left, ..
            } => match left.checked_sub(1).and_then(|i| row.get(i)) {
                Some(c) => Some(c.row),
                None => merge.peek().map(|c| c.row),
            },
        }
    }

    /// Makes `row`'s cells the ones [`StoreCursor::peek`] hands out.
    fn begin_row(&mut self, wanted: &[u8]) {
        if let StoreCursor::Backward {
            merge,
            row,
            left,
            checked,
        } = self
        {
            if *left > 0 {
                // Cells left from a row read in part: the first handed out is compared.
                *checked = false;
                return;
            }
            row.clear();
            while let Some(cell) = merge.next_in_row(wanted) {
                row.push(cell);
            }
            *left = row.len();
            *checked = true;
        }
    }

    /// The next cell, moving past it, when it is a cell of `row`.
    #[inline]
    fn next_in_row(&mut self, row: &[u8]) -> Option<CellRef<'a>> {
        match self {
            StoreCursor::Forward(merge) => merge.next_in_row_read(row),
            StoreCursor::Backward {
                row: cells,
                left,
                checked,
                ..
            } => {
                let i = left.checked_sub(1)?;
                let cell = *cells.get(i)?;
                if !*checked {
                    if cell.row != row {
                        return None;
                    }
                    *checked = true;
                }
                *left = i;
                Some(cell)
            }
        }
    }

    /// Seeks to the first cell at or after `target`, when that is ahead. A store scanner
    /// seeks only in the scan's direction (HBASE-26232): backward, no column hint is ahead of
    /// the row being read, so it reads on.
    fn seek(&mut self, target: &Cell) {
        if let StoreCursor::Forward(merge) = self {
            merge.seek(target);
        }
    }

    fn merge(&self) -> &MergeIter<'a> {
        match self {
            StoreCursor::Forward(merge) | StoreCursor::Backward { merge, .. } => merge,
        }
    }
}

/// The store scanner of one family in one region.
pub(super) struct StoreScanner<'a, 's> {
    cursor: StoreCursor<'a>,
    family: &'s FamilyDescriptor,
    /// The family's name, shared by the cells a result copies out.
    family_name: &'a Arc<[u8]>,
    spec: &'s ReadSpec<'s>,
    now: u64,
    /// Closed for the rest of the region: a filter finished in the middle of a row (the
    /// matcher's DONE_SCAN closes the `StoreScanner`).
    closed: bool,
    /// Cells read and their bytes.
    pub cells_examined: u64,
    pub bytes_read: u64,
}

impl<'a, 's> StoreScanner<'a, 's> {
    pub fn new(
        cursor: StoreCursor<'a>,
        family: &'s FamilyDescriptor,
        spec: &'s ReadSpec<'s>,
        now: u64,
    ) -> Self {
        let family_name = cursor.merge().family;
        StoreScanner {
            cursor,
            family,
            family_name,
            spec,
            now,
            closed: false,
            cells_examined: 0,
            bytes_read: 0,
        }
    }

    /// The next row this store holds, unless it is closed.
    pub fn next_row(&self) -> Option<&'a [u8]> {
        if self.closed {
            None
        } else {
            self.cursor.next_row()
        }
    }

    /// The merge's list of sources, and the list a backward read gathered its rows in: what
    /// the next read can use again.
    pub fn into_lists(self) -> (Vec<Input<'a>>, Option<Vec<CellRef<'a>>>) {
        match self.cursor {
            StoreCursor::Forward(merge) => (merge.into_sources(), None),
            StoreCursor::Backward { merge, row, .. } => (merge.into_sources(), Some(row)),
        }
    }

    /// What the store's merge read (blocks, runs) and which of its sources it took cells from.
    pub fn counts(&self) -> (ReadCounts, u64) {
        let merge = self.cursor.merge();
        (merge.counts(), merge.touched)
    }

    /// Reads this store's cells of `row` (the cursor is at or before it) and leaves the cursor
    /// past it, adding the cells the row keeps to `out`. With `skip_row` the cells are read and
    /// counted but none is kept (the row key was filtered, or a filter said NEXT_ROW).
    pub fn read_row(
        &mut self,
        row: &[u8],
        filter: Option<&mut (dyn Filter + '_)>,
        skip_row: bool,
        out: &mut Cells,
    ) {
        if self.closed {
            return;
        }
        // The cells this store keeps share the row's key and the family's number in `out`.
        let mut place = RowPlace::default();
        let family = self.family_name;
        let Some(f) = filter else {
            self.read_plain(row, skip_row, |cell| out.push_in(&mut place, cell, family));
            return;
        };
        self.cursor.begin_row(row);
        let mut resolver = RowResolver::new(self.spec, self.family, self.now);
        // Versions counted again after the filter (`mergeFilterResponse`).
        let after_filter = resolver.versions_after_filter();
        let mut column: Option<&'a [u8]> = None;
        let mut versions = 0u32;
        let mut rest_of_row = skip_row;
        while let Some(cell) = self.cursor.next_in_row(row) {
            self.cells_examined += 1;
            self.bytes_read += cell.size() as u64;
            if rest_of_row {
                continue;
            }
            // DONE_SCAN: the matcher asks before anything else, and the store scanner closes
            // for the rest of the region.
            if f.filter_all_remaining() {
                self.closed = true;
                return;
            }
            if resolver.offer(&cell) != Verdict::Include {
                continue;
            }
            match f.filter_cell(&cell) {
                ReturnCode::Skip => {}
                ReturnCode::NextCol => resolver.skip_column(&cell),
                ReturnCode::NextRow => rest_of_row = true,
                ReturnCode::SeekNextUsingHint => {
                    // A hint ahead of the cell seeks; none, or one behind it, reads on.
                    let hint = f.next_cell_hint(&cell);
                    if let Some(hint) =
                        hint.filter(|h| cell.cmp_cell(h) == std::cmp::Ordering::Less)
                    {
                        self.cursor.seek(&hint);
                    }
                }
                ReturnCode::IncludeAndNextCol => {
                    out.push_cell(f.transform_cell(cell.to_cell(self.family_name)));
                    resolver.skip_column(&cell);
                }
                // The matcher keeps its own INCLUDE for INCLUDE_AND_SEEK_NEXT_ROW and counts
                // the version.
                ReturnCode::Include | ReturnCode::IncludeAndSeekNextRow => {
                    if column != Some(cell.qualifier) {
                        column = Some(cell.qualifier);
                        versions = 0;
                    }
                    versions += 1;
                    if versions > after_filter {
                        resolver.skip_column(&cell);
                    } else {
                        out.push_cell(f.transform_cell(cell.to_cell(self.family_name)));
                    }
                }
            }
        }
        // The matcher asks the filter before it sees the row change
        // (`NormalUserScanQueryMatcher.match` calls `filterAllRemaining` before `preCheck`): a
        // filter done in this row answers the store's next cell, the next row's first in the
        // scan's direction, with DONE_SCAN, and the store scanner closes.
        if self.cursor.merge().peek().is_some() && f.filter_all_remaining() {
            self.closed = true;
        }
    }

    /// Reads this store's cells of `row` as [`StoreScanner::read_row`] does without a filter,
    /// adding the cells the row keeps to `out` as they are, uncopied.
    pub fn read_row_view(&mut self, row: &[u8], out: &mut Vec<CellRef<'a>>) {
        if !self.closed {
            self.read_plain(row, false, |cell| out.push(cell));
        }
    }

    /// Reads this store's cells of `row` with no filter, handing each cell the row keeps to
    /// `keep` (none with `skip_row`).
    #[inline(always)]
    fn read_plain(&mut self, row: &[u8], skip_row: bool, mut keep: impl FnMut(CellRef<'a>)) {
        self.cursor.begin_row(row);
        let mut resolver = RowResolver::new(self.spec, self.family, self.now);
        while let Some(cell) = self.cursor.next_in_row(row) {
            self.cells_examined += 1;
            self.bytes_read += cell.size() as u64;
            if !skip_row && resolver.offer(&cell) == Verdict::Include {
                keep(cell);
            }
        }
    }
}
