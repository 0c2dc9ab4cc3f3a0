//! A data block's row index: where the rows of a `NONE` block start, so that a get seeks to its
//! row by a binary search over a few offsets instead of stepping over every earlier cell of the
//! block. HBase's `ROW_INDEX_V1` data block encoding (`RowIndexCodecV1`, read by
//! `RowIndexSeekerV1.seekToKeyInBlock`) stores these offsets in the block; Rowkey's stored
//! format stays as it is, so the index is built in memory the first time a get seeks into the
//! block and kept for the file's life, as HBase's `BlockCache` keeps the blocks it decoded: one
//! entry of at most 24 bytes per block (about 2% of a 1 KB block), never more.

use super::encoding::{none_row, none_row_and_end};

/// The row starts an entry holds: a 1 KB block holds a few rows of several cells; a block of
/// more, shorter rows keeps its first eight and steps from the last of them.
const STARTS: usize = 8;

/// Where the first [`STARTS`] rows of a `NONE` block start (the first cell's row at 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowStarts {
    starts: [u16; STARTS],
    /// How many of `starts` are set.
    len: u8,
    /// Every row of the block is listed, and every cell read: past the last row start's row
    /// there is nothing but that row up to the block's end.
    complete: bool,
}

impl RowStarts {
    /// The row starts of `block`, reading each cell's row and length only; `None` when the
    /// block is too long for 16-bit offsets (a family's `BLOCKSIZE` over 64 KB). A cell that
    /// does not read ends the list there, incomplete: a seek steps from the last start and
    /// meets the damage where a read without the index would.
    pub(crate) fn build(block: &[u8]) -> Option<RowStarts> {
        if block.len() > usize::from(u16::MAX) {
            return None;
        }
        let mut index = RowStarts {
            starts: [0; STARTS],
            len: 0,
            complete: false,
        };
        let mut at = 0;
        let mut last: Option<&[u8]> = None;
        while at < block.len() {
            let Some((row, end)) = none_row_and_end(block, at) else {
                return Some(index);
            };
            if last != Some(row) {
                let slot = index.starts.get_mut(usize::from(index.len))?;
                // `at` is under the block's length, which fits.
                *slot = u16::try_from(at).ok()?;
                index.len += 1;
                last = Some(row);
                if usize::from(index.len) == STARTS {
                    return Some(index);
                }
            }
            at = end;
        }
        index.complete = at == block.len();
        Some(index)
    }

    /// No rows listed yet: the index a block writer fills as it writes (see [`RowStarts::row_at`]).
    pub(crate) fn empty() -> RowStarts {
        RowStarts {
            starts: [0; STARTS],
            len: 0,
            complete: false,
        }
    }

    /// Notes that a row starts at `at` in the block being written: what [`RowStarts::build`]
    /// would find reading the block once it is written, taken as the cells go in instead (a
    /// writer knows where each row begins), so that a run just written needs no pass over a
    /// block at its first get. Past the listed rows, a row is not noted.
    #[inline]
    pub(crate) fn row_at(&mut self, at: usize) {
        if let (Some(slot), Ok(at)) = (
            self.starts.get_mut(usize::from(self.len)),
            u16::try_from(at),
        ) {
            *slot = at;
            self.len += 1;
        }
    }

    /// The index of the block written, `len` bytes long, every row noted with
    /// [`RowStarts::row_at`]: as [`RowStarts::build`] makes it from the block's bytes (a block
    /// whose rows fill the list is not known to be complete, since `build` stops reading
    /// there; one too long for 16-bit offsets has none).
    pub(crate) fn written(mut self, len: usize) -> Option<RowStarts> {
        if len > usize::from(u16::MAX) {
            return None;
        }
        self.complete = usize::from(self.len) < STARTS;
        Some(self)
    }

    /// Where in `block` (the block this index was built from) a forward read looking for the
    /// first cell of `row` or after may start: the first listed row start whose row is at or
    /// after `row`; past the last listed row, the block's end when every row is listed, else
    /// that row's start (the read steps on from it).
    pub(crate) fn seek(&self, block: &[u8], row: &[u8]) -> usize {
        let (starts, before) = self.before(block, row);
        match starts.get(before) {
            Some(&s) => usize::from(s),
            None if self.complete => block.len(),
            None => starts.last().map_or(0, |&s| usize::from(s)),
        }
    }

