//! Monte Carlo tree search against the minimax oracle: MCTS-Solver's proofs equal the sign of
//! the exact minimax value on random trees and tic-tac-toe positions, the root's choice is an
//! optimal move, and one thread is deterministic for a seed.

use prune_games::{mix, LineEval, RandomEval, RandomTree, TicTacToe};
use prune_search::mcts::{mcts, MctsConfig, Proof};
use prune_search::{search, Algorithm, Evaluator, Game, Score, SearchConfig, SearchLimits};

/// The exact value of `game` (every line searched to its end) and the moves that reach it.
fn oracle<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) -> (Score, Vec<G::Move>) {
    let config = SearchConfig::new(Algorithm::Minimax);
    let value = search(game, eval, &config, &SearchLimits::depth(depth))
        .unwrap()
        .score;
    let best = game
        .legal_moves()
        .into_iter()
        .filter(|&m| {
            let child = game.play(m);
            let v = match child.outcome() {
                Some(s) => s,
                None => {
                    search(&child, eval, &config, &SearchLimits::depth(depth))
                        .unwrap()
                        .score
                }
            };
            Proof::of(-v) == Proof::of(value)
        })
        .collect();
    (value, best)
}

#[test]
fn proofs_on_random_trees_equal_the_minimax_results() {
    let mut proven = 0;
    for seed in 0..120u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 5) as u32;
        tree.max_depth = 1 + (seed / 5 % 8) as u32;
        let root = tree.root();
        let (value, best) = oracle(&root, &RandomEval, tree.max_depth);
        let config = MctsConfig {
            seed: seed + 1,
            ..MctsConfig::default()
        };
        let r = mcts(&root, &config, 50_000);
        assert_eq!(r.proof, Some(Proof::of(value)), "{tree:?}");
        assert!(best.contains(&r.best_move.unwrap()), "{tree:?}: {r:?}");
        proven += 1;
    }
    assert_eq!(proven, 120);
}

#[test]
fn proofs_on_tic_tac_toe_positions_equal_the_minimax_results() {
    for seed in 0..60u64 {
        let mut game = TicTacToe::new();
        for ply in 0..1 + mix(seed, 1) % 6 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game = game.play(moves[(mix(seed, 10 + ply) % moves.len() as u64) as usize]);
        }
        if game.outcome().is_some() {
            continue;
        }
        let (value, best) = oracle(&game, &LineEval, 9);
        let r = mcts(&game, &MctsConfig::default(), 200_000);
        assert_eq!(r.proof, Some(Proof::of(value)), "{game}");
        assert!(best.contains(&r.best_move.unwrap()), "{game}: {r:?}");
        assert!(r.proven_nodes > 0 && r.tree_size > 1);
    }
}

#[test]
fn the_root_choice_is_an_optimal_move_before_the_proof() {
    // From the empty board every move draws; after X takes a corner, O must take the centre.
    let game: TicTacToe = "X../.../...".parse().unwrap();
    let (_, best) = oracle(&game, &LineEval, 9);
    assert_eq!(best.len(), 1, "only the centre draws");
    let r = mcts(&game, &MctsConfig::default(), 3_000);
    assert_eq!(r.proof, None, "the budget is too small to prove it");
    assert!(best.contains(&r.best_move.unwrap()), "{r:?}");
    // Every iteration goes through one root move.
    let visits: u64 = r.root_moves.iter().map(|m| m.visits).sum();
    assert_eq!(visits, r.playouts);
}

#[test]
fn one_thread_is_deterministic_for_a_seed() {
    let game = TicTacToe::new();
    let config = MctsConfig {
        seed: 7,
        ..MctsConfig::default()
    };
    let (a, b) = (mcts(&game, &config, 2_000), mcts(&game, &config, 2_000));
    assert_eq!(a, b);
    let other = mcts(&game, &MctsConfig { seed: 8, ..config }, 2_000);
    assert_ne!(a.root_moves, other.root_moves);
}

#[test]
fn the_empty_board_is_proven_a_draw() {
    // Tic-tac-toe is a draw (the 549,946-node minimax tree of the classic results).
    let r = mcts(&TicTacToe::new(), &MctsConfig::default(), 1_000_000);
    assert_eq!(r.proof, Some(Proof::Draw), "{} playouts", r.playouts);
    assert!(r.playouts < 1_000_000);
}
