//! Shared by the integration tests: an independent minimax oracle and the list of configs.

#![allow(dead_code)]

use prune_search::{Algorithm, Aspiration, Evaluator, Game, Score, SearchConfig, TtConfig};

/// Plain minimax written here, apart from the library: the value of `game` searched `depth`
/// plies deep, and every root move that reaches it.
pub fn oracle<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) -> (Score, Vec<G::Move>) {
    fn value<G: Game, E: Evaluator<G>>(g: &G, e: &E, depth: u32) -> Score {
        if let Some(v) = g.outcome() {
            return v;
        }
        if depth == 0 {
            return e.evaluate(g);
        }
        g.legal_moves()
            .into_iter()
            .map(|m| -value(&g.play(m), e, depth - 1))
            .max()
            .expect("a non-terminal position has a move")
    }
    let scored: Vec<(G::Move, Score)> = game
        .legal_moves()
        .into_iter()
        .map(|m| (m, -value(&game.play(m), eval, depth - 1)))
        .collect();
    let best = scored
        .iter()
        .map(|&(_, s)| s)
        .max()
        .expect("root has moves");
    let moves = scored
        .iter()
        .filter(|&&(_, s)| s == best)
        .map(|&(m, _)| m)
        .collect();
    (best, moves)
}

/// Every valid combination of algorithm and enhancements worth telling apart.
pub fn all_configs() -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for algorithm in Algorithm::ALL {
        for iterative_deepening in [false, true] {
            for aspiration in [None, Some(1), Some(6)] {
                for tt in [None, Some(TtConfig { size_mib: 1 })] {
                    let config = SearchConfig {
                        algorithm,
                        iterative_deepening,
                        aspiration: aspiration.map(|half_width| Aspiration { half_width }),
                        transposition_table: tt,
                        // Alternate static ordering so both settings meet every algorithm.
                        static_ordering: (out.len() % 2) == 1,
                    };
                    if config.validate().is_ok() {
                        out.push(config);
                    }
                }
            }
        }
    }
    out
}

/// Checks that `pv` is a legal line from `game`.
pub fn assert_legal_line<G: Game>(game: &G, pv: &[G::Move], context: &str) {
    let mut pos = game.clone();
    for &m in pv {
        assert!(pos.is_legal(m), "{context}: illegal move {m} in pv {pv:?}");
        pos = pos.play(m);
    }
}
