//! How cells are written inside a data block, and the cursor that reads them back in place.
//!
//! Every encoding writes a cell's key as HBase's KeyValue key (row length, row, family length,
//! family, qualifier, timestamp as 8 big-endian bytes, type byte; lengths as LEB128 varints),
//! then the value, then what Rowkey's cells carry besides (HBase keeps the same things after
//! the value: the sequence id, and the TTL as a tag). The first cell of a block never refers
//! to a previous one, so each block reads on its own.
//!
//! - `NONE`: key length, value length, key, value, sequence id, TTL.
//! - `PREFIX`: key length, value length, bytes shared with the previous key, the rest of the
//!   key, value, sequence id, TTL.
//! - `FAST_DIFF`: a flag byte saying what equals the previous cell (key length, value length,
//!   type, value, timestamp) and how many bytes the timestamp takes; then only what differs,
//!   the key shared as in `PREFIX` up to its timestamp, and the sequence id as a difference.

use super::{Encoding, FormatError};
use crate::engine::cell::CellKind;
pub use crate::engine::cell::CellRef;

const SAME_KEY_LEN: u8 = 0x01;
const SAME_VALUE_LEN: u8 = 0x02;
const SAME_TYPE: u8 = 0x04;
const SAME_VALUE: u8 = 0x08;
const TS_LEN_SHIFT: u8 = 4;
const TS_LEN_MASK: u8 = 0x70;
const SAME_TS: u8 = 0x80;

/// The bytes of the key after the qualifier: timestamp and type.
const KEY_TAIL: usize = 9;

pub(crate) use crate::kit::varint::put as put_varint;

/// The keys a read rebuilt from delta-encoded blocks (`PREFIX`, `FAST_DIFF`), freed when the
/// read ends; a `NONE` block's keys are read where they are and need none of it, so the arena
/// is made at the first key it holds (a read of `NONE` blocks allocates nothing for it).
#[derive(Default)]
pub struct Decoded(std::cell::OnceCell<typed_arena::Arena<u8>>);

impl Decoded {
    /// A copy of `key` that lives as long as the arena.
    pub fn alloc_extend(&self, key: &[u8]) -> &mut [u8] {
        self.0
            .get_or_init(|| typed_arena::Arena::with_capacity(1024))
            .alloc_extend(key.iter().copied())
    }
}

/// Reads a varint at `*at`, moving past it (see [`crate::kit::varint::get`]).
#[inline]
pub(crate) fn get_varint(b: &[u8], at: &mut usize) -> Result<u64, FormatError> {
    crate::kit::varint::get(b, at).map_err(|e| match e {
        crate::kit::varint::VarintError::Truncated(at) => FormatError::Truncated(at),
        e => FormatError::Invalid(e.to_string()),
    })
}

#[inline]
pub(crate) fn get_len(b: &[u8], at: &mut usize) -> Result<usize, FormatError> {
    usize::try_from(get_varint(b, at)?).map_err(|_| FormatError::Invalid("length overflow".into()))
}

/// Takes `len` bytes at `*at`, moving past them.
#[inline]
pub(crate) fn take<'a>(b: &'a [u8], at: &mut usize, len: usize) -> Result<&'a [u8], FormatError> {
    let end = at.checked_add(len).ok_or(FormatError::Truncated(*at))?;
    let out = b.get(*at..end).ok_or(FormatError::Truncated(*at))?;
    *at = end;
    Ok(out)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Writes a cell's key, as every encoding keys it.
pub(crate) fn write_key(
    out: &mut Vec<u8>,
    row: &[u8],
    family: &[u8],
    qualifier: &[u8],
    ts: u64,
    kind: CellKind,
) {
    put_varint(out, row.len() as u64);
    out.extend_from_slice(row);
    put_varint(out, family.len() as u64);
    out.extend_from_slice(family);
    out.extend_from_slice(qualifier);
    out.extend_from_slice(&ts.to_be_bytes());
    out.push(kind as u8);
}

/// A key's row, family, qualifier, timestamp and kind.
pub(crate) type KeyParts<'a> = (&'a [u8], &'a [u8], &'a [u8], u64, CellKind);

