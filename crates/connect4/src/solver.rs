//! The exact solver: a negamax node loop of its own on the bitboards, with every enhancement
//! of Pons's tutorial as a switch ([`Step`]), so the lab can measure each one, and a few of our
//! own on top. The steps are cumulative; [`Step::BEST`] is the solver `prune solve` runs.
//!
//! Scores are the test sets': 0 a draw, `22 - n` a win for the side to move with its `n`-th
//! stone, negative a loss.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use prune_search::{Named, TableAllocError};

use crate::position::{
    column_mask, winning_cells, Column, Position, CELLS, CENTRE_FIRST, HEIGHT, WIDTH,
};
use crate::table::{Part, Table};

const CELLS_I: i32 = CELLS as i32;

/// Feature bits of a [`Step`] (each step has its own and every earlier one's).
mod feature {
    pub const ALPHA_BETA: u32 = 1;
    pub const CENTRE_FIRST: u32 = 1 << 1;
    pub const TABLE: u32 = 1 << 2;
    pub const NULL_WINDOW: u32 = 1 << 3;
    pub const NON_LOSING: u32 = 1 << 4;
    pub const THREATS: u32 = 1 << 5;
    pub const TABLE_MOVE: u32 = 1 << 6;
    pub const PREFETCH: u32 = 1 << 7;
    pub const NEAR_TABLE: u32 = 1 << 8;
    pub const ETC: u32 = 1 << 9;
    pub const MIRROR: u32 = 1 << 10;
}

/// One step of the solver's progression, with every step before it (Pons's tutorial order,
/// then ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// Plain negamax: every move searched to the end, a win in one move seen at once.
    Negamax,
    /// Alpha-beta, the window clipped by the best and worst scores the moves left allow.
    AlphaBeta,
    /// Columns tried from the centre outwards.
    CentreFirst,
    /// A transposition table of upper and lower bounds.
    Table,
    /// The score found by null-window searches that narrow its range (a binary search).
    NullWindow,
    /// Moves that let the opponent win at once never searched; a forced block played alone.
    NonLosing,
    /// Moves that make the most threats (cells that would complete four) tried first.
    Threats,
    /// The column that last refuted a window at the position, kept in the table, tried first
    /// (not in Pons's solver).
    TableMove,
    /// The table slots of a node's children fetched into the cache before they are searched
    /// (the same search, in less time).
    Prefetch,
    /// Positions with at least 22 stones kept in the table's small part, which stays in the
    /// cache ([`Table`]).
    NearTable,
    /// Enhanced transposition cutoff: a child whose table entry already refutes the window
    /// ends the node before any child is searched.
    Etc,
    /// A position and its mirror image share their table entry (not in Pons's final solver).
    /// Measured not to pay: computing the mirror costs more than the nodes it saves, so the
    /// solver stops one step before it ([`Step::BEST`]).
    Mirror,
}

impl Step {
    /// Every step, in order.
    pub const ALL: [Step; 12] = [
        Step::Negamax,
        Step::AlphaBeta,
        Step::CentreFirst,
        Step::Table,
        Step::NullWindow,
        Step::NonLosing,
        Step::Threats,
        Step::TableMove,
        Step::Prefetch,
        Step::NearTable,
        Step::Etc,
        Step::Mirror,
    ];

    /// The solver `prune solve` runs: the fastest step measured.
    pub const BEST: Step = Step::NearTable;

    /// The feature bits of this step and every earlier one.
    pub const fn features(self) -> u32 {
        use feature::*;
        let all = [
            0,
            ALPHA_BETA,
            CENTRE_FIRST,
            TABLE,
            NULL_WINDOW,
            NON_LOSING,
            THREATS,
            TABLE_MOVE,
            PREFETCH,
            NEAR_TABLE,
            ETC,
            MIRROR,
        ];
        let mut bits = 0;
        let mut i = 0;
        while i <= self as usize {
            bits |= all[i];
            i += 1;
        }
        bits
    }

