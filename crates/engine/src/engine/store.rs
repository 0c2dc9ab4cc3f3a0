//! A store holds one family of one region: a memstore taking writes, and immutable sorted runs
//! that flushes produce and compactions merge. A run is a block file (see [`super::block`]):
//! reads seek through its block index, skip it when its key range or bloom filter rules a row
//! out, and read the cells of the blocks they reach in place: a merge yields cells borrowed from
//! the memstore and the block bytes, and only the cells a read returns are copied.

use std::sync::Arc;

use super::block::index_key_at_or_before;
pub use super::block::Decoded;
use super::block::{
    none_row_size, BlockCursor, BlockDrain, BlockFile, CellRef, CountedRows, Encoding, FileOptions,
    FileWriter, FormatError, HashedRow, ReadCounts,
};
use super::cell::Cell;
use super::drain::{self, Blocks, Decider};
use super::family::FamilyDescriptor;
use super::lsm::{Dropped, Part, RunSummary};
use super::resolve::{earliest_put, FateTracker, Pass};
use super::rules::Rules;

mod memstore;
pub(crate) mod merge;

pub use memstore::Memstore;
pub use merge::{Input, MergeIter};

/// An immutable sorted run of cells: what a flush or a compaction writes (HBase's HFile), as
/// the bytes of a block file.
#[derive(Debug)]
pub struct Run {
    pub id: u64,
    /// The cells' bytes, counted as [`Cell::size`] counts them (region sizes, statistics).
    pub bytes: usize,
    file: BlockFile,
    family: Arc<[u8]>,
    /// The rows its writer counted, for a run written here (a flush, a compaction, a split):
    /// what a save stores behind it without walking its cells. `None` for a run read back
    /// from storage.
    counted: Option<CountedRows>,
}

/// Where a run is written for: table, family and the region's key range.
#[derive(Clone, Copy, Debug)]
pub struct RunPlacement<'a> {
    pub table: &'a str,
    pub family: &'a Arc<[u8]>,
    pub start: &'a [u8],
    pub end: &'a [u8],
}

impl Run {
    /// A run of `cells` (in cell order) with the default block options and no place.
    pub fn new(id: u64, cells: Vec<Cell>) -> Run {
        let family: Arc<[u8]> = cells
            .first()
            .map(|c| c.family.clone())
            .unwrap_or_else(|| Arc::from(&b""[..]));
        let place = RunPlacement {
            table: "",
            family: &family,
            start: &[],
            end: &[],
        };
        Run::write(id, place, FileOptions::default(), &cells)
    }

    /// Writes `cells` (in cell order) as a block file.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn write(id: u64, place: RunPlacement<'_>, options: FileOptions, cells: &[Cell]) -> Run {
        let mut w = Run::writer(id, place, options);
        for c in cells {
            w.add(c.as_ref());
        }
        Run::from_writer(w)
    }

    /// The run a writer has written, with the rows it counted.
    pub fn from_writer(w: FileWriter) -> Run {
        let (file, rows) = w.into_counted();
        Run {
            counted: Some(rows),
            ..Run::from_file(file)
        }
    }

    /// The rows its writer counted (see [`CountedRows`]), for a run written here; each one
    /// a stretch [`Run::for_each_row_stretch`] gives.
    pub fn counted_rows(&self) -> Option<&CountedRows> {
        self.counted.as_ref()
    }

    /// A writer of a run's block file for `place`.
    pub fn writer(id: u64, place: RunPlacement<'_>, options: FileOptions) -> FileWriter {
        FileWriter::new(id, place.table, place.family, options).region(place.start, place.end)
    }

    /// A run over an opened block file (the file's header gives id and family).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_file(file: BlockFile) -> Run {
        let h = file.header();
        Run {
            id: h.id,
            bytes: usize::try_from(h.cell_bytes).unwrap_or(usize::MAX),
            family: Arc::from(h.family.as_slice()),
            file,
            counted: None,
        }
    }

    /// The block file.
    pub fn file(&self) -> &BlockFile {
        &self.file
    }

    /// The run's blocks, to be read once and freed as read (see [`BlockDrain`]).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn into_drain(self) -> BlockDrain {
        self.file.into_drain()
    }

    /// Cells in the run.
    pub fn len(&self) -> usize {
        usize::try_from(self.file.header().cells).unwrap_or(usize::MAX)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn first_row(&self) -> &[u8] {
        &self.file.header().first_row
    }

    pub fn last_row(&self) -> &[u8] {
        &self.file.header().last_row
    }

    /// Walks every cell in place, block by block (damaged blocks are stepped over), the cells
    /// borrowed for as long as the run (keys a delta encoding rebuilt are kept in `keys`).
    pub fn for_each_in<'a>(&'a self, keys: &'a Decoded, mut f: impl FnMut(CellRef<'a>)) {
        for i in 0..self.file.block_count() {
            let Ok(mut cursor) = self.file.block_cursor(i) else {
                continue;
            };
            while let Some(c) = cursor.next_in(keys) {
                f(c);
            }
        }
    }

    /// Walks every cell's row and size ([`CellRef::size`]) as [`Run::for_each_in`] walks the
    /// cells (damaged blocks stepped over, a block's walk ending at a cell that does not
    /// decode), reading no more of a `NONE`-encoded cell than that.
    pub fn for_each_row_size<'a>(&'a self, keys: &'a Decoded, mut f: impl FnMut(&'a [u8], usize)) {
        if self.file.header().options.encoding != Encoding::None {
            self.for_each_in(keys, |c| f(c.row, c.size()));
            return;
        }
        for i in 0..self.file.block_count() {
            let Ok(block) = self.file.block(i) else {
                continue;
            };
            let mut at = 0;
            while at < block.len() {
                match none_row_size(block, &mut at) {
                    Some((row, size)) => f(row, size),
                    None => break,
                }
            }
        }
    }

    /// Per stretch of consecutive cells of one row, in the order [`Run::for_each_row_size`]
    /// walks them: the row, its cells and their bytes. What a table's key index is counted
    /// from, whether now or when the run was stored.
    pub fn for_each_row_stretch<'a>(
        &'a self,
        keys: &'a Decoded,
        mut f: impl FnMut(&'a [u8], u32, u64),
    ) {
        let mut stretch: Option<(&'a [u8], u32, u64)> = None;
        self.for_each_row_size(keys, |row, size| match &mut stretch {
            Some((r, cells, bytes)) if *r == row => {
                *cells = cells.saturating_add(1);
                *bytes += size as u64;
            }
            _ => {
                if let Some((r, cells, bytes)) = stretch.replace((row, 1, size as u64)) {
                    f(r, cells, bytes);
                }
            }
        });
        if let Some((r, cells, bytes)) = stretch {
            f(r, cells, bytes);
        }
    }

    /// Every cell, copied out (damaged blocks left out).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::with_capacity(self.len());
        let keys = Decoded::default();
        self.for_each_in(&keys, |c| out.push(c.to_cell(&self.family)));
        out
    }

    /// The blocks whose checksum does not match.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn damaged_blocks(&self) -> Vec<FormatError> {
        self.file.verify()
    }
}

