//! Training the [`PatternEval`] from prune's own games: the pieces of `prune train`.
//!
//! 1. [`self_play`]: games from randomised openings, then moves chosen by a one-ply look at the
//!    hand-made evaluation with some random moves mixed in; every distinct position (not the
//!    final ones) is a sample.
//! 2. [`label`]: each sample's target value, in discs. Positions with at most
//!    [`TrainOptions::exact_empties`] empties are solved exactly; earlier ones get the value of
//!    a [`TrainOptions::search_depth`]-ply search whose leaves are evaluated by the weights
//!    already fitted for the later phases (bootstrapping: the phases are trained from the end
//!    of the game backwards, and the search depth is at least a phase's width, so the leaves
//!    lie in phases fitted before).
//! 3. [`fit_phase`]: least squares by gradient descent on one phase's samples, reporting the
//!    mean absolute error on held-out games.
//!
//! Everything is deterministic for a given seed and independent of the number of threads. The
//! file handling (resuming, progress bars) is the command line's.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use prune_search::rng::{Rng, XorShift64Star};
use prune_search::{Algorithm, Engine, Preset, SearchLimits};

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
    /// After the opening, the chance that a move is random instead of the evaluation's choice.
    pub noise: f64,
    /// Positions with at most this many empties are labelled by an exact solve.
    pub exact_empties: u32,
    /// The depth of the labelling search for earlier positions (at least [`PHASE_WIDTH`]).
    pub search_depth: u32,
    /// One game in this many is held out of the fit to measure it.
    pub holdout_every: usize,
    /// Gradient-descent passes per phase.
    pub epochs: usize,
    /// The ridge penalty: each weight's squared size counts this many squared errors of one
    /// disc (it keeps the weights of rare configurations small).
    pub l2: f32,
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
            exact_empties: 14,
            search_depth: PHASE_WIDTH,
            holdout_every: 10,
            epochs: 300,
            l2: 2.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One training position: the discs of the side to move and of the opponent, and the game it
/// came from (for the held-out split).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// The side to move's discs.
    pub player: u64,
    /// The opponent's discs.
    pub opponent: u64,
    /// The number of the game that first reached it.
    pub game: u32,
}

impl Sample {
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
/// the order first reached). `progress` is called with the number of games played so far.
pub fn self_play(options: &TrainOptions, progress: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    let mut rng = XorShift64Star::new(options.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for game in 0..options.games {
        for b in play_game(&mut rng, options) {
            if seen.insert((b.player(), b.opponent())) {
                out.push(Sample {
                    player: b.player(),
                    opponent: b.opponent(),
                    game: game as u32,
                });
            }
        }
        if game % 64 == 63 {
            progress(game + 1);
        }
    }
    progress(options.games);
    out
}

/// A score of the generic search in discs: the margin when exact, else hundredths.
fn in_discs(score: prune_search::Score) -> f32 {
    match score.margin() {
        Some(m) => m as f32,
        None => score.raw() as f32 / 100.0,
    }
}

/// The target value (in discs, for the side to move) of each of `samples`, in order: an exact
/// solve at few empties, else a search of `options.search_depth` plies evaluated by `model`.
/// Runs on `options.threads` threads; `progress` gets the number labelled so far.
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
                    let config = Preset::find("full")
                        .and_then(|p| p.config(Algorithm::NegaScout))
                        .expect("the full preset exists");
                    let mut engine =
                        Engine::<Position>::new(config).expect("the full preset is valid");
                    let eval = Ordered {
                        eval: OthelloEval::Pattern(model.clone()),
                        ordering: StaticOrdering::Mobility,
                    };
                    let limits = SearchLimits {
                        depth: Some(options.search_depth),
                        nodes: None,
                        time: None,
                    };
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
                            let value = if s.empties() <= options.exact_empties {
                                solver.clear();
                                solver.solve(&board, -64, 64).score as f32
                            } else {
                                engine.clear();
                                let position = Position::new(board, Color::Black);
                                let r = engine
                                    .search(&position, &eval, &limits)
                                    .expect("a depth limit is given");
                                in_discs(r.score)
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

fn rows(samples: &[(Sample, f32)]) -> Vec<Row> {
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
                bias: (s.empties().min(59) % PHASE_WIDTH) as usize,
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

/// Fits one phase's weights to `samples` (with their targets; `extra` are more samples for
/// training only, from the neighbouring phase) from the starting weights
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
        .partition(|(s, _)| s.game % holdout_every == 0);
    let own = train.len();
    train.extend(extra.iter().filter(|(s, _)| s.game % holdout_every != 0));
    let (held, train) = (rows(&held), rows(&train));
    let count = Classes::get().count;
    let mut w: Vec<f32> = init.classes.iter().map(|&x| f32::from(x) / 100.0).collect();
    let mut bias: Vec<f32> = init.bias.iter().map(|&x| f32::from(x) / 100.0).collect();
    let holdout_mae_before = mae(&held, &w, &bias);
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
            + f64::from(options.l2) * w.iter().map(|&x| f64::from(x * x)).sum::<f64>()
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
        for ((x, g), n) in w.iter_mut().zip(&gradient).zip(&occurrences) {
            *x += step * (g - options.l2 * *x) / (n + DAMPING) / INSTANCES as f32 * 4.0;
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
        bias: std::array::from_fn(|i| quantize(bias[i])),
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
}
