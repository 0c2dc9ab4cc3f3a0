#![cfg(not(target_arch = "wasm32"))]
//! Model-based test: random mutations, clock moves, flushes, compactions and splits (explicit,
//! and automatic through small table thresholds) run against the engine and against a naive
//! model that restates HBase 2.x's rules over one plain vector of every cell ever written. Two
//! families with their own VERSIONS, MIN_VERSIONS, TTL and KEEP_DELETED_CELLS; puts with and
//! without a per-cell TTL. Every get (whole row, one family, one column; VERSIONS, time
//! ranges) and every scan (bounds, VERSIONS, time ranges, raw, reversed) must agree, and so
//! must the number of cells every flush and compaction writes. A divergence it finds is kept
//! as a numbered regression test at the end of this file.
//!
//! **When rewrites happen.** What a read returns legitimately depends on which flushes and
//! compactions ran before it: versions beyond VERSIONS stay visible behind a deleted newer
//! one until a rewrite drops them, a delete marker masks a later put with an older timestamp
//! until a major compaction drops the marker, a marker past a column's VERSIONS goes with the
//! next flush, an expired cell goes with the next rewrite and no MIN_VERSIONS can bring it
//! back. The model therefore tracks where each cell lives (a region's memstore, a run, or
//! gone). *When* the engine flushes, compacts or splits (its thresholds, flush policy and
//! exploring compaction policy) is not what this test checks: the model reads the engine's
//! LSM event log after every operation and replays each event on its own cells, deciding
//! *what* the event keeps by HBase's rules. The cell counts of every output run must match.
mod common;
use common::*;
use proptest::prelude::*;
use rowkey::engine::{
    CellKind, Engine, FamilyDescriptor, KeepDeletedCells, LsmEventKind, Mutation, Part, Scan,
    TableDescriptor, TableSettings,
};

const ROWS: &[&str] = &["a", "ab", "b", "b\u{0}", "c"];
const FAMILIES: &[&str] = &["f", "g"];
const QUALS: &[&str] = &["x", "y"];
/// The clock at the start; it only moves forward, by whole seconds or half seconds.
const START: u64 = 10_000;
/// Client timestamps: some in the past, some at or after clock readings to come.
const TIMES: &[u64] = &[6_000, 8_000, 10_000, 11_000, 12_000, 14_000, 16_000, 20_000];

/// A family's settings, as the test case draws them.
#[derive(Clone, Debug)]
struct Family {
    versions: u32,
    min_versions: u32,
    ttl_seconds: Option<u64>,
    keep: KeepDeletedCells,
}

/// The table a case runs against.
#[derive(Clone, Debug)]
struct Setup {
    families: Vec<Family>,
    settings: TableSettings,
}

#[derive(Clone, Debug)]
enum Cols {
    All,
    Family(usize),
    Column(usize, usize),
}

#[derive(Clone, Debug)]
enum Op {
    Put {
        row: usize,
        fam: usize,
        q: usize,
        ts: Option<u64>,
        ttl_ms: Option<u64>,
        v: u8,
    },
    DeleteVersion {
        row: usize,
        fam: usize,
        q: usize,
        ts: Option<u64>,
    },
    DeleteColumn {
        row: usize,
        fam: usize,
        q: usize,
        ts: Option<u64>,
    },
    DeleteFamily {
        row: usize,
        fam: usize,
        ts: Option<u64>,
    },
    DeleteFamilyVersion {
        row: usize,
        fam: usize,
        ts: u64,
    },
    DeleteRow {
        row: usize,
        ts: Option<u64>,
    },
    /// The clock moves forward by this many milliseconds.
    Advance(u64),
    Flush,
    /// `requested`: through the compaction policy, as the shell's `compact` asks; otherwise
    /// every store's runs merged.
    Compact {
        major: bool,
        requested: bool,
    },
    /// At a row (refused when it is a region's start), or every region at its mid key.
    Split(Option<usize>),
    Get {
        row: usize,
        versions: u32,
        range: (u64, u64),
        cols: Cols,
    },
    Scan {
        start: usize,
        stop: usize,
        versions: u32,
        range: (u64, u64),
        reversed: bool,
        raw: bool,
    },
}

fn ts() -> impl Strategy<Value = Option<u64>> {
    prop_oneof![Just(None), proptest::sample::select(TIMES).prop_map(Some)]
}

