//! The simulation: steps of simulated time, weighted samples per operation per step, regions
//! that flush, split and move.
//!
//! A [`Run`] is resumable: each [`Run::advance`] plays a bounded number of samples (whole
//! steps of simulated time) and returns, so a page can paint and take a cancel between two
//! calls; [`simulate`] drives one to the end. How the calls are cut never changes the result.
//!
//! Per step and operation, the operations the rate gives are counted exactly (the integral of
//! the rate, rounded down cumulatively) and `k` samples stand for them, each with weight
//! count / k, at evenly spaced moments of the step; the samples of all operations are played
//! in time order. A write adds its bytes to its region's memstore; a memstore at the flush
//! size flushes into the stores, and the region's policy then decides on a split.

mod figures;
mod live;
mod operations;
mod regions;
mod rows;
mod sample;
mod stores;

use std::sync::Arc;

use super::findings;
use super::heat::{Heat, HeatCount};
use super::key::{KeyMaker, MadeKey};
use super::key_order::{KeyOrder, KeySort};
use super::policy::RegionPolicy;
use super::timeline::{HourFigures, Move, RegionSpan, RegionStep, Split, Timeline};
use super::workload::{KeyField, TableLoad, Workload};
use super::OpKind;
use super::SimulateError;
use crate::bytes::from_printable;
use crate::designs::gen::Gen;
use crate::kit::order;
use regions::Region;
use rows::Made;
pub use sample::Sample;

/// How many samples stand for a step's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// At most this many per operation per step.
    PerStep(u32),
    /// One per this many operations (rounded up), e.g. 1 in 50.
    OneIn(u64),
    /// One per operation: the full computation.
    Full,
}

/// How to run a simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `None`: the workload's `samples_per_step` (64 when absent).
    pub sampling: Option<Sampling>,
    /// Key ranges of the heat model (at most 1,000).
    pub ranges: usize,
    /// The most samples a run may draw (a guard for full sampling).
    pub max_samples: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            sampling: None,
            ranges: super::workload::MAX_RANGES,
            max_samples: 50_000_000,
        }
    }
}

/// Totals of a table at the end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Operations (the samples' weights).
    pub ops: f64,
    /// Rows held (made minus deleted).
    pub rows: u64,
    /// Bytes held (every byte written: no compaction).
    pub bytes: u64,
}

/// One table's simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRun {
    pub name: String,
    pub heat: Heat,
    pub timeline: Timeline,
    pub hours: Vec<HourFigures>,
    pub findings: Vec<findings::Finding>,
    pub totals: Totals,
    /// Every sample, in time order.
    pub samples: Vec<Sample>,
    /// The samples' keys, one after another.
    pub keys: Vec<u8>,
    /// The samples' positions in key order (a key prefix's samples are a span of it).
    pub key_order: KeyOrder,
}

/// A workload played out.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    pub workload: Workload,
    pub step_ms: u64,
    pub steps: usize,
    pub tables: Vec<TableRun>,
    /// Operations per sample over the whole run (1 in full sampling).
    pub ops_per_sample: f64,
}

/// Plays `workload` out, to the end.
/// The workload's values are checked again (a workload made in code need not come from
/// [`Workload::from_json`]); its keys' uniqueness is checked where it is read.
pub fn simulate(workload: &Workload, options: &Options) -> Result<Simulation, SimulateError> {
    Run::new(workload.clone(), *options)?.finish()
}

/// Samples one [`Run::advance`] plays when the caller names no budget: a few milliseconds of
/// work natively, some tens in a page.
pub const SLICE_SAMPLES: u64 = 4_096;

/// A simulation under way. Each [`Run::advance`] plays whole steps of simulated time until it
/// has played the samples it was given (or finishes one table's figures) and returns; between
/// two calls the run can be read ([`Run::progress`], [`Run::table`]) or dropped, which cancels
/// it. The tables run one after another, each from its own seeded draws, so the result is
/// [`simulate`]'s, byte for byte, however the calls are cut.
pub struct Run {
    workload: Arc<Workload>,
    options: Options,
    step_ms: u64,
    steps: usize,
    done: Vec<TableRun>,
    current: Option<TableSim>,
    failed: Option<SimulateError>,
}

impl Run {
    /// A run of `workload`, not started: its values are checked now.
    pub fn new(workload: Workload, options: Options) -> Result<Run, SimulateError> {
        workload.check_with(false)?;
        let step_ms = workload.step_ms();
        let steps = workload.duration_ms.div_ceil(step_ms) as usize;
        Ok(Run {
            workload: Arc::new(workload),
            options,
            step_ms,
            steps,
            done: Vec::new(),
            current: None,
            failed: None,
        })
    }

