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
