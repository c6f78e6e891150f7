//! Published facts: the Knuth–Moore minimal tree, the full tic-tac-toe tree.

use prune_games::{ChildOrder, LineEval, NoisyEval, TicTacToe, UniformTree};
use prune_search::{search, Algorithm, FailMode, Score, SearchConfig, SearchLimits};

fn leaves(tree: &UniformTree, algorithm: Algorithm) -> u64 {
    let config = SearchConfig::new(algorithm);
    let r = search(
        &tree.root(),
        &NoisyEval::default(),
        &config,
        &SearchLimits::depth(tree.depth),
    )
    .unwrap();
    assert_eq!(r.score, tree.root().true_value(), "{tree:?} {algorithm}");
    r.stats.total.leaves
}

/// Knuth & Moore (1975): on a perfectly ordered uniform tree alpha-beta evaluates exactly
/// `w^ceil(d/2) + w^floor(d/2) - 1` leaves.
#[test]
fn alpha_beta_on_perfect_trees_evaluates_the_minimal_tree() {
    for width in 1..=10u32 {
        for depth in 1..=8u32 {
            if u64::from(width).pow(depth) > 20_000_000 {
                continue;
            }
            for fail in [FailMode::Hard, FailMode::Soft] {
                let tree = UniformTree {
                    width,
                    depth,
                    order: ChildOrder::Perfect,
                    seed: u64::from(width * 100 + depth),
                };
                assert_eq!(
                    leaves(&tree, Algorithm::AlphaBeta(fail)),
                    tree.minimal_leaves(),
                    "w={width} d={depth} {fail:?}"
                );
            }
        }
    }
    // The examples of the issue.
    let t = |width, depth| UniformTree {
        width,
        depth,
        order: ChildOrder::Perfect,
        seed: 1,
    };
    assert_eq!(leaves(&t(2, 10), Algorithm::AlphaBeta(FailMode::Hard)), 63);
    assert_eq!(
        leaves(&t(7, 8), Algorithm::AlphaBeta(FailMode::Soft)),
        4_801
    );
    assert_eq!(
        leaves(&t(10, 6), Algorithm::AlphaBeta(FailMode::Hard)),
        1_999
    );
}

/// On a perfectly ordered tree NegaScout's null windows all fail low at once: it too
/// evaluates only the minimal tree.
#[test]
fn negascout_on_perfect_trees_evaluates_the_minimal_tree() {
    for (width, depth) in [(2, 10), (3, 7), (5, 5), (7, 4), (10, 6)] {
        let tree = UniformTree {
            width,
            depth,
            order: ChildOrder::Perfect,
            seed: 5,
        };
        assert_eq!(
            leaves(&tree, Algorithm::NegaScout),
            tree.minimal_leaves(),
            "w={width} d={depth}"
        );
    }
}

/// On a worst-ordered tree alpha-beta prunes nothing: all `w^d` leaves.
#[test]
fn alpha_beta_on_worst_trees_evaluates_every_leaf() {
    for (width, depth) in [(2, 10), (3, 6), (4, 5), (5, 4), (7, 3), (10, 2)] {
        for fail in [FailMode::Hard, FailMode::Soft] {
            let tree = UniformTree {
                width,
                depth,
                order: ChildOrder::Worst,
                seed: 3,
            };
            assert_eq!(
                leaves(&tree, Algorithm::AlphaBeta(fail)),
                tree.all_leaves(),
                "w={width} d={depth}"
            );
        }
    }
}

/// The full minimax tree of tic-tac-toe has 549,946 nodes, root included, and the game is a
/// draw. Every algorithm proves the draw; the pruning ones need far fewer nodes.
#[test]
fn every_algorithm_over_tic_tac_toe() {
    for algorithm in Algorithm::ALL {
        let r = search(
            &TicTacToe::new(),
            &LineEval,
            &SearchConfig::new(algorithm),
            &SearchLimits::depth(9),
        )
        .unwrap();
        let c = r.stats.total;
        assert_eq!(r.score, Score::DRAW, "{algorithm}");
        assert_eq!(c.nodes, c.interior + c.leaves, "{algorithm}");
        assert!(r.exhausted, "{algorithm}");
        if matches!(algorithm, Algorithm::Minimax | Algorithm::Negamax) {
            assert_eq!(c.nodes, 549_946, "{algorithm}");
        } else {
            assert!(c.nodes < 549_946 / 5, "{algorithm}: {}", c.nodes);
        }
    }
}
