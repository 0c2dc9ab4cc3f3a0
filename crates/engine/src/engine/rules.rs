//! The rules a table's data follows: how a delete hides cells, when a family's VERSIONS and TTL
//! take cells away, and what a timestamp counts. One engine and one read path serve every
//! table; the handful of places where wide-column stores differ ask the table's [`Rules`].
//! HBase's rules are the default.

use serde::{Deserialize, Serialize};

use super::cell::CellRef;
use super::family::FamilyDescriptor;
use super::resolve::Pass;

/// The rule set a table carries in its descriptor (and its saved catalog).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "SavedRules")]
pub struct Rules {
    /// How a delete hides the cells it names.
    #[serde(default)]
    pub deletes: DeleteMasking,
    /// When the family's VERSIONS, MIN_VERSIONS and TTL take cells away.
    #[serde(default)]
    pub retention: Retention,
    /// What one unit of a cell's timestamp is.
    #[serde(default)]
    pub timestamps: TimestampUnit,
    /// What splits a region besides a `split` asked for.
    pub splits: SplitRule,
}

/// Rules as a catalog stores them. A catalog saved before tables carried a split rule gives
/// a table without delete markers (a Bigtable table) Bigtable's.
#[derive(Deserialize)]
struct SavedRules {
    #[serde(default)]
    deletes: DeleteMasking,
    #[serde(default)]
    retention: Retention,
    #[serde(default)]
    timestamps: TimestampUnit,
    #[serde(default)]
    splits: Option<SplitRule>,
}

impl From<SavedRules> for Rules {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn from(s: SavedRules) -> Rules {
        let splits = s.splits.unwrap_or(match s.deletes {
            DeleteMasking::Markers => SplitRule::Size,
            DeleteMasking::NoMarkers => SplitRule::SizeAndLoad,
        });
        Rules {
            deletes: s.deletes,
            retention: s.retention,
            timestamps: s.timestamps,
            splits,
        }
    }
}

/// What splits a region besides a `split` asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SplitRule {
    /// HBase: its size alone, past the table's split size (`MAX_FILESIZE`).
    #[default]
    Size,
    /// Bigtable: its size, and its load. Bigtable splits a busy tablet and documents no
    /// threshold, so the load rule is Rowkey's model ([`super::load`]).
    SizeAndLoad,
}

/// How a delete hides the cells it names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeleteMasking {
    /// HBase: a delete is a marker cell that masks what it names at read time, until a major
    /// compaction purges the marker with the cells it masks (`ScanDeleteTracker`).
    #[default]
    Markers,
    /// No markers (Bigtable): a delete takes away the cells that exist when it is written and
    /// nothing else; a later write, whatever its timestamp, is visible at once. Stored as a
    /// delete of the highest timestamp that masks by sequence number, purged with the cells it
    /// took at the next major compaction, and never shown.
    NoMarkers,
}

/// When the family's VERSIONS, MIN_VERSIONS and TTL take cells away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Retention {
    /// HBase: every read applies them (`ScanQueryMatcher`), and flushes and compactions drop
    /// what a read would skip.
    #[default]
    AtRead,
    /// Garbage collection: cells past the policy stay readable until a compaction collects
    /// them; reads and flushes keep every version.
    AtCompaction,
}

/// What one unit of a cell's timestamp is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimestampUnit {
    /// HBase: milliseconds since the epoch.
    #[default]
    Milliseconds,
    /// Microseconds since the epoch, at millisecond granularity (a multiple of 1,000).
    MicrosAtMillis,
}

impl TimestampUnit {
    /// Timestamp units in one millisecond.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn per_millisecond(self) -> u64 {
        match self {
            TimestampUnit::Milliseconds => 1,
            TimestampUnit::MicrosAtMillis => 1_000,
        }
    }

    /// The timestamp of a clock reading in epoch milliseconds.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_millis(self, ms: u64) -> u64 {
        ms.saturating_mul(self.per_millisecond())
    }
}

impl Rules {
    /// HBase 2.x: delete markers, versions and TTL at read, milliseconds.
    pub const HBASE: Rules = Rules {
        deletes: DeleteMasking::Markers,
        retention: Retention::AtRead,
        timestamps: TimestampUnit::Milliseconds,
        splits: SplitRule::Size,
    };

    /// Whether a busy region splits by its load ([`super::load`]).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn splits_by_load(&self) -> bool {
        self.splits == SplitRule::SizeAndLoad
    }

    /// Whether delete markers mask the cells they name.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn masks_deletes(&self) -> bool {
        self.deletes == DeleteMasking::Markers
    }

    /// Whether a pass over a store's cells applies VERSIONS and TTL.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn retains_in(&self, pass: Pass) -> bool {
        match self.retention {
            Retention::AtRead => true,
            Retention::AtCompaction => matches!(pass, Pass::Minor | Pass::Major),
        }
    }

    /// The oldest timestamp the family's TTL has not expired at `now_ms` (the clock, epoch
    /// milliseconds), in this table's unit; 0 when the family has no TTL.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn oldest_unexpired(&self, family: &FamilyDescriptor, now_ms: u64) -> u64 {
        self.timestamps.from_millis(family.oldest_unexpired(now_ms))
    }

    /// True when a cell's own TTL (a put's `TTL` attribute, in milliseconds) has run out at
    /// `now_ms`: once `timestamp + ttl` is in the past (`ScanQueryMatcher.isCellTTLExpired`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn cell_expired(&self, cell: &CellRef<'_>, now_ms: u64) -> bool {
        let per_ms = self.timestamps.per_millisecond();
        cell.ttl_ms != 0
            && cell
                .timestamp
                .saturating_add(cell.ttl_ms.saturating_mul(per_ms))
                < self.timestamps.from_millis(now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hbase_is_the_default() {
        assert_eq!(Rules::default(), Rules::HBASE);
        assert!(Rules::HBASE.masks_deletes());
        assert!(Rules::HBASE.retains_in(Pass::Read));
        assert_eq!(Rules::HBASE.timestamps.from_millis(1_700), 1_700);
    }

    #[test]
    fn microseconds_at_millisecond_granularity() {
        assert_eq!(TimestampUnit::MicrosAtMillis.from_millis(1_700), 1_700_000);
    }

    /// A catalog saved before tables carried a split rule: a table without delete markers (a
    /// Bigtable table) reads with Bigtable's, any other with HBase's.
    #[test]
    fn saved_rules_without_a_split_rule() -> Result<(), serde_json::Error> {
        let old: Rules = serde_json::from_str(
            r#"{"deletes":"NoMarkers","retention":"AtCompaction","timestamps":"MicrosAtMillis"}"#,
        )?;
        assert_eq!(old.splits, SplitRule::SizeAndLoad);
        let hbase: Rules = serde_json::from_str("{}")?;
        assert_eq!(hbase, Rules::HBASE);
        let round: Rules = serde_json::from_str(&serde_json::to_string(&Rules {
            splits: SplitRule::SizeAndLoad,
            ..Rules::HBASE
        })?)?;
        assert!(round.splits_by_load() && round.masks_deletes());
        Ok(())
    }

    #[test]
    fn garbage_collection_only_in_compactions() {
        let gc = Rules {
            retention: Retention::AtCompaction,
            ..Rules::HBASE
        };
        assert!(!gc.retains_in(Pass::Read));
        assert!(!gc.retains_in(Pass::Flush));
        assert!(gc.retains_in(Pass::Minor));
        assert!(gc.retains_in(Pass::Major));
    }
}
