//! A fast exact endgame solver specialised for Othello: its own node loop over raw bitboards
//! (as the style guide allows for the hottest code) and its own transposition table (the
//! crate's lock-free `EndgameTable`, which verifies whole positions and keeps both bounds and
//! the best move), reporting the search crate's [`Counters`] and configured by its
//! [`Parallel`]; proved against the generic search by differential tests.
//!
//! The search is principal variation search at the root and null-window search below it
//! (every interior node is searched with a window one disc wide, except along the first move
//! of a PV node). What each node does depends on the number of empty squares:
//!
//! * many empties ([`ORDERED_EMPTIES`] or more): the transposition table (bounds and best
//!   move; below `TABLE_EMPTIES`, a small near-leaf table per thread); the stability cutoff
//!   (the opponent's stable discs bound the score, see [`crate::stability`]); from
//!   `ETC_EMPTIES` up, the enhanced transposition cutoff (a child's stored bound may already
//!   refute the node); moves ordered table move first, then
//!   fastest-first (fewest opponent replies, corners counted twice), the opponent's potential
//!   mobility, corners, X- and C-squares next to an empty corner, parity and, from
//!   `EVAL_ORDER_EMPTIES` up, the evaluation of the position after the move (from
//!   `REPLY_EVAL_EMPTIES` up, of the opponent's best reply to it);
//! * few empties: no table and no move list; the legal moves are tried in parity order (odd
//!   regions first, corners first within a region), with the stability cutoff from
//!   `STABILITY_EMPTIES` up;
//! * three, two and one empties: dedicated code (no loop over square classes; the last move's
//!   flips are counted directly).
//!
//! Solves of many empties start with a move-ordering pass: the same search cut off
//! `ORDERING_PASS_DEPTH` plies down, where an evaluation (by default the trained patterns of
//! [`crate::pattern`]) stands in for the exact score; it stores best moves (no bounds) that
//! order the upper nodes of the exact search, and its value centres the exact search's first
//! window (an aspiration window of `ASPIRATION` discs either side, widened where it fails).
//! From [`SELECTIVE_PASS_EMPTIES`] on, a selective pass comes between them: the search to the
//! end of the game, but with ProbCut at nodes off the principal variation (a shallow search
//! with the evaluation at its horizon predicts that the node fails high or low by a margin,
//! and it is cut; the shallow searches are the midgame search's node loop, with a table of
//! their own). Its bounds are kept in the table marked selective where ProbCut may have cut
//! below them (nodes of `PROBCUT_EMPTIES` or more), so the selective pass uses them and the
//! exact search takes only their best moves; its value centres the exact search's window.
//!
//! The node functions are compiled once per instruction set, the best one the CPU has picked
//! at run time (see [`Isa`] and the crate's `kernel` module, shared with the midgame search and
//! perft: hardware bit counts and scans, AVX2 flips and moves, prefetched table entries).
//!
//! The code, one file each: this API and the solve's driver; `search` (the node loop of the
//! ordered search); `parallel` (YBWC, PV splitting and Lazy SMP); `shallow` (the leaf search
//! and the last two and one empties); `ordering` (the ordering key and its weights); `moves`
//! (the move list); `isa` (the per-instruction-set kernels).
//!
//! Each rule and constant was kept because it paid on FFO positions (nodes and time, one
//! thread unless said otherwise); what was tried and measured is in `docs/tuning.md`.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use prune_search::{ConfigError, Counters, Parallel, TableAllocError, TranspositionTable};

mod moves;
mod ordering;
mod parallel;
pub(crate) mod search;
pub(crate) mod shallow;

pub use crate::kernel::Isa;
use crate::kernel::{with_kernel, Kernel};
pub use parallel::{EAGER_SPLIT_EMPTIES, EAGER_THREADS, SPLIT_EMPTIES};

use parallel::{NearTables, Split, Threads};
use search::{Abort, Node, Root, Shared};
use shallow::parity;

use crate::table::EndgameTable;
use crate::{Board, Move, OthelloEval};

