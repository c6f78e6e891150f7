//! Bitboards: a set of squares as the low 81 bits of a `u128`, bit `file * 9 + rank` (the
//! [`Square`] index), so that each file is 9 consecutive bits.
//!
//! Attacks come from tables made at compile time: the squares a stepping piece reaches from
//! each square, and the ray from each square in each of the 8 directions. A slider's attacks
//! in one direction are its ray cut at the first occupied square, found with one bit scan
//! (the lowest set bit for directions of growing index, the highest for the others): the
//! "classical approach" of chess programming, which needs no magic numbers and no large
//! tables. Measured against the array board it replaced in `docs/shogi.md`.

use crate::position::{Color, Kind, Square};

/// A set of squares.
pub(crate) type Bitboard = u128;

/// Every square of the board.
pub(crate) const BOARD: Bitboard = (1 << 81) - 1;

/// The squares of one rank (0 = a), by rank.
pub(crate) const RANKS: [Bitboard; 9] = {
    let mut ranks = [0; 9];
    let mut r = 0;
    while r < 9 {
        let mut f = 0;
        while f < 9 {
            ranks[r] |= 1 << (f * 9 + r);
            f += 1;
        }
        r += 1;
    }
    ranks
};

/// The squares of one file, by file index 0–8 (USI's 1–9).
pub(crate) const FILES: [Bitboard; 9] = {
    let mut files = [0; 9];
    let mut f = 0;
    while f < 9 {
        files[f] = 0x1ff << (f * 9);
        f += 1;
    }
    files
};

/// The bit of `square`.
#[inline]
pub(crate) fn bit(square: Square) -> Bitboard {
    1 << square.0
}

/// The squares of a bitboard, lowest index first.
pub(crate) fn squares(mut b: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let s = b.trailing_zeros();
        b &= b - 1;
        Some(Square(s as u8))
    })
}

/// The 8 directions as (file, rank) steps; `d` and `d + 4` are opposites. The first four
/// grow the square index (rank +1 is +1, file +1 is +9).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];

/// Direction indices: rank +1 (towards rank i), the way White's lance looks.
pub(crate) const SOUTH: usize = 0;
/// Rank −1 (towards rank a), the way Black's lance looks.
pub(crate) const NORTH: usize = 4;
/// The rook's four directions.
pub(crate) const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
/// The bishop's four directions.
pub(crate) const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 9
}

/// `RAYS[d][s]`: the squares from `s` (excluded) to the edge in direction `d`.
static RAYS: [[Bitboard; 81]; 8] = {
    let mut rays = [[0; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut s = 0;
        while s < 81 {
            let (mut f, mut r) = ((s / 9) as i32 + df, (s % 9) as i32 + dr);
            while on_board(f, r) {
                rays[d][s] |= 1 << (f * 9 + r);
                f += df;
                r += dr;
            }
            s += 1;
        }
        d += 1;
    }
    rays
};

/// The single steps of a kind for Black as (file, rank) vectors (White's mirror the rank).
const fn steps(kind: usize) -> &'static [(i32, i32)] {
    const GOLD: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const KING: &[(i32, i32)] = &[
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    // In `Kind::ALL` order: pawn, lance, knight, silver, gold, bishop, rook, king, the four
    // promoted small pieces, horse, dragon.
    match kind {
        0 => &[(0, -1)],
        2 => &[(-1, -2), (1, -2)],
        3 => &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)],
        4 | 8 | 9 | 10 | 11 => GOLD,
        7 => KING,
        12 => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
        13 => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        _ => &[],
    }
}

/// `STEPS[color][kind][s]`: the squares a piece reaches in one step from `s` (sliding moves
/// are not in it: a horse has only its orthogonal steps here, a lance nothing).
static STEPS: [[[Bitboard; 81]; 14]; 2] = {
    let mut table = [[[0; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let vectors = steps(k);
            let mut s = 0;
            while s < 81 {
                let mut i = 0;
                while i < vectors.len() {
                    let (df, dr) = vectors[i];
                    let dr = if c == 0 { dr } else { -dr };
                    let (f, r) = ((s / 9) as i32 + df, (s % 9) as i32 + dr);
                    if on_board(f, r) {
                        table[c][k][s] |= 1 << (f * 9 + r);
                    }
                    i += 1;
                }
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    table
};

/// The squares from `s` (excluded) to the edge in direction `d`.
#[inline]
pub(crate) fn ray(d: usize, s: Square) -> Bitboard {
    RAYS[d][s.0 as usize]
}

/// The squares a slider on `s` reaches in direction `d` over `occupied`: up to and including
/// the first occupied square.
#[inline]
pub(crate) fn ray_attacks(d: usize, s: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[d][s.0 as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let first = if d < 4 {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    };
    ray ^ RAYS[d][first as usize]
}

/// The rook's sliding attacks from `s`.
#[inline]
pub(crate) fn rook_attacks(s: Square, occupied: Bitboard) -> Bitboard {
    ORTHOGONAL
        .iter()
        .fold(0, |a, &d| a | ray_attacks(d, s, occupied))
}

/// The bishop's sliding attacks from `s`.
#[inline]
pub(crate) fn bishop_attacks(s: Square, occupied: Bitboard) -> Bitboard {
    DIAGONAL
        .iter()
        .fold(0, |a, &d| a | ray_attacks(d, s, occupied))
}

/// The lance's attacks from `s` for `color`.
#[inline]
pub(crate) fn lance_attacks(color: Color, s: Square, occupied: Bitboard) -> Bitboard {
    let d = if color == Color::Black { NORTH } else { SOUTH };
    ray_attacks(d, s, occupied)
}

/// The single steps of a piece of `kind` and `color` from `s`.
#[inline]
pub(crate) fn step_attacks(color: Color, kind: Kind, s: Square) -> Bitboard {
    STEPS[color as usize][kind as usize][s.0 as usize]
}

/// Every square a piece of `kind` and `color` on `s` attacks over `occupied`.
#[inline]
pub(crate) fn attacks(color: Color, kind: Kind, s: Square, occupied: Bitboard) -> Bitboard {
    let steps = step_attacks(color, kind, s);
    match kind {
        Kind::Lance => lance_attacks(color, s, occupied),
        Kind::Bishop | Kind::Horse => steps | bishop_attacks(s, occupied),
        Kind::Rook | Kind::Dragon => steps | rook_attacks(s, occupied),
        _ => steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_plain_geometry() {
        // A rook on 5e of an empty board attacks its file and rank, 16 squares.
        let e5 = Square::new(5, 4).unwrap();
        assert_eq!(rook_attacks(e5, 0).count_ones(), 16);
        assert_eq!(bishop_attacks(e5, 0).count_ones(), 16);
        // A blocker on 5c stops the rook there (5c included, 5b not).
        let c5 = Square::new(5, 2).unwrap();
        let b5 = Square::new(5, 1).unwrap();
        let a = rook_attacks(e5, bit(c5));
        assert!(a & bit(c5) != 0 && a & bit(b5) == 0);
        // Black's knight on 5e jumps to 4c and 6c; White's to 4g and 6g.
        let black = step_attacks(Color::Black, Kind::Knight, e5);
        let white = step_attacks(Color::White, Kind::Knight, e5);
        let at = |f, r| bit(Square::new(f, r).unwrap());
        assert_eq!(black, at(4, 2) | at(6, 2));
        assert_eq!(white, at(4, 6) | at(6, 6));
        // Every rank and file has 9 squares; together they tile the board.
        assert!(RANKS.iter().all(|r| r.count_ones() == 9));
        assert_eq!(FILES.iter().fold(0, |a, f| a | f), BOARD);
    }
}
