//! A fast exact endgame solver specialised for Othello: its own node loop over raw bitboards
//! (as the style guide allows for the hottest code), sharing the search crate's transposition
//! table and counters, and proved against the generic search by differential tests.
//!
//! The search is principal variation search at the root and null-window search below it
//! (every interior node is searched with a window one disc wide, except along the first move
//! of a PV node). What each node does depends on the number of empty squares:
//!
//! * many empties ([`ORDERED_EMPTIES`] or more): the transposition table (bounds and best
//!   move); the stability cutoff (the opponent's stable discs bound the score, see
//!   [`crate::stability`]); from `ETC_EMPTIES` up, the enhanced transposition cutoff (a child's
//!   stored bound may already refute the node); moves ordered table move first, then
//!   fastest-first (fewest opponent replies, corners counted twice), the opponent's potential
//!   mobility, corners, X- and C-squares next to an empty corner, parity and, from
//!   `EVAL_ORDER_EMPTIES` up, the evaluation of the position after the move;
//! * few empties: no table and no move list; the empty squares are tried in parity order (odd
//!   regions first, corners first within a region), each checked for flips directly, with the
//!   stability cutoff from `STABILITY_EMPTIES` up;
//! * two and one empties: dedicated code (no loop; the last move's flips are counted directly).
//!
//! Solves of many empties start with a move-ordering pass: the same search cut off
//! `ORDERING_PASS_DEPTH` plies down, where an evaluation (by default the trained patterns of
//! [`crate::pattern`]) stands in for the exact score; it stores best moves (no bounds) that order the upper nodes of the exact search.
//!
//! The node functions are compiled once per instruction set, the best one the CPU has picked
//! at run time (see [`Isa`] and the `isa` submodule: hardware bit counts and scans, AVX2 flips
//! and moves, prefetched table entries).
//!
//! Each rule was kept because it paid on FFO #40-#44 (nodes and time, single thread; the
//! measurements are in the project's notes).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};

use prune_search::{Counters, Parallel, ParallelKind};
use rayon::prelude::*;

mod isa;

pub use isa::Isa;
use isa::{with_kernel, Kernel};

use crate::bitboard::{count_last_flip, neighbours, odd_regions, CORNERS, QUADRANTS};
use crate::stability::stable_discs_inlined as stable_discs;
use crate::table::EndgameTable;
use crate::{Board, Move, OthelloEval, Square};

/// From this many empties up, nodes use the transposition table and fastest-first ordering.
pub const ORDERED_EMPTIES: u32 = 7;

/// From this many empties up, a node first looks up its children in the table (enhanced
/// transposition cutoff).
const ETC_EMPTIES: u32 = 8;

/// From this many empties up, the leaf search tries the stability cutoff (it runs at every
/// node of the ordered search).
const STABILITY_EMPTIES: u32 = 4;

/// Exact solves of this many empties or more start with a move-ordering pass (see
/// [`ordering_pass`]). With the hand-made evaluation at its horizon it paid from 24 empties
/// only; with the trained patterns it pays from 20: FFO #40 (20 empties) 14.6 M -> 8.5 M
/// nodes, #41-#44 (22-23) 186 M -> 114 M nodes, 9.6 s -> 7.1 s (both timed while another
/// program ran on the second core).
const ORDERING_PASS_EMPTIES: u32 = 20;

/// How deep the move-ordering pass searches (plies; depth 12 beat 4-8, 10, 14 and two
/// passes with the hand-made evaluation, and 10 and 14 again with the patterns).
const ORDERING_PASS_DEPTH: u32 = 12;

/// From this many empties up, the ordering key also counts the evaluation of each move's
/// position (the solver's evaluation, by default the trained patterns), [`EVAL_ORDER_WEIGHT`]
/// key units per disc (a reply of the opponent counts 16). On FFO #40-#52, one thread, `--tt
/// 64`: without it 114.9 s and 2.97 G nodes; from 17 empties with weight 4, 90.6 s and 2.09 G
/// (from 20: 95.6 s, 2.31 G; on #45-#47, weights 2-8 and thresholds 14-20 were tried, 3-4
/// and 16-18 best).
const EVAL_ORDER_EMPTIES: u32 = 17;
/// See [`EVAL_ORDER_EMPTIES`].
const EVAL_ORDER_WEIGHT: i32 = 4;

