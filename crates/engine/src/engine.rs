//! The wide-column engine: HBase 2.x semantics over an in-memory LSM structure, synchronous and
//! free of I/O. Tables split into regions by key range; each region keeps one store per family;
//! a store takes writes in a memstore, flushes them to immutable sorted runs and compacts runs.
//! Reads merge memstore and runs, resolve versions and delete markers, apply row bounds and
//! filters, and report what they touched.
//!
//! The engine never waits on storage: it records what changed ([`Changes`]) and the host saves
//! that afterwards.

mod activity;
mod admin;
mod block;
mod cell;
mod cells;
mod constants;
pub mod descriptor_text;
mod drain;
mod error;
mod family;
mod filter;
mod keys;
mod load;
mod lsm;
mod maintenance;
mod policy;
mod resolve;
mod rules;
mod scan;
mod snapshot;
mod stack;
mod stats;
mod store;
mod table;
mod writes;

pub use activity::{
    key_bucket, place_of, Activity, Grid, LastRead, Op, OpKind, SavedActivity, SplitMark,
    KEY_BUCKETS, OPS_KEPT, TIME_BUCKETS,
};
pub use block::{
    BlockCursor, BlockFile, BloomType, CellRef, CountedRows, Encoding, FileCursor, FileOptions,
    FileWriter, FormatError, HashedRow, Header, ReadCounts, DEFAULT_BLOCKSIZE, FORMAT_VERSION,
    HBASE_BLOCKSIZE,
};
pub use cell::{Cell, CellKind};
pub use cells::Cells;
pub use constants::KEYVALUE_FRAMING;
pub use error::{Error, MissingFamily, Result};
pub use family::{FamilyDescriptor, KeepDeletedCells};
pub use filter::{
    first_on_column, first_on_column_at, last_on_column, CompareOp, Filter, FilterClone, ReturnCode,
};
pub use keys::{KeyEntry, KeyIndex, Position, RowChange, RunRows};
pub use load::{load_split, LoadSplit, LOAD_SPLIT_OPS, LOAD_WINDOW};
pub use lsm::{
    Dropped, EventLog, LsmEvent, LsmEventKind, Part, RunSummary, SplitCause, EVENTS_KEPT,
};
pub use maintenance::{flush_lower_bound, flush_policy};
pub use policy::CompactionPolicy;
pub use resolve::{fates, Fate, Marker, Pass};
pub use rules::{DeleteMasking, Retention, Rules, SplitRule, TimestampUnit};
pub use scan::{Examined, RegionRead, Row, RowView, Scan, ScanOutput};
pub use snapshot::{Catalog, RegionEntry, TableEntry, CATALOG_VERSION};
pub use stack::{RowBefore, RowStack, StackCell};
pub use stats::{Counters, Metric, OpStats, RegionStats};
pub use store::{Decoded, Rewrite, Run, RunPlacement, Store};
pub use table::{
    create_benchmark_table, split_keys, BenchmarkLayout, Region, Table, TableDescriptor,
    TableSettings,
};

use crate::kit::sorted::{SortedMap, SortedSet};

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
    pub rewritten: SortedSet<(String, u64)>,
}

impl Changes {
    /// Whether tables changed: a catalog change, a write, or runs replaced (what a save must
    /// write; reads change only the activity history).
    pub fn any(&self) -> bool {
        self.catalog || !self.wal.is_empty() || !self.rewritten.is_empty()
    }
}

/// The engine: tables by name, the server clock, and the counters.
pub struct Engine {
    tables: SortedMap<String, Table>,
    clock: Box<dyn Fn() -> u64>,
    /// The newest server timestamp handed out, or command time begun; saved with the clocks.
    last_ts: u64,
    /// The time of the shell command under way ([`Engine::begin_command`]), which every read
    /// and write of the command takes as "now".
    command_time: Option<u64>,
    /// The highest sequence id any table handed out ([`Table::seq`]), saved with the clocks.
    seq: u64,
    tick: u64,
    next_id: u64,
    counters: Counters,
    changes: Changes,
    /// Whether written cells are kept in `changes.wal` for a host that persists them.
    recording: bool,
    /// The recent flushes, compactions and splits, per table.
    events: SortedMap<String, EventLog>,
    event_serial: u64,
    /// Where each table's reads and writes went, over time.
    activity: SortedMap<String, Activity>,
    /// The row whose stack is kept from before each flush and major compaction.
    watched: Option<(String, Vec<u8>)>,
    before: Option<RowBefore>,
    /// What reads gather their parts in (plan, store scanners, merges' sources, the rows
    /// handed over as views), kept from read to read.
    read_room: scan::ReadRoom,
}

impl std::fmt::Debug for Engine {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("tables", &self.tables.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Engine {
    /// An empty engine reading the time (epoch milliseconds) from `clock`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(clock: Box<dyn Fn() -> u64>) -> Engine {
        Engine {
            tables: SortedMap::new(),
            clock,
            last_ts: 0,
            command_time: None,
            seq: 0,
            tick: 0,
            next_id: 1,
            counters: Counters::default(),
            changes: Changes::default(),
            recording: false,
            events: SortedMap::new(),
            event_serial: 0,
            activity: SortedMap::new(),
            watched: None,
            before: None,
            read_room: scan::ReadRoom::default(),
        }
    }

    /// The current time: the time of the command under way, or else the clock's.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn now(&self) -> u64 {
        self.command_time.unwrap_or_else(|| (self.clock)())
    }

