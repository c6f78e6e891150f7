//! NegaScout (Reinefeld) / principal variation search: the first move with the full window,
//! every later move first with a null window `(alpha, alpha + 1)` that only tests whether it
//! beats the best so far, re-searched with the window `(value, beta)` when it does. Fail-soft,
//! with an optional transposition table.

use crate::searcher::{Node, Searcher};
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
    let mut window_low = alpha;
    let mut best = -Score::INFINITY;
    let mut best_move = None;
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        s.before_child(ply, i, mv);
        let child = game.play(mv);
        let v = if i == 0 {
            -negascout(s, &child, depth - 1, ply + 1, -beta, -window_low)
        } else {
            let mut v = -negascout(
                s,
                &child,
                depth - 1,
                ply + 1,
                -window_low.next(),
                -window_low,
            );
            // A child at depth 0 is a leaf: its null-window value is already exact.
            if v > window_low && v < beta && depth > 1 && !s.stopped() {
                s.counters.re_searches += 1;
                v = -negascout(s, &child, depth - 1, ply + 1, -beta, -v);
            }
            v
        };
        s.after_child(ply, mv);
        if s.stopped() {
            break;
        }
        if v > best {
            best = v;
            best_move = Some(mv);
            if v > window_low {
                window_low = v;
                s.update_pv(ply, mv);
            }
        }
        if v >= beta {
            s.cutoff(game, ply, depth, i, mv, &picker);
            break;
        }
        i += 1;
    }
    s.give_back(ply, picker);
    s.close(game, depth, alpha, beta, best, best_move, mark);
    if ply == 0 && !s.stopped() {
        s.root_best = best_move;
    }
    best
}
