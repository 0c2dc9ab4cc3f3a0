//! What to write after each command, and how to load what was written.
//!
//! Catalogs come in generations. A checkpoint writes generation `N` (the catalog, the memstore
//! snapshot, and only the runs not yet stored) and keeps generation `N - 1` with every run it
//! names, so a catalog damaged after it committed falls back to the one before. Log records are
//! keyed `(generation, number)`: those of generation `g` were appended after checkpoint `g`, so
//! loading generation `g` replays every log record of generations `g` and later, in key order.
//! Runs that no readable catalog names (and damaged runs) are kept aside, never deleted by a
//! checkpoint: only [`Saver::discard_kept_aside`], which the person asks for, deletes them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::codec::{
    catalog_from_value, decode_catalog_value, decode_groups, decode_json_record, decode_stored_run,
    encode_catalog, encode_groups, encode_json_record, encode_placed_run, BlobKind, CodecError,
    RunPlace,
};
use crate::engine::{Activity, Catalog, Engine, Op, Run};
use serde::{Deserialize, Serialize};

/// A log record's key: its generation, then its number within the generation.
pub type WalKey = (u64, u64);

/// A new catalog generation with the memstores at that moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub generation: u64,
    pub catalog: Vec<u8>,
    pub memstores: Vec<u8>,
}

/// The writes of one transaction. Applied in this order: clear everything, put runs, delete
/// runs, the new generation, delete old generations, delete old log records, append to the
/// log, replace the activity history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavePlan {
    /// Remove every stored record first (the app's Reset).
    pub clear_all: bool,
    pub put_runs: Vec<(u64, Vec<u8>)>,
    pub delete_runs: Vec<u64>,
    pub checkpoint: Option<Checkpoint>,
    /// Catalog generations (and their memstore snapshots) no longer needed.
    pub delete_generations: Vec<u64>,
    /// Log records of generations below this one are no longer needed.
    pub delete_wal_below: Option<u64>,
    /// A log record to append.
    pub wal: Option<(WalKey, Vec<u8>)>,
    /// Changes to the stored activity history.
    pub activity: Option<ActivityWrites>,
}

/// Changes to the activity store: a table's history is a head record (under the table's
/// name) and its operations in chunks of [`OPS_PER_CHUNK`] (under `table#chunk`), so a
/// checkpoint writes the head and the operations recorded since the last one, never the
/// whole history again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActivityWrites {
    /// Remove every stored history first.
    pub replace_all: bool,
    pub put: Vec<(String, Vec<u8>)>,
    pub delete: Vec<String>,
}

/// Operations per stored chunk of a history.
pub const OPS_PER_CHUNK: u64 = 4096;

fn chunk_key(table: &str, chunk: u64) -> String {
    format!("{table}#{chunk:012}")
}

/// A chunk of a history's operations, numbered from `first`.
#[derive(Serialize, Deserialize)]
struct OpsChunk {
    first: u64,
    ops: Vec<Op>,
}

/// What the saver last stored of one table's history.
#[derive(Clone, Debug, Default)]
struct StoredHistory {
    marker: Option<ActivityMarker>,
    /// Operations numbered below this are stored.
    upto: u64,
    chunks: BTreeSet<u64>,
}

impl SavePlan {
    pub fn is_empty(&self) -> bool {
        *self == SavePlan::default()
    }

    pub fn is_checkpoint(&self) -> bool {
        self.checkpoint.is_some()
    }

    /// Bytes the plan writes.
    pub fn bytes(&self) -> usize {
        self.put_runs.iter().map(|r| r.1.len()).sum::<usize>()
            + self
                .checkpoint
                .as_ref()
                .map_or(0, |c| c.catalog.len() + c.memstores.len())
            + self.wal.as_ref().map_or(0, |w| w.1.len())
            + self
                .activity
                .as_ref()
                .map_or(0, |a| a.put.iter().map(|x| x.1.len()).sum())
    }
}

