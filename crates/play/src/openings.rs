//! Openings for matches: every position a few plies after the start, each counted once up to
//! the board's eight symmetries, in a fixed order.
//!
//! The lines start with f5 (the four first moves are one up to symmetry) and are generated
//! move by move in square order (a1 first), so the set and its order are the same on every
//! run. Two lines that reach the same position, or positions that are
//! rotations or reflections of each other, give one opening (the first line found). Positions
//! where the game is already over are left out. [`pick`] chooses the openings of a match:
//! spread evenly over the set, or shuffled by a seed.

use std::collections::HashSet;

use prune_othello::{Color, Move, Position};
use prune_search::Game;

/// The most plies an opening set may have (9 plies would mean millions of lines).
pub const MAX_PLIES: u32 = 8;

/// The first move of every opening.
const FIRST_MOVE: &str = "f5";

/// The plies of the default opening set.
pub const DEFAULT_PLIES: u32 = 4;

/// A start position for the games of a match: a line of moves from the standard start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// The position they reach.
    pub position: Position,
}

impl Opening {
    /// The moves as text: `f5 d6 c3 d3`.
    pub fn line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    }
}

/// A square's coordinates under symmetry `s` (0..8: the identity, the mirrors and rotations).
fn transform(s: u8, file: u32, rank: u32) -> (u32, u32) {
    let (f, r) = if s & 4 != 0 {
        (rank, file)
    } else {
        (file, rank)
    };
    let f = if s & 1 != 0 { 7 - f } else { f };
    let r = if s & 2 != 0 { 7 - r } else { r };
    (f, r)
}

/// A bitboard under symmetry `s`.
fn transform_bits(s: u8, mut bits: u64) -> u64 {
    let mut out = 0;
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        let (f, r) = transform(s, i % 8, i / 8);
        out |= 1 << (r * 8 + f);
    }
    out
}

/// The same key for a position and all its rotations and reflections: the smallest of the
/// eight transformed boards (black's discs, white's discs, the side to move).
pub fn symmetry_key(position: &Position) -> (u64, u64, bool) {
    let (black, white) = (position.discs(Color::Black), position.discs(Color::White));
    let black_to_move = position.to_move() == Color::Black;
    (0..8)
        .map(|s| {
            (
                transform_bits(s, black),
                transform_bits(s, white),
                black_to_move,
            )
        })
        .min()
        .expect("eight symmetries")
}

/// Every distinct position `plies` plies after the start (distinct up to symmetry, the game
/// not over), in the order of generation; `plies` is capped at [`MAX_PLIES`]. Zero plies: the
/// start position alone.
pub fn all_openings(plies: u32) -> Vec<Opening> {
    let start = Opening {
        moves: Vec::new(),
        position: Position::START,
    };
    if plies == 0 {
        return vec![start];
    }
    // The four first moves are one up to symmetry: all lines start with f5, as usual.
    let f5: Move = FIRST_MOVE.parse().expect("a square");
    let mut lines = vec![Opening {
        moves: vec![f5],
        position: Position::START.play_unchecked(f5),
    }];
    for _ in 1..plies.min(MAX_PLIES) {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for opening in &lines {
            for mv in opening.position.legal_moves() {
                let position = opening.position.play_unchecked(mv);
                if position.is_game_over() || !seen.insert(symmetry_key(&position)) {
                    continue;
                }
                let mut moves = opening.moves.clone();
                moves.push(mv);
                next.push(Opening { moves, position });
            }
        }
        lines = next;
    }
    lines
}

/// A small deterministic generator (SplitMix64) for shuffling by seed.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `count` openings of `all`: without a seed, spread evenly over the set in its order; with
/// one, the first of a shuffle by that seed. When `count` is larger than the set, the set is
/// used again from its beginning (the openings repeat).
pub fn pick(all: &[Opening], count: usize, seed: Option<u64>) -> Vec<Opening> {
    if all.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    if let Some(seed) = seed {
        let mut state = seed;
        for i in (1..order.len()).rev() {
            let j = (split_mix(&mut state) % (i as u64 + 1)) as usize;
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

    #[test]
    fn the_first_plies_up_to_symmetry() {
        // The four first moves are one up to symmetry; after two plies there are three
        // (perpendicular, diagonal, parallel).
        assert_eq!(all_openings(0).len(), 1);
        assert_eq!(all_openings(1).len(), 1);
        assert_eq!(all_openings(2).len(), 3);
        // 56 lines of three plies and 244 of four reach 14 and 60 positions up to symmetry.
        assert_eq!(all_openings(3).len(), 14);
        assert_eq!(all_openings(DEFAULT_PLIES).len(), 60);
    }

    #[test]
    fn openings_are_distinct_legal_and_deterministic() {
        for plies in 1..=5 {
            let all = all_openings(plies);
            assert_eq!(all, all_openings(plies));
            let keys: HashSet<_> = all.iter().map(|o| symmetry_key(&o.position)).collect();
            assert_eq!(keys.len(), all.len(), "{plies} plies");
            for o in &all {
                assert_eq!(o.moves.len(), plies as usize);
                assert!(o.line().starts_with("f5"));
                let mut p = Position::START;
                for &mv in &o.moves {
                    p = p.play(mv).expect("a legal line");
                }
                assert_eq!(p, o.position);
                assert!(o.position.outcome().is_none());
            }
        }
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let after = |m: &str| Position::START.play(m.parse().unwrap()).unwrap();
        let keys: HashSet<_> = ["d3", "c4", "f5", "e6"]
            .iter()
            .map(|m| symmetry_key(&after(m)))
            .collect();
        assert_eq!(keys.len(), 1);
        assert_ne!(symmetry_key(&after("f5")), symmetry_key(&Position::START));
        // Each symmetry maps squares one to one.
        for s in 0..8 {
            let image: HashSet<u64> = (0..64).map(|i| transform_bits(s, 1 << i)).collect();
            assert_eq!(image.len(), 64);
        }
    }

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
        assert!(pick(&[], 3, None).is_empty());
    }
}
