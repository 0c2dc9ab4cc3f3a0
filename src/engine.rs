//! The wide-column engine: HBase 2.x semantics over an in-memory LSM structure, synchronous and
//! free of I/O. Tables split into regions by key range; each region keeps one store per family;
//! a store takes writes in a memstore, flushes them to immutable sorted runs and compacts runs.
//! Reads merge memstore and runs, resolve versions and delete markers, apply row bounds and
//! filters, and report what they touched.
//!
//! The engine never waits on storage: it records what changed ([`Changes`]) and the host saves
//! that afterwards.

mod activity;
mod block;
mod cell;
mod constants;
mod error;
mod family;
mod filter;
mod keys;
mod lsm;
mod policy;
mod resolve;
mod rules;
mod scan;
mod snapshot;
mod stack;
mod stats;
mod store;
mod table;

pub use activity::{
    key_bucket, place_of, Activity, Grid, LastRead, Op, OpKind, SplitMark, KEY_BUCKETS, OPS_KEPT,
    TIME_BUCKETS,
};
pub use block::{
    BlockCursor, BlockFile, BloomType, CellRef, Encoding, FileCursor, FileOptions, FileWriter,
    FormatError, Header, ReadCounts, DEFAULT_BLOCKSIZE, FORMAT_VERSION, HBASE_BLOCKSIZE,
};
pub use cell::{Cell, CellKind};
pub use constants::KEYVALUE_FRAMING;
pub use error::{Error, Result};
pub use family::{FamilyDescriptor, KeepDeletedCells};
pub use filter::{
    first_on_column, first_on_column_at, last_on_column, CompareOp, Filter, FilterClone, ReturnCode,
};
pub use keys::{KeyEntry, KeyIndex, Position};
pub use lsm::{Dropped, EventLog, LsmEvent, LsmEventKind, Part, RunSummary, EVENTS_KEPT};
pub use policy::CompactionPolicy;
pub use resolve::{fates, Fate, Marker, Pass};
pub use rules::{DeleteMasking, Retention, Rules, TimestampUnit};
pub use scan::{Examined, RegionRead, Row, Scan, ScanOutput};
pub use snapshot::{Catalog, RegionEntry, TableEntry, CATALOG_VERSION};
pub use stack::{RowBefore, RowStack, StackCell};
pub use stats::{Counters, Metric, OpStats, RegionStats};
pub use store::{Decoded, Rewrite, Run, RunPlacement, Store};
pub use table::{
    create_benchmark_table, split_keys, Region, Table, TableDescriptor, TableSettings,
};

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Longest row key HBase accepts.
pub const MAX_ROW_LENGTH: usize = i16::MAX as usize;

/// One change to a row, as a client sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// Write a value; `timestamp: None` takes the server's time.
    Put {
        family: Vec<u8>,
        qualifier: Vec<u8>,
        timestamp: Option<u64>,
        value: Vec<u8>,
        ttl_ms: Option<u64>,
    },
    /// With a qualifier: `all_versions` writes a DeleteColumn, otherwise a Delete of one version
    /// (the newest when no timestamp is given). Without one: a DeleteFamily, or with
    /// `all_versions == false` a DeleteFamilyVersion.
    Delete {
        family: Vec<u8>,
        qualifier: Option<Vec<u8>>,
        timestamp: Option<u64>,
        all_versions: bool,
    },
    /// Delete every family of the row (a DeleteFamily marker in each).
    DeleteRow { timestamp: Option<u64> },
}

/// The condition of a check-and-mutate.
#[derive(Clone, Debug)]
pub enum Condition {
    /// The column has no visible value.
    NotExists,
    /// HBase's comparison: `op` is applied as `expected OP actual`.
    Compare(CompareOp, Vec<u8>),
}

/// What changed since the host last saved.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// Tables, families, regions or settings changed.
    pub catalog: bool,
    /// Cells written to memstores, in write order, per table.
    pub wal: Vec<(String, Vec<Cell>)>,
    /// Regions whose runs were replaced (flush, compaction, split), by table and region id.
    pub rewritten: BTreeSet<(String, u64)>,
}

