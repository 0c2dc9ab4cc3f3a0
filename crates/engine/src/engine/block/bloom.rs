//! A run's bloom filter, as HBase's `BloomFilterChunk` builds one: sized for a 1% false
//! positive rate (`io.storefile.bloom.error.rate`), each key setting `k` bits chosen by
//! combining two Murmur3 hashes of it (`hash1 + i * hash2`, `hash2` seeded with `hash1`).
//! A filter never says no to a key it holds; it says yes to about 1% of keys it does not.

/// A row and its two hashes ([`key_hashes`]), taken once for every run a read asks about the
/// row: the `ROW` bloom filters' and the row locators' (the first).
#[derive(Clone, Copy, Debug)]
pub struct HashedRow<'r> {
    pub row: &'r [u8],
    pub hashes: (u32, u32),
}

impl<'r> HashedRow<'r> {
    #[inline]
    pub fn new(row: &'r [u8]) -> HashedRow<'r> {
        HashedRow {
            row,
            hashes: key_hashes(row),
        }
    }
}

/// HBase's `io.storefile.bloom.error.rate`.
const ERROR_RATE: f64 = 0.01;

/// A bloom filter over bytes it does not own: the bits of a block file's bloom section.
#[derive(Clone, Copy, Debug)]
pub struct Bloom<'a> {
    bits: &'a [u8],
    hashes: u32,
}

impl<'a> Bloom<'a> {
    pub fn new(bits: &'a [u8], hashes: u32) -> Bloom<'a> {
        Bloom { bits, hashes }
    }

    /// False only when `key` was never added.
    pub fn might_contain(&self, key: &[u8]) -> bool {
        self.might_contain_hashed(key_hashes(key))
    }

    /// [`Bloom::might_contain`] for a key whose two hashes ([`key_hashes`]) are taken.
    pub fn might_contain_hashed(&self, hashes: (u32, u32)) -> bool {
        let bit_count = self.bits.len() as u64 * 8;
        if bit_count == 0 {
            return true;
        }
        positions(hashes, self.hashes, bit_count).all(|bit| {
            self.bits
                .get((bit / 8) as usize)
                .is_some_and(|b| b & (1 << (bit % 8)) != 0)
        })
    }
}

/// Builds a filter's bits for a known number of keys.
pub struct BloomBuilder {
    bits: Vec<u8>,
    hashes: u32,
}

impl BloomBuilder {
    /// A filter sized for `keys` keys (HBase's `BloomFilterUtil.computeBitSize` and
    /// `optimalFunctionCount`).
    pub fn new(keys: usize) -> BloomBuilder {
        let keys = keys.max(1) as f64;
        let ln2 = std::f64::consts::LN_2;
        let bit_count = (keys * (-ERROR_RATE.ln() / (ln2 * ln2))).ceil().max(8.0);
        let bytes = (bit_count / 8.0).ceil() as usize;
        let hashes = ((bytes as f64 * 8.0) * ln2 / keys).ceil().clamp(1.0, 30.0) as u32;
        BloomBuilder {
            bits: vec![0; bytes],
            hashes,
        }
    }

    #[cfg(test)]
    pub fn add(&mut self, key: &[u8]) {
        self.add_hashes(key_hashes(key));
    }

    /// Adds a key by its [`key_hashes`].
    pub fn add_hashes(&mut self, hashes: (u32, u32)) {
        let bit_count = self.bits.len() as u64 * 8;
        for bit in positions(hashes, self.hashes, bit_count) {
            if let Some(b) = self.bits.get_mut((bit / 8) as usize) {
                *b |= 1 << (bit % 8);
            }
        }
    }

    /// The bits and the number of hash functions.
    pub fn finish(self) -> (Vec<u8>, u32) {
        (self.bits, self.hashes)
    }
}

/// The two hashes a key's bit positions are made from (Kirsch and Mitzenmacher's double
/// hashing, as HBase's `BloomFilterChunk` does).
pub fn key_hashes(key: &[u8]) -> (u32, u32) {
    let hash1 = murmur3_32(key, 0);
    (hash1, murmur3_32(key, hash1))
}

fn positions((hash1, hash2): (u32, u32), hashes: u32, bit_count: u64) -> impl Iterator<Item = u64> {
    (0..hashes).map(move |i| {
        let composite = u64::from(hash1.wrapping_add(i.wrapping_mul(hash2)));
        composite % bit_count
    })
}

/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm, HBase's
/// `MurmurHash3.hash`).
pub(crate) fn murmur3_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    let mut chunks = data.chunks_exact(4);
    for chunk in &mut chunks {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut k = 0u32;
        for (i, b) in tail.iter().enumerate() {
            k |= u32::from(*b) << (8 * i);
        }
        k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h ^= k;
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published MurmurHash3_x86_32 values.
    #[test]
    fn murmur3_matches_reference_values() {
        assert_eq!(murmur3_32(b"", 0), 0);
        assert_eq!(murmur3_32(b"", 1), 0x514e_28b7);
        assert_eq!(murmur3_32(b"", 0xffff_ffff), 0x81f1_6f39);
        assert_eq!(murmur3_32(b"\0\0\0\0", 0), 0x2362_f9de);
        assert_eq!(murmur3_32(b"aaaa", 0x9747_b28c), 0x5a97_808a);
        assert_eq!(murmur3_32(b"abc", 0), 0xb3dd_93fa);
        assert_eq!(murmur3_32(b"Hello, world!", 0x9747_b28c), 0x2488_4cba);
        assert_eq!(
            murmur3_32(b"The quick brown fox jumps over the lazy dog", 0),
            0x2e4f_f723
        );
    }

    #[test]
    fn no_false_negatives_and_about_one_percent_false_positives() {
        let keys: Vec<Vec<u8>> = (0..5_000)
            .map(|i| format!("row{i:06}").into_bytes())
            .collect();
        let mut b = BloomBuilder::new(keys.len());
        for k in &keys {
            b.add(k);
        }
        let (bits, hashes) = b.finish();
        let bloom = Bloom::new(&bits, hashes);
        assert!(keys.iter().all(|k| bloom.might_contain(k)));
        let false_positives = (0..10_000)
            .filter(|i| bloom.might_contain(format!("other{i:06}").as_bytes()))
            .count();
        // 1% expected; 3% would mean the hashing is broken.
        assert!(false_positives < 300, "{false_positives} false positives");
    }
}
