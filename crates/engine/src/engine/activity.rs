//! Where a table's traffic went, over time: the model behind the hotspot view and the diagnosis.
//!
//! Bounded whatever the workload: the last [`OPS_KEPT`] operations in full (kind, row or range,
//! region, logical tick, wall-clock time), and a grid of [`KEY_BUCKETS`] key buckets ×
//! [`TIME_BUCKETS`] time buckets counting reads and writes separately over the table's whole
//! life. When time runs past the last bucket, neighbouring buckets merge in pairs and each
//! covers twice the ticks, so the grid always spans from the first operation to now.
//!
//! The key axis is the row's place in the table's key order when the operation ran (offset /
//! rows, from the key index), not its bytes: keys of any shape spread over the buckets, and
//! writes of a growing key land in the last bucket as they land in the last region.
//!
//! The history belongs to the table, not to a region: a split records where and when it
//! happened, and since every operation keeps its key, the daughters of a split inherit their
//! parent's history by key ([`Activity::per_region`] counts operations by the regions the table
//! has now).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::stats::OpStats;
use super::table::Table;
use crate::bytes::head;
use crate::kit::hash::FastMap;

/// Operations kept in full.
pub const OPS_KEPT: usize = 100_000;
/// Rows of the grid: slices of the key order.
pub const KEY_BUCKETS: usize = 64;
/// Columns of the grid: slices of logical time.
pub const TIME_BUCKETS: usize = 512;
/// Splits remembered.
pub const SPLITS_KEPT: usize = 4096;

/// A read or a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpKind {
    Read,
    Write,
}

/// One operation on one region.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Op {
    pub kind: OpKind,
    /// The row, or the first row of the range (in key order, also for a reversed scan).
    #[serde(with = "key_text")]
    pub start: Vec<u8>,
    /// `None` for one row; else the end of `[start, stop)`, empty meaning the end of the table.
    #[serde(with = "key_text::optional")]
    pub stop: Option<Vec<u8>>,
    /// The region that served it (a scan over several regions is one operation per region).
    pub region: u64,
    /// The engine's logical clock: one tick per operation.
    pub tick: u64,
    /// Epoch milliseconds.
    pub wall_ms: u64,
    /// The row's (or the range's first row's) place in the key order then: 0 first, 1 last.
    pub place: f32,
}

impl Op {
    /// Whether the operation covered `row`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn covers(&self, row: &[u8]) -> bool {
        match &self.stop {
            None => self.start.as_slice() == row,
            Some(stop) => {
                row >= self.start.as_slice() && (stop.is_empty() || row < stop.as_slice())
            }
        }
    }
}

/// Where and when a region split.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SplitMark {
    pub tick: u64,
    pub wall_ms: u64,
    pub parent: u64,
    /// The daughters: the lower `[parent start, key)`, the upper `[key, parent end)`.
    pub lower: u64,
    pub upper: u64,
    pub key: Vec<u8>,
    /// The split key's place in the key order then (0 first row, 1 past the last).
    pub position: f64,
}

/// The last get or scan: its bounds as asked, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastRead {
    /// As the scan gives them: in a reversed scan `start` is the highest row.
    pub start: Vec<u8>,
    pub stop: Vec<u8>,
    pub stop_inclusive: bool,
    pub reversed: bool,
    /// A get (one row).
    pub get: bool,
    pub tick: u64,
    /// The first and the last row the read examined, in the order read.
    pub first_examined: Option<Vec<u8>>,
    pub last_examined: Option<Vec<u8>>,
    pub stats: OpStats,
}

