//! [`Searcher`]: the state every algorithm shares while it walks the tree — counters, the
//! transposition table, the principal-variation table, move buffers, move-ordering hints and the
//! stop condition. The algorithms in [`crate::algo`] are functions over it.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use crate::algo::alpha_beta::alpha_beta;
use crate::ordering::{HistoryTable, KillerTable};
use crate::picker::{MovePicker, Stage};
use crate::Selective;
use crate::{Bound, Counters, Evaluator, FailMode, Game, KillerIndex, Score, SearchConfig};
use crate::{Entered, NodeEnd, SearchLimits, SearchTracer, ShallowOrdering, TranspositionTable};

mod split;

use split::Abort;
pub(crate) use split::{Brothers, SplitContext};

/// The depth stored for a table entry whose subtree reached the end of the game everywhere:
/// its bounds hold at every depth.
const EXHAUSTIVE: u32 = u32::MAX;

/// What [`Searcher::open`] decided about a node.
pub(crate) enum Node<M> {
    /// Terminal, or at depth 0: this is its value.
    Leaf(Score),
    /// The transposition table's bounds settle the node: this is the value to return.
    Settled(Score),
    /// Search the moves (the table's best move, if any, is given to try first). `mark` is to
    /// be handed back to [`Searcher::close`]: it tells whether the node's subtree met the
    /// horizon.
    Interior { tt_move: Option<M>, mark: u64 },
    /// The search was stopped by a limit: unwind without using any value.
    Stopped,
}

/// For each root move, the line that refuted it.
type Refutations<M> = Vec<(M, Vec<M>)>;

/// How killer moves are kept.
#[derive(Clone, Copy)]
enum KillerMode {
    /// N-slot killers recorded on every beta cutoff.
    Slots(KillerIndex),
    /// Two-slot killers per ply for quiet moves, recorded on beta and table cutoffs, tried
    /// after the tactical moves.
    Staged,
}

/// Shared search state.
pub(crate) struct Searcher<'a, G: Game, E> {
    pub eval: &'a E,
    pub counters: Counters,
    pub tt: Option<&'a TranspositionTable<G::Move>>,
    /// Triangular table: `pv[ply]` is the best line found from the current node at `ply`.
    pv: Vec<Vec<G::Move>>,
    /// The line to try first from the root (the previous iteration's principal variation).
    root_hint: Vec<G::Move>,
    /// The line being followed: `root_hint`, or a root move and its refutation.
    line: Vec<G::Move>,
    /// Whether the current node lies on `line`.
    following: bool,
    /// The best move of the last completed search of the root.
    pub root_best: Option<G::Move>,
    /// How many leaves were cut off by depth rather than by the end of the game (table
    /// entries that settle a node count as such unless they were exhaustive).
    pub horizon_leaves: u64,
    pickers: Vec<MovePicker<G::Move>>,
    /// Whether to sort moves with the evaluator's static ordering.
    static_ordering: bool,
    killer_mode: Option<KillerMode>,
    killers: KillerTable<G::Move>,
    history: Option<HistoryTable<G::Move>>,
    /// For each root move, the line that refuted it (with the refutation table on).
    refutations: Option<Refutations<G::Move>>,
    shallow: Option<ShallowOrdering>,
    /// Whether a shallow ordering search is running (they are not nested).
    in_shallow: bool,
    stop: StopCondition<'a>,
    /// The configuration it was made with (for the searchers a split forks).
    config: SearchConfig,
    /// The parallel search this searcher takes part in (Young Brothers Wait), if any.
    split: Option<&'a SplitContext<'a>>,
    /// The smallest ply at which the current path leaves the leftmost line (takes a move other
    /// than the first): the node at `ply` is on the leftmost line when this is `>= ply`.
    sideline_from: usize,
    /// The tracer told of every node, if the search is traced.
    trace: Option<&'a mut (dyn SearchTracer<G::Move> + Send)>,
    /// While tracing: the move being searched at each ply (the edge to the next node).
    edges: Vec<G::Move>,
    /// The ply of the node a null move led to, if the current path has one there (a null
    /// move is never answered by another).
    null_ply: usize,
    /// How many null-move verification searches are running (no null move inside them).
    verifying: u32,
}

