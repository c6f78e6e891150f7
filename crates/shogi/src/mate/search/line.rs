//! Reading the mate's line once the search has proved it: the exact line (the shortest mate
//! against the longest defence, each length checked by a depth-limited search) and the
//! line through the table.

use std::collections::HashMap;

use super::{Hand, Plies, Solver, Takeback};
use crate::{Move, Position};

/// How many positions [`Solver::main_line`] reads at most, beyond its line's own, for a
/// line of one ply more: past it, the first line found at each node is kept without looking
/// at others for one that spends the attacker's hand. (Where no line spends it, every line
/// as short is read until then.)
const READS_PER_PLY: usize = 4;

/// And at least this many.
const MIN_READS: usize = 64;

/// A main line as [`Solver::main_line`] reads it.
#[derive(Clone, Debug)]
pub(in crate::mate) struct Reading {
    /// The moves, the futile drops and their captures included.
    pub line: Vec<Move>,
    /// Its length as counted (futile drops and their captures not counted).
    pub plies: Plies,
    /// The attacker's hand at the end.
    pub hand: Hand,
}

impl Reading {
    /// A mate in one by `mv`, the attacker holding `hand` after it.
    fn mate(mv: Move, hand: Hand) -> Reading {
        Reading {
            line: vec![mv],
            plies: 1,
            hand,
        }
    }

    /// This line after `moves`, which count `plies`.
    fn after(&self, moves: &[Move], plies: Plies) -> Reading {
        let mut line = moves.to_vec();
        line.extend_from_slice(&self.line);
        Reading {
            line,
            plies: self.plies + plies,
            hand: self.hand,
        }
    }

    /// Whether the attacker has pieces left in hand at the end (駒余り).
    pub fn surplus(&self) -> bool {
        self.hand.iter().any(|&n| n > 0)
    }
}

/// What a reading of the main line remembers: the lines read by position key and length,
/// and how many more positions it may read.
struct Reader {
    memo: HashMap<(u64, Plies), Option<Reading>>,
    budget: usize,
}