impl LastRead {
    /// The bounds in key order `[lo, hi)` (an empty `hi` runs to the end).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn key_range(&self) -> (Vec<u8>, Vec<u8>) {
        let (lo, hi) = if self.reversed {
            (self.stop.clone(), self.start.clone())
        } else {
            (self.start.clone(), self.stop.clone())
        };
        // An inclusive end (a get, a reversed scan's start row) ends just after that row.
        let hi_inclusive = if self.reversed {
            !hi.is_empty()
        } else {
            self.stop_inclusive
        };
        let hi = if hi_inclusive {
            let mut h = hi;
            h.push(0);
            h
        } else {
            hi
        };
        // A reversed scan's stop row is its lower bound, exclusive unless said otherwise: the
        // range starts just after it.
        let lo = if self.reversed && !self.stop_inclusive && !lo.is_empty() {
            let mut l = lo;
            l.push(0);
            l
        } else {
            lo
        };
        (lo, hi)
    }
}

/// Counts per key bucket and time bucket, for reads and writes separately.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// The tick bucket 0 starts at (the table's first operation).
    pub origin: Option<u64>,
    /// Ticks per time bucket (a power of two).
    pub width: u64,
    /// `TIME_BUCKETS * KEY_BUCKETS` counts, time-major: `[t * KEY_BUCKETS + k]`.
    #[serde(with = "sparse")]
    pub reads: Vec<u32>,
    #[serde(with = "sparse")]
    pub writes: Vec<u32>,
    /// The wall-clock time of each time bucket's first operation (0 when empty).
    #[serde(with = "sparse")]
    pub wall_ms: Vec<u64>,
}

/// The grid's counts, mostly zeros, serialised as their length and the non-zero entries
/// (`{"len": n, "at": [[i, v], ...]}`); a plain array (how histories were stored before)
/// reads too.
/// A key in a stored history, written as base64 text: a history of a hundred thousand
/// operations reads several times faster than with each key an array of numbers, which is how
/// releases before wrote it and which still reads.
mod key_text {
    use crate::kit::base64::{self, Alphabet};
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serializer};

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn serialize<S: Serializer>(key: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::encode(key, Alphabet::Standard))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_any(KeyVisitor)
    }

    struct KeyVisitor;

    impl<'de> Visitor<'de> for KeyVisitor {
        type Value = Vec<u8>;

        #[cfg_attr(rowkey_cold, optimize(size))]
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a key as base64 text or as an array of bytes")
        }

        #[cfg_attr(rowkey_cold, optimize(size))]
        fn visit_str<E: Error>(self, v: &str) -> Result<Vec<u8>, E> {
            base64::decode(v, Alphabet::Standard)
                .map_err(|e| E::custom(format!("a key in base64: {e}")))
        }

        #[cfg_attr(rowkey_cold, optimize(size))]
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 12));
            while let Some(b) = seq.next_element::<u8>()? {
                out.push(b);
            }
            Ok(out)
        }
    }

    /// A key read by [`deserialize`].
    struct Key(Vec<u8>);

    impl<'de> Deserialize<'de> for Key {
        #[cfg_attr(rowkey_cold, optimize(size))]
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
            deserialize(d).map(Key)
        }
    }

    /// The same for a key that may be absent.
    pub mod optional {
        use crate::kit::base64::{self, Alphabet};
        use serde::{Deserialize, Deserializer, Serializer};

        #[cfg_attr(rowkey_cold, optimize(size))]
        pub fn serialize<S: Serializer>(key: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
            match key {
                Some(k) => s.serialize_some(&base64::encode(k, Alphabet::Standard)),
                None => s.serialize_none(),
            }
        }

        #[cfg_attr(rowkey_cold, optimize(size))]
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
            Option::<super::Key>::deserialize(d).map(|k| k.map(|k| k.0))
        }
    }
}

mod sparse {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// More entries than any grid has: a damaged length is an error, not an allocation.
    const MAX_LEN: usize = 1 << 22;

