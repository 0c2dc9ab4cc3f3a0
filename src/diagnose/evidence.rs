//! What the rules read about one table, gathered once from its activity and key index.

use std::cell::OnceCell;

use super::recent::{Recent, Window};
use super::{CELL_ROWS, SAMPLE, WINDOW};
use crate::engine::{Activity, Engine, KeyEntry, Op, OpKind, Table};
use crate::kit::order;

/// Everything the rules read about one table, gathered once. The counts over the last
/// operations come from a [`Recent`] that follows the table's activity (the hotspots view
/// keeps one from write to write); the operations themselves are the activity's own,
/// borrowed, and listed only when a rule asks for them.
#[derive(Clone, Debug, Default)]
pub struct Evidence<'a> {
    pub table: String,
    pub regions: usize,
    pub rows: usize,
    /// The counts over the last writes and operations.
    pub window: Window,
    /// Writes to the widest row in the writes' window.
    pub widest_writes: usize,
    /// Rows sampled evenly over the key order (the key index's own keys).
    pub sample: Vec<&'a [u8]>,
    /// The widest rows, widest first.
    pub widest: Vec<KeyEntry>,
    /// The median cells per row in the sample.
    pub median_cells: u32,
    /// `(row + family + qualifier bytes, value bytes)` of the cells of a few sampled rows.
    pub cell_sizes: Vec<(usize, usize)>,
    activity: Option<&'a Activity>,
    table_ref: Option<&'a Table>,
    /// [`Evidence::writes`] and [`Evidence::writes_per_region`], worked out when first asked.
    writes: OnceCell<Vec<&'a Op>>,
    per_region: OnceCell<Vec<u64>>,
}

impl<'a> Evidence<'a> {
    /// The evidence of a table (`None` when it does not exist), its counts made from scratch.
    pub fn gather(engine: &'a Engine, table: &str) -> Option<Evidence<'a>> {
        Evidence::following(engine, table, &mut Recent::new())
    }

    /// The evidence of a table, with `recent` brought up to its activity first (see
    /// [`Recent::follow`]): after one write, counting that write is all the counts cost.
    pub fn following(engine: &'a Engine, table: &str, recent: &mut Recent) -> Option<Evidence<'a>> {
        let t = engine.table(table).ok()?;
        let mut e = Evidence {
            table: table.to_string(),
            regions: t.regions.len(),
            rows: t.keys.row_count(),
            table_ref: Some(t),
            ..Evidence::default()
        };
        match engine.activity(table) {
            Some(act) => {
                recent.follow(act);
                e.activity = Some(act);
            }
            None => *recent = Recent::new(),
        }
        e.window = recent.window();
        e.sample_keys(t);
        e.widest_writes = e.widest.first().map_or(0, |w| recent.writes_to(&w.key));
        e.sample_cells(engine);
        Some(e)
    }

    /// The last writes (up to [`WINDOW`]), newest first.
    pub fn writes(&self) -> &[&'a Op] {
        self.writes.get_or_init(|| match self.activity {
            Some(act) => act.last(OpKind::Write, WINDOW).collect(),
            None => Vec::new(),
        })
    }

    /// Of [`Evidence::writes`], how many fell in each region as the table is now.
    pub fn writes_per_region(&self) -> &[u64] {
        self.per_region
            .get_or_init(|| match (self.activity, self.table_ref) {
                (Some(act), Some(t)) => act.per_region(t, Some(OpKind::Write), WINDOW).0,
                _ => Vec::new(),
            })
    }

    fn sample_keys(&mut self, t: &'a Table) {
        let n = t.keys.row_count();
        let step = n.div_ceil(SAMPLE).max(1);
        let mut cells = Vec::new();
        for i in (0..n).step_by(step) {
            if let Some(k) = t.keys.get(i) {
                self.sample.push(&k.key);
                cells.push(k.cells);
            }
        }
        order::sort(&mut cells);
        self.median_cells = cells.get(cells.len() / 2).copied().unwrap_or(0);
        self.widest = t.keys.widest(3).into_iter().cloned().collect();
    }

    /// The cells of up to [`CELL_ROWS`] rows spread over the sample, read without touching the
    /// table's statistics.
    fn sample_cells(&mut self, engine: &Engine) {
        let step = self.sample.len().div_ceil(CELL_ROWS).max(1);
        for key in self.sample.iter().step_by(step) {
            // A disabled table's cells too: disabling refuses reads, it keeps the cells.
            let Ok(out) = engine.read_stored(&self.table, &mut crate::engine::Scan::get(key))
            else {
                return;
            };
            for cell in out.rows.iter().flat_map(|r| &r.cells) {
                let key_bytes = cell.row.len() + cell.family.len() + cell.qualifier.len();
                self.cell_sizes.push((key_bytes, cell.value.len()));
            }
        }
    }

    /// Of the last [`WINDOW`] operations of all kinds, how many fell in each region as the table
    /// is now, and how many there were; with the table's regions, to name the busiest.
    pub(super) fn ops_per_region(&self) -> Option<(Vec<u64>, u64, &'a Table)> {
        let (act, t) = (self.activity?, self.table_ref?);
        let (counts, seen) = act.per_region(t, None, WINDOW);
        Some((counts, seen, t))
    }

    /// Share of the recent writes that went to region `i` (0 without writes).
    pub fn region_share(&self, i: usize) -> f64 {
        let n = self.window.writes;
        if n == 0 {
            return 0.0;
        }
        self.writes_per_region().get(i).copied().unwrap_or(0) as f64 / n as f64
    }

    /// Whether the recent writes went mostly to different rows (not one row again and again).
    pub(super) fn many_rows(&self) -> bool {
        self.window.write_rows * 2 >= self.window.writes
    }

    /// Share of the recent writes whose row was, when written, at the given end of the keys.
    pub(super) fn end_share(&self, last: bool) -> f64 {
        let n = self.window.writes;
        if n == 0 {
            return 0.0;
        }
        let at_end = if last {
            self.window.writes_at_last
        } else {
            self.window.writes_at_first
        };
        at_end as f64 / n as f64
    }
}
