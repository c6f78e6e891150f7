//! [`Board`]: the discs as two bitboards relative to the side to move, with move generation,
//! flipping, make-move as XORs, pass as a swap, final scoring and hashing.

use prune_search::rng::{splitmix64_finalize as mix, GOLDEN_GAMMA};

use crate::bitboard;
use crate::square::Square;

/// The discs on the board, seen from the side to move: `player` holds the mover's discs,
/// `opponent` the other side's. The two never overlap.
///
/// Because the board is relative, a pass is a swap of the two masks and a move is three XORs;
/// the colour of the side to move is kept by [`Position`](crate::Position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    player: u64,
    opponent: u64,
}

/// The error of [`Board::from_bits`]: some squares hold a disc of both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("both sides have a disc on the squares of mask {overlap:#018x}")]
pub struct OverlappingDiscs {
    /// The squares claimed by both masks.
    pub overlap: u64,
}

impl Board {
    /// The start position with black to move: black (the mover) on d5 and e4, white on d4
    /// and e5.
    pub const START: Board = Board {
        player: (1 << 35) | (1 << 28),
        opponent: (1 << 27) | (1 << 36),
    };

    /// A board from the mover's and the opponent's discs, which must not overlap.
    pub const fn from_bits(player: u64, opponent: u64) -> Result<Board, OverlappingDiscs> {
        if player & opponent != 0 {
            Err(OverlappingDiscs {
                overlap: player & opponent,
            })
        } else {
            Ok(Board { player, opponent })
        }
    }

    /// A board from masks the caller knows to be disjoint (for the crate's own readers).
    #[inline(always)]
    pub(crate) const fn from_disjoint_bits(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0);
        Board { player, opponent }
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The empty squares.
    #[inline]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// The number of discs of the side to move.
    #[inline]
    pub const fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    /// The number of discs of the side not to move.
    #[inline]
    pub const fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// The mask of squares where the side to move may play (no pass included).
    #[inline]
    pub const fn moves(&self) -> u64 {
        bitboard::legal_moves(self.player, self.opponent)
    }

    /// The mask of squares where the opponent could play if it were its turn.
    #[inline]
    pub const fn opponent_moves(&self) -> u64 {
        bitboard::legal_moves(self.opponent, self.player)
    }

    /// The opponent discs a disc on `square` would flip; zero exactly when `square` is not a
    /// legal move (occupied, or flipping nothing).
    #[inline]
    pub const fn flips(&self, square: Square) -> u64 {
        let bit = square.bit();
        let is_empty = ((self.empties() & bit) != 0) as u64;
        bitboard::flipped(bit, self.player, self.opponent) & is_empty.wrapping_neg()
    }

    /// Whether the side to move may play on `square`.
    #[inline]
    pub const fn is_legal(&self, square: Square) -> bool {
        self.flips(square) != 0
    }

    /// The board after the mover places a disc on `square` that flips `flipped` (from
    /// [`Board::flips`]), seen from the new side to move. Three XORs, no checks: a wrong
    /// `flipped` gives a wrong (but overlap-free) board.
    #[inline]
    pub const fn play_flips(&self, square: Square, flipped: u64) -> Board {
        let flipped = flipped & self.opponent;
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ (flipped | (square.bit() & self.empties())),
        }
    }

    /// The board after the mover plays `square`, seen from the new side to move. The move is
    /// not checked: an illegal square flips nothing (and an occupied one adds no disc).
    #[inline]
    pub const fn play_unchecked(&self, square: Square) -> Board {
        self.play_flips(square, self.flips(square))
    }

    /// The board after a pass: the same discs with the sides swapped.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether the side to move has a legal square.
    #[inline]
    pub const fn can_move(&self) -> bool {
        self.moves() != 0
    }

    /// Whether the side to move must pass: it has no square but the opponent has one.
    #[inline]
    pub const fn must_pass(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() != 0
    }

    /// Whether the game is over: neither side can move.
    #[inline]
    pub const fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    /// The final score for the side to move if the game ended now: the disc difference with
    /// the empty squares given to the winner (the FFO and Edax rule). With `p` and `o` discs,
    /// that is `64 - 2o` if `p > o`, `2p - 64` if `p < o`, and 0 for a draw.
    #[inline(always)]
    pub const fn final_score(&self) -> i32 {
        let p = self.player_count() as i32;
        let o = self.opponent_count() as i32;
        if p > o {
            64 - 2 * o
        } else if p < o {
            2 * p - 64
        } else {
            0
        }
    }

    /// A 64-bit hash of the discs and of which side owns which (swapping the sides changes
    /// it): the key of the generic search's transposition table. Built from the SplitMix64
    /// finaliser, applied to each mask in turn so that the two masks play different roles.
    #[inline]
    pub const fn hash(&self) -> u64 {
        mix(self.player ^ mix(self.opponent ^ GOLDEN_GAMMA))
    }
}

