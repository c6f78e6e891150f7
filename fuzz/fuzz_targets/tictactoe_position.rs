//! Tic-tac-toe positions and cells: reading never panics, and what is read prints back to
//! text that reads as the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_games::{Cell, TicTacToe};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cell) = text.parse::<Cell>() {
        assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell), "{text:?}");
    }
    if let Ok(position) = text.parse::<TicTacToe>() {
        let printed = position.to_string();
        assert_eq!(printed.parse::<TicTacToe>(), Ok(position), "{printed:?}");
        let _ = prune_search::perft(&position, 9);
    }
});
