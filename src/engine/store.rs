//! A store holds one family of one region: a memstore taking writes, and immutable sorted runs
//! that flushes produce and compactions merge.

use std::collections::BTreeSet;
use std::ops::Bound;
use std::sync::Arc;

use super::cell::Cell;
use super::family::FamilyDescriptor;
use super::lsm::{Dropped, Part, RunSummary};
use super::resolve::{CompactionResolver, Pass};

/// An immutable sorted run of cells: what a flush or a compaction writes (HBase's HFile).
#[derive(Debug)]
pub struct Run {
    pub id: u64,
    pub cells: Vec<Cell>,
    pub bytes: usize,
}

impl Run {
    pub fn new(id: u64, cells: Vec<Cell>) -> Run {
        let bytes = cells.iter().map(Cell::size).sum();
        Run { id, cells, bytes }
    }
}

/// One family's data in one region.
#[derive(Debug)]
pub struct Store {
    pub family: Arc<[u8]>,
    pub memstore: BTreeSet<Cell>,
    pub memstore_bytes: usize,
    /// Newest first.
    pub runs: Vec<Arc<Run>>,
}

impl Store {
    pub fn new(family: &str) -> Store {
        Store {
            family: Arc::from(family.as_bytes()),
            memstore: BTreeSet::new(),
            memstore_bytes: 0,
            runs: Vec::new(),
        }
    }

    pub fn insert(&mut self, cell: Cell) {
        self.memstore_bytes += cell.size();
        self.memstore.insert(cell);
    }

    /// Bytes held in runs and memstore.
    pub fn bytes(&self) -> usize {
        self.memstore_bytes + self.runs.iter().map(|r| r.bytes).sum::<usize>()
    }

    pub fn cell_count(&self) -> usize {
        self.memstore.len() + self.runs.iter().map(|r| r.cells.len()).sum::<usize>()
    }

