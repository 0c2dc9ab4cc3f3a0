//! Deterministic sample data: a seeded generator (SplitMix64, a few lines, no crate needed), so
//! a design loads the same rows, values and timestamps at every load, with the skew its world
//! has: a few celebrities with most followers, recent ids written most, bursts of traffic.

pub use crate::kit::seeded::Gen;

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