    #[derive(Serialize)]
    struct Out<'a, T> {
        len: usize,
        at: Vec<(usize, &'a T)>,
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum In<T> {
        Dense(Vec<T>),
        Sparse { len: usize, at: Vec<(usize, T)> },
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn serialize<S: Serializer, T: Serialize + Default + PartialEq>(
        values: &[T],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let zero = T::default();
        Out {
            len: values.len(),
            at: values
                .iter()
                .enumerate()
                .filter(|(_, v)| **v != zero)
                .collect(),
        }
        .serialize(s)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn deserialize<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de> + Default + Clone,
    {
        match In::<T>::deserialize(d)? {
            In::Dense(v) => Ok(v),
            In::Sparse { len, at } => {
                if len > MAX_LEN {
                    return Err(serde::de::Error::custom(format!("a grid of {len} entries")));
                }
                let mut v = vec![T::default(); len];
                for (i, x) in at {
                    let slot = v.get_mut(i).ok_or_else(|| {
                        serde::de::Error::custom(format!("entry {i} past the grid's {len}"))
                    })?;
                    *slot = x;
                }
                Ok(v)
            }
        }
    }
}

impl Default for Grid {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn default() -> Self {
        Grid {
            origin: None,
            width: 1,
            reads: vec![0; TIME_BUCKETS * KEY_BUCKETS],
            writes: vec![0; TIME_BUCKETS * KEY_BUCKETS],
            wall_ms: vec![0; TIME_BUCKETS],
        }
    }
}

impl Grid {
    /// The time bucket of `tick`, merging buckets first when it lies past the last one.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn time_bucket(&mut self, tick: u64) -> usize {
        let origin = *self.origin.get_or_insert(tick);
        let mut t = tick.saturating_sub(origin) / self.width;
        while t >= TIME_BUCKETS as u64 {
            self.fold();
            t = tick.saturating_sub(origin) / self.width;
        }
        t as usize
    }

    /// Merges time buckets in pairs: twice the ticks per bucket, the second half empty.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fold(&mut self) {
        for counts in [&mut self.reads, &mut self.writes] {
            for t in 0..TIME_BUCKETS / 2 {
                for k in 0..KEY_BUCKETS {
                    let a = counts.get(2 * t * KEY_BUCKETS + k).copied().unwrap_or(0);
                    let b = counts
                        .get((2 * t + 1) * KEY_BUCKETS + k)
                        .copied()
                        .unwrap_or(0);
                    if let Some(c) = counts.get_mut(t * KEY_BUCKETS + k) {
                        *c = a.saturating_add(b);
                    }
                }
            }
            for c in counts.iter_mut().skip(TIME_BUCKETS / 2 * KEY_BUCKETS) {
                *c = 0;
            }
        }
        for t in 0..TIME_BUCKETS / 2 {
            let a = self.wall_ms.get(2 * t).copied().unwrap_or(0);
            let b = self.wall_ms.get(2 * t + 1).copied().unwrap_or(0);
            if let Some(w) = self.wall_ms.get_mut(t) {
                *w = if a == 0 { b } else { a };
            }
        }
        for w in self.wall_ms.iter_mut().skip(TIME_BUCKETS / 2) {
            *w = 0;
        }
        self.width *= 2;
    }

    /// Counts one operation over the key buckets from `from` to `to` (places in [0, 1]).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn add(&mut self, kind: OpKind, tick: u64, wall_ms: u64, from: f64, to: f64) {
        let t = self.time_bucket(tick);
        if let Some(w) = self.wall_ms.get_mut(t) {
            if *w == 0 {
                *w = wall_ms;
            }
        }
        let k0 = key_bucket(from);
        let k1 = key_bucket(to).max(k0);
        let counts = match kind {
            OpKind::Read => &mut self.reads,
            OpKind::Write => &mut self.writes,
        };
        for k in k0..=k1 {
            if let Some(c) = counts.get_mut(t * KEY_BUCKETS + k) {
                *c = c.saturating_add(1);
            }
        }
    }

