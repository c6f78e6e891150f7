//! The traced tree is the tree the search visited: its node and leaf counts are the search's
//! statistics, every value agrees with its children's, the moves it marks as pruned are
//! exactly those never searched, and on a perfectly ordered uniform tree alpha-beta's picture
//! has exactly the Knuth–Moore minimal tree's leaves.

mod common;

use common::{all_configs, base_configs};
use prune_games::{
    ChildOrder, LineEval, NoisyEval, RandomEval, RandomTree, TicTacToe, UniformTree,
};
use prune_search::{Algorithm, Engine, Evaluator, FailMode, Game, NodeEnd, Score, SearchConfig};
use prune_search::{SearchLimits, SearchResult, SearchTree, TreeRecorder};

/// Searches `game` traced; returns the result and the tree.
fn traced<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    config: &SearchConfig,
    depth: u32,
) -> (SearchResult<G::Move>, SearchTree<G::Move>) {
    let mut engine = Engine::new(*config).unwrap();
    let mut recorder = TreeRecorder::new();
    let result = engine
        .search_traced(game, eval, &SearchLimits::depth(depth), &mut recorder)
        .unwrap();
    (result, recorder.into_tree())
}

/// Checks the tree against the search's statistics and against itself.
fn check_tree<G: Game>(
    game: &G,
    config: &SearchConfig,
    result: &SearchResult<G::Move>,
    tree: &SearchTree<G::Move>,
    what: &str,
) {
    let total = &result.stats.total;
    assert_eq!(tree.len() as u64, total.nodes, "{what}: nodes");
    assert_eq!(tree.leaves() as u64, total.leaves, "{what}: leaves");
    let ordering = tree.nodes.iter().filter(|n| n.entered.ordering).count();
    assert_eq!(
        ordering as u64, total.ordering_nodes,
        "{what}: ordering nodes"
    );
    // One pass per iteration, plus one per aspiration re-search or MTD(f) pass after the first.
    let iterations = result.stats.per_depth.len() as u64;
    let passes = match config.algorithm {
        Algorithm::MtdF | Algorithm::AlphaBeta(_) | Algorithm::NegaScout => {
            // Re-searches at the root pass again; NegaScout's below the root are nodes.
            let deep = tree
                .nodes
                .iter()
                .filter(|n| n.repeat > 0 && n.entered.ply > 0)
                .count() as u64;
            total.re_searches - deep + iterations
        }
        _ => iterations,
    };
    assert_eq!(tree.roots.len() as u64, passes, "{what}: passes");
    let last_root = &tree.nodes[*tree.roots.last().unwrap()];
    assert_eq!(last_root.value, result.score, "{what}: root value");

    let mut positions = vec![None; tree.len()];
    for &root in &tree.roots {
        positions[root] = Some(game.clone());
    }
    for (i, node) in tree.nodes.iter().enumerate() {
        let position = positions[i].clone().expect("parents come before children");
        for &c in &node.children {
            let mv = tree.nodes[c].entered.mv.expect("a child has a move");
            assert!(position.is_legal(mv), "{what}: illegal traced move");
            assert_eq!(tree.nodes[c].entered.ply, node.entered.ply + 1);
            positions[c] = Some(position.play(mv));
        }
        match node.end {
            NodeEnd::Terminal => assert_eq!(Some(node.value), position.outcome()),
            NodeEnd::Horizon => assert_eq!(node.entered.depth, 0, "{what}"),
            NodeEnd::Table => assert!(node.children.is_empty()),
            NodeEnd::Searched => {
                let searched: Vec<_> = node
                    .children
                    .iter()
                    .map(|&c| &tree.nodes[c])
                    .filter(|c| tree.is_searched_child(i, &c.entered))
                    .collect();
                // Searched and pruned moves are the legal moves, each once.
                let mut moves: Vec<G::Move> =
                    searched.iter().filter_map(|c| c.entered.mv).collect();
                moves.dedup();
                moves.extend(&node.pruned);
                let mut legal = position.legal_moves();
                assert_eq!(moves.len(), legal.len(), "{what}: searched + pruned");
                legal.retain(|m| !moves.contains(m));
                assert!(
                    legal.is_empty(),
                    "{what}: a legal move neither searched nor pruned"
                );
                // Fail-soft value: the best child value, with moves left only after a cutoff.
                if matches!(
                    config.algorithm,
                    Algorithm::Minimax
                        | Algorithm::Negamax
                        | Algorithm::NegaScout
                        | Algorithm::MtdF
                        | Algorithm::AlphaBeta(FailMode::Soft)
                ) {
                    let best = searched.iter().map(|c| -c.value).max().unwrap();
                    assert_eq!(node.value, best, "{what}: value of a searched node");
                }
                if !node.pruned.is_empty() {
                    assert!(
                        node.value >= node.entered.beta,
                        "{what}: pruned without cutoff"
                    );
                }
            }
        }
    }
}

