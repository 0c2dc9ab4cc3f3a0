//! A history's head in binary: its grid of counts (most of its bytes) in binary, the rest as
//! the JSON it always was. What Rowkey writes from record version 2 of an activity head on.
//!
//! The grid holds 512 × 64 counts of reads and of writes and a wall-clock time per time
//! bucket; a full history's grid has tens of thousands of non-zero entries, which as JSON
//! (`[index, count]` pairs read through a value tree) cost a tenth of a reload's work. Here:
//!
//! ```text
//! payload: JSON length (varint) | the head as JSON, its grid empty | grid
//! grid:    origin (0, or 1 and a varint) | width (varint) | reads | writes | wall_ms
//! counts:  length (varint) | entries (varint) | entry * entries
//! entry:   index (varint: the difference from the entry before's, the first from 0) | value (varint)
//! ```
//!
//! Entries are the non-zero counts in index order; the record's CRC (the frame's) covers it all.
//! Heads stored as JSON (record version 1) still read.

use crate::engine::Grid;
use crate::persist::codec::{CodecError, Reader, Writer};

/// The record version of a history's head with its grid in binary.
pub(crate) const BINARY_HEAD_VERSION: u8 = 2;

/// Most entries a grid's counts may have (as its JSON reader allows).
const MAX_GRID: u64 = 1 << 22;

/// The grid a head's JSON carries when the grid follows in binary.
pub(crate) fn empty_grid() -> Grid {
    Grid {
        origin: None,
        width: 1,
        reads: Vec::new(),
        writes: Vec::new(),
        wall_ms: Vec::new(),
    }
}

/// The payload of a binary head: `json` (the head with [`empty_grid`]) and `grid`.
pub(crate) fn encode_head_payload(json: &str, grid: &Grid) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::with_capacity(json.len() + 16 + grid.reads.len()),
    };
    w.bytes(json.as_bytes());
    match grid.origin {
        None => w.out.push(0),
        Some(o) => {
            w.out.push(1);
            w.varint(o);
        }
    }
    w.varint(grid.width);
    let wide = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<u64>>();
    counts(&mut w, &wide(&grid.reads));
    counts(&mut w, &wide(&grid.writes));
    counts(&mut w, &grid.wall_ms);
    w.out
}

fn counts(w: &mut Writer, values: &[u64]) {
    w.varint(values.len() as u64);
    w.varint(values.iter().filter(|v| **v != 0).count() as u64);
    let mut last = 0u64;
    for (i, v) in values.iter().enumerate().filter(|(_, v)| **v != 0) {
        w.varint(i as u64 - last);
        w.varint(*v);
        last = i as u64;
    }
}

/// The head's JSON text and its grid, from a binary head's payload.
pub(crate) fn decode_head_payload(payload: &[u8]) -> Result<(&str, Grid), CodecError> {
    let mut r = Reader::new(payload);
    let json = std::str::from_utf8(r.bytes()?)
        .map_err(|_| CodecError::Invalid("the head's JSON is not UTF-8".into()))?;
    let origin = match r.byte()? {
        0 => None,
        1 => Some(r.varint()?),
        b => return Err(CodecError::Invalid(format!("grid origin tag {b}"))),
    };
    let width = r.varint()?;
    let narrow = |v: Vec<u64>| -> Result<Vec<u32>, CodecError> {
        v.into_iter()
            .map(|x| {
                u32::try_from(x).map_err(|_| {
                    CodecError::Invalid(format!("a count of {x} is above {}", u32::MAX))
                })
            })
            .collect()
    };
    let reads = narrow(read_counts(&mut r)?)?;
    let writes = narrow(read_counts(&mut r)?)?;
    let wall_ms = read_counts(&mut r)?;
    if !r.done() {
        return Err(CodecError::Invalid("bytes after the grid".into()));
    }
    Ok((
        json,
        Grid {
            origin,
            width,
            reads,
            writes,
            wall_ms,
        },
    ))
}

fn read_counts(r: &mut Reader<'_>) -> Result<Vec<u64>, CodecError> {
    let len = r.varint()?;
    if len > MAX_GRID {
        return Err(CodecError::Invalid(format!("a grid of {len} entries")));
    }
    let mut values = vec![0u64; len as usize];
    let entries = r.varint()?;
    if entries > len {
        return Err(CodecError::Invalid(format!(
            "{entries} entries in a grid of {len}"
        )));
    }
    let mut at = 0u64;
    for i in 0..entries {
        let step = r.varint()?;
        // After the first entry every index moves on.
        if i > 0 && step == 0 {
            return Err(CodecError::Invalid("a grid entry written twice".into()));
        }
        at = at
            .checked_add(step)
            .ok_or_else(|| CodecError::Invalid("a grid index out of range".into()))?;
        let slot = usize::try_from(at).ok().and_then(|i| values.get_mut(i));
        *slot.ok_or_else(|| CodecError::Invalid(format!("entry {at} past the grid's {len}")))? =
            r.varint()?;
    }
    Ok(values)
}
