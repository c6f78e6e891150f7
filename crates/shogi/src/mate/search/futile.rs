//! The tsume rules' futile drops in the search: a drop's takeback (the checker takes it on
//! its square, and the position goes on with the piece back in the defender's hand) and a
//! check that leaves the defender only futile drops (a mate by the convention).

use super::{Solver, Takeback};
use crate::{Move, Position, Square};

impl Solver<'_> {
    /// The takeback of the defender's drop on `to` in `position` (whose board key is
    /// `board_key`, `checker` its [`Position::distant_checker`]): the checker's capture there,
    /// and the key and hand of the position after it with the hands of `position` (see
    /// [`Takeback`]; the position itself is built when it is searched).
    pub(super) fn takeback(
        &self,
        position: &Position,
        board_key: u64,
        checker: Square,
        to: Square,
    ) -> Option<Takeback> {
        let capture = position.checker_takes_on(checker, to)?;
        let Move::Normal { from, promote, .. } = capture else {
            return None;
        };
        Some(Takeback {
            capture,
            key: position.board_key_with_piece_moved(board_key, from, to, promote),
            hand: position.hand(self.attacker),
            position: None,
            known: None,
        })
    }

    /// The position of a takeback (see [`Takeback`]) of a drop in `position`.
    pub(super) fn takeback_position(position: &Position, capture: Move) -> Position {
        match capture {
            Move::Normal { from, to, promote } => position.with_piece_moved(from, to, promote),
            Move::Drop { .. } => unreachable!("a takeback is a capture"),
        }
    }

    /// Of the checks `drops_only` of `position` (those the defender answers by drops only,
    /// in generation order), the first after which every drop is futile (a mate by the
    /// convention), if any: the strict mates in one are looked for apart.
    pub(super) fn futile_mate_in_one(
        &self,
        position: &Position,
        drops_only: &[Move],
    ) -> Option<Move> {
        let mut replies = Vec::new();
        drops_only.iter().copied().find(|&mv| {
            let after = position.play(mv);
            replies.clear();
            after.generate_drops_only(&mut replies) && self.only_futile_drops(&after, &replies)
        })
    }
}
