//! A compaction's merge over input runs it owns: each input's blocks are read once, front to
//! back, and each part of its file (about 64 KB of whole blocks, `block::writer::PART_BYTES`)
//! is freed as soon as the merge has read past its last block, so the allocator hands
//! that memory to the output run being written. A major compaction then needs about its
//! inputs' bytes, not its inputs' and its output's at once.
//!
//! The cells' fates are decided a row at a time (`ScanQueryMatcher` starts over at every
//! row): a row's cells are copied into a small stage first, since deciding borrows the cells
//! of the row while its blocks may already be gone.

use std::cmp::Ordering;
use std::ops::Range;
use std::sync::Arc;

use super::block::{BlockDrain, CellRef, CursorState, Encoding, FileWriter};
use super::cell::CellKind;
use super::family::FamilyDescriptor;
use super::lsm::Dropped;
use super::resolve::{FateTracker, Pass};
use super::rules::Rules;
use super::store::Run;

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

/// One input of the merge: its blocks and where its walk stands. A damaged block is stepped
/// over, as a read steps over it (and a block whose walk meets a cell that does not decode
/// ends there).
struct Input {
    blocks: Blocks,
    block: usize,
    state: CursorState,
    /// The walk is on a cell (the input's head).
    on: bool,
}

impl Input {
    fn new(blocks: Blocks) -> Input {
        let mut input = Input {
            state: CursorState::new(blocks.encoding()),
            blocks,
            block: 0,
            on: false,
        };
        input.release_used();
        input.settle();
        input
    }

    /// The cell the input yields next.
    #[inline]
    fn head(&self) -> Option<CellRef<'_>> {
        if !self.on {
            return None;
        }
        self.state.current(self.blocks.block(self.block)?)
    }

    /// Moves past the head.
    fn step(&mut self) {
        self.on = false;
        if !self.advance_here() {
            self.next_block();
            self.settle();
        }
    }

    /// Moves to the first cell from the current block on, freeing what it passes.
    fn settle(&mut self) {
        while self.block < self.blocks.count() {
            if self.advance_here() {
                return;
            }
            self.next_block();
        }
    }

    /// Steps the cursor within the current block; whether it is on a cell.
    fn advance_here(&mut self) -> bool {
        let Some(b) = self.blocks.block(self.block) else {
            return false;
        };
        self.on = matches!(self.state.advance(b), Ok(true));
        self.on
    }

    /// Goes to the start of the next block, freeing the parts before it.
    fn next_block(&mut self) {
        self.block += 1;
        self.state.restart();
        self.release_used();
    }

    fn release_used(&mut self) {
        self.blocks.release_before(self.block);
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
    /// A fresh tracker of the cells' fates under these rules (one a row: it resets at every row).
    fn tracker(&self) -> FateTracker<'_, 'f> {
        FateTracker::new(
            self.family,
            self.rules,
            self.pass,
            self.now,
            self.earliest_put,
        )
    }
}

/// Merges `inputs` (newest first: at equal keys the earlier input's cell comes first, as in
/// [`super::store::MergeIter`]) into `writer`, keeping the cells `decider` keeps, freeing
/// each input's parts as it reads past them. What it dropped.
pub(crate) fn merge(
    inputs: Vec<Blocks>,
    decider: &Decider<'_>,
    writer: &mut FileWriter,
) -> Dropped {
    let mut inputs: Vec<Input> = inputs.into_iter().map(Input::new).collect();
    let mut stage = RowStage::default();
    let mut dropped = Dropped::default();
    // The input yielding next, and the one whose head is the least of the others': after a
    // step, the input stays first while its new head is still below that one's (one
    // comparison, not one per input), as it does for every cell of a row from one run.
    let (mut current, mut rival) = least_two(&inputs);
    while let Some(i) = current {
        let Some(input) = inputs.get(i) else {
            break;
        };
        if let Some(cell) = input.head() {
            if stage.row.as_slice() != cell.row {
                stage.write(decider, writer, &mut dropped);
                stage.row.clear();
                stage.row.extend_from_slice(cell.row);
            }
            stage.push(cell);
        }
        if let Some(input) = inputs.get_mut(i) {
            input.step();
        }
        let head = inputs.get(i).and_then(Input::head);
        let other = rival.and_then(|r| inputs.get(r)).and_then(Input::head);
        let stays = match (head, other, rival) {
            (Some(a), Some(b), Some(r)) => match a.cmp_key(&b) {
                Ordering::Less => true,
                Ordering::Equal => i < r,
                Ordering::Greater => false,
            },
            (Some(_), None, _) => true,
            (None, _, _) | (Some(_), Some(_), None) => false,
        };
        if !stays {
            (current, rival) = least_two(&inputs);
        }
    }
    stage.write(decider, writer, &mut dropped);
    dropped
}

