//! The simulation's own engine: a bounded, deterministic sample of the rows a simulation made,
//! as real rows in an [`Engine`] beside the person's tables, so gets, scans and the views work
//! on rows of the template's shape.
//!
//! Which rows: the rows the simulation's put samples wrote (one real key per sample, the
//! rows there before the start included), every `stride`-th of each table's in time order, the
//! stride the smallest that keeps the whole engine within [`SampleLimits`] (250,000 cells and
//! 64 MiB of values by default, counting every write the sample replays). Each kept row stands
//! for the rows of the samples it was kept for (its own and the `stride - 1` after it);
//! [`SampledTable`] counts that per region of the simulation's end and per key range of its
//! heat model, and gives the ratio of rows simulated to rows sampled. Values are filler of the
//! template's sizes; timestamps are the simulated times of the writes.
//!
//! Updates and deletes are thinned by the same stride and replayed in time order: a kept update
//! puts every column of a sampled row again (a newer version), a kept delete writes a
//! DeleteFamily marker in each family of one (HBase's `Delete` of a whole row), so the row
//! reads as gone while a raw scan still shows its cells under the markers. The row either
//! touches is the one its key names when the sample holds it, else the live sampled row at or
//! before its key (the first one when none is), which stands for its neighbours in key order.
//!
//! Counted: the sampled rows, their cells, the updates and deletes replayed and the rows each
//! row stands for. Estimated: everything the sample stands for beyond itself.

use std::collections::BTreeMap;

use super::run::{Sample, Simulation, TableRun};
use super::workload::TableLoad;
use super::OpKind;
use super::SimulateError;
use crate::engine::{Engine, FamilyDescriptor, Mutation, TableDescriptor, TableSettings};
use crate::kit::order;

/// Most cells the sample engine holds.
pub const SAMPLE_CELLS: u64 = 250_000;
/// Most bytes of values it holds.
pub const SAMPLE_VALUE_BYTES: u64 = 64 << 20;

/// How large the sample may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleLimits {
    pub cells: u64,
    pub value_bytes: u64,
}

impl Default for SampleLimits {
    fn default() -> SampleLimits {
        SampleLimits {
            cells: SAMPLE_CELLS,
            value_bytes: SAMPLE_VALUE_BYTES,
        }
    }
}

/// What one table's sample holds and stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledTable {
    pub name: String,
    /// Rows the simulation made (its put samples' rows, before deletes).
    pub rows_simulated: f64,
    /// Rows written into the sample engine (before its deletes).
    pub rows_sampled: u64,
    /// Cells written into it: puts, updates and delete markers.
    pub cells: u64,
    /// Updates replayed: each put every column of a sampled row again.
    pub updates: u64,
    /// Sampled rows deleted (a DeleteFamily marker in each family).
    pub deletes: u64,
    /// Put samples per kept row.
    pub stride: u64,
    /// Per region of the simulation's end (its timeline id, its start key): the live rows
    /// sampled and the rows they stand for.
    pub regions: Vec<(u32, Vec<u8>, u64, f64)>,
    /// Per key range of the heat model (in its order): the live rows sampled and the rows
    /// they stand for.
    pub ranges: Vec<(u64, f64)>,
}

impl SampledTable {
    /// Rows simulated per row sampled (0 when nothing was sampled).
    pub fn ratio(&self) -> f64 {
        if self.rows_sampled == 0 {
            0.0
        } else {
            self.rows_simulated / self.rows_sampled as f64
        }
    }
}

/// An engine holding a sample of a simulation's rows, and what it stands for.
pub struct SampleEngine {
    pub engine: Engine,
    pub tables: Vec<SampledTable>,
}

impl SampleEngine {
    /// Cells held over all tables.
    pub fn cells(&self) -> u64 {
        self.tables.iter().map(|t| t.cells).sum()
    }
}

