//! Filters made of filters: `AND`/`OR` lists (`FilterListWithAND`, `FilterListWithOR`),
//! `SKIP` and `WHILE`.

use std::cmp::Ordering;

use super::{Filter, ReturnCode};
use crate::engine::{Cell, CellRef};

use ReturnCode::{
    Include, IncludeAndNextCol, IncludeAndSeekNextRow, NextCol, NextRow, SeekNextUsingHint, Skip,
};

/// `AND` (MUST_PASS_ALL) or `OR` (MUST_PASS_ONE) over several filters, with HBase's
/// protocol for each.
///
/// AND (`FilterListWithAND`): a cell is offered to the filters in order until one does not
/// include it, so stateful filters after that one count only what got through; return codes
/// merge to the largest step; a row is dropped if any filter drops it.
///
/// OR (`FilterListWithOR`): every filter's `filter_row_key` runs (a filter that rejected the row
/// answers NEXT_ROW for its cells, so the row shows what the other branches include); finished
/// filters (`filter_all_remaining`) leave the vote; a filter that asked to skip a column, the
/// row or up to a hint is not asked again until the scan gets there; return codes merge to the
/// smallest step (`mergeReturnCode`); a transforming filter rewrites only the cells its own
/// branch included.
#[derive(Clone, Debug)]
pub struct FilterList {
    pub must_pass_all: bool,
    pub filters: Vec<Box<dyn Filter>>,
    pub(crate) reversed: bool,
    /// Per filter: whether it included the last cell (its transform applies).
    pub(crate) included: Vec<bool>,
    /// OR: per filter, its last return code and the cell it answered.
    pub(crate) previous: Vec<Option<(ReturnCode, Cell)>>,
    /// AND: the filters that asked for a seek on the last cell.
    pub(crate) seekers: Vec<usize>,
}

impl FilterList {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(must_pass_all: bool, filters: Vec<Box<dyn Filter>>) -> FilterList {
        let n = filters.len();
        FilterList {
            must_pass_all,
            filters,
            reversed: false,
            // AND transforms with every filter: a cell it includes, all included.
            included: vec![must_pass_all; n],
            previous: vec![None; n],
            seekers: Vec::new(),
        }
    }