/// From this many empties up, nodes use the transposition table and fastest-first ordering.
pub const ORDERED_EMPTIES: u32 = 7;

/// The size of the near-leaf table (see `search::TABLE_EMPTIES`): small enough to stay in the
/// second-level cache of current x86 cores (1 to 2 MiB) beside the rest. With nodes of 7-11
/// empties in it, 256 KiB took the same time as 1 MiB on FFO #40-#52 (1.7% more nodes) and
/// less than 2 MiB; 64 KiB was best when it held 7-9 empties only (docs/tuning.md).
const NEAR_TABLE_BYTES: usize = 256 << 10;

/// Exact solves of this many empties or more start with a move-ordering pass (see
/// [`ordering_pass`]): with the trained patterns at its horizon it pays from here
/// (docs/tuning.md).
const ORDERING_PASS_EMPTIES: u32 = 20;

/// How deep the move-ordering pass searches (plies). 12 did best before the selective pass;
/// with it, 10 took the same time on FFO #40-#52 and 17% less on #20-#39 (docs/tuning.md).
const ORDERING_PASS_DEPTH: u32 = 10;

/// Exact solves of this many empties or more run the selective pass (see the module
/// documentation) between the ordering pass and the exact search (docs/tuning.md).
pub const SELECTIVE_PASS_EMPTIES: u32 = 20;

/// The half-width (discs) of the exact search's first window around the ordering pass's
/// value: 1, 2 and 4 were tried, 1 searched the fewest nodes (docs/tuning.md).
const ASPIRATION: i32 = 1;

/// How far (discs) past the bound found a failed window of the selective pass is widened, in
/// place of to the end of the range as in the exact search: the selective pass's value only
/// centres the exact search's window, and a narrow re-search costs less. 2, 3, 4 and 6 were
/// tried; 3 searched the fewest nodes on FFO #40-#52 (docs/tuning.md).
const SELECTIVE_WIDEN_STEP: i32 = 3;

/// The table of the selective pass's ProbCut searches is a quarter of the solver's table, at
/// least 1 MiB and at most this many: on FFO #49 and #52, the ProbCut searches took the same
/// nodes within 1% with 16 MiB and 64 MiB, 4-5% more with 2 MiB (docs/tuning.md).
const PROBCUT_TABLE_MAX_MIB: usize = 16;

/// The size in MiB of the ProbCut searches' table beside a table of `tt_mib` MiB.
fn probcut_table_mib(tt_mib: usize) -> usize {
    (tt_mib / 4).clamp(1, PROBCUT_TABLE_MAX_MIB)
}

/// The result of an exact solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameResult {
    /// The final disc difference for the side to move under perfect play (clamped to the
    /// window asked for: outside it, a bound).
    pub score: i32,
    /// A move reaching `score` (`None` when the game is over; `Move::PASS` when the side to
    /// move must pass).
    pub best_move: Option<Move>,
    /// What the search did.
    pub counters: Counters,
}

/// An exact endgame solver with its transposition table (reused between solves) and its
/// threads.
pub struct EndgameSolver {
    tt: EndgameTable,
    /// The table of the selective pass's ProbCut searches (the midgame search's, whose bounds
    /// hold for their depth): a quarter of `tt`'s size, at most [`PROBCUT_TABLE_MAX_MIB`].
    probcut_tt: TranspositionTable<Move>,
    /// The near tables, one set per thread: the near-leaf table (nodes of fewer than
    /// `TABLE_EMPTIES` empties keep their entries in this small table, which stays in the
    /// caches, not in `tt`; see `search`) and the ProbCut searches' near table. The first set
    /// is the solve's own thread's; the others are for the threads that take moves handed out.
    near_tables: Vec<NearTables>,
    /// Solves of this many empties or more start with a move-ordering pass.
    pass_empties: u32,
    /// Solves of this many empties or more run the selective pass.
    selective_empties: u32,
    /// The evaluation at the horizon of the ordering pass and of ProbCut's searches.
    eval: OthelloEval,
    /// The instruction set of the node functions.
    isa: Isa,
    parallel: Parallel,
    threads: Threads,
}

