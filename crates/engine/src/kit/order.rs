//! Sorting for everything but the engine's hot paths, through one sort compiled once.
//!
//! The standard library's sorts are generic: every element type and every comparison closure
//! compiles a copy of the whole algorithm (driftsort or ipnsort, 3 to 10 KB of WebAssembly
//! each), and thirty such copies made a twentieth of the download. Here the algorithm runs
//! once, over positions (`usize`), with the comparison behind a `dyn` call; what each element
//! type compiles is only the loop that swaps elements into the order found. It costs an
//! allocation and an indirect call per comparison, which a view, a report or a command's
//! output never notices; the engine's own sorts of cells stay on the standard library's. The
//! small ordered maps and sets outside those paths are sorted vectors ([`super::sorted`]),
//! which put what they are given in order through this sort.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, stably (equal items keep their order), like `slice::sort_by`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let swaps = {
        let items: &[T] = items;
        swaps_into_order(items.len(), &|a, b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal,
        })
    };
    for (a, b) in swaps {
        items.swap(a, b);
    }
}

/// Sorts `items` by the key `key` gives each, stably, like `slice::sort_by_key`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order, like `slice::sort`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The swaps that put `len` items in the order `cmp` (over their positions) gives: the one
/// instance of the standard library's stable sort, on positions, then the permutation walked
/// cycle by cycle (position `k` receives the item at `order[k]`).
#[cfg_attr(rowkey_cold, optimize(size))]
fn swaps_into_order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    let mut placed = vec![false; len];
    let mut swaps = Vec::new();
    for start in 0..len {
        let mut k = start;
        while let Some(false) = placed.get(k).copied() {
            if let Some(p) = placed.get_mut(k) {
                *p = true;
            }
            let Some(&from) = order.get(k) else { break };
            if from == start {
                break;
            }
            swaps.push((k, from));
            k = from;
        }
    }
    swaps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_library() {
        // Pairs sorted by their first field only: equal firsts keep their input order.
        let input = vec![
            (3, 'a'),
            (1, 'b'),
            (3, 'c'),
            (2, 'd'),
            (1, 'e'),
            (0, 'f'),
            (3, 'g'),
        ];
        let mut ours = input.clone();
        sort_by_key(&mut ours, |p| p.0);
        let mut theirs = input;
        theirs.sort_by_key(|p| p.0);
        assert_eq!(ours, theirs);
        assert_eq!(
            ours,
            vec![
                (0, 'f'),
                (1, 'b'),
                (1, 'e'),
                (2, 'd'),
                (3, 'a'),
                (3, 'c'),
                (3, 'g')
            ]
        );
    }

    #[test]
    fn every_permutation_of_five_sorts() {
        // All 120 orders of five distinct strings, each a cycle structure of its own.
        let words = ["e", "a", "d", "b", "c"];
        let mut seen = 0;
        for n in 0..120usize {
            let mut pool: Vec<&str> = words.to_vec();
            let mut perm = Vec::new();
            let mut m = n;
            for left in (1..=5).rev() {
                perm.push(pool.remove(m % left).to_string());
                m /= left;
            }
            sort(&mut perm);
            assert_eq!(perm, ["a", "b", "c", "d", "e"]);
            seen += 1;
        }
        assert_eq!(seen, 120);
    }

    #[test]
    fn empty_and_single_slices_stay() {
        let mut none: Vec<u8> = Vec::new();
        sort(&mut none);
        assert!(none.is_empty());
        let mut one = vec![7u8];
        sort_by(&mut one, |a, b| b.cmp(a));
        assert_eq!(one, [7]);
    }
}
