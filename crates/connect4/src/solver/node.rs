//! The node loop: negamax on the bitboards, each step's enhancements switched by the feature
//! bits `F` (a const generic, so a step's loop carries none of the code it does not use).

use super::{feature, Worker, CELLS_I};
use crate::position::{column_mask, winning_cells, Position, CENTRE_FIRST, HEIGHT, WIDTH};
use crate::table::Part;

/// The moves of a node, best first (at most seven).
pub(super) struct MoveList {
    pub(super) cells: [u64; 7],
    pub(super) columns: [u8; 7],
    keys: [i32; 7],
    pub(super) len: usize,
}

impl MoveList {
    #[inline(always)]
    pub(super) fn new() -> MoveList {
        MoveList {
            cells: [0; 7],
            columns: [0; 7],
            keys: [0; 7],
            len: 0,
        }
    }

    /// Inserts after every move with a key at least as large (so ties keep insertion order).
    #[inline(always)]
    pub(super) fn insert(&mut self, cell: u64, column: u8, key: i32) {
        let mut i = self.len;
        while i > 0 && self.keys[i - 1] < key {
            self.cells[i] = self.cells[i - 1];
            self.columns[i] = self.columns[i - 1];
            self.keys[i] = self.keys[i - 1];
            i -= 1;
        }
        self.cells[i] = cell;
        self.columns[i] = column;
        self.keys[i] = key;
        self.len += 1;
    }
}

