//! Disproofs that hold for one line only: a node refuted only because a check of its line
//! comes back to a position of that line (a perpetual check loses for the attacker). The
//! table keeps only what holds for every line (the graph-history interaction), so such a
//! node would be searched again at each visit; df-pn comes back to a node many times along
//! the same line, and these keep its refutation for that line.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::super::table::{KeyHasher, Numbers, Plies};

/// The most refutations kept (then it starts again).
const MOST_KEPT: usize = 1 << 20;

/// The key of a line `line_key` continued by the position whose full key is `key`: a hash of
/// the sequence, not of the set (the same positions in another order are another line).
pub(super) fn follow(line_key: u64, key: u64) -> u64 {
    (line_key.rotate_left(23) ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Refutations for one line only, by the line's key ([`follow`] from the root's).
#[derive(Default)]
pub(super) struct LineRefutations {
    by_line: HashMap<u64, Numbers, BuildHasherDefault<KeyHasher>>,
}

impl LineRefutations {
    /// The refutation kept for the node at the end of the line `line_key`, if it holds for a
    /// search within `plies` plies.
    pub fn get(&self, line_key: u64, plies: Plies) -> Option<Numbers> {
        self.by_line
            .get(&line_key)
            .filter(|n| n.plies >= plies)
            .copied()
    }

    /// Keeps `numbers`, a refutation for the line `line_key` only.
    pub fn keep(&mut self, line_key: u64, numbers: Numbers) {
        debug_assert!(numbers.is_disproved() && numbers.path_only);
        if self.by_line.len() >= MOST_KEPT {
            self.by_line.clear();
        }
        self.by_line.insert(line_key, numbers);
    }
}
