//! The background work of a region server, done at once: flushes, compactions (minor by the
//! store's policy, or major) and splits, each logged as an event.

use super::error::{Error, Result};
use super::lsm::{Dropped, EventLog, LsmEvent, LsmEventKind, RunSummary, SplitCause, SplitRecord};
use super::policy::CompactionPolicy;
use super::stats::RegionStats;
use super::store::{Rewrite, Store};
use super::table::Region;
use super::Engine;

impl Engine {
    /// HBase's background work for one region, done at once: flush a full memstore, compact a
    /// store with too many runs, split a region grown past the threshold.
    pub(super) fn upkeep(&mut self, table: &str, idx: usize) {
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
            self.split_region(table, idx, &mid, SplitCause::Size);
        }
    }

    /// Flushes every memstore of the table (the shell's `flush` flushes every family).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn flush(&mut self, table: &str) -> Result<()> {
        let n = self.table(table)?.regions.len();
        self.keep_before(table, None, LsmEventKind::Flush);
        for idx in 0..n {
            self.flush_region(table, idx, &[]);
        }
        Ok(())
    }

    /// Flushes one family's memstore in every region (the shell's `flush 't', 'f'`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn flush_family(&mut self, table: &str, family: &[u8]) -> Result<()> {
        let t = self.table(table)?;
        let Some(fi) = t.descriptor.family_index(family) else {
            return Err(Error::no_such_family(
                family,
                &t.descriptor,
                t.regions.first().map(|r| r.name(table)).unwrap_or_default(),
            ));
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
            self.log_event(table, tick, kind, region_id, family, rw, None);
        }
    }

    /// Appends an event to the table's history.
    #[allow(clippy::too_many_arguments)]
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn log_event(
        &mut self,
        table: &str,
        tick: u64,
        kind: LsmEventKind,
        region: u64,
        family: Option<String>,
        rw: Rewrite,
        split: Option<SplitRecord>,
    ) {
        self.event_serial += 1;
        let (daughters, cause, parent_stats) = match split {
            Some(s) => (s.daughters, Some(s.cause), s.parent_stats),
            None => (Vec::new(), None, RegionStats::default()),
        };
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
            cause,
            parent_stats,
        };
        self.events
            .entry(table.to_string())
            .or_default()
            .push(event);
    }

    /// The table's recent flushes, compactions and splits (empty for an unknown table).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn lsm_events(&self, table: &str) -> Option<&EventLog> {
        self.events.get(table)
    }

    /// Compacts every store of the table: minor merges runs keeping markers; major also drops
    /// markers and the cells they mask.
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
                    return Err(Error::no_such_family(
                        f,
                        &t.descriptor,
                        t.regions.first().map(|r| r.name(table)).unwrap_or_default(),
                    ))
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
        let refreshed = self.compact_store(table, idx, fi, false);
        if let Some(s) = store(self, table, idx, fi) {
            let mut runs = newer;
            runs.append(&mut s.runs);
            runs.append(&mut older);
            s.runs = runs;
        }
        // A compaction that dropped cells refreshed the key index from the picked runs alone:
        // refresh it from them all. One that dropped none left every row's count as it was.
        if refreshed {
            if let Some(t) = self.tables.get_mut(table) {
                if let Some(r) = t.regions.get(idx) {
                    t.keys.replace_range(&r.start, &r.end, r.rows());
                }
            }
        }
    }

    /// Compacts one store's runs; whether the key index was refreshed from them (the
    /// compaction dropped cells).
    fn compact_store(&mut self, table: &str, idx: usize, fi: usize, major: bool) -> bool {
        let now = self.now();
        let id = self.next_id();
        let Some(t) = self.tables.get_mut(table) else {
            return false;
        };
        let Some(family) = t.descriptor.families.get(fi) else {
            return false;
        };
        let Some(region) = t.regions.get_mut(idx) else {
            return false;
        };
        let Some(store) = region.stores.get_mut(fi) else {
            return false;
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
            return false;
        };
        let refreshed = rw.dropped.total() > 0;
        if refreshed {
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
        self.log_event(table, tick, kind, region_id, Some(family_name), rw, None);
        refreshed
    }

    /// Splits the region holding `at` at that row, or with `None` every region at its mid key.
    #[cfg_attr(rowkey_cold, optimize(size))]
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
                self.split_region(table, idx, key, SplitCause::Asked);
            }
            None => {
                // The middle keys come from the runs' block indexes: the memstores go to runs
                // first.
                for idx in 0..t.regions.len() {
                    self.flush_region(table, idx, &[]);
                }
                let t = self.table(table)?;
                let mids: Vec<(usize, Vec<u8>)> = t
                    .regions
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.mid_key().map(|m| (i, m)))
                    .collect();
                for (i, mid) in mids.into_iter().rev() {
                    self.split_region(table, i, &mid, SplitCause::Asked);
                }
            }
        }
        Ok(())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn split_region(&mut self, table: &str, idx: usize, at: &[u8], cause: SplitCause) {
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
        // Both daughters are new regions with counters of their own: HBase's request counts
        // are an `HRegion`'s, and the daughters open as new `HRegion`s (`SplitTableRegionProcedure`).
        // The parent's counters stay on the split's event.
        let parent_stats = std::mem::take(&mut region.stats);
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
            Some(SplitRecord {
                daughters,
                cause,
                parent_stats,
            }),
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
