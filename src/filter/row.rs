//! Filters that decide on the row key or on whole rows.

use super::{Comparator, CompareOp, Filter, ReturnCode};
use crate::engine::Cell;

/// Rows whose key starts with a prefix; ends a forward scan once rows pass the prefix
/// (`PrefixFilter`: a rejected row also answers NEXT_ROW for its cells and drops in
/// `filter_row`, which matters inside an OR list).
#[derive(Clone, Debug)]
pub struct PrefixFilter {
    pub prefix: Vec<u8>,
    pub(crate) passed: bool,
    pub(crate) reversed: bool,
    pub(crate) filter_row: bool,
}

impl PrefixFilter {
    pub fn new(prefix: &[u8]) -> PrefixFilter {
        PrefixFilter {
            prefix: prefix.to_vec(),
            passed: false,
            reversed: false,
            filter_row: true,
        }
    }
}

impl Filter for PrefixFilter {
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
    }
    fn reset(&mut self) {
        self.filter_row = true;
    }
    fn filter_all_remaining(&self) -> bool {
        self.passed
    }
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.passed || row.len() < self.prefix.len() {
            return true;
        }
        let head = row.get(..self.prefix.len()).unwrap_or(row);
        let cmp = head.cmp(self.prefix.as_slice());
        if (!self.reversed && cmp.is_gt()) || (self.reversed && cmp.is_lt()) {
            self.passed = true;
        }
        self.filter_row = cmp.is_ne();
        self.filter_row
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        if self.filter_row {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
    fn filter_row(&mut self) -> bool {
        self.filter_row
    }
}

/// Rows whose key compares to the operand as the operator says (`RowFilter`: a rejected row
/// answers NEXT_ROW for its cells and drops in `filter_row`).
#[derive(Clone, Debug)]
pub struct RowFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
    pub(crate) filter_out_row: bool,
}

impl RowFilter {
    pub fn new(op: CompareOp, comparator: Comparator) -> RowFilter {
        RowFilter {
            op,
            comparator,
            filter_out_row: false,
        }
    }
}

impl Filter for RowFilter {
    fn reset(&mut self) {
        self.filter_out_row = false;
    }
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.op.filters_out(self.comparator.compare_to(row)) {
            self.filter_out_row = true;
        }
        self.filter_out_row
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        if self.filter_out_row {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
    fn filter_row(&mut self) -> bool {
        self.filter_out_row
    }
}

/// Like a stop row, but the stop row itself is included.
#[derive(Clone, Debug)]
pub struct InclusiveStopFilter {
    pub stop: Vec<u8>,
    pub(crate) done: bool,
    pub(crate) reversed: bool,
}

impl Filter for InclusiveStopFilter {
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
    }
    fn filter_all_remaining(&self) -> bool {
        self.done
    }
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.done {
            return true;
        }
        self.done = if self.reversed {
            row < self.stop.as_slice()
        } else {
            row > self.stop.as_slice()
        };
        self.done
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        if self.done {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
}

/// At most `page_size` rows per region scanner: each region works on its own copy, so a
/// table of several regions can return more rows in all (HBase's `PageFilter` documents this;
/// `LIMIT` bounds the whole scan). Counts the rows that reach the row check with cells left:
/// a row the read left empty is dropped before `filter_row` is asked.
#[derive(Clone, Debug)]
pub struct PageFilter {
    pub page_size: i64,
    pub(crate) accepted: i64,
}

impl PageFilter {
    pub fn new(page_size: i64) -> PageFilter {
        PageFilter {
            page_size,
            accepted: 0,
        }
    }
}

impl Filter for PageFilter {
    fn filter_all_remaining(&self) -> bool {
        self.accepted >= self.page_size
    }
    fn filter_row_key(&mut self, _row: &[u8]) -> bool {
        self.filter_all_remaining()
    }
    fn has_filter_row(&self) -> bool {
        true
    }
    fn filter_row(&mut self) -> bool {
        self.accepted += 1;
        self.accepted > self.page_size
    }
}

/// Only the first cell of each row.
#[derive(Clone, Debug, Default)]
pub struct FirstKeyOnlyFilter {
    pub(crate) found: bool,
}

impl Filter for FirstKeyOnlyFilter {
    fn reset(&mut self) {
        self.found = false;
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        if self.found {
            return ReturnCode::NextRow;
        }
        self.found = true;
        ReturnCode::Include
    }
}

/// Drops every value, or replaces it by its length as a 4-byte big-endian int.
#[derive(Clone, Debug)]
pub struct KeyOnlyFilter {
    pub len_as_value: bool,
}

impl Filter for KeyOnlyFilter {
    fn transform_cell(&self, mut cell: Cell) -> Cell {
        cell.value = if self.len_as_value {
            (cell.value.len() as u32).to_be_bytes().to_vec()
        } else {
            Vec::new()
        };
        cell
    }
}
