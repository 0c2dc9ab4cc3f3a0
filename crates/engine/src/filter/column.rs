//! Filters that decide on the family, the qualifier, the timestamp or the column count.

use super::{Comparator, CompareOp, Filter, ReturnCode};
use crate::engine::{first_on_column, first_on_column_at, last_on_column, Cell, CellRef};
use crate::kit::order;

/// Cells whose family compares to the operand as the operator says.
#[derive(Clone, Debug)]
pub struct FamilyFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
}

impl Filter for FamilyFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
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
#[derive(Clone, Debug)]
pub struct QualifierFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
}

impl Filter for QualifierFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
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

/// Columns whose qualifier starts with a prefix. A qualifier before the prefix seeks to the
/// prefix (`SEEK_NEXT_USING_HINT`); one after it ends the row in this family
/// (`ColumnPrefixFilter.filterColumn`).
#[derive(Clone, Debug)]
pub struct ColumnPrefixFilter {
    pub prefix: Vec<u8>,
}

impl Filter for ColumnPrefixFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let q = cell.qualifier;
        if q.starts_with(&self.prefix) {
            ReturnCode::Include
        } else if q < self.prefix.as_slice() {
            ReturnCode::SeekNextUsingHint
        } else {
            ReturnCode::NextRow
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        Some(first_on_column(cell, &self.prefix))
    }
}

/// Columns whose qualifier starts with any of several prefixes (kept sorted and distinct).
/// As `MultipleColumnPrefixFilter.filterColumn` decides: the greatest prefix at or below the
/// qualifier must be a prefix of it; otherwise the scan seeks to the next prefix, or ends the
/// row in this family past the last one. (So with prefixes `a` and `ab`, the qualifier `ac` is
/// not included: `ab` is the prefix checked, as in HBase.)
#[derive(Clone, Debug)]
pub struct MultipleColumnPrefixFilter {
    pub prefixes: Vec<Vec<u8>>,
    pub(crate) hint: Vec<u8>,
}

impl MultipleColumnPrefixFilter {
    /// The filter over `prefixes`, sorted; `None` when two are equal (HBase: "prefixes must be
    /// distinct").
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(mut prefixes: Vec<Vec<u8>>) -> Option<MultipleColumnPrefixFilter> {
        order::sort(&mut prefixes);
        if prefixes.windows(2).any(|w| w.first() == w.get(1)) {
            return None;
        }
        Some(MultipleColumnPrefixFilter {
            prefixes,
            hint: Vec::new(),
        })
    }
}

impl Filter for MultipleColumnPrefixFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let q = cell.qualifier;
        let at_or_below = self.prefixes.partition_point(|p| p.as_slice() <= q);
        let Some(largest) = at_or_below
            .checked_sub(1)
            .and_then(|i| self.prefixes.get(i))
        else {
            match self.prefixes.first() {
                Some(first) => {
                    self.hint = first.clone();
                    return ReturnCode::SeekNextUsingHint;
                }
                None => return ReturnCode::Include,
            }
        };
        if q.starts_with(largest) {
            return ReturnCode::Include;
        }
        match self.prefixes.get(at_or_below) {
            Some(next) => {
                self.hint = next.clone();
                ReturnCode::SeekNextUsingHint
            }
            None => ReturnCode::NextRow,
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        Some(first_on_column(cell, &self.hint))
    }
}

/// Columns whose qualifier lies between two bounds, each inclusive or not.
#[derive(Clone, Debug)]
pub struct ColumnRangeFilter {
    pub min: Option<Vec<u8>>,
    pub min_inclusive: bool,
    pub max: Option<Vec<u8>>,
    pub max_inclusive: bool,
}

/// `ColumnRangeFilter.filterCell`: below the minimum seeks to it, the excluded minimum itself
/// skips its column, past the maximum ends the row in this family.
impl Filter for ColumnRangeFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let q = cell.qualifier;
        if let Some(min) = &self.min {
            if q < min.as_slice() {
                return ReturnCode::SeekNextUsingHint;
            }
            if q == min.as_slice() && !self.min_inclusive {
                return ReturnCode::NextCol;
            }
        }
        if let Some(max) = &self.max {
            if q > max.as_slice() || (q == max.as_slice() && !self.max_inclusive) {
                return ReturnCode::NextRow;
            }
        }
        ReturnCode::Include
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        Some(first_on_column(
            cell,
            self.min.as_deref().unwrap_or_default(),
        ))
    }
}

