//! Filters: the `Filter` hook the read path calls, HBase's filters one per file, and the
//! parser of HBase's filter language.

mod column;
mod compare;
mod list;
mod parse;

pub use parse::FILTER_NAMES;
mod row;
mod value;

pub use compare::{Comparator, CompareOp};
pub use parse::{parse_filter, FilterError};

use crate::engine::Cell;

/// What a filter says about one cell (HBase's `Filter.ReturnCode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ReturnCode {
    Include,
    IncludeAndNextCol,
    IncludeAndSeekNextRow,
    Skip,
    NextCol,
    NextRow,
    /// Skip ahead to a hint; the engine treats it as `Skip`, which returns the same cells.
    SeekNextUsingHint,
}

impl ReturnCode {
    pub fn includes(self) -> bool {
        matches!(
            self,
            ReturnCode::Include | ReturnCode::IncludeAndNextCol | ReturnCode::IncludeAndSeekNextRow
        )
    }
}

/// A server-side filter, called by the read path in HBase's order: `reset` at each row,
/// `filter_all_remaining` before each row, `filter_row_key`, then `filter_cell` and
/// `transform_cell` per cell that survived versions and deletes, then `filter_row_cells` and
/// `filter_row` once the row is complete.
pub trait Filter: std::fmt::Debug {
    fn reset(&mut self) {}
    fn set_reversed(&mut self, _reversed: bool) {}
    fn filter_all_remaining(&self) -> bool {
        false
    }
    /// True drops the whole row.
    fn filter_row_key(&mut self, _row: &[u8]) -> bool {
        false
    }
    fn filter_cell(&mut self, _cell: &Cell) -> ReturnCode {
        ReturnCode::Include
    }
    fn transform_cell(&self, cell: Cell) -> Cell {
        cell
    }
    fn filter_row_cells(&mut self, _cells: &mut Vec<Cell>) {}
    fn has_filter_row(&self) -> bool {
        false
    }
    /// True drops the row after all its cells were seen.
    fn filter_row(&mut self) -> bool {
        false
    }
}
