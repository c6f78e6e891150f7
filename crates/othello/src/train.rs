//! Training the [`PatternEval`] from prune's own games: the pieces of `prune train`.
//!
//! 1. [`self_play`]: games from randomised openings, then, in the first generation
//!    ([`TrainOptions::play_depth`] 0), moves chosen by a one-ply look at the hand-made
//!    evaluation with some random moves mixed in; in the second, moves chosen by a search of
//!    the trained evaluation ([`TrainOptions::play_depth`] plies) and, from
//!    [`TrainOptions::exact_empties`] empties on, by the exact solver, which also labels every
//!    one of those positions. Every distinct position (not the final ones) is a sample; one
//!    reached after the random opening also carries the game's **outcome**: the exact score of
//!    the game's first solved position, seen from the sample's side to move (averaged over the
//!    games that reach it).
//! 2. [`label`]: each sample's target value, in discs. Positions with at most
//!    [`TrainOptions::exact_empties`] empties are solved exactly; earlier ones get
//!    [`TrainOptions::outcome_weight`] times their outcome plus the rest times the value of a
//!    [`TrainOptions::search_depth`]-ply search whose leaves are evaluated by the weights
//!    already fitted for the later phases (bootstrapping: the phases are trained from the end
//!    of the game backwards, and the search depth is at least a phase's width, so the leaves
//!    lie in phases fitted before). A sample with neither (no outcome, no search) is left out.
//! 3. [`fit_phase`]: least squares by gradient descent on one phase's samples, reporting the
//!    mean absolute error on held-out games.
//!
//! Everything is deterministic for a given seed and independent of the number of threads. The
//! file handling (resuming, progress bars) is the command line's.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use prune_search::rng::{mix, Rng, XorShift64Star};
use prune_search::{Algorithm, Engine, Preset, SearchConfig, SearchLimits, TtConfig};

use crate::board::Board;
use crate::endgame::EndgameSolver;
use crate::ordering::{Ordered, StaticOrdering};
use crate::pattern::{
    indices, phase_of, Classes, PatternEval, PatternWeights, PhaseWeights, INSTANCES, PHASES,
    PHASE_WIDTH,
};
use crate::position::{Color, Position};
use crate::square::Square;
use crate::{HandEval, OthelloEval};

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// The seed of every random choice.
    pub seed: u64,
    /// Self-play games to generate.
    pub games: usize,
    /// Each game starts with a number of uniformly random moves between these two (inclusive).
    pub random_plies: (u32, u32),
    /// After the opening, the chance that a move is random instead of the player's choice (in
    /// the second generation only from [`TrainOptions::exact_empties`] on, where every position
    /// is solved, so that no outcome is spoilt).
    pub noise: f64,
    /// How the games are played after the opening: 0 is the first generation's one-ply look at
    /// the hand-made evaluation; more is the second generation's search of this many plies with
    /// [`TrainOptions::player`], then the exact solver from [`TrainOptions::exact_empties`].
    pub play_depth: u32,
    /// The weights the second generation plays with.
    pub player: Option<Arc<PatternWeights>>,
    /// Positions with at most this many empties are labelled by an exact solve.
    pub exact_empties: u32,
    /// The depth of the labelling search for earlier positions (at least [`PHASE_WIDTH`]; 0 for
    /// none: then only outcomes label them).
    pub search_depth: u32,
    /// Whether the labelling search's value is the mean of its values at
    /// [`TrainOptions::search_depth`] and one ply deeper (the last two iterations of one
    /// search). The evaluation's error for the side to move (its tempo) enters a search's value
    /// with the sign of the depth's parity, so the two cancel: labels from even depths alone
    /// made the start position look better for black at odd depths, labels from odd depths at
    /// even ones.
    pub average_depths: bool,
    /// The share of a sample's target taken from its games' outcome (when it has one), the rest
    /// from the labelling search: 0 is the first generation's search labels alone.
    pub outcome_weight: f32,
    /// One game in this many is held out of the fit to measure it.
    pub holdout_every: usize,
    /// Gradient-descent passes per phase.
    pub epochs: usize,
    /// The ridge penalty: each weight's squared size counts this many squared errors of one
    /// disc (it keeps the weights of rare configurations small).
    pub l2: f32,
    /// Whether the ridge penalty pulls each weight toward its value in the phase fitted before
    /// (the next later one) instead of toward zero: the phases' weights then change smoothly,
    /// and a phase with noisy targets keeps what the phases with exact ones learnt.
    pub l2_toward_previous: bool,
    /// Whether each phase has one bias for all its numbers of empties instead of one per
    /// number. The bias per number of empties is the only thing of the evaluation that can
    /// tell the two colours apart (through the parity of the empties), so it also learns
    /// which colour the training games favoured; one per phase cannot.
    pub bias_per_phase: bool,
    /// Worker threads for labelling.
    pub threads: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            seed: 1,
            games: 20000,
            random_plies: (2, 20),
            noise: 0.1,
            play_depth: 0,
            player: None,
            exact_empties: 14,
            search_depth: PHASE_WIDTH,
            outcome_weight: 0.0,
            average_depths: false,
            holdout_every: 10,
            epochs: 300,
            l2: 2.0,
            l2_toward_previous: false,
            bias_per_phase: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One training position: the discs of the side to move and of the opponent, the game it came