/// Below this many empties, the ordering key prefers moves in odd regions (parity).
const PARITY_EMPTIES: u32 = 14;

/// The ordering key's weights: per opponent reply (a corner reply counts twice), per square of
/// the opponent's potential mobility, and the bonuses of a corner and of an odd region.
const MOBILITY_WEIGHT: i32 = 16;
const POTENTIAL_WEIGHT: i32 = 3;
const CORNER_BONUS: i32 = 8;
const PARITY_BONUS: i32 = 4;
/// The ordering key's penalty for an X-square (b2, g2, b7, g7) and for a C-square (b1, a2,
/// ...) next to an empty corner: such a move tends to give the corner away. Tuned on FFO
/// #45-#47 (nodes, potential weight 4): X 8/16/24/48 gave 627/579/599/633 M (none: 764 M); C
/// 8/16 with X 16 gave 546/556 M; then the potential weight 3 gave 536 M (6: 531 M, but more
/// on #40-#44).
const X_PENALTY: i32 = 16;
const C_PENALTY: i32 = 8;

/// The X-squares b2, g2, b7, g7.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The X- and C-squares of the corners that are empty in `empty`.
#[inline(always)]
fn squares_beside_empty_corners(empty: u64) -> u64 {
    let corners = empty & CORNERS;
    // A corner's neighbours are exactly its X-square and its two C-squares.
    neighbours(corners) & X_AND_C_SQUARES
}

/// Corners, then the squares that are neither X- nor C-squares, then the rest: the order in
/// which shallow nodes try moves within a parity class.
const PRIORITY: [u64; 3] = [CORNERS, !CORNERS & !X_AND_C_SQUARES, X_AND_C_SQUARES];

/// The X- and C-squares: next to a corner.
const X_AND_C_SQUARES: u64 = 0x42c3_0000_0000_c342;

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
    /// Solves of this many empties or more start with a move-ordering pass.
    pass_empties: u32,
    /// The evaluation at the ordering pass's horizon.
    eval: OthelloEval,
    /// The instruction set of the node functions.
    isa: Isa,
    parallel: Parallel,
    threads: Threads,
}

/// How a solve uses its threads (derived from [`Parallel`] once, when the solver is built).
enum Threads {
    /// One thread.
    Sequential,
    /// YBWC or PV splitting on a pool built once and reused by every solve.
    Split(rayon::ThreadPool, Split),
    /// Lazy SMP with this many threads (scoped threads started per solve).
    LazySmp(usize),
}

/// Nodes with at least this many empties may be split between threads (YBWC, PV splitting):
/// below it a subtree is too small to be worth handing out.
pub const SPLIT_EMPTIES: u32 = 12;

#[inline(always)]
fn final_score(p: u64, o: u64) -> i32 {
    Board::from_disjoint_bits(p, o).final_score()
}

/// A chain of stop flags: a search beneath a split point stops when a sibling's cutoff (or the
/// end of the main search, for Lazy SMP helpers) sets the flag of any split point above it.
struct Abort<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Abort<'a>>,
}

/// Whether the search under `abort` must stop (its result would be thrown away).
fn stopped(abort: Option<&Abort<'_>>) -> bool {
    let mut link = abort;
    while let Some(a) = link {
        if a.flag.load(Relaxed) {
            return true;
        }
        link = a.parent;
    }
    false
}

/// What every thread of one solve shares.
struct Shared<'a> {
    tt: &'a EndgameTable,
    /// Which nodes may split: none (sequential, Lazy SMP), PV nodes, or any.
    split: Split,
    /// 0 for the exact search; otherwise a move-ordering pass: nodes with this many empties
    /// or fewer are evaluated, not searched, and the table gets best moves but no bounds.
    horizon: u32,
    /// The evaluation at the horizon.
    eval: &'a OthelloEval,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    Never,
    PvNodes,
    AnyNode,
}

impl EndgameSolver {
    /// A sequential solver with a transposition table of `tt_mib` MiB.
    pub fn new(tt_mib: usize) -> Self {
        EndgameSolver {
            tt: EndgameTable::new(tt_mib.max(1)),
            pass_empties: ORDERING_PASS_EMPTIES,
            eval: OthelloEval::default(),
            isa: Isa::best(),
            parallel: Parallel::SEQUENTIAL,
            threads: Threads::Sequential,
        }
    }

