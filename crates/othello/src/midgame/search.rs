//! The node loop of the midgame search: NegaScout (null windows off the principal variation)
//! with the transposition table, fastest-first and evaluation ordering, and the last ply
//! evaluated in the parent's loop.
//!
//! Values are [`Score`] raw values (hundredths of a disc for evaluations, the decisive band for
//! finished games), so that a fixed-depth search returns exactly the generic search's value.
//! A pass is a ply, as in the generic search.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use prune_search::{Counters, Score, TranspositionTable};

use super::leaf::Leaf;
use super::probcut::{self, ProbCutParams};
use crate::bitboard::CORNERS;
use crate::endgame::CountCutoff;
use crate::kernel::{Kernel, ListedMove};
use crate::{Board, Move, Square};

/// From this depth up, nodes use the transposition table (below, a probe costs more than it
/// saves).
pub(super) const TABLE_DEPTH: u32 = 3;

/// Nodes of depth 2 keep their entries in a small table of this many bytes, one per thread,
/// that stays in the caches: in the large table their probes missed the caches for more than
/// they saved; in this one they save 4.5% of the nodes of FFO #40-#59 at depth 10, and time.
pub(super) const NEAR_TABLE_BYTES: usize = 64 << 10;

/// The depth of the nodes that use the near table.
const NEAR_DEPTH: u32 = 2;

/// From this depth up, a node first looks up its children in the table: a child's stored
/// upper bound (of the same depth) may already refute the node (the enhanced transposition
/// cutoff).
pub(super) const ETC_DEPTH: u32 = 4;

/// From this depth up, moves are ordered by the evaluation of the position after them (below,
/// by fastest-first alone).
pub(super) const EVAL_ORDER_DEPTH: u32 = 4;

/// The weight of one legal reply of the opponent (a corner counts twice) in the ordering key,
/// in hundredths of a disc of the evaluation.
pub(super) const MOBILITY_WEIGHT: i32 = 400;

/// The most legal moves a position can have (one per empty square, and at least two discs).
pub(super) const MAX_MOVES: usize = 62;

/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 4096;

/// When the search must stop.
pub(super) struct Stop<'a> {
    /// The deadline, if any.
    pub(super) deadline: Option<Instant>,
    /// The node budget, if any.
    pub(super) nodes: Option<u64>,
    /// Set by other threads to stop the search (the caller's flag; for a helper thread, the
    /// main thread's when it finishes).
    pub(super) flags: [Option<&'a AtomicBool>; 2],
    /// The node count at which to look again.
    pub(super) next_check: u64,
    /// Whether a limit was reached: every value computed since is meaningless.
    pub(super) stopped: bool,
}

impl Stop<'_> {
    /// Looks at the limits (the clock only every [`CLOCK_INTERVAL`] nodes).
    #[inline(always)]
    fn check(&mut self, nodes: u64) -> bool {
        if nodes >= self.next_check && !self.stopped {
            // The clock every CLOCK_INTERVAL nodes; a node budget exactly.
            self.next_check = (nodes + CLOCK_INTERVAL).min(self.nodes.unwrap_or(u64::MAX));
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let spent = self.nodes.is_some_and(|n| nodes >= n);
            let told = self.flags.iter().flatten().any(|f| f.load(Relaxed));
            self.stopped = late || spent || told;
        }
        self.stopped
    }
}

/// The state of one search: the table, the evaluation, the counters and the limits.
pub(crate) struct Mid<'a, L: Leaf> {
    /// The transposition table, for the nodes from [`TABLE_DEPTH`] up.
    pub(super) tt: &'a TranspositionTable<Move>,
    /// The thread's near table, for the nodes of [`NEAR_DEPTH`].
    pub(super) near: &'a TranspositionTable<Move>,
    pub(super) leaf: &'a L,
    pub(crate) c: Counters,
    /// Leaves evaluated at the horizon (not finished games).
    pub(super) horizon_leaves: u64,
    pub(super) stop: Stop<'a>,
    /// ProbCut's parameters and margin (in deviations), if the search is selective.
    pub(super) probcut: Option<(&'a ProbCutParams, f64)>,
}

/// A move of a node's list: the kernel's [`ListedMove`], its key sorting larger first, a pass
/// at a square of 64 or more.
pub(super) type Child = ListedMove;

/// The position after `child` from `(p, o)`, from the opponent's view (a pass included).
#[inline(always)]
pub(super) fn play(child: Child, p: u64, o: u64) -> (u64, u64) {
    if child.square >= 64 {
        return (o, p);
    }
    child.placement().after(p, o)
}

/// The table's key of `(p, o)` (side to move owns `p`). The table keeps only this key, so it
/// must be a full mix of both boards: [`Board::hash`]'s. (The endgame solver's cheaper
/// `bitboard_hash` only picks a bucket of a table that checks the whole position; as a key it
/// collides by construction: a mover's disc on bit 62 and an opponent's on bit 39 give the same
/// key, which changed a depth-12 value in a test of 669 positions.)
#[inline(always)]
pub(super) fn table_key(p: u64, o: u64) -> u64 {
    Board::from_disjoint_bits(p, o).hash()
}

