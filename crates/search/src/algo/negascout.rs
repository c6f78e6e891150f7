//! NegaScout (Reinefeld) / principal variation search: the first move with the full window,
//! every later move first with a null window `(alpha, alpha + 1)` that only tests whether it
//! beats the best so far, re-searched with the window `(value, beta)` when it does. Fail-soft,
//! with an optional transposition table.

use crate::searcher::{Best, Brothers, Node, Searcher};
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
    let (tt_move, mark) = match s.open(game, depth, ply, alpha, beta) {
        Node::Leaf(v) | Node::Settled(v) => return v,
        Node::Stopped => return Score::DRAW,
        Node::Interior { tt_move, mark } => (tt_move, mark),
    };
    let mut picker = s.picker(ply, depth, tt_move);
    let mut best = Best::new(alpha);
    let brothers = Brothers::NegaScout;
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
        // The eldest with the full window; the others with a null window first (re-searched
        // when they beat the best so far).
        let v = if i == 0 {
            -negascout(s, &child, depth - 1, ply + 1, -beta, -best.low)
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
    s.close(game, depth, alpha, beta, best.value, best.mv, mark);
    if ply == 0 && !s.stopped() {
        s.root_best = best.mv;
    }
    best.value
}