    /// Plays on: whole steps until at least `samples` samples were played, or a part of the
    /// figures of a table whose time is over (calls of their own: its heat model's key
    /// ranges, its grids allocated one a call, 2 × `samples` of its samples counted into the
    /// heat model (counting one costs about half what playing one does) and as many sorted by
    /// key [`figures::SORTED_PER_COUNTED`] times over, its data size, read
    /// and write pressure, the heat model, then
    /// its findings a part per call, those tallying `samples` samples at a time
    /// ([`super::findings::Finder`])). Returns whether the run is over. An error ends the
    /// run; later calls return it again.
    pub fn advance(&mut self, samples: u64) -> Result<bool, SimulateError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = self.advance_table(samples);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
            self.current = None;
        }
        result
    }

    fn advance_table(&mut self, samples: u64) -> Result<bool, SimulateError> {
        if self.is_over() {
            return Ok(true);
        }
        let current = match self.current.take() {
            // The figures at the end in calls of their own: the heat model's ranges, its
            // grids allocated a call each, its samples counted 2 × `samples` (at least 1,024)
            // at a time, its data size and pressures, the heat model, then the findings.
            Some(mut sim) if sim.is_over() && sim.built.is_none() && sim.finding.is_none() => {
                if sim.counting.is_none() {
                    sim.build_ranges();
                } else if sim.allocate_heat() {
                    // A grid of the heat model allocated, a call each.
                } else if sim.counting_left() {
                    sim.count_heat(samples.saturating_mul(2).max(1_024) as usize);
                } else if sim.finish_heat_part() {
                    // The data size, the read and the write pressure, a call each.
                } else {
                    sim.build_heat();
                }
                self.current = Some(sim);
                return Ok(false);
            }
            Some(mut sim) if sim.is_over() => {
                if sim.find_next(usize::try_from(samples).unwrap_or(usize::MAX))? {
                    self.done.push(sim.finish()?);
                    return Ok(self.is_over());
                }
                self.current = Some(sim);
                return Ok(false);
            }
            Some(sim) => sim,
            None => match TableSim::new(
                Arc::clone(&self.workload),
                self.done.len(),
                self.options,
                self.step_ms,
                self.steps,
            ) {
                Some(sim) => sim,
                None => return Ok(true),
            },
        };
        let current = self.current.insert(current);
        current.advance(samples)?;
        Ok(false)
    }

    /// Whether every table ran and has its figures.
    pub fn is_over(&self) -> bool {
        self.done.len() >= self.workload.tables.len()
    }

    /// The fraction of the simulated time played, over all tables (1 once over).
    pub fn progress(&self) -> f64 {
        let tables = self.workload.tables.len();
        if tables == 0 || self.is_over() {
            return 1.0;
        }
        let steps = self.steps.max(1);
        let within = self
            .current
            .as_ref()
            .map_or(0, |sim| sim.next_step.min(steps));
        (self.done.len() * steps + within) as f64 / (tables * steps) as f64
    }

    /// The name of the table under way (or next).
    pub fn table(&self) -> Option<&str> {
        self.workload
            .tables
            .get(self.done.len())
            .map(|t| t.name.as_str())
    }

    /// The workload played.
    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// Plays what is left and returns the simulation.
    pub fn finish(mut self) -> Result<Simulation, SimulateError> {
        while !self.advance(u64::MAX)? {}
        let ops: f64 = self.done.iter().map(|t| t.totals.ops).sum();
        let samples: usize = self.done.iter().map(|t| t.samples.len()).sum();
        let workload = Arc::try_unwrap(self.workload).unwrap_or_else(|w| (*w).clone());
        Ok(Simulation {
            workload,
            step_ms: self.step_ms,
            steps: self.steps,
            tables: self.done,
            ops_per_sample: if samples == 0 {
                0.0
            } else {
                ops / samples as f64
            },
        })
    }
}