/// Cells and value bytes one row of `table` writes.
fn row_shape(table: &TableLoad) -> (u64, u64) {
    let columns = table.families.iter().flat_map(|f| &f.columns);
    columns.fold((0, 0), |(cells, bytes), c| {
        (cells + 1, bytes + c.value_size)
    })
}

/// Whether a sample wrote a new row.
fn is_put(kind: Option<OpKind>) -> bool {
    matches!(kind, Some(OpKind::PutNew) | None)
}

/// Whether a sample wrote: a new row, an update or a delete.
fn is_write(kind: Option<OpKind>) -> bool {
    is_put(kind) || matches!(kind, Some(OpKind::Update | OpKind::Delete))
}

/// A live sampled row: its region and key range (indices) and the rows it stands for.
struct Kept {
    region: usize,
    range: usize,
    stands_for: f64,
}

/// Adds `rows` sampled rows standing for `stands_for` to region `r` and range `k`.
fn tally(
    regions: &mut [(u32, Vec<u8>, u64, f64)],
    ranges: &mut [(u64, f64)],
    r: usize,
    k: usize,
    rows: i64,
    stands_for: f64,
) {
    if let Some(region) = regions.get_mut(r) {
        region.2 = region.2.saturating_add_signed(rows);
        region.3 += stands_for;
    }
    if let Some(range) = ranges.get_mut(k) {
        range.0 = range.0.saturating_add_signed(rows);
        range.1 += stands_for;
    }
}

/// A put of every column of `row` at `ts`, with filler values.
fn puts_of(columns: &[(Vec<u8>, Vec<u8>, u64)], row: &[u8], ts: u64) -> Vec<Mutation> {
    columns
        .iter()
        .enumerate()
        .map(|(i, (family, qualifier, size))| Mutation::Put {
            family: family.clone(),
            qualifier: qualifier.clone(),
            timestamp: Some(ts),
            value: filler(row, i, *size),
            ttl_ms: None,
        })
        .collect()
}

/// A value of `size` bytes for `row`'s column `column`: printable filler that differs from
/// row to row.
fn filler(row: &[u8], column: usize, size: u64) -> Vec<u8> {
    let seed = row.iter().fold(column as u64 ^ 0x9e37, |h, &b| {
        h.wrapping_mul(31).wrapping_add(u64::from(b))
    });
    (0..size)
        .map(|i| b'a' + ((seed.wrapping_add(i)) % 26) as u8)
        .collect()
}

/// Builds the sample engine of `sim` within `limits`, in one call.
pub fn sample_engine(
    sim: &Simulation,
    limits: SampleLimits,
) -> Result<SampleEngine, SimulateError> {
    SampleBuild::new(sim, limits).finish(sim)
}

/// A sample engine being built a part at a time: each [`SampleBuild::advance`] replays a
/// bounded number of the simulation's writes into it and returns, so a page can paint and take
/// a cancel between two calls; dropping it cancels the build. The engine is
/// [`sample_engine`]'s, however the calls are cut. Every call must be given the same
/// simulation.
pub struct SampleBuild {
    engine: Engine,
    stride: u64,
    tables: Vec<SampledTable>,
    /// The table being written (the next one is `tables.len()`).
    current: Option<TableWriter>,
    /// Writes replayed or skipped so far, and of every table.
    done: usize,
    total: usize,
}

impl SampleBuild {
    /// A build of `sim`'s sample within `limits`, not started: the stride is chosen now (a
    /// pass over the samples).
    pub fn new(sim: &Simulation, limits: SampleLimits) -> SampleBuild {
        let end_ms = sim
            .workload
            .start_ms
            .saturating_add(sim.workload.duration_ms);
        // One stride for every table: the smallest that keeps the cells and bytes within bounds.
        let (mut cells, mut bytes, mut total) = (0u64, 0u64, 0usize);
        for (load, run) in sim.workload.tables.iter().zip(&sim.tables) {
            let (c, b) = row_shape(load);
            let markers = load.families.len() as u64;
            for s in &run.samples {
                let (sc, sb) = match s.kind {
                    Some(OpKind::Delete) => (markers, 0),
                    k if is_write(k) => (c, b),
                    _ => (0, 0),
                };
                total += usize::from(is_write(s.kind));
                cells = cells.saturating_add(sc);
                bytes = bytes.saturating_add(sb);
            }
        }
        let stride = cells
            .div_ceil(limits.cells.max(1))
            .max(bytes.div_ceil(limits.value_bytes.max(1)))
            .max(1);
        SampleBuild {
            engine: Engine::new(Box::new(move || end_ms)),
            stride,
            tables: Vec::with_capacity(sim.tables.len()),
            current: None,
            done: 0,
            total,
        }
    }