fn range() -> impl Strategy<Value = (u64, u64)> {
    prop_oneof![
        2 => Just((0u64, u64::MAX)),
        1 => (proptest::sample::select(TIMES), proptest::sample::select(TIMES))
            .prop_map(|(a, b)| (a.min(b), a.max(b) + 1)),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let r = 0..ROWS.len();
    let f = 0..FAMILIES.len();
    let q = 0..QUALS.len();
    let ttl = prop_oneof![4 => Just(None), 1 => Just(Some(1_000u64)), 1 => Just(Some(3_000u64))];
    let cols = prop_oneof![
        2 => Just(Cols::All),
        1 => f.clone().prop_map(Cols::Family),
        2 => (f.clone(), q.clone()).prop_map(|(f, q)| Cols::Column(f, q)),
    ];
    prop_oneof![
        12 => (r.clone(), f.clone(), q.clone(), ts(), ttl, any::<u8>())
            .prop_map(|(row, fam, q, ts, ttl_ms, v)| Op::Put { row, fam, q, ts, ttl_ms, v }),
        2 => (r.clone(), f.clone(), q.clone(), ts())
            .prop_map(|(row, fam, q, ts)| Op::DeleteVersion { row, fam, q, ts }),
        2 => (r.clone(), f.clone(), q.clone(), ts())
            .prop_map(|(row, fam, q, ts)| Op::DeleteColumn { row, fam, q, ts }),
        1 => (r.clone(), f.clone(), ts()).prop_map(|(row, fam, ts)| Op::DeleteFamily { row, fam, ts }),
        1 => (r.clone(), f.clone(), proptest::sample::select(TIMES))
            .prop_map(|(row, fam, ts)| Op::DeleteFamilyVersion { row, fam, ts }),
        1 => (r.clone(), ts()).prop_map(|(row, ts)| Op::DeleteRow { row, ts }),
        3 => prop_oneof![Just(500u64), Just(1_000), Just(2_000), Just(5_000)].prop_map(Op::Advance),
        1 => Just(Op::Flush),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(major, requested)| Op::Compact { major, requested }),
        1 => proptest::option::of(r.clone()).prop_map(Op::Split),
        3 => (r.clone(), 1u32..5, range(), cols)
            .prop_map(|(row, versions, range, cols)| Op::Get { row, versions, range, cols }),
        2 => (0..=ROWS.len(), 0..=ROWS.len(), 1u32..5, range(), any::<bool>(), proptest::bool::weighted(0.3))
            .prop_map(|(start, stop, versions, range, reversed, raw)| Op::Scan { start, stop, versions, range, reversed, raw }),
    ]
}

fn family() -> impl Strategy<Value = Family> {
    let keep = prop_oneof![
        Just(KeepDeletedCells::False),
        Just(KeepDeletedCells::True),
        Just(KeepDeletedCells::Ttl)
    ];
    let ttl = prop_oneof![Just(None), Just(Some(3u64)), Just(Some(6u64))];
    (1u32..4, 0u32..3, ttl, keep).prop_map(|(versions, min, ttl_seconds, keep)| Family {
        versions,
        min_versions: min.min(versions),
        ttl_seconds,
        keep,
    })
}

fn setup() -> impl Strategy<Value = Setup> {
    let flush = prop_oneof![Just(u64::MAX), Just(300u64), Just(800)];
    // A threshold of 100 runs is never reached: no automatic compaction.
    let compaction = prop_oneof![1 => Just(100u64), 2 => Just(2), 1 => Just(3)];
    let split = prop_oneof![Just(0u64), Just(700), Just(2_000)];
    (
        proptest::collection::vec(family(), FAMILIES.len()),
        flush,
        compaction,
        split,
    )
        .prop_map(
            |(families, flush_bytes, compaction_threshold, split_bytes)| Setup {
                families,
                settings: TableSettings {
                    flush_bytes,
                    compaction_threshold,
                    split_bytes,
                },
            },
        )
}

// ---- the model ----------------------------------------------------------------------------

/// Where a model cell lives now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Home {
    /// The memstore of a region (by id).
    Mem(u64),
    /// A run, by the id the engine gave it.
    Run(u64),
    /// Dropped by a flush or compaction.
    Gone,
}

/// Every cell ever written, with where it lives.
#[derive(Clone, Debug)]
struct MCell {
    row: Vec<u8>,
    fam: usize,
    q: Vec<u8>,
    ts: u64,
    kind: CellKind,
    seq: u64,
    /// Per-cell TTL in milliseconds, 0 for none.
    ttl_ms: u64,
    value: Vec<u8>,
    home: Home,
}

impl MCell {
    /// HBase's cell order: row, family, qualifier ascending; timestamp descending; type code
    /// descending (markers before the puts they mask); the later write first.
    fn order(a: &&MCell, b: &&MCell) -> std::cmp::Ordering {
        a.row
            .cmp(&b.row)
            .then(a.fam.cmp(&b.fam))
            .then(a.q.cmp(&b.q))
            .then(b.ts.cmp(&a.ts))
            .then((b.kind as u8).cmp(&(a.kind as u8)))
            .then(b.seq.cmp(&a.seq))
    }
}

/// What one cell reads as, engine and model alike: (row, family, qualifier, ts, kind, value).
type Seen = (Vec<u8>, String, Vec<u8>, u64, CellKind, Vec<u8>);

/// How a put fares against the markers tracked so far (`ScanDeleteTracker.isDeleted`).
#[derive(PartialEq, Eq)]
enum Mask {
    No,
    /// FAMILY_DELETED, COLUMN_DELETED: the matcher skips the rest of the column.
    Column,
    /// VERSION_DELETED, FAMILY_VERSION_DELETED: this cell only.
    Version,
}

/// `ScanDeleteTracker.isDeleted`, stated over the list of markers tracked in the row and
/// family so far, in its order: the family stamp, then family versions, then the column's
/// marker (a DeleteColumn wins over a Delete: the tracker ignores a less general marker on
/// the column it tracks).
fn mask(p: &MCell, tracked: &[&MCell]) -> Mask {
    let any = |kind: CellKind, hit: &dyn Fn(&MCell) -> bool| {
        tracked.iter().any(|m| m.kind == kind && hit(m))
    };
    if any(CellKind::DeleteFamily, &|m| m.ts >= p.ts) {
        Mask::Column
    } else if any(CellKind::DeleteFamilyVersion, &|m| m.ts == p.ts) {
        Mask::Version
    } else if any(CellKind::DeleteColumn, &|m| m.q == p.q && m.ts >= p.ts) {
        Mask::Column
    } else if any(CellKind::Delete, &|m| m.q == p.q && m.ts == p.ts) {
        Mask::Version
    } else {
        Mask::No
    }
}