/// One family's data in one region.
#[derive(Debug)]
pub struct Store {
    pub family: Arc<[u8]>,
    pub memstore: Memstore,
    pub memstore_bytes: usize,
    /// Newest first.
    pub runs: Vec<Arc<Run>>,
}

impl Store {
    pub fn new(family: &str) -> Store {
        let family: Arc<[u8]> = Arc::from(family.as_bytes());
        Store {
            memstore: Memstore::new(family.clone()),
            family,
            memstore_bytes: 0,
            runs: Vec::new(),
        }
    }

    /// Writes a cell of this store's family into the memstore.
    pub fn insert(&mut self, cell: CellRef<'_>) {
        self.memstore_bytes += cell.size();
        self.memstore.insert(cell);
    }

    /// The memstore's cells in order, read in place.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn memstore_cells(&self) -> impl Iterator<Item = CellRef<'_>> {
        self.memstore.iter()
    }

    /// Bytes held in runs and memstore.
    pub fn bytes(&self) -> usize {
        self.memstore_bytes + self.runs.iter().map(|r| r.bytes).sum::<usize>()
    }

    pub fn cell_count(&self) -> usize {
        self.memstore.len() + self.runs.iter().map(|r| r.len()).sum::<usize>()
    }

    /// A merged cursor over memstore and runs, from the first cell of `row` on. With a
    /// `ceiling` (a scan's stop row, exclusive), a run whose first cell from `row` on is of
    /// the ceiling's row or after is left out once its block is read: that cell would end the
    /// scan, and the run has nothing else for it.
    /// The merge gathers its sources in `sources` (empty), a list kept from an earlier read.
    pub fn cursor_from<'a>(
        &'a self,
        row: &[u8],
        ceiling: Option<&[u8]>,
        arena: &'a Decoded,
        sources: Vec<Input<'a>>,
    ) -> MergeIter<'a> {
        let probe = CellRef::first_on_row(row, &self.family);
        self.cursor_at_key(probe, ceiling, arena, sources)
    }

    /// A merged cursor from `probe` on (a cell that sorts first on its row, family ignored).
    /// Runs whose last row is before the probe's are skipped unread.
    pub fn cursor_at<'a>(&'a self, probe: &Cell, arena: &'a Decoded) -> MergeIter<'a> {
        self.cursor_at_key(probe.as_ref(), None, arena, Vec::new())
    }

    fn cursor_at_key<'a>(
        &'a self,
        probe: CellRef<'_>,
        ceiling: Option<&[u8]>,
        arena: &'a Decoded,
        mut sources: Vec<Input<'a>>,
    ) -> MergeIter<'a> {
        let mut skipped = ReadCounts::default();
        sources.reserve(self.runs.len() + 1);
        if let Some(mem) = self.memstore_from(probe) {
            let past = |c: &[u8]| match &mem {
                Source::Mem(_, cells) => cells.clone().next().is_none_or(|h| h.row >= c),
                _ => false,
            };
            if !ceiling.is_some_and(past) {
                sources.push((None, mem));
            }
        }
        for run in &self.runs {
            if run.is_empty() || run.last_row() < probe.row {
                skipped.runs_skipped_range += 1;
                continue;
            }
            let cursor = RunCursor::new(run, arena, probe);
            if let (Some(head), Some(ceiling)) = (cursor.pending, ceiling) {
                if head.row >= ceiling {
                    skipped.add(&cursor.counts);
                    continue;
                }
            }
            sources.push((None, Source::Run(cursor)));
        }
        MergeIter::new(&self.family, sources).with_skipped(skipped)
    }

    /// The memstore's cells from `probe` on as a merge's first source; none when the memstore
    /// is empty (most reads of data in runs), so that the merge reads only the runs and makes
    /// no owned probe for the memstore's set.
    fn memstore_from<'a>(&'a self, probe: CellRef<'_>) -> Option<Source<'a>> {
        if self.memstore.is_empty() {
            return None;
        }
        Some(Source::Mem(&self.memstore, self.memstore.from(probe)))
    }

    /// A merged cursor over the cells of one row, for a get: runs whose key range or bloom
    /// filter (`ROW`, or `ROWCOL` when the get names its columns) rules the row out are
    /// skipped without reading a block.
    /// The merge gathers its sources in `sources` (empty), a list kept from an earlier read.
    pub fn cursor_get<'a>(
        &'a self,
        row: &[u8],
        columns: Option<&[Vec<u8>]>,
        arena: &'a Decoded,
        mut sources: Vec<Input<'a>>,
    ) -> MergeIter<'a> {
        let probe = CellRef::first_on_row(row, &self.family);
        let mut skipped = ReadCounts::default();
        sources.reserve(self.runs.len() + 1);
        sources.extend(self.memstore_from(probe).map(|m| (None, m)));
        let hashed = HashedRow::new(row);
        for run in &self.runs {
            if !run.file.may_hold_row(hashed, &mut skipped) {
                continue;
            }
            if let Some(qs) = columns {
                if !run.file.may_hold_columns(row, qs, &mut skipped) {
                    continue;
                }
            }
            sources.push((
                None,
                Source::Run(RunCursor::at_row(run, arena, hashed, &self.family)),
            ));
        }
        MergeIter::new(&self.family, sources).with_skipped(skipped)
    }

    /// A merged cursor running backwards from the last cell before the probe's row (or from
    /// the very end without a probe): greatest cell first. Runs whose first row is at or past
    /// the probe's are skipped unread. The merge gathers its sources in `sources` (empty).
    pub fn cursor_back<'a>(
        &'a self,
        bound: Option<CellRef<'_>>,
        floor: Option<&[u8]>,
        arena: &'a Decoded,
        mut sources: Vec<Input<'a>>,
        cell_list: &dyn Fn() -> Vec<CellRef<'a>>,
    ) -> MergeIter<'a> {
        let mut skipped = ReadCounts::default();
        sources.reserve(self.runs.len() + 1);
        match bound {
            _ if self.memstore.is_empty() => {}
            Some(probe) => {
                let cells = self.memstore.before(probe).rev();
                // A memstore whose greatest cell before the bound is below the floor has
                // nothing for the read.
                if !floor.is_some_and(|f| cells.clone().next().is_none_or(|c| c.row < f)) {
                    sources.push((None, Source::MemBack(cells)));
                }
            }
            None => sources.push((None, Source::MemBack(self.memstore.iter().rev()))),
        }
        for run in &self.runs {
            if run.is_empty() || bound.is_some_and(|p| run.first_row() >= p.row) {
                skipped.runs_skipped_range += 1;
                continue;
            }
            // The block the bound falls in, sought once for both.
            let at = bound.map(|probe| (probe, run.file.seek_key(probe)));
            if let Some(read) = at
                .zip(floor)
                .and_then(|((probe, b), floor)| RunBackCursor::nothing_from(run, b, probe, floor))
            {
                skipped.add(&read);
                continue;
            }
            sources.push((
                None,
                Source::RunBack(RunBackCursor::new(run, arena, at, cell_list())),
            ));
        }
        MergeIter::descending(&self.family, sources).with_skipped(skipped)
    }

    /// The stored cells of `row`, copied out, each with where it sits, memstore first, then
    /// the runs newest first (runs whose key range or bloom rules the row out are not read).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn row_cells(&self, row: &[u8]) -> Vec<(Cell, Part)> {
        let probe = CellRef::first_on_row(row, &self.family);
        let mut out: Vec<(Cell, Part)> = self
            .memstore
            .from(probe)
            .take_while(|c| c.row == row)
            .map(|c| (c.to_cell(&self.family), Part::Memstore))
            .collect();
        let mut counts = ReadCounts::default();
        let keys = Decoded::default();
        let hashed = HashedRow::new(row);
        for run in &self.runs {
            if !run.file.may_hold_row(hashed, &mut counts) {
                continue;
            }
            out.extend(
                RunCursor::at_row(run, &keys, hashed, &self.family)
                    .take_while(|c| c.row == row)
                    .map(|c| (c.to_cell(&self.family), Part::Run(run.id))),
            );
        }
        out
    }

    /// A summary of one run of this store in `region`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn summary(&self, run: &Run, region: u64) -> RunSummary {
        RunSummary {
            part: Part::Run(run.id),
            region,
            family: self.family_name(),
            first_row: run.first_row().to_vec(),
            last_row: run.last_row().to_vec(),
            bytes: run.bytes,
            cells: run.len(),
        }
    }

    /// The family's name as text.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn family_name(&self) -> String {
        String::from_utf8_lossy(&self.family).into_owned()
    }

    /// Writes the memstore out as a new run, applying versions and TTL but keeping delete
    /// markers (HBase flushes retain deletes). `None` when the memstore is empty.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn flush(
        &mut self,
        family: &FamilyDescriptor,
        rules: Rules,
        run_id: u64,
        now: u64,
        region: u64,
        place: (&str, &[u8], &[u8]),
    ) -> Option<Rewrite> {
        if self.memstore.is_empty() {
            return None;
        }
        let mem = std::mem::replace(&mut self.memstore, Memstore::new(self.family.clone()));
        let (first_row, last_row) = mem
            .first_and_last_rows()
            .map(|(first, last)| (first.to_vec(), last.to_vec()))
            .unwrap_or_default();
        let input = RunSummary {
            part: Part::Memstore,
            region,
            family: self.family_name(),
            first_row,
            last_row,
            bytes: self.memstore_bytes,
            cells: mem.len(),
        };
        let tracker = FateTracker::new(family, rules, Pass::Flush, now, u64::MAX);
        let cells = mem.iter();
        let (run, dropped) = self.rewrite(run_id, place, self.memstore_bytes, tracker, cells);
        self.memstore_bytes = 0;
        Some(self.install(vec![input], run, dropped, region, true))
    }

    /// Writes the cells of a sorted stream that a flush or compaction keeps as a run of this
    /// store, as they come: each cell is read in place, its fate decided, and a kept one
    /// encoded straight into the run's blocks. `bytes` is about how much the run will hold.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn rewrite<'c>(
        &self,
        id: u64,
        (table, start, end): (&str, &[u8], &[u8]),
        bytes: usize,
        mut pass: FateTracker<'c, '_>,
        cells: impl Iterator<Item = CellRef<'c>>,
    ) -> (Run, Dropped) {
        let place = RunPlacement {
            table,
            family: &self.family,
            start,
            end,
        };
        let mut w = Run::writer(id, place, pass.family().file_options()).reserve(bytes);
        let mut dropped = Dropped::default();
        let mut rows = drain::RowState::default();
        for cell in cells {
            let same_row = rows.enter(cell.row);
            rows.rewrite(cell, None, same_row, &mut pass, &mut w, &mut dropped);
        }
        (Run::from_writer(w), dropped)
    }

    /// Puts a rewrite's output run in place (first when `newest`, else as the only run) and
    /// describes the rewrite.
    #[cfg_attr(rowkey_cold, optimize(size))]
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
        if !run.is_empty() {
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
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn compact(
        &mut self,
        family: &FamilyDescriptor,
        rules: Rules,
        run_id: u64,
        major: bool,
        now: u64,
        region: u64,
        place: (&str, &[u8], &[u8]),
    ) -> Option<Rewrite> {
        if self.runs.is_empty() || (!major && self.runs.len() < 2) {
            return None;
        }
        let inputs = self.runs.iter().map(|r| self.summary(r, region)).collect();
        let pass = if major { Pass::Major } else { Pass::Minor };
        // Only a major compaction that keeps deleted cells asks for the inputs' oldest put.
        let earliest = if major && family.keep_deleted_cells.keeps() {
            let keys = Decoded::default();
            let mut earliest = u64::MAX;
            for run in &self.runs {
                run.for_each_in(&keys, |c| earliest = earliest.min(earliest_put([c])));
            }
            earliest
        } else {
            u64::MAX
        };
        let bytes = self.runs.iter().map(|r| r.file().len()).sum();
        // The merge takes the runs and frees each part of them once read: the output grows
        // into the memory its inputs give back.
        let sources = std::mem::take(&mut self.runs)
            .into_iter()
            .map(Blocks::take)
            .collect();
        let decider = Decider {
            family,
            rules,
            pass,
            now,
            earliest_put: earliest,
        };
        let (table, start, end) = place;
        let place = RunPlacement {
            table,
            family: &self.family,
            start,
            end,
        };
        let mut w = Run::writer(run_id, place, family.file_options()).reserve(bytes);
        let dropped = drain::merge(sources, &decider, &mut w);
        let run = Run::from_writer(w);
        Some(self.install(inputs, run, dropped, region, false))
    }

    /// Moves every cell with a row at or above `at` into a new store (memstore must be empty).
    /// A run wholly on one side moves as it is; a run holding both sides is written again as
    /// two runs, one per daughter.
    pub fn split_off(
        &mut self,
        at: &[u8],
        run_id: &mut dyn FnMut() -> u64,
        family: &FamilyDescriptor,
        places: [(&str, &[u8], &[u8]); 2],
    ) -> Store {
        let mut upper = Store {
            family: self.family.clone(),
            memstore: Memstore::new(self.family.clone()),
            memstore_bytes: 0,
            runs: Vec::new(),
        };
        upper.memstore = self
            .memstore
            .split_off(CellRef::first_on_row(at, &self.family));
        upper.memstore_bytes = upper.memstore_cells().map(|c| c.size()).sum();
        self.memstore_bytes = self.memstore_cells().map(|c| c.size()).sum();
        let runs = std::mem::take(&mut self.runs);
        for run in runs {
            if run.is_empty() || run.last_row() < at {
                self.runs.push(run);
            } else if run.first_row() >= at {
                upper.runs.push(run);
            } else {
                // Written again as two runs, cell by cell in place.
                let [lower_place, upper_place] = places.map(|(table, start, end)| RunPlacement {
                    table,
                    family: &self.family,
                    start,
                    end,
                });
                let options = family.file_options();
                let half = run.file().len() / 2;
                let mut lo = Run::writer(run_id(), lower_place, options).reserve(half);
                let mut hi = Run::writer(run_id(), upper_place, options).reserve(half);
                let keys = Decoded::default();
                run.for_each_in(&keys, |c| if c.row < at { lo.add(c) } else { hi.add(c) });
                self.runs.push(Arc::new(Run::from_writer(lo)));
                upper.runs.push(Arc::new(Run::from_writer(hi)));
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

/// One sorted input of a merge, read forwards or backwards, yielding cells in place. A
/// forward memstore source keeps its set, to seek in it. Run cursors are held in place, not
/// boxed: a read gathers its sources in a list the engine keeps from read to read (the scan's
/// `ReadRoom`), so that a get allocates neither the list nor a cursor, and the list's larger
/// items cost nothing after the first read.
#[allow(clippy::large_enum_variant)]
pub enum Source<'a> {
    /// The memstore forwards: the memstore (to seek in) and its cells.
    Mem(&'a Memstore, memstore::Range<'a>),
    Run(RunCursor<'a>),
    /// The memstore backwards: its cells.
    MemBack(std::iter::Rev<memstore::Range<'a>>),
    RunBack(RunBackCursor<'a>),
}

impl<'a> Iterator for Source<'a> {
    type Item = CellRef<'a>;
    #[inline(never)]
    fn next(&mut self) -> Option<CellRef<'a>> {
        match self {
            Source::Mem(_, it) => it.next(),
            Source::Run(it) => it.next(),
            Source::MemBack(it) => it.next(),
            Source::RunBack(it) => it.next(),
        }
    }
}

impl<'a> Source<'a> {
    /// The next cell; with `READ`, a run's step compiled in (see `MergeIter::step`), the
    /// other sources called.
    #[inline(always)]
    pub(super) fn step<const READ: bool>(&mut self) -> Option<CellRef<'a>> {
        match self {
            Source::Run(it) if READ => it.step::<true>(),
            _ => self.next(),
        }
    }
}

impl Source<'_> {
    fn counts(&self) -> Option<&ReadCounts> {
        match self {
            Source::Run(c) => Some(&c.counts),
            Source::RunBack(c) => Some(&c.counts),
            _ => None,
        }
    }
}

/// Reads a run forwards in place, one cell at a time: the index picks the first block, and
/// the cursor steps into the next block when it reaches the end of one.
pub struct RunCursor<'a> {
    run: &'a Run,
    keys: &'a Decoded,
    /// The block `cursor` walks.
    block: usize,
    cursor: Option<BlockCursor<'a>>,
    /// A cell of the block already read (by a seek that stopped at it), yielded next.
    pending: Option<CellRef<'a>>,
    pub counts: ReadCounts,
}

impl<'a> RunCursor<'a> {
    /// A cursor whose next cell is the first at or after `probe`.
    fn new(run: &'a Run, keys: &'a Decoded, probe: CellRef<'_>) -> RunCursor<'a> {
        let mut c = RunCursor::unplaced(run, keys);
        let b = run.file.seek_key(probe);
        c.counts.blocks_skipped += b as u64;
        c.load(b);
        c.skip_before(probe);
        c.as_hbase_seeks(b, probe);
        c
    }

    /// After a seek into block `b` (the last block whose first key is at or before `probe`)
    /// found nothing there at or after the probe: when HBase's block index, whose key for the
    /// next block lies between the two blocks (`index_key_at_or_before`), would have named
    /// the next block, block `b` counts as skipped by the index, not read, as HBase never reads
    /// it. (Rowkey read it to its end to know.)
    fn as_hbase_seeks(&mut self, b: usize, probe: CellRef<'_>) {
        if self.pending.is_some() || self.cursor.is_some() || self.block != b {
            return;
        }
        let Some(first) = self.run.file.first_key(b + 1) else {
            return;
        };
        let Some(last) = self.last_cell(b) else {
            return;
        };
        if index_key_at_or_before(last, first, probe) {
            let c = &mut self.counts;
            c.blocks_read = c.blocks_read.saturating_sub(1);
            c.bytes_read = c
                .bytes_read
                .saturating_sub(self.run.file.block_len(b) as u64);
            c.blocks_skipped += 1;
        }
    }

    /// The last cell of block `i`; none for a block that does not read.
    fn last_cell(&self, i: usize) -> Option<CellRef<'a>> {
        let mut cursor = self.run.file.block_cursor(i).ok()?;
        let mut last = None;
        while let Some(c) = cursor.next_in(self.keys) {
            last = Some(c);
        }
        last
    }

    /// A cursor whose next cell is the first of `row` or after, for a get: a run whose row
    /// locator finds the row starts at its first cell without a seek (a get's row is most
    /// often there, past the run's bloom filter; a scan's start row, often a prefix, is
    /// sought as before).
    fn at_row(run: &'a Run, keys: &'a Decoded, row: HashedRow<'_>, family: &[u8]) -> RunCursor<'a> {
        let probe = CellRef::first_on_row(row.row, family);
        let Some((b, at)) = run.file.locate_row(row) else {
            return RunCursor::new(run, keys, probe);
        };
        let mut c = RunCursor::unplaced(run, keys);
        c.from_row_start(b, at);
        c
    }

    /// A cursor on no block yet.
    fn unplaced(run: &'a Run, keys: &'a Decoded) -> RunCursor<'a> {
        RunCursor {
            run,
            keys,
            block: 0,
            cursor: None,
            pending: None,
            counts: ReadCounts::default(),
        }
    }

    /// Starts at a row's first cell, found at `at` in block `b` by the run's row locator,
    /// counted as a seek to the row's first key counts: HBase's index names block `b` (for a
    /// row that starts it, its index key lies between the block before's last row and this
    /// row, so at or before the probe).
    fn from_row_start(&mut self, b: usize, at: usize) {
        self.counts.blocks_skipped += b as u64;
        self.load(b);
        if let Some(cursor) = self.cursor.as_mut() {
            cursor.jump_to(at);
        }
        self.pending = self.next_in_block::<false>();
    }

    /// Starts block `i` (counted as read); a damaged block reads as empty.
    fn load(&mut self, i: usize) {
        self.block = i;
        self.cursor = None;
        self.pending = None;
        if i < self.run.file.block_count() {
            self.counts.blocks_read += 1;
            self.counts.bytes_read += self.run.file.block_len(i) as u64;
            self.cursor = self.run.file.block_cursor(i).ok();
        }
    }

    /// The next cell of the current block, without stepping into the next block; with
    /// `READ`, the block's decoding compiled in (see `MergeIter::step`).
    #[inline(always)]
    fn next_in_block<const READ: bool>(&mut self) -> Option<CellRef<'a>> {
        if let Some(c) = self.pending.take() {
            return Some(c);
        }
        let cursor = self.cursor.as_mut()?;
        let next = if READ {
            cursor.next_in_read(self.keys)
        } else {
            cursor.next_in(self.keys)
        };
        if next.is_none() {
            self.cursor = None;
        }
        next
    }

    /// Drops the cells of the current block that sort before `target`: the next cell is the
    /// first at or after it (or the next block's first).
    fn skip_before(&mut self, target: CellRef<'_>) {
        match self.pending {
            Some(c) if c.cmp_key(&target) != std::cmp::Ordering::Less => return,
            _ => self.pending = None,
        }
        // Whole rows before the target's are passed over first (by the block's row index,
        // then stepping over what it does not list), then the target's row is read cell by
        // cell.
        if let Some(cursor) = self.cursor.as_mut() {
            if let Some(at) = self
                .run
                .file
                .row_start(self.block, cursor.block(), target.row)
            {
                cursor.jump_to(at);
            }
            cursor.skip_rows_before(target.row);
        }
        while let Some(c) = self.next_in_block::<false>() {
            if c.cmp_key(&target) != std::cmp::Ordering::Less {
                self.pending = Some(c);
                return;
            }
        }
    }

    /// Moves to the first cell at or after `target`: within the current block when the index
    /// says it is there, else to the block the index names, skipping the blocks between
    /// unread.
    fn seek(&mut self, target: CellRef<'_>) {
        let b = self.run.file.seek_key(target);
        let moved = b > self.block;
        if moved {
            self.counts.blocks_skipped += (b - self.block - 1) as u64;
            self.load(b);
        }
        self.skip_before(target);
        // Only a block this seek read is HBase's index's to name: the current one was read.
        if moved {
            self.as_hbase_seeks(b, target);
        }
    }
}

impl<'a> Iterator for RunCursor<'a> {
    type Item = CellRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<CellRef<'a>> {
        self.step::<false>()
    }
}

