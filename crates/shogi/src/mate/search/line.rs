//! Reading the mate's line once the search has proved it: the exact line (the shortest mate
//! against the longest defence, each length checked by a depth-limited search) and the
//! line through the table.

use super::{Plies, Solver, Takeback};
use crate::{Move, Position};

impl Solver<'_> {
    /// The first of `moves` whose child passes `test` (which may search), with that child;
    /// `None` if none does or the limits stop a search.
    fn first_child(
        &mut self,
        position: &Position,
        moves: &[Move],
        mut test: impl FnMut(&mut Self, &Position) -> bool,
    ) -> Option<(Move, Position)> {
        for &mv in moves {
            let child = position.play(mv);
            let passes = test(self, &child);
            if self.stopped {
                return None;
            }
            if passes {
                return Some((mv, child));
            }
        }
        None
    }

    /// The mate's moves from `position`, whose shortest mate is exactly `plies` long: the
    /// attacker's moves that keep a mate of the remaining length, the defender's replies that
    /// are mated no sooner (each checked by a depth-limited search on the same table).
    /// `None` if the limits stop a search on the way or a length does not hold.
    pub fn exact_line(&mut self, position: &Position, plies: Plies) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut position = position.clone();
        let mut left = plies;
        let mut moves = Vec::new();
        loop {
            moves.clear();
            let (mv, child) = if position.side_to_move() == self.attacker {
                if left == 1 {
                    line.push(self.mate_in_one(&position)?);
                    return Some(line);
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
                self.first_child(&position, &moves, |s, child| {
                    s.search_root(child, left - 1).is_proved()
                })?
            } else {
                position.generate_legal(&mut moves);
                if moves.is_empty() || (self.tsume && self.only_futile_drops(&position, &moves)) {
                    return (left == 0).then_some(line);
                }
                // The replies with the longest mates the table knows first.
                moves.sort_by_cached_key(|&mv| {
                    let c = position.play(mv);
                    std::cmp::Reverse(self.table.proof(c.board_key(), &c.hand(self.attacker)))
                });
                // Mated within left - 1 (by the node's proof, except under the tsume rules,
                // where a drop may be proved only as futile) and not within left - 3:
                // exactly. (A drop that its takeback would count shorter can be taken here
                // too: its line as played is as long.)
                let tsume = self.tsume;
                let found = self.first_child(&position, &moves, |s, child| {
                    left < 2
                        || ((!tsume || s.search_root(child, left - 1).is_proved())
                            && (left < 4 || s.search_root(child, left - 3).is_disproved()))
                });
                if self.stopped {
                    return None;
                }
                match found {
                    Some(found) => found,
                    None if tsume => {
                        // A futile drop counted with its takeback's length, exactly `left`:
                        // the line shows the drop and its capture, and goes on from the
                        // takeback's position (the piece back in the defender's hand).
                        let (drop, capture, next) =
                            self.exact_futile_reply(&position, &moves, left)?;
                        line.push(drop);
                        line.push(capture);
                        position = next;
                        continue;
                    }
                    None => return None,
                }
            };
            line.push(mv);
            position = child;
            left -= 1;
        }
    }

    /// The defender's drop among `moves` in `position` that counts, as futile, exactly
    /// `left` plies (its takeback mated within `left` and not within `left - 2`, its own
    /// mate no shorter): the drop, the capture and the takeback's position.
    fn exact_futile_reply(
        &mut self,
        position: &Position,
        moves: &[Move],
        left: Plies,
    ) -> Option<(Move, Move, Position)> {
        let checker = position.distant_checker()?;
        for &mv in moves {
            let Move::Drop { to, .. } = mv else {
                continue;
            };
            let Some(tb) = self.takeback(position, position.board_key(), checker, to) else {
                continue;
            };
            let after = position.play(mv);
            let next = Self::takeback_position(position, tb.capture);
            let exact = self.search_root(&next, left).is_proved()
                && (left < 2 || self.search_root(&next, left - 2).is_disproved())
                && (left < 4 || self.search_root(&after, left - 3).is_disproved());
            if self.stopped {
                return None;
            }
            if exact {
                return Some((mv, tb.capture, next));
            }
        }
        None
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