    /// `FilterListBase.compareCell`: cell order, turned round in a reversed scan. Cells within
    /// a row still come in cell order in a reversed scan, so an OR list there takes a column
    /// hint as not yet reached once the scan has passed it, and the hinting filter keeps
    /// voting SEEK_NEXT_USING_HINT for the rest of the row without being asked, as HBase's
    /// code does.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn compare(&self, a: &CellRef<'_>, b: &Cell) -> Ordering {
        let ord = a.cmp_cell(b);
        if self.reversed {
            ord.reverse()
        } else {
            ord
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell_and(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let mut rc = Include;
        self.seekers.clear();
        for (i, f) in self.filters.iter_mut().enumerate() {
            if f.filter_all_remaining() {
                return NextRow;
            }
            let local = f.filter_cell(cell);
            if local == SeekNextUsingHint {
                self.seekers.push(i);
            }
            rc = merge_and(rc, local);
            // HBASE-20565: later filters must not see a cell an earlier one refused.
            if !rc.includes() {
                return rc;
            }
        }
        if self.seekers.is_empty() {
            rc
        } else {
            SeekNextUsingHint
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell_or(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let mut rc: Option<ReturnCode> = None;
        for i in 0..self.filters.len() {
            if let Some(slot) = self.included.get_mut(i) {
                *slot = false;
            }
            let Some(f) = self.filters.get(i) else {
                continue;
            };
            if f.filter_all_remaining() {
                continue;
            }
            let known = match self.previous.get(i) {
                Some(Some((code, prev))) => self.code_from_previous(i, cell, prev, *code),
                _ => None,
            };
            let local = match (known, self.filters.get_mut(i)) {
                (Some(code), _) => code,
                (None, Some(f)) => f.filter_cell(cell),
                (None, None) => continue,
            };
            if let Some(slot) = self.previous.get_mut(i) {
                *slot = match local {
                    Include | Skip => None,
                    code => Some((code, cell.to_cell(&std::sync::Arc::from(cell.family)))),
                };
            }
            rc = Some(match rc {
                None => local,
                Some(so_far) => merge_or(so_far, local),
            });
            if local.includes() {
                if let Some(slot) = self.included.get_mut(i) {
                    *slot = true;
                }
            }
        }
        rc.unwrap_or(Skip)
    }

    /// `calculateReturnCodeByPrevCellAndRC`: what filter `i` said about an earlier cell still
    /// holds for this one while the scan has not passed the column, row or hint it named.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn code_from_previous(
        &self,
        i: usize,
        cell: &CellRef<'_>,
        prev: &Cell,
        code: ReturnCode,
    ) -> Option<ReturnCode> {
        match code {
            Include | Skip => None,
            SeekNextUsingHint => {
                let hint = self.filters.get(i)?.next_cell_hint(&prev.as_ref())?;
                (self.compare(cell, &hint) == Ordering::Less).then_some(SeekNextUsingHint)
            }
            NextCol | IncludeAndNextCol => (*prev.family == *cell.family
                && prev.qualifier == cell.qualifier)
                .then_some(NextCol),
            NextRow | IncludeAndSeekNextRow => (*prev.family == *cell.family).then_some(NextRow),
        }
    }
}

/// `FilterListWithAND.mergeReturnCode`: the larger step wins.
#[cfg_attr(rowkey_cold, optimize(size))]
fn merge_and(rc: ReturnCode, local: ReturnCode) -> ReturnCode {
    if rc == SeekNextUsingHint || local == SeekNextUsingHint {
        return SeekNextUsingHint;
    }
    match (local, rc) {
        (Include, rc) => rc,
        (NextRow, _) => NextRow,
        (IncludeAndNextCol, Include | IncludeAndNextCol) => IncludeAndNextCol,
        (IncludeAndNextCol, IncludeAndSeekNextRow) => IncludeAndSeekNextRow,
        (IncludeAndNextCol, Skip | NextCol) => NextCol,
        (IncludeAndSeekNextRow, Include | IncludeAndNextCol | IncludeAndSeekNextRow) => {
            IncludeAndSeekNextRow
        }
        (Skip, Include | Skip) => Skip,
        (Skip | NextCol, IncludeAndNextCol | NextCol) => NextCol,
        (NextCol, Include | Skip) => NextCol,
        (_, _) => NextRow,
    }
}

/// `FilterListWithOR.mergeReturnCode`: the smaller step wins (its table, row by row).
#[cfg_attr(rowkey_cold, optimize(size))]
fn merge_or(rc: ReturnCode, local: ReturnCode) -> ReturnCode {
    match (local, rc) {
        (Include, _) => Include,
        (IncludeAndNextCol, Include | Skip | SeekNextUsingHint) => Include,
        (IncludeAndNextCol, _) => IncludeAndNextCol,
        (IncludeAndSeekNextRow, Include | Skip | SeekNextUsingHint) => Include,
        (IncludeAndSeekNextRow, IncludeAndNextCol | NextCol) => IncludeAndNextCol,
        (IncludeAndSeekNextRow, _) => IncludeAndSeekNextRow,
        (Skip, Include | IncludeAndNextCol | IncludeAndSeekNextRow) => Include,
        (Skip, _) => Skip,
        (NextCol, Include) => Include,
        (NextCol, NextCol | NextRow) => NextCol,
        (NextCol, IncludeAndNextCol | IncludeAndSeekNextRow) => IncludeAndNextCol,
        (NextCol, _) => Skip,
        (NextRow, Skip | SeekNextUsingHint) => Skip,
        (NextRow, rc) => rc,
        (SeekNextUsingHint, Include | IncludeAndNextCol | IncludeAndSeekNextRow) => Include,
        (SeekNextUsingHint, Skip | NextCol | NextRow) => Skip,
        (SeekNextUsingHint, SeekNextUsingHint) => SeekNextUsingHint,
    }
}

impl Filter for FilterList {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.filters.iter_mut().for_each(|f| f.reset());
        if !self.must_pass_all {
            self.included.iter_mut().for_each(|b| *b = false);
            self.previous.iter_mut().for_each(|p| *p = None);
        }
        self.seekers.clear();
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
        self.filters
            .iter_mut()
            .for_each(|f| f.set_reversed(reversed));
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        if self.filters.is_empty() {
            return false;
        }
        if self.must_pass_all {
            self.filters.iter().any(|f| f.filter_all_remaining())
        } else {
            self.filters.iter().all(|f| f.filter_all_remaining())
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.filters.is_empty() {
            return false;
        }
        // Every filter sees the key (PrefixFilter notes row changes there); a finished one
        // counts as a rejection.
        let mut rejected = 0;
        for f in &mut self.filters {
            if f.filter_all_remaining() || f.filter_row_key(row) {
                rejected += 1;
            }
        }
        if self.must_pass_all {
            rejected > 0
        } else {
            rejected == self.filters.len()
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if self.filters.is_empty() {
            return Include;
        }
        if self.must_pass_all {
            self.filter_cell_and(cell)
        } else {
            self.filter_cell_or(cell)
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn transform_cell(&self, cell: Cell) -> Cell {
        self.filters
            .iter()
            .zip(&self.included)
            .filter(|(_, included)| **included)
            .fold(cell, |c, (f, _)| f.transform_cell(c))
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        self.filters.iter().any(|f| f.has_filter_row())
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_cells(&mut self, cells: &mut Vec<Cell>) {
        self.filters
            .iter_mut()
            .for_each(|f| f.filter_row_cells(cells));
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        // Both lists stop asking at the first answer that decides (so a PageFilter after it
        // does not count the row).
        if self.must_pass_all {
            self.filters.iter_mut().any(|f| f.filter_row())
        } else {
            !self.filters.is_empty() && self.filters.iter_mut().all(|f| f.filter_row())
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        if self.must_pass_all {
            // The furthest hint of the filters that asked for one.
            let mut best: Option<Cell> = None;
            for f in self.seekers.iter().filter_map(|i| self.filters.get(*i)) {
                if f.filter_all_remaining() {
                    continue;
                }
                let hint = f.next_cell_hint(cell)?;
                if best
                    .as_ref()
                    .is_none_or(|b| self.compare(&b.as_ref(), &hint) == Ordering::Less)
                {
                    best = Some(hint);
                }
            }
            best
        } else {
            // The nearest hint; any filter without one means no hint.
            let mut best: Option<Cell> = None;
            for f in self.filters.iter().filter(|f| !f.filter_all_remaining()) {
                let hint = f.next_cell_hint(cell)?;
                if best
                    .as_ref()
                    .is_none_or(|b| self.compare(&b.as_ref(), &hint) == Ordering::Greater)
                {
                    best = Some(hint);
                }
            }
            best
        }
    }
}

/// `SKIP f`: drops a whole row as soon as `f` answers anything but INCLUDE for one of its
/// cells (`SkipFilter`; its row key check and row end do not consult `f`).
#[derive(Clone, Debug)]
pub struct SkipFilter {
    pub inner: Box<dyn Filter>,
    pub(crate) filter_row: bool,
}

impl SkipFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(inner: Box<dyn Filter>) -> SkipFilter {
        SkipFilter {
            inner,
            filter_row: false,
        }
    }
}

impl Filter for SkipFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.inner.reset();
        self.filter_row = false;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, reversed: bool) {
        self.inner.set_reversed(reversed);
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let code = self.inner.filter_cell(cell);
        self.filter_row |= code != Include;
        code
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn transform_cell(&self, cell: Cell) -> Cell {
        self.inner.transform_cell(cell)
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        true
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        self.filter_row
    }
}

/// `WHILE f`: ends the region's scan at the first row or cell `f` does not pass
/// (`WhileMatchFilter`: anything but INCLUDE for a cell, a rejected row key, a dropped row).
#[derive(Clone, Debug)]
pub struct WhileMatchFilter {
    pub inner: Box<dyn Filter>,
    pub(crate) done: bool,
}

impl WhileMatchFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(inner: Box<dyn Filter>) -> WhileMatchFilter {
        WhileMatchFilter { inner, done: false }
    }
}

impl Filter for WhileMatchFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.inner.reset();
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, reversed: bool) {
        self.inner.set_reversed(reversed);
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        self.done || self.inner.filter_all_remaining()
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.filter_all_remaining() {
            return true;
        }
        let drop = self.inner.filter_row_key(row);
        self.done |= drop;
        drop
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let code = self.inner.filter_cell(cell);
        self.done |= code != Include;
        code
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn transform_cell(&self, cell: Cell) -> Cell {
        self.inner.transform_cell(cell)
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        true
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        let drop = self.inner.filter_row();
        self.done |= drop;
        drop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [ReturnCode; 7] = [
        Include,
        IncludeAndNextCol,
        IncludeAndSeekNextRow,
        Skip,
        NextCol,
        NextRow,
        SeekNextUsingHint,
    ];

    /// FilterListWithOR's table, row = local code, column = code so far (same order as ALL).
    #[test]
    fn or_merge_is_hbase_table() {
        let table = [
            [Include; 7],
            [
                Include,
                IncludeAndNextCol,
                IncludeAndNextCol,
                Include,
                IncludeAndNextCol,
                IncludeAndNextCol,
                Include,
            ],
            [
                Include,
                IncludeAndNextCol,
                IncludeAndSeekNextRow,
                Include,
                IncludeAndNextCol,
                IncludeAndSeekNextRow,
                Include,
            ],
            [Include, Include, Include, Skip, Skip, Skip, Skip],
            [
                Include,
                IncludeAndNextCol,
                IncludeAndNextCol,
                Skip,
                NextCol,
                NextCol,
                Skip,
            ],
            [
                Include,
                IncludeAndNextCol,
                IncludeAndSeekNextRow,
                Skip,
                NextCol,
                NextRow,
                Skip,
            ],
            [
                Include,
                Include,
                Include,
                Skip,
                Skip,
                Skip,
                SeekNextUsingHint,
            ],
        ];
        for (li, local) in ALL.iter().enumerate() {
            for (ri, rc) in ALL.iter().enumerate() {
                assert_eq!(
                    merge_or(*rc, *local),
                    table[li][ri],
                    "{local:?} onto {rc:?}"
                );
            }
        }
    }

    /// FilterListWithAND's table, row = local code, column = code so far.
    #[test]
    fn and_merge_is_hbase_table() {
        let s = SeekNextUsingHint;
        let table = [
            [
                Include,
                IncludeAndNextCol,
                IncludeAndSeekNextRow,
                Skip,
                NextCol,
                NextRow,
                s,
            ],
            [
                IncludeAndNextCol,
                IncludeAndNextCol,
                IncludeAndSeekNextRow,
                NextCol,
                NextCol,
                NextRow,
                s,
            ],
            [
                IncludeAndSeekNextRow,
                IncludeAndSeekNextRow,
                IncludeAndSeekNextRow,
                NextRow,
                NextRow,
                NextRow,
                s,
            ],
            [Skip, NextCol, NextRow, Skip, NextCol, NextRow, s],
            [NextCol, NextCol, NextRow, NextCol, NextCol, NextRow, s],
            [NextRow, NextRow, NextRow, NextRow, NextRow, NextRow, s],
            [s; 7],
        ];
        for (li, local) in ALL.iter().enumerate() {
            for (ri, rc) in ALL.iter().enumerate() {
                assert_eq!(
                    merge_and(*rc, *local),
                    table[li][ri],
                    "{local:?} onto {rc:?}"
                );
            }
        }
    }
}