/// from (for the held-out split), and what self-play learnt of its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// The side to move's discs.
    pub player: u64,
    /// The opponent's discs.
    pub opponent: u64,
    /// The number of the game that first reached it.
    pub game: u32,
    /// The sum of the outcomes (side to move's view, discs) of the games that reached it after
    /// their random opening (second generation).
    pub outcome_sum: i32,
    /// How many games [`Sample::outcome_sum`] adds up.
    pub outcome_count: u32,
    /// Its exact score, when self-play solved it (second generation).
    pub exact: Option<i8>,
}

impl Sample {
    /// A sample of `board` from game `game`, with nothing known of its value.
    pub fn new(board: &Board, game: u32) -> Sample {
        Sample {
            player: board.player(),
            opponent: board.opponent(),
            game,
            outcome_sum: 0,
            outcome_count: 0,
            exact: None,
        }
    }

    /// The mean outcome of the games that reached it after their opening, if any did.
    pub fn outcome(&self) -> Option<f32> {
        (self.outcome_count > 0).then(|| self.outcome_sum as f32 / self.outcome_count as f32)
    }

    /// The empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The board.
    pub fn board(&self) -> Board {
        Board::from_bits(self.player, self.opponent).expect("samples have disjoint discs")
    }
}

/// The `k`-th set bit of `mask`.
fn nth_square(mut mask: u64, k: u64) -> Square {
    for _ in 0..k {
        mask &= mask - 1;
    }
    Square::new(mask.trailing_zeros() as u8).expect("a set bit")
}

/// One self-play game: every position reached before the end, side to move first.
fn play_game(rng: &mut XorShift64Star, options: &TrainOptions) -> Vec<Board> {
    let (low, high) = options.random_plies;
    let random_plies = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
    let mut board = Board::START;
    let mut seen = Vec::with_capacity(64);
    for ply in 0.. {
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                break;
            }
            seen.push(board);
            board = board.pass();
            continue;
        }
        seen.push(board);
        let n = u64::from(moves.count_ones());
        let square = if ply < random_plies || rng.chance(options.noise) {
            nth_square(moves, rng.below(n))
        } else {
            // The move leaving the opponent the worst position; ties go to the first.
            crate::squares(moves)
                .min_by_key(|&s| HandEval.evaluate_board(&board.play_unchecked(s)))
                .expect("a move")
        };
        board = board.play_unchecked(square);
    }
    seen
}

/// The training positions of `options.games` self-play games, each distinct position once (in
/// the order first reached), with the outcomes of the games that reached it added up.
/// `progress` is called with the number of games played so far. The first generation plays
/// its games one after the other from one random sequence; the second plays them on
/// `options.threads` threads, each from its own seed (see [`play_games`]).
pub fn self_play(options: &TrainOptions, progress: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    if options.play_depth > 0 {
        let games = play_games(options, 0..options.games as u32, progress);
        return merge(games);
    }
    let mut rng = XorShift64Star::new(options.seed);
    let mut games = Vec::with_capacity(options.games);
    for game in 0..options.games {
        let boards = play_game(&mut rng, options);
        games.push(boards.iter().map(|b| Sample::new(b, game as u32)).collect());
        if game % 64 == 63 {
            progress(game + 1);
        }
    }
    progress(options.games);
    merge(games)
}

/// Each distinct position of `games` (one list of samples per game, in game order) once, in
/// the order first reached: the first game's number and exact score, every game's outcome
/// added up.
pub fn merge(games: impl IntoIterator<Item = Vec<Sample>>) -> Vec<Sample> {
    let mut index = std::collections::HashMap::new();
    let mut out: Vec<Sample> = Vec::new();
    for sample in games.into_iter().flatten() {
        match index.entry((sample.player, sample.opponent)) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let first: &mut Sample = &mut out[*e.get()];
                first.outcome_sum += sample.outcome_sum;
                first.outcome_count += sample.outcome_count;
                first.exact = first.exact.or(sample.exact);
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(out.len());
                out.push(sample);
            }
        }
    }
    out
}

