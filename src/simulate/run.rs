//! The simulation: steps of simulated time, weighted samples per operation per step, regions
//! that flush, split and move.
//!
//! Per step and operation, the operations the rate gives are counted exactly (the integral of
//! the rate, rounded down cumulatively) and `k` samples stand for them, each with weight
//! count / k, at evenly spaced moments of the step; the samples of all operations are played
//! in time order. A write adds its bytes to its region's memstore; a memstore at the flush
//! size flushes into the stores, and the region's policy then decides on a split.

use super::findings;
use super::heat::Heat;
use super::key::{KeyMaker, MadeKey};
use super::policy::RegionPolicy;
use super::timeline::{HourFigures, Move, RegionSpan, RegionStep, Split, Timeline};
use super::workload::{Choose, KeyField, Operation, TableLoad, TimeEncoding, Workload};
use super::SimulateError;
use crate::bytes::from_printable;
use crate::designs::gen::Gen;

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

/// What a sample is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleKind {
    /// A row that was there before the start (no operation).
    Initial,
    PutNew,
    Update,
    Get,
    PrefixScan,
    WindowScan,
    Delete,
}

impl SampleKind {
    /// A get or a scan.
    pub fn is_read(self) -> bool {
        matches!(
            self,
            SampleKind::Get | SampleKind::PrefixScan | SampleKind::WindowScan
        )
    }

    /// A scan.
    pub fn is_scan(self) -> bool {
        matches!(self, SampleKind::PrefixScan | SampleKind::WindowScan)
    }
}

/// One weighted sample: an operation of the workload played on one key, standing for
/// `weight` operations of its kind in its step.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Simulated ms from the start.
    pub at_ms: u64,
    pub step: u32,
    /// The operation's index in the table's `operations` (`u16::MAX` for initial rows).
    pub op: u16,
    pub kind: SampleKind,
    /// Operations it stands for.
    pub weight: f64,
    /// Rows it read (all its operations together).
    pub rows_read: f64,
    /// Rows it returned.
    pub rows_returned: f64,
    /// Rows it made (puts of new rows).
    pub rows_made: f64,
    /// Bytes it wrote.
    pub bytes: f64,
    /// The key's first entity id.
    pub entity: Option<u64>,
    /// The end of the key's first entity field (0 when none).
    pub entity_end: u32,
    /// The end of the key's fields before its first per-row field.
    pub prefix_end: u32,
    /// The region it went to.
    pub region: u32,
    key_at: u32,
    key_len: u32,
}

impl Sample {
    /// Its key (for a scan, the scan's start row).
    pub fn key<'a>(&self, keys: &'a [u8]) -> &'a [u8] {
        keys.get(self.key_at as usize..(self.key_at + self.key_len) as usize)
            .unwrap_or(&[])
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

/// Plays `workload` out.
/// The workload's values are checked again (a workload made in code need not come from
/// [`Workload::from_json`]); its keys' uniqueness is checked where it is read.
pub fn simulate(workload: &Workload, options: &Options) -> Result<Simulation, SimulateError> {
    workload.check_with(false)?;
    let step_ms = workload.step_ms();
    let steps = workload.duration_ms.div_ceil(step_ms) as usize;
    let mut tables = Vec::with_capacity(workload.tables.len());
    let (mut ops, mut samples) = (0.0, 0usize);
    for (t, table) in workload.tables.iter().enumerate() {
        let run = TableSim::new(workload, table, t, options, step_ms, steps).run()?;
        ops += run.totals.ops;
        samples += run.samples.len();
        tables.push(run);
    }
    Ok(Simulation {
        workload: workload.clone(),
        step_ms,
        steps,
        tables,
        ops_per_sample: if samples == 0 {
            0.0
        } else {
            ops / samples as f64
        },
    })
}

/// Plays table `index` of `workload` out alone, as [`simulate`] does each table (its draws
/// depend on the workload's seed and the index only): a page runs the tables one at a time,
/// giving the thread back between them. `None` when there is no such table.
pub fn simulate_table(
    workload: &Workload,
    options: &Options,
    index: usize,
) -> Option<Result<TableRun, SimulateError>> {
    let table = workload.tables.get(index)?;
    let step_ms = workload.step_ms();
    let steps = workload.duration_ms.div_ceil(step_ms) as usize;
    Some(TableSim::new(workload, table, index, options, step_ms, steps).run())
}