    /// A merged cursor over memstore and runs, from the first cell of `row` on.
    pub fn cursor_from(&self, row: &[u8]) -> MergeIter<'_> {
        self.cursor_at(&Cell::first_on_row(row, &self.family))
    }

    /// A merged cursor from `probe` on (a cell that sorts first on its row, family ignored).
    pub fn cursor_at(&self, probe: &Cell) -> MergeIter<'_> {
        let mut sources = Vec::with_capacity(self.runs.len() + 1);
        sources.push(Source::Mem(
            &self.memstore,
            self.memstore
                .range((Bound::Included(probe), Bound::Unbounded)),
        ));
        for run in &self.runs {
            let at = run
                .cells
                .partition_point(|c| c.row.as_slice() < probe.row.as_slice());
            sources.push(Source::Run(run.cells.get(at..).unwrap_or(&[]).iter()));
        }
        MergeIter::new(sources)
    }

    /// A merged cursor running backwards from the last cell before the probe's row (or from
    /// the very end without a probe): greatest cell first.
    pub fn cursor_back(&self, bound: Option<&Cell>) -> MergeIter<'_> {
        let mut sources = Vec::with_capacity(self.runs.len() + 1);
        match bound {
            Some(probe) => sources.push(Source::MemBack(
                self.memstore
                    .range((Bound::Unbounded, Bound::Excluded(probe)))
                    .rev(),
            )),
            None => sources.push(Source::MemBack(self.memstore.range::<Cell, _>(..).rev())),
        }
        for run in &self.runs {
            let at = match bound {
                Some(probe) => run
                    .cells
                    .partition_point(|c| c.row.as_slice() < probe.row.as_slice()),
                None => run.cells.len(),
            };
            sources.push(Source::RunBack(
                run.cells.get(..at).unwrap_or(&[]).iter().rev(),
            ));
        }
        MergeIter::descending(sources)
    }

    /// A summary of one run of this store in `region`.
    pub fn summary(&self, run: &Run, region: u64) -> RunSummary {
        RunSummary::of(
            Part::Run(run.id),
            region,
            &self.family_name(),
            &run.cells,
            run.bytes,
        )
    }

    /// The family's name as text.
    pub fn family_name(&self) -> String {
        String::from_utf8_lossy(&self.family).into_owned()
    }

    /// Writes the memstore out as a new run, applying versions and TTL but keeping delete
    /// markers (HBase flushes retain deletes). `None` when the memstore is empty.
    pub fn flush(
        &mut self,
        family: &FamilyDescriptor,
        run_id: u64,
        now: u64,
        region: u64,
    ) -> Option<Rewrite> {
        if self.memstore.is_empty() {
            return None;
        }
        let mem: Vec<Cell> = std::mem::take(&mut self.memstore).into_iter().collect();
        let input = RunSummary::of(
            Part::Memstore,
            region,
            &self.family_name(),
            &mem,
            self.memstore_bytes,
        );
        self.memstore_bytes = 0;
        let (kept, fates) = CompactionResolver::apply(mem, family, Pass::Flush, now);
        let run = Run::new(run_id, kept);
        Some(self.install(vec![input], run, Dropped::count(&fates), region, true))
    }

    /// Puts a rewrite's output run in place (first when `newest`, else as the only run) and
    /// describes the rewrite.
    fn install(
        &mut self,
        inputs: Vec<RunSummary>,
        run: Run,
        dropped: Dropped,
        region: u64,
        newest: bool,
    ) -> Rewrite {
        let bytes = run.bytes;
        let mut outputs = Vec::new();
        if !newest {
            self.runs.clear();
        }
        if !run.cells.is_empty() {
            outputs.push(self.summary(&run, region));
            self.runs.insert(0, Arc::new(run));
        }
        Rewrite {
            inputs,
            outputs,
            dropped,
            bytes,
        }
    }

    /// Merges all runs into one. A minor compaction keeps delete markers; a major one drops
    /// them with the cells they mask (unless KEEP_DELETED_CELLS). `None` when there is
    /// nothing to merge.
    pub fn compact(
        &mut self,
        family: &FamilyDescriptor,
        run_id: u64,
        major: bool,
        now: u64,
        region: u64,
    ) -> Option<Rewrite> {
        if self.runs.is_empty() || (!major && self.runs.len() < 2) {
            return None;
        }
        let inputs = self.runs.iter().map(|r| self.summary(r, region)).collect();
        let merged: Vec<Cell> = {
            let sources = self
                .runs
                .iter()
                .map(|r| Source::Run(r.cells.iter()))
                .collect();
            MergeIter::new(sources).cloned().collect()
        };
        let pass = if major { Pass::Major } else { Pass::Minor };
        let (kept, fates) = CompactionResolver::apply(merged, family, pass, now);
        let run = Run::new(run_id, kept);
        Some(self.install(inputs, run, Dropped::count(&fates), region, false))
    }

    /// Moves every cell with a row at or above `at` into a new store (memstore must be empty).
    pub fn split_off(&mut self, at: &[u8], run_id: &mut dyn FnMut() -> u64) -> Store {
        let mut upper = Store {
            family: self.family.clone(),
            memstore: BTreeSet::new(),
            memstore_bytes: 0,
            runs: Vec::new(),
        };
        let probe = Cell::first_on_row(at, &self.family);
        let upper_mem = self.memstore.split_off(&probe);
        upper.memstore_bytes = upper_mem.iter().map(Cell::size).sum();
        upper.memstore = upper_mem;
        self.memstore_bytes = self.memstore.iter().map(Cell::size).sum();
        let runs = std::mem::take(&mut self.runs);
        for run in runs {
            let cut = run.cells.partition_point(|c| c.row.as_slice() < at);
            if cut == run.cells.len() {
                self.runs.push(run);
            } else if cut == 0 {
                upper.runs.push(run);
            } else {
                let lo: Vec<Cell> = run.cells.get(..cut).unwrap_or(&[]).to_vec();
                let hi: Vec<Cell> = run.cells.get(cut..).unwrap_or(&[]).to_vec();
                self.runs.push(Arc::new(Run::new(run_id(), lo)));
                upper.runs.push(Arc::new(Run::new(run_id(), hi)));
            }
        }
        upper
    }
}

