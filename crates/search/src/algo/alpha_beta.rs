//! Alpha-beta in negamax form (nega-alpha), fail-hard or fail-soft, with an optional
//! transposition table (which makes it the "alpha-beta with memory" that MTD(f) drives).

use crate::searcher::{Node, Searcher};
use crate::{Evaluator, FailMode, Game, Score};

/// The value of `game` searched `depth` plies deep with window `(alpha, beta)`.
///
/// Fail-hard returns a value clamped into `[alpha, beta]`; fail-soft returns the best value
/// found, which may lie outside the window and is then a bound on the true value (upper if
/// `<= alpha`, lower if `>= beta`). Inside the window either is the exact value.
pub(crate) fn alpha_beta<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    fail: FailMode,
) -> Score {
    let clamp = |v: Score| match fail {
        FailMode::Soft => v,
        FailMode::Hard => v.clamp(alpha, beta),
    };
    let (tt_move, mark) = match s.open(game, depth, ply, alpha, beta) {
        Node::Leaf(v) | Node::Settled(v) => return clamp(v),
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
        let v = -alpha_beta(
            s,
            &game.play(mv),
            depth - 1,
            ply + 1,
            -beta,
            -window_low,
            fail,
        );
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
    let value = clamp(best);
    s.close(game, depth, alpha, beta, value, best_move, mark);
    if ply == 0 && !s.stopped() {
        s.root_best = best_move;
    }
    value
}