/// Where a key's row, family and qualifier sit in it, with its timestamp and kind.
type PartRanges = (
    (usize, usize),
    (usize, usize),
    (usize, usize),
    u64,
    CellKind,
);

/// The parts of a key: row, family, qualifier, timestamp, kind.
#[inline]
pub(crate) fn split_key(key: &[u8]) -> Result<KeyParts<'_>, FormatError> {
    let mut at = 0;
    let row_len = get_len(key, &mut at)?;
    let row = take(key, &mut at, row_len)?;
    let fam_len = get_len(key, &mut at)?;
    let family = take(key, &mut at, fam_len)?;
    let tail_at = key
        .len()
        .checked_sub(KEY_TAIL)
        .filter(|t| *t >= at)
        .ok_or_else(|| FormatError::Invalid("key shorter than its parts".into()))?;
    let qualifier = key.get(at..tail_at).unwrap_or_default();
    let mut ts = [0u8; 8];
    ts.copy_from_slice(key.get(tail_at..tail_at + 8).unwrap_or(&[0; 8]));
    let code = key.get(tail_at + 8).copied().unwrap_or(0);
    let kind = CellKind::from_code(code)
        .ok_or_else(|| FormatError::Invalid(format!("unknown cell type {code}")))?;
    Ok((row, family, qualifier, u64::from_be_bytes(ts), kind))
}

/// Where one `NONE`-encoded cell's parts sit in its block, read in one pass: what
/// [`CursorState::advance`] keeps of a `NONE` cell, and what a reload's recount of the key
/// index ([`none_row_size`]) and a seek inside a block ([`CursorState::skip_rows_before`]) read.
struct NoneCell {
    /// The key's start and end in the block.
    key: (usize, usize),
    /// The value's start and end in the block.
    value: (usize, usize),
    seq: u64,
    ttl_ms: u64,
    /// The key's row, family and qualifier ranges (within the key), timestamp and kind.
    parts: PartRanges,
    /// Where the next cell starts.
    end: usize,
}

impl NoneCell {
    /// The cell's row, a slice of `block`.
    #[inline(always)]
    fn row<'b>(&self, block: &'b [u8]) -> &'b [u8] {
        let (row, _, _, _, _) = self.parts;
        block
            .get(self.key.0 + row.0..self.key.0 + row.1)
            .unwrap_or_default()
    }
}

/// A length at `*at`, moving past it; `None` where [`get_len`] gives an error.
#[inline(always)]
fn len(b: &[u8], at: &mut usize) -> Option<usize> {
    usize::try_from(crate::kit::varint::get(b, at).ok()?).ok()
}

/// The `NONE`-encoded cell at `at` in `block`, borrowed from it, with its whole key and where
/// the next cell starts; `None` wherever [`CursorState::advance`]'s general reading gives an
/// error (a truncated cell, a varint too long, a key shorter than its parts, an unknown cell
/// type), which then reads it again to say which. Lengths under 128 (nearly all) take one byte
/// and the varints' short path, sequence ids under 2^21 the next one.
#[inline(always)]
fn none_cell_ref(b: &[u8], at: usize) -> Option<(CellRef<'_>, &[u8], usize)> {
    let mut at = at;
    let key_len = len(b, &mut at)?;
    let value_len = len(b, &mut at)?;
    let key_end = at.checked_add(key_len)?;
    let value_end = key_end.checked_add(value_len)?;
    let key = b.get(at..key_end)?;
    let value = b.get(key_end..value_end)?;
    at = value_end;
    let seq = crate::kit::varint::get_short(b, &mut at).ok()?;
    let ttl_ms = crate::kit::varint::get(b, &mut at).ok()?;
    // The key's parts, as `split_key` reads them.
    let mut k = 0;
    let row_len = len(key, &mut k)?;
    let row = key.get(k..k.checked_add(row_len)?)?;
    k += row_len;
    let family_len = len(key, &mut k)?;
    let family = key.get(k..k.checked_add(family_len)?)?;
    k += family_len;
    let tail = key.len().checked_sub(KEY_TAIL).filter(|t| *t >= k)?;
    let qualifier = key.get(k..tail)?;
    let ts: [u8; 8] = key.get(tail..tail + 8)?.try_into().ok()?;
    let kind = CellKind::from_code(*key.get(tail + 8)?)?;
    let cell = CellRef {
        row,
        family,
        qualifier,
        timestamp: u64::from_be_bytes(ts),
        kind,
        seq,
        ttl_ms,
        value,
    };
    Some((cell, key, at))
}

