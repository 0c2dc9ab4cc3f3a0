//! Filters that decide on the row key or on whole rows.

use super::{Comparator, CompareOp, Filter, ReturnCode};
use crate::engine::Cell;

/// Rows whose key starts with a prefix; ends a forward scan once rows pass the prefix.
#[derive(Debug)]
pub struct PrefixFilter {
    pub prefix: Vec<u8>,
    pub(crate) passed: bool,
    pub(crate) reversed: bool,
}

impl Filter for PrefixFilter {
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
    }
    fn filter_all_remaining(&self) -> bool {
        self.passed
    }
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if row.starts_with(&self.prefix) {
            return false;
        }
        let head = row.get(..self.prefix.len().min(row.len())).unwrap_or(row);
        let beyond = if self.reversed {
            head < self.prefix.as_slice()
        } else {
            head > self.prefix.as_slice()
        };
        if beyond {
            self.passed = true;
        }
        true
    }
}

/// Rows whose key compares to the operand as the operator says.
#[derive(Debug)]
pub struct RowFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
}

impl Filter for RowFilter {
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        self.op.filters_out(self.comparator.compare_to(row))
    }
}

/// Like a stop row, but the stop row itself is included.
#[derive(Debug)]
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
        let past = if self.reversed {
            row < self.stop.as_slice()
        } else {
            row > self.stop.as_slice()
        };
        if past {
            self.done = true;
        }
        past
    }
}

/// At most `page_size` rows per region scan (here: per scan).
#[derive(Debug)]
pub struct PageFilter {
    pub page_size: i64,
    pub(crate) accepted: i64,
}

impl Filter for PageFilter {
    fn filter_all_remaining(&self) -> bool {
        self.accepted >= self.page_size
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
#[derive(Debug, Default)]
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
#[derive(Debug)]
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
