//! A merge of a store's sorted sources (its memstore and runs, forwards or backwards) into
//! one sorted stream of cells read in place: what every read of a store goes through.

use std::sync::Arc;

use super::super::block::{CellRef, ReadCounts};
use super::super::cell::Cell;
use super::Source;

/// One source of a merge and the cell it yields next.
pub type Input<'a> = (Option<CellRef<'a>>, Source<'a>);

/// Merges sorted sources into one sorted stream of cells read in place, remembering which
/// sources it read.
pub struct MergeIter<'a> {
    /// The family the store holds, which the cells copied out of the merge share.
    pub family: &'a Arc<[u8]>,
    /// Each source with the cell it would yield next.
    inputs: Vec<Input<'a>>,
    /// The input whose head the merge yields next.
    current: Option<usize>,
    /// The input whose head comes next after `current`'s among the others: after a step,
    /// `current` stays while its new head still comes before this one's (one comparison, not
    /// one per input), as it does for every cell of a row from one run.
    rival: Option<usize>,
    /// Yield the greatest cell first (the sources run backwards).
    descending: bool,
    /// Bit 0 is set once the memstore has yielded a cell, bit i + 1 once the i-th run source
    /// has.
    pub touched: u64,
    /// The bit of source 0: 1 when the merge has no memstore source (an empty memstore).
    first_bit: u32,
    /// Runs left out before reading (key range, bloom filter).
    skipped: ReadCounts,
}

impl<'a> MergeIter<'a> {
    /// A merge of `sources`, each given as `(None, source)`: the list becomes the merge's own,
    /// each source's head read into it (one list per merge, not one for the sources and
    /// another for their heads).
    pub fn new(family: &'a Arc<[u8]>, mut inputs: Vec<Input<'a>>) -> MergeIter<'a> {
        for (head, source) in &mut inputs {
            *head = source.next();
        }
        let mut merge = MergeIter {
            family,
            inputs,
            current: None,
            rival: None,
            descending: false,
            touched: 0,
            first_bit: 1,
            skipped: ReadCounts::default(),
        };
        if let Some((_, Source::Mem(..) | Source::MemBack(..))) = merge.inputs.first() {
            merge.first_bit = 0;
        }
        (merge.current, merge.rival) = merge.least_two();
        merge
    }

    /// The merge's list of sources, for the next read's merge once emptied.
    pub fn into_sources(self) -> Vec<Input<'a>> {
        self.inputs
    }

    pub(super) fn with_skipped(mut self, skipped: ReadCounts) -> MergeIter<'a> {
        self.skipped = skipped;
        self
    }

    /// What the merge's run sources read, and the runs it left out.
    pub fn counts(&self) -> ReadCounts {
        let mut total = self.skipped;
        for (_, s) in &self.inputs {
            if let Some(c) = s.counts() {
                total.add(c);
            }
        }
        total
    }

    /// A merge of sources that each run backwards: greatest cell first.
    pub fn descending(family: &'a Arc<[u8]>, sources: Vec<Input<'a>>) -> MergeIter<'a> {
        let mut merge = MergeIter {
            descending: true,
            ..MergeIter::new(family, sources)
        };
        (merge.current, merge.rival) = merge.least_two();
        merge
    }

    /// Moves every forward source to its first cell at or after `target`, without reading the
    /// cells in between: a memstore by a new range, a run through its index and block (HBase's
    /// `reseek`, which a filter's `SEEK_NEXT_USING_HINT` triggers). Backward sources do not
    /// move.
    pub fn seek(&mut self, target: &Cell) {
        for (head, source) in &mut self.inputs {
            if head.is_none_or(|c| c.cmp_cell(target) != std::cmp::Ordering::Less) {
                continue;
            }
            match source {
                Source::Mem(set, it) => {
                    *it = set.from(target.as_ref());
                    *head = it.next();
                }
                Source::Run(it) => {
                    it.seek(target.as_ref());
                    *head = it.next();
                }
                Source::MemBack(..) | Source::RunBack(_) => {}
            }
        }
        (self.current, self.rival) = self.least_two();
    }

    /// The next cell without consuming it.
    #[inline]
    pub fn peek(&self) -> Option<CellRef<'a>> {
        self.current
            .and_then(|i| self.inputs.get(i))
            .and_then(|(head, _)| *head)
    }

    /// The row of the next cell, without consuming it.
    #[inline]
    pub fn peek_row(&self) -> Option<&'a [u8]> {
        self.current
            .and_then(|i| self.inputs.get(i))
            .and_then(|(head, _)| head.as_ref())
            .map(|c| c.row)
    }

    /// The next cell when it is a cell of `row`, moving past it; `None`, not moving, when the
    /// next cell is of another row or there is none.
    #[inline]
    pub fn next_in_row(&mut self, row: &[u8]) -> Option<CellRef<'a>> {
        self.next_in_row_with::<false>(row)
    }

    /// [`MergeIter::next_in_row`] for a forward read's store scanner, with each step of the
    /// merge, its source and the block compiled into the caller (see [`MergeIter::step`]).
    #[inline(always)]
    pub fn next_in_row_read(&mut self, row: &[u8]) -> Option<CellRef<'a>> {
        self.next_in_row_with::<true>(row)
    }

    #[inline(always)]
    fn next_in_row_with<const READ: bool>(&mut self, row: &[u8]) -> Option<CellRef<'a>> {
        if self.peek_row()? != row {
            return None;
        }
        self.step::<READ>()
    }

    /// The input whose head comes first, and the one whose head comes next.
    fn least_two(&self) -> (Option<usize>, Option<usize>) {
        least_two(
            &mut self.inputs.iter().map(|(head, _)| *head),
            self.descending,
        )
    }
}

