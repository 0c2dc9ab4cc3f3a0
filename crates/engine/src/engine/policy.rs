//! Which sorted runs a minor compaction merges: HBase 2.x's default
//! `ExploringCompactionPolicy` (over `RatioBasedCompactionPolicy`), as a pure function of the
//! runs' sizes.
//!
//! HBase looks at every contiguous window of a store's files (oldest first) holding between
//! `hbase.hstore.compaction.min` (3) and `hbase.hstore.compaction.max` (10) files. A window is
//! a candidate when every file in it is at most `ratio` (`hbase.hstore.compaction.ratio`, 1.2)
//! times the sum of the others, a test skipped for a window smaller in total than
//! `hbase.hstore.compaction.min.size` (the memstore flush size). Of the candidates it takes
//! the one with the most files, and among those the smallest in bytes. So a large old file is
//! left alone while the small new ones next to it merge, and write amplification stays bounded.
//! When the store has as many files as `hbase.hstore.blockingStoreFiles` (16) and no window
//! passes, it takes the window of the smallest average file size instead, so writes do not block.

use std::ops::Range;

/// The knobs of the exploring policy, with HBase's names in the doc of each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompactionPolicy {
    /// `hbase.hstore.compaction.min`: fewest files a minor compaction merges (3).
    pub min_files: usize,
    /// `hbase.hstore.compaction.max`: most files one minor compaction merges (10).
    pub max_files: usize,
    /// `hbase.hstore.compaction.ratio` (1.2).
    pub ratio: f64,
    /// `hbase.hstore.compaction.min.size`: a window smaller than this in total is always in
    /// ratio (defaults to the memstore flush size).
    pub min_size: u64,
    /// `hbase.hstore.blockingStoreFiles` (16): at this many files the store "might be stuck".
    pub blocking_files: usize,
}

impl CompactionPolicy {
    /// HBase's defaults, with the table's flush size as the minimum compaction size and its
    /// compaction threshold as the minimum number of files.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(min_files: u64, flush_bytes: u64) -> CompactionPolicy {
        CompactionPolicy {
            min_files: usize::try_from(min_files).unwrap_or(usize::MAX).max(2),
            max_files: 10,
            ratio: 1.2,
            min_size: flush_bytes,
            blocking_files: 16,
        }
    }

    /// The runs to merge, as a range of `sizes` (byte sizes, oldest first), or `None` when no
    /// window qualifies (`ExploringCompactionPolicy.applyCompactionPolicy`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn select(&self, sizes: &[u64]) -> Option<Range<usize>> {
        let might_be_stuck = sizes.len() >= self.blocking_files;
        let mut best: Option<(Range<usize>, u64)> = None;
        let mut smallest: Option<(Range<usize>, u64)> = None;
        for start in 0..sizes.len() {
            for end in (start + self.min_files)..=sizes.len().min(start + self.max_files) {
                let window = sizes.get(start..end).unwrap_or(&[]);
                let total: u64 = window.iter().sum();
                // The fallback when stuck: the window of the smallest total.
                if might_be_stuck && smallest.as_ref().is_none_or(|(_, s)| total < *s) {
                    smallest = Some((start..end, total));
                }
                if total >= self.min_size && !self.in_ratio(window, total) {
                    continue;
                }
                if self.better(best.as_ref(), window.len(), total, might_be_stuck) {
                    best = Some((start..end, total));
                }
            }
        }
        best.or(smallest).map(|(range, _)| range)
    }

    /// `filesInRatio`: no file larger than `ratio` times the sum of the others.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn in_ratio(&self, window: &[u64], total: u64) -> bool {
        window.len() < 2
            || window
                .iter()
                .all(|&f| f as f64 <= (total - f) as f64 * self.ratio)
    }

    /// `isBetterSelection`: more files, or as many and fewer bytes; when stuck, more files per
    /// byte, by a margin of 5%.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn better(
        &self,
        best: Option<&(Range<usize>, u64)>,
        files: usize,
        total: u64,
        might_be_stuck: bool,
    ) -> bool {
        let Some((range, best_total)) = best else {
            return true;
        };
        let best_files = range.len();
        if might_be_stuck && *best_total > 0 && total > 0 {
            let threshold = best_files as f64 / *best_total as f64 * 1.05;
            return threshold < files as f64 / total as f64;
        }
        files > best_files || (files == best_files && total < *best_total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> CompactionPolicy {
        CompactionPolicy {
            min_files: 3,
            max_files: 10,
            ratio: 1.2,
            min_size: 10,
            blocking_files: 16,
        }
    }

    /// `TestExploringCompactionPolicy`'s point: an old file larger than 1.2 times the rest
    /// of any window stays out, and the newer files next to it merge (four beat three).
    #[test]
    fn large_old_files_stay_out() {
        assert_eq!(policy().select(&[250, 50, 23, 12, 12]), Some(1..5));
    }

    /// 100, 25, 12, 12: only 25, 12, 12 is in ratio (25 <= 1.2 * 24).
    #[test]
    fn the_window_in_ratio_is_taken() {
        assert_eq!(policy().select(&[100, 25, 12, 12]), Some(1..4));
    }

    /// A window smaller in total than the minimum compaction size skips the ratio test.
    #[test]
    fn small_windows_always_qualify() {
        assert_eq!(policy().select(&[50, 5, 4]), None);
        let p = CompactionPolicy {
            min_size: 100,
            ..policy()
        };
        assert_eq!(p.select(&[50, 5, 4]), Some(0..3));
    }

    /// 250, 100, 50 and then one small file: too few files in any ratio window.
    #[test]
    fn nothing_in_ratio_selects_nothing() {
        assert_eq!(policy().select(&[250, 100, 50, 12]), None);
        assert_eq!(policy().select(&[12, 12]), None);
    }

    /// More files win over fewer; at equal count the smaller total wins.
    #[test]
    fn more_files_then_fewer_bytes() {
        // 30, 30, 30, 30 is in ratio as a whole: four files beat any three.
        assert_eq!(policy().select(&[30, 30, 30, 30]), Some(0..4));
        // At most max_files per compaction.
        let p = CompactionPolicy {
            max_files: 3,
            ..policy()
        };
        assert_eq!(p.select(&[40, 30, 30, 20, 20, 20]), Some(3..6));
    }

    /// With as many files as blockingStoreFiles and nothing in ratio, the cheapest minimal
    /// window is merged so the store does not stay blocked.
    #[test]
    fn a_stuck_store_merges_its_smallest_window() {
        let sizes: Vec<u64> = (0..16).map(|i| 1_000 * 3u64.pow(15 - i as u32)).collect();
        assert_eq!(policy().select(&sizes), Some(13..16));
    }
}
