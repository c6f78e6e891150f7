//! Shared by the integration tests: an independent minimax oracle and the list of configs.

#![allow(dead_code)]

use prune_search::{Algorithm, Aspiration, Evaluator, Game, KillerIndex, Killers, Score};
use prune_search::{SearchConfig, SearchResult, ShallowOrdering, TtConfig};

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

/// Every valid combination of algorithm and search-driving enhancements worth telling apart
/// (no move-ordering enhancement but static ordering, which alternates).
pub fn base_configs() -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for algorithm in Algorithm::ALL {
        for iterative_deepening in [false, true] {
            for aspiration in [None, Some(1), Some(6)] {
                for tt in [None, Some(TtConfig { size_mib: 1 })] {
                    let config = SearchConfig {
                        iterative_deepening,
                        aspiration: aspiration.map(|half_width| Aspiration { half_width }),
                        transposition_table: tt,
                        // Alternate static ordering so both settings meet every algorithm.
                        static_ordering: (out.len() % 2) == 1,
                        ..SearchConfig::new(algorithm)
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

/// Every combination of the move-ordering enhancements: killers (none, 1, 2 per depth, 3,
/// 128, or the staged two-slot kind) x history x shallow-search ordering (none, or two
/// settings) x static ordering. The refutation table is added where iterative deepening is
/// on.
pub fn ordering_variants() -> Vec<SearchConfig> {
    let killers = [
        (None, false),
        (Some(Killers::new(1)), false),
        (
            Some(Killers {
                slots: 2,
                index: KillerIndex::Depth,
            }),
            false,
        ),
        (Some(Killers::new(3)), false),
        (Some(Killers::new(Killers::MAX_SLOTS)), false),
        (None, true),
    ];
    let shallow = [
        None,
        Some(ShallowOrdering::default()),
        Some(ShallowOrdering {
            min_depth: 2,
            depth: 1,
        }),
    ];
    let mut out = Vec::new();
    for (killers, staged_killers) in killers {
        for history in [false, true] {
            for shallow_ordering in shallow {
                for static_ordering in [false, true] {
                    out.push(SearchConfig {
                        killers,
                        staged_killers,
                        history,
                        shallow_ordering,
                        static_ordering,
                        ..SearchConfig::new(Algorithm::NegaScout)
                    });
                }
            }
        }
    }
    out
}

/// `base` with the move-ordering enhancements of `variant` (and the refutation table if
/// `base` deepens iteratively), or `base` alone if the algorithm cannot use them.
pub fn with_ordering(base: &SearchConfig, variant: &SearchConfig) -> SearchConfig {
    let combined = SearchConfig {
        killers: variant.killers,
        staged_killers: variant.staged_killers,
        history: variant.history,
        shallow_ordering: variant.shallow_ordering,
        static_ordering: variant.static_ordering,
        refutation: base.iterative_deepening,
        ..*base
    };
    if combined.validate().is_ok() {
        combined
    } else {
        *base
    }
}

/// The base configurations, each with a move-ordering variant that changes with `seed`, so
/// that over many seeds every base meets every variant.
pub fn all_configs(seed: u64) -> Vec<SearchConfig> {
    let variants = ordering_variants();
    base_configs()
        .iter()
        .enumerate()
        .map(|(i, base)| with_ordering(base, &variants[(seed as usize + i) % variants.len()]))
        .collect()
}

/// Checks that `pv` is a legal line from `game`.
pub fn assert_legal_line<G: Game>(game: &G, pv: &[G::Move], context: &str) {
    let mut pos = game.clone();
    for &m in pv {
        assert!(pos.is_legal(m), "{context}: illegal move {m} in pv {pv:?}");
        pos = pos.play(m);
    }
}

/// Checks that `r`, a search of `game`, found the oracle's `value` with one of its
/// `best_moves`, and a legal principal variation starting with that move.
pub fn assert_agrees<G: Game>(
    game: &G,
    r: &SearchResult<G::Move>,
    (value, best_moves): (Score, &[G::Move]),
    context: &str,
) {
    assert_eq!(r.score, value, "{context}");
    let best = r
        .best_move
        .unwrap_or_else(|| panic!("{context}: no best move"));
    assert!(
        best_moves.contains(&best),
        "{context}: {best} not in {best_moves:?}"
    );
    assert_eq!(r.pv.first(), Some(&best), "{context}: pv {:?}", r.pv);
    assert_legal_line(game, &r.pv, context);
}