    /// The count of one cell of the grid.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn at(&self, kind: OpKind, time: usize, key: usize) -> u32 {
        let counts = match kind {
            OpKind::Read => &self.reads,
            OpKind::Write => &self.writes,
        };
        counts.get(time * KEY_BUCKETS + key).copied().unwrap_or(0)
    }

    /// Time buckets in use (from the first to the one holding the newest operation).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn used(&self, now: u64) -> usize {
        match self.origin {
            None => 0,
            Some(o) => ((now.saturating_sub(o) / self.width) as usize + 1).min(TIME_BUCKETS),
        }
    }
}

/// The key bucket of a place in the key order.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn key_bucket(place: f64) -> usize {
    let k = (place.clamp(0.0, 1.0) * KEY_BUCKETS as f64) as usize;
    k.min(KEY_BUCKETS - 1)
}

/// The place of the `index`-th of `rows` rows in the key order: 0 for the first, 1 for the last.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn place_of(index: usize, rows: usize) -> f64 {
    if rows <= 1 {
        return 0.0;
    }
    (index as f64 / (rows - 1) as f64).min(1.0)
}

/// A table's activity. See the module doc.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Activity {
    ops: VecDeque<Op>,
    pub grid: Grid,
    splits: VecDeque<SplitMark>,
    last_read: Option<LastRead>,
    /// Operations ever recorded, by kind.
    pub reads: u64,
    pub writes: u64,
    /// Operations ever pushed to `ops`: the sequence number the next one gets.
    #[serde(default)]
    recorded: u64,
}

/// What a saved activity holds, field for field (its operations are usually stored apart).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SavedActivity {
    pub ops: Vec<Op>,
    pub grid: Grid,
    pub splits: Vec<SplitMark>,
    pub last_read: Option<LastRead>,
    pub reads: u64,
    pub writes: u64,
    pub recorded: u64,
}

impl Activity {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new() -> Activity {
        Activity::default()
    }

