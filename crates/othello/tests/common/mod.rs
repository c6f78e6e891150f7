//! Helpers shared by the integration tests.

use prune_othello::Position;
use prune_search::rng::{Rng, XorShift64, GOLDEN_GAMMA};
use prune_search::Game;

/// A position with `empties` empty squares reached by random play from the start
/// (xorshift-driven, so the same `seed` gives the same position), not yet finished.
pub fn random_endgame(seed: u64, empties: u32) -> Position {
    let mut rng = XorShift64::new(seed.wrapping_mul(GOLDEN_GAMMA) | 1);
    loop {
        let mut p = Position::START;
        while p.empty_count() > empties && p.outcome().is_none() {
            let moves = p.legal_moves();
            p = Game::play(&p, moves[rng.below(moves.len() as u64) as usize]);
        }
        if p.outcome().is_none() {
            return p;
        }
    }
}
