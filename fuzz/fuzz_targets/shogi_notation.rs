//! Shogi notation (`crates/shogi/src/notation.rs`) and the move generator: an SFEN read prints
//! back to an SFEN that reads as the same position; every legal move of it prints as a USI
//! move that reads back to the same move, and played leaves the mover's king unattacked (with
//! `gives_check` saying whether it checks); `mate_in_one` finds a mate exactly when a legal
//! move leaves the opponent in check with no legal move; any USI move text read in it is legal
//! there, plays, and prints back to text that reads as the same move; `generate_checks` gives
//! exactly the legal moves that check; the mate solver on a small budget refuses or answers, and
//! a mate it finds is a mating line. The input's first line is
//! the SFEN (or `startpos`), the rest are move texts tried in the position read (or the start
//! position).
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_shogi::mate::{check_mating_line, solve_mate, MateConfig, MateOutcome};
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
    let us = position.side_to_move();
    // The reader accepts a position whose side not to move is in check (its king could be
    // taken): there a move "gives" no check that was already there, and mates are not asked.
    let their_king_attacked = position
        .king(us.flip())
        .is_some_and(|k| position.attacked(k, us));
    let mut mates = false;
    for &mv in &legal {
        let usi = mv.to_string();
        assert_eq!(
            position.parse_move(&usi).ok(),
            Some(mv),
            "{usi} in {position}"
        );
        // The generator makes moves legal without playing them: played, none leaves the
        // mover's king attacked, and `gives_check` says what playing shows.
        let after = position.play(mv);
        if let Some(king) = after.king(us) {
            assert!(
                !after.attacked(king, us.flip()),
                "{usi} leaves the king attacked in {position}"
            );
        }
        if !their_king_attacked {
            assert_eq!(
                position.gives_check(mv),
                after.in_check(),
                "{usi} in {position}"
            );
            mates |= after.in_check() && after.legal_moves().is_empty();
        }
    }
    if !their_king_attacked {
        assert_eq!(position.mate_in_one().is_some(), mates, "{position}");
        // The check generator gives exactly the legal moves that check, in their order.
        let mut checks = Vec::new();
        position.generate_checks(&mut checks);
        let checking: Vec<_> = legal
            .iter()
            .copied()
            .filter(|&mv| position.play(mv).in_check())
            .collect();
        assert_eq!(checks, checking, "{position}");
    }
    // The mate solver, on a small budget, refuses with a reason or answers; a mate it finds
    // is a mating line (legal moves, a check at every attacker move, a checkmate at the end).
    let config = MateConfig {
        max_nodes: 2_000,
        max_entries: 100_000,
        ..MateConfig::default()
    };
    if let Ok(report) = solve_mate(&position, &config, None) {
        if report.outcome == MateOutcome::Mate {
            if let Err(why) = check_mating_line(&position, &report.line) {
                panic!("{position}: {:?}: {why}", report.line);
            }
        }
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