/// What a column tracker says of a cell.
#[derive(PartialEq, Eq)]
enum Versions {
    Include,
    Skip,
    /// Include this one, then skip the rest of the column (ExplicitColumnTracker).
    IncludeThenNextColumn,
    NextColumn,
}

/// A column tracker's state for the current column.
#[derive(Default)]
struct Column {
    q: Option<Vec<u8>>,
    count: u32,
    last: Option<(u64, CellKind)>,
    /// The matcher said SEEK_NEXT_COL: the rest of this column is not looked at.
    skipping: bool,
}

impl Column {
    /// Starts a new column when `c` is on another qualifier (or row, or family).
    fn enter(&mut self, key: Vec<u8>) {
        if self.q.as_ref() != Some(&key) {
            *self = Column {
                q: Some(key),
                ..Column::default()
            };
        }
    }

    /// `ScanWildcardColumnTracker.checkVersions`: a repeat of the previous (timestamp, type)
    /// is skipped; markers are not counted; past `max` the column is done; past `min` an
    /// expired version ends the column.
    fn wildcard(&mut self, c: &MCell, max: u32, min: u32, expired: bool) -> Versions {
        if self.last == Some((c.ts, c.kind)) {
            return Versions::Skip;
        }
        if c.kind == CellKind::Put {
            self.count += 1;
        }
        if self.count > max {
            return Versions::NextColumn;
        }
        if self.count <= min || !expired {
            self.last = Some((c.ts, c.kind));
            Versions::Include
        } else {
            Versions::NextColumn
        }
    }

    /// `ExplicitColumnTracker.checkVersions` (a read naming its columns): a repeated timestamp
    /// is skipped; the version that reaches `max`, or that is expired once `min` are counted,
    /// is included and ends the column.
    fn explicit(&mut self, c: &MCell, max: u32, min: u32, expired: bool) -> Versions {
        if self.last.map(|l| l.0) == Some(c.ts) {
            return Versions::Skip;
        }
        self.count += 1;
        if self.count >= max || (self.count >= min && expired) {
            Versions::IncludeThenNextColumn
        } else {
            self.last = Some((c.ts, c.kind));
            Versions::Include
        }
    }
}

/// What a read asks.
struct Query {
    versions: u32,
    range: (u64, u64),
    /// The qualifiers of this family asked for; `None` for all.
    columns: Option<Vec<Vec<u8>>>,
    raw: bool,
}

/// Which rewrite a cell goes through.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pass {
    /// A flush or minor compaction (`MinorCompactionScanQueryMatcher`).
    Minor,
    /// `MajorCompactionScanQueryMatcher`.
    Major,
}

struct Model {
    families: Vec<Family>,
    cells: Vec<MCell>,
    /// (id, start, end) in key order, as split events leave them.
    regions: Vec<(u64, Vec<u8>, Vec<u8>)>,
    now: u64,
    seq: u64,
    /// The serial of the last engine event replayed.
    last_event: u64,
}

impl Model {
    /// `now - TTL`: cells older than this are expired (`ScanInfo.getTtl`); raw reads take 0
    /// (`StoreScanner`: `oldestUnexpiredTS = scan.isRaw() ? 0 : now - ttl`).
    fn oldest(&self, fam: usize) -> u64 {
        match self.families[fam].ttl_seconds {
            Some(s) => self.now.saturating_sub(s * 1_000),
            None => 0,
        }
    }

    /// `ScanQueryMatcher.isCellTTLExpired`: `ts + ttl < now`.
    fn cell_ttl_expired(&self, c: &MCell) -> bool {
        c.ttl_ms != 0 && c.ts + c.ttl_ms < self.now
    }

    /// The live cells of one row and family, in cell order.
    fn row_family(&self, row: &[u8], fam: usize) -> Vec<&MCell> {
        let mut cells: Vec<&MCell> = self
            .cells
            .iter()
            .filter(|c| c.home != Home::Gone && c.row == row && c.fam == fam)
            .collect();
        cells.sort_by(MCell::order);
        cells
    }

    /// A user read of one row and family, cell by cell as `NormalUserScanQueryMatcher` (or
    /// `RawScanQueryMatcher`) and `UserScanQueryMatcher.matchColumn` decide:
    /// 1. `preCheck`: an expired cell (family TTL, MIN_VERSIONS 0) ends its column; a cell past
    ///    its own TTL is skipped.
    /// 2. Not raw: a marker is tracked when it is at or after the time range's start (within
    ///    the range when the family keeps deleted cells: it sees past later markers), never
    ///    returned; a masked put is skipped (its column too for a column or family marker).
    /// 3. Time range: at or past its end skipped, before its start ends the column.
    /// 4. Columns named: others are skipped (ExplicitColumnTracker, else wildcard).
    /// 5. Versions: at most min(scan, family) VERSIONS, or the scan's for a raw read.
    fn read(&self, row: &[u8], fam: usize, q: &Query) -> Vec<&MCell> {
        let family = &self.families[fam];
        let oldest = if q.raw { 0 } else { self.oldest(fam) };
        let max = if q.raw {
            q.versions
        } else {
            q.versions.min(family.versions)
        };
        let mut out = Vec::new();
        let mut tracked: Vec<&MCell> = Vec::new();
        let mut col = Column::default();
        for c in self.row_family(row, fam) {
            col.enter(c.q.clone());
            if col.skipping {
                continue;
            }
            let expired = c.ts < oldest;
            if family.min_versions == 0 && expired {
                col.skipping = true;
                continue;
            }
            if self.cell_ttl_expired(c) {
                continue;
            }
            if !q.raw {
                if c.kind != CellKind::Put {
                    let applies = if family.keep != KeepDeletedCells::False {
                        c.ts >= q.range.0 && c.ts < q.range.1
                    } else {
                        c.ts >= q.range.0
                    };
                    if applies {
                        tracked.push(c);
                    }
                    continue;
                }
                match mask(c, &tracked) {
                    Mask::Column => {
                        col.skipping = true;
                        continue;
                    }
                    Mask::Version => continue,
                    Mask::No => {}
                }
            }
            if c.ts >= q.range.1 {
                continue;
            }
            if c.ts < q.range.0 {
                col.skipping = true;
                continue;
            }
            let verdict = match &q.columns {
                Some(cols) if !cols.contains(&c.q) => {
                    col.skipping = true;
                    continue;
                }
                Some(_) => col.explicit(c, max, family.min_versions, expired),
                None => col.wildcard(c, max, family.min_versions, expired),
            };
            match verdict {
                Versions::Include => out.push(c),
                Versions::IncludeThenNextColumn => {
                    out.push(c);
                    col.skipping = true;
                }
                Versions::Skip => {}
                Versions::NextColumn => col.skipping = true,
            }
        }
        out
    }