/// Why a solver could not be made or set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The machine cannot give the table's memory.
    #[error(transparent)]
    Memory(#[from] TableAllocError),
    /// The system would not start the threads.
    #[error("could not start {threads} solver threads: {reason}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What the system said.
        reason: String,
    },
    /// The CPU lacks the instruction set.
    #[error("this CPU cannot run the {0} instruction set")]
    IsaUnavailable(Isa),
}

impl From<SolverError> for ConfigError {
    fn from(e: SolverError) -> Self {
        match e {
            SolverError::Memory(e) => ConfigError::Memory(e),
            e => ConfigError::Invalid(e.to_string()),
        }
    }
}

impl EndgameSolver {
    /// A sequential solver with a transposition table of `tt_mib` MiB (and a quarter as much,
    /// at most 16 MiB, for the selective pass's ProbCut searches).
    ///
    /// # Panics
    ///
    /// If the machine cannot give that much memory: a size chosen by a user goes through
    /// [`EndgameSolver::with_parallel`], which says so as an error.
    pub fn new(tt_mib: usize) -> Self {
        // One thread starts no pool, so only the memory can fail.
        Self::with_parallel(tt_mib, Parallel::SEQUENTIAL).expect("the memory for the tables")
    }

    /// A solver searching with `parallel` threads and scheme (one table for all threads);
    /// fails if the machine cannot give the table's memory or the system cannot start the
    /// threads.
    pub fn with_parallel(tt_mib: usize, parallel: Parallel) -> Result<Self, SolverError> {
        let tt = EndgameTable::try_new(tt_mib.max(1))?;
        let probcut_tt = TranspositionTable::new(probcut_table_mib(tt_mib))?;
        let near_tables = NearTables::for_threads(parallel)?;
        let threads = Threads::new(parallel)?;
        Ok(EndgameSolver {
            tt,
            probcut_tt,
            near_tables,
            pass_empties: ORDERING_PASS_EMPTIES,
            selective_empties: SELECTIVE_PASS_EMPTIES,
            eval: OthelloEval::default(),
            isa: Isa::best(),
            parallel,
            threads,
        })
    }

    /// The threads and scheme.
    pub fn parallel(&self) -> Parallel {
        self.parallel
    }

    /// Solves of `empties` empties or more start with the move-ordering pass (by default
    /// from 20 empties, where it pays); a larger number than 60 turns it off. The scores do not
    /// depend on it, only the work.
    pub fn set_ordering_pass_empties(&mut self, empties: u32) {
        self.pass_empties = empties;
    }

    /// Solves of `empties` empties or more run the selective pass before the exact search (by
    /// default from [`SELECTIVE_PASS_EMPTIES`]); a larger number than 60 turns it off. The
    /// scores do not depend on it, only the work.
    pub fn set_selective_pass_empties(&mut self, empties: u32) {
        self.selective_empties = empties;
    }

    /// The evaluation that the move-ordering pass and the selective pass's ProbCut searches use
    /// at their horizon (by default the trained patterns). The scores do not depend on it, only
    /// the work.
    pub fn set_eval(&mut self, eval: OthelloEval) {
        // The ProbCut searches' bounds are values of the evaluation.
        self.probcut_tt.clear();
        for tables in &mut self.near_tables {
            tables.probcut_near.clear();
        }
        self.eval = eval;
    }

    /// Compiles the node functions for `isa` from now on (by default [`Isa::best`]); fails,
    /// changing nothing, if this CPU lacks it. The scores and node counts do not depend on it,
    /// only the speed.
    pub fn set_isa(&mut self, isa: Isa) -> Result<(), SolverError> {
        if !isa.is_available() {
            return Err(SolverError::IsaUnavailable(isa));
        }
        self.isa = isa;
        Ok(())
    }

