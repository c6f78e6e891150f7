//! Branch-free bit operations on `u64` bitboards: the legal-move mask, the discs a move
//! flips, and neighbour masks.
//!
//! Everything here works on the eight directions as shifts of the whole board. A step east is
//! `<< 1`, north is `<< 8`, north-east `<< 9`, north-west `<< 7`, and the opposite directions
//! shift right. A shift that would wrap from file h to file a (or back) is stopped by masking
//! the opponent's discs with [`INNER_FILES`] (files b to g): a run of flippable discs never
//! contains a disc on the a- or h-file in a direction that moves sideways, so any bit that
//! wraps lands on a masked file and dies. Vertical steps need no mask: they fall off the ends.

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Files b to g: every square not on the a- or h-file.
pub const INNER_FILES: u64 = !(FILE_A | FILE_H);
/// Rank 1.
pub const RANK_1: u64 = 0x0000_0000_0000_00ff;
/// Rank 8.
pub const RANK_8: u64 = 0xff00_0000_0000_0000;
/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Shifts `x` by `d` squares towards higher indices if `d > 0`, lower if `d < 0`. Every call
/// passes a constant, so the branch folds away when inlined.
#[inline(always)]
const fn shift(x: u64, d: i32) -> u64 {
    if d > 0 {
        x << d
    } else {
        x >> -d
    }
}

/// The squares reached from `from` by stepping `d` across a contiguous run of `through`
/// squares: bit `s` is set when `s` is 1 to 6 steps from a bit of `from` and every square
/// from the first step up to `s` lies in `through`.
///
/// A Kogge-Stone style fill: two single steps give runs of length 1-2, then two double steps
/// (allowed only where a square and its predecessor are both in `through`) reach 4 and 6.
#[inline(always)]
const fn run(from: u64, through: u64, d: i32) -> u64 {
    let mut r = through & shift(from, d);
    r |= through & shift(r, d);
    let pairs = through & shift(through, d);
    r |= pairs & shift(r, 2 * d);
    r |= pairs & shift(r, 2 * d);
    r
}

/// The squares where the side owning `player` may play against `opponent`: empty squares at
/// the far end of a run of opponent discs that starts next to one of the player's discs.
#[inline]
pub const fn legal_moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_FILES;
    let mut m = shift(run(player, inner, 1), 1) | shift(run(player, inner, -1), -1);
    m |= shift(run(player, opponent, 8), 8) | shift(run(player, opponent, -8), -8);
    m |= shift(run(player, inner, 9), 9) | shift(run(player, inner, -9), -9);
    m |= shift(run(player, inner, 7), 7) | shift(run(player, inner, -7), -7);
    m & !(player | opponent)
}

/// The squares beyond each square in each direction, up to the edge: `RAYS[sq][k]` for the
/// steps east, north, north-east, north-west (towards higher indices, `k` 0-3) and west,
/// south, south-west, south-east (towards lower indices, `k` 4-7).
pub(crate) const RAYS: [[u64; 8]; 64] = {
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut table = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 8 {
            let (df, dr) = STEPS[k];
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq][k] |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            k += 1;
        }
        sq += 1;
    }
    table
};

/// Flips along a ray towards higher indices: the opponent discs before the first square of
/// the ray that is not the opponent's, if that square is the player's.
#[inline(always)]
const fn flips_up(ray: u64, player: u64, opponent: u64) -> u64 {
    let stop = ray & !opponent;
    let first = stop & stop.wrapping_neg();
    let closed = (first & player != 0) as u64;
    ray & first.wrapping_sub(1) & closed.wrapping_neg()
}

/// Flips along a ray towards lower indices: the same with the last square of the ray (found by
/// counting leading zeros; an empty `stop` yields bit 0, which then closes nothing).
#[inline(always)]
const fn flips_down(ray: u64, player: u64, opponent: u64) -> u64 {
    let stop = ray & !opponent;
    let last = (1u64 << 63) >> (stop | 1).leading_zeros();
    let closed = (last & player & ray != 0) as u64;
    ray & !((last << 1).wrapping_sub(1)) & closed.wrapping_neg()
}

