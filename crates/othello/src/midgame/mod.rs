//! A fast midgame search specialised for Othello: its own node loop over raw bitboards, beside
//! the endgame solver's and compiled with the same instruction-set kernels, for the searches
//! that play, hint and analyse, and for the shallow searches of the endgame solver's ProbCut.
//!
//! It is NegaScout (principal variation search: null windows off the principal variation) with
//! iterative deepening and a transposition table (the search crate's lock-free
//! [`TranspositionTable`], its move tried first, and from depth 4 the enhanced transposition
//! cutoff, a child's stored bound refuting the node); the other moves are ordered by the
//! evaluation of the position after them and fastest-first (fewest opponent replies, corners
//! counted twice). The
//! evaluation's pattern indices are carried along the moves ([`crate::pattern::PatternState`])
//! instead of being read off the board at every leaf, and the last ply is evaluated in its
//! parent's loop.
//!
//! It searches the same tree as the generic search of [`prune_search`] on
//! [`crate::Position`]: a pass is a ply, a finished game is worth [`Score::exact`] of its final
//! disc difference, a leaf at the horizon the evaluation in hundredths of a disc. A stored bound
//! ends a node only if it was searched to the same depth, so a fixed-depth search returns
//! exactly the minimax value of that depth, the generic search's (a differential test checks it
//! on hundreds of positions).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use prune_search::{
    Bound, Counters, DepthRow, Iteration, Score, SearchLimits, SearchObserver, SearchResult,
    SearchStats, TableAllocError, TranspositionTable,
};

use crate::eval::HandEval;
use crate::kernel::{with_kernel, Isa, Kernel};
use crate::{Move, OthelloEval, Position, Square};

pub(crate) mod leaf;
pub mod probcut;
pub(crate) mod search;

use std::sync::Arc;

use leaf::Leaf;
pub use probcut::{ProbCutParams, Selectivity};
use search::{play, Child, Mid, Stop, EVAL_ORDER_DEPTH, MAX_MOVES};

/// A near table (see `search::NEAR_TABLE_BYTES`).
pub(crate) fn near_table() -> Result<TranspositionTable<Move>, TableAllocError> {
    TranspositionTable::with_bytes(search::NEAR_TABLE_BYTES)
}

/// The square number standing for a pass in a root move list.
const PASS_SQUARE: u32 = 64;

/// The fast Othello midgame search with its transposition table (kept between searches, so a
/// game's searches help each other; [`MidgameSearch::clear`] forgets it).
pub struct MidgameSearch {
    tt: TranspositionTable<Move>,
    /// The main thread's near table (see `search::NEAR_TABLE_BYTES`); helper threads make
    /// their own.
    near: TranspositionTable<Move>,
    eval: OthelloEval,
    isa: Isa,
    threads: usize,
    selectivity: Selectivity,
    probcut: Arc<ProbCutParams>,
}

impl MidgameSearch {
    /// A search with a table of `tt_mib` MiB (at least 1) and the built-in trained evaluation;
    /// fails if the machine cannot give the memory.
    pub fn new(tt_mib: usize) -> Result<MidgameSearch, TableAllocError> {
        Ok(MidgameSearch {
            tt: TranspositionTable::new(tt_mib.max(1))?,
            near: near_table()?,
            eval: OthelloEval::default(),
            isa: Isa::best(),
            threads: 1,
            selectivity: Selectivity::Off,
            probcut: ProbCutParams::builtin(),
        })
    }

    /// Prunes forward with ProbCut at this confidence from now on (by default
    /// [`Selectivity::Off`], the full-width search); forgets the table, whose bounds were
    /// found with another selectivity.
    pub fn set_selectivity(&mut self, selectivity: Selectivity) {
        if selectivity != self.selectivity {
            self.clear();
        }
        self.selectivity = selectivity;
    }

    /// The selectivity.
    pub fn selectivity(&self) -> Selectivity {
        self.selectivity
    }

