//! Training the [`PatternEval`] from prune's own games: the pieces of `prune train`.
//!
//! 1. [`self_play`]: games from randomised openings, then, in the first generation
//!    ([`TrainOptions::play_depth`] 0), moves chosen by a one-ply look at the hand-made
//!    evaluation with some random moves mixed in; in the second, moves chosen by a search of
//!    the trained evaluation ([`TrainOptions::play_depth`] plies) and, from
//!    [`TrainOptions::exact_empties`] empties on, by the exact solver, which also labels every
//!    one of those positions. Every distinct position (not the final ones) is a sample; one
//!    reached after the random opening (or inside a sampled one,
//!    [`TrainOptions::opening_temperature`]) also carries the game's **outcome**: the exact score of
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

mod fit;
mod play;
mod records;

pub use fit::{fit_phase, fit_phases, FitReport};
pub use play::{merge, play_games, self_play};
pub use records::{record_samples, RecordCounts, RecordError};

use prune_search::SearchLimits;

use crate::board::Board;
use crate::endgame::EndgameSolver;
use crate::midgame::MidgameSearch;
use crate::pattern::{PatternEval, PatternWeights, PHASE_WIDTH};
use crate::position::{Color, Position};
use crate::OthelloEval;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// The seed of every random choice.
    pub seed: u64,
    /// Self-play games to generate.
    pub games: usize,
    /// Each game starts with a number of opening moves between these two (inclusive), drawn
    /// uniformly; how each is chosen is [`TrainOptions::opening_temperature`]'s.
    pub random_plies: (u32, u32),
    /// How the opening moves are drawn: 0, uniformly among the legal moves; more (second
    /// generation only), each move with a probability proportional to `exp(value / T)`, its
    /// value in discs for the side playing it by a search one ply shallower than
    /// [`TrainOptions::play_depth`] after it. The openings stay varied, but a move that loses
    /// several discs more than the best is rare, so that the games are not decided by their
    /// random start; their positions then carry the game's outcome too.
    pub opening_temperature: f32,
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
    /// 0, or the number of empties from which the outcome's share fades: a position with `e`
    /// empties takes [`TrainOptions::outcome_weight`] times `(60 - e) / (60 - fade)` of its
    /// outcome, the full share at `fade` empties and none at the start. For recorded games,
    /// whose outcome is exact play from `fade` (24) empties: the further a position is from
    /// it, the more the players' later mistakes blur what it says.
    pub outcome_fade: u32,
    /// Recorded games only: each position also gives one child off the game's path (a move not
    /// played), labelled by a solve or a search.
    pub children: bool,
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
    /// Refining: weights to start from. The phases below [`TrainOptions::refit_from`] empties
    /// are kept as they are (their positions are neither labelled nor fitted); each later
    /// phase starts from its own weights here (and with [`TrainOptions::l2_toward_previous`]
    /// the ridge pulls toward them), and its labelling search's leaves are evaluated by these
    /// weights where no phase has been refitted yet.
    pub base: Option<Arc<PatternWeights>>,
    /// With [`TrainOptions::base`], the first number of empties that is fitted again (a
    /// multiple of [`PHASE_WIDTH`]); without, 0.
    pub refit_from: u32,
    /// Worker threads for labelling.
    pub threads: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            seed: 1,
            games: 20000,
            random_plies: (2, 20),
            opening_temperature: 0.0,
            noise: 0.1,
            play_depth: 0,
            player: None,
            exact_empties: 14,
            search_depth: PHASE_WIDTH,
            outcome_weight: 0.0,
            outcome_fade: 0,
            children: false,
            average_depths: false,
            holdout_every: 10,
            epochs: 300,
            l2: 2.0,
            l2_toward_previous: false,
            bias_per_phase: false,
            base: None,
            refit_from: 0,
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