struct StopCondition<'a> {
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Set by another thread to stop this one (a Lazy SMP helper when the main search ends).
    halt: Option<&'a AtomicBool>,
    /// In a split search: the flags of the split points this searcher works under.
    abort: Option<Arc<Abort>>,
    /// In a split search: nodes not yet added to the shared count.
    pending: u32,
    stopped: bool,
}

/// The running result of a node's move loop.
pub(crate) struct Best<M> {
    /// The best value so far (`-INFINITY` before the first move).
    pub value: Score,
    /// The move that gave it.
    pub mv: Option<M>,
    /// The lower edge of the window the next move gets: `alpha`, raised by every better value.
    pub low: Score,
}

impl<M> Best<M> {
    /// Nothing searched yet, in the window `(alpha, _)`.
    pub fn new(alpha: Score) -> Self {
        Best {
            value: -Score::INFINITY,
            mv: None,
            low: alpha,
        }
    }
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    pub fn new(
        eval: &'a E,
        tt: Option<&'a TranspositionTable<G::Move>>,
        config: &SearchConfig,
        limits: &SearchLimits,
        start: Instant,
    ) -> Self {
        let (killer_mode, slots) = match (config.killers, config.staged_killers) {
            (Some(k), _) => (Some(KillerMode::Slots(k.index)), k.slots),
            (None, true) => (Some(KillerMode::Staged), 2),
            (None, false) => (None, 0),
        };
        Searcher {
            eval,
            counters: Counters::default(),
            tt,
            pv: Vec::new(),
            root_hint: Vec::new(),
            line: Vec::new(),
            following: false,
            root_best: None,
            horizon_leaves: 0,
            pickers: Vec::new(),
            static_ordering: config.static_ordering,
            killer_mode,
            killers: KillerTable::new(slots),
            history: config.history.then(HistoryTable::new::<G>),
            refutations: config.refutation.then(Vec::new),
            shallow: config.shallow_ordering,
            in_shallow: false,
            stop: StopCondition {
                deadline: limits.time.map(|t| start + t),
                node_limit: limits.nodes,
                halt: None,
                abort: None,
                pending: 0,
                stopped: false,
            },
            config: *config,
            split: None,
            sideline_from: usize::MAX,
            trace: None,
            edges: Vec::new(),
            null_ply: usize::MAX,
            verifying: 0,
        }
    }

    /// The same searcher, telling `tracer` of every node it enters and leaves (it must not
    /// split: tracing follows one thread's walk).
    pub fn with_tracer(mut self, tracer: &'a mut (dyn SearchTracer<G::Move> + Send)) -> Self {
        self.trace = Some(tracer);
        self
    }

    /// Tells the tracer, if any, that the node at `ply` is entered.
    fn trace_enter(&mut self, ply: usize, depth: u32, alpha: Score, beta: Score) {
        if let Some(tracer) = self.trace.as_mut() {
            let mv = ply.checked_sub(1).and_then(|p| self.edges.get(p).copied());
            tracer.enter(&Entered {
                ply,
                mv,
                depth,
                alpha,
                beta,
                ordering: self.in_shallow,
            });
        }
    }

    /// Tells the tracer, if any, that the last node entered is left with `value` without a
    /// search of its moves (`end`).
    fn trace_leaf(&mut self, value: Score, end: NodeEnd) {
        if let Some(tracer) = self.trace.as_mut() {
            tracer.leave(value, end, &[]);
        }
    }

    /// Tells the tracer, if any, that the searched node `game` (the last one entered) is left
    /// with `value`, from its side to move's point of view. Every algorithm calls this once
    /// for each node [`Searcher::open`] found interior.
    pub fn trace_leave(&mut self, game: &G, value: Score) {
        if let Some(tracer) = self.trace.as_mut() {
            tracer.leave(value, NodeEnd::Searched, &game.legal_moves());
        }
    }

    /// While tracing, notes that `mv` is searched next at `ply`.
    fn trace_edge(&mut self, ply: usize, mv: G::Move) {
        if self.trace.is_some() {
            if self.edges.len() <= ply {
                self.edges.resize(ply + 1, mv);
            }
            self.edges[ply] = mv;
        }
    }