impl<'a> RunCursor<'a> {
    /// The next cell, stepping into the next block at the end of one; with `READ`, compiled
    /// into the caller down to the block's decoding (see `MergeIter::step`).
    #[inline(always)]
    fn step<const READ: bool>(&mut self) -> Option<CellRef<'a>> {
        loop {
            if let Some(c) = self.next_in_block::<READ>() {
                return Some(c);
            }
            if self.block + 1 >= self.run.file.block_count() {
                return None;
            }
            self.load(self.block + 1);
        }
    }
}

/// Reads a run backwards block by block, from the last cell before a bound: each block's
/// cells are read in place into a list kept for the next block, then yielded last first.
pub struct RunBackCursor<'a> {
    run: &'a Run,
    keys: &'a Decoded,
    block: usize,
    cells: Vec<CellRef<'a>>,
    pub counts: ReadCounts,
}

impl<'a> RunBackCursor<'a> {
    /// A cursor from below `bound` and the block it falls in (the run's last cell without one),
    /// reading each block's cells into `cells` (empty).
    fn new(
        run: &'a Run,
        keys: &'a Decoded,
        bound: Option<(CellRef<'_>, usize)>,
        cells: Vec<CellRef<'a>>,
    ) -> RunBackCursor<'a> {
        let n = run.file.block_count();
        let mut c = RunBackCursor {
            run,
            keys,
            block: 0,
            cells,
            counts: ReadCounts::default(),
        };
        if n == 0 {
            return c;
        }
        let b = bound.map_or(n - 1, |(_, b)| b);
        c.counts.blocks_skipped += (n - 1 - b) as u64;
        c.load(b, bound.map(|(probe, _)| probe));
        c
    }

