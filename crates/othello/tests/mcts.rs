//! Monte Carlo tree search on Othello: MCTS-Solver's proofs of small endgames (random games
//! played down to 9 to 12 empties) equal the sign of the exact solver's score, with random and
//! with evaluation cut-off playouts, alone and with transpositions.

use prune_othello::endgame::EndgameSolver;
use prune_othello::OthelloEval;
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, Playout, Proof};
use prune_search::Score;

mod common;
use common::random_endgame;

#[test]
fn proofs_of_small_endgames_equal_the_exact_solver() {
    let mut solver = EndgameSolver::new(4);
    let configs = [
        MctsConfig::default(),
        MctsConfig {
            playout: Playout::Cutoff { plies: 0 },
            transpositions: true,
            ..MctsConfig::default()
        },
    ];
    let (mut proven, mut tried) = (0, 0);
    for seed in 0..24u64 {
        let empties = 9 + (seed % 4) as u32;
        let position = random_endgame(seed, empties);
        let exact = solver.solve(position.board(), -64, 64);
        let truth = Proof::of(Score::exact(exact.score));
        for config in configs {
            let mut mcts = Mcts::new(MctsConfig { seed, ..config }).unwrap();
            let eval = OthelloEval::default();
            let r = mcts.search(&position, &eval, &MctsLimits::playouts(300_000), None);
            tried += 1;
            // Up to 10 empties the budget always proves the result; beyond, it may not.
            if r.proof.is_none() && empties > 10 {
                continue;
            }
            assert_eq!(r.proof, Some(truth), "{position} ({config:?})");
            // The move played keeps the proven result.
            let mv = r.best_move.unwrap();
            let after = solver.solve(position.play_unchecked(mv).board(), -64, 64);
            assert_eq!(
                Proof::of(Score::exact(-after.score)),
                truth,
                "{position}: {mv}"
            );
            proven += 1;
        }
    }
    assert!(proven >= 44, "{proven} of {tried}");
}
