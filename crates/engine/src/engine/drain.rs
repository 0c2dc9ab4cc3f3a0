//! A compaction's merge over input runs it owns: each input's blocks are read once, front to
//! back, and each part of its file (about 64 KB of whole blocks, `block::writer::PART_BYTES`)
//! is freed as soon as the merge has read past its last block, so the allocator hands
//! that memory to the output run being written. A major compaction then needs about its
//! inputs' bytes, not its inputs' and its output's at once.
//!
//! The cells' fates are decided a row at a time (`ScanQueryMatcher` starts over at every
//! row), and deciding borrows the cells of the row: the merge reads in stretches of whole
//! rows, in which no part is freed, so every cell goes from its block to the writer without
//! being copied, and frees the parts read past between stretches.

use std::sync::Arc;

use super::block::{BlockDrain, CellRef, CursorState, Encoding, FileWriter};
use super::family::FamilyDescriptor;
use super::lsm::Dropped;
use super::resolve::{FateTracker, Pass};
use super::rules::Rules;
use super::store::{merge, Decoded, Run};

/// One input's blocks: owned and freed as read, or shared with another holder (a save in
/// progress) and only read.
pub(crate) enum Blocks {
    Owned(BlockDrain),
    Shared(Arc<Run>),
}

impl Blocks {
    /// The run's blocks, owned when nothing else holds the run.
    pub(crate) fn take(run: Arc<Run>) -> Blocks {
        match Arc::try_unwrap(run) {
            Ok(run) => Blocks::Owned(run.into_drain()),
            Err(shared) => Blocks::Shared(shared),
        }
    }

    fn count(&self) -> usize {
        match self {
            Blocks::Owned(d) => d.block_count(),
            Blocks::Shared(r) => r.file().block_count(),
        }
    }

    fn encoding(&self) -> Encoding {
        match self {
            Blocks::Owned(d) => d.encoding(),
            Blocks::Shared(r) => r.file().header().options.encoding,
        }
    }

    /// Block `i`'s payload; `None` for a damaged block.
    #[inline]
    fn block(&self, i: usize) -> Option<&[u8]> {
        match self {
            Blocks::Owned(d) => d.block(i),
            Blocks::Shared(r) => r.file().block(i).ok(),
        }
    }

    fn release_before(&mut self, i: usize) {
        if let Blocks::Owned(d) = self {
            d.release_before(i);
        }
    }
}

/// Where one input's walk stands: its block and the walk inside it, which holds no borrow of
/// the block (so that the input's parts can be freed between stretches). A damaged block is
/// stepped over, as a read steps over it (and a block whose walk meets a cell that does not
/// decode ends there).
struct Walk {
    block: usize,
    state: CursorState,
    /// The walk is on a cell (the input's head).
    on: bool,
}

/// An input's head during a stretch: the block its walk is in and the cell it is on, both
/// borrowed from the input's blocks (and, for a key the encoding rebuilt, the stretch's keys).
#[derive(Clone, Copy)]
struct Head<'b> {
    block: &'b [u8],
    cell: Option<CellRef<'b>>,
    /// The cell's bytes in a `NONE` block, which a `NONE` output takes as they are.
    encoded: Option<&'b [u8]>,
}

const NO_HEAD: Head<'static> = Head {
    block: &[],
    cell: None,
    encoded: None,
};

impl Walk {
    /// A walk before the first block of `blocks`.
    fn new(blocks: &Blocks) -> Walk {
        Walk {
            block: 0,
            state: CursorState::new(blocks.encoding()),
            on: false,
        }
    }

    /// The head the walk is on, as a new stretch sees it.
    #[inline]
    fn head<'b>(&self, blocks: &'b Blocks, keys: &'b Decoded) -> Head<'b> {
        if !self.on {
            return NO_HEAD;
        }
        match blocks.block(self.block) {
            Some(block) => Head {
                block,
                cell: self.state.current_in(block, keys),
                encoded: self.state.none_encoded(block),
            },
            None => NO_HEAD,
        }
    }