/// The `NONE`-encoded cell at `at` in `block` as [`none_cell_ref`] reads it, its parts given
/// as places in the block: what a walk that holds no borrow of its block keeps.
#[inline(always)]
fn none_cell(b: &[u8], at: usize) -> Option<NoneCell> {
    let (c, key, end) = none_cell_ref(b, at)?;
    let base = b.as_ptr() as usize;
    let place = |s: &[u8]| {
        let from = s.as_ptr() as usize - base;
        (from, from + s.len())
    };
    let key = place(key);
    let key_at = key.0;
    let value = place(c.value);
    let within = |r: (usize, usize)| (r.0 - key_at, r.1 - key_at);
    Some(NoneCell {
        key,
        value,
        seq: c.seq,
        ttl_ms: c.ttl_ms,
        parts: (
            within(place(c.row)),
            within(place(c.family)),
            within(place(c.qualifier)),
            c.timestamp,
            c.kind,
        ),
        end,
    })
}

/// The row of the `NONE`-encoded cell at `at` in `block` and where the next cell starts,
/// reading no more than that: the lengths, the row, and the ends of the two varints after the
/// value. What a seek inside a block steps over its earlier cells with; `None` where the cell's
/// lengths or row do not read (the cell is left for [`CursorState::advance`] to report).
#[inline(always)]
pub(super) fn none_row_and_end(b: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let mut at = at;
    let key_len = len(b, &mut at)?;
    let value_len = len(b, &mut at)?;
    let key_end = at.checked_add(key_len)?;
    let row = key_row(b, at, key_end)?;
    // Past the key and value, then past the sequence id and the TTL.
    let end = key_end.checked_add(value_len)?;
    let end = varint_end(b, end)?;
    let end = varint_end(b, end)?;
    Some((row, end))
}

/// The row of the `NONE`-encoded cell at `at` in `block`, reading nothing after it: what a
/// row index compares a row start by. `None` where the cell's lengths or row do not read.
#[inline(always)]
pub(super) fn none_row(b: &[u8], at: usize) -> Option<&[u8]> {
    let mut at = at;
    let key_len = len(b, &mut at)?;
    // The value's length, unread.
    at = varint_end(b, at)?;
    key_row(b, at, at.checked_add(key_len)?)
}

/// The row inside the key at `key..key_end` of `b` (its length first, one byte under 128 for
/// nearly every row).
#[inline(always)]
fn key_row(b: &[u8], key: usize, key_end: usize) -> Option<&[u8]> {
    let mut k = key;
    let row_len = len(b, &mut k)?;
    let row_end = k.checked_add(row_len).filter(|e| *e <= key_end)?;
    b.get(k..row_end)
}

/// Where the varint at `at` ends (at its first byte under 0x80, within ten bytes); `None` when
/// `b` ends first or the varint runs longer.
#[inline(always)]
fn varint_end(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    loop {
        let byte = *b.get(i)?;
        i += 1;
        if byte < 0x80 {
            return Some(i);
        }
        if i - at == 10 {
            return None;
        }
    }
}

/// The row and the size ([`CellRef::size`]) of the `NONE`-encoded cell at `*at` in `block`,
/// moving past it; `None` where [`BlockCursor::advance`] would give an error. It reads what
/// `advance` reads without building the error a reload's recount of the key index does not
/// use: that recount needs only rows and sizes.
#[inline]
pub(crate) fn none_row_size<'a>(block: &'a [u8], at: &mut usize) -> Option<(&'a [u8], usize)> {
    let c = none_cell(block, *at)?;
    *at = c.end;
    let (row, family, qualifier, _, _) = c.parts;
    let size = (row.1 - row.0)
        + (family.1 - family.0)
        + (qualifier.1 - qualifier.0)
        + (c.value.1 - c.value.0)
        + crate::engine::KEYVALUE_FRAMING as usize;
    Some((c.row(block), size))
}

