//! Young Brothers Wait in the generic search: once a node's eldest moves have been searched
//! one by one, its younger brothers are shared out among the threads of a rayon pool, each
//! thread taking the next move in order from a shared index and searching it with its own
//! [`Searcher`] (a copy of the splitting one's killers and history). Brothers see one shared
//! alpha, raised by every better value any of them finds, and a brother that reaches beta
//! raises its split point's abort flag, which stops every search below that split point (the
//! flags are chained, so aborting a split point also stops the splits nested under it). A
//! stopped search stores nothing in the table and its value is never used.
//!
//! PV splitting is the same with splits allowed only on the leftmost line of the tree (the
//! brothers' own searches never split).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::{Best, Searcher, StopCondition};
use crate::algo::{alpha_beta::alpha_beta, negascout::negascout};
use crate::picker::{MovePicker, Stage};
use crate::{Counters, Evaluator, FailMode, Game, Score, SearchLimits};

/// Only nodes with at least this many plies left split (below, a brother's search is too
/// short to pay for handing it to another thread). Measured on depth-12 searches of FFO
/// #40-#59 (preset full, NegaScout, 2 threads): 4 plies 1.45 times as fast as one thread,
/// 5 plies 1.49, 6 plies 1.55, 8 plies 1.54.
const SPLIT_DEPTH: u32 = 6;

/// How many moves a node searches one by one before it splits: one, as Young Brothers Wait
/// proper (in the same measurement, 2 and 3 elders were 1.48 and 1.47 times as fast).
const ELDERS: usize = 1;

/// How many nodes a searcher counts before adding them to the shared count and checking the
/// clock.
const FLUSH_NODES: u32 = 1024;

/// What every thread of one split search shares.
pub(crate) struct SplitContext<'p> {
    pool: &'p rayon::ThreadPool,
    /// Whether only nodes on the leftmost line split (PV splitting).
    pv_only: bool,
    /// Nodes searched by all threads (added in batches of [`FLUSH_NODES`]).
    nodes: AtomicU64,
    /// Set when a node or time limit stops the whole search.
    stop: AtomicBool,
}

impl<'p> SplitContext<'p> {
    /// A split search on `pool`; `pv_only` for PV splitting.
    pub fn new(pool: &'p rayon::ThreadPool, pv_only: bool) -> Self {
        SplitContext {
            pool,
            pv_only,
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }
}

/// A split point's abort flag, chained to those of the split points above it.
pub(crate) struct Abort {
    flag: AtomicBool,
    parent: Option<Arc<Abort>>,
}

impl Abort {
    /// Whether this split point or one above it was aborted.
    fn is_set(&self) -> bool {
        let mut next = Some(self);
        while let Some(abort) = next {
            if abort.flag.load(Relaxed) {
                return true;
            }
            next = abort.parent.as_deref();
        }
        false
    }
}

/// How a split node searches its younger brothers: the algorithm of the node.
#[derive(Clone, Copy)]
pub(crate) enum Brothers {
    /// Alpha-beta with the window `(alpha, beta)`, the shared alpha as its lower edge.
    AlphaBeta(FailMode),
    /// A null window on the shared alpha, re-searched with `(value, beta)` when it fails high.
    NegaScout,
}

/// A brother's search, done.
struct Searched<M> {
    /// Its place in the node's move order.
    index: usize,
    mv: M,
    stage: Stage,
    value: Score,
    /// The lower edge of the window its last search had: a value at or below it is only an
    /// upper bound.
    floor: Score,
    /// The line below it that the search found.
    line: Vec<M>,
}

/// A brother to search: its move, the stage that drew it, and (at the root, with the
/// refutation table) the line to follow below it.
type Task<M> = (M, Stage, Option<Vec<M>>);

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    /// [`Searcher::check_limits`] in a split search: the node limit counts every thread's
    /// nodes (each thread's own exactly, the others' to within [`FLUSH_NODES`] each), and the
    /// search also stops when another thread hit a limit or a split point above this
    /// searcher was aborted.
    pub(super) fn check_shared_limits(&mut self, split: &SplitContext) -> bool {
        self.stop.pending += 1;
        if let Some(limit) = self.stop.node_limit {
            // `pending` counts the node about to be entered, as `counters.nodes` does not.
            if split.nodes.load(Relaxed) + u64::from(self.stop.pending) > limit {
                split.stop.store(true, Relaxed);
            }
        }
        if self.stop.pending >= FLUSH_NODES {
            let pending = u64::from(std::mem::take(&mut self.stop.pending));
            split.nodes.fetch_add(pending, Relaxed);
            if self.stop.deadline.is_some_and(|d| Instant::now() >= d) {
                split.stop.store(true, Relaxed);
            }
        }
        if split.stop.load(Relaxed) || self.stop.abort.as_ref().is_some_and(|a| a.is_set()) {
            self.stop.stopped = true;
        }
        self.stop.stopped
    }

