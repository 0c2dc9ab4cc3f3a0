//! A table's row keys in stored (byte) order: every row that has at least one stored cell
//! (puts and delete markers alike, in memstores or runs), with its cell count and size.
//!
//! The views page through a million rows, jump to a key or a prefix and draw where a read
//! landed; none of that may scan the table per render. The index keeps the keys in blocks of
//! a few hundred, sorted, and a Fenwick tree over the block lengths, so that the row at an
//! offset, the offset of a key, and the rows of a prefix are each found in O(log n):
//!
//! ```text
//! blocks:  [a b c d] [e f g] [h i j k l]      lengths 4 3 5, prefix sums 0 4 7 12
//! rows_at(5, 3)   -> block 1 (7 > 5 >= 4), from its 2nd key: f g h
//! row_position(g) -> block 1 by first keys, 4 + 2 = 6
//! ```
//!
//! The engine keeps it current: a write adds its cells, a flush or compaction replaces the
//! counts of the rows it rewrote (and drops the rows left without cells), a split changes
//! nothing (rows stay where they are, only region bounds move).
//!
//! Views that keep offsets of their own (where each region's first row is) follow the index
//! by its [`KeyIndex::version`], which changes whenever a row comes or goes, and catch up
//! through [`KeyIndex::changes_since`] (the last rows added and removed, by offset) instead of
//! placing every region again.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Most keys per block before it splits in two.
const BLOCK_MAX: usize = 1024;
/// Rows added or removed that an index remembers for [`KeyIndex::changes_since`].
const CHANGES_KEPT: usize = 256;

/// Versions handed out to every index of the process, so that two indexes (a table's and its
/// clone's, or one rebuilt) never share a version for different rows.
static VERSIONS: AtomicU64 = AtomicU64::new(1);

fn fresh_version() -> u64 {
    VERSIONS.fetch_add(1, Ordering::Relaxed)
}

/// A row that came or went, by its offset: what moves the offsets of the rows after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowChange {
    /// A row was added at this offset: the rows from there on moved one place down.
    Added(usize),
    /// The row at this offset was removed: the rows after it moved one place up.
    Removed(usize),
}

/// One row of the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyEntry {
    pub key: Box<[u8]>,
    /// Stored cells of the row in every family: versions and delete markers included.
    pub cells: u32,
    /// Their size in bytes.
    pub bytes: u64,
}

/// Runs' rows as counted when they were stored, by run id: per run, one entry per stretch of
/// consecutive cells of one row, in the order [`super::Run::for_each_row_size`] walks them.
/// A reload builds the key index from these instead of walking the runs' cells
/// ([`super::Table::rebuild_keys_counted`]).
pub type RunRows = std::collections::HashMap<u64, Vec<KeyEntry>>;

/// Where a key sits among the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The offset of the first row at or after the key.
    pub index: usize,
    /// The row itself is there.
    pub exact: bool,
}

/// The sorted distinct row keys of one table. See the module doc.
#[derive(Clone, Debug)]
pub struct KeyIndex {
    /// Non-empty, sorted, each block's keys above the previous block's.
    blocks: Vec<Vec<KeyEntry>>,
    /// Fenwick tree over `blocks[i].len()`.
    tree: Vec<usize>,
    /// Per block, at least the most cells any of its rows holds (a bound that a row's count
    /// going down leaves as it was): [`KeyIndex::widest`] skips the blocks below its third.
    bounds: Vec<u32>,
    len: usize,
    /// Changes whenever a row is added or removed (never for a count that changes).
    version: u64,
    /// The last rows added and removed, oldest first, each with the version it made.
    changes: VecDeque<(u64, RowChange)>,
    /// The version before the oldest of `changes`.
    changes_from: u64,
}

impl Default for KeyIndex {
    fn default() -> KeyIndex {
        let version = fresh_version();
        KeyIndex {
            blocks: Vec::new(),
            tree: Vec::new(),
            bounds: Vec::new(),
            len: 0,
            version,
            changes: VecDeque::new(),
            changes_from: version,
        }
    }
}

impl KeyIndex {
    pub fn new() -> KeyIndex {
        KeyIndex::default()
    }

