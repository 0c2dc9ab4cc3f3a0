//! A result row's cells sharing their bytes: one buffer holds the row key once and each cell's
//! qualifier and value, beside a list of each cell's coordinates. A read copies a returned
//! cell's bytes into its row's buffer instead of giving every cell a row, a qualifier and a
//! value of its own: two allocations per row instead of three per cell.
//!
//! Readers see each cell as a [`CellRef`] borrowing the buffer ([`Cells::iter`], `for c in
//! &row.cells`); `into_iter` and [`Cells::to_vec`] give owned [`Cell`]s where one is needed.

use std::sync::Arc;

use super::cell::{Cell, CellKind, CellRef};

/// Where one cell's bytes sit in the buffer, and its coordinates.
#[derive(Clone, Debug)]
struct Slot {
    /// Which of the row's families (see [`Families`]).
    family: u32,
    /// The row key's start and end.
    row: (usize, usize),
    /// The qualifier's start; the qualifier ends where the value starts.
    qualifier: usize,
    /// The value's start and end.
    value: (usize, usize),
    timestamp: u64,
    kind: CellKind,
    seq: u64,
    ttl_ms: u64,
}

/// Where the cells one store adds to a row go in a [`Cells`] (see [`Cells::push_in`]): the
/// row key's place in the buffer and the family's number, once the first cell has found them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RowPlace {
    row: Option<(usize, usize)>,
    family: Option<u32>,
}

/// The cells of one result row, in cell order, their bytes in one buffer.
#[derive(Clone, Default)]
pub struct Cells {
    bytes: Vec<u8>,
    slots: Vec<Slot>,
    families: Families,
    /// What [`Cells::counted_bytes`] says, kept as cells are added.
    counted: u64,
}

/// The families of a row's cells, each shared once by the cells of that family: a slot names
/// its family by number, so a cell costs no reference count of its own. Nearly every row reads
/// one family: it needs no list.
#[derive(Clone, Default)]
struct Families {
    /// Family 0.
    first: Option<Arc<[u8]>>,
    /// Families 1, 2, ...
    more: Vec<Arc<[u8]>>,
}

impl Families {
    #[inline]
    fn get(&self, i: u32) -> Option<&Arc<[u8]>> {
        match i {
            0 => self.first.as_ref(),
            i => self.more.get(i as usize - 1),
        }
    }

    /// The number of the family named `name`, added (as `shared` when that is its name) if
    /// the row has no such family yet.
    #[inline]
    fn number(&mut self, name: &[u8], shared: &Arc<[u8]>) -> u32 {
        if let Some(f) = &self.first {
            // The memstore's cells share the family's name; a run's cells hold it in their
            // keys, and are compared.
            if std::ptr::eq(f.as_ptr(), name.as_ptr()) && f.len() == name.len() || **f == *name {
                return 0;
            }
        }
        if let Some(i) = self.more.iter().position(|f| f.as_ref() == name) {
            return (i + 1) as u32;
        }
        let family = if shared.as_ref() == name {
            shared.clone()
        } else {
            Arc::from(name)
        };
        if self.first.is_none() {
            self.first = Some(family);
            return 0;
        }
        self.more.push(family);
        self.more.len() as u32
    }
}

impl Cells {
    /// No cells.
    pub fn new() -> Cells {
        Cells::default()
    }

    /// Room for `cells` cells holding `bytes` bytes of row keys, qualifiers and values.
    pub fn with_capacity(cells: usize, bytes: usize) -> Cells {
        Cells {
            bytes: Vec::with_capacity(bytes),
            slots: Vec::with_capacity(cells),
            families: Families::default(),
            counted: 0,
        }
    }

    /// How many cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes of row keys, qualifiers and values the cells hold (a row key shared by
    /// neighbouring cells counted once).
    pub fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    /// Bytes the cells count for, each as [`CellRef::size`] counts it (its row key counted
    /// with every cell), summed as the cells were added.
    pub fn counted_bytes(&self) -> u64 {
        self.counted
    }

    /// Whether room was made for cells (a buffer taken over from a row read before).
    pub(crate) fn has_room(&self) -> bool {
        self.slots.capacity() > 0
    }

