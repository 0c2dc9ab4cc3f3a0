//! A store's memstore: the cells written since its last flush, in the cell order (HBase's
//! `DefaultMemStore`, a sorted set of cells).
//!
//! The cells' bytes lie in chunks the memstore allocates as it fills (HBase's `MemStoreLAB`,
//! which copies cells into 2 MB chunks so that the heap holds a few large pieces instead of
//! one small one a cell): a cell costs no allocation of its own to write, and a flush frees a
//! few chunks instead of every cell. The order is a list of sorted leaves of small entries,
//! each entry a cell's place in the chunks and its row's first eight bytes as a number
//! ([`head`]), so that most comparisons of an insert's search compare two numbers and no
//! bytes. A store holds one family: the memstore keeps its name once, not a cell.

use std::cmp::Ordering;
use std::sync::Arc;

use super::super::cell::{CellKind, CellRef};
use crate::bytes::head;

/// Entries a leaf holds at most: a leaf is split in two past it. Small enough that an insert
/// into the middle of a leaf moves a few kilobytes, large enough that the list of leaves stays
/// short.
const LEAF: usize = 256;

/// The first chunk's size; each chunk after it is twice the one before, up to [`CHUNK_MAX`],
/// so that a store that holds a few cells (most stores of a shell session) takes a few
/// hundred bytes, and a full memstore a chunk per 256 KB.
const CHUNK_MIN: usize = 512;
const CHUNK_MAX: usize = 256 * 1024;

/// A cell's fixed part in its chunk, before its row, qualifier and value: the three lengths
/// (4 bytes each), the kind (1), the timestamp, sequence number and TTL (8 each).
const HEADER: usize = 37;

/// One cell in the order: its row's [`head`] and where its bytes begin.
#[derive(Clone, Copy, Debug)]
struct Entry {
    head: u64,
    chunk: u32,
    at: u32,
}

/// A store's memstore: its cells' bytes in chunks, their order in leaves.
pub struct Memstore {
    family: Arc<[u8]>,
    chunks: Vec<Vec<u8>>,
    /// Sorted, each non-empty, each at most [`LEAF`] entries; every entry of a leaf sorts
    /// before every entry of the next.
    leaves: Vec<Vec<Entry>>,
    len: usize,
    /// Where the cell written last stands: most writes follow it in the order (a row's
    /// columns, the next row of a run of keys written in order), and find their place
    /// beside it after two comparisons instead of a search.
    last_written: Option<Place>,
}

impl std::fmt::Debug for Memstore {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memstore")
            .field("cells", &self.len)
            .field("leaves", &self.leaves.len())
            .field("chunks", &self.chunks.len())
            .finish()
    }
}

/// Where a reader stands among the entries: a leaf and an entry of it, or (the list's end)
/// the number of leaves and 0. Always one of those two, so that equal places are equal
/// pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    leaf: usize,
    entry: usize,
}

impl Memstore {
    /// An empty memstore for a store of `family`.
    pub fn new(family: Arc<[u8]>) -> Memstore {
        Memstore {
            family,
            chunks: Vec::new(),
            leaves: Vec::new(),
            len: 0,
            last_written: None,
        }
    }

    /// Adds a cell (its family is the store's); one at the very position of a cell held (same
    /// coordinates and sequence number) leaves the set as it was, as does a cell whose row,
    /// qualifier and value are longer than four gigabytes together, which no write can be.
    pub fn insert(&mut self, cell: CellRef<'_>) {
        let probe = Probe::new(cell);
        // Cells written in order (a load, `generate`, a sequential key) go to the end after one
        // comparison; a cell that follows the one written last goes beside it after two.
        let at = match self.leaves.last().and_then(|l| l.last()) {
            None => Place { leaf: 0, entry: 0 },
            Some(last) if self.order(*last, &probe) == Ordering::Less => self.end(),
            Some(_) => match self.after_last_written(&probe) {
                Some(at) => at,
                None => {
                    let at = self.lower_bound(&probe);
                    if self
                        .entry(at)
                        .is_some_and(|e| self.order(e, &probe) == Ordering::Equal)
                    {
                        return;
                    }
                    at
                }
            },
        };
        let Some(entry) = self.write(cell) else {
            return;
        };
        self.last_written = self.place(at, entry);
        if self.last_written.is_some() {
            self.len += 1;
        }
    }

    /// The place just after the cell written last, in its leaf, when `probe` goes there: that
    /// cell sorts before it, and the one after it in the order (there is one: a probe past
    /// the last cell takes the end before this is asked) after it. `None` sends the write to
    /// the search, which also finds a cell held already.
    fn after_last_written(&self, probe: &Probe<'_>) -> Option<Place> {
        let at = self.last_written?;
        let leaf = self.leaves.get(at.leaf)?;
        let before = *leaf.get(at.entry)?;
        let after = leaf
            .get(at.entry + 1)
            .or_else(|| self.leaves.get(at.leaf + 1).and_then(|l| l.first()))?;
        (self.order(before, probe) == Ordering::Less
            && self.order(*after, probe) == Ordering::Greater)
            .then_some(Place {
                leaf: at.leaf,
                entry: at.entry + 1,
            })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every cell in order.
    pub fn iter(&self) -> Range<'_> {
        self.range(Place { leaf: 0, entry: 0 }, self.end())
    }

