//! Node and time limits interrupt iterative deepening and still leave a legal best move.

use std::time::{Duration, Instant};

use prune_games::{ChildOrder, LineEval, NoisyEval, TicTacToe, UniformTree};
use prune_search::{search, Algorithm, Engine, Game, SearchConfig, SearchError, SearchLimits};

fn iterative(algorithm: Algorithm) -> SearchConfig {
    SearchConfig {
        iterative_deepening: true,
        ..SearchConfig::new(algorithm)
    }
}

#[test]
fn a_time_limit_leaves_a_legal_best_move() {
    // Far too big to finish: 10^12 leaves.
    let tree = UniformTree {
        width: 10,
        depth: 12,
        order: ChildOrder::Random,
        seed: 4,
    };
    let root = tree.root();
    for algorithm in Algorithm::ALL {
        for ms in [0, 1, 30] {
            let started = Instant::now();
            let r = search(
                &root,
                &NoisyEval::default(),
                &iterative(algorithm),
                &SearchLimits::time(Duration::from_millis(ms)),
            )
            .unwrap();
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{algorithm} overran its time"
            );
            assert!(r.interrupted, "{algorithm}");
            let best = r.best_move.expect("a best move");
            assert!(root.is_legal(best), "{algorithm}: {best}");
            assert!(r.depth < 12);
        }
    }
}

#[test]
fn a_node_limit_is_respected_and_deterministic() {
    let tree = UniformTree {
        width: 6,
        depth: 10,
        order: ChildOrder::Random,
        seed: 8,
    };
    let config = iterative(Algorithm::NegaScout);
    let run = || {
        search(
            &tree.root(),
            &NoisyEval::default(),
            &config,
            &SearchLimits::nodes(20_000),
        )
        .unwrap()
    };
    let (a, b) = (run(), run());
    assert!(a.stats.total.nodes <= 20_000, "{}", a.stats.total.nodes);
    assert!(a.depth >= 3, "completed depth {}", a.depth);
    assert_eq!(
        (a.best_move, a.score, a.stats.total),
        (b.best_move, b.score, b.stats.total)
    );
    // The interrupted iteration has its row; completed ones have theirs.
    assert_eq!(a.stats.per_depth.len() as u32, a.depth + 1);
}

#[test]
fn iterative_deepening_stops_when_the_tree_is_exhausted() {
    let r = search(
        &TicTacToe::new(),
        &LineEval,
        &iterative(Algorithm::AlphaBeta(prune_search::FailMode::Soft)),
        &SearchLimits::default().with_time_secs(60),
    )
    .unwrap();
    assert!(r.exhausted && !r.interrupted);
    assert_eq!(r.score, prune_search::Score::DRAW);
    assert_eq!(r.depth, 9);
    assert_eq!(r.iterations.len(), 9);
}

/// With a transposition table too, including draws found in the table (a draw and a heuristic
/// zero share an encoding, so exhaustion is tracked per subtree, not read off the value).
#[test]
fn exhaustion_is_seen_through_the_table() {
    for algorithm in [
        Algorithm::MtdF,
        Algorithm::NegaScout,
        Algorithm::AlphaBeta(prune_search::FailMode::Hard),
    ] {
        let mut config = iterative(algorithm);
        config.transposition_table = Some(prune_search::TtConfig { size_mib: 1 });
        let r = search(
            &TicTacToe::new(),
            &LineEval,
            &config,
            &SearchLimits::default().with_time_secs(60),
        )
        .unwrap();
        assert!(r.exhausted, "{algorithm}");
        assert_eq!(
            (r.score, r.depth),
            (prune_search::Score::DRAW, 9),
            "{algorithm}"
        );
    }
}

#[test]
fn a_fixed_depth_search_needs_a_depth() {
    let e = Engine::<TicTacToe>::new(SearchConfig::new(Algorithm::Negamax)).unwrap();
    let mut e = e;
    let err = e
        .search(&TicTacToe::new(), &LineEval, &SearchLimits::nodes(100))
        .unwrap_err();
    assert!(matches!(err, SearchError::Limits(_)), "{err}");
}
