//! The regions of a table as a cluster runs them: writes fill memstores, memstores flush into
//! stores, the split policy splits a region at its middle key, the balancer moves regions.

use super::{Sample, SampleKind, TableSim};
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
    /// The samples that wrote into it (for its middle key).
    pub(super) writes: Vec<u32>,
    /// Writes count when a split was last found impossible.
    pub(super) unsplittable_at: usize,
    pub(super) reads: f64,
    pub(super) filtered: f64,
    pub(super) written: f64,
}

impl TableSim {
    pub(super) fn locate(&self, key: &[u8]) -> usize {
        self.regions
            .partition_point(|r| r.start.as_slice() <= key)
            .saturating_sub(1)
    }

    pub(super) fn write(&mut self, mut sample: Sample, weight: f64, at: f64) {
        let (row_bytes, per_family) = if sample.kind == SampleKind::Delete {
            // A delete marker: one KeyValue with the row and no qualifier or value.
            let b = (4 + 4 + 2 + 1 + 8 + 1) as f64 + self.scratch.key.len() as f64;
            (b, vec![b])
        } else {
            self.row_put_bytes(self.scratch.key.len())
        };
        sample.bytes = row_bytes * weight;
        let mut r = self.locate(&self.scratch.key);
        sample.region = self.regions[r].id;
        let index = self.push_sample(sample);
        let flush = self.workload.cluster.flush_size as f64;
        self.regions[r].written += weight;
        self.regions[r].writes.push(index);
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

    /// Flushes region `r`'s memstore into store files, then asks its policy about a split.
    pub(super) fn flush(&mut self, r: usize, at: f64) {
        let region = &mut self.regions[r];
        for (m, s) in region.memstore.iter_mut().zip(region.stores.iter_mut()) {
            *s += *m;
            *m = 0.0;
        }
        region.store_files += self.families_len.len() as u32;
        let largest = region.stores.iter().copied().fold(0.0, f64::max) as u64;
        let server = region.server;
        let on_server = self.regions.iter().filter(|o| o.server == server).count() as u32;
        let region = &self.regions[r];
        if region.policy.should_split(largest, on_server)
            && region.writes.len() > region.unsplittable_at
        {
            let limit = region.policy.size_to_check(on_server).unwrap_or(u64::MAX);
            self.split(r, at, largest, limit);
        }
    }

    /// Splits region `r` at the middle key of its data: the key below which half its bytes
    /// lie, from its write samples (as the largest store file's block index would give it).
    pub(super) fn split(&mut self, r: usize, at: f64, largest: u64, limit: u64) {
        let mut writes = std::mem::take(&mut self.regions[r].writes);
        let keys = &self.keys;
        let samples = &self.samples;
        writes.sort_by(|a, b| {
            samples[*a as usize]
                .key(keys)
                .cmp(samples[*b as usize].key(keys))
                .then(a.cmp(b))
        });
        let total: f64 = writes.iter().map(|&i| samples[i as usize].bytes).sum();
        let mut cumulative = 0.0;
        let mut mid: Option<Vec<u8>> = None;
        for &i in &writes {
            cumulative += samples[i as usize].bytes;
            if cumulative >= total / 2.0 {
                mid = Some(samples[i as usize].key(keys).to_vec());
                break;
            }
        }
        let region = &self.regions[r];
        let point = mid.map(|m| region.policy.split_point(&m));
        let usable = point.filter(|p| {
            p.as_slice() > region.start.as_slice()
                && (region.end.is_empty() || p.as_slice() < region.end.as_slice())
        });
        let Some(point) = usable else {
            let region = &mut self.regions[r];
            region.unsplittable_at = writes.len() + writes.len() / 10 + 1;
            region.writes = writes;
            return;
        };
        let cut = writes.partition_point(|&i| samples[i as usize].key(keys) < point.as_slice());
        let left_bytes: f64 = writes[..cut]
            .iter()
            .map(|&i| samples[i as usize].bytes)
            .sum();
        let share = if total > 0.0 { left_bytes / total } else { 0.5 };
        let right_writes = writes.split_off(cut);
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
                    writes,
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