    /// The list the cursor read blocks into, for another cursor.
    pub fn into_cells(self) -> Vec<CellRef<'a>> {
        self.cells
    }

    /// What reading `run` backwards from below `bound` read, when block `b`, the one the bound
    /// falls in, shows (by its row index) that the run's greatest row before the bound is below `floor`:
    /// the run has no cell the read wants (its first would end the read), and its block is
    /// counted as read, as a cursor's first step would read it, without decoding a cell. `None`
    /// when the run may have such a cell, or the block cannot say.
    fn nothing_from(run: &Run, b: usize, bound: CellRef<'_>, floor: &[u8]) -> Option<ReadCounts> {
        let n = run.file.block_count();
        let block = run.file.block(b).ok()?;
        let last = run.file.last_row_before(b, block, bound.row)?;
        (last < floor).then(|| ReadCounts {
            blocks_read: 1,
            bytes_read: block.len() as u64,
            blocks_skipped: n.saturating_sub(1 + b) as u64,
            ..ReadCounts::default()
        })
    }

    /// Reads block `i` into `cells` (counted as read), up to the first cell at or after
    /// `bound` (the block the bound falls in: the cells after it are not read); a damaged
    /// block reads as empty, or as the cells before the damage.
    fn load(&mut self, i: usize, bound: Option<CellRef<'_>>) {
        self.block = i;
        self.cells.clear();
        // The index says how many cells the block holds: the list grows once, not by doubling.
        self.cells.reserve(self.run.file.block_cells(i));
        self.counts.blocks_read += 1;
        self.counts.bytes_read += self.run.file.block_len(i) as u64;
        let Ok(mut cursor) = self.run.file.block_cursor(i) else {
            return;
        };
        while let Some(c) = cursor.next_in(self.keys) {
            if bound.is_some_and(|b| c.cmp_key(&b) != std::cmp::Ordering::Less) {
                return;
            }
            self.cells.push(c);
        }
    }
}

