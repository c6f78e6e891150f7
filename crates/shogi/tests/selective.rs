//! The engine's selective search (null move, late-move reductions, futility, razoring,
//! internal iterative reduction) against facts: the short mates of antma's tsumeshogi-check
//! test positions in `../shared/data/tsume/antma.tsv` (beside the repository; not copied into
//! it) that the exhaustive search finds, found with the same length by each switch alone and by
//! all together; fewer nodes to a depth; incoherent options refused.

use std::path::PathBuf;

use prune_shogi::engine::{Engine, EngineOptions, Limits, Selective, MATE};
use prune_shogi::Position;

/// `(id, sfen, plies)` of antma.tsv's mates of at most `longest` plies.
fn mates(longest: u32) -> Vec<(String, String, u32)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tsume/antma.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            (
                fields[0].to_string(),
                fields[1].to_string(),
                fields[2].parse().unwrap(),
            )
        })
        .filter(|&(_, _, plies)| plies > 0 && plies <= longest)
        .collect()
}

/// The exhaustive search's budget per problem: a few of them (a bare king and a defender
/// holding most pieces) take it minutes to prove without a limit, and are left out.
const EXHAUSTIVE_NODES: u64 = 500_000;

fn search(sfen: &str, options: EngineOptions, depth: u32, nodes: u64) -> (i32, u64) {
    let p: Position = sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let r = Engine::new(options).search(
        &p,
        &[],
        Limits {
            depth: Some(depth),
            nodes: Some(nodes),
            ..Limits::default()
        },
        &mut |_| {},
    );
    (r.score, r.nodes)
}

/// Every switch alone (a refinement with what it refines), all of them together, and none.
fn selective_sets() -> Vec<(String, Selective)> {
    let mut sets = vec![
        ("none".to_string(), Selective::default()),
        ("all".to_string(), Selective::ALL),
    ];
    for name in Selective::NAMES {
        sets.push((name.to_string(), Selective::alone(name).unwrap()));
    }
    sets
}

/// The mates the exhaustive search finds with the source's length (antma's lengths ignore
/// futile interpositions, which the engine's full rules count, so a few are longer for it):
/// each switch alone and all together find each of them with that length.
#[test]
fn the_selective_search_finds_every_short_mate_the_exhaustive_one_finds() {
    let problems = mates(3);
    assert_eq!(problems.len(), 16 + 22, "antma.tsv's mates in 1 and 3");
    let exhaustive = EngineOptions::preset("exhaustive").unwrap();
    let found: Vec<_> = problems
        .iter()
        .filter(|(_, sfen, plies)| {
            search(sfen, exhaustive.clone(), plies + 2, EXHAUSTIVE_NODES).0 == MATE - *plies as i32
        })
        .collect();
    let ids: Vec<&str> = problems
        .iter()
        .filter(|p| !found.contains(p))
        .map(|(id, _, _)| id.as_str())
        .collect();
    eprintln!(
        "{} of {} found; missed: {ids:?}",
        found.len(),
        problems.len()
    );
    assert!(found.len() >= 30, "the exhaustive search misses {ids:?}");
    for (name, selective) in selective_sets() {
        for (id, sfen, plies) in &found {
            let options = EngineOptions {
                selective,
                ..EngineOptions::preset("full").unwrap()
            };
            let (score, _) = search(sfen, options, plies + 2, u64::MAX);
            assert_eq!(score, MATE - *plies as i32, "{id} with {name}");
        }
    }
}

#[test]
fn the_selective_search_reaches_a_depth_with_fewer_nodes() {
    let middle = "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15";
    let (_, exhaustive) = search(
        middle,
        EngineOptions::preset("exhaustive").unwrap(),
        6,
        u64::MAX,
    );
    // The singular extension searches more, not less (below).
    for (name, selective) in selective_sets()
        .into_iter()
        .skip(1)
        .filter(|(name, _)| name != "Singular")
    {
        let options = EngineOptions {
            selective,
            ..EngineOptions::preset("full").unwrap()
        };
        let (_, nodes) = search(middle, options, 6, u64::MAX);
        // Internal iterative reduction acts only at nodes 4 plies or more from the leaves that
        // the table has no move for; with a table and iterative deepening to depth 6 there may
        // be none, and then it searches the same tree.
        let fewer = if name == "IIR" {
            nodes <= exhaustive
        } else {
            nodes < exhaustive
        };
        assert!(fewer, "{name}: {nodes} nodes against {exhaustive} without");
    }
}

#[test]
fn the_singular_extension_acts_from_depth_six() {
    let middle = "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15";
    let without = EngineOptions::preset("full").unwrap();
    assert!(!without.selective.singular, "off in the full preset");
    let with = EngineOptions {
        selective: Selective::ALL,
        ..without.clone()
    };
    // Below depth 6 it never asks (the root's children are 5 plies from the leaves at most).
    assert_eq!(
        search(middle, with.clone(), 6, u64::MAX).1,
        search(middle, without.clone(), 6, u64::MAX).1
    );
    assert_ne!(
        search(middle, with, 9, u64::MAX).1,
        search(middle, without, 9, u64::MAX).1
    );
}

