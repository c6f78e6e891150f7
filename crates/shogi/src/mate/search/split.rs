//! The searches within a ply limit on several threads: an attacker's node's checks shared
//! out.
//!
//! A refutation (no mate within the limit) must refute every check of an attacker's node,
//! and each check's refutation is a search of its own. After a while on one thread, the
//! search goes down from its root along the line the table finds likeliest to refute (an
//! attacker's node with one open check: that check; a defender's node: its open reply with
//! the least disproof number) to the first attacker's node with two open checks or more, the
//! split point. The threads take its open checks one at a time, each on a copy of the table,
//! until all are settled or one mates; their verdicts go back to the table, and the search
//! goes on from its root as before, on one thread. Where the line was not the refutation,
//! what the threads proved is kept all the same.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::repetition::follow;
use super::{Number, Numbers, Plies, Solver, Table, INFINITE};
use crate::{Move, Position};

/// How far (in plies) the split point is looked for below the root.
const MAX_DESCENT: usize = 16;

/// What the threads share.
struct Shared<'s> {
    /// The split point's open checks, the likeliest to take longest first.
    checks: &'s [Move],
    /// The next check to take.
    next: AtomicUsize,
    /// Set when a check is proved (the split point is then proved) or a thread is stopped:
    /// the others stop too.
    halt: AtomicBool,
    /// The nodes all threads have searched, against the solve's limit.
    spent: AtomicU64,
}

/// A split point: an attacker's node, the plies left there, its open checks, and the full
/// keys of the positions above it on the line down from the root (the root's first).
struct SplitPoint {
    position: Position,
    plies: Plies,
    checks: Vec<Move>,
    above: Vec<u64>,
}

impl<'a> Solver<'a> {
    /// [`Solver::search_root`] on [`Solver::threads`] threads (see the module's
    /// documentation). One thread, or a search that its first [`Solver::split_after`] nodes
    /// settle, is the sequential search itself.
    pub fn search_root_split(&mut self, position: &Position, plies: Plies) -> Numbers {
        let max_nodes = self.max_nodes;
        if self.threads > 1 {
            self.max_nodes = max_nodes.min(self.nodes.saturating_add(self.split_after));
        }
        let numbers = self.search_root(position, plies);
        self.max_nodes = max_nodes;
        let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        let asked = self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        // Stopped by the solve's own limits only, not by the nodes alone.
        self.stopped = self.nodes >= max_nodes || out_of_time || asked;
        if self.threads < 2 || numbers.is_settled() || self.stopped {
            return numbers;
        }
        if let Some(split) = self.split_point(position, plies) {
            self.share_out(&split);
        }
        // The root from the verdicts now in the table (and whatever is left).
        self.search_root(position, plies)
    }

    /// The split point below `position` (searched within `plies`), if the line down finds
    /// one: see the module's documentation.
    fn split_point(&self, position: &Position, plies: Plies) -> Option<SplitPoint> {
        let mut position = position.clone();
        let mut plies = plies;
        let mut above = Vec::new();
        for _ in 0..MAX_DESCENT {
            // (A check's node with fewer than two plies left is settled without search.)
            if plies < 3 {
                return None;
            }
            let next = if position.side_to_move() == self.attacker {
                let checks = self.open_checks(&position, plies);
                match checks[..] {
                    [] => return None,
                    [check] => check,
                    _ => {
                        return Some(SplitPoint {
                            position,
                            plies,
                            checks,
                            above,
                        })
                    }
                }
            } else {
                self.likeliest_refutation(&position, plies)?
            };
            above.push(position.key());
            position = position.play(next);
            plies -= 1;
            if above.contains(&position.key()) {
                return None;
            }
        }
        None
    }

    /// The checks in `position` not yet settled for `plies - 1` plies, the one with the
    /// largest disproof number (the most left to refute) first.
    fn open_checks(&self, position: &Position, plies: Plies) -> Vec<Move> {
        let mut moves = Vec::new();
        position.generate_checks(&mut moves);
        let mut open: Vec<(Number, Move)> = moves
            .into_iter()
            .filter_map(|mv| {
                let n = self.known(&position.play(mv), plies - 1);
                (!n.is_settled()).then_some((n.dn, mv))
            })
            .collect();
        open.sort_by_key(|&(dn, _)| std::cmp::Reverse(dn));
        open.into_iter().map(|(_, mv)| mv).collect()
    }

