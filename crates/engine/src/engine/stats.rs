//! What each operation cost, and what each region went through, for the views that draw it.

use serde::{Deserialize, Serialize};

/// The cost of one read or write. The read counters mirror HBase's scan metrics
/// (`ScanMetrics`, `ServerSideScanMetrics`); [`OpStats::metrics`] lists them under HBase's
/// names, as the shell's `METRICS` option prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpStats {
    /// Ids of the regions the operation touched, in the order touched; its length is
    /// `REGIONS_SCANNED` (`ScanMetrics.countOfRegions`).
    pub regions: Vec<u64>,
    /// Memstores a read took cells from (Rowkey's own; HBase counts bytes read from the memstore).
    pub memstores_touched: u32,
    /// Sorted runs (HFiles) a read took cells from (Rowkey's own).
    pub runs_touched: u32,
    /// Rows the region scanners read, returned or not: `ROWS_SCANNED`
    /// (`ServerSideScanMetrics.countOfRowsScanned`).
    pub rows_examined: u64,
    /// Rows read and then dropped: by `filterRowKey`, by `filterRow`, or left with no cells
    /// (versions, deletes, the column selection or the filter took them all): `ROWS_FILTERED`
    /// (`ServerSideScanMetrics.countOfRowsFiltered`).
    #[serde(default)]
    pub rows_filtered: u64,
    /// Rows in the result (HBase's `Result` count).
    pub rows_returned: u64,
    /// Cells the store scanners read (Rowkey's own; HBase has no cell counter). A filter's
    /// `SEEK_NEXT_USING_HINT` seeks past cells without reading them, and they are not counted.
    pub cells_examined: u64,
    /// Cells in the result.
    pub cells_returned: u64,
    /// Bytes of the cells read (counted as `Cell::size`); HBase 2.6 counts whole blocks
    /// instead (`BLOCK_BYTES_SCANNED`, `BYTES_READ_FROM_MEMSTORE`).
    pub bytes_read: u64,
    /// Bytes of the cells in the result, after transforms (`KeyOnlyFilter`):
    /// `BYTES_IN_RESULTS` (`ScanMetrics.countOfBytesInResults`).
    #[serde(default)]
    pub bytes_returned: u64,
    pub cells_written: u64,
    pub bytes_written: u64,
    /// Data blocks of sorted runs a read decoded (HBase counts block reads the same way,
    /// from the block cache or not).
    #[serde(default)]
    pub blocks_read: u64,
    /// Bytes of those blocks: `BLOCK_BYTES_SCANNED` (HBase 2.6's
    /// `ServerSideScanMetrics.countOfBlockBytesScanned`).
    #[serde(default)]
    pub block_bytes_read: u64,
    /// Blocks a seek jumped over by the block index, never read.
    #[serde(default)]
    pub blocks_skipped: u64,
    /// Sorted runs a get left unread because their bloom filter said the row (or column) is
    /// not there.
    #[serde(default)]
    pub runs_skipped_bloom: u64,
    /// Sorted runs left unread because the rows asked for are outside their key range.
    #[serde(default)]
    pub runs_skipped_range: u64,
}

/// One scan metric as HBase names it, with Rowkey's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metric {
    /// HBase's metric name (`ROWS_SCANNED`), or Rowkey's own name where HBase has none.
    pub name: &'static str,
    pub value: u64,
    /// True for a metric HBase reports under this name.
    pub hbase: bool,
}

impl OpStats {
    /// The read statistics as scan metrics, HBase's first, in the order the shell prints them.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn metrics(&self) -> Vec<Metric> {
        let m = |name, value, hbase| Metric { name, value, hbase };
        vec![
            m("BYTES_IN_RESULTS", self.bytes_returned, true),
            m("REGIONS_SCANNED", self.regions.len() as u64, true),
            m("ROWS_FILTERED", self.rows_filtered, true),
            m("ROWS_SCANNED", self.rows_examined, true),
            m("CELLS_SCANNED", self.cells_examined, false),
            m("BYTES_SCANNED", self.bytes_read, false),
            m("MEMSTORES_READ", u64::from(self.memstores_touched), false),
            m("RUNS_READ", u64::from(self.runs_touched), false),
            m("BLOCK_BYTES_SCANNED", self.block_bytes_read, true),
            m("BLOCKS_READ", self.blocks_read, false),
            m("BLOCKS_SKIPPED_BY_INDEX", self.blocks_skipped, false),
            m("RUNS_SKIPPED_BY_BLOOM", self.runs_skipped_bloom, false),
            m("RUNS_SKIPPED_BY_KEY_RANGE", self.runs_skipped_range, false),
        ]
    }
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn write_amplification(&self) -> f64 {
        if self.logical_bytes == 0 {
            return 0.0;
        }
        (self.flush_bytes + self.compaction_bytes) as f64 / self.logical_bytes as f64
    }
}
