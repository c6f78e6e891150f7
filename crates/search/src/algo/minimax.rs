//! Minimax in its two-function form: `max_value` for the root player's turns, `min_value`
//! for the opponent's. Values are from the root player's point of view.
//!
//! The pure form, without the searcher's hooks, is [`crate::textbook::minimax()`].

use crate::searcher::{Node, Searcher};
use crate::{Evaluator, Game, Score};

/// The minimax value of `game` (the root player to move) searched `depth` plies deep.
pub(crate) fn minimax<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
) -> Score {
    max_value(s, game, depth, 0)
}

fn max_value<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
) -> Score {
    match s.open(game, depth, ply, -Score::INFINITY, Score::INFINITY) {
        Node::Leaf(v) | Node::Settled(v) => return v, // the root player is to move here
        Node::Stopped => return Score::DRAW,
        Node::Interior { .. } => {}
    }
    let mut picker = s.picker(ply, depth, None);
    let mut best = -Score::INFINITY;
    let mut best_move = None;
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        s.before_child(ply, i, mv);
        let v = min_value(s, &game.play(mv), depth - 1, ply + 1);
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
    s.trace_leave(game, best);
    if ply == 0 && !s.stopped() {
        s.root_best = best_move;
    }
    best
}

fn min_value<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
) -> Score {
    match s.open(game, depth, ply, -Score::INFINITY, Score::INFINITY) {
        Node::Leaf(v) | Node::Settled(v) => return -v, // the opponent is to move here
        Node::Stopped => return Score::DRAW,
        Node::Interior { .. } => {}
    }
    let mut picker = s.picker(ply, depth, None);
    let mut best = Score::INFINITY;
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        s.before_child(ply, i, mv);
        let v = max_value(s, &game.play(mv), depth - 1, ply + 1);
        if s.stopped() {
            break;
        }
        if v < best {
            best = v;
            s.update_pv(ply, mv);
        }
        i += 1;
    }
    s.give_back(ply, picker);
    s.trace_leave(game, -best); // the value for the side to move, the opponent
    best
}
