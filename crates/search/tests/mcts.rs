//! Monte Carlo tree search against the minimax oracle: MCTS-Solver's proofs equal the sign of
//! the exact minimax value on random trees and tic-tac-toe positions, the root's choice is an
//! optimal move, and one thread is deterministic for a seed.

use prune_games::{mix, LineEval, RandomEval, RandomTree, TicTacToe};
use prune_search::mcts::{mcts, Mcts, MctsConfig, MctsLimits, MctsParallel, Playout, Proof};
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

/// Tic-tac-toe positions 1 to 6 plies from the start, drawn by `seed`, that are not over.
fn tic_tac_toe_positions(seeds: std::ops::Range<u64>) -> Vec<TicTacToe> {
    let mut positions = Vec::new();
    for seed in seeds {
        let mut game = TicTacToe::new();
        for ply in 0..1 + mix(seed, 1) % 6 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game = game.play(moves[(mix(seed, 10 + ply) % moves.len() as u64) as usize]);
        }
        if game.outcome().is_none() {
            positions.push(game);
        }
    }
    positions
}

#[test]
fn proofs_on_tic_tac_toe_positions_equal_the_minimax_results() {
    for game in tic_tac_toe_positions(0..60) {
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

#[test]
fn transpositions_share_nodes_and_keep_the_proofs() {
    let with = MctsConfig {
        transpositions: true,
        ..MctsConfig::default()
    };
    for game in tic_tac_toe_positions(0..30) {
        let (value, best) = oracle(&game, &LineEval, 9);
        let r = mcts(&game, &with, 200_000);
        assert_eq!(r.proof, Some(Proof::of(value)), "{game}");
        assert!(best.contains(&r.best_move.unwrap()), "{game}: {r:?}");
    }
    // One node per position: tic-tac-toe has 5,478 legal positions (the count of the
    // classic enumeration), so the tree that proves the empty board cannot hold more.
    let shared = mcts(&TicTacToe::new(), &with, 1_000_000);
    let apart = mcts(&TicTacToe::new(), &MctsConfig::default(), 1_000_000);
    assert_eq!(shared.proof, Some(Proof::Draw));
    assert!(shared.tree_size <= 5_478, "{}", shared.tree_size);
    assert!(shared.tree_size < apart.tree_size);
    // Random trees whose plies share a few states.
    for seed in 0..40u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_depth = 2 + (seed % 6) as u32;
        tree.states = Some(2 + seed % 5);
        let root = tree.root();
        let (value, best) = oracle(&root, &RandomEval, tree.max_depth);
        let r = mcts(&root, &MctsConfig { seed, ..with }, 50_000);
        assert_eq!(r.proof, Some(Proof::of(value)), "{tree:?}");
        assert!(best.contains(&r.best_move.unwrap()), "{tree:?}: {r:?}");
    }
}

#[test]
fn cut_off_playouts_keep_the_proofs_and_find_the_only_draw() {
    for plies in [0, 2] {
        let config = MctsConfig {
            playout: Playout::Cutoff { plies },
            ..MctsConfig::default()
        };
        for game in tic_tac_toe_positions(0..20) {
            let (value, best) = oracle(&game, &LineEval, 9);
            let r = Mcts::new(config).unwrap().search(
                &game,
                &LineEval,
                &MctsLimits::playouts(200_000),
                None,
            );
            assert_eq!(r.proof, Some(Proof::of(value)), "{game}");
            assert!(best.contains(&r.best_move.unwrap()), "{game}: {r:?}");
        }
    }
}

#[test]
fn plain_uct_converges_to_an_optimal_move() {
    // Without the solver nothing is proven: the choice is the most visited move, which UCT
    // makes a minimax-optimal one as the budget grows (Kocsis and Szepesvari, 2006).
    let config = MctsConfig {
        solver: false,
        ..MctsConfig::default()
    };
    let positions = tic_tac_toe_positions(0..40);
    let mut optimal_at = Vec::new();
    for budget in [30, 300, 100_000] {
        let mut optimal = 0;
        for game in &positions {
            let (_, best) = oracle(game, &LineEval, 9);
            let r = mcts(game, &config, budget);
            assert_eq!((r.proof, r.playouts), (None, budget), "{game}");
            optimal += usize::from(best.contains(&r.best_move.unwrap()));
        }
        optimal_at.push(optimal);
    }
    assert_eq!(optimal_at[2], positions.len(), "{optimal_at:?}");
    assert!(
        optimal_at[0] < positions.len(),
        "{optimal_at:?}: a budget that cannot fail"
    );
}

#[test]
fn the_tree_is_reused_below_the_next_position() {
    let mut search = Mcts::new(MctsConfig::default()).unwrap();
    let game = TicTacToe::new();
    let first = search.search(&game, &LineEval, &MctsLimits::playouts(20_000), None);
    assert_eq!(first.reused_nodes, 0);
    // Our move and the most visited reply: the subtree under them is kept.
    let mv = first.best_move.unwrap();
    let reply = first.pv[1];
    let next = game.play(mv).play(reply);
    let kept = search.search(&next, &LineEval, &MctsLimits::playouts(0), None);
    assert!(kept.reused_nodes > 100, "{kept:?}");
    assert_eq!((kept.tree_size, kept.playouts), (kept.reused_nodes, 0));
    assert!(kept.root_moves.iter().any(|m| m.visits > 0));
    // Searching on from the kept tree proves what the oracle says.
    let (value, best) = oracle(&next, &LineEval, 9);
    let r = search.search(&next, &LineEval, &MctsLimits::playouts(200_000), None);
    assert_eq!(r.proof, Some(Proof::of(value)));
    assert!(best.contains(&r.best_move.unwrap()));
    // A position that is not under the root starts a new tree.
    let elsewhere: TicTacToe = "XO./.../...".parse().unwrap();
    let fresh = search.search(&elsewhere, &LineEval, &MctsLimits::playouts(10), None);
    assert_eq!(fresh.reused_nodes, 0);
}

#[test]
fn both_parallel_schemes_prove_what_the_oracle_says() {
    for parallel in [MctsParallel::Tree, MctsParallel::Root] {
        let config = MctsConfig {
            threads: 2,
            parallel,
            ..MctsConfig::default()
        };
        for game in tic_tac_toe_positions(0..12) {
            let (value, best) = oracle(&game, &LineEval, 9);
            let r = mcts(&game, &config, 400_000);
            assert_eq!(r.proof, Some(Proof::of(value)), "{parallel:?} {game}");
            assert!(best.contains(&r.best_move.unwrap()), "{parallel:?} {game}");
        }
        // A budget is shared by the threads.
        let r = mcts(
            &TicTacToe::new(),
            &MctsConfig {
                solver: false,
                ..config
            },
            5_000,
        );
        assert_eq!(r.playouts, 5_000, "{parallel:?}");
        let visits: u64 = r.root_moves.iter().map(|m| m.visits).sum();
        assert_eq!(visits, 5_000, "{parallel:?}");
    }
}

#[test]
fn a_bad_configuration_is_refused() {
    for config in [
        MctsConfig {
            exploration: -1.0,
            ..MctsConfig::default()
        },
        MctsConfig {
            exploration: f64::NAN,
            ..MctsConfig::default()
        },
        MctsConfig {
            threads: 0,
            ..MctsConfig::default()
        },
        MctsConfig {
            max_nodes: 0,
            ..MctsConfig::default()
        },
    ] {
        assert!(Mcts::<TicTacToe>::new(config).is_err(), "{config:?}");
    }
}

#[test]
fn a_full_tree_goes_on_without_growing() {
    let config = MctsConfig {
        max_nodes: 50,
        ..MctsConfig::default()
    };
    let r = mcts(&TicTacToe::new(), &config, 5_000);
    assert_eq!((r.tree_size, r.playouts), (50, 5_000));
    assert!(r.best_move.is_some());
}