    /// An activity from the parts a saved one holds, as they were saved (the host's reader of
    /// its stored histories builds it; [`Activity::with_ops`] adds the stored operations).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_saved(saved: SavedActivity) -> Activity {
        Activity {
            ops: saved.ops.into(),
            grid: saved.grid,
            splits: saved.splits.into(),
            last_read: saved.last_read,
            reads: saved.reads,
            writes: saved.writes,
            recorded: saved.recorded,
        }
    }

    /// Changes whenever anything is recorded: savers keep what they encoded until it changes.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn marker(&self) -> (u64, u64, usize, Option<u64>) {
        (
            self.reads,
            self.writes,
            self.splits.len(),
            self.splits.back().map(|s| s.tick),
        )
    }

    /// Records a write of `row` at `place` in the key order.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn record_write(&mut self, row: &[u8], region: u64, tick: u64, wall_ms: u64, place: f64) {
        self.writes += 1;
        self.grid.add(OpKind::Write, tick, wall_ms, place, place);
        self.push(Op {
            kind: OpKind::Write,
            start: row.to_vec(),
            stop: None,
            region,
            tick,
            wall_ms,
            place: place as f32,
        });
    }

    /// Records a read of one region: a row (`stop: None`) or `[start, stop)`, spanning the
    /// places `from..to` of the key order.
    #[allow(clippy::too_many_arguments)]
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn record_read(
        &mut self,
        start: &[u8],
        stop: Option<&[u8]>,
        region: u64,
        tick: u64,
        wall_ms: u64,
        from: f64,
        to: f64,
    ) {
        self.reads += 1;
        self.grid.add(OpKind::Read, tick, wall_ms, from, to);
        self.push(Op {
            kind: OpKind::Read,
            start: start.to_vec(),
            stop: stop.map(<[u8]>::to_vec),
            region,
            tick,
            wall_ms,
            place: from as f32,
        });
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn push(&mut self, op: Op) {
        if self.ops.len() == OPS_KEPT {
            self.ops.pop_front();
        } else if self.ops.len() == self.ops.capacity() {
            // Doubling, but to `OPS_KEPT` exactly at the last step: a full history holds
            // `OPS_KEPT` operations, not the next power of two's room (a quarter more).
            let room = (self.ops.len() * 2).clamp(4, OPS_KEPT);
            self.ops.reserve_exact(room - self.ops.len());
        }
        self.ops.push_back(op);
        self.recorded += 1;
    }

    /// The sequence number the next operation gets (operations are numbered from 0 as
    /// recorded; the ones kept are `first_seq()..recorded()`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    /// The sequence number of the oldest operation kept.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn first_seq(&self) -> u64 {
        self.recorded.saturating_sub(self.ops.len() as u64)
    }

    /// The kept operation numbered `seq` (`None` when it is no longer kept or not yet recorded).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn op(&self, seq: u64) -> Option<&Op> {
        let i = seq.checked_sub(self.first_seq())?;
        self.ops.get(usize::try_from(i).ok()?)
    }

    /// The kept operations numbered `from..to`, oldest first.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn ops_between(&self, from: u64, to: u64) -> impl Iterator<Item = &Op> {
        let first = self.first_seq();
        let skip = from.saturating_sub(first) as usize;
        let take = to.saturating_sub(from.max(first)) as usize;
        self.ops.iter().skip(skip).take(take)
    }

    /// Everything but the operations (which a saver stores in chunks beside it).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn head(&self) -> Activity {
        Activity {
            ops: VecDeque::new(),
            grid: self.grid.clone(),
            splits: self.splits.clone(),
            last_read: self.last_read.clone(),
            reads: self.reads,
            writes: self.writes,
            recorded: self.recorded,
        }
    }

    /// A head with its operations put back (oldest first; the newest `OPS_KEPT` are kept).
    /// Histories stored with their operations inline (and no count) number them from 0.
    /// A head without operations of its own takes `ops` as they are (no copy).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn with_ops(mut self, mut ops: Vec<Op>) -> Activity {
        if let Some(over) = (self.ops.len() + ops.len()).checked_sub(OPS_KEPT) {
            let from_ops = over.saturating_sub(self.ops.len());
            self.ops.drain(..over.min(self.ops.len()));
            ops.drain(..from_ops);
        }
        if self.ops.is_empty() {
            self.ops = ops.into();
        } else {
            self.ops.extend(ops);
        }
        self.recorded = self.recorded.max(self.ops.len() as u64);
        self
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn record_split(&mut self, mark: SplitMark) {
        if self.splits.len() == SPLITS_KEPT {
            self.splits.pop_front();
        }
        self.splits.push_back(mark);
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn set_last_read(&mut self, read: LastRead) {
        self.last_read = Some(read);
    }

    /// The operations kept, oldest first.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn ops(&self) -> impl DoubleEndedIterator<Item = &Op> + ExactSizeIterator {
        self.ops.iter()
    }

    /// The last `n` operations of a kind, newest first.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn last(&self, kind: OpKind, n: usize) -> impl Iterator<Item = &Op> {
        self.ops
            .iter()
            .rev()
            .filter(move |o| o.kind == kind)
            .take(n)
    }

    /// The splits remembered, oldest first.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn splits(&self) -> impl DoubleEndedIterator<Item = &SplitMark> {
        self.splits.iter()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn last_read(&self) -> Option<&LastRead> {
        self.last_read.as_ref()
    }

    /// The region a region split from, if the split is remembered.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn parent_of(&self, region: u64) -> Option<u64> {
        self.splits
            .iter()
            .rev()
            .find(|s| s.lower == region || s.upper == region)
            .map(|s| s.parent)
    }

    /// Of the last `n` operations of `kind`, how many fell in each of the table's regions as
    /// they are now (a range counts in every region it overlaps), indexed like
    /// `table.regions`; and how many operations were counted.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn per_region(&self, table: &Table, kind: Option<OpKind>, n: usize) -> (Vec<u64>, u64) {
        let starts = Starts::of(table);
        // A region keeps its id only as long as its bounds (a split gives both daughters new
        // ones, and ids are never reused), so a single-row operation served by a region the
        // table still has lies in that region; only the others are searched for by key.
        let mut by_id: FastMap<u64, usize> =
            FastMap::with_capacity_and_hasher(table.regions.len(), Default::default());
        by_id.extend(table.regions.iter().enumerate().map(|(i, r)| (r.id, i)));
        let mut counts = vec![0u64; starts.len()];
        let mut seen = 0u64;
        let ops = self
            .ops
            .iter()
            .rev()
            .filter(|o| kind.is_none_or(|k| o.kind == k))
            .take(n);
        for op in ops {
            seen += 1;
            let span = match by_id.get(&op.region) {
                Some(&i) if op.stop.is_none() => i..=i,
                _ => op.regions_by(starts.len(), |row| starts.index(row), |i| starts.get(i)),
            };
            for c in counts.iter_mut().take(span.end() + 1).skip(*span.start()) {
                *c += 1;
            }
        }
        (counts, seen)
    }
}

