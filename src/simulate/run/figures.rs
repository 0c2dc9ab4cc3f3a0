//! What a run counts as it goes: each region's figures per step, the busiest region's and
//! server's shares per hour, and the table's totals and findings at the end.

use super::{TableRun, TableSim, Totals};

/// Comparisons of the key sort a counting call makes per sample it counts into the heat model:
/// the sort's work is about 19 a sample on the benchmark's workload (runs of
/// [`crate::simulate::key_order::RUN`] sorted, 8 a position, then 11 passes of merging, one a
/// position), so it is done with the counting.
pub const SORTED_PER_COUNTED: usize = 24;
use crate::simulate::findings;
use crate::simulate::heat::{equal_row_ranges_of, HeatCount};
use crate::simulate::key_order::{KeyOrder, KeySort};
use crate::simulate::timeline::{HourFigures, RegionStep, Timeline};
use crate::simulate::SimulateError;

impl TableSim {
    pub(super) fn end_step(&mut self, dt_ms: f64) {
        let secs = (dt_ms / 1000.0).max(1e-9);
        let c = &self.workload.cluster;
        let mut figures = Vec::with_capacity(self.regions.len());
        for r in &mut self.regions {
            let reads = r.reads / secs;
            let writes = r.written / secs;
            figures.push(RegionStep {
                region: r.id,
                server: r.server,
                requests_per_sec: reads + writes,
                reads_per_sec: reads,
                filtered_reads_per_sec: r.filtered / secs,
                writes_per_sec: writes,
                size_bytes: (r.stores.iter().sum::<f64>() + r.memstore.iter().sum::<f64>()) as u64,
                store_files: r.store_files,
                read_pressure: reads / c.server_reads_per_sec,
                write_pressure: writes / c.server_writes_per_sec,
            });
            r.reads = 0.0;
            r.filtered = 0.0;
            r.written = 0.0;
        }
        self.step_figures.push(figures);
        self.live_writes.end_step();
        self.live_reads.end_step();
    }

    /// The figures of the hour ending at `end_ms`: its samples attributed by key to the
    /// regions open now, and its live shares (each operation where it was taken, step by
    /// step).
    pub(super) fn end_hour(&mut self, end_ms: u64) {
        let hour = (end_ms - 1) / 3_600_000;
        let servers = self.workload.cluster.region_servers as usize;
        let n = self.regions.len();
        let mut region_reads = vec![0.0; n];
        let mut region_writes = vec![0.0; n];
        let mut server_reads = vec![0.0; servers];
        let mut server_writes = vec![0.0; servers];
        for s in &self.samples[self.hour_first_sample..] {
            if s.is_initial() {
                continue;
            }
            let r = self.locate(s.key(&self.keys));
            let server = self.regions[r].server as usize;
            if s.is_read() {
                region_reads[r] += s.weight;
                server_reads[server] += s.weight;
            } else {
                region_writes[r] += s.weight;
                server_writes[server] += s.weight;
            }
        }
        let share = |v: &[f64]| {
            let total: f64 = v.iter().sum();
            (total > 0.0).then(|| findings::round6(v.iter().copied().fold(0.0, f64::max) / total))
        };
        let live_writes = self.live_writes.end_hour();
        let live_reads = self.live_reads.end_hour();
        self.hours.push(HourFigures {
            hour,
            start_ms: hour * 3_600_000,
            end_ms,
            regions: n as u32,
            busiest_region_write_share: share(&region_writes),
            busiest_region_read_share: share(&region_reads),
            busiest_server_write_share: share(&server_writes),
            busiest_server_read_share: share(&server_reads),
            busiest_region_write_share_live: live_writes.region,
            busiest_region_read_share_live: live_reads.region,
            busiest_server_write_share_live: live_writes.server,
            busiest_server_read_share_live: live_reads.server,
        });
        self.hour_first_sample = self.samples.len();
    }

    /// The samples' key order, sorted now (what is left of it) if it was not.
    fn key_order(&mut self) {
        let order = match (self.key_order.take(), self.sorting.take()) {
            (Some(order), _) => order,
            (None, Some(sorting)) => sorting.finish(&self.samples, &self.keys),
            (None, None) => KeyOrder::of(&self.samples, &self.keys),
        };
        self.key_order = Some(order);
    }

    /// The figures at the end begin, a call of their own: the heat model's key ranges of
    /// about equal rows.
    pub(super) fn build_ranges(&mut self) {
        let count = self
            .options
            .ranges
            .clamp(1, crate::simulate::workload::MAX_RANGES);
        let ranges = equal_row_ranges_of(&self.samples, &self.keys, count);
        self.counting = Some((HeatCount::new(ranges, self.steps), 0));
    }

    /// Allocates the next grid of the heat model being counted; returns whether one was left.
    pub(super) fn allocate_heat(&mut self) -> bool {
        self.counting
            .as_mut()
            .is_some_and(|(count, _)| count.allocate_next())
    }

    /// Whether samples are left to count into the heat model.
    pub(super) fn counting_left(&self) -> bool {
        self.counting
            .as_ref()
            .is_some_and(|(_, next)| *next < self.samples.len())
    }