    /// Moves past `head` (the walk's head, in its block) to the next cell.
    #[inline]
    fn step<'b>(&mut self, head: Head<'b>, blocks: &'b Blocks, keys: &'b Decoded) -> Head<'b> {
        let cell = self.state.next_in(head.block, keys);
        self.on = cell.is_some();
        if self.on {
            return Head {
                block: head.block,
                cell,
                encoded: self.state.none_encoded(head.block),
            };
        }
        self.block += 1;
        self.state.restart();
        self.settle(blocks, keys)
    }

    /// Moves to the first cell from the current block on (the walk stands before a cell).
    fn settle<'b>(&mut self, blocks: &'b Blocks, keys: &'b Decoded) -> Head<'b> {
        while self.block < blocks.count() {
            if let Some(block) = blocks.block(self.block) {
                self.on = matches!(self.state.advance(block), Ok(true));
                if self.on {
                    return Head {
                        block,
                        cell: self.state.current_in(block, keys),
                        encoded: self.state.none_encoded(block),
                    };
                }
            }
            self.block += 1;
            self.state.restart();
        }
        self.on = false;
        NO_HEAD
    }
}

/// What a merge decides its cells by: the pass and the family's rules, the clock, and the
/// oldest put of a major compaction's inputs.
pub(crate) struct Decider<'f> {
    pub family: &'f FamilyDescriptor,
    pub rules: Rules,
    pub pass: Pass,
    pub now: u64,
    pub earliest_put: u64,
}

impl<'f> Decider<'f> {
    /// A fresh tracker of the cells' fates under these rules (it starts over at every row).
    fn tracker<'a>(&self) -> FateTracker<'a, 'f> {
        FateTracker::new(
            self.family,
            self.rules,
            self.pass,
            self.now,
            self.earliest_put,
        )
    }
}

/// Where a rewrite (a flush's or a compaction's pass over its cells in order) stands in its
/// row: the row of the last cell, compared once a cell, and whether a cell of it has been
/// written. The fate tracker and the writer are told what it knows instead of comparing rows
/// again.
#[derive(Default)]
pub(crate) struct RowState<'a> {
    row: Option<&'a [u8]>,
    written: bool,
}

impl<'a> RowState<'a> {
    /// Moves to the row of the next cell; whether it is the row of the cell before.
    #[inline]
    pub(crate) fn enter(&mut self, row: &'a [u8]) -> bool {
        let same = self.row == Some(row);
        if !same {
            self.row = Some(row);
            self.written = false;
        }
        same
    }

    /// Decides the fate of `cell` (whose row `enter` was just told, answering `same_row`),
    /// notes it in `dropped`, and writes the cell to `writer` when it is kept (as `encoded`,
    /// its bytes in a `NONE` block, when given).
    #[inline]
    pub(crate) fn rewrite(
        &mut self,
        cell: CellRef<'a>,
        encoded: Option<&[u8]>,
        same_row: bool,
        tracker: &mut FateTracker<'a, '_>,
        writer: &mut FileWriter,
        dropped: &mut Dropped,
    ) {
        let fate = tracker.decide_in_row(cell, same_row);
        dropped.note(fate);
        if fate.kept() {
            writer.add_in_row(cell, encoded, !self.written);
            self.written = true;
        }
    }
}

/// About how many cells a stretch of the merge takes before it ends at the next row: the
/// inputs' parts it has read past are freed between stretches.
const STRETCH_CELLS: usize = 256;

/// Merges `inputs` (newest first: at equal keys the earlier input's cell comes first, as in
/// [`super::store::MergeIter`]) into `writer`, keeping the cells `decider` keeps, freeing
/// each input's parts as it reads past them. What it dropped.
///
/// The cells go from their blocks to the writer as they are read, in stretches of whole
/// rows: within a stretch the inputs' blocks are only read, so a row's cells stay borrowed
/// while its fates are decided (`ScanQueryMatcher` starts over at every row); between
/// stretches each input frees the parts before its walk.
pub(crate) fn merge(
    mut inputs: Vec<Blocks>,
    decider: &Decider<'_>,
    writer: &mut FileWriter,
) -> Dropped {
    let mut walks: Vec<Walk> = inputs.iter().map(Walk::new).collect();
    {
        let keys = Decoded::default();
        for (walk, blocks) in walks.iter_mut().zip(&inputs) {
            walk.settle(blocks, &keys);
        }
    }
    let mut dropped = Dropped::default();
    loop {
        release_read(&mut inputs, &walks);
        if !stretch(&inputs, &mut walks, decider, writer, &mut dropped) {
            break;
        }
    }
    release_read(&mut inputs, &walks);
    dropped
}