/// Writes one `NONE`-encoded cell at the end of `out`: every key whole and nothing remembered
/// between cells. The cell's bytes are counted first and room made for them once, then its
/// parts appended (the two lengths, the key as [`write_key`] writes it, the value, the sequence
/// id and the TTL), the short ones by fixed-size moves (`kit::append`) instead of copies of a
/// length known only when they run.
#[inline]
fn put_none_cell(out: &mut Vec<u8>, cell: CellRef<'_>) {
    use crate::kit::append::append;
    use crate::kit::varint::len as varint_len;
    let key_len = varint_len(cell.row.len() as u64)
        + cell.row.len()
        + varint_len(cell.family.len() as u64)
        + cell.family.len()
        + cell.qualifier.len()
        + KEY_TAIL;
    let total = varint_len(key_len as u64)
        + varint_len(cell.value.len() as u64)
        + key_len
        + cell.value.len()
        + varint_len(cell.seq)
        + varint_len(cell.ttl_ms);
    out.reserve(total);
    put_varint(out, key_len as u64);
    put_varint(out, cell.value.len() as u64);
    put_varint(out, cell.row.len() as u64);
    append(out, cell.row);
    put_varint(out, cell.family.len() as u64);
    append(out, cell.family);
    append(out, cell.qualifier);
    out.extend_from_slice(&cell.timestamp.to_be_bytes());
    out.push(cell.kind as u8);
    append(out, cell.value);
    put_varint(out, cell.seq);
    put_varint(out, cell.ttl_ms);
}

fn shared_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Writes the cells of blocks, remembering the previous cell of the block for the delta
/// encodings.
pub(crate) struct BlockEncoder {
    encoding: Encoding,
    key: Vec<u8>,
    prev_key: Vec<u8>,
    prev: Option<(u64, CellKind, u64, Vec<u8>)>,
}

impl BlockEncoder {
    pub fn new(encoding: Encoding) -> BlockEncoder {
        BlockEncoder {
            encoding,
            key: Vec::new(),
            prev_key: Vec::new(),
            prev: None,
        }
    }

    /// Forgets the previous cell: the next one starts a block.
    pub fn start_block(&mut self) {
        self.prev_key.clear();
        self.prev = None;
    }

    pub fn encode(&mut self, out: &mut Vec<u8>, cell: CellRef<'_>) {
        if self.encoding == Encoding::None {
            put_none_cell(out, cell);
            return;
        }
        self.key.clear();
        write_key(
            &mut self.key,
            cell.row,
            cell.family,
            cell.qualifier,
            cell.timestamp,
            cell.kind,
        );
        let key = &self.key;
        let value = cell.value;
        match self.encoding {
            // Written above.
            Encoding::None => {}
            Encoding::Prefix => {
                let common = if self.prev.is_some() {
                    shared_prefix(&self.prev_key, key)
                } else {
                    0
                };
                put_varint(out, key.len() as u64);
                put_varint(out, value.len() as u64);
                put_varint(out, common as u64);
                out.extend_from_slice(key.get(common..).unwrap_or_default());
                out.extend_from_slice(value);
                put_varint(out, cell.seq);
            }
            Encoding::FastDiff => {
                let stem = key.get(..key.len() - KEY_TAIL).unwrap_or_default();
                let mut flags = 0u8;
                let mut common = 0;
                let mut prev_seq = 0;
                if let Some((ts, kind, seq, prev_value)) = &self.prev {
                    if self.prev_key.len() == key.len() {
                        flags |= SAME_KEY_LEN;
                    }
                    if prev_value.len() == value.len() {
                        flags |= SAME_VALUE_LEN;
                    }
                    if *kind == cell.kind {
                        flags |= SAME_TYPE;
                    }
                    if prev_value == value {
                        flags |= SAME_VALUE;
                    }
                    if *ts == cell.timestamp {
                        flags |= SAME_TS;
                    }
                    let prev_stem = self
                        .prev_key
                        .get(..self.prev_key.len().saturating_sub(KEY_TAIL))
                        .unwrap_or_default();
                    common = shared_prefix(prev_stem, stem);
                    prev_seq = *seq;
                }
                let ts_bytes = cell.timestamp.to_be_bytes();
                let ts_skip = ts_bytes.iter().take_while(|b| **b == 0).count().min(7);
                flags |= (((8 - ts_skip) as u8 - 1) << TS_LEN_SHIFT) & TS_LEN_MASK;
                out.push(flags);
                if flags & SAME_KEY_LEN == 0 {
                    put_varint(out, key.len() as u64);
                }
                if flags & SAME_VALUE_LEN == 0 {
                    put_varint(out, value.len() as u64);
                }
                put_varint(out, common as u64);
                out.extend_from_slice(stem.get(common..).unwrap_or_default());
                if flags & SAME_TS == 0 {
                    out.extend_from_slice(ts_bytes.get(ts_skip..).unwrap_or_default());
                }
                if flags & SAME_TYPE == 0 {
                    out.push(cell.kind as u8);
                }
                if flags & SAME_VALUE == 0 {
                    out.extend_from_slice(value);
                }
                put_varint(out, zigzag(cell.seq.wrapping_sub(prev_seq) as i64));
            }
        }
        put_varint(out, cell.ttl_ms);
        std::mem::swap(&mut self.prev_key, &mut self.key);
        match &mut self.prev {
            Some((ts, kind, seq, v)) => {
                *ts = cell.timestamp;
                *kind = cell.kind;
                *seq = cell.seq;
                v.clear();
                v.extend_from_slice(value);
            }
            None => self.prev = Some((cell.timestamp, cell.kind, cell.seq, value.to_vec())),
        }
    }
}

