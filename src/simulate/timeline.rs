//! The regions of a simulated table over time: which regions existed when, on which server,
//! where and when each split happened, each move of the balancer, and per region and step the
//! figures `hbtop` shows (requests, reads, filtered reads, writes, size, store files).

use crate::kit::order;
use serde::Serialize;

/// One region's life: from its opening (creation or split) to its split or the end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegionSpan {
    /// The region's number, in order of opening (0 is the table's first region).
    pub id: u32,
    /// The first key (empty: the table's start).
    pub start_key: Vec<u8>,
    /// The end key, exclusive (empty: the table's end).
    pub end_key: Vec<u8>,
    /// Simulated ms from the start when it opened.
    pub from_ms: u64,
    /// When it split (`None`: still open at the end).
    pub to_ms: Option<u64>,
    /// The region it split from.
    pub parent: Option<u32>,
    /// Its split threshold as its policy drew it (`desiredMaxFileSize` after the jitter).
    pub desired_max_file_size: u64,
}

/// A split.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Split {
    /// Simulated ms from the start.
    pub at_ms: u64,
    /// The region that split.
    pub region: u32,
    /// The split key: the daughters are [start, key) and [key, end).
    pub key: Vec<u8>,
    /// The daughters' ids (left, right).
    pub daughters: (u32, u32),
    /// The size of the largest store when it split (bytes).
    pub store_bytes: u64,
    /// The size it had to be above (bytes).
    pub size_to_check: u64,
    /// The server the region (and its daughters) were on.
    pub server: u32,
}

/// A move of a region from one server to another, by the balancer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Move {
    pub at_ms: u64,
    pub region: u32,
    pub from: u32,
    pub to: u32,
}

/// One region's figures over one step of simulated time (rates per second over the step).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RegionStep {
    pub region: u32,
    /// Its server during the step (at the step's end).
    pub server: u32,
    /// Read and write requests per second.
    pub requests_per_sec: f64,
    /// Gets and scans per second.
    pub reads_per_sec: f64,
    /// Rows read but not returned (filtered out) per second.
    pub filtered_reads_per_sec: f64,
    /// Puts and deletes per second.
    pub writes_per_sec: f64,
    /// Bytes in its stores and memstore at the step's end.
    pub size_bytes: u64,
    /// Store files at the step's end (one per flush per family; no compaction is modelled).
    pub store_files: u32,
    /// reads_per_sec / the server's reads per second.
    pub read_pressure: f64,
    /// writes_per_sec / the server's writes per second.
    pub write_pressure: f64,
}

/// The figures of one simulated hour, as `rowkey simulate` prints them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HourFigures {
    /// 0-based: [hour × 3,600,000, (hour + 1) × 3,600,000) ms from the start.
    pub hour: u64,
    pub start_ms: u64,
    /// The hour's end (the duration's end for a last, partial hour).
    pub end_ms: u64,
    /// Regions at the hour's end.
    pub regions: u32,
    /// The busiest region's share of the hour's writes (attributed by key to the regions of
    /// the hour's end); `None` when the hour had no writes.
    pub busiest_region_write_share: Option<f64>,
    pub busiest_region_read_share: Option<f64>,
    pub busiest_server_write_share: Option<f64>,
    pub busiest_server_read_share: Option<f64>,
    /// The busiest region's share of the hour's writes at the moment of writing: per step,
    /// the share the busiest region took of the step's writes (each write counted for the
    /// region that took it), averaged over the hour's steps weighted by their writes; `None`
    /// when the hour had no writes.
    pub busiest_region_write_share_live: Option<f64>,
    pub busiest_region_read_share_live: Option<f64>,
    pub busiest_server_write_share_live: Option<f64>,
    pub busiest_server_read_share_live: Option<f64>,
}

/// A table's regions over time.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Timeline {
    /// Every region that ever opened, by id.
    pub regions: Vec<RegionSpan>,
    /// The splits, in time order.
    pub splits: Vec<Split>,
    /// The balancer's moves, in time order.
    pub moves: Vec<Move>,
    /// Per step (index = step), the figures of the regions open at its end.
    pub steps: Vec<Vec<RegionStep>>,
    /// The step length (ms).
    pub step_ms: u64,
}

impl Timeline {
    /// The regions open at `at_ms` (ms from the start), in key order.
    pub fn regions_at(&self, at_ms: u64) -> Vec<&RegionSpan> {
        let mut open: Vec<&RegionSpan> = self
            .regions
            .iter()
            .filter(|r| r.from_ms <= at_ms && r.to_ms.is_none_or(|to| to > at_ms))
            .collect();
        order::sort_by(&mut open, |a, b| a.start_key.cmp(&b.start_key));
        open
    }

    /// The `hbtop`-like figures of the step holding `at_ms`.
    pub fn step_at(&self, at_ms: u64) -> &[RegionStep] {
        let i = (at_ms / self.step_ms.max(1)) as usize;
        self.steps
            .get(i.min(self.steps.len().saturating_sub(1)))
            .map_or(&[], |v| v.as_slice())
    }
}