/// The start keys of a table's regions side by side in one buffer: thousands of lookups in a
/// row search it without reaching into every region they pass (ten thousand writes over
/// 15,000 regions spent most of their time waiting on those reads).
struct Starts {
    keys: crate::kit::packed::Packed,
    /// Each start key's first eight bytes as a number ([`head`](crate::bytes::head)): most steps of a search
    /// compare two numbers and read nothing else (the count comparing bytes at every step took
    /// more than twice as long in WebAssembly, whose byte comparison goes a byte at a time).
    heads: Vec<u64>,
}

impl Starts {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn of(table: &Table) -> Starts {
        let mut keys = crate::kit::packed::Packed::with_capacity(
            table.regions.len(),
            table.regions.iter().map(|r| r.start.len()).sum(),
        );
        let mut heads = Vec::with_capacity(table.regions.len());
        for r in &table.regions {
            keys.push(&r.start);
            heads.push(head(&r.start));
        }
        Starts { keys, heads }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn len(&self) -> usize {
        self.keys.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn get(&self, i: usize) -> Option<&[u8]> {
        self.keys.get(i)
    }

    /// As [`Table::region_index`]: the last region starting at or before `row`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn index(&self, row: &[u8]) -> usize {
        let row_head = head(row);
        let at_or_before = |i: usize| match self.heads.get(i).map(|h| h.cmp(&row_head)) {
            Some(std::cmp::Ordering::Less) => true,
            Some(std::cmp::Ordering::Equal) => self.get(i).is_some_and(|start| start <= row),
            _ => false,
        };
        crate::kit::partition(self.len(), at_or_before).saturating_sub(1)
    }
}

impl Op {
    /// The indexes of the table's regions (as it has them now) the operation falls in.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn regions(&self, table: &Table) -> std::ops::RangeInclusive<usize> {
        self.regions_by(
            table.regions.len(),
            |row| table.region_index(row),
            |i| table.regions.get(i).map(|r| r.start.as_slice()),
        )
    }

    /// [`Op::regions`] over `count` regions, `index` finding a row's region and `start`
    /// giving a region's start key.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn regions_by<'a>(
        &self,
        count: usize,
        index: impl Fn(&[u8]) -> usize,
        start: impl Fn(usize) -> Option<&'a [u8]>,
    ) -> std::ops::RangeInclusive<usize> {
        let first = index(&self.start);
        let last = match &self.stop {
            None => first,
            Some(stop) if stop.is_empty() => count.saturating_sub(1),
            Some(stop) => {
                // The region holding the last row before `stop`.
                let i = index(stop);
                match start(i) {
                    Some(s) if s == stop.as_slice() && i > first => i - 1,
                    _ => i,
                }
            }
        };
        first..=last
    }
}

// ---- the engine's hooks ------------------------------------------------------------------

