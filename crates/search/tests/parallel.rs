//! Parallel searches (Young Brothers Wait and PV splitting with 2–4 threads; Lazy SMP on
//! searches to the end of the game) return plain minimax's root value and one of its best
//! moves, on random trees and tic-tac-toe positions, with every configuration of the
//! differential test. Trees this small make split points every few nodes, cutoffs among
//! brothers searched at once, and aborted searches: the cases a parallel search gets wrong.

mod common;

use common::{all_configs, assert_agrees, oracle};
use prune_games::UniformTree;
use prune_games::{mix, ChildOrder, LineEval, NoisyEval, RandomEval, RandomTree, TicTacToe};
use prune_search::{Engine, Evaluator, Game, Named, Parallel, ParallelKind, SearchLimits};

/// Checks every configuration of `seed` with every scheme on 2–4 threads, searching `game`
/// `depth` plies deep; `exhaustive` says the depth reaches the end of the game everywhere.
/// Returns how many split points the searches made.
fn check<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    (depth, exhaustive): (u32, bool),
    seed: u64,
    what: &str,
) -> u64 {
    let (value, best_moves) = oracle(game, eval, depth);
    let mut splits = 0;
    for config in all_configs(seed) {
        for &kind in ParallelKind::ALL {
            // Lazy SMP helpers search a ply deeper and share the table: below the end of the
            // game the main thread may read their deeper values, which plain minimax at this
            // depth does not see.
            if kind == ParallelKind::LazySmp && !exhaustive {
                continue;
            }
            let threads = 2 + (mix(seed, kind as u64) % 3) as usize;
            let parallel = Parallel::new(threads, kind).unwrap();
            let mut engine = Engine::<G>::with_parallel(config, parallel).unwrap();
            let r = engine
                .search(game, eval, &SearchLimits::depth(depth))
                .unwrap();
            let context = format!("{what} depth {depth} {kind} x{threads} {config:?}");
            assert_agrees(game, &r, (value, &best_moves), &context);
            assert!(!r.interrupted, "{context}");
            splits += r.stats.total.splits;
        }
    }
    splits
}

#[test]
fn parallel_searches_of_random_trees_agree_with_minimax() {
    let mut splits = 0;
    for seed in 0..200u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 2 + (seed % 3) as u32;
        tree.max_depth = 6 + (seed / 3 % 4) as u32;
        if seed % 3 == 0 {
            tree.states = Some(2 + seed % 6);
        }
        let root = tree.root();
        let depth = 6 + (mix(seed, 3) % u64::from(tree.max_depth - 5)) as u32;
        let exhaustive = depth >= tree.max_depth;
        let what = format!("{tree:?}");
        splits += check(&root, &RandomEval, (depth, exhaustive), seed, &what);
    }
    assert!(splits > 10_000, "only {splits} split points");
}

#[test]
fn parallel_searches_of_tic_tac_toe_agree_with_minimax() {
    let mut splits = 0;
    for seed in 0..60u64 {
        let mut game = TicTacToe::new();
        let plies = mix(seed, 1) % 3;
        for ply in 0..plies {
            let moves = game.legal_moves();
            game = game.play(moves[(mix(seed, ply + 10) % moves.len() as u64) as usize]);
        }
        let depth = 4 + (mix(seed, 2) % 6) as u32;
        let exhaustive = u64::from(depth) >= 9 - plies;
        let what = format!("tic-tac-toe\n{game}\n");
        splits += check(&game, &LineEval, (depth, exhaustive), seed, &what);
    }
    assert!(splits > 1_000, "only {splits} split points");
}

#[test]
fn limits_stop_every_thread_and_leave_a_legal_move() {
    let tree = UniformTree {
        width: 6,
        depth: 16,
        order: ChildOrder::Random,
        seed: 7,
    };
    let root = tree.root();
    let config = prune_search::Preset::find("full")
        .unwrap()
        .config(prune_search::Algorithm::NegaScout)
        .unwrap();
    for &kind in ParallelKind::ALL {
        for nodes in [1, 500, 20_000] {
            let parallel = Parallel::new(3, kind).unwrap();
            let mut engine = Engine::<_>::with_parallel(config, parallel).unwrap();
            let limits = SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            };
            let r = engine
                .search(&root, &NoisyEval::default(), &limits)
                .unwrap();
            assert!(r.interrupted, "{kind} {nodes}");
            let best = r.best_move.expect("a legal move even when interrupted");
            assert!(root.is_legal(best), "{kind} {nodes}: {best}");
            // Each of the 3 threads counts its own nodes exactly, the others' to within a
            // flush (1,024 nodes).
            assert!(
                r.stats.total.nodes <= 3 * (nodes + 2 * 1024),
                "{kind} {nodes}: {} nodes",
                r.stats.total.nodes
            );
        }
    }
}
