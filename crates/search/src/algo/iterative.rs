//! Iterative deepening: search depth 1, 2, ... until a limit, each iteration trying the
//! previous iteration's principal variation first and starting aspiration windows and MTD(f)
//! from the previous value. The result is always that of the last completed iteration, so a
//! node or time limit that interrupts an iteration still leaves a best move. Without iterative
//! deepening the same driver runs the one depth asked for.

use std::time::Instant;

use crate::algo::{alpha_beta::alpha_beta, aspiration::aspiration, minimax::minimax};
use crate::algo::{mtdf::mtdf, negamax::negamax, negascout::negascout, scout};
use crate::searcher::Searcher;
use crate::{Algorithm, Bound, DepthRow, Evaluator, Game, Iteration, Score, SearchConfig, Window};
use crate::{SearchLimits, SearchObserver, SearchResult, SearchStats};

/// Runs the configured search of `game` within `limits`.
pub(crate) fn iterate<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    config: &SearchConfig,
    limits: &SearchLimits,
    window: Window,
    observer: &mut dyn SearchObserver<G::Move>,
    start: Instant,
) -> SearchResult<G::Move> {
    let max_depth = limits.max_depth();
    let first_depth = if config.iterative_deepening {
        1.min(max_depth)
    } else {
        max_depth
    };
    let mut stats = SearchStats::default();
    let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
    let mut exhausted = false;
    for depth in first_depth..=max_depth {
        let before = s.counters;
        let began = Instant::now();
        let horizon_before = s.horizon_leaves;
        s.root_best = None;
        let previous = iterations.last();
        let guess = previous.map_or_else(|| s.static_guess(game), |it| it.score);
        let hint = previous.map(|it| it.pv.clone()).unwrap_or_default();
        let score = search_depth(s, game, depth, config, window, guess, &hint);
        let row = DepthRow {
            depth,
            counters: s.counters.since(&before),
            time: began.elapsed(),
        };
        stats.per_depth.push(row);
        if s.stopped() {
            break;
        }
        let best_move = s.root_best;
        let mut pv = s.root_pv();
        if config.algorithm == Algorithm::MtdF || pv.first() != best_move.as_ref() {
            pv = s.tt_line(game, best_move, depth as usize);
        }
        let iteration = Iteration {
            depth,
            score,
            best_move,
            pv,
            row,
        };
        observer.on_iteration(&iteration);
        iterations.push(iteration);
        if s.horizon_leaves == horizon_before {
            exhausted = true;
            break;
        }
    }
    stats.total = s.counters;
    stats.time = start.elapsed();
    let interrupted = s.stopped();
    match iterations.last() {
        Some(last) => SearchResult {
            score: last.score,
            bound: if windowed(config.algorithm) {
                window.classify(last.score)
            } else {
                Bound::Exact
            },
            best_move: last.best_move,
            pv: last.pv.clone(),
            depth: last.depth,
            exhausted,
            interrupted,
            iterations,
            stats,
        },
        None => {
            // Not even one iteration finished: fall back on the first move in search order.
            let fallback = game.legal_moves().first().copied();
            SearchResult {
                score: s.static_guess(game),
                bound: Bound::Exact,
                best_move: fallback,
                pv: fallback.into_iter().collect(),
                depth: 0,
                exhausted: false,
                interrupted,
                iterations,
                stats,
            }
        }
    }
}

/// Whether `algorithm` searches the root with the window it is given (see
/// [`Engine::search_window`](crate::Engine::search_window)).
fn windowed(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::AlphaBeta(_) | Algorithm::NegaScout)
}

/// A windowed search of the root: `(searcher, alpha, beta) -> value`.
type RootSearch<'r, G, E> = dyn FnMut(&mut Searcher<G, E>, Score, Score) -> Score + 'r;

/// One search of the root to `depth` with the configured algorithm.
fn search_depth<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    config: &SearchConfig,
    window: Window,
    guess: Score,
    hint: &[G::Move],
) -> Score {
    let windowed = |s: &mut Searcher<G, E>, search: &mut RootSearch<G, E>| match config.aspiration {
        Some(a) => aspiration(s, window, guess, a.half_width, hint, search),
        None => {
            s.start_pass(hint);
            search(s, window.alpha, window.beta)
        }
    };
    match config.algorithm {
        Algorithm::Minimax => {
            s.start_pass(hint);
            minimax(s, game, depth)
        }
        Algorithm::Negamax => {
            s.start_pass(hint);
            negamax(s, game, depth, 0)
        }
        Algorithm::Scout => {
            s.start_pass(hint);
            scout::eval(s, game, depth, 0)
        }
        Algorithm::AlphaBeta(fail) => {
            windowed(s, &mut |s, a, b| alpha_beta(s, game, depth, 0, a, b, fail))
        }
        Algorithm::NegaScout => windowed(s, &mut |s, a, b| negascout(s, game, depth, 0, a, b)),
        Algorithm::MtdF => mtdf(s, game, depth, guess, hint),
    }
}
