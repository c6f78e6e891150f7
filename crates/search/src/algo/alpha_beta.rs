//! Alpha-beta in negamax form (nega-alpha), fail-hard or fail-soft, with an optional
//! transposition table (which makes it the "alpha-beta with memory" that MTD(f) drives).
//!
//! The pure forms, without the searcher's hooks, are [`crate::textbook::alpha_beta()`]
//! (fail-hard) and [`crate::textbook::alpha_beta_soft()`] (fail-soft).

use crate::searcher::{Best, Brothers, Node, Searcher};
use crate::{Evaluator, FailMode, Game, Score};

/// The value of `game` searched `depth` plies deep with window `(alpha, beta)`.
///
/// Fail-hard returns a value clamped into `[alpha, beta]`; fail-soft returns the best value
/// found, which may lie outside the window and is then a bound on the true value (upper if
/// `<= alpha`, lower if `>= beta`). Inside the window either is the exact value.
pub(crate) fn alpha_beta<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    fail: FailMode,
) -> Score {
    node(s, game, depth, ply, alpha, beta, Brothers::AlphaBeta(fail))
}

/// Multi-ProbCut (Buro): with the evaluator's fit for this node, `v_deep ≈ a · v_shallow + b`
/// with error deviation `σ`, a null-window search `shallow` plies deep at
/// `⌈(β − b + tσ) / a⌉` that fails high predicts that the deep search fails high (the node
/// returns β), one at `⌊(α − b − tσ) / a⌋` that fails low predicts a fail low (α); `t` is the
/// configured margin. Only heuristic windows: a proven result is never predicted. `None`: no
/// prediction, search the node.
fn probcut<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    brothers: Brothers,
) -> Option<Score> {
    let margin = s.probcut_margin(ply)?;
    let heuristic = |x: i32| x.abs() < Score::DECISIVE_RAW - 1;
    if !heuristic(alpha.raw()) || !heuristic(beta.raw()) {
        return None;
    }
    let fit = s
        .eval
        .probcut(game, depth)
        .filter(|f| f.shallow < depth && f.a > 0.0 && f.sigma >= 0.0)?;
    let mut cut = None;
    let high = ((f64::from(beta.raw()) - fit.b + margin * fit.sigma) / fit.a).ceil() as i32;
    if heuristic(high) {
        let (lo, hi) = (Score::from_raw(high - 1), Score::from_raw(high));
        let v = node(s, game, fit.shallow, ply, lo, hi, brothers);
        if !s.stopped() && v >= hi {
            cut = Some(beta);
        }
    }
    let low = ((f64::from(alpha.raw()) - fit.b - margin * fit.sigma) / fit.a).floor() as i32;
    if cut.is_none() && heuristic(low) {
        let (lo, hi) = (Score::from_raw(low), Score::from_raw(low + 1));
        let v = node(s, game, fit.shallow, ply, lo, hi, brothers);
        if !s.stopped() && v <= lo {
            cut = Some(alpha);
        }
    }
    s.clear_pv(ply);
    if cut.is_some() {
        s.counters.forward_cuts += 1;
    }
    cut
}

/// The node of alpha-beta and of NegaScout, which differ only in how they search a move
/// (`brothers`): alpha-beta every move with the window `(best, beta)`; NegaScout the eldest
/// with it, the others with a null window first (see [`Searcher::search_brother`]). Both
/// split between threads at the same places and record children the same way.
pub(crate) fn node<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    brothers: Brothers,
) -> Score {
    let clamp = |v: Score| match brothers {
        Brothers::AlphaBeta(FailMode::Hard) => v.clamp(alpha, beta),
        Brothers::AlphaBeta(FailMode::Soft) | Brothers::NegaScout => v,
    };
    let (tt_move, mark) = match s.open(game, depth, ply, alpha, beta) {
        Node::Leaf(v) | Node::Settled(v) => return clamp(v),
        Node::Stopped => return Score::DRAW,
        Node::Interior { tt_move, mark } => (tt_move, mark),
    };
    if let Some(v) = probcut(s, game, depth, ply, alpha, beta, brothers) {
        return clamp(v);
    }
    let mut picker = s.picker(ply, depth, tt_move);
    let mut best = Best::new(alpha);
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        if s.may_split(ply, depth, i) {
            s.split(
                game,
                ply,
                depth,
                (&mut picker, mv, i),
                beta,
                brothers,
                &mut best,
            );
            break;
        }
        s.before_child(ply, i, mv);
        let child = game.play(mv);
        let v = if i == 0 {
            s.search_eldest(&child, depth - 1, ply + 1, best.low, beta, brothers)
        } else {
            s.search_brother(&child, depth - 1, ply + 1, best.low, beta, brothers)
                .0
        };
        s.after_child(ply, mv);
        if s.stopped() {
            break;
        }
        let drawn = (mv, picker.last_stage());
        if s.record(game, ply, depth, i, drawn, v, beta, &mut best) {
            break;
        }
        i += 1;
    }
    s.give_back(ply, picker);
    let value = clamp(best.value);
    s.trace_leave(game, value);
    s.close(game, depth, alpha, beta, value, best.mv, mark);
    if ply == 0 && !s.stopped() {
        s.root_best = best.mv;
    }
    value
}