/// A score of the generic search in discs: the margin when exact, else hundredths. (The
/// labels narrow it to `f32`: the same value as dividing in `f32`, since double rounding of a
/// quotient through 53 bits to 24 is exact.)
pub fn in_discs(score: prune_search::Score) -> f64 {
    match score.margin() {
        Some(m) => f64::from(m),
        None => f64::from(score.raw()) / 100.0,
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
    in_parallel(
        options.threads,
        0..samples.len(),
        32,
        || Labeller::new(model, options),
        |labeller, i| labeller.label(&samples[i], options),
        progress,
    )
}

/// What one labelling thread keeps between samples: its solver, its search and the search's
/// limits.
struct Labeller {
    solver: EndgameSolver,
    search: MidgameSearch,
    limits: SearchLimits,
}

impl Labeller {
    fn new(model: &PatternEval, options: &TrainOptions) -> Labeller {
        // The fast midgame search returns the generic search's value at every fixed depth (its
        // differential test), so the labels are those of the full preset's NegaScout, which
        // labelled the first two generations, at a fraction of the cost. Its table is cleared
        // for every sample, so that a label depends only on its position.
        let mut search = MidgameSearch::new(1).expect("a 1 MiB table");
        search.set_eval(OthelloEval::Pattern(model.clone()));
        Labeller {
            solver: EndgameSolver::new(4),
            search,
            limits: SearchLimits {
                depth: Some(options.search_depth + u32::from(options.average_depths)),
                nodes: None,
                time: None,
            },
        }
    }

    /// The label of one sample (see [`label`]).
    fn label(&mut self, s: &Sample, options: &TrainOptions) -> f32 {
        let weight = options.outcome_weight.clamp(0.0, 1.0) * outcome_share(s.empties(), options);
        let outcome = s.outcome();
        if let Some(exact) = s.exact {
            return f32::from(exact);
        }
        if s.empties() <= options.exact_empties {
            self.solver.clear();
            return self.solver.solve(&s.board(), -64, 64).score as f32;
        }
        if options.search_depth == 0 || (outcome.is_some() && weight >= 1.0) {
            // No search: the outcome, or nothing (left out of the fit).
            return outcome.unwrap_or(f32::NAN);
        }
        self.search.clear();
        let position = Position::new(s.board(), Color::Black);
        let r = self.search.search(&position, &self.limits);
        let n = r.iterations.len();
        let searched = if options.average_depths && n >= 2 {
            // The last two iterations: depths d and d + 1 (fewer when the search reached the
            // game's end: then its value).
            (in_discs(r.iterations[n - 2].score) as f32
                + in_discs(r.iterations[n - 1].score) as f32)
                / 2.0
        } else {
            in_discs(r.score) as f32
        };
        match outcome {
            Some(o) => weight * o + (1.0 - weight) * searched,
            None => searched,
        }
    }
}

/// The share of the outcome's weight a position with `empties` empties takes
/// ([`TrainOptions::outcome_fade`]).
fn outcome_share(empties: u32, options: &TrainOptions) -> f32 {
    let fade = options.outcome_fade;
    if fade == 0 || empties <= fade || fade >= 60 {
        1.0
    } else {
        (60 - empties.min(60)) as f32 / (60 - fade) as f32
    }
}

/// `work(state, i)` for every `i` of `range`, on `threads` threads (1 to 256), each with its
/// own `state` made by `init`; the indices are handed out `block` at a time, and the results
/// come back in index order. `progress` gets the number done so far.
fn in_parallel<S, T: Send>(
    threads: usize,
    range: std::ops::Range<usize>,
    block: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<T> {
    let next = AtomicUsize::new(range.start);
    let done = AtomicUsize::new(0);
    let mut results: Vec<(usize, Vec<T>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, 256))
            .map(|_| {
                scope.spawn(|| {
                    let mut state = init();
                    let mut mine = Vec::new();
                    loop {
                        let start = next.fetch_add(block, Ordering::Relaxed);
                        if start >= range.end {
                            return mine;
                        }
                        let end = (start + block).min(range.end);
                        let values = (start..end).map(|i| work(&mut state, i)).collect();
                        mine.push((start, values));
                        progress(done.fetch_add(end - start, Ordering::Relaxed) + end - start);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a training thread panicked"))
            .collect()
    });
    results.sort_by_key(|&(start, _)| start);
    results.into_iter().flat_map(|(_, v)| v).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::pattern::{phase_of, PhaseWeights};

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
        // Every sample with a label counts, as trained or held out; none without.
        let usable = labelled.iter().filter(|(_, v)| !v.is_nan()).count();
        assert_eq!(report.train + report.holdout, usable);
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
    fn search_labels_are_the_generic_search_s_values() {
        // The labeller searches with the fast midgame search; its values must be the full
        // preset's NegaScout's, which labelled the first two generations.
        let samples: Vec<Sample> = play_games(&gen2(), 0..2, &|_| {})
            .concat()
            .into_iter()
            .filter(|s| s.exact.is_none() && s.empties() > 14)
            .step_by(3)
            .collect();
        assert!(samples.len() >= 10, "{} samples", samples.len());
        let model = PatternEval::builtin();
        let options = TrainOptions {
            search_depth: 5,
            outcome_weight: 0.0,
            threads: 1,
            ..gen2()
        };
        let labels = label(&samples, &model, &options, &|_| {});
        let mut engine =
            prune_search::Engine::new(play::search_config(1)).expect("the full preset");
        let eval = crate::ordering::Ordered {
            eval: OthelloEval::Pattern(model.clone()),
            ordering: crate::ordering::StaticOrdering::Mobility,
        };
        let limits = SearchLimits {
            depth: Some(5),
            nodes: None,
            time: None,
        };
        for (s, &v) in samples.iter().zip(&labels) {
            engine.clear();
            let position = Position::new(s.board(), Color::Black);
            let r = engine.search(&position, &eval, &limits).unwrap();
            assert_eq!(v, in_discs(r.score) as f32, "{:?}", s.board());
        }
    }

    #[test]
    fn refining_keeps_the_base_below_refit_from_and_starts_later_phases_from_it() {
        let base = PatternWeights::builtin();
        let options = TrainOptions {
            base: Some(base.clone()),
            refit_from: 48,
            search_depth: 4,
            outcome_weight: 0.0,
            epochs: 5,
            ..gen2()
        };
        let samples = merge(play_games(&options, 0..4, &|_| {}));
        let mut labelled_phases = Vec::new();
        let (weights, reports) = fit_phases(
            &samples,
            &options,
            "refined",
            |phase, mine, model| {
                labelled_phases.push(phase);
                Ok::<_, ()>(label(mine, model, &options, &|_| {}))
            },
            |_| {},
        )
        .unwrap();
        // Only the phases from 48 empties on are labelled and fitted.
        assert_eq!(labelled_phases, vec![12, 13, 14]);
        assert_eq!(
            reports.iter().map(|r| r.phase).collect::<Vec<_>>(),
            [12, 13, 14]
        );
        for phase in 0..12 {
            assert_eq!(weights.phases[phase], base.phases[phase], "phase {phase}");
        }
        assert_eq!(weights.provenance, "refined");
        // The refitted phases moved from the base's weights, but only a little: they started
        // there, five passes ago.
        let moved: i64 = (12..15)
            .flat_map(|p| {
                weights.phases[p]
                    .classes
                    .iter()
                    .zip(&base.phases[p].classes)
            })
            .map(|(&a, &b)| i64::from(a - b).abs())
            .sum();
        assert!(moved > 0, "nothing was fitted");
        let size: i64 = (12..15)
            .flat_map(|p| base.phases[p].classes.iter())
            .map(|&a| i64::from(a).abs())
            .sum();
        assert!(
            moved < size / 10,
            "moved {moved} of {size}: not started from the base"
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