/// Of `heads` (an input's next cell each, `None` for an input run out), the one that comes
/// first (the least cell, or the greatest when `descending`) and the one that comes next; at
/// equal keys the earlier input first. What a merge yields from, and the head it must stay
/// ahead of. One copy for every merge: it runs only when the input yielding changes.
pub(crate) fn least_two(
    heads: &mut dyn Iterator<Item = Option<CellRef<'_>>>,
    descending: bool,
) -> (Option<usize>, Option<usize>) {
    let first = first_order(descending);
    let mut best: Option<(usize, CellRef<'_>)> = None;
    let mut next: Option<(usize, CellRef<'_>)> = None;
    for (i, head) in heads.enumerate() {
        let Some(c) = head else {
            continue;
        };
        if best.is_none_or(|(_, b)| c.cmp_key(&b) == first) {
            next = best;
            best = Some((i, c));
        } else if next.is_none_or(|(_, n)| c.cmp_key(&n) == first) {
            next = Some((i, c));
        }
    }
    (best.map(|(i, _)| i), next.map(|(i, _)| i))
}

/// Whether input `i`, after a step to its `next` head, still comes first against `rival`
/// (the input whose head came next, and that head): its head comes before the rival's, or
/// equals it from an earlier input. What lets a merge keep yielding from one input after
/// one comparison.
#[inline]
pub(crate) fn stays_first(
    next: Option<CellRef<'_>>,
    rival: Option<(usize, CellRef<'_>)>,
    i: usize,
    descending: bool,
) -> bool {
    match (next, rival) {
        (Some(a), Some((r, b))) => match a.cmp_key(&b) {
            std::cmp::Ordering::Equal => i < r,
            ord => ord == first_order(descending),
        },
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// How a cell that comes first compares to the others: less, or greater when `descending`.
#[inline]
fn first_order(descending: bool) -> std::cmp::Ordering {
    if descending {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Less
    }
}

impl<'a> MergeIter<'a> {
    /// The next cell. With `READ` (a read's store scanner, cell after cell), a run's step down
    /// to the block's decoding is compiled in: the cell's parts then stay in locals instead
    /// of being copied from one call's result into the next, which in Chromium made a full
    /// scan 8% and a 10-row scan 5% faster (`benches/wasm`, fastest of four pages each) for
    /// 3 KB more of WebAssembly. Every other caller shares the calls.
    #[inline(always)]
    fn step<const READ: bool>(&mut self) -> Option<CellRef<'a>> {
        let i = self.current?;
        let single = self.inputs.len() == 1;
        let (head, source) = self.inputs.get_mut(i)?;
        let out = std::mem::replace(head, source.step::<READ>());
        let ended = head.is_none();
        let bit = i.saturating_add(self.first_bit as usize);
        if bit < 64 {
            self.touched |= 1 << bit;
        }
        // One source (a store's one run, its memstore empty): its next head is the merge's.
        if single {
            self.current = (!ended).then_some(i);
            return out;
        }
        let next = self.inputs.get(i).and_then(|(h, _)| *h);
        let rival = self.rival.and_then(|r| Some((r, self.inputs.get(r)?.0?)));
        let stays = stays_first(next, rival, i, self.descending);
        if !stays {
            (self.current, self.rival) = self.least_two();
        }
        out
    }
}

impl<'a> Iterator for MergeIter<'a> {
    type Item = CellRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<CellRef<'a>> {
        self.step::<false>()
    }
}