    /// ProbCut's parameters from now on (by default the built-in ones).
    pub fn set_probcut_params(&mut self, params: Arc<ProbCutParams>) {
        self.probcut = params;
        self.clear();
    }

    /// Searches with `threads` threads from now on (at least 1; by default 1): Lazy SMP, the
    /// threads sharing only the table. The helper threads search the same root, every other one
    /// a ply deeper, with the root moves rotated, so that they fill the table with what the
    /// main thread needs next; the result is the main thread's. With one thread node counts
    /// are reproducible; with more they are not.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Evaluates the leaves with `eval` from now on.
    pub fn set_eval(&mut self, eval: OthelloEval) {
        self.eval = eval;
        self.clear();
    }

    /// The evaluation of the leaves.
    pub fn eval(&self) -> &OthelloEval {
        &self.eval
    }

    /// Compiles the node functions for `isa` from now on (by default [`Isa::best`]); returns
    /// `false`, changing nothing, if this CPU lacks it. Values and node counts do not depend on
    /// it, only the speed.
    pub fn set_isa(&mut self, isa: Isa) -> bool {
        if isa.is_available() {
            self.isa = isa;
        }
        isa.is_available()
    }

    /// Forgets what earlier searches stored.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.near.clear();
    }

    /// Searches `position` within `limits` (iterative deepening up to `limits.depth`, or until
    /// a node or time limit).
    pub fn search(&mut self, position: &Position, limits: &SearchLimits) -> SearchResult<Move> {
        self.search_observed(position, limits, None, &mut prune_search::NoObserver)
    }

    /// [`MidgameSearch::search`], telling `observer` of each completed iteration and stopping
    /// (as at a limit) when another thread sets `stop`.
    pub fn search_observed(
        &mut self,
        position: &Position,
        limits: &SearchLimits,
        stop: Option<&AtomicBool>,
        observer: &mut dyn SearchObserver<Move>,
    ) -> SearchResult<Move> {
        self.tt.new_search();
        let eval = self.eval.clone();
        let isa = self.isa;
        match &eval {
            OthelloEval::Pattern(e) => {
                with_kernel!(isa, k => self.run(k, e, position, limits, stop, observer))
            }
            OthelloEval::Hand => {
                with_kernel!(isa, k => self.run(k, &HandEval, position, limits, stop, observer))
            }
        }
    }

    /// The search on this many threads: the main one reports; helpers (Lazy SMP) run until it
    /// is done, and their counters are added to its.
    fn run<K: Kernel, L: Leaf>(
        &self,
        k: K,
        leaf: &L,
        position: &Position,
        limits: &SearchLimits,
        stop: Option<&AtomicBool>,
        observer: &mut dyn SearchObserver<Move>,
    ) -> SearchResult<Move> {
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // With one thread there are no helpers and the scope spawns nothing.
            let helpers: Vec<_> = (1..self.threads)
                .map(|helper| {
                    let flags = [stop, Some(&done)];
                    scope.spawn(move || {
                        let quiet = &mut prune_search::NoObserver;
                        let near = near_table().ok()?;
                        Some(self.drive(k, leaf, position, limits, flags, quiet, helper, &near))
                    })
                })
                .collect();
            let main = [stop, None];
            let mut result = self.drive(k, leaf, position, limits, main, observer, 0, &self.near);
            done.store(true, Relaxed);
            // A helper without the memory for its near table does not search.
            for helper in helpers {
                if let Some(r) = helper.join().expect("a helper thread does not panic") {
                    result.stats.total += r.stats.total;
                }
            }
            result
        })
    }

    /// Iterative deepening from `position` with the kernel `k` and the evaluation `leaf`, as
    /// the main thread (`helper` 0) or a Lazy SMP helper.
    #[allow(clippy::too_many_arguments)]
    fn drive<K: Kernel, L: Leaf>(
        &self,
        k: K,
        leaf: &L,
        position: &Position,
        limits: &SearchLimits,
        flags: [Option<&AtomicBool>; 2],
        observer: &mut dyn SearchObserver<Move>,
        helper: usize,
        near: &TranspositionTable<Move>,
    ) -> SearchResult<Move> {
        let start = Instant::now();
        let (p, o) = (position.board().player(), position.board().opponent());
        let state = leaf.state(p, o);
        let mut mid = Mid {
            tt: &self.tt,
            near,
            leaf,
            c: Counters::default(),
            horizon_leaves: 0,
            stop: Stop {
                deadline: limits.time.map(|t| start + t),
                nodes: limits.nodes,
                flags,
                next_check: 0,
                stopped: false,
            },
            probcut: match self.selectivity {
                Selectivity::Off => None,
                Selectivity::Sigma(t) => Some((&*self.probcut, t)),
            },
        };
        let mut result = SearchResult {
            score: Score::DRAW,
            best_move: None,
            pv: Vec::new(),
            bound: Bound::Exact,
            depth: 0,
            exhausted: false,
            interrupted: false,
            iterations: Vec::new(),
            stats: SearchStats::default(),
        };
        let moves = k.moves(p, o);
        if moves == 0 && k.moves(o, p) == 0 {
            // The game is over: nothing to search.
            result.score = Score::exact(position.board().final_score());
            result.exhausted = true;
            result.stats.time = start.elapsed();
            return result;
        }
        let mut list = [Child::default(); MAX_MOVES];
        let n = if moves == 0 {
            list[0] = Child {
                square: PASS_SQUARE,
                key: 0,
                flips: 0,
            };
            1
        } else {
            mid.children(
                k,
                p,
                o,
                &state,
                true,
                moves,
                EVAL_ORDER_DEPTH,
                None,
                &mut list,
            )
        };
        let list = &mut list[..n];
        list.sort_by_key(|c| std::cmp::Reverse(c.key));
        list.rotate_left(helper % n);
        result.best_move = Some(to_move(list[0].square));
        result.pv = vec![to_move(list[0].square)];
        result.score = Score::heuristic(leaf.value(&state, p, o, position.empty_count(), true));
        let max_depth = limits.depth.unwrap_or(SearchLimits::MAX_DEPTH);
        for depth in (1 + helper as u32 % 2)..=max_depth {
            let (before, horizon_before, clock) = (mid.c, mid.horizon_leaves, Instant::now());
            let value = root(k, &mut mid, (p, o), &state, list, depth);
            let row = DepthRow {
                depth,
                counters: mid.c.since(&before),
                time: clock.elapsed(),
            };
            result.stats.per_depth.push(row);
            if mid.stop.stopped {
                result.interrupted = true;
                break;
            }
            let best = to_move(list[0].square);
            let mut pv = vec![best];
            let first = list[0];
            let ns = if first.square == PASS_SQUARE {
                state
            } else {
                leaf.play(&state, first.square, first.flips, true)
            };
            principal_variation(
                k,
                &mut mid,
                play(first, p, o),
                ns,
                false,
                depth - 1,
                &mut pv,
            );
            let iteration = Iteration {
                depth,
                score: Score::from_raw(value),
                best_move: Some(best),
                pv: pv.clone(),
                row,
            };
            observer.on_iteration(&iteration);
            result.iterations.push(iteration);
            result.score = Score::from_raw(value);
            result.best_move = Some(best);
            result.pv = pv;
            result.depth = depth;
            // No leaf met the horizon and no stored bound stood in for a subtree: the value
            // is the game's.
            if mid.horizon_leaves == horizon_before && row.counters.tt_cutoffs == 0 {
                result.exhausted = true;
                break;
            }
        }
        result.stats.total = mid.c;
        result.stats.time = start.elapsed();
        result
    }
}

