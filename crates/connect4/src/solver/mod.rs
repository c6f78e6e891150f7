//! The exact solver: a negamax node loop of its own on the bitboards, with every enhancement
//! of Pons's tutorial as a switch ([`Step`]), so the lab can measure each one, and a few of our
//! own on top. The steps are cumulative; [`Step::BEST`] is the solver `prune solve` runs.
//!
//! Scores are the test sets': 0 a draw, `22 - n` a win for the side to move with its `n`-th
//! stone, negative a loss.

use std::sync::atomic::{AtomicBool, Ordering};

use prune_search::TableAllocError;

use crate::position::{column_mask, Column, Position, CELLS, CENTRE_FIRST};
use crate::table::Table;

mod node;
mod split;
mod step;

pub use step::Step;
use step::{feature, WithFeatures};

const CELLS_I: i32 = CELLS as i32;

/// What to solve for and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Only win, draw or loss (scores 1, 0, −1), not by how much.
    pub weak: bool,
    /// The solver's step (enhancements); [`Step::BEST`] unless measuring.
    pub step: Step,
    /// Give up after this many nodes (the lab's cap on slow steps); `None`: never.
    pub node_limit: Option<u64>,
    /// Threads searching together, sharing the root's moves and the table; 1: the plain
    /// solver.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            weak: false,
            step: Step::BEST,
            node_limit: None,
            threads: 1,
        }
    }
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The score for the side to move (the test sets' scale; in weak mode 1, 0 or −1).
    /// Meaningless when the solve is not [`complete`](Solution::complete).
    pub score: i32,
    /// A column that reaches the score (`None` when not complete).
    pub best_move: Option<Column>,
    /// Nodes searched, by every thread.
    pub nodes: u64,
    /// Whether the solve finished (false: it reached the node limit).
    pub complete: bool,
}

/// The exact Connect Four solver, with its table (kept from one solve to the next, so a batch
/// of positions reuses what earlier ones found; [`Solver::clear`] forgets it).
pub struct Solver {
    table: Table,
}

impl Solver {
    /// A solver with the default table ([`Table::DEFAULT_BITS`]).
    pub fn new() -> Result<Solver, TableAllocError> {
        Solver::with_table_bits(Table::DEFAULT_BITS)
    }

    /// A solver with a table of `2^bits` entries of 8 bytes.
    pub fn with_table_bits(bits: u32) -> Result<Solver, TableAllocError> {
        Ok(Solver {
            table: Table::try_new(bits)?,
        })
    }

    /// A solver whose table takes at most `bytes`.
    pub fn with_table_bytes(bytes: usize) -> Result<Solver, TableAllocError> {
        Ok(Solver {
            table: Table::try_with_bytes(bytes)?,
        })
    }

    /// The memory the table takes, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything the table holds.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `position`, which must not be won already (a [`Position`] read from moves never
    /// is): its exact score (or win/draw/loss), a best column and the nodes searched.
    pub fn solve(&mut self, position: &Position, options: &SolveOptions) -> Solution {
        if let Some(score) = position.final_score() {
            let score = if options.weak { score.signum() } else { score };
            return Solution {
                score,
                best_move: None,
                nodes: 0,
                complete: true,
            };
        }
        let limit = options.node_limit.unwrap_or(u64::MAX);
        let mut worker = Worker::new(&self.table, limit, None);
        worker.threads = options.threads.max(1);
        let (score, best) = worker.solve(position, options);
        worker.solution(score, best, worker.nodes)
    }

    /// The score of every column (`None` for a full one), each solved exactly: what
    /// `prune play`'s hints and Pons's `-a` analysis show.
    pub fn analyze(&mut self, position: &Position, options: &SolveOptions) -> [Option<i32>; 7] {
        let mut scores = [None; 7];
        if position.is_won() {
            return scores;
        }
        for (c, slot) in scores.iter_mut().enumerate() {
            let column = Column::new(c as u8).expect("seven columns");
            if !position.can_play(column) {
                continue;
            }
            *slot = Some(if position.is_winning_move(column) {
                let s = position.win_now_score();
                if options.weak {
                    1
                } else {
                    s
                }
            } else {
                -self.solve(&position.play_column(column), options).score
            });
        }
        scores
    }
}

/// One thread's search: the shared table, its node count and when to stop.
struct Worker<'a> {
    table: &'a Table,
    nodes: u64,
    limit: u64,
    next_poll: u64,
    stop: Option<&'a AtomicBool>,
    aborted: bool,
    /// Threads to share the root's moves between (1: search alone).
    threads: usize,
    /// The root's best column in the current search.
    root_best: Option<u8>,
}

