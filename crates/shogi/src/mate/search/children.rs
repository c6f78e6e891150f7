//! A node's expansion up to its loop: the verdicts that need no child (no plies left, a mate
//! in one, no check or no reply), its children by their keys, and their first numbers: the
//! checks' by the defender's replies (df-pn+), the replies' by a mate-in-one test on the
//! node's first visit, and the takebacks of the defender's drops under the tsume rules.

use super::{Child, Solver, INITIAL_DN};
use crate::mate::table::{Hand, Number, Numbers, Plies, UNLIMITED};
use crate::{Kind, Move, Position};

/// Whether `mv` leaves a pawn, bishop or rook unpromoted where `moves` has it promoting.
pub(super) fn unpromoted_by_choice(position: &Position, mv: Move, moves: &[Move]) -> bool {
    let Move::Normal {
        from,
        to,
        promote: false,
    } = mv
    else {
        return false;
    };
    let promotes = Move::Normal {
        from,
        to,
        promote: true,
    };
    matches!(
        position.piece(from).map(|p| p.kind),
        Some(Kind::Pawn | Kind::Bishop | Kind::Rook)
    ) && moves.contains(&promotes)
}

/// Whether an attacker's node with `plies` left has room for a mate in one only (a longer
/// mate takes three plies at least): such a node is a mate in one or refuted, and the
/// searches within a ply limit settle it, and the nodes just above it, without search.
fn mate_in_one_only(plies: Plies) -> bool {
    plies < 3
}

