//! The hook the read path calls: HBase's `Filter` protocol, its `ReturnCode`s and the
//! comparison operators. The read path (`scan.rs`) depends on this trait only; the concrete
//! filters and the filter language live in `crate::filter` and implement it.
//!
//! The order of calls is `RegionScannerImpl`'s and `UserScanQueryMatcher`'s, for each row of
//! each region (each region scanner works on its own copy of the filter):
//!
//! 1. `filter_all_remaining`: true ends the region's scan (the region scanner asks before each
//!    row; the store scanner asks again before each cell, and closes for the rest of the region
//!    when it turns true in the middle of a row: HBase's DONE_SCAN);
//! 2. `filter_row_key`: true drops the row without reading its cells;
//! 3. per cell that survived time range, deletes, the column selection and the family's
//!    VERSIONS: `filter_cell` on the cell read in place ([`CellRef`]); a cell it includes is
//!    copied then, and `transform_cell` rewrites the copy; a `SeekNextUsingHint` asks
//!    `next_cell_hint` where to seek;
//! 4. once the row is read: `filter_row_cells` (filters with `has_filter_row`) and, if cells are
//!    left, `filter_row`; true drops the row;
//! 5. `reset` before the next row.

use std::cmp::Ordering;
use std::sync::Arc;

use super::cell::{Cell, CellKind, CellRef};

/// What a filter says about one cell: HBase's `Filter.ReturnCode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReturnCode {
    /// Include the cell.
    Include,
    /// Include the cell and skip the rest of its column (older versions).
    IncludeAndNextCol,
    /// Include the cell and skip the rest of the row in this family.
    IncludeAndSeekNextRow,
    /// Skip this cell only.
    Skip,
    /// Skip the rest of this column.
    NextCol,
    /// Skip the rest of the row in this family.
    NextRow,
    /// Seek to the cell `Filter::next_cell_hint` names; cells before it are never read.
    SeekNextUsingHint,
}

impl ReturnCode {
    /// INCLUDE, INCLUDE_AND_NEXT_COL or INCLUDE_AND_SEEK_NEXT_ROW.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn includes(self) -> bool {
        matches!(
            self,
            ReturnCode::Include | ReturnCode::IncludeAndNextCol | ReturnCode::IncludeAndSeekNextRow
        )
    }

    /// HBase's constant name (`INCLUDE_AND_NEXT_COL`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn java_name(self) -> &'static str {
        match self {
            ReturnCode::Include => "INCLUDE",
            ReturnCode::IncludeAndNextCol => "INCLUDE_AND_NEXT_COL",
            ReturnCode::IncludeAndSeekNextRow => "INCLUDE_AND_SEEK_NEXT_ROW",
            ReturnCode::Skip => "SKIP",
            ReturnCode::NextCol => "NEXT_COL",
            ReturnCode::NextRow => "NEXT_ROW",
            ReturnCode::SeekNextUsingHint => "SEEK_NEXT_USING_HINT",
        }
    }
}

/// A comparison operator of the filter language and of check-and-mutate (HBase's
/// `CompareOperator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    Less,
    LessOrEqual,
    Equal,
    NotEqual,
    GreaterOrEqual,
    Greater,
}

impl CompareOp {
    /// The operator for its filter-language symbol or its Java name.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn parse(text: &str) -> Option<CompareOp> {
        Some(match text {
            "<" | "LESS" => CompareOp::Less,
            "<=" | "LESS_OR_EQUAL" => CompareOp::LessOrEqual,
            "=" | "EQUAL" => CompareOp::Equal,
            "!=" | "NOT_EQUAL" => CompareOp::NotEqual,
            ">=" | "GREATER_OR_EQUAL" => CompareOp::GreaterOrEqual,
            ">" | "GREATER" => CompareOp::Greater,
            _ => return None,
        })
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn java_name(self) -> &'static str {
        match self {
            CompareOp::Less => "LESS",
            CompareOp::LessOrEqual => "LESS_OR_EQUAL",
            CompareOp::Equal => "EQUAL",
            CompareOp::NotEqual => "NOT_EQUAL",
            CompareOp::GreaterOrEqual => "GREATER_OR_EQUAL",
            CompareOp::Greater => "GREATER",
        }
    }

    /// A compare filter's verdict (`CompareFilter.compare`): `ord` is the comparator compared
    /// with the cell's bytes, and the cell passes when `cell OP operand` holds. True means
    /// "filter the cell out".
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn filters_out(self, ord: Ordering) -> bool {
        match self {
            CompareOp::Less => ord != Ordering::Greater,
            CompareOp::LessOrEqual => ord == Ordering::Less,
            CompareOp::Equal => ord != Ordering::Equal,
            CompareOp::NotEqual => ord == Ordering::Equal,
            CompareOp::GreaterOrEqual => ord == Ordering::Greater,
            CompareOp::Greater => ord != Ordering::Less,
        }
    }

    /// Check-and-mutate's verdict, which reads the other way round: it holds when
    /// `expected OP actual`, `ord` being the expected value compared with the actual one.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn matches(self, ord: Ordering) -> bool {
        match self {
            CompareOp::Less => ord == Ordering::Less,
            CompareOp::LessOrEqual => ord != Ordering::Greater,
            CompareOp::Equal => ord == Ordering::Equal,
            CompareOp::NotEqual => ord != Ordering::Equal,
            CompareOp::GreaterOrEqual => ord != Ordering::Less,
            CompareOp::Greater => ord == Ordering::Greater,
        }
    }
}