#[test]
fn traced_trees_match_the_statistics_on_random_trees() {
    for seed in 0..300u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 4) as u32;
        tree.max_depth = 2 + (seed / 4 % 4) as u32;
        if seed % 3 == 0 {
            tree.states = Some(3 + seed % 5);
        }
        let root = tree.root();
        for config in &all_configs(seed) {
            let (result, traced) = traced(&root, &RandomEval, config, tree.max_depth);
            check_tree(
                &root,
                config,
                &result,
                &traced,
                &format!("{tree:?} {config:?}"),
            );
        }
    }
}

#[test]
fn traced_trees_match_the_statistics_on_tic_tac_toe() {
    let game: TicTacToe = "X.O/.X./O..".parse().unwrap();
    for config in base_configs() {
        let (result, traced) = traced(&game, &LineEval, &config, 5);
        check_tree(&game, &config, &result, &traced, &format!("{config:?}"));
    }
}

#[test]
fn tracing_does_not_change_the_search() {
    let game: TicTacToe = "X../.O./...".parse().unwrap();
    for config in base_configs() {
        let plain = Engine::new(config)
            .unwrap()
            .search(&game, &LineEval, &SearchLimits::depth(7))
            .unwrap();
        let (result, _) = traced(&game, &LineEval, &config, 7);
        assert_eq!(result.score, plain.score);
        assert_eq!(result.pv, plain.pv);
        assert_eq!(result.stats.total, plain.stats.total, "{config:?}");
    }
}

/// Leaves below a move cut off at `ply` of a uniform tree of width `w` and depth `d`.
fn leaves_below(w: u64, d: u32, ply: usize) -> u64 {
    w.pow(d - ply as u32 - 1)
}

#[test]
fn perfect_ordering_draws_the_knuth_moore_minimal_tree() {
    for (w, d) in [(2, 2), (3, 3), (2, 5), (3, 4), (4, 3), (5, 2)] {
        let spec = UniformTree {
            width: w,
            depth: d,
            order: ChildOrder::Perfect,
            seed: 7,
        };
        let root = spec.root();
        let config = SearchConfig::new(Algorithm::AlphaBeta(FailMode::Hard));
        let (result, tree) = traced(&root, &NoisyEval::default(), &config, d);
        check_tree(&root, &config, &result, &tree, &format!("w{w} d{d}"));
        // Knuth and Moore (1975): w^ceil(d/2) + w^floor(d/2) - 1 leaves.
        let w = u64::from(w);
        let minimal = w.pow(d.div_ceil(2)) + w.pow(d / 2) - 1;
        assert_eq!(tree.leaves() as u64, minimal, "w{w} d{d}");
        // The pruned moves hold every other leaf.
        let pruned_leaves: u64 = tree
            .nodes
            .iter()
            .filter(|n| !n.pruned.is_empty())
            .map(|n| n.pruned.len() as u64 * leaves_below(w, d, n.entered.ply))
            .sum();
        assert_eq!(tree.leaves() as u64 + pruned_leaves, w.pow(d), "w{w} d{d}");
        // Minimax draws all of them and prunes nothing.
        let config = SearchConfig::new(Algorithm::Minimax);
        let (_, full) = traced(&root, &NoisyEval::default(), &config, d);
        assert_eq!(full.leaves() as u64, w.pow(d));
        assert_eq!(full.pruned(), 0);
    }
}

#[test]
fn principal_variation_is_a_path_of_the_last_pass() {
    let spec = UniformTree {
        width: 3,
        depth: 4,
        order: ChildOrder::Random,
        seed: 3,
    };
    let root = spec.root();
    // Without a table the line is the search's own, exact all the way down.
    for config in base_configs()
        .into_iter()
        .filter(|c| c.transposition_table.is_none())
    {
        let (result, tree) = traced(&root, &NoisyEval::default(), &config, 4);
        let path = tree.follow(tree.roots.len() - 1, &result.pv);
        assert_eq!(path.len(), result.pv.len() + 1, "{config:?}");
        // Along the principal variation every node has the root's value, up to sign.
        for (k, &n) in path.iter().enumerate() {
            let sign = if k % 2 == 0 { 1 } else { -1 };
            assert_eq!(
                tree.nodes[n].value,
                Score::heuristic(sign * result.score.raw()),
                "{config:?}"
            );
        }
    }
}