    /// What the step adds, in a few words.
    pub const fn description(self) -> &'static str {
        match self {
            Step::Negamax => "plain negamax",
            Step::AlphaBeta => "+ alpha-beta, score bounded by the moves left",
            Step::CentreFirst => "+ centre columns first",
            Step::Table => "+ transposition table of bounds",
            Step::NullWindow => "+ iterative null-window search",
            Step::NonLosing => "+ losing moves pruned",
            Step::Threats => "+ threat ordering",
            Step::TableMove => "+ table's best move first",
            Step::Prefetch => "+ children's table slots prefetched",
            Step::NearTable => "+ deep positions in a cache-sized table",
            Step::Etc => "+ enhanced transposition cutoff",
            Step::Mirror => "+ mirror positions share an entry",
        }
    }
}

impl Named for Step {
    const KIND: &'static str = "step";
    const ALL: &'static [Step] = &Step::ALL;
    fn name(self) -> &'static str {
        match self {
            Step::Negamax => "negamax",
            Step::AlphaBeta => "alphabeta",
            Step::CentreFirst => "centre",
            Step::Table => "table",
            Step::NullWindow => "null-window",
            Step::NonLosing => "non-losing",
            Step::Threats => "threats",
            Step::TableMove => "table-move",
            Step::Prefetch => "prefetch",
            Step::NearTable => "near-table",
            Step::Etc => "etc",
            Step::Mirror => "mirror",
        }
    }
}

prune_search::named!(Step);

/// What to solve for and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Only win, draw or loss (scores 1, 0, −1), not by how much.
    pub weak: bool,
    /// The solver's step (enhancements); [`Step::BEST`] unless measuring.
    pub step: Step,
    /// Give up after this many nodes (the lab's cap on slow steps); `None`: never.
    pub node_limit: Option<u64>,
    /// Threads searching together, sharing the root's moves and the table; 1: the plain
    /// solver.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            weak: false,
            step: Step::BEST,
            node_limit: None,
            threads: 1,
        }
    }
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The score for the side to move (the test sets' scale; in weak mode 1, 0 or −1).
    /// Meaningless when the solve is not [`complete`](Solution::complete).
    pub score: i32,
    /// A column that reaches the score (`None` when not complete).
    pub best_move: Option<Column>,
    /// Nodes searched, by every thread.
    pub nodes: u64,
    /// Whether the solve finished (false: it reached the node limit).
    pub complete: bool,
}

/// The exact Connect Four solver, with its table (kept from one solve to the next, so a batch
/// of positions reuses what earlier ones found; [`Solver::clear`] forgets it).
pub struct Solver {
    table: Table,
}

impl Solver {
    /// A solver with the default table ([`Table::DEFAULT_BITS`]).
    pub fn new() -> Result<Solver, TableAllocError> {
        Solver::with_table_bits(Table::DEFAULT_BITS)
    }

    /// A solver with a table of `2^bits` entries of 8 bytes.
    pub fn with_table_bits(bits: u32) -> Result<Solver, TableAllocError> {
        Ok(Solver {
            table: Table::try_new(bits)?,
        })
    }

    /// A solver whose table takes at most `bytes`.
    pub fn with_table_bytes(bytes: usize) -> Result<Solver, TableAllocError> {
        Ok(Solver {
            table: Table::try_with_bytes(bytes)?,
        })
    }

    /// The memory the table takes, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything the table holds.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `position`, which must not be won already (a [`Position`] read from moves never
    /// is): its exact score (or win/draw/loss), a best column and the nodes searched.
    pub fn solve(&mut self, position: &Position, options: &SolveOptions) -> Solution {
        if position.is_won() || position.moves_played() == CELLS {
            let score = if position.is_won() {
                -(22 - (position.moves_played() as i32 + 1) / 2)
            } else {
                0
            };
            let score = if options.weak { score.signum() } else { score };
            return Solution {
                score,
                best_move: None,
                nodes: 0,
                complete: true,
            };
        }
        let limit = options.node_limit.unwrap_or(u64::MAX);
        let mut worker = Worker::new(&self.table, limit, None);
        worker.threads = options.threads.max(1);
        let (score, best) = worker.solve(position, options);
        worker.solution(score, best, worker.nodes)
    }