/// One table's run: its draws, regions and samples so far, and where its clock is.
struct TableSim {
    workload: Arc<Workload>,
    table: Arc<TableLoad>,
    maker: KeyMaker,
    options: Options,
    step_ms: u64,
    steps: usize,
    /// The next step to play.
    next_step: usize,
    /// Whether the rows there before the start were made.
    started: bool,
    /// Per operation: the operations its rate gave so far, fractions included.
    cumulative: Vec<f64>,
    /// One step's samples to play: (at, operation, index, samples, operations).
    queue: Vec<(f64, usize, u64, u64, u64)>,
    gen: Gen,
    jitter_gen: Gen,
    regions: Vec<Region>,
    spans: Vec<RegionSpan>,
    splits: Vec<Split>,
    moves: Vec<Move>,
    step_figures: Vec<Vec<RegionStep>>,
    samples: Vec<Sample>,
    keys: Vec<u8>,
    made: Vec<Made>,
    rows_made: u64,
    /// Rows the put samples stand for, fractions included.
    rows_owed: f64,
    rows_deleted: f64,
    /// Per family: KeyValue bytes of a put of the row without its key.
    family_bytes: Vec<(f64, f64)>,
    families_len: Vec<u64>,
    scratch: MadeKey,
    next_balance: u64,
    hours: Vec<HourFigures>,
    hour_first_sample: usize,
    /// Writes and reads as the regions and servers took them, for the hour's live shares.
    live_writes: live::Taken,
    live_reads: live::Taken,
    /// Once the time is over: the samples being sorted by key, then their order.
    sorting: Option<KeySort>,
    key_order: Option<KeyOrder>,
    /// Then the heat model being counted and the next sample to count,
    /// then the timeline and the heat model.
    counting: Option<(HeatCount, usize)>,
    /// The timeline, taken out of the run once the heat model's data size and pressures are
    /// counted from it.
    timeline: Option<Timeline>,
    built: Option<(Timeline, Heat)>,
    /// Then the table's run and the next part of its findings to look for.
    finding: Option<(TableRun, findings::Finder)>,
}

impl TableSim {
    /// Table `index` of `workload`, not started (`None`: no such table).
    fn new(
        workload: Arc<Workload>,
        index: usize,
        options: Options,
        step_ms: u64,
        steps: usize,
    ) -> Option<TableSim> {
        let table = Arc::new(workload.tables.get(index)?.clone());
        let seed = super::policy::table_seed(workload.seed, index);
        let c = &workload.cluster;
        let mut jitter_gen = super::policy::jitter_stream(workload.seed, index);
        let mut starts: Vec<Vec<u8>> = vec![Vec::new()];
        starts.extend(table.pre_split.iter().map(|s| from_printable(s)));
        let mut regions = Vec::new();
        let mut spans = Vec::new();
        for (i, start) in starts.iter().enumerate() {
            let policy = RegionPolicy::configure(
                c.split_policy,
                c.max_filesize,
                c.flush_size,
                c.jitter,
                &mut jitter_gen,
            );
            let end = starts.get(i + 1).cloned().unwrap_or_default();
            spans.push(RegionSpan {
                id: i as u32,
                start_key: start.clone(),
                end_key: end.clone(),
                from_ms: 0,
                to_ms: None,
                parent: None,
                desired_max_file_size: policy.desired_max_file_size,
            });
            regions.push(Region {
                id: i as u32,
                start: start.clone(),
                end,
                // The master assigns a new table's regions round robin.
                server: (i as u32) % c.region_servers,
                policy,
                memstore: vec![0.0; table.families.len()],
                stores: vec![0.0; table.families.len()],
                store_files: 0,
                mem_writes: Vec::new(),
                files: Vec::new(),
                unsplittable_at: 0,
                reads: 0.0,
                filtered: 0.0,
                written: 0.0,
            });
        }
        // A KeyValue: key length (4) + value length (4) + row length (2) + row + family
        // length (1) + family + qualifier + timestamp (8) + type (1) + value.
        let family_bytes = table
            .families
            .iter()
            .map(|f| {
                let cells = f.columns.len() as f64;
                let fixed: f64 = f
                    .columns
                    .iter()
                    .map(|c| {
                        (4 + 4 + 2 + 1 + 8 + 1) as f64
                            + (f.name.len() + c.qualifier.len()) as f64
                            + c.value_size as f64
                    })
                    .sum();
                (fixed, cells)
            })
            .collect();
        let next_balance = c.balancer_period_ms;
        let families_len = table.families.iter().map(|f| f.name.len() as u64).collect();
        Some(TableSim {
            maker: KeyMaker::new(&table, workload.seed, index),
            cumulative: vec![0.0; table.operations.len()],
            workload,
            table,
            options,
            step_ms,
            steps,
            next_step: 0,
            started: false,
            queue: Vec::new(),
            gen: Gen::new(seed),
            jitter_gen,
            regions,
            spans,
            splits: Vec::new(),
            moves: Vec::new(),
            step_figures: Vec::with_capacity(steps),
            samples: Vec::new(),
            keys: Vec::new(),
            made: Vec::new(),
            rows_made: 0,
            rows_owed: 0.0,
            rows_deleted: 0.0,
            family_bytes,
            families_len,
            scratch: MadeKey::default(),
            next_balance,
            hours: Vec::new(),
            hour_first_sample: 0,
            live_writes: live::Taken::default(),
            live_reads: live::Taken::default(),
            sorting: None,
            key_order: None,
            counting: None,
            timeline: None,
            built: None,
            finding: None,
        })
    }

