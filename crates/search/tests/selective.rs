//! The selective search ([`Selective`]) against facts: the configurations that do not prune by
//! design stay exact (plain minimax's values on random trees), the ones whose reductions still
//! reach the end of tic-tac-toe everywhere find its solved values, the pruning switches cut
//! nodes, and the configurations the rules cannot run are refused.

mod common;

use common::{assert_agrees, oracle};
use prune_games::{mix, LineEval, RandomEval, RandomTree, TicTacToe};
use prune_search::{search, Algorithm, ConfigError, Engine, Game, NullMove, Parallel};
use prune_search::{ParallelKind, SearchConfig, SearchError, SearchLimits, Selective, TtConfig};

/// NegaScout or MTD(f) with a table and iterative deepening (alternating), and `selective`.
fn configs(selective: Selective) -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for algorithm in [Algorithm::NegaScout, Algorithm::MtdF] {
        for iterative_deepening in [false, true] {
            for static_ordering in [false, true] {
                out.push(SearchConfig {
                    iterative_deepening,
                    static_ordering,
                    transposition_table: Some(TtConfig { size_mib: 1 }),
                    selective,
                    ..SearchConfig::new(algorithm)
                });
            }
        }
    }
    out
}

/// The switch called `name` alone.
fn one(name: &str) -> Selective {
    let mut s = Selective::NONE;
    assert!(s.enable(name), "{name}");
    s
}

/// Random trees have no checks, so the check extension's code path (each child asked
/// whether it is in check, its depth computed by the selective loop) runs and must change
/// nothing: every configuration returns plain minimax's value and one of its best moves.
#[test]
fn check_extension_without_checks_is_exact_on_random_trees() {
    let configs = configs(one("check-extension"));
    for seed in 0..600u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 5) as u32;
        tree.max_depth = 1 + (seed / 5 % 7) as u32;
        if seed % 3 == 0 {
            tree.states = Some(2 + seed % 6);
        }
        let root = tree.root();
        let depth = 1 + (mix(seed, 3) % u64::from(tree.max_depth + 1)) as u32;
        let (value, best) = oracle(&root, &RandomEval, depth);
        for config in &configs {
            let r = search(&root, &RandomEval, config, &SearchLimits::depth(depth)).unwrap();
            assert_agrees(&root, &r, (value, &best), &format!("{tree:?} {config:?}"));
        }
    }
}

/// Every tic-tac-toe position after `plies` moves from the start (with repeats).
fn positions(plies: usize) -> Vec<TicTacToe> {
    let mut level = vec![TicTacToe::new()];
    for _ in 0..plies {
        level = level
            .iter()
            .flat_map(|p| p.legal_moves().into_iter().map(move |m| p.play(m)))
            .filter(|p| p.outcome().is_none())
            .collect();
    }
    level
}

/// At depth 128 on tic-tac-toe (nine plies at most), late-move reductions (at most
/// `ln 128 · ln 8 / 2 ≈ 5` plies a move), internal iterative reduction (one ply a node) and the
/// check extension (which only adds plies) leave every reduced search at least
/// `128 − 9 · 7 > 0` plies: every search reaches the end of the game, so its values are proven
/// and the switches must give the solved value of every position after 0, 1 and 2 moves, and
/// report it exhausted. What can fail: a reduced or re-searched window that loses the value, a
/// table entry stored at the wrong depth, an extension that never ends.
#[test]
fn reductions_that_reach_the_end_find_tic_tac_toe_solved_values() {
    let mut stacked = Selective::NONE;
    for name in ["lmr", "iir", "check-extension"] {
        stacked.enable(name);
    }
    let selectives = [one("lmr"), one("iir"), one("check-extension"), stacked];
    let mut reductions = 0;
    for plies in 0..=2 {
        for p in positions(plies) {
            let (solved, best) = oracle(&p, &LineEval, 9);
            for selective in selectives {
                for config in configs(selective) {
                    let r = search(&p, &LineEval, &config, &SearchLimits::depth(128)).unwrap();
                    let context = format!("{p:?} {config:?}");
                    assert_agrees(&p, &r, (solved, &best), &context);
                    assert!(r.exhausted, "{context}");
                    reductions += r.stats.total.reductions;
                }
            }
        }
    }
    assert!(reductions > 0, "late-move reductions never reduced");
}

/// Null-move pruning (with and without verification) at depth 128 on tic-tac-toe: the
/// solved value of every position after 0, 1 and 2 moves. Tic-tac-toe has no zugzwang (an
/// extra mark never hurts), so a pass that fails high proves the node does, if the pass's
/// search reaches the end of the game; with `R = 3 + depth / 4` plies taken by each null move
/// it might not on a path with many of them, so this is a fact checked, not a proof. The
/// passes are counted: the test fails if none cut.
#[test]
fn null_move_keeps_tic_tac_toe_solved_values() {
    let mut cuts = 0;
    for verify in [false, true] {
        let selective = Selective {
            null_move: Some(NullMove { verify }),
            ..Selective::NONE
        };
        for plies in 0..=2 {
            for p in positions(plies) {
                let (solved, _) = oracle(&p, &LineEval, 9);
                for config in configs(selective) {
                    let r = search(&p, &LineEval, &config, &SearchLimits::depth(128)).unwrap();
                    assert_eq!(r.score, solved, "{p:?} {config:?}");
                    cuts += r.stats.total.selective_cuts;
                }
            }
        }
    }
    assert!(cuts > 0, "no null move cut");
}