/// What is stored, as far as the saver knows: the generations, which runs each names, and
/// what is kept aside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The catalog generation the tables in memory were saved in (or loaded from).
    pub current: Option<u64>,
    /// Runs the current generation names.
    pub named: BTreeSet<u64>,
    /// The generation before it, kept as a fallback, and the runs it names.
    pub previous: Option<(u64, BTreeSet<u64>)>,
    /// Readable generations older than `previous`: deleted by the next checkpoint.
    pub stale: BTreeSet<u64>,
    /// Damaged generations: kept aside until the person discards them.
    pub damaged: BTreeSet<u64>,
    /// Every run stored.
    pub stored_runs: BTreeSet<u64>,
    /// Runs named by no readable catalog, or damaged: kept until the person discards them.
    pub kept_aside: BTreeSet<u64>,
    /// The highest generation stored; log records are appended under it.
    pub newest: u64,
    /// The next log record number in generation `newest`.
    pub next_wal: u64,
}

/// Why a plan could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The catalog did not serialise; nothing was planned, nothing stored changes.
    #[error("the catalog could not be encoded ({0})")]
    Catalog(#[from] CodecError),
}

/// Turns the engine's recorded changes into save plans. It keeps two layouts: `planned` (as
/// if every plan handed out commits) and `committed` (what the store is known to hold); a
/// failure takes `planned` back to `committed`.
#[derive(Debug, Default)]
pub struct Saver {
    planned: Layout,
    committed: Layout,
    /// The next plan must be a checkpoint (after a failure, after recovery, at the start).
    needs_checkpoint: bool,
    /// The store must be cleared (Reset) and that is not committed yet.
    needs_clear: bool,
    /// What the planned store holds of each table's activity history: a checkpoint writes
    /// only what changed (a history holds up to 100,000 operations).
    histories: BTreeMap<String, StoredHistory>,
}

type ActivityMarker = (u64, u64, usize, Option<u64>);

impl Saver {
    /// A saver for an empty database.
    pub fn new() -> Saver {
        Saver::default()
    }

    /// What the store holds if every plan handed out commits.
    pub fn planned(&self) -> &Layout {
        &self.planned
    }

    /// What the store is known to hold.
    pub fn committed(&self) -> &Layout {
        &self.committed
    }

    /// The plan that saves everything that changed since the last plan.
    pub fn plan(&mut self, engine: &mut Engine) -> Result<SavePlan, PlanError> {
        let changes = engine.take_changes();
        let changed = changes.catalog || !changes.rewritten.is_empty() || !changes.wal.is_empty();
        if self.needs_checkpoint
            || self.needs_clear
            || (self.planned.current.is_none() && changed)
            || changes.catalog
            || !changes.rewritten.is_empty()
        {
            return self.checkpoint(engine);
        }
        if changes.wal.is_empty() {
            return Ok(SavePlan::default());
        }
        let key = (self.planned.newest, self.planned.next_wal);
        self.planned.next_wal += 1;
        Ok(SavePlan {
            wal: Some((
                key,
                encode_groups(BlobKind::Wal, engine.clocks(), &changes.wal),
            )),
            ..SavePlan::default()
        })
    }

