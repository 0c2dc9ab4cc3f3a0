//! Cells and the one order every part of the engine agrees on.

use std::cmp::Ordering;
use std::sync::Arc;

/// What a cell says: a value, or one of HBase's four delete markers.
///
/// The discriminants are HBase's type codes; at equal coordinates a higher code sorts
/// first, so markers come before the puts they may mask.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[repr(u8)]
pub enum CellKind {
    /// A value written at a timestamp.
    Put = 4,
    /// Masks the one version of a column whose timestamp equals the marker's.
    Delete = 8,
    /// Masks every version of every column of the family whose timestamp equals the marker's.
    DeleteFamilyVersion = 10,
    /// Masks every version of a column with a timestamp at or below the marker's.
    DeleteColumn = 12,
    /// Masks every version of every column of the family at or below the marker's timestamp.
    DeleteFamily = 14,
}

impl CellKind {
    /// Every kind, the put first, then the markers by type code.
    pub const ALL: [CellKind; 5] = [
        CellKind::Put,
        CellKind::Delete,
        CellKind::DeleteFamilyVersion,
        CellKind::DeleteColumn,
        CellKind::DeleteFamily,
    ];

    /// True for the four delete markers.
    pub fn is_delete(self) -> bool {
        self != CellKind::Put
    }

    /// The name HBase prints in raw scans (`type=DeleteColumn`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn name(self) -> &'static str {
        match self {
            CellKind::Put => "Put",
            CellKind::Delete => "Delete",
            CellKind::DeleteFamilyVersion => "DeleteFamilyVersion",
            CellKind::DeleteColumn => "DeleteColumn",
            CellKind::DeleteFamily => "DeleteFamily",
        }
    }

    /// The kind for an HBase type code, if it is one.
    pub fn from_code(code: u8) -> Option<CellKind> {
        Some(match code {
            4 => CellKind::Put,
            8 => CellKind::Delete,
            10 => CellKind::DeleteFamilyVersion,
            12 => CellKind::DeleteColumn,
            14 => CellKind::DeleteFamily,
            _ => return None,
        })
    }
}

/// One cell: the coordinates (row, family, qualifier, timestamp, kind), the write sequence
/// number that orders two writes of the very same coordinates, an optional per-cell TTL, and the value.
#[derive(Clone, Debug)]
pub struct Cell {
    pub row: Vec<u8>,
    pub family: Arc<[u8]>,
    pub qualifier: Vec<u8>,
    /// Epoch milliseconds.
    pub timestamp: u64,
    pub kind: CellKind,
    /// Unique per written cell and increasing: of two cells at equal coordinates the later write wins.
    pub seq: u64,
    /// Per-cell time to live in milliseconds (a put's `TTL` attribute); 0 means none.
    pub ttl_ms: u64,
    pub value: Vec<u8>,
}

/// A cell read in place: its row, family, qualifier and value borrowed from wherever the cell
/// is stored (a memstore cell, a run's block bytes, or a read's buffer of rebuilt keys). The
/// read path merges, resolves and filters these; a result copies only the cells it returns
/// ([`CellRef::to_cell`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRef<'a> {
    pub row: &'a [u8],
    pub family: &'a [u8],
    pub qualifier: &'a [u8],
    pub timestamp: u64,
    pub kind: CellKind,
    pub seq: u64,
    pub ttl_ms: u64,
    pub value: &'a [u8],
}

impl CellRef<'_> {
    /// The cell order, written down once:
    ///
    /// row ascending, family ascending, qualifier ascending (all bytewise, unsigned), then
    /// timestamp *descending* (newest first), then kind by descending type code (delete
    /// markers before puts at equal timestamp), then sequence number descending (the later
    /// write first).
    ///
    /// Worked example, in order:
    /// `r1/f:a/ts=9/Put`, `r1/f:a/ts=5/DeleteColumn`, `r1/f:a/ts=5/Put`, `r1/f:b/ts=7/Put`,
    /// `r2/f:a/ts=1/Put`.
    ///
    /// [`Cell`]'s `Ord` is this order.
    #[inline]
    pub fn cmp_key(&self, other: &CellRef<'_>) -> Ordering {
        self.row
            .cmp(other.row)
            .then_with(|| self.family.cmp(other.family))
            .then_with(|| self.qualifier.cmp(other.qualifier))
            .then_with(|| other.timestamp.cmp(&self.timestamp))
            .then_with(|| other.kind.cmp(&self.kind))
            .then_with(|| other.seq.cmp(&self.seq))
    }

    /// A probe that sorts before every cell of `row` in `family`, read in place (what
    /// [`Cell::first_on_row`] owns).
    #[inline]
    pub(crate) fn first_on_row<'r>(row: &'r [u8], family: &'r [u8]) -> CellRef<'r> {
        CellRef {
            row,
            family,
            qualifier: &[],
            timestamp: u64::MAX,
            kind: CellKind::DeleteFamily,
            seq: u64::MAX,
            ttl_ms: 0,
            value: &[],
        }
    }

    /// Where this cell sorts against `other`, in the cell order.
    #[inline]
    pub fn cmp_cell(&self, other: &Cell) -> Ordering {
        self.cmp_key(&other.as_ref())
    }

    /// The owned cell, sharing the family name given when it is the cell's.
    pub fn to_cell(&self, family: &Arc<[u8]>) -> Cell {
        Cell {
            row: self.row.to_vec(),
            family: if family.as_ref() == self.family {
                family.clone()
            } else {
                Arc::from(self.family)
            },
            qualifier: self.qualifier.to_vec(),
            timestamp: self.timestamp,
            kind: self.kind,
            seq: self.seq,
            ttl_ms: self.ttl_ms,
            value: self.value.to_vec(),
        }
    }

    /// Bytes the cell counts for, as [`Cell::size`] counts them.
    #[inline]
    pub fn size(&self) -> usize {
        self.row.len()
            + self.family.len()
            + self.qualifier.len()
            + self.value.len()
            + super::KEYVALUE_FRAMING as usize
    }

    /// True when the per-cell TTL has run out at `now`, as [`Cell::ttl_expired`] says.
    #[inline]
    pub fn ttl_expired(&self, now: u64) -> bool {
        self.ttl_ms != 0 && self.timestamp.saturating_add(self.ttl_ms) < now
    }
}