/// One iteration at the root: every move of `list` searched `depth` - 1 plies below (the
/// first with the full window, the others with a null window first); the best is moved to the
/// front of the list, where the next iteration starts. Returns the root's value (meaningless
/// if the search stopped).
fn root<K: Kernel, L: Leaf>(
    k: K,
    mid: &mut Mid<'_, L>,
    (p, o): (u64, u64),
    state: &L::State,
    list: &mut [Child],
    depth: u32,
) -> i32 {
    mid.c.nodes += 1;
    mid.c.interior += 1;
    let beta = Score::INFINITY.raw();
    let mut best = -beta;
    let mut best_index = 0;
    // The side to move at the root is `us`; its children have the other side to move.
    for (i, m) in list.iter().enumerate() {
        let (np, no) = play(*m, p, o);
        let ns = if m.square == PASS_SQUARE {
            *state
        } else {
            mid.leaf.play(state, m.square, m.flips, true)
        };
        let v = if i == 0 {
            -mid.value(k, np, no, &ns, false, depth - 1, -beta, -best, true)
        } else {
            let v = -mid.value(k, np, no, &ns, false, depth - 1, -best - 1, -best, false);
            if v > best && !mid.stop.stopped {
                mid.c.re_searches += 1;
                -mid.value(k, np, no, &ns, false, depth - 1, -beta, -v, true)
            } else {
                v
            }
        };
        if mid.stop.stopped {
            return 0;
        }
        if v > best {
            best = v;
            best_index = i;
        }
    }
    list[..=best_index].rotate_right(1);
    best
}

