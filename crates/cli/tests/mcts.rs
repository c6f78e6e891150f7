//! `--algorithm mcts` from the command line: the JSON statistics, determinism with one thread,
//! proofs, the players of `match`, and clear errors.

mod common;

use common::{assert_usage_errors, json, prune, stderr};

#[test]
fn search_proves_tic_tac_toe_a_draw_with_the_documented_statistics() {
    let args = [
        "search",
        "--game",
        "tictactoe",
        "--algorithm",
        "mcts",
        "--threads",
        "1",
        "--json",
    ];
    let v = json(&args);
    assert_eq!(
        (v["algorithm"].as_str(), v["proof"].as_str()),
        (Some("mcts"), Some("draw"))
    );
    assert!(v["best_move"].is_string());
    let stats = &v["stats"];
    for key in [
        "playouts",
        "tree_size",
        "max_depth",
        "proven_nodes",
        "reused_nodes",
        "time_ms",
    ] {
        assert!(stats[key].is_number(), "stats.{key} in {v}");
    }
    let moves = v["root_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert!(moves
        .iter()
        .all(|m| m["proof"] == "draw" && m["visits"].as_u64() > Some(0)));
    let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert!(visits <= stats["playouts"].as_u64().unwrap());
    // One thread and a seed: the same playouts and the same tree again.
    let again = json(&args);
    assert_eq!(again["stats"]["playouts"], stats["playouts"]);
    assert_eq!(again["root_moves"], v["root_moves"]);
}

#[test]
fn search_runs_on_othello_and_connect4_within_a_playout_budget() {
    for (game, extra) in [
        ("othello", vec!["--playout-cutoff", "0", "--transpositions"]),
        (
            "connect4",
            vec!["--mcts-parallel", "root", "--threads", "2"],
        ),
    ] {
        let mut args = vec![
            "search",
            "--game",
            game,
            "--algorithm",
            "mcts",
            "--playouts",
            "3000",
            "--json",
        ];
        args.extend(extra);
        let v = json(&args);
        assert_eq!(v["stats"]["playouts"], 3000, "{game}: {v}");
        assert!(v["best_move"].is_string(), "{game}");
    }
}

#[test]
fn match_plays_mcts_against_alpha_beta() {
    let o = prune(&[
        "match",
        "--a",
        "mcts",
        "--b",
        "full",
        "--games",
        "2",
        "--time-per-move",
        "5",
        "--playouts",
        "200",
        "--json",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["a"]["algorithm"], "mcts");
    assert_eq!(v["b"]["algorithm"], "negascout");
    assert_eq!(v["games"].as_array().map(Vec::len), Some(2));
}

#[test]
fn bad_mcts_options_are_named() {
    assert_usage_errors(&[
        (
            &["search", "--game", "tictactoe", "--playouts", "10"],
            "--playouts 10: an option of Monte Carlo tree search",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe",
                "--algorithm",
                "mcts",
                "--history",
            ],
            "--history: not an option of Monte Carlo tree search",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe",
                "--algorithm",
                "mcts",
                "--depth",
                "3",
            ],
            "--depth: not an option",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe",
                "--algorithm",
                "mcts",
                "--exploration",
                "-2",
            ],
            "--exploration:",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe",
                "--algorithm",
                "mcts",
                "--mcts-parallel",
                "leaf",
            ],
            "leaf",
        ),
        (
            &[
                "match",
                "--a",
                "mcts",
                "--b",
                "full",
                "--a-selectivity",
                "2.0",
            ],
            "does not prune forward",
        ),
        (
            &[
                "play",
                "--black",
                "full",
                "--white",
                "fast",
                "--exploration",
                "1",
            ],
            "--exploration 1: an option of Monte Carlo tree search",
        ),
    ]);
}