    /// The instruction set the node functions run with.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Forgets what earlier solves stored.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.probcut_tt.clear();
        for tables in &mut self.near_tables {
            tables.near.clear();
            tables.probcut_near.clear();
        }
    }

    /// The exact score of `board` (side to move's view) if it lies in `(alpha, beta)`; a bound
    /// otherwise. `-64 <= alpha < beta <= 64` are disc differences; use `(-64, 64)` for the exact
    /// score and `(-1, 1)` to learn only win, draw or loss.
    ///
    /// With several threads the score is the same; the best move is one of the optimal moves
    /// (not always the one a sequential search picks) and the counters add up every thread's.
    pub fn solve(&mut self, board: &Board, alpha: i32, beta: i32) -> EndgameResult {
        let never = AtomicBool::new(false);
        self.solve_until(board, alpha, beta, &never)
            .expect("a solve nobody stops finishes")
    }

    /// [`EndgameSolver::solve`], given up as soon as another thread sets `stop` (checked at
    /// every node with enough empties to matter): then `None`, and the table keeps only what
    /// finished searches stored.
    pub fn solve_until(
        &mut self,
        board: &Board,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> Option<EndgameResult> {
        with_kernel!(self.isa, k => self.solve_with(k, board, alpha, beta, stop))
    }

    /// A pass's view of this solver's tables and evaluation: `split` its threads' rule,
    /// `horizon` and `selective` as in [`Shared`].
    fn shared(&self, split: Split, horizon: u32, selective: bool) -> Shared<'_> {
        Shared {
            tt: &self.tt,
            tables: &self.near_tables[0],
            split,
            horizon,
            eval: &self.eval,
            selective,
            probcut_tt: &self.probcut_tt,
            near_tables: &self.near_tables,
        }
    }

    /// [`EndgameSolver::solve_until`] with the kernel `k`.
    fn solve_with<K: Kernel>(
        &mut self,
        k: K,
        board: &Board,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> Option<EndgameResult> {
        self.tt.new_search();
        self.probcut_tt.new_search();
        for tables in &mut self.near_tables {
            tables.near.new_search();
            tables.probcut_near.new_search();
        }
        let outside = Abort {
            flag: stop,
            parent: None,
        };
        let (p, o) = (board.player(), board.opponent());
        let (alpha, beta) = (alpha.clamp(-65, 64), beta.clamp(-64, 65));
        let split = self.threads.split();
        let mut counters = Counters::default();
        let mut best_move = None;
        let outside = &outside;
        let empties = board.empty_count();
        let mut final_value = 0;
        // The last pass's value, the centre of the next search's first window.
        let mut guess = None;
        // The passes: (horizon, selective); the last one is the exact search.
        let passes = ordering_pass(empties, self.pass_empties)
            .map(|h| (h, false))
            .into_iter()
            .chain((empties >= self.selective_empties).then_some((0, true)))
            .chain([(0, false)]);
        for (horizon, selective) in passes {
            let split = if selective {
                split.for_selective_pass()
            } else {
                split
            };
            let shared = self.shared(split, horizon, selective);
            let exact = horizon == 0 && !selective;
            let (alpha, beta) = if exact { (alpha, beta) } else { (-64, 64) };
            let (mut lo, mut hi) = match guess {
                Some(g) if horizon == 0 => aspiration(g, alpha, beta),
                _ => (alpha, beta),
            };
            // An aspiration window that fails is widened on the side that failed, from the
            // bound found (the search is fail-soft): in the exact search up to the window
            // asked for, in the selective pass by `SELECTIVE_WIDEN_STEP` discs at a time.
            let step = selective.then_some(SELECTIVE_WIDEN_STEP);
            let score = loop {
                let mut root = |c: &mut Counters| {
                    k.pvs(
                        &shared,
                        c,
                        Some(outside),
                        p,
                        o,
                        lo,
                        hi,
                        Node::Pv,
                        Root::Main(&mut best_move),
                    )
                };
                let score = match &self.threads {
                    Threads::Sequential => root(&mut counters),
                    Threads::Split(pool, _) => pool.install(|| root(&mut counters)),
                    Threads::LazySmp(n) => {
                        shared.lazy_smp(k, &mut counters, *n, (p, o), (lo, hi), outside, root)
                    }
                };
                match widen(score, (lo, hi), (alpha, beta), step) {
                    Some(window) if !stop.load(Relaxed) => (lo, hi) = window,
                    _ => break score,
                }
            };
            if exact {
                final_value = score;
            } else {
                guess = Some(score);
            }
        }
        let score = final_value;
        if stop.load(Relaxed) {
            return None;
        }
        Some(EndgameResult {
            score,
            best_move,
            counters,
        })
    }
}