/// The full preset's NegaScout, as the second generation plays and the labels search, with a
/// table of `tt_mib` MiB.
fn search_config(tt_mib: usize) -> SearchConfig {
    let mut config = Preset::find("full")
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the full preset exists");
    config.transposition_table = Some(TtConfig { size_mib: tt_mib });
    config
}

/// A second-generation player: the search with its evaluation, and the exact solver, kept by
/// a thread from game to game (cleared at each game's start, so that a game depends only on
/// its number).
struct Searcher {
    engine: Engine<Position>,
    eval: Ordered<OthelloEval>,
    limits: SearchLimits,
    solver: EndgameSolver,
}

impl Searcher {
    fn new(options: &TrainOptions) -> Searcher {
        let weights = options
            .player
            .clone()
            .unwrap_or_else(PatternWeights::builtin);
        let eval = OthelloEval::Pattern(PatternEval::new(weights));
        // The solver orders its moves with the same weights (by default it would take the
        // built-in ones, and which optimal move it plays, so the games, would change with them).
        let mut solver = EndgameSolver::new(16);
        solver.set_eval(eval.clone());
        Searcher {
            engine: Engine::new(search_config(8)).expect("the full preset is valid"),
            eval: Ordered {
                eval,
                ordering: StaticOrdering::Mobility,
            },
            limits: SearchLimits {
                depth: Some(options.play_depth),
                nodes: None,
                time: None,
            },
            solver,
        }
    }

    /// Game number `game` of the second generation: its random opening, then the search's
    /// moves, then from `options.exact_empties` empties the solver's (with `options.noise`
    /// random ones), every position from there solved. Its samples: every position before the
    /// end, with the exact score where solved and the game's outcome after the opening.
    fn play(&mut self, game: u32, options: &TrainOptions) -> Vec<Sample> {
        let mut rng = XorShift64Star::new(mix(options.seed, u64::from(game)));
        let (low, high) = options.random_plies;
        let random_plies = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
        self.engine.clear();
        self.solver.clear();
        let mut board = Board::START;
        let mut black = true;
        let mut ply = 0;
        // Each sample, whether black is to move, whether the opening was over.
        let mut seen: Vec<(Sample, bool, bool)> = Vec::with_capacity(64);
        // The outcome from black's view: the first solved position's score.
        let mut outcome = None;
        loop {
            let moves = board.moves();
            if moves == 0 && board.opponent_moves() == 0 {
                let score = board.final_score();
                outcome.get_or_insert(if black { score } else { -score });
                break;
            }
            let mut sample = Sample::new(&board, game);
            let solved = (board.empty_count() <= options.exact_empties)
                .then(|| self.solver.solve(&board, -64, 64));
            if let Some(r) = &solved {
                sample.exact = Some(r.score as i8);
                outcome.get_or_insert(if black { r.score } else { -r.score });
            }
            seen.push((sample, black, ply >= random_plies));
            black = !black;
            if moves == 0 {
                board = board.pass();
                continue;
            }
            let square = if ply < random_plies || (solved.is_some() && rng.chance(options.noise)) {
                nth_square(moves, rng.below(u64::from(moves.count_ones())))
            } else {
                let best = match solved {
                    Some(r) => r.best_move,
                    None => {
                        let position = Position::new(board, Color::Black);
                        self.engine
                            .search(&position, &self.eval, &self.limits)
                            .expect("a depth limit is given")
                            .best_move
                    }
                };
                best.and_then(|m| m.square())
                    .expect("a position with moves has a best square")
            };
            board = board.play_unchecked(square);
            ply += 1;
        }
        let outcome = outcome.expect("set at the game's end at the latest");
        seen.into_iter()
            .map(|(mut sample, black, after_opening)| {
                if after_opening && sample.exact.is_none() {
                    sample.outcome_sum = if black { outcome } else { -outcome };
                    sample.outcome_count = 1;
                }
                sample
            })
            .collect()
    }
}