    /// The same searcher, splitting nodes in the parallel search `split`.
    pub fn with_split(mut self, split: &'a SplitContext<'a>) -> Self {
        self.split = Some(split);
        self
    }

    /// The same searcher, stopping also when `halt` is set (checked every 1,024 nodes).
    pub fn with_halt(mut self, halt: &'a AtomicBool) -> Self {
        self.stop.halt = Some(halt);
        self
    }

    /// Whether a node or time limit has stopped the search.
    pub fn stopped(&self) -> bool {
        self.stop.stopped
    }

    /// Prepares a new pass over the tree from the root, trying `hint` first.
    pub fn start_pass(&mut self, hint: &[G::Move]) {
        self.root_hint.clear();
        self.root_hint.extend_from_slice(hint);
        self.line.clone_from(&self.root_hint);
        self.following = true;
    }

    fn check_limits(&mut self) -> bool {
        if let Some(split) = self.split {
            return self.check_shared_limits(split);
        }
        if self
            .stop
            .node_limit
            .is_some_and(|n| self.counters.nodes >= n)
        {
            self.stop.stopped = true;
        }
        if self.counters.nodes.is_multiple_of(1024) {
            if let Some(deadline) = self.stop.deadline {
                if Instant::now() >= deadline {
                    self.stop.stopped = true;
                }
            }
            if self.stop.halt.is_some_and(|h| h.load(Relaxed)) {
                self.stop.stopped = true;
            }
        }
        self.stop.stopped
    }

    /// ProbCut's margin in deviations, if the configuration asks for it and the node at `ply`
    /// may be cut: not the root, and not while tracing (the shallow tests would be drawn as
    /// nodes of their own).
    pub fn probcut_margin(&self, ply: usize) -> Option<f64> {
        let margin = self.config.probcut?.margin();
        (ply > 0 && self.trace.is_none()).then_some(margin)
    }

