//! Negamax: minimax in one function, the value of a position being the maximum of the
//! negated values of its children. No pruning.
//!
//! The pure form, without the searcher's hooks, is [`crate::textbook::negamax()`].

use crate::searcher::{Best, Node, Searcher};
use crate::{Evaluator, Game, Score};

/// The negamax value of `game` searched `depth` plies deep.
pub(crate) fn negamax<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
) -> Score {
    match s.open(game, depth, ply, -Score::INFINITY, Score::INFINITY) {
        Node::Leaf(v) | Node::Settled(v) => return v,
        Node::Stopped => return Score::DRAW,
        Node::Interior { .. } => {}
    }
    let mut picker = s.picker(ply, depth, None);
    // No window: every move is searched, and no value reaches an infinite beta.
    let mut best = Best::new(-Score::INFINITY);
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        s.before_child(ply, i, mv);
        let v = -negamax(s, &game.play(mv), depth - 1, ply + 1);
        if s.stopped() {
            break;
        }
        let drawn = (mv, picker.last_stage());
        s.record(game, ply, depth, i, drawn, v, Score::INFINITY, &mut best);
        i += 1;
    }
    s.give_back(ply, picker);
    s.trace_leave(game, best.value);
    if ply == 0 && !s.stopped() {
        s.root_best = best.mv;
    }
    best.value
}
