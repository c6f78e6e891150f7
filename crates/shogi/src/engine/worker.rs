//! One search thread: [`Worker`] runs iterative deepening over [`Shared`] state (the options,
//! the limits, the transposition table, the flags that stop it) and keeps its own killer moves
//! and history ([`Heuristics`]). The main worker decides the result; with `Threads` above one,
//! helper workers search the same root at the same time and meet it only in the table (Lazy
//! SMP: no split points, no messages).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use prune_search::{Score, TranspositionTable};

use super::{
    EngineOptions, Iteration, Limits, SearchResult, Stage, StageCounts, INFINITE, MATE, MATE_BOUND,
    MAX_DEPTH, MAX_PLY, QUIESCENCE_PLIES,
};
use crate::eval::value;
use crate::position::{Move, Position, Square};
use crate::record::{repetition, Repetition};

mod eval_cache;
mod ordering;

pub(super) use ordering::Heuristics;
use ordering::{cont_index, good_capture, mvv_lva, target, Picker};

/// What every thread of one search shares.
pub(super) struct Shared<'a> {
    pub(super) options: &'a EngineOptions,
    pub(super) table: Option<&'a TranspositionTable<Move>>,
    pub(super) limits: Limits,
    pub(super) started: Instant,
    /// The caller's stop flag ([`super::Engine::stop_flag`]).
    pub(super) stop: &'a AtomicBool,
    /// Raised when the main thread has its result: the helpers stop.
    pub(super) done: AtomicBool,
    /// Nodes of every thread, as each last reported them (every 1,024 of its own).
    pub(super) nodes: AtomicU64,
}

/// One thread's search.
pub(super) struct Worker<'a> {
    /// 0 for the main thread.
    id: usize,
    shared: &'a Shared<'a>,
    heur: &'a mut Heuristics,
    /// The game's positions (keys and check flags) from its start to the current node.
    path: Vec<(u64, bool)>,
    /// Where the repetition rule's view of the path starts (after the last null move).
    floor: usize,
    pub(super) nodes: u64,
    /// `nodes` when this thread last added them to [`Shared::nodes`].
    reported: u64,
    aborted: bool,
    stages: StageCounts,
    pv: Vec<Vec<Move>>,
    /// The continuation index ([`cont_index`]) of the move played at each ply of the current
    /// path (`None`: a null move).
    moved: Vec<Option<usize>>,
    /// The static evaluation at each ply of the current path ([`NO_EVAL`] in check or not
    /// computed): whether the side to move is improving on its position two plies before.
    evals: Vec<i32>,
    /// The root's best move so far in the iteration under way, its score and its line: each
    /// root move that beat alpha in a finished search (so an iteration cut short by the clock
    /// still counts where it found a better move).
    root_best: Option<(Move, i32, Vec<Move>)>,
    /// The move left out at each ply (the singular extension's search of the other moves).
    excluded: Vec<Option<Move>>,
    /// The target square of the move played at each ply of the current path (`None`: a null
    /// move): the quiescence search never prunes a recapture there.
    target: Vec<Option<Square>>,
    /// Each ply's move buffers, reused from node to node (no allocation per node): the
    /// picker, and the quiet moves searched (or the quiescence search's moves).
    buffers: Vec<(Picker, Vec<Move>)>,
}

/// Lazy SMP's depth schedule: helper `id` skips the depths where this is true, so that the
/// threads spread over neighbouring depths instead of all searching the same tree in step
/// (the pattern of cycles and phases Stockfish used).
fn skips(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if id == 0 {
        return false;
    }
    let i = (id - 1) % 20;
    (depth + PHASE[i]) / SIZE[i] % 2 == 1
}

/// A mate score as the table keeps it: its distance from the node rather than from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A score from the table, back as a distance from the root.
fn from_table(score: i32, ply: usize) -> i32 {
    if (MATE_BOUND..=MATE + MAX_PLY as i32).contains(&score) {
        score - ply as i32
    } else if (-(MATE + MAX_PLY as i32)..=-MATE_BOUND).contains(&score) {
        score + ply as i32
    } else {
        score
    }
}