/// The value of a finished game for the side to move of `(p, o)`.
#[inline(always)]
fn exact(p: u64, o: u64) -> i32 {
    Score::exact(Board::from_disjoint_bits(p, o).final_score()).raw()
}

impl<'a, L: Leaf> Mid<'a, L> {
    /// A search with the tables `tt` and `near` and the evaluation `leaf`, without limits or
    /// ProbCut: the endgame solver's ProbCut tests.
    pub(crate) fn unlimited(
        tt: &'a TranspositionTable<Move>,
        near: &'a TranspositionTable<Move>,
        leaf: &'a L,
    ) -> Self {
        Mid {
            tt,
            near,
            leaf,
            c: Counters::default(),
            horizon_leaves: 0,
            stop: Stop {
                deadline: None,
                nodes: None,
                flags: [None, None],
                // Never: there is nothing to look at.
                next_check: u64::MAX,
                stopped: false,
            },
            probcut: None,
        }
    }

    /// Whether `(p, o)` (side to move owns `p`, whose evaluation state is `s`) is worth at
    /// least `threshold` (a raw value) searched `depth` plies: a null-window search.
    #[inline(always)]
    pub(crate) fn null_window<K: Kernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        s: &L::State,
        depth: u32,
        threshold: i32,
    ) -> bool {
        self.value(k, p, o, s, true, depth, threshold - 1, threshold, false) >= threshold
    }
}