/// Frees each input's parts before its walk's block.
fn release_read(inputs: &mut [Blocks], walks: &[Walk]) {
    for (blocks, walk) in inputs.iter_mut().zip(walks) {
        blocks.release_before(walk.block);
    }
}

/// Merges whole rows, about [`STRETCH_CELLS`] cells of them, from the inputs' heads on;
/// whether cells remain.
fn stretch(
    inputs: &[Blocks],
    walks: &mut [Walk],
    decider: &Decider<'_>,
    writer: &mut FileWriter,
    dropped: &mut Dropped,
) -> bool {
    let keys = Decoded::default();
    let mut heads: Vec<Head<'_>> = walks
        .iter()
        .zip(inputs)
        .map(|(walk, blocks)| walk.head(blocks, &keys))
        .collect();
    let mut tracker = decider.tracker();
    let mut rows = RowState::default();
    let mut cells = 0;
    // The input yielding next, and the one whose head is the least of the others': after a
    // step, the input stays first while its new head is still below that one's (one
    // comparison, not one per input), as it does for every cell of a row from one run.
    let (mut current, mut rival) = least_two(&heads);
    while let Some(i) = current {
        let (Some(head), Some(walk), Some(blocks)) =
            (heads.get(i).copied(), walks.get_mut(i), inputs.get(i))
        else {
            return false;
        };
        let Some(cell) = head.cell else {
            return false;
        };
        let same_row = rows.enter(cell.row);
        if !same_row && cells >= STRETCH_CELLS {
            return true;
        }
        cells += 1;
        rows.rewrite(cell, head.encoded, same_row, &mut tracker, writer, dropped);
        let next = walk.step(head, blocks, &keys);
        if let Some(h) = heads.get_mut(i) {
            *h = next;
        }
        let other = rival.and_then(|r| Some((r, heads.get(r)?.cell?)));
        let stays = merge::stays_first(next.cell, other, i, false);
        if !stays {
            (current, rival) = least_two(&heads);
        }
    }
    false
}