    /// Cell `i`, read in place.
    #[inline]
    pub fn get(&self, i: usize) -> Option<CellRef<'_>> {
        self.slots.get(i).map(|s| self.at(s))
    }

    pub fn first(&self) -> Option<CellRef<'_>> {
        self.get(0)
    }

    pub fn last(&self) -> Option<CellRef<'_>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The cells in order, read in place.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            cells: self,
            slots: self.slots.iter(),
        }
    }

    /// The cells in order, each with its family's shared name (for an owned copy:
    /// [`CellRef::to_cell`]).
    pub fn iter_with_family(&self) -> impl DoubleEndedIterator<Item = (CellRef<'_>, &Arc<[u8]>)> {
        self.slots
            .iter()
            .filter_map(|s| Some((self.at(s), self.families.get(s.family)?)))
    }

    /// Owned copies of the cells.
    #[inline(never)]
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn to_vec(&self) -> Vec<Cell> {
        self.iter_with_family()
            .map(|(c, family)| c.to_cell(family))
            .collect()
    }

    /// Adds a cell (copying its bytes), sharing `family` when it is the cell's family.
    #[inline(never)]
    pub fn push(&mut self, cell: CellRef<'_>, family: &Arc<[u8]>) {
        let family = self.families.number(cell.family, family);
        self.push_with(cell, family);
    }

    /// Adds a cell of the row and family `place` stands for (copying its qualifier and value):
    /// the row key's place in the buffer and the family's number are found at the first cell
    /// pushed with `place` and taken as they are for the rest, so a cell's row and family are
    /// not compared again. Every cell pushed with one `place` must have the same row and
    /// family, and `place` must not outlive a [`Cells::clear`] (a store scanner's cells of one
    /// row: see `StoreScanner::read_row`).
    #[inline(never)]
    pub(crate) fn push_in(&mut self, place: &mut RowPlace, cell: CellRef<'_>, family: &Arc<[u8]>) {
        debug_assert!(place
            .row
            .is_none_or(|(s, e)| self.bytes.get(s..e) == Some(cell.row)));
        let family = match place.family {
            Some(f) => f,
            None => *place
                .family
                .insert(self.families.number(cell.family, family)),
        };
        let row = match place.row {
            Some(r) => r,
            None => *place.row.insert(self.row_range(cell.row)),
        };
        self.push_at(cell, row, family);
    }

    /// Adds an owned cell.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn push_cell(&mut self, cell: Cell) {
        self.push(cell.as_ref(), &cell.family);
    }

    /// Lets `edit` change the cells as owned [`Cell`]s (a filter's `filter_row_cells`), then
    /// holds what it left.
    #[inline(never)]
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(crate) fn edit_owned(&mut self, edit: &mut dyn FnMut(&mut Vec<Cell>)) {
        let mut owned = self.to_vec();
        edit(&mut owned);
        self.clear();
        self.extend(owned);
    }

    // `push` is not inlined: the read path calls it from several places, and one copy keeps
    // the page's download small (a call per cell is a few instructions of the hundreds a cell
    // costs); this body is, into it.
    #[inline]
    fn push_with(&mut self, cell: CellRef<'_>, family: u32) {
        let row = self.row_range(cell.row);
        self.push_at(cell, row, family);
    }

    /// Where `row` sits in the buffer: the last cell's row key when it is the same (neighbouring
    /// cells of one row share it), else a copy added.
    #[inline]
    fn row_range(&mut self, row: &[u8]) -> (usize, usize) {
        match self.slots.last() {
            Some(s) if self.bytes.get(s.row.0..s.row.1) == Some(row) => s.row,
            _ => {
                let start = self.bytes.len();
                self.bytes.extend_from_slice(row);
                (start, self.bytes.len())
            }
        }
    }

    /// Adds a cell whose row key is at `row` in the buffer, copying its qualifier and value.
    #[inline]
    fn push_at(&mut self, cell: CellRef<'_>, row: (usize, usize), family: u32) {
        self.counted += cell.size() as u64;
        let qualifier = self.bytes.len();
        crate::kit::append::append(&mut self.bytes, cell.qualifier);
        let value_start = self.bytes.len();
        crate::kit::append::append(&mut self.bytes, cell.value);
        self.slots.push(Slot {
            family,
            row,
            qualifier,
            value: (value_start, self.bytes.len()),
            timestamp: cell.timestamp,
            kind: cell.kind,
            seq: cell.seq,
            ttl_ms: cell.ttl_ms,
        });
    }

    /// Drops every cell, keeping the room.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.slots.clear();
        self.counted = 0;
    }

    /// Keeps the cells `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(CellRef<'_>) -> bool) {
        let old = std::mem::replace(self, Cells::with_capacity(self.len(), self.byte_len()));
        self.families = old.families.clone();
        for s in &old.slots {
            let c = old.at(s);
            if keep(c) {
                self.push_with(c, s.family);
            }
        }
    }

    #[inline]
    fn at<'a>(&'a self, s: &'a Slot) -> CellRef<'a> {
        let bytes = self.bytes.as_slice();
        CellRef {
            row: bytes.get(s.row.0..s.row.1).unwrap_or_default(),
            family: self.families.get(s.family).map_or(&[][..], |f| f),
            qualifier: bytes.get(s.qualifier..s.value.0).unwrap_or_default(),
            timestamp: s.timestamp,
            kind: s.kind,
            seq: s.seq,
            ttl_ms: s.ttl_ms,
            value: bytes.get(s.value.0..s.value.1).unwrap_or_default(),
        }
    }
}

