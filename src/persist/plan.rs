//! What to write after each command, and how to load what was written.
//!
//! Catalogs come in generations. A checkpoint writes generation `N` (the catalog, the memstore
//! snapshot, and only the runs not yet stored) and keeps generation `N - 1` with every run it
//! names, so a catalog damaged after it committed falls back to the one before. Log records are
//! keyed `(generation, number)`: those of generation `g` were appended after checkpoint `g`, so
//! loading generation `g` replays every log record of generations `g` and later, in key order.
//! Runs that no readable catalog names (and damaged runs) are kept aside, never deleted by a
//! checkpoint: only [`Saver::discard_kept_aside`], which the person asks for, deletes them.

use crate::kit::sorted::SortedSet;

use super::codec::CodecError;

mod activity;
mod load;
mod saver;

use activity::*;
pub use activity::{open_activity, OpenedActivity, OpsChunk, OPS_PER_CHUNK};
pub use load::{load, open_run, KeptRun, Loaded, OpenedRun, RunReader, StoredRecords};
pub use saver::Saver;

/// A log record's key: its generation, then its number within the generation.
pub type WalKey = (u64, u64);

/// A new catalog generation with the memstores at that moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub generation: u64,
    pub catalog: Vec<u8>,
    pub memstores: Vec<u8>,
}

/// The writes of one transaction. Applied in this order: clear everything, put runs and their
/// parts, delete runs (with their parts), the new generation, delete old generations, delete old log records, append to the
/// log, replace the activity history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavePlan {
    /// Remove every stored record first (the app's Reset).
    pub clear_all: bool,
    /// Run records under their run's id: a run whole, or the head of a run stored in parts.
    pub put_runs: Vec<(u64, Vec<u8>)>,
    /// The parts of the runs stored in parts, under `(run id, part number from 1)`.
    pub put_parts: Vec<((u64, u64), Vec<u8>)>,
    /// Runs deleted, with their parts.
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
            + self.put_parts.iter().map(|r| r.1.len()).sum::<usize>()
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
    pub named: SortedSet<u64>,
    /// The generation before it, kept as a fallback, and the runs it names.
    pub previous: Option<(u64, SortedSet<u64>)>,
    /// Readable generations older than `previous`: deleted by the next checkpoint.
    pub stale: SortedSet<u64>,
    /// Damaged generations: kept aside until the person discards them.
    pub damaged: SortedSet<u64>,
    /// Every run stored.
    pub stored_runs: SortedSet<u64>,
    /// Runs named by no readable catalog, or damaged: kept until the person discards them.
    pub kept_aside: SortedSet<u64>,
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
