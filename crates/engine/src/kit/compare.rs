//! Byte strings compared eight bytes at a time: the page's `memcmp`.
//!
//! Every comparison of byte slices (`<[u8]>::cmp`, `==`) ends in a call to `memcmp`, and the
//! one WebAssembly gets from the compiler's runtime compares a byte at a time. Keys are
//! compared on every step of a read, a merge and a binary search, so in the browser the engine
//! supplies its own, which reads eight bytes at once and looks at single bytes only where two
//! words differ. Native builds keep the system's, which is vectorized.

/// `a` against `b`, both of the same length, as `memcmp` answers: the difference of the first
/// two bytes that differ, or 0. Never inlined: every comparison in the program calls it, and
/// one copy keeps the download small.
///
/// Eight bytes at a time, and the bytes after the last whole word as one more word that ends
/// where the strings end (it overlaps bytes already found equal, so its first difference is
/// the strings' first): a 23-byte row key is three words, not two words and seven bytes.
/// Shorter than a word, the same with four bytes, then single bytes.
#[inline(never)]
pub fn difference(a: &[u8], b: &[u8]) -> i32 {
    let n = a.len().min(b.len());
    let (a, b) = (
        a.get(..n).unwrap_or_default(),
        b.get(..n).unwrap_or_default(),
    );
    if n >= 8 {
        let mut a_words = a.chunks_exact(8);
        for (x, y) in (&mut a_words).zip(b.chunks_exact(8)) {
            let (x, y) = (word(x), word(y));
            if x != y {
                return first_difference(x, y);
            }
        }
        if a_words.remainder().is_empty() {
            return 0;
        }
        let (x, y) = (word(&a[n - 8..]), word(&b[n - 8..]));
        return if x == y { 0 } else { first_difference(x, y) };
    }
    if n >= 4 {
        for at in [0, n - 4] {
            let (x, y) = (half(&a[at..at + 4]), half(&b[at..at + 4]));
            if x != y {
                return first_difference(u64::from(x), u64::from(y));
            }
        }
        return 0;
    }
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return i32::from(*x) - i32::from(*y);
        }
    }
    0
}

/// The difference of the first bytes that differ between two little-endian words read from
/// the same place of two strings (`x != y`): the first byte in memory is the word's lowest,
/// so it is the one holding the difference's lowest set bit.
#[inline(always)]
fn first_difference(x: u64, y: u64) -> i32 {
    let at = (x ^ y).trailing_zeros() / 8;
    let byte = |w: u64| (w >> (at * 8)) as u8;
    i32::from(byte(x)) - i32::from(byte(y))
}

/// The eight bytes of `chunk` as a little-endian word.
#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(chunk);
    u64::from_le_bytes(w)
}

/// The four bytes of `chunk` as a little-endian number.
#[inline(always)]
fn half(chunk: &[u8]) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(chunk);
    u32::from_le_bytes(w)
}

/// The `memcmp` the WebAssembly build links in place of the runtime's byte loop.
///
/// # Safety
///
/// `a` and `b` must each point to `n` readable bytes, as every caller of `memcmp` promises.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    if n == 0 {
        return 0;
    }
    // SAFETY: the caller passes two ranges of `n` readable bytes (above), and `n` is not 0, so
    // neither pointer is the null a caller may pass with no bytes.
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts(a, n),
            std::slice::from_raw_parts(b, n),
        )
    };
    difference(a, b)
}

/// `bcmp`, which the compiler calls where only equality matters: [`memcmp`].
///
/// # Safety
///
/// As [`memcmp`].
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the same promise as `memcmp`'s, passed on.
    unsafe { memcmp(a, b, n) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    /// [`difference`] as an ordering, as `<[u8]>::cmp` orders with `memcmp`.
    fn order(a: &[u8], b: &[u8]) -> Ordering {
        match difference(a, b) {
            0 => a.len().cmp(&b.len()),
            d if d < 0 => Ordering::Less,
            _ => Ordering::Greater,
        }
    }

    #[test]
    fn the_first_differing_byte_decides_in_every_position_of_a_word() {
        for len in 0..40usize {
            let a: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(difference(&a, &a), 0, "equal, {len} bytes");
            for at in 0..len {
                for delta in [1u8, 0x7f, 0x80, 0xff] {
                    let mut b = a.clone();
                    b[at] = b[at].wrapping_add(delta);
                    let want = i32::from(a[at]) - i32::from(b[at]);
                    assert_eq!(difference(&a, &b), want, "{len} bytes, byte {at} + {delta}");
                    assert_eq!(order(&a, &b), a.cmp(&b));
                    // A later difference does not count.
                    if at + 1 < len {
                        b[len - 1] = b[len - 1].wrapping_add(1);
                        assert_eq!(difference(&a, &b), want);
                    }
                }
            }
        }
    }

    #[test]
    fn the_order_is_the_standard_librarys_on_keys_of_a_table() {
        let keys: Vec<&[u8]> = vec![
            b"",
            b"\x00",
            b"\xff",
            b"row",
            b"row\x00",
            b"row1",
            b"row10",
            b"row2",
            b"user-0000000001-r1",
            b"user-0000000001-r2",
            b"user-0000000010-r1",
            b"\xff\xff\xff\xff\xff\xff\xff\xfe",
            b"\xff\xff\xff\xff\xff\xff\xff\xff",
        ];
        for a in &keys {
            for b in &keys {
                assert_eq!(order(a, b), a.cmp(b), "{a:?} against {b:?}");
            }
        }
    }
}
