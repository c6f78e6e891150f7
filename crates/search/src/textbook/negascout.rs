//! Reinefeld's NegaScout: alpha-beta that searches the first move with the full window and
//! every later one first with a null window, re-searching only the moves that prove better.

use super::{Found, Walk};
use crate::{Evaluator, Game, Score};

/// The value of `game` searched `depth` plies deep with the window `(alpha, beta)`, fail-soft
/// (as [`alpha_beta_soft`](super::alpha_beta_soft)), and the move that gives it.
///
/// Reinefeld (1983) carried Pearl's Scout into alpha-beta: the first move is expected to be the
/// best, so each later move is only *tested* against the best value so far `a`, with the null
/// window `(a, a + 1)`. A move that fails low is no better, as expected; one that fails high
/// with a value of at least `beta` cuts off at once; one that fails high inside the window is
/// better, and is searched again with the window `(value, beta)` for its true value — except
/// at the last ply, where the null-window value of a leaf is already exact. The principal
/// variation search of Marsland and Campbell is essentially the same algorithm.
pub fn negascout<G: Game, E: Evaluator<G>>(
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
    for (i, mv) in game.legal_moves().into_iter().enumerate() {
        let child = walk.play(game, mv);
        let v = if i == 0 {
            -negascout(&child, depth - 1, -beta, -alpha, walk).value
        } else {
            // The null window asks only: is this move better than alpha?
            let t = -negascout(&child, depth - 1, -alpha.next(), -alpha, walk).value;
            if t > alpha && t < beta && depth > 1 {
                // Better, and inside the window: search it again for its value.
                -negascout(&walk.play(game, mv), depth - 1, -beta, -t, walk).value
            } else {
                t
            }
        };
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