/// The input whose head sorts first and the one whose head sorts next (at equal keys the
/// earlier input first, as in [`super::store::MergeIter`]).
fn least_two(heads: &[Head<'_>]) -> (Option<usize>, Option<usize>) {
    merge::least_two(&mut heads.iter().map(|h| h.cell), false)
}

/// The merge that frees its inputs against the merge reads use (a [`super::store::MergeIter`]
/// over run cursors, fates decided by one tracker over the whole stream): the same output
/// file, byte for byte, and the same cells dropped.
#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::engine::block::{BloomType, FileOptions};
    use crate::engine::cell::{Cell, CellKind};
    use crate::engine::family::KeepDeletedCells;
    use crate::engine::resolve::earliest_put;
    use crate::engine::store::{RunPlacement, Store};
    use crate::kit::seeded::Gen;

    const KINDS: [CellKind; 5] = CellKind::ALL;

    /// Four overlapping runs of 3,000 cells each (over 64 KB, several parts each): 300 rows,
    /// five columns, timestamps 1 to 20, one cell in eight a marker of some kind, one put in
    /// ten with a TTL of its own.
    fn runs(store: &Store, seed: u64, encoding: Encoding) -> Vec<Run> {
        let mut g = Gen::new(seed);
        let mut seq = 0;
        let options = FileOptions {
            block_size: 256,
            encoding,
            bloom: BloomType::Row,
        };
        let place = RunPlacement {
            table: "t",
            family: &store.family,
            start: &[],
            end: &[],
        };
        (0..4)
            .map(|id| {
                let mut cells = BTreeSet::new();
                while cells.len() < 3_000 {
                    seq += 1;
                    let kind = if g.below(8) == 0 {
                        KINDS[1 + g.below(4) as usize]
                    } else {
                        CellKind::Put
                    };
                    let qualifier = if kind == CellKind::DeleteFamily
                        || kind == CellKind::DeleteFamilyVersion
                    {
                        Vec::new()
                    } else {
                        format!("q{}", g.below(5)).into_bytes()
                    };
                    let value_len = if kind == CellKind::Put {
                        g.below(40)
                    } else {
                        0
                    };
                    cells.insert(Cell {
                        row: format!("row-{:03}", g.below(300)).into_bytes(),
                        family: store.family.clone(),
                        qualifier,
                        timestamp: 1 + g.below(20),
                        kind,
                        seq,
                        ttl_ms: if kind == CellKind::Put && g.below(10) == 0 {
                            5
                        } else {
                            0
                        },
                        value: vec![b'v'; value_len as usize],
                    });
                }
                let cells: Vec<Cell> = cells.into_iter().collect();
                Run::write(id, place, options, &cells)
            })
            .collect()
    }

    /// The output file's bytes and what was dropped, by the merge reads use.
    fn by_read_merge(store: &Store, decider: &Decider<'_>) -> (Vec<u8>, Dropped) {
        let keys = Decoded::default();
        let start = Cell::first_on_row(&[], &store.family);
        let mut w = FileWriter::new(9, "t", &store.family, FileOptions::default());
        let mut tracker = decider.tracker();
        let mut dropped = Dropped::default();
        for cell in store.cursor_at(&start, &keys) {
            let fate = tracker.decide(cell);
            dropped.note(fate);
            if fate.kept() {
                w.add(cell);
            }
        }
        (w.into_file().to_bytes(), dropped)
    }

    #[test]
    fn freeing_its_inputs_a_merge_writes_what_the_read_merge_writes() {
        let mut compared = 0;
        for (seed, encoding) in [
            (1, Encoding::None),
            (2, Encoding::Prefix),
            (3, Encoding::FastDiff),
        ] {
            for pass in [Pass::Minor, Pass::Major] {
                for (versions, keep, ttl) in [
                    (1, KeepDeletedCells::False, None),
                    (3, KeepDeletedCells::True, None),
                    (2, KeepDeletedCells::Ttl, Some(1)),
                ] {
                    let mut family = FamilyDescriptor::new("f");
                    family.max_versions = versions;
                    family.keep_deleted_cells = keep;
                    family.ttl_seconds = ttl;
                    let mut store = Store::new("f");
                    store.runs = runs(&store, seed, encoding)
                        .into_iter()
                        .map(Arc::new)
                        .collect();
                    let keys = Decoded::default();
                    let mut earliest = u64::MAX;
                    for run in &store.runs {
                        run.for_each_in(&keys, |c| earliest = earliest.min(earliest_put([c])));
                    }
                    let decider = Decider {
                        family: &family,
                        rules: Rules::default(),
                        pass,
                        now: 1_010,
                        earliest_put: earliest,
                    };
                    let (expected, expected_dropped) = by_read_merge(&store, &decider);
                    // One input stays shared (another holder keeps it) and is only read.
                    let held = store.runs.get(1).cloned();
                    let inputs = std::mem::take(&mut store.runs)
                        .into_iter()
                        .map(Blocks::take)
                        .collect::<Vec<_>>();
                    assert!(matches!(inputs.get(1), Some(Blocks::Shared(_))));
                    assert!(matches!(inputs.first(), Some(Blocks::Owned(_))));
                    let mut w = FileWriter::new(9, "t", &store.family, FileOptions::default());
                    let dropped = merge(inputs, &decider, &mut w);
                    drop(held);
                    let got = w.into_file().to_bytes();
                    assert_eq!(dropped, expected_dropped, "{encoding:?} {pass:?} {keep:?}");
                    assert!(
                        got == expected,
                        "{encoding:?} {pass:?} {keep:?}: files differ"
                    );
                    assert!(expected_dropped.total() > 0);
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 18);
    }
}