impl Solver<'_> {
    /// The verdict on `position` (`plies` left; the attacker to move if `attacking`) that
    /// needs no child, else `None` with its moves in `moves`: the attacker's checks or the
    /// defender's legal replies. `first_visit`: the table has nothing of it for these plies;
    /// `no_mate_in_one`: its parent found the attacker has no mate in one here.
    pub(super) fn verdict_before_children(
        &mut self,
        position: &Position,
        plies: Plies,
        attacking: bool,
        first_visit: bool,
        no_mate_in_one: bool,
        moves: &mut Vec<Move>,
    ) -> Option<Numbers> {
        let hand = position.hand(self.attacker);
        if attacking {
            if plies == 0 {
                let hands = self.disproof_hand_of_leaf(position);
                return Some(Numbers::disproved(0, false, hands));
            }
            // A mate in one is looked for on the first visit (or when no room is left for a
            // longer one): a node that comes back has none, nor one its parent tried.
            if !no_mate_in_one && (first_visit || mate_in_one_only(plies)) {
                if let Some(hands) = self.mate_in_one_hand(position) {
                    return Some(Numbers::proved(1, hands));
                }
            }
            if mate_in_one_only(plies) {
                // No mate in one, and no room for a longer one (for this hand: with more,
                // the defender might lack a piece to block with).
                return Some(Numbers::disproved(plies, false, hand));
            }
            position.generate_checks(moves);
            if moves.is_empty() {
                let hands = self.disproof_hand_of_leaf(position);
                return Some(Numbers::disproved(UNLIMITED, false, hands));
            }
        } else {
            position.generate_legal(moves);
            if moves.is_empty() {
                let hands = self.and_proof_hand(position, [0; 7]);
                return Some(Numbers::proved(0, hands));
            }
            if self.tsume && self.only_futile_drops(position, moves) {
                // Mated by the convention (with this hand or more: the defender then has
                // fewer drops, each as futile).
                return Some(Numbers::proved(0, hand));
            }
            if plies == 0 {
                return Some(Numbers::disproved(0, false, hand));
            }
        }
        None
    }

    /// The children of `position` (the attacker's hand `hand`) by `moves`, by their keys (a
    /// child is played only when it is needed): the attacker's hand after each, a repetition of the current path marked
    /// refuted for this path, and at the defender's node the replies that wait for another.
    pub(super) fn list_children(
        &self,
        position: &Position,
        hand: Hand,
        moves: &[Move],
        attacking: bool,
        children: &mut Vec<Child>,
    ) {
        let board_key = position.board_key();
        children.extend(moves.iter().map(|&mv| {
            let (key, full) = position.keys_after(board_key, mv);
            let mut hand = hand;
            if attacking {
                match mv {
                    Move::Drop { kind, .. } => {
                        hand[kind.hand_index().expect("a droppable kind")] -= 1;
                    }
                    Move::Normal { .. } => {
                        if let Some(piece) = position.captured(mv) {
                            let k = piece.kind.unpromoted().hand_index();
                            hand[k.expect("a captured piece goes to hand")] += 1;
                        }
                    }
                }
            }
            // Back to a position of this path: the attacker gets nowhere by it (a
            // perpetual check loses), but only on this path.
            let path_only = self
                .path
                .contains(&full)
                .then(|| Numbers::disproved(UNLIMITED, true, hand));
            Child {
                mv,
                waits_for: None,
                proved: false,
                known: None,
                initial: Numbers::UNKNOWN,
                key,
                hand,
                position: None,
                path_only,
                no_mate_in_one: false,
                takeback: None,
            }
        }));
        if !attacking {
            // The defender's drops on one square, and a move left unpromoted beside the same
            // move promoting, are searched one after another (`Child::waits_for`).
            let mut last_drop = [usize::MAX; 81];
            for i in 0..children.len() {
                children[i].waits_for = match children[i].mv {
                    Move::Drop { to, .. } => {
                        let before = std::mem::replace(&mut last_drop[usize::from(to.0)], i);
                        (before != usize::MAX).then_some(before)
                    }
                    // The generator gives a move promoting just before the same move not.
                    Move::Normal { .. } => (i > 0
                        && unpromoted_by_choice(position, children[i].mv, moves))
                    .then(|| {
                        debug_assert!(matches!(
                            children[i - 1].mv,
                            Move::Normal { promote: true, .. }
                        ));
                        i - 1
                    }),
                };
            }
        }
    }

    /// The attacker's checks' first numbers (each child with `child_plies` left), and what
    /// the table already knows of them.
    ///
    /// A check the defender has few replies to is likelier to mate: a new child's proof
    /// number starts at the number of replies (df-pn+), the drops on one square counted once
    /// (they wait for each other there). A pawn, bishop or rook that could promote and does
    /// not is seldom better: twice the number. On the node's first visit, a check with one
    /// reply (or drops on one square only), and near the root every check, is tested for a
    /// mate after every reply (a mate in three without a node); the first so mated ends the
    /// loop, as the node is proved. At the horizon of a search within a ply limit (three
    /// plies left here, so the attacker has room for a mate in one after each reply) every
    /// check is so tested, and also refuted without a node where a reply on the board
    /// escapes ([`Solver::settled_by_mates_in_one`]): most of a refutation's nodes were these.
    pub(super) fn start_checks(
        &mut self,
        position: &Position,
        moves: &[Move],
        child_plies: Plies,
        first_visit: bool,
        children: &mut [Child],
    ) {
        for child in children.iter_mut() {
            if let Some(n) = self.table.find(child.key, &child.hand, child_plies) {
                child.known = Some(n);
                continue;
            }
            let after = child.position.insert(position.play(child.mv));
            // At the horizon (the check's node has two plies left) every check is settled
            // here where its replies allow: mated after each, or refuted by one.
            let horizon = child_plies == 2;
            let mut count = None;
            // Elsewhere every check is tested only near the root (its own and its
            // grandchildren's): deeper the test costs more than the nodes it saves.
            let test = horizon || {
                let c = *count.insert(after.count_legal_by_square());
                (c == 1 || self.path.len() <= 2) && first_visit
            };
            if test && child.path_only.is_none() {
                if let Some(settled) = self.settled_by_mates_in_one(after, horizon) {
                    self.table.store(child.key, &child.hand, settled);
                    child.known = Some(settled);
                    if settled.is_proved() {
                        break;
                    }
                    continue;
                }
            }
            let count = count.unwrap_or_else(|| after.count_legal_by_square());
            let mut n = (count as Number).max(1);
            if unpromoted_by_choice(position, child.mv, moves) {
                n *= 2;
            }
            child.initial = Numbers::open(n, INITIAL_DN.min(n));
            // What the table would say of it (nothing yet for these plies left), so that the
            // node's first round need not ask again.
            child.known = Some(child.untouched());
        }
    }

    /// Under the tsume rules, the takeback of each of the defender's drops in `position`
    /// (drops are replies only to a check from afar), which the search tries beside the drop
    /// as played (see [`super::Takeback`]).
    pub(super) fn attach_takebacks(&self, position: &Position, children: &mut [Child]) {
        let Some(checker) = position.distant_checker() else {
            return;
        };
        let board_key = position.board_key();
        for child in children.iter_mut() {
            if let Move::Drop { to, .. } = child.mv {
                child.takeback = self
                    .takeback(position, board_key, checker, to)
                    .map(Box::new);
            }
        }
    }

    /// On the first visit of a defender's node, the replies the attacker mates at once are
    /// settled: the node's proof number then counts only the replies that need a search. (A
    /// reply that waits for another is tested when its node first comes.) The others'
    /// disproof numbers start at the number of the attacker's checks there, counted by the
    /// same test (in the searches [`Solver::limited`]): the reply with the fewest is tried
    /// first for a refutation.
    ///
    /// A reply already refuted in the table (without a takeback, which might still make it
    /// futile) refutes the node: the replies after it are neither tested nor read. So does,
    /// where the replies have fewer than three plies left (the searches within a ply limit,
    /// at their horizon), the first reply after which the attacker has no mate in one: it
    /// has room for nothing longer, and the reply gets no node of its own.
    pub(super) fn settle_replies_mated_at_once(
        &mut self,
        position: &Position,
        child_plies: Plies,
        children: &mut [Child],
    ) {
        for i in 0..children.len() {
            let child = &mut children[i];
            if child.path_only.is_some() || child.waits_for.is_some() {
                continue;
            }
            let found = self.table.find(child.key, &child.hand, child_plies);
            let refuted = match found {
                Some(n) if n.is_proved() => {
                    child.known = found;
                    continue;
                }
                Some(n) if n.is_disproved() && child.takeback.is_none() => n,
                _ => {
                    let after = child.position.insert(position.play(child.mv));
                    match self.mate_in_one_or_checks(after) {
                        Ok(hands) => {
                            let proved = Numbers::proved(1, hands);
                            self.table.store(child.key, &child.hand, proved);
                            child.known = Some(proved);
                            continue;
                        }
                        Err(_) if mate_in_one_only(child_plies) && child.takeback.is_none() => {
                            // The verdict the reply's own node would give (no mate in one, no
                            // room for a longer one, for this hand), not stored: few such
                            // positions come again (musou-001 within 13 plies: the same nodes
                            // less one in ten thousand, 13% fewer entries).
                            Numbers::disproved(child_plies, false, child.hand)
                        }
                        Err(checks) => {
                            // df-pn+ on the disproof side: a reply after which the attacker
                            // has few checks is likelier to escape.
                            child.no_mate_in_one = true;
                            if self.limited {
                                child.initial = Numbers::open(1, (checks as Number).max(1));
                            }
                            child.known = Some(found.unwrap_or_else(|| child.untouched()));
                            continue;
                        }
                    }
                }
            };
            child.known = Some(refuted);
            for rest in &mut children[i + 1..] {
                rest.known = Some(rest.untouched());
            }
            return;
        }
    }
}