/// Walks the cells of one data block in place. `advance` moves to the next cell; `current`
/// borrows it. The walk's position is a [`CursorState`], which holds no borrow of the block.
#[derive(Clone, Debug)]
pub struct BlockCursor<'a> {
    block: &'a [u8],
    state: CursorState,
}

/// Where a walk of one data block stands, without the block: what [`BlockCursor`] keeps
/// between cells. A compaction that owns its input blocks keeps one per input and hands it
/// the block at every step (see `engine::drain`), so that it can free a block once read.
#[derive(Clone, Debug)]
pub struct CursorState {
    encoding: Encoding,
    /// Where the next cell starts.
    at: usize,
    /// The current key, when an encoding rebuilt it; `NONE` keys are read in the block.
    key: Vec<u8>,
    key_in_block: Option<(usize, usize)>,
    value: (usize, usize),
    seq: u64,
    ttl_ms: u64,
    /// Parts of the current key: row, family, qualifier ranges, timestamp, kind.
    parts: Option<PartRanges>,
    /// Where the current cell starts when [`BlockCursor::next_in`] read it straight from a
    /// `NONE` block and handed it out without keeping its parts here: asked for again, it is
    /// read again from there.
    lazy: Option<usize>,
    /// Where the current cell starts, when `advance` read it (`lazy` says where otherwise).
    start: usize,
}

impl<'a> BlockCursor<'a> {
    /// A cursor before the first cell of `block`.
    pub fn new(block: &'a [u8], encoding: Encoding) -> BlockCursor<'a> {
        BlockCursor {
            block,
            state: CursorState::new(encoding),
        }
    }

    /// Moves to the next cell; false past the last one.
    #[inline]
    pub fn advance(&mut self) -> Result<bool, FormatError> {
        self.state.advance(self.block)
    }

    /// Steps over the cells whose row sorts before `row` (see
    /// [`CursorState::skip_rows_before`]).
    pub fn skip_rows_before(&mut self, row: &[u8]) {
        self.state.skip_rows_before(self.block, row);
    }

    /// Steps over the cells of a `NONE` block that start before `at`, which must be where a
    /// cell starts (a row start of the block's [`super::RowStarts`]) or the block's end; the
    /// next `advance` reads the cell at `at`. A cursor already past `at`, or in a block of
    /// another encoding, stays where it is.
    pub(crate) fn jump_to(&mut self, at: usize) {
        let s = &mut self.state;
        if s.encoding == Encoding::None && at > s.at && at <= self.block.len() {
            s.at = at;
        }
    }

    /// The block the cursor walks.
    pub fn block(&self) -> &'a [u8] {
        self.block
    }