    /// A solver searching with `parallel` threads and scheme (one table for all threads);
    /// fails if the system cannot start the threads.
    pub fn with_parallel(tt_mib: usize, parallel: Parallel) -> Result<Self, String> {
        let split = match parallel.kind {
            ParallelKind::Ybwc => Split::AnyNode,
            ParallelKind::PvSplit => Split::PvNodes,
            ParallelKind::LazySmp => Split::Never,
        };
        let threads = match (parallel.threads, split) {
            (1, _) => Threads::Sequential,
            (n, Split::Never) => Threads::LazySmp(n),
            (n, split) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .thread_name(|i| format!("prune-endgame-{i}"))
                    .build()
                    .map_err(|e| format!("could not start {n} solver threads: {e}"))?;
                Threads::Split(pool, split)
            }
        };
        Ok(EndgameSolver {
            tt: EndgameTable::new(tt_mib.max(1)),
            pass_empties: ORDERING_PASS_EMPTIES,
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

    /// The evaluation that the move-ordering pass uses at its horizon (by default the trained
    /// patterns). The scores do not depend on it, only the work.
    pub fn set_eval(&mut self, eval: OthelloEval) {
        self.eval = eval;
    }

    /// Compiles the node functions for `isa` from now on (by default [`Isa::best`]); fails,
    /// changing nothing, if this CPU lacks it. The scores and node counts do not depend on it,
    /// only the speed.
    pub fn set_isa(&mut self, isa: Isa) -> Result<(), String> {
        if !isa.is_available() {
            return Err(format!("this CPU cannot run the {isa} instruction set"));
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
        let outside = Abort {
            flag: stop,
            parent: None,
        };
        let (p, o) = (board.player(), board.opponent());
        let (alpha, beta) = (alpha.clamp(-65, 64), beta.clamp(-64, 65));
        let split = match &self.threads {
            Threads::Split(_, split) => *split,
            Threads::Sequential | Threads::LazySmp(_) => Split::Never,
        };
        let mut counters = Counters::default();
        let mut best_move = None;
        let outside = &outside;
        let empties = board.empty_count();
        let mut final_value = 0;
        for horizon in ordering_pass(empties, self.pass_empties)
            .into_iter()
            .chain([0])
        {
            let shared = Shared {
                tt: &self.tt,
                split,
                horizon,
                eval: &self.eval,
            };
            let (alpha, beta) = if horizon == 0 {
                (alpha, beta)
            } else {
                (-64, 64)
            };
            let mut root = |c: &mut Counters| {
                k.pvs(
                    &shared,
                    c,
                    Some(outside),
                    p,
                    o,
                    alpha,
                    beta,
                    true,
                    Root::Main(&mut best_move),
                )
            };
            let score = match &self.threads {
                Threads::Sequential => root(&mut counters),
                Threads::Split(pool, _) => pool.install(|| root(&mut counters)),
                Threads::LazySmp(n) => {
                    shared.lazy_smp(k, &mut counters, *n, (p, o), (alpha, beta), outside, root)
                }
            };
            if horizon == 0 {
                final_value = score;
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

/// What a node is to the root.
enum Root<'a> {
    /// Not the root.
    No,
    /// The root: the best move is written back here.
    Main(&'a mut Option<Move>),
    /// The root of a Lazy SMP helper: its moves are searched rotated by this much.
    Helper(usize),
}

impl Root<'_> {
    fn is_root(&self) -> bool {
        !matches!(self, Root::No)
    }
}

impl Shared<'_> {
    /// Lazy SMP: `threads - 1` helpers search the root with their root moves rotated, sharing
    /// the table with the main search (`main`), and stop when it is done.
    #[allow(clippy::too_many_arguments)]
    fn lazy_smp<K: Kernel>(
        &self,
        k: K,
        counters: &mut Counters,
        threads: usize,
        (p, o): (u64, u64),
        (alpha, beta): (i32, i32),
        outside: &Abort<'_>,
        main: impl FnOnce(&mut Counters) -> i32,
    ) -> i32 {
        let done = AtomicBool::new(false);
        let stop = Abort {
            flag: &done,
            parent: Some(outside),
        };
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let stop = &stop;
                    scope.spawn(move || {
                        let mut c = Counters::default();
                        k.pvs(
                            self,
                            &mut c,
                            Some(stop),
                            p,
                            o,
                            alpha,
                            beta,
                            true,
                            Root::Helper(i),
                        );
                        c
                    })
                })
                .collect();
            let score = main(counters);
            done.store(true, Relaxed);
            for helper in helpers {
                *counters += helper.join().expect("a Lazy SMP helper panicked");
            }
            score
        })
    }

    /// Principal variation search of the position `(p, o)` (side to move owns `p`); a null
    /// window everywhere off the principal variation. At the root the table cannot end the
    /// search and the best move is written back. Under a set stop flag the value is meaningless
    /// and nothing is stored.
    ///
    /// Reached through [`Kernel::pvs`], which compiles it for the kernel `k`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn node<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        abort: Option<&Abort<'_>>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        root: Root<'_>,
    ) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if self.horizon > 0 && empties <= self.horizon && !root.is_root() {
            c.nodes += 1;
            c.leaves += 1;
            // The evaluation is in hundredths of a disc; the windows are in discs.
            let e = self.eval.evaluate_board(&Board::from_disjoint_bits(p, o));
            return (e / 100).clamp(-64, 64);
        }
        if empties < ORDERED_EMPTIES && !root.is_root() {
            return k.shallow(c, p, o, alpha, beta, empties, parity(!(p | o)));
        }
        if stopped(abort) {
            return 0;
        }
        if !root.is_root() {
            if let Some(v) = stability_cutoff(c, p, o, alpha) {
                return v;
            }
        }
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                c.nodes += 1;
                c.leaves += 1;
                return final_score(p, o);
            }
            // A pass is not a node of its own: the opponent's position counts itself.
            let root = match root {
                Root::Main(best) => {
                    *best = Some(Move::PASS);
                    Root::No
                }
                _ => Root::No,
            };
            return -k.pvs(self, c, abort, o, p, -beta, -alpha, pv_node, root);
        }
        c.nodes += 1;
        c.interior += 1;
        let mut a = alpha;
        c.tt_probes += 1;
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(p, o) {
            c.tt_hits += 1;
            if !root.is_root() && (e.lower >= beta || e.upper <= alpha || e.lower == e.upper) {
                c.tt_cutoffs += 1;
                return if e.lower >= beta { e.lower } else { e.upper };
            }
            if !root.is_root() {
                a = a.max(e.lower);
            }
            tt_move = e.best;
        }
        let mut list = MoveList::new(k, p, o, moves, tt_move);
        if empties >= EVAL_ORDER_EMPTIES {
            self.order_by_eval(p, o, &mut list);
        }
        if !root.is_root() && empties >= ETC_EMPTIES {
            if let Some(v) = self.etc(k, c, p, o, &list, beta) {
                return v;
            }
        }
        if let Root::Helper(k) = root {
            list.rotate(k);
        }
        let mut best = -65;
        let mut best_sq = None;
        let mut i = 0;
        let may_split = match self.split {
            Split::Never => false,
            Split::PvNodes => pv_node,
            Split::AnyNode => true,
        } && empties >= SPLIT_EMPTIES;
        while let Some((sq, flips)) = list.next_best() {
            if i >= ELDERS && may_split && list.len > 0 {
                let found = self.split(
                    k,
                    c,
                    abort,
                    (p, o),
                    (sq, flips),
                    &mut list,
                    a,
                    beta,
                    pv_node,
                );
                if stopped(abort) {
                    return 0;
                }
                if let Some((v, sq, index)) = found {
                    if v > best {
                        best = v;
                        best_sq = Some(sq);
                    }
                    if v >= beta {
                        c.count_cutoff(index);
                    }
                }
                break;
            }
            let v = self.child(k, c, abort, p, o, sq, flips, i == 0, a, beta, pv_node);
            if stopped(abort) {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = Some(sq);
                a = a.max(v);
            }
            if v >= beta {
                c.count_cutoff(i);
                break;
            }
            i += 1;
        }
        let (lower, upper) = if self.horizon > 0 {
            (-64, 64)
        } else {
            (
                if best > alpha { best } else { -64 },
                if best < beta { best } else { 64 },
            )
        };
        self.tt.store(p, o, empties, lower, upper, best_sq);
        let best_move = best_sq
            .and_then(|s| Square::new(s as u8))
            .map(Move::from_square);
        if let Root::Main(out) = root {
            *out = best_move;
        }
        best
    }

    /// Adds the evaluation of each move's position (the opponent's view: lower first) to its
    /// ordering key, [`EVAL_ORDER_WEIGHT`] per disc. The table's move and wipe-outs stay first.
    fn order_by_eval(&self, p: u64, o: u64, list: &mut MoveList) {
        for (sq, flips, key) in &mut list.moves[..list.len] {
            if *key > i32::MIN + 1 {
                let child = Board::from_disjoint_bits(o & !*flips, p | *flips | (1u64 << *sq));
                // The evaluation is in hundredths of a disc.
                *key += self.eval.evaluate_board(&child) * EVAL_ORDER_WEIGHT / 100;
            }
        }
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound (its own view) proves
    /// this node reaches `beta` ends the search of this node before any child is searched.
    #[inline(always)]
    fn etc<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        p: u64,
        o: u64,
        list: &MoveList,
        beta: i32,
    ) -> Option<i32> {
        let moves = &list.moves[..list.len];
        let child = |&(sq, flips, _): &(u32, u64, i32)| (o & !flips, p | flips | (1u64 << sq));
        // Each child's bucket is found once; where the kernel prefetches, every child's entry
        // is loaded at once, not one miss after another.
        let mut buckets = [0usize; 32];
        for (bucket, m) in buckets.iter_mut().zip(moves) {
            let (np, no) = child(m);
            *bucket = self.tt.bucket_index(np, no);
            if K::PREFETCHES {
                k.prefetch(self.tt.address(*bucket));
            }
        }
        for (&bucket, m) in buckets.iter().zip(moves) {
            let (np, no) = child(m);
            c.tt_probes += 1;
            if let Some(e) = self.tt.probe_at(bucket, np, no) {
                if -e.upper >= beta {
                    c.tt_hits += 1;
                    c.tt_cutoffs += 1;
                    return Some(-e.upper);
                }
            }
        }
        None
    }

    /// The value of the move `sq` (flipping `flips`) from `(p, o)`: the first move of a PV
    /// node with the whole window, the others with a null window at `a` (re-searched at a PV
    /// node when they land inside the window).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn child<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        abort: Option<&Abort<'_>>,
        p: u64,
        o: u64,
        sq: u32,
        flips: u64,
        first: bool,
        a: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        let (np, no) = (o & !flips, p | flips | (1u64 << sq));
        if first || !pv_node {
            return -k.pvs(self, c, abort, np, no, -beta, -a, pv_node, Root::No);
        }
        let v = -k.pvs(self, c, abort, np, no, -a - 1, -a, false, Root::No);
        if v > a && v < beta && !stopped(abort) {
            c.re_searches += 1;
            return -k.pvs(self, c, abort, np, no, -beta, -v, true, Root::No);
        }
        v
    }

    /// Young brothers: the moves left after the eldest (`next` and the rest of `list`) are
    /// searched by the pool's threads at once, each with the best alpha known when it starts;
    /// a cutoff stops the others. Returns the best value found with its move and its index
    /// among the brothers (`None` if every brother was stopped).
    #[allow(clippy::too_many_arguments)]
    fn split<K: Kernel>(
        &self,
        k: K,
        c: &mut Counters,
        abort: Option<&Abort<'_>>,
        (p, o): (u64, u64),
        next: (u32, u64),
        list: &mut MoveList,
        a: i32,
        beta: i32,
        pv_node: bool,
    ) -> Option<Brother> {
        c.splits += 1;
        let mut brothers = vec![next];
        while let Some(m) = list.next_best() {
            brothers.push(m);
        }
        let cut = AtomicBool::new(false);
        let here = Abort {
            flag: &cut,
            parent: abort,
        };
        let alpha = AtomicI32::new(a);
        // Each result says whether its value is more than a bound: a value at or below the
        // alpha it was searched with only says the move is no better, so on a tie it must not
        // displace a brother whose value was proven.
        let results: Vec<(Option<(Brother, bool)>, Counters)> = brothers
            .par_iter()
            .enumerate()
            .map(|(index, &(sq, flips))| {
                let mut mine = Counters::default();
                let a = alpha.load(Relaxed);
                if a >= beta || stopped(Some(&here)) {
                    return (None, mine);
                }
                let v = self.child(
                    k,
                    &mut mine,
                    Some(&here),
                    p,
                    o,
                    sq,
                    flips,
                    false,
                    a,
                    beta,
                    pv_node,
                );
                if stopped(Some(&here)) {
                    return (None, mine);
                }
                if v > a {
                    alpha.fetch_max(v, Relaxed);
                }
                if v >= beta {
                    cut.store(true, Relaxed);
                }
                (Some(((v, sq, index + 1), v > a)), mine)
            })
            .collect();
        let mut best: Option<(Brother, bool)> = None;
        for (result, counters) in results {
            *c += counters;
            if let Some((r, proven)) = result {
                if best.is_none_or(|(b, b_proven)| r.0 > b.0 || (r.0 == b.0 && proven && !b_proven))
                {
                    best = Some((r, proven));
                }
            }
        }
        best.map(|(b, _)| b)
    }
}

