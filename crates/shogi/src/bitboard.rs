//! Bitboards: a set of squares as the low 81 bits of a `u128`, bit `file * 9 + rank` (the
//! [`Square`] index), so that each file is 9 consecutive bits.
//!
//! Attacks come from tables made at compile time. A stepping piece's attacks are read by
//! square. A slider's are read by line: the occupancy of the line's inner squares (at most 7,
//! the two ends never block) is an index into the table of a line of 9 squares
//! ([`FILE_ATTACKS`], 2.3 KB). A file's inner squares are 7 consecutive bits; a rank's and a
//! diagonal's are spaced 9, 10 or 8 bits apart and are gathered into 7 bits by one
//! multiplication, whose partial products fall on distinct bits (no carries), the trick of
//! "magic bitboards" without searched magic numbers and with tables of kilobytes. The rays
//! cut at the first blocker (the "classical approach") remain as the tests' reference.
//! Measured in `docs/shogi.md`.

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

/// `BITS[s]`: the bit of square `s` (a load is cheaper than a 128-bit shift by a variable).
static BITS: [Bitboard; 81] = {
    let mut bits = [0; 81];
    let mut s = 0;
    while s < 81 {
        bits[s] = 1 << s;
        s += 1;
    }
    bits
};

/// `NEAR[s]`: the squares at most two files and four ranks from `s` (either way): the only
/// places a piece that moves by steps can come from to check a king on `s` (a knight from
/// four ranks off, on its way to two ranks off; the others from two squares off).
static NEAR: [Bitboard; 81] = box_around(2, 4);

/// By square: the squares at most `files` files and `ranks` ranks from it.
const fn box_around(files: i32, ranks: i32) -> [Bitboard; 81] {
    let mut boxes = [0; 81];
    let mut s = 0;
    while s < 81 {
        let (file, rank) = ((s / 9) as i32, (s % 9) as i32);
        let mut t: usize = 0;
        while t < 81 {
            let (f, r) = ((t / 9) as i32, (t % 9) as i32);
            if (f - file).abs() <= files && (r - rank).abs() <= ranks {
                boxes[s] |= 1 << t;
            }
            t += 1;
        }
        s += 1;
    }
    boxes
}

/// The squares from which a piece that moves by steps may reach a check on a king on `s`
/// (see [`NEAR`]).
#[inline]
pub(crate) fn near(s: Square) -> Bitboard {
    NEAR[s.0 as usize]
}

/// The bit of `square`.
#[inline]
pub(crate) fn bit(square: Square) -> Bitboard {
    BITS[square.0 as usize]
}

/// The squares of a bitboard, lowest index first.
#[inline]
pub(crate) fn squares(b: Bitboard) -> Squares {
    Squares {
        low: b as u64,
        high: (b >> 64) as u64,
    }
}

/// The squares of a bitboard, lowest index first: the two 64-bit halves one after the other,
/// so that each step is one bit scan and one bit clear of a machine word.
pub(crate) struct Squares {
    low: u64,
    high: u64,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let s = self.low.trailing_zeros();
            self.low &= self.low - 1;
            Some(Square(s as u8))
        } else if self.high != 0 {
            let s = self.high.trailing_zeros();
            self.high &= self.high - 1;
            Some(Square(64 + s as u8))
        } else {
            None
        }
    }
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
#[cfg(test)]
const SOUTH: usize = 0;
/// Rank −1 (towards rank a), the way Black's lance looks.
#[cfg(test)]
const NORTH: usize = 4;
/// The rook's four directions (the reference its lookups are tested against).
#[cfg(test)]
const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
/// The bishop's four directions (the reference its lookups are tested against).
#[cfg(test)]
const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

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

/// `DIRECTION[a][b]`: the direction from `a` to `b` when they share a rank, file or
/// diagonal, else 8.
static DIRECTION: [[u8; 81]; 81] = {
    let mut table = [[8; 81]; 81];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 81 {
            let mut b = 0;
            while b < 81 {
                if RAYS[d][a] >> b & 1 != 0 {
                    table[a][b] = d as u8;
                }
                b += 1;
            }
            a += 1;
        }
        d += 1;
    }
    table
};

