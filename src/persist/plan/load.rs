//! The stored records, as read back, and loading an engine from them.

use std::collections::HashMap;
use std::sync::Arc;

use super::*;
use crate::engine::{Catalog, Engine, KeyEntry, Run, RunRows};
use crate::kit::order;
use crate::kit::sorted::{SortedMap, SortedSet};
use crate::persist::codec::{
    decode_catalog, decode_groups, decode_stored_run_owned, BlobKind, RunPlace, StoredRun,
};
use crate::persist::run_parts::{is_parts_head, ArrivingRun};

/// The stored records, as read back.
#[derive(Clone, Debug, Default)]
pub struct StoredRecords {
    /// Catalog records by generation.
    pub catalogs: SortedMap<u64, Vec<u8>>,
    /// Memstore snapshots by generation.
    pub memstores: SortedMap<u64, Vec<u8>>,
    /// Run records by id: a run whole, or the head of a run stored in parts.
    pub runs: SortedMap<u64, Vec<u8>>,
    /// The parts of the runs stored in parts, by run id and part number.
    pub run_parts: SortedMap<(u64, u64), Vec<u8>>,
    /// Log records in key order.
    pub wal: SortedMap<WalKey, Vec<u8>>,
    /// Activity history records by table.
    pub activity: SortedMap<String, Vec<u8>>,
    /// Records the reader could not make sense of (a key or value of the wrong type).
    pub unreadable: Vec<String>,
    /// Run records opened as they were read, as [`RunReader`] gives them ([`open_run`]: the browser's reader
    /// opens each while the browser reads the ones after it); [`load`] takes them as it takes
    /// the bytes in `runs`.
    pub opened: Vec<(u64, OpenedRun)>,
    /// Activity records decoded as they were read ([`open_activity`]), in key order; taken as
    /// the bytes in `activity` are.
    pub opened_activity: Vec<(String, OpenedActivity)>,
}

impl StoredRecords {
    /// Applies a plan the way the IndexedDB backend does, all of it (native tests use this as
    /// the store).
    pub fn apply(&mut self, plan: &SavePlan) {
        if plan.clear_all {
            *self = StoredRecords::default();
        }
        let replaced: SortedSet<u64> = plan
            .put_runs
            .iter()
            .map(|(id, _)| *id)
            .chain(plan.delete_runs.iter().copied())
            .collect();
        self.opened.retain(|(id, _)| !replaced.contains(id));
        self.runs
            .extend(plan.put_runs.iter().map(|(id, bytes)| (*id, bytes.clone())));
        self.run_parts.extend(
            plan.put_parts
                .iter()
                .map(|(key, bytes)| (*key, bytes.clone())),
        );
        let deleted: SortedSet<u64> = plan.delete_runs.iter().copied().collect();
        self.runs.retain(|id, _| !deleted.contains(id));
        self.run_parts.retain(|(id, _), _| !deleted.contains(id));
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
                self.opened_activity.clear();
            }
            for key in &w.delete {
                self.activity.remove(key);
                self.opened_activity.retain(|(k, _)| k != key);
            }
            for (key, bytes) in &w.put {
                self.opened_activity.retain(|(k, _)| k != key);
                self.activity.insert(key.clone(), bytes.clone());
            }
        }
    }
}

/// A run record opened: what loading makes of it.
#[derive(Clone, Debug)]
pub enum OpenedRun {
    /// The run and what its record says.
    Run {
        run: Arc<Run>,
        /// Where the run says it belongs (runs written before runs recorded it say nothing).
        place: Option<RunPlace>,
        /// Why each of its damaged blocks is (their cells are lost, the rest of the run loads).
        damaged: Vec<String>,
        /// The record was in a layout before block files: written again at the next checkpoint.
        migrated: bool,
        /// The rows stored with it, when they fit it: the key index is built from them.
        rows: Option<Vec<KeyEntry>>,
    },
    /// A record that cannot be this run: why (it is kept aside).
    Aside(String),
}

/// Opens the record stored under run id `id` (the run takes its bytes, no copy): its blocks
/// checked, its rows read.
pub fn open_run(id: u64, bytes: Vec<u8>) -> OpenedRun {
    match decode_stored_run_owned(bytes) {
        Ok(stored) => opened_run(id, stored),
        Err(e) => OpenedRun::Aside(format!("sorted run {id} is damaged ({e})")),
    }
}

/// A stored run read under run id `id`, as loading takes it.
fn opened_run(id: u64, stored: StoredRun) -> OpenedRun {
    if stored.run.id != id {
        return OpenedRun::Aside(format!(
            "sorted run {id} holds run {} instead",
            stored.run.id
        ));
    }
    OpenedRun::Run {
        damaged: stored.damaged.iter().map(|e| e.to_string()).collect(),
        run: Arc::new(stored.run),
        place: stored.place,
        migrated: stored.migrated,
        rows: stored.rows,
    }
}

/// Opens run records as they are read: a run stored whole when its record comes, a run stored
/// in parts part by part ([`super::super::run_parts`]), every head before any part (the order
/// IndexedDB reads them in, numbers before arrays).
#[derive(Debug, Default)]
pub struct RunReader {
    /// The runs by id, in the order their records came.
    runs: Vec<(u64, Opening)>,
    /// Parts whose run has no head: the run's id and how many, in id order.
    headless: Vec<(u64, u64)>,
}

#[derive(Debug)]
enum Opening {
    Opened(OpenedRun),
    Arriving(Box<ArrivingRun>),
}

