//! NegaScout (Reinefeld) / principal variation search: the first move with the full window,
//! every later move first with a null window `(alpha, alpha + 1)` that only tests whether it
//! beats the best so far, re-searched with the window `(value, beta)` when it does. Fail-soft,
//! with an optional transposition table.
//!
//! The pure form, without the searcher's hooks, is [`crate::textbook::negascout()`].

use crate::algo::alpha_beta::node;
use crate::searcher::{Brothers, Searcher};
use crate::{Evaluator, Game, Score};

/// The value of `game` searched `depth` plies deep with window `(alpha, beta)` (fail-soft).
pub(crate) fn negascout<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
) -> Score {
    node(s, game, depth, ply, alpha, beta, Brothers::NegaScout)
}
