//! The workload's operations played on keys: puts, updates, deletes, gets and scans.

use super::{OpKind, Sample, TableSim};
use crate::simulate::key::{self, MadeKey};
use crate::simulate::workload::{Choose, KeyField, Operation, TimeEncoding};

impl TableSim {
    pub(super) fn play(&mut self, step: usize, o: usize, at: f64, weight: f64, span: f64, u: f64) {
        let table = std::sync::Arc::clone(&self.table);
        let op = &table.operations[o];
        let op16 = o as u16;
        let kind = Some(op.kind());
        match op {
            Operation::PutNew { .. } => self.put_new(step, op16, kind, at, weight, span),
            Operation::Update { choose, .. } | Operation::Delete { choose, .. } => {
                let Some(row) = self.choose_row(*choose, at, u) else {
                    return;
                };
                self.key_for(*choose, row, at);
                let sample = self.base_sample(step, op16, kind, at, weight);
                if kind == Some(OpKind::Delete) {
                    self.rows_deleted += weight;
                }
                self.write(sample, weight, at);
            }
            Operation::Get { choose, .. } => {
                let Some(row) = self.choose_row(*choose, at, u) else {
                    return self.empty_read(step, op16, kind, at, weight);
                };
                self.key_for(*choose, row, at);
                let mut sample = self.base_sample(step, op16, kind, at, weight);
                sample.rows_read = weight;
                sample.rows_returned = weight;
                self.read(sample);
            }
            Operation::PrefixScan {
                choose,
                fields,
                limit,
                ..
            } => {
                let (choose, fields, limit) = (*choose, *fields as usize, *limit as f64);
                let Some(row) = self.choose_row(choose, at, u) else {
                    return self.empty_read(step, op16, kind, at, weight);
                };
                self.key_for(choose, row, at);
                let under = self.rows_under(fields);
                let mut sample = self.base_sample(step, op16, kind, at, weight);
                let rows = under.min(limit);
                sample.rows_read = rows * weight;
                sample.rows_returned = rows * weight;
                let prefix_len = self.scratch.prefix(fields).len();
                self.scratch.key.truncate(prefix_len);
                self.read(sample);
            }
            Operation::WindowScan {
                choose,
                fields,
                window_ms,
                limit,
                ..
            } => {
                let (choose, fields, window, limit) =
                    (*choose, *fields as usize, *window_ms as f64, *limit as f64);
                let Some(row) = self.choose_row(choose, at, u) else {
                    return self.empty_read(step, op16, kind, at, weight);
                };
                self.key_for(choose, row, at);
                let under = self.rows_under(fields);
                let alive = (self.rows_made as f64 - self.rows_deleted).max(1.0);
                let in_window_all =
                    (self.rows_made - self.row_at(at - window).min(self.rows_made)) as f64;
                let fraction = (in_window_all / alive).min(1.0);
                let in_window = under * fraction;
                let returned = in_window.min(limit);
                let ts_next = matches!(
                    self.maker.fields().get(fields),
                    Some(KeyField::Timestamp { .. })
                );
                let read = if ts_next {
                    returned
                } else if fraction > 0.0 {
                    under.min(limit / fraction)
                } else {
                    under
                };
                let mut sample = self.base_sample(step, op16, kind, at, weight);
                sample.rows_read = read * weight;
                sample.rows_returned = returned * weight;
                let prefix_len = self.scratch.prefix(fields).len();
                self.scratch.key.truncate(prefix_len);
                if let Some(KeyField::Timestamp { encoding, .. }) = self.maker.fields().get(fields)
                {
                    // The scan starts at the window's newest edge for a reversed clock, at
                    // its oldest for a forward one.
                    let start = self.workload.start_ms as f64;
                    let edge = match encoding {
                        TimeEncoding::ReverseDecimal | TimeEncoding::ReverseBytes => start + at,
                        _ => start + at - window,
                    };
                    let mut key = std::mem::take(&mut self.scratch.key);
                    key::write_time(edge.max(0.0) as u64, *encoding, &mut key);
                    self.scratch.key = key;
                }
                self.read(sample);
            }
        }
    }

    /// A read before the table has any row: it finds nothing, at the table's first key.
    pub(super) fn empty_read(
        &mut self,
        step: usize,
        op: u16,
        kind: Option<OpKind>,
        at: f64,
        weight: f64,
    ) {
        self.scratch = MadeKey::default();
        let sample = self.base_sample(step, op, kind, at, weight);
        self.read(sample);
    }

    /// Makes the key an operation reads or writes: row `row`'s, or for [`Choose::Fresh`] the
    /// key a new row would get now.
    pub(super) fn key_for(&mut self, choose: Choose, row: u64, at: f64) {
        if choose == Choose::Fresh {
            let draw = self.gen.next_u64();
            let abs = (self.workload.start_ms as f64 + at).max(0.0) as u64;
            let mut made = std::mem::take(&mut self.scratch);
            self.maker.make(
                self.rows_made ^ draw.rotate_left(32) | 1 << 63,
                abs,
                &mut made,
            );
            self.scratch = made;
        } else {
            self.make_row(row);
        }
    }

    /// Rows under the current key's first `fields` fields (estimated).
    pub(super) fn rows_under(&self, fields: usize) -> f64 {
        let alive = (self.rows_made as f64 - self.rows_deleted).max(0.0);
        match self.maker.prefix_share(fields, &self.scratch) {
            Some(share) => (alive * share).max(1.0_f64.min(alive)),
            None => 1.0_f64.min(alive),
        }
    }

    pub(super) fn read(&mut self, mut sample: Sample) {
        let r = self.locate(&self.scratch.key);
        sample.region = self.regions[r].id;
        let region = &mut self.regions[r];
        self.live_reads.add(region.id, region.server, sample.weight);
        region.reads += sample.weight;
        region.filtered += sample.rows_read - sample.rows_returned;
        self.push_sample(sample);
    }
}
