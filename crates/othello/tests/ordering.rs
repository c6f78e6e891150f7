//! Each move-ordering enhancement is active on Othello: its counter moves, or its node count
//! differs from the search without it, and the value stays that of the plain search.

use prune_othello::{builtin_suite, HandEval, Ordered, Position, StaticOrdering};
use prune_search::{search, Algorithm, FailMode, Killers, SearchConfig, SearchLimits};
use prune_search::{SearchResult, ShallowOrdering, TtConfig};

fn position() -> Position {
    builtin_suite("ffo-40-59").unwrap()[6].entry.position
}

fn run(config: SearchConfig) -> SearchResult<prune_othello::Move> {
    let eval = Ordered {
        eval: HandEval,
        ordering: StaticOrdering::Mobility,
    };
    search(&position(), &eval, &config, &SearchLimits::depth(7)).unwrap()
}

#[test]
fn every_enhancement_shows_in_the_statistics() {
    let plain = SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft));
    let base = run(plain);
    let with = |config: SearchConfig| {
        let r = run(config);
        assert_eq!(r.score, base.score, "{config:?}");
        r.stats.total
    };
    let killers = with(SearchConfig {
        killers: Some(Killers::new(2)),
        ..plain
    });
    assert!(killers.killer_cutoffs > 0);
    let staged = with(SearchConfig {
        staged_killers: true,
        ..plain
    });
    assert!(staged.killer_cutoffs > 0 && staged.tactical_cutoffs > 0);
    let history = with(SearchConfig {
        history: true,
        ..plain
    });
    assert_ne!(history.nodes, base.stats.total.nodes);
    let shallow = with(SearchConfig {
        shallow_ordering: Some(ShallowOrdering::default()),
        ..plain
    });
    assert!(shallow.ordering_nodes > 0 && shallow.ordering_nodes < shallow.nodes);
    let tt = with(SearchConfig {
        transposition_table: Some(TtConfig { size_mib: 4 }),
        ..plain
    });
    assert!(tt.tt_cutoffs > 0 && tt.hash_move_cutoffs > 0);
    let iterative = SearchConfig {
        iterative_deepening: true,
        ..plain
    };
    let refutation = with(SearchConfig {
        refutation: true,
        ..iterative
    });
    assert_ne!(refutation.nodes, with(iterative).nodes);
    assert!(refutation.hash_move_cutoffs > 0);
}
