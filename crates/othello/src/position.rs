//! [`Position`]: a [`Board`] plus the colour of the side to move, and its [`Game`] rules.

use prune_search::{Game, Score};
use serde::{Deserialize, Serialize};

use crate::bitboard::CORNERS;
use crate::board::{Board, OverlappingDiscs};
use crate::square::{squares, Move};

/// A side: black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// Black, `X` in notation; moves first.
    Black,
    /// White, `O` in notation.
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The notation letter: `X` for black, `O` for white.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// An Othello position: the discs (relative to the side to move) and that side's colour.
///
/// Implements [`Game`]: moves come in square order, a forced pass is the single move
/// [`Move::PASS`], and a finished game's [`Game::outcome`] is the exact final score. The
/// inherent [`Position::play`] is the checked way to make a move; [`Game::play`] and
/// [`Position::play_unchecked`] are the fast unchecked path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Position {
    board: Board,
    to_move: Color,
}

/// The error of [`Position::play`]: the move is not legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal move in {position}")]
pub struct IllegalMove {
    /// The move that was refused.
    pub mv: Move,
    /// The position it was refused in (unchanged).
    pub position: Position,
}

impl Position {
    /// The start position: black on d5 and e4, white on d4 and e5, black to move.
    pub const START: Position = Position {
        board: Board::START,
        to_move: Color::Black,
    };

    /// A position from a board seen by the side to move, and that side's colour.
    #[inline]
    pub const fn new(board: Board, to_move: Color) -> Position {
        Position { board, to_move }
    }

    /// A position from the black and white discs and the side to move.
    pub const fn from_discs(
        black: u64,
        white: u64,
        to_move: Color,
    ) -> Result<Position, OverlappingDiscs> {
        let bits = match to_move {
            Color::Black => Board::from_bits(black, white),
            Color::White => Board::from_bits(white, black),
        };
        match bits {
            Ok(board) => Ok(Position { board, to_move }),
            Err(e) => Err(e),
        }
    }

    /// The discs, relative to the side to move.
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The colour of the side to move.
    #[inline]
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// The discs of `color`.
    #[inline]
    pub const fn discs(&self, color: Color) -> u64 {
        if (color as u8) == (self.to_move as u8) {
            self.board.player()
        } else {
            self.board.opponent()
        }
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.board.empty_count()
    }

    /// Whether `mv` is legal: an empty square that flips at least one disc, or a pass when the
    /// side to move has no square and the opponent has one.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv.square() {
            Some(square) => self.board.is_legal(square),
            None => self.board.must_pass(),
        }
    }

    /// The position after `mv`, or [`IllegalMove`] if it is not legal here.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        if self.is_legal(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove {
                mv,
                position: *self,
            })
        }
    }

    /// The position after `mv`, unchecked (copy-make with XORs, no allocation). An illegal
    /// square flips nothing; the turn passes either way.
    #[inline]
    pub const fn play_unchecked(&self, mv: Move) -> Position {
        let board = match mv.square() {
            Some(square) => self.board.play_unchecked(square),
            None => self.board.pass(),
        };
        Position {
            board,
            to_move: self.to_move.opposite(),
        }
    }

    /// Whether neither side can move.
    #[inline]
    pub const fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// The final score for the side to move if the game ended now (see
    /// [`Board::final_score`]).
    #[inline]
    pub const fn final_score(&self) -> i32 {
        self.board.final_score()
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl Game for Position {
    type Move = Move;

    #[inline]
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        let mask = self.board.moves();
        if mask != 0 {
            moves.extend(squares(mask).map(Move::from_square));
        } else if self.board.opponent_moves() != 0 {
            moves.push(Move::PASS);
        }
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        self.play_unchecked(mv)
    }

    #[inline]
    fn outcome(&self) -> Option<Score> {
        if self.board.is_game_over() {
            Some(Score::exact(self.board.final_score()))
        } else {
            None
        }
    }

    /// The board's hash. The colour is left out on purpose: the same discs relative to the
    /// mover have the same value and best moves whichever colour moves.
    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    #[inline]
    fn is_pass(&self, mv: Move) -> bool {
        mv.is_pass()
    }

    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    /// Corners: the moves a staged move picker tries before its killers.
    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        mv.square().is_some_and(|s| s.bit() & CORNERS != 0)
    }

    /// 64 squares and the pass.
    const MOVE_INDICES: usize = 65;

    #[inline]
    fn move_index(mv: Move) -> Option<usize> {
        Some(usize::from(mv.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn start_moves_in_square_order() {
        let p = Position::START;
        let moves: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
        assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
        assert_eq!(p.outcome(), None);
        assert_eq!(p.discs(Color::Black), (1 << 35) | (1 << 28));
    }

    #[test]
    fn checked_play_refuses_illegal_moves() {
        let p = Position::START;
        let next = p.play(mv("f5")).unwrap();
        assert_eq!(next.to_move(), Color::White);
        assert_eq!(next.discs(Color::Black).count_ones(), 4);
        assert_eq!(next, Game::play(&p, mv("f5")));
        let err = p.play(mv("a1")).unwrap_err();
        assert_eq!(err.mv, mv("a1"));
        assert_eq!(err.position, p);
        assert!(err.to_string().starts_with("a1 is not a legal move in "));
        assert!(
            p.play(Move::PASS).is_err(),
            "no pass while a square is legal"
        );
        assert!(p.play(mv("d4")).is_err(), "occupied");
    }

    #[test]
    fn forced_pass_is_the_only_move() {
        // Black to move with a1 white and b1 black: black cannot flank anything.
        let p = Position::from_discs(0b10, 0b01, Color::Black).unwrap();
        assert_eq!(p.legal_moves(), [Move::PASS]);
        assert!(p.is_legal(Move::PASS) && Game::is_pass(&p, Move::PASS));
        let passed = p.play(Move::PASS).unwrap();
        assert_eq!(passed.to_move(), Color::White);
        assert_eq!(passed.legal_moves(), [mv("c1")]);
        assert_eq!(p.outcome(), None);
    }

    #[test]
    fn finished_game_has_exact_outcome_and_no_moves() {
        // Black has a1, b1; white has h8: nobody can move; black wins 2-1 with 61 empties.
        let p = Position::from_discs(0b11, 1 << 63, Color::Black).unwrap();
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.outcome(), Some(Score::exact(62)));
        let white_view = Position::from_discs(0b11, 1 << 63, Color::White).unwrap();
        assert_eq!(white_view.outcome(), Some(Score::exact(-62)));
        assert!(!p.is_legal(Move::PASS));
    }
}
