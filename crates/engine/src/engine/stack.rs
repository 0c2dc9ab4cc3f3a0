//! A row's version stack: every stored cell of the row, where it lives (memstore or which
//! run) and its fate under a default read, decided by the read path's own trackers
//! ([`super::resolve::fates`]).

use super::cell::Cell;
use super::lsm::{LsmEventKind, Part};
use super::resolve::{fates, Fate, Pass};
use super::{Engine, Result};
use crate::kit::order;

/// One stored cell of a row with where it lives and what a read makes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackCell {
    pub cell: Cell,
    pub part: Part,
    pub fate: Fate,
}

/// Every stored cell of one row, in cell order (family, qualifier, newest first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowStack {
    pub table: String,
    pub row: Vec<u8>,
    pub cells: Vec<StackCell>,
}

/// A watched row's stack as it was just before a flush or major compaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowBefore {
    /// The rewrite that followed.
    pub kind: LsmEventKind,
    /// The serial the rewrite's first event got (events after it have larger ones).
    pub serial: u64,
    pub stack: RowStack,
}

impl Engine {
    /// Every stored cell of `row` with its place and fate; markers and masked cells included,
    /// so a row whose cells are all deleted still shows its markers.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn row_stack(&self, table: &str, row: &[u8]) -> Result<RowStack> {
        let t = self.table(table)?;
        let now = self.now();
        let mut out = RowStack {
            table: table.to_string(),
            row: row.to_vec(),
            cells: Vec::new(),
        };
        let Some(region) = t.regions.get(t.region_index(row)) else {
            return Ok(out);
        };
        for (store, family) in region.stores.iter().zip(&t.descriptor.families) {
            let mut cells: Vec<(Cell, Part)> = store.row_cells(row);
            order::sort_by(&mut cells, |a, b| a.0.cmp(&b.0));
            let decided = fates(
                cells.iter().map(|c| &c.0),
                family,
                t.descriptor.rules,
                Pass::Read,
                now,
            );
            out.cells.extend(
                cells
                    .into_iter()
                    .zip(decided)
                    .map(|((c, part), fate)| StackCell {
                        cell: c,
                        part,
                        fate,
                    }),
            );
        }
        Ok(out)
    }

    /// Keeps the stack of this row from before every flush and major compaction that
    /// touches its region, until another row is watched.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn watch_row(&mut self, table: &str, row: &[u8]) {
        let same = self
            .watched
            .as_ref()
            .is_some_and(|(t, r)| t == table && r == row);
        if !same {
            self.watched = Some((table.to_string(), row.to_vec()));
            self.before = None;
        }
    }

    /// The watched row's stack from before the last flush or major compaction of its region.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn row_before(&self, table: &str, row: &[u8]) -> Option<&RowBefore> {
        self.before
            .as_ref()
            .filter(|b| b.stack.table == table && b.stack.row == row)
    }

    /// Before a rewrite of `table` (of the region at `region`, or all): keeps the watched
    /// row's stack if the rewrite reaches it.
    pub(super) fn keep_before(&mut self, table: &str, region: Option<usize>, kind: LsmEventKind) {
        let Some((t, row)) = self.watched.clone() else {
            return;
        };
        if t != table {
            return;
        }
        if let Some(idx) = region {
            let holds = self
                .tables
                .get(table)
                .is_some_and(|tb| tb.region_index(&row) == idx);
            if !holds {
                return;
            }
        }
        if let Ok(stack) = self.row_stack(table, &row) {
            self.before = Some(RowBefore {
                kind,
                serial: self.event_serial + 1,
                stack,
            });
        }
    }
}
