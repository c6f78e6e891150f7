//! The `prune` binary as a user meets it: output, JSON, and clear errors on bad input.

use std::process::{Command, Output};

use serde_json::Value;

fn prune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .expect("the prune binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(args: &[&str]) -> Value {
    let o = prune(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", stdout(&o)))
}

/// Each command line must fail with status 2 and an error containing the expected words.
fn assert_usage_errors(cases: &[(&[&str], &str)]) {
    for (args, expected) in cases {
        let o = prune(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expected),
            "{args:?}: expected '{expected}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn minimax_on_tic_tac_toe_prints_the_draw_and_the_node_count() {
    let o = prune(&["search", "--game", "tictactoe", "--algorithm", "minimax"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("549946"), "{out}");
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
            "not supported",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn solve_ffo_40_is_correct_in_json() {
    let v = json(&["solve", "ffo-40-59", "--only", "40", "--json"]);
    let p = &v["positions"][0];
    assert_eq!(p["id"], 40);
    assert_eq!(p["empties"], 20);
    assert_eq!(p["score"], 38);
    assert_eq!(p["expected"], 38);
    assert_eq!(p["best_move"], "a2");
    assert_eq!(p["correct"], true);
    assert!(p["nodes"].as_u64().unwrap() > 0 && p["time_ms"].is_number());
}

#[test]
fn solve_flags_a_wrong_expected_score_and_fails() {
    // FFO #40 with its best score altered from +38 to +30: the solver must say WRONG.
    let dir = std::env::temp_dir().join(format!("prune-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.obf");
    std::fs::write(
        &file,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+30;\n",
    )
    .unwrap();
    let o = prune(&["solve", file.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("WRONG"), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["positions"][0]["correct"], false);
    // A malformed file is refused with its line and column.
    std::fs::write(
        &file,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;\nbad line\n",
    )
    .unwrap();
    let o = prune(&["solve", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_and_perft_refuse_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "no-such-suite"], "no-such-suite"),
        (&["solve", "ffo-40-59", "--only", "12"], "#12"),
        (&["solve", "ffo-40-59", "--only", "x-y"], "--only"),
        (&["solve", "ffo-40-59", "--window", "maybe"], "maybe"),
        (&["solve", "ffo-40-59", "--engine", "turbo"], "turbo"),
        (&["perft", "--depth", "3", "--position", "XX"], "position"),
        (
            &[
                "search",
                "--game",
                "othello",
                "--position",
                "---------------------------OX------XO--------------------------- Z",
            ],
            "column",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn perft_matches_the_published_counts() {
    let v = json(&["perft", "--depth", "8", "--json"]);
    let text = v.to_string();
    // 390,216 leaves at depth 8 from the start position (published Othello perft counts).
    assert!(text.contains("390216"), "{text}");
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