    /// The score of every column (`None` for a full one), each solved exactly: what
    /// `prune play`'s hints and Pons's `-a` analysis show.
    pub fn analyze(&mut self, position: &Position, options: &SolveOptions) -> [Option<i32>; 7] {
        let mut scores = [None; 7];
        if position.is_won() {
            return scores;
        }
        for (c, slot) in scores.iter_mut().enumerate() {
            let column = Column::new(c as u8).expect("seven columns");
            if !position.can_play(column) {
                continue;
            }
            *slot = Some(if position.is_winning_move(column) {
                let s = position.win_now_score();
                if options.weak {
                    1
                } else {
                    s
                }
            } else {
                -self.solve(&position.play_column(column), options).score
            });
        }
        scores
    }
}

/// The moves of a node, best first (at most seven).
struct MoveList {
    cells: [u64; 7],
    columns: [u8; 7],
    keys: [i32; 7],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    fn new() -> MoveList {
        MoveList {
            cells: [0; 7],
            columns: [0; 7],
            keys: [0; 7],
            len: 0,
        }
    }

    /// Inserts after every move with a key at least as large (so ties keep insertion order).
    #[inline(always)]
    fn insert(&mut self, cell: u64, column: u8, key: i32) {
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

/// One thread's search: the shared table, its node count and when to stop.
struct Worker<'a> {
    table: &'a Table,
    nodes: u64,
    limit: u64,
    next_poll: u64,
    stop: Option<&'a AtomicBool>,
    aborted: bool,
    /// Threads to share the root's moves between (1: search alone).
    threads: usize,
    /// The root's best column in the current search.
    root_best: Option<u8>,
}

/// Nodes between two looks at the stop flag.
const POLL_INTERVAL: u64 = 4096;

impl<'a> Worker<'a> {
    fn new(table: &'a Table, limit: u64, stop: Option<&'a AtomicBool>) -> Worker<'a> {
        let next_poll = if stop.is_some() {
            POLL_INTERVAL.min(limit)
        } else {
            limit
        };
        Worker {
            table,
            nodes: 0,
            limit,
            next_poll,
            stop,
            aborted: false,
            threads: 1,
            root_best: None,
        }
    }

    fn solution(&self, score: i32, best: Option<Column>, nodes: u64) -> Solution {
        Solution {
            score,
            best_move: if self.aborted { None } else { best },
            nodes,
            complete: !self.aborted,
        }
    }

    #[cold]
    fn poll(&mut self) {
        if self.nodes >= self.limit || self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
        self.next_poll = if self.stop.is_some() {
            (self.nodes + POLL_INTERVAL).min(self.limit)
        } else {
            self.limit
        };
    }

    fn solve(&mut self, position: &Position, options: &SolveOptions) -> (i32, Option<Column>) {
        macro_rules! by_step {
            ($($step:ident),*) => {
                match options.step {
                    $(Step::$step => self.solve_with::<{ Step::$step.features() }>(position, options.weak),)*
                }
            };
        }
        by_step!(
            Negamax,
            AlphaBeta,
            CentreFirst,
            Table,
            NullWindow,
            NonLosing,
            Threats,
            TableMove,
            Prefetch,
            NearTable,
            Etc,
            Mirror
        )
    }

    fn solve_with<const F: u32>(&mut self, p: &Position, weak: bool) -> (i32, Option<Column>) {
        let order = if F & feature::CENTRE_FIRST != 0 {
            CENTRE_FIRST
        } else {
            [0, 1, 2, 3, 4, 5, 6]
        };
        if p.can_win_now() {
            let column = order
                .iter()
                .map(|&c| Column::new(c).expect("seven columns"))
                .find(|&c| p.can_play(c) && p.is_winning_move(c));
            let score = p.win_now_score();
            return (if weak { 1 } else { score }, column);
        }
        let moves = p.moves_played() as i32;
        let (score, best) = if F & feature::NULL_WINDOW != 0 {
            let (mut min, mut max) = if weak {
                (-1, 1)
            } else {
                (-(CELLS_I - moves) / 2, (CELLS_I + 1 - moves) / 2)
            };
            let mut best = None;
            while min < max && !self.aborted {
                let mut med = min + (max - min) / 2;
                // Probe near zero first: most scores are small, and the sign is worth most.
                if med <= 0 && min / 2 < med {
                    med = min / 2;
                } else if med >= 0 && max / 2 > med {
                    med = max / 2;
                }
                self.root_best = None;
                let r = if self.threads > 1
                    && F & feature::NON_LOSING != 0
                    && self.nodes >= SPLIT_AFTER_NODES
                {
                    self.split_node::<F>(p, med, SPLIT_PLIES, true)
                } else {
                    self.negamax::<F, true>(p, med, med + 1)
                };
                if r <= med {
                    max = r;
                } else {
                    min = r;
                    // None when the bound alone answered: see below.
                    best = self.root_best;
                }
            }
            (min, best)
        } else {
            let (lo, hi) = if weak { (-1, 1) } else { (-CELLS_I, CELLS_I) };
            self.root_best = None;
            let r = self.negamax::<F, true>(p, lo, hi);
            (r, self.root_best)
        };
        // No move was found better than the bound the moves left allow, so every move that
        // does not hand the opponent a win at once reaches it (all do if every move loses).
        let best = best.or_else(|| {
            let good = match p.non_losing_cells() {
                0 => p.playable(),
                cells => cells,
            };
            order
                .iter()
                .copied()
                .find(|&c| good & column_mask(c as u32) != 0)
        });
        let score = if weak { score.signum() } else { score };
        (score, best.and_then(Column::new))
    }

