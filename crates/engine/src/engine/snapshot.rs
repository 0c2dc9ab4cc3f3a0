//! The engine's state as the persistence layer saves it: a catalog (tables, families, regions,
//! which runs each store holds, the clocks) plus the runs and memstore cells themselves, and
//! the way back from them to a running engine.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::cell::Cell;
use super::keys::RunRows;
use super::stats::{Counters, RegionStats};
use super::store::{Run, Store};
use super::table::{Region, Table, TableDescriptor};
use super::Engine;

/// Version of the catalog layout: 2 since tables carry their [`super::Rules`] (a version-1
/// catalog reads with HBase's rules).
pub const CATALOG_VERSION: u32 = 2;

/// Everything but the cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub version: u32,
    pub last_ts: u64,
    pub seq: u64,
    pub tick: u64,
    pub next_id: u64,
    pub counters: Counters,
    pub tables: Vec<TableEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableEntry {
    pub descriptor: TableDescriptor,
    pub enabled: bool,
    pub regions: Vec<RegionEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegionEntry {
    pub id: u64,
    pub start: Vec<u8>,
    pub end: Vec<u8>,
    pub stats: RegionStats,
    /// Run ids per family (in the descriptor's family order), newest first.
    pub runs: Vec<Vec<u64>>,
}

impl Engine {
    /// The catalog of the current state.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn catalog(&self) -> Catalog {
        let tables = self
            .tables
            .values()
            .map(|t| TableEntry {
                descriptor: t.descriptor.clone(),
                enabled: t.enabled,
                regions: t
                    .regions
                    .iter()
                    .map(|r| RegionEntry {
                        id: r.id,
                        start: r.start.clone(),
                        end: r.end.clone(),
                        stats: r.stats.clone(),
                        runs: r
                            .stores
                            .iter()
                            .map(|s| s.runs.iter().map(|run| run.id).collect())
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        Catalog {
            version: CATALOG_VERSION,
            last_ts: self.last_ts,
            seq: self.seq,
            tick: self.tick,
            next_id: self.next_id,
            counters: self.counters,
            tables,
        }
    }

    /// Every run of every store.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn all_runs(&self) -> impl Iterator<Item = &Arc<Run>> {
        self.tables
            .values()
            .flat_map(|t| t.regions.iter())
            .flat_map(|r| r.stores.iter())
            .flat_map(|s| s.runs.iter())
    }

    /// The cells in memstores, per table.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn memstore_cells(&self) -> Vec<(String, Vec<Cell>)> {
        self.tables
            .values()
            .map(|t| {
                (
                    t.descriptor.name.clone(),
                    t.regions
                        .iter()
                        .flat_map(|r| r.stores.iter())
                        .flat_map(|s| s.memstore_cells().map(|c| c.to_cell(&s.family)))
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|(_, cells)| !cells.is_empty())
            .collect()
    }

    /// Rebuilds an engine from a catalog and the runs it names. Runs that are missing are
    /// reported, and their stores start without them.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn restore(
        clock: Box<dyn Fn() -> u64>,
        catalog: Catalog,
        runs: &HashMap<u64, Arc<Run>>,
    ) -> (Engine, Vec<String>) {
        Engine::restore_counted(clock, catalog, runs, RunRows::new())
    }

    /// [`Engine::restore`], each table's key index built from the rows `counted` holds for
    /// its runs (counted when they were stored) and from the cells of the others.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn restore_counted(
        clock: Box<dyn Fn() -> u64>,
        catalog: Catalog,
        runs: &HashMap<u64, Arc<Run>>,
        mut counted: RunRows,
    ) -> (Engine, Vec<String>) {
        let mut problems = Vec::new();
        let mut engine = Engine::new(clock);
        engine.last_ts = catalog.last_ts;
        engine.seq = catalog.seq;
        engine.tick = catalog.tick;
        engine.next_id = catalog.next_id;
        engine.counters = catalog.counters;
        for entry in catalog.tables {
            let name = entry.descriptor.name.clone();
            let mut regions = Vec::with_capacity(entry.regions.len());
            for r in entry.regions {
                let mut region = Region::new(r.id, r.start, r.end, &entry.descriptor.families);
                region.stats = r.stats;
                for (store, ids) in region.stores.iter_mut().zip(r.runs) {
                    for id in ids {
                        match runs.get(&id) {
                            Some(run) => store.runs.push(run.clone()),
                            None => problems.push(format!("table {name}: sorted run {id} of region {} is missing; its cells are lost", r.id)),
                        }
                    }
                }
                regions.push(region);
            }
            let mut table = Table {
                descriptor: entry.descriptor,
                enabled: entry.enabled,
                regions,
                keys: Default::default(),
                // Past every id the catalog's tables handed out before it was saved.
                seq: catalog.seq,
            };
            table.rebuild_keys_counted(&mut counted);
            engine.tables.insert(name, table);
        }
        (engine, problems)
    }

    /// The clocks a saved record carries: the last server timestamp and sequence number.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn clocks(&self) -> (u64, u64) {
        (self.last_ts, self.seq)
    }

    /// Moves the clocks forward to at least what a saved record carried.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn raise_clocks(&mut self, last_ts: u64, seq: u64) {
        self.last_ts = self.last_ts.max(last_ts);
        self.seq = self.seq.max(seq);
        for t in self.tables.values_mut() {
            t.seq = t.seq.max(seq);
        }
    }

    /// Puts logged cells back into the memstores, keeping their timestamps and sequence
    /// numbers (recovery replays the write-ahead log this way). Cells of unknown tables or
    /// families are skipped and counted.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn replay(&mut self, table: &str, cells: Vec<Cell>) -> usize {
        let mut skipped = 0;
        let Some(t) = self.tables.get_mut(table) else {
            return cells.len();
        };
        for cell in cells {
            self.seq = self.seq.max(cell.seq);
            t.seq = t.seq.max(cell.seq);
            let idx = t.region_index(&cell.row);
            let store: Option<&mut Store> = t
                .regions
                .get_mut(idx)
                .and_then(|r| r.stores.iter_mut().find(|s| s.family == cell.family));
            match store {
                Some(s) => {
                    t.keys.add(&cell.row, 1, cell.size() as u64);
                    s.insert(cell.as_ref());
                }
                None => skipped += 1,
            }
        }
        skipped
    }
}
