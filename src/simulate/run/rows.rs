//! The rows a table made: when each was made, which one an operation picks, and the puts that
//! make them.

use super::{OpKind, Sampling, TableSim};
use crate::simulate::workload::Choose;
use crate::simulate::SimulateError;

/// One creation of rows: rows [first, first + count) made from `at` over `span` ms.
pub(super) struct Made {
    pub(super) first: u64,
    pub(super) count: f64,
    pub(super) at: f64,
    pub(super) span: f64,
}

impl TableSim {
    pub(super) fn initial_rows(&mut self) -> Result<(), SimulateError> {
        let count = self.table.initial_rows;
        if count == 0 {
            return Ok(());
        }
        let k = match self.options.sampling {
            Some(Sampling::Full) => count,
            Some(Sampling::OneIn(n)) => count.div_ceil(n.max(1)),
            _ => count.min(4_096),
        };
        if k > self.options.max_samples {
            return Err(SimulateError::TooLarge(format!(
                "{count} initial rows are more than {} samples",
                self.options.max_samples
            )));
        }
        // Made over the day before the start.
        let day = 86_400_000.0;
        for i in 0..k {
            let at = -day + i as f64 / k as f64 * day;
            self.put_new(
                0,
                u16::MAX,
                None,
                at,
                count as f64 / k as f64,
                day / k as f64,
            );
        }
        Ok(())
    }

    /// The time (ms from the start) row `row` was made.
    pub(super) fn made_at(&self, row: u64) -> f64 {
        let i = self
            .made
            .partition_point(|m| m.first <= row)
            .saturating_sub(1);
        match self.made.get(i) {
            Some(m) => m.at + (row - m.first) as f64 / m.count.max(1.0) * m.span,
            None => 0.0,
        }
    }

    /// The first row made at or after `at` (ms from the start).
    pub(super) fn row_at(&self, at: f64) -> u64 {
        let i = self.made.partition_point(|m| m.at + m.span <= at);
        match self.made.get(i) {
            Some(m) if at > m.at => m.first + (((at - m.at) / m.span.max(1e-9)) * m.count) as u64,
            Some(m) => m.first,
            None => self.rows_made,
        }
    }

    pub(super) fn make_row(&mut self, row: u64) {
        let at = self.made_at(row);
        let abs = (self.workload.start_ms as f64 + at).max(0.0) as u64;
        let mut made = std::mem::take(&mut self.scratch);
        self.maker.make(row, abs, &mut made);
        self.scratch = made;
    }

    /// The existing row `choose` picks for the draw `u` in [0, 1).
    pub(super) fn choose_row(&mut self, choose: Choose, now: f64, u: f64) -> Option<u64> {
        if self.rows_made == 0 {
            return None;
        }
        let n = self.rows_made;
        let within = |first: u64| first + (((n - first) as f64 * u) as u64).min(n - first - 1);
        Some(match choose {
            Choose::Uniform | Choose::Fresh => within(0),
            Choose::WithinMs { ms } => within(self.row_at(now - ms as f64).min(n - 1)),
            Choose::Recent { half_life_ms } => {
                // The age's law truncated to the rows there are: from now back to the first
                // row's making.
                let h = (half_life_ms as f64).max(1.0);
                let oldest = now - self.made.first().map_or(now, |m| m.at);
                let reach = 1.0 - (-oldest.max(0.0) / h).exp2();
                let age = -h * (1.0 - u * reach).log2();
                self.row_at(now - age).min(n - 1)
            }
        })
    }

    pub(super) fn row_put_bytes(&self, key_len: usize) -> (f64, Vec<f64>) {
        let per_family: Vec<f64> = self
            .family_bytes
            .iter()
            .map(|(fixed, cells)| fixed + cells * key_len as f64)
            .collect();
        (per_family.iter().sum(), per_family)
    }

    pub(super) fn put_new(
        &mut self,
        step: usize,
        op: u16,
        kind: Option<OpKind>,
        at: f64,
        weight: f64,
        span: f64,
    ) {
        let first = self.rows_made;
        // Whole rows, rounded on the running total so fractions add up.
        self.rows_owed += weight;
        let rows = (self.rows_owed.round() as u64).saturating_sub(first);
        self.made.push(Made {
            first,
            count: rows as f64,
            at,
            span,
        });
        self.rows_made += rows;
        let row = first + self.gen.below(rows);
        self.make_row(row);
        let mut sample = self.base_sample(step, op, kind, at, weight);
        sample.rows_made = rows as f64;
        self.write(sample, weight, at);
    }
}
