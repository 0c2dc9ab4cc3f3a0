//! Deterministic sample data: a seeded generator (SplitMix64, a few lines, no crate needed), so
//! a design loads the same rows, values and timestamps at every load, with the skew its world
//! has: a few celebrities with most followers, recent ids written most, bursts of traffic.

/// A seeded pseudo-random sequence (Steele, Lea and Flood's SplitMix64).
#[derive(Clone, Debug)]
pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index in `0..n` where small indices are far likelier: `n * u^skew` for a uniform
    /// `u`. With `skew` 3 the first tenth of the indices draws about 46 % of the picks.
    pub fn skewed(&mut self, n: u64, skew: f64) -> u64 {
        ((n as f64 * self.unit().powf(skew)) as u64).min(n.saturating_sub(1))
    }

    /// An index in `0..n` where large indices (the recent ones) are likelier.
    pub fn recent(&mut self, n: u64, skew: f64) -> u64 {
        n.saturating_sub(1) - self.skewed(n, skew)
    }
}

/// `count` event times from `start` (epoch ms): mostly `gap_ms` apart on average, with a burst
/// (ten events within a few milliseconds each) now and then, as access logs have. Strictly
/// increasing.
pub fn bursty_times(g: &mut Gen, start: u64, count: usize, gap_ms: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    let mut t = start;
    let mut burst = 0;
    while out.len() < count {
        if burst > 0 {
            burst -= 1;
            t += 1 + g.below(3);
        } else if g.below(20) == 0 {
            burst = 10;
            t += 1 + g.below(2 * gap_ms);
        } else {
            t += 1 + g.below(2 * gap_ms);
        }
        out.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_data() {
        let a: Vec<u64> = (0..5).map(|_| Gen::new(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut g = Gen::new(7);
        let mut h = Gen::new(7);
        assert_eq!(
            bursty_times(&mut g, 1000, 50, 100),
            bursty_times(&mut h, 1000, 50, 100)
        );
    }

    #[test]
    fn skewed_picks_favour_small_indices() {
        let mut g = Gen::new(1);
        let picks: Vec<u64> = (0..10_000).map(|_| g.skewed(100, 3.0)).collect();
        let first_tenth = picks.iter().filter(|p| **p < 10).count();
        assert!(first_tenth > 4_000 && first_tenth < 5_200, "{first_tenth}");
        assert!(picks.iter().all(|p| *p < 100));
        let recent = (0..1000)
            .map(|_| g.recent(100, 3.0))
            .filter(|p| *p >= 90)
            .count();
        assert!(recent > 400, "{recent}");
    }

    #[test]
    fn bursty_times_increase_and_cluster() {
        let mut g = Gen::new(3);
        let t = bursty_times(&mut g, 0, 2000, 1000);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        let tight = t.windows(2).filter(|w| w[1] - w[0] <= 3).count();
        assert!(tight > 200, "bursts: {tight} gaps of at most 3 ms");
    }
}