impl Solver<'_> {
    /// The main line from `position`, whose shortest mate is exactly `plies` long: the
    /// attacker's shortest mate against the defender's longest resistance, each length
    /// checked by a depth-limited search on the same table; and the problem convention's
    /// choices on the pieces left in the attacker's hand at the end (駒余り): of mates as
    /// short, the attacker takes one that ends with its hand empty; of defences as long, the
    /// defender takes one that leaves the attacker nothing in hand, and under the tsume rules
    /// with the two-ply rule prefers that to a defence two plies longer that leaves it
    /// pieces (2手変長駒余り), so that the line can be shorter than `plies`. `None` if the
    /// limits stop a search on the way or a length does not hold.
    pub fn main_line(&mut self, position: &Position, plies: Plies) -> Option<Reading> {
        let mut reader = Reader {
            memo: HashMap::default(),
            budget: MIN_READS + (READS_PER_PLY + 1) * usize::from(plies),
        };
        self.read(position, plies, &mut reader)
    }

    /// The main line of `position`, mated in exactly `left` plies (see [`Solver::main_line`]).
    fn read(&mut self, position: &Position, left: Plies, reader: &mut Reader) -> Option<Reading> {
        let memo_key = (position.key(), left);
        if let Some(known) = reader.memo.get(&memo_key) {
            return known.clone();
        }
        reader.budget = reader.budget.saturating_sub(1);
        let reading = if position.side_to_move() == self.attacker {
            self.read_attack(position, left, reader)
        } else {
            self.read_defence(position, left, reader)
        };
        if self.stopped {
            return None;
        }
        reader.memo.insert(memo_key, reading.clone());
        reading
    }

    /// How the attacker ranks its lines (the least first): the shortest, then one without
    /// pieces left in hand.
    fn attack_rank(&self, reading: &Reading) -> (Plies, bool) {
        (reading.plies, reading.surplus())
    }

    /// How the defender ranks its lines (the greatest first): the longest, and of lines as
    /// long one that leaves the attacker nothing in hand; with the two-ply rule (tsume rules
    /// only) a line that leaves it pieces counts two plies shorter.
    fn defence_rank(&self, reading: &Reading) -> (i32, bool) {
        let surplus = reading.surplus();
        let penalty = if self.tsume && self.two_ply_rule && surplus {
            2
        } else {
            0
        };
        (i32::from(reading.plies) - penalty, !surplus)
    }

    /// Whether the attacker, with `left` plies to go from `position`, could still end with
    /// an empty hand: it has no more pieces in hand than moves left to drop them. (If not,
    /// every line leaves pieces, and no other is looked for.)
    fn may_spend_hand(&self, position: &Position, left: Plies) -> bool {
        let moves_left = if position.side_to_move() == self.attacker {
            left.div_ceil(2)
        } else {
            left / 2
        };
        let in_hand: Plies = position
            .hand(self.attacker)
            .iter()
            .map(|&n| Plies::from(n))
            .sum();
        in_hand <= moves_left
    }

    /// [`Solver::read`] at the attacker's move: its checks mating in `left - 1` after them.
    fn read_attack(
        &mut self,
        position: &Position,
        left: Plies,
        reader: &mut Reader,
    ) -> Option<Reading> {
        let mut moves = Vec::new();
        if left == 1 {
            let first = self.mate_in_one(position)?;
            let mut best = Reading::mate(first, position.play(first).hand(self.attacker));
            if best.surplus() {
                // Another mate in one that spends the hand, if there is one.
                position.generate_checks(&mut moves);
                let mut replies = Vec::new();
                for &mv in &moves {
                    let child = position.play(mv);
                    if child.hand(self.attacker).iter().any(|&n| n > 0) {
                        continue;
                    }
                    replies.clear();
                    child.generate_legal(&mut replies);
                    if self.is_mated(&child, &replies) {
                        best = Reading::mate(mv, child.hand(self.attacker));
                        break;
                    }
                }
            }
            return Some(best);
        }
        position.generate_checks(&mut moves);
        // The checks the table already proves within the length first.
        moves.sort_by_cached_key(|&mv| {
            let c = position.play(mv);
            let known = self
                .table
                .find(c.board_key(), &c.hand(self.attacker), left - 1);
            !known.is_some_and(|n| n.is_proved())
        });
        let mut best: Option<Reading> = None;
        for mv in moves {
            let child = position.play(mv);
            let proved = self.search_root(&child, left - 1).is_proved();
            if self.stopped {
                return None;
            }
            if !proved {
                continue;
            }
            let Some(after) = self.read(&child, left - 1, reader) else {
                if self.stopped {
                    return None;
                }
                continue;
            };
            let candidate = after.after(&[mv], 1);
            if best
                .as_ref()
                .is_none_or(|b| self.attack_rank(&candidate) < self.attack_rank(b))
            {
                best = Some(candidate);
            }
            let done = best.as_ref().is_some_and(|b| !self.attack_rank(b).1);
            if done || reader.budget == 0 || !self.may_spend_hand(position, left) {
                break;
            }
        }
        best
    }

    /// [`Solver::read`] at the defender's move: its replies whose mates are exactly as long
    /// as `left` allows, the longest first; under the tsume rules also the futile drops
    /// counted with their takebacks' lengths and, with the two-ply rule, where the best so
    /// far leaves the attacker pieces in hand, the replies two plies shorter.
    fn read_defence(
        &mut self,
        position: &Position,
        left: Plies,
        reader: &mut Reader,
    ) -> Option<Reading> {
        let mut moves = Vec::new();
        position.generate_legal(&mut moves);
        if self.is_mated(position, &moves) {
            return (left == 0).then(|| Reading {
                line: Vec::new(),
                plies: 0,
                hand: position.hand(self.attacker),
            });
        }
        if left < 2 {
            return None;
        }
        // The replies with the longest mates the table knows first.
        moves.sort_by_cached_key(|&mv| {
            let c = position.play(mv);
            std::cmp::Reverse(self.table.proof(c.board_key(), &c.hand(self.attacker)))
        });
        let most = (i32::from(left), true);
        let mut best: Option<Reading> = None;
        // The counts looked for in turn: a reply mated in exactly `left - 1`, a futile drop
        // counted `left` (its capture not counted); then, two plies shorter, the same.
        let counts: &[(bool, Plies)] = match (self.tsume, self.two_ply_rule) {
            (true, true) => &[
                (false, left),
                (true, left),
                (false, left - 2),
                (true, left - 2),
            ],
            (true, false) => &[(false, left), (true, left)],
            (false, _) => &[(false, left)],
        };
        for &(futile, count) in counts {
            if count < 2 || (best.is_some() && reader.budget == 0) {
                break;
            }
            for &mv in &moves {
                let found = if futile {
                    self.futile_reply(position, mv, count)
                } else {
                    self.exact_reply(position, mv, count)
                };
                if self.stopped {
                    return None;
                }
                let Some((shown, next, next_left)) = found else {
                    continue;
                };
                let Some(after) = self.read(&next, next_left, reader) else {
                    if self.stopped {
                        return None;
                    }
                    continue;
                };
                let candidate = after.after(&shown, count - next_left);
                if best
                    .as_ref()
                    .is_none_or(|b| self.defence_rank(&candidate) > self.defence_rank(b))
                {
                    best = Some(candidate);
                }
                let rank = best.as_ref().map(|b| self.defence_rank(b));
                if rank == Some(most) || reader.budget == 0 || !self.may_spend_hand(position, left)
                {
                    return best;
                }
            }
        }
        best
    }

    /// The defender's reply `mv` in `position` if it is mated in exactly `count - 1` after it
    /// (within `count - 1` by the node's proof, except under the tsume rules, where a drop
    /// may be proved only as futile, and not within `count - 3`): the move, the position
    /// after it and its length.
    fn exact_reply(
        &mut self,
        position: &Position,
        mv: Move,
        count: Plies,
    ) -> Option<(Vec<Move>, Position, Plies)> {
        let child = position.play(mv);
        let within = count - 1;
        // (By the strict rules the node's proof says so: every reply is mated in time.)
        let proved = !self.tsume || self.search_root(&child, within).is_proved();
        let exact =
            proved && (within < 3 || self.search_root_split(&child, within - 2).is_disproved());
        exact.then(|| (vec![mv], child, within))
    }

    /// The defender's drop `mv` in `position` if, as futile, it counts exactly `count` plies
    /// (its takeback mated in exactly `count`, the drop as played no sooner): the drop and
    /// its capture, the takeback's position and its length.
    fn futile_reply(
        &mut self,
        position: &Position,
        mv: Move,
        count: Plies,
    ) -> Option<(Vec<Move>, Position, Plies)> {
        let Move::Drop { to, .. } = mv else {
            return None;
        };
        let checker = position.distant_checker()?;
        let tb = self.takeback(position, position.board_key(), checker, to)?;
        let next = Self::takeback_position(position, tb.capture);
        let exact = self.search_root(&next, count).is_proved()
            && (count < 2 || self.search_root(&next, count - 2).is_disproved())
            && (count < 4
                || self
                    .search_root(&position.play(mv), count - 3)
                    .is_disproved());
        exact.then(|| (vec![mv, tb.capture], next, count))
    }
    /// The mate's moves from `position` (proved, within `plies`) through the table: the
    /// attacker's shortest check, the defender's longest reply, down to the mate. Stops early
    /// if the table lost a position it needs.
    pub fn line(&self, position: &Position, plies: Plies) -> Vec<Move> {
        let mut line = Vec::new();
        let mut position = position.clone();
        let mut left = plies;
        let mut moves = Vec::new();
        // (A futile drop and its capture are shown but not counted: the line may be longer.)
        while left > 0 && line.len() < 4 * usize::from(plies) + 16 {
            let attacking = position.side_to_move() == self.attacker;
            if attacking {
                if let Some(mv) = self.mate_in_one(&position) {
                    line.push(mv);
                    break;
                }
            }
            moves.clear();
            if attacking {
                position.generate_checks(&mut moves);
            } else {
                position.generate_legal(&mut moves);
            }
            let known = moves.iter().filter_map(|&mv| {
                let child = position.play(mv);
                let p = self
                    .table
                    .proof(child.board_key(), &child.hand(self.attacker));
                Some((mv, p?))
            });
            if !attacking && self.tsume {
                // Each reply counted as the search counts it: one more than its mate, or a
                // futile drop's takeback's length; the longest is taken.
                let mut best: Option<(Plies, Move, Option<Takeback>)> = None;
                let checker = position.distant_checker();
                for &mv in moves.iter() {
                    let child = position.play(mv);
                    let normal = self
                        .table
                        .proof(child.board_key(), &child.hand(self.attacker))
                        .map(|p| p.saturating_add(1));
                    let takeback = match mv {
                        Move::Drop { to, .. } => checker.and_then(|checker| {
                            self.takeback(&position, position.board_key(), checker, to)
                        }),
                        Move::Normal { .. } => None,
                    };
                    let futile = takeback
                        .as_ref()
                        .and_then(|tb| self.table.proof(tb.key, &tb.hand));
                    let counted = match (normal, futile) {
                        (Some(n), Some(f)) if f < n => (f, takeback),
                        (Some(n), _) => (n, None),
                        (None, Some(f)) => (f, takeback),
                        (None, None) => {
                            best = None;
                            break;
                        }
                    };
                    if best.as_ref().is_none_or(|b| counted.0 > b.0) {
                        best = Some((counted.0, mv, counted.1));
                    }
                }
                let Some((p, mv, takeback)) = best else {
                    break;
                };
                line.push(mv);
                match takeback {
                    Some(tb) => {
                        line.push(tb.capture);
                        position = Self::takeback_position(&position, tb.capture);
                        left = p;
                    }
                    None => {
                        position = position.play(mv);
                        left = p - 1;
                    }
                }
                if left == 0 {
                    break;
                }
                continue;
            }
            let pick = if attacking {
                known.filter(|&(_, p)| p < left).min_by_key(|&(_, p)| p)
            } else {
                // Every reply must be proved; the longest resistance is taken.
                let all: Vec<_> = known.collect();
                if all.len() < moves.len() {
                    None
                } else {
                    all.into_iter().max_by_key(|&(_, p)| p)
                }
            };
            let Some((mv, p)) = pick else {
                break;
            };
            line.push(mv);
            position = position.play(mv);
            left = p;
            if p == 0 {
                break;
            }
        }
        line
    }
}