impl<'a> Iterator for RunBackCursor<'a> {
    type Item = CellRef<'a>;
    fn next(&mut self) -> Option<CellRef<'a>> {
        loop {
            if let Some(c) = self.cells.pop() {
                return Some(c);
            }
            if self.block == 0 {
                return None;
            }
            self.load(self.block - 1, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::block::{midpoint, BlockFile};

    /// Rows of 1 to 12 cells with values of 5 to 70 bytes, so that in 1 KB blocks some rows
    /// start a block, some cross into the next, and some share one.
    fn cells() -> Vec<Cell> {
        let family: Arc<[u8]> = Arc::from(&b"f"[..]);
        let mut out = Vec::new();
        for r in 0..400u32 {
            let row = format!("row-{r:04}");
            for q in 0..(r * 7 % 12 + 1) {
                let value = vec![b'v'; (r * 13 + q * 29) as usize % 66 + 5];
                out.push(Cell::put(
                    row.as_bytes(),
                    &family,
                    &[b'a' + q as u8],
                    9,
                    1,
                    &value,
                ));
            }
        }
        out
    }

    /// A get's cursor over a run whose row locator finds the row yields the cells and counts
    /// the blocks a seek through the block index yields and counts: the same cells written
    /// into a run with a locator and into one read back from its bytes (which has none).
    #[test]
    fn a_get_found_by_the_row_locator_reads_and_counts_as_a_seek() {
        let written = Run::new(1, cells());
        let stored = BlockFile::open(written.file().to_bytes().into_boxed_slice());
        let restored = Run::from_file(stored.expect("the written bytes open"));
        let keys = Decoded::default();
        let (mut located, mut starting_a_block) = (0, 0);
        let rows = (0..400u32).map(|r| format!("row-{r:04}"));
        for row in rows.chain(["row-0000a", "row-2", "a", "z"].map(String::from)) {
            let row = row.as_bytes();
            let hashed = HashedRow::new(row);
            if let Some((_, at)) = written.file().locate_row(hashed) {
                located += 1;
                starting_a_block += usize::from(at == 0);
            }
            assert_eq!(restored.file().locate_row(hashed), None);
            let mut by_locator = RunCursor::at_row(&written, &keys, hashed, b"f");
            let mut by_seek = RunCursor::new(&restored, &keys, CellRef::first_on_row(row, b"f"));
            // The row's cells and the next row's first, then the counts so far.
            for step in 0..14 {
                let (a, b) = (by_locator.next(), by_seek.next());
                assert_eq!(
                    a.map(|c| c.to_cell(&written.family)),
                    b.map(|c| c.to_cell(&restored.family)),
                    "{} step {step}",
                    String::from_utf8_lossy(row)
                );
                assert_eq!(
                    by_locator.counts,
                    by_seek.counts,
                    "{}",
                    String::from_utf8_lossy(row)
                );
            }
        }
        assert_eq!((located, starting_a_block), (400, 20));
    }

    /// An HBase key as its `CellComparator` orders it: row, family, qualifier, timestamp (the
    /// latest first), type code (the greatest first).
    type HKey = (
        Vec<u8>,
        Vec<u8>,
        Vec<u8>,
        std::cmp::Reverse<u64>,
        std::cmp::Reverse<u8>,
    );

    /// HBase's `LATEST_TIMESTAMP` and the type code of its first-on-row keys (`Maximum`).
    const LATEST: u64 = i64::MAX as u64;
    const MAXIMUM: u8 = 255;

    fn hkey(c: CellRef<'_>) -> HKey {
        let ts = c.timestamp.min(LATEST);
        let kind = c.kind as u8;
        let (q, f) = (c.qualifier.to_vec(), c.family.to_vec());
        (
            c.row.to_vec(),
            f,
            q,
            std::cmp::Reverse(ts),
            std::cmp::Reverse(kind),
        )
    }

    /// The block HBase's reader seeks into for `probe`: its index holds, for every block but
    /// the first, `HFileWriterImpl.getMidpoint(last cell before, first cell)` (branch-2.5: a
    /// first-on-row key of the rows' shortest midpoint, else on the row a first-on-column key
    /// of the qualifiers', else the first cell), and `BlockIndexReader.rootBlockContainingKey`
    /// names the last block whose key is at or before the probe (the first when none is).
    fn hbase_block(run: &Run, keys: &Decoded, probe: CellRef<'_>) -> usize {
        let file = run.file();
        let cells = |i: usize| -> Vec<CellRef<'_>> {
            let mut cursor = file.block_cursor(i).expect("a written block reads");
            std::iter::from_fn(|| cursor.next_in(keys)).collect()
        };
        let mut index: Vec<HKey> = Vec::new();
        for i in 0..file.block_count() {
            let first = cells(i)[0];
            let key = match i.checked_sub(1).map(|p| *cells(p).last().expect("cells")) {
                None => hkey(first),
                Some(last) => {
                    let latest = std::cmp::Reverse(LATEST);
                    let top = std::cmp::Reverse(MAXIMUM);
                    if let Some(row) = midpoint(last.row, first.row) {
                        (row, Vec::new(), Vec::new(), latest, top)
                    } else if let Some(q) = midpoint(last.qualifier, first.qualifier) {
                        (first.row.to_vec(), first.family.to_vec(), q, latest, top)
                    } else {
                        hkey(first)
                    }
                }
            };
            index.push(key);
        }
        let probe = hkey(probe);
        index.iter().rposition(|k| *k <= probe).unwrap_or(0)
    }

    /// A read starts in the block HBase's block index would name: for a row that starts a
    /// block, or a row between two blocks, the later block, unread before it, where a search
    /// of the blocks' first keys names the block before. Checked for every row and for rows
    /// between them, in `NONE` (with the row locator and without) and `FAST_DIFF` blocks,
    /// against HBase's index built from the blocks' cells.
    #[test]
    fn a_read_starts_in_the_block_hbase_s_midpoint_index_names() {
        let keys = Decoded::default();
        let fast_diff = FileOptions {
            encoding: Encoding::FastDiff,
            ..FileOptions::default()
        };
        let family: Arc<[u8]> = Arc::from(&b"f"[..]);
        let place = RunPlacement {
            table: "t",
            family: &family,
            start: &[],
            end: &[],
        };
        let written = Run::new(1, cells());
        let restored = Run::from_file(
            BlockFile::open(written.file().to_bytes().into_boxed_slice()).expect("opens"),
        );
        let delta = Run::write(2, place, fast_diff, &cells());
        let mut rows: Vec<String> = (0..400u32).map(|r| format!("row-{r:04}")).collect();
        rows.extend((0..400u32).map(|r| format!("row-{r:04}\0")));
        rows.extend((0..40u32).map(|r| format!("row-{r:03}")));
        let mut later = 0;
        for row in &rows {
            let row = row.as_bytes();
            let probe = CellRef::first_on_row(row, b"f");
            for run in [&written, &restored, &delta] {
                let want = hbase_block(run, &keys, probe);
                let mut by_seek = RunCursor::new(run, &keys, probe);
                let mut by_get = RunCursor::at_row(run, &keys, HashedRow::new(row), b"f");
                let _ = (by_seek.next(), by_get.next());
                let name = String::from_utf8_lossy(row);
                assert_eq!(by_seek.counts.blocks_skipped, want as u64, "{name}");
                assert_eq!(by_get.counts.blocks_skipped, want as u64, "{name}");
                later += usize::from(run.file().seek_key(probe) < want);
            }
        }
        // The rows that start a block (20 of the 400) and the rows between blocks, in each of
        // the three runs.
        assert_eq!(later, 59);
    }
}