    /// The cell the cursor is on, borrowed for as long as the block is: a key read in the
    /// block (`NONE`) is a slice of it, a key the encoding rebuilt (`PREFIX`, `FAST_DIFF`) is
    /// copied into `keys` first. The value is always a slice of the block.
    #[inline]
    pub fn current_in(&self, keys: &'a Decoded) -> Option<CellRef<'a>> {
        self.state.current_in(self.block, keys)
    }

    /// Moves to the next cell and borrows it, as [`BlockCursor::advance`] then
    /// [`BlockCursor::current_in`] do; `None` past the last cell or at a cell that does not
    /// read (which `advance` reports). See [`CursorState::next_in`].
    #[inline]
    pub fn next_in(&mut self, keys: &'a Decoded) -> Option<CellRef<'a>> {
        self.state.next_in(self.block, keys)
    }

    /// [`BlockCursor::next_in`] compiled into its caller: a read's run cursor, whose cells
    /// pass through the merge into the store scanner within one function (see the merge's
    /// `MergeIter::step`). Every other caller shares one copy.
    #[inline(always)]
    pub fn next_in_read(&mut self, keys: &'a Decoded) -> Option<CellRef<'a>> {
        self.state.next_in_inlined(self.block, keys)
    }

    /// The cell the cursor is on, if any.
    #[inline]
    pub fn current(&self) -> Option<CellRef<'_>> {
        self.state.current(self.block)
    }
}

impl CursorState {
    /// A walk before the first cell of a block written with `encoding`.
    pub fn new(encoding: Encoding) -> CursorState {
        CursorState {
            encoding,
            at: 0,
            key: Vec::new(),
            key_in_block: None,
            value: (0, 0),
            seq: 0,
            ttl_ms: 0,
            parts: None,
            lazy: None,
            start: 0,
        }
    }

    /// Starts over before the first cell of another block (the key's buffer kept).
    pub fn restart(&mut self) {
        self.at = 0;
        self.key.clear();
        self.key_in_block = None;
        self.value = (0, 0);
        self.seq = 0;
        self.ttl_ms = 0;
        self.parts = None;
        self.lazy = None;
        self.start = 0;
    }

    /// Moves to the next cell of `block` (the block this walk started in); false past the
    /// last one.
    pub fn advance(&mut self, block: &[u8]) -> Result<bool, FormatError> {
        // Nearly every `NONE` cell reads in one pass, here; the end of the block, the delta
        // encodings and a cell that does not read (read again to say what is wrong with it)
        // take the general path.
        if self.step_none(block).is_some() {
            return Ok(true);
        }
        self.advance_general(block)
    }

    /// Moves to the next cell of `block` (the block this walk started in) and borrows it, as
    /// [`CursorState::advance`] then [`CursorState::current_in`] do; `None` past the last cell
    /// or at a cell that does not read. A `NONE` cell is built straight from the block and
    /// its parts are not kept: asked for again (`current`), it is read again.
    #[inline(never)]
    pub fn next_in<'b>(&mut self, block: &'b [u8], keys: &'b Decoded) -> Option<CellRef<'b>> {
        self.next_in_inlined(block, keys)
    }

    /// The current cell's bytes as the block holds them, when the block is `NONE`-encoded:
    /// what writing the cell to another `NONE` block writes (a compaction copies them instead
    /// of encoding the cell again). `None` for the delta encodings, whose cells depend on the
    /// cell before.
    #[inline]
    pub fn none_encoded<'b>(&self, block: &'b [u8]) -> Option<&'b [u8]> {
        if self.encoding != Encoding::None {
            return None;
        }
        block.get(self.lazy.unwrap_or(self.start)..self.at)
    }

    /// [`CursorState::next_in`], always compiled into its caller (see
    /// [`BlockCursor::next_in_read`]).
    #[inline(always)]
    fn next_in_inlined<'b>(&mut self, block: &'b [u8], keys: &'b Decoded) -> Option<CellRef<'b>> {
        if self.encoding == Encoding::None && self.at < block.len() {
            if let Some((cell, _, end)) = none_cell_ref(block, self.at) {
                self.lazy = Some(self.at);
                self.at = end;
                return Some(cell);
            }
        }
        match self.advance(block) {
            Ok(true) => self.current_in(block, keys),
            _ => None,
        }
    }

