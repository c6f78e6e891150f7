//! MTD(f) (Plaat et al.): converge on the value with a sequence of null-window alpha-beta
//! searches with memory, each one moving a lower or an upper bound, starting from a guess.
//!
//! The pure form, without the searcher's hooks, is [`crate::textbook::mtdf()`], its memory a
//! [`crate::textbook::Memory`].

use crate::algo::alpha_beta::alpha_beta;
use crate::searcher::Searcher;
use crate::{Evaluator, FailMode, Game, Score};

/// The value of `game` searched `depth` plies deep, starting from `guess`. The searcher must
/// have a transposition table (the configuration's `validate` insists).
pub(crate) fn mtdf<G: Game, E: Evaluator<G>>(
    s: &mut Searcher<G, E>,
    game: &G,
    depth: u32,
    guess: Score,
    hint: &[G::Move],
) -> Score {
    let mut g = guess;
    let mut lower = -Score::INFINITY;
    let mut upper = Score::INFINITY;
    let mut best_move = None;
    let mut passes = 0u64;
    while lower < upper {
        let beta = if g == lower { g.next() } else { g };
        s.start_pass(hint);
        g = alpha_beta(s, game, depth, 0, beta.prev(), beta, FailMode::Soft);
        if s.stopped() {
            return g;
        }
        passes += 1;
        if g < beta {
            upper = g;
        } else {
            lower = g;
            // A fail-high proves the root move that caused it reaches `g`; the final value is
            // the last such `g`, so this move is a best move.
            best_move = s.root_best;
        }
    }
    s.counters.re_searches += passes.saturating_sub(1);
    s.root_best = best_move;
    g
}
