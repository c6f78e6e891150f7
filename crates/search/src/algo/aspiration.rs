//! Aspiration windows: search a narrow window around a guess of the value; if the value falls
//! outside, widen the window on that side (doubling the step each time) and search again.

use crate::searcher::Searcher;
use crate::{Evaluator, Game, Score, Window};

/// The value of `game` found by `search(s, alpha, beta)` with windows around `guess`,
/// starting `±half_width` wide, never wider than the root window `root` (a value outside
/// `root` is reported as the bound the search of its edge gives). `search` must be a
/// fail-hard or fail-soft windowed search of the root.
pub(crate) fn aspiration<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    root: Window,
    guess: Score,
    half_width: i32,
    hint: &[G::Move],
    mut search: impl FnMut(&mut Searcher<G, E>, Score, Score) -> Score,
) -> Score {
    let mut step = half_width.max(1);
    let guess = guess.clamp(root.alpha, root.beta);
    let mut alpha = guess.offset(-step).max(root.alpha);
    let mut beta = guess.offset(step).min(root.beta);
    if alpha >= beta {
        // A guess at an edge of a narrow root window: the window itself.
        (alpha, beta) = (root.alpha, root.beta);
    }
    loop {
        s.start_pass(hint);
        let v = search(s, alpha, beta);
        if s.stopped() {
            return v;
        }
        step = step.saturating_mul(2);
        if v <= alpha && alpha > root.alpha {
            alpha = alpha.offset(-step).max(root.alpha);
        } else if v >= beta && beta < root.beta {
            beta = beta.offset(step).min(root.beta);
        } else {
            return v;
        }
        s.counters.re_searches += 1;
    }
}