impl<L: Leaf> Mid<'_, L> {
    /// The value of `(p, o)` (side to move owns `p`; `us` tells whether it is the side the
    /// evaluation state counts as its own) searched `depth` plies.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn value<K: Kernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        s: &L::State,
        us: bool,
        depth: u32,
        alpha: i32,
        beta: i32,
        pv: bool,
    ) -> i32 {
        if depth == 0 {
            self.leaf_value(k, p, o, s, us)
        } else {
            k.mid(self, p, o, s, us, depth, alpha, beta, pv)
        }
    }

    /// The value of a leaf: the game's result if it is over, otherwise the evaluation.
    #[inline(always)]
    fn leaf_value<K: Kernel>(&mut self, k: K, p: u64, o: u64, s: &L::State, us: bool) -> i32 {
        self.c.nodes += 1;
        self.c.leaves += 1;
        if k.moves(p, o) == 0 && k.moves(o, p) == 0 {
            return exact(p, o);
        }
        self.horizon_leaves += 1;
        let empties = 64 - (p | o).count_ones();
        self.leaf.value(s, p, o, empties, us)
    }

    /// The moves of `(p, o)` (`moves`, not empty) with their ordering keys; the table's move
    /// `first` gets the largest. Returns the number of moves.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn children<K: Kernel>(
        &self,
        k: K,
        p: u64,
        o: u64,
        s: &L::State,
        us: bool,
        moves: u64,
        depth: u32,
        first: Option<u32>,
        list: &mut [Child; MAX_MOVES],
    ) -> usize {
        let mut n = 0;
        let mut todo = moves;
        let empties = 63 - (p | o).count_ones();
        while todo != 0 {
            let square = todo.trailing_zeros();
            todo &= todo - 1;
            let flips = k.flips(square, p, o);
            let mut child = Child {
                square,
                key: i32::MAX,
                flips,
            };
            if first != Some(square) {
                let (np, no) = play(child, p, o);
                // Fastest first: the opponent's replies, corners counted twice.
                let replies = k.moves(np, no);
                let replies = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                child.key = -MOBILITY_WEIGHT * replies;
                if depth >= EVAL_ORDER_DEPTH {
                    let state = self.leaf.play(s, square, flips, us);
                    child.key -= self.leaf.value(&state, np, no, empties, !us);
                }
            }
            list[n] = child;
            n += 1;
        }
        n
    }

    /// A node of `depth` >= 1 plies (see [`Mid::value`]). Reached through [`Kernel::mid`],
    /// which compiles it for the kernel `k`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn node<K: Kernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        s: &L::State,
        us: bool,
        depth: u32,
        alpha: i32,
        beta: i32,
        pv: bool,
    ) -> i32 {
        self.c.nodes += 1;
        if self.stop.check(self.c.nodes) {
            return 0;
        }
        let moves = k.moves(p, o);
        if moves == 0 {
            if k.moves(o, p) == 0 {
                self.c.leaves += 1;
                return exact(p, o);
            }
            self.c.interior += 1;
            return -self.value(k, o, p, s, !us, depth - 1, -beta, -alpha, pv);
        }
        self.c.interior += 1;
        if depth == 1 {
            return self.last_ply(k, p, o, s, us, moves, beta);
        }
        let mut table_move = None;
        let key = table_key(p, o);
        let use_near = depth == NEAR_DEPTH;
        let table = if use_near { self.near } else { self.tt };
        if depth >= TABLE_DEPTH || use_near {
            self.c.tt_probes += 1;
            if let Some(e) = table.probe(key) {
                self.c.tt_hits += 1;
                if e.depth == depth {
                    let (lower, upper) = (e.lower.raw(), e.upper.raw());
                    if lower >= beta || upper <= alpha || lower == upper {
                        self.c.tt_cutoffs += 1;
                        return if lower >= beta { lower } else { upper };
                    }
                }
                table_move = e.best_move.and_then(Move::square).map(|s| s.index() as u32);
            }
        }
        if !pv && depth >= probcut::MIN_DEPTH {
            if let Some(v) = self.probcut(k, p, o, s, us, depth, alpha, beta) {
                return v;
            }
        }
        let mut list = [Child::default(); MAX_MOVES];
        let n = self.children(k, p, o, s, us, moves, depth, table_move, &mut list);
        if depth >= ETC_DEPTH {
            for m in &list[..n] {
                let (np, no) = play(*m, p, o);
                self.c.tt_probes += 1;
                if let Some(e) = self.tt.probe(table_key(np, no)) {
                    if e.depth == depth - 1 && -e.upper.raw() >= beta {
                        self.c.tt_hits += 1;
                        self.c.tt_cutoffs += 1;
                        return -e.upper.raw();
                    }
                }
            }
        }
        let mut best = -Score::INFINITY.raw();
        let mut best_square = None;
        let mut a = alpha;
        for i in 0..n {
            // Selection sort: the cutoff usually comes early.
            let mut top = i;
            for j in i + 1..n {
                if list[j].key > list[top].key {
                    top = j;
                }
            }
            list.swap(i, top);
            let m = list[i];
            let (np, no) = play(m, p, o);
            let ns = self.leaf.play(s, m.square, m.flips, us);
            let v = if i == 0 {
                -self.value(k, np, no, &ns, !us, depth - 1, -beta, -a, pv)
            } else {
                let v = -self.value(k, np, no, &ns, !us, depth - 1, -a - 1, -a, false);
                if pv && v > a && v < beta && !self.stop.stopped {
                    self.c.re_searches += 1;
                    -self.value(k, np, no, &ns, !us, depth - 1, -beta, -v, true)
                } else {
                    v
                }
            };
            if self.stop.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_square = Some(m.square);
                if v > a {
                    a = v;
                }
                if v >= beta {
                    self.c.count_cutoff(i);
                    break;
                }
            }
        }
        if depth >= TABLE_DEPTH || use_near {
            let lower = if best > alpha {
                best
            } else {
                -Score::INFINITY.raw()
            };
            let upper = if best < beta {
                best
            } else {
                Score::INFINITY.raw()
            };
            let mv = best_square
                .and_then(|s| Square::new(s as u8))
                .map(Move::from_square);
            table.store(
                key,
                depth,
                Score::from_raw(lower),
                Score::from_raw(upper),
                mv,
            );
        }
        best
    }

    /// Multi-ProbCut at a null-window node of `depth` plies (see [`probcut`]): the bound the
    /// shallow searches predict with the search's confidence, if they predict one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probcut<K: Kernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        s: &L::State,
        us: bool,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (params, t) = self.probcut?;
        // Only heuristic bounds: a proven result is never predicted.
        if alpha.abs() >= Score::DECISIVE_RAW || beta.abs() >= Score::DECISIVE_RAW {
            return None;
        }
        let empties = 64 - (p | o).count_ones();
        let fit = params.get(empties, depth)?;
        let shallow = probcut::shallow_depth(depth);
        let margin = t * fit.sigma;
        // Fails high if a·v + b - margin >= beta, that is v >= (beta - b + margin) / a.
        let high = ((f64::from(beta) - fit.b + margin) / fit.a).ceil() as i32;
        if high < Score::DECISIVE_RAW {
            let v = self.value(k, p, o, s, us, shallow, high - 1, high, false);
            if v >= high && !self.stop.stopped {
                self.c.forward_cuts += 1;
                return Some(beta);
            }
        }
        let low = ((f64::from(alpha) - fit.b - margin) / fit.a).floor() as i32;
        if low > -Score::DECISIVE_RAW {
            let v = self.value(k, p, o, s, us, shallow, low, low + 1, false);
            if v <= low && !self.stop.stopped {
                self.c.forward_cuts += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// A node one ply above the horizon: each move's position is evaluated in this loop (no
    /// ordering, no table), stopping at the first that reaches `beta`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn last_ply<K: Kernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        s: &L::State,
        us: bool,
        moves: u64,
        beta: i32,
    ) -> i32 {
        let mut best = -Score::INFINITY.raw();
        let mut todo = moves;
        let mut i = 0;
        while todo != 0 {
            let square = todo.trailing_zeros();
            todo &= todo - 1;
            let flips = k.flips(square, p, o);
            let ns = self.leaf.play(s, square, flips, us);
            let v = -self.leaf_value(k, o & !flips, p | flips | 1u64 << square, &ns, !us);
            if v > best {
                best = v;
                if v >= beta {
                    self.c.count_cutoff(i);
                    break;
                }
            }
            i += 1;
        }
        best
    }
}
