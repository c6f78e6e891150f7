//! The playing engine: NegaScout (principal variation search) with iterative deepening,
//! aspiration windows, a transposition table, the staged move picker with killer moves and
//! history, a quiescence search over captures (and, if asked, checks), check extension,
//! the selective search of chess and shogi engines ([`Selective`]: null move, late-move
//! reductions and pruning, futility, razoring, static-exchange pruning, internal iterative
//! reduction) and limits of depth, nodes and time. It evaluates with [`crate::HandMadeEval`] or
//! [`crate::MaterialEval`] ([`EvalKind`]). No I/O: `prune usi` and the command line drive it.
//!
//! The staged picker draws a node's moves in the order shogi engines (Apery, and Stockfish
//! before it) use: the table's move, good captures (most valuable victim first, least valuable
//! attacker next; a capture is good when its static exchange evaluation, [`Position::see`],
//! loses nothing), the killer moves of the ply, the quiet moves by history, the bad
//! captures. All legal moves are generated at once (legality needs the position after each
//! move here), so the stages order the moves rather than save their generation. The plain
//! order, for comparison, is the table's move and then captures by victim, the rest as
//! generated.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use prune_search::MoveBits;

use crate::eval::value;

mod options;
use crate::position::{Move, Position};
use crate::record::{repetition, Repetition};
pub use options::{EngineOptions, EvalKind, Selective};

/// The score of mate: mate in `n` plies scores `MATE - n` (its loss `-(MATE - n)`).
pub const MATE: i32 = 30_000;
/// Scores at least this far from zero are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITE: i32 = 32_000;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 64;
const MAX_PLY: usize = 128;
/// The quiescence search stops this many plies below the main search's leaves.
const QUIESCENCE_PLIES: usize = 12;

/// The stages of the picker, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The transposition table's move.
    HashMove,
    /// Captures that win material or are safe.
    GoodCapture,
    /// The killer moves of the ply.
    Killer,
    /// Quiet moves (and drops), by history.
    Quiet,
    /// Captures that lose material.
    BadCapture,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 5] = [
        Stage::HashMove,
        Stage::GoodCapture,
        Stage::Killer,
        Stage::Quiet,
        Stage::BadCapture,
    ];

    /// The stage's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Stage::HashMove => "hash move",
            Stage::GoodCapture => "good captures",
            Stage::Killer => "killers",
            Stage::Quiet => "quiet moves",
            Stage::BadCapture => "bad captures",
        }
    }
}

/// When a search stops: the first limit reached. With none, it searches to [`MAX_DEPTH`]
/// (or until [`Engine::stop_flag`] is raised).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The last iteration's depth.
    pub depth: Option<u32>,
    /// Nodes (main and quiescence).
    pub nodes: Option<u64>,
    /// Stop at once when this much time has passed.
    pub hard_time: Option<Duration>,
    /// Start no new iteration after this much time.
    pub soft_time: Option<Duration>,
}

/// One finished iteration, as reported while searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Its depth.
    pub depth: u32,
    /// Its score for the side to move, centipawns (mates: see [`MATE`]).
    pub score: i32,
    /// Nodes so far in this search.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Per stage of the picker: moves searched, and cutoffs they caused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageCounts {
    /// Moves searched, by [`Stage`] order.
    pub searched: [u64; 5],
    /// Beta cutoffs, by [`Stage`] order.
    pub cutoffs: [u64; 5],
}

