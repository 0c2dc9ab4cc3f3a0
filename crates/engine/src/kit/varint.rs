//! LEB128 varints: an unsigned number seven bits a byte, low bits first, the top bit set on
//! every byte but the last. Numbers under 128 take one byte. Block files and the storage codec
//! both write their lengths and counts this way.

use thiserror::Error;

/// Why a varint could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VarintError {
    /// The bytes ended inside the varint; the offset is where the next byte should have been.
    #[error("truncated at byte {0}")]
    Truncated(usize),
    /// More than ten bytes, or a tenth byte holding more than the 64th bit.
    #[error("varint too long at byte {0}")]
    TooLong(usize),
}

/// Appends `v` to `out`. Numbers under 128 (nearly every length) take the short path.
#[inline]
pub fn put(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        put_long(out, v);
    }
}

fn put_long(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The bytes [`put`] writes for `v`: one per seven significant bits.
pub fn len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

/// Reads a varint at `*at`, moving past it. Numbers under 128 (nearly every length) take the
/// short path.
#[inline]
pub fn get(b: &[u8], at: &mut usize) -> Result<u64, VarintError> {
    match b.get(*at) {
        Some(&byte) if byte < 0x80 => {
            *at += 1;
            Ok(u64::from(byte))
        }
        _ => get_long(b, at),
    }
}

/// [`get`] with numbers of up to three bytes (under 2^21) read in line, not only those under
/// 128: for a number that is usually that long, as a cell's sequence id is, where every cell
/// of a read or a compaction reads one.
#[inline(always)]
pub fn get_short(b: &[u8], at: &mut usize) -> Result<u64, VarintError> {
    let start = *at;
    match *b.get(start..).unwrap_or_default() {
        [b0, ..] if b0 < 0x80 => {
            *at = start + 1;
            Ok(u64::from(b0))
        }
        [b0, b1, ..] if b1 < 0x80 => {
            *at = start + 2;
            Ok(u64::from(b0 & 0x7f) | u64::from(b1) << 7)
        }
        [b0, b1, b2, ..] if b2 < 0x80 => {
            *at = start + 3;
            Ok(u64::from(b0 & 0x7f) | u64::from(b1 & 0x7f) << 7 | u64::from(b2) << 14)
        }
        _ => get_long(b, at),
    }
}

fn get_long(b: &[u8], at: &mut usize) -> Result<u64, VarintError> {
    let start = *at;
    let rest = b.get(start..).unwrap_or_default();
    // Two and three bytes (numbers under 2^21: sequence ids, most lengths over 127) read
    // straight.
    match *rest {
        [b0, b1, ..] if b0 >= 0x80 && b1 < 0x80 => {
            *at = start + 2;
            return Ok(u64::from(b0 & 0x7f) | u64::from(b1) << 7);
        }
        [b0, b1, b2, ..] if b0 >= 0x80 && b1 >= 0x80 && b2 < 0x80 => {
            *at = start + 3;
            return Ok(u64::from(b0 & 0x7f) | u64::from(b1 & 0x7f) << 7 | u64::from(b2) << 14);
        }
        _ => {}
    }
    let mut v: u64 = 0;
    for (i, &byte) in rest.iter().take(10).enumerate() {
        if i == 9 && byte > 1 {
            *at = start + 10;
            return Err(VarintError::TooLong(*at));
        }
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            *at = start + i + 1;
            return Ok(v);
        }
    }
    // Ten bytes with the top bit set end in the check above; fewer end the input.
    *at = start + rest.len().min(10);
    Err(VarintError::Truncated(*at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_byte_counts() -> Result<(), VarintError> {
        for (v, len) in [
            (0u64, 1usize),
            (127, 1),
            (128, 2),
            (300, 2),
            (16_383, 2),
            (16_384, 3),
            (2_097_151, 3),
            (2_097_152, 4),
            (u64::MAX, 10),
        ] {
            let mut out = Vec::new();
            put(&mut out, v);
            assert_eq!(out.len(), len, "{v}");
            assert_eq!(super::len(v), len, "{v}");
            let mut at = 0;
            assert_eq!(get(&out, &mut at)?, v);
            assert_eq!(at, len);
            let mut at = 0;
            assert_eq!(get_short(&out, &mut at)?, v, "{v} read short");
            assert_eq!(at, len);
        }
        let mut out = Vec::new();
        put(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
        Ok(())
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut ten = vec![0xff; 9];
        ten.push(0x02);
        for read in [get, get_short] {
            let mut at = 0;
            assert_eq!(read(&[0x80, 0x80], &mut at), Err(VarintError::Truncated(2)));
            let mut at = 0;
            assert_eq!(
                read(&[0x80, 0x80, 0x80], &mut at),
                Err(VarintError::Truncated(3))
            );
            let mut at = 0;
            assert_eq!(read(&[], &mut at), Err(VarintError::Truncated(0)));
            let mut at = 0;
            assert_eq!(read(&[0xff; 11], &mut at), Err(VarintError::TooLong(10)));
            let mut at = 0;
            assert_eq!(read(&ten, &mut at), Err(VarintError::TooLong(10)));
        }
    }
}