    /// A checkpoint: a new catalog generation, the runs not yet stored, the memstores; the
    /// generation before is kept, older ones and the log they needed go. After a Reset, the
    /// checkpoint first clears the store.
    pub fn checkpoint(&mut self, engine: &mut Engine) -> Result<SavePlan, PlanError> {
        let _ = engine.take_changes();
        let catalog = encode_catalog(&engine.catalog())?;
        // After a failure or a Reset the store's histories are unknown: all are written again.
        let activity = self.encode_activity(engine, self.needs_checkpoint || self.needs_clear)?;
        let memstores = encode_groups(
            BlobKind::Memstores,
            engine.clocks(),
            &engine.memstore_cells(),
        );
        let clear = self.needs_clear;
        let before = if clear {
            Layout {
                newest: self.planned.newest,
                ..Layout::default()
            }
        } else {
            self.planned.clone()
        };
        let generation = before.newest + 1;
        let placed = placed_runs(engine);
        let live: BTreeSet<u64> = placed.iter().map(|(run, _)| run.id).collect();
        let put_runs: Vec<(u64, Vec<u8>)> = placed
            .iter()
            .filter(|(run, _)| !before.stored_runs.contains(&run.id))
            .map(|(run, place)| (run.id, encode_placed_run(run, place)))
            .collect();
        // Kept: the runs of the new generation, of the one before it, and those set aside.
        let mut keep = live.clone();
        keep.extend(before.named.iter().copied());
        keep.extend(before.kept_aside.iter().copied());
        let delete_runs: Vec<u64> = before.stored_runs.difference(&keep).copied().collect();
        let mut delete_generations: BTreeSet<u64> = before.stale.clone();
        if let Some((g, _)) = &before.previous {
            delete_generations.insert(*g);
        }
        let delete_wal_below = before.current;
        let mut stored_runs = before.stored_runs.clone();
        stored_runs.extend(put_runs.iter().map(|r| r.0));
        for id in &delete_runs {
            stored_runs.remove(id);
        }
        self.planned = Layout {
            current: Some(generation),
            named: live,
            previous: before.current.map(|g| (g, before.named.clone())),
            stale: BTreeSet::new(),
            damaged: before.damaged.clone(),
            stored_runs,
            kept_aside: before.kept_aside.clone(),
            newest: generation,
            next_wal: 1,
        };
        self.needs_checkpoint = false;
        self.needs_clear = false;
        Ok(SavePlan {
            clear_all: clear,
            put_runs,
            delete_runs,
            checkpoint: Some(Checkpoint {
                generation,
                catalog,
                memstores,
            }),
            delete_generations: delete_generations.into_iter().collect(),
            delete_wal_below,
            wal: None,
            activity: Some(activity),
        })
    }

    /// The writes that bring the stored histories up to date: for each table whose history
    /// changed, its head and the chunks holding operations not stored yet; chunks whose
    /// operations all fell out of the history, and the histories of dropped tables, go.
    fn encode_activity(
        &mut self,
        engine: &Engine,
        replace_all: bool,
    ) -> Result<ActivityWrites, CodecError> {
        let mut w = ActivityWrites {
            replace_all,
            ..ActivityWrites::default()
        };
        if replace_all {
            self.histories.clear();
        }
        let mut live = BTreeSet::new();
        for t in engine.tables() {
            let name = &t.descriptor.name;
            let Some(activity) = engine.activity(name) else {
                continue;
            };
            live.insert(name.clone());
            let stored = self.histories.entry(name.clone()).or_default();
            let marker = activity.marker();
            if stored.marker == Some(marker) {
                continue;
            }
            let (first, end) = (activity.first_seq(), activity.recorded());
            if end < stored.upto {
                // A new table under an old name: its history starts again.
                w.delete
                    .extend(stored.chunks.iter().map(|c| chunk_key(name, *c)));
                *stored = StoredHistory::default();
            }
            w.put.push((
                name.clone(),
                encode_json_record(BlobKind::Activity, &activity.head())?,
            ));
            let from = stored.upto.max(first);
            if end > from {
                for chunk in from / OPS_PER_CHUNK..=(end - 1) / OPS_PER_CHUNK {
                    let lo = (chunk * OPS_PER_CHUNK).max(first);
                    let hi = ((chunk + 1) * OPS_PER_CHUNK).min(end);
                    let record = OpsChunk {
                        first: lo,
                        ops: activity.ops_between(lo, hi).cloned().collect(),
                    };
                    w.put.push((
                        chunk_key(name, chunk),
                        encode_json_record(BlobKind::Activity, &record)?,
                    ));
                    stored.chunks.insert(chunk);
                }
            }
            let gone: Vec<u64> = stored
                .chunks
                .iter()
                .copied()
                .filter(|c| (c + 1) * OPS_PER_CHUNK <= first)
                .collect();
            for c in gone {
                stored.chunks.remove(&c);
                w.delete.push(chunk_key(name, c));
            }
            stored.upto = end;
            stored.marker = Some(marker);
        }
        let dropped: Vec<String> = self
            .histories
            .keys()
            .filter(|t| !live.contains(*t))
            .cloned()
            .collect();
        for table in dropped {
            if let Some(stored) = self.histories.remove(&table) {
                w.delete
                    .extend(stored.chunks.iter().map(|c| chunk_key(&table, *c)));
            }
            w.delete.push(table);
        }
        Ok(w)
    }