/// A node splits only after this many of its moves were searched one by one. A null-window
/// node whose first moves did not cut off is most likely one where none will (every move must
/// be searched), and there sharing out the rest costs nothing; at a PV node the first moves
/// set the window the rest are searched with. With 1 (textbook YBWC) the nodes where the
/// second or third move cuts off waste the work given to other threads, and at PV nodes
/// several brothers may each fail high and be re-searched: on FFO #40-#44 with 2 threads, 1
/// searched 35% more nodes than one thread, 3 searched 11% more (1.72 times as fast).
const ELDERS: usize = 3;

/// A brother's value with its square and its index among the brothers (1 = the first after
/// the eldest).
type Brother = (i32, u32, usize);

/// The exact score of a position with few empty squares (at most [`ORDERED_EMPTIES`] - 1 is
/// what the solver uses it for; any count works) by the solver's leaf search, without table or
/// threads: clamped to `(alpha, beta)` as a fail-soft bound outside it. Returns the score and
/// the number of nodes searched. Exposed for benchmarks and tests of the leaf search; it runs
/// with [`Isa::best`].
pub fn solve_small(board: &Board, alpha: i32, beta: i32) -> (i32, u64) {
    solve_small_with(Isa::best(), board, alpha, beta)
}

/// [`solve_small`] with the instruction set `isa` (the portable one if this CPU lacks it).
pub fn solve_small_with(isa: Isa, board: &Board, alpha: i32, beta: i32) -> (i32, u64) {
    let mut c = Counters::default();
    let (p, o) = (board.player(), board.opponent());
    let empties = board.empty_count();
    let parity = parity(!(p | o));
    let v = with_kernel!(isa, k => k.shallow(&mut c, p, o, alpha, beta, empties, parity));
    (v, c.nodes)
}

