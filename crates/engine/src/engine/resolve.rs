//! Version and delete resolution: which cells of one row of one family a read sees, and which
//! a flush or compaction keeps. This is where HBase's documented surprises come from.

use super::cell::{Cell, CellKind, CellRef};
use super::family::{FamilyDescriptor, KeepDeletedCells};
use super::rules::Rules;

/// HBase's delete tracker for one row of one family: remembers the markers seen so far (they
/// sort before the cells they mask) and answers whether a put is masked.
#[derive(Default)]
pub(crate) struct DeleteTracker<'a> {
    family_stamp: Option<u64>,
    family_versions: Vec<u64>,
    column: Option<(&'a [u8], CellKind, u64)>,
    /// Rules without delete markers: a delete takes away the cells written before it (a lower
    /// sequence number) whatever their timestamps, and a later write is never masked.
    by_seq: bool,
    family_seq: u64,
    column_seq: u64,
}

/// How a put fares against the markers seen, and which marker masks it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Masked {
    No,
    /// This version only (Delete, DeleteFamilyVersion).
    Version(Marker),
    /// This version and every older one of the column (DeleteColumn, DeleteFamily).
    Column(Marker),
}

impl Masked {
    fn marker(self) -> Option<Marker> {
        match self {
            Masked::No => None,
            Masked::Version(m) | Masked::Column(m) => Some(m),
        }
    }
}

/// A delete marker as a masked cell names it: its kind and timestamp (a column marker is on
/// the masked cell's own column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Marker {
    pub kind: CellKind,
    pub timestamp: u64,
}

impl<'a> DeleteTracker<'a> {
    /// A tracker for a table's rules: HBase's markers mask by timestamp; without markers, a
    /// delete masks by sequence (see [`DeleteTracker::by_seq`]).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn for_rules(rules: Rules) -> DeleteTracker<'a> {
        DeleteTracker {
            by_seq: !rules.masks_deletes(),
            ..DeleteTracker::default()
        }
    }

    pub fn add(&mut self, cell: &CellRef<'a>) {
        let ts = cell.timestamp;
        if self.by_seq {
            // Deletes without markers sort before every cell they may take away (they carry
            // the highest timestamp); the newest one of a family or column comes first.
            match cell.kind {
                CellKind::DeleteFamily => self.family_seq = self.family_seq.max(cell.seq),
                CellKind::DeleteColumn | CellKind::Delete => {
                    let same = self.column.is_some_and(|(q, _, _)| q == cell.qualifier);
                    let seq = if same {
                        self.column_seq.max(cell.seq)
                    } else {
                        cell.seq
                    };
                    self.column = Some((cell.qualifier, cell.kind, ts));
                    self.column_seq = seq;
                }
                _ => {}
            }
            return;
        }
        if self.family_stamp.is_some_and(|f| ts <= f) {
            return;
        }
        match cell.kind {
            CellKind::DeleteFamily => self.family_stamp = Some(ts),
            CellKind::DeleteFamilyVersion => self.family_versions.push(ts),
            CellKind::Delete | CellKind::DeleteColumn => {
                // A less general marker on the column already tracked adds nothing.
                if let Some((q, kind, _)) = self.column {
                    if cell.kind < kind && q == cell.qualifier {
                        return;
                    }
                }
                self.column = Some((cell.qualifier, cell.kind, ts));
            }
            CellKind::Put => {}
        }
    }

    /// No marker seen in the row (nearly every row a read sees): nothing is masked.
    #[inline(always)]
    fn quiet(&self) -> bool {
        self.family_stamp.is_none()
            && self.column.is_none()
            && self.family_versions.is_empty()
            && self.family_seq == 0
    }

    #[inline(always)]
    pub fn is_deleted(&mut self, cell: &CellRef<'_>) -> Masked {
        // Decided where the read asks, without a call, while no marker is seen.
        if self.quiet() {
            return Masked::No;
        }
        self.masked(cell)
    }

    /// [`DeleteTracker::is_deleted`] once a marker has been seen in the row.
    #[inline(never)]
    fn masked(&mut self, cell: &CellRef<'_>) -> Masked {
        let ts = cell.timestamp;
        if self.by_seq {
            // Only this cell: a later write with an older timestamp may follow in the column.
            if cell.seq < self.family_seq {
                return Masked::Version(Marker {
                    kind: CellKind::DeleteFamily,
                    timestamp: ts,
                });
            }
            if let Some((q, kind, del_ts)) = self.column {
                if q == cell.qualifier && cell.seq < self.column_seq {
                    return Masked::Version(Marker {
                        kind,
                        timestamp: del_ts,
                    });
                }
            }
            return Masked::No;
        }
        if let Some(f) = self.family_stamp.filter(|f| ts <= *f) {
            return Masked::Column(Marker {
                kind: CellKind::DeleteFamily,
                timestamp: f,
            });
        }
        if self.family_versions.contains(&ts) {
            return Masked::Version(Marker {
                kind: CellKind::DeleteFamilyVersion,
                timestamp: ts,
            });
        }
        if let Some((q, kind, del_ts)) = self.column {
            if q == cell.qualifier {
                let marker = Marker {
                    kind,
                    timestamp: del_ts,
                };
                if kind == CellKind::DeleteColumn {
                    return Masked::Column(marker);
                }
                if ts == del_ts {
                    return Masked::Version(marker);
                }
            }
            // An older version, or the next column: the version marker has done its work.
            self.column = None;
        }
        Masked::No
    }
}