    /// The app's Reset: the next checkpoint clears the store first; returns it.
    pub fn reset(&mut self, engine: &mut Engine) -> Result<SavePlan, PlanError> {
        self.needs_clear = true;
        self.checkpoint(engine)
    }

    /// Deletes what was kept aside (the person asked): the runs and the damaged generations.
    pub fn discard_kept_aside(&mut self) -> SavePlan {
        let runs: Vec<u64> = self.planned.kept_aside.iter().copied().collect();
        let generations: Vec<u64> = self.planned.damaged.iter().copied().collect();
        for id in &runs {
            self.planned.stored_runs.remove(id);
        }
        self.planned.kept_aside.clear();
        self.planned.damaged.clear();
        SavePlan {
            delete_runs: runs,
            delete_generations: generations,
            ..SavePlan::default()
        }
    }

    /// A plan committed: the store holds `after` (the planned layout right after that plan).
    pub fn committed_to(&mut self, after: Layout) {
        self.committed = after;
    }

    /// A plan failed, and the ones after it were dropped: the store holds what was committed,
    /// so planning starts again from there with a checkpoint. `lost_clear` says whether a
    /// dropped plan was a Reset's clear, which must then be planned again.
    pub fn failed(&mut self, lost_clear: bool) {
        self.planned = self.committed.clone();
        self.needs_checkpoint = true;
        self.needs_clear |= lost_clear;
    }
}

/// Every run with the place it belongs to.
fn placed_runs(engine: &Engine) -> Vec<(Arc<Run>, RunPlace)> {
    let mut out = Vec::new();
    for t in engine.tables() {
        for r in &t.regions {
            for s in &r.stores {
                for run in &s.runs {
                    out.push((
                        run.clone(),
                        RunPlace {
                            table: t.descriptor.name.clone(),
                            family: s.family.to_vec(),
                            start: r.start.clone(),
                            end: r.end.clone(),
                        },
                    ));
                }
            }
        }
    }
    out
}

// ---- Activity, stored beside the catalog -------------------------------------------------
//
// The explorer's activity history (the engine's bounded per-table model) changes with every
// read and write; it is stored in its own object store so the catalog stays small: a head
// record per table and its operations in chunks ([`ActivityWrites`]). `Saver::encode_activity`
// and `join_activity` are the only places that know how.