    /// Counts the next `samples` samples into the heat model, and sorts the samples by key on
    /// for [`SORTED_PER_COUNTED`] positions per sample counted.
    pub(super) fn count_heat(&mut self, samples: usize) {
        let mut counted = 0;
        if let Some((count, next)) = self.counting.as_mut() {
            let end = next.saturating_add(samples).min(self.samples.len());
            count.add(&self.samples[*next..end], &self.keys);
            counted = end - *next;
            *next = end;
        }
        if self.key_order.is_none() {
            let sorting = self
                .sorting
                .get_or_insert_with(|| KeySort::new(self.samples.len()));
            if sorting.advance(
                &self.samples,
                &self.keys,
                counted.saturating_mul(SORTED_PER_COUNTED),
            ) {
                self.key_order();
            }
        }
    }

    /// The run's timeline, its regions, splits and moves taken out of it (once the time is
    /// over).
    fn timeline(&mut self) -> Timeline {
        self.timeline.take().unwrap_or_else(|| Timeline {
            regions: std::mem::take(&mut self.spans),
            splits: std::mem::take(&mut self.splits),
            moves: std::mem::take(&mut self.moves),
            steps: std::mem::take(&mut self.step_figures),
            step_ms: self.step_ms,
        })
    }

    /// The next part of the heat model's data size and pressures, once its samples are
    /// counted; returns whether one was left.
    pub(super) fn finish_heat_part(&mut self) -> bool {
        let timeline = self.timeline();
        let done = self
            .counting
            .as_mut()
            .is_some_and(|(count, _)| count.finish_next(&timeline));
        self.timeline = Some(timeline);
        done
    }

    /// The timeline and the heat model, its samples counted (those left counted now). The
    /// run's regions, splits and moves are taken out of it.
    pub(super) fn build_heat(&mut self) {
        if self.counting.is_none() {
            self.build_ranges();
        }
        self.count_heat(usize::MAX);
        self.key_order();
        let timeline = self.timeline();
        let Some((count, _)) = self.counting.take() else {
            return;
        };
        let heat = count.finish(&timeline);
        self.built = Some((timeline, heat));
    }

    /// The table's run: its totals and findings, from the heat model [`Self::build_heat`]
    /// made (made now if it was not).
    pub(super) fn finish(mut self) -> Result<TableRun, SimulateError> {
        while !self.find_next(usize::MAX)? {}
        match self.finding.take() {
            Some((run, _)) => Ok(run),
            None => Err(SimulateError::TooLarge("the run has no figures".into())),
        }
    }

    /// The next part of the figures after the heat model, a call of its own: first the
    /// table's run with its totals and the first part of its findings, then one part of its
    /// findings a call, those tallying samples `samples` (at least 1,024) at a time. Returns
    /// whether the findings are all found.
    pub(super) fn find_next(&mut self, samples: usize) -> Result<bool, SimulateError> {
        if self.finding.is_none() {
            let run = self.table_run()?;
            self.finding = Some((run, findings::Finder::default()));
        }
        let Some((run, finder)) = self.finding.as_mut() else {
            return Ok(true);
        };
        if !finder.is_done() {
            let mut found = std::mem::take(&mut run.findings);
            finder.step(run, &self.table, &self.workload, samples, &mut found);
            run.findings = found;
        }
        Ok(finder.is_done())
    }

    /// The table's run without its findings: the heat model (built now if it was not) and the
    /// totals. Its samples and keys are taken out of the simulation.
    fn table_run(&mut self) -> Result<TableRun, SimulateError> {
        if self.built.is_none() {
            self.build_heat();
        }
        let Some((timeline, heat)) = self.built.take() else {
            return Err(SimulateError::TooLarge(
                "the heat model was not built".into(),
            ));
        };
        let ops: f64 = self
            .samples
            .iter()
            .filter(|s| !s.is_initial())
            .map(|s| s.weight)
            .sum();
        let bytes: f64 = self.samples.iter().map(|s| s.bytes).sum();
        // Rows: the puts of new rows less the deletes; when the key has no per-row field its
        // keys repeat, and the rows are the distinct keys n puts reach among the template's
        // K keys, estimated as if drawn alike: K (1 - e^(-n / K)).
        let made = self.rows_made as f64;
        let rows = match self.maker.cardinality() {
            Some(k) if k > 0.0 => k * (1.0 - (-made / k).exp()),
            _ => made,
        };
        let totals = Totals {
            ops,
            rows: (rows - self.rows_deleted).max(0.0).round() as u64,
            bytes: bytes.round() as u64,
        };
        Ok(TableRun {
            name: self.table.name.clone(),
            heat,
            timeline,
            hours: std::mem::take(&mut self.hours),
            findings: Vec::new(),
            totals,
            samples: std::mem::take(&mut self.samples),
            key_order: std::mem::take(&mut self.key_order).unwrap_or_default(),
            keys: std::mem::take(&mut self.keys),
        })
    }
}