    /// Replays the next `writes` writes of `sim` (at least one; a table's start, its rows
    /// sorted by time, counts as its writes). Returns whether the engine is built.
    pub fn advance(&mut self, sim: &Simulation, writes: usize) -> Result<bool, SimulateError> {
        let mut budget = writes.max(1);
        while budget > 0 {
            let t = self.tables.len();
            let (Some(load), Some(run)) = (sim.workload.tables.get(t), sim.tables.get(t)) else {
                return Ok(true);
            };
            let Some(writer) = self.current.as_mut() else {
                let w = TableWriter::new(&mut self.engine, load, run)?;
                budget = budget.saturating_sub(w.writes.len());
                self.current = Some(w);
                continue;
            };
            let before = writer.next;
            let from = Source {
                load,
                run,
                stride: self.stride,
                start_ms: sim.workload.start_ms,
            };
            let over = writer.write(&mut self.engine, from, budget)?;
            let wrote = writer.next - before;
            self.done += wrote;
            budget = budget.saturating_sub(wrote.max(1));
            if over {
                if let Some(w) = self.current.take() {
                    self.tables.push(w.finish(load, self.stride));
                }
            }
        }
        Ok(self.tables.len() >= sim.tables.len())
    }

    /// The fraction of the writes replayed.
    pub fn progress(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.done as f64 / self.total as f64
        }
    }

    /// The engine and its tables, building what is left first.
    pub fn finish(mut self, sim: &Simulation) -> Result<SampleEngine, SimulateError> {
        while !self.advance(sim, usize::MAX)? {}
        Ok(SampleEngine {
            engine: self.engine,
            tables: self.tables,
        })
    }
}

fn engine_error(table: &str, e: crate::engine::Error) -> SimulateError {
    SimulateError::invalid(
        format!("$.tables[?(@.name=='{table}')]"),
        format!("the sample engine refused it: {e}"),
    )
}

/// One table's sample being written: its writes in time order and how far they went.
struct TableWriter {
    columns: Vec<(Vec<u8>, Vec<u8>, u64)>,
    regions: Vec<(u32, Vec<u8>, u64, f64)>,
    ranges: Vec<(u64, f64)>,
    rows_simulated: f64,
    rows_sampled: u64,
    cells: u64,
    updates: u64,
    deletes: u64,
    /// The positions of the run's writes, in time order, and what each kept put stands for.
    writes: Vec<u32>,
    stands_for: Vec<f64>,
    /// The next write to replay.
    next: usize,
    /// The live sampled rows: where each is tallied and what it stands for.
    live: BTreeMap<Vec<u8>, Kept>,
    /// Puts, updates and deletes seen so far (which are kept: every `stride`-th).
    puts: u64,
    others: [u64; 2],
    /// Updates and deletes owed to the sample, in simulated rows: a kept row takes one when
    /// what is owed reaches the rows it stands for.
    owed: [f64; 2],
}

/// What a table's writes are replayed from: its workload, its run, the build's stride and the
/// simulation's start.
#[derive(Clone, Copy)]
struct Source<'a> {
    load: &'a TableLoad,
    run: &'a TableRun,
    stride: u64,
    start_ms: u64,
}