/// The first `limit` columns of a row; built for gets: once a row has more, the scan ends.
#[derive(Clone, Debug)]
pub struct ColumnCountGetFilter {
    pub limit: i64,
    pub(crate) count: i64,
}

impl ColumnCountGetFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(limit: i64) -> ColumnCountGetFilter {
        ColumnCountGetFilter { limit, count: 0 }
    }
}

impl Filter for ColumnCountGetFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.count = 0;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        self.count > self.limit
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, _cell: &CellRef<'_>) -> ReturnCode {
        self.count += 1;
        if self.filter_all_remaining() {
            ReturnCode::NextCol
        } else {
            ReturnCode::IncludeAndNextCol
        }
    }
}

/// `limit` columns of each row, after skipping `offset` of them; or, with a `column_offset`
/// (the Java API's bookmark form), `limit` columns from that qualifier on, seeking to it.
/// Columns are counted across the row's families (`ColumnPaginationFilter.filterCell`).
#[derive(Clone, Debug)]
pub struct ColumnPaginationFilter {
    pub limit: i64,
    pub offset: i64,
    pub column_offset: Option<Vec<u8>>,
    pub(crate) count: i64,
}

impl ColumnPaginationFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(limit: i64, offset: i64) -> ColumnPaginationFilter {
        ColumnPaginationFilter {
            limit,
            offset,
            column_offset: None,
            count: 0,
        }
    }

    /// The bookmark form: `limit` columns from `column_offset` on.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_column(limit: i64, column_offset: &[u8]) -> ColumnPaginationFilter {
        ColumnPaginationFilter {
            limit,
            offset: -1,
            column_offset: Some(column_offset.to_vec()),
            count: 0,
        }
    }
}

impl Filter for ColumnPaginationFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.count = 0;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if let Some(start) = &self.column_offset {
            if self.count >= self.limit {
                return ReturnCode::NextRow;
            }
            // Only compared until the first column is counted.
            if self.count == 0 && cell.qualifier < start.as_slice() {
                return ReturnCode::SeekNextUsingHint;
            }
            self.count += 1;
            return ReturnCode::IncludeAndNextCol;
        }
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
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        self.column_offset
            .as_deref()
            .map(|q| first_on_column(cell, q))
    }
}

/// Cells with one of the listed timestamps (kept sorted). A version older than the oldest
/// listed ends its column. With `can_hint` (the Java API's second argument; the filter language
/// leaves it off) a version between listed timestamps seeks to the next listed one instead of
/// being skipped, which can step over delete markers (`TimestampsFilter.getNextCellHint`).
#[derive(Clone, Debug)]
pub struct TimestampsFilter {
    pub timestamps: Vec<u64>,
    pub can_hint: bool,
}

impl TimestampsFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(mut timestamps: Vec<u64>, can_hint: bool) -> TimestampsFilter {
        order::sort(&mut timestamps);
        timestamps.dedup();
        TimestampsFilter {
            timestamps,
            can_hint,
        }
    }
}

impl Filter for TimestampsFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if self.timestamps.binary_search(&cell.timestamp).is_ok() {
            ReturnCode::Include
        } else if self
            .timestamps
            .first()
            .is_none_or(|min| cell.timestamp < *min)
        {
            ReturnCode::NextCol
        } else if self.can_hint {
            ReturnCode::SeekNextUsingHint
        } else {
            ReturnCode::Skip
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        if !self.can_hint {
            return None;
        }
        // The greatest listed timestamp below the cell's: versions run newest first.
        let below = self.timestamps.partition_point(|t| *t < cell.timestamp);
        Some(
            match below.checked_sub(1).and_then(|i| self.timestamps.get(i)) {
                Some(ts) => first_on_column_at(cell, &cell.qualifier, *ts),
                None => last_on_column(cell),
            },
        )
    }
}
