//! The saver: what each command's changes, a checkpoint and the activity history write.

use std::sync::Arc;

use super::*;
use crate::engine::{Engine, Run};
use crate::kit::sorted::{SortedMap, SortedSet};
use crate::persist::catalog::CatalogWriter;
use crate::persist::codec::{encode_groups, encode_json_text, BlobKind, CodecError, RunPlace};
use crate::persist::run_parts::{encode_stored_run_records, PART_RECORD_BYTES};

/// Turns the engine's recorded changes into save plans. It keeps two layouts: `planned` (as
/// if every plan handed out commits) and `committed` (what the store is known to hold); a
/// failure takes `planned` back to `committed`.
#[derive(Debug, Default)]
pub struct Saver {
    pub(super) planned: Layout,
    pub(super) committed: Layout,
    /// The next plan must be a checkpoint (after a failure, after recovery, at the start).
    pub(super) needs_checkpoint: bool,
    /// The store must be cleared (Reset) and that is not committed yet.
    pub(super) needs_clear: bool,
    /// What the planned store holds of each table's activity history: a checkpoint writes
    /// only what changed (a history holds up to 100,000 operations).
    pub(super) histories: SortedMap<String, StoredHistory>,
    /// The catalog's text, kept table by table: a checkpoint encodes only the tables that
    /// changed since the last one.
    pub(super) catalog: CatalogWriter,
}

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
        let changed = changes.any();
        if self.needs_checkpoint
            || self.needs_clear
            || (self.planned.current.is_none() && changed)
            || changes.catalog
            || !changes.rewritten.is_empty()
        {
            return self.checkpoint(engine);
        }
        // The activity history grows with every operation, reads too: what it recorded since
        // the last save goes with the log record (or alone, after reads), so the explorer's
        // history after a reload is the one the page showed when it said "saved".
        let activity = Some(self.encode_activity(engine, false)?)
            .filter(|a| !a.put.is_empty() || !a.delete.is_empty());
        if changes.wal.is_empty() {
            return Ok(SavePlan {
                activity,
                ..SavePlan::default()
            });
        }
        let key = (self.planned.newest, self.planned.next_wal);
        self.planned.next_wal += 1;
        Ok(SavePlan {
            wal: Some((
                key,
                encode_groups(BlobKind::Wal, engine.clocks(), &changes.wal),
            )),
            activity,
            ..SavePlan::default()
        })
    }

    /// A checkpoint: a new catalog generation, the runs not yet stored, the memstores; the
    /// generation before is kept, older ones and the log they needed go. After a Reset, the
    /// checkpoint first clears the store.
    pub fn checkpoint(&mut self, engine: &mut Engine) -> Result<SavePlan, PlanError> {
        let _ = engine.take_changes();
        let catalog = encode_json_text(BlobKind::Catalog, &self.catalog.write(engine.catalog()));
        // After a failure or a Reset the store's histories are unknown: all are written again.
        let activity = self.encode_activity(engine, self.needs_checkpoint || self.needs_clear)?;
        let memstores = encode_groups(
            BlobKind::Memstores,
            engine.clocks(),
            &engine.memstore_cells(),
        );
        let clear = self.needs_clear;
        // Taken, not cloned: the planned layout is replaced below (its sets name every run).
        let before = if clear {
            Layout {
                newest: self.planned.newest,
                ..Layout::default()
            }
        } else {
            std::mem::take(&mut self.planned)
        };
        let generation = before.newest + 1;
        let live: SortedSet<u64> = engine.all_runs().map(|run| run.id).collect();
        // Only the runs not stored yet are placed and encoded.
        let mut put_runs: Vec<(u64, Vec<u8>)> = Vec::new();
        let mut put_parts: Vec<((u64, u64), Vec<u8>)> = Vec::new();
        for (run, place) in placed_runs(engine, |id| !before.stored_runs.contains(&id)) {
            let (record, parts) = encode_stored_run_records(&run, &place, PART_RECORD_BYTES);
            put_runs.push((run.id, record));
            put_parts.extend((1..).zip(parts).map(|(k, part)| ((run.id, k), part)));
        }
        // Kept: the runs of the new generation, of the one before it, and those set aside.
        let mut keep = live.clone();
        keep.extend(before.named.iter().copied());
        keep.extend(before.kept_aside.iter().copied());
        let delete_runs: Vec<u64> = before.stored_runs.difference(&keep).copied().collect();
        let mut delete_generations: SortedSet<u64> = before.stale;
        if let Some((g, _)) = &before.previous {
            delete_generations.insert(*g);
        }
        let delete_wal_below = before.current;
        let mut stored_runs = before.stored_runs;
        stored_runs.extend(put_runs.iter().map(|r| r.0));
        let deleted: SortedSet<u64> = delete_runs.iter().copied().collect();
        stored_runs.retain(|id| !deleted.contains(id));
        self.planned = Layout {
            current: Some(generation),
            named: live,
            previous: before.current.map(|g| (g, before.named)),
            stale: SortedSet::new(),
            damaged: before.damaged,
            stored_runs,
            kept_aside: before.kept_aside,
            newest: generation,
            next_wal: 1,
        };
        self.needs_checkpoint = false;
        self.needs_clear = false;
        Ok(SavePlan {
            clear_all: clear,
            put_runs,
            put_parts,
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
        let mut live = SortedSet::new();
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
            let other = stored.last_tick.is_some_and(|tick| {
                super::activity::last_tick(activity, stored.upto).is_some_and(|t| t != tick)
            });
            if end < stored.upto || other {
                // A new table under an old name: its history starts again.
                w.delete
                    .extend(stored.chunks.iter().map(|c| chunk_key(name, *c)));
                *stored = StoredHistory::default();
            }
            w.put
                .push((name.clone(), super::activity::encode_head(activity)));
            let from = stored.upto.max(first);
            if end > from {
                for chunk in from / OPS_PER_CHUNK..=(end - 1) / OPS_PER_CHUNK {
                    let lo = (chunk * OPS_PER_CHUNK).max(first);
                    let hi = ((chunk + 1) * OPS_PER_CHUNK).min(end);
                    let record = OpsChunk {
                        first: lo,
                        ops: activity.ops_between(lo, hi).cloned().collect(),
                    };
                    w.put.push((chunk_key(name, chunk), record.encode()));
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
            stored.last_tick = super::activity::last_tick(activity, end);
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
        let kept_aside = std::mem::take(&mut self.planned.kept_aside);
        self.planned
            .stored_runs
            .retain(|id| !kept_aside.contains(id));
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

/// Every run `wanted` keeps (by id), with the place it belongs to.
pub(super) fn placed_runs(
    engine: &Engine,
    wanted: impl Fn(u64) -> bool,
) -> Vec<(Arc<Run>, RunPlace)> {
    let mut out = Vec::new();
    for t in engine.tables() {
        for r in &t.regions {
            for s in &r.stores {
                for run in s.runs.iter().filter(|run| wanted(run.id)) {
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