impl super::Engine {
    /// The table's activity (`None` for an unknown table or one nothing ran on yet).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn activity(&self, table: &str) -> Option<&Activity> {
        self.activity.get(table)
    }

    /// Puts back an activity saved earlier (the host keeps it outside the catalog); ignored
    /// for a table that does not exist.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn restore_activity(&mut self, table: &str, activity: Activity) {
        if self.tables.contains_key(table) {
            let activity = activity.with_ops(Vec::new());
            self.activity.insert(table.to_string(), activity);
        }
    }

    /// The place of `row` in the table's key order, in [0, 1]: the first row 0, the last 1.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn place(&self, table: &str, row: &[u8]) -> f64 {
        match self.tables.get(table) {
            Some(t) => place_of(t.keys.row_position(row).index, t.keys.row_count()),
            None => 0.0,
        }
    }

    /// Records a write of `row` served by `region`.
    pub(super) fn note_write(&mut self, table: &str, row: &[u8], region: u64) {
        let place = self.place(table, row);
        let (tick, wall) = (self.tick, self.now());
        // The table's name is copied once, at its first write, not at every write.
        if !self.activity.contains_key(table) {
            self.activity.insert(table.to_string(), Activity::default());
        }
        if let Some(activity) = self.activity.get_mut(table) {
            activity.record_write(row, region, tick, wall, place);
        }
    }

    /// Records a get or scan: one operation per region it read, and the read's bounds.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn note_read(&mut self, table: &str, scan: &super::Scan, out: &super::ScanOutput) {
        let (tick, wall) = (self.tick, self.now());
        let Some(t) = self.tables.get(table) else {
            return;
        };
        let get = scan.stop_inclusive && !scan.reversed && scan.start_row == scan.stop_row;
        let read = LastRead {
            start: scan.start_row.clone(),
            stop: scan.stop_row.clone(),
            stop_inclusive: scan.stop_inclusive,
            reversed: scan.reversed,
            get,
            tick,
            first_examined: out.examined.first().map(<[u8]>::to_vec),
            last_examined: out.examined.last().map(<[u8]>::to_vec),
            stats: out.stats.clone(),
        };
        let (lo, hi) = read.key_range();
        let rows = t.keys.row_count();
        // A range ends at its last row: the one before the first row at or after `stop`.
        let place = |key: &[u8], end: bool| {
            if end && key.is_empty() {
                1.0
            } else {
                let at = t.keys.row_position(key).index;
                place_of(if end { at.saturating_sub(1) } else { at }, rows)
            }
        };
        let mut ops = Vec::with_capacity(out.per_region.len());
        for read in &out.per_region {
            let id = &read.region;
            let Some(r) = t.regions.iter().find(|r| r.id == *id) else {
                continue;
            };
            if get {
                let p = place(&lo, false);
                ops.push((lo.clone(), None, *id, p, p));
                continue;
            }
            // The read's range clipped to the region.
            let start = lo.clone().max(r.start.clone());
            let stop = match (hi.is_empty(), r.end.is_empty()) {
                (true, _) => r.end.clone(),
                (false, true) => hi.clone(),
                (false, false) => hi.clone().min(r.end.clone()),
            };
            let (from, to) = (place(&start, false), place(&stop, true));
            ops.push((start, Some(stop), *id, from, to));
        }
        let activity = self.activity.entry(table.to_string()).or_default();
        for (start, stop, id, from, to) in ops {
            activity.record_read(&start, stop.as_deref(), id, tick, wall, from, to);
        }
        activity.set_last_read(read);
    }

    /// Records a split of `parent` at `key` into `lower` and `upper`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn note_split(
        &mut self,
        table: &str,
        parent: u64,
        lower: u64,
        upper: u64,
        key: &[u8],
    ) {
        let position = self.place(table, key);
        let mark = SplitMark {
            tick: self.tick,
            wall_ms: self.now(),
            parent,
            lower,
            upper,
            key: key.to_vec(),
            position,
        };
        self.activity
            .entry(table.to_string())
            .or_default()
            .record_split(mark);
    }
}
