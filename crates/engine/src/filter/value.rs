//! Filters that decide on values.

use super::{Comparator, CompareOp, Filter, ReturnCode};
use crate::engine::{Cell, CellRef};

/// Cells whose value compares to the operand as the operator says.
#[derive(Clone, Debug)]
pub struct ValueFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
}

impl Filter for ValueFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        by_value(self.op, &self.comparator, cell)
    }
}

/// A cell kept or skipped by its value (`CompareFilter.compareValue`): what ValueFilter and
/// ColumnValueFilter answer for a cell they test.
fn by_value(op: CompareOp, comparator: &Comparator, cell: &CellRef<'_>) -> ReturnCode {
    if op.filters_out(comparator.compare_to(&cell.value)) {
        ReturnCode::Skip
    } else {
        ReturnCode::Include
    }
}

/// Whether `cell` is of the column `family:qualifier`.
fn of_column(cell: &CellRef<'_>, family: &[u8], qualifier: &[u8]) -> bool {
    cell.family == family && cell.qualifier == qualifier
}

/// Whole rows, kept or dropped by the value of one column. Rows without the column pass
/// unless `filter_if_missing`; with `latest_version_only` only the newest version is tested.
/// The `exclude` flavour (SingleColumnValueExcludeFilter) drops the tested column from results.
#[derive(Clone, Debug)]
pub struct SingleColumnValueFilter {
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    pub op: CompareOp,
    pub comparator: Comparator,
    pub filter_if_missing: bool,
    pub latest_version_only: bool,
    pub exclude: bool,
    pub(crate) found: bool,
    pub(crate) matched: bool,
}

impl SingleColumnValueFilter {
    /// The filter over `family:qualifier`; `exclude` makes it SingleColumnValueExcludeFilter.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(
        family: Vec<u8>,
        qualifier: Vec<u8>,
        op: CompareOp,
        comparator: Comparator,
        filter_if_missing: bool,
        latest_version_only: bool,
        exclude: bool,
    ) -> SingleColumnValueFilter {
        SingleColumnValueFilter {
            family,
            qualifier,
            op,
            comparator,
            filter_if_missing,
            latest_version_only,
            exclude,
            found: false,
            matched: false,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn is_column(&self, cell: &CellRef<'_>) -> bool {
        of_column(cell, &self.family, &self.qualifier)
    }
}

impl Filter for SingleColumnValueFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.found = false;
        self.matched = false;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if self.matched {
            return ReturnCode::Include;
        }
        if self.latest_version_only && self.found {
            return ReturnCode::NextRow;
        }
        if !self.is_column(cell) {
            return ReturnCode::Include;
        }
        self.found = true;
        if self.op.filters_out(self.comparator.compare_to(&cell.value)) {
            return if self.latest_version_only {
                ReturnCode::NextRow
            } else {
                ReturnCode::Include
            };
        }
        self.matched = true;
        ReturnCode::Include
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        true
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_cells(&mut self, cells: &mut Vec<Cell>) {
        if self.exclude {
            cells.retain(|c| !self.is_column(&c.as_ref()));
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        if self.found {
            !self.matched
        } else {
            self.filter_if_missing
        }
    }
}

/// The versions of one column whose value compares to the operand as the operator says, and
/// nothing else of the row (HBase 2's `ColumnValueFilter`; a SingleColumnValueFilter keeps the
/// whole row instead). Before the column is found other columns are passed over a column at a
/// time, after it the rest of the row (`ColumnValueFilter.filterCell`).
#[derive(Clone, Debug)]
pub struct ColumnValueFilter {
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    pub op: CompareOp,
    pub comparator: Comparator,
    pub(crate) found: bool,
}

impl ColumnValueFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(
        family: Vec<u8>,
        qualifier: Vec<u8>,
        op: CompareOp,
        comparator: Comparator,
    ) -> ColumnValueFilter {
        ColumnValueFilter {
            family,
            qualifier,
            op,
            comparator,
            found: false,
        }
    }
}

impl Filter for ColumnValueFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.found = false;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if !of_column(cell, &self.family, &self.qualifier) {
            return if self.found {
                ReturnCode::NextRow
            } else {
                ReturnCode::NextCol
            };
        }
        self.found = true;
        by_value(self.op, &self.comparator, cell)
    }
}

/// Keeps the cells whose timestamp matches a version of a reference column in the same row,
/// optionally only reference versions whose value passes a comparison.
#[derive(Clone, Debug)]
pub struct DependentColumnFilter {
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    pub drop_dependent: bool,
    pub compare: Option<(CompareOp, Comparator)>,
    pub(crate) stamps: Vec<u64>,
}

impl DependentColumnFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(
        family: Vec<u8>,
        qualifier: Vec<u8>,
        drop_dependent: bool,
        compare: Option<(CompareOp, Comparator)>,
    ) -> DependentColumnFilter {
        DependentColumnFilter {
            family,
            qualifier,
            drop_dependent,
            compare,
            stamps: Vec::new(),
        }
    }
}

impl Filter for DependentColumnFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.stamps.clear();
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if cell.family.as_ref() != self.family.as_slice() || cell.qualifier != self.qualifier {
            return ReturnCode::Include;
        }
        if let Some((op, cmp)) = &self.compare {
            if op.filters_out(cmp.compare_to(&cell.value)) {
                return ReturnCode::Skip;
            }
        }
        self.stamps.push(cell.timestamp);
        if self.drop_dependent {
            ReturnCode::Skip
        } else {
            ReturnCode::Include
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        true
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_cells(&mut self, cells: &mut Vec<Cell>) {
        cells.retain(|c| self.stamps.contains(&c.timestamp));
    }
}