    /// The selective search's switches if they may act at the node at `ply` searched with
    /// `(alpha, beta)`: a null window on heuristic bounds, not the root, not in check, not
    /// in a shallow ordering search and not while tracing (the extra searches would be drawn
    /// as nodes of their own). `None` when the configuration has no selective search.
    pub fn selective_at(
        &self,
        game: &G,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Option<Selective> {
        let sel = self.config.selective;
        let heuristic = |x: Score| x.raw().abs() < Score::DECISIVE_RAW - 1;
        (sel.prunes()
            && ply > 0
            && beta == alpha.next()
            && heuristic(alpha)
            && heuristic(beta)
            && !self.in_shallow
            && self.trace.is_none()
            && !game.in_check())
        .then_some(sel)
    }

    /// Whether the configuration extends checks.
    pub fn extends_checks(&self) -> bool {
        self.config.selective.check_extension
    }

    /// Whether a null move may be tried at `ply`: not right after one, not inside a
    /// verification search.
    pub fn null_allowed(&self, ply: usize) -> bool {
        self.null_ply != ply && self.verifying == 0
    }

    /// Before the search of a null move from the node at `ply`: the child is not on the
    /// followed line. Returns what [`Searcher::after_null`] restores.
    pub fn before_null(&mut self, ply: usize) -> (usize, bool) {
        let saved = (self.null_ply, self.following);
        self.null_ply = ply + 1;
        self.following = false;
        saved
    }

    /// After the search of a null move (`saved` from [`Searcher::before_null`]).
    pub fn after_null(&mut self, saved: (usize, bool)) {
        (self.null_ply, self.following) = saved;
    }

    /// Enters (`true`) or leaves a null-move verification search.
    pub fn verification(&mut self, entering: bool) {
        if entering {
            self.verifying += 1;
        } else {
            self.verifying -= 1;
        }
    }

    /// Counts a node ended or a move skipped by the selective search: what it did not search
    /// was cut off as by the horizon, so the node is not stored as exhaustive.
    pub fn selective_cut(&mut self) {
        self.counters.selective_cuts += 1;
        self.horizon_leaves += 1;
    }

    /// Forgets the line found from the node at `ply` (what a ProbCut test left there).
    pub fn clear_pv(&mut self, ply: usize) {
        if let Some(line) = self.pv.get_mut(ply) {
            line.clear();
        }
    }

    /// Enters a node: counts it, checks the limits, resolves leaves, and (with a table) probes
    /// the stored bounds against the window `(alpha, beta)`.
    pub fn open(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Node<G::Move> {
        if self.check_limits() {
            return Node::Stopped;
        }
        self.counters.nodes += 1;
        if self.pv.len() <= ply {
            self.pv.resize_with(ply + 1, Vec::new);
        }
        self.pv[ply].clear();
        self.trace_enter(ply, depth, alpha, beta);
        if let Some(value) = game.outcome() {
            self.counters.leaves += 1;
            self.trace_leaf(value, NodeEnd::Terminal);
            return Node::Leaf(value);
        }
        if depth == 0 {
            self.counters.leaves += 1;
            self.horizon_leaves += 1;
            let value = self.eval.evaluate(game);
            self.trace_leaf(value, NodeEnd::Horizon);
            return Node::Leaf(value);
        }
        self.counters.interior += 1;
        let mut tt_move = None;
        if let Some(tt) = self.tt {
            self.counters.tt_probes += 1;
            if let Some(entry) = tt.probe(game.hash()) {
                self.counters.tt_hits += 1;
                tt_move = entry.best_move;
                if entry.depth >= depth && ply > 0 {
                    let settled = if entry.lower >= beta {
                        Some(entry.lower)
                    } else if entry.upper <= alpha {
                        Some(entry.upper)
                    } else if entry.lower == entry.upper {
                        Some(entry.lower)
                    } else {
                        None
                    };
                    if let Some(value) = settled {
                        self.counters.tt_cutoffs += 1;
                        if let (Some(KillerMode::Staged), Some(mv)) =
                            (self.killer_mode, entry.best_move)
                        {
                            if entry.lower >= beta {
                                self.record_killer(game, ply, depth, mv);
                            }
                        }
                        if entry.depth != EXHAUSTIVE {
                            self.horizon_leaves += 1;
                        }
                        self.trace_leaf(value, NodeEnd::Table);
                        return Node::Settled(value);
                    }
                }
            }
        }
        Node::Interior {
            tt_move,
            mark: self.horizon_leaves,
        }
    }

    /// Records in the table (if any) that the node searched with window `(alpha, beta)` to
    /// `depth` returned `value` with `best_move`; `mark` comes from [`Searcher::open`]. A
    /// subtree searched to the end of the game everywhere is stored as valid at any depth.
    #[allow(clippy::too_many_arguments)]
    pub fn close(
        &mut self,
        game: &G,
        depth: u32,
        alpha: Score,
        beta: Score,
        value: Score,
        best_move: Option<G::Move>,
        mark: u64,
    ) {
        if self.stop.stopped {
            return;
        }
        if let Some(tt) = self.tt {
            let (lower, upper) = match Bound::classify(value, alpha, beta) {
                Bound::Upper => (-Score::INFINITY, value),
                Bound::Lower => (value, Score::INFINITY),
                Bound::Exact => (value, value),
            };
            let stored_depth = if self.horizon_leaves == mark {
                EXHAUSTIVE
            } else {
                depth
            };
            tt.store(game.hash(), stored_depth, lower, upper, best_move);
        }
        if let (Some(history), Some(mv)) = (self.history.as_mut(), best_move) {
            if Bound::classify(value, alpha, beta) == Bound::Exact {
                history.reward::<G>(mv, depth);
            }
        }
    }

    /// A move picker for the node at `ply` with `depth` plies left: the followed line's move
    /// and the table's move first, then (with killers) the killers. Draw the moves with
    /// [`Searcher::next_move`] and give the picker back with [`Searcher::give_back`].
    pub fn picker(
        &mut self,
        ply: usize,
        depth: u32,
        tt_move: Option<G::Move>,
    ) -> MovePicker<G::Move> {
        if self.pickers.len() <= ply {
            self.pickers.resize_with(ply + 1, MovePicker::default);
        }
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        let hint = self
            .following
            .then(|| self.line.get(ply).copied())
            .flatten();
        let killers = match self.killer_mode {
            Some(mode) => self.killers.get(killer_index(mode, ply, depth)),
            None => &[],
        };
        let staged = matches!(self.killer_mode, Some(KillerMode::Staged));
        picker.reset([hint, tt_move], killers, staged);
        picker
    }

    /// The next move of the node at `ply` (see [`Searcher::picker`]).
    pub fn next_move(
        &mut self,
        picker: &mut MovePicker<G::Move>,
        game: &G,
        ply: usize,
        depth: u32,
    ) -> Option<G::Move> {
        picker.next(game, &mut |game, moves| {
            self.order_rest(game, moves, ply, depth)
        })
    }

    /// Sorts the moves left after the hash moves: static knowledge, then history, then a
    /// shallow search (each sort stable, so the earlier ones break the later one's ties).
    fn order_rest(&mut self, game: &G, moves: &mut [G::Move], ply: usize, depth: u32) {
        if moves.len() < 2 {
            return;
        }
        if self.static_ordering {
            self.eval.order_moves(game, moves);
        }
        if let Some(history) = &self.history {
            moves.sort_by_cached_key(|&mv| std::cmp::Reverse(history.score::<G>(mv)));
        }
        match self.shallow {
            Some(shallow) if depth >= shallow.min_depth && !self.in_shallow => {
                self.order_by_shallow_search(game, moves, ply, shallow.depth.min(depth - 2));
            }
            _ => {}
        }
    }

    /// Sorts `moves` by the value of an alpha-beta search `depth` plies below each. These
    /// searches count as nodes (and as ordering nodes), but their leaves do not count against
    /// the node's exhaustion, and they do not follow the hinted line.
    fn order_by_shallow_search(&mut self, game: &G, moves: &mut [G::Move], ply: usize, depth: u32) {
        let following = std::mem::replace(&mut self.following, false);
        let horizon = self.horizon_leaves;
        let nodes = self.counters.nodes;
        self.in_shallow = true;
        let mut scored: Vec<(Score, G::Move)> = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            self.trace_edge(ply, mv);
            let child = game.play(mv);
            let v = -alpha_beta(
                self,
                &child,
                depth,
                ply + 1,
                -Score::INFINITY,
                Score::INFINITY,
                FailMode::Soft,
            );
            scored.push((v, mv));
        }
        self.in_shallow = false;
        self.counters.ordering_nodes += self.counters.nodes - nodes;
        self.horizon_leaves = horizon;
        self.following = following;
        scored.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        for (slot, (_, mv)) in moves.iter_mut().zip(scored) {
            *slot = mv;
        }
    }

    /// Tells the searcher that `mv`, the `index`-th move of the node at `ply`, is about to be
    /// searched. The followed line goes on only through its own move when it is searched
    /// first; at the root, a move other than the hinted one follows its refutation, if the
    /// refutation table has one.
    pub fn before_child(&mut self, ply: usize, index: usize, mv: G::Move) {
        self.trace_edge(ply, mv);
        if self.sideline_from >= ply {
            self.sideline_from = if index > 0 { ply } else { usize::MAX };
        }
        if ply == 0 {
            if index == 0 && self.root_hint.first() == Some(&mv) {
                self.line.clone_from(&self.root_hint);
                self.following = true;
                return;
            }
            match refutation(&self.refutations, ply, mv) {
                Some(refutation) => {
                    self.line.clear();
                    self.line.push(mv);
                    self.line.extend_from_slice(refutation);
                    self.following = true;
                }
                None => self.following = false,
            }
        } else if self.following && (index > 0 || self.line.get(ply) != Some(&mv)) {
            self.following = false;
        }
    }

    /// Tells the searcher that the search of `mv` at `ply` is over: at the root, the refutation
    /// table keeps the line the child's search found (for a move that failed low, the line
    /// that refuted it).
    pub fn after_child(&mut self, ply: usize, mv: G::Move) {
        if ply != 0 || self.stop.stopped {
            return;
        }
        let Some(refutations) = self.refutations.as_mut() else {
            return;
        };
        let Some(line) = self.pv.get(1).filter(|l| !l.is_empty()) else {
            return;
        };
        match refutations.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, old)) => old.clone_from(line),
            None => refutations.push((mv, line.clone())),
        }
    }

    /// Returns a move picker taken by [`Searcher::picker`].
    pub fn give_back(&mut self, ply: usize, picker: MovePicker<G::Move>) {
        self.pickers[ply] = picker;
    }

    /// Records that `mv` is the best move at `ply` so far: the line from here becomes `mv`
    /// followed by the child's line.
    pub fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        if let Some(child) = below.first() {
            line.extend_from_slice(child);
        }
    }

    /// The principal variation found at the root by the last pass.
    pub fn root_pv(&self) -> Vec<G::Move> {
        self.pv.first().cloned().unwrap_or_default()
    }

    /// Records that `mv`, the `index`-th move searched at `ply` with `depth` plies left (drawn
    /// at `stage`), returned `value` against `beta`: a better value becomes `best` (and, inside
    /// the window, the principal variation goes through `mv`); a value `>= beta` is a cutoff
    /// ([`Searcher::cutoff`]), and then this returns true.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        game: &G,
        ply: usize,
        depth: u32,
        index: usize,
        (mv, stage): (G::Move, Stage),
        value: Score,
        beta: Score,
        best: &mut Best<G::Move>,
    ) -> bool {
        if value > best.value {
            best.value = value;
            best.mv = Some(mv);
            if value > best.low {
                best.low = value;
                self.update_pv(ply, mv);
            }
        }
        if value >= beta {
            self.cutoff(game, ply, depth, index, mv, stage);
            return true;
        }
        false
    }

    /// Records a beta cutoff caused by `mv`, the `index`-th move searched at `ply` with
    /// `depth` plies left, drawn at `stage`: counts it, and teaches the killer and history
    /// tables.
    pub fn cutoff(
        &mut self,
        game: &G,
        ply: usize,
        depth: u32,
        index: usize,
        mv: G::Move,
        stage: Stage,
    ) {
        self.counters.beta_cutoffs += 1;
        if index == 0 {
            self.counters.first_move_cutoffs += 1;
        }
        match stage {
            Stage::HashMove => self.counters.hash_move_cutoffs += 1,
            Stage::Tactical => self.counters.tactical_cutoffs += 1,
            Stage::Killers => self.counters.killer_cutoffs += 1,
            _ => {}
        }
        self.record_killer(game, ply, depth, mv);
        if let Some(history) = self.history.as_mut() {
            history.reward::<G>(mv, depth);
        }
    }

    /// Records `mv` as a killer at `ply` (with `depth` plies left), if killers are on and, for
    /// staged killers, if the move is quiet.
    fn record_killer(&mut self, game: &G, ply: usize, depth: u32, mv: G::Move) {
        let Some(mode) = self.killer_mode else {
            return;
        };
        if matches!(mode, KillerMode::Staged) && game.is_tactical(mv) {
            return;
        }
        self.killers.record(killer_index(mode, ply, depth), mv);
    }

    /// The static evaluation of the root (a first guess for aspiration and MTD(f)).
    pub fn static_guess(&self, game: &G) -> Score {
        game.outcome().unwrap_or_else(|| self.eval.evaluate(game))
    }

    /// The line the table's best moves make from `game` (at most `max_len` moves).
    pub fn tt_line(&self, game: &G, first: Option<G::Move>, max_len: usize) -> Vec<G::Move> {
        let mut line = Vec::new();
        let Some(tt) = self.tt else {
            return line;
        };
        let mut pos = game.clone();
        let mut next = first;
        while line.len() < max_len {
            let Some(mv) = next.filter(|&m| pos.is_legal(m)) else {
                break;
            };
            line.push(mv);
            pos = pos.play(mv);
            next = tt.probe(pos.hash()).and_then(|e| e.best_move);
        }
        line
    }
}

/// At the root (`ply` 0), the line that refuted `mv` in an earlier pass, if the refutation
/// table (`refutations`) has one.
fn refutation<M: PartialEq>(
    refutations: &Option<Refutations<M>>,
    ply: usize,
    mv: M,
) -> Option<&[M]> {
    if ply != 0 {
        return None;
    }
    refutations
        .as_ref()?
        .iter()
        .find(|(m, _)| *m == mv)
        .map(|(_, line)| line.as_slice())
}

/// Which killer list a node uses.
fn killer_index(mode: KillerMode, ply: usize, depth: u32) -> usize {
    match mode {
        KillerMode::Slots(KillerIndex::Depth) => depth as usize,
        KillerMode::Slots(KillerIndex::Ply) | KillerMode::Staged => ply,
    }
}
