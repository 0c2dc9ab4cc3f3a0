//! A stored chunk of a history's operations in binary: what Rowkey writes from record version
//! 2 of [`BlobKind::Activity`] on.
//!
//! A history holds up to 100,000 operations, and a reload reads them all. As JSON
//! ([`super::chunk_text`]) an operation took a hundred bytes or more of text (its keys in base64,
//! every member named), 10 to 14 MB for a full history, and reading it back was a third of a
//! reload's work. Here an operation takes about twenty bytes:
//!
//! ```text
//! payload:   first (varint) | count (varint) | operation * count
//! operation: flags (u8: 1 = a write, 2 = it has a stop key) | start (varint length, bytes)
//!            | stop (varint length, bytes; only with flag 2) | region (varint)
//!            | tick (zigzag varint: the difference from the operation before's, 0 before the first)
//!            | wall_ms (zigzag varint, the same way) | place (f32, little-endian)
//! ```
//!
//! Ticks and wall-clock times mostly grow by a little from one operation to the next, so
//! their differences take a byte or two; the differences wrap, so any `u64` reads back as it
//! was. The record's CRC (the frame's) covers it all. Chunks stored as JSON (record version 1)
//! still read, through the JSON readers.

use crate::engine::{Op, OpKind};
use crate::persist::codec::{frame_version, BlobKind, CodecError, Reader, Writer};

/// The record version of an activity chunk in binary.
pub(crate) const BINARY_CHUNK_VERSION: u8 = 2;

const WRITE: u8 = 1;
const HAS_STOP: u8 = 2;

/// A chunk numbered from `first` as its binary record.
pub(crate) fn encode_binary_chunk(first: u64, ops: &[Op]) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::with_capacity(16 + ops.len() * 24),
    };
    w.varint(first);
    w.varint(ops.len() as u64);
    let (mut tick, mut wall) = (0u64, 0u64);
    for op in ops {
        let mut flags = 0;
        if op.kind == OpKind::Write {
            flags |= WRITE;
        }
        if op.stop.is_some() {
            flags |= HAS_STOP;
        }
        w.out.push(flags);
        w.bytes(&op.start);
        if let Some(stop) = &op.stop {
            w.bytes(stop);
        }
        w.varint(op.region);
        w.varint(zigzag(op.tick.wrapping_sub(tick)));
        w.varint(zigzag(op.wall_ms.wrapping_sub(wall)));
        w.out.extend_from_slice(&op.place.to_le_bytes());
        (tick, wall) = (op.tick, op.wall_ms);
    }
    frame_version(BlobKind::Activity, BINARY_CHUNK_VERSION, &w.out)
}

/// The first operation number and the operations of a binary chunk's payload (unframed).
pub(crate) fn decode_binary_chunk(payload: &[u8]) -> Result<(u64, Vec<Op>), CodecError> {
    let mut r = Reader::new(payload);
    let first = r.varint()?;
    let n = r.varint()?;
    // Every operation takes at least eight bytes: a count above that is damage.
    let n = usize::try_from(n)
        .ok()
        .filter(|n| n.saturating_mul(8) <= payload.len())
        .ok_or_else(|| CodecError::Invalid(format!("{n} operations in {} bytes", payload.len())))?;
    let mut ops = Vec::with_capacity(n);
    let (mut tick, mut wall) = (0u64, 0u64);
    for _ in 0..n {
        let flags = r.byte()?;
        if flags & !(WRITE | HAS_STOP) != 0 {
            return Err(CodecError::Invalid(format!(
                "unknown operation flags {flags:#04x}"
            )));
        }
        let kind = if flags & WRITE != 0 {
            OpKind::Write
        } else {
            OpKind::Read
        };
        let start = r.bytes()?.to_vec();
        let stop = if flags & HAS_STOP != 0 {
            Some(r.bytes()?.to_vec())
        } else {
            None
        };
        let region = r.varint()?;
        tick = tick.wrapping_add(unzigzag(r.varint()?));
        wall = wall.wrapping_add(unzigzag(r.varint()?));
        let place = r.take(4)?;
        let place = f32::from_le_bytes([place[0], place[1], place[2], place[3]]);
        ops.push(Op {
            kind,
            start,
            stop,
            region,
            tick,
            wall_ms: wall,
            place,
        });
    }
    if !r.done() {
        return Err(CodecError::Invalid("bytes after the last operation".into()));
    }
    Ok((first, ops))
}

/// A wrapping difference as a small number: 0, -1, 1, -2, 2 ... become 0, 1, 2, 3, 4 ...
fn zigzag(d: u64) -> u64 {
    let d = d as i64;
    ((d << 1) ^ (d >> 63)) as u64
}

fn unzigzag(z: u64) -> u64 {
    (z >> 1) ^ (z & 1).wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_round_trips_the_extremes() {
        for d in [
            0,
            1,
            2,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            (1 << 63) - 1,
            1 << 40,
        ] {
            assert_eq!(unzigzag(zigzag(d)), d, "{d}");
        }
        assert_eq!(zigzag(0), 0);
        assert_eq!(zigzag(u64::MAX), 1);
        assert_eq!(zigzag(1), 2);
    }
}
