//! A run's rows as its writer counted them while writing it: per stretch of consecutive cells
//! of one row (every row once, in a run written in cell order), the row, its cells and their
//! bytes ([`CellRef::size`]). What [`crate::engine::Run::for_each_row_stretch`] counts by
//! walking every cell, handed to whoever needs it later (a save storing the run's rows)
//! without that walk.
//!
//! Kept compact while the run lives: each row as the bytes it shares with the row before and
//! the rest, then its cells and bytes, all as varints (about 9 bytes a row of 16-byte keys).

use crate::kit::varint;

use super::encoding::CellRef;

/// The rows a writer counted (see the module's doc).
#[derive(Clone, Debug, Default)]
pub struct CountedRows {
    /// Rows ended so far: shared (varint), rest length (varint), rest, cells (varint),
    /// bytes (varint).
    bytes: Vec<u8>,
    rows: usize,
    /// The row being counted, and its cells and bytes so far.
    row: Vec<u8>,
    open: Option<(u32, u64)>,
}

impl CountedRows {
    /// Counts `cell`, which comes after every cell counted so far; `new_row` says that its row
    /// differs from the previous cell's (or that it is the first).
    #[inline]
    pub(super) fn add(&mut self, cell: &CellRef<'_>, new_row: bool) {
        let size = cell.size() as u64;
        match &mut self.open {
            Some((cells, bytes)) if !new_row => {
                *cells = cells.saturating_add(1);
                *bytes += size;
            }
            _ => {
                self.end_row();
                let shared = self
                    .row
                    .iter()
                    .zip(cell.row)
                    .take_while(|(a, b)| a == b)
                    .count();
                let rest = cell.row.get(shared..).unwrap_or_default();
                varint::put(&mut self.bytes, shared as u64);
                varint::put(&mut self.bytes, rest.len() as u64);
                self.bytes.extend_from_slice(rest);
                self.row.truncate(shared);
                self.row.extend_from_slice(rest);
                self.open = Some((1, size));
            }
        }
    }

    /// Ends the row being counted, if any.
    pub(super) fn end_row(&mut self) {
        if let Some((cells, bytes)) = self.open.take() {
            varint::put(&mut self.bytes, u64::from(cells));
            varint::put(&mut self.bytes, bytes);
            self.rows += 1;
        }
    }

    /// Ends the last row and gives back the room the list grew into.
    pub(super) fn finish(&mut self) {
        self.end_row();
        self.bytes.shrink_to_fit();
        self.row = Vec::new();
    }

    /// How many rows were counted (ended).
    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Each row counted, in order: the row, its cells and their bytes.
    pub fn for_each(&self, mut f: impl FnMut(&[u8], u32, u64)) {
        let b = &self.bytes;
        let mut at = 0;
        let mut row: Vec<u8> = Vec::new();
        for _ in 0..self.rows {
            let (Ok(shared), Ok(len)) = (varint::get(b, &mut at), varint::get(b, &mut at)) else {
                return;
            };
            let (shared, len) = (shared as usize, len as usize);
            let Some(rest) = b.get(at..at + len) else {
                return;
            };
            at += len;
            row.truncate(shared);
            row.extend_from_slice(rest);
            let (Ok(cells), Ok(bytes)) = (varint::get(b, &mut at), varint::get(b, &mut at)) else {
                return;
            };
            f(&row, u32::try_from(cells).unwrap_or(u32::MAX), bytes);
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.row.capacity()
    }
}
