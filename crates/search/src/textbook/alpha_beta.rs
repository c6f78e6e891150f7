//! Alpha-beta in negamax form (nega-alpha), fail-hard and fail-soft.

use super::{Found, Walk};
use crate::{Evaluator, Game, Score};

/// The value of `game` searched `depth` plies deep with the window `(alpha, beta)`, fail-hard:
/// the true value if it lies inside the window, otherwise the edge it lies beyond (`alpha` if
/// the value is at most `alpha`, `beta` if at least `beta`). With the window
/// `(-INFINITY, INFINITY)` it is the negamax value. The best move is the one that raised
/// `alpha` last or reached `beta` (`None` if every move failed low).
///
/// Knuth and Moore (1975) proved it right and counted what it saves: `alpha` is a value the
/// side to move is already sure of elsewhere, `beta` one the opponent is sure of; a move worth
/// `beta` or more to the side to move will never be allowed, so its node is left at once (a
/// cutoff). A child is searched with the window negated and swapped, `(-beta, -alpha)`.
///
/// A leaf returns its value as it is, even outside the window: its parent only compares it
/// with `alpha` and `beta`, so clamping it would change no decision.
pub fn alpha_beta<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    mut alpha: Score,
    beta: Score,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    walk.enter(depth, Some((alpha, beta)));
    if let Some(value) = game.outcome() {
        return Found::leaf(value);
    }
    if depth == 0 {
        return Found::leaf(walk.evaluate(game));
    }
    let mut best_move = None;
    for mv in game.legal_moves() {
        let v = -alpha_beta(&walk.play(game, mv), depth - 1, -beta, -alpha, walk).value;
        if v >= beta {
            return Found {
                value: beta,
                best_move: Some(mv),
            };
        }
        if v > alpha {
            alpha = v;
            best_move = Some(mv);
        }
    }
    Found {
        value: alpha,
        best_move,
    }
}

/// The value of `game` searched `depth` plies deep with the window `(alpha, beta)`, fail-soft:
/// the best value found, even outside the window. Inside the window it is the true value; at
/// or below `alpha` an upper bound on it; at or above `beta` a lower bound. The best move is
/// the one that gave that value.
///
/// The same search as [`alpha_beta`] (the same nodes in the same order): only the value
/// returned differs, starting from minus infinity rather than from `alpha`, so that a search
/// that fails says by how much. (This refinement is usually credited to Fishburn; MTD(f) and
/// NegaScout rely on the tighter bounds.)
pub fn alpha_beta_soft<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    mut alpha: Score,
    beta: Score,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    walk.enter(depth, Some((alpha, beta)));
    if let Some(value) = game.outcome() {
        return Found::leaf(value);
    }
    if depth == 0 {
        return Found::leaf(walk.evaluate(game));
    }
    let mut best = Found::leaf(-Score::INFINITY);
    for mv in game.legal_moves() {
        let v = -alpha_beta_soft(&walk.play(game, mv), depth - 1, -beta, -alpha, walk).value;
        if v > best.value {
            best = Found {
                value: v,
                best_move: Some(mv),
            };
        }
        if v >= beta {
            break;
        }
        alpha = alpha.max(v);
    }
    best
}