/// The cell order of [`CellRef::cmp_key`].
impl Ord for Cell {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_ref().cmp_key(&other.as_ref())
    }
}

impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Equality is equality of position in the order (sequence numbers make positions unique).
impl PartialEq for Cell {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Cell {}

impl Cell {
    /// The cell read in place.
    #[inline]
    pub fn as_ref(&self) -> CellRef<'_> {
        CellRef {
            row: &self.row,
            family: &self.family,
            qualifier: &self.qualifier,
            timestamp: self.timestamp,
            kind: self.kind,
            seq: self.seq,
            ttl_ms: self.ttl_ms,
            value: &self.value,
        }
    }

    /// A put cell.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn put(
        row: &[u8],
        family: &Arc<[u8]>,
        qualifier: &[u8],
        timestamp: u64,
        seq: u64,
        value: &[u8],
    ) -> Cell {
        Cell {
            row: row.to_vec(),
            family: family.clone(),
            qualifier: qualifier.to_vec(),
            timestamp,
            kind: CellKind::Put,
            seq,
            ttl_ms: 0,
            value: value.to_vec(),
        }
    }

    /// A probe that sorts before every cell of `row` in `family`.
    pub(crate) fn first_on_row(row: &[u8], family: &Arc<[u8]>) -> Cell {
        let probe = CellRef::first_on_row(row, family);
        Cell {
            row: row.to_vec(),
            family: family.clone(),
            qualifier: Vec::new(),
            timestamp: probe.timestamp,
            kind: probe.kind,
            seq: probe.seq,
            ttl_ms: probe.ttl_ms,
            value: Vec::new(),
        }
    }

    /// Bytes the cell occupies as an HBase `KeyValue` ([`super::KEYVALUE_FRAMING`]), counted
    /// the way region sizes and statistics count them.
    #[inline]
    pub fn size(&self) -> usize {
        self.as_ref().size()
    }

    /// True when the per-cell TTL has run out at `now`: once `timestamp + ttl` is in the past,
    /// so a cell is still read in its last millisecond (`ScanQueryMatcher.isCellTTLExpired`:
    /// `ts + ttl < now`).
    pub fn ttl_expired(&self, now: u64) -> bool {
        self.as_ref().ttl_expired(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: &str, q: &str, ts: u64, kind: CellKind, seq: u64) -> Cell {
        let fam: Arc<[u8]> = Arc::from(&b"f"[..]);
        Cell {
            kind,
            ..Cell::put(row.as_bytes(), &fam, q.as_bytes(), ts, seq, b"")
        }
    }

    #[test]
    fn worked_example_sorts_as_documented() {
        let expected = vec![
            cell("r1", "a", 9, CellKind::Put, 1),
            cell("r1", "a", 5, CellKind::DeleteColumn, 2),
            cell("r1", "a", 5, CellKind::Put, 3),
            cell("r1", "b", 7, CellKind::Put, 4),
            cell("r2", "a", 1, CellKind::Put, 5),
        ];
        let mut shuffled = expected.clone();
        shuffled.reverse();
        shuffled.swap(0, 2);
        shuffled.sort();
        let got: Vec<_> = shuffled
            .iter()
            .map(|c| (c.row.clone(), c.timestamp, c.kind))
            .collect();
        let want: Vec<_> = expected
            .iter()
            .map(|c| (c.row.clone(), c.timestamp, c.kind))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn later_write_of_same_coordinates_sorts_first() {
        let older = cell("r", "q", 5, CellKind::Put, 1);
        let newer = cell("r", "q", 5, CellKind::Put, 2);
        assert!(newer < older);
    }

    #[test]
    fn bytes_compare_unsigned() {
        assert!(cell("a", "q", 1, CellKind::Put, 1) < cell("\u{80}", "q", 1, CellKind::Put, 1));
    }
}
