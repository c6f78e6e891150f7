//! Openings for matches: the positions a few plies after the start, each counted once up to
//! the board's eight symmetries, in a fixed order (enumerated by
//! [`prune_othello::openings`], which owns them), and [`pick`], which chooses the openings of
//! a match: spread evenly over the set, or shuffled by a seed.

use prune_search::rng::{Rng, SplitMix64};

pub use prune_othello::openings::{all_openings, Opening, MAX_PLIES};

/// The plies of the default opening set.
pub const DEFAULT_PLIES: u32 = 4;

/// `count` openings of `all` (of any game): without a seed, spread evenly over the set in its
/// order; with one, the first of a shuffle by that seed. When `count` is larger than the set,
/// the set is used again from its beginning (the openings repeat).
pub fn pick<T: Clone>(all: &[T], count: usize, seed: Option<u64>) -> Vec<T> {
    if all.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    if let Some(seed) = seed {
        let mut rng = SplitMix64::new(seed);
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
    }
    let n = all.len();
    (0..count)
        .map(|i| {
            let index = if count <= n && seed.is_none() {
                i * n / count
            } else {
                i % n
            };
            all[order[index]].clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn picks_are_spread_seeded_or_repeated() {
        let all = all_openings(4);
        let n = all.len();
        let spread = pick(&all, 4, None);
        assert_eq!(spread[0], all[0]);
        assert_eq!(spread[2], all[n / 2]);
        let a = pick(&all, 10, Some(7));
        assert_eq!(a, pick(&all, 10, Some(7)));
        assert_ne!(a, pick(&all, 10, Some(8)));
        let distinct: HashSet<_> = a.iter().map(|o| o.line()).collect();
        assert_eq!(distinct.len(), 10);
        let repeated = pick(&all, n + 2, None);
        assert_eq!(repeated[n], all[0]);
        assert!(pick::<Opening>(&[], 3, None).is_empty());
    }
}