    /// A null-window search of `p` around `med` (the answer is above `med` or not) with its
    /// moves shared between threads, young brothers wait: the first move (the table's, or the
    /// best ordered) is searched first, itself split this way while `plies` allows (usually
    /// it decides); then every thread takes the next move not taken yet, until one of them
    /// finds a move above `med` (the others are told to stop) or none is left. The threads
    /// share the table. Needs losing moves pruned (a node's moves are then exactly those
    /// `negamax` would search).
    fn split_node<const F: u32>(&mut self, p: &Position, med: i32, plies: u32, root: bool) -> i32 {
        let moves = p.moves_played() as i32;
        if !root && p.can_win_now() {
            return p.win_now_score();
        }
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

    /// The score of `p` if it lies in `(alpha, beta)`; otherwise a bound on the same side of the
    /// window (at most `alpha`, or at least `beta`). The side to move must not be able to win
    /// at once when losing moves are pruned (the caller ensures it).
    fn negamax<const F: u32, const ROOT: bool>(
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
    fn ordered<const F: u32>(&self, p: &Position, candidates: u64, skip: Option<u8>) -> MoveList {
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
fn part_of(moves: i32) -> Part {
    if moves >= NEAR_FROM {
        Part::Near
    } else {
        Part::Far
    }
}

/// With several threads, a null-window probe is split at the root and, down the first move's
/// line, at this many plies in all (measured on Begin-Medium with two threads: 1, 2, 3 and 4;
/// docs/connect4.md).
const SPLIT_PLIES: u32 = 3;

/// With several threads, probes are split only once a solve has searched this many nodes
/// alone: a shorter solve does not pay for starting threads (Begin-Easy, about 3,500 nodes per
/// position, took 345 µs on two threads against 147 µs on one when every probe was split).
const SPLIT_AFTER_NODES: u64 = 100_000;

/// Enhanced transposition cutoffs are tried only this early in the game, where the subtrees
/// they save are large enough to pay for the probes.
const ETC_BEFORE_MOVE: i32 = 30;

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(moves: &str, step: Step) -> Solution {
        let p = Position::from_moves(moves).unwrap();
        let mut solver = Solver::with_table_bits(16).unwrap();
        solver.solve(
            &p,
            &SolveOptions {
                step,
                ..SolveOptions::default()
            },
        )
    }

    #[test]
    fn steps_accumulate_and_name_themselves() {
        assert_eq!(Step::Negamax.features(), 0);
        assert_eq!(
            Step::Mirror.features().count_ones(),
            Step::ALL.len() as u32 - 1
        );
        for step in Step::ALL {
            assert_eq!(step.name().parse::<Step>().unwrap(), step);
        }
    }

    #[test]
    fn a_win_in_one_is_found_with_its_column() {
        // X has 1, 2, 3 on the bottom row and is to move: column 4 wins with its 4th stone.
        let s = solve("152535", Step::BEST);
        assert_eq!(s.score, 18);
        assert_eq!(s.best_move, Column::new(3));
    }
}