    /// Which of `cells` (one family, any rows) a flush or compaction keeps, cell by cell as
    /// `MinorCompactionScanQueryMatcher` / `MajorCompactionScanQueryMatcher` decide:
    /// 1. `preCheck` as for reads (expired past MIN_VERSIONS 0 ends the column; cell TTL skips).
    /// 2. A marker is tracked unless the family keeps deleted cells (with 'TTL': unless it is
    ///    still within the TTL) (`CompactionScanQueryMatcher.trackDelete`). A minor pass keeps
    ///    every marker as it is. A major pass drops a tracked marker; one it must keep is
    ///    dropped with the rest of its column when it is older than every put of the
    ///    compaction, else counted as a version (`DropDeletesCompactionScanQueryMatcher
    ///    .tryDropDelete`, `earliestPutTs`).
    /// 3. A put masked by a tracked marker is dropped (its column too for a column or family
    ///    marker).
    /// 4. `ScanWildcardColumnTracker.checkVersions` with the family's VERSIONS and
    ///    MIN_VERSIONS: past VERSIONS the rest of the column goes, markers included.
    fn rewrite(&self, cells: &[&MCell], pass: Pass) -> Vec<bool> {
        let mut sorted: Vec<(usize, &MCell)> = cells.iter().copied().enumerate().collect();
        sorted.sort_by(|a, b| MCell::order(&a.1, &b.1));
        let earliest_put = cells
            .iter()
            .filter(|c| c.kind == CellKind::Put)
            .map(|c| c.ts)
            .min()
            .unwrap_or(u64::MAX);
        let mut keep = vec![false; cells.len()];
        let mut row: Option<(&[u8], usize)> = None;
        let mut tracked: Vec<&MCell> = Vec::new();
        let mut col = Column::default();
        for (i, c) in sorted {
            if row != Some((c.row.as_slice(), c.fam)) {
                row = Some((c.row.as_slice(), c.fam));
                tracked.clear();
            }
            let family = &self.families[c.fam];
            let mut key = c.row.clone();
            key.push(0xff);
            key.push(c.fam as u8);
            key.extend_from_slice(&c.q);
            col.enter(key);
            if col.skipping {
                continue;
            }
            let expired = c.ts < self.oldest(c.fam);
            if family.min_versions == 0 && expired {
                col.skipping = true;
                continue;
            }
            if self.cell_ttl_expired(c) {
                continue;
            }
            if c.kind != CellKind::Put {
                let purge = match family.keep {
                    KeepDeletedCells::False => true,
                    KeepDeletedCells::True => false,
                    KeepDeletedCells::Ttl => expired,
                };
                if purge {
                    tracked.push(c);
                }
                if pass == Pass::Minor {
                    keep[i] = true;
                    continue;
                }
                if purge {
                    continue;
                }
                if c.ts < earliest_put {
                    col.skipping = true;
                    continue;
                }
            } else {
                match mask(c, &tracked) {
                    Mask::Column => {
                        col.skipping = true;
                        continue;
                    }
                    Mask::Version => continue,
                    Mask::No => {}
                }
            }
            match col.wildcard(c, family.versions, family.min_versions, expired) {
                Versions::Include | Versions::IncludeThenNextColumn => keep[i] = true,
                Versions::Skip => {}
                Versions::NextColumn => col.skipping = true,
            }
        }
        keep
    }

    fn region_of(&self, row: &[u8]) -> u64 {
        self.regions
            .iter()
            .rev()
            .find(|r| r.1.as_slice() <= row)
            .map_or(0, |r| r.0)
    }

    fn write(&mut self, row: usize, fam: usize, q: &[u8], ts: u64, kind: CellKind, ttl_ms: u64) {
        self.write_value(row, fam, q, ts, kind, ttl_ms, Vec::new());
    }

    #[allow(clippy::too_many_arguments)]
    fn write_value(
        &mut self,
        row: usize,
        fam: usize,
        q: &[u8],
        ts: u64,
        kind: CellKind,
        ttl_ms: u64,
        value: Vec<u8>,
    ) {
        self.seq += 1;
        let row = ROWS[row].as_bytes().to_vec();
        let home = Home::Mem(self.region_of(&row));
        self.cells.push(MCell {
            row,
            fam,
            q: q.to_vec(),
            ts,
            kind,
            seq: self.seq,
            ttl_ms,
            value,
            home,
        });
    }

