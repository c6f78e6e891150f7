//! Alpha-beta in negamax form (nega-alpha), fail-hard or fail-soft, with an optional
//! transposition table (which makes it the "alpha-beta with memory" that MTD(f) drives).
//!
//! The pure forms, without the searcher's hooks, are [`crate::textbook::alpha_beta()`]
//! (fail-hard) and [`crate::textbook::alpha_beta_soft()`] (fail-soft).

use crate::picker::Stage;
use crate::searcher::{Best, Brothers, Node, Searcher};
use crate::{Evaluator, FailMode, Game, Score, Selective};

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
    node(s, game, depth, ply, alpha, beta, Brothers::AlphaBeta(fail))
}

/// Multi-ProbCut (Buro): with the evaluator's fit for this node, `v_deep ≈ a · v_shallow + b`
/// with error deviation `σ`, a null-window search `shallow` plies deep at
/// `⌈(β − b + tσ) / a⌉` that fails high predicts that the deep search fails high (the node
/// returns β), one at `⌊(α − b − tσ) / a⌋` that fails low predicts a fail low (α); `t` is the
/// configured margin. Only heuristic windows: a proven result is never predicted. `None`: no
/// prediction, search the node.
fn probcut<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    brothers: Brothers,
) -> Option<Score> {
    let margin = s.probcut_margin(ply)?;
    let heuristic = |x: i32| x.abs() < Score::DECISIVE_RAW - 1;
    if !heuristic(alpha.raw()) || !heuristic(beta.raw()) {
        return None;
    }
    let fit = s
        .eval
        .probcut(game, depth)
        .filter(|f| f.shallow < depth && f.a > 0.0 && f.sigma >= 0.0)?;
    let mut cut = None;
    let high = ((f64::from(beta.raw()) - fit.b + margin * fit.sigma) / fit.a).ceil() as i32;
    if heuristic(high) {
        let (lo, hi) = (Score::from_raw(high - 1), Score::from_raw(high));
        let v = node(s, game, fit.shallow, ply, lo, hi, brothers);
        if !s.stopped() && v >= hi {
            cut = Some(beta);
        }
    }
    let low = ((f64::from(alpha.raw()) - fit.b - margin * fit.sigma) / fit.a).floor() as i32;
    if cut.is_none() && heuristic(low) {
        let (lo, hi) = (Score::from_raw(low), Score::from_raw(low + 1));
        let v = node(s, game, fit.shallow, ply, lo, hi, brothers);
        if !s.stopped() && v <= lo {
            cut = Some(alpha);
        }
    }
    s.clear_pv(ply);
    if cut.is_some() {
        s.counters.forward_cuts += 1;
    }
    cut
}

/// What the selective search decided before a node's moves.
enum Frontier {
    /// The node is cut: return this value.
    Cut(Score),
    /// Search the moves; `futile`: the quiet ones may be skipped (futility pruning).
    Search { futile: bool },
}

/// A margin of the selective search: `units` scales of the evaluator (see
/// [`Selective`](crate::Selective)), in raw score units.
fn margin<G: Game, E: Evaluator<G>>(s: &Searcher<G, E>, sel: Selective, units: f64) -> i32 {
    let scale = s.eval.win_scale() * f64::from(sel.margin_percent) / 100.0;
    (units * scale).round() as i32
}

/// The selective search's tests before a node's moves (the node is at a null window on
/// heuristic bounds, not in check): reverse futility, razoring, the null move (see
/// [`Selective`](crate::Selective) for the formulas).
#[allow(clippy::too_many_arguments)]
fn frontier<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    brothers: Brothers,
    sel: Selective,
) -> Frontier {
    let eval = s.eval.evaluate(game).raw();
    let d = f64::from(depth);
    if sel.futility && depth <= 5 && eval - margin(s, sel, 1.5 * d) >= beta.raw() {
        return Frontier::Cut(Score::from_raw(eval));
    }
    if sel.razoring && depth <= 2 && eval + margin(s, sel, 5.0 + 2.5 * d) < alpha.raw() {
        let v = node(s, game, depth - 1, ply, alpha, beta, brothers);
        if s.stopped() {
            return Frontier::Cut(v);
        }
        if v <= alpha {
            return Frontier::Cut(v);
        }
    }
    if let Some(null) = sel.null_move {
        if depth >= 2 && eval >= beta.raw() && s.null_allowed(ply) {
            if let Some(child) = game.null_move() {
                let r = 3 + depth / 4;
                let saved = s.before_null(ply);
                let v = -node(
                    s,
                    &child,
                    (depth - 1).saturating_sub(r),
                    ply + 1,
                    -beta,
                    -alpha,
                    brothers,
                );
                s.after_null(saved);
                if s.stopped() {
                    return Frontier::Cut(v);
                }
                if v >= beta {
                    // A proven win after a pass proves nothing: claim only beta.
                    let v = if v.is_decisive() { beta } else { v };
                    if !null.verify {
                        return Frontier::Cut(v);
                    }
                    s.verification(true);
                    let w = node(s, game, depth.saturating_sub(r), ply, alpha, beta, brothers);
                    s.verification(false);
                    if s.stopped() || w >= beta {
                        return Frontier::Cut(v);
                    }
                }
            }
        }
    }
    let futile = sel.futility && depth <= 3 && eval + margin(s, sel, 0.5 + 1.5 * d) <= alpha.raw();
    Frontier::Search { futile }
}