/// What one flush or compaction of a store did.
#[derive(Debug)]
pub struct Rewrite {
    pub inputs: Vec<RunSummary>,
    pub outputs: Vec<RunSummary>,
    pub dropped: Dropped,
    /// Bytes written.
    pub bytes: usize,
}

/// One sorted input of a merge, read forwards or backwards. A forward memstore source keeps
/// its set, to seek in it.
pub enum Source<'a> {
    Mem(
        &'a BTreeSet<Cell>,
        std::collections::btree_set::Range<'a, Cell>,
    ),
    Run(std::slice::Iter<'a, Cell>),
    MemBack(std::iter::Rev<std::collections::btree_set::Range<'a, Cell>>),
    RunBack(std::iter::Rev<std::slice::Iter<'a, Cell>>),
}

impl<'a> Iterator for Source<'a> {
    type Item = &'a Cell;
    fn next(&mut self) -> Option<&'a Cell> {
        match self {
            Source::Mem(_, it) => it.next(),
            Source::Run(it) => it.next(),
            Source::MemBack(it) => it.next(),
            Source::RunBack(it) => it.next(),
        }
    }
}

/// Merges sorted sources into one sorted stream of cells, remembering which sources it read.
pub struct MergeIter<'a> {
    /// Each source with the cell it would yield next.
    inputs: Vec<(Option<&'a Cell>, Source<'a>)>,
    /// Yield the greatest cell first (the sources run backwards).
    descending: bool,
    /// Bit i is set once source i has yielded a cell (0 is the memstore when present).
    pub touched: u64,
}

impl<'a> MergeIter<'a> {
    pub fn new(sources: Vec<Source<'a>>) -> MergeIter<'a> {
        let inputs = sources
            .into_iter()
            .map(|mut s| {
                let head = s.next();
                (head, s)
            })
            .collect();
        MergeIter {
            inputs,
            descending: false,
            touched: 0,
        }
    }

    /// A merge of sources that each run backwards: greatest cell first.
    pub fn descending(sources: Vec<Source<'a>>) -> MergeIter<'a> {
        MergeIter {
            descending: true,
            ..MergeIter::new(sources)
        }
    }

    /// Moves every forward source to its first cell at or after `target`, without reading the
    /// cells in between: a memstore by a new range, a run by binary search (HBase's `reseek`,
    /// which a filter's `SEEK_NEXT_USING_HINT` triggers). Backward sources do not move.
    pub fn seek(&mut self, target: &Cell) {
        for (head, source) in &mut self.inputs {
            if head.is_none_or(|c| c >= target) {
                continue;
            }
            match source {
                Source::Mem(set, it) => {
                    *it = set.range((Bound::Included(target), Bound::Unbounded));
                    *head = it.next();
                }
                Source::Run(it) => {
                    let rest = it.as_slice();
                    let at = rest.partition_point(|c| c < target);
                    *it = rest.get(at..).unwrap_or(&[]).iter();
                    *head = it.next();
                }
                Source::MemBack(_) | Source::RunBack(_) => {}
            }
        }
    }

    /// The next cell without consuming it.
    pub fn peek(&self) -> Option<&'a Cell> {
        self.min_index()
            .and_then(|i| self.inputs.get(i))
            .and_then(|(head, _)| *head)
    }

    fn min_index(&self) -> Option<usize> {
        let mut best: Option<(usize, &Cell)> = None;
        for (i, (head, _)) in self.inputs.iter().enumerate() {
            if let Some(c) = head {
                if best.is_none_or(|(_, b)| if self.descending { *c > b } else { *c < b }) {
                    best = Some((i, c));
                }
            }
        }
        best.map(|(i, _)| i)
    }
}

impl<'a> Iterator for MergeIter<'a> {
    type Item = &'a Cell;
    fn next(&mut self) -> Option<&'a Cell> {
        let i = self.min_index()?;
        let (head, source) = self.inputs.get_mut(i)?;
        let out = std::mem::replace(head, source.next());
        if i < 64 {
            self.touched |= 1 << i;
        }
        out
    }
}