impl TableWriter {
    /// The table created in `engine` (cut into the regions of the simulation's end) and its
    /// writes in time order.
    fn new(
        engine: &mut Engine,
        load: &TableLoad,
        run: &TableRun,
    ) -> Result<TableWriter, SimulateError> {
        let open: Vec<_> = run
            .timeline
            .regions
            .iter()
            .filter(|r| r.to_ms.is_none())
            .collect();
        let families = load
            .families
            .iter()
            .map(|f| FamilyDescriptor::new(&f.name))
            .collect();
        let mut desc = TableDescriptor::new(&load.name, families);
        // The regions of the simulation's end, and no flushes or splits of the engine's own.
        desc.settings = TableSettings {
            flush_bytes: u64::MAX / 4,
            compaction_threshold: 3,
            split_bytes: 0,
        };
        let mut splits: Vec<Vec<u8>> = open
            .iter()
            .map(|r| r.start_key.clone())
            .filter(|k| !k.is_empty())
            .collect();
        order::sort(&mut splits);
        splits.dedup();
        engine
            .create_table(desc, splits)
            .map_err(|e| engine_error(&load.name, e))?;

        let columns: Vec<(Vec<u8>, Vec<u8>, u64)> = load
            .families
            .iter()
            .flat_map(|f| {
                f.columns.iter().map(|c| {
                    (
                        f.name.as_bytes().to_vec(),
                        c.qualifier.as_bytes().to_vec(),
                        c.value_size,
                    )
                })
            })
            .collect();
        let mut regions: Vec<(u32, Vec<u8>, u64, f64)> = open
            .iter()
            .map(|r| (r.id, r.start_key.clone(), 0, 0.0))
            .collect();
        order::sort_by(&mut regions, |a, b| a.1.cmp(&b.1));
        // The writes in time order.
        let mut writes: Vec<u32> = (0..run.samples.len() as u32)
            .filter(|&i| is_write(run.samples[i as usize].kind))
            .collect();
        order::sort_by_key(&mut writes, |&i| run.samples[i as usize].at_ms);
        Ok(TableWriter {
            columns,
            regions,
            ranges: vec![(0u64, 0.0f64); run.heat.ranges.len()],
            rows_simulated: 0.0,
            rows_sampled: 0,
            cells: 0,
            updates: 0,
            deletes: 0,
            stands_for: Vec::new(),
            writes,
            next: 0,
            live: BTreeMap::new(),
            puts: 0,
            others: [0; 2],
            owed: [0.0; 2],
        })
    }

    /// Each kept put's group: the rows of its own and the `stride - 1` puts after it.
    fn group(&mut self, run: &TableRun, stride: u64) {
        let mut stands_for = Vec::with_capacity(self.writes.len());
        let (mut puts, mut group) = (0u64, None::<usize>);
        for (i, &w) in self.writes.iter().enumerate() {
            stands_for.push(0.0);
            let Some(s) = run.samples.get(w as usize) else {
                continue;
            };
            if !is_put(s.kind) {
                continue;
            }
            if puts % stride == 0 {
                group = Some(i);
            }
            puts += 1;
            self.rows_simulated += s.rows_made;
            if let Some(g) = group {
                stands_for[g] += s.rows_made;
            }
        }
        self.stands_for = stands_for;
    }

    /// Replays up to `budget` writes (the groups worked out first, counting as the writes);
    /// returns whether the table's writes are all replayed.
    fn write(
        &mut self,
        engine: &mut Engine,
        from: Source,
        budget: usize,
    ) -> Result<bool, SimulateError> {
        let Source { run, stride, .. } = from;
        if self.stands_for.len() != self.writes.len() {
            self.group(run, stride);
            return Ok(self.writes.is_empty());
        }
        let end = self.next.saturating_add(budget).min(self.writes.len());
        while self.next < end {
            let i = self.next;
            self.next += 1;
            let (Some(s), Some(&stands_for)) = (
                self.writes
                    .get(i)
                    .and_then(|&w| run.samples.get(w as usize)),
                self.stands_for.get(i),
            ) else {
                continue;
            };
            self.replay(engine, from, s, stands_for)?;
        }
        Ok(self.next >= self.writes.len())
    }

