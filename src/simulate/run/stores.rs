//! A region's store files: a flush writes one, compactions merge them as HBase 2.x's default
//! `ExploringCompactionPolicy` selects, and a split takes its point from the largest one.
//!
//! What the model follows (`org.apache.hadoop.hbase.regionserver`):
//!
//! - A flush writes one file per store; the region's stores flush together here, so their
//!   files line up and one [`StoreFile`] holds every store's bytes of it.
//! - After a flush, when a store has `hbase.hstore.compaction.min` (3) files or more
//!   (`SortedCompactionPolicy.needsCompaction`), `ExploringCompactionPolicy` picks, among every
//!   run of 3 to `hbase.hstore.compaction.max` (10) consecutive files (oldest first), those
//!   whose total is below `hbase.hstore.compaction.min.size` (the flush size) or whose every
//!   file is at most `hbase.hstore.compaction.ratio` (1.2) times the others together; the
//!   best removes the most files, then reads the fewest bytes. The run becomes one file in its
//!   place. The stores' sizes are proportional, so the selection is made on the largest
//!   store's and applies to all. A compaction here is done at once, where HBase runs it in
//!   the background.
//! - A daughter opens with reference files to its half of the parent's, and compacts them
//!   all into one file when it opens (a compaction of references is always a major one); here
//!   it opens with that one file.
//! - The split point is the largest file's middle key (`StoreUtils.getSplitPoint`: the first
//!   key of the middle block of its block index), estimated as the key below which half the
//!   file's bytes lie among its samples; none when that is the file's first or last row
//!   (`StoreUtils.getFileSplitPoint`).

use super::Sample;
use crate::kit::order;

/// Files a store needs before a compaction is looked for (`hbase.hstore.compaction.min`).
pub(super) const COMPACTION_MIN_FILES: usize = 3;
/// Most files one compaction takes (`hbase.hstore.compaction.max`).
pub(super) const COMPACTION_MAX_FILES: usize = 10;
/// `hbase.hstore.compaction.ratio`.
pub(super) const COMPACTION_RATIO: f64 = 1.2;

/// One flushed or compacted file of every store of a region.
#[derive(Clone, Debug, Default)]
pub(super) struct StoreFile {
    /// Per family: bytes.
    pub(super) bytes: Vec<f64>,
    /// The write samples in it, in no order.
    pub(super) writes: Vec<u32>,
}

/// The files `ExploringCompactionPolicy.applyCompactionPolicy` picks from `sizes` (oldest
/// first), as the range of their indices; `None` when no run qualifies. `min_size` is
/// `hbase.hstore.compaction.min.size` (the flush size by default).
pub(super) fn exploring_selection(sizes: &[f64], min_size: f64) -> Option<std::ops::Range<usize>> {
    if sizes.len() < COMPACTION_MIN_FILES {
        return None;
    }
    let mut best: Option<(std::ops::Range<usize>, f64)> = None;
    for start in 0..sizes.len() {
        let last = sizes.len().min(start + COMPACTION_MAX_FILES);
        for end in start + COMPACTION_MIN_FILES..=last {
            let files = &sizes[start..end];
            let total: f64 = files.iter().sum();
            let in_ratio = files
                .iter()
                .all(|&size| size <= (total - size) * COMPACTION_RATIO);
            if total >= min_size && !in_ratio {
                continue;
            }
            let better = match &best {
                None => true,
                Some((range, size)) => {
                    files.len() > range.len() || (files.len() == range.len() && total < *size)
                }
            };
            if better {
                best = Some((start..end, total));
            }
        }
    }
    best.map(|(range, _)| range)
}

/// Compacts `files` once if the policy picks a run of them; returns whether it did.
pub(super) fn compact(files: &mut Vec<StoreFile>, family: usize, min_size: f64) -> bool {
    let sizes: Vec<f64> = files
        .iter()
        .map(|f| f.bytes.get(family).copied().unwrap_or(0.0))
        .collect();
    let Some(range) = exploring_selection(&sizes, min_size) else {
        return false;
    };
    let start = range.start;
    let mut merged = StoreFile::default();
    for file in files.drain(range) {
        if merged.bytes.len() < file.bytes.len() {
            merged.bytes.resize(file.bytes.len(), 0.0);
        }
        for (m, b) in merged.bytes.iter_mut().zip(&file.bytes) {
            *m += b;
        }
        merged.writes.extend(file.writes);
    }
    files.insert(start, merged);
    true
}

/// The index of the largest file of store `family`.
pub(super) fn largest_file(files: &[StoreFile], family: usize) -> Option<usize> {
    let size = |f: &StoreFile| f.bytes.get(family).copied().unwrap_or(0.0);
    (0..files.len()).reduce(|a, b| {
        if size(&files[b]) > size(&files[a]) {
            b
        } else {
            a
        }
    })
}

/// The middle key of a file holding `writes`: the first key at which half its bytes lie
/// below, or `None` when that is its first or last row. Sorts `writes` by key.
pub(super) fn middle_key(writes: &mut [u32], samples: &[Sample], keys: &[u8]) -> Option<Vec<u8>> {
    order::sort_by(writes, |a, b| {
        samples[*a as usize]
            .key(keys)
            .cmp(samples[*b as usize].key(keys))
            .then(a.cmp(b))
    });
    let total: f64 = writes.iter().map(|&i| samples[i as usize].bytes).sum();
    let mut cumulative = 0.0;
    let mut mid = None;
    // A sample's bytes lie about its key, half below and half above it.
    for &i in writes.iter() {
        let bytes = samples[i as usize].bytes;
        if cumulative + bytes / 2.0 >= total / 2.0 {
            mid = Some(samples[i as usize].key(keys));
            break;
        }
        cumulative += bytes;
    }
    let first = samples[*writes.first()? as usize].key(keys);
    let last = samples[*writes.last()? as usize].key(keys);
    mid.filter(|m| m != &first && m != &last)
        .map(<[u8]>::to_vec)
}
