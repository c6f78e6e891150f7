//! Stable discs: discs that no sequence of moves can ever flip. Their count bounds the final
//! score (the opponent's stable discs are lost to the side to move for good), which lets the
//! endgame solver cut a null-window node without searching it.
//!
//! A disc can only be flipped along one of the four axes (horizontal, vertical and the two
//! diagonals), by a disc placed on an empty square of that line with a run of the disc owner's
//! discs bracketed on both sides. So a disc is stable when, on each axis, one of these holds:
//!
//! * the line through it along that axis is full (no disc can be placed on it any more);
//! * one of its two neighbours along the axis is off the board (it cannot be bracketed);
//! * one of its two neighbours along the axis is a stable disc of the same colour (a run
//!   through both would have to flip that one too).
//!
//! The stable set is the fixed point of that rule, grown from nothing; the result is a subset
//! of the truly stable discs (some stable discs are missed, none is claimed wrongly).

use crate::bitboard::{FILE_A, FILE_H, RANK_1, RANK_8};

/// The squares on the edge of the board.
const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// The 15 diagonals running from south-west to north-east (a1-h8 direction).
#[cfg(test)]
const DIAGONALS_A1H8: [u64; 15] = diagonals(9);
/// The 15 diagonals running from south-east to north-west (h1-a8 direction).
#[cfg(test)]
const DIAGONALS_H1A8: [u64; 15] = diagonals(7);

/// The 15 diagonals of one direction (`step` 9: a1-h8, 7: h1-a8), as masks.
#[cfg(test)]
const fn diagonals(step: i32) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        // Squares on one a1-h8 diagonal share file - rank; on one h1-a8 diagonal, file + rank.
        let index = if step == 9 {
            file - rank + 7
        } else {
            file + rank
        };
        out[index as usize] |= 1u64 << sq;
        sq += 1;
    }
    out
}

/// The squares within `k` steps of leaving the board along direction (`df`, `dr`): those
/// whose `k`-th neighbour that way is off the board.
const fn near_edge(df: i32, dr: i32, k: i32) -> u64 {
    let mut out = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8 + df * k, sq / 8 + dr * k);
        if f < 0 || f > 7 || r < 0 || r > 7 {
            out |= 1u64 << sq;
        }
        sq += 1;
    }
    out
}

/// The squares of `filled` from which every square up to the board's edge along the direction
/// of shift `d` (a step of (`df`, `dr`)) is filled: three doubling steps cover the 7 squares.
#[inline(always)]
fn filled_to_edge<const D: i32, const DF: i32, const DR: i32>(filled: u64) -> u64 {
    let step = |x: u64, k: i32| -> u64 {
        let shifted = if D > 0 { x >> (D * k) } else { x << (-D * k) };
        shifted | near_edge(DF, DR, k)
    };
    let mut x = filled & step(filled, 1);
    x &= step(x, 2);
    x & step(x, 4)
}

/// The full lines of `filled` on each axis: (horizontal, vertical, a1-h8, h1-a8).
#[inline]
fn full_axes(filled: u64) -> [u64; 4] {
    // Ranks: a rank is full when all 8 bits are set; fold the bits of each byte together.
    let mut h = filled;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    // Bit 0 of each byte is now set when the whole byte (rank) is full: spread it back.
    let h = (h & FILE_A) * 0xff;
    // Files: the same with the bytes.
    let mut v = filled;
    v &= v >> 8;
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & 0xff) * 0x0101_0101_0101_0101;
    // Diagonals: filled both ways from a square to the edge.
    let d9 = filled_to_edge::<9, 1, 1>(filled) & filled_to_edge::<-9, -1, -1>(filled);
    let d7 = filled_to_edge::<7, -1, 1>(filled) & filled_to_edge::<-7, 1, -1>(filled);
    [h, v, d9, d7]
}

/// Per axis, the squares whose line along it is full or that sit against the board's edge
/// across it: the squares where that axis alone cannot flip a disc.
struct Anchors([u64; 4]);

impl Anchors {
    /// The anchors of the board whose discs are `filled`.
    #[inline(always)]
    fn new(filled: u64) -> Anchors {
        let [h, v, d9, d7] = full_axes(filled);
        Anchors([
            h | FILE_A | FILE_H,
            v | RANK_1 | RANK_8,
            d9 | EDGES,
            d7 | EDGES,
        ])
    }

    /// The discs of `player` that, on each axis, are anchored or next to a disc of `stable`
    /// along it (one step of the rule of the module's doc).
    #[inline(always)]
    fn step(&self, player: u64, stable: u64) -> u64 {
        let [h, v, d9, d7] = self.0;
        let along_h = h | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
        let along_v = v | (stable << 8) | (stable >> 8);
        let along_d9 = d9 | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
        let along_d7 = d7 | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
        player & along_h & along_v & along_d9 & along_d7
    }

    /// The stable discs of `player`: the rule's fixed point, grown from the discs anchored on
    /// every axis.
    #[inline(always)]
    fn stable(&self, player: u64) -> u64 {
        let [h, v, d9, d7] = self.0;
        let mut stable = player & h & v & d9 & d7;
        if stable == 0 {
            return 0;
        }
        loop {
            let grown = stable | self.step(player, stable);
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }
}

/// The discs of `player` that can never be flipped (a safe subset of them), with `opponent`
/// owning the other discs.
#[inline]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    Anchors::new(player | opponent).stable(player)
}