/// The squares after `a` up to `b`, `b` included, when the two share a line; else nothing.
#[inline]
pub(crate) fn towards(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.0 as usize][b.0 as usize] as usize;
    if d == 8 {
        return 0;
    }
    RAYS[d][a.0 as usize] ^ RAYS[d][b.0 as usize]
}

/// `LINES[0][s]`: the rook's slides from `s` on an empty board; `LINES[1][s]` the bishop's.
static LINES: [[Bitboard; 81]; 2] = {
    let mut table = [[0; 81]; 2];
    let mut s = 0;
    while s < 81 {
        let mut d = 0;
        while d < 8 {
            // Directions 0, 1, 4, 5 are orthogonal, 2, 3, 6, 7 diagonal.
            let diagonal = d % 4 >= 2;
            table[diagonal as usize][s] |= RAYS[d][s];
            d += 1;
        }
        s += 1;
    }
    table
};

/// The rook's slides from `s` on an empty board.
#[inline]
pub(crate) fn rook_lines(s: Square) -> Bitboard {
    LINES[0][s.0 as usize]
}

/// The bishop's slides from `s` on an empty board.
#[inline]
pub(crate) fn bishop_lines(s: Square) -> Bitboard {
    LINES[1][s.0 as usize]
}

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

/// The squares a slider on `s` reaches in direction `d` over `occupied`: up to and including
/// the first occupied square.
#[cfg(test)]
fn ray_attacks(d: usize, s: Square, occupied: Bitboard) -> Bitboard {
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

/// `FILE_ATTACKS[rank][inner]`: the squares of its own file (bit `rank` of 9) that a rook on
/// `rank` reaches when the inner squares of the file (ranks b–h, bits 0–6 of `inner`) are
/// occupied as `inner` says. The edge squares need not be looked at: a slide stops there
/// anyway.
static FILE_ATTACKS: [[u16; 128]; 9] = {
    let mut table = [[0; 128]; 9];
    let mut rank = 0;
    while rank < 9 {
        let mut inner = 0;
        while inner < 128 {
            table[rank][inner] = slide_on_line(rank, inner, true, true);
            inner += 1;
        }
        rank += 1;
    }
    table
};

/// `LANCE_ATTACKS[color][rank][inner]`: as [`FILE_ATTACKS`], towards `color`'s forward only
/// (Black's towards rank a).
static LANCE_ATTACKS: [[[u16; 128]; 9]; 2] = {
    let mut table = [[[0; 128]; 9]; 2];
    let mut rank = 0;
    while rank < 9 {
        let mut inner = 0;
        while inner < 128 {
            table[0][rank][inner] = slide_on_line(rank, inner, true, false);
            table[1][rank][inner] = slide_on_line(rank, inner, false, true);
            inner += 1;
        }
        rank += 1;
    }
    table
};

/// The squares (bits 0–8) of a line of 9 that a slider on `at` reaches towards lower bits
/// (`down`) and higher bits (`up`), when the inner squares 1–7 are occupied as bits 0–6 of
/// `inner` say.
const fn slide_on_line(at: usize, inner: usize, down: bool, up: bool) -> u16 {
    let mut line = 0u16;
    if down {
        let mut i = at;
        while i > 0 {
            i -= 1;
            line |= 1 << i;
            if i == 0 || i == 8 || inner >> (i - 1) & 1 != 0 {
                break;
            }
        }
    }
    if up {
        let mut i = at;
        while i < 8 {
            i += 1;
            line |= 1 << i;
            if i == 0 || i == 8 || inner >> (i - 1) & 1 != 0 {
                break;
            }
        }
    }
    line
}

/// The squares of rank a (bits `9 × file`) of a 9-bit set of files.
const fn spread_files(files: u16) -> Bitboard {
    let mut b = 0;
    let mut f = 0;
    while f < 9 {
        if files >> f & 1 != 0 {
            b |= 1 << (9 * f);
        }
        f += 1;
    }
    b
}

/// `RANK_ATTACKS[file][inner]`: the squares of rank a a rook on `file` of rank a reaches when
/// files 1–7 (index) of its rank are occupied as bits 0–6 of `inner` say; shifted by the rank
/// for the other ranks.
static RANK_ATTACKS: [[Bitboard; 128]; 9] = {
    let mut table = [[0; 128]; 9];
    let mut file = 0;
    while file < 9 {
        let mut inner = 0;
        while inner < 128 {
            table[file][inner] = spread_files(slide_on_line(file, inner, true, true));
            inner += 1;
        }
        file += 1;
    }
    table
};

/// After shifting a bitboard right by `rank + 9`, the bits of files 1–7 (index) of that rank
/// are bits `9 × k`, k = 0–6: this mask keeps them.
const RANK_INNER: u64 = 0x0040_2010_0804_0201;

/// Multiplying the masked bits by this moves bit `9 × k` to bit `57 + k` (k = 0–6) and every
/// other partial product to a distinct bit below 57 or above 63, so without carries: the top
/// 7 bits are then the rank's inner occupancy in file order.
const RANK_GATHER: u64 = {
    let mut m = 0u64;
    let mut k = 0;
    while k < 7 {
        m |= 1 << (57 - 8 * k);
        k += 1;
    }
    m
};

/// The inner occupancy (ranks b–h as bits 0–6) of file `file` (index 0–8).
#[inline]
fn file_inner(file: u32, occupied: Bitboard) -> usize {
    (occupied >> (9 * file + 1)) as usize & 0x7f
}

/// The rook's sliding attacks from `s`: its file and its rank by table lookup.
#[inline]
pub(crate) fn rook_attacks(s: Square, occupied: Bitboard) -> Bitboard {
    let (file, rank) = (u32::from(s.0) / 9, u32::from(s.0) % 9);
    let on_file =
        Bitboard::from(FILE_ATTACKS[rank as usize][file_inner(file, occupied)]) << (9 * file);
    let inner = (occupied >> (rank + 9)) as u64 & RANK_INNER;
    let index = (inner.wrapping_mul(RANK_GATHER) >> 57) as usize;
    on_file | RANK_ATTACKS[file as usize][index] << rank
}

/// How a diagonal through a square is read and written, for [`bishop_attacks`]. The
/// diagonals of direction 0 step by 10 (file and rank +1), those of direction 1 by 8 (file +1,
/// rank −1).
#[derive(Clone, Copy)]
struct Diagonal {
    /// Shifting the board right by this puts the diagonal's inner squares (all but its two
    /// ends) at bits `step × k`, k = 0, 1, ...
    inner_shift: u8,
    /// Those bits.
    inner: u64,
    /// The square's place on its diagonal (0 at the low end).
    place: u8,
    /// The diagonal's squares, as bits 0.. of a line.
    length_mask: u16,
    /// The diagonal's low end.
    start: u8,
}

/// The step of each diagonal direction.
const DIAGONAL_STEPS: [usize; 2] = [10, 8];

/// `DIAGONALS[direction][s]`.
static DIAGONALS: [[Diagonal; 81]; 2] = {
    let none = Diagonal {
        inner_shift: 0,
        inner: 0,
        place: 0,
        length_mask: 0,
        start: 0,
    };
    let mut table = [[none; 81]; 2];
    let mut dir = 0;
    while dir < 2 {
        let step = DIAGONAL_STEPS[dir];
        let mut s = 0;
        while s < 81 {
            let (f, r) = (s / 9, s % 9);
            // Back to the low end: file −1 and rank −1 (direction 0) or rank +1 (direction 1).
            let back = if dir == 0 {
                if f < r {
                    f
                } else {
                    r
                }
            } else if f < 8 - r {
                f
            } else {
                8 - r
            };
            let start = s - step * back;
            let (sf, sr) = (start / 9, start % 9);
            // Forward from the low end to the edge.
            let length = if dir == 0 {
                9 - if sf > sr { sf } else { sr }
            } else {
                9 - if sf > 8 - sr { sf } else { 8 - sr }
            };
            let mut inner = 0u64;
            let mut k = 0;
            while k + 2 < length {
                inner |= 1 << (step * k);
                k += 1;
            }
            table[dir][s] = Diagonal {
                inner_shift: (start + step) as u8,
                inner,
                place: back as u8,
                length_mask: (1 << length) - 1,
                start: start as u8,
            };
            s += 1;
        }
        dir += 1;
    }
    table
};

/// Multipliers that gather the inner bits of a diagonal (bits `step × k`, k = 0–6) into bits
/// 57–63, each partial product on its own bit (no carries), as [`RANK_GATHER`] does for ranks.
const DIAGONAL_GATHER: [u64; 2] = {
    let mut m = [0u64; 2];
    let mut dir = 0;
    while dir < 2 {
        let mut k = 0;
        while k < 7 {
            m[dir] |= 1 << (57 + k - DIAGONAL_STEPS[dir] * k);
            k += 1;
        }
        dir += 1;
    }
    m
};

/// `DIAGONAL_SPREAD[direction][line]`: the squares `step × i` for the bits i of a 9-bit line.
static DIAGONAL_SPREAD: [[Bitboard; 512]; 2] = {
    let mut table = [[0; 512]; 2];
    let mut dir = 0;
    while dir < 2 {
        let mut line = 0;
        while line < 512 {
            let mut i = 0;
            while i < 9 {
                if line >> i & 1 != 0 {
                    table[dir][line] |= 1 << (DIAGONAL_STEPS[dir] * i);
                }
                i += 1;
            }
            line += 1;
        }
        dir += 1;
    }
    table
};

/// The bishop's sliding attacks from `s`: each diagonal's inner occupancy gathered by one
/// multiplication, its slide read from the table of lines ([`FILE_ATTACKS`]), put back on the
/// board from a table.
#[inline]
pub(crate) fn bishop_attacks(s: Square, occupied: Bitboard) -> Bitboard {
    let mut attacks = 0;
    let mut dir = 0;
    while dir < 2 {
        let d = &DIAGONALS[dir][s.0 as usize];
        let inner = (occupied >> d.inner_shift) as u64 & d.inner;
        let index = (inner.wrapping_mul(DIAGONAL_GATHER[dir]) >> 57) as usize;
        let line = FILE_ATTACKS[d.place as usize][index] & d.length_mask;
        attacks |= DIAGONAL_SPREAD[dir][line as usize] << d.start;
        dir += 1;
    }
    attacks
}

/// The lance's attacks from `s` for `color`, by table lookup on its file.
#[inline]
pub(crate) fn lance_attacks(color: Color, s: Square, occupied: Bitboard) -> Bitboard {
    let (file, rank) = (u32::from(s.0) / 9, u32::from(s.0) % 9);
    let line = LANCE_ATTACKS[color as usize][rank as usize][file_inner(file, occupied)];
    Bitboard::from(line) << (9 * file)
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
        // Every rank has 9 squares; together they tile the board.
        assert!(RANKS.iter().all(|r| r.count_ones() == 9));
        assert_eq!(RANKS.iter().fold(0, |a, r| a | r), BOARD);
    }

    /// The rays cut at the first blocker, direction by direction: the reference the lookups
    /// are checked against.
    fn scanned(directions: &[usize], s: Square, occupied: Bitboard) -> Bitboard {
        directions
            .iter()
            .fold(0, |a, &d| a | ray_attacks(d, s, occupied))
    }

    /// Pseudo-random occupancies of every density, from a fixed seed.
    fn occupancies() -> impl Iterator<Item = Bitboard> {
        let mut state = 0x0123_4567_89ab_cdef_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..3000).map(move |i| {
            let mut b = Bitboard::from(next()) | Bitboard::from(next()) << 64;
            // Thin it out to 1/2, 1/4, 1/8 or 1/16 of the squares.
            for _ in 0..i % 4 {
                b &= Bitboard::from(next()) | Bitboard::from(next()) << 64;
            }
            b & BOARD
        })
    }

    #[test]
    fn slider_lookups_equal_the_ray_scans() {
        let empty_and_full = [0, BOARD];
        for occupied in empty_and_full.into_iter().chain(occupancies()) {
            for s in 0..81 {
                let s = Square(s);
                assert_eq!(
                    rook_attacks(s, occupied),
                    scanned(&ORTHOGONAL, s, occupied),
                    "rook {s} {occupied:x}"
                );
                assert_eq!(
                    bishop_attacks(s, occupied),
                    scanned(&DIAGONAL, s, occupied),
                    "bishop {s} {occupied:x}"
                );
                assert_eq!(
                    lance_attacks(Color::Black, s, occupied),
                    scanned(&[NORTH], s, occupied),
                    "black lance {s} {occupied:x}"
                );
                assert_eq!(
                    lance_attacks(Color::White, s, occupied),
                    scanned(&[SOUTH], s, occupied),
                    "white lance {s} {occupied:x}"
                );
            }
        }
    }
}