/// The move of a root list's square.
fn to_move(square: u32) -> Move {
    match Square::new(square as u8) {
        Some(s) if square < PASS_SQUARE => Move::from_square(s),
        _ => Move::PASS,
    }
}

/// Extends `pv` with the best moves from `(p, o)` (evaluation state `state`, `us` to move
/// when `us`), `plies` of them at most (passes included): the table's best moves while it
/// knows them, then, for the last plies (nodes too shallow to be stored), a small full-window
/// search, not counted in the statistics.
#[allow(clippy::too_many_arguments)]
fn principal_variation<K: Kernel, L: Leaf>(
    k: K,
    mid: &mut Mid<'_, L>,
    (mut p, mut o): (u64, u64),
    mut state: L::State,
    mut us: bool,
    plies: u32,
    pv: &mut Vec<Move>,
) {
    let (counters, horizon) = (mid.c, mid.horizon_leaves);
    let inf = Score::INFINITY.raw();
    for left in (1..=plies).rev() {
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                break;
            }
            pv.push(Move::PASS);
            (p, o, us) = (o, p, !us);
            continue;
        }
        let stored = mid
            .tt
            .probe(search::table_key(p, o))
            .and_then(|e| e.best_move)
            .and_then(Move::square)
            .map(|s| u32::from(s.index()))
            .filter(|&s| moves & 1u64 << s != 0);
        let square = match stored {
            Some(square) => square,
            None if left < search::TABLE_DEPTH => {
                let mut best = (-inf, 0);
                let mut todo = moves;
                while todo != 0 {
                    let square = todo.trailing_zeros();
                    todo &= todo - 1;
                    let flips = k.flips(square, p, o);
                    let ns = mid.leaf.play(&state, square, flips, us);
                    let (np, no) = (o & !flips, p | flips | 1u64 << square);
                    let v = -mid.value(k, np, no, &ns, !us, left - 1, -inf, inf, true);
                    if v > best.0 {
                        best = (v, square);
                    }
                }
                best.1
            }
            None => break,
        };
        pv.push(to_move(square));
        let flips = k.flips(square, p, o);
        state = mid.leaf.play(&state, square, flips, us);
        (p, o, us) = (o & !flips, p | flips | 1u64 << square, !us);
    }
    (mid.c, mid.horizon_leaves) = (counters, horizon);
}

#[cfg(test)]
mod tests;