/// The quadrant of each square as a bit (1, 2, 4, 8): a move toggles its quadrant's parity.
const QUADRANT: [u32; 64] = {
    let mut table = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        table[sq] = 1 << ((file / 4) + 2 * (rank / 4));
        sq += 1;
    }
    table
};

/// For each set of odd quadrants (a 4-bit parity), the union of those quadrants.
const ODD_REGIONS: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut q = 0;
        while q < 4 {
            if set >> q & 1 == 1 {
                table[set] |= QUADRANTS[q];
            }
            q += 1;
        }
        set += 1;
    }
    table
};

/// The parity of `empty` as 4 bits: bit `q` set when quadrant `q` holds an odd number of
/// empty squares.
#[inline(always)]
fn parity(empty: u64) -> u32 {
    (0..4).fold(0, |acc, q| {
        acc | ((empty & QUADRANTS[q]).count_ones() & 1) << q
    })
}

/// The squares next to each square: a move there needs one of the opponent's discs among them.
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = neighbours(1u64 << sq);
        sq += 1;
    }
    table
};

/// Alpha-beta without table or sorting, for the last few empties (fail-soft). No move list:
/// the empty squares are tried in parity order (odd regions first, corners first within a
/// region), each checked for flips directly.
///
/// Reached through [`Kernel::shallow`], which compiles it for the kernel `k`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shallow_node<K: Kernel>(
    k: K,
    c: &mut Counters,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    empties: u32,
    parity: u32,
) -> i32 {
    let empty = !(p | o);
    match empties {
        0 => {
            c.nodes += 1;
            c.leaves += 1;
            return final_score(p, o);
        }
        1 => {
            c.nodes += 1;
            c.leaves += 1;
            return last_one(p, o, empty);
        }
        2 => return last_two(k, c, p, o, alpha, beta, empty),
        _ => {}
    }
    if empties >= STABILITY_EMPTIES {
        if let Some(v) = stability_cutoff(c, p, o, alpha) {
            return v;
        }
    }
    let odd = ODD_REGIONS[parity as usize];
    let mut best = -65;
    let mut i = 0;
    for region in [odd, !odd] {
        for class in PRIORITY {
            let mut todo = empty & region & class;
            while todo != 0 {
                let sq = todo.trailing_zeros();
                todo &= todo - 1;
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let flips = k.flips(sq, p, o);
                if flips == 0 {
                    continue;
                }
                if i == 0 {
                    c.nodes += 1;
                    c.interior += 1;
                }
                let (np, no) = (o & !flips, p | flips | bit);
                let v = -k.shallow(
                    c,
                    np,
                    no,
                    -beta,
                    -alpha,
                    empties - 1,
                    parity ^ QUADRANT[sq as usize],
                );
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                    }
                }
                if v >= beta {
                    c.count_cutoff(i);
                    return best;
                }
                i += 1;
            }
        }
    }
    if i == 0 {
        if k.moves(o, p) == 0 {
            c.nodes += 1;
            c.leaves += 1;
            return final_score(p, o);
        }
        // A pass is not a node of its own: the opponent's position counts itself.
        return -k.shallow(c, o, p, -beta, -alpha, empties, parity);
    }
    best
}

