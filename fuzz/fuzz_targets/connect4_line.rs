//! Connect Four test-set lines (`MOVES [SCORE]`): reading never panics; a position read is
//! consistent (its moves read again give it back, the solver runs on it without panicking and
//! a finished solve's score is in range, its best move playable).
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_connect4::{suite, Column, Position, SolveOptions, Solver};
use prune_search::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(column) = text.parse::<Column>() {
        assert_eq!(column.to_string().parse::<Column>(), Ok(column), "{text:?}");
    }
    let (records, _bad) = suite::parse(text);
    for r in records {
        assert_eq!(r.moves.parse::<Position>(), Ok(r.position), "{text:?}");
        assert_eq!(r.position.moves_played() as usize, r.moves.len());
        // A line may end with the winning stone: the position is over, lost for the side to move.
        if r.position.is_won() {
            assert!(
                r.position.outcome().is_some_and(|s| s.is_loss()),
                "{text:?}"
            );
        }
        let mut solver = Solver::with_table_bits(10).expect("a tiny table");
        let options = SolveOptions {
            node_limit: Some(2_000),
            ..SolveOptions::default()
        };
        let s = solver.solve(&r.position, &options);
        if s.complete {
            assert!(s.score.abs() <= 21, "{text:?}: {s:?}");
            if let Some(column) = s.best_move {
                assert!(r.position.is_legal(column), "{text:?}: {s:?}");
            }
        }
    }
});
