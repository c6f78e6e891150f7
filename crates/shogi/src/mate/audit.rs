//! A published solution read against the solver: the exact mate length from every position
//! of the line, and the plies where the line's move is not best play (the attacker's not a
//! shortest mate, the defender's not a longest defence), with how much each changes the count.
//! Old collections often give a main line the modern rules would not: a defence that lasts
//! longer than the one shown (変長), a quicker mate the author missed (余詰, 早詰).

use super::search::Solver;
use super::table::Plies;
use crate::{Move, Position};

/// Where a line departs from best play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The ply of the line (0: the attacker's first move); even plies are the attacker's.
    pub ply: usize,
    /// The line's move there.
    pub played: Move,
    /// The mate's length from there after that move, the move counted.
    pub length: usize,
    /// The length with best play from there: the attacker's shortest mate, or the
    /// defender's longest defence.
    pub best: usize,
    /// A move that gives `best`, where one was found among the checks or the replies (under
    /// the tsume rules the defender's best can be a futile drop counted by its takeback,
    /// which is not looked for).
    pub better: Option<Move>,
}

/// A line read against the solver ([`super::solve_and_audit`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineAudit {
    /// The plies where the line departs from best play, in order.
    pub deviations: Vec<Deviation>,
    /// The exact mate length from the start (the shortest mate against the longest defence,
    /// by the rules, without the two-ply rule's choices), if measured.
    pub length: Option<usize>,
    /// Whether every position of the line was measured and the line ends in mate; false if
    /// the limits stopped it first. When complete, the line's length is `length` plus each
    /// deviation's `length - best`.
    pub complete: bool,
}

impl Solver<'_> {
    /// The exact mate length of `position` (the attacker's shortest against the defender's
    /// longest, by the solver's rules), looked for from `guess` (of the right parity: odd
    /// with the attacker to move); `None` if the limits stop it or there is no mate within
    /// `max_plies`.
    fn exact_length(
        &mut self,
        position: &Position,
        guess: Plies,
        max_plies: Plies,
    ) -> Option<Plies> {
        if position.side_to_move() != self.attacker {
            let replies = position.legal_moves();
            if self.is_mated(position, &replies) {
                return Some(0);
            }
        }
        // Up until a mate is proved, by steps that grow.
        let mut bound = guess.min(max_plies);
        let mut step = 2;
        let mut numbers = self.search_root(position, bound);
        while !numbers.is_proved() {
            if self.stopped || bound >= max_plies {
                return None;
            }
            bound = bound.saturating_add(step).min(max_plies);
            step = step.saturating_mul(2);
            numbers = self.search_root(position, bound);
        }
        // Then down two plies at a time until there is none.
        let mut length = numbers.plies;
        while length >= 2 {
            let shorter = self.search_root(position, length - 2);
            if self.stopped {
                return None;
            }
            if !shorter.is_proved() {
                break;
            }
            length = shorter.plies;
        }
        Some(length)
    }

    /// A move in `position` after which the mate is exactly `best - 1` long (a check for
    /// the attacker, a reply for the defender), if one is found.
    fn move_of_length(
        &mut self,
        position: &Position,
        best: Plies,
        max_plies: Plies,
    ) -> Option<Move> {
        let moves = position.legal_moves();
        for mv in moves {
            let child = position.play(mv);
            if position.side_to_move() == self.attacker && !child.in_check() {
                continue;
            }
            let length = self.exact_length(&child, best.saturating_sub(1), max_plies);
            if self.stopped {
                return None;
            }
            if length == Some(best - 1) {
                return Some(mv);
            }
        }
        None
    }

    /// Reads `line` from `position` (proved mated, in `guess` plies or a little more) as
    /// [`super::solve_and_audit`] describes.
    pub(super) fn audit(
        &mut self,
        position: &Position,
        line: &[Move],
        guess: Plies,
        max_plies: Plies,
    ) -> LineAudit {
        let mut audit = LineAudit::default();
        // The shortest mate against the longest defence, the main line's choices aside.
        let Some(mut before) = self.exact_length(position, guess, max_plies) else {
            return audit;
        };
        audit.length = Some(usize::from(before));
        let mut here = position.clone();
        for (ply, &mv) in line.iter().enumerate() {
            let next = here.play(mv);
            let Some(after) = self.exact_length(&next, before.saturating_sub(1), max_plies) else {
                return audit;
            };
            let played = after + 1;
            if played != before {
                let better = self.move_of_length(&here, before, max_plies);
                if self.stopped {
                    return audit;
                }
                audit.deviations.push(Deviation {
                    ply,
                    played: mv,
                    length: usize::from(played),
                    best: usize::from(before),
                    better,
                });
            }
            here = next;
            before = after;
        }
        audit.complete = before == 0;
        audit
    }
}

impl Deviation {
    /// Whose move it is: `attacker` on even plies, `defender` on odd.
    pub fn side(&self) -> &'static str {
        if self.ply.is_multiple_of(2) {
            "attacker"
        } else {
            "defender"
        }
    }
}
