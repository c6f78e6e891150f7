//! Squares, moves and iteration over the squares of a bitboard.
//!
//! Square `i` is bit `i` of a `u64`: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63
//! (rank 1 first, file a first within a rank). Text forms live in [`crate::notation`].

use serde::{Deserialize, Serialize};

/// One of the 64 squares of the board (always `0..64`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index`, or `None` unless `index < 64`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a .. 7 = h) and `rank` (0 = rank 1 .. 7 = rank 8), or `None`
    /// if either is out of range.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The bit index, `0..64`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The one-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
}

/// A move: a disc placed on a square, or a pass.
///
/// Moves order by square index, with the pass last.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Move(u8);

impl prune_search::MoveBits for Move {
    fn to_bits(self) -> u32 {
        u32::from(self.0)
    }
    fn from_bits(bits: u32) -> Option<Self> {
        u8::try_from(bits).ok().and_then(Move::new)
    }
}

impl Move {
    /// The pass: the side to move has no legal square and hands the turn over.
    pub const PASS: Move = Move(64);

    /// The move with index `index`: `0..64` for squares, 64 for [`Move::PASS`]; `None` above.
    #[inline]
    pub const fn new(index: u8) -> Option<Move> {
        if index <= 64 {
            Some(Move(index))
        } else {
            None
        }
    }

    /// The move that places a disc on `square`.
    #[inline]
    pub const fn from_square(square: Square) -> Move {
        Move(square.0)
    }

    /// The index: the square's bit index, or 64 for the pass.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The square played, or `None` for the pass.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        Square::new(self.0)
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == Self::PASS.0
    }
}

impl From<Square> for Move {
    fn from(square: Square) -> Move {
        Move::from_square(square)
    }
}

/// The squares of a bitboard in increasing index order (see [`squares`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares(u64);

/// Iterates over the squares set in `mask`, lowest index first.
#[inline]
pub const fn squares(mask: u64) -> Squares {
    Squares(mask)
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl std::iter::FusedIterator for Squares {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates() {
        let d4 = Square::from_coords(3, 3).unwrap();
        assert_eq!(d4.index(), 27);
        assert_eq!((d4.file(), d4.rank()), (3, 3));
        assert_eq!(d4.bit(), 1 << 27);
        assert_eq!(Square::new(63).map(Square::index), Some(63));
        assert_eq!(Square::new(64), None);
        assert_eq!(Square::from_coords(8, 0), None);
    }

    #[test]
    fn moves_and_pass() {
        assert!(Move::PASS.is_pass());
        assert_eq!(Move::PASS.square(), None);
        assert_eq!(Move::new(65), None);
        let m = Move::from(Square::new(5).unwrap());
        assert!(!m.is_pass());
        assert_eq!(m.square().map(Square::index), Some(5));
        assert!(m < Move::PASS);
    }

    #[test]
    fn iterates_in_order() {
        let got: Vec<u8> = squares(0x8000_0000_0000_0101).map(Square::index).collect();
        assert_eq!(got, vec![0, 8, 63]);
        assert_eq!(squares(0b1011).len(), 3);
    }
}
