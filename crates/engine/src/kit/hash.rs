//! A fast hash for maps keyed by a person's own row keys in their own tab, where the standard
//! library's SipHash, built to resist keys chosen to collide, cost a fifth of a diagnosis of
//! ten thousand writes. Words of eight bytes are folded in by a rotate, an xor and a multiply
//! (the hash the Rust compiler uses for its own tables).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: eight bytes a step.
#[derive(Clone, Copy, Default)]
pub struct Fold(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Fold {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for Fold {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.add(u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    /// The state's high half, its best-mixed bits (a multiply carries every bit upwards,
    /// none down), folded into its low half: a map on a 32-bit target (WebAssembly) takes its
    /// slot and its control byte from the low 32 bits alone, which for keys that differ only
    /// in the last four bytes of a word (`k0000001`, `k0000002`) were all the same, so that
    /// every insert probed past every key before it. The top bits, which a 64-bit map's control
    /// byte comes from, stay as they were.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

/// A hash map with [`Fold`] as its hasher.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fold>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_short_keys_apart() {
        let mut counts: FastMap<&[u8], usize> = FastMap::default();
        for key in [&b"row1"[..], b"row2", b"row1", b"", b"row10000000", b"row1"] {
            *counts.entry(key).or_default() += 1;
        }
        assert_eq!(counts.get(&b"row1"[..]), Some(&3));
        assert_eq!(counts.get(&b"row2"[..]), Some(&1));
        assert_eq!(counts.get(&b""[..]), Some(&1));
        assert_eq!(counts.len(), 4);
        let hash = |k: &[u8]| {
            let mut h = Fold::default();
            std::hash::Hash::hash(k, &mut h);
            h.finish()
        };
        assert_ne!(hash(b"row1"), hash(b"row2"));
        // A slice is hashed with its length first: a key and the same key with a zero byte after it
        // differ.
        assert_ne!(hash(b"a"), hash(b"a\0"));
    }

    /// Keys that differ only past their fourth byte (the high half of their one word) differ in
    /// the hash's low 32 bits, all a map on WebAssembly's 32-bit `usize` keeps, and in the top
    /// seven of those, which pick a slot's control byte there: 10,000 such keys, 10,000 low
    /// halves and all 128 control bytes.
    #[test]
    fn keys_differing_in_a_words_high_bytes_differ_in_the_low_half() {
        let hash = |k: &[u8]| {
            let mut h = Fold::default();
            std::hash::Hash::hash(k, &mut h);
            h.finish()
        };
        let mut low = std::collections::BTreeSet::new();
        let mut tops = std::collections::BTreeSet::new();
        let mut tops_64 = std::collections::BTreeSet::new();
        for i in 0..10_000u32 {
            let h = hash(format!("k{i:07}").as_bytes());
            low.insert(h as u32);
            tops.insert(h as u32 >> 25);
            tops_64.insert(h >> 57);
        }
        assert_eq!((low.len(), tops.len(), tops_64.len()), (10_000, 128, 128));
    }
}