/// Counts versions per column and drops repeated (timestamp, kind) pairs: of two writes at the
/// same timestamp only the later one is ever seen.
#[derive(Default)]
struct ColumnTracker<'a> {
    column: Option<&'a [u8]>,
    count: u32,
    last: Option<(u64, CellKind)>,
    /// A read that names its columns: HBase's `ExplicitColumnTracker`, which ends a column on
    /// the version that reaches a limit and still returns that version. Otherwise the
    /// `ScanWildcardColumnTracker` of whole-family reads and every rewrite.
    explicit: bool,
}

enum Versioned {
    /// Counted and within the limits.
    Keep,
    /// Counted and kept, and the rest of the column goes.
    KeepLast,
    /// A repeat of the previous timestamp and kind.
    Duplicate,
    /// Past the version limit or expired past MIN_VERSIONS: the rest of the column goes too.
    ColumnDone,
}

impl<'a> ColumnTracker<'a> {
    /// Counts `cell` as the first version of a new column, a put within the limits: what
    /// [`ColumnTracker::check`] does for it.
    #[inline(always)]
    fn first_of(&mut self, cell: &CellRef<'a>) {
        self.column = Some(cell.qualifier);
        self.count = 1;
        self.last = Some((cell.timestamp, cell.kind));
    }

    fn check(
        &mut self,
        cell: &CellRef<'a>,
        max_versions: u32,
        min_versions: u32,
        expired: bool,
    ) -> Versioned {
        if self.column != Some(cell.qualifier) {
            self.column = Some(cell.qualifier);
            self.count = 0;
            self.last = None;
        } else if self.last == Some((cell.timestamp, cell.kind)) {
            return Versioned::Duplicate;
        }
        if !cell.kind.is_delete() {
            self.count += 1;
        }
        if self.explicit {
            // `ExplicitColumnTracker.checkVersions`: `count >= maxVersions || (count >=
            // minVersions && isExpired(timestamp))` includes the cell and seeks the next
            // column, so a read naming a column sees the first expired version past
            // MIN_VERSIONS that a whole-family read leaves out.
            if self.count >= max_versions || (self.count >= min_versions && expired) {
                return Versioned::KeepLast;
            }
            self.last = Some((cell.timestamp, cell.kind));
            return Versioned::Keep;
        }
        if self.count > max_versions {
            return Versioned::ColumnDone;
        }
        if self.count <= min_versions || !expired {
            self.last = Some((cell.timestamp, cell.kind));
            Versioned::Keep
        } else {
            Versioned::ColumnDone
        }
    }
}