    /// Steps over the next cell in one pass when the block is `NONE`-encoded and the cell reads,
    /// and returns it; `None` leaves the walk where it was, for the general path.
    #[inline]
    fn step_none(&mut self, block: &[u8]) -> Option<NoneCell> {
        if self.encoding != Encoding::None || self.at >= block.len() {
            return None;
        }
        let c = none_cell(block, self.at)?;
        self.lazy = None;
        self.start = self.at;
        self.key_in_block = Some(c.key);
        self.value = c.value;
        self.seq = c.seq;
        self.ttl_ms = c.ttl_ms;
        self.at = c.end;
        self.parts = Some(c.parts);
        Some(c)
    }

    #[inline(never)]
    fn advance_general(&mut self, block: &[u8]) -> Result<bool, FormatError> {
        self.lazy = None;
        self.start = self.at;
        if self.at >= block.len() {
            self.parts = None;
            return Ok(false);
        }
        let b = block;
        let mut at = self.at;
        let first = self.parts.is_none();
        match self.encoding {
            Encoding::None => {
                let key_len = get_len(b, &mut at)?;
                let value_len = get_len(b, &mut at)?;
                let key_at = at;
                take(b, &mut at, key_len)?;
                self.key_in_block = Some((key_at, at));
                let value_at = at;
                take(b, &mut at, value_len)?;
                self.value = (value_at, at);
                self.seq = get_varint(b, &mut at)?;
            }
            Encoding::Prefix => {
                let key_len = get_len(b, &mut at)?;
                let value_len = get_len(b, &mut at)?;
                let common = get_len(b, &mut at)?;
                if common > self.key.len() || common > key_len || (first && common > 0) {
                    return Err(FormatError::Invalid(format!(
                        "shared key prefix {common} longer than the previous key at byte {at}"
                    )));
                }
                self.key.truncate(common);
                self.key
                    .extend_from_slice(take(b, &mut at, key_len - common)?);
                self.key_in_block = None;
                let value_at = at;
                take(b, &mut at, value_len)?;
                self.value = (value_at, at);
                self.seq = get_varint(b, &mut at)?;
            }
            Encoding::FastDiff => {
                let flags = *b.get(at).ok_or(FormatError::Truncated(at))?;
                at += 1;
                if first
                    && flags & (SAME_KEY_LEN | SAME_VALUE_LEN | SAME_TYPE | SAME_VALUE | SAME_TS)
                        != 0
                {
                    return Err(FormatError::Invalid(
                        "a block's first cell refers to a previous one".into(),
                    ));
                }
                let (prev_ts, prev_kind) = match self.parts {
                    Some((_, _, _, ts, kind)) => (ts, kind),
                    None => (0, CellKind::Put),
                };
                let key_len = if flags & SAME_KEY_LEN != 0 {
                    self.key.len()
                } else {
                    get_len(b, &mut at)?
                };
                let value_len = if flags & SAME_VALUE_LEN != 0 {
                    self.value.1 - self.value.0
                } else {
                    get_len(b, &mut at)?
                };
                let stem_len = key_len
                    .checked_sub(KEY_TAIL)
                    .ok_or_else(|| FormatError::Invalid("key too short".into()))?;
                let common = get_len(b, &mut at)?;
                let prev_stem = self.key.len().saturating_sub(KEY_TAIL);
                if common > prev_stem || common > stem_len {
                    return Err(FormatError::Invalid(format!(
                        "shared key prefix {common} longer than the previous key at byte {at}"
                    )));
                }
                self.key.truncate(common);
                self.key
                    .extend_from_slice(take(b, &mut at, stem_len - common)?);
                let ts = if flags & SAME_TS != 0 {
                    prev_ts
                } else {
                    let n = usize::from(((flags & TS_LEN_MASK) >> TS_LEN_SHIFT) + 1);
                    let mut ts = [0u8; 8];
                    ts[8 - n..].copy_from_slice(take(b, &mut at, n)?);
                    u64::from_be_bytes(ts)
                };
                let kind = if flags & SAME_TYPE != 0 {
                    prev_kind
                } else {
                    let code = *b.get(at).ok_or(FormatError::Truncated(at))?;
                    at += 1;
                    CellKind::from_code(code)
                        .ok_or_else(|| FormatError::Invalid(format!("unknown cell type {code}")))?
                };
                self.key.extend_from_slice(&ts.to_be_bytes());
                self.key.push(kind as u8);
                self.key_in_block = None;
                if flags & SAME_VALUE == 0 {
                    let value_at = at;
                    take(b, &mut at, value_len)?;
                    self.value = (value_at, at);
                }
                let delta = unzigzag(get_varint(b, &mut at)?);
                self.seq = if first { 0 } else { self.seq }.wrapping_add(delta as u64);
            }
        }
        self.ttl_ms = get_varint(b, &mut at)?;
        self.at = at;
        self.parts = Some(self.parse_key(block)?);
        Ok(true)
    }

