//! Filters that decide on the family, the qualifier, the timestamp or the column count.

use super::{Comparator, CompareOp, Filter, ReturnCode};
use crate::engine::Cell;

/// Cells whose family compares to the operand as the operator says.
#[derive(Debug)]
pub struct FamilyFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
}

impl Filter for FamilyFilter {
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        if self
            .op
            .filters_out(self.comparator.compare_to(&cell.family))
        {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
}

/// Cells whose qualifier compares to the operand as the operator says.
#[derive(Debug)]
pub struct QualifierFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
}

impl Filter for QualifierFilter {
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        if self
            .op
            .filters_out(self.comparator.compare_to(&cell.qualifier))
        {
            ReturnCode::Skip
        } else {
            ReturnCode::Include
        }
    }
}

/// Columns whose qualifier starts with a prefix.
#[derive(Debug)]
pub struct ColumnPrefixFilter {
    pub prefix: Vec<u8>,
}

impl Filter for ColumnPrefixFilter {
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        let q = cell.qualifier.as_slice();
        if q.starts_with(&self.prefix) {
            ReturnCode::Include
        } else if q < self.prefix.as_slice() {
            ReturnCode::SeekNextUsingHint
        } else {
            ReturnCode::NextRow
        }
    }
}

/// Columns whose qualifier starts with any of several prefixes.
#[derive(Debug)]
pub struct MultipleColumnPrefixFilter {
    pub prefixes: Vec<Vec<u8>>,
}

impl Filter for MultipleColumnPrefixFilter {
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        if self.prefixes.iter().any(|p| cell.qualifier.starts_with(p)) {
            ReturnCode::Include
        } else {
            ReturnCode::SeekNextUsingHint
        }
    }
}

/// Columns whose qualifier lies between two bounds, each inclusive or not.
#[derive(Debug)]
pub struct ColumnRangeFilter {
    pub min: Option<Vec<u8>>,
    pub min_inclusive: bool,
    pub max: Option<Vec<u8>>,
    pub max_inclusive: bool,
}

impl Filter for ColumnRangeFilter {
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        let q = cell.qualifier.as_slice();
        if let Some(min) = &self.min {
            if q < min.as_slice() || (q == min.as_slice() && !self.min_inclusive) {
                return ReturnCode::SeekNextUsingHint;
            }
        }
        if let Some(max) = &self.max {
            if q > max.as_slice() || (q == max.as_slice() && !self.max_inclusive) {
                return ReturnCode::NextRow;
            }
        }
        ReturnCode::Include
    }
}

/// The first `limit` columns of a row; built for gets: once a row has more, the scan ends.
#[derive(Debug)]
pub struct ColumnCountGetFilter {
    pub limit: i64,
    pub(crate) count: i64,
}

impl Filter for ColumnCountGetFilter {
    fn reset(&mut self) {
        self.count = 0;
    }
    fn filter_all_remaining(&self) -> bool {
        self.count > self.limit
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        self.count += 1;
        if self.filter_all_remaining() {
            ReturnCode::NextCol
        } else {
            ReturnCode::IncludeAndNextCol
        }
    }
}

/// `limit` columns of each row, after skipping `offset` of them.
#[derive(Debug)]
pub struct ColumnPaginationFilter {
    pub limit: i64,
    pub offset: i64,
    pub(crate) count: i64,
}

impl Filter for ColumnPaginationFilter {
    fn reset(&mut self) {
        self.count = 0;
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        if self.count >= self.offset + self.limit {
            return ReturnCode::NextRow;
        }
        let code = if self.count < self.offset {
            ReturnCode::NextCol
        } else {
            ReturnCode::IncludeAndNextCol
        };
        self.count += 1;
        code
    }
}

/// Cells with one of the listed timestamps.
#[derive(Debug)]
pub struct TimestampsFilter {
    pub timestamps: Vec<u64>,
}

impl Filter for TimestampsFilter {
    fn filter_cell(&mut self, cell: &Cell) -> ReturnCode {
        if self.timestamps.contains(&cell.timestamp) {
            ReturnCode::Include
        } else {
            ReturnCode::Skip
        }
    }
}