/// What a read asks of one family.
#[derive(Clone, Debug)]
pub(crate) struct ReadSpec<'s> {
    pub max_versions: u32,
    /// Half-open `[min, max)`.
    pub time_range: (u64, u64),
    /// The qualifiers asked for, or `None` for all.
    pub columns: Option<&'s [Vec<u8>]>,
    pub raw: bool,
    /// The read has a filter: versions are counted again after it (see [`RowResolver::new`]).
    pub filtered: bool,
    /// The table's rules: whether markers mask, whether VERSIONS and TTL apply at read.
    pub rules: Rules,
}

/// What a user read does with a cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Verdict {
    Include,
    Skip,
    /// Skip this cell and the rest of its column.
    SkipColumn,
}

/// Resolves the cells of one row of one family for a get or scan, in cell order.
pub(crate) struct RowResolver<'a, 's> {
    deletes: DeleteTracker<'a>,
    versions: ColumnTracker<'a>,
    skipping: Option<&'a [u8]>,
    spec: &'s ReadSpec<'s>,
    family: &'s FamilyDescriptor,
    oldest_unexpired: u64,
    now: u64,
    max_versions: u32,
    /// The family's VERSIONS where a read applies it, else unlimited.
    family_versions: u32,
    /// A read that is not raw, names no columns, sees no TTL of the family's and keeps at
    /// least one version: the first version of a column is kept whenever it is a put without
    /// a TTL of its own, in the time range, in a row with no marker seen (see
    /// [`RowResolver::offer`]).
    plain: bool,
}

impl<'a, 's> RowResolver<'a, 's> {
    /// The resolver of one family for one row. Without a filter, a read keeps the scan's
    /// VERSIONS capped by the family's (a raw scan takes the scan's as is). With a filter,
    /// HBase offers the filter up to the family's VERSIONS (a raw scan: every version) and
    /// counts the versions the filter included against the scan's VERSIONS afterwards
    /// ([`RowResolver::versions_after_filter`]), so a value filter can match an older version
    /// (`ScanQueryMatcher.getTrackers`). A raw scan ignores the family's TTL
    /// (`StoreScanner`: `oldestUnexpiredTS = scan.isRaw() ? 0 : now - ttl`).
    /// Under rules that retain only at compaction, a read applies neither the family's
    /// VERSIONS nor its TTL.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(spec: &'s ReadSpec<'s>, family: &'s FamilyDescriptor, now: u64) -> Self {
        let retains = spec.rules.retains_in(Pass::Read);
        let family_versions = if retains {
            family.max_versions
        } else {
            u32::MAX
        };
        let max_versions = match (spec.raw, spec.filtered) {
            (true, true) => u32::MAX,
            (true, false) => spec.max_versions,
            (false, true) => family_versions,
            (false, false) => spec.max_versions.min(family_versions),
        };
        let oldest_unexpired = if spec.raw || !retains {
            0
        } else {
            spec.rules.oldest_unexpired(family, now)
        };
        RowResolver {
            deletes: DeleteTracker::for_rules(spec.rules),
            versions: ColumnTracker {
                explicit: spec.columns.is_some(),
                ..ColumnTracker::default()
            },
            skipping: None,
            spec,
            family,
            oldest_unexpired,
            now,
            max_versions,
            family_versions,
            plain: !spec.raw && spec.columns.is_none() && oldest_unexpired == 0 && max_versions > 0,
        }
    }

    /// How many versions of a column a filtered read returns (`UserScanQueryMatcher`'s
    /// `versionsAfterFilter`).
    pub fn versions_after_filter(&self) -> u32 {
        if self.spec.raw {
            self.spec.max_versions
        } else {
            self.spec.max_versions.min(self.family_versions)
        }
    }

    /// Decides one cell; cells must come in cell order, all of one row and family.
    pub fn offer(&mut self, cell: &CellRef<'a>) -> Verdict {
        if self.skipping == Some(cell.qualifier) {
            return Verdict::Skip;
        }
        self.skipping = None;
        // Nearly every cell of a plain read: what `decide` answers for it, without its other
        // checks (nothing expires, no marker masks, the version is the column's first).
        let (min, max) = self.spec.time_range;
        if self.plain
            && cell.kind == CellKind::Put
            && cell.ttl_ms == 0
            && cell.timestamp >= min
            && cell.timestamp < max
            && self.versions.column != Some(cell.qualifier)
            && self.deletes.quiet()
        {
            self.versions.first_of(cell);
            return Verdict::Include;
        }
        let verdict = self.decide(cell);
        if verdict == Verdict::SkipColumn {
            self.skipping = Some(cell.qualifier);
        }
        verdict
    }

    /// Marks the rest of this cell's column as skipped (a filter's NEXT_COL).
    pub fn skip_column(&mut self, cell: &CellRef<'a>) {
        self.skipping = Some(cell.qualifier);
    }

    fn decide(&mut self, cell: &CellRef<'a>) -> Verdict {
        let ts = cell.timestamp;
        let expired = ts < self.oldest_unexpired;
        if expired && self.family.min_versions == 0 {
            return Verdict::SkipColumn;
        }
        if self.spec.rules.retains_in(Pass::Read) && self.spec.rules.cell_expired(cell, self.now) {
            return Verdict::Skip;
        }
        let (min, max) = self.spec.time_range;
        if !self.spec.raw {
            if cell.kind.is_delete() {
                let applies = if self.family.keep_deleted_cells.keeps() {
                    ts >= min && ts < max
                } else {
                    ts >= min
                };
                if applies {
                    self.deletes.add(cell);
                }
                return Verdict::Skip;
            }
            match self.deletes.is_deleted(cell) {
                Masked::No => {}
                Masked::Version(_) => return Verdict::Skip,
                Masked::Column(_) => return Verdict::SkipColumn,
            }
        }
        if ts >= max {
            return Verdict::Skip;
        }
        if ts < min {
            return Verdict::SkipColumn;
        }
        if let Some(cols) = self.spec.columns {
            if !cols.iter().any(|q| q.as_slice() == cell.qualifier) {
                return Verdict::SkipColumn;
            }
        }
        match self
            .versions
            .check(cell, self.max_versions, self.family.min_versions, expired)
        {
            Versioned::Keep => Verdict::Include,
            Versioned::KeepLast => {
                self.skipping = Some(cell.qualifier);
                Verdict::Include
            }
            Versioned::Duplicate => Verdict::Skip,
            Versioned::ColumnDone => Verdict::SkipColumn,
        }
    }
}