/// Nodes of a fixed-depth search of every tic-tac-toe position after two moves with
/// `selective`, and how many of them the selective search cut.
fn nodes(selective: Selective, depth: u32) -> (u64, u64) {
    let config = SearchConfig {
        iterative_deepening: true,
        static_ordering: true,
        transposition_table: Some(TtConfig { size_mib: 1 }),
        selective,
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    positions(2).iter().fold((0, 0), |(n, c), p| {
        let r = search(p, &LineEval, &config, &SearchLimits::depth(depth)).unwrap();
        (n + r.stats.total.nodes, c + r.stats.total.selective_cuts)
    })
}

/// At depth 5 on the tic-tac-toe positions after two moves: null-move pruning searches fewer
/// nodes than none (27,610 against 32,055 when written), and futility and late-move pruning
/// act (their cuts are counted) — though in a game this small they save no nodes (the table
/// and iterative deepening spend what they cut: 32,434 and 32,047 nodes); razoring's margin
/// (15 or more of this evaluation's units, whose scale is 2) is never met, and late-move
/// reductions' re-searches cost what they save. Their node savings are tested on Othello
/// (crates/othello/tests/selective.rs) and measured by `prune lab selective`.
#[test]
fn null_move_cuts_nodes_and_futility_acts_on_tic_tac_toe() {
    let (none, zero) = nodes(Selective::NONE, 5);
    assert_eq!(zero, 0);
    let (n, cuts) = nodes(one("null-move"), 5);
    assert!(n < none && cuts > 0, "null move: {n} nodes, {none} without");
    for name in ["futility", "late-move-pruning"] {
        let (_, cuts) = nodes(one(name), 5);
        assert!(cuts > 0, "{name}");
    }
}

#[test]
fn incoherent_selective_configurations_are_refused() {
    for algorithm in [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta(prune_search::FailMode::Soft),
        Algorithm::AlphaBeta(prune_search::FailMode::Hard),
        Algorithm::Scout,
    ] {
        for name in Selective::NAMES {
            let config = SearchConfig {
                selective: one(name),
                ..SearchConfig::new(algorithm)
            };
            let err = config.validate().unwrap_err().to_string();
            assert!(err.contains(name) && err.contains("null-window"), "{err}");
        }
    }
    let iir = SearchConfig {
        selective: one("iir"),
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    let err = iir.validate().unwrap_err().to_string();
    assert!(err.contains("transposition table"), "{err}");
    let margin = SearchConfig {
        selective: Selective {
            margin_percent: 0,
            ..one("futility")
        },
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    assert!(matches!(margin.validate(), Err(ConfigError::Invalid(_))));
    // Margins alone switch nothing on.
    let quiet = SearchConfig {
        selective: Selective {
            margin_percent: 0,
            ..Selective::NONE
        },
        ..SearchConfig::new(Algorithm::Minimax)
    };
    assert!(quiet.validate().is_ok());
    let ok = SearchConfig {
        selective: one("lmr"),
        ..SearchConfig::new(Algorithm::MtdF)
    };
    assert!(ok.validate().is_ok());
    for kind in [ParallelKind::Ybwc, ParallelKind::PvSplit] {
        let err = Engine::<TicTacToe>::with_parallel(ok, Parallel { threads: 2, kind })
            .unwrap_err()
            .to_string();
        assert!(err.contains("Lazy SMP"), "{err}");
    }
    let lazy = Parallel {
        threads: 2,
        kind: ParallelKind::LazySmp,
    };
    assert!(Engine::<TicTacToe>::with_parallel(ok, lazy).is_ok());
}

/// Tic-tac-toe has no static exchange evaluation: static-exchange pruning is refused when the
/// search starts, naming the game.
#[test]
fn see_pruning_needs_the_games_exchange_evaluation() {
    let config = SearchConfig {
        transposition_table: Some(TtConfig { size_mib: 1 }),
        selective: one("see-pruning"),
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    let err = search(
        &TicTacToe::new(),
        &LineEval,
        &config,
        &SearchLimits::depth(3),
    )
    .unwrap_err();
    assert!(matches!(
        err,
        SearchError::Config(ConfigError::Incoherent(_))
    ));
    let text = err.to_string();
    assert!(
        text.contains("TicTacToe") && text.contains("Game::see"),
        "{text}"
    );
}

#[test]
fn selective_switches_are_listed_and_serialised() {
    let mut c = SearchConfig::new(Algorithm::NegaScout);
    c.transposition_table = Some(TtConfig { size_mib: 1 });
    c.selective = Selective {
        null_move: Some(NullMove { verify: true }),
        lmr: true,
        iir: true,
        margin_percent: 50,
        ..Selective::NONE
    };
    let e = c.enhancements();
    assert!(
        e.ends_with(&[
            "null-move verified".to_string(),
            "lmr".into(),
            "iir".into(),
            "margins 50%".into()
        ]),
        "{e:?}"
    );
    let text = serde_json::to_string(&c).unwrap();
    assert_eq!(serde_json::from_str::<SearchConfig>(&text).unwrap(), c);
    // A configuration written before the selective search reads as none.
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value.as_object_mut().unwrap().remove("selective");
    let old: SearchConfig = serde_json::from_value(value).unwrap();
    assert_eq!(old.selective, Selective::NONE);
}