impl RunReader {
    /// The record stored under run id `id`, opened (a head: opened as far as it goes).
    pub fn record(&mut self, id: u64, bytes: Vec<u8>) {
        let opening = if is_parts_head(&bytes) {
            match ArrivingRun::open(&bytes) {
                Ok(run) => Opening::Arriving(Box::new(run)),
                Err(e) => Opening::Opened(OpenedRun::Aside(format!(
                    "sorted run {id} is damaged ({e})"
                ))),
            }
        } else {
            Opening::Opened(open_run(id, bytes))
        };
        self.runs.push((id, opening));
    }

    /// Part `k` of run `id`: its blocks checked now.
    pub fn part(&mut self, id: u64, k: u64, bytes: Vec<u8>) {
        // Heads come in id order, and so do parts: the last run is nearly always the one.
        let found = match self.runs.last_mut() {
            Some((last, opening)) if *last == id => Some(opening),
            _ => self
                .runs
                .iter_mut()
                .find(|(i, _)| *i == id)
                .map(|(_, opening)| opening),
        };
        match found {
            Some(Opening::Arriving(run)) => run.arrive(k, bytes),
            // Parts of a run whose head could not be read, or that was stored whole, are
            // left as they are with their run.
            Some(Opening::Opened(_)) => {}
            None => match self.headless.last_mut() {
                Some((last, n)) if *last == id => *n += 1,
                _ => self.headless.push((id, 1)),
            },
        }
    }

    /// Every run read, in the order their records came, then the parts stored without their
    /// head; a run stored in parts whose parts are not all there, and parts without their
    /// head, are set aside.
    pub fn finish(self) -> Vec<(u64, OpenedRun)> {
        let mut out: Vec<(u64, OpenedRun)> = self
            .runs
            .into_iter()
            .map(|(id, opening)| {
                let opened = match opening {
                    Opening::Opened(run) => run,
                    Opening::Arriving(run) => match run.finish() {
                        Ok(stored) => opened_run(id, stored),
                        Err(why) => OpenedRun::Aside(format!("sorted run {id} is damaged ({why})")),
                    },
                };
                (id, opened)
            })
            .collect();
        out.extend(self.headless.into_iter().map(|(id, n)| {
            (
                id,
                OpenedRun::Aside(format!(
                    "sorted run {id}: {n} part(s) are stored without the record that heads them"
                )),
            )
        }));
        out
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
pub(super) fn named_runs(catalog: &Catalog) -> SortedSet<u64> {
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
pub fn load(clock: Box<dyn Fn() -> u64>, mut records: StoredRecords) -> Loaded {
    let mut problems = records.unreadable.clone();
    // The runs' bytes become the runs themselves (no copy); their ids stay.
    // (A reader fills one or the other: the browser's opens its runs as they arrive.)
    let mut opened = std::mem::take(&mut records.opened);
    let mut reader = RunReader::default();
    for (id, bytes) in std::mem::take(&mut records.runs) {
        reader.record(id, bytes);
    }
    for ((id, k), bytes) in std::mem::take(&mut records.run_parts) {
        reader.part(id, k, bytes);
    }
    opened.extend(reader.finish());
    let stored_runs: SortedSet<u64> = opened.iter().map(|(id, _)| *id).collect();
    // Runs.
    let mut runs: HashMap<u64, Arc<Run>> = HashMap::new();
    let mut places: crate::kit::hash::FastMap<u64, Option<RunPlace>> = Default::default();
    // The runs' rows as stored behind them: the key index is built from these.
    let mut counted = RunRows::new();
    let mut damaged_runs: Vec<(u64, String)> = Vec::new();
    // Runs stored in a layout before block files: written again at the next checkpoint.
    let mut migrated: SortedSet<u64> = SortedSet::new();
    for (id, run) in opened {
        match run {
            OpenedRun::Run {
                run,
                place,
                damaged,
                migrated: was_migrated,
                rows,
            } => {
                // A damaged block costs its cells; the rest of the run loads.
                for e in &damaged {
                    problems.push(format!(
                        "sorted run {id} is damaged ({e}); the cells of that block are lost, the rest of the run loads"
                    ));
                }
                if was_migrated {
                    migrated.insert(id);
                }
                if let Some(rows) = rows {
                    counted.insert(id, rows);
                }
                runs.insert(id, run);
                places.insert(id, place);
            }
            OpenedRun::Aside(why) => {
                problems.push(format!("{why}; kept aside"));
                damaged_runs.push((id, why));
            }
        }
    }
    // Catalogs, newest first.
    let mut readable: Vec<(u64, Catalog)> = Vec::new();
    let mut damaged_generations = SortedSet::new();
    for (generation, bytes) in records.catalogs.iter().rev() {
        match decode_catalog(bytes) {
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
    if base.is_none() && (!stored_runs.is_empty() || !records.wal.is_empty()) {
        problems.push(
            "no readable catalog: starting with no tables; the stored runs are kept aside".into(),
        );
    }
    let named_by: Vec<(u64, SortedSet<u64>)> =
        readable.iter().map(|(g, c)| (*g, named_runs(c))).collect();
    let (mut engine, missing) = match readable.first() {
        Some((_, c)) => Engine::restore_counted(clock, c.clone(), &runs, counted),
        None => (Engine::new(clock), Vec::new()),
    };
    problems.extend(missing);
    let histories = join_activity(
        &mut engine,
        &records.activity,
        std::mem::take(&mut records.opened_activity),
        &mut problems,
    );
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
    let named_any: SortedSet<u64> = named_by
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
    order::sort_by_key(&mut kept_aside, |k| k.id);
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
        stored_runs: stored_runs
            .iter()
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
        catalog: Default::default(),
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