/// A region while the simulation runs.
struct Region {
    id: u32,
    start: Vec<u8>,
    end: Vec<u8>,
    server: u32,
    policy: RegionPolicy,
    /// Per family: bytes in the memstore and in the store files.
    memstore: Vec<f64>,
    stores: Vec<f64>,
    store_files: u32,
    /// The samples that wrote into it (for its middle key).
    writes: Vec<u32>,
    /// Writes count when a split was last found impossible.
    unsplittable_at: usize,
    reads: f64,
    filtered: f64,
    written: f64,
}

/// One creation of rows: rows [first, first + count) made from `at` over `span` ms.
struct Made {
    first: u64,
    count: f64,
    at: f64,
    span: f64,
}

struct TableSim<'a> {
    workload: &'a Workload,
    table: &'a TableLoad,
    maker: KeyMaker,
    options: &'a Options,
    step_ms: u64,
    steps: usize,
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
}

impl<'a> TableSim<'a> {
    fn new(
        workload: &'a Workload,
        table: &'a TableLoad,
        index: usize,
        options: &'a Options,
        step_ms: u64,
        steps: usize,
    ) -> TableSim<'a> {
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
                writes: Vec::new(),
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
        TableSim {
            workload,
            table,
            maker: KeyMaker::new(table, workload.seed, index),
            options,
            step_ms,
            steps,
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
            families_len: table.families.iter().map(|f| f.name.len() as u64).collect(),
            scratch: MadeKey::default(),
            next_balance: c.balancer_period_ms,
            hours: Vec::new(),
            hour_first_sample: 0,
        }
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

    fn run(mut self) -> Result<TableRun, SimulateError> {
        self.initial_rows()?;
        let ops = &self.table.operations;
        let mut cumulative = vec![0.0f64; ops.len()];
        let duration = self.workload.duration_ms;
        let mut queue: Vec<(f64, usize, u64, u64, u64)> = Vec::new();
        for step in 0..self.steps {
            let t0 = step as u64 * self.step_ms;
            let t1 = (t0 + self.step_ms).min(duration);
            let dt = (t1 - t0) as f64;
            queue.clear();
            for (o, op) in ops.iter().enumerate() {
                let rate = op.rate();
                let mid = t0 as f64 + dt / 2.0;
                let before = cumulative[o];
                cumulative[o] += rate.per_sec * rate.curve.factor(mid) * dt / 1000.0;
                let count = (cumulative[o].floor() - before.floor()).max(0.0) as u64;
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
            queue.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let items = std::mem::take(&mut queue);
            for &(at, o, i, k, count) in &items {
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
            queue = items;
            self.end_step(dt);
            if t1.is_multiple_of(3_600_000) || t1 == duration {
                self.end_hour(t1);
            }
        }
        self.finish()
    }

    fn initial_rows(&mut self) -> Result<(), SimulateError> {
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
                SampleKind::Initial,
                at,
                count as f64 / k as f64,
                day / k as f64,
            );
        }
        Ok(())
    }