    /// The newest visible version's timestamp: what a Delete without a timestamp marks
    /// (`HRegion.prepareDeleteTimestamps` gets the column with VERSIONS 1).
    fn latest_ts(&self, row: usize, fam: usize, q: usize) -> Option<u64> {
        let query = Query {
            versions: 1,
            range: (0, u64::MAX),
            columns: Some(vec![QUALS[q].as_bytes().to_vec()]),
            raw: false,
        };
        self.read(ROWS[row].as_bytes(), fam, &query)
            .first()
            .map(|c| c.ts)
    }

    /// Replays the engine's new flush, compaction and split events on the model's cells.
    fn replay(&mut self, e: &Engine) -> Result<(), TestCaseError> {
        let Some(log) = e.lsm_events("t") else {
            return Ok(());
        };
        let events: Vec<_> = log
            .iter()
            .filter(|ev| ev.serial > self.last_event)
            .cloned()
            .collect();
        for ev in events {
            prop_assert_eq!(ev.serial, self.last_event + 1, "an event was not seen");
            self.last_event = ev.serial;
            let fam = ev
                .family
                .as_ref()
                .and_then(|f| FAMILIES.iter().position(|n| n == f));
            match ev.kind {
                LsmEventKind::Flush
                | LsmEventKind::MinorCompaction
                | LsmEventKind::MajorCompaction => {
                    let fam = fam.ok_or_else(|| TestCaseError::fail("rewrite without a family"))?;
                    let inputs: Vec<Home> = ev
                        .inputs
                        .iter()
                        .map(|i| match i.part {
                            Part::Memstore => Home::Mem(ev.region),
                            Part::Run(id) => Home::Run(id),
                        })
                        .collect();
                    let picked: Vec<usize> = (0..self.cells.len())
                        .filter(|&i| {
                            self.cells[i].fam == fam && inputs.contains(&self.cells[i].home)
                        })
                        .collect();
                    let pass = if ev.kind == LsmEventKind::MajorCompaction {
                        Pass::Major
                    } else {
                        Pass::Minor
                    };
                    let refs: Vec<&MCell> = picked.iter().map(|&i| &self.cells[i]).collect();
                    let keep = self.rewrite(&refs, pass);
                    let kept = keep.iter().filter(|k| **k).count();
                    let out = ev.outputs.first();
                    prop_assert_eq!(
                        out.map_or(0, |o| o.cells),
                        kept,
                        "{:?} of region {} family {:?} at {}: cells written",
                        ev.kind,
                        ev.region,
                        ev.family,
                        self.now
                    );
                    let home = match out.map(|o| o.part) {
                        Some(Part::Run(id)) => Home::Run(id),
                        _ => Home::Gone,
                    };
                    for (i, k) in picked.into_iter().zip(keep) {
                        self.cells[i].home = if k { home } else { Home::Gone };
                    }
                }
                LsmEventKind::Split => self.split(&ev)?,
            }
        }
        Ok(())
    }

    /// A split cuts every run holding rows on both sides of the split row into two new runs;
    /// a run on one side moves whole and keeps its id. Per family, the cut runs' new ids come
    /// in the parent's run order, the lower halves in the left daughter, the upper in the right.
    fn split(&mut self, ev: &rowkey::engine::LsmEvent) -> Result<(), TestCaseError> {
        let [(left, lo_start, at), (right, _, hi_end)] = ev.daughters.as_slice() else {
            return Err(TestCaseError::fail("a split without two daughters"));
        };
        for name in FAMILIES {
            let of = |s: &&rowkey::engine::RunSummary| s.family == *name;
            let inputs: Vec<u64> = ev
                .inputs
                .iter()
                .filter(of)
                .filter_map(|s| match s.part {
                    Part::Run(id) => Some(id),
                    Part::Memstore => None,
                })
                .collect();
            let fresh = |region: u64| -> Vec<u64> {
                ev.outputs
                    .iter()
                    .filter(of)
                    .filter(|s| s.region == region)
                    .filter_map(|s| match s.part {
                        Part::Run(id) if !inputs.contains(&id) => Some(id),
                        _ => None,
                    })
                    .collect()
            };
            let moved: Vec<u64> = ev
                .outputs
                .iter()
                .filter_map(|s| match s.part {
                    Part::Run(id) => Some(id),
                    Part::Memstore => None,
                })
                .collect();
            let (mut lows, mut highs) = (fresh(*left).into_iter(), fresh(*right).into_iter());
            for id in inputs.iter().filter(|id| !moved.contains(id)) {
                let (lo, hi) = (lows.next(), highs.next());
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    return Err(TestCaseError::fail(format!("run {id} cut without halves")));
                };
                for c in self.cells.iter_mut().filter(|c| c.home == Home::Run(*id)) {
                    c.home = Home::Run(if c.row < *at { lo } else { hi });
                }
            }
        }
        for c in self
            .cells
            .iter_mut()
            .filter(|c| c.home == Home::Mem(ev.region))
        {
            c.home = Home::Mem(if c.row < *at { *left } else { *right });
        }
        let i = self
            .regions
            .iter()
            .position(|r| r.0 == ev.region)
            .ok_or_else(|| TestCaseError::fail("split of an unknown region"))?;
        self.regions[i] = (*left, lo_start.clone(), at.clone());
        self.regions
            .insert(i + 1, (*right, at.clone(), hi_end.clone()));
        Ok(())
    }

    /// The cells a read returns for `rows` (in the order given), family by family.
    fn read_rows(
        &self,
        rows: &[&str],
        versions: u32,
        range: (u64, u64),
        cols: &Cols,
        raw: bool,
    ) -> Vec<Seen> {
        let mut out = Vec::new();
        for row in rows {
            for (fam, name) in FAMILIES.iter().enumerate() {
                let columns = match cols {
                    Cols::All => None,
                    Cols::Family(f) if *f == fam => None,
                    Cols::Column(f, q) if *f == fam => Some(vec![QUALS[*q].as_bytes().to_vec()]),
                    _ => continue,
                };
                let q = Query {
                    versions,
                    range,
                    columns,
                    raw,
                };
                out.extend(self.read(row.as_bytes(), fam, &q).into_iter().map(|c| {
                    (
                        c.row.clone(),
                        name.to_string(),
                        c.q.clone(),
                        c.ts,
                        c.kind,
                        c.value.clone(),
                    )
                }));
            }
        }
        out
    }
}