    /// Steps over the cells whose row sorts before `row` without reading them whole, in a
    /// `NONE` block, where a key's row is read in place (the delta encodings rebuild every key,
    /// and this leaves them where they are). The next `advance` reads the first cell at or
    /// after `row`; a damaged cell stops the skip there, for `advance` to report.
    pub fn skip_rows_before(&mut self, block: &[u8], row: &[u8]) {
        if self.encoding != Encoding::None {
            return;
        }
        while let Some((cell_row, end)) = none_row_and_end(block, self.at) {
            if cell_row >= row {
                return;
            }
            self.at = end;
        }
    }

    fn key_bytes<'k>(&'k self, block: &'k [u8]) -> &'k [u8] {
        match self.key_in_block {
            Some((s, e)) => block.get(s..e).unwrap_or_default(),
            None => &self.key,
        }
    }

    /// The cell the walk is on in `block` (the block it walks), if any.
    #[inline]
    pub fn current<'k>(&'k self, block: &'k [u8]) -> Option<CellRef<'k>> {
        if let Some(start) = self.lazy {
            return none_cell_ref(block, start).map(|(c, _, _)| c);
        }
        self.cell(self.key_bytes(block), block)
    }

    /// The cell the walk is on in `block`, borrowed for as long as `block` and `keys` are and
    /// not from the walk, which can move on: a key read in the block (`NONE`) is a slice of
    /// it, a key the encoding rebuilt (`PREFIX`, `FAST_DIFF`) is copied into `keys` first.
    /// What [`BlockCursor::current_in`] gives, for a walk that holds no borrow of its block (a
    /// compaction's, `engine::drain`).
    #[inline]
    pub fn current_in<'b>(&self, block: &'b [u8], keys: &'b Decoded) -> Option<CellRef<'b>> {
        if let Some(start) = self.lazy {
            return none_cell_ref(block, start).map(|(c, _, _)| c);
        }
        let key: &'b [u8] = match self.key_in_block {
            Some((s, e)) => block.get(s..e)?,
            None => keys.alloc_extend(&self.key),
        };
        self.cell(key, block)
    }

    fn parse_key(&self, block: &[u8]) -> Result<PartRanges, FormatError> {
        let key = self.key_bytes(block);
        let (row, family, qualifier, ts, kind) = split_key(key)?;
        let base = key.as_ptr() as usize;
        let range = |s: &[u8]| {
            let start = s.as_ptr() as usize - base;
            (start, start + s.len())
        };
        Ok((range(row), range(family), range(qualifier), ts, kind))
    }

    /// The current cell's parts cut out of its key and the block holding its value.
    #[inline]
    fn cell<'k>(&self, key: &'k [u8], block: &'k [u8]) -> Option<CellRef<'k>> {
        let (row, family, qualifier, timestamp, kind) = self.parts?;
        Some(CellRef {
            row: key.get(row.0..row.1)?,
            family: key.get(family.0..family.1)?,
            qualifier: key.get(qualifier.0..qualifier.1)?,
            timestamp,
            kind,
            seq: self.seq,
            ttl_ms: self.ttl_ms,
            value: block.get(self.value.0..self.value.1)?,
        })
    }
}
