//! Negamax: minimax in one function, the value of a position being the maximum of the
//! negated values of its children. No pruning.

use crate::searcher::{Node, Searcher};
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
    let mut best = -Score::INFINITY;
    let mut best_move = None;
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        s.before_child(ply, i, mv);
        let v = -negamax(s, &game.play(mv), depth - 1, ply + 1);
        if s.stopped() {
            break;
        }
        if v > best {
            best = v;
            best_move = Some(mv);
            s.update_pv(ply, mv);
        }
        i += 1;
    }
    s.give_back(ply, picker);
    if ply == 0 && !s.stopped() {
        s.root_best = best_move;
    }
    best
}
