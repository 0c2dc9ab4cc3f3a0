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

/// Builds the sample engine of `sim` within `limits`.
pub fn sample_engine(
    sim: &Simulation,
    limits: SampleLimits,
) -> Result<SampleEngine, SimulateError> {
    let end_ms = sim
        .workload
        .start_ms
        .saturating_add(sim.workload.duration_ms);
    let mut engine = Engine::new(Box::new(move || end_ms));
    // One stride for every table: the smallest that keeps the cells and bytes within bounds.
    let (mut cells, mut bytes) = (0u64, 0u64);
    for (load, run) in sim.workload.tables.iter().zip(&sim.tables) {
        let (c, b) = row_shape(load);
        let markers = load.families.len() as u64;
        for s in &run.samples {
            let (sc, sb) = match s.kind {
                Some(OpKind::Delete) => (markers, 0),
                k if is_write(k) => (c, b),
                _ => (0, 0),
            };
            cells = cells.saturating_add(sc);
            bytes = bytes.saturating_add(sb);
        }
    }
    let stride = cells
        .div_ceil(limits.cells.max(1))
        .max(bytes.div_ceil(limits.value_bytes.max(1)))
        .max(1);
    let mut tables = Vec::with_capacity(sim.tables.len());
    for (load, run) in sim.workload.tables.iter().zip(&sim.tables) {
        tables.push(sample_table(
            &mut engine,
            load,
            run,
            stride,
            sim.workload.start_ms,
        )?);
    }
    Ok(SampleEngine { engine, tables })
}

fn engine_error(table: &str, e: crate::engine::Error) -> SimulateError {
    SimulateError::invalid(
        format!("$.tables[?(@.name=='{table}')]"),
        format!("the sample engine refused it: {e}"),
    )
}

fn sample_table(
    engine: &mut Engine,
    load: &TableLoad,
    run: &TableRun,
    stride: u64,
    start_ms: u64,
) -> Result<SampledTable, SimulateError> {
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
    let ranges_at = &run.heat.ranges;
    let mut ranges = vec![(0u64, 0.0f64); ranges_at.len()];
    let mut rows_simulated = 0.0;
    let (mut rows_sampled, mut cells, mut updates, mut deletes) = (0u64, 0u64, 0u64, 0u64);

    // The writes in time order; each kept put stands for the rows of its group.
    let mut writes: Vec<&Sample> = run.samples.iter().filter(|s| is_write(s.kind)).collect();
    order::sort_by_key(&mut writes, |s| s.at_ms);
    let mut stands_for = Vec::with_capacity(writes.len());
    let (mut puts, mut group) = (0u64, None::<usize>);
    for (i, s) in writes.iter().enumerate() {
        stands_for.push(0.0);
        if !is_put(s.kind) {
            continue;
        }
        if puts % stride == 0 {
            group = Some(i);
        }
        puts += 1;
        rows_simulated += s.rows_made;
        if let Some(g) = group {
            stands_for[g] += s.rows_made;
        }
    }
    // The live sampled rows: where each is tallied and what it stands for.
    let mut live: BTreeMap<Vec<u8>, Kept> = BTreeMap::new();
    // Updates and deletes owed to the sample, in simulated rows: a kept row takes one when
    // what is owed reaches the rows it stands for.
    let (mut puts, mut others, mut owed) = (0u64, [0u64; 2], [0.0f64; 2]);
    for (s, stands_for) in writes.iter().zip(stands_for) {
        let ts = start_ms.saturating_add(s.at_ms).max(1);
        let row = s.key(&run.keys);
        let kind = usize::from(s.kind == Some(OpKind::Delete));
        let nth = if is_put(s.kind) {
            &mut puts
        } else {
            &mut others[kind]
        };
        let kept = *nth % stride == 0;
        *nth += 1;
        if !kept {
            continue;
        }
        if is_put(s.kind) {
            let mutations = puts_of(&columns, row, ts);
            engine
                .mutate(&load.name, row, &mutations)
                .map_err(|e| engine_error(&load.name, e))?;
            rows_sampled += 1;
            cells += mutations.len() as u64;
            let r = regions
                .partition_point(|(_, start, _, _)| start.as_slice() <= row)
                .saturating_sub(1);
            let k = ranges_at
                .partition_point(|range| range.start.as_slice() <= row)
                .saturating_sub(1);
            tally(&mut regions, &mut ranges, r, k, 1, stands_for);
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
                tally(
                    &mut regions,
                    &mut ranges,
                    b.region,
                    b.range,
                    -1,
                    -b.stands_for,
                );
            }
            continue;
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
            continue;
        };
        if owed[kind] < needs {
            continue;
        }
        owed[kind] -= needs;
        if s.kind == Some(OpKind::Update) {
            let mutations = puts_of(&columns, &target, ts);
            engine
                .mutate(&load.name, &target, &mutations)
                .map_err(|e| engine_error(&load.name, e))?;
            cells += mutations.len() as u64;
            updates += 1;
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
            cells += load.families.len() as u64;
            deletes += 1;
            if let Some(gone) = live.remove(&target) {
                tally(
                    &mut regions,
                    &mut ranges,
                    gone.region,
                    gone.range,
                    -1,
                    -gone.stands_for,
                );
            }
        }
    }
    Ok(SampledTable {
        name: load.name.clone(),
        rows_simulated,
        rows_sampled,
        cells,
        updates,
        deletes,
        stride,
        regions,
        ranges,
    })
}
