//! [`MaterialEval`]: a first, hand-made evaluation of shogi positions — material on the board
//! and in hand. Not a trained network, and not yet the piece-square tables and king safety
//! the shogi issue asks for.

use prune_search::{Evaluator, Score};

use crate::position::{Color, Kind, Move, Position, Square};

/// The value of a piece of `kind` on the board, in hundredths of a pawn.
pub fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Lance => 300,
        Kind::Knight => 400,
        Kind::Silver => 500,
        Kind::Gold => 600,
        Kind::Bishop => 850,
        Kind::Rook => 1000,
        Kind::King => 0,
        Kind::ProPawn => 550,
        Kind::ProLance => 550,
        Kind::ProKnight => 550,
        Kind::ProSilver => 580,
        Kind::Horse => 1100,
        Kind::Dragon => 1300,
    }
}

/// Material for the side to move: pieces on the board, and pieces in hand worth a tenth more
/// (they can be dropped anywhere). Captures are tried first, the most valuable victim first.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaterialEval;

impl Evaluator<Position> for MaterialEval {
    fn evaluate(&self, p: &Position) -> Score {
        let us = p.side_to_move();
        let mut total = 0;
        for s in (0..81u8).map(Square) {
            if let Some(piece) = p.piece(s) {
                let v = value(piece.kind);
                total += if piece.color == us { v } else { -v };
            }
        }
        for color in [Color::Black, Color::White] {
            let sign = if color == us { 1 } else { -1 };
            for &kind in &Kind::HAND {
                total += sign * i32::from(p.in_hand(color, kind)) * value(kind) * 11 / 10;
            }
        }
        Score::heuristic(total)
    }

    fn order_moves(&self, p: &Position, moves: &mut [Move]) {
        moves.sort_by_key(|&m| match m {
            Move::Normal { to, .. } => -p.piece(to).map_or(0, |q| value(q.kind)),
            Move::Drop { .. } => 0,
        });
    }
}