/// The engine: tables by name, the server clock, and the counters.
pub struct Engine {
    tables: BTreeMap<String, Table>,
    clock: Box<dyn Fn() -> u64>,
    /// The newest server timestamp handed out; saved with the clocks (nothing ratchets on it).
    last_ts: u64,
    seq: u64,
    tick: u64,
    next_id: u64,
    counters: Counters,
    changes: Changes,
    /// Whether written cells are kept in `changes.wal` for a host that persists them.
    recording: bool,
    /// The recent flushes, compactions and splits, per table.
    events: BTreeMap<String, EventLog>,
    event_serial: u64,
    /// Where each table's reads and writes went, over time.
    activity: BTreeMap<String, Activity>,
    /// The row whose stack is kept from before each flush and major compaction.
    watched: Option<(String, Vec<u8>)>,
    before: Option<RowBefore>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("tables", &self.tables.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Engine {
    /// An empty engine reading the time (epoch milliseconds) from `clock`.
    pub fn new(clock: Box<dyn Fn() -> u64>) -> Engine {
        Engine {
            tables: BTreeMap::new(),
            clock,
            last_ts: 0,
            seq: 0,
            tick: 0,
            next_id: 1,
            counters: Counters::default(),
            changes: Changes::default(),
            recording: false,
            events: BTreeMap::new(),
            event_serial: 0,
            activity: BTreeMap::new(),
            watched: None,
            before: None,
        }
    }

    /// The current time as the clock tells it.
    pub fn now(&self) -> u64 {
        (self.clock)()
    }

    /// A server timestamp: the clock's time, as HBase stamps a mutation (`HRegion`'s batch
    /// takes `EnvironmentEdgeManager.currentTime()` once for all its cells). Writes within one
    /// millisecond share it, and their sequence numbers order them: of two puts of a column in
    /// the same millisecond the later one is read, and a delete marker hides a put stamped in
    /// the same millisecond after it (see `Cell`'s order and the delete tracker).
    fn next_timestamp(&mut self) -> u64 {
        let ts = self.now();
        self.last_ts = self.last_ts.max(ts);
        ts
    }

    /// Waits, reading the clock at most `reads` times, until it has passed the newest server
    /// timestamp, so that the next write is stamped in a millisecond of its own; says whether
    /// it got there. A scripted demonstration runs faster than a person types: two puts of one
    /// cell in one millisecond share a timestamp, and the later replaces the earlier instead of
    /// adding a version, as in HBase.
    pub fn wait_for_next_millisecond(&self, reads: u32) -> bool {
        (0..reads).any(|_| self.now() > self.last_ts)
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The logical clock of the statistics: one tick per operation.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Keeps written cells in [`Changes::wal`] from now on, for a host that saves them.
    pub fn record_changes(&mut self, on: bool) {
        self.recording = on;
    }

    /// Hands over and clears the record of what changed.
    pub fn take_changes(&mut self) -> Changes {
        std::mem::take(&mut self.changes)
    }

    pub fn table(&self, name: &str) -> Result<&Table> {
        self.tables
            .get(name)
            .ok_or_else(|| Error::TableNotFound(name.to_string()))
    }

    fn table_mut(&mut self, name: &str) -> Result<&mut Table> {
        self.tables
            .get_mut(name)
            .ok_or_else(|| Error::TableNotFound(name.to_string()))
    }

    fn enabled_table(&self, name: &str) -> Result<&Table> {
        let t = self.table(name)?;
        if !t.enabled {
            return Err(Error::TableNotEnabled(name.to_string()));
        }
        Ok(t)
    }

    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    pub fn exists(&self, name: &str) -> bool {
        self.tables.contains_key(name)
    }

    // ---- admin -------------------------------------------------------------------------

    /// Creates a table, pre-split at `splits` (sorted and deduplicated here).
    pub fn create_table(&mut self, mut desc: TableDescriptor, splits: Vec<Vec<u8>>) -> Result<()> {
        validate_table_name(&desc.name)?;
        if self.tables.contains_key(&desc.name) {
            return Err(Error::TableExists(desc.name));
        }
        // HBase needs a family; a Bigtable table may start with none.
        if desc.families.is_empty() && desc.rules == Rules::HBASE {
            return Err(Error::NoFamilies);
        }
        for f in &desc.families {
            validate_family(f)?;
        }
        desc.families.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(w) = desc
            .families
            .windows(2)
            .find(|w| w.first().map(|f| &f.name) == w.get(1).map(|f| &f.name))
        {
            let name = w.first().map(|f| f.name.clone()).unwrap_or_default();
            return Err(Error::DuplicateFamily(name));
        }
        let splits: BTreeSet<Vec<u8>> = splits.into_iter().collect();
        if splits.contains(&Vec::new()) {
            return Err(Error::IllegalArgument("Split row cannot be empty".into()));
        }
        let mut bounds: Vec<Vec<u8>> = vec![Vec::new()];
        bounds.extend(splits);
        let mut regions = Vec::with_capacity(bounds.len());
        for (i, start) in bounds.iter().enumerate() {
            let end = bounds.get(i + 1).cloned().unwrap_or_default();
            let id = self.next_id();
            regions.push(Region::new(id, start.clone(), end, &desc.families));
        }
        self.events.remove(&desc.name);
        self.activity.remove(&desc.name);
        self.tables.insert(
            desc.name.clone(),
            Table {
                descriptor: desc,
                enabled: true,
                regions,
                keys: KeyIndex::new(),
            },
        );
        self.changes.catalog = true;
        Ok(())
    }

    pub fn disable(&mut self, name: &str) -> Result<()> {
        let t = self.table_mut(name)?;
        if !t.enabled {
            return Err(Error::IllegalArgument(format!("Table {name} is disabled!")));
        }
        t.enabled = false;
        self.changes.catalog = true;
        Ok(())
    }

    pub fn enable(&mut self, name: &str) -> Result<()> {
        let t = self.table_mut(name)?;
        if t.enabled {
            return Err(Error::IllegalArgument(format!("Table {name} is enabled!")));
        }
        t.enabled = true;
        self.changes.catalog = true;
        Ok(())
    }

    pub fn drop_table(&mut self, name: &str) -> Result<()> {
        if self.table(name)?.enabled {
            return Err(Error::TableNotDisabled(name.to_string()));
        }
        self.tables.remove(name);
        self.events.remove(name);
        self.activity.remove(name);
        self.changes.catalog = true;
        Ok(())
    }

    /// Empties a table; with `preserve_splits` it keeps its region boundaries.
    pub fn truncate(&mut self, name: &str, preserve_splits: bool) -> Result<()> {
        let t = self.table(name)?;
        let desc = t.descriptor.clone();
        let splits = if preserve_splits {
            t.regions.iter().skip(1).map(|r| r.start.clone()).collect()
        } else {
            Vec::new()
        };
        self.tables.remove(name);
        self.create_table(desc, splits)
    }

    /// Adds a family, or replaces the settings of an existing one.
    pub fn alter_family(&mut self, table: &str, family: FamilyDescriptor) -> Result<()> {
        validate_family(&family)?;
        let t = self.table_mut(table)?;
        match t.descriptor.family_index(family.name.as_bytes()) {
            Some(i) => {
                if let Some(slot) = t.descriptor.families.get_mut(i) {
                    *slot = family;
                }
            }
            None => {
                let at = t
                    .descriptor
                    .families
                    .partition_point(|f| f.name < family.name);
                for region in &mut t.regions {
                    region.stores.insert(at, Store::new(&family.name));
                }
                t.descriptor.families.insert(at, family);
            }
        }
        self.changes.catalog = true;
        Ok(())
    }

    /// Removes a family and all its data.
    pub fn delete_family(&mut self, table: &str, family: &str) -> Result<()> {
        let t = self.table_mut(table)?;
        let Some(i) = t.descriptor.family_index(family.as_bytes()) else {
            return Err(Error::IllegalArgument(format!(
                "Family '{family}' does not exist, so it cannot be deleted"
            )));
        };
        if t.descriptor.families.len() == 1 && t.descriptor.rules == Rules::HBASE {
            return Err(Error::IllegalArgument(
                "Family '".to_string()
                    + family
                    + "' is the only column family in the table, so it cannot be deleted",
            ));
        }
        t.descriptor.families.remove(i);
        for region in &mut t.regions {
            if i < region.stores.len() {
                region.stores.remove(i);
            }
        }
        t.rebuild_keys();
        self.changes.catalog = true;
        Ok(())
    }

    pub fn set_settings(&mut self, table: &str, settings: TableSettings) -> Result<()> {
        self.table_mut(table)?.descriptor.settings = settings;
        self.changes.catalog = true;
        Ok(())
    }

    /// Replaces a table's thresholds and attributes (what `alter` of table options does).
    pub fn set_table_attributes(
        &mut self,
        table: &str,
        settings: TableSettings,
        attributes: BTreeMap<String, String>,
    ) -> Result<()> {
        let d = &mut self.table_mut(table)?.descriptor;
        d.settings = settings;
        d.attributes = attributes;
        self.changes.catalog = true;
        Ok(())
    }

    /// The start keys of every region but the first.
    pub fn splits(&self, table: &str) -> Result<Vec<Vec<u8>>> {
        Ok(self
            .table(table)?
            .regions
            .iter()
            .skip(1)
            .map(|r| r.start.clone())
            .collect())
    }

    // ---- writes ------------------------------------------------------------------------

    /// Applies mutations to one row atomically: all are validated before any is applied.
    pub fn mutate(&mut self, table: &str, row: &[u8], mutations: &[Mutation]) -> Result<OpStats> {
        let cells = self.prepare(table, row, mutations)?;
        Ok(self.apply(table, row, cells))
    }

    /// Turns mutations into cells with their timestamps resolved, or says why they cannot apply.
    fn prepare(&mut self, table: &str, row: &[u8], mutations: &[Mutation]) -> Result<Vec<Cell>> {
        let t = self.enabled_table(table)?;
        if t.descriptor.read_only() {
            return Err(Error::ReadOnly);
        }
        validate_row(row)?;
        let region = t.regions.get(t.region_index(row));
        // Family names are shared with the region's stores: no allocation per cell.
        let family_of = |name: &[u8]| -> Result<Arc<[u8]>> {
            let store = t
                .descriptor
                .family_index(name)
                .and_then(|i| region.and_then(|r| r.stores.get(i)));
            match store {
                Some(s) => Ok(s.family.clone()),
                None => Err(Error::NoSuchColumnFamily {
                    family: crate::bytes::to_printable(name),
                    table: table.to_string(),
                    region: region.map(|r| r.name(table)).unwrap_or_default(),
                }),
            }
        };
        // Resolve everything that reads before anything is written.
        let mut planned: Vec<(Arc<[u8]>, Vec<u8>, Option<u64>, CellKind, Vec<u8>, u64)> =
            Vec::new();
        let families: Vec<Arc<[u8]>> = region
            .map(|r| r.stores.iter().map(|s| s.family.clone()).collect())
            .unwrap_or_default();
        for m in mutations {
            match m {
                Mutation::Put {
                    family,
                    qualifier,
                    timestamp,
                    value,
                    ttl_ms,
                } => {
                    check_timestamp(*timestamp)?;
                    planned.push((
                        family_of(family)?,
                        qualifier.clone(),
                        *timestamp,
                        CellKind::Put,
                        value.clone(),
                        ttl_ms.unwrap_or(0),
                    ));
                }
                Mutation::Delete {
                    family,
                    qualifier: Some(q),
                    timestamp,
                    all_versions,
                } => {
                    check_timestamp(*timestamp)?;
                    let fam = family_of(family)?;
                    if *all_versions {
                        planned.push((
                            fam,
                            q.clone(),
                            *timestamp,
                            CellKind::DeleteColumn,
                            Vec::new(),
                            0,
                        ));
                    } else {
                        // Without a timestamp a version delete targets the newest visible version.
                        let ts = match timestamp {
                            Some(ts) => Some(*ts),
                            None => self.latest_timestamp(table, row, family, q)?,
                        };
                        planned.push((fam, q.clone(), ts, CellKind::Delete, Vec::new(), 0));
                    }
                }
                Mutation::Delete {
                    family,
                    qualifier: None,
                    timestamp,
                    all_versions,
                } => {
                    check_timestamp(*timestamp)?;
                    let kind = if *all_versions {
                        CellKind::DeleteFamily
                    } else {
                        CellKind::DeleteFamilyVersion
                    };
                    planned.push((
                        family_of(family)?,
                        Vec::new(),
                        *timestamp,
                        kind,
                        Vec::new(),
                        0,
                    ));
                }
                Mutation::DeleteRow { timestamp } => {
                    check_timestamp(*timestamp)?;
                    for fam in &families {
                        planned.push((
                            fam.clone(),
                            Vec::new(),
                            *timestamp,
                            CellKind::DeleteFamily,
                            Vec::new(),
                            0,
                        ));
                    }
                }
            }
        }
        let unit = t.descriptor.rules.timestamps;
        let no_markers = !t.descriptor.rules.masks_deletes();
        let server_ts = if planned.iter().any(|p| p.2.is_none()) {
            unit.from_millis(self.next_timestamp())
        } else {
            0
        };
        // Without delete markers, a delete takes away every cell its scope holds when it is
        // written: it carries the highest timestamp, so it sorts before all of them, and masks
        // by sequence (`resolve::DeleteTracker`), so a later write of an older timestamp is
        // visible at once (Bigtable: https://cloud.google.com/bigtable/docs/delete-data).
        let mut cells = Vec::with_capacity(planned.len());
        for (family, qualifier, mut ts, kind, value, ttl_ms) in planned {
            if no_markers && kind.is_delete() {
                ts = Some(i64::MAX as u64);
            }
            let seq = self.next_seq();
            cells.push(Cell {
                row: row.to_vec(),
                family,
                qualifier,
                timestamp: ts.unwrap_or(server_ts),
                kind,
                seq,
                ttl_ms,
                value,
            });
        }
        Ok(cells)
    }

    /// Writes prepared cells of one row into its region and runs the region's upkeep.
    fn apply(&mut self, table: &str, row: &[u8], cells: Vec<Cell>) -> OpStats {
        self.tick += 1;
        let bytes: usize = cells.iter().map(Cell::size).sum();
        let count = cells.len();
        let Some(t) = self.tables.get_mut(table) else {
            return OpStats::default();
        };
        let idx = t.region_index(row);
        t.keys.add(row, count as u32, bytes as u64);
        let Some(region) = t.regions.get_mut(idx) else {
            return OpStats::default();
        };
        let mut wal = Vec::new();
        for cell in cells {
            if self.recording {
                wal.push(cell.clone());
            }
            if let Some(store) = region.stores.iter_mut().find(|s| s.family == cell.family) {
                store.insert(cell);
            }
        }
        region.stats.record(0, count as u32, 0, bytes as u64);
        let stats = OpStats {
            regions: vec![region.id],
            memstores_touched: 1,
            cells_written: count as u64,
            bytes_written: bytes as u64,
            ..OpStats::default()
        };
        self.counters.mutations += 1;
        self.counters.cells_written += count as u64;
        self.counters.logical_bytes += bytes as u64;
        if self.recording {
            self.changes.wal.push((table.to_string(), wal));
        }
        if let Some(&region) = stats.regions.first() {
            self.note_write(table, row, region);
        }
        self.upkeep(table, idx);
        stats
    }

    /// HBase's background work for one region, done at once: flush a full memstore, compact a
    /// store with too many runs, split a region grown past the threshold.
    fn upkeep(&mut self, table: &str, idx: usize) {
        let Some(t) = self.tables.get(table) else {
            return;
        };
        let settings = t.descriptor.settings;
        let t_split_enabled = t.descriptor.split_enabled();
        let Some(region) = t.regions.get(idx) else {
            return;
        };
        if (region.memstore_bytes() as u64) < settings.flush_bytes {
            return;
        }
        let families = flush_policy(region, settings.flush_bytes);
        self.keep_before(table, Some(idx), LsmEventKind::Flush);
        self.flush_region(table, idx, &families);
        // A store with enough runs asks for a minor compaction; the exploring policy picks
        // which of its runs to merge (`ExploringCompactionPolicy`), possibly none.
        let policy = CompactionPolicy::new(settings.compaction_threshold, settings.flush_bytes);
        let needs_compaction: Vec<(usize, std::ops::Range<usize>)> =
            match self.tables.get(table).and_then(|t| t.regions.get(idx)) {
                Some(r) => r
                    .stores
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.runs.len() as u64 >= settings.compaction_threshold)
                    .filter_map(|(i, s)| {
                        let oldest_first: Vec<u64> =
                            s.runs.iter().rev().map(|r| r.bytes as u64).collect();
                        let pick = policy.select(&oldest_first)?;
                        // Back to the store's newest-first positions.
                        let n = s.runs.len();
                        Some((i, n - pick.end..n - pick.start))
                    })
                    .collect(),
                None => return,
            };
        for (fi, pick) in needs_compaction {
            self.compact_runs(table, idx, fi, pick);
        }
        let split_at = match self.tables.get(table).and_then(|t| t.regions.get(idx)) {
            Some(r)
                if settings.split_bytes > 0
                    && r.bytes() as u64 > settings.split_bytes
                    && t_split_enabled =>
            {
                r.mid_key()
            }
            _ => None,
        };
        if let Some(mid) = split_at {
            self.split_region(table, idx, &mid);
        }
    }

    /// The timestamp of the newest visible version of a column.
    fn latest_timestamp(
        &self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
    ) -> Result<Option<u64>> {
        let mut scan = Scan::get(row);
        scan.columns = vec![(family.to_vec(), Some(qualifier.to_vec()))];
        let out = self.read(table, &mut scan)?;
        Ok(out
            .rows
            .first()
            .and_then(|r| r.cells.first())
            .map(|c| c.timestamp))
    }

    /// The newest visible value of a column, with its timestamp.
    fn latest_value(
        &self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
    ) -> Result<Option<(u64, Vec<u8>)>> {
        let mut scan = Scan::get(row);
        scan.columns = vec![(family.to_vec(), Some(qualifier.to_vec()))];
        let out = self.read(table, &mut scan)?;
        Ok(out
            .rows
            .into_iter()
            .next()
            .and_then(|r| r.cells.into_iter().next())
            .map(|c| (c.timestamp, c.value)))
    }

    /// Adds `amount` to an 8-byte big-endian counter (absent counts as 0) and returns the sum.
    pub fn increment(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        amount: i64,
    ) -> Result<i64> {
        let current = self.latest_value(table, row, family, qualifier)?;
        let (old_ts, old) = match &current {
            Some((ts, v)) => {
                let bytes: [u8; 8] = v
                    .as_slice()
                    .try_into()
                    .map_err(|_| Error::NotALong(v.len()))?;
                (Some(*ts), i64::from_be_bytes(bytes))
            }
            None => (None, 0),
        };
        let sum = old.wrapping_add(amount);
        self.write_derived(
            table,
            row,
            family,
            qualifier,
            old_ts,
            sum.to_be_bytes().to_vec(),
        )?;
        Ok(sum)
    }

    /// Appends `suffix` to a column's value and returns the new value.
    pub fn append(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        suffix: &[u8],
    ) -> Result<Vec<u8>> {
        let current = self.latest_value(table, row, family, qualifier)?;
        let old_ts = current.as_ref().map(|c| c.0);
        let mut value = current.map(|c| c.1).unwrap_or_default();
        value.extend_from_slice(suffix);
        self.write_derived(table, row, family, qualifier, old_ts, value.clone())?;
        Ok(value)
    }

    /// Writes the result of a read-modify-write at a timestamp newer than the value it read.
    fn write_derived(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        old_ts: Option<u64>,
        value: Vec<u8>,
    ) -> Result<()> {
        // HRegion.reckonDelta: `max(current timestamp + 1, now)`. A future-dated cell lifts
        // this one write only; later server timestamps still come from the clock.
        let unit = self.table(table)?.descriptor.rules.timestamps;
        let mut ts = unit.from_millis(self.next_timestamp());
        if let Some(old) = old_ts {
            if old >= ts {
                ts = old + 1;
            }
        }
        let put = Mutation::Put {
            family: family.to_vec(),
            qualifier: qualifier.to_vec(),
            timestamp: Some(ts),
            value,
            ttl_ms: None,
        };
        self.mutate(table, row, &[put]).map(|_| ())
    }

    /// Applies `mutations` to the row if the condition on one column holds; says whether it did.
    pub fn check_and_mutate(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        condition: &Condition,
        mutations: &[Mutation],
    ) -> Result<bool> {
        self.enabled_table(table)?;
        validate_row(row)?;
        let current = self.latest_value(table, row, family, qualifier)?;
        let matches = match (condition, &current) {
            (Condition::NotExists, None) => true,
            (Condition::NotExists, Some(_)) => false,
            (Condition::Compare(_, _), None) => false,
            (Condition::Compare(op, expected), Some((_, actual))) => {
                // HBase's BinaryComparator: the expected bytes compared with the actual ones.
                op.matches(expected.as_slice().cmp(actual.as_slice()))
            }
        };
        if matches {
            self.mutate(table, row, mutations)?;
        }
        Ok(matches)
    }

    // ---- reads -------------------------------------------------------------------------

    /// Runs a get or scan and records it in the regions' statistics.
    pub fn scan(&mut self, table: &str, scan: &mut Scan) -> Result<ScanOutput> {
        let out = self.read(table, scan)?;
        self.tick += 1;
        if let Some(t) = self.tables.get_mut(table) {
            for read in &out.per_region {
                if let Some(r) = t.regions.iter_mut().find(|r| r.id == read.region) {
                    r.stats
                        .record(read.rows_examined.max(1) as u32, 0, read.bytes_read, 0);
                }
            }
        }
        self.note_read(table, scan, &out);
        Ok(out)
    }

    /// A read that leaves the statistics alone (for read-modify-write and the views).
    pub fn read(&self, table: &str, scan: &mut Scan) -> Result<ScanOutput> {
        let t = self.enabled_table(table)?;
        scan::run(t, scan, self.now())
    }

    // ---- structure ---------------------------------------------------------------------

    /// Flushes every memstore of the table (the shell's `flush` flushes every family).
    pub fn flush(&mut self, table: &str) -> Result<()> {
        let n = self.table(table)?.regions.len();
        self.keep_before(table, None, LsmEventKind::Flush);
        for idx in 0..n {
            self.flush_region(table, idx, &[]);
        }
        Ok(())
    }

    /// Flushes one family's memstore in every region (the shell's `flush 't', 'f'`).
    pub fn flush_family(&mut self, table: &str, family: &[u8]) -> Result<()> {
        let t = self.table(table)?;
        let Some(fi) = t.descriptor.family_index(family) else {
            return Err(Error::NoSuchColumnFamily {
                family: crate::bytes::to_printable(family),
                table: table.to_string(),
                region: t.regions.first().map(|r| r.name(table)).unwrap_or_default(),
            });
        };
        let n = t.regions.len();
        self.keep_before(table, None, LsmEventKind::Flush);
        for idx in 0..n {
            self.flush_region(table, idx, &[fi]);
        }
        Ok(())
    }

    /// Flushes the stores of one region at the given family indexes, or all when empty; each
    /// store flushed is one event.
    fn flush_region(&mut self, table: &str, idx: usize, families: &[usize]) {
        let now = self.now();
        let tick = self.tick;
        let next_id = &mut self.next_id;
        let Some(t) = self.tables.get_mut(table) else {
            return;
        };
        let Some(region) = t.regions.get_mut(idx) else {
            return;
        };
        if region.memstore_bytes() == 0 {
            return;
        }
        let rules = t.descriptor.rules;
        let mut written = 0;
        let mut events = Vec::new();
        // Whether the flush dropped cells (versions, TTL), which changes the rows' counts.
        let mut dropped = false;
        for (fi, (store, family)) in region
            .stores
            .iter_mut()
            .zip(&t.descriptor.families)
            .enumerate()
        {
            if !families.is_empty() && !families.contains(&fi) {
                continue;
            }
            if store.memstore.is_empty() {
                continue;
            }
            *next_id += 1;
            let place = (
                t.descriptor.name.as_str(),
                &region.start[..],
                &region.end[..],
            );
            if let Some(rw) = store.flush(family, rules, *next_id, now, region.id, place) {
                dropped |= rw.dropped.total() > 0;
                written += rw.bytes;
                events.push((LsmEventKind::Flush, Some(family.name.clone()), rw));
            }
        }
        if dropped {
            t.keys
                .replace_range(&region.start, &region.end, region.rows());
        }
        let region_id = region.id;
        self.counters.flushes += 1;
        self.counters.flush_bytes += written as u64;
        self.changes
            .rewritten
            .insert((table.to_string(), region_id));
        for (kind, family, rw) in events {
            self.log_event(table, tick, kind, region_id, family, rw, Vec::new());
        }
    }

    /// Appends an event to the table's history.
    #[allow(clippy::too_many_arguments)]
    fn log_event(
        &mut self,
        table: &str,
        tick: u64,
        kind: LsmEventKind,
        region: u64,
        family: Option<String>,
        rw: Rewrite,
        daughters: Vec<(u64, Vec<u8>, Vec<u8>)>,
    ) {
        self.event_serial += 1;
        let event = LsmEvent {
            serial: self.event_serial,
            tick,
            kind,
            region,
            family,
            inputs: rw.inputs,
            outputs: rw.outputs,
            dropped: rw.dropped,
            daughters,
        };
        self.events
            .entry(table.to_string())
            .or_default()
            .push(event);
    }

    /// The table's recent flushes, compactions and splits (empty for an unknown table).
    pub fn lsm_events(&self, table: &str) -> Option<&EventLog> {
        self.events.get(table)
    }

    /// Compacts every store of the table: minor merges runs keeping markers; major also drops
    /// markers and the cells they mask.
    pub fn compact(&mut self, table: &str, major: bool) -> Result<()> {
        let t = self.table(table)?;
        let shape: Vec<usize> = t.regions.iter().map(|r| r.stores.len()).collect();
        if major {
            self.keep_before(table, None, LsmEventKind::MajorCompaction);
        }
        for (idx, stores) in shape.into_iter().enumerate() {
            for fi in 0..stores {
                self.compact_store(table, idx, fi, major);
            }
        }
        Ok(())
    }

    /// A compaction asked for by a client (`Admin.compact` / `Admin.majorCompact`, the shell's
    /// `compact` and `major_compact`), of every store of the table or of one family's.
    ///
    /// A major one merges all of a store's runs (`forceMajor`). A minor one lets the store's
    /// compaction policy choose, as HBase's `HStore.requestCompaction` does: the exploring
    /// policy ([`CompactionPolicy::select`], `ExploringCompactionPolicy`) picks the window of
    /// runs to merge, and a store where no window qualifies (fewer runs than the compaction
    /// threshold, or none in ratio) is left as it is. Returns how many stores compacted.
    pub fn compact_requested(
        &mut self,
        table: &str,
        family: Option<&[u8]>,
        major: bool,
    ) -> Result<usize> {
        let t = self.table(table)?;
        let families: Vec<usize> = match family {
            None => (0..t.descriptor.families.len()).collect(),
            Some(f) => match t.descriptor.family_index(f) {
                Some(fi) => vec![fi],
                None => {
                    return Err(Error::NoSuchColumnFamily {
                        family: crate::bytes::to_printable(f),
                        table: table.to_string(),
                        region: t.regions.first().map(|r| r.name(table)).unwrap_or_default(),
                    })
                }
            },
        };
        let settings = t.descriptor.settings;
        let policy = CompactionPolicy::new(settings.compaction_threshold, settings.flush_bytes);
        // Per region and family: the runs to merge (newest-first positions), or all of them.
        let mut picks: Vec<(usize, usize, std::ops::Range<usize>)> = Vec::new();
        for (idx, region) in t.regions.iter().enumerate() {
            for &fi in &families {
                let Some(store) = region.stores.get(fi) else {
                    continue;
                };
                let n = store.runs.len();
                if major {
                    picks.push((idx, fi, 0..n));
                    continue;
                }
                let oldest_first: Vec<u64> =
                    store.runs.iter().rev().map(|r| r.bytes as u64).collect();
                if let Some(pick) = policy.select(&oldest_first) {
                    picks.push((idx, fi, n - pick.end..n - pick.start));
                }
            }
        }
        let kind = if major {
            LsmEventKind::MajorCompaction
        } else {
            LsmEventKind::MinorCompaction
        };
        if !picks.is_empty() {
            self.keep_before(table, None, kind);
        }
        let compacted = picks.len();
        for (idx, fi, pick) in picks {
            if major {
                self.compact_store(table, idx, fi, true);
            } else {
                self.compact_runs(table, idx, fi, pick);
            }
        }
        Ok(compacted)
    }

    /// A minor compaction of the runs at `pick` (newest-first positions) of one store: the
    /// others are set aside while the store compacts, and go back around the merged run.
    fn compact_runs(&mut self, table: &str, idx: usize, fi: usize, pick: std::ops::Range<usize>) {
        fn store<'e>(
            e: &'e mut Engine,
            table: &str,
            idx: usize,
            fi: usize,
        ) -> Option<&'e mut Store> {
            e.tables
                .get_mut(table)
                .and_then(|t| t.regions.get_mut(idx))
                .and_then(|r| r.stores.get_mut(fi))
        }
        let Some(s) = store(self, table, idx, fi) else {
            return;
        };
        if pick.end > s.runs.len() || pick.start >= pick.end {
            return;
        }
        let mut older = s.runs.split_off(pick.end);
        let newer: Vec<_> = s.runs.drain(..pick.start).collect();
        self.compact_store(table, idx, fi, false);
        if let Some(s) = store(self, table, idx, fi) {
            let mut runs = newer;
            runs.append(&mut s.runs);
            runs.append(&mut older);
            s.runs = runs;
        }
        // The key index was refreshed from the picked runs alone: refresh it from them all.
        if let Some(t) = self.tables.get_mut(table) {
            if let Some(r) = t.regions.get(idx) {
                t.keys.replace_range(&r.start, &r.end, r.rows());
            }
        }
    }