fn engine_read(e: &mut Engine, scan: &mut Scan) -> Result<Vec<Seen>, TestCaseError> {
    let out = e
        .scan("t", scan)
        .map_err(|err| TestCaseError::fail(format!("read failed: {err}")))?;
    Ok(out
        .rows
        .into_iter()
        .flat_map(|r| {
            r.cells.into_iter().map(|c| {
                (
                    c.row,
                    String::from_utf8_lossy(&c.family).into_owned(),
                    c.qualifier,
                    c.timestamp,
                    c.kind,
                    c.value,
                )
            })
        })
        .collect())
}

fn fail(e: rowkey::engine::Error) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

fn check(setup: &Setup, ops: &[Op]) -> Result<(), TestCaseError> {
    let clock = Clock::at(START);
    let mut e = clock.engine();
    let families = setup
        .families
        .iter()
        .zip(FAMILIES)
        .map(|(f, name)| {
            let mut d = FamilyDescriptor::new(name);
            d.max_versions = f.versions;
            d.min_versions = f.min_versions;
            d.ttl_seconds = f.ttl_seconds;
            d.keep_deleted_cells = f.keep;
            d
        })
        .collect();
    let mut desc = TableDescriptor::new("t", families);
    desc.settings = setup.settings;
    e.create_table(desc, vec![]).map_err(fail)?;
    let first = e.table("t").map_err(fail)?.regions[0].id;
    let mut m = Model {
        families: setup.families.clone(),
        cells: Vec::new(),
        regions: vec![(first, Vec::new(), Vec::new())],
        now: START,
        seq: 0,
        last_event: 0,
    };
    let fam = |f: usize| FAMILIES[f].as_bytes().to_vec();
    for (step, op) in ops.iter().enumerate() {
        let mutate = |e: &mut Engine, row: usize, mu: Mutation| {
            e.mutate("t", ROWS[row].as_bytes(), &[mu])
                .map(|_| ())
                .map_err(fail)
        };
        match op.clone() {
            Op::Put {
                row,
                fam: f,
                q,
                ts,
                ttl_ms,
                v,
            } => {
                let put = Mutation::Put {
                    family: fam(f),
                    qualifier: QUALS[q].into(),
                    timestamp: ts,
                    value: vec![v],
                    ttl_ms,
                };
                // The model writes first: an automatic flush the put triggers includes it.
                let t = ts.unwrap_or(m.now);
                let q = QUALS[q].as_bytes();
                m.write_value(row, f, q, t, CellKind::Put, ttl_ms.unwrap_or(0), vec![v]);
                mutate(&mut e, row, put)?;
            }
            Op::DeleteVersion { row, fam: f, q, ts } => {
                let t = ts.or_else(|| m.latest_ts(row, f, q)).unwrap_or(m.now);
                m.write(row, f, QUALS[q].as_bytes(), t, CellKind::Delete, 0);
                let del = Mutation::Delete {
                    family: fam(f),
                    qualifier: Some(QUALS[q].into()),
                    timestamp: ts,
                    all_versions: false,
                };
                mutate(&mut e, row, del)?;
            }
            Op::DeleteColumn { row, fam: f, q, ts } => {
                m.write(
                    row,
                    f,
                    QUALS[q].as_bytes(),
                    ts.unwrap_or(m.now),
                    CellKind::DeleteColumn,
                    0,
                );
                let del = Mutation::Delete {
                    family: fam(f),
                    qualifier: Some(QUALS[q].into()),
                    timestamp: ts,
                    all_versions: true,
                };
                mutate(&mut e, row, del)?;
            }
            Op::DeleteFamily { row, fam: f, ts } => {
                m.write(row, f, b"", ts.unwrap_or(m.now), CellKind::DeleteFamily, 0);
                let del = Mutation::Delete {
                    family: fam(f),
                    qualifier: None,
                    timestamp: ts,
                    all_versions: true,
                };
                mutate(&mut e, row, del)?;
            }
            Op::DeleteFamilyVersion { row, fam: f, ts } => {
                m.write(row, f, b"", ts, CellKind::DeleteFamilyVersion, 0);
                let del = Mutation::Delete {
                    family: fam(f),
                    qualifier: None,
                    timestamp: Some(ts),
                    all_versions: false,
                };
                mutate(&mut e, row, del)?;
            }
            Op::DeleteRow { row, ts } => {
                for f in 0..FAMILIES.len() {
                    m.write(row, f, b"", ts.unwrap_or(m.now), CellKind::DeleteFamily, 0);
                }
                mutate(&mut e, row, Mutation::DeleteRow { timestamp: ts })?;
            }
            Op::Advance(ms) => {
                clock.advance(ms);
                m.now += ms;
            }
            Op::Flush => e.flush("t").map_err(fail)?,
            Op::Compact { major, requested } => {
                if requested {
                    e.compact_requested("t", None, major).map_err(fail)?;
                } else {
                    e.compact("t", major).map_err(fail)?;
                }
            }
            Op::Split(at) => {
                // A split key that is already a region's start is refused; so is a single row.
                let _ = e.split("t", at.map(|r| ROWS[r].as_bytes()));
            }
            Op::Get {
                row,
                versions,
                range,
                cols,
            } => {
                let columns = match cols {
                    Cols::All => vec![],
                    Cols::Family(f) => vec![(fam(f), None)],
                    Cols::Column(f, q) => vec![(fam(f), Some(QUALS[q].as_bytes().to_vec()))],
                };
                let mut scan = Scan {
                    max_versions: versions,
                    time_range: range,
                    columns,
                    ..Scan::get(ROWS[row].as_bytes())
                };
                let got = engine_read(&mut e, &mut scan)?;
                let want = m.read_rows(&[ROWS[row]], versions, range, &cols, false);
                prop_assert_eq!(
                    got,
                    want,
                    "get at step {} (now {}) of {:?}",
                    step,
                    m.now,
                    ops
                );
            }
            Op::Scan {
                start,
                stop,
                versions,
                range,
                reversed,
                raw,
            } => {
                let key = |i: usize| {
                    ROWS.get(i)
                        .map(|r| r.as_bytes().to_vec())
                        .unwrap_or_default()
                };
                let mut scan = Scan {
                    start_row: key(start),
                    stop_row: key(stop),
                    max_versions: versions,
                    time_range: range,
                    reversed,
                    raw,
                    ..Scan::default()
                };
                let got = engine_read(&mut e, &mut scan)?;
                let mut sorted: Vec<&str> = ROWS.to_vec();
                sorted.sort();
                let (s, t) = (key(start), key(stop));
                let in_range = sorted.into_iter().filter(|r| {
                    let r = r.as_bytes();
                    if reversed {
                        (s.is_empty() || r <= s.as_slice()) && (t.is_empty() || r > t.as_slice())
                    } else {
                        r >= s.as_slice() && (t.is_empty() || r < t.as_slice())
                    }
                });
                let ordered: Vec<&str> = if reversed {
                    in_range.rev().collect()
                } else {
                    in_range.collect()
                };
                let want = m.read_rows(&ordered, versions, range, &Cols::All, raw);
                prop_assert_eq!(
                    got,
                    want,
                    "scan at step {} (now {}) of {:?}",
                    step,
                    m.now,
                    ops
                );
            }
        }
        m.replay(&e)?;
        let regions: Vec<(u64, Vec<u8>, Vec<u8>)> = e
            .table("t")
            .map_err(fail)?
            .regions
            .iter()
            .map(|r| (r.id, r.start.clone(), r.end.clone()))
            .collect();
        prop_assert_eq!(&regions, &m.regions, "regions after step {}", step);
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("ROWKEY_MODEL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]
    #[test]
    fn engine_agrees_with_model(setup in setup(), ops in proptest::collection::vec(op(), 1..80)) {
        check(&setup, &ops)?;
    }
}

// ---- regressions --------------------------------------------------------------------------

/// One family `f` with `versions`, FOREVER, KEEP_DELETED_CELLS false; `g` the default; no
/// automatic flush, compaction or split.
fn plain(versions: u32) -> Setup {
    let family = |versions| Family {
        versions,
        min_versions: 0,
        ttl_seconds: None,
        keep: KeepDeletedCells::False,
    };
    Setup {
        families: vec![family(versions), family(1)],
        settings: TableSettings {
            flush_bytes: u64::MAX,
            compaction_threshold: 100,
            split_bytes: 0,
        },
    }
}

fn put(row: usize, q: usize, ts: Option<u64>) -> Op {
    Op::Put {
        row,
        fam: 0,
        q,
        ts,
        ttl_ms: None,
        v: 0,
    }
}

fn get(row: usize, versions: u32, range: (u64, u64)) -> Op {
    Op::Get {
        row,
        versions,
        range,
        cols: Cols::All,
    }
}

/// Regression 1: a delete marker older than a column's kept versions is dropped by a flush
/// (HBase's compaction matcher skips to the next column once VERSIONS is reached), so a later
/// put at the marker's timestamp becomes visible. The first model kept every marker.
#[test]
fn regression_1_markers_past_the_version_limit_go_with_the_flush() -> Result<(), TestCaseError> {
    let ops = vec![
        put(0, 1, None),
        Op::DeleteColumn {
            row: 0,
            fam: 0,
            q: 1,
            ts: Some(8_000),
        },
        put(0, 1, None),
        Op::Flush,
        put(0, 1, Some(8_000)),
        get(0, 1, (0, 10_001)),
    ];
    check(&plain(1), &ops)
}

/// `f` as `plain` has it, `g` as given.
fn with_g(g: Family) -> Setup {
    let mut s = plain(1);
    s.families[1] = g;
    s
}

/// Regression 2: a put with a per-cell TTL is kept by a flush in the millisecond its TTL ends
/// (`ScanQueryMatcher.isCellTTLExpired`: `ts + ttl < now`); the engine expired it at
/// `ts + ttl <= now`. Engine fixed (`Cell::ttl_expired`).
#[test]
fn regression_2_cell_ttl_ends_after_its_last_millisecond() -> Result<(), TestCaseError> {
    let ops = vec![
        Op::Put {
            row: 0,
            fam: 0,
            q: 0,
            ts: None,
            ttl_ms: Some(1_000),
            v: 0,
        },
        Op::Advance(1_000),
        Op::Flush,
        get(0, 1, (0, u64::MAX)),
    ];
    check(&plain(1), &ops)
}

/// Regression 3: with KEEP_DELETED_CELLS => TRUE a major compaction drops a marker older than
/// every put it reads (here: a family with no put at all), as
/// `DropDeletesCompactionScanQueryMatcher.tryDropDelete` does against `earliestPutTs`; the
/// engine kept it. Engine fixed (`resolve::fates`).
#[test]
fn regression_3_a_kept_marker_older_than_every_put_goes() -> Result<(), TestCaseError> {
    let g = Family {
        versions: 1,
        min_versions: 1,
        ttl_seconds: None,
        keep: KeepDeletedCells::True,
    };
    let ops = vec![
        Op::DeleteVersion {
            row: 0,
            fam: 1,
            q: 0,
            ts: None,
        },
        put(1, 0, None),
        Op::Split(None),
        Op::Compact {
            major: true,
            requested: false,
        },
    ];
    check(&with_g(g), &ops)
}

/// Regression 4: a get naming its column with MIN_VERSIONS 1 and a TTL returns the first
/// expired version too (`ExplicitColumnTracker.checkVersions`: `count >= minVersions &&
/// isExpired` is INCLUDE_AND_SEEK_NEXT_COL); the engine applied the whole-family rule
/// (`ScanWildcardColumnTracker`), which leaves it out. Engine fixed (`ColumnTracker`).
#[test]
fn regression_4_a_named_column_sees_one_expired_version() -> Result<(), TestCaseError> {
    let g = Family {
        versions: 2,
        min_versions: 1,
        ttl_seconds: Some(3),
        keep: KeepDeletedCells::False,
    };
    let ops = vec![
        Op::Put {
            row: 4,
            fam: 1,
            q: 1,
            ts: Some(6_000),
            ttl_ms: None,
            v: 0,
        },
        Op::Put {
            row: 4,
            fam: 1,
            q: 1,
            ts: None,
            ttl_ms: None,
            v: 0,
        },
        Op::Get {
            row: 4,
            versions: 2,
            range: (0, u64::MAX),
            cols: Cols::Column(1, 1),
        },
    ];
    check(&with_g(g), &ops)
}

/// Regression 5: a flush seeks past the rest of a column once a family or column marker
/// masks a put of it (`ScanQueryMatcher.checkDeleted` → `getNextRowOrNextColumn`), so the
/// older DeleteColumn behind it is not written; the engine wrote it. Engine fixed.
#[test]
fn regression_5_markers_behind_a_masked_put_go_with_the_flush() -> Result<(), TestCaseError> {
    let ops = vec![
        Op::DeleteRow {
            row: 0,
            ts: Some(11_000),
        },
        Op::DeleteColumn {
            row: 0,
            fam: 0,
            q: 1,
            ts: None,
        },
        put(0, 1, Some(11_000)),
        Op::Flush,
        Op::Scan {
            start: 0,
            stop: 0,
            versions: 3,
            range: (0, u64::MAX),
            reversed: false,
            raw: true,
        },
    ];
    check(&plain(1), &ops)
}

/// Regression 6: with KEEP_DELETED_CELLS => TRUE a major compaction passes the markers it
/// keeps through the column tracker (`MajorCompactionScanQueryMatcher.match` →
/// `ScanWildcardColumnTracker.checkVersions`), which writes a repeated (timestamp, type) once;
/// the engine wrote both DeleteFamily markers. Engine fixed.
#[test]
fn regression_6_a_repeated_kept_marker_is_written_once() -> Result<(), TestCaseError> {
    let g = Family {
        versions: 1,
        min_versions: 1,
        ttl_seconds: None,
        keep: KeepDeletedCells::True,
    };
    let ops = vec![
        Op::DeleteRow {
            row: 4,
            ts: Some(16_000),
        },
        Op::DeleteFamily {
            row: 4,
            fam: 1,
            ts: Some(16_000),
        },
        Op::Put {
            row: 0,
            fam: 1,
            q: 0,
            ts: None,
            ttl_ms: None,
            v: 0,
        },
        Op::Flush,
        Op::Compact {
            major: true,
            requested: false,
        },
    ];
    check(&with_g(g), &ops)
}

/// Regression 7: with KEEP_DELETED_CELLS => 'TTL' a rewrite tracks only the expired markers
/// (`CompactionScanQueryMatcher.trackDelete`), so the expired DeleteFamily at 10 000 masks
/// the put even behind the newer DeleteFamily within the TTL, and the flush drops the put;
/// the engine tracked both markers, judged the put by the newer one and kept it. Engine fixed.
#[test]
fn regression_7_an_expired_marker_masks_behind_one_within_the_ttl() -> Result<(), TestCaseError> {
    let g = Family {
        versions: 1,
        min_versions: 1,
        ttl_seconds: Some(3),
        keep: KeepDeletedCells::Ttl,
    };
    let ops = vec![
        Op::Put {
            row: 3,
            fam: 1,
            q: 0,
            ts: None,
            ttl_ms: None,
            v: 0,
        },
        Op::Advance(5_000),
        Op::DeleteRow { row: 3, ts: None },
        Op::DeleteFamily {
            row: 3,
            fam: 1,
            ts: Some(10_000),
        },
        Op::Flush,
    ];
    check(&with_g(g), &ops)
}