/// Late-move reduction of the move at `index` (from 0) at a node `depth` plies deep, in
/// 1/1024 plies: `ln(depth) · ln(index) · 0.68` plies (0.5 reduced too little: the gap to
/// YaneuraOu grew with the search; docs/shogi.md).
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    let ln = &*LN;
    let at = |x: usize| ln[x.min(ln.len() - 1)];
    (at(depth.max(0) as usize) * at(index) * 700.0) as i32
}

/// `LN[x]`: the natural logarithm of `x`, for [`lmr_reduction`] (worked out once; a node asks
/// for it move after move). Past the last entry the last one stands in (no node has that many
/// moves, no search that depth).
static LN: std::sync::LazyLock<[f64; 1024]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|x| (x as f64).ln()));

/// The static evaluation a ply has when its side is in check (none is computed).
const NO_EVAL: i32 = -INFINITE - 1;

/// What the singular extension's search says of the table's move.
enum Singular {
    /// Searched a ply deeper: no other move comes near it.
    Extend,
    /// The node fails high with this score: other moves beat beta too.
    Cut(i32),
    /// Searched as usual.
    No,
}

impl<'a> Worker<'a> {
    /// Thread `id` (0: the main one) of a search whose path so far (the game before the root,
    /// and the root) is `path`.
    pub(super) fn new(
        id: usize,
        shared: &'a Shared<'a>,
        heur: &'a mut Heuristics,
        path: Vec<(u64, bool)>,
    ) -> Worker<'a> {
        Worker {
            id,
            shared,
            heur,
            path,
            floor: 0,
            nodes: 0,
            reported: 0,
            aborted: false,
            stages: StageCounts::default(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            moved: vec![None; MAX_PLY + 1],
            evals: vec![NO_EVAL; MAX_PLY + 1],
            root_best: None,
            excluded: vec![None; MAX_PLY + 1],
            target: vec![None; MAX_PLY + 1],
            buffers: (0..=MAX_PLY).map(|_| Default::default()).collect(),
        }
    }