/// Which pass over a store's cells is deciding their fates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pass {
    /// A default read (the family's VERSIONS, all time): what a `get` shows.
    Read,
    /// Memstore to run: versions and TTL apply, markers stay.
    Flush,
    /// Runs merged: as a flush.
    Minor,
    /// Runs merged into one: markers and the cells they mask are dropped, unless the family
    /// keeps deleted cells.
    Major,
}

/// What becomes of one stored cell in a pass: HBase's `ScanQueryMatcher` verdict with its reason.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Fate {
    /// A put the read returns, or the rewrite keeps.
    Visible,
    /// A delete marker still in force: kept, masking what it names.
    Marker,
    /// A put masked by a marker. `kept` when the family keeps deleted cells (the rewrite keeps
    /// it, a time-range read before the marker still sees it).
    Masked { by: Marker, kept: bool },
    /// Older than the family's VERSIONS newest versions (or behind a version limit reached
    /// earlier in its column): a read skips it, the next flush or compaction drops it.
    BeyondVersions,
    /// Past the family's TTL (beyond MIN_VERSIONS) or its own per-cell TTL.
    Expired,
    /// An older write of the very same coordinates: only the later one is ever seen.
    Replaced,
    /// A delete marker that a major compaction purges (it has masked what it could), or one
    /// a rewrite seeks past in a column a more general marker has already masked.
    MarkerPurged,
}

impl Fate {
    /// Whether a flush or compaction writes the cell into its output.
    pub fn kept(self) -> bool {
        matches!(
            self,
            Fate::Visible | Fate::Marker | Fate::Masked { kept: true, .. }
        )
    }
}

/// Decides the fate of every cell of a sorted stream (any rows, one family), with the same
/// delete and version trackers the read path uses.
///
/// Under `rules` that retain only at compaction, a read and a flush keep every version and
/// nothing expires; without delete markers, no marker masks.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn fates<'a>(
    cells: impl IntoIterator<Item = &'a Cell>,
    family: &FamilyDescriptor,
    rules: Rules,
    pass: Pass,
    now: u64,
) -> Vec<Fate> {
    let cells: Vec<&Cell> = cells.into_iter().collect();
    let earliest_put = earliest_put(cells.iter().map(|c| c.as_ref()));
    let mut tracker = FateTracker::new(family, rules, pass, now, earliest_put);
    cells
        .into_iter()
        .map(|c| tracker.decide(c.as_ref()))
        .collect()
}