/// The opponent discs that a disc placed on square `sq` (0-63) flips (zero if none, which
/// makes the square illegal). The caller ensures the square is empty.
///
/// Per direction: the ray of squares beyond `sq` (a table), its first square that is not the
/// opponent's (the lowest or the highest set bit), and the run before it if the player owns it.
#[inline]
pub const fn flips_at(sq: u32, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[sq as usize];
    flips_up(rays[0], player, opponent)
        | flips_up(rays[1], player, opponent)
        | flips_up(rays[2], player, opponent)
        | flips_up(rays[3], player, opponent)
        | flips_down(rays[4], player, opponent)
        | flips_down(rays[5], player, opponent)
        | flips_down(rays[6], player, opponent)
        | flips_down(rays[7], player, opponent)
}

/// The opponent discs that a disc placed on the single-bit mask `placed` flips (zero if none,
/// which makes the square illegal). The caller ensures `placed` is an empty square.
#[inline]
pub const fn flipped(placed: u64, player: u64, opponent: u64) -> u64 {
    flips_at(placed.trailing_zeros(), player, opponent)
}

/// `LINE_FLIPS[k][x]`: on a full line of eight squares, how many discs a disc placed on square
/// `k` flips when the player's discs on the line are the bits of `x` and every other square
/// but `k` is the opponent's: the run up to the nearest player disc on each side, if there is
/// one.
const LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut x = 0;
        while x < 256 {
            let mut count = 0;
            let mut j = k + 1;
            while j < 8 && x >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                count += j - k - 1;
            }
            let mut j = k as i32 - 1;
            while j >= 0 && x >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += k - j as usize - 1;
            }
            table[k][x] = count as u8;
            x += 1;
        }
        k += 1;
    }
    table
};

/// The two diagonals through each square: `DIAGONALS[sq]` is `(a1-h8 direction, a8-h1
/// direction)`, the square included.
const DIAGONALS: [(u64, u64); 64] = {
    let mut table = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut t = 0;
        while t < 64 {
            let (tf, tr) = (t % 8, t / 8);
            if tf - f == tr - r {
                table[sq].0 |= 1u64 << t;
            }
            if tf - f == r - tr {
                table[sq].1 |= 1u64 << t;
            }
            t += 1;
        }
        sq += 1;
    }
    table
};