    fn compact_store(&mut self, table: &str, idx: usize, fi: usize, major: bool) {
        let now = self.now();
        let id = self.next_id();
        let Some(t) = self.tables.get_mut(table) else {
            return;
        };
        let Some(family) = t.descriptor.families.get(fi) else {
            return;
        };
        let Some(region) = t.regions.get_mut(idx) else {
            return;
        };
        let Some(store) = region.stores.get_mut(fi) else {
            return;
        };
        let region_id = region.id;
        let family_name = family.name.clone();
        let rules = t.descriptor.rules;
        let place = (
            t.descriptor.name.as_str(),
            &region.start[..],
            &region.end[..],
        );
        let Some(rw) = store.compact(family, rules, id, major, now, region_id, place) else {
            return;
        };
        if rw.dropped.total() > 0 {
            t.keys
                .replace_range(&region.start, &region.end, region.rows());
        }
        self.counters.compactions += 1;
        self.counters.compaction_bytes += rw.bytes as u64;
        self.changes
            .rewritten
            .insert((table.to_string(), region_id));
        let kind = if major {
            LsmEventKind::MajorCompaction
        } else {
            LsmEventKind::MinorCompaction
        };
        let tick = self.tick;
        self.log_event(
            table,
            tick,
            kind,
            region_id,
            Some(family_name),
            rw,
            Vec::new(),
        );
    }