/// A server-side filter: HBase's `Filter`, with `FilterBase`'s defaults. See the module
/// documentation for the order in which the read path calls it.
///
/// A filter is `Clone` (through [`FilterClone`]): the scan keeps the filter as the client built
/// it and each region scanner works on a fresh copy, as each region server deserializes its
/// own.
pub trait Filter: FilterClone {
    /// Clears the per-row state; called before each row.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {}
    /// Tells the filter the scan runs backwards (row order only; cells within a row stay in
    /// cell order).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, _reversed: bool) {}
    /// True when no further row can pass: the region's scan ends.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        false
    }
    /// True drops the whole row before its cells are read.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, _row: &[u8]) -> bool {
        false
    }
    /// The verdict on one cell, read in place: only a cell the read returns is copied.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, _cell: &CellRef<'_>) -> ReturnCode {
        ReturnCode::Include
    }
    /// Rewrites a cell the filter included (KeyOnlyFilter drops the value).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn transform_cell(&self, cell: Cell) -> Cell {
        cell
    }
    /// Edits the row's cells once all were read (only when `has_filter_row`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_cells(&mut self, _cells: &mut Vec<Cell>) {}
    /// Whether the filter needs the whole row (`filter_row_cells`, `filter_row`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        false
    }
    /// True drops the row after its cells were read.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        false
    }
    /// Where to seek after `SeekNextUsingHint` (`getNextCellHint`); `None` reads on.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, _cell: &CellRef<'_>) -> Option<Cell> {
        None
    }
}

/// Cloning a boxed filter, for the per-region copies.
pub trait FilterClone {
    fn clone_box(&self) -> Box<dyn Filter>;
}

impl<T: Filter + Clone + 'static> FilterClone for T {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn clone_box(&self) -> Box<dyn Filter> {
        Box::new(self.clone())
    }
}

/// A boxed filter prints as `Filter`. Each filter type derives `Debug` for itself, but the trait
/// does not require it: a `Debug` method in every filter's vtable kept all their formatting
/// code, and through it `Debug` of strings and chars, in the page (1.4 KB of the download).
impl std::fmt::Debug for dyn Filter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Filter")
    }
}

impl Clone for Box<dyn Filter> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A probe that sorts before every cell of `cell`'s row and family with qualifier `qualifier`
/// (`PrivateCellUtil.createFirstOnRowCol`).
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn first_on_column(cell: &CellRef<'_>, qualifier: &[u8]) -> Cell {
    first_on_column_at(cell, qualifier, u64::MAX)
}

/// A probe that sorts before every version of the column at or below `timestamp`
/// (`PrivateCellUtil.createFirstOnRowColTS`).
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn first_on_column_at(cell: &CellRef<'_>, qualifier: &[u8], timestamp: u64) -> Cell {
    probe(cell, qualifier, timestamp, CellKind::DeleteFamily, u64::MAX)
}

/// A probe that sorts after every cell of `cell`'s column (`PrivateCellUtil.createLastOnRowCol`).
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn last_on_column(cell: &CellRef<'_>) -> Cell {
    probe(cell, cell.qualifier, 0, CellKind::Put, 0)
}

#[cfg_attr(rowkey_cold, optimize(size))]
fn probe(cell: &CellRef<'_>, qualifier: &[u8], timestamp: u64, kind: CellKind, seq: u64) -> Cell {
    Cell {
        row: cell.row.to_vec(),
        family: Arc::from(cell.family),
        qualifier: qualifier.to_vec(),
        timestamp,
        kind,
        seq,
        ttl_ms: 0,
        value: Vec::new(),
    }
}
