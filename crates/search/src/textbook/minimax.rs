//! Minimax in its two-function form: `max_value` at the root player's turns, `min_value` at
//! the opponent's, both giving values from the root player's point of view.

use super::{Found, Walk};
use crate::{Evaluator, Game, Score};

/// The minimax value of `game` searched `depth` plies deep, from the point of view of its side
/// to move (the root player), and the first move that reaches it.
///
/// The minimax rule: the root player takes the child of largest value, the opponent the child
/// of smallest, and the positions at the horizon are scored by the evaluator. Knuth and Moore
/// (1975) start from it, in negamax form ([`negamax()`](super::negamax())), to derive
/// alpha-beta. Every node of the tree is visited.
pub fn minimax<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    max_value(game, depth, walk)
}

/// The value of `game`, the root player to move.
fn max_value<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    walk.enter(depth, None);
    if let Some(value) = game.outcome() {
        return Found::leaf(value);
    }
    if depth == 0 {
        return Found::leaf(walk.evaluate(game));
    }
    let mut best = Found::leaf(-Score::INFINITY);
    for mv in game.legal_moves() {
        let v = min_value(&walk.play(game, mv), depth - 1, walk).value;
        if v > best.value {
            best = Found {
                value: v,
                best_move: Some(mv),
            };
        }
    }
    best
}

/// The value of `game`, the opponent to move, still from the root player's point of view.
fn min_value<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    walk: &mut Walk<G, E>,
) -> Found<G::Move> {
    walk.enter(depth, None);
    // Outcomes and evaluations are the side to move's: the opponent's here.
    if let Some(value) = game.outcome() {
        return Found::leaf(-value);
    }
    if depth == 0 {
        return Found::leaf(-walk.evaluate(game));
    }
    let mut best = Found::leaf(Score::INFINITY);
    for mv in game.legal_moves() {
        let v = max_value(&walk.play(game, mv), depth - 1, walk).value;
        if v < best.value {
            best = Found {
                value: v,
                best_move: Some(mv),
            };
        }
    }
    best
}
