//! Splitting a busy region by its load: Rowkey's model of how Bigtable splits a tablet that
//! takes too much of a table's traffic.
//!
//! Bigtable says that tablets are split, merged and moved between nodes by their size and by
//! their access patterns (reads, writes and scans), and documents no threshold ("How Bigtable
//! optimizes your data over time", https://cloud.google.com/bigtable/docs/overview#load-balancing;
//! "Hot tablets", https://cloud.google.com/bigtable/docs/hot-tablets). Rowkey's rule, for a
//! table whose rules split by load ([`super::Rules::splits_by_load`]):
//!
//! - After every [`LOAD_WINDOW`] operations recorded on the table (a write is one, a get is
//!   one, a scan one per region it read), the window of those operations is counted by the
//!   regions the table has now ([`Op::regions`]).
//! - A region that served at least [`LOAD_SPLIT_OPS`] of them (60 %) splits at the middle of
//!   the keys requested in it: the median of the window's row keys there, a range counted at
//!   its first row inside the region.
//! - It does not split when that median is its own first row (the load is on one row, and a
//!   row is never split), nor when the table's automatic splits are off (`SPLIT_ENABLED`
//!   false, or a split size of 0).
//!
//! At most one region can pass 60 % of a window, so a window splits at most one region. An
//! even load settles at two regions (about half each); a key that only grows (a timestamp
//! first) keeps its last region at 100 % and splits it again every window, which moves the
//! hotspot without curing it.

use std::ops::RangeInclusive;

use super::activity::Op;
use super::lsm::SplitCause;
use super::table::Table;
use super::Engine;

/// Operations per load window.
pub const LOAD_WINDOW: u64 = 1_000;
/// Operations of one window in one region that split it (60 % of [`LOAD_WINDOW`]).
pub const LOAD_SPLIT_OPS: u64 = 600;

/// A region the load rule splits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadSplit {
    /// Its index in the table's regions.
    pub region: usize,
    /// The window's operations it served.
    pub ops: u64,
    /// The row it splits at.
    pub key: Vec<u8>,
}

/// The load rule over one window of operations: the region it splits, if any.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn load_split<'a>(table: &Table, window: impl Iterator<Item = &'a Op>) -> Option<LoadSplit> {
    let spans: Vec<(&Op, RangeInclusive<usize>)> =
        window.map(|op| (op, op.regions(table))).collect();
    let mut per_region = vec![0u64; table.regions.len()];
    for (_, span) in &spans {
        for c in per_region
            .iter_mut()
            .take(span.end() + 1)
            .skip(*span.start())
        {
            *c += 1;
        }
    }
    let (region, &ops) = per_region.iter().enumerate().max_by_key(|(_, c)| **c)?;
    if ops < LOAD_SPLIT_OPS {
        return None;
    }
    let r = table.regions.get(region)?;
    let mut keys: Vec<&[u8]> = spans
        .iter()
        .filter(|(_, span)| span.contains(&region))
        .map(|(op, _)| op.start.as_slice().max(r.start.as_slice()))
        .collect();
    crate::kit::order::sort(&mut keys);
    let key = keys.get(keys.len() / 2)?.to_vec();
    (key != r.start && r.contains(&key)).then_some(LoadSplit { region, ops, key })
}

impl Engine {
    /// Runs the load rule when the operations recorded on `table` have just passed a multiple
    /// of [`LOAD_WINDOW`] (`recorded_before` is the count before the last operation).
    pub(super) fn load_upkeep(&mut self, table: &str, recorded_before: u64) {
        let Some(t) = self.tables.get(table) else {
            return;
        };
        let d = &t.descriptor;
        if !d.rules.splits_by_load() || !d.split_enabled() || d.settings.split_bytes == 0 {
            return;
        }
        let Some(activity) = self.activity.get(table) else {
            return;
        };
        let recorded = activity.recorded();
        if recorded / LOAD_WINDOW == recorded_before / LOAD_WINDOW {
            return;
        }
        let from = recorded.saturating_sub(LOAD_WINDOW);
        if let Some(split) = load_split(t, activity.ops_between(from, recorded)) {
            self.split_region(table, split.region, &split.key, SplitCause::Load);
        }
    }

    /// The operations recorded on `table` so far.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn recorded_ops(&self, table: &str) -> u64 {
        self.activity.get(table).map_or(0, |a| a.recorded())
    }
}