/// The cells of a [`Cells`] in order, read in place.
#[derive(Clone)]
pub struct Iter<'a> {
    cells: &'a Cells,
    slots: std::slice::Iter<'a, Slot>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = CellRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<CellRef<'a>> {
        self.slots.next().map(|s| self.cells.at(s))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.slots.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.slots.next_back().map(|s| self.cells.at(s))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Cells {
    type Item = CellRef<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Owned copies of the cells, in order.
impl IntoIterator for Cells {
    type Item = Cell;
    type IntoIter = std::vec::IntoIter<Cell>;

    fn into_iter(self) -> Self::IntoIter {
        self.to_vec().into_iter()
    }
}

impl FromIterator<Cell> for Cells {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Cells {
        let mut cells = Cells::new();
        cells.extend(iter);
        cells
    }
}

impl Extend<Cell> for Cells {
    fn extend<I: IntoIterator<Item = Cell>>(&mut self, iter: I) {
        for c in iter {
            self.push_cell(c);
        }
    }
}

impl From<Vec<Cell>> for Cells {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn from(cells: Vec<Cell>) -> Cells {
        cells.into_iter().collect()
    }
}

/// Equal when the cells are, one by one (coordinates, sequence numbers, TTLs and values).
impl PartialEq for Cells {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Cells {}

impl std::fmt::Debug for Cells {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(name: &str) -> Arc<[u8]> {
        Arc::from(name.as_bytes())
    }

    #[test]
    fn cells_read_back_as_pushed_and_share_their_row_key() {
        let f = family("f");
        let g = family("g");
        let input = vec![
            Cell::put(b"r1", &f, b"a", 9, 1, b"one"),
            Cell::put(b"r1", &f, b"bb", 8, 2, b""),
            Cell {
                ttl_ms: 5,
                ..Cell::put(b"r1", &g, b"", 7, 3, b"three")
            },
            Cell::put(b"r2", &f, b"a", 6, 4, b"four"),
        ];
        let cells = Cells::from(input.clone());
        assert_eq!(cells.len(), 4);
        // "r1" once, "r2" once, 4 qualifier bytes, 12 value bytes.
        assert_eq!(cells.byte_len(), 2 + 2 + 4 + 12);
        assert_eq!(cells.to_vec(), input);
        let got: Vec<_> = cells
            .iter()
            .map(|c| (c.row, c.family, c.qualifier, c.value, c.ttl_ms))
            .collect();
        assert_eq!(
            got,
            vec![
                (&b"r1"[..], &b"f"[..], &b"a"[..], &b"one"[..], 0),
                (b"r1", b"f", b"bb", b"", 0),
                (b"r1", b"g", b"", b"three", 5),
                (b"r2", b"f", b"a", b"four", 0),
            ]
        );
        assert_eq!(cells.last().map(|c| c.value), Some(&b"four"[..]));
        let sizes: usize = input.iter().map(Cell::size).sum();
        assert_eq!(cells.counted_bytes(), sizes as u64);
        assert_eq!(cells.iter().next_back().map(|c| c.seq), Some(4));
        let owned: Vec<Cell> = cells.clone().into_iter().collect();
        assert_eq!(owned, input);
    }

    #[test]
    fn retain_keeps_the_cells_said_yes_to_in_order() {
        let f = family("f");
        let mut cells: Cells = (0..5u8)
            .map(|i| Cell::put(b"r", &f, &[b'a' + i], 1, u64::from(i), &[i; 3]))
            .collect();
        cells.retain(|c| c.seq % 2 == 0);
        let kept: Vec<_> = cells.iter().map(|c| (c.qualifier, c.value)).collect();
        assert_eq!(
            kept,
            vec![(&b"a"[..], &[0u8; 3][..]), (b"c", &[2; 3]), (b"e", &[4; 3])]
        );
        assert_eq!(cells.byte_len(), 1 + 3 * 4);
    }
}
