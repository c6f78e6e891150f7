//! GGF games: reading never panics, and a game read writes back to GGF that reads as the
//! same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_play::ggf::{parse_ggf, parse_move, to_ggf};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_move(text);
    if let Ok(game) = parse_ggf(text) {
        let written = to_ggf(&game, "black", "white");
        let again =
            parse_ggf(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(again, game, "{written:?}");
    }
});
