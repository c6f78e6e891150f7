//! Negamax: minimax in one function. A position's value, from its side to move's point of
//! view, is the largest of its children's values negated.

use super::{Found, Walk};
use crate::{Evaluator, Game, Score};

/// The negamax value of `game` searched `depth` plies deep, and the first move that reaches
/// it.
///
/// Knuth and Moore (1975) write minimax this way (their procedure F): since a child's value
/// for the player to move there is the negation of its value for the parent, one maximising
/// function serves both players. Every node of the tree is visited.
pub fn negamax<G: Game, E: Evaluator<G>>(
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
        let v = -negamax(&walk.play(game, mv), depth - 1, walk).value;
        if v > best.value {
            best = Found {
                value: v,
                best_move: Some(mv),
            };
        }
    }
    best
}
