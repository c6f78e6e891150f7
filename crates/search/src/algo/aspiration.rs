//! Aspiration windows: search a narrow window around a guess of the value; if the value falls
//! outside, widen the window on that side (doubling the step each time) and search again.

use crate::searcher::Searcher;
use crate::{Evaluator, Game, Score};

/// The value of `game` found by `search(s, alpha, beta)` with windows around `guess`,
/// starting `±half_width` wide. `search` must be a fail-hard or fail-soft windowed search of
/// the root.
pub(crate) fn aspiration<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    guess: Score,
    half_width: i32,
    hint: &[G::Move],
    mut search: impl FnMut(&mut Searcher<G, E>, Score, Score) -> Score,
) -> Score {
    let mut step = half_width.max(1);
    let mut alpha = guess.offset(-step);
    let mut beta = guess.offset(step);
    loop {
        s.start_pass(hint);
        let v = search(s, alpha, beta);
        if s.stopped() {
            return v;
        }
        step = step.saturating_mul(2);
        if v <= alpha && alpha > -Score::INFINITY {
            alpha = alpha.offset(-step);
        } else if v >= beta && beta < Score::INFINITY {
            beta = beta.offset(step);
        } else {
            return v;
        }
        s.counters.re_searches += 1;
    }
}
