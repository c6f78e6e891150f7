//! The `prune` binary as a user meets it (`search` on every game, presets, threads): output,
//! JSON, and clear errors on bad input. `solve` and `perft` are in `solve.rs`, the lab in `lab.rs`.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};

#[test]
fn minimax_on_tic_tac_toe_prints_the_draw_and_the_node_count() {
    let o = prune(&["search", "--game", "tictactoe", "--algorithm", "minimax"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("549,946"), "{out}");
    assert!(out.contains("game tree exhausted"), "{out}");
}

#[test]
fn json_has_the_documented_fields() {
    let v = json(&[
        "search",
        "--game",
        "tictactoe",
        "--algorithm",
        "negascout",
        "--json",
    ]);
    assert_eq!(v["score"]["kind"], "draw");
    assert!(v["best_move"].is_string());
    assert!(v["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    for key in [
        "nodes",
        "leaves",
        "beta_cutoffs",
        "time_ms",
        "interior",
        "re_searches",
    ] {
        assert!(v["stats"][key].is_number(), "stats.{key} in {v}");
    }
    assert_eq!(
        v["stats"]["nodes"].as_u64().unwrap(),
        v["stats"]["interior"].as_u64().unwrap() + v["stats"]["leaves"].as_u64().unwrap()
    );
}

#[test]
fn the_knuth_moore_tree_from_the_command_line() {
    let v = json(&[
        "search",
        "--game",
        "uniform:width=7,depth=8,order=perfect,seed=3",
        "--algorithm",
        "alphabeta",
        "--json",
    ]);
    assert_eq!(v["stats"]["leaves"], 4801);
    let v = json(&[
        "search",
        "--game",
        "uniform:width=3,depth=5,order=worst",
        "--algorithm",
        "alphabeta-hard",
        "--json",
    ]);
    assert_eq!(v["stats"]["leaves"], 243);
}

#[test]
fn every_algorithm_and_enhancement_runs() {
    for algo in [
        "minimax",
        "negamax",
        "alphabeta",
        "alphabeta-hard",
        "scout",
        "negascout",
        "mtdf",
    ] {
        let v = json(&[
            "search",
            "--game",
            "random:seed=11,width=4,depth=6",
            "--algorithm",
            algo,
            "--json",
        ]);
        assert_eq!(v["algorithm"], algo);
    }
    let v = json(&[
        "search",
        "--game",
        "uniform:width=4,depth=6,order=random",
        "-a",
        "negascout",
        "--iterative",
        "--aspiration",
        "10",
        "--tt",
        "1",
        "--static-ordering",
        // One thread: Lazy SMP helpers a ply deeper can prove the whole tree early, and the
        // main thread then stops iterating before depth 6.
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["iterations"].as_array().unwrap().len(), 6);
}

#[test]
fn time_and_node_limits_give_a_move() {
    let v = json(&[
        "search",
        "--game",
        "uniform:width=8,depth=20,order=random",
        "--time-ms",
        "50",
        "--json",
    ]);
    assert!(v["best_move"].is_string(), "{v}");
    assert_eq!(v["interrupted"], true);
    let v = json(&[
        "search",
        "--game",
        "uniform:width=8,depth=20,order=random",
        "--nodes",
        "5000",
        "--json",
    ]);
    assert!(v["stats"]["nodes"].as_u64().unwrap() <= 5000);
}

#[test]
fn bad_input_gets_a_clear_error_and_no_panic() {
    let cases: &[(&[&str], &str)] = &[
        (&["search", "--game", "chess"], "unknown game 'chess'"),
        (&["search", "--game", "uniform:width=3"], "required"),
        (
            &["search", "--game", "uniform:width=three,depth=2"],
            "width='three'",
        ),
        (
            &["search", "--game", "tictactoe", "--algorithm", "alphabet"],
            "unknown algorithm 'alphabet'",
        ),
        (
            &["search", "--game", "tictactoe", "--frobnicate"],
            "--frobnicate",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe",
                "-a",
                "scout",
                "--aspiration",
                "5",
            ],
            "aspiration",
        ),
        (
            &["search", "--game", "tictactoe", "-a", "mtdf", "--tt", "0"],
            "size",
        ),
        (
            &["search", "--game", "tictactoe", "--position", "XX?......"],
            "column 3",
        ),
        (
            &["search", "--game", "tictactoe", "--depth", "0"],
            "at least 1",
        ),
        (
            &["search", "--game", "random:seed=1", "--position", "x"],
            "not an option of random",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn othello_search_gives_a_legal_opening_move() {
    let v = json(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "4",
        "-a",
        "negascout",
        "--tt",
        "4",
        "--json",
    ]);
    let best = v["best_move"].as_str().unwrap();
    assert!(["d3", "c4", "f5", "e6"].contains(&best), "{best}");
}

#[test]
fn othello_searches_with_the_fast_engine_unless_the_search_is_configured() {
    // After f5 d6 c3.
    let position = "------------------X--------XX------OXX-----O-------------------- O";
    let fast = json(&[
        "search",
        "--game",
        "othello",
        "--position",
        position,
        "--depth",
        "6",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(fast["engine"], "fast");
    assert_eq!(fast["algorithm"], "negascout");
    assert!(fast["config"].is_null());
    let generic = json(&[
        "search",
        "--game",
        "othello",
        "--position",
        position,
        "--depth",
        "6",
        "--preset",
        "full",
        "-a",
        "negascout",
        "--json",
    ]);
    assert_eq!(generic["engine"], "generic");
    // The same tree: the same value at a fixed depth, read in discs by both.
    assert_eq!(fast["score"], generic["score"]);
    assert_eq!(fast["score_text"], generic["score_text"]);
    let text = fast["score_text"].as_str().unwrap();
    assert!(text.ends_with(" discs"), "{text}");
    assert_eq!(fast["pv"].as_array().unwrap().len(), 6);
    let selective = json(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "6",
        "--selectivity",
        "1.5",
        "--json",
    ]);
    let list = selective["enhancements"].to_string();
    assert!(list.contains("probcut 1.5"), "{list}");
    // The generic search prunes with the same fit: fewer nodes than at full width (at depth
    // 8: at depth 6 the shallow tests cost about what they save).
    let generic_at = |depth: &str, selectivity: &str| {
        json(&[
            "search",
            "--game",
            "othello",
            "--position",
            position,
            "--depth",
            depth,
            "--preset",
            "full",
            "-a",
            "negascout",
            "--selectivity",
            selectivity,
            "--json",
        ])
    };
    let (generic_full, generic_selective) = (generic_at("8", "off"), generic_at("8", "1.5"));
    assert_eq!(generic_selective["engine"], "generic");
    let nodes = |v: &serde_json::Value| v["stats"]["nodes"].as_u64().unwrap();
    assert!(nodes(&generic_selective) < nodes(&generic_full));
    assert!(generic_selective["stats"]["forward_cuts"].as_u64().unwrap() > 0);
    for (args, needle) in [
        (
            &[
                "search", "--game", "othello", "--engine", "fast", "--preset", "full",
            ][..],
            "--preset full",
        ),
        (
            &[
                "search",
                "--game",
                "connect4",
                "--depth",
                "4",
                "--selectivity",
                "2",
            ][..],
            "only Othello's built-in trained weights",
        ),
        (
            &[
                "search",
                "--game",
                "othello",
                "-a",
                "scout",
                "--selectivity",
                "2",
            ][..],
            "probcut prunes the nodes of alpha-beta or negascout",
        ),
        (
            &["search", "--game", "connect4", "--engine", "fast"][..],
            "connect4 has no engine of its own",
        ),
        (
            &["search", "--game", "othello", "--selectivity", "lots"][..],
            "'lots'",
        ),
    ] {
        let o = prune(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn presets_are_listed_as_a_table_and_as_json() {
    let o = prune(&["presets"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for name in ["plain", "killers", "full"] {
        assert!(out.contains(name), "{name} in {out}");
    }
    assert!(out.contains("killers 2 per ply"), "{out}");
    let v = json(&["presets", "--json"]);
    let presets = v.as_array().expect("an array of presets");
    for name in ["plain", "killers", "full"] {
        let p = presets
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {v}"));
        assert!(p["summary"].is_string() && p["config"].is_object(), "{p}");
    }
    let plain = presets.iter().find(|p| p["name"] == "plain").unwrap();
    assert_eq!(plain["enhancements"], serde_json::json!([]));
    let full = presets.iter().find(|p| p["name"] == "full").unwrap();
    assert_eq!(full["config"]["static_ordering"], true);
    assert_eq!(full["config"]["refutation"], true);
    assert!(full["config"]["transposition_table"]["size_mib"].is_number());
}

#[test]
fn a_preset_and_switches_configure_the_search() {
    let v = json(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "4",
        "--preset",
        "full",
        "--killers",
        "2",
        "--json",
    ]);
    assert_eq!(v["config"]["killers"]["slots"], 2, "{v}");
    assert_eq!(v["config"]["iterative_deepening"], true);
    assert!(v["config"]["transposition_table"]["size_mib"].is_number());
    for key in [
        "killer_cutoffs",
        "hash_move_cutoffs",
        "tactical_cutoffs",
        "ordering_nodes",
        "tt_probes",
        "tt_hits",
        "tt_cutoffs",
    ] {
        assert!(v["stats"][key].is_number(), "stats.{key} in {v}");
    }
    assert!(v["stats"]["killer_cutoffs"].as_u64().unwrap() > 0, "{v}");
    assert!(v["per_depth"][0]["killer_cutoffs"].is_number(), "{v}");
    // Switches add to the preset; the `--tt` spelling still works.
    let v = json(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "4",
        "-a",
        "negascout",
        "--preset",
        "killers",
        "--killers",
        "3",
        "--killer-index",
        "depth",
        "--history",
        "--tt",
        "2",
        "--shallow-depth",
        "1",
        "--json",
    ]);
    let c = &v["config"];
    assert_eq!(c["killers"]["slots"], 3, "{v}");
    assert_eq!(c["killers"]["index"], "depth");
    assert_eq!(c["history"], true);
    assert_eq!(c["transposition_table"]["size_mib"], 2);
    assert_eq!(c["shallow_ordering"]["depth"], 1);
    assert_eq!(c["shallow_ordering"]["min_depth"], 4);
    assert_eq!(c["iterative_deepening"], false);
    // The table shows what is turned on.
    let o = prune(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "3",
        "--staged-killers",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("alphabeta: staged killers"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn incoherent_configurations_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["search", "--game", "othello", "--killers", "0"],
            "--killers",
        ),
        (
            &["search", "--game", "othello", "--killers", "200"],
            "--killers",
        ),
        (
            &["search", "--game", "othello", "--preset", "nope"],
            "--preset: unknown preset 'nope'",
        ),
        (
            &["search", "--game", "othello", "--killer-index", "sideways"],
            "--killer-index",
        ),
        (
            &["search", "--game", "othello", "-a", "minimax", "--history"],
            "--history",
        ),
        (
            &[
                "search", "--game", "othello", "-a", "minimax", "--preset", "killers",
            ],
            "--preset",
        ),
        (
            &["search", "--game", "othello", "--refutation"],
            "iterative deepening",
        ),
        (
            &[
                "search",
                "--game",
                "othello",
                "--killers",
                "2",
                "--staged-killers",
            ],
            "not both",
        ),
        (
            &["solve", "ffo-40-59", "--engine", "fast", "--history"],
            "--history",
        ),
        (
            &[
                "solve",
                "ffo-40-59",
                "--preset",
                "killers",
                "--engine",
                "fast",
            ],
            "drop --engine fast",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn threads_and_parallel_schemes() {
    for scheme in ["ybwc", "pv-split", "lazy-smp"] {
        let out = json(&[
            "solve",
            "ffo-40-59",
            "--only",
            "40",
            "--threads",
            "2",
            "--parallel",
            scheme,
            "--json",
        ]);
        assert_eq!(out["positions"][0]["correct"], true, "{scheme}");
        assert_eq!(out["positions"][0]["score"], 38, "{scheme}");
    }
    for scheme in ["ybwc", "pv-split", "lazy-smp"] {
        let out = json(&[
            "search",
            "--game",
            "othello",
            "--depth",
            "7",
            "--tt",
            "4",
            "--threads",
            "2",
            "--parallel",
            scheme,
            "--json",
        ]);
        assert!(out["best_move"].is_string(), "{scheme}");
        assert_eq!(out["depth"], 7, "{scheme}");
    }
    assert_usage_errors(&[
        (
            &["solve", "ffo-40-59", "--only", "40", "--parallel", "abdada"],
            "unknown parallel scheme",
        ),
        (
            &["solve", "ffo-40-59", "--only", "40", "--threads", "0"],
            "threads must be 1",
        ),
        (
            &["lab", "nodes", "--threads-max", "2"],
            "--threads-max does not apply",
        ),
    ]);
}