/// The oldest timestamp of a put among `cells` (`u64::MAX` when there is none): what a major
/// compaction takes from its inputs (`Compactor.getFileDetails`, each file's EARLIEST_PUT_TS).
#[cfg_attr(rowkey_cold, optimize(size))]
pub(crate) fn earliest_put<'a>(cells: impl IntoIterator<Item = CellRef<'a>>) -> u64 {
    cells
        .into_iter()
        .filter(|c| c.kind == CellKind::Put)
        .map(|c| c.timestamp)
        .min()
        .unwrap_or(u64::MAX)
}

/// Decides the fates of a sorted stream of cells one at a time, as a flush or compaction
/// reads them (`ScanQueryMatcher` in its flush and compaction forms); [`fates`] runs it over
/// a whole list.
pub(crate) struct FateTracker<'a, 'f> {
    family: &'f FamilyDescriptor,
    rules: Rules,
    pass: Pass,
    now: u64,
    /// Versions and TTL apply in this pass.
    retains: bool,
    oldest: u64,
    max_versions: u32,
    /// The oldest put of a major compaction's inputs: a marker kept for KEEP_DELETED_CELLS
    /// that is older still can mask no put, and goes with the rest of its column, which holds
    /// only markers (`DropDeletesCompactionScanQueryMatcher.tryDropDelete`).
    earliest_put: u64,
    row_start: Option<(&'a [u8], &'a [u8])>,
    /// The markers that mask. A read tracks every one; a rewrite only those it may purge
    /// (`CompactionScanQueryMatcher.trackDelete`): with KEEP_DELETED_CELLS => 'TTL' a marker
    /// within the TTL masks nothing, even where an expired one behind it does.
    deletes: DeleteTracker<'a>,
    /// Every marker, to name the one behind a put a rewrite keeps for KEEP_DELETED_CELLS.
    shadow: DeleteTracker<'a>,
    versions: ColumnTracker<'a>,
    skipping: Option<(&'a [u8], &'a [u8])>,
    /// A rewrite seeks past the rest of a column whose put a column or family marker masked
    /// (`ScanQueryMatcher.checkDeleted`: COLUMN_DELETED and FAMILY_DELETED are
    /// `getNextRowOrNextColumn`), or whose kept marker is older than every put: the older
    /// markers of that column are not written (the puts there are masked anyway).
    purging: Option<(&'a [u8], &'a [u8])>,
}

