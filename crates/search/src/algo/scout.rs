//! Pearl's Scout. `eval` computes a node's exact value: it evaluates the first child, then for
//! each later child asks the boolean `test` whether that child beats the best value so far,
//! and evaluates only the children that pass. `test` answers "is the value `> v`" (or `>= v`)
//! and stops at the first child that proves it.
//!
//! The pure form, without the searcher's hooks, is [`crate::textbook::scout()`] (EVAL) with
//! [`crate::textbook::test()`] (TEST).

use crate::searcher::{Node, Searcher};
use crate::{Evaluator, Game, Score};

/// Which inequality [`test`] decides.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Test {
    /// Is the value `> v`?
    Greater,
    /// Is the value `>= v`?
    GreaterOrEqual,
}

/// Pearl's EVAL: the exact value of `game` searched `depth` plies deep.
pub(crate) fn eval<G: Game, E: Evaluator<G>>(
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
        let child = game.play(mv);
        // In negamax form, "-value(child) > best" is "value(child) < -best", i.e. not
        // "value(child) >= -best".
        let improves = i == 0 || !test(s, &child, depth - 1, ply + 1, -best, Test::GreaterOrEqual);
        if !improves {
            s.after_child(ply, mv);
        }
        if s.stopped() {
            break;
        }
        if improves {
            if i > 0 {
                s.counters.re_searches += 1;
            }
            let v = -eval(s, &child, depth - 1, ply + 1);
            s.after_child(ply, mv);
            if s.stopped() {
                break;
            }
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

/// Pearl's TEST: whether the value of `game` searched `depth` plies deep is `> v`
/// ([`Test::Greater`]) or `>= v` ([`Test::GreaterOrEqual`]).
fn test<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    v: Score,
    kind: Test,
) -> bool {
    let decide = |value: Score| match kind {
        Test::Greater => value > v,
        Test::GreaterOrEqual => value >= v,
    };
    // The window a TEST stands for (Scout keeps no table, so only a tracer sees it): "> v"
    // is a null window on v, ">= v" one just below v.
    let (alpha, beta) = match kind {
        Test::Greater => (v, v.next()),
        Test::GreaterOrEqual => (v.prev(), v),
    };
    match s.open(game, depth, ply, alpha, beta) {
        Node::Leaf(value) | Node::Settled(value) => return decide(value),
        Node::Stopped => return false,
        Node::Interior { .. } => {}
    }
    // value > v  iff some child has -value(child) > v,  i.e. not value(child) >= -v;
    // value >= v iff some child has -value(child) >= v, i.e. not value(child) > -v.
    let child_kind = match kind {
        Test::Greater => Test::GreaterOrEqual,
        Test::GreaterOrEqual => Test::Greater,
    };
    let mut picker = s.picker(ply, depth, None);
    let mut proved = false;
    let mut i = 0;
    while let Some(mv) = s.next_move(&mut picker, game, ply, depth) {
        s.before_child(ply, i, mv);
        let refuted = test(s, &game.play(mv), depth - 1, ply + 1, -v, child_kind);
        if s.stopped() {
            break;
        }
        if !refuted {
            // The proving move is this node's line (a refutation, seen from the parent).
            s.update_pv(ply, mv);
            s.cutoff(game, ply, depth, i, mv, picker.last_stage());
            proved = true;
            break;
        }
        i += 1;
    }
    s.give_back(ply, picker);
    // Proved: the value is at least beta; refuted: at most alpha.
    s.trace_leave(game, if proved { beta } else { alpha });
    proved
}
