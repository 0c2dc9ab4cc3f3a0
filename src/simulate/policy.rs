//! HBase 2.x's region split policies, as their classes compute them
//! (`org.apache.hadoop.hbase.regionserver`):
//!
//! - `ConstantSizeRegionSplitPolicy`: when a region opens, `configureForRegion` takes
//!   `MAX_FILESIZE` and adds a jitter: `jitterRate = (RANDOM.nextFloat() - 0.5) * jitter`
//!   (`hbase.hregion.max.filesize.jitter`, 0.25 by default), `desiredMaxFileSize +=
//!   (long) (desiredMaxFileSize * jitterRate)`. `shouldSplit` is true when a store's size is
//!   above `desiredMaxFileSize`.
//! - `IncreasingToUpperBoundRegionSplitPolicy`: `initialSize = 2 * flush size`;
//!   size to check = `min(desiredMaxFileSize, initialSize * n³)` where n is the count of the
//!   table's regions on this region server (`desiredMaxFileSize` when n is 0 or above 100).
//! - `SteppingSplitPolicy` (the default in 2.x): `initialSize` when n is 1, else
//!   `desiredMaxFileSize`.
//! - `KeyPrefixRegionSplitPolicy`: as `IncreasingToUpperBoundRegionSplitPolicy`, the split
//!   point cut to its first `prefix_length` bytes.
//! - `DisabledRegionSplitPolicy`: never.
//!
//! Every region draws its own jitter when it opens (the first region, every pre-split region
//! in key order, then each daughter, left before right), from the workload's seed: Java's
//! `Random.nextFloat()` is 24 random bits over 2^24, and the simulator takes its 24 bits from
//! the top of the seeded generator's next number.

use super::workload::SplitPolicyKind;
use crate::designs::gen::Gen;

/// The generator every region of table `table_index` draws its jitter from, in order of
/// opening.
pub fn jitter_stream(seed: u64, table_index: usize) -> Gen {
    Gen::new(super::key::hash64(table_seed(seed, table_index) ^ 0x5117))
}

/// The seed of table `table_index`'s own draws.
pub(crate) fn table_seed(seed: u64, table_index: usize) -> u64 {
    super::key::hash64(seed ^ super::key::hash64(0x7ab1e + table_index as u64))
}

/// One region's split rule, as its policy was configured when it opened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegionPolicy {
    pub kind: SplitPolicyKind,
    /// `desiredMaxFileSize` after the jitter.
    pub desired_max_file_size: u64,
    /// `initialSize`: 2 × the flush size.
    pub initial_size: u64,
}

/// `Random.nextFloat()`'s value from 24 bits of `gen`.
pub fn next_float(gen: &mut Gen) -> f32 {
    (gen.next_u64() >> 40) as f32 / (1u32 << 24) as f32
}

impl RegionPolicy {
    /// `configureForRegion`: the policy of a region that opens now, drawing its jitter.
    pub fn configure(
        kind: SplitPolicyKind,
        max_filesize: u64,
        flush_size: u64,
        jitter: f64,
        gen: &mut Gen,
    ) -> RegionPolicy {
        let desired = max_filesize.min(i64::MAX as u64) as i64;
        let jitter_rate = (f64::from(next_float(gen)) - 0.5) * jitter;
        // Java's (long) cast truncates toward zero.
        let jitter_value = (desired as f64 * jitter_rate) as i64;
        let desired = if jitter_rate > 0.0 && jitter_value > i64::MAX - desired {
            i64::MAX
        } else {
            desired + jitter_value
        };
        RegionPolicy {
            kind,
            desired_max_file_size: desired.max(0) as u64,
            initial_size: flush_size.saturating_mul(2),
        }
    }

    /// The size a store must be above for the region to split, when `regions_on_server` of
    /// the table's regions are on its server (itself included). `None`: never splits.
    pub fn size_to_check(&self, regions_on_server: u32) -> Option<u64> {
        let n = u64::from(regions_on_server);
        match self.kind {
            SplitPolicyKind::None => None,
            SplitPolicyKind::ConstantSize => Some(self.desired_max_file_size),
            SplitPolicyKind::Stepping => Some(if n == 1 {
                self.initial_size
            } else {
                self.desired_max_file_size
            }),
            SplitPolicyKind::IncreasingToUpperBound | SplitPolicyKind::KeyPrefix { .. } => {
                Some(if n == 0 || n > 100 {
                    self.desired_max_file_size
                } else {
                    self.desired_max_file_size
                        .min(self.initial_size.saturating_mul(n * n * n))
                })
            }
        }
    }

    /// `shouldSplit`: whether a region whose largest store holds `largest_store` bytes splits.
    pub fn should_split(&self, largest_store: u64, regions_on_server: u32) -> bool {
        self.size_to_check(regions_on_server)
            .is_some_and(|limit| largest_store > limit)
    }

    /// `getSplitPoint`: the split key from the store's middle key (cut to the prefix for
    /// `KeyPrefixRegionSplitPolicy`).
    pub fn split_point(&self, mid_key: &[u8]) -> Vec<u8> {
        match self.kind {
            SplitPolicyKind::KeyPrefix { prefix_length } => {
                mid_key[..mid_key.len().min(prefix_length as usize)].to_vec()
            }
            _ => mid_key.to_vec(),
        }
    }
}
