//! A store's memstore: the cells written since its last flush, in the cell order (HBase's
//! `DefaultMemStore`, a sorted set of cells). A store holds one family, so a memstore cell
//! keeps no family of its own, and its row, qualifier and value share one allocation: one
//! allocation a cell to make and to free at a flush, instead of three. Each cell keeps its
//! row's first eight bytes as a number ([`head`]): most comparisons of an insert's search
//! through the set compare two numbers and no bytes.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::btree_set::{self, BTreeSet};
use std::ops::Bound;

use super::super::cell::{CellKind, CellRef};
use crate::bytes::head;

/// One memstore cell: its row, qualifier and value in one allocation.
#[derive(Clone, Debug)]
pub struct MemCell {
    /// The row, then the qualifier, then the value.
    bytes: Box<[u8]>,
    /// The row's [`head`].
    head: u64,
    row_len: u32,
    qualifier_len: u32,
    timestamp: u64,
    seq: u64,
    ttl_ms: u64,
    kind: CellKind,
}

impl MemCell {
    /// The cell's own copy of `cell`, family aside. `None` when its row and qualifier are
    /// longer than four gigabytes together, which no write can be.
    fn new(cell: CellRef<'_>) -> Option<MemCell> {
        let row_len = u32::try_from(cell.row.len()).ok()?;
        let qualifier_len = u32::try_from(cell.qualifier.len()).ok()?;
        let mut bytes =
            Vec::with_capacity(cell.row.len() + cell.qualifier.len() + cell.value.len());
        bytes.extend_from_slice(cell.row);
        bytes.extend_from_slice(cell.qualifier);
        bytes.extend_from_slice(cell.value);
        Some(MemCell {
            bytes: bytes.into_boxed_slice(),
            head: head(cell.row),
            row_len,
            qualifier_len,
            timestamp: cell.timestamp,
            seq: cell.seq,
            ttl_ms: cell.ttl_ms,
            kind: cell.kind,
        })
    }

    /// The cell read in place, as a cell of `family` (the store's).
    #[inline]
    pub fn as_ref<'a>(&'a self, family: &'a [u8]) -> CellRef<'a> {
        let (row, rest) = self.bytes.split_at(self.row_len as usize);
        let (qualifier, value) = rest.split_at(self.qualifier_len as usize);
        CellRef {
            row,
            family,
            qualifier,
            timestamp: self.timestamp,
            kind: self.kind,
            seq: self.seq,
            ttl_ms: self.ttl_ms,
            value,
        }
    }
}

/// What orders memstore cells, and what a probe into the set compares by: the cell order of
/// [`CellRef::cmp_key`] without the family, which every cell of one memstore shares, the
/// rows' heads compared first.
trait MemKey {
    /// The row's [`head`].
    fn head(&self) -> u64;
    /// The cell, its family left empty.
    fn key(&self) -> CellRef<'_>;

    #[inline]
    fn order(&self, other: &dyn MemKey) -> Ordering {
        self.head()
            .cmp(&other.head())
            .then_with(|| self.key().cmp_key(&other.key()))
    }
}

impl MemKey for MemCell {
    #[inline]
    fn head(&self) -> u64 {
        self.head
    }

    #[inline]
    fn key(&self) -> CellRef<'_> {
        self.as_ref(&[])
    }
}

/// A probe: any cell read in place, its family ignored.
struct Probe<'a> {
    head: u64,
    cell: CellRef<'a>,
}

impl Probe<'_> {
    fn new(cell: CellRef<'_>) -> Probe<'_> {
        Probe {
            head: head(cell.row),
            cell: CellRef {
                family: &[],
                ..cell
            },
        }
    }
}

impl MemKey for Probe<'_> {
    #[inline]
    fn head(&self) -> u64 {
        self.head
    }

    #[inline]
    fn key(&self) -> CellRef<'_> {
        self.cell
    }
}

impl Ord for dyn MemKey + '_ {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.order(other)
    }
}

impl PartialOrd for dyn MemKey + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for dyn MemKey + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for dyn MemKey + '_ {}

impl<'a> Borrow<dyn MemKey + 'a> for MemCell {
    fn borrow(&self) -> &(dyn MemKey + 'a) {
        self
    }
}

impl Ord for MemCell {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.head
            .cmp(&other.head)
            .then_with(|| self.key().cmp_key(&other.key()))
    }
}

impl PartialOrd for MemCell {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Equality is equality of position in the order (sequence numbers make positions unique).
impl PartialEq for MemCell {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for MemCell {}

/// The memstore's cells in order, from some cell on.
pub type Range<'a> = btree_set::Range<'a, MemCell>;

/// A memstore's cells in the cell order.
#[derive(Debug, Default)]
pub struct Memstore {
    cells: BTreeSet<MemCell>,
}

impl Memstore {
    /// Adds a cell (its family is the store's); one at the very position of a cell held (same
    /// coordinates and sequence number) leaves the set as it was.
    pub fn insert(&mut self, cell: CellRef<'_>) {
        if let Some(c) = MemCell::new(cell) {
            self.cells.insert(c);
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Every cell in order.
    pub fn iter(&self) -> Range<'_> {
        self.cells.range::<MemCell, _>(..)
    }

    /// The cells at or after `probe` in the cell order (its family ignored).
    pub fn from(&self, probe: CellRef<'_>) -> Range<'_> {
        let probe = Probe::new(probe);
        self.cells
            .range::<dyn MemKey, _>((Bound::Included(&probe as &dyn MemKey), Bound::Unbounded))
    }

    /// The cells before `probe` in the cell order (its family ignored).
    pub fn before(&self, probe: CellRef<'_>) -> Range<'_> {
        let probe = Probe::new(probe);
        self.cells
            .range::<dyn MemKey, _>((Bound::Unbounded, Bound::Excluded(&probe as &dyn MemKey)))
    }

    /// Moves the cells at or after `probe` (its family ignored) into a memstore of their own.
    pub fn split_off(&mut self, probe: CellRef<'_>) -> Memstore {
        let probe = Probe::new(probe);
        Memstore {
            cells: self.cells.split_off(&probe as &dyn MemKey),
        }
    }

    /// The rows of the first and the last cell.
    pub fn first_and_last_rows(&self) -> Option<(&[u8], &[u8])> {
        let (first, last) = (self.cells.first()?, self.cells.last()?);
        Some((first.as_ref(&[]).row, last.as_ref(&[]).row))
    }
}