/// The two refinements change the search where they can act (deep enough for the reductions
/// to have room, with a table to read): the fewer-nodes test above sees them only with what
/// they refine, which cuts nodes by itself.
#[test]
fn the_refinements_change_the_search() {
    let middle = "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15";
    let full = EngineOptions::preset("full").unwrap();
    assert!(
        full.selective.cut_nodes && full.selective.table_eval,
        "on in full"
    );
    for name in ["CutNodes", "TableEval"] {
        let mut without = full.clone();
        *without.selective.switch(name).unwrap() = false;
        assert_ne!(
            search(middle, full.clone(), 9, u64::MAX).1,
            search(middle, without, 9, u64::MAX).1,
            "{name} changes nothing"
        );
    }
}

#[test]
fn incoherent_options_are_refused() {
    let razoring_alone = EngineOptions {
        quiescence: false,
        ..EngineOptions::preset("full").unwrap()
    };
    assert_eq!(
        razoring_alone.validate().unwrap_err(),
        "razoring needs the quiescence search"
    );
    let killers_unstaged = EngineOptions {
        killers: 2,
        ..EngineOptions::preset("plain").unwrap()
    };
    assert!(killers_unstaged.validate().is_err());
    for preset in EngineOptions::PRESETS {
        assert_eq!(EngineOptions::preset(preset).unwrap().validate(), Ok(()));
    }
    let mut cut_nodes_alone = EngineOptions::preset("exhaustive").unwrap();
    cut_nodes_alone.selective.cut_nodes = true;
    assert_eq!(
        cut_nodes_alone.validate().unwrap_err(),
        "CutNodes needs LMR"
    );
    let mut table_eval_alone = EngineOptions::preset("full").unwrap();
    table_eval_alone.selective = Selective {
        table_eval: true,
        lmr: true,
        ..Selective::default()
    };
    assert_eq!(
        table_eval_alone.validate().unwrap_err(),
        "TableEval needs NullMove or Futility or Razoring"
    );
    for name in Selective::NAMES {
        let options = EngineOptions {
            selective: Selective::alone(name).unwrap(),
            ..EngineOptions::preset("full").unwrap()
        };
        assert_eq!(options.validate(), Ok(()), "{name} alone");
        let options = EngineOptions {
            selective: Selective::all_but(name).unwrap(),
            ..EngineOptions::preset("full").unwrap()
        };
        assert_eq!(options.validate(), Ok(()), "all but {name}");
    }
}

/// The generic search library's selective search on shogi, the one game of the repository
/// that allows all of it (null move, static-exchange pruning, check extension): at a fixed
/// depth each switch alone and all together still find a mate in one, and the pruning
/// switches search fewer nodes than none on middle-game positions. On material: with the
/// hand-made evaluation's king-danger term (which swings by hundreds from ply to ply) the
/// generic late-move reductions' re-searches cost more than they save at depth 4 on these two
/// positions (209,095 nodes against 176,565 without), and futility at depth 5 four times more.
#[test]
fn the_generic_selective_search_runs_on_shogi_and_cuts_nodes() {
    use prune_search::{search, Algorithm, SearchConfig, SearchLimits, TtConfig};
    use prune_shogi::MaterialEval;

    let config = |selective: prune_search::Selective| SearchConfig {
        iterative_deepening: true,
        static_ordering: true,
        transposition_table: Some(TtConfig { size_mib: 4 }),
        selective,
        ..SearchConfig::new(Algorithm::NegaScout)
    };
    let mut configs = vec![("none", prune_search::Selective::NONE)];
    let mut all = prune_search::Selective::NONE;
    for name in prune_search::Selective::NAMES {
        let mut one = prune_search::Selective::NONE;
        assert!(one.enable(name) && all.enable(name));
        configs.push((name, one));
    }
    configs.push(("all", all));
    let mate: Position = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap();
    let middle: Vec<Position> = [
        "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 15",
        "lnsgkgsnl/7b1/prpp1pppp/4p4/9/P7P/1pPP1PPP1/2GSGS1R1/LNB1K2NL b Pp 19",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let mut none_nodes = 0;
    for (name, selective) in configs {
        let r = search(
            &mate,
            &MaterialEval,
            &config(selective),
            &SearchLimits::depth(3),
        )
        .unwrap();
        assert_eq!(
            r.best_move.map(|m| m.to_string()).as_deref(),
            Some("G*5b"),
            "{name}"
        );
        let nodes: u64 = middle
            .iter()
            .map(|p| {
                search(
                    p,
                    &MaterialEval,
                    &config(selective),
                    &SearchLimits::depth(4),
                )
                .unwrap()
                .stats
                .total
                .nodes
            })
            .sum();
        match name {
            "none" => none_nodes = nodes,
            // Extensions and IIR may search more; the rest must prune.
            "check-extension" | "iir" => {}
            _ => assert!(nodes < none_nodes, "{name}: {nodes} against {none_nodes}"),
        }
    }
}