impl StageCounts {
    /// Adds `other` into these counts.
    pub fn add(&mut self, other: &StageCounts) {
        for i in 0..5 {
            self.searched[i] += other.searched[i];
            self.cutoffs[i] += other.cutoffs[i];
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// Its score for the side to move (centipawns; mates: see [`MATE`]).
    pub score: i32,
    /// The last finished iteration's depth.
    pub depth: u32,
    /// Nodes searched (main and quiescence).
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The picker's moves and cutoffs per stage (main search only).
    pub stages: StageCounts,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    mv: u32,
    score: i32,
    depth: i16,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u32 = u32::MAX;

/// The engine: its table, killers and history persist between searches until
/// [`Engine::clear`].
pub struct Engine {
    options: EngineOptions,
    table: Vec<Entry>,
    killers: Vec<Vec<Move>>,
    /// By piece index (kind and color) or drop, and target square.
    history: Vec<i32>,
    stop: Arc<AtomicBool>,
    // Per search:
    path: Vec<(u64, bool)>,
    /// Where the repetition rule's view of the path starts (after the last null move).
    floor: usize,
    nodes: u64,
    limits: Limits,
    started: Instant,
    aborted: bool,
    stages: StageCounts,
    pv: Vec<Vec<Move>>,
}

/// Late-move reduction of the move at `index` (from 0) at a node `depth` plies deep:
/// `ln(depth) · ln(index) / 2`, at least 1 (only late moves are reduced).
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    let r = (f64::from(depth).ln() * (index as f64).ln() / 2.0) as i32;
    r.max(1)
}

/// How a move is kept in the history table: the moving piece (or the dropped kind) and the
/// target square.
fn history_index(p: &Position, mv: Move) -> usize {
    match mv {
        Move::Normal { from, to, .. } => {
            let piece = p.piece(from).expect("a move starts from a piece");
            (piece.color as usize * 14 + piece.kind as usize) * 81 + to.0 as usize
        }
        Move::Drop { kind, to } => {
            (28 + p.side_to_move() as usize * 14 + kind as usize) * 81 + to.0 as usize
        }
    }
}

fn mvv_lva(p: &Position, mv: Move) -> i32 {
    let victim = p.captured(mv).map_or(0, |q| value(q.kind));
    let attacker = match mv {
        Move::Normal { from, .. } => p.piece(from).map_or(0, |q| value(q.kind)),
        Move::Drop { .. } => 0,
    };
    victim * 16 - attacker / 16
}

/// Whether a capture keeps its material: its static exchange evaluation
/// ([`Position::see`]) loses nothing.
fn good_capture(p: &Position, mv: Move) -> bool {
    p.see(mv) >= 0
}

impl Engine {
    /// An engine with `options`.
    pub fn new(options: EngineOptions) -> Engine {
        let mut engine = Engine {
            options: options.clone(),
            table: Vec::new(),
            killers: vec![Vec::new(); MAX_PLY],
            history: vec![0; 2 * 28 * 81],
            stop: Arc::new(AtomicBool::new(false)),
            path: Vec::new(),
            floor: 0,
            nodes: 0,
            limits: Limits::default(),
            started: Instant::now(),
            aborted: false,
            stages: StageCounts::default(),
            pv: vec![Vec::new(); MAX_PLY + 1],
        };
        engine.set_options(options);
        engine
    }

    /// Changes the options (a new table size clears the table).
    pub fn set_options(&mut self, options: EngineOptions) {
        let entries = if options.hash_mb == 0 {
            0
        } else {
            let bytes = options.hash_mb.min(1 << 16) << 20;
            (bytes / std::mem::size_of::<Entry>()).next_power_of_two() / 2
        };
        if entries != self.table.len() {
            self.table = vec![Entry::default(); entries];
        }
        self.options = options;
    }

    /// The options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Forgets the table, the killers and the history (a new game).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.killers.iter_mut().for_each(Vec::clear);
        self.history.fill(0);
    }

    /// The flag that stops a running search when raised. It stays raised (and stops every
    /// later search at once) until its owner lowers it: a search does not lower it itself, so
    /// that a stop sent just before a search thread begins is not lost.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Searches `root` within `limits`, calling `report` after each finished iteration.
    /// `history` lists the game's positions before `root`, oldest first, as
    /// [`crate::GameRecord::history`] gives them (keys and checks), for the repetition rule.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[(u64, bool)],
        limits: Limits,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.path.clear();
        self.floor = 0;
        self.path.extend_from_slice(history);
        self.path.push((root.key(), root.in_check()));
        self.nodes = 0;
        self.limits = limits;
        self.started = Instant::now();
        self.aborted = false;
        self.stages = StageCounts::default();
        self.killers.iter_mut().for_each(Vec::clear);
        for h in &mut self.history {
            *h /= 8;
        }
        let moves = root.legal_moves();
        let mut result = SearchResult {
            best: moves.first().copied(),
            score: if moves.is_empty() { -MATE } else { 0 },
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: moves.first().copied().into_iter().collect(),
            stages: StageCounts::default(),
        };
        if moves.is_empty() {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let score = self.aspiration(root, depth, result.score);
            if self.aborted {
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
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                pv: result.pv.clone(),
            };
            report(&iteration);
            if score.abs() >= MATE_BOUND && depth as i32 >= MATE - score.abs() {
                break; // a mate found within the full width: deeper changes nothing
            }
            if limits
                .soft_time
                .is_some_and(|t| self.started.elapsed() >= t)
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.started.elapsed();
        result.stages = self.stages;
        result
    }

    fn aspiration(&mut self, root: &Position, depth: u32, previous: i32) -> i32 {
        let width = self.options.aspiration;
        if width <= 0 || depth < 4 || previous.abs() >= MATE_BOUND {
            return self.node(root, depth as i32, -INFINITE, INFINITE, 0);
        }
        let mut delta = width;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.node(root, depth as i32, alpha, beta, 0);
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

    fn out_of_limits(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let time = self
                .limits
                .hard_time
                .is_some_and(|t| self.started.elapsed() >= t);
            if nodes || time || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        if self.table.is_empty() {
            return None;
        }
        let e = self.table[key as usize & (self.table.len() - 1)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    fn store(&mut self, key: u64, depth: i32, score: i32, bound: u8, mv: Option<Move>, ply: usize) {
        if self.table.is_empty() {
            return;
        }
        let mask = self.table.len() - 1;
        let slot = &mut self.table[key as usize & mask];
        if slot.key == key && i32::from(slot.depth) > depth && bound != EXACT {
            return;
        }
        // Mate scores are stored as distances from this node.
        let score = if score >= MATE_BOUND {
            score + ply as i32
        } else if score <= -MATE_BOUND {
            score - ply as i32
        } else {
            score
        };
        *slot = Entry {
            key,
            mv: mv.map_or(NO_MOVE, MoveBits::to_bits),
            score,
            depth: depth as i16,
            bound,
        };
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

    /// The moves of `p` in the picker's order, each with its stage.
    fn ordered(
        &self,
        p: &Position,
        moves: &[Move],
        hash: Option<Move>,
        ply: usize,
    ) -> Vec<(Move, Stage, i32)> {
        let mut keyed: Vec<(Move, Stage, i32)> = moves
            .iter()
            .map(|&mv| {
                if Some(mv) == hash {
                    return (mv, Stage::HashMove, 0);
                }
                let capture = p.captured(mv).is_some();
                if !self.options.staged {
                    return if capture {
                        (mv, Stage::GoodCapture, mvv_lva(p, mv))
                    } else {
                        (mv, Stage::Quiet, 0)
                    };
                }
                if capture {
                    return if good_capture(p, mv) {
                        (mv, Stage::GoodCapture, mvv_lva(p, mv))
                    } else {
                        (mv, Stage::BadCapture, mvv_lva(p, mv))
                    };
                }
                if let Some(slot) = self.killers[ply].iter().position(|&k| k == mv) {
                    return (mv, Stage::Killer, -(slot as i32));
                }
                let h = if self.options.history {
                    self.history[history_index(p, mv)]
                } else {
                    0
                };
                (mv, Stage::Quiet, h)
            })
            .collect();
        // Stable: equal keys keep the generation order.
        keyed.sort_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)));
        keyed
    }

    fn node(&mut self, p: &Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.node_with(p, depth, alpha, beta, ply, true)
    }

    /// A node of the main search; `null_ok`: whether a null move may be tried here (not right
    /// after one).
    fn node_with(
        &mut self,
        p: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if ply > 0 {
            if let Some(score) = self.repeated() {
                return score;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - QUIESCENCE_PLIES - 1 {
            return if self.options.quiescence {
                self.quiescence(p, alpha, beta, ply, 0)
            } else {
                self.nodes += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    -(MATE - ply as i32)
                } else {
                    self.options.eval.value(p)
                }
            };
        }
        self.nodes += 1;
        if self.out_of_limits() {
            return 0;
        }
        let key = p.key();
        let pv_node = beta - alpha > 1;
        let entry = self.probe(key);
        let mut hash_move = None;
        if let Some(e) = entry {
            hash_move = Move::from_bits(e.mv);
            if i32::from(e.depth) >= depth && !pv_node && ply > 0 {
                let score = if e.score >= MATE_BOUND {
                    e.score - ply as i32
                } else if e.score <= -MATE_BOUND {
                    e.score + ply as i32
                } else {
                    e.score
                };
                let usable = match e.bound {
                    EXACT => true,
                    LOWER => score >= beta,
                    UPPER => score <= alpha,
                    _ => false,
                };
                if usable {
                    return score;
                }
            }
        }
        // The parent pushed this position with its check flag: no second attack test.
        let in_check = self.path.last().is_some_and(|&(_, check)| check);
        let sel = self.options.selective;
        let mut futile = false;
        if !pv_node && !in_check && ply > 0 && sel.any() {
            let eval = self.options.eval.value(p);
            if sel.futility && depth <= 5 && eval - 150 * depth >= beta && eval < MATE_BOUND {
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
            if sel.null_move && null_ok && depth >= 2 && eval >= beta && beta > -MATE_BOUND {
                let r = 3 + depth / 4;
                let child = p.null_move();
                // Repetitions are not looked for across a null move.
                let floor = std::mem::replace(&mut self.floor, self.path.len());
                self.path.push((child.key(), false));
                let s = -self.node_with(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.path.pop();
                self.floor = floor;
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
            const FUTILITY_MARGIN: [i32; 4] = [0, 200, 350, 500];
            futile = sel.futility && depth <= 3 && eval + FUTILITY_MARGIN[depth as usize] <= alpha;
        }
        if sel.iir && hash_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        let moves = p.legal_moves();
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let ordered = self.ordered(p, &moves, hash_move, ply);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiet_seen = 0;
        for (i, &(mv, stage, _)) in ordered.iter().enumerate() {
            // Whether it checks, from the move alone: pruned moves are never played.
            let check = p.gives_check(mv);
            let quiet = stage == Stage::Quiet && !check;
            if quiet {
                quiet_seen += 1;
            }
            if i > 0 && !pv_node && !in_check && best > -MATE_BOUND {
                if quiet
                    && (futile
                        || sel.late_move_pruning && depth <= 6 && quiet_seen > 3 + depth * depth)
                {
                    continue;
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
            let extend = self.options.check_extension && check && ply < 2 * depth as usize + 8;
            let child_depth = depth - 1 + i32::from(extend);
            // Late quiet moves: two quiet moves in full first, the rest reduced.
            let reduction = if sel.lmr && quiet && !in_check && depth >= 3 && quiet_seen > 2 {
                lmr_reduction(depth, i).min(child_depth - 1)
            } else {
                0
            };
            let child = p.play(mv);
            self.path.push((child.key(), check));
            self.stages.searched[stage as usize] += 1;
            let score = if i == 0 {
                -self.node(&child, child_depth, -beta, -alpha, ply + 1)
            } else {
                let mut s =
                    -self.node(&child, child_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if reduction > 0 && s > alpha && !self.aborted {
                    s = -self.node(&child, child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.node(&child, child_depth, -beta, -alpha, ply + 1)
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
            }
            if alpha >= beta {
                self.stages.cutoffs[stage as usize] += 1;
                if p.captured(mv).is_none() {
                    self.reward_quiet(p, mv, depth, ply);
                }
                break;
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > original_alpha {
            EXACT
        } else {
            UPPER
        };
        self.store(key, depth, best, bound, best_move, ply);
        best
    }

    fn reward_quiet(&mut self, p: &Position, mv: Move, depth: i32, ply: usize) {
        if !self.options.staged {
            return;
        }
        let slots = self.options.killers;
        if slots > 0 {
            let k = &mut self.killers[ply];
            if let Some(i) = k.iter().position(|&m| m == mv) {
                k.remove(i);
            }
            k.insert(0, mv);
            k.truncate(slots);
        }
        if self.options.history {
            let h = &mut self.history[history_index(p, mv)];
            *h = (*h + depth * depth).min(1 << 24);
        }
    }

    /// Captures only, from the static evaluation ("stand pat"); every move when in check.
    fn quiescence(&mut self, p: &Position, mut alpha: i32, beta: i32, ply: usize, q: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_limits() {
            return 0;
        }
        let in_check = p.in_check();
        let mut moves = Vec::new();
        let mut best = -INFINITE;
        if in_check {
            p.generate_legal(&mut moves);
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
        } else {
            best = self.options.eval.value(p);
            if best >= beta || q >= QUIESCENCE_PLIES {
                return best;
            }
            alpha = alpha.max(best);
            if q == 0 && self.options.quiet_checks {
                p.generate_legal(&mut moves);
                moves.retain(|&mv| p.captured(mv).is_some() || p.gives_check(mv) && p.see(mv) >= 0);
            } else {
                p.legal_captures(&mut moves);
            }
        }
        moves.sort_by_key(|&mv| -mvv_lva(p, mv));
        for mv in moves {
            if !in_check && p.captured(mv).is_some() && !good_capture(p, mv) {
                continue;
            }
            let score = -self.quiescence(&p.play(mv), -beta, -alpha, ply + 1, q + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandMadeEval;
    use prune_search::textbook::{negamax, Walk};

    fn search(sfen: &str, options: EngineOptions, depth: u32) -> SearchResult {
        let p: Position = sfen.parse().unwrap();
        Engine::new(options).search(
            &p,
            &[],
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &mut |_| {},
        )
    }

    #[test]
    fn finds_a_mate_in_one() {
        for preset in EngineOptions::PRESETS {
            let r = search(
                "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
                EngineOptions::preset(preset).unwrap(),
                3,
            );
            assert_eq!(r.best.unwrap().to_string(), "G*5b", "{preset}");
            assert_eq!(r.score, MATE - 1, "{preset}");
        }
    }

    #[test]
    fn a_mated_side_has_no_move_and_a_lost_score() {
        let r = search(
            "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
            EngineOptions::default(),
            3,
        );
        assert_eq!(r.best, None);
        assert_eq!(r.score, -MATE);
    }

    /// Without quiescence, extension, aspiration and the selective search, every option set
    /// gives the value of a plain negamax of the same evaluation at the same depth.
    #[test]
    fn fixed_depth_values_equal_plain_negamax() {
        let positions = [
            crate::START_SFEN,
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15",
        ];
        for sfen in positions {
            let p: Position = sfen.parse().unwrap();
            for depth in 1..=2 {
                let expected = negamax(&p, depth, &mut Walk::new(&HandMadeEval))
                    .value
                    .raw();
                for preset in ["exhaustive", "plain"] {
                    let options = EngineOptions {
                        quiescence: false,
                        check_extension: false,
                        aspiration: 0,
                        ..EngineOptions::preset(preset).unwrap()
                    };
                    let r = search(sfen, options, depth);
                    assert_eq!(r.score, expected, "{sfen} depth {depth} {preset}");
                }
            }
        }
    }

    #[test]
    fn the_staged_picker_counts_its_stages_and_a_search_stops_on_its_node_limit() {
        let p: Position = crate::START_SFEN.parse().unwrap();
        let mut engine = Engine::new(EngineOptions::default());
        let mut iterations = Vec::new();
        let r = engine.search(
            &p,
            &[],
            Limits {
                depth: Some(4),
                ..Limits::default()
            },
            &mut |it| iterations.push(it.depth),
        );
        assert_eq!(iterations, [1, 2, 3, 4]);
        assert!(p.legal_moves().contains(&r.best.unwrap()));
        let searched: u64 = r.stages.searched.iter().sum();
        let cutoffs: u64 = r.stages.cutoffs.iter().sum();
        assert!(searched > 0 && cutoffs > 0 && cutoffs <= searched);
        let limited = engine.search(
            &p,
            &[],
            Limits {
                nodes: Some(5_000),
                ..Limits::default()
            },
            &mut |_| {},
        );
        assert!(limited.nodes < 5_000 + 1_024 + 64, "{}", limited.nodes);
    }

    #[test]
    fn the_search_takes_a_repetition_as_a_draw() {
        // Black is a rook down. Kings out and back: the position after 5i5h recurs if Black
        // plays 5i5h again, which the search scores as a draw: its best hope.
        let start: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1"
            .parse()
            .unwrap();
        let mut game = crate::GameRecord::new(start);
        let mut engine = Engine::new(EngineOptions::default());
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let before = engine.search(game.position(), &[], limits, &mut |_| {});
        assert!(before.score < -500, "a rook down: {}", before.score);
        for m in "5i5h 5a5b 5h5i 5b5a".split_whitespace() {
            game.play_usi(m).unwrap();
        }
        let history = &game.history()[..game.history().len() - 1];
        let r = engine.search(game.position(), history, limits, &mut |_| {});
        assert_eq!((r.best.unwrap().to_string(), r.score), ("5i5h".into(), 0));
    }
}