    /// The cells at or after `probe` in the cell order (its family ignored).
    pub fn from(&self, probe: CellRef<'_>) -> Range<'_> {
        self.range(self.lower_bound(&Probe::new(probe)), self.end())
    }

    /// The cells before `probe` in the cell order (its family ignored).
    pub fn before(&self, probe: CellRef<'_>) -> Range<'_> {
        self.range(
            Place { leaf: 0, entry: 0 },
            self.lower_bound(&Probe::new(probe)),
        )
    }

    /// Moves the cells at or after `probe` (its family ignored) into a memstore of their own.
    /// Both halves are written anew, each into chunks of its own: a region splits rarely, and
    /// its memstore is most often empty by then.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn split_off(&mut self, probe: CellRef<'_>) -> Memstore {
        let mut lower = Memstore::new(self.family.clone());
        lower.extend(self.before(probe));
        let mut upper = Memstore::new(self.family.clone());
        upper.extend(self.from(probe));
        *self = lower;
        upper
    }

    /// The rows of the first and the last cell.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn first_and_last_rows(&self) -> Option<(&[u8], &[u8])> {
        let first = *self.leaves.first()?.first()?;
        let last = *self.leaves.last()?.last()?;
        Some((self.cell(first).row, self.cell(last).row))
    }

    /// Adds cells that come in order after every cell held.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn extend<'c>(&mut self, cells: impl Iterator<Item = CellRef<'c>>) {
        for cell in cells {
            self.insert(cell);
        }
    }

    fn range(&self, front: Place, back: Place) -> Range<'_> {
        Range {
            memstore: self,
            front,
            back,
        }
    }

    fn end(&self) -> Place {
        Place {
            leaf: self.leaves.len(),
            entry: 0,
        }
    }

    fn entry(&self, at: Place) -> Option<Entry> {
        self.leaves.get(at.leaf)?.get(at.entry).copied()
    }

    /// The place of the first entry at or after `probe` (the end when there is none).
    fn lower_bound(&self, probe: &Probe<'_>) -> Place {
        let leaf = self.leaves.partition_point(|l| {
            l.last()
                .is_some_and(|e| self.order(*e, probe) == Ordering::Less)
        });
        match self.leaves.get(leaf) {
            None => self.end(),
            Some(l) => Place {
                leaf,
                entry: l.partition_point(|e| self.order(*e, probe) == Ordering::Less),
            },
        }
    }

    /// How a held cell sorts against a probe.
    #[inline]
    fn order(&self, e: Entry, probe: &Probe<'_>) -> Ordering {
        e.head
            .cmp(&probe.head)
            .then_with(|| self.key(e).cmp_key(&probe.cell))
    }

    /// Copies a cell's bytes into the chunks; its entry, or `None` when it cannot be written.
    fn write(&mut self, cell: CellRef<'_>) -> Option<Entry> {
        let row_len = u32::try_from(cell.row.len()).ok()?;
        let qualifier_len = u32::try_from(cell.qualifier.len()).ok()?;
        let value_len = u32::try_from(cell.value.len()).ok()?;
        let need = HEADER + cell.row.len() + cell.qualifier.len() + cell.value.len();
        if self
            .chunks
            .last()
            .is_none_or(|c| c.capacity() - c.len() < need)
        {
            let next = self
                .chunks
                .last()
                .map_or(CHUNK_MIN, |c| (c.capacity() * 2).min(CHUNK_MAX));
            self.chunks.push(Vec::with_capacity(next.max(need)));
        }
        let chunk = u32::try_from(self.chunks.len() - 1).ok()?;
        let bytes = self.chunks.last_mut()?;
        let at = u32::try_from(bytes.len()).ok()?;
        bytes.extend_from_slice(&row_len.to_le_bytes());
        bytes.extend_from_slice(&qualifier_len.to_le_bytes());
        bytes.extend_from_slice(&value_len.to_le_bytes());
        bytes.push(cell.kind as u8);
        bytes.extend_from_slice(&cell.timestamp.to_le_bytes());
        bytes.extend_from_slice(&cell.seq.to_le_bytes());
        bytes.extend_from_slice(&cell.ttl_ms.to_le_bytes());
        bytes.extend_from_slice(cell.row);
        bytes.extend_from_slice(cell.qualifier);
        bytes.extend_from_slice(cell.value);
        Some(Entry {
            head: head(cell.row),
            chunk,
            at,
        })
    }

    /// Puts an entry at `at` (a place of the list, or just after a leaf's last entry),
    /// splitting its leaf in two when it is full; where the entry stands then. The first leaf
    /// grows as it fills (a store of a few cells keeps a small one); later leaves start at
    /// their full size, and a full leaf splits before it takes one more entry, so that neither
    /// half keeps room beyond it.
    fn place(&mut self, at: Place, entry: Entry) -> Option<Place> {
        if at.leaf == self.leaves.len() {
            match self.leaves.last_mut() {
                Some(last) if last.len() < LEAF => last.push(entry),
                Some(_) => {
                    let mut leaf = Vec::with_capacity(LEAF);
                    leaf.push(entry);
                    self.leaves.push(leaf);
                }
                None => {
                    let mut leaf = Vec::new();
                    leaf.push(entry);
                    self.leaves.push(leaf);
                }
            }
            let leaf = self.leaves.len() - 1;
            let entry = self.leaves.last()?.len() - 1;
            return Some(Place { leaf, entry });
        }
        let leaf = self.leaves.get_mut(at.leaf)?;
        let i = at.entry.min(leaf.len());
        if leaf.len() < LEAF {
            leaf.insert(i, entry);
            return Some(Place {
                leaf: at.leaf,
                entry: i,
            });
        }
        let mut upper = Vec::with_capacity(LEAF);
        upper.extend(leaf.drain(LEAF / 2..));
        let placed = match i.checked_sub(LEAF / 2) {
            Some(j) if j > 0 => {
                upper.insert(j, entry);
                Place {
                    leaf: at.leaf + 1,
                    entry: j,
                }
            }
            _ => {
                leaf.insert(i, entry);
                Place {
                    leaf: at.leaf,
                    entry: i,
                }
            }
        };
        self.leaves.insert(at.leaf + 1, upper);
        Some(placed)
    }

    /// A held cell read in place, as a cell of the store's family.
    #[inline]
    fn cell(&self, e: Entry) -> CellRef<'_> {
        CellRef {
            family: &self.family,
            ..self.key(e)
        }
    }

    /// A held cell read in place, its family left empty.
    #[inline]
    fn key(&self, e: Entry) -> CellRef<'_> {
        let bytes = self
            .chunks
            .get(e.chunk as usize)
            .map_or(&[][..], |c| &c[..]);
        let at = e.at as usize;
        let Some(h) = bytes
            .get(at..at + HEADER)
            .and_then(|h| <&[u8; HEADER]>::try_from(h).ok())
        else {
            return CellRef::first_on_row(&[], &[]);
        };
        let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]) as usize;
        let long = |i: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&h[i..i + 8]);
            u64::from_le_bytes(b)
        };
        let (row_len, qualifier_len, value_len) = (word(0), word(4), word(8));
        let start = at + HEADER;
        let body = bytes
            .get(start..start + row_len + qualifier_len + value_len)
            .unwrap_or_default();
        let (row, rest) = body.split_at(row_len.min(body.len()));
        let (qualifier, value) = rest.split_at(qualifier_len.min(rest.len()));
        CellRef {
            row,
            family: &[],
            qualifier,
            timestamp: long(13),
            kind: kind(h[12]),
            seq: long(21),
            ttl_ms: long(29),
            value,
        }
    }
}

