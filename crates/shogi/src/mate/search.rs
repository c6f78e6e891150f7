//! df-pn over checks and evasions: the attacker's nodes (OR) try the checks, the defender's
//! (AND) every legal reply, and a defender without one is mated.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::table::{Hand, Number, Numbers, Plies, Table, INFINITE, UNLIMITED};
use crate::{Color, Move, Position};

/// The ε of the 1+ε trick (Pawlewicz and Lew): a child is searched until its number passes
/// the second best's by this fraction, which saves re-expansions.
const EPSILON: f64 = 0.25;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1 << 12;

/// A search in progress.
pub(super) struct Solver<'a> {
    pub attacker: Color,
    pub table: Table,
    /// Nodes searched (expanded).
    pub nodes: u64,
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    /// Set when a limit is met: every frame returns at once.
    pub stopped: bool,
    /// The positions on the current path (their full keys: board, hands, side to move).
    path: HashSet<u64>,
}

/// A child of a node, played once when the node is expanded.
struct Child {
    position: Position,
    /// Its board key and the attacker's hand there: its table entry.
    key: u64,
    hand: Hand,
    /// What this path alone knows of it (a repetition), kept here and not in the table.
    path_only: Option<Numbers>,
}

impl<'a> Solver<'a> {
    /// A solver for `attacker` with a table of at most `max_entries` entries.
    pub fn new(attacker: Color, max_entries: usize) -> Solver<'a> {
        Solver {
            attacker,
            table: Table::new(max_entries),
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            stop: None,
            stopped: false,
            path: HashSet::new(),
        }
    }

    /// What the table knows of `position` for a search with `plies` left.
    pub fn known(&self, position: &Position, plies: Plies) -> Numbers {
        self.table.get(
            position.board_key(),
            &position.hand(self.attacker),
            plies,
        )
    }

    /// Searches `position` for a mate within `plies` until it is settled or the limits stop
    /// it.
    pub fn search_root(&mut self, position: &Position, plies: Plies) -> Numbers {
        self.stopped = false;
        self.path.clear();
        let mut numbers = self.known(position, plies);
        while !(numbers.is_proved() || numbers.is_disproved() || self.stopped) {
            numbers = self.mid(position, INFINITE, INFINITE, plies);
        }
        numbers
    }

    /// Counts a node and reads the limits now and then.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if self.nodes % CHECK_EVERY == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let asked = self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
            self.stopped |= late || asked;
        }
    }

    /// Stores `numbers` for `position` unless they hold for this path only.
    fn store(&mut self, position: &Position, numbers: Numbers) -> Numbers {
        if !numbers.path_only {
            self.table.store(
                position.board_key(),
                &position.hand(self.attacker),
                numbers,
            );
        }
        numbers
    }

    /// Searches `position` (within `plies` plies) until its proof number reaches `th_pn` or
    /// its disproof number `th_dn`; stores and returns its numbers.
    fn mid(&mut self, position: &Position, th_pn: Number, th_dn: Number, plies: Plies) -> Numbers {
        self.count_node();
        let attacking = position.side_to_move() == self.attacker;
        let mut moves = Vec::new();
        if attacking {
            if plies == 0 {
                return self.store(position, Numbers::disproved(0, false));
            }
            if position.mate_in_one().is_some() {
                return self.store(position, Numbers::proved(1));
            }
            if plies < 3 {
                // No mate in one, and no room for a longer one.
                return self.store(position, Numbers::disproved(plies, false));
            }
            position.generate_checks(&mut moves);
            if moves.is_empty() {
                return self.store(position, Numbers::disproved(UNLIMITED, false));
            }
        } else {
            position.generate_legal(&mut moves);
            if moves.is_empty() {
                return self.store(position, Numbers::proved(0));
            }
            if plies == 0 {
                return self.store(position, Numbers::disproved(0, false));
            }
        }
        let child_plies = plies.saturating_sub(1).min(UNLIMITED - 1);
        let mut children: Vec<Child> = moves
            .iter()
            .map(|&mv| {
                let child = position.play(mv);
                // Back to a position of this path: the attacker gets nowhere by it (a
                // perpetual check loses), but only on this path.
                let path_only = self
                    .path
                    .contains(&child.key())
                    .then(|| Numbers::disproved(UNLIMITED, true));
                Child {
                    key: child.board_key(),
                    hand: child.hand(self.attacker),
                    position: child,
                    path_only,
                }
            })
            .collect();
        let full_key = position.key();
        self.path.insert(full_key);
        let numbers = loop {
            let (numbers, best, second, best_other) = self.combine(&children, attacking, child_plies);
            if numbers.is_proved()
                || numbers.is_disproved()
                || numbers.pn >= th_pn
                || numbers.dn >= th_dn
                || self.stopped
            {
                break numbers;
            }
            // The best child's thresholds: its own number up to the second best's times 1+ε
            // (plus one), the other number what the node can spend of its own threshold.
            let eased = ((second as f64) * (1.0 + EPSILON)).ceil() as Number;
            let (th_n, th_other, sum) = if attacking {
                (th_pn, th_dn, numbers.dn)
            } else {
                (th_dn, th_pn, numbers.pn)
            };
            let child_th_n = th_n.min(eased.max(second).saturating_add(1)).min(INFINITE);
            let child_th_other = (th_other.saturating_sub(sum))
                .saturating_add(best_other)
                .min(INFINITE);
            let (child_th_pn, child_th_dn) = if attacking {
                (child_th_n, child_th_other)
            } else {
                (child_th_other, child_th_n)
            };
            let result = self.mid(
                &children[best].position,
                child_th_pn,
                child_th_dn,
                child_plies,
            );
            if result.path_only {
                children[best].path_only = Some(result);
            }
        };
        self.path.remove(&full_key);
        self.store(position, numbers)
    }

    /// A node's numbers from its children's: (numbers, the best child, the second best's
    /// number, the best child's other number). At the attacker's node the proof number is the
    /// least child's and the disproof number their sum; at the defender's the other way round.
    fn combine(
        &self,
        children: &[Child],
        attacking: bool,
        child_plies: Plies,
    ) -> (Numbers, usize, Number, Number) {
        let (mut best, mut best_n, mut second_n, mut best_other) = (0, INFINITE, INFINITE, 0);
        let mut sum: Number = 0;
        // Proved: the mate's plies (attacker: the shortest child's, defender: the longest).
        // Disproved: the plies it holds within, and whether for this path only.
        let mut mate_plies: Option<Plies> = None;
        let mut refuted: Option<(Plies, bool)> = None;
        for (i, child) in children.iter().enumerate() {
            let n = child
                .path_only
                .unwrap_or_else(|| self.table.get(child.key, &child.hand, child_plies));
            let (own, other) = if attacking { (n.pn, n.dn) } else { (n.dn, n.pn) };
            sum = sum.saturating_add(other).min(INFINITE);
            if own < best_n {
                second_n = best_n;
                best_n = own;
                best = i;
                best_other = other;
            } else if own < second_n {
                second_n = own;
            }
            if n.is_proved() {
                mate_plies = Some(match mate_plies {
                    None => n.plies,
                    Some(p) if attacking => p.min(n.plies),
                    Some(p) => p.max(n.plies),
                });
            }
            if n.is_disproved() {
                refuted = Some(match refuted {
                    None => (n.plies, n.path_only),
                    // The attacker's node is refuted within the least of its children's, and
                    // for this path only if any child is.
                    Some((p, path)) if attacking => (p.min(n.plies), path || n.path_only),
                    // The defender needs one refutation: one that holds for every path first,
                    // then the deepest.
                    Some((p, path)) => {
                        if (!n.path_only, n.plies) > (!path, p) {
                            (n.plies, n.path_only)
                        } else {
                            (p, path)
                        }
                    }
                });
            }
        }
        let (pn, dn) = if attacking {
            (best_n, sum)
        } else {
            (sum, best_n)
        };
        let up = |p: Plies| if p == UNLIMITED { p } else { p + 1 };
        let numbers = if pn == 0 {
            Numbers::proved(mate_plies.map_or(0, |p| p.saturating_add(1)))
        } else if dn == 0 {
            let (p, path_only) = refuted.unwrap_or((0, false));
            Numbers::disproved(up(p), path_only)
        } else {
            Numbers {
                pn,
                dn,
                plies: 0,
                path_only: false,
            }
        };
        (numbers, best, second_n, best_other)
    }

    /// The mate's moves from `position` (proved, within `plies`) through the table: the
    /// attacker's shortest check, the defender's longest reply, down to the mate. Stops early
    /// if the table lost a position it needs.
    pub fn line(&self, position: &Position, plies: Plies) -> Vec<Move> {
        let mut line = Vec::new();
        let mut position = position.clone();
        let mut left = plies;
        let mut moves = Vec::new();
        while left > 0 && line.len() < usize::from(plies) {
            let attacking = position.side_to_move() == self.attacker;
            if attacking {
                if let Some(mv) = position.mate_in_one() {
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