    /// A server timestamp: the current time, as HBase stamps a mutation (`HRegion`'s batch
    /// takes `EnvironmentEdgeManager.currentTime()` once for all its cells). Writes within one
    /// millisecond share it, and their sequence numbers order them: of two puts of a column in
    /// the same millisecond the later one is read, and a delete marker hides a put stamped in
    /// the same millisecond after it (see `Cell`'s order and the delete tracker).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_timestamp(&mut self) -> u64 {
        let ts = self.now();
        self.last_ts = self.last_ts.max(ts);
        ts
    }

    /// Begins a shell command and gives it its time: `max(clock, previous + 1)`, a logical
    /// step past every server timestamp handed out so far, never a wait. Each command of
    /// HBase's shell is a round trip to the cluster, so two commands typed or pasted one after
    /// the other do not share a millisecond there; with this clock they do not here either,
    /// and a script gives the same result however fast it runs. Every write of the command
    /// (all the columns of a `put`, every row of `generate`) shares this time, until
    /// [`Engine::end_command`].
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn begin_command(&mut self) -> u64 {
        let ts = (self.clock)().max(self.last_ts.saturating_add(1));
        self.last_ts = ts;
        self.command_time = Some(ts);
        ts
    }

    /// Goes on with a command begun earlier (the next step of `generate`, the next page of a
    /// scan) at the time it was given.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn resume_command(&mut self, ts: u64) {
        self.command_time = Some(ts);
    }

    /// Ends the command under way: the time comes from the clock again.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn end_command(&mut self) {
        self.command_time = None;
    }

    /// The next sequence id of `table` ([`Table::seq`]); the engine keeps the highest id of
    /// any table, which a saved catalog carries.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_seq(&mut self, table: &str) -> u64 {
        let seq = match self.tables.get_mut(table) {
            Some(t) => {
                t.seq += 1;
                t.seq
            }
            None => self.seq + 1,
        };
        self.seq = self.seq.max(seq);
        seq
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The logical clock of the statistics: one tick per operation.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Keeps written cells in [`Changes::wal`] from now on, for a host that saves them.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn record_changes(&mut self, on: bool) {
        self.recording = on;
    }

    /// Hands over and clears the record of what changed.
    #[cfg_attr(rowkey_cold, optimize(size))]
    /// Whether tables changed since the changes were last taken ([`Changes::any`]).
    pub fn tables_changed(&self) -> bool {
        self.changes.any()
    }

    pub fn take_changes(&mut self) -> Changes {
        std::mem::take(&mut self.changes)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn table(&self, name: &str) -> Result<&Table> {
        self.tables
            .get(name)
            .ok_or_else(|| Error::TableNotFound(name.to_string()))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
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

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn exists(&self, name: &str) -> bool {
        self.tables.contains_key(name)
    }

    // ---- reads -------------------------------------------------------------------------

    /// Runs a get or scan and records it in the regions' statistics.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn scan(&mut self, table: &str, scan: &mut Scan) -> Result<ScanOutput> {
        self.scan_rows(table, scan, scan::Rows::Keep)
    }

    /// Runs a scan as [`Engine::scan`] does, handing each row to `each` as it is read instead
    /// of keeping it: the output holds no rows, and the read holds one row at a time.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn scan_each(
        &mut self,
        table: &str,
        scan: &mut Scan,
        each: &mut dyn FnMut(RowView<'_>),
    ) -> Result<ScanOutput> {
        self.scan_rows(table, scan, scan::Rows::Each(each))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn scan_rows(
        &mut self,
        table: &str,
        scan: &mut Scan,
        rows: scan::Rows<'_>,
    ) -> Result<ScanOutput> {
        let out = self.read_rows(table, scan, rows)?;
        self.tick += 1;
        if let Some(t) = self.tables.get_mut(table) {
            for read in &out.per_region {
                if let Some(r) = t.regions.iter_mut().find(|r| r.id == read.region) {
                    r.stats
                        .record(read.rows_examined.max(1) as u32, 0, read.bytes_read, 0);
                }
            }
        }
        let before = self.recorded_ops(table);
        self.note_read(table, scan, &out);
        self.load_upkeep(table, before);
        Ok(out)
    }

    /// A read that leaves the statistics alone (for read-modify-write and the views).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn read(&self, table: &str, scan: &mut Scan) -> Result<ScanOutput> {
        self.read_rows(table, scan, scan::Rows::Keep)
    }

    /// A read that leaves the statistics alone, handing each row to `each` as it is read
    /// ([`Engine::scan_each`]).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn read_each(
        &self,
        table: &str,
        scan: &mut Scan,
        each: &mut dyn FnMut(RowView<'_>),
    ) -> Result<ScanOutput> {
        self.read_rows(table, scan, scan::Rows::Each(each))
    }

    /// A read that leaves the statistics alone, of a table enabled or not: a disabled table
    /// refuses its clients' reads, but its cells are stored as they were, and an export (or
    /// anything else that copies the table whole) reads them.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn read_stored(&self, table: &str, scan: &mut Scan) -> Result<ScanOutput> {
        scan::run(
            self.table(table)?,
            scan,
            self.now(),
            scan::Rows::Keep,
            &self.read_room,
        )
    }

    /// A read of an enabled table, its rows going where `rows` says.
    fn read_rows(&self, table: &str, scan: &mut Scan, rows: scan::Rows<'_>) -> Result<ScanOutput> {
        let t = self.enabled_table(table)?;
        scan::run(t, scan, self.now(), rows, &self.read_room)
    }
}