/// The second generation's games numbered `games` (see [`TrainOptions::play_depth`]), each
/// from its own seed, on `options.threads` threads: one list of samples per game, in order.
/// `progress` gets the number played so far.
pub fn play_games(
    options: &TrainOptions,
    games: std::ops::Range<u32>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Vec<Sample>> {
    let next = AtomicUsize::new(games.start as usize);
    let done = AtomicUsize::new(0);
    let threads = options.threads.clamp(1, 256);
    let mut results: Vec<(u32, Vec<Sample>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut searcher = Searcher::new(options);
                    let mut mine = Vec::new();
                    loop {
                        let game = next.fetch_add(1, Ordering::Relaxed);
                        if game >= games.end as usize {
                            break;
                        }
                        mine.push((game as u32, searcher.play(game as u32, options)));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a self-play thread panicked"))
            .collect()
    });
    results.sort_by_key(|&(game, _)| game);
    results.into_iter().map(|(_, samples)| samples).collect()
}

/// A score of the generic search in discs: the margin when exact, else hundredths.
fn in_discs(score: prune_search::Score) -> f32 {
    match score.margin() {
        Some(m) => m as f32,
        None => score.raw() as f32 / 100.0,
    }
}

/// The target value (in discs, for the side to move) of each of `samples`, in order: the exact
/// score self-play found or an exact solve at few empties; else `options.outcome_weight` times
/// the games' outcome plus the rest times a search of `options.search_depth` plies evaluated by
/// `model` (the search alone without an outcome, the outcome alone without a search; NaN, left
/// out of the fit, with neither). Runs on `options.threads` threads; `progress` gets the
/// number labelled so far.
pub fn label(
    samples: &[Sample],
    model: &PatternEval,
    options: &TrainOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<f32> {
    const CHUNK: usize = 32;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = options.threads.clamp(1, 256);
    let mut results: Vec<(usize, Vec<f32>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut solver = EndgameSolver::new(4);
                    // The first generation's searches had the preset's 64 MiB table (kept, so
                    // that its labels stay the same); cleared for every sample, a small one is
                    // much cheaper for these shallow searches.
                    let tt_mib = if options.play_depth > 0 { 1 } else { 64 };
                    let mut engine = Engine::<Position>::new(search_config(tt_mib))
                        .expect("the full preset is valid");
                    let eval = Ordered {
                        eval: OthelloEval::Pattern(model.clone()),
                        ordering: StaticOrdering::Mobility,
                    };
                    let limits = SearchLimits {
                        depth: Some(options.search_depth + u32::from(options.average_depths)),
                        nodes: None,
                        time: None,
                    };
                    let weight = options.outcome_weight.clamp(0.0, 1.0);
                    let mut mine = Vec::new();
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= samples.len() {
                            break;
                        }
                        let end = (start + CHUNK).min(samples.len());
                        let mut values = Vec::with_capacity(end - start);
                        for s in &samples[start..end] {
                            let board = s.board();
                            let outcome = s.outcome();
                            let search =
                                options.search_depth > 0 && (outcome.is_none() || weight < 1.0);
                            let value = if let Some(exact) = s.exact {
                                f32::from(exact)
                            } else if s.empties() <= options.exact_empties {
                                solver.clear();
                                solver.solve(&board, -64, 64).score as f32
                            } else if search {
                                engine.clear();
                                let position = Position::new(board, Color::Black);
                                let r = engine
                                    .search(&position, &eval, &limits)
                                    .expect("a depth limit is given");
                                let n = r.iterations.len();
                                let searched = if options.average_depths && n >= 2 {
                                    // The last two iterations: depths d and d + 1 (fewer when
                                    // the search reached the game's end: then its value).
                                    (in_discs(r.iterations[n - 2].score)
                                        + in_discs(r.iterations[n - 1].score))
                                        / 2.0
                                } else {
                                    in_discs(r.score)
                                };
                                match outcome {
                                    Some(o) => weight * o + (1.0 - weight) * searched,
                                    None => searched,
                                }
                            } else {
                                // No search: the outcome, or nothing (left out of the fit).
                                outcome.unwrap_or(f32::NAN)
                            };
                            values.push(value);
                        }
                        mine.push((start, values));
                        let n = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                        progress(n);
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a labelling thread panicked"))
            .collect()
    });
    results.sort_by_key(|&(start, _)| start);
    results.into_iter().flat_map(|(_, v)| v).collect()
}

/// How well one phase was fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The phase.
    pub phase: usize,
    /// Training samples of the phase itself (the neighbouring phase's come on top).
    pub train: usize,
    /// Held-out samples.
    pub holdout: usize,
    /// Mean absolute error on the held-out samples before the fit (the starting weights), discs.
    pub holdout_mae_before: f64,
    /// Mean absolute error on the training samples after the fit, discs.
    pub train_mae: f64,
    /// Mean absolute error on the held-out samples after the fit, discs.
    pub holdout_mae: f64,
}

