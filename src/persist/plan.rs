//! What to write after each command, and how to load what was written.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::codec::{
    decode_catalog, decode_groups, decode_run, encode_catalog, encode_groups, encode_run, BlobKind,
};
use crate::engine::Engine;

/// The writes of one transaction. Applied in this order: clear runs, put runs, delete runs,
/// catalog and memstores, clear the log, append to the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavePlan {
    /// Remove every stored run first (a full checkpoint, after a failed save).
    pub clear_runs: bool,
    pub put_runs: Vec<(u64, Vec<u8>)>,
    pub delete_runs: Vec<u64>,
    pub catalog: Option<Vec<u8>>,
    pub memstores: Option<Vec<u8>>,
    /// The checkpoint covers every logged cell.
    pub clear_wal: bool,
    /// A log record to append.
    pub wal: Option<Vec<u8>>,
}

impl SavePlan {
    pub fn is_empty(&self) -> bool {
        *self == SavePlan::default()
    }

    pub fn is_checkpoint(&self) -> bool {
        self.catalog.is_some()
    }

    /// Bytes the plan writes.
    pub fn bytes(&self) -> usize {
        self.put_runs.iter().map(|r| r.1.len()).sum::<usize>()
            + self.catalog.as_ref().map_or(0, Vec::len)
            + self.memstores.as_ref().map_or(0, Vec::len)
            + self.wal.as_ref().map_or(0, Vec::len)
    }
}

/// Turns the engine's recorded changes into save plans, remembering which runs are stored.
#[derive(Debug, Default)]
pub struct Saver {
    stored_runs: BTreeSet<u64>,
    /// The last save failed: the next plan rewrites everything.
    needs_full: bool,
    /// Recovery found problems: the next plan checkpoints what was recovered.
    needs_checkpoint: bool,
}

impl Saver {
    /// A saver for an empty database.
    pub fn new() -> Saver {
        Saver::default()
    }

    /// The plan that saves everything that changed since the last plan.
    pub fn plan(&mut self, engine: &mut Engine) -> SavePlan {
        let changes = engine.take_changes();
        if self.needs_full
            || self.needs_checkpoint
            || changes.catalog
            || !changes.rewritten.is_empty()
        {
            return self.checkpoint(engine);
        }
        if changes.wal.is_empty() {
            return SavePlan::default();
        }
        SavePlan {
            wal: Some(encode_groups(BlobKind::Wal, engine.clocks(), &changes.wal)),
            ..SavePlan::default()
        }
    }

    /// A checkpoint: new runs, the catalog, the memstores; the log emptied.
    pub fn checkpoint(&mut self, engine: &mut Engine) -> SavePlan {
        let _ = engine.take_changes();
        let full = self.needs_full;
        let live: BTreeSet<u64> = engine.all_runs().map(|r| r.id).collect();
        let put_runs = engine
            .all_runs()
            .filter(|r| full || !self.stored_runs.contains(&r.id))
            .map(|r| (r.id, encode_run(r)))
            .collect();
        let delete_runs = if full {
            Vec::new()
        } else {
            self.stored_runs.difference(&live).copied().collect()
        };
        self.stored_runs = live;
        self.needs_full = false;
        self.needs_checkpoint = false;
        SavePlan {
            clear_runs: full,
            put_runs,
            delete_runs,
            catalog: Some(encode_catalog(&engine.catalog())),
            memstores: Some(encode_groups(
                BlobKind::Memstores,
                engine.clocks(),
                &engine.memstore_cells(),
            )),
            clear_wal: true,
            wal: None,
        }
    }

    /// A plan failed to commit: what is stored is unknown, so the next plan rewrites it all.
    pub fn failed(&mut self) {
        self.needs_full = true;
    }
}

/// The stored records, as read back.
#[derive(Clone, Debug, Default)]
pub struct StoredRecords {
    pub catalog: Option<Vec<u8>>,
    pub memstores: Option<Vec<u8>>,
    pub runs: Vec<(u64, Vec<u8>)>,
    /// Log records in key order.
    pub wal: Vec<(u64, Vec<u8>)>,
}

impl StoredRecords {
    /// Applies a plan the way the IndexedDB backend does (native tests use this as the store).
    pub fn apply(&mut self, plan: &SavePlan, next_wal_key: &mut u64) {
        if plan.clear_runs {
            self.runs.clear();
        }
        for (id, bytes) in &plan.put_runs {
            self.runs.retain(|r| r.0 != *id);
            self.runs.push((*id, bytes.clone()));
        }
        self.runs.retain(|r| !plan.delete_runs.contains(&r.0));
        if let Some(c) = &plan.catalog {
            self.catalog = Some(c.clone());
        }
        if let Some(m) = &plan.memstores {
            self.memstores = Some(m.clone());
        }
        if plan.clear_wal {
            self.wal.clear();
        }
        if let Some(w) = &plan.wal {
            *next_wal_key += 1;
            self.wal.push((*next_wal_key, w.clone()));
        }
    }
}

/// An engine rebuilt from stored records, what went wrong on the way, and a saver that knows
/// what is stored.
pub struct Loaded {
    pub engine: Engine,
    pub problems: Vec<String>,
    pub saver: Saver,
    /// Cells replayed from the log.
    pub replayed: usize,
}

/// Rebuilds the engine: catalog, runs, memstores, then the log in order. Damaged records are
/// reported and skipped; the app always gets an engine.
pub fn load(clock: Box<dyn Fn() -> u64>, records: StoredRecords) -> Loaded {
    let mut problems = Vec::new();
    let mut runs = HashMap::new();
    let mut stored_runs = BTreeSet::new();
    for (id, bytes) in &records.runs {
        stored_runs.insert(*id);
        match decode_run(bytes) {
            Ok(run) if run.id == *id => {
                runs.insert(*id, Arc::new(run));
            }
            Ok(run) => problems.push(format!(
                "sorted run {id} holds run {} instead; skipped",
                run.id
            )),
            Err(e) => problems.push(format!("sorted run {id} is damaged ({e}); skipped")),
        }
    }
    let catalog = match records.catalog.as_deref().map(decode_catalog) {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => {
            problems.push(format!(
                "the catalog is damaged ({e}); starting with no tables"
            ));
            None
        }
        None => {
            if !records.runs.is_empty() || !records.wal.is_empty() {
                problems.push("stored data without a catalog; starting with no tables".into());
            }
            None
        }
    };
    let (mut engine, missing) = match catalog {
        Some(c) => Engine::restore(clock, c, &runs),
        None => (Engine::new(clock), Vec::new()),
    };
    problems.extend(missing);
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
    if let Some(m) = &records.memstores {
        replay(
            &mut engine,
            "the memstore snapshot".into(),
            BlobKind::Memstores,
            m,
            &mut problems,
        );
    }
    for (key, bytes) in &records.wal {
        replay(
            &mut engine,
            format!("log record {key}"),
            BlobKind::Wal,
            bytes,
            &mut problems,
        );
    }
    let _ = engine.take_changes();
    let saver = Saver {
        stored_runs,
        needs_full: false,
        needs_checkpoint: !problems.is_empty(),
    };
    Loaded {
        engine,
        problems,
        saver,
        replayed,
    }
}