/// The number of discs of `player` that [`stable_discs`] finds, if it is at least `min`;
/// `None` otherwise. Always inlined: the endgame solver's kernels compile it with their target
/// features.
///
/// The stable set grows from nothing in several steps, but one step of the rule from all of
/// the player's discs gives a superset of it (every stable disc is anchored or next to a disc
/// of its own colour on each axis): when that superset is too small the answer is `None`
/// without growing the set, as it is at most nodes where the solver asks.
#[inline(always)]
pub(crate) fn stable_count_at_least(player: u64, opponent: u64, min: u32) -> Option<u32> {
    let anchors = Anchors::new(player | opponent);
    if anchors.step(player, player).count_ones() < min {
        return None;
    }
    let n = anchors.stable(player).count_ones();
    (n >= min).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{flipped, from_diagram, legal_moves};
    use prune_search::rng::{Rng, XorShift64};

    #[test]
    fn diagonals_partition_the_board() {
        for lines in [DIAGONALS_A1H8, DIAGONALS_H1A8] {
            assert_eq!(lines.iter().fold(0, |a, &l| a | l), u64::MAX);
            assert_eq!(lines.iter().map(|l| l.count_ones()).sum::<u32>(), 64);
            assert_eq!(lines[7].count_ones(), 8);
        }
        assert_eq!(DIAGONALS_A1H8[7], 0x8040_2010_0804_0201);
        assert_eq!(DIAGONALS_H1A8[7], 0x0102_0408_1020_4080);
    }

    /// The diagonals found full by the shifts are exactly the diagonals whose masks `filled`
    /// covers, on random boards and on boards with a few full diagonals.
    #[test]
    fn full_diagonals_match_the_masks() {
        let full_lines = |filled: u64, lines: &[u64; 15]| {
            lines
                .iter()
                .filter(|&&l| filled & l == l)
                .fold(0, |a, &l| a | l)
        };
        let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
        for i in 0..20_000 {
            let mut filled = rng.next_u64() | rng.next_u64();
            for k in 0..(i % 4) {
                filled |= DIAGONALS_A1H8[(rng.next_u64() % 15) as usize];
                filled |= DIAGONALS_H1A8[((rng.next_u64() >> k) % 15) as usize];
            }
            let [_, _, d9, d7] = full_axes(filled);
            assert_eq!(d9, full_lines(filled, &DIAGONALS_A1H8), "{filled:#x}");
            assert_eq!(d7, full_lines(filled, &DIAGONALS_H1A8), "{filled:#x}");
        }
    }

    #[test]
    fn full_ranks_and_files_are_found() {
        let filled = RANK_1 | FILE_A | (RANK_8 & !(1 << 63));
        let [h, v, _, _] = full_axes(filled);
        assert_eq!(h, RANK_1);
        assert_eq!(v, FILE_A);
    }

    #[test]
    fn corners_and_edges_anchored_on_them_are_stable() {
        let (black, white) = from_diagram(
            "XXXO....
             X.......
             ........
             ........
             ........
             ........
             .......O
             O......X",
        );
        let stable = stable_discs(black, white);
        // a8, b8, c8 and a7 hang on the a8 corner; h1 is a corner; the rest is not stable.
        let expect = (1 << 56) | (1 << 57) | (1 << 58) | (1 << 48) | (1 << 7);
        assert_eq!(stable, expect);
        // White: only the a1 corner (d8 lies between black's c8 and an empty e8, h2 between
        // black's h1 and an empty h3).
        assert_eq!(stable_discs(white, black), 1);
    }

    /// The count with a minimum is the stable count when it reaches the minimum, else none,
    /// for every minimum (its shortcut must never hide a count that reaches it).
    #[test]
    fn the_count_at_least_a_minimum_is_the_stable_count_or_none() {
        let mut rng = XorShift64::new(0x5ab1_e0c0_0a7d);
        for i in 0..20_000 {
            let filled = match i % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() | rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64() | rng.next_u64(),
            };
            let player = filled & rng.next_u64();
            let opponent = filled & !player;
            let n = stable_discs(player, opponent).count_ones();
            for min in 0..=65 {
                let expected = (n >= min).then_some(n);
                assert_eq!(
                    stable_count_at_least(player, opponent, min),
                    expected,
                    "{player:#x} {opponent:#x} {min}"
                );
            }
        }
    }

    /// The defining property: along random games, a disc found stable keeps its colour to the
    /// end of the game.
    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = XorShift64::new(0x2545_f491_4f6c_dd1d);
        let mut checked = 0u32;
        for _ in 0..400 {
            let (mut p, mut o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            // Stable discs of each colour, as absolute colours (black moves first).
            let mut black_turn = true;
            let (mut stable_black, mut stable_white) = (0u64, 0u64);
            loop {
                let moves = legal_moves(p, o);
                if moves == 0 {
                    if legal_moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    black_turn = !black_turn;
                    continue;
                }
                let (black, white) = if black_turn { (p, o) } else { (o, p) };
                assert_eq!(
                    black & stable_black,
                    stable_black,
                    "a stable black disc flipped"
                );
                assert_eq!(
                    white & stable_white,
                    stable_white,
                    "a stable white disc flipped"
                );
                stable_black |= stable_discs(black, white);
                stable_white |= stable_discs(white, black);
                checked += (stable_black | stable_white).count_ones();
                let mut choice = rng.next_u64() % u64::from(moves.count_ones());
                let mut m = moves;
                while choice > 0 {
                    m &= m - 1;
                    choice -= 1;
                }
                let bit = m & m.wrapping_neg();
                let f = flipped(bit, p, o);
                (p, o) = (o & !f, p | f | bit);
                black_turn = !black_turn;
            }
            let (black, white) = if black_turn { (p, o) } else { (o, p) };
            assert_eq!(black & stable_black, stable_black);
            assert_eq!(white & stable_white, stable_white);
        }
        // The test means something only if many discs were found stable along the way.
        assert!(
            checked > 100_000,
            "only {checked} stable disc-moves checked"
        );
    }
}