/// The kind a chunk holds as its type code: only [`Memstore::write`] writes one, from a
/// [`CellKind`].
#[inline]
fn kind(code: u8) -> CellKind {
    CellKind::from_code(code).unwrap_or(CellKind::Put)
}

/// A probe: any cell read in place, its family ignored, with its row's [`head`].
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

/// The memstore's cells in order between two places, read in place as cells of its family,
/// from either end.
#[derive(Clone, Debug)]
pub struct Range<'a> {
    memstore: &'a Memstore,
    /// The next cell forwards.
    front: Place,
    /// Just after the next cell backwards.
    back: Place,
}

impl<'a> Iterator for Range<'a> {
    type Item = CellRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<CellRef<'a>> {
        if self.front == self.back {
            return None;
        }
        let leaves = &self.memstore.leaves;
        let leaf = leaves.get(self.front.leaf)?;
        let e = *leaf.get(self.front.entry)?;
        self.front.entry += 1;
        if self.front.entry == leaf.len() {
            self.front = Place {
                leaf: self.front.leaf + 1,
                entry: 0,
            };
        }
        Some(self.memstore.cell(e))
    }
}

impl DoubleEndedIterator for Range<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        let leaves = &self.memstore.leaves;
        if self.back.entry == 0 {
            let leaf = self.back.leaf.checked_sub(1)?;
            self.back = Place {
                leaf,
                entry: leaves.get(leaf)?.len(),
            };
        }
        self.back.entry -= 1;
        let e = *leaves.get(self.back.leaf)?.get(self.back.entry)?;
        Some(self.memstore.cell(e))
    }
}