    /// The time (ms from the start) row `row` was made.
    fn made_at(&self, row: u64) -> f64 {
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
    fn row_at(&self, at: f64) -> u64 {
        let i = self.made.partition_point(|m| m.at + m.span <= at);
        match self.made.get(i) {
            Some(m) if at > m.at => m.first + (((at - m.at) / m.span.max(1e-9)) * m.count) as u64,
            Some(m) => m.first,
            None => self.rows_made,
        }
    }

    fn make_row(&mut self, row: u64) {
        let at = self.made_at(row);
        let abs = (self.workload.start_ms as f64 + at).max(0.0) as u64;
        let mut made = std::mem::take(&mut self.scratch);
        self.maker.make(row, abs, &mut made);
        self.scratch = made;
    }

    /// The existing row `choose` picks for the draw `u` in [0, 1).
    fn choose_row(&mut self, choose: Choose, now: f64, u: f64) -> Option<u64> {
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

    fn locate(&self, key: &[u8]) -> usize {
        self.regions
            .partition_point(|r| r.start.as_slice() <= key)
            .saturating_sub(1)
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

    fn base_sample(&self, step: usize, op: u16, kind: SampleKind, at: f64, weight: f64) -> Sample {
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

    fn row_put_bytes(&self, key_len: usize) -> (f64, Vec<f64>) {
        let per_family: Vec<f64> = self
            .family_bytes
            .iter()
            .map(|(fixed, cells)| fixed + cells * key_len as f64)
            .collect();
        (per_family.iter().sum(), per_family)
    }

    fn put_new(&mut self, step: usize, op: u16, kind: SampleKind, at: f64, weight: f64, span: f64) {
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

    fn write(&mut self, mut sample: Sample, weight: f64, at: f64) {
        let (row_bytes, per_family) = if sample.kind == SampleKind::Delete {
            // A delete marker: one KeyValue with the row and no qualifier or value.
            let b = (4 + 4 + 2 + 1 + 8 + 1) as f64 + self.scratch.key.len() as f64;
            (b, vec![b])
        } else {
            self.row_put_bytes(self.scratch.key.len())
        };
        sample.bytes = row_bytes * weight;
        let mut r = self.locate(&self.scratch.key);
        sample.region = self.regions[r].id;
        let index = self.push_sample(sample);
        let flush = self.workload.cluster.flush_size as f64;
        self.regions[r].written += weight;
        self.regions[r].writes.push(index);
        // One operation's cells go into the memstore whole, and the memstore flushes once it
        // reaches the flush size (as HBase's does after a put). A sample standing for several
        // operations is cut where the memstore reaches the flush size, so its rows flush as
        // they would one by one.
        let mut left = 1.0f64;
        let sample_bytes = row_bytes * weight;
        loop {
            let held: f64 = self.regions[r].memstore.iter().sum();
            let part = if weight > 1.0 && sample_bytes > 0.0 {
                ((flush - held) / sample_bytes).clamp(0.0, left)
            } else {
                left
            };
            for (f, b) in per_family.iter().enumerate() {
                if let Some(m) = self.regions[r].memstore.get_mut(f) {
                    *m += b * weight * part;
                }
            }
            left -= part;
            if self.regions[r].memstore.iter().sum::<f64>() >= flush * (1.0 - 1e-12) {
                self.flush(r, at);
                // A split may have replaced region r: the rest goes where the key now is.
                r = self.locate(&self.scratch.key);
            }
            if left <= 1e-12 {
                break;
            }
        }
    }

    /// Flushes region `r`'s memstore into store files, then asks its policy about a split.
    fn flush(&mut self, r: usize, at: f64) {
        let region = &mut self.regions[r];
        for (m, s) in region.memstore.iter_mut().zip(region.stores.iter_mut()) {
            *s += *m;
            *m = 0.0;
        }
        region.store_files += self.families_len.len() as u32;
        let largest = region.stores.iter().copied().fold(0.0, f64::max) as u64;
        let server = region.server;
        let on_server = self.regions.iter().filter(|o| o.server == server).count() as u32;
        let region = &self.regions[r];
        if region.policy.should_split(largest, on_server)
            && region.writes.len() > region.unsplittable_at
        {
            let limit = region.policy.size_to_check(on_server).unwrap_or(u64::MAX);
            self.split(r, at, largest, limit);
        }
    }

    /// Splits region `r` at the middle key of its data: the key below which half its bytes
    /// lie, from its write samples (as the largest store file's block index would give it).
    fn split(&mut self, r: usize, at: f64, largest: u64, limit: u64) {
        let mut writes = std::mem::take(&mut self.regions[r].writes);
        let keys = &self.keys;
        let samples = &self.samples;
        writes.sort_by(|a, b| {
            samples[*a as usize]
                .key(keys)
                .cmp(samples[*b as usize].key(keys))
                .then(a.cmp(b))
        });
        let total: f64 = writes.iter().map(|&i| samples[i as usize].bytes).sum();
        let mut cumulative = 0.0;
        let mut mid: Option<Vec<u8>> = None;
        for &i in &writes {
            cumulative += samples[i as usize].bytes;
            if cumulative >= total / 2.0 {
                mid = Some(samples[i as usize].key(keys).to_vec());
                break;
            }
        }
        let region = &self.regions[r];
        let point = mid.map(|m| region.policy.split_point(&m));
        let usable = point.filter(|p| {
            p.as_slice() > region.start.as_slice()
                && (region.end.is_empty() || p.as_slice() < region.end.as_slice())
        });
        let Some(point) = usable else {
            let region = &mut self.regions[r];
            region.unsplittable_at = writes.len() + writes.len() / 10 + 1;
            region.writes = writes;
            return;
        };
        let cut = writes.partition_point(|&i| samples[i as usize].key(keys) < point.as_slice());
        let left_bytes: f64 = writes[..cut]
            .iter()
            .map(|&i| samples[i as usize].bytes)
            .sum();
        let share = if total > 0.0 { left_bytes / total } else { 0.5 };
        let right_writes = writes.split_off(cut);
        let at_ms = at.max(0.0) as u64;
        let parent = self.regions.remove(r);
        let c = &self.workload.cluster;
        let mut daughters = Vec::with_capacity(2);
        for (i, (start, end, writes, part)) in [
            (parent.start.clone(), point.clone(), writes, share),
            (point.clone(), parent.end.clone(), right_writes, 1.0 - share),
        ]
        .into_iter()
        .enumerate()
        {
            let id = self.spans.len() as u32;
            let policy = RegionPolicy::configure(
                c.split_policy,
                c.max_filesize,
                c.flush_size,
                c.jitter,
                &mut self.jitter_gen,
            );
            self.spans.push(RegionSpan {
                id,
                start_key: start.clone(),
                end_key: end.clone(),
                from_ms: at_ms,
                to_ms: None,
                parent: Some(parent.id),
                desired_max_file_size: policy.desired_max_file_size,
            });
            daughters.push(id);
            // HBase 2.x opens both daughters on the parent's server.
            self.regions.insert(
                r + i,
                Region {
                    id,
                    start,
                    end,
                    server: parent.server,
                    policy,
                    memstore: parent.memstore.iter().map(|m| m * part).collect(),
                    stores: parent.stores.iter().map(|s| s * part).collect(),
                    store_files: self.families_len.len() as u32,
                    writes,
                    unsplittable_at: 0,
                    reads: parent.reads * part,
                    filtered: parent.filtered * part,
                    written: parent.written * part,
                },
            );
        }
        if let Some(span) = self.spans.get_mut(parent.id as usize) {
            span.to_ms = Some(at_ms);
        }
        self.splits.push(Split {
            at_ms,
            region: parent.id,
            key: point,
            daughters: (daughters[0], daughters[1]),
            store_bytes: largest,
            size_to_check: limit,
            server: parent.server,
        });
    }

    /// The balancer's run at `at_ms`: the table's regions spread so every server holds the
    /// floor or the ceiling of the average; each move takes the newest region (highest id) of
    /// the server with the most (the lowest-numbered on a tie) to the server with the fewest
    /// (the lowest-numbered on a tie).
    fn balance(&mut self, at_ms: u64) {
        let servers = self.workload.cluster.region_servers as usize;
        loop {
            let mut counts = vec![0usize; servers];
            for r in &self.regions {
                counts[r.server as usize] += 1;
            }
            let (most, &hi) = counts
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
                .unwrap_or((0, &0));
            let (fewest, &lo) = counts
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(&b.0)))
                .unwrap_or((0, &0));
            if hi <= lo + 1 {
                return;
            }
            let Some(region) = self
                .regions
                .iter_mut()
                .filter(|r| r.server as usize == most)
                .max_by_key(|r| r.id)
            else {
                return;
            };
            region.server = fewest as u32;
            self.moves.push(Move {
                at_ms,
                region: region.id,
                from: most as u32,
                to: fewest as u32,
            });
        }
    }

    fn play(&mut self, step: usize, o: usize, at: f64, weight: f64, span: f64, u: f64) {
        let op = &self.table.operations[o];
        let op16 = o as u16;
        match op {
            Operation::PutNew { .. } => {
                self.put_new(step, op16, SampleKind::PutNew, at, weight, span)
            }
            Operation::Update { choose, .. } | Operation::Delete { choose, .. } => {
                let kind = if matches!(op, Operation::Update { .. }) {
                    SampleKind::Update
                } else {
                    SampleKind::Delete
                };
                let Some(row) = self.choose_row(*choose, at, u) else {
                    return;
                };
                self.key_for(*choose, row, at);
                let sample = self.base_sample(step, op16, kind, at, weight);
                if kind == SampleKind::Delete {
                    self.rows_deleted += weight;
                }
                self.write(sample, weight, at);
            }
            Operation::Get { choose, .. } => {
                let Some(row) = self.choose_row(*choose, at, u) else {
                    return self.empty_read(step, op16, SampleKind::Get, at, weight);
                };
                self.key_for(*choose, row, at);
                let mut sample = self.base_sample(step, op16, SampleKind::Get, at, weight);
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
                    return self.empty_read(step, op16, SampleKind::PrefixScan, at, weight);
                };
                self.key_for(choose, row, at);
                let under = self.rows_under(fields);
                let mut sample = self.base_sample(step, op16, SampleKind::PrefixScan, at, weight);
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
                    return self.empty_read(step, op16, SampleKind::WindowScan, at, weight);
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
                let mut sample = self.base_sample(step, op16, SampleKind::WindowScan, at, weight);
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
                    super::key::write_time(edge.max(0.0) as u64, *encoding, &mut key);
                    self.scratch.key = key;
                }
                self.read(sample);
            }
        }
    }

    /// A read before the table has any row: it finds nothing, at the table's first key.
    fn empty_read(&mut self, step: usize, op: u16, kind: SampleKind, at: f64, weight: f64) {
        self.scratch = MadeKey::default();
        let sample = self.base_sample(step, op, kind, at, weight);
        self.read(sample);
    }

    /// Makes the key an operation reads or writes: row `row`'s, or for [`Choose::Fresh`] the
    /// key a new row would get now.
    fn key_for(&mut self, choose: Choose, row: u64, at: f64) {
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
    fn rows_under(&self, fields: usize) -> f64 {
        let alive = (self.rows_made as f64 - self.rows_deleted).max(0.0);
        match self.maker.prefix_share(fields, &self.scratch) {
            Some(share) => (alive * share).max(1.0_f64.min(alive)),
            None => 1.0_f64.min(alive),
        }
    }

    fn read(&mut self, mut sample: Sample) {
        let r = self.locate(&self.scratch.key);
        sample.region = self.regions[r].id;
        let region = &mut self.regions[r];
        region.reads += sample.weight;
        region.filtered += sample.rows_read - sample.rows_returned;
        self.push_sample(sample);
    }

    fn end_step(&mut self, dt_ms: f64) {
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
    }

    /// The figures of the hour ending at `end_ms`: its samples attributed by key to the
    /// regions open now.
    fn end_hour(&mut self, end_ms: u64) {
        let hour = (end_ms - 1) / 3_600_000;
        let servers = self.workload.cluster.region_servers as usize;
        let n = self.regions.len();
        let mut region_reads = vec![0.0; n];
        let mut region_writes = vec![0.0; n];
        let mut server_reads = vec![0.0; servers];
        let mut server_writes = vec![0.0; servers];
        for s in &self.samples[self.hour_first_sample..] {
            if s.kind == SampleKind::Initial {
                continue;
            }
            let r = self.locate(s.key(&self.keys));
            let server = self.regions[r].server as usize;
            if s.kind.is_read() {
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
        self.hours.push(HourFigures {
            hour,
            start_ms: hour * 3_600_000,
            end_ms,
            regions: n as u32,
            busiest_region_write_share: share(&region_writes),
            busiest_region_read_share: share(&region_reads),
            busiest_server_write_share: share(&server_writes),
            busiest_server_read_share: share(&server_reads),
        });
        self.hour_first_sample = self.samples.len();
    }

    fn finish(self) -> Result<TableRun, SimulateError> {
        let timeline = Timeline {
            regions: self.spans,
            splits: self.splits,
            moves: self.moves,
            steps: self.step_figures,
            step_ms: self.step_ms,
        };
        let ranges = self.options.ranges.clamp(1, super::workload::MAX_RANGES);
        let heat = Heat::build(&self.samples, &self.keys, &timeline, self.steps, ranges);
        let ops: f64 = self
            .samples
            .iter()
            .filter(|s| s.kind != SampleKind::Initial)
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
        let mut run = TableRun {
            name: self.table.name.clone(),
            heat,
            timeline,
            hours: self.hours,
            findings: Vec::new(),
            totals,
            samples: self.samples,
            keys: self.keys,
        };
        run.findings = findings::find(&run, self.table, self.workload);
        Ok(run)
    }
}