    /// The last row of `block` before `row`, when the index can say: `None` when no row of the
    /// block comes before it, or when every listed row does and the block holds more rows than
    /// are listed.
    pub(crate) fn last_row_before<'b>(&self, block: &'b [u8], row: &[u8]) -> Option<&'b [u8]> {
        let (starts, before) = self.before(block, row);
        if before == 0 || (before == starts.len() && !self.complete) {
            return None;
        }
        let at = starts.get(before - 1)?;
        none_row(block, usize::from(*at))
    }

    /// The listed row starts, and how many of them start rows before `row`.
    fn before<'s>(&'s self, block: &[u8], row: &[u8]) -> (&'s [u16], usize) {
        let starts = self.starts.get(..usize::from(self.len)).unwrap_or_default();
        let before =
            starts.partition_point(|&s| none_row(block, usize::from(s)).is_some_and(|r| r < row));
        (starts, before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::block::encoding::BlockEncoder;
    use crate::engine::block::Encoding;
    use crate::engine::cell::Cell;
    use std::sync::Arc;

    /// A `NONE` block of `rows` (each `cells` cells), and the offset of each row's first cell.
    fn block(rows: &[&str], cells: usize) -> (Vec<u8>, Vec<usize>) {
        let family: Arc<[u8]> = Arc::from(&b"f"[..]);
        let mut enc = BlockEncoder::new(Encoding::None);
        let mut out = Vec::new();
        let mut starts = Vec::new();
        for row in rows {
            starts.push(out.len());
            for q in 0..cells {
                let cell = Cell::put(row.as_bytes(), &family, &[b'a' + q as u8], 7, 1, b"value");
                enc.encode(&mut out, cell.as_ref());
            }
        }
        (out, starts)
    }

    #[test]
    fn a_seek_lands_on_the_first_cell_of_the_row_or_after() {
        let (b, starts) = block(&["r1", "r3", "r5"], 3);
        let index = RowStarts::build(&b).expect("a short block has an index");
        assert_eq!(index.len, 3);
        assert!(index.complete);
        assert_eq!(index.seek(&b, b"r0"), 0);
        assert_eq!(index.seek(&b, b"r1"), 0);
        assert_eq!(index.seek(&b, b"r2"), starts[1]);
        assert_eq!(index.seek(&b, b"r3"), starts[1]);
        assert_eq!(index.seek(&b, b"r4"), starts[2]);
        assert_eq!(index.seek(&b, b"r5"), starts[2]);
        // Past every row: the block's end.
        assert_eq!(index.seek(&b, b"r6"), b.len());
    }

    #[test]
    fn a_block_of_more_rows_than_listed_steps_from_the_last_listed() {
        let rows = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        let (b, starts) = block(&rows, 1);
        let index = RowStarts::build(&b).expect("index");
        assert_eq!(usize::from(index.len), STARTS);
        assert!(!index.complete);
        assert_eq!(index.seek(&b, b"d"), starts[3]);
        assert_eq!(index.seek(&b, b"h"), starts[7]);
        // "i" and "j" are not listed: the read steps on from "h".
        assert_eq!(index.seek(&b, b"j"), starts[7]);
        assert_eq!(index.seek(&b, b"z"), starts[7]);
    }

    #[test]
    fn the_last_row_before_a_row_is_known_where_every_row_before_it_is_listed() {
        let (b, _) = block(&["r1", "r3", "r5"], 3);
        let index = RowStarts::build(&b).expect("index");
        let before = |row: &[u8]| index.last_row_before(&b, row);
        assert_eq!(before(b"r0"), None);
        assert_eq!(before(b"r1"), None);
        assert_eq!(before(b"r2"), Some(&b"r1"[..]));
        assert_eq!(before(b"r5"), Some(&b"r3"[..]));
        assert_eq!(before(b"r6"), Some(&b"r5"[..]));
        // Past the eight listed rows of a longer block, the index cannot say.
        let rows = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        let (b, _) = block(&rows, 1);
        let index = RowStarts::build(&b).expect("index");
        assert_eq!(index.last_row_before(&b, b"h"), Some(&b"g"[..]));
        assert_eq!(index.last_row_before(&b, b"i"), None);
        assert_eq!(index.last_row_before(&b, b"z"), None);
    }

    #[test]
    fn a_damaged_cell_ends_the_list_where_the_damage_is() {
        let (mut b, starts) = block(&["r1", "r2", "r3"], 2);
        // The third row's first cell claims a key longer than the block.
        b[starts[2]] = 0x7f;
        b.truncate(starts[2] + 3);
        let index = RowStarts::build(&b).expect("index");
        assert_eq!(index.len, 2);
        assert!(!index.complete);
        assert_eq!(index.seek(&b, b"r3"), starts[1]);
    }
}