/// Late-move reduction of the `index`-th move (from 0) of a node `depth` plies deep:
/// `ln(depth) · ln(index) / 2`, at least 1.
fn lmr_reduction(depth: u32, index: usize) -> u32 {
    let r = (f64::from(depth).ln() * (index as f64).ln() / 2.0) as u32;
    r.max(1)
}

/// The node of alpha-beta and of NegaScout, which differ only in how they search a move
/// (`brothers`): alpha-beta every move with the window `(best, beta)`; NegaScout the eldest
/// with it, the others with a null window first (see [`Searcher::search_brother`]). Both
/// split between threads at the same places and record children the same way.
pub(crate) fn node<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    brothers: Brothers,
) -> Score {
    let clamp = |v: Score| match brothers {
        Brothers::AlphaBeta(FailMode::Hard) => v.clamp(alpha, beta),
        Brothers::AlphaBeta(FailMode::Soft) | Brothers::NegaScout => v,
    };
    let (tt_move, mark) = match s.open(game, depth, ply, alpha, beta) {
        Node::Leaf(v) | Node::Settled(v) => return clamp(v),
        Node::Stopped => return Score::DRAW,
        Node::Interior { tt_move, mark } => (tt_move, mark),
    };
    if let Some(v) = probcut(s, game, depth, ply, alpha, beta, brothers) {
        return clamp(v);
    }
    let sel = s.selective_at(game, ply, alpha, beta);
    let mut depth = depth;
    let mut futile = false;
    if let Some(sel) = sel {
        match frontier(s, game, depth, ply, alpha, beta, brothers, sel) {
            Frontier::Cut(v) => {
                if !s.stopped() {
                    s.selective_cut();
                }
                s.clear_pv(ply);
                return clamp(v);
            }
            Frontier::Search { futile: f } => futile = f,
        }
        if sel.iir && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }
    }
    let extend = s.extends_checks();
    let mut picker = s.picker(ply, depth, tt_move);
    let mut best = Best::new(alpha);
    let mut i = 0;
    let mut quiet_seen = 0;
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
        let child = game.play(mv);
        let mut child_depth = depth - 1;
        let mut reduction = 0;
        if sel.is_some() || extend {
            let stage = picker.last_stage();
            let check = child.in_check();
            if extend && check && ply < 2 * depth as usize + 8 {
                child_depth += 1;
            }
            if let Some(sel) = sel {
                let quiet = !check
                    && !matches!(stage, Stage::HashMove | Stage::Killers)
                    && !game.is_tactical(mv);
                quiet_seen += usize::from(quiet);
                if i > 0 && !best.value.is_loss() {
                    let late = sel.late_move_pruning
                        && depth <= 6
                        && quiet_seen > 3 + (depth * depth) as usize;
                    let losing = || {
                        sel.see_pruning
                            && depth <= 5
                            && !check
                            && stage != Stage::HashMove
                            && game.see(mv).is_some_and(|v| v < 0)
                    };
                    if quiet && (futile || late) || losing() {
                        s.selective_cut();
                        continue;
                    }
                }
                if sel.lmr && quiet && i > 0 && depth >= 3 && quiet_seen > 2 && child_depth > 1 {
                    reduction = lmr_reduction(depth, i).min(child_depth - 1);
                }
            }
        }
        s.before_child(ply, i, mv);
        let mut v = None;
        if reduction > 0 {
            s.counters.reductions += 1;
            let r = s.search_eldest(
                &child,
                child_depth - reduction,
                ply + 1,
                best.low,
                beta,
                brothers,
            );
            if s.stopped() || r <= best.low {
                v = Some(r);
            } else {
                s.counters.re_searches += 1;
            }
        }
        let v = match v {
            Some(v) => v,
            None if i == 0 => {
                s.search_eldest(&child, child_depth, ply + 1, best.low, beta, brothers)
            }
            None => {
                s.search_brother(&child, child_depth, ply + 1, best.low, beta, brothers)
                    .0
            }
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
    let value = clamp(best.value);
    s.trace_leave(game, value);
    s.close(game, depth, alpha, beta, value, best.mv, mark);
    if ply == 0 && !s.stopped() {
        s.root_best = best.mv;
    }
    value
}