    /// Whether the node at `ply` with `depth` plies left, having searched `searched` moves,
    /// shares its other moves out now.
    pub fn may_split(&self, ply: usize, depth: u32, searched: usize) -> bool {
        let Some(split) = self.split else {
            return false;
        };
        searched >= ELDERS
            && depth >= SPLIT_DEPTH
            && !self.in_shallow
            && (!split.pv_only || self.sideline_from >= ply)
    }

    /// A searcher for a brother's search under the split point `abort`: the same settings,
    /// limits and table, copies of the killers and history, its own counters.
    fn fork(&self, abort: &Arc<Abort>) -> Self {
        let limits = SearchLimits::default();
        let mut fork = Searcher::new(self.eval, self.tt, &self.config, &limits, Instant::now());
        fork.killers = self.killers.clone();
        fork.history = self.history.clone();
        // The root's refutations stay with the splitting searcher (brothers get their lines).
        fork.refutations = None;
        fork.stop = StopCondition {
            deadline: self.stop.deadline,
            node_limit: self.stop.node_limit,
            halt: self.stop.halt,
            abort: Some(Arc::clone(abort)),
            pending: 0,
            stopped: false,
        };
        fork.split = self.split;
        // A brother is never on the leftmost line.
        fork.sideline_from = 0;
        fork
    }

