//! Small pieces of knowledge the rest of Rowkey shares, each written once: numbers as a person
//! reads them ([`text`]), civil dates and time zones ([`civil`]), LEB128 varints ([`varint`]),
//! the seeded generator ([`seeded`]), a fast hash for maps of a person's own keys ([`hash`]),
//! the CRC-32 of saved bytes ([`crc32`]), base64 text of bytes ([`base64`]), sorting outside
//! the engine's hot paths ([`order`]) and the small ordered maps and sets there ([`sorted`]),
//! byte strings side by side in one buffer ([`packed`]),
//! a binary search over positions ([`partition`]) and the page's byte comparison ([`compare`]).

pub mod append;
pub mod base64;
pub mod civil;
pub mod compare;
pub mod crc32;
pub mod hash;
pub mod order;
pub mod packed;
pub mod regex;
pub mod seeded;
pub mod sorted;
pub mod text;
pub mod varint;

/// The number of leading `i` in `0..n` for which `pred` holds (it must hold for a prefix and
/// for nothing after it): a binary search over positions, for what is not one slice.
#[inline]
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn partition(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
