//! Shogi notation (`crates/shogi/src/notation.rs`): an SFEN read prints back to an SFEN that
//! reads as the same position; every legal move of it prints as a USI move that reads back to
//! the same move; any USI move text read in it is legal there, plays, and prints back to text
//! that reads as the same move. The input's first line is the SFEN (or `startpos`), the rest
//! are move texts tried in the position read (or the start position).
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_shogi::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let position = match first.parse::<Position>() {
        Ok(p) => {
            let again: Position = p
                .to_string()
                .parse()
                .unwrap_or_else(|e| panic!("{first:?} printed as {p} does not read: {e}"));
            assert_eq!(again, p, "{first:?}");
            p
        }
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "{e}");
            Position::start()
        }
    };
    let legal = position.legal_moves();
    for &mv in &legal {
        let usi = mv.to_string();
        assert_eq!(
            position.parse_move(&usi).ok(),
            Some(mv),
            "{usi} in {position}"
        );
        let _ = position.play(mv);
    }
    for line in lines.take(16) {
        match position.parse_move(line) {
            Ok(mv) => {
                assert!(
                    legal.contains(&mv),
                    "{line:?} read as {mv}, not legal in {position}"
                );
                assert_eq!(
                    position.parse_move(&mv.to_string()).ok(),
                    Some(mv),
                    "{line:?}"
                );
                let _ = position.play(mv);
            }
            Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
        }
    }
});