/// Two empty squares (`empty`): each tried directly, then the opponent's if the side to move
/// has neither.
#[inline(always)]
fn last_two<K: Kernel>(
    k: K,
    c: &mut Counters,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    empty: u64,
) -> i32 {
    let x = empty & empty.wrapping_neg();
    let y = empty ^ x;
    /// The move on `bit` (then one empty left, `other`), if legal.
    #[inline(always)]
    fn try_move<K: Kernel>(
        k: K,
        c: &mut Counters,
        p: u64,
        o: u64,
        bit: u64,
        other: u64,
    ) -> Option<i32> {
        if NEIGHBOURS[bit.trailing_zeros() as usize] & o == 0 {
            return None;
        }
        let flips = k.flips(bit.trailing_zeros(), p, o);
        if flips == 0 {
            return None;
        }
        c.nodes += 1;
        c.leaves += 1;
        Some(-last_one(o & !flips, p | flips | bit, other))
    }
    let first = try_move(k, c, p, o, x, y);
    if let Some(v) = first {
        c.nodes += 1;
        c.interior += 1;
        if v >= beta {
            c.count_cutoff(0);
            return v;
        }
    }
    let second = try_move(k, c, p, o, y, x);
    match (first, second) {
        (Some(a), Some(b)) => {
            if b >= beta {
                c.count_cutoff(1);
            }
            a.max(b)
        }
        (Some(a), None) => a,
        (None, Some(b)) => {
            c.nodes += 1;
            c.interior += 1;
            if b >= beta {
                c.count_cutoff(0);
            }
            b
        }
        (None, None) => {
            if k.flips(x.trailing_zeros(), o, p) == 0 && k.flips(y.trailing_zeros(), o, p) == 0 {
                c.nodes += 1;
                c.leaves += 1;
                return final_score(p, o);
            }
            // A pass is not a node of its own: the opponent's position counts itself.
            -k.shallow(c, o, p, -beta, -alpha, 2, 0)
        }
    }
}

