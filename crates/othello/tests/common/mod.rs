//! Helpers shared by the integration tests.

use prune_othello::Position;
use prune_search::Game;

/// A position with `empties` empty squares reached by random play from the start
/// (xorshift-driven, so the same `seed` gives the same position), not yet finished.
pub fn random_endgame(seed: u64, empties: u32) -> Position {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    loop {
        let mut p = Position::START;
        while p.empty_count() > empties && p.outcome().is_none() {
            let moves = p.legal_moves();
            p = Game::play(&p, moves[(next() % moves.len() as u64) as usize]);
        }
        if p.outcome().is_none() {
            return p;
        }
    }
}