/// A sample as the fit sees it: each instance's class and sign, the bias slot, the target.
struct Row {
    features: [(u32, f32); INSTANCES],
    bias: usize,
    target: f32,
}

fn rows(samples: &[(Sample, f32)], bias_per_phase: bool) -> Vec<Row> {
    let classes = Classes::get();
    samples
        .iter()
        .map(|&(s, target)| {
            let idx = indices(s.player, s.opponent);
            let mut features = [(u32::MAX, 0.0); INSTANCES];
            for (f, &i) in features.iter_mut().zip(idx.iter()) {
                let c = classes.class[i as usize];
                if c != u32::MAX {
                    *f = (c, f32::from(classes.sign[i as usize]));
                }
            }
            Row {
                features,
                bias: if bias_per_phase {
                    0
                } else {
                    (s.empties().min(59) % PHASE_WIDTH) as usize
                },
                target,
            }
        })
        .collect()
}

fn predict(row: &Row, w: &[f32], bias: &[f32]) -> f32 {
    row.features
        .iter()
        .filter(|&&(c, _)| c != u32::MAX)
        .fold(bias[row.bias], |sum, &(c, s)| sum + s * w[c as usize])
}

fn mae(rows: &[Row], w: &[f32], bias: &[f32]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    rows.iter()
        .map(|r| f64::from((predict(r, w, bias) - r.target).abs()))
        .sum::<f64>()
        / rows.len() as f64
}

/// Rounds weights in discs to the file's hundredths.
fn quantize(x: f32) -> i16 {
    (x * 100.0).round().clamp(-32000.0, 32000.0) as i16
}

/// Fits one phase's weights to `samples` (with their targets, NaN for none; `extra` are more
/// samples for training only, from the neighbouring phase) from the starting weights
/// `init`: gradient descent on the squared error, each weight's step scaled by how often its
/// class occurs (plus a damping count, so rare classes move slowly), the global step halved
/// whenever a pass makes the training error worse. Samples of games numbered a multiple of
/// `options.holdout_every` are held out and only measured.
pub fn fit_phase(
    phase: usize,
    samples: &[(Sample, f32)],
    extra: &[(Sample, f32)],
    init: &PhaseWeights,
    options: &TrainOptions,
) -> (PhaseWeights, FitReport) {
    const DAMPING: f32 = 8.0;
    let holdout_every = options.holdout_every.max(2) as u32;
    let (held, mut train): (Vec<_>, Vec<_>) = samples
        .iter()
        .filter(|(_, target)| !target.is_nan())
        .partition(|(s, _)| s.game % holdout_every == 0);
    let own = train.len();
    train.extend(
        extra
            .iter()
            .filter(|(s, target)| s.game % holdout_every != 0 && !target.is_nan()),
    );
    let tied = options.bias_per_phase;
    let (held, train) = (rows(&held, tied), rows(&train, tied));
    let count = Classes::get().count;
    let mut w: Vec<f32> = init.classes.iter().map(|&x| f32::from(x) / 100.0).collect();
    let mut bias: Vec<f32> = init.bias.iter().map(|&x| f32::from(x) / 100.0).collect();
    let holdout_mae_before = mae(&held, &w, &bias);
    // What the ridge pulls toward: zero, or the starting (previous phase's) weights.
    let prior: Vec<f32> = if options.l2_toward_previous {
        w.clone()
    } else {
        vec![0.0; w.len()]
    };
    let mut occurrences = vec![0f32; count];
    let mut bias_count = vec![0f32; bias.len()];
    for r in &train {
        for &(c, _) in r.features.iter().filter(|&&(c, _)| c != u32::MAX) {
            occurrences[c as usize] += 1.0;
        }
        bias_count[r.bias] += 1.0;
    }
    let loss = |w: &[f32], bias: &[f32]| -> f64 {
        train
            .iter()
            .map(|r| f64::from((predict(r, w, bias) - r.target).powi(2)))
            .sum::<f64>()
            + f64::from(options.l2)
                * w.iter()
                    .zip(&prior)
                    .map(|(&x, &p)| f64::from((x - p) * (x - p)))
                    .sum::<f64>()
    };
    let mut step = 0.5f32;
    let mut current = loss(&w, &bias);
    let mut gradient = vec![0f32; count];
    let mut bias_gradient = vec![0f32; bias.len()];
    for _ in 0..options.epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        bias_gradient.iter_mut().for_each(|g| *g = 0.0);
        for r in &train {
            let residual = r.target - predict(r, &w, &bias);
            for &(c, s) in r.features.iter().filter(|&&(c, _)| c != u32::MAX) {
                gradient[c as usize] += s * residual;
            }
            bias_gradient[r.bias] += residual;
        }
        let (old_w, old_bias) = (w.clone(), bias.clone());
        for (((x, g), n), p) in w.iter_mut().zip(&gradient).zip(&occurrences).zip(&prior) {
            *x += step * (g - options.l2 * (*x - p)) / (n + DAMPING) / INSTANCES as f32 * 4.0;
        }
        for ((x, g), n) in bias.iter_mut().zip(&bias_gradient).zip(&bias_count) {
            *x += step * g / (n + DAMPING);
        }
        let next = loss(&w, &bias);
        if next > current {
            w = old_w;
            bias = old_bias;
            step /= 2.0;
            if step < 1e-4 {
                break;
            }
        } else {
            current = next;
        }
    }
    let quantized = PhaseWeights {
        classes: w.iter().map(|&x| quantize(x)).collect(),
        bias: std::array::from_fn(|i| quantize(bias[if tied { 0 } else { i }])),
    };
    let qw: Vec<f32> = quantized
        .classes
        .iter()
        .map(|&x| f32::from(x) / 100.0)
        .collect();
    let qb: Vec<f32> = quantized
        .bias
        .iter()
        .map(|&x| f32::from(x) / 100.0)
        .collect();
    let report = FitReport {
        phase,
        train: own,
        holdout: held.len(),
        holdout_mae_before,
        train_mae: mae(&train, &qw, &qb),
        holdout_mae: mae(&held, &qw, &qb),
    };
    (quantized, report)
}

