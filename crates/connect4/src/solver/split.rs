//! Several threads on one solve: a null-window probe split young-brothers-wait.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::node::{part_of, MoveList};
use super::{feature, Worker, CELLS_I};
use crate::position::{column_mask, Position};
use crate::table::Part;

/// With several threads, a null-window probe is split at the root and, down the first move's
/// line, at this many plies in all (measured on Begin-Medium with two threads: 1, 2, 3 and 4;
/// docs/connect4.md).
const SPLIT_PLIES: u32 = 3;

/// With several threads, probes are split only once a solve has searched this many nodes
/// alone: a shorter solve does not pay for starting threads (Begin-Easy, about 3,500 nodes per
/// position, took 345 µs on two threads against 147 µs on one when every probe was split).
const SPLIT_AFTER_NODES: u64 = 100_000;

impl Worker<'_> {
    /// A null-window probe of the root `p` around `med`: split between the threads when there
    /// are several and the solve has run long enough, else searched alone.
    pub(super) fn probe<const F: u32>(&mut self, p: &Position, med: i32) -> i32 {
        if self.threads > 1 && F & feature::NON_LOSING != 0 && self.nodes >= SPLIT_AFTER_NODES {
            self.split_node::<F>(p, med, SPLIT_PLIES, true)
        } else {
            self.negamax::<F, true>(p, med, med + 1)
        }
    }

    /// A null-window search of `p` around `med` (the answer is above `med` or not) with its
    /// moves shared between threads, young brothers wait: the first move (the table's, or the
    /// best ordered) is searched first, itself split this way while `plies` allows (usually
    /// it decides); then every thread takes the next move not taken yet, until one of them
    /// finds a move above `med` (the others are told to stop) or none is left. The threads
    /// share the table. Needs losing moves pruned: a node's moves are then exactly those
    /// `negamax` would search, and the side to move at a split node below the root cannot win
    /// at once (the move before it did not allow that).
    fn split_node<const F: u32>(&mut self, p: &Position, med: i32, plies: u32, root: bool) -> i32 {
        let moves = p.moves_played() as i32;
        let candidates = p.non_losing_cells();
        if candidates == 0 {
            return -(CELLS_I - moves) / 2;
        }
        if moves >= CELLS_I - 2 {
            return 0;
        }
        let lowest = -(CELLS_I - 2 - moves) / 2;
        let highest = (CELLS_I - 1 - moves) / 2;
        if lowest > med {
            return lowest;
        }
        if highest <= med {
            return highest;
        }
        let part = if F & feature::NEAR_TABLE != 0 {
            part_of(moves)
        } else {
            Part::Far
        };
        let key = p.key();
        let entry = self.table.probe(key, part);
        if !root {
            if let Some(lower) = entry.and_then(|e| e.lower).filter(|&l| l > med) {
                return lower;
            }
            if let Some(upper) = entry.and_then(|e| e.upper).filter(|&u| u <= med) {
                return upper;
            }
        }
        let table_move = if F & feature::TABLE_MOVE != 0 {
            entry.and_then(|e| e.best)
        } else {
            None
        };
        let mut list = MoveList::new();
        if let Some(c) = table_move {
            let cell = candidates & column_mask(c as u32);
            if cell != 0 {
                list.insert(cell, c, 1);
            }
        }
        let rest = self.ordered::<F>(p, candidates, table_move);
        for i in 0..rest.len {
            list.insert(rest.cells[i], rest.columns[i], 0);
        }

        let first_child = p.play_cell(list.cells[0]);
        let first = if plies > 1 && list.len > 1 {
            -self.split_node::<F>(&first_child, -(med + 1), plies - 1, false)
        } else {
            -self.negamax::<F, false>(&first_child, -(med + 1), -med)
        };
        if self.aborted {
            return 0;
        }
        if first > med {
            if root {
                self.root_best = Some(list.columns[0]);
            }
            self.table
                .store(key, part, first, true, Some(list.columns[0]));
            return first;
        }
        let next = AtomicUsize::new(1);
        let stop = AtomicBool::new(false);
        let found: Mutex<Option<(i32, u8)>> = Mutex::new(None);
        let table = self.table;
        let list = &list;
        let nodes: u64 = std::thread::scope(|scope| {
            let search = || {
                let mut worker = Worker::new(table, u64::MAX, Some(&stop));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= list.len || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let child = p.play_cell(list.cells[i]);
                    let score = -worker.negamax::<F, false>(&child, -(med + 1), -med);
                    if worker.aborted {
                        break;
                    }
                    if score > med {
                        stop.store(true, Ordering::Relaxed);
                        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                        if found.is_none() {
                            *found = Some((score, list.columns[i]));
                        }
                        break;
                    }
                }
                worker.nodes
            };
            let helpers: Vec<_> = (1..self.threads).map(|_| scope.spawn(search)).collect();
            let mine = search();
            mine + helpers
                .into_iter()
                .map(|h| h.join().unwrap_or(0))
                .sum::<u64>()
        });
        self.nodes += nodes;
        match found.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some((score, column)) => {
                if root {
                    self.root_best = Some(column);
                }
                self.table.store(key, part, score, true, Some(column));
                score
            }
            None => {
                self.table.store(key, part, med, false, table_move);
                med
            }
        }
    }
}
