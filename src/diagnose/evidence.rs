//! What the rules read about one table, gathered once from its activity and key index.

use super::{CELL_ROWS, SAMPLE, WINDOW};
use crate::engine::{row_counts, Engine, KeyEntry, Op, OpKind, Table};
use crate::kit::order;

/// Everything the rules read about one table, gathered once. The operations are the
/// activity's own, borrowed: copying ten thousand of them twice took longer than the rules.
#[derive(Clone, Debug, Default)]
pub struct Evidence<'a> {
    pub table: String,
    pub regions: usize,
    pub rows: usize,
    /// The last writes (up to [`WINDOW`]), newest first.
    pub writes: Vec<&'a Op>,
    /// The last operations of either kind (up to [`WINDOW`]), newest first.
    pub ops: Vec<&'a Op>,
    /// Of `writes`, how many fell in each region as the table is now.
    pub writes_per_region: Vec<u64>,
    /// Rows sampled evenly over the key order (the key index's own keys).
    pub sample: Vec<&'a [u8]>,
    /// The widest rows, widest first.
    pub widest: Vec<KeyEntry>,
    /// The median cells per row in the sample.
    pub median_cells: u32,
    /// `(row + family + qualifier bytes, value bytes)` of the cells of a few sampled rows.
    pub cell_sizes: Vec<(usize, usize)>,
    /// [`Evidence::many_rows`], worked out once: three rules ask it.
    many: std::cell::OnceCell<bool>,
}

impl<'a> Evidence<'a> {
    /// The evidence of a table (`None` when it does not exist).
    pub fn gather(engine: &'a Engine, table: &str) -> Option<Evidence<'a>> {
        let t = engine.table(table).ok()?;
        let mut e = Evidence {
            table: table.to_string(),
            regions: t.regions.len(),
            rows: t.keys.row_count(),
            ..Evidence::default()
        };
        if let Some(act) = engine.activity(table) {
            e.writes = act.last(OpKind::Write, WINDOW).collect();
            e.ops = act.ops().rev().take(WINDOW).collect();
            e.writes_per_region = act.per_region(t, Some(OpKind::Write), WINDOW).0;
        }
        e.sample_keys(t);
        e.sample_cells(engine);
        Some(e)
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
            let Ok(out) = engine.read(&self.table, &mut crate::engine::Scan::get(key)) else {
                return;
            };
            for cell in out.rows.iter().flat_map(|r| &r.cells) {
                let key_bytes = cell.row.len() + cell.family.len() + cell.qualifier.len();
                self.cell_sizes.push((key_bytes, cell.value.len()));
            }
        }
    }

    /// Share of the recent writes that went to region `i` (0 without writes).
    pub fn region_share(&self, i: usize) -> f64 {
        let n = self.writes.len();
        if n == 0 {
            return 0.0;
        }
        self.writes_per_region.get(i).copied().unwrap_or(0) as f64 / n as f64
    }

    /// Whether the recent writes went mostly to different rows (not one row again and again).
    pub(super) fn many_rows(&self) -> bool {
        *self.many.get_or_init(|| {
            let distinct = row_counts(&self.writes).len();
            distinct * 2 >= self.writes.len()
        })
    }

    /// Share of the recent writes whose row was, when written, at the given end of the keys.
    pub(super) fn end_share(&self, last: bool) -> f64 {
        let n = self.writes.len();
        if n == 0 {
            return 0.0;
        }
        let at_end = self
            .writes
            .iter()
            .filter(|w| {
                if last {
                    w.place >= 0.999
                } else {
                    w.place <= 0.001
                }
            })
            .count();
        at_end as f64 / n as f64
    }
}