    fn max_depth(&self) -> u32 {
        self.shared
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH)
    }

    /// The main thread's iterative deepening: fills `result` (which holds a legal move
    /// already) from each finished iteration and reports it.
    pub(super) fn main_search(
        &mut self,
        root: &Position,
        mut result: SearchResult,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        for depth in 1..=self.max_depth() {
            self.root_best = None;
            let score = self.aspiration(root, depth, result.score);
            if self.aborted {
                // Cut short: a root move that beat the previous best in a finished search of
                // this depth is better informed than the last iteration's choice.
                if let Some((best, score, pv)) = self.root_best.take() {
                    if depth > 1 && Some(best) != result.best {
                        result.best = Some(best);
                        result.score = score;
                        result.pv = pv;
                    }
                }
                break;
            }
            result.score = score;
            result.depth = depth;
            result.pv = self.pv[0].clone();
            if let Some(&best) = result.pv.first() {
                result.best = Some(best);
            }
            let iteration = Iteration {
                depth,
                score,
                nodes: self.total_nodes(),
                elapsed: self.shared.started.elapsed(),
                pv: result.pv.clone(),
            };
            report(&iteration);
            if score.abs() >= MATE_BOUND && depth as i32 >= MATE - score.abs() {
                break; // a mate found within the full width: deeper changes nothing
            }
            if self
                .shared
                .limits
                .soft_time
                .is_some_and(|t| self.shared.started.elapsed() >= t)
            {
                break;
            }
        }
        result.stages = self.stages;
        result
    }

    /// A helper thread's iterative deepening, on its own schedule of depths, until the main
    /// thread is done (or a limit is reached). Its results reach the main thread through the
    /// table only.
    pub(super) fn help(&mut self, root: &Position) {
        let mut previous = 0;
        for depth in 1..=self.max_depth() {
            if skips(self.id, depth) {
                continue;
            }
            let score = self.aspiration(root, depth, previous);
            if self.aborted || self.shared.done.load(Ordering::Relaxed) {
                break;
            }
            previous = score;
        }
    }

    /// Every thread's nodes, as far as this one knows.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.reported)
    }

    fn aspiration(&mut self, root: &Position, depth: u32, previous: i32) -> i32 {
        let width = self.shared.options.aspiration;
        if width <= 0 || depth < 4 || previous.abs() >= MATE_BOUND {
            return self.node(root, depth as i32, -INFINITE, INFINITE, 0, false);
        }
        let mut delta = width;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.node(root, depth as i32, alpha, beta, 0, false);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta *= 3;
            if delta > 2_000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Whether to stop: looked at every 1,024 nodes, when this thread also adds its nodes to
    /// the shared count (so that one thread's node limit is exact to that).
    fn out_of_limits(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let fresh = self.nodes - self.reported;
            self.reported = self.nodes;
            let total = self.shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
            let shared = self.shared;
            let nodes = shared.limits.nodes.is_some_and(|n| total >= n);
            let time = shared
                .limits
                .hard_time
                .is_some_and(|t| shared.started.elapsed() >= t);
            if nodes
                || time
                || shared.stop.load(Ordering::Relaxed)
                || shared.done.load(Ordering::Relaxed)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Starts bringing the table's slot of `child` into the caches (see
    /// [`TranspositionTable::prefetch`]): it is probed first thing in the child's node.
    fn prefetch(&self, child: &Position) {
        if let Some(table) = self.shared.table {
            table.prefetch(child.key());
        }
    }

    /// Stores `score`, the result of a search of window `(alpha, beta)`: a lower bound when it
    /// reached beta, an upper bound when it did not pass alpha, else exact.
    fn store(
        &self,
        key: u64,
        depth: i32,
        score: i32,
        (alpha, beta): (i32, i32),
        mv: Option<Move>,
        ply: usize,
    ) {
        let Some(table) = self.shared.table else {
            return;
        };
        let s = Score::from_raw(to_table(score, ply));
        let (lower, upper) = if score >= beta {
            (s, Score::INFINITY)
        } else if score > alpha {
            (s, s)
        } else {
            (-Score::INFINITY, s)
        };
        table.store(key, depth.max(0) as u32, lower, upper, mv);
    }

    /// The repetition score of the last position of the path, if it repeats one earlier (since
    /// the last null move).
    fn repeated(&self) -> Option<i32> {
        repetition(&self.path[self.floor..], 2).map(|r| match r {
            Repetition::Draw => 0,
            Repetition::OpponentCheckedPerpetually => MATE_BOUND - 1,
            Repetition::CheckedPerpetually => -(MATE_BOUND - 1),
        })
    }

    /// A node of the main search. `cut`: a node expected to fail high (see
    /// [`super::Selective::cut_nodes`]); the root and the principal variation's nodes are not.
    fn node(
        &mut self,
        p: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if ply > 0 {
            if let Some(score) = self.repeated() {
                return score;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - QUIESCENCE_PLIES - 1 {
            return if self.shared.options.quiescence {
                self.quiescence(p, alpha, beta, ply, 0)
            } else {
                self.nodes += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    -(MATE - ply as i32)
                } else {
                    self.heur.evals.value(self.shared.options.eval, p)
                }
            };
        }
        self.nodes += 1;
        if self.out_of_limits() {
            return 0;
        }
        let key = p.key();
        let pv_node = beta - alpha > 1;
        let entry = self.shared.table.and_then(|t| t.probe(key));
        // The singular extension's search of the other moves: the table's entry is the node's
        // own, so it neither answers nor orders, and nothing is stored.
        let excluded = self.excluded[ply];
        let mut hash_move = None;
        if let Some(e) = entry.filter(|_| excluded.is_none()) {
            hash_move = e.best_move;
            if e.depth >= depth as u32 && !pv_node && ply > 0 {
                let lower = from_table(e.lower.raw(), ply);
                let upper = from_table(e.upper.raw(), ply);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        // The parent pushed this position with its check flag: no second attack test.
        let in_check = self.path.last().is_some_and(|&(_, check)| check);
        // Only where the table knows nothing: a position it knows was searched (and a mate in
        // one found) before, and the test is dear.
        if self.shared.options.mate_in_one
            && entry.is_none()
            && !in_check
            && ply > 0
            && p.mate_in_one().is_some()
        {
            return MATE - (ply as i32 + 1);
        }
        let sel = self.shared.options.selective;
        let eval = if !in_check && sel.any() {
            self.heur.evals.value(self.shared.options.eval, p)
        } else {
            NO_EVAL
        };
        self.evals[ply] = eval;
        // Better than two plies before (when both are known): prune less, reduce less.
        let improving = eval != NO_EVAL && ply >= 2 && eval > self.evals[ply - 2];
        // What the pruning reads: the evaluation, sharpened by the table's bounds.
        let eval = match entry.filter(|_| sel.table_eval && eval != NO_EVAL && excluded.is_none()) {
            Some(e) => {
                let lower = from_table(e.lower.raw(), ply);
                let upper = from_table(e.upper.raw(), ply);
                if lower > eval && lower < MATE_BOUND {
                    lower
                } else if upper < eval && upper > -MATE_BOUND {
                    upper
                } else {
                    eval
                }
            }
            None => eval,
        };
        if !pv_node && !in_check && ply > 0 && excluded.is_none() && sel.any() {
            if sel.futility
                && depth <= 5
                && eval - 150 * (depth - i32::from(improving)) >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }
            if sel.razoring && depth <= 2 && eval + 500 + 250 * depth < alpha {
                let q = self.quiescence(p, alpha - 1, alpha, ply, 0);
                if self.aborted {
                    return 0;
                }
                if q < alpha {
                    return q;
                }
            }
            // Not right after a null move (its target is none), and not in the singular
            // extension's search.
            let null_ok = self.target[ply - 1].is_some();
            if sel.null_move && null_ok && depth >= 2 && eval >= beta && beta > -MATE_BOUND {
                let r = 3 + depth / 3 + ((eval - beta) / 200).min(3);
                let child = p.null_move();
                self.prefetch(&child);
                // Repetitions are not looked for across a null move.
                let floor = std::mem::replace(&mut self.floor, self.path.len());
                self.path.push((child.key(), false));
                self.moved[ply] = None;
                self.target[ply] = None;
                let s = -self.node(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, !cut);
                self.path.pop();
                self.floor = floor;
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        if sel.iir && hash_move.is_none() && excluded.is_none() && depth >= 4 {
            depth -= 1;
        }
        // This ply's buffers, taken for the node (a search at the same ply inside it, the
        // singular extension's, finds them empty and allocates its own) and given back at the
        // end.
        let (mut picker, mut quiets_tried) = std::mem::take(&mut self.buffers[ply]);
        quiets_tried.clear();
        picker.start(hash_move, excluded);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiet_seen = 0;
        // Move-count pruning: quiet moves after this many moves.
        let late_limit = ((3 + depth * depth) / if improving { 1 } else { 2 }).max(2) as usize;
        let prunes = !pv_node && !in_check && eval != NO_EVAL;
        let checks = p.check_info();
        let before = self.before(ply);
        while let Some(keyed) = picker.next(&self.keys(ply, before), p) {
            let i = picker.picked() - 1;
            let (mv, stage, order) = (keyed.mv, keyed.stage(), keyed.key());
            // Whether it checks, from the move alone: pruned moves are never played.
            let check = checks.as_ref().is_some_and(|c| c.gives_check(mv));
            let quiet = stage == Stage::Quiet && !check;
            if quiet {
                quiet_seen += 1;
            }
            if i > 0 && prunes && best > -MATE_BOUND {
                if quiet {
                    if sel.late_move_pruning && (i >= late_limit || order < -4_000 * depth) {
                        picker.skip_quiets(checks.as_ref()); // and all the quiet moves after it
                        continue; // late, or its history says it fails
                    }
                    // Futility: the depth it would be searched at after its reduction, and
                    // the evaluation plus what so many plies can gain still below alpha.
                    let lmr_depth = depth - 1 - lmr_reduction(depth, i) / 1024;
                    if sel.futility && lmr_depth < 8 && eval + 100 + 150 * lmr_depth.max(0) <= alpha
                    {
                        picker.skip_quiets(checks.as_ref()); // and all the quiet moves after it
                        continue;
                    }
                }
                if sel.see_pruning && depth <= 5 && !check {
                    let limit = if stage == Stage::Quiet {
                        -60 * depth * depth
                    } else {
                        -150 * depth
                    };
                    if stage != Stage::HashMove && p.see(mv) < limit {
                        continue;
                    }
                }
            }
            // Checks are extended, but not those that lose the checking piece.
            let extend = self.shared.options.check_extension
                && check
                && ply < 2 * depth as usize + 8
                && p.see(mv) >= 0;
            let mut child_depth = depth - 1 + i32::from(extend);
            if sel.singular && !extend && ply > 0 && depth >= 6 && Some(mv) == hash_move {
                match self.singular(p, entry, depth, beta, ply, cut) {
                    Singular::Extend => child_depth += 1,
                    Singular::Cut(score) => {
                        self.buffers[ply] = (picker, quiets_tried);
                        return score;
                    }
                    Singular::No => {}
                }
            }
            // Late quiet moves: two quiet moves in full first, the rest reduced; less at
            // principal-variation nodes, when improving and for a good history, more otherwise.
            let reduction = if sel.lmr && quiet && !in_check && depth >= 3 && quiet_seen > 2 {
                let mut r = lmr_reduction(depth, i);
                r += 1024 * i32::from(!pv_node) + 1024 * i32::from(!improving) - 1024;
                r -= order * 1024 / 8_192;
                if sel.cut_nodes && cut {
                    r += 2048;
                }
                (r / 1024).clamp(0, child_depth - 1)
            } else {
                0
            };
            let child = p.play(mv);
            self.prefetch(&child);
            self.path.push((child.key(), check));
            if self.shared.options.continuation {
                self.moved[ply] = Some(cont_index(p, mv));
            }
            self.target[ply] = Some(target(mv));
            self.stages.searched[stage as usize] += 1;
            // The children's kinds: the principal variation's first move leads to a node of
            // the principal variation, a reduced search to a cut node, and the other
            // null-window searches alternate cut and all nodes ply by ply.
            let score = if i == 0 {
                -self.node(
                    &child,
                    child_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    !pv_node && !cut,
                )
            } else {
                let mut s = -self.node(
                    &child,
                    child_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    reduction > 0 || !cut,
                );
                if reduction > 0 && s > alpha && !self.aborted {
                    s = -self.node(&child, child_depth, -alpha - 1, -alpha, ply + 1, !cut);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.node(&child, child_depth, -beta, -alpha, ply + 1, false)
                } else {
                    s
                }
            };
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if ply == 0 && self.id == 0 && score > original_alpha {
                    self.root_best = Some((mv, score, self.pv[0].clone()));
                }
            }
            if alpha >= beta {
                self.stages.cutoffs[stage as usize] += 1;
                if p.captured(mv).is_none() {
                    self.reward_quiet(p, mv, &quiets_tried, depth, ply);
                }
                break;
            }
            if p.captured(mv).is_none() && quiets_tried.len() < 64 {
                quiets_tried.push(mv);
            }
        }
        let moved = picker.picked() > 0;
        self.buffers[ply] = (picker, quiets_tried);
        if !moved && excluded.is_none() {
            // No legal move: the side to move has lost.
            return -(MATE - ply as i32);
        }
        if excluded.is_none() {
            self.store(key, depth, best, (original_alpha, beta), best_move, ply);
        }
        best
    }

    /// Whether the table's move of `p` is singular: every other move, searched at half
    /// `depth`, stays below the table's lower bound less a margin. See
    /// [`super::Selective::singular`].
    fn singular(
        &mut self,
        p: &Position,
        entry: Option<prune_search::TtEntry<Move>>,
        depth: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> Singular {
        let Some(e) = entry else {
            return Singular::No;
        };
        let lower = from_table(e.lower.raw(), ply);
        if e.depth + 3 < depth as u32 || lower <= -INFINITE || lower.abs() >= MATE_BOUND {
            return Singular::No;
        }
        let Some(mv) = e.best_move else {
            return Singular::No;
        };
        let singular_beta = lower - 2 * depth;
        self.excluded[ply] = Some(mv);
        let s = self.node(
            p,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            cut,
        );
        self.excluded[ply] = None;
        if self.aborted {
            Singular::No
        } else if s < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// Captures only, from the static evaluation ("stand pat"); every move when in check.
    fn quiescence(&mut self, p: &Position, mut alpha: i32, beta: i32, ply: usize, q: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_limits() {
            return 0;
        }
        let key = p.key();
        let in_check = p.in_check();
        // Standing pat comes before the table: a cutoff by the static evaluation needs no
        // probe, and otherwise the evaluation's work overlaps the table's memory access (the
        // parent prefetched the slot).
        let mut best = -INFINITE;
        if !in_check {
            best = self.heur.evals.value(self.shared.options.eval, p);
            if best >= beta || q >= QUIESCENCE_PLIES {
                return best;
            }
        }
        // The table answers here too: any depth is deep enough for the quiescence search.
        let mut hash_move = None;
        if let Some(e) = self.shared.table.and_then(|t| t.probe(key)) {
            let lower = from_table(e.lower.raw(), ply);
            let upper = from_table(e.upper.raw(), ply);
            if lower >= beta || upper <= alpha || lower == upper {
                return if lower >= beta || lower == upper {
                    lower
                } else {
                    upper
                };
            }
            hash_move = e.best_move;
        }
        let original_alpha = alpha;
        alpha = alpha.max(best);
        // The ply's buffer, as in the main search, taken once the node stands pat or not.
        let mut moves = std::mem::take(&mut self.buffers[ply].1);
        moves.clear();
        if in_check {
            p.generate_legal(&mut moves);
            if moves.is_empty() {
                self.buffers[ply].1 = moves;
                return -(MATE - ply as i32);
            }
        } else {
            if q == 0 && self.shared.options.quiet_checks {
                p.generate_legal(&mut moves);
                moves.retain(|&mv| p.captured(mv).is_some() || p.gives_check(mv) && p.see(mv) >= 0);
            } else {
                p.legal_captures(&mut moves);
            }
        }
        moves.sort_by_key(|&mv| {
            if Some(mv) == hash_move {
                i32::MIN
            } else {
                -mvv_lva(p, mv)
            }
        });
        let mut best_move = None;
        // Futility in the quiescence search: past the first two, or when even the captured
        // piece and a margin leave it below alpha, a capture that neither checks nor takes
        // back on the last move's square is not searched.
        let prune = !in_check && self.shared.options.selective.futility;
        let recapture_square = ply.checked_sub(1).and_then(|i| self.target[i]);
        let futility_base = best + 200;
        let mut tried = 0;
        for &mv in &moves {
            if !in_check && p.captured(mv).is_some() && !good_capture(p, mv) {
                continue;
            }
            tried += 1;
            if prune && Some(target(mv)) != recapture_square && !p.gives_check(mv) {
                if tried > 2 {
                    continue;
                }
                let gain = futility_base + p.captured(mv).map_or(0, |c| value(c.kind));
                if gain <= alpha {
                    best = best.max(gain);
                    continue;
                }
            }
            self.target[ply] = Some(target(mv));
            let child = p.play(mv);
            self.prefetch(&child);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, q + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.store(key, 0, best, (original_alpha, beta), best_move, ply);
        self.buffers[ply].1 = moves;
        best
    }
}
