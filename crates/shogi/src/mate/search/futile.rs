//! The tsume rules' futile drops in the search: a drop's takeback (the checker takes it on
//! its square, and the position goes on with the piece back in the defender's hand) and a
//! check that leaves the defender only futile drops (a mate by the convention).

use super::{Solver, Takeback};
use crate::{Kind, Move, Position, Square};

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

    /// A check after which the defender has only futile drops (mate by the convention), if
    /// any: the strict mates in one are looked for apart.
    pub(super) fn futile_mate_in_one(&self, position: &Position) -> Option<Move> {
        let mut checks = Vec::new();
        position.generate_checks(&mut checks);
        let mut replies = Vec::new();
        let king = position.king(position.side_to_move().flip())?;
        checks.into_iter().find(|&mv| {
            // A drop checks directly: from next to the king, or a knight's jump, nothing can
            // be put between.
            if let Move::Drop { kind, to } = mv {
                let next_to_king =
                    to.file().abs_diff(king.file()) <= 1 && to.rank().abs_diff(king.rank()) <= 1;
                if next_to_king || kind == Kind::Knight {
                    return false;
                }
            }
            let after = position.play(mv);
            if !after.check_can_be_blocked() {
                return false;
            }
            replies.clear();
            // (A move on the board escapes: the drops are looked at only without one.)
            after.generate_drops_only(&mut replies) && self.only_futile_drops(&after, &replies)
        })
    }
}