    /// Splits the region holding `at` at that row, or with `None` every region at its mid key.
    pub fn split(&mut self, table: &str, at: Option<&[u8]>) -> Result<()> {
        let t = self.table(table)?;
        match at {
            Some(key) => {
                let idx = t.region_index(key);
                let ok = t
                    .regions
                    .get(idx)
                    .is_some_and(|r| r.start.as_slice() != key && r.contains(key));
                if !ok {
                    return Err(Error::BadSplitKey(crate::bytes::to_printable(key)));
                }
                self.split_region(table, idx, key);
            }
            None => {
                let mids: Vec<(usize, Vec<u8>)> = t
                    .regions
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.mid_key().map(|m| (i, m)))
                    .collect();
                for (i, mid) in mids.into_iter().rev() {
                    self.split_region(table, i, &mid);
                }
            }
        }
        Ok(())
    }

    fn split_region(&mut self, table: &str, idx: usize, at: &[u8]) {
        self.flush_region(table, idx, &[]);
        let tick = self.tick;
        let next_id = &mut self.next_id;
        let mut fresh_id = || {
            *next_id += 1;
            *next_id
        };
        let Some(t) = self.tables.get_mut(table) else {
            return;
        };
        let Some(region) = t.regions.get_mut(idx) else {
            return;
        };
        if !region.contains(at) || region.start.as_slice() == at {
            return;
        }
        let before = region.bytes();
        let parent = region.id;
        let inputs: Vec<RunSummary> = region
            .stores
            .iter()
            .flat_map(|s| s.runs.iter().map(move |r| s.summary(r, parent)))
            .collect();
        let name = t.descriptor.name.as_str();
        let places = [(name, &region.start[..], at), (name, at, &region.end[..])];
        let upper_stores: Vec<Store> = region
            .stores
            .iter_mut()
            .zip(&t.descriptor.families)
            .map(|(s, family)| s.split_off(at, &mut fresh_id, family, places))
            .collect();
        let (left_id, right_id) = (fresh_id(), fresh_id());
        let mut outputs: Vec<RunSummary> = Vec::new();
        for (id, stores) in [(left_id, &region.stores), (right_id, &upper_stores)] {
            for s in stores {
                outputs.extend(s.runs.iter().map(|r| s.summary(r, id)));
            }
        }
        let daughters = vec![
            (left_id, region.start.clone(), at.to_vec()),
            (right_id, at.to_vec(), region.end.clone()),
        ];
        let right = Region {
            id: right_id,
            start: at.to_vec(),
            end: std::mem::replace(&mut region.end, at.to_vec()),
            stores: upper_stores,
            stats: RegionStats::default(),
        };
        let old_id = std::mem::replace(&mut region.id, left_id);
        t.regions.insert(idx + 1, right);
        self.counters.splits += 1;
        self.counters.compaction_bytes += before as u64;
        self.changes.catalog = true;
        for id in [old_id, left_id, right_id] {
            self.changes.rewritten.insert((table.to_string(), id));
        }
        let rw = Rewrite {
            inputs,
            outputs,
            dropped: Dropped::default(),
            bytes: before,
        };
        self.note_split(table, old_id, left_id, right_id, at);
        self.log_event(
            table,
            tick,
            LsmEventKind::Split,
            old_id,
            None,
            rw,
            daughters,
        );
    }
}

