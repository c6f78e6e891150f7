//! # prune-shogi
//!
//! The rules of shogi for prune's search library: the 9×9 board, pieces in hand, drops,
//! promotion (mandatory where a piece could not move again), the illegal drops (nifu: a second
//! unpromoted pawn on a file; uchifuzume: a pawn drop that mates), legality (no move leaves
//! the own king attacked), checkmate as the end of the game; SFEN positions and USI moves;
//! [`Position`] as a [`prune_search::Game`].
//!
//! The board is kept as bitboards (sliders' attacks by table lookup) beside an array of 81
//! squares; moves are generated legal (`docs/shogi.md` says what each step was worth).
//! Repetition (sennichite) needs the game's history, which a [`Position`] does not hold:
//! [`GameRecord`] keeps it (fourfold repetition draws, perpetual check loses for the checker),
//! and the playing [`engine`] scores a repetition on its search path as a draw. The generic
//! [`prune_search::Game`] searches see positions only.
//!
//! [`engine`] is the playing engine (NegaScout with the staged move picker) and [`usi`] the
//! USI protocol that shogi GUIs speak.
//!
//! Squares follow USI: file 1–9 from the right (as Black sees the board), rank a–i from the
//! top; Black (sente) moves first, towards rank a.

#![deny(missing_docs)]

mod bitboard;
pub mod engine;
mod eval;
pub mod mate;
mod notation;
mod position;
mod record;
pub mod usi;

pub use eval::{value, HandMadeEval, MaterialEval};
pub use notation::{ParseError, START_SFEN};
pub use position::{CheckInfo, Color, Kind, Move, Piece, Position, Square};
pub use record::{repetition, Ending, GameRecord, Repetition};

/// The published perft counts from the start position, depth 0 to 6, as this project's shogi
/// issue lists them (depths 1-5 checked by the tests, 6 by an ignored test run by hand).
pub const START_PERFT: [u64; 7] = [1, 30, 900, 25_470, 719_731, 19_861_490, 547_581_517];

/// The leaves of the move tree `depth` plies deep from `position` (the published perft
/// counts of shogi count legal moves, uchifuzume excluded). The moves of the last ply are
/// generated and counted, as engines' perft commands do; one move list per ply is reused.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<position::MoveList> =
        (0..depth).map(|_| position::MoveList::new()).collect();
    perft_with(position, &mut lists)
}

/// [`perft`] to the depth of `lists`, one list per ply.
fn perft_with(position: &Position, lists: &mut [position::MoveList]) -> u64 {
    let (list, deeper) = lists.split_first_mut().expect("a list per ply");
    list.clear();
    position.legal_into(list);
    if deeper.is_empty() {
        return list.as_slice().len() as u64;
    }
    list.as_slice()
        .iter()
        .map(|&m| perft_with(&position.play(m), deeper))
        .sum()
}