/// The endgame solver's hash of a position given as its two bitboards (the mover's discs, the
/// other side's): one SplitMix64 finaliser of a combination of both, cheaper than
/// [`Board::hash`] on the solver's hot path. The two are kept distinct because node counts
/// are pinned on each: the `prune bench` signature on [`Board::hash`], the solver's on this
/// one (it picks the table's bucket).
#[inline]
pub(crate) const fn bitboard_hash(player: u64, opponent: u64) -> u64 {
    mix(player ^ opponent.rotate_left(23).wrapping_mul(GOLDEN_GAMMA))
}

impl Default for Board {
    fn default() -> Self {
        Board::START
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::from_diagram;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// A board from a diagram with black (`X`) to move.
    fn black_to_move(diagram: &str) -> Board {
        let (black, white) = from_diagram(diagram);
        Board::from_bits(black, white).unwrap()
    }

    #[test]
    fn start_position() {
        let b = Board::START;
        assert_eq!(
            b.moves(),
            sq("d3").bit() | sq("c4").bit() | sq("f5").bit() | sq("e6").bit()
        );
        assert_eq!(b.flips(sq("d3")), sq("d4").bit());
        assert_eq!(b.flips(sq("a1")), 0);
        assert_eq!(b.flips(sq("d5")), 0, "occupied square");
        assert_eq!(
            (b.player_count(), b.opponent_count(), b.empty_count()),
            (2, 2, 60)
        );
        assert!(!b.is_game_over() && b.can_move() && !b.must_pass());
    }

    #[test]
    fn flips_in_all_eight_directions() {
        // Black plays d5: runs of white in all eight directions, each closed by black.
        let b = black_to_move(
            "
            X..X..X.
            .O.O.O..
            ..OOO...
            XOO.OOOX
            ..OOO...
            .O.O.O..
            X..X..X.
            ........",
        );
        let flipped = b.flips(sq("d5"));
        let (_, white) = from_diagram(
            "
            ........
            .O.O.O..
            ..OOO...
            .OO.OOO.
            ..OOO...
            .O.O.O..
            ........
            ........",
        );
        assert_eq!(flipped, white);
        let after = b.play_unchecked(sq("d5"));
        assert_eq!(
            after.opponent_count(),
            8 + 17 + 1,
            "the mover's discs, now the opponent's"
        );
        assert_eq!(after.player_count(), 0);
    }

    #[test]
    fn each_direction_alone() {
        // (label, diagram with black to move, square black plays, discs flipped)
        let cases = [
            (
                "e1 east",
                "........ ........ ........ ........ ........ ........ ........ .....OOX",
                "e1",
                2,
            ),
            (
                "h1 west",
                "........ ........ ........ ........ ........ ........ ........ XOOOOOO.",
                "h1",
                6,
            ),
            (
                "a1 north",
                "X....... O....... O....... O....... O....... O....... O....... ........",
                "a1",
                6,
            ),
            (
                "a8 south",
                "........ O....... O....... X....... ........ ........ ........ ........",
                "a8",
                2,
            ),
            (
                "a1 north-east",
                "........ ......X. .....O.. ....O... ...O.... ..O..... .O...... ........",
                "a1",
                5,
            ),
            (
                "h8 south-west",
                "........ ......O. .....O.. ....X... ........ ........ ........ ........",
                "h8",
                2,
            ),
            (
                "h1 north-west",
                "........ ........ ........ ...X.... ....O... .....O.. ......O. ........",
                "h1",
                3,
            ),
            (
                "a8 south-east",
                "........ .O...... ..X..... ........ ........ ........ ........ ........",
                "a8",
                1,
            ),
        ];
        for (label, diagram, square, count) in cases {
            let b = black_to_move(diagram);
            let f = b.flips(sq(square));
            assert_eq!(f.count_ones(), count, "{label}");
            assert_eq!(f & !b.opponent(), 0, "{label}: only white discs flip");
        }
    }

    #[test]
    fn runs_do_not_wrap_around_the_edges() {
        // White on h1 and a2 are not a line: a1-h1-a2 wrap must not be seen as a run.
        let b = black_to_move(
            "........ ........ ........ ........ ........ ........ XO...... ......O.",
        );
        assert_eq!(b.flips(sq("a1")), 0);
        assert_eq!(b.moves() & sq("a1").bit(), 0);
        // An open run (no closing disc) flips nothing.
        let b = black_to_move(
            "........ ........ ........ ........ ........ ........ ........ ..OOO...",
        );
        assert_eq!(b.moves(), 0);
    }

    #[test]
    fn pass_and_game_over() {
        // White a1, black b1: white can take b1 by playing c1; black can flank nothing.
        let b = black_to_move(
            "........ ........ ........ ........ ........ ........ ........ OX......",
        );
        assert!(!b.can_move() && b.must_pass() && !b.is_game_over());
        assert_eq!(b.pass().moves(), sq("c1").bit());
        // Discs apart: neither side can move.
        let apart = black_to_move(
            "X....... ........ ........ ........ ........ ........ ........ .......O",
        );
        assert!(apart.is_game_over() && !apart.must_pass());
        assert!(Board::from_bits(0xffff, 0).unwrap().is_game_over());
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        let b = Board::from_bits(0b111, 0b1000).unwrap(); // 3 vs 1, 60 empty
        assert_eq!(b.final_score(), 62);
        assert_eq!(b.pass().final_score(), -62);
        let even = Board::from_bits(0b11, 0b1100).unwrap();
        assert_eq!(even.final_score(), 0);
        let full = Board::from_bits(0xffff_ffff, !0xffff_ffff).unwrap();
        assert_eq!(full.final_score(), 0);
        let full = Board::from_bits(!0xff, 0xff).unwrap(); // 56 - 8
        assert_eq!(full.final_score(), 48);
    }

    #[test]
    fn play_is_xor_and_hash_depends_on_side() {
        let b = Board::START;
        let f = b.flips(sq("f5"));
        let next = b.play_flips(sq("f5"), f);
        assert_eq!(next.player(), b.opponent() ^ f);
        assert_eq!(next.opponent(), b.player() ^ (f | sq("f5").bit()));
        assert_eq!(next, b.play_unchecked(sq("f5")));
        assert_ne!(b.hash(), b.pass().hash());
        assert_ne!(b.hash(), next.hash());
        assert_eq!(b.hash(), Board::START.hash());
    }

    /// Node counts are pinned on both hashes (the bench signature, the solver's table
    /// buckets): their values at the start position are pinned here.
    #[test]
    fn the_hashes_keep_their_values() {
        let b = Board::START;
        assert_eq!(b.hash(), 0x2425_fc27_f128_6bfa);
        assert_eq!(
            bitboard_hash(b.player(), b.opponent()),
            0xb152_d542_d0f2_744c
        );
        assert_ne!(
            bitboard_hash(b.player(), b.opponent()),
            bitboard_hash(b.opponent(), b.player())
        );
    }

    #[test]
    fn overlap_is_rejected() {
        assert_eq!(
            Board::from_bits(0b110, 0b011),
            Err(OverlappingDiscs { overlap: 0b010 })
        );
    }
}
