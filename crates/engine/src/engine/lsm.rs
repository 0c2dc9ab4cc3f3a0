//! The LSM event stream: what each flush, compaction and split did to a table's sorted runs,
//! described by run ids and summaries, never by how runs are stored, so that a different
//! storage layout keeps emitting the same events.

use std::collections::VecDeque;

use super::resolve::Fate;

/// How many events a table keeps; older ones are forgotten.
pub const EVENTS_KEPT: usize = 256;

/// Where cells sit before or after a rewrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// A store's memstore.
    Memstore,
    /// A sorted run, by its id: assigned once, kept for the run's life, never reused.
    Run(u64),
}

/// One input or output of a rewrite: which region and family, its key range, size and cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    pub part: Part,
    pub region: u64,
    pub family: String,
    pub first_row: Vec<u8>,
    pub last_row: Vec<u8>,
    pub bytes: usize,
    pub cells: usize,
}

/// Cells a rewrite left out, by reason, and deleted cells it kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Older than the family's VERSIONS newest versions.
    pub versions: u64,
    /// Masked by a delete marker.
    pub deleted: u64,
    /// Delete markers purged by a major compaction.
    pub markers: u64,
    /// Past the family's TTL or their own.
    pub expired: u64,
    /// Older writes of the very same coordinates.
    pub replaced: u64,
    /// Masked cells kept because the family has KEEP_DELETED_CELLS (not dropped).
    pub kept_deleted: u64,
}

impl Dropped {
    /// Counts the fate of one input cell.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn note(&mut self, fate: Fate) {
        match fate {
            Fate::Visible | Fate::Marker => {}
            Fate::Masked { kept: true, .. } => self.kept_deleted += 1,
            Fate::Masked { kept: false, .. } => self.deleted += 1,
            Fate::BeyondVersions => self.versions += 1,
            Fate::Expired => self.expired += 1,
            Fate::Replaced => self.replaced += 1,
            Fate::MarkerPurged => self.markers += 1,
        }
    }

    /// Cells left out, all reasons together.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn total(&self) -> u64 {
        self.versions + self.deleted + self.markers + self.expired + self.replaced
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn add(&mut self, other: &Dropped) {
        self.versions += other.versions;
        self.deleted += other.deleted;
        self.markers += other.markers;
        self.expired += other.expired;
        self.replaced += other.replaced;
        self.kept_deleted += other.kept_deleted;
    }

    /// The reasons in words, those that count: `"3 beyond VERSIONS, 1 deleted"`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn describe(&self) -> String {
        // (count, said of one cell, said of several)
        let parts = [
            (self.versions, "beyond VERSIONS", "beyond VERSIONS"),
            (
                self.deleted,
                "masked by a delete marker",
                "masked by delete markers",
            ),
            (
                self.markers,
                "delete marker purged",
                "delete markers purged",
            ),
            (self.expired, "expired (TTL)", "expired (TTL)"),
            (
                self.replaced,
                "replaced by a later write",
                "replaced by later writes",
            ),
        ];
        parts
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What kind of rewrite happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LsmEventKind {
    /// A memstore written out as a sorted run.
    Flush,
    /// Some runs of a store merged, markers kept.
    MinorCompaction,
    /// All runs of a store merged into one, markers and what they mask dropped.
    MajorCompaction,
    /// A region cut in two daughters at a row.
    Split,
}

impl LsmEventKind {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn name(self) -> &'static str {
        match self {
            LsmEventKind::Flush => "flush",
            LsmEventKind::MinorCompaction => "minor compaction",
            LsmEventKind::MajorCompaction => "major compaction",
            LsmEventKind::Split => "split",
        }
    }
}

/// One rewrite of a region's runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LsmEvent {
    /// Increasing across the engine's life: orders events of every table.
    pub serial: u64,
    /// The engine's logical clock (one tick per operation) when it happened.
    pub tick: u64,
    pub kind: LsmEventKind,
    /// The region rewritten (for a split, the parent).
    pub region: u64,
    /// The family rewritten; `None` for a split, which cuts every family.
    pub family: Option<String>,
    pub inputs: Vec<RunSummary>,
    pub outputs: Vec<RunSummary>,
    pub dropped: Dropped,
    /// A split's daughters: id, start and end row.
    pub daughters: Vec<(u64, Vec<u8>, Vec<u8>)>,
    /// What made a split happen (`None` for a flush or a compaction).
    pub cause: Option<SplitCause>,
    /// A split's parent's counters as it closed (both daughters count from nothing); zero
    /// for a flush or a compaction.
    pub parent_stats: super::stats::RegionStats,
}

/// What a split adds to its event: its daughters (id, start and end row), its cause, and the
/// parent's counters as it closed.
pub(crate) struct SplitRecord {
    pub daughters: Vec<(u64, Vec<u8>, Vec<u8>)>,
    pub cause: SplitCause,
    pub parent_stats: super::stats::RegionStats,
}

/// What made a region split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitCause {
    /// A `split` asked for.
    Asked,
    /// Its size, past the table's split size.
    Size,
    /// Its load: Rowkey's model of Bigtable's load-based splitting ([`super::load`]).
    Load,
}

impl SplitCause {
    /// How the views say it: "asked for", "by size", "by load".
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn words(self) -> &'static str {
        match self {
            SplitCause::Asked => "asked for",
            SplitCause::Size => "by size",
            SplitCause::Load => "by load",
        }
    }
}

/// The recent events of one table, oldest first, at most [`EVENTS_KEPT`].
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    events: VecDeque<LsmEvent>,
}

impl EventLog {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(crate) fn push(&mut self, event: LsmEvent) {
        if self.events.len() == EVENTS_KEPT {
            self.events.pop_front();
        }
        self.events.push_back(event);
    }

    /// Oldest first.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &LsmEvent> {
        self.events.iter()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn last(&self) -> Option<&LsmEvent> {
        self.events.back()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn len(&self) -> usize {
        self.events.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}