    /// The defender's reply in `position` (searched within `plies`) not yet settled with
    /// the least disproof number; `None` where one is already refuted (the node is then
    /// settled) or none is open.
    fn likeliest_refutation(&self, position: &Position, plies: Plies) -> Option<Move> {
        let mut replies = Vec::new();
        position.generate_legal(&mut replies);
        let mut best: Option<(Number, Move)> = None;
        for reply in replies {
            let n = self.known(&position.play(reply), plies - 1);
            if n.is_disproved() {
                return None;
            }
            if !n.is_settled() && best.is_none_or(|(dn, _)| n.dn < dn) {
                best = Some((n.dn, reply));
            }
        }
        best.map(|(_, reply)| reply)
    }

    /// Searches the split point's checks on as many threads (up to [`Solver::threads`]),
    /// each with a copy of the table, and keeps their verdicts in this table.
    fn share_out(&mut self, split: &SplitPoint) {
        self.splits += 1;
        let threads = self.threads.min(split.checks.len());
        let shared = Shared {
            checks: &split.checks,
            next: AtomicUsize::new(0),
            halt: AtomicBool::new(false),
            spent: AtomicU64::new(self.nodes),
        };
        let like = Like {
            attacker: self.attacker,
            table: &self.table,
            max_nodes: self.max_nodes,
            deadline: self.deadline,
            stop: self.stop,
            tsume: self.tsume,
            two_ply_rule: self.two_ply_rule,
            limited: self.limited,
        };
        let tables: Vec<(Table, u64)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    std::thread::Builder::new()
                        .stack_size(super::super::MATE_STACK)
                        .spawn_scoped(scope, || worker(&like, split, &shared))
                        .expect("a thread for the mate search")
                })
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        // Out of time or asked to stop: the search ends unsettled, and what the threads
        // found is not kept (absorbing their tables took a second or more past the clock).
        let late = self.out_of_time();
        for (table, nodes) in tables {
            if !late {
                self.table.absorb(table);
            }
            self.nodes += nodes;
        }
        if late || self.nodes >= self.max_nodes {
            self.stopped = true;
        }
    }
}

/// What a thread's solver takes from the solver that shares out the checks (which cannot
/// cross threads itself).
struct Like<'s, 'a> {
    attacker: crate::Color,
    table: &'s Table,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    tsume: bool,
    two_ply_rule: bool,
    limited: bool,
}

/// One thread's part of [`Solver::share_out`]: the next open check, searched to its verdict,
/// until none is left or a check mates. Returns its table and its nodes.
fn worker(like: &Like, split: &SplitPoint, shared: &Shared) -> (Table, u64) {
    let mut solver = Solver::new(like.attacker, 0);
    solver.table = like.table.copy_to_absorb();
    solver.max_nodes = like.max_nodes;
    solver.deadline = like.deadline;
    solver.stop = like.stop;
    solver.halt = Some(&shared.halt);
    solver.spent = Some(&shared.spent);
    solver.tsume = like.tsume;
    solver.two_ply_rule = like.two_ply_rule;
    solver.limited = like.limited;
    // The path as the sequential search has it below the split point: the line down to it.
    let mut line_key = 0;
    for &key in split.above.iter().chain([split.position.key()].iter()) {
        line_key = follow(line_key, key);
    }
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(&mv) = shared.checks.get(i) else {
            break;
        };
        let after = split.position.play(mv);
        solver.path.clear();
        solver.path.extend(split.above.iter().copied());
        solver.path.insert(split.position.key());
        solver.path_key = line_key;
        let plies = split.plies - 1;
        let mut numbers = solver.known(&after, plies);
        while !(numbers.is_settled() || solver.stopped) {
            numbers = solver.mid(&after, INFINITE, INFINITE, plies, false);
        }
        if solver.stopped || numbers.is_proved() {
            shared.halt.store(true, Ordering::Relaxed);
            break;
        }
    }
    (solver.table, solver.nodes)
}