/// The input whose head sorts first and the one whose head sorts next (at equal keys the
/// earlier input first, as in [`super::store::MergeIter`]).
fn least_two(inputs: &[Input]) -> (Option<usize>, Option<usize>) {
    let mut best: Option<(usize, CellRef<'_>)> = None;
    let mut next: Option<(usize, CellRef<'_>)> = None;
    for (i, input) in inputs.iter().enumerate() {
        let Some(c) = input.head() else {
            continue;
        };
        if best.is_none_or(|(_, b)| c.cmp_key(&b) == Ordering::Less) {
            next = best;
            best = Some((i, c));
        } else if next.is_none_or(|(_, n)| c.cmp_key(&n) == Ordering::Less) {
            next = Some((i, c));
        }
    }
    (best.map(|(i, _)| i), next.map(|(i, _)| i))
}

/// The cells of one row, copied out of their blocks until the row is decided.
#[derive(Default)]
struct RowStage {
    row: Vec<u8>,
    /// The cells' family, qualifier and value bytes, one after another.
    bytes: Vec<u8>,
    cells: Vec<Staged>,
}

/// One staged cell: its parts in [`RowStage::bytes`] and the rest of it.
struct Staged {
    family: Range<usize>,
    qualifier: Range<usize>,
    value: Range<usize>,
    timestamp: u64,
    kind: CellKind,
    seq: u64,
    ttl_ms: u64,
}

impl RowStage {
    fn push(&mut self, c: CellRef<'_>) {
        let mut part = |bytes: &[u8]| {
            let at = self.bytes.len();
            self.bytes.extend_from_slice(bytes);
            at..self.bytes.len()
        };
        let staged = Staged {
            family: part(c.family),
            qualifier: part(c.qualifier),
            value: part(c.value),
            timestamp: c.timestamp,
            kind: c.kind,
            seq: c.seq,
            ttl_ms: c.ttl_ms,
        };
        self.cells.push(staged);
    }

    /// Decides the row's cells in order, writes those kept, and empties the stage.
    fn write(&mut self, decider: &Decider<'_>, writer: &mut FileWriter, dropped: &mut Dropped) {
        {
            let mut tracker = decider.tracker();
            let bytes = &self.bytes;
            let part = |r: &Range<usize>| bytes.get(r.clone()).unwrap_or_default();
            for s in &self.cells {
                let cell = CellRef {
                    row: &self.row,
                    family: part(&s.family),
                    qualifier: part(&s.qualifier),
                    timestamp: s.timestamp,
                    kind: s.kind,
                    seq: s.seq,
                    ttl_ms: s.ttl_ms,
                    value: part(&s.value),
                };
                let fate = tracker.decide(cell);
                dropped.note(fate);
                if fate.kept() {
                    writer.add(cell);
                }
            }
        }
        self.bytes.clear();
        self.cells.clear();
    }
}

/// The merge that frees its inputs against the merge reads use (a [`super::store::MergeIter`]
/// over run cursors, fates decided by one tracker over the whole stream): the same output
/// file, byte for byte, and the same cells dropped.
#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::engine::block::{BloomType, FileOptions};
    use crate::engine::cell::Cell;
    use crate::engine::family::KeepDeletedCells;
    use crate::engine::resolve::earliest_put;
    use crate::engine::store::{Decoded, RunPlacement, Store};
    use crate::kit::seeded::Gen;

    const KINDS: [CellKind; 5] = [
        CellKind::Put,
        CellKind::Delete,
        CellKind::DeleteFamilyVersion,
        CellKind::DeleteColumn,
        CellKind::DeleteFamily,
    ];

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
        let keys = Decoded::with_capacity(0);
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
                    let keys = Decoded::with_capacity(0);
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