/// The exact score of a position with few empty squares (at most [`ORDERED_EMPTIES`] - 1 is
/// what the solver uses it for; any count works) by the solver's leaf search compiled for the
/// instruction set `isa` (the portable one if this CPU lacks it), without table or threads:
/// clamped to `(alpha, beta)` as a fail-soft bound outside it. Returns the score and the number
/// of nodes searched. Exposed for benchmarks and tests of the leaf search.
pub fn solve_small_with(isa: Isa, board: &Board, alpha: i32, beta: i32) -> (i32, u64) {
    let mut c = Counters::default();
    let (p, o) = (board.player(), board.opponent());
    let empties = board.empty_count();
    let parity = parity(!(p | o));
    let v = with_kernel!(isa, k => k.shallow(&mut c, p, o, alpha, beta, empties, parity));
    (v, c.nodes)
}

/// The number of leaves `depth` plies below `board` (a pass is a ply; a game over before the
/// depth is one leaf), counted by the solver's node functions compiled for the instruction
/// set `isa` (the portable one if this CPU lacks it): [`crate::perft()`] runs on it.
pub fn count_leaves(isa: Isa, board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    with_kernel!(isa, k => k.perft(board.player(), board.opponent(), depth))
}

/// The leaf count of [`count_leaves`] for `(p, o)` (side to move owns `p`), `depth` >= 1: the
/// last ply is counted from the legal moves, not played.
///
/// Reached through [`Kernel::perft`], which compiles it for the kernel `k`.
#[inline(always)]
pub(crate) fn perft_node<K: Kernel>(k: K, p: u64, o: u64, depth: u32) -> u64 {
    let moves = k.moves(p, o);
    if moves == 0 {
        // The game is over, or the pass is the one move at the last ply.
        if depth == 1 || k.moves(o, p) == 0 {
            return 1;
        }
        return k.perft(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut todo = moves;
    let mut leaves = 0;
    while todo != 0 {
        let sq = todo.trailing_zeros();
        todo &= todo - 1;
        let flips = k.flips(sq, p, o);
        leaves += k.perft(o & !flips, p | flips | 1u64 << sq, depth - 1);
    }
    leaves
}

/// Counting a beta cutoff in [`Counters`].
pub(crate) trait CountCutoff {
    /// Counts a cutoff by the move searched `index`-th (0: the first).
    fn count_cutoff(&mut self, index: usize);
}

impl CountCutoff for Counters {
    fn count_cutoff(&mut self, index: usize) {
        self.beta_cutoffs += 1;
        if index == 0 {
            self.first_move_cutoffs += 1;
        }
    }
}

/// The exact search's first window: [`ASPIRATION`] discs either side of the ordering pass's
/// value `guess`, within `(alpha, beta)`; the whole of it if that leaves nothing.
fn aspiration(guess: i32, alpha: i32, beta: i32) -> (i32, i32) {
    let (lo, hi) = (
        (guess - ASPIRATION).max(alpha),
        (guess + ASPIRATION).min(beta),
    );
    if lo < hi {
        (lo, hi)
    } else {
        (alpha, beta)
    }
}

/// The next window after a search of `(lo, hi)` returned the fail-soft `score`, when the
/// window asked for is `(alpha, beta)`: `None` if `score` answers that (inside `(lo, hi)`, or a
/// bound beyond the window asked for); otherwise the window from the bound found to the side
/// of the window asked for that failed, or only `step` discs past the bound where a step is
/// given (within the window asked for; a window that fails again is widened again).
fn widen(
    score: i32,
    (lo, hi): (i32, i32),
    (alpha, beta): (i32, i32),
    step: Option<i32>,
) -> Option<(i32, i32)> {
    if score <= lo && lo > alpha {
        let far = step.map_or(alpha, |s| (score - s).max(alpha));
        Some((far, score + 1))
    } else if score >= hi && hi < beta {
        let far = step.map_or(beta, |s| (score + s).min(beta));
        Some((score - 1, far))
    } else {
        None
    }
}

/// Before an exact solve of at least `min_empties` empties ([`ORDERING_PASS_EMPTIES`] by
/// default), one move-ordering pass searches [`ORDERING_PASS_DEPTH`] plies deep with the
/// solver's evaluation at its horizon; the best moves it leaves in the table order the exact
/// search's upper nodes. Returns the pass's horizon (in empties), if there is a pass.
fn ordering_pass(empties: u32, min_empties: u32) -> Option<u32> {
    let horizon = empties.saturating_sub(ORDERING_PASS_DEPTH);
    (empties >= min_empties && horizon > 0).then_some(horizon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_aspiration_window_lies_inside_the_window_asked_for() {
        assert_eq!(aspiration(10, -64, 64), (9, 11));
        assert_eq!(aspiration(64, -64, 64), (63, 64));
        assert_eq!(aspiration(10, -1, 1), (-1, 1));
        assert_eq!(aspiration(10, 0, 20), (9, 11));
        assert_eq!(aspiration(-30, -1, 1), (-1, 1));
    }

    #[test]
    fn a_failed_window_widens_from_the_bound_found() {
        // Inside the window: done.
        assert_eq!(widen(10, (9, 11), (-64, 64), None), None);
        // Failed low at 6 (the score is at most 6): search up to 6 inclusive.
        assert_eq!(widen(6, (9, 11), (-64, 64), None), Some((-64, 7)));
        // Failed high at 14 (at least 14): from 14 inclusive.
        assert_eq!(widen(14, (9, 11), (-64, 64), None), Some((13, 64)));
        // A bound beyond the window asked for answers it.
        assert_eq!(widen(-5, (-1, 1), (-1, 1), None), None);
        assert_eq!(widen(5, (-1, 1), (-1, 1), None), None);
        // The second search fails on the first window's side no more: its bound is the answer.
        assert_eq!(widen(6, (-64, 7), (-64, 64), None), None);
    }

    #[test]
    fn a_step_widens_a_failed_window_only_that_far_past_the_bound() {
        assert_eq!(widen(10, (9, 11), (-64, 64), Some(3)), None);
        assert_eq!(widen(6, (9, 11), (-64, 64), Some(3)), Some((3, 7)));
        assert_eq!(widen(14, (9, 11), (-64, 64), Some(3)), Some((13, 17)));
        // Failing again widens again, from the new bound.
        assert_eq!(widen(3, (3, 7), (-64, 64), Some(3)), Some((0, 4)));
        assert_eq!(widen(17, (13, 17), (-64, 64), Some(3)), Some((16, 20)));
        // Never past the window asked for; at its end the bound answers.
        assert_eq!(widen(-62, (-62, -58), (-64, 64), Some(3)), Some((-64, -61)));
        assert_eq!(widen(62, (58, 62), (-64, 64), Some(3)), Some((61, 64)));
        assert_eq!(widen(-64, (-64, -61), (-64, 64), Some(3)), None);
    }

    /// Bounds a selective search stored do not cut in the exact search: every child of the
    /// root is given a false selective entry (the child's side to move loses by 64), and the
    /// exact solve still finds the true score. The same entries unmarked do change the score,
    /// so the exact search does reach them.
    #[test]
    fn selective_bounds_do_not_cut_in_the_exact_search() {
        use crate::bitboard::{flips_at, legal_moves, random_game};
        use prune_search::rng::XorShift64;
        let mut rng = XorShift64::new(0x5e1e_c71e);
        let mut checked = 0;
        for _ in 0..40 {
            let (p, o) = random_game(&mut rng, 14);
            let moves = legal_moves(p, o);
            if 64 - (p | o).count_ones() != 14 || moves == 0 {
                continue;
            }
            let board = Board::from_bits(p, o).expect("a legal board");
            let exact = EndgameSolver::new(1).solve(&board, -64, 64).score;
            if exact == 64 {
                continue;
            }
            let poisoned = |selective: bool| {
                let mut solver = EndgameSolver::new(1);
                for square in (0..64).filter(|s| moves >> s & 1 != 0) {
                    let flips = flips_at(square, p, o);
                    let (child_p, child_o) = (o & !flips, p | flips | 1 << square);
                    solver
                        .tt
                        .store(child_p, child_o, 13, -64, -64, None, selective);
                }
                solver.solve(&board, -64, 64).score
            };
            assert_eq!(poisoned(true), exact, "{board:?}");
            assert_eq!(
                poisoned(false),
                64,
                "{board:?}: the entries were not reached"
            );
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} positions checked");
    }

    /// The selective pass marks the bounds of nodes where ProbCut may have cut below them
    /// (from `PROBCUT_EMPTIES` empties up) and no others, and every bound it leaves unmarked
    /// holds for the exact score (a separate solver's). The positions are those reachable from
    /// the root down to one empty square below `PROBCUT_EMPTIES`, each looked up in the table
    /// its node uses (the large one from `TABLE_EMPTIES` up, else the near-leaf table).
    #[test]
    fn the_selective_pass_marks_the_bounds_that_probcut_may_have_changed() {
        use crate::bitboard::{flips_at, legal_moves, random_game};
        use prune_search::rng::XorShift64;
        use search::{PROBCUT_EMPTIES, TABLE_EMPTIES};
        use std::collections::HashSet;
        let mut rng = XorShift64::new(0x3a7c_5e1e);
        let mut oracle = EndgameSolver::new(1);
        let (mut marked, mut unmarked, mut roots) = (0, 0, 0);
        while roots < 6 {
            let (p, o) = random_game(&mut rng, 16);
            if 64 - (p | o).count_ones() != 16 || legal_moves(p, o) == 0 {
                continue;
            }
            roots += 1;
            let solver = EndgameSolver::new(1);
            let shared = solver.shared(Split::Never, 0, true);
            let mut c = Counters::default();
            let mut best = None;
            let k = crate::kernel::Portable;
            k.pvs(
                &shared,
                &mut c,
                None,
                p,
                o,
                -64,
                64,
                Node::Pv,
                Root::Main(&mut best),
            );
            // Every position reachable down to one empty square below PROBCUT_EMPTIES, passes
            // included, looked up in the table its node keeps its entry in.
            let mut seen = HashSet::new();
            let mut stack = vec![(p, o)];
            while let Some((p, o)) = stack.pop() {
                let empties = 64 - (p | o).count_ones();
                if empties + 1 < PROBCUT_EMPTIES || !seen.insert((p, o)) {
                    continue;
                }
                let table = if empties >= TABLE_EMPTIES {
                    &solver.tt
                } else {
                    &solver.near_tables[0].near
                };
                if let Some(e) = table.probe(p, o) {
                    if empties >= PROBCUT_EMPTIES {
                        assert!(e.selective, "{p:#x} {o:#x}: {empties} empties unmarked");
                        marked += 1;
                    } else {
                        assert!(!e.selective, "{p:#x} {o:#x}: {empties} empties marked");
                        let board = Board::from_bits(p, o).expect("a legal board");
                        let exact = oracle.solve(&board, -64, 64).score;
                        assert!(
                            e.lower <= exact && exact <= e.upper,
                            "{board:?}: [{}, {}] against {exact}",
                            e.lower,
                            e.upper
                        );
                        unmarked += 1;
                    }
                }
                let moves = legal_moves(p, o);
                if moves == 0 {
                    stack.push((o, p));
                }
                for square in (0..64).filter(|s| moves >> s & 1 != 0) {
                    let flips = flips_at(square, p, o);
                    stack.push((o & !flips, p | flips | 1 << square));
                }
            }
        }
        assert!(
            marked >= 50 && unmarked >= 50,
            "{marked} marked, {unmarked} unmarked"
        );
    }
}
