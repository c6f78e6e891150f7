//! Proof and disproof pieces: the hand a settled node's verdict holds for, worked out from
//! its children's (a proof holds for any hand with at least as much, a disproof for any with
//! at most as much).

use super::{Hand, Solver};
use crate::{Move, Position};

/// The larger of each kind.
pub(super) fn max_hand(a: &Hand, b: &Hand) -> Hand {
    std::array::from_fn(|k| a[k].max(b[k]))
}

/// The smaller of each kind.
pub(super) fn min_hand(a: &Hand, b: &Hand) -> Hand {
    std::array::from_fn(|k| a[k].min(b[k]))
}
impl Solver<'_> {
    /// The least hand with which the attacker's `mv` still mates at once in `position`: the
    /// dropped piece, and if the check could be blocked, every kind the defender lacks in
    /// full (with fewer of those, the defender would hold one to block with).
    pub(super) fn proof_hand_of_mate(&self, position: &Position, mv: Move) -> Hand {
        let after = position.play(mv);
        let child = self.and_proof_hand(&after, [0; 7]);
        self.parent_hand(position, mv, child, true)
    }

    /// The defender's node (in check) proved with the children's hands covered by `hands`:
    /// if the check could be blocked by a drop, the kinds the defender lacks are kept in full.
    pub(super) fn and_proof_hand(&self, position: &Position, mut hands: Hand) -> Hand {
        if position.check_can_be_blocked() {
            let own = position.hand(self.attacker);
            let theirs = position.hand(self.attacker.flip());
            for k in 0..7 {
                if theirs[k] == 0 {
                    hands[k] = own[k];
                }
            }
        }
        hands
    }

    /// The most hand for which the attacker's node with no check (or no plies left) stays
    /// without a mate: every piece of a kind it holds (the defender's too: more of a kind
    /// held gives no new move), none of a kind it lacks.
    pub(super) fn disproof_hand_of_leaf(&self, position: &Position) -> Hand {
        let own = position.hand(self.attacker);
        let theirs = position.hand(self.attacker.flip());
        let mut hands = [0; 7];
        for k in 0..7 {
            if own[k] > 0 {
                hands[k] = own[k] + theirs[k];
            }
        }
        hands
    }

    /// The hand at this node that a child's verdict hand `child` stands for, `mv` leading
    /// there: the attacker's drop takes a piece out of the hand and its capture adds one, so
    /// the parent's hand holds one more (a drop) or one less (a capture); the defender's drop
    /// needs the defender to keep one of its kind, so a disproof's hand may not take that
    /// kind's last piece from the defender.
    pub(super) fn parent_hand(
        &self,
        position: &Position,
        mv: Move,
        child: Hand,
        attacking: bool,
    ) -> Hand {
        let mut h = child;
        if attacking {
            match mv {
                Move::Drop { kind, .. } => {
                    let k = kind.hand_index().expect("a droppable kind");
                    h[k] = h[k].saturating_add(1);
                }
                Move::Normal { .. } => {
                    if let Some(piece) = position.captured(mv) {
                        let k = piece
                            .kind
                            .unpromoted()
                            .hand_index()
                            .expect("a captured piece goes to hand");
                        h[k] = h[k].saturating_sub(1);
                    }
                }
            }
        } else if let Move::Drop { kind, .. } = mv {
            let k = kind.hand_index().expect("a droppable kind");
            let own = position.hand(self.attacker)[k];
            let theirs = position.hand(self.attacker.flip())[k];
            h[k] = h[k].min(own + theirs - 1);
        }
        h
    }
}