    /// Searches `first` (the `index`-th move of `game`, at `ply` with `depth` plies left,
    /// just drawn from `picker`) and every move `picker` has left in parallel, and records
    /// their values into `best` as the sequential loop would (see [`Searcher::record`]),
    /// better proven values first, then move order. Stops the searcher when a limit or an
    /// abort above stopped the brothers.
    #[allow(clippy::too_many_arguments)]
    pub fn split(
        &mut self,
        game: &G,
        ply: usize,
        depth: u32,
        (picker, first, index): (&mut MovePicker<G::Move>, G::Move, usize),
        beta: Score,
        brothers: Brothers,
        best: &mut Best<G::Move>,
    ) {
        let Some(split) = self.split else {
            unreachable!("split() is called only when may_split() allowed it")
        };
        let mut tasks: Vec<Task<G::Move>> = Vec::new();
        let mut next = Some(first);
        while let Some(mv) = next {
            let line = super::refutation(&self.refutations, ply, mv).map(<[_]>::to_vec);
            tasks.push((mv, picker.last_stage(), line));
            next = self.next_move(picker, game, ply, depth);
        }
        self.counters.splits += 1;
        let abort = Arc::new(Abort {
            flag: AtomicBool::new(false),
            parent: self.stop.abort.clone(),
        });
        let alpha = AtomicI32::new(best.low.raw());
        let taken = AtomicUsize::new(0);
        let done: Mutex<Vec<Searched<G::Move>>> = Mutex::new(Vec::with_capacity(tasks.len()));
        let totals = Mutex::new((Counters::default(), 0u64));
        let workers: Vec<Self> = (0..split.pool.current_num_threads().min(tasks.len()))
            .map(|_| self.fork(&abort))
            .collect();
        split.pool.scope(|scope| {
            for mut worker in workers {
                let (tasks, abort, alpha, taken) = (&tasks, &abort, &alpha, &taken);
                let (done, totals) = (&done, &totals);
                scope.spawn(move |_| {
                    loop {
                        let k = taken.fetch_add(1, Relaxed);
                        let Some((mv, stage, line)) = tasks.get(k) else {
                            break;
                        };
                        let a = Score::from_raw(alpha.load(Relaxed));
                        worker.follow(ply, *mv, line.as_deref());
                        let (value, floor) = worker.search_brother(
                            &game.play(*mv),
                            depth - 1,
                            ply + 1,
                            a,
                            beta,
                            brothers,
                        );
                        if worker.stopped() {
                            break;
                        }
                        if value >= beta {
                            abort.flag.store(true, Relaxed);
                        } else if value > a {
                            alpha.fetch_max(value.raw(), Relaxed);
                        }
                        let line = worker.pv.get(ply + 1).cloned().unwrap_or_default();
                        let searched = Searched {
                            index: index + k,
                            mv: *mv,
                            stage: *stage,
                            value,
                            floor,
                            line,
                        };
                        done.lock().expect("a brother panicked").push(searched);
                        if value >= beta {
                            break;
                        }
                    }
                    let mut totals = totals.lock().expect("a brother panicked");
                    totals.0 += worker.counters;
                    totals.1 += worker.horizon_leaves;
                });
            }
        });
        let (counters, horizon) = totals.into_inner().expect("a brother panicked");
        self.counters += counters;
        self.horizon_leaves += horizon;
        if split.stop.load(Relaxed) || self.stop.abort.as_ref().is_some_and(|a| a.is_set()) {
            self.stop.stopped = true;
            return;
        }
        let mut done = done.into_inner().expect("a brother panicked");
        // Proven values first: a value at or below its search's alpha is only a bound, and on
        // a tie it must not take the place of the move that set that alpha. (Brothers are
        // taken in move order, so the one that raised an alpha always comes first anyway; the
        // order keeps this true whatever the scheduling.)
        done.sort_by_key(|s| (s.value <= s.floor, s.index));
        if self.pv.len() <= ply + 1 {
            self.pv.resize_with(ply + 2, Vec::new);
        }
        for s in done {
            self.pv[ply + 1] = s.line;
            self.after_child(ply, s.mv);
            if self.record(
                game,
                ply,
                depth,
                s.index,
                (s.mv, s.stage),
                s.value,
                beta,
                best,
            ) {
                break;
            }
        }
    }

    /// Prepares a forked searcher to search `mv` at `ply`, following `line` (the root move's
    /// refutation) if given.
    fn follow(&mut self, ply: usize, mv: G::Move, line: Option<&[G::Move]>) {
        self.line.clear();
        self.following = false;
        if let Some(line) = line {
            self.line.resize(ply, mv);
            self.line.push(mv);
            self.line.extend_from_slice(line);
            self.following = true;
        }
    }

    /// The value of a node's eldest move `child` (searched `depth` plies deep with the
    /// window `(alpha, beta)` from the node's side): the whole window for both algorithms.
    pub fn search_eldest(
        &mut self,
        child: &G,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
        brothers: Brothers,
    ) -> Score {
        match brothers {
            Brothers::AlphaBeta(fail) => -alpha_beta(self, child, depth, ply, -beta, -alpha, fail),
            Brothers::NegaScout => -negascout(self, child, depth, ply, -beta, -alpha),
        }
    }

    /// The search of a move after the first, `child` at `ply` with `depth` plies left, against
    /// the node's `alpha` (in a split, the shared one) and `beta`, from the node's point of view:
    /// the value and the lower edge of the last window it was searched with. The sequential
    /// node loops and the split brothers both search younger brothers this way.
    pub fn search_brother(
        &mut self,
        child: &G,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
        brothers: Brothers,
    ) -> (Score, Score) {
        match brothers {
            Brothers::AlphaBeta(fail) => {
                let v = -alpha_beta(self, child, depth, ply, -beta, -alpha, fail);
                (v, alpha)
            }
            Brothers::NegaScout => {
                let v = -negascout(self, child, depth, ply, -alpha.next(), -alpha);
                if v > alpha && v < beta && depth > 0 && !self.stopped() {
                    self.counters.re_searches += 1;
                    (-negascout(self, child, depth, ply, -beta, -v), v)
                } else {
                    (v, alpha)
                }
            }
        }
    }
}
