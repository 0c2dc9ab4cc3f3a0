//! Short byte strings appended to a buffer by fixed-size moves: a result row's copies and a
//! block writer's.
//!
//! A copy whose length is known only when it runs (a qualifier, a value) compiles in
//! WebAssembly to one `memory.copy`, which the browser carries out as a call into its runtime:
//! a few nanoseconds whatever the length, the whole cost of copying the two-byte qualifier and
//! the sixteen-byte value of a typical cell. A read copies the qualifier and value of every
//! cell it returns, a flush or a compaction the parts of every cell it writes. Here a string
//! of at most [`SHORT`] bytes is appended as its first and last eight bytes (two fixed-size
//! moves that overlap for a shorter one), or four, or two, or one, which the compiler writes
//! as plain loads and stores.

use std::mem::MaybeUninit;

/// The longest string appended by fixed-size moves; a longer one is one `memory.copy`.
pub const SHORT: usize = 16;

/// Appends `src` to `out`.
#[inline(always)]
pub fn append(out: &mut Vec<u8>, src: &[u8]) {
    let n = src.len();
    if n > SHORT || n == 0 {
        out.extend_from_slice(src);
        return;
    }
    out.reserve(n);
    let len = out.len();
    let room = out.spare_capacity_mut();
    let written = match n {
        1 => put::<1>(room, src, 0),
        2..=3 => put::<2>(room, src, 0) && put::<2>(room, src, n - 2),
        4..=7 => put::<4>(room, src, 0) && put::<4>(room, src, n - 4),
        _ => put::<8>(room, src, 0) && put::<8>(room, src, n - 8),
    };
    if !written {
        out.extend_from_slice(src);
        return;
    }
    // SAFETY: the moves above wrote bytes `0..W` and `n - W..n` of the room past the
    // buffer's length (`reserve(n)` made at least `n` bytes of it), with `W <= n <= 2 * W`:
    // together `0..n`, so the `n` bytes the length now takes in are written.
    unsafe { out.set_len(len + n) }
}

/// Writes `src[at..at + W]` to `room[at..at + W]` as one move of `W` bytes; false (nothing
/// written) where either is too short.
#[inline(always)]
fn put<const W: usize>(room: &mut [MaybeUninit<u8>], src: &[u8], at: usize) -> bool {
    let (Some(from), Some(to)) = (src.get(at..at + W), room.get_mut(at..at + W)) else {
        return false;
    };
    let mut word = [0u8; W];
    word.copy_from_slice(from);
    to.copy_from_slice(&word.map(MaybeUninit::new));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_appends_exactly() {
        let src: Vec<u8> = (0..40u8)
            .map(|i| i.wrapping_mul(29).wrapping_add(3))
            .collect();
        for n in 0..=SHORT + 8 {
            for held in [0usize, 3, 8] {
                let mut out: Vec<u8> = (0..held as u8).collect();
                append(&mut out, &src[..n]);
                assert_eq!(out.len(), held + n, "{n} bytes after {held}");
                assert!(out[..held].iter().copied().eq(0..held as u8));
                assert_eq!(&out[held..], &src[..n], "{n} bytes after {held}");
            }
        }
    }
}
