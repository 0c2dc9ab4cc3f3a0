//! The regions of a table as a cluster runs them: writes fill memstores, memstores flush into
//! stores, the split policy splits a region at its middle key, the balancer moves regions.

use super::stores::{self, StoreFile};
use super::{OpKind, Sample, TableSim};
use crate::simulate::policy::RegionPolicy;
use crate::simulate::timeline::{Move, RegionSpan, Split};

/// A region while the simulation runs.
pub(super) struct Region {
    pub(super) id: u32,
    pub(super) start: Vec<u8>,
    pub(super) end: Vec<u8>,
    pub(super) server: u32,
    pub(super) policy: RegionPolicy,
    /// Per family: bytes in the memstore and in the store files.
    pub(super) memstore: Vec<f64>,
    pub(super) stores: Vec<f64>,
    pub(super) store_files: u32,
    /// The samples that wrote into the memstore since its last flush.
    pub(super) mem_writes: Vec<u32>,
    /// Its store files, oldest first.
    pub(super) files: Vec<StoreFile>,
    /// Writes count when a split was last found impossible.
    pub(super) unsplittable_at: usize,
    pub(super) reads: f64,
    pub(super) filtered: f64,
    pub(super) written: f64,
}

impl Region {
    /// The write samples it holds, flushed or not.
    pub(super) fn write_samples(&self) -> usize {
        self.mem_writes.len() + self.files.iter().map(|f| f.writes.len()).sum::<usize>()
    }

    /// The family of its largest store (the first on a tie).
    pub(super) fn largest_store(&self) -> usize {
        (0..self.stores.len())
            .reduce(|a, b| {
                if self.stores[b] > self.stores[a] {
                    b
                } else {
                    a
                }
            })
            .unwrap_or(0)
    }
}

impl TableSim {
    pub(super) fn locate(&self, key: &[u8]) -> usize {
        self.regions
            .partition_point(|r| r.start.as_slice() <= key)
            .saturating_sub(1)
    }

    pub(super) fn write(&mut self, mut sample: Sample, weight: f64, at: f64) {
        let (row_bytes, per_family) = if sample.kind == Some(OpKind::Delete) {
            // A delete marker: one KeyValue with the row and no qualifier or value.
            let b = (4 + 4 + 2 + 1 + 8 + 1) as f64 + self.scratch.key.len() as f64;
            (b, vec![b])
        } else {
            self.row_put_bytes(self.scratch.key.len())
        };
        sample.bytes = row_bytes * weight;
        let mut r = self.locate(&self.scratch.key);
        sample.region = self.regions[r].id;
        if !sample.is_initial() {
            self.live_writes
                .add(sample.region, self.regions[r].server, weight);
        }
        let index = self.push_sample(sample);
        let flush = self.workload.cluster.flush_size as f64;
        self.regions[r].written += weight;
        self.regions[r].mem_writes.push(index);
        // One operation's cells go into the memstore whole, and the memstore flushes once it
        // reaches the flush size (as HBase's does after a put). A sample standing for several
        // operations is cut where the memstore reaches the flush size, so its rows flush as
        // they would one by one.
        let mut left = 1.0f64;
        let sample_bytes = row_bytes * weight;
        loop {
            let held: f64 = self.regions[r].memstore.iter().sum();
            let part = if weight > 1.0 && sample_bytes > 0.0 {
                ((flush - held) / sample_bytes).clamp(0.0, left)
            } else {
                left
            };
            for (f, b) in per_family.iter().enumerate() {
                if let Some(m) = self.regions[r].memstore.get_mut(f) {
                    *m += b * weight * part;
                }
            }
            left -= part;
            if self.regions[r].memstore.iter().sum::<f64>() >= flush * (1.0 - 1e-12) {
                self.flush(r, at);
                // A split may have replaced region r: the rest goes where the key now is.
                r = self.locate(&self.scratch.key);
            }
            if left <= 1e-12 {
                break;
            }
        }
    }

    /// Flushes region `r`'s memstore into a store file, then asks its policy about a split,
    /// and when it does not split, its compaction policy about a compaction (in this order,
    /// as `MemStoreFlusher.flushRegion` does).
    pub(super) fn flush(&mut self, r: usize, at: f64) {
        let families = self.families_len.len();
        let region = &mut self.regions[r];
        region.files.push(StoreFile {
            bytes: region.memstore.clone(),
            writes: std::mem::take(&mut region.mem_writes),
        });
        for (m, s) in region.memstore.iter_mut().zip(region.stores.iter_mut()) {
            *s += *m;
            *m = 0.0;
        }
        region.store_files = (region.files.len() * families) as u32;
        let largest = region.stores.iter().copied().fold(0.0, f64::max) as u64;
        let server = region.server;
        let on_server = self.regions.iter().filter(|o| o.server == server).count() as u32;
        let region = &self.regions[r];
        if region.policy.should_split(largest, on_server)
            && region.write_samples() > region.unsplittable_at
        {
            let limit = region.policy.size_to_check(on_server).unwrap_or(u64::MAX);
            if self.split(r, at, largest, limit) {
                return;
            }
        }
        let flush = self.workload.cluster.flush_size as f64;
        let region = &mut self.regions[r];
        let family = region.largest_store();
        if stores::compact(&mut region.files, family, flush) {
            region.store_files = (region.files.len() * families) as u32;
        }
    }

