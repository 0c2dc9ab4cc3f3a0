//! What each operation cost, and what each region went through, for the views that draw it.

use serde::{Deserialize, Serialize};

/// The cost of one read or write.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpStats {
    /// Ids of the regions the operation touched, in the order touched.
    pub regions: Vec<u64>,
    pub memstores_touched: u32,
    pub runs_touched: u32,
    pub rows_examined: u64,
    pub rows_returned: u64,
    pub cells_examined: u64,
    pub cells_returned: u64,
    pub bytes_read: u64,
    pub cells_written: u64,
    pub bytes_written: u64,
}

/// A region's running counters (where its traffic went over time is the table's
/// [`Activity`](super::Activity)).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionStats {
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

impl RegionStats {
    pub(crate) fn record(&mut self, reads: u32, writes: u32, bytes_read: u64, bytes_written: u64) {
        self.reads += u64::from(reads);
        self.writes += u64::from(writes);
        self.bytes_read += bytes_read;
        self.bytes_written += bytes_written;
    }
}

/// Engine-wide counters; the difference of two snapshots is the cost of what ran between them
/// (a logical action made of several mutations).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub mutations: u64,
    pub cells_written: u64,
    /// Bytes the user asked to write.
    pub logical_bytes: u64,
    /// Bytes written by flushes.
    pub flush_bytes: u64,
    /// Bytes rewritten by compactions and splits.
    pub compaction_bytes: u64,
    pub flushes: u64,
    pub compactions: u64,
    pub splits: u64,
}

impl Counters {
    /// What happened between `earlier` and `self`.
    pub fn since(&self, earlier: &Counters) -> Counters {
        Counters {
            mutations: self.mutations - earlier.mutations.min(self.mutations),
            cells_written: self.cells_written.saturating_sub(earlier.cells_written),
            logical_bytes: self.logical_bytes.saturating_sub(earlier.logical_bytes),
            flush_bytes: self.flush_bytes.saturating_sub(earlier.flush_bytes),
            compaction_bytes: self
                .compaction_bytes
                .saturating_sub(earlier.compaction_bytes),
            flushes: self.flushes.saturating_sub(earlier.flushes),
            compactions: self.compactions.saturating_sub(earlier.compactions),
            splits: self.splits.saturating_sub(earlier.splits),
        }
    }

    /// Bytes written to runs per byte the user wrote (flushes plus compactions).
    pub fn write_amplification(&self) -> f64 {
        if self.logical_bytes == 0 {
            return 0.0;
        }
        (self.flush_bytes + self.compaction_bytes) as f64 / self.logical_bytes as f64
    }
}
