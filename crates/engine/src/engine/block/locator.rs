//! A run's row locator: where each row's first cell is (its block and its offset in the
//! block), found by a hash of the row. A get that finds its row here goes straight to that
//! cell, where a seek through the block index compares keys at each
//! step of two binary searches (the blocks' first rows, then the rows the block's row index
//! lists), and most of those steps are cache misses once a run is larger than the cache: about
//! a third of a get's time in WebAssembly at a million cells.
//!
//! HBase has no such table (its gets seek through the block index and the block); it changes
//! no result and no count a read reports: a read that finds its row here counts the blocks a
//! seek would have counted (see `RunCursor::at_row`), and one that does not seeks as before. The
//! writer of a `NONE` run fills it as the rows go in ([`LocatorBuilder`]); a run read back from
//! storage has none until a compaction writes its rows again.

use super::bloom::murmur3_32;

/// An empty slot (no entry has every bit set: blocks stop short of [`MAX_BLOCKS`]).
const EMPTY: u64 = u64::MAX;
/// An entry: the row hash's top 24 bits, then 24 bits of block and 16 of offset.
const BLOCK_BITS: u32 = 24;
const OFFSET_BITS: u32 = 16;
const MAX_BLOCKS: u64 = (1 << BLOCK_BITS) - 1;

/// The hash a row is found by: the first of the bloom filter's two (`bloom::key_hashes`,
/// HBase's Murmur3), which a get has taken for the bloom already.
#[inline]
pub(crate) fn row_hash(row: &[u8]) -> u32 {
    murmur3_32(row, 0)
}

/// The rows of a file being written, as its writer adds them.
#[derive(Debug, Default)]
pub(crate) struct LocatorBuilder {
    entries: Vec<u64>,
    /// A row was past what an entry holds (a block of more than 64 KB, or too many blocks):
    /// the file gets no locator.
    over: bool,
}

impl LocatorBuilder {
    /// Notes that the row hashed to `hash` starts at `offset` in block `block`.
    #[inline]
    pub fn row(&mut self, hash: u32, block: u64, offset: usize) {
        match u64::try_from(offset) {
            Ok(offset) if block < MAX_BLOCKS && offset >> OFFSET_BITS == 0 && !self.over => {
                self.entries.push(
                    u64::from(hash >> 8) << (BLOCK_BITS + OFFSET_BITS)
                        | block << OFFSET_BITS
                        | offset,
                )
            }
            _ => {
                self.over = true;
                self.entries = Vec::new();
            }
        }
    }

    /// The locator of the rows noted; `None` when one could not be held.
    pub fn finish(self) -> Option<RowLocator> {
        if self.over {
            return None;
        }
        // A quarter of the slots left empty: a row is found within a probe or two.
        let len = self.entries.len() + self.entries.len() / 3 + 1;
        let mut slots = vec![EMPTY; len].into_boxed_slice();
        for entry in self.entries {
            let mut at = home(entry, len);
            while let Some(slot) = slots.get_mut(at) {
                if *slot == EMPTY {
                    *slot = entry;
                    break;
                }
                at = if at + 1 == len { 0 } else { at + 1 };
            }
        }
        Some(RowLocator { slots })
    }
}

/// Where each row of a file starts, by its hash (see the module's comment).
#[derive(Debug)]
pub(crate) struct RowLocator {
    slots: Box<[u64]>,
}

impl RowLocator {
    /// The places (block, offset) whose rows have `hash`'s top bits, in the order to try:
    /// the row's own place among them when the file holds the row. A caller checks each
    /// place's row.
    #[inline]
    pub fn places(&self, hash: u32) -> impl Iterator<Item = (usize, usize)> + '_ {
        let len = self.slots.len();
        let tag = u64::from(hash >> 8);
        let mut at = home(tag << (BLOCK_BITS + OFFSET_BITS), len);
        let mut left = len;
        std::iter::from_fn(move || loop {
            let slot = *self.slots.get(at)?;
            if slot == EMPTY || left == 0 {
                return None;
            }
            left -= 1;
            at = if at + 1 == len { 0 } else { at + 1 };
            if slot >> (BLOCK_BITS + OFFSET_BITS) == tag {
                let block = (slot >> OFFSET_BITS) & MAX_BLOCKS;
                let offset = slot & ((1 << OFFSET_BITS) - 1);
                return Some((block as usize, offset as usize));
            }
        })
    }
}

/// An entry's first slot: its hash's top bits scaled to the table (the slots in hash order).
#[inline]
fn home(entry: u64, len: usize) -> usize {
    (((entry >> (BLOCK_BITS + OFFSET_BITS)) * len as u64) >> 24) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_found_at_its_place_and_first() {
        let mut b = LocatorBuilder::default();
        let rows: Vec<String> = (0..5_000).map(|i| format!("row-{i:05}")).collect();
        for (i, row) in rows.iter().enumerate() {
            b.row(row_hash(row.as_bytes()), (i / 3) as u64, (i % 3) * 100);
        }
        let locator = b.finish().expect("small places fit");
        for (i, row) in rows.iter().enumerate() {
            let want = (i / 3, (i % 3) * 100);
            let places: Vec<_> = locator.places(row_hash(row.as_bytes())).collect();
            assert!(places.contains(&want), "{row}: {places:?}");
        }
        // A row the file does not hold finds no place, or another row's whose hash has the
        // same top 24 bits, near its own first slot: 2 of these 5,000 (the caller checks the
        // row at each place).
        let absent: usize = (0..5_000)
            .map(|i| {
                locator
                    .places(row_hash(format!("absent-{i}").as_bytes()))
                    .count()
            })
            .sum();
        assert_eq!(absent, 2, "places for absent rows");
    }

    #[test]
    fn a_place_past_what_an_entry_holds_leaves_the_file_without_a_locator() {
        let mut b = LocatorBuilder::default();
        b.row(1, 0, 10);
        b.row(2, 0, 70_000);
        b.row(3, 1, 10);
        assert!(b.finish().is_none());
        let mut b = LocatorBuilder::default();
        b.row(1, MAX_BLOCKS, 0);
        assert!(b.finish().is_none());
    }

    #[test]
    fn an_empty_file_has_an_empty_locator() {
        let locator = LocatorBuilder::default().finish().expect("empty fits");
        assert_eq!(locator.places(row_hash(b"r")).count(), 0);
    }
}
