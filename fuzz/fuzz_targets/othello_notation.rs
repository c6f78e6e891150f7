//! Othello squares, moves and positions: reading never panics, and what is read prints back
//! to text that reads as the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_othello::{Move, Position, Square};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(square) = text.parse::<Square>() {
        assert_eq!(square.to_string().parse::<Square>(), Ok(square), "{text:?}");
    }
    if let Ok(mv) = text.parse::<Move>() {
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv), "{text:?}");
    }
    if let Ok(position) = text.parse::<Position>() {
        let printed = position.to_string();
        assert_eq!(printed.parse::<Position>(), Ok(position), "{printed:?}");
        // The rules must cope with any position the notation can express.
        for mv in prune_search::Game::legal_moves(&position) {
            let _ = position.play(mv);
        }
    }
});