/// Nodes between two looks at the stop flag.
const POLL_INTERVAL: u64 = 4096;

impl<'a> Worker<'a> {
    fn new(table: &'a Table, limit: u64, stop: Option<&'a AtomicBool>) -> Worker<'a> {
        let next_poll = if stop.is_some() {
            POLL_INTERVAL.min(limit)
        } else {
            limit
        };
        Worker {
            table,
            nodes: 0,
            limit,
            next_poll,
            stop,
            aborted: false,
            threads: 1,
            root_best: None,
        }
    }

    fn solution(&self, score: i32, best: Option<Column>, nodes: u64) -> Solution {
        Solution {
            score,
            best_move: if self.aborted { None } else { best },
            nodes,
            complete: !self.aborted,
        }
    }

    #[cold]
    fn poll(&mut self) {
        if self.nodes >= self.limit || self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
        self.next_poll = if self.stop.is_some() {
            (self.nodes + POLL_INTERVAL).min(self.limit)
        } else {
            self.limit
        };
    }

    fn solve(&mut self, position: &Position, options: &SolveOptions) -> (i32, Option<Column>) {
        /// `solve_with` for the step's features.
        struct Run<'w, 'a, 'p> {
            worker: &'w mut Worker<'a>,
            position: &'p Position,
            weak: bool,
        }
        impl WithFeatures for Run<'_, '_, '_> {
            type Output = (i32, Option<Column>);
            fn run<const F: u32>(self) -> Self::Output {
                self.worker.solve_with::<F>(self.position, self.weak)
            }
        }
        options.step.dispatch(Run {
            worker: self,
            position,
            weak: options.weak,
        })
    }

    fn solve_with<const F: u32>(&mut self, p: &Position, weak: bool) -> (i32, Option<Column>) {
        let order = if F & feature::CENTRE_FIRST != 0 {
            CENTRE_FIRST
        } else {
            [0, 1, 2, 3, 4, 5, 6]
        };
        if p.can_win_now() {
            let column = order
                .iter()
                .map(|&c| Column::new(c).expect("seven columns"))
                .find(|&c| p.can_play(c) && p.is_winning_move(c));
            let score = p.win_now_score();
            return (if weak { 1 } else { score }, column);
        }
        let moves = p.moves_played() as i32;
        let (score, best) = if F & feature::NULL_WINDOW != 0 {
            let (mut min, mut max) = if weak {
                (-1, 1)
            } else {
                (-(CELLS_I - moves) / 2, (CELLS_I + 1 - moves) / 2)
            };
            let mut best = None;
            while min < max && !self.aborted {
                let mut med = min + (max - min) / 2;
                // Probe near zero first: most scores are small, and the sign is worth most.
                if med <= 0 && min / 2 < med {
                    med = min / 2;
                } else if med >= 0 && max / 2 > med {
                    med = max / 2;
                }
                self.root_best = None;
                let r = self.probe::<F>(p, med);
                if r <= med {
                    max = r;
                } else {
                    min = r;
                    // None when the bound alone answered: see below.
                    best = self.root_best;
                }
            }
            (min, best)
        } else {
            let (lo, hi) = if weak { (-1, 1) } else { (-CELLS_I, CELLS_I) };
            self.root_best = None;
            let r = self.negamax::<F, true>(p, lo, hi);
            (r, self.root_best)
        };
        // No move was found better than the bound the moves left allow, so every move that
        // does not hand the opponent a win at once reaches it (all do if every move loses).
        let best = best.or_else(|| {
            let good = match p.non_losing_cells() {
                0 => p.playable(),
                cells => cells,
            };
            order
                .iter()
                .copied()
                .find(|&c| good & column_mask(c as u32) != 0)
        });
        let score = if weak { score.signum() } else { score };
        (score, best.and_then(Column::new))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(moves: &str, step: Step) -> Solution {
        let p = Position::from_moves(moves).unwrap();
        let mut solver = Solver::with_table_bits(16).unwrap();
        solver.solve(
            &p,
            &SolveOptions {
                step,
                ..SolveOptions::default()
            },
        )
    }

    #[test]
    fn a_win_in_one_is_found_with_its_column() {
        // X has 1, 2, 3 on the bottom row and is to move: column 4 wins with its 4th stone.
        let s = solve("152535", Step::BEST);
        assert_eq!(s.score, 18);
        assert_eq!(s.best_move, Column::new(3));
    }
}