    /// Changes whenever a row is added or removed, so the offsets of rows may have moved;
    /// no two sets of rows share one.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The rows added and removed since `version`, oldest first, when the index still
    /// remembers them all (`None` when it does not, or `version` is not one of its own).
    pub fn changes_since(&self, version: u64) -> Option<impl Iterator<Item = RowChange> + '_> {
        let from = if version == self.changes_from {
            0
        } else {
            self.changes.iter().position(|c| c.0 == version)? + 1
        };
        Some(self.changes.iter().skip(from).map(|c| c.1))
    }

    fn note(&mut self, change: RowChange) {
        if self.changes.len() == CHANGES_KEPT {
            if let Some((v, _)) = self.changes.pop_front() {
                self.changes_from = v;
            }
        }
        self.version = fresh_version();
        self.changes.push_back((self.version, change));
    }

    /// Brings `offsets`, the offsets of the sorted `keys` ([`Self::row_position`]) as they
    /// were at `version`, up to this version: moved by the rows added and removed since, when
    /// the index remembers them (a key that a row was added right at is placed again: the row
    /// may lie before it or after), else every key placed anew. Each remembered change costs
    /// a pass over the offsets after it, not a search per key.
    pub fn follow<K: AsRef<[u8]>>(&self, version: u64, keys: &[K], offsets: &mut Vec<usize>) {
        let changes = self
            .changes_since(version)
            .filter(|_| offsets.len() == keys.len());
        let Some(changes) = changes else {
            offsets.clear();
            offsets.extend(keys.iter().map(|k| self.row_position(k.as_ref()).index));
            return;
        };
        let mut unsure: Vec<usize> = Vec::new();
        for change in changes {
            // The offsets are sorted, as the keys are: the ones past a change move.
            match change {
                RowChange::Added(at) => {
                    let from = offsets.partition_point(|o| *o < at);
                    let past = offsets.partition_point(|o| *o <= at);
                    unsure.extend(from..past);
                    for o in offsets.iter_mut().skip(past) {
                        *o += 1;
                    }
                }
                RowChange::Removed(at) => {
                    let past = offsets.partition_point(|o| *o <= at);
                    for o in offsets.iter_mut().skip(past) {
                        *o = o.saturating_sub(1);
                    }
                }
            }
        }
        for i in unsure {
            if let (Some(k), Some(o)) = (keys.get(i), offsets.get_mut(i)) {
                *o = self.row_position(k.as_ref()).index;
            }
        }
    }

    /// Rows moved in ways not remembered one by one: readers start again.
    fn forget_changes(&mut self) {
        self.version = fresh_version();
        self.changes.clear();
        self.changes_from = self.version;
    }

    /// An index of rows given in ascending key order (duplicates are merged).
    pub fn from_sorted(rows: impl IntoIterator<Item = KeyEntry>) -> KeyIndex {
        let mut index = KeyIndex::new();
        let mut block: Vec<KeyEntry> = Vec::new();
        for row in rows {
            match block.last_mut() {
                Some(last) if last.key == row.key => {
                    last.cells += row.cells;
                    last.bytes += row.bytes;
                    continue;
                }
                _ => {}
            }
            if block.len() == BLOCK_MAX / 2 {
                index.blocks.push(std::mem::take(&mut block));
            }
            block.push(row);
        }
        if !block.is_empty() {
            index.blocks.push(block);
        }
        index.bounds = index.blocks.iter().map(|b| bound(b)).collect();
        index.rebuild_tree();
        index
    }

    /// How many rows have stored cells.
    pub fn row_count(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Up to `n` rows from the `offset`-th on, in key order.
    pub fn rows_at(&self, offset: usize, n: usize) -> Vec<&KeyEntry> {
        let mut out = Vec::with_capacity(n.min(self.len.saturating_sub(offset)));
        let Some((mut b, mut i)) = self.locate(offset) else {
            return out;
        };
        while out.len() < n {
            let Some(block) = self.blocks.get(b) else {
                break;
            };
            match block.get(i) {
                Some(e) => {
                    out.push(e);
                    i += 1;
                }
                None => {
                    b += 1;
                    i = 0;
                }
            }
        }
        out
    }

    /// The row at `offset`.
    pub fn get(&self, offset: usize) -> Option<&KeyEntry> {
        let (b, i) = self.locate(offset)?;
        self.blocks.get(b)?.get(i)
    }

    /// Where `key` is, or would be: the offset of the first row at or after it.
    pub fn row_position(&self, key: &[u8]) -> Position {
        let b = self.block_of(key);
        let Some(block) = self.blocks.get(b) else {
            return Position {
                index: self.len,
                exact: false,
            };
        };
        let before = self.prefix_sum(b);
        match block.binary_search_by(|e| (*e.key).cmp(key)) {
            Ok(i) => Position {
                index: before + i,
                exact: true,
            },
            Err(i) => Position {
                index: before + i,
                exact: false,
            },
        }
    }

    /// Which of `pixels` equal stretches of the key order hold at least one of `n` keys given
    /// in ascending order by `key(j)`: the one `row_position(key).index * pixels / rows` names
    /// (the last stretch also holding keys past every row), found a stretch at a time by a
    /// binary search over the keys, so that a read's million returned rows cost `pixels`
    /// searches, not a million.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn pixels_holding<'k>(
        &self,
        pixels: usize,
        n: usize,
        key: impl Fn(usize) -> &'k [u8],
    ) -> Vec<bool> {
        let rows = self.len.max(1);
        // The key at offset `i`, when there is one.
        let at = |i: usize| self.get(i).map(|e| &*e.key);
        (0..pixels)
            .map(|p| {
                // Offsets `lo..hi` fall on pixel `p`: the first `i` with `i * pixels / rows`
                // at `p`, up to the first at `p + 1`.
                let lo = (p * rows).div_ceil(pixels);
                let hi = ((p + 1) * rows).div_ceil(pixels);
                // A key's position is at least `lo` when it is above the row at `lo - 1`
                // (every key's is at least 0; none is past the last row's offset plus one),
                // and under `hi` when it is at most the row at `hi - 1` (the last pixel has
                // no `hi`).
                let above = match lo.checked_sub(1).map(at) {
                    None => None,
                    Some(None) => return false,
                    Some(row) => row,
                };
                let first = crate::kit::partition(n, |j| above.is_some_and(|a| key(j) <= a));
                first < n
                    && (p + 1 == pixels
                        || hi
                            .checked_sub(1)
                            .and_then(at)
                            .is_none_or(|b| key(first) <= b))
            })
            .collect()
    }

    /// The offsets of the rows whose key starts with `prefix` (empty when there are none).
    pub fn prefix_range(&self, prefix: &[u8]) -> Range<usize> {
        let start = self.row_position(prefix).index;
        let stop = crate::bytes::prefix_stop(prefix);
        let end = if stop.is_empty() {
            self.len
        } else {
            self.row_position(&stop).index
        };
        start..end.max(start)
    }

    /// The offsets of the rows in `[start, stop)`; an empty `stop` runs to the end.
    pub fn range(&self, start: &[u8], stop: &[u8]) -> Range<usize> {
        let from = self.row_position(start).index;
        let to = if stop.is_empty() {
            self.len
        } else {
            self.row_position(stop).index
        };
        from..to.max(from)
    }

    /// The entry of `key`, if the row has stored cells.
    pub fn entry(&self, key: &[u8]) -> Option<&KeyEntry> {
        let block = self.blocks.get(self.block_of(key))?;
        let i = block.binary_search_by(|e| (*e.key).cmp(key)).ok()?;
        block.get(i)
    }

    /// Every row in key order.
    pub fn iter(&self) -> impl Iterator<Item = &KeyEntry> {
        self.blocks.iter().flatten()
    }

    /// The `k` rows with the most cells, most first (ties by key). A block whose rows all hold
    /// no more than the `k`-th found so far is stepped over whole.
    pub fn widest(&self, k: usize) -> Vec<&KeyEntry> {
        let mut top: Vec<&KeyEntry> = Vec::with_capacity(k + 1);
        for (b, block) in self.blocks.iter().enumerate() {
            let most = self.bounds.get(b).copied().unwrap_or(u32::MAX);
            if top.len() == k && top.last().is_some_and(|l| l.cells >= most) {
                continue;
            }
            Self::widest_of(block, k, &mut top);
        }
        top
    }

    fn widest_of<'a>(block: &'a [KeyEntry], k: usize, top: &mut Vec<&'a KeyEntry>) {
        for e in block {
            if top.len() == k && top.last().is_some_and(|l| l.cells >= e.cells) {
                continue;
            }
            let at = top.partition_point(|t| t.cells >= e.cells);
            top.insert(at, e);
            top.truncate(k);
        }
    }

    /// Adds `cells` cells of `bytes` bytes to a row, adding the row when new.
    pub fn add(&mut self, key: &[u8], cells: u32, bytes: u64) {
        if self.blocks.is_empty() {
            self.blocks.push(Vec::new());
            self.bounds = vec![0];
            self.rebuild_tree();
        }
        let b = self.block_of(key);
        let Some(block) = self.blocks.get_mut(b) else {
            return;
        };
        match block.binary_search_by(|e| (*e.key).cmp(key)) {
            Ok(i) => {
                if let Some(e) = block.get_mut(i) {
                    e.cells = e.cells.saturating_add(cells);
                    e.bytes += bytes;
                    let now = e.cells;
                    self.raise_bound(b, now);
                }
            }
            Err(i) => {
                block.insert(
                    i,
                    KeyEntry {
                        key: key.into(),
                        cells,
                        bytes,
                    },
                );
                self.len += 1;
                if block.len() > BLOCK_MAX {
                    let upper = block.split_off(block.len() / 2);
                    self.blocks.insert(b + 1, upper);
                    let most = self.bounds.get(b).copied().unwrap_or(u32::MAX);
                    self.bounds.insert(b + 1, most);
                    self.rebuild_tree();
                } else {
                    self.tree_add(b, 1);
                }
                self.raise_bound(b, cells);
                let at = self.prefix_sum(b) + i;
                self.note(RowChange::Added(at));
            }
        }
    }

    /// Sets a row's counts (as recounted after a flush); zero cells removes the row.
    pub fn set(&mut self, key: &[u8], cells: u32, bytes: u64) {
        if cells == 0 {
            self.remove(key);
            return;
        }
        match self.entry_mut(key) {
            Some(e) => {
                e.cells = cells;
                e.bytes = bytes;
                let b = self.block_of(key);
                self.raise_bound(b, cells);
            }
            None => self.add(key, cells, bytes),
        }
    }

    /// Removes a row; says whether it was there.
    pub fn remove(&mut self, key: &[u8]) -> bool {
        let b = self.block_of(key);
        let Some(block) = self.blocks.get_mut(b) else {
            return false;
        };
        let Ok(i) = block.binary_search_by(|e| (*e.key).cmp(key)) else {
            return false;
        };
        block.remove(i);
        self.len -= 1;
        if block.is_empty() {
            self.blocks.remove(b);
            if b < self.bounds.len() {
                self.bounds.remove(b);
            }
            self.rebuild_tree();
        } else {
            self.tree_sub(b);
        }
        let at = self.prefix_sum(b) + i;
        self.note(RowChange::Removed(at));
        true
    }

    /// Replaces every row in `[start, stop)` (an empty `stop` runs to the end) with `rows`,
    /// which must be sorted and inside the range: what a compaction of a region leaves.
    pub fn replace_range(&mut self, start: &[u8], stop: &[u8], rows: Vec<KeyEntry>) {
        let span = self.range(start, stop);
        let end = self.blocks.len();
        let (b0, i0) = self.locate(span.start).unwrap_or((end, 0));
        let (b1, i1) = self.locate(span.end).unwrap_or((end, 0));
        let mut middle: Vec<KeyEntry> = Vec::new();
        if let Some(block) = self.blocks.get(b0) {
            middle.extend(block.get(..i0).unwrap_or(&[]).iter().cloned());
        }
        middle.extend(rows);
        if let Some(block) = self.blocks.get(b1) {
            middle.extend(block.get(i1..).unwrap_or(&[]).iter().cloned());
        }
        let end_block = if b1 < end { b1 + 1 } else { end };
        let fresh: Vec<Vec<KeyEntry>> = middle
            .chunks(BLOCK_MAX / 2)
            .map(<[KeyEntry]>::to_vec)
            .collect();
        let fresh_bounds: Vec<u32> = fresh.iter().map(|b| bound(b)).collect();
        self.blocks.splice(b0..end_block.max(b0), fresh);
        let at = b0.min(self.bounds.len());
        let to = end_block.max(b0).min(self.bounds.len());
        self.bounds.splice(at..to, fresh_bounds);
        self.len = self.blocks.iter().map(Vec::len).sum();
        self.rebuild_tree();
        self.forget_changes();
    }

    /// Block `b` holds a row of `cells` cells.
    fn raise_bound(&mut self, b: usize, cells: u32) {
        if let Some(most) = self.bounds.get_mut(b) {
            *most = (*most).max(cells);
        }
    }

    fn entry_mut(&mut self, key: &[u8]) -> Option<&mut KeyEntry> {
        let b = self.block_of(key);
        let block = self.blocks.get_mut(b)?;
        let i = block.binary_search_by(|e| (*e.key).cmp(key)).ok()?;
        block.get_mut(i)
    }

    /// The block that holds `key` or would: the last whose first key is at or below it.
    fn block_of(&self, key: &[u8]) -> usize {
        self.blocks
            .partition_point(|b| b.first().is_some_and(|e| &*e.key <= key))
            .saturating_sub(1)
    }

    /// The block and the index in it of the `offset`-th row.
    fn locate(&self, offset: usize) -> Option<(usize, usize)> {
        if offset >= self.len {
            return None;
        }
        // Descend the Fenwick tree: the largest block count whose prefix sum is <= offset.
        let mut pos = 0;
        let mut rest = offset;
        let mut step = self.tree.len().next_power_of_two();
        while step > 0 {
            if let Some(&v) = self.tree.get(pos + step - 1) {
                if v <= rest {
                    pos += step;
                    rest -= v;
                }
            }
            step /= 2;
        }
        Some((pos, rest))
    }

    /// Rows in the blocks before block `b`.
    fn prefix_sum(&self, b: usize) -> usize {
        let mut i = b;
        let mut sum = 0;
        while i > 0 {
            sum += self.tree.get(i - 1).copied().unwrap_or(0);
            i &= i - 1;
        }
        sum
    }

    fn tree_add(&mut self, b: usize, delta: usize) {
        let mut i = b + 1;
        while let Some(v) = self.tree.get_mut(i - 1) {
            *v += delta;
            i += i & i.wrapping_neg();
        }
    }

    fn tree_sub(&mut self, b: usize) {
        let mut i = b + 1;
        while let Some(v) = self.tree.get_mut(i - 1) {
            *v -= 1;
            i += i & i.wrapping_neg();
        }
    }

    fn rebuild_tree(&mut self) {
        let n = self.blocks.len();
        self.tree = self.blocks.iter().map(Vec::len).collect();
        for i in 1..=n {
            let parent = i + (i & i.wrapping_neg());
            if parent <= n {
                let v = self.tree.get(i - 1).copied().unwrap_or(0);
                if let Some(p) = self.tree.get_mut(parent - 1) {
                    *p += v;
                }
            }
        }
        self.len = self.blocks.iter().map(Vec::len).sum();
    }
}