/// The stability cutoff: the opponent's stable discs are lost for good, so the score is at
/// most 64 less twice their number; when that is no better than `alpha` the node fails low
/// with that bound, unsearched.
#[inline(always)]
fn stability_cutoff(c: &mut Counters, p: u64, o: u64, alpha: i32) -> Option<i32> {
    // Even if every opponent disc were stable the bound would be above alpha: skip the work.
    if alpha < 64 - 2 * o.count_ones() as i32 {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    if bound <= alpha {
        c.nodes += 1;
        c.leaves += 1;
        return Some(bound);
    }
    None
}

/// The exact score with one empty square `empty` (a single bit) left.
#[inline(always)]
fn last_one(p: u64, o: u64, empty: u64) -> i32 {
    // After a move on the last square the board is full: the score is twice the mover's
    // discs less 64, and the mover's discs are its own, the new one and the flipped ones
    // (counted from the mover's discs alone, as every other square is taken).
    let sq = empty.trailing_zeros();
    let flips = count_last_flip(sq, p) as i32;
    let mine = p.count_ones() as i32;
    if flips != 0 {
        return 2 * (mine + flips + 1) - 64;
    }
    let flips = count_last_flip(sq, o) as i32;
    if flips != 0 {
        // The opponent (with 63 - mine discs now) plays it.
        return 64 - 2 * (63 - mine + flips + 1);
    }
    final_score(p, o)
}

/// The moves of a node with their flips and ordering keys, handed out best first.
struct MoveList {
    moves: [(u32, u64, i32); 32],
    len: usize,
}

impl MoveList {
    /// Fastest-first: the key (smaller first) is mostly the opponent's number of replies,
    /// corners counted twice; then the opponent's potential mobility (empty squares next to
    /// the mover's discs); less a bonus for taking a corner and, below [`PARITY_EMPTIES`],
    /// for playing in a region with an odd number of empties. A move that wipes out the
    /// opponent comes first, and before it the table's move.
    #[inline(always)]
    fn new<K: Kernel>(k: K, p: u64, o: u64, mut moves: u64, tt_move: Option<u32>) -> Self {
        let mut list = MoveList {
            moves: [(0, 0, 0); 32],
            len: 0,
        };
        let empty = !(p | o);
        let risky = squares_beside_empty_corners(empty);
        let odd = if empty.count_ones() < PARITY_EMPTIES {
            odd_regions(empty)
        } else {
            0
        };
        while moves != 0 && list.len < 32 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let bit = 1u64 << sq;
            let flips = k.flips(sq, p, o);
            let key = if Some(sq) == tt_move {
                i32::MIN
            } else {
                let (np, no) = (o & !flips, p | flips | bit);
                if np == 0 {
                    i32::MIN + 1
                } else {
                    let replies = k.moves(np, no);
                    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                    let potential = (neighbours(no) & empty & !bit).count_ones() as i32;
                    let corner = if bit & CORNERS != 0 { CORNER_BONUS } else { 0 };
                    let parity = if bit & odd != 0 { PARITY_BONUS } else { 0 };
                    let x = if bit & risky & X_SQUARES != 0 {
                        X_PENALTY
                    } else {
                        0
                    };
                    let c = if bit & risky & !X_SQUARES != 0 {
                        C_PENALTY
                    } else {
                        0
                    };
                    mobility * MOBILITY_WEIGHT + potential * POTENTIAL_WEIGHT - corner - parity
                        + x
                        + c
                }
            };
            list.moves[list.len] = (sq, flips, key);
            list.len += 1;
        }
        list
    }

    /// Lazy SMP helpers: gives the `k % len`-th best move (by key) the first place, so that
    /// helpers start on different root moves.
    fn rotate(&mut self, k: usize) {
        if self.len > 1 {
            let mut order: Vec<usize> = (0..self.len).collect();
            order.sort_by_key(|&i| self.moves[i].2);
            let chosen = order[k % self.len];
            self.moves[chosen].2 = i32::MIN;
        }
    }

    /// The remaining move with the smallest key (selection: most nodes cut off after the first
    /// one or two moves, so a full sort would be wasted).
    fn next_best(&mut self) -> Option<(u32, u64)> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].2 < self.moves[best].2 {
                best = i;
            }
        }
        let m = self.moves[best];
        self.len -= 1;
        self.moves[best] = self.moves[self.len];
        Some((m.0, m.1))
    }
}

trait CountCutoff {
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

/// Before an exact solve of at least `min_empties` empties ([`ORDERING_PASS_EMPTIES`] by
/// default), one move-ordering pass searches [`ORDERING_PASS_DEPTH`] plies deep with the
/// solver's evaluation at its horizon; the best moves it leaves in the table order the exact
/// search's upper nodes. Returns the pass's horizon (in empties), if there is a pass.
fn ordering_pass(empties: u32, min_empties: u32) -> Option<u32> {
    let horizon = empties.saturating_sub(ORDERING_PASS_DEPTH);
    (empties >= min_empties && horizon > 0).then_some(horizon)
}
