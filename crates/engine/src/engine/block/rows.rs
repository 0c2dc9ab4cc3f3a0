//! A run's rows as its writer counted them while writing it: per stretch of consecutive cells
//! of one row (every row once, in a run written in cell order), the row, its cells and their
//! bytes (`CellRef::size`). What [`crate::engine::Run::for_each_row_stretch`] counts by
//! walking every cell, handed to whoever needs it later (a save storing the run's rows)
//! without that walk.
//!
//! Kept compact while the run lives: each row as the bytes it shares with the row before and
//! the rest, then its cells and bytes, all as varints (about 9 bytes a row of 16-byte keys),
//! in chunks of about [`CHUNK`] bytes made at their full size, so that counting never copies
//! what it has counted into a list twice as large (the WebAssembly memory's high-water mark
//! would keep both).

use crate::kit::varint;

/// The room a chunk of counted rows is made with.
const CHUNK: usize = 16 * 1024;

/// The most bytes a row's entry takes besides the rest of its key: four varints.
const ENTRY: usize = 40;

/// The rows a writer counted (see the module's doc).
#[derive(Clone, Debug, Default)]
pub struct CountedRows {
    /// Full chunks, in order.
    chunks: Vec<Box<[u8]>>,
    /// The chunk being written: rows ended so far, each shared (varint), rest length
    /// (varint), rest, cells (varint), bytes (varint); a row's entry never spans two chunks.
    bytes: Vec<u8>,
    rows: usize,
    /// The writer's cells and their bytes when the open row began.
    open: Option<(u64, u64)>,
}

impl CountedRows {
    /// Begins `row`, which follows `previous` (empty for the first), once the writer has
    /// written `cells` cells of `bytes` bytes: the row before ends there. A row's cells and
    /// bytes are the writer's counts at its end less those at its start, so a cell of the
    /// same row as the one before costs nothing here.
    #[inline]
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn start_row(&mut self, previous: &[u8], row: &[u8], cells: u64, bytes: u64) {
        self.end_row(cells, bytes);
        let shared = previous.iter().zip(row).take_while(|(a, b)| a == b).count();
        let rest = row.get(shared..).unwrap_or_default();
        let need = rest.len() + ENTRY;
        if self.bytes.capacity() - self.bytes.len() < need {
            self.seal();
            self.bytes = Vec::with_capacity(CHUNK.max(need));
        }
        varint::put(&mut self.bytes, shared as u64);
        varint::put(&mut self.bytes, rest.len() as u64);
        self.bytes.extend_from_slice(rest);
        self.open = Some((cells, bytes));
    }

    /// Ends the open row, if any, the writer having written `cells` cells of `bytes` bytes.
    pub(super) fn end_row(&mut self, cells: u64, bytes: u64) {
        if let Some((cells_before, bytes_before)) = self.open.take() {
            let count = u32::try_from(cells - cells_before).unwrap_or(u32::MAX);
            varint::put(&mut self.bytes, u64::from(count));
            varint::put(&mut self.bytes, bytes - bytes_before);
            self.rows += 1;
        }
    }

    /// Ends the last row (as [`CountedRows::end_row`]) and gives back the room the list grew
    /// into.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn finish(&mut self, cells: u64, bytes: u64) {
        self.end_row(cells, bytes);
        self.seal();
    }

    /// Puts the chunk being written, if it holds anything, after the full ones.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn seal(&mut self) {
        if !self.bytes.is_empty() {
            let chunk = std::mem::take(&mut self.bytes).into_boxed_slice();
            self.chunks.push(chunk);
        }
    }

    /// How many rows were counted (ended).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn len(&self) -> usize {
        self.rows
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Each row counted, in order: the row, its cells and their bytes.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn for_each(&self, mut f: impl FnMut(&[u8], u32, u64)) {
        let mut row: Vec<u8> = Vec::new();
        for b in self.chunks.iter().map(|c| &c[..]).chain([&self.bytes[..]]) {
            let mut at = 0;
            while at < b.len() {
                let (Ok(shared), Ok(len)) = (varint::get(b, &mut at), varint::get(b, &mut at))
                else {
                    return;
                };
                let (shared, len) = (shared as usize, len as usize);
                let Some(rest) = b.get(at..at + len) else {
                    return;
                };
                at += len;
                row.truncate(shared);
                row.extend_from_slice(rest);
                let (Ok(cells), Ok(bytes)) = (varint::get(b, &mut at), varint::get(b, &mut at))
                else {
                    return;
                };
                f(&row, u32::try_from(cells).unwrap_or(u32::MAX), bytes);
            }
        }
    }

    /// Heap bytes held.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn heap_bytes(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum::<usize>() + self.bytes.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows enough for several chunks (and one key longer than a chunk) come back as counted:
    /// each row with its cells and bytes, none split between chunks.
    #[test]
    fn rows_over_several_chunks_read_back_as_counted() {
        let mut counted = CountedRows::default();
        let mut expected: Vec<(Vec<u8>, u32, u64)> = Vec::new();
        let (mut cells, mut bytes) = (0u64, 0u64);
        let mut previous: Vec<u8> = Vec::new();
        for i in 0..6_000u64 {
            let row = if i == 3_000 {
                vec![b'x'; CHUNK + 100]
            } else {
                format!("user-{:08}-{}", i * 7, "k".repeat((i % 50) as usize)).into_bytes()
            };
            counted.start_row(&previous, &row, cells, bytes);
            let (n, b) = (1 + i % 12, 40 + i % 300);
            cells += n;
            bytes += b;
            expected.push((row.clone(), n as u32, b));
            previous = row;
        }
        counted.finish(cells, bytes);
        let mut got: Vec<(Vec<u8>, u32, u64)> = Vec::new();
        counted.for_each(|r, c, b| got.push((r.to_vec(), c, b)));
        assert_eq!(counted.len(), 6_000);
        assert!(counted.chunks.len() > 10, "{} chunks", counted.chunks.len());
        assert_eq!(got, expected);
    }
}