/// Puts the stored histories back into a restored engine: each table's head with the
/// operations of its chunks. Returns what the store holds of each (so the first checkpoint
/// writes only what changes); a damaged record is reported and its history starts again (a
/// damaged chunk loses only its operations).
fn join_activity(
    engine: &mut Engine,
    records: &BTreeMap<String, Vec<u8>>,
    problems: &mut Vec<String>,
) -> BTreeMap<String, StoredHistory> {
    let mut heads: BTreeMap<&str, &[u8]> = BTreeMap::new();
    let mut chunks: BTreeMap<&str, Vec<(u64, &[u8])>> = BTreeMap::new();
    for (key, bytes) in records {
        match key.split_once('#') {
            None => {
                heads.insert(key.as_str(), bytes.as_slice());
            }
            Some((table, n)) => match n.parse::<u64>() {
                Ok(n) => chunks.entry(table).or_default().push((n, bytes.as_slice())),
                Err(_) => problems.push(format!(
                    "the activity record {key:?} is not Rowkey's; left alone"
                )),
            },
        }
    }
    let mut stored: BTreeMap<String, StoredHistory> = BTreeMap::new();
    for (table, mut parts) in chunks {
        parts.sort_unstable_by_key(|p| p.0);
        stored.insert(
            table.to_string(),
            StoredHistory {
                chunks: parts.iter().map(|p| p.0).collect(),
                ..StoredHistory::default()
            },
        );
    }
    for (table, bytes) in heads {
        let head = decode_json_record::<Activity>(BlobKind::Activity, bytes);
        let head = match head {
            Ok(h) => h,
            Err(e) => {
                problems.push(format!(
                    "the activity history of table {table} is damaged ({e}); it starts again"
                ));
                continue;
            }
        };
        let end = head.recorded();
        let mut ops = Vec::new();
        let mut next = 0u64;
        // Chunk keys sort by number ('$' follows '#').
        for (key, bytes) in records.range(format!("{table}#")..format!("{table}$")) {
            let chunk = decode_json_record::<OpsChunk>(BlobKind::Activity, bytes);
            match chunk {
                Ok(c) => {
                    for (i, op) in c.ops.into_iter().enumerate() {
                        let seq = c.first + i as u64;
                        if seq >= next && seq < end {
                            ops.push(op);
                            next = seq + 1;
                        }
                    }
                }
                Err(e) => problems.push(format!(
                    "a part of the activity history of table {table} ({key}) is damaged ({e}); the rest is kept"
                )),
            }
        }
        engine.restore_activity(table, head.with_ops(ops));
        if let Some(a) = engine.activity(table) {
            let entry = stored.entry(table.to_string()).or_default();
            entry.marker = Some(a.marker());
            entry.upto = a.recorded();
        }
    }
    stored
}

// ---- The stored records ------------------------------------------------------------------

/// The stored records, as read back.
#[derive(Clone, Debug, Default)]
pub struct StoredRecords {
    /// Catalog records by generation.
    pub catalogs: BTreeMap<u64, Vec<u8>>,
    /// Memstore snapshots by generation.
    pub memstores: BTreeMap<u64, Vec<u8>>,
    pub runs: BTreeMap<u64, Vec<u8>>,
    /// Log records in key order.
    pub wal: BTreeMap<WalKey, Vec<u8>>,
    /// Activity history records by table.
    pub activity: BTreeMap<String, Vec<u8>>,
    /// Records the reader could not make sense of (a key or value of the wrong type).
    pub unreadable: Vec<String>,
}

impl StoredRecords {
    /// Applies a plan the way the IndexedDB backend does, all of it (native tests use this as
    /// the store).
    pub fn apply(&mut self, plan: &SavePlan) {
        if plan.clear_all {
            *self = StoredRecords::default();
        }
        for (id, bytes) in &plan.put_runs {
            self.runs.insert(*id, bytes.clone());
        }
        for id in &plan.delete_runs {
            self.runs.remove(id);
        }
        if let Some(c) = &plan.checkpoint {
            self.catalogs.insert(c.generation, c.catalog.clone());
            self.memstores.insert(c.generation, c.memstores.clone());
        }
        for g in &plan.delete_generations {
            self.catalogs.remove(g);
            self.memstores.remove(g);
        }
        if let Some(below) = plan.delete_wal_below {
            self.wal.retain(|k, _| k.0 >= below);
        }
        if let Some((key, bytes)) = &plan.wal {
            self.wal.insert(*key, bytes.clone());
        }
        if let Some(w) = &plan.activity {
            if w.replace_all {
                self.activity.clear();
            }
            for key in &w.delete {
                self.activity.remove(key);
            }
            for (key, bytes) in &w.put {
                self.activity.insert(key.clone(), bytes.clone());
            }
        }
    }
}

