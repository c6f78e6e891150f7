//! The generic search of `prune-search`, running on Connect Four through [`Game`], against the
//! fast solver and against a plain minimax written here (the oracle), on positions of Pons's
//! End-Easy set (`../shared/data/connect4/Test_L3_R1`).

use std::path::PathBuf;

use prune_connect4::suite::{self, Record};
use prune_connect4::{Position, SolveOptions, Solver, ThreatEval};
use prune_search::{search, Algorithm, Engine, Game, Score, SearchConfig, SearchLimits, TtConfig};

fn end_easy() -> Vec<Record> {
    set("Test_L3_R1")
}

fn set(name: &str) -> Vec<Record> {
    let dir = std::env::var_os("PRUNE_CONNECT4_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/connect4"),
        PathBuf::from,
    );
    let text = std::fs::read_to_string(dir.join(name)).expect("../shared/data/connect4");
    let (records, bad) = suite::parse(&text);
    assert!(bad.is_empty());
    records
}

/// Plain minimax to the end of the game, from the side to move's point of view.
fn oracle(p: &Position) -> Score {
    if let Some(score) = p.outcome() {
        return score;
    }
    p.legal_moves()
        .into_iter()
        .map(|m| -oracle(&p.play(m)))
        .max()
        .expect("a position that is not over has a move")
}

fn to_end(p: &Position) -> SearchLimits {
    SearchLimits::depth(42 - p.moves_played())
}

/// NegaScout with a transposition table, through `Game`, equals the fast solver: every
/// End-Easy position and the first hundred of Middle-Easy.
#[test]
fn negascout_with_a_table_equals_the_fast_solver_on_1100_positions() {
    let config = SearchConfig {
        transposition_table: Some(TtConfig { size_mib: 16 }),
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    let mut engine = Engine::<Position>::new(config).unwrap();
    let mut solver = Solver::with_table_bits(20).unwrap();
    let mut records = end_easy();
    records.extend(set("Test_L2_R1").into_iter().take(100));
    for r in &records {
        let generic = engine
            .search(&r.position, &ThreatEval, &to_end(&r.position))
            .unwrap();
        assert!(generic.exhausted, "line {}", r.line);
        let fast = solver.solve(&r.position, &SolveOptions::default());
        assert_eq!(
            generic.score,
            Score::exact(fast.score),
            "line {}: {}",
            r.line,
            r.moves
        );
        assert_eq!(Some(fast.score), r.score, "line {}", r.line);
    }
}

/// Every algorithm of the library finds the oracle's value on positions at most nine stones
/// from a full board.
#[test]
fn every_algorithm_equals_plain_minimax_near_the_end() {
    let near_end: Vec<Record> = end_easy()
        .into_iter()
        .filter(|r| r.position.moves_played() >= 33)
        .take(40)
        .collect();
    assert!(near_end.len() >= 20);
    for r in &near_end {
        let truth = oracle(&r.position);
        assert_eq!(truth, Score::exact(r.score.unwrap()), "line {}", r.line);
        for algorithm in Algorithm::ALL {
            let got = search(
                &r.position,
                &ThreatEval,
                &SearchConfig::new(algorithm),
                &to_end(&r.position),
            )
            .unwrap();
            assert_eq!(
                got.score, truth,
                "{algorithm} on line {}: {}",
                r.line, r.moves
            );
        }
    }
}

/// Connect Four is a game of zugzwang: null moves are refused, naming the game; each switch it
/// allows, and all of them, cut nodes at depth 12 on the first ten Begin-Easy positions (on
/// Middle-Easy, nearer the end, late-move pruning did not: 45,693 nodes against 43,627 at
/// depth 10).
#[test]
fn selective_search_refuses_null_moves_and_cuts_nodes() {
    use prune_search::{ConfigError, NullMove, SearchError, Selective};
    let config = |selective: Selective| SearchConfig {
        iterative_deepening: true,
        static_ordering: true,
        transposition_table: Some(TtConfig { size_mib: 4 }),
        selective,
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    let null = Selective {
        null_move: Some(NullMove { verify: true }),
        ..Selective::NONE
    };
    let err = search(
        &Position::START,
        &ThreatEval,
        &config(null),
        &SearchLimits::depth(4),
    )
    .unwrap_err();
    assert!(matches!(
        err,
        SearchError::Config(ConfigError::Incoherent(_))
    ));
    let text = err.to_string();
    assert!(
        text.contains("prune_connect4") && text.contains("forbids"),
        "{text}"
    );
    let positions: Vec<Position> = set("Test_L1_R1")[..10].iter().map(|r| r.position).collect();
    let nodes = |selective: Selective| -> u64 {
        positions
            .iter()
            .map(|p| {
                search(p, &ThreatEval, &config(selective), &SearchLimits::depth(12))
                    .unwrap()
                    .stats
                    .total
                    .nodes
            })
            .sum()
    };
    let none = nodes(Selective::NONE);
    let mut all = Selective::NONE;
    for name in ["lmr", "futility", "razoring", "iir", "late-move-pruning"] {
        let mut one = Selective::NONE;
        one.enable(name);
        all.enable(name);
        let n = nodes(one);
        assert!(n < none, "{name}: {n} nodes, {none} without");
    }
    let n = nodes(all);
    assert!(n < none, "all five: {n} nodes, {none} without");
}
