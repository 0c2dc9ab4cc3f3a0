//! A seeded pseudo-random sequence (Steele, Lea and Flood's SplitMix64, a few lines, no crate
//! needed): the same seed gives the same numbers on every machine and in the browser, so a
//! design loads the same rows at every load and a generated key is the same everywhere.

const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finalizer: spreads the bits of `z` over the whole word.
#[cfg_attr(rowkey_cold, optimize(size))]
fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A well-spread 64-bit hash of `x`: the first number of the sequence seeded with `x`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn hash(x: u64) -> u64 {
    finalize(x.wrapping_add(GOLDEN_GAMMA))
}

/// A seeded pseudo-random sequence.
#[derive(Clone, Debug)]
pub struct Gen(u64);

impl Gen {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(seed: u64) -> Gen {
        Gen(seed)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        finalize(self.0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// A number in `[0, 1)`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index in `0..n` where small indices are far likelier: `n * u^skew` for a uniform
    /// `u`. With `skew` 3 the first tenth of the indices draws about 46 % of the picks.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn skewed(&mut self, n: u64, skew: f64) -> u64 {
        ((n as f64 * self.unit().powf(skew)) as u64).min(n.saturating_sub(1))
    }

    /// An index in `0..n` where large indices (the recent ones) are likelier.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn recent(&mut self, n: u64, skew: f64) -> u64 {
        n.saturating_sub(1) - self.skewed(n, skew)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The reference sequence for seed 0 (Vigna's splitmix64.c).
        let mut g = Gen::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(hash(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(hash(1), Gen::new(1).next_u64());
    }

    #[test]
    fn bounded_draws_stay_in_range() {
        let mut g = Gen::new(7);
        assert_eq!(g.below(0), 0);
        for _ in 0..1000 {
            assert!(g.below(10) < 10);
            assert!(g.unit() < 1.0);
            assert!(g.skewed(5, 3.0) < 5);
            assert!(g.recent(5, 3.0) < 5);
        }
    }
}