    fn samples_for(&self, count: u64, full_cap: u64) -> u64 {
        if count == 0 {
            return 0;
        }
        match self.options.sampling {
            Some(Sampling::Full) => count,
            Some(Sampling::OneIn(n)) => count.div_ceil(n.max(1)),
            Some(Sampling::PerStep(k)) => count.min(u64::from(k.max(1))),
            None => count.min(u64::from(self.workload.samples_per_step.unwrap_or(64)).max(1)),
        }
        .min(full_cap.max(1))
    }

    /// Whether every step was played.
    fn is_over(&self) -> bool {
        self.next_step >= self.steps
    }

    /// Plays whole steps until at least `budget` samples were played or the time is over
    /// (the first call also makes the rows there before the start).
    fn advance(&mut self, budget: u64) -> Result<(), SimulateError> {
        if !self.started {
            self.started = true;
            self.initial_rows()?;
        }
        let mut played = 0u64;
        while !self.is_over() && played < budget.max(1) {
            played += self.play_step(self.next_step)? as u64;
            self.next_step += 1;
        }
        Ok(())
    }

    /// Plays step `step`: counts each operation's operations in it, draws their samples and
    /// plays them in time order, running the balancer when its period comes. Returns the
    /// samples played.
    fn play_step(&mut self, step: usize) -> Result<usize, SimulateError> {
        let table = Arc::clone(&self.table);
        let ops = &table.operations;
        let duration = self.workload.duration_ms;
        let t0 = step as u64 * self.step_ms;
        let t1 = (t0 + self.step_ms).min(duration);
        let dt = (t1 - t0) as f64;
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        for (o, op) in ops.iter().enumerate() {
            let rate = op.rate();
            let mid = t0 as f64 + dt / 2.0;
            let before = self.cumulative[o];
            self.cumulative[o] += rate.per_sec * rate.curve.factor(mid) * dt / 1000.0;
            let count = (self.cumulative[o].floor() - before.floor()).max(0.0) as u64;
            let k = self.samples_for(count, u64::MAX);
            for i in 0..k {
                let at = t0 as f64 + (i as f64 + 0.5) / k as f64 * dt;
                queue.push((at, o, i, k, count));
            }
        }
        if (self.samples.len() + queue.len()) as u64 > self.options.max_samples {
            return Err(SimulateError::TooLarge(format!(
                "more than {} samples: sample fewer operations",
                self.options.max_samples
            )));
        }
        order::sort_by(&mut queue, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for &(at, o, i, k, count) in &queue {
            while (at as u64) >= self.next_balance {
                let when = self.next_balance;
                self.balance(when);
                self.next_balance += self.workload.cluster.balancer_period_ms;
            }
            let weight = count as f64 / k as f64;
            // The row choice is systematic: the k samples of a step are evenly spaced
            // over the choice's range, from an offset that turns by the golden ratio each
            // step (a Weyl sequence), so over the steps every part of the range gets its
            // share of samples.
            let offset = ((step as f64 + 1.0) * 0.618_033_988_749_895
                + o as f64 * 0.754_877_666_246_693)
                .fract();
            let u = (i as f64 + offset) / k as f64;
            self.play(step, o, at, weight, dt / k as f64, u);
        }
        let played = queue.len();
        self.queue = queue;
        self.end_step(dt);
        if t1.is_multiple_of(3_600_000) || t1 == duration {
            self.end_hour(t1);
        }
        Ok(played)
    }

    fn push_sample(&mut self, mut sample: Sample) -> u32 {
        let key = &self.scratch.key;
        sample.key_at = self.keys.len() as u32;
        sample.key_len = key.len() as u32;
        self.keys.extend_from_slice(key);
        let index = self.samples.len() as u32;
        self.samples.push(sample);
        index
    }

    fn base_sample(
        &self,
        step: usize,
        op: u16,
        kind: Option<OpKind>,
        at: f64,
        weight: f64,
    ) -> Sample {
        let prefix_fields = self
            .maker
            .fields()
            .iter()
            .position(KeyField::is_per_row)
            .unwrap_or(self.maker.fields().len());
        let entity_end = self
            .maker
            .entity_field()
            .and_then(|e| self.scratch.ends.get(e).copied())
            .unwrap_or(0);
        Sample {
            at_ms: at.max(0.0) as u64,
            step: step as u32,
            op,
            kind,
            weight,
            rows_read: 0.0,
            rows_returned: 0.0,
            rows_made: 0.0,
            bytes: 0.0,
            entity: self.scratch.entity,
            entity_end,
            prefix_end: self.scratch.prefix(prefix_fields).len() as u32,
            region: 0,
            key_at: 0,
            key_len: 0,
        }
    }
}
