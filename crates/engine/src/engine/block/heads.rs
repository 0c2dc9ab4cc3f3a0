//! The block index's row heads: the first eight bytes of each block's first row as a number
//! ([`crate::bytes::head`]), kept apart from the index's entries so that a seek searches
//! numbers, not keys.
//!
//! A run of a million cells has some 55,000 blocks: a binary search over their keys reads an
//! entry and a key at each of its sixteen steps, most of them cache misses once the run is
//! larger than the cache. Here the search reads every 32nd head first (a list of a few
//! kilobytes, which stays in the cache from one read to the next), then one stretch of 32
//! heads, four cache lines; only blocks whose first rows share the target's head are left for
//! a comparison of keys.

/// Heads between two entries of the sparse list.
const STRIDE: usize = 32;

/// Each block's head, and every [`STRIDE`]th of them.
#[derive(Debug, Default)]
pub(super) struct Heads {
    all: Box<[u64]>,
    sparse: Box<[u64]>,
}

impl Heads {
    /// The heads of a file's blocks, in block order (so in ascending order).
    pub fn new(all: Vec<u64>) -> Heads {
        let sparse = all.iter().step_by(STRIDE).copied().collect();
        Heads {
            all: all.into_boxed_slice(),
            sparse,
        }
    }

    /// The blocks whose first row has `head`: every block before the range starts with a
    /// lower head, every block from its end with a higher one.
    pub fn span(&self, head: u64) -> (usize, usize) {
        (self.count(|h| h < head), self.count(|h| h <= head))
    }

    /// How many heads `below` holds for (a prefix of the list, as the heads ascend).
    #[inline]
    fn count(&self, below: impl Fn(u64) -> bool) -> usize {
        // The first `s` sparse heads hold, so every head before the `s - 1`-th stride's start
        // does too (the heads ascend); none from the `s`-th stride's start on does.
        let s = self.sparse.partition_point(|&h| below(h));
        let from = s.saturating_sub(1) * STRIDE;
        let to = (s * STRIDE).min(self.all.len());
        from + self
            .all
            .get(from..to)
            .map_or(0, |stretch| stretch.partition_point(|&h| below(h)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The span found by reading every head.
    fn span_read_whole(all: &[u64], head: u64) -> (usize, usize) {
        (
            all.iter().filter(|&&h| h < head).count(),
            all.iter().filter(|&&h| h <= head).count(),
        )
    }

    #[test]
    fn the_span_is_the_one_a_reading_of_every_head_finds() {
        // Runs of equal heads across stride boundaries, a list shorter than a stride, one
        // stride long exactly, and empty.
        let mut lists: Vec<Vec<u64>> = vec![Vec::new(), vec![5], (0..32).collect()];
        let mut long = Vec::new();
        for h in 0..100u64 {
            long.extend(std::iter::repeat_n(h * 3, (h % 7 + h % 40) as usize));
        }
        lists.push(long);
        lists.push(vec![9; 100]);
        for all in &lists {
            let heads = Heads::new(all.clone());
            let top = all.last().copied().unwrap_or(0) + 2;
            for head in 0..=top {
                assert_eq!(
                    heads.span(head),
                    span_read_whole(all, head),
                    "head {head} in a list of {}",
                    all.len()
                );
            }
        }
    }
}