/// The most cells a row of `block` holds.
fn bound(block: &[KeyEntry]) -> u32 {
    block.iter().map(|e| e.cells).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn key(i: u32) -> Vec<u8> {
        format!("row{i:07}").into_bytes()
    }

    fn keys(index: &KeyIndex, offset: usize, n: usize) -> Vec<Vec<u8>> {
        index
            .rows_at(offset, n)
            .into_iter()
            .map(|e| e.key.to_vec())
            .collect()
    }

    #[test]
    fn pages_and_positions_across_blocks() {
        let mut index = KeyIndex::new();
        // Inserted out of order so blocks split in the middle, not only at the end.
        for i in (0..5000u32).rev().step_by(2).chain((0..5000).step_by(2)) {
            index.add(&key(i), 1, 10);
        }
        assert_eq!(index.row_count(), 5000);
        assert!(
            index.blocks.len() > 4,
            "blocks split: {}",
            index.blocks.len()
        );
        assert_eq!(keys(&index, 0, 2), vec![key(0), key(1)]);
        assert_eq!(keys(&index, 2047, 3), vec![key(2047), key(2048), key(2049)]);
        assert_eq!(keys(&index, 4998, 5), vec![key(4998), key(4999)]);
        assert!(index.rows_at(5000, 5).is_empty());
        for i in [0u32, 511, 512, 1023, 1024, 3333, 4999] {
            let p = index.row_position(&key(i));
            assert_eq!((p.index, p.exact), (i as usize, true), "row {i}");
            assert_eq!(index.get(i as usize).map(|e| e.key.to_vec()), Some(key(i)));
        }
        // A key between rows lands on the next row.
        let p = index.row_position(b"row0001000x");
        assert_eq!((p.index, p.exact), (1001, false));
        assert_eq!(index.row_position(b"zzz").index, 5000);
        assert_eq!(index.row_position(b"").index, 0);
    }

    #[test]
    fn prefix_ranges() {
        let mut index = KeyIndex::new();
        for i in 0..3000u32 {
            index.add(&key(i), 1, 1);
        }
        assert_eq!(index.prefix_range(b"row00012"), 1200..1300);
        assert_eq!(index.prefix_range(b"row0002999"), 2999..3000);
        assert_eq!(index.prefix_range(b"nope").len(), 0);
        assert_eq!(index.prefix_range(b""), 0..3000);
        assert_eq!(index.range(b"row0000010", b"row0000020"), 10..20);
        assert_eq!(index.range(b"row0002990", b""), 2990..3000);
    }

    #[test]
    fn counts_add_up_and_rows_leave_at_zero() {
        let mut index = KeyIndex::new();
        index.add(b"a", 1, 10);
        index.add(b"a", 2, 5);
        index.add(b"b", 1, 1);
        assert_eq!(index.entry(b"a").map(|e| (e.cells, e.bytes)), Some((3, 15)));
        index.set(b"a", 1, 4);
        assert_eq!(index.entry(b"a").map(|e| (e.cells, e.bytes)), Some((1, 4)));
        index.set(b"a", 0, 0);
        assert!(index.entry(b"a").is_none());
        assert_eq!(index.row_count(), 1);
        assert!(index.remove(b"b"));
        assert!(!index.remove(b"b"));
        assert!(index.is_empty());
        assert!(index.rows_at(0, 1).is_empty());
    }

    #[test]
    fn replace_range_keeps_the_rows_outside() {
        let mut index = KeyIndex::new();
        for i in 0..4000u32 {
            index.add(&key(i), 2, 20);
        }
        // A compaction of [row0001000, row0003000) that kept every other row with one cell.
        let kept: Vec<KeyEntry> = (1000..3000u32)
            .step_by(2)
            .map(|i| KeyEntry {
                key: key(i).into(),
                cells: 1,
                bytes: 10,
            })
            .collect();
        index.replace_range(&key(1000), &key(3000), kept);
        assert_eq!(index.row_count(), 1000 + 1000 + 1000);
        assert_eq!(keys(&index, 999, 3), vec![key(999), key(1000), key(1002)]);
        assert_eq!(index.row_position(&key(3000)).index, 2000);
        assert_eq!(index.entry(&key(1002)).map(|e| e.cells), Some(1));
        assert_eq!(index.entry(&key(3000)).map(|e| e.cells), Some(2));
        // To the end, and everything.
        index.replace_range(&key(3500), b"", Vec::new());
        assert_eq!(index.row_count(), 2500);
        index.replace_range(b"", b"", Vec::new());
        assert!(index.is_empty());
        // Into an empty index.
        index.replace_range(
            b"",
            b"",
            vec![KeyEntry {
                key: b"x".to_vec().into(),
                cells: 1,
                bytes: 1,
            }],
        );
        assert_eq!(keys(&index, 0, 5), vec![b"x".to_vec()]);
    }

    #[test]
    fn offsets_follow_the_rows_added_and_removed() {
        // Keys placed once, then followed through adds and removes (some right at a placed
        // key, some between), must equal the keys placed anew after each step.
        let placed: Vec<Vec<u8>> = [0u32, 100, 101, 2000, 2001, 2500, 4000, 9999]
            .iter()
            .map(|i| key(*i))
            .chain([b"".to_vec(), b"row0002000x".to_vec()])
            .map(|k| (k, ()))
            .collect::<BTreeMap<_, ()>>()
            .into_keys()
            .collect();
        let fresh = |index: &KeyIndex| -> Vec<usize> {
            placed.iter().map(|k| index.row_position(k).index).collect()
        };
        let mut index = KeyIndex::from_sorted((0..3000u32).step_by(3).map(|i| KeyEntry {
            key: key(i).into(),
            cells: 1,
            bytes: 10,
        }));
        let mut version = index.version();
        let mut offsets = fresh(&index);
        let mut state = 7u64;
        for step in 0..600 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = ((state >> 33) % 3100) as u32;
            // Every few steps two changes before the views look; now and then a placed key.
            let k = if step % 7 == 0 {
                placed[(i as usize) % placed.len()].clone()
            } else {
                key(i)
            };
            if (state >> 20) % 3 == 0 {
                index.remove(&k);
            } else {
                index.add(&k, 1, 10);
            }
            if step % 2 == 1 {
                index.follow(version, &placed, &mut offsets);
                version = index.version();
                assert_eq!(offsets, fresh(&index), "step {step}");
            }
        }
        // Counts that change move nothing; the version stays.
        let before = index.version();
        index.add(&key(3), 2, 20);
        if index.row_position(&key(3)).exact {
            assert_eq!(index.version(), before);
        }
        // More changes than remembered, or a range replaced: every key placed anew.
        let old = index.version();
        for i in 0..(CHANGES_KEPT as u32 + 10) {
            index.add(&format!("new{i:05}").into_bytes(), 1, 1);
        }
        assert!(index.changes_since(old).is_none());
        index.follow(old, &placed, &mut offsets);
        assert_eq!(offsets, fresh(&index));
        let old = index.version();
        index.replace_range(&key(0), &key(50), Vec::new());
        assert!(index.changes_since(old).is_none());
        index.follow(old, &placed, &mut offsets);
        assert_eq!(offsets, fresh(&index));
        // A version of another index is not followed.
        assert!(KeyIndex::new().changes_since(index.version()).is_none());
    }

    #[test]
    fn widest_rows_first() {
        let mut index = KeyIndex::new();
        for i in 0..100u32 {
            index.add(&key(i), i % 7 + 1, 1);
        }
        index.add(&key(50), 1000, 1);
        let top: Vec<u32> = index.widest(3).iter().map(|e| e.cells).collect();
        assert_eq!(top, vec![1002, 7, 7]);
    }

    proptest::proptest! {
        /// Random adds, removes and range replacements agree with a BTreeMap.
        #[test]
        fn agrees_with_a_map(ops in proptest::collection::vec((0u8..4, 0u16..3000, 0u16..3000), 1..400)) {
            let mut index = KeyIndex::new();
            let mut model: BTreeMap<Vec<u8>, u32> = BTreeMap::new();
            for (op, a, b) in ops {
                let ka = key(u32::from(a));
                match op {
                    1 if b % 3 == 0 => {
                        // A recount, up or down (zero removes the row).
                        let cells = u32::from(b % 5);
                        index.set(&ka, cells, 1);
                        if cells == 0 {
                            model.remove(&ka);
                        } else {
                            model.insert(ka.clone(), cells);
                        }
                    }
                    0 | 1 => {
                        // Bursts so that blocks split.
                        for j in 0..u32::from(b % 64) {
                            let k = key(u32::from(a) * 3 + j);
                            index.add(&k, 1, 1);
                            *model.entry(k).or_default() += 1;
                        }
                    }
                    2 => {
                        index.remove(&ka);
                        model.remove(&ka);
                    }
                    _ => {
                        let (lo, hi) = (a.min(b), a.max(b));
                        let (s, e) = (key(u32::from(lo)), key(u32::from(hi)));
                        let kept: Vec<KeyEntry> = model
                            .range(s.clone()..e.clone())
                            .step_by(3)
                            .map(|(k, c)| KeyEntry { key: k.clone().into(), cells: *c, bytes: 1 })
                            .collect();
                        let keep: Vec<Vec<u8>> = kept.iter().map(|k| k.key.to_vec()).collect();
                        model.retain(|k, _| k < &s || k >= &e || keep.contains(k));
                        index.replace_range(&s, &e, kept);
                    }
                }
                proptest::prop_assert_eq!(index.row_count(), model.len());
            }
            // The widest rows, blocks stepped over by their bounds, as a walk of every row finds them.
            let mut naive: Vec<(u32, Vec<u8>)> = model.iter().map(|(k, c)| (*c, k.clone())).collect();
            naive.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            naive.truncate(3);
            let widest: Vec<(u32, Vec<u8>)> = index.widest(3).iter().map(|e| (e.cells, e.key.to_vec())).collect();
            proptest::prop_assert_eq!(widest, naive);
            let all: Vec<Vec<u8>> = index.iter().map(|e| e.key.to_vec()).collect();
            let want: Vec<Vec<u8>> = model.keys().cloned().collect();
            proptest::prop_assert_eq!(&all, &want);
            for (i, k) in want.iter().enumerate().step_by(7) {
                proptest::prop_assert_eq!(index.row_position(k).index, i);
                proptest::prop_assert_eq!(keys(&index, i, 1), vec![k.clone()]);
            }
        }
    }
}