/// The families a region flushes once its memstores together pass `flush_bytes`, HBase 2.x's
/// default `FlushAllLargeStoresPolicy`: the stores whose memstore is above a per-family lower
/// bound, or every store when none is. The bound is the threshold divided by the number of
/// families, but at least an eighth of it (HBase's 16 MB minimum against its 128 MB default).
/// One family always flushes whole.
pub fn flush_policy(region: &Region, flush_bytes: u64) -> Vec<usize> {
    if region.stores.len() <= 1 {
        return Vec::new();
    }
    let bound = flush_lower_bound(flush_bytes, region.stores.len());
    let large: Vec<usize> = region
        .stores
        .iter()
        .enumerate()
        .filter(|(_, s)| s.memstore_bytes as u64 > bound)
        .map(|(i, _)| i)
        .collect();
    large
}

/// The per-family memstore size above which a store flushes on its own.
pub fn flush_lower_bound(flush_bytes: u64, families: usize) -> u64 {
    (flush_bytes / families.max(1) as u64).max(flush_bytes / 8)
}

fn validate_table_name(name: &str) -> Result<()> {
    let (ns, qualifier) = match name.split_once(':') {
        Some((ns, q)) => (Some(ns), q),
        None => (None, name),
    };
    let legal = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
            && !s.starts_with('.')
            && !s.starts_with('-')
    };
    if ns.is_some_and(|n| !legal(n) || n.contains('.') || n.contains('-')) || !legal(qualifier) {
        return Err(Error::IllegalName(format!(
            "Illegal character code:{}, <{}> at {}. User-space table qualifiers may only contain 'alphanumeric characters' and digits: {}",
            name.bytes().find(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b == b'.' || *b == b':')).map(u32::from).unwrap_or(0),
            name.chars().find(|c| !(c.is_ascii_alphanumeric() || "_-.:".contains(*c))).unwrap_or(' '),
            name.find(|c: char| !(c.is_ascii_alphanumeric() || "_-.:".contains(c))).unwrap_or(0),
            name
        )));
    }
    Ok(())
}

