//! The simulation's own engine: a bounded, deterministic sample of the rows a simulation made,
//! as real rows in an [`Engine`] beside the person's tables, so gets, scans and the views work
//! on rows of the template's shape.
//!
//! Which rows: the rows the simulation's put samples wrote (one real key per sample, the
//! rows there before the start included), every `stride`-th of each table's in time order, the
//! stride the smallest that keeps the whole engine within [`SampleLimits`] (250,000 cells and
//! 64 MiB of values by default). Each kept row stands for the rows of the samples it was kept
//! for (its own and the `stride - 1` after it); [`SampledTable`] counts that per region of the
//! simulation's end and per key range of its heat model, and gives the ratio of rows
//! simulated to rows sampled. Values are filler of the template's sizes; timestamps are the
//! simulated times of the writes.
//!
//! Counted: the sampled rows, their cells and the rows each stands for. Estimated: everything
//! the sample stands for beyond itself. Updates and deletes are not replayed: the sample
//! holds each row as its put made it.

use super::run::{Simulation, TableRun};
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
    /// Rows written into the sample engine.
    pub rows_sampled: u64,
    /// Cells written into it.
    pub cells: u64,
    /// Put samples per kept row.
    pub stride: u64,
    /// Per region of the simulation's end (its timeline id, its start key): rows sampled and
    /// the rows they stand for.
    pub regions: Vec<(u32, Vec<u8>, u64, f64)>,
    /// Per key range of the heat model (in its order): rows sampled and the rows they stand
    /// for.
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
        let puts = run.samples.iter().filter(|s| is_put(s.kind)).count() as u64;
        let (c, b) = row_shape(load);
        cells = cells.saturating_add(puts.saturating_mul(c));
        bytes = bytes.saturating_add(puts.saturating_mul(b));
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
    SimulateError::Invalid {
        path: format!("$.tables[?(@.name=='{table}')]"),
        message: format!("the sample engine refused it: {e}"),
    }
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
    let (mut rows_sampled, mut cells) = (0u64, 0u64);
    let puts: Vec<_> = run.samples.iter().filter(|s| is_put(s.kind)).collect();
    for group in puts.chunks(stride as usize) {
        let stands_for: f64 = group.iter().map(|s| s.rows_made).sum();
        rows_simulated += stands_for;
        let Some(kept) = group.first() else { continue };
        let row = kept.key(&run.keys);
        let ts = start_ms.saturating_add(kept.at_ms).max(1);
        let mutations: Vec<Mutation> = columns
            .iter()
            .enumerate()
            .map(|(i, (family, qualifier, size))| Mutation::Put {
                family: family.clone(),
                qualifier: qualifier.clone(),
                timestamp: Some(ts),
                value: filler(row, i, *size),
                ttl_ms: None,
            })
            .collect();
        engine
            .mutate(&load.name, row, &mutations)
            .map_err(|e| engine_error(&load.name, e))?;
        rows_sampled += 1;
        cells += mutations.len() as u64;
        let r = regions
            .partition_point(|(_, start, _, _)| start.as_slice() <= row)
            .saturating_sub(1);
        if let Some(region) = regions.get_mut(r) {
            region.2 += 1;
            region.3 += stands_for;
        }
        let k = ranges_at
            .partition_point(|range| range.start.as_slice() <= row)
            .saturating_sub(1);
        if let Some(range) = ranges.get_mut(k) {
            range.0 += 1;
            range.1 += stands_for;
        }
    }
    Ok(SampledTable {
        name: load.name.clone(),
        rows_simulated,
        rows_sampled,
        cells,
        stride,
        regions,
        ranges,
    })
}
