//! Move-ordering memory shared by the algorithms: killer lists ([`KillerTable`]) and the
//! history heuristic ([`HistoryTable`]), and [`put_first`].

use std::collections::HashMap;
use std::hash::Hash;

use crate::Game;

/// Moves `mv` to the front of `moves`, keeping the others in their order. Returns whether
/// `mv` was there.
pub fn put_first<M: Copy + PartialEq>(moves: &mut [M], mv: M) -> bool {
    match moves.iter().position(|&m| m == mv) {
        Some(i) => {
            moves[..=i].rotate_right(1);
            true
        }
        None => false,
    }
}

/// Killer moves: one list of at most `slots` moves per index (a ply, or a remaining depth),
/// most recent cutoff first.
#[derive(Clone, Debug)]
pub struct KillerTable<M> {
    slots: usize,
    lists: Vec<Vec<M>>,
}

impl<M: Copy + PartialEq> KillerTable<M> {
    /// An empty table keeping `slots` moves per list.
    pub fn new(slots: usize) -> Self {
        KillerTable {
            slots,
            lists: Vec::new(),
        }
    }

    /// The killers at `index`, most recent first.
    pub fn get(&self, index: usize) -> &[M] {
        self.lists.get(index).map_or(&[], Vec::as_slice)
    }

    /// Records that `mv` caused a cutoff at `index`: it moves to the front of the list (or is
    /// inserted there, the last one dropping out of a full list).
    pub fn record(&mut self, index: usize, mv: M) {
        if self.lists.len() <= index {
            self.lists.resize_with(index + 1, Vec::new);
        }
        let list = &mut self.lists[index];
        if !put_first(list, mv) {
            list.insert(0, mv);
            list.truncate(self.slots);
        }
    }
}

/// The history heuristic's scores: how much each move has caused cutoffs (or been best),
/// weighted by the depth of the search that found it. Indexed by [`Game::move_index`] where
/// the game has one, hashed otherwise.
#[derive(Clone, Debug)]
pub enum HistoryTable<M> {
    /// One score per move index.
    Indexed(Vec<u64>),
    /// Scores in a hash map, for games without a move index.
    Hashed(HashMap<M, u64>),
}

impl<M: Copy + Eq + Hash> HistoryTable<M> {
    /// An empty table for the moves of `G`.
    pub fn new<G: Game<Move = M>>() -> Self {
        if G::MOVE_INDICES > 0 {
            HistoryTable::Indexed(vec![0; G::MOVE_INDICES])
        } else {
            HistoryTable::Hashed(HashMap::new())
        }
    }

    /// The bonus for a cutoff at `depth` plies: `2^min(depth, 32)`.
    pub fn bonus(depth: u32) -> u64 {
        1 << depth.min(32)
    }

    /// Adds the bonus of `depth` to `mv`'s score (saturating).
    pub fn reward<G: Game<Move = M>>(&mut self, mv: M, depth: u32) {
        let bonus = Self::bonus(depth);
        match (self, G::move_index(mv)) {
            (HistoryTable::Indexed(scores), Some(i)) => {
                scores[i] = scores[i].saturating_add(bonus);
            }
            (HistoryTable::Indexed(_), None) => {}
            (HistoryTable::Hashed(scores), _) => {
                let score = scores.entry(mv).or_insert(0);
                *score = score.saturating_add(bonus);
            }
        }
    }

    /// `mv`'s score.
    pub fn score<G: Game<Move = M>>(&self, mv: M) -> u64 {
        match self {
            HistoryTable::Indexed(scores) => {
                G::move_index(mv).map_or(0, |i| scores.get(i).copied().unwrap_or(0))
            }
            HistoryTable::Hashed(scores) => scores.get(&mv).copied().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_first_keeps_the_rest_in_order() {
        let mut v = [1, 2, 3, 4];
        assert!(put_first(&mut v, 3));
        assert_eq!(v, [3, 1, 2, 4]);
        assert!(!put_first(&mut v, 9));
        assert_eq!(v, [3, 1, 2, 4]);
    }

    #[test]
    fn killers_move_to_front_and_drop_the_last() {
        let mut k = KillerTable::new(3);
        for mv in [1, 2, 3] {
            k.record(2, mv);
        }
        assert_eq!(k.get(2), &[3, 2, 1]);
        k.record(2, 1);
        assert_eq!(k.get(2), &[1, 3, 2]);
        k.record(2, 4);
        assert_eq!(k.get(2), &[4, 1, 3]);
        assert!(k.get(0).is_empty() && k.get(9).is_empty());
    }
}