/// Fits every phase, from the end of the game backwards: phase by phase, the phase's samples
/// are labelled by `labels(phase, samples, model)` (with `model` the weights fitted so far;
/// [`label`] computes them, the command line also keeps them in its work folder), then fitted
/// with [`fit_phase`] on them and the previous phase's samples, starting from the previous
/// phase's weights. Each fitted phase's weights also become the starting point of every later
/// phase (and the labelling search's stand-in where a pass keeps a leaf in an unfitted phase).
/// `done` hears each phase's report as it finishes.
pub fn fit_phases<E>(
    samples: &[Sample],
    options: &TrainOptions,
    provenance: &str,
    mut labels: impl FnMut(usize, &[Sample], &PatternEval) -> Result<Vec<f32>, E>,
    mut done: impl FnMut(&FitReport),
) -> Result<(PatternWeights, Vec<FitReport>), E> {
    let mut weights = PatternWeights::zero(provenance);
    let mut reports = Vec::new();
    let mut previous = Vec::new();
    for phase in 0..PHASES {
        let mine: Vec<Sample> = samples
            .iter()
            .filter(|s| phase_of(s.empties()) == phase)
            .copied()
            .collect();
        let model = PatternEval::new(Arc::new(weights.clone()));
        let values = labels(phase, &mine, &model)?;
        let labelled: Vec<(Sample, f32)> = mine.into_iter().zip(values).collect();
        let (fitted, report) =
            fit_phase(phase, &labelled, &previous, &weights.phases[phase], options);
        done(&report);
        reports.push(report);
        for later in &mut weights.phases[phase..] {
            later.clone_from(&fitted);
        }
        previous = labelled;
    }
    Ok((weights, reports))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn tiny() -> TrainOptions {
        TrainOptions {
            seed: 7,
            games: 12,
            exact_empties: 10,
            epochs: 60,
            threads: 2,
            holdout_every: 4,
            ..TrainOptions::default()
        }
    }

    #[test]
    fn self_play_is_deterministic_and_distinct() {
        let a = self_play(&tiny(), &|_| {});
        let b = self_play(&tiny(), &|_| {});
        assert_eq!(a, b);
        assert!(a.len() > 300, "{} positions", a.len());
        let distinct: HashSet<_> = a.iter().map(|s| (s.player, s.opponent)).collect();
        assert_eq!(distinct.len(), a.len());
        let other = self_play(&TrainOptions { seed: 8, ..tiny() }, &|_| {});
        assert_ne!(a, other);
    }

    #[test]
    fn exact_labels_are_the_solver_s_scores_and_threads_do_not_change_labels() {
        let samples: Vec<Sample> = self_play(&tiny(), &|_| {})
            .into_iter()
            .filter(|s| (9..=18).contains(&s.empties()))
            .take(60)
            .collect();
        let model = PatternEval::new(Arc::new(PatternWeights::zero("test")));
        let one = label(
            &samples,
            &model,
            &TrainOptions {
                threads: 1,
                ..tiny()
            },
            &|_| {},
        );
        let three = label(
            &samples,
            &model,
            &TrainOptions {
                threads: 3,
                ..tiny()
            },
            &|_| {},
        );
        assert_eq!(one, three);
        let mut checked = 0;
        for (s, &v) in samples.iter().zip(&one) {
            if s.empties() <= tiny().exact_empties {
                checked += 1;
                // The reference: the generic search's exact solve.
                let generic = crate::SolveOptions {
                    kind: crate::SolverKind::Generic,
                    ..crate::SolveOptions::default()
                };
                let position = Position::new(s.board(), Color::Black);
                let score = crate::solve(&position, &generic).unwrap().score;
                assert_eq!(v, score as f32);
            }
        }
        assert!(checked >= 10, "only {checked} exactly labelled samples");
    }

    #[test]
    fn the_fit_lowers_the_error_and_the_file_evaluates_identically() {
        // Late positions of a few hundred games' worth, labelled exactly.
        let options = TrainOptions {
            games: 40,
            ..tiny()
        };
        let samples: Vec<Sample> = self_play(&options, &|_| {})
            .into_iter()
            .filter(|s| phase_of(s.empties()) == 2)
            .collect();
        assert!(samples.len() > 100, "{} samples", samples.len());
        let model = PatternEval::new(Arc::new(PatternWeights::zero("test")));
        let labels = label(&samples, &model, &options, &|_| {});
        let labelled: Vec<_> = samples.into_iter().zip(labels).collect();
        let (fitted, report) = fit_phase(2, &labelled, &[], &PhaseWeights::zero(), &options);
        assert!(report.train_mae < report.holdout_mae_before, "{report:?}");
        assert!(report.holdout_mae < report.holdout_mae_before, "{report:?}");
        let mut weights = PatternWeights::zero("tiny");
        weights.phases[2] = fitted;
        let eval = PatternEval::new(Arc::new(weights.clone()));
        let loaded = PatternEval::new(Arc::new(
            PatternWeights::from_bytes(&weights.to_bytes()).unwrap(),
        ));
        for (s, _) in &labelled {
            assert_eq!(
                eval.evaluate_bits(s.player, s.opponent),
                loaded.evaluate_bits(s.player, s.opponent)
            );
        }
    }

    /// Second-generation settings small enough for a test.
    fn gen2() -> TrainOptions {
        TrainOptions {
            seed: 5,
            games: 4,
            play_depth: 2,
            exact_empties: 12,
            search_depth: 0,
            outcome_weight: 1.0,
            ..tiny()
        }
    }

    #[test]
    fn second_generation_games_are_deterministic_and_labelled_by_the_solver_and_outcome() {
        let one = play_games(
            &TrainOptions {
                threads: 1,
                ..gen2()
            },
            0..4,
            &|_| {},
        );
        let three = play_games(
            &TrainOptions {
                threads: 3,
                ..gen2()
            },
            0..4,
            &|_| {},
        );
        assert_eq!(one, three, "the threads changed the games");
        let alone = play_games(&gen2(), 2..3, &|_| {});
        assert_eq!(
            alone[0], one[2],
            "a game depends on the games played beside it"
        );
        assert_ne!(one[0], one[1]);
        let generic = crate::SolveOptions {
            kind: crate::SolverKind::Generic,
            ..crate::SolveOptions::default()
        };
        for game in &one {
            // The start is inside the random opening: no outcome.
            assert_eq!(game[0].outcome_count, 0);
            let first = game.iter().position(|s| s.exact.is_some()).expect("solved");
            let score = i32::from(game[first].exact.unwrap());
            // From there on every position is solved, and the scores are the generic search's.
            assert!(game[first..]
                .iter()
                .all(|s| s.exact.is_some() && s.outcome_count == 0));
            for s in game[first..].iter().step_by(4) {
                let position = Position::new(s.board(), Color::Black);
                let exact = crate::solve(&position, &generic).unwrap().score;
                assert_eq!(i32::from(s.exact.unwrap()), exact);
            }
            // Before it, the outcome is that score from the side to move's view: the opponent
            // moves just before (no pass this late in these games).
            let before = &game[first - 1];
            assert_eq!((before.outcome_count, before.outcome_sum), (1, -score));
            for s in &game[..first] {
                assert!(s.outcome_count == 0 || s.outcome_sum.abs() == score.abs());
            }
        }
        // The merged samples add up the outcomes of positions several games reached.
        let twice = merge(vec![one[0].clone(), one[0].clone()]);
        assert_eq!(twice.len(), one[0].len());
        for (m, s) in twice.iter().zip(&one[0]) {
            assert_eq!(
                (m.outcome_sum, m.outcome_count),
                (2 * s.outcome_sum, 2 * s.outcome_count)
            );
        }
    }

    #[test]
    fn outcomes_label_without_a_search_and_the_fit_leaves_out_what_has_no_label() {
        let samples: Vec<Sample> = play_games(&gen2(), 0..2, &|_| {}).concat();
        let model = PatternEval::new(Arc::new(PatternWeights::zero("test")));
        let labels = label(&samples, &model, &gen2(), &|_| {});
        for (s, &v) in samples.iter().zip(&labels) {
            match (s.exact, s.outcome()) {
                (Some(e), _) => assert_eq!(v, f32::from(e)),
                (None, Some(o)) => assert_eq!(v, o),
                (None, None) => assert!(v.is_nan(), "{v}"),
            }
        }
        assert!(labels.iter().any(|v| v.is_nan()));
        let labelled: Vec<_> = samples.into_iter().zip(labels).collect();
        let phase = 10;
        let (_, report) = fit_phase(phase, &labelled, &[], &PhaseWeights::zero(), &gen2());
        let usable = labelled
            .iter()
            .filter(|(s, v)| !v.is_nan() && phase_of(s.empties()) == phase)
            .count();
        assert!(report.train + report.holdout <= usable + labelled.len());
        assert!(report.holdout_mae.is_finite() && report.train_mae.is_finite());
    }

    #[test]
    fn a_ridge_toward_the_previous_phase_keeps_its_weights() {
        let options = TrainOptions {
            games: 20,
            ..tiny()
        };
        let samples: Vec<Sample> = self_play(&options, &|_| {})
            .into_iter()
            .filter(|s| phase_of(s.empties()) == 2)
            .collect();
        let model = PatternEval::new(Arc::new(PatternWeights::zero("test")));
        let labels = label(&samples, &model, &options, &|_| {});
        let labelled: Vec<_> = samples.into_iter().zip(labels).collect();
        let mut init = PhaseWeights::zero();
        for (i, w) in init.classes.iter_mut().enumerate() {
            *w = (i % 7) as i16 * 10 - 30;
        }
        let ridge = |toward: bool| TrainOptions {
            l2: 50.0,
            l2_toward_previous: toward,
            ..options.clone()
        };
        let distance = |a: &[i16], b: &[i16]| -> i64 {
            a.iter().zip(b).map(|(&x, &y)| i64::from(x - y).abs()).sum()
        };
        let zero = vec![0; init.classes.len()];
        let (kept, _) = fit_phase(2, &labelled, &[], &init, &ridge(true));
        let (shrunk, _) = fit_phase(2, &labelled, &[], &init, &ridge(false));
        assert!(
            distance(&kept.classes, &init.classes) < distance(&shrunk.classes, &init.classes),
            "the pull toward the previous phase keeps its weights closer"
        );
        assert!(
            distance(&shrunk.classes, &zero) < distance(&init.classes, &zero),
            "the pull toward zero shrinks them"
        );
    }

    #[test]
    fn averaged_labels_are_the_mean_of_two_depths() {
        let samples: Vec<Sample> = play_games(&gen2(), 0..1, &|_| {})
            .concat()
            .into_iter()
            .filter(|s| s.exact.is_none() && (30..=40).contains(&s.empties()))
            .take(6)
            .collect();
        assert!(samples.len() >= 3);
        let model = PatternEval::builtin();
        let options = |depth, average| TrainOptions {
            search_depth: depth,
            average_depths: average,
            outcome_weight: 0.0,
            threads: 1,
            ..gen2()
        };
        let four = label(&samples, &model, &options(4, false), &|_| {});
        let five = label(&samples, &model, &options(5, false), &|_| {});
        let mean = label(&samples, &model, &options(4, true), &|_| {});
        for ((a, b), m) in four.iter().zip(&five).zip(&mean) {
            assert!((m - (a + b) / 2.0).abs() < 1e-4, "{a} {b} {m}");
        }
        assert_ne!(four, five);
    }
}