/// How many discs the last move of the game flips: a disc placed by the owner of `player` on
/// square `sq`, the only empty square, every other square being the opponent's.
///
/// With the board full, the flips along each line through `sq` depend only on where the
/// player's discs are: each line's discs are gathered into a byte (the rank directly, the file
/// and the diagonals by a multiplication that lands one bit per square in the top byte, indexed
/// by rank for the file and by file for the diagonals) and a table of flips per line counts its flips.
#[inline(always)]
pub const fn count_last_flip(sq: u32, player: u64) -> u32 {
    let (f, r) = ((sq % 8) as usize, (sq / 8) as usize);
    let rank = (player >> (8 * r)) as u8 as usize;
    let file = (((player >> f) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let (diagonal, anti) = DIAGONALS[sq as usize];
    let diagonal = ((player & diagonal).wrapping_mul(FILE_A) >> 56) as usize;
    let anti = ((player & anti).wrapping_mul(FILE_A) >> 56) as usize;
    (LINE_FLIPS[f][rank] as u32)
        + (LINE_FLIPS[r][file] as u32)
        + (LINE_FLIPS[f][diagonal] as u32)
        + (LINE_FLIPS[f][anti] as u32)
}

/// The four 4x4 quadrants of the board: the regions of the parity rule.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The union of the quadrants holding an odd number of the squares of `empties` (parity
/// ordering: the side to move there can hope to have the last move in such a region).
#[inline(always)]
pub const fn odd_regions(empties: u64) -> u64 {
    let mut odd = 0;
    let mut i = 0;
    while i < QUADRANTS.len() {
        if (empties & QUADRANTS[i]).count_ones() % 2 == 1 {
            odd |= QUADRANTS[i];
        }
        i += 1;
    }
    odd
}

/// The squares adjacent (in any of the eight directions) to a bit of `x`.
#[inline(always)]
pub const fn neighbours(x: u64) -> u64 {
    let sideways = ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H);
    let row = x | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// Test helper: reads a board drawn as text, rank 8 on the first line and rank 1 on the last,
/// file a on the left; `X` black, `O` white, anything else (`.`, `-`) empty; whitespace is
/// ignored. Returns the (black, white) masks. Panics on a drawing that is not 64 squares.
#[cfg(test)]
pub(crate) fn from_diagram(diagram: &str) -> (u64, u64) {
    let cells: Vec<char> = diagram.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(cells.len(), 64, "a diagram has 64 squares");
    let (mut black, mut white) = (0, 0);
    for (i, c) in cells.into_iter().enumerate() {
        let (row_from_top, file) = (i / 8, i % 8);
        let bit = 1u64 << ((7 - row_from_top) * 8 + file);
        match c {
            'X' => black |= bit,
            'O' => white |= bit,
            _ => {}
        }
    }
    (black, white)
}

/// Test helper: a random game from the start (each move drawn uniformly with one `rng` step),
/// stopped once at most `stop` squares are empty or when neither side can move. Returns the
/// side to move's and the opponent's discs.
#[cfg(test)]
pub(crate) fn random_game(rng: &mut impl prune_search::rng::Rng, stop: u32) -> (u64, u64) {
    let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    while 64 - (p | o).count_ones() > stop {
        let moves = legal_moves(p, o);
        if moves == 0 {
            (p, o) = (o, p);
            if legal_moves(p, o) == 0 {
                break;
            }
            continue;
        }
        let n = (rng.next_u64() % u64::from(moves.count_ones())) as u32;
        let mut todo = moves;
        for _ in 0..n {
            todo &= todo - 1;
        }
        let sq = todo.trailing_zeros();
        let flips = flips_at(sq, p, o);
        (p, o) = (o & !flips, p | flips | 1u64 << sq);
    }
    (p, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::rng::{Rng, XorShift64};

    /// The slow, obvious rule: walk each direction square by square.
    fn flipped_by_walking(sq: usize, player: u64, opponent: u64) -> u64 {
        let mut total = 0;
        for (df, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
        ] {
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            let mut run = 0;
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + f);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        total |= run;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        total
    }

    /// Random boards from a fixed xorshift sequence.
    fn random_boards(count: usize) -> Vec<(u64, u64)> {
        let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        (0..count)
            .map(|_| {
                let occupied = next() | next();
                let black = occupied & next();
                (black, occupied & !black)
            })
            .collect()
    }

    #[test]
    fn agrees_with_walking_on_random_boards() {
        for (p, o) in random_boards(2000) {
            let empty = !(p | o);
            let mut expected_moves = 0;
            for sq in 0..64 {
                if empty >> sq & 1 == 1 {
                    let slow = flipped_by_walking(sq, p, o);
                    assert_eq!(flipped(1 << sq, p, o), slow, "square {sq} of {p:x} {o:x}");
                    if slow != 0 {
                        expected_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(legal_moves(p, o), expected_moves, "{p:x} {o:x}");
        }
    }

    #[test]
    fn count_last_flip_counts_the_flips_of_the_last_move() {
        for (p, _) in random_boards(3000) {
            for sq in 0..64 {
                let bit = 1u64 << sq;
                let player = p & !bit;
                let opponent = !player & !bit;
                assert_eq!(
                    count_last_flip(sq, player),
                    flips_at(sq, player, opponent).count_ones(),
                    "square {sq} of {player:x}"
                );
            }
        }
    }

    #[test]
    fn neighbours_do_not_wrap() {
        assert_eq!(neighbours(1), 0x302); // a1: b1, a2, b2
        assert_eq!(neighbours(1 << 7), 0xc040); // h1: g1, g2, h2
        let (_, d4_only) =
            from_diagram("........ ........ ........ ........ ...O.... ........ ........ ........");
        assert_eq!(neighbours(d4_only).count_ones(), 8);
    }

    #[test]
    fn diagram_puts_rank_one_at_the_bottom() {
        let (black, white) =
            from_diagram("X....... ........ ........ ........ ........ ........ ........ .......O");
        assert_eq!(black, 1 << 56); // a8
        assert_eq!(white, 1 << 7); // h1
    }
}
