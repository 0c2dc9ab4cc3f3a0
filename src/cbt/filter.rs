//! The row filter cbt's `read` and `lookup` send, run by the engine's read path: a chain of
//! `cells_per_column_limit_filter` (`cells-per-column`), `row_key_regex_filter` (`regex`), the
//! `columns` interleave of family and qualifier regexes, and `strip_value_transformer`
//! (`keys-only`). It also counts what the read saw, for `include-stats=full`.

use std::cell::RefCell;
use std::rc::Rc;

use super::print::ReadStats;
use super::regex::FullMatch;
use crate::engine::{Cell, CellRef, Filter, ReturnCode};

/// One entry of `columns=`: a family regex, a qualifier regex, or both.
#[derive(Clone, Debug)]
pub struct ColumnMatch {
    pub family: Option<FullMatch>,
    pub qualifier: Option<FullMatch>,
}

impl ColumnMatch {
    /// How many times the interleave emits a cell: once per entry that matches it.
    fn copies(entries: &[ColumnMatch], family: &[u8], qualifier: &[u8]) -> usize {
        entries
            .iter()
            .filter(|e| {
                e.family.as_ref().is_none_or(|f| f.matches(family))
                    && e.qualifier.as_ref().is_none_or(|q| q.matches(qualifier))
            })
            .count()
    }
}

/// cbt's read filter (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct ReadFilter {
    pub row_regex: Option<FullMatch>,
    /// Empty: every column.
    pub columns: Vec<ColumnMatch>,
    pub cells_per_column: Option<usize>,
    pub keys_only: bool,
    /// Rows at or past this key are dropped (an exclusive end the engine's bounds cannot say
    /// in a reversed scan).
    pub end_exclusive: Option<Vec<u8>>,
    pub(crate) stats: Rc<RefCell<ReadStats>>,
    row_passes: bool,
    column: Option<(Vec<u8>, Vec<u8>)>,
    in_column: usize,
}

impl Filter for ReadFilter {
    fn reset(&mut self) {
        self.row_passes = true;
        self.column = None;
        self.in_column = 0;
    }

    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self
            .end_exclusive
            .as_ref()
            .is_some_and(|end| row >= end.as_slice())
        {
            self.row_passes = false;
            return true;
        }
        self.stats.borrow_mut().rows_seen += 1;
        self.row_passes = self.row_regex.as_ref().is_none_or(|re| re.matches(row));
        // The row's cells are still read: the server counts them as seen.
        false
    }

    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        self.stats.borrow_mut().cells_seen += 1;
        if !self.row_passes {
            return ReturnCode::Skip;
        }
        if let Some(limit) = self.cells_per_column {
            let same = self.column.as_ref().is_some_and(|(f, q)| {
                f.as_slice() == cell.family && q.as_slice() == cell.qualifier
            });
            if !same {
                self.column = Some((cell.family.to_vec(), cell.qualifier.to_vec()));
                self.in_column = 0;
            }
            self.in_column += 1;
            if self.in_column > limit {
                return ReturnCode::Skip;
            }
        }
        if !self.columns.is_empty()
            && ColumnMatch::copies(&self.columns, cell.family, cell.qualifier) == 0
        {
            return ReturnCode::Skip;
        }
        ReturnCode::Include
    }

    fn transform_cell(&self, mut cell: Cell) -> Cell {
        if self.keys_only {
            cell.value.clear();
        }
        cell
    }

    fn has_filter_row(&self) -> bool {
        !self.columns.is_empty()
    }

    /// The interleave of `columns=` entries emits a cell once per entry that matches it.
    fn filter_row_cells(&mut self, cells: &mut Vec<Cell>) {
        if self.columns.len() < 2 {
            return;
        }
        let mut out = Vec::with_capacity(cells.len());
        for cell in cells.drain(..) {
            let n = ColumnMatch::copies(&self.columns, &cell.family, &cell.qualifier);
            for _ in 1..n {
                out.push(cell.clone());
            }
            out.push(cell);
        }
        *cells = out;
    }
}
