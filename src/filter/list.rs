//! Filters made of filters: `AND`/`OR` lists, `SKIP` and `WHILE`.

use super::{Filter, ReturnCode};
use crate::engine::Cell;

/// `AND` (MUST_PASS_ALL) or `OR` (MUST_PASS_ONE) over several filters.
#[derive(Debug)]
pub struct FilterList {
    pub must_pass_all: bool,
    pub filters: Vec<Box<dyn Filter>>,
}

impl Filter for FilterList {
    fn reset(&mut self) {
        self.filters.iter_mut().for_each(|f| f.reset());
    }
    fn set_reversed(&mut self, reversed: bool) {
        self.filters
            .iter_mut()
            .for_each(|f| f.set_reversed(reversed));
    }
    fn filter_all_remaining(&self) -> bool {
        if self.must_pass_all {
            self.filters.iter().any(|f| f.filter_all_remaining())
        } else {
            !self.filters.is_empty() && self.filters.iter().all(|f| f.filter_all_remaining())
        }
    }
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        // Every filter sees the key, so each keeps its own state right.
        let verdicts: Vec<bool> = self
            .filters
            .iter_mut()
            .map(|f| f.filter_row_key(row))
            .collect();
        if self.must_pass_all {
            verdicts.iter().any(|v| *v)
        } else {
            !verdicts.is_empty() && verdicts.iter().all(|v| *v)
        }
    }
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        let codes: Vec<ReturnCode> = self
            .filters
            .iter_mut()
            .map(|f| f.filter_cell(cell))
            .collect();
        if self.must_pass_all {
            // The most restrictive answer wins.
            codes.into_iter().max().unwrap_or(ReturnCode::Include)
        } else if codes.iter().any(|c| c.includes()) {
            ReturnCode::Include
        } else {
            // The least restrictive refusal wins.
            codes.into_iter().min().unwrap_or(ReturnCode::Include)
        }
    }
    fn transform_cell(&self, cell: Cell) -> Cell {
        self.filters.iter().fold(cell, |c, f| f.transform_cell(c))
    }
    fn has_filter_row(&self) -> bool {
        self.filters.iter().any(|f| f.has_filter_row())
    }
    fn filter_row_cells(&mut self, cells: &mut Vec<Cell>) {
        self.filters
            .iter_mut()
            .for_each(|f| f.filter_row_cells(cells));
    }
    fn filter_row(&mut self) -> bool {
        let verdicts: Vec<bool> = self.filters.iter_mut().map(|f| f.filter_row()).collect();
        if self.must_pass_all {
            verdicts.iter().any(|v| *v)
        } else {
            !verdicts.is_empty() && verdicts.iter().all(|v| *v)
        }
    }
}

/// `SKIP f`: drops a whole row as soon as `f` would drop any one of its cells.
#[derive(Debug)]
pub struct SkipFilter {
    pub inner: Box<dyn Filter>,
    pub(crate) filter_row: bool,
}

impl Filter for SkipFilter {
    fn reset(&mut self) {
        self.inner.reset();
        self.filter_row = false;
    }
    fn set_reversed(&mut self, reversed: bool) {
        self.inner.set_reversed(reversed);
    }
    fn filter_all_remaining(&self) -> bool {
        self.inner.filter_all_remaining()
    }
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        let code = self.inner.filter_cell(cell);
        if !code.includes() {
            self.filter_row = true;
        }
        code
    }
    fn transform_cell(&self, cell: Cell) -> Cell {
        self.inner.transform_cell(cell)
    }
    fn has_filter_row(&self) -> bool {
        true
    }
    fn filter_row(&mut self) -> bool {
        self.filter_row
    }
}

/// `WHILE f`: ends the whole scan at the first row or cell `f` drops.
#[derive(Debug)]
pub struct WhileMatchFilter {
    pub inner: Box<dyn Filter>,
    pub(crate) done: bool,
}

impl Filter for WhileMatchFilter {
    fn reset(&mut self) {
        self.inner.reset();
    }
    fn set_reversed(&mut self, reversed: bool) {
        self.inner.set_reversed(reversed);
    }
    fn filter_all_remaining(&self) -> bool {
        self.done || self.inner.filter_all_remaining()
    }
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        let drop = self.inner.filter_row_key(row);
        self.done |= drop;
        drop
    }
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        let code = self.inner.filter_cell(cell);
        self.done |= !code.includes();
        code
    }
    fn transform_cell(&self, cell: Cell) -> Cell {
        self.inner.transform_cell(cell)
    }
    fn has_filter_row(&self) -> bool {
        true
    }
    fn filter_row_cells(&mut self, cells: &mut Vec<Cell>) {
        self.inner.filter_row_cells(cells);
    }
    fn filter_row(&mut self) -> bool {
        let drop = self.inner.filter_row();
        self.done |= drop;
        drop
    }
}
