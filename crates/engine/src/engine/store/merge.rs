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
    /// The input whose head the merge yields next, found again whenever a head changes.
    current: Option<usize>,
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
            descending: false,
            touched: 0,
            first_bit: 1,
            skipped: ReadCounts::default(),
        };
        if let Some((_, Source::Mem(..) | Source::MemBack(..))) = merge.inputs.first() {
            merge.first_bit = 0;
        }
        merge.current = merge.min_index();
        merge
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
        merge.current = merge.min_index();
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
        self.current = self.min_index();
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

    #[inline]
    fn min_index(&self) -> Option<usize> {
        let mut best: Option<(usize, &CellRef<'a>)> = None;
        for (i, (head, _)) in self.inputs.iter().enumerate() {
            if let Some(c) = head {
                let better = best.is_none_or(|(_, b)| {
                    let ord = c.cmp_key(b);
                    if self.descending {
                        ord == std::cmp::Ordering::Greater
                    } else {
                        ord == std::cmp::Ordering::Less
                    }
                });
                if better {
                    best = Some((i, c));
                }
            }
        }
        best.map(|(i, _)| i)
    }
}

impl<'a> Iterator for MergeIter<'a> {
    type Item = CellRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<CellRef<'a>> {
        let i = self.current?;
        let single = self.inputs.len() == 1;
        let (head, source) = self.inputs.get_mut(i)?;
        let out = std::mem::replace(head, source.next());
        let ended = head.is_none();
        let bit = i.saturating_add(self.first_bit as usize);
        if bit < 64 {
            self.touched |= 1 << bit;
        }
        // One source (a store's one run, its memstore empty): its next head is the merge's.
        self.current = if single {
            (!ended).then_some(i)
        } else {
            self.min_index()
        };
        out
    }
}
