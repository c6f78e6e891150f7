//! Every algorithm and every valid configuration returns plain minimax's root value and a
//! best move from minimax's set of best moves, on thousands of random trees and tic-tac-toe
//! positions, at full depth and at shallower depths (with the evaluation at the horizon).

mod common;

use common::{all_configs, assert_agrees, base_configs, oracle};
use common::{ordering_variants, with_ordering};
use prune_games::{mix, LineEval, RandomEval, RandomTree, TicTacToe};
use prune_search::{search, Evaluator, Game, SearchConfig, SearchLimits};

fn check<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    configs: &[SearchConfig],
    what: &str,
) {
    let (value, best_moves) = oracle(game, eval, depth);
    for config in configs {
        let r = search(game, eval, config, &SearchLimits::depth(depth)).unwrap();
        let context = format!("{what} depth {depth} {config:?}");
        assert_agrees(game, &r, (value, &best_moves), &context);
    }
}

#[test]
fn random_trees_agree_with_minimax() {
    assert!(base_configs().len() >= 25);
    for seed in 0..3000u64 {
        let configs = all_configs(seed);
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 5) as u32;
        tree.max_depth = 1 + (seed / 5 % 7) as u32;
        if seed % 3 == 0 {
            tree.states = Some(2 + seed % 6);
        }
        let root = tree.root();
        let depth = 1 + (mix(seed, 3) % u64::from(tree.max_depth + 1)) as u32;
        check(&root, &RandomEval, depth, &configs, &format!("{tree:?}"));
    }
}

#[test]
fn tic_tac_toe_positions_agree_with_minimax() {
    for seed in 0..300u64 {
        let configs = all_configs(seed);
        // A position a few random moves into a game.
        let mut game = TicTacToe::new();
        let plies = 1 + mix(seed, 1) % 6;
        for ply in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game = game.play(moves[(mix(seed, ply + 10) % moves.len() as u64) as usize]);
        }
        if game.outcome().is_some() {
            continue;
        }
        let depth = 1 + (mix(seed, 2) % 9) as u32;
        check(
            &game,
            &LineEval,
            depth,
            &configs,
            &format!("tic-tac-toe\n{game}\n"),
        );
    }
}

/// Every pruning algorithm, with and without iterative deepening (and the refutation table)
/// and a transposition table, with every combination of the move-ordering enhancements.
#[test]
fn every_ordering_combination_keeps_the_value() {
    let variants = ordering_variants();
    let bases: Vec<SearchConfig> = base_configs()
        .into_iter()
        .filter(|c| c.aspiration.is_none() && c.static_ordering)
        .collect();
    let mut configs = Vec::new();
    for base in &bases {
        for variant in &variants {
            let config = with_ordering(base, variant);
            if config != *base {
                configs.push(config);
            }
        }
    }
    assert!(configs.len() >= 500, "{} configs", configs.len());
    for seed in 0..60u64 {
        let mut tree = RandomTree::new(seed + 10_000);
        tree.max_width = 2 + (seed % 4) as u32;
        tree.max_depth = 3 + (seed / 4 % 4) as u32;
        if seed % 2 == 0 {
            tree.states = Some(3 + seed % 5);
        }
        let depth = 2 + (mix(seed, 7) % u64::from(tree.max_depth)) as u32;
        check(
            &tree.root(),
            &RandomEval,
            depth,
            &configs,
            &format!("{tree:?}"),
        );
    }
    let mut game = TicTacToe::new();
    for mv in game.legal_moves().into_iter().take(2) {
        game = game.play(mv);
    }
    check(&game, &LineEval, 7, &configs, "tic-tac-toe after two moves");
}