impl Worker<'_> {
    /// The score of `p` if it lies in `(alpha, beta)`; otherwise a bound on the same side of the
    /// window (at most `alpha`, or at least `beta`). The side to move must not be able to win
    /// at once when losing moves are pruned (the caller ensures it).
    pub(super) fn negamax<const F: u32, const ROOT: bool>(
        &mut self,
        p: &Position,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        use feature::*;
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        if self.aborted {
            return 0;
        }
        let moves = p.moves_played() as i32;
        let candidates = if F & NON_LOSING != 0 {
            let cells = p.non_losing_cells();
            if cells == 0 {
                return -(CELLS_I - moves) / 2; // the opponent wins with its next stone
            }
            if moves >= CELLS_I - 2 {
                return 0; // the two last stones cannot connect four: a draw
            }
            cells
        } else {
            if !ROOT && p.can_win_now() {
                return p.win_now_score();
            }
            if moves == CELLS_I {
                return 0;
            }
            p.playable()
        };
        if F & ALPHA_BETA != 0 {
            // The opponent cannot win before its next stone after ours (or, losing moves
            // pruned, the one after); we cannot win with this stone.
            let lowest = if F & NON_LOSING != 0 {
                -(CELLS_I - 2 - moves) / 2
            } else {
                -(CELLS_I - moves) / 2
            };
            let highest = (CELLS_I - 1 - moves) / 2;
            if alpha < lowest {
                alpha = lowest;
                if alpha >= beta {
                    return alpha;
                }
            }
            if beta > highest {
                beta = highest;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        let (part, child_part) = if F & NEAR_TABLE != 0 {
            (part_of(moves), part_of(moves + 1))
        } else {
            (Part::Far, Part::Far)
        };
        if F & PREFETCH != 0 && F & MIRROR == 0 {
            let mut rest = candidates;
            let child_mover = p.opponent();
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                self.table
                    .prefetch(child_mover + (p.mask() | cell), child_part);
                rest ^= cell;
            }
        }
        let mut key = 0;
        let mut mirrored = false;
        let mut table_move = None;
        if F & TABLE != 0 {
            key = p.key();
            if F & MIRROR != 0 {
                let m = p.mirror_key();
                if m < key {
                    key = m;
                    mirrored = true;
                }
            }
            if let Some(entry) = self.table.probe(key, part) {
                if !ROOT {
                    if let Some(lower) = entry.lower {
                        if alpha < lower {
                            alpha = lower;
                            if alpha >= beta {
                                return alpha;
                            }
                        }
                    }
                    if let Some(upper) = entry.upper {
                        if beta > upper {
                            beta = upper;
                            if alpha >= beta {
                                return beta;
                            }
                        }
                    }
                }
                if F & TABLE_MOVE != 0 {
                    table_move = entry
                        .best
                        .map(|c| if mirrored { WIDTH as u8 - 1 - c } else { c });
                }
            }
        }

        if F & ETC != 0 && !ROOT && table_move.is_none() && moves < ETC_BEFORE_MOVE {
            let child_mover = p.opponent();
            let mut rest = candidates;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest ^= cell;
                let mut child_key = child_mover + (p.mask() | cell);
                if F & MIRROR != 0 {
                    child_key = child_key.min(crate::position::mirror(child_key));
                }
                if let Some(upper) = self
                    .table
                    .probe(child_key, child_part)
                    .and_then(|e| e.upper)
                {
                    if -upper >= beta {
                        let column = (cell.trailing_zeros() / (HEIGHT + 1)) as u8;
                        self.table
                            .store(key, part, -upper, true, Some(orient(column, mirrored)));
                        return -upper;
                    }
                }
            }
        }

        if F & ALPHA_BETA == 0 {
            let list = self.ordered::<F>(p, candidates, None);
            let mut best = -CELLS_I;
            for i in 0..list.len {
                let score = -self.negamax::<F, false>(&p.play_cell(list.cells[i]), -beta, -alpha);
                if score > best {
                    best = score;
                    if ROOT {
                        self.root_best = Some(list.columns[i]);
                    }
                }
            }
            return best;
        }

        // The table's move first, before the others are ordered: when it refutes the window,
        // as it mostly does, ordering them was wasted work.
        let mut best_column = None;
        let mut searched = None;
        if let Some(c) = table_move {
            let cell = candidates & column_mask(c as u32);
            if cell != 0 {
                let score = -self.negamax::<F, false>(&p.play_cell(cell), -beta, -alpha);
                if self.aborted {
                    return 0;
                }
                if ROOT && (score > alpha || score >= beta) {
                    self.root_best = Some(c);
                }
                if score >= beta {
                    self.table
                        .store(key, part, score, true, Some(orient(c, mirrored)));
                    return score;
                }
                if score > alpha {
                    alpha = score;
                    best_column = Some(c);
                }
                searched = Some(c);
            }
        }

        let list = self.ordered::<F>(p, candidates, searched);
        for i in 0..list.len {
            let score = -self.negamax::<F, false>(&p.play_cell(list.cells[i]), -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if ROOT && (score > alpha || score >= beta) {
                self.root_best = Some(list.columns[i]);
            }
            if score >= beta {
                if F & TABLE != 0 {
                    self.table.store(
                        key,
                        part,
                        score,
                        true,
                        Some(orient(list.columns[i], mirrored)),
                    );
                }
                return score;
            }
            if score > alpha {
                alpha = score;
                best_column = Some(list.columns[i]);
            }
        }
        if F & TABLE != 0 {
            let stored = best_column.or(table_move).map(|c| orient(c, mirrored));
            self.table.store(key, part, alpha, false, stored);
        }
        alpha
    }

    /// The moves among `candidates` (except `skip`), best first: centre first if the step
    /// says so, then (with threat ordering) by the number of cells each move leaves where one
    /// more stone would connect four.
    #[inline(always)]
    pub(super) fn ordered<const F: u32>(
        &self,
        p: &Position,
        candidates: u64,
        skip: Option<u8>,
    ) -> MoveList {
        let mut list = MoveList::new();
        let order = if F & feature::CENTRE_FIRST != 0 {
            CENTRE_FIRST
        } else {
            [0, 1, 2, 3, 4, 5, 6]
        };
        for &c in order.iter() {
            let cell = candidates & column_mask(c as u32);
            if cell == 0 || skip == Some(c) {
                continue;
            }
            let mut sort_key = 0;
            if F & feature::THREATS != 0 {
                let threats = winning_cells(p.mover() | cell) & !(p.mask() | cell);
                sort_key = threats.count_ones() as i32 * 8;
            }
            list.insert(cell, c, sort_key);
        }
        list
    }
}

/// A column as the table stores it: mirrored when the entry is keyed by the mirror image.
#[inline(always)]
fn orient(column: u8, mirrored: bool) -> u8 {
    if mirrored {
        WIDTH as u8 - 1 - column
    } else {
        column
    }
}

/// Positions with at least this many stones go to the near part of the table with
/// [`Step::NearTable`] (measured: 20, 22, 24, 26 and 28 on the Middle-Medium and Begin-Medium
/// sets; docs/connect4.md).
const NEAR_FROM: i32 = 22;

#[inline(always)]
pub(super) fn part_of(moves: i32) -> Part {
    if moves >= NEAR_FROM {
        Part::Near
    } else {
        Part::Far
    }
}

/// Enhanced transposition cutoffs are tried only this early in the game, where the subtrees
/// they save are large enough to pay for the probes.
const ETC_BEFORE_MOVE: i32 = 30;
