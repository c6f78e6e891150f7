//! [`Searcher`]: the state every algorithm shares while it walks the tree — counters, the
//! transposition table, the principal-variation table, move buffers, move-ordering hints and the
//! stop condition. The algorithms in [`crate::algo`] are functions over it.

use std::time::Instant;

use crate::ordering::put_first;
use crate::{Bound, Counters, Evaluator, Game, Score, SearchLimits, TranspositionTable};

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

/// Shared search state.
pub(crate) struct Searcher<'a, G: Game, E> {
    pub eval: &'a E,
    pub counters: Counters,
    pub tt: Option<&'a mut TranspositionTable<G::Move>>,
    /// Triangular table: `pv[ply]` is the best line found from the current node at `ply`.
    pv: Vec<Vec<G::Move>>,
    /// The line to try first (the previous iteration's principal variation).
    hint: Vec<G::Move>,
    /// Whether the current node lies on `hint`.
    following_hint: bool,
    /// The best move of the last completed search of the root.
    pub root_best: Option<G::Move>,
    /// How many leaves were cut off by depth rather than by the end of the game (table
    /// entries that settle a node count as such unless they were exhaustive).
    pub horizon_leaves: u64,
    buffers: Vec<Vec<G::Move>>,
    /// Whether to sort moves with the evaluator's static ordering.
    pub static_ordering: bool,
    stop: StopCondition,
}

struct StopCondition {
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stopped: bool,
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    pub fn new(
        eval: &'a E,
        tt: Option<&'a mut TranspositionTable<G::Move>>,
        limits: &SearchLimits,
        start: Instant,
    ) -> Self {
        Searcher {
            eval,
            counters: Counters::default(),
            tt,
            pv: Vec::new(),
            hint: Vec::new(),
            following_hint: false,
            root_best: None,
            horizon_leaves: 0,
            buffers: Vec::new(),
            static_ordering: false,
            stop: StopCondition {
                deadline: limits.time.map(|t| start + t),
                node_limit: limits.nodes,
                stopped: false,
            },
        }
    }

    /// Whether a node or time limit has stopped the search.
    pub fn stopped(&self) -> bool {
        self.stop.stopped
    }

    /// Prepares a new pass over the tree from the root, trying `hint` first.
    pub fn start_pass(&mut self, hint: &[G::Move]) {
        self.hint.clear();
        self.hint.extend_from_slice(hint);
        self.following_hint = true;
    }

    fn check_limits(&mut self) -> bool {
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
        }
        self.stop.stopped
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
        if let Some(value) = game.outcome() {
            self.counters.leaves += 1;
            return Node::Leaf(value);
        }
        if depth == 0 {
            self.counters.leaves += 1;
            self.horizon_leaves += 1;
            return Node::Leaf(self.eval.evaluate(game));
        }
        self.counters.interior += 1;
        let mut tt_move = None;
        if let Some(tt) = self.tt.as_deref() {
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
                        if entry.depth != EXHAUSTIVE {
                            self.horizon_leaves += 1;
                        }
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
        if let Some(tt) = self.tt.as_deref_mut() {
            let (lower, upper) = match Bound::classify(value, alpha, beta) {
                Bound::Upper => (-Score::INFINITY, value),
                Bound::Lower => (value, Score::INFINITY),
                Bound::Exact => (value, value),
            };
            let depth = if self.horizon_leaves == mark {
                EXHAUSTIVE
            } else {
                depth
            };
            tt.store(game.hash(), depth, lower, upper, best_move);
        }
    }

    /// The legal moves of `game` in search order: the hinted line's move first while the node
    /// lies on it, then the table's move, then the generator's order. Give the buffer back with
    /// [`Searcher::give_back`].
    pub fn ordered_moves(
        &mut self,
        game: &G,
        ply: usize,
        tt_move: Option<G::Move>,
    ) -> Vec<G::Move> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        game.generate_moves(&mut moves);
        if self.static_ordering {
            self.eval.order_moves(game, &mut moves);
        }
        let hint = self
            .following_hint
            .then(|| self.hint.get(ply).copied())
            .flatten();
        if let Some(tt_move) = tt_move {
            put_first(&mut moves, tt_move);
        }
        match hint {
            Some(mv) if put_first(&mut moves, mv) => {}
            _ => self.following_hint = false,
        }
        moves
    }

    /// Tells the searcher that the `index`-th move of the current node is about to be searched
    /// (only the first move of a node on the hinted line stays on it).
    pub fn before_child(&mut self, index: usize) {
        if index > 0 {
            self.following_hint = false;
        }
    }

    /// Returns a move buffer taken by [`Searcher::ordered_moves`].
    pub fn give_back(&mut self, ply: usize, moves: Vec<G::Move>) {
        self.buffers[ply] = moves;
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

    /// Counts a beta cutoff caused by the `index`-th move searched.
    pub fn count_cutoff(&mut self, index: usize) {
        self.counters.beta_cutoffs += 1;
        if index == 0 {
            self.counters.first_move_cutoffs += 1;
        }
    }

    /// The static evaluation of the root (a first guess for aspiration and MTD(f)).
    pub fn static_guess(&self, game: &G) -> Score {
        game.outcome().unwrap_or_else(|| self.eval.evaluate(game))
    }

    /// The line the table's best moves make from `game` (at most `max_len` moves).
    pub fn tt_line(&self, game: &G, first: Option<G::Move>, max_len: usize) -> Vec<G::Move> {
        let mut line = Vec::new();
        let Some(tt) = self.tt.as_deref() else {
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