    /// Replays one write sample, if the sample keeps it.
    fn replay(
        &mut self,
        engine: &mut Engine,
        from: Source,
        s: &Sample,
        stands_for: f64,
    ) -> Result<(), SimulateError> {
        let Source {
            load,
            run,
            stride,
            start_ms,
        } = from;
        let columns = &self.columns;
        let (regions, ranges, live) = (&mut self.regions, &mut self.ranges, &mut self.live);
        let owed = &mut self.owed;
        let ranges_at = &run.heat.ranges;
        let ts = start_ms.saturating_add(s.at_ms).max(1);
        let row = s.key(&run.keys);
        let kind = usize::from(s.kind == Some(OpKind::Delete));
        let nth = if is_put(s.kind) {
            &mut self.puts
        } else {
            &mut self.others[kind]
        };
        let kept = *nth % stride == 0;
        *nth += 1;
        if !kept {
            return Ok(());
        }
        if is_put(s.kind) {
            let mutations = puts_of(columns, row, ts);
            engine
                .mutate(&load.name, row, &mutations)
                .map_err(|e| engine_error(&load.name, e))?;
            self.rows_sampled += 1;
            self.cells += mutations.len() as u64;
            let r = regions
                .partition_point(|(_, start, _, _)| start.as_slice() <= row)
                .saturating_sub(1);
            let k = ranges_at
                .partition_point(|range| range.start.as_slice() <= row)
                .saturating_sub(1);
            tally(regions, ranges, r, k, 1, stands_for);
            let before = live.insert(
                row.to_vec(),
                Kept {
                    region: r,
                    range: k,
                    stands_for,
                },
            );
            // The same key made again (a template without a per-row field): one row.
            if let Some(b) = before {
                tally(regions, ranges, b.region, b.range, -1, -b.stands_for);
            }
            return Ok(());
        }
        // This sample and the `stride - 1` after it.
        owed[kind] += s.weight * stride as f64;
        // The row the key names when the sample holds it, else the live sampled row at or
        // before it (the first when none is), which stands for its neighbours in key order.
        let Some((target, needs)) = live
            .range::<[u8], _>((std::ops::Bound::Unbounded, std::ops::Bound::Included(row)))
            .next_back()
            .or_else(|| live.iter().next())
            .map(|(k, kept)| (k.clone(), kept.stands_for.max(1.0)))
        else {
            return Ok(());
        };
        if owed[kind] < needs {
            return Ok(());
        }
        owed[kind] -= needs;
        if s.kind == Some(OpKind::Update) {
            let mutations = puts_of(columns, &target, ts);
            engine
                .mutate(&load.name, &target, &mutations)
                .map_err(|e| engine_error(&load.name, e))?;
            self.cells += mutations.len() as u64;
            self.updates += 1;
        } else {
            engine
                .mutate(
                    &load.name,
                    &target,
                    &[Mutation::DeleteRow {
                        timestamp: Some(ts),
                    }],
                )
                .map_err(|e| engine_error(&load.name, e))?;
            // A DeleteFamily marker in each family.
            self.cells += load.families.len() as u64;
            self.deletes += 1;
            if let Some(gone) = live.remove(&target) {
                tally(
                    regions,
                    ranges,
                    gone.region,
                    gone.range,
                    -1,
                    -gone.stands_for,
                );
            }
        }
        Ok(())
    }

    /// What the table's sample holds and stands for.
    fn finish(self, load: &TableLoad, stride: u64) -> SampledTable {
        SampledTable {
            name: load.name.clone(),
            rows_simulated: self.rows_simulated,
            rows_sampled: self.rows_sampled,
            cells: self.cells,
            updates: self.updates,
            deletes: self.deletes,
            stride,
            regions: self.regions,
            ranges: self.ranges,
        }
    }
}