fn validate_family(f: &FamilyDescriptor) -> Result<()> {
    if f.name.is_empty() {
        return Err(Error::IllegalName(
            "Column Family name can not be empty".into(),
        ));
    }
    if f.name.starts_with('.')
        || f.name
            .bytes()
            .any(|b| b == b':' || b == b'/' || b.is_ascii_control())
    {
        return Err(Error::IllegalName(format!(
            "Column Family names cannot contain control characters, colons or slashes: {}",
            f.name
        )));
    }
    if f.max_versions < 1 {
        return Err(Error::IllegalArgument(format!(
            "Maximum versions must be positive, family '{}'",
            f.name
        )));
    }
    // TableDescriptorChecker.checkBlockSize (hbase.table.sanity.checks is on by default).
    if f.blocksize < 1024 || f.blocksize > 16 * 1024 * 1024 {
        return Err(Error::IllegalArgument(format!(
            "org.apache.hadoop.hbase.DoNotRetryIOException: Block size for column family {}  must be between 1K and 16MB. Set hbase.table.sanity.checks to false at conf or table descriptor if you want to bypass sanity checks",
            f.name
        )));
    }
    if f.min_versions > f.max_versions {
        return Err(Error::IllegalArgument(format!(
            "Minimum versions must be <= maximum versions, family '{}': min {} > max {}",
            f.name, f.min_versions, f.max_versions
        )));
    }
    Ok(())
}

fn validate_row(row: &[u8]) -> Result<()> {
    if row.is_empty() {
        return Err(Error::EmptyRow);
    }
    if row.len() > MAX_ROW_LENGTH {
        return Err(Error::IllegalArgument(format!(
            "Row length {} is > {}",
            row.len(),
            MAX_ROW_LENGTH
        )));
    }
    Ok(())
}

fn check_timestamp(ts: Option<u64>) -> Result<()> {
    match ts {
        Some(t) if t > i64::MAX as u64 => Err(Error::IllegalArgument(format!(
            "Timestamp {t} is out of range"
        ))),
        _ => Ok(()),
    }
}
