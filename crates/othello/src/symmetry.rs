//! The eight symmetries of the board (the rotations and reflections of a square), on squares
//! and on bitboards.
//!
//! A symmetry is numbered `0..8` by how it is built: bit 0 mirrors the files (a <-> h), bit 1
//! mirrors the ranks (1 <-> 8), bit 2 then transposes across the a1–h8 diagonal (a2 <-> b1).
//! So 0 is the identity, 3 the half turn, 4 the transposition, and each symmetry brings a
//! different corner-and-diagonal pair to a1. The pattern evaluation reads the board through
//! these "views"; match openings are counted once up to them ([`symmetry_key`]).

use crate::position::{Color, Position};

/// How many symmetries the board has.
pub const SYMMETRIES: usize = 8;

/// Where square `square` (0..64, a1 = 0, b1 = 1, ...) lands under symmetry `view` (0..8).
pub const fn view_square(view: u8, square: u8) -> u8 {
    let (mut file, mut rank) = (square % 8, square / 8);
    if view & 1 != 0 {
        file = 7 - file;
    }
    if view & 2 != 0 {
        rank = 7 - rank;
    }
    if view & 4 != 0 {
        (file, rank) = (rank, file);
    }
    rank * 8 + file
}

/// The symmetry that undoes `view` (0..8): each is its own inverse except the two quarter
/// turns, 5 and 6, which undo each other.
pub const fn inverse(view: u8) -> u8 {
    match view {
        5 => 6,
        6 => 5,
        v => v,
    }
}

/// Mirrors a bitboard across the d/e files (a <-> h).
#[inline]
pub const fn mirror_files(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((x & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// Mirrors a bitboard across ranks 4/5 (1 <-> 8).
#[inline]
pub const fn mirror_ranks(x: u64) -> u64 {
    x.swap_bytes()
}

/// Transposes a bitboard across the a1–h8 diagonal (a2 <-> b1).
#[inline]
pub const fn transpose(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// A bitboard under symmetry `view` (0..8; see [`view_square`]).
#[inline]
pub const fn apply(view: u8, mut x: u64) -> u64 {
    if view & 1 != 0 {
        x = mirror_files(x);
    }
    if view & 2 != 0 {
        x = mirror_ranks(x);
    }
    if view & 4 != 0 {
        x = transpose(x);
    }
    x
}

/// The eight images of a bitboard, indexed by symmetry (see [`view_square`]); faster than
/// eight calls of [`apply`].
#[inline]
pub const fn views(x: u64) -> [u64; SYMMETRIES] {
    let m = mirror_files(x);
    let (v2, v3) = (mirror_ranks(x), mirror_ranks(m));
    [
        x,
        m,
        v2,
        v3,
        transpose(x),
        transpose(m),
        transpose(v2),
        transpose(v3),
    ]
}

/// The same key for a position and all its rotations and reflections: the smallest of the
/// eight transformed boards (black's discs, white's discs, whether black is to move).
pub fn symmetry_key(position: &Position) -> (u64, u64, bool) {
    let black_to_move = position.to_move() == Color::Black;
    let black = views(position.discs(Color::Black));
    let white = views(position.discs(Color::White));
    (0..SYMMETRIES)
        .map(|s| (black[s], white[s], black_to_move))
        .min()
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::rng::{Rng, XorShift64};
    use std::collections::HashSet;

    fn random_bitboards() -> impl Iterator<Item = u64> {
        let mut rng = XorShift64::new(0x0123_4567_89ab_cdef);
        (0..200).map(move |_| rng.next_u64() & rng.next_u64())
    }

    #[test]
    fn each_symmetry_permutes_the_squares_as_its_square_map_says() {
        for view in 0..SYMMETRIES as u8 {
            let image: HashSet<u8> = (0..64).map(|s| view_square(view, s)).collect();
            assert_eq!(image.len(), 64, "view {view}");
            for x in random_bitboards() {
                let by_squares = (0..64u8)
                    .filter(|&s| x >> s & 1 != 0)
                    .fold(0u64, |m, s| m | 1 << view_square(view, s));
                assert_eq!(apply(view, x), by_squares, "view {view}");
                assert_eq!(views(x)[view as usize], by_squares, "view {view}");
            }
        }
    }

    #[test]
    fn the_symmetries_form_the_group_of_the_square() {
        let xs: Vec<u64> = random_bitboards().collect();
        let acts_as = |f: &dyn Fn(u64) -> u64, view: u8| xs.iter().all(|&x| f(x) == apply(view, x));
        for a in 0..SYMMETRIES as u8 {
            // The inverse undoes it; the identity is symmetry 0.
            assert!(
                acts_as(&|x| apply(inverse(a), apply(a, x)), 0),
                "inverse of {a}"
            );
            assert!(
                acts_as(&|x| apply(a, apply(inverse(a), x)), 0),
                "inverse of {a}"
            );
            // Closed under composition: each product is one of the eight.
            for b in 0..SYMMETRIES as u8 {
                let product = (0..SYMMETRIES as u8)
                    .filter(|&c| acts_as(&|x| apply(a, apply(b, x)), c))
                    .count();
                assert_eq!(product, 1, "{a} after {b}");
            }
        }
        // Eight distinct maps: the dihedral group has two elements of order 4 (the quarter
        // turns) and five of order 2.
        let order = |v: u8| {
            (1..=8)
                .find(|&n| acts_as(&|x| (0..n).fold(x, |y, _| apply(v, y)), 0))
                .expect("finite order")
        };
        let mut orders: Vec<u32> = (0..SYMMETRIES as u8).map(order).collect();
        orders.sort_unstable();
        assert_eq!(orders, [1, 2, 2, 2, 2, 2, 4, 4]);
    }

    /// The start position is fixed by the half turn and the two diagonal reflections; the
    /// other four symmetries swap its colours. The first four moves are one up to symmetry.
    #[test]
    fn the_start_is_fixed_or_swapped_and_the_first_moves_map_onto_each_other() {
        let (black, white) = (
            Position::START.discs(Color::Black),
            Position::START.discs(Color::White),
        );
        let fixing: Vec<u8> = (0..SYMMETRIES as u8)
            .filter(|&v| (apply(v, black), apply(v, white)) == (black, white))
            .collect();
        assert_eq!(fixing, [0, 3, 4, 7]);
        for v in (0..SYMMETRIES as u8).filter(|v| !fixing.contains(v)) {
            assert_eq!(
                (apply(v, black), apply(v, white)),
                (white, black),
                "view {v}"
            );
        }
        let discs = |m: &str| {
            let p = Position::START.play(m.parse().unwrap()).unwrap();
            (p.discs(Color::Black), p.discs(Color::White))
        };
        let firsts: HashSet<(u64, u64)> = ["d3", "c4", "f5", "e6"].map(discs).into();
        let (b, w) = discs("f5");
        let images: HashSet<(u64, u64)> =
            fixing.iter().map(|&v| (apply(v, b), apply(v, w))).collect();
        assert_eq!(images, firsts);
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
    }
}
