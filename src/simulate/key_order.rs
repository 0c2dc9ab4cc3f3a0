//! The samples of a run in key order: their positions sorted by key, equal keys in sample (time)
//! order. The samples under a key prefix are then one contiguous span of that order, found by
//! binary search, so a drill-down counts only its own samples rather than passing over all.
//!
//! A run sorts its samples once, at the end of a table's time, a part a call ([`KeySort`]):
//! runs of [`RUN`] positions sorted, then merged pairwise, a bounded number of positions a call,
//! so a page's slice stays short however many samples there are.

use std::cmp::Ordering;
use std::ops::Range;

use super::run::Sample;

/// Positions sorted in one piece before the merging starts.
pub const RUN: usize = 256;

/// The positions of a run's samples sorted by key, equal keys in sample order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyOrder(Vec<u32>);

impl KeyOrder {
    /// The order of `samples` (keys in `keys`), sorted in one call.
    pub fn of(samples: &[Sample], keys: &[u8]) -> KeyOrder {
        KeySort::new(samples.len()).finish(samples, keys)
    }

    /// The sample positions, by key.
    pub fn positions(&self) -> &[u32] {
        &self.0
    }

    /// Where in [`KeyOrder::positions`] the samples with keys in `[start, end)` are (`end`
    /// empty: to the table's end).
    pub fn span(&self, samples: &[Sample], keys: &[u8], start: &[u8], end: &[u8]) -> Range<usize> {
        let key = |p: &u32| key_of(samples, keys, *p);
        let from = self.0.partition_point(|p| key(p) < start);
        let to = if end.is_empty() {
            self.0.len()
        } else {
            self.0.partition_point(|p| key(p) < end)
        };
        from..to.max(from)
    }

    /// The positions in `span` (of [`KeyOrder::positions`]) in sample order: a mark per sample,
    /// then the marks read in order, so it costs the span plus a bit per sample.
    pub fn in_sample_order(&self, span: Range<usize>, samples: usize) -> Vec<u32> {
        let Some(part) = self.0.get(span) else {
            return Vec::new();
        };
        if part.len() == self.0.len() {
            return (0..part.len() as u32).collect();
        }
        let mut marks = vec![0u64; samples.div_ceil(64)];
        for &p in part {
            if let Some(word) = marks.get_mut(p as usize / 64) {
                *word |= 1 << (p % 64);
            }
        }
        let mut out = Vec::with_capacity(part.len());
        for (w, &word) in marks.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        out
    }
}

/// A [`KeyOrder`] being sorted a part at a time: runs of [`RUN`] positions sorted, then pairs of
/// sorted runs merged, twice as long each pass. A merge can stop anywhere and go on where it
/// stopped; the order is the same however the calls are cut.
///
/// What is sorted is a compact entry per sample, its key's first 16 bytes and its position: the
/// samples themselves (about 100 bytes each) and their keys are read again only where two keys
/// share those 16 bytes, so the merges read memory in order rather than all over the run.
#[derive(Clone, Debug, Default)]
pub struct KeySort {
    /// How many samples to sort.
    samples: usize,
    /// Which: these positions, or (empty) the first `samples`.
    only: Vec<u32>,
    /// Sorted runs of `width` entries (the last one shorter).
    from: Vec<Entry>,
    /// The pass being merged into.
    into: Vec<Entry>,
    /// The length of the sorted runs; 0 while the first runs are sorted.
    width: usize,
    /// While the first runs are sorted: the next run's start. While merging: the next pair's
    /// start.
    at: usize,
    /// Within the pair being merged: the next of the left run and of the right run.
    left: usize,
    right: usize,
}

/// A sample in the sort: its key's first 16 bytes (zeros past its end), big-endian, so that two
/// entries whose heads differ compare as their keys do; its key's length, which orders two keys
/// of equal heads when neither is longer than 16 bytes (the shorter is then a prefix of the
/// other); and its position.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    head: (u64, u64),
    len: u32,
    pos: u32,
}

impl Entry {
    fn of(samples: &[Sample], keys: &[u8], pos: usize) -> Entry {
        let key = key_of(samples, keys, pos as u32);
        let mut head = [0u8; 16];
        let n = key.len().min(16);
        head[..n].copy_from_slice(&key[..n]);
        let (a, b) = head.split_at(8);
        let word = |b: &[u8]| b.try_into().map_or(0, u64::from_be_bytes);
        Entry {
            head: (word(a), word(b)),
            len: key.len() as u32,
            pos: pos as u32,
        }
    }
}