    /// Splits region `r` at the middle key of its largest store's largest file (see
    /// [`stores`]); returns whether it split. Each daughter opens with one file: its half of
    /// the parent's, compacted.
    pub(super) fn split(&mut self, r: usize, at: f64, largest: u64, limit: u64) -> bool {
        let family = self.regions[r].largest_store();
        let mid = match stores::largest_file(&self.regions[r].files, family) {
            Some(f) => {
                let mut writes = std::mem::take(&mut self.regions[r].files[f].writes);
                let mid = stores::middle_key(&mut writes, &self.samples, &self.keys);
                self.regions[r].files[f].writes = writes;
                mid
            }
            None => None,
        };
        let region = &self.regions[r];
        let point = mid.map(|m| region.policy.split_point(&m));
        let usable = point.filter(|p| {
            p.as_slice() > region.start.as_slice()
                && (region.end.is_empty() || p.as_slice() < region.end.as_slice())
        });
        let Some(point) = usable else {
            let region = &mut self.regions[r];
            let n = region.write_samples();
            region.unsplittable_at = n + n / 10 + 1;
            return false;
        };
        let keys = &self.keys;
        let samples = &self.samples;
        let region = &mut self.regions[r];
        let (mut writes, mut right_writes) = (Vec::new(), Vec::new());
        let (mut left_bytes, mut total) = (0.0, 0.0);
        let all = region
            .files
            .drain(..)
            .flat_map(|f| f.writes)
            .chain(region.mem_writes.drain(..));
        for i in all {
            let sample = &samples[i as usize];
            total += sample.bytes;
            if sample.key(keys) < point.as_slice() {
                left_bytes += sample.bytes;
                writes.push(i);
            } else {
                right_writes.push(i);
            }
        }
        let share = if total > 0.0 { left_bytes / total } else { 0.5 };
        let at_ms = at.max(0.0) as u64;
        let parent = self.regions.remove(r);
        let c = &self.workload.cluster;
        let mut daughters = Vec::with_capacity(2);
        for (i, (start, end, writes, part)) in [
            (parent.start.clone(), point.clone(), writes, share),
            (point.clone(), parent.end.clone(), right_writes, 1.0 - share),
        ]
        .into_iter()
        .enumerate()
        {
            let id = self.spans.len() as u32;
            let policy = RegionPolicy::configure(
                c.split_policy,
                c.max_filesize,
                c.flush_size,
                c.jitter,
                &mut self.jitter_gen,
            );
            self.spans.push(RegionSpan {
                id,
                start_key: start.clone(),
                end_key: end.clone(),
                from_ms: at_ms,
                to_ms: None,
                parent: Some(parent.id),
                desired_max_file_size: policy.desired_max_file_size,
            });
            daughters.push(id);
            // HBase 2.x opens both daughters on the parent's server.
            self.regions.insert(
                r + i,
                Region {
                    id,
                    start,
                    end,
                    server: parent.server,
                    policy,
                    memstore: parent.memstore.iter().map(|m| m * part).collect(),
                    stores: parent.stores.iter().map(|s| s * part).collect(),
                    store_files: self.families_len.len() as u32,
                    mem_writes: Vec::new(),
                    files: vec![StoreFile {
                        bytes: parent.stores.iter().map(|s| s * part).collect(),
                        writes,
                    }],
                    unsplittable_at: 0,
                    reads: parent.reads * part,
                    filtered: parent.filtered * part,
                    written: parent.written * part,
                },
            );
        }
        if let Some(span) = self.spans.get_mut(parent.id as usize) {
            span.to_ms = Some(at_ms);
        }
        self.splits.push(Split {
            at_ms,
            region: parent.id,
            key: point,
            daughters: (daughters[0], daughters[1]),
            store_bytes: largest,
            size_to_check: limit,
            server: parent.server,
        });
        true
    }

    /// The balancer's run at `at_ms`: the table's regions spread so every server holds the
    /// floor or the ceiling of the average; each move takes the newest region (highest id) of
    /// the server with the most (the lowest-numbered on a tie) to the server with the fewest
    /// (the lowest-numbered on a tie).
    pub(super) fn balance(&mut self, at_ms: u64) {
        let servers = self.workload.cluster.region_servers as usize;
        loop {
            let mut counts = vec![0usize; servers];
            for r in &self.regions {
                counts[r.server as usize] += 1;
            }
            let (most, &hi) = counts
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
                .unwrap_or((0, &0));
            let (fewest, &lo) = counts
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(&b.0)))
                .unwrap_or((0, &0));
            if hi <= lo + 1 {
                return;
            }
            let Some(region) = self
                .regions
                .iter_mut()
                .filter(|r| r.server as usize == most)
                .max_by_key(|r| r.id)
            else {
                return;
            };
            region.server = fewest as u32;
            self.moves.push(Move {
                at_ms,
                region: region.id,
                from: most as u32,
                to: fewest as u32,
            });
        }
    }
}