/// A run no readable catalog names, or one that is damaged: kept in storage until the person
/// discards it.
#[derive(Clone, Debug)]
pub struct KeptRun {
    pub id: u64,
    /// Where the run says it belongs (runs written before runs recorded it say nothing).
    pub place: Option<RunPlace>,
    /// The run, when it could be read.
    pub run: Option<Arc<Run>>,
    /// Why it is kept aside.
    pub why: String,
}

/// An engine rebuilt from stored records, what went wrong on the way, and a saver that knows
/// what is stored.
pub struct Loaded {
    pub engine: Engine,
    pub problems: Vec<String>,
    pub saver: Saver,
    /// Cells replayed from the log.
    pub replayed: usize,
    /// The generation loaded, if any.
    pub generation: Option<u64>,
    /// Runs kept aside (see [`KeptRun`]).
    pub kept_aside: Vec<KeptRun>,
}

/// The run ids a catalog names.
fn named_runs(catalog: &Catalog) -> BTreeSet<u64> {
    catalog
        .tables
        .iter()
        .flat_map(|t| t.regions.iter())
        .flat_map(|r| r.runs.iter())
        .flatten()
        .copied()
        .collect()
}

/// Rebuilds the engine: the newest readable catalog generation with its runs and memstore
/// snapshot, then the log from that generation on, in order. A damaged catalog falls back to
/// the generation before it; damaged records are reported and skipped; the app always gets an
/// engine.
pub fn load(clock: Box<dyn Fn() -> u64>, records: StoredRecords) -> Loaded {
    let mut problems = records.unreadable.clone();
    // Runs.
    let mut runs: HashMap<u64, Arc<Run>> = HashMap::new();
    let mut places: HashMap<u64, Option<RunPlace>> = HashMap::new();
    let mut damaged_runs: Vec<(u64, String)> = Vec::new();
    // Runs stored in a layout before block files: written again at the next checkpoint.
    let mut migrated: BTreeSet<u64> = BTreeSet::new();
    for (id, bytes) in &records.runs {
        match decode_stored_run(bytes) {
            Ok(stored) if stored.run.id == *id => {
                // A damaged block costs its cells; the rest of the run loads.
                for e in &stored.damaged {
                    problems.push(format!(
                        "sorted run {id} is damaged ({e}); the cells of that block are lost, the rest of the run loads"
                    ));
                }
                if stored.migrated {
                    migrated.insert(*id);
                }
                runs.insert(*id, Arc::new(stored.run));
                places.insert(*id, stored.place);
            }
            Ok(stored) => {
                let run = stored.run;
                let why = format!("sorted run {id} holds run {} instead", run.id);
                problems.push(format!("{why}; kept aside"));
                damaged_runs.push((*id, why));
            }
            Err(e) => {
                let why = format!("sorted run {id} is damaged ({e})");
                problems.push(format!("{why}; kept aside"));
                damaged_runs.push((*id, why));
            }
        }
    }
    // Catalogs, newest first.
    let mut readable: Vec<(u64, Catalog)> = Vec::new();
    let mut damaged_generations = BTreeSet::new();
    for (generation, bytes) in records.catalogs.iter().rev() {
        let decoded = decode_catalog_value(bytes).and_then(catalog_from_value);
        match decoded {
            Ok(c) => readable.push((*generation, c)),
            Err(e) => {
                damaged_generations.insert(*generation);
                problems.push(format!(
                    "catalog generation {generation} is damaged ({e}); kept aside"
                ));
            }
        }
    }
    let base = readable.first().map(|(g, _)| *g);
    if let (Some(b), Some(newest_damaged)) = (base, damaged_generations.last()) {
        if *newest_damaged > b {
            problems.push(format!(
                "loaded the catalog of generation {b}, the last good one, and replayed the log since"
            ));
        }
    }
    if base.is_none() && (!records.runs.is_empty() || !records.wal.is_empty()) {
        problems.push(
            "no readable catalog: starting with no tables; the stored runs are kept aside".into(),
        );
    }
    let named_by: Vec<(u64, BTreeSet<u64>)> =
        readable.iter().map(|(g, c)| (*g, named_runs(c))).collect();
    let (mut engine, missing) = match readable.first() {
        Some((_, c)) => Engine::restore(clock, c.clone(), &runs),
        None => (Engine::new(clock), Vec::new()),
    };
    problems.extend(missing);
    let histories = join_activity(&mut engine, &records.activity, &mut problems);
    let mut replayed = 0;
    let mut replay =
        |engine: &mut Engine,
         what: String,
         kind: BlobKind,
         bytes: &[u8],
         problems: &mut Vec<String>| match decode_groups(kind, bytes) {
            Ok(((last_ts, seq), groups)) => {
                engine.raise_clocks(last_ts, seq);
                for (table, cells) in groups {
                    let n = cells.len();
                    let skipped = engine.replay(&table, cells);
                    replayed += n - skipped;
                    if skipped > 0 {
                        problems.push(format!(
                            "{what}: {skipped} cells of table {table} had no place to go; skipped"
                        ));
                    }
                }
            }
            Err(e) => problems.push(format!("{what} is damaged ({e}); skipped")),
        };
    if let Some(b) = base {
        match records.memstores.get(&b) {
            Some(m) => replay(
                &mut engine,
                "the memstore snapshot".into(),
                BlobKind::Memstores,
                m,
                &mut problems,
            ),
            None => problems.push(format!(
                "the memstore snapshot of generation {b} is missing"
            )),
        }
    }
    let from = base.unwrap_or(0);
    for (key, bytes) in records.wal.range((from, 0)..) {
        replay(
            &mut engine,
            format!("log record {}.{}", key.0, key.1),
            BlobKind::Wal,
            bytes,
            &mut problems,
        );
    }
    let _ = engine.take_changes();

    // What is kept aside: damaged runs, and runs no readable catalog names.
    let named_any: BTreeSet<u64> = named_by
        .iter()
        .flat_map(|(_, n)| n.iter().copied())
        .collect();
    let mut kept_aside: Vec<KeptRun> = damaged_runs
        .into_iter()
        .map(|(id, why)| KeptRun {
            id,
            place: None,
            run: None,
            why,
        })
        .collect();
    for (id, run) in &runs {
        if !named_any.contains(id) {
            kept_aside.push(KeptRun {
                id: *id,
                place: places.get(id).cloned().flatten(),
                run: Some(run.clone()),
                why: "no readable catalog names it".into(),
            });
        }
    }
    kept_aside.sort_by_key(|k| k.id);
    if kept_aside.iter().any(|k| k.run.is_some()) {
        problems.push(format!(
            "{} sorted run(s) that no readable catalog names are kept aside: export them, or discard them",
            kept_aside.iter().filter(|k| k.run.is_some()).count()
        ));
    }

    let newest = records
        .catalogs
        .keys()
        .chain(records.memstores.keys())
        .copied()
        .chain(records.wal.keys().map(|k| k.0))
        .max()
        .unwrap_or(0);
    let next_wal = records
        .wal
        .range((newest, 0)..)
        .map(|(k, _)| k.1 + 1)
        .max()
        .unwrap_or(1);
    let layout = Layout {
        current: base,
        named: named_by.first().map(|(_, n)| n.clone()).unwrap_or_default(),
        previous: named_by.get(1).cloned(),
        stale: named_by.iter().skip(2).map(|(g, _)| *g).collect(),
        damaged: damaged_generations,
        stored_runs: records
            .runs
            .keys()
            .copied()
            .filter(|id| !migrated.contains(id))
            .collect(),
        kept_aside: kept_aside.iter().map(|k| k.id).collect(),
        newest,
        next_wal,
    };
    let saver = Saver {
        planned: layout.clone(),
        committed: layout,
        needs_checkpoint: !problems.is_empty() || !migrated.is_empty(),
        needs_clear: false,
        histories,
    };
    Loaded {
        engine,
        problems,
        saver,
        replayed,
        generation: base,
        kept_aside,
    }
}