impl KeySort {
    /// `samples` positions, not sorted yet.
    pub fn new(samples: usize) -> KeySort {
        KeySort {
            samples,
            from: Vec::with_capacity(samples),
            ..KeySort::default()
        }
    }

    /// The samples at `positions` (each below the number of samples), not sorted yet.
    pub fn of_positions(positions: Vec<u32>) -> KeySort {
        KeySort {
            samples: positions.len(),
            from: Vec::with_capacity(positions.len()),
            only: positions,
            ..KeySort::default()
        }
    }

    /// Whether the positions are sorted.
    pub fn is_done(&self) -> bool {
        self.width > 0 && self.width >= self.samples
    }

    /// Sorts on for about `budget` comparisons (a position merged costs one, a position of a
    /// first run sorted log2([`RUN`]); at least one run or one position a call); returns
    /// whether the order is done.
    pub fn advance(&mut self, samples: &[Sample], keys: &[u8], budget: usize) -> bool {
        let n = if self.only.is_empty() {
            self.samples.min(samples.len())
        } else {
            self.samples
        };
        self.samples = n;
        let cmp = |a: &Entry, b: &Entry| by_key(samples, keys, a, b);
        let mut left_budget = budget.max(1);
        if self.width == 0 {
            while self.at < n && left_budget > 0 {
                let end = (self.at + RUN).min(n);
                self.from
                    .extend((self.at..end).map(|i| match self.only.get(i) {
                        Some(&p) => Entry::of(samples, keys, p as usize),
                        None => Entry::of(samples, keys, i),
                    }));
                if let Some(run) = self.from.get_mut(self.at..end) {
                    run.sort_unstable_by(cmp);
                }
                // Sorting a run costs about log2(RUN) comparisons a position, merging one.
                left_budget = left_budget.saturating_sub((end - self.at) * RUN.ilog2() as usize);
                self.at = end;
            }
            if self.at < n {
                return false;
            }
            self.width = RUN;
            self.start_pair(0);
            if n > RUN {
                self.into = vec![Entry::default(); n];
            }
        }
        while !self.is_done() && left_budget > 0 {
            let mid = (self.at + self.width).min(n);
            let hi = (self.at + 2 * self.width).min(n);
            while left_budget > 0 && (self.left < mid || self.right < hi) {
                let out = self.left + self.right - mid;
                let take_left = self.left < mid
                    && (self.right >= hi
                        || cmp(&self.from[self.left], &self.from[self.right]) != Ordering::Greater);
                if take_left {
                    self.into[out] = self.from[self.left];
                    self.left += 1;
                } else {
                    self.into[out] = self.from[self.right];
                    self.right += 1;
                }
                left_budget -= 1;
            }
            if self.left < mid || self.right < hi {
                return false;
            }
            if hi >= n {
                std::mem::swap(&mut self.from, &mut self.into);
                self.width *= 2;
                self.start_pair(0);
            } else {
                self.start_pair(hi);
            }
        }
        if self.is_done() {
            self.into = Vec::new();
            self.only = Vec::new();
        }
        self.is_done()
    }

    fn start_pair(&mut self, at: usize) {
        self.at = at;
        self.left = at;
        self.right = (at + self.width).min(self.samples);
    }

    /// The order, sorting what is left first.
    pub fn finish(mut self, samples: &[Sample], keys: &[u8]) -> KeyOrder {
        while !self.advance(samples, keys, usize::MAX) {}
        KeyOrder(self.from.iter().map(|e| e.pos).collect())
    }
}

fn key_of<'k>(samples: &[Sample], keys: &'k [u8], pos: u32) -> &'k [u8] {
    samples.get(pos as usize).map_or(&[][..], |s| s.key(keys))
}

/// Two entries by their keys (the heads first; the keys themselves only where those are equal
/// and a key is longer than its head), then by position.
fn by_key(samples: &[Sample], keys: &[u8], a: &Entry, b: &Entry) -> Ordering {
    a.head
        .cmp(&b.head)
        .then_with(|| {
            if a.len <= 16 && b.len <= 16 {
                a.len.cmp(&b.len)
            } else {
                key_of(samples, keys, a.pos).cmp(key_of(samples, keys, b.pos))
            }
        })
        .then(a.pos.cmp(&b.pos))
}