impl<'a, 'f> FateTracker<'a, 'f> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(
        family: &'f FamilyDescriptor,
        rules: Rules,
        pass: Pass,
        now: u64,
        earliest_put: u64,
    ) -> Self {
        let retains = rules.retains_in(pass);
        FateTracker {
            family,
            rules,
            pass,
            now,
            retains,
            oldest: if retains {
                rules.oldest_unexpired(family, now)
            } else {
                0
            },
            max_versions: if retains {
                family.max_versions
            } else {
                u32::MAX
            },
            earliest_put,
            row_start: None,
            deletes: DeleteTracker::for_rules(rules),
            shadow: DeleteTracker::for_rules(rules),
            versions: ColumnTracker::default(),
            skipping: None,
            purging: None,
        }
    }

    /// Whether a marker (and what it masks) survives a rewrite: KEEP_DELETED_CELLS => 'TTL'
    /// keeps it only while it is within the TTL; an older one is purged as with FALSE
    /// (`CompactionScanQueryMatcher.trackDelete`).
    fn keeps(&self, marker_ts: u64) -> bool {
        match self.family.keep_deleted_cells {
            KeepDeletedCells::False => false,
            KeepDeletedCells::True => true,
            KeepDeletedCells::Ttl => marker_ts >= self.oldest,
        }
    }

    /// The family whose cells the tracker decides.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn family(&self) -> &'f FamilyDescriptor {
        self.family
    }

    /// The fate of the next cell (cells must come in cell order).
    pub fn decide(&mut self, cell: CellRef<'a>) -> Fate {
        let same_row = self.row_start == Some((cell.row, cell.family));
        self.decide_in_row(cell, same_row)
    }

    /// The fate of the next cell, told whether it is of the row and family of the cell before
    /// it: a merge that has compared the rows already does not have them compared again.
    pub(crate) fn decide_in_row(&mut self, cell: CellRef<'a>, same_row: bool) -> Fate {
        let (family, pass) = (self.family, self.pass);
        if !same_row {
            self.row_start = Some((cell.row, cell.family));
            self.deletes = DeleteTracker::for_rules(self.rules);
            self.shadow = DeleteTracker::for_rules(self.rules);
            self.versions = ColumnTracker::default();
            self.skipping = None;
            self.purging = None;
        }
        // Nearly every cell a flush or compaction rewrites: a put with no TTL of its own,
        // unexpired, that starts a new column of a row where no marker was seen. What the
        // full decision below answers for it, without its other checks. (A column skipped or
        // purged is the column tracker's; `shadow` sees every marker `deletes` sees.)
        if cell.kind == CellKind::Put
            && cell.ttl_ms == 0
            && cell.timestamp >= self.oldest
            && self.max_versions > 0
            && self.versions.column != Some(cell.qualifier)
            && self.shadow.quiet()
        {
            self.versions.first_of(&cell);
            return Fate::Visible;
        }
        let column = (cell.row, cell.qualifier);
        if self.purging.is_some_and(|p| p != column) {
            self.purging = None;
        }
        if self.skipping == Some(column) {
            return Fate::BeyondVersions;
        }
        self.skipping = None;
        let expired = cell.timestamp < self.oldest;
        if (expired && family.min_versions == 0)
            || (self.retains && self.rules.cell_expired(&cell, self.now))
        {
            return Fate::Expired;
        }
        if cell.kind.is_delete() {
            if self.purging == Some(column) {
                return Fate::MarkerPurged;
            }
            let keeps = self.keeps(cell.timestamp);
            if pass == Pass::Read || !keeps {
                self.deletes.add(&cell);
            }
            self.shadow.add(&cell);
            return if pass == Pass::Major && !keeps {
                Fate::MarkerPurged
            } else if pass == Pass::Major && cell.timestamp < self.earliest_put {
                self.purging = Some(column);
                Fate::MarkerPurged
            } else if pass == Pass::Major {
                // A marker a major compaction keeps goes through the column tracker like a
                // put, uncounted (`MajorCompactionScanQueryMatcher.match`): a repeat of the
                // same timestamp and type is written once, and past MIN_VERSIONS an expired one
                // ends the column.
                match self
                    .versions
                    .check(&cell, self.max_versions, family.min_versions, expired)
                {
                    Versioned::Keep | Versioned::KeepLast => Fate::Marker,
                    Versioned::Duplicate => Fate::Replaced,
                    Versioned::ColumnDone => {
                        self.skipping = Some(column);
                        Fate::BeyondVersions
                    }
                }
            } else {
                Fate::Marker
            };
        }
        let result = self.deletes.is_deleted(&cell);
        let named = self.shadow.is_deleted(&cell).marker();
        match result.marker() {
            // A read never counts a deleted version; nor does a rewrite count a version that
            // a marker it tracks masks.
            Some(by) => {
                if pass != Pass::Read && matches!(result, Masked::Column(_)) {
                    self.purging = Some(column);
                }
                Fate::Masked {
                    by,
                    kept: self.keeps(by.timestamp),
                }
            }
            // A rewrite that keeps deleted cells counts them like any other version.
            None => {
                match self
                    .versions
                    .check(&cell, self.max_versions, family.min_versions, expired)
                {
                    Versioned::Keep | Versioned::KeepLast => match named {
                        Some(by) => Fate::Masked { by, kept: true },
                        None => Fate::Visible,
                    },
                    Versioned::Duplicate => Fate::Replaced,
                    Versioned::ColumnDone => {
                        self.skipping = Some(column);
                        Fate::BeyondVersions
                    }
                }
            }
        }
    }
}
