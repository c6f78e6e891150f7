//! Pearl's Scout: EVAL computes a node's exact value, asking of each child after the first the
//! cheaper yes-or-no question TEST, "does this child beat the best value so far?", and
//! evaluating only the children for which the answer is yes.

use super::{Found, Walk};
use crate::{Evaluator, Game, Score};

/// The question [`test()`] answers about a value `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inequality {
    /// Is the value `> v`?
    Greater,
    /// Is the value `>= v`?
    GreaterOrEqual,
}

impl Inequality {
    /// Whether `value` satisfies the inequality against `v`.
    pub fn holds(self, value: Score, v: Score) -> bool {
        match self {
            Inequality::Greater => value > v,
            Inequality::GreaterOrEqual => value >= v,
        }
    }

    /// The inequality a child must fail for its parent to pass: the value is `> v` exactly
    /// when some child is *not* `>= -v`, and `>= v` exactly when some child is not `> -v`.
    pub fn for_child(self) -> Self {
        match self {
            Inequality::Greater => Inequality::GreaterOrEqual,
            Inequality::GreaterOrEqual => Inequality::Greater,
        }
    }

    /// The null window the question stands for: `> v` is `(v, v + 1)`, `>= v` is `(v - 1, v)`.
    pub fn window(self, v: Score) -> (Score, Score) {
        match self {
            Inequality::Greater => (v, v.next()),
            Inequality::GreaterOrEqual => (v.prev(), v),
        }
    }
}

/// Pearl's EVAL: the exact value of `game` searched `depth` plies deep, and the first move that
/// reaches it.
///
/// Pearl (1980) built it on the observation that testing is cheaper than evaluating: a test
/// may stop at the first child that proves its answer. When the first child is the best,
/// every later one fails its test and is never evaluated. In negamax form, a later child
/// improves on the best value `b` when `-value(child) > b`, that is when the child's value is
/// *not* `>= -b`.
pub fn scout<G: Game, E: Evaluator<G>>(
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
    for (i, mv) in game.legal_moves().into_iter().enumerate() {
        let child = walk.play(game, mv);
        let better = i == 0
            || !test(
                &child,
                depth - 1,
                -best.value,
                Inequality::GreaterOrEqual,
                walk,
            );
        if better {
            // Evaluated again from the start: the test's answer carries no value.
            best = Found {
                value: -scout(&walk.play(game, mv), depth - 1, walk).value,
                best_move: Some(mv),
            };
        }
    }
    best
}

/// Pearl's TEST: whether the value of `game` searched `depth` plies deep satisfies
/// `inequality` against `v` (`> v` or `>= v`).
///
/// The side to move passes as soon as one child proves it, and fails only when every child
/// has been tried; in negamax form a child proves "value > v" by *failing* "value >= -v" (and
/// "value >= v" by failing "value > -v"), so the two inequalities alternate down the tree.
pub fn test<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    v: Score,
    inequality: Inequality,
    walk: &mut Walk<G, E>,
) -> bool {
    walk.enter(depth, Some(inequality.window(v)));
    if let Some(value) = game.outcome() {
        return inequality.holds(value, v);
    }
    if depth == 0 {
        return inequality.holds(walk.evaluate(game), v);
    }
    for mv in game.legal_moves() {
        if !test(
            &walk.play(game, mv),
            depth - 1,
            -v,
            inequality.for_child(),
            walk,
        ) {
            return true;
        }
    }
    false
}
