//! `prune search --algorithm pns|dfpn`: win, draw or loss by proof-number search, against facts
//! of the games (tic-tac-toe is a draw; Pons's test set scores a Connect Four ending), and clear
//! errors for options that do not apply.

mod common;

use common::{assert_usage_errors, json};

#[test]
fn the_empty_tic_tac_toe_board_is_proved_a_draw_by_both() {
    for algorithm in ["pns", "dfpn", "dfpn+"] {
        let v = json(&[
            "search",
            "--game",
            "tictactoe",
            "--algorithm",
            algorithm,
            "--json",
        ]);
        assert_eq!(v["result"], "draw", "{v}");
        assert_eq!(v["algorithm"], algorithm);
        let proofs = v["proofs"].as_array().unwrap();
        assert_eq!(proofs[0]["goal"], "win");
        assert_eq!(proofs[0]["verdict"], "disproved");
        assert_eq!(proofs[1]["verdict"], "proved");
        assert!(proofs[1]["proof_size"].as_u64().unwrap() > 9, "{v}");
        assert!(v["best_move"].is_string(), "{v}");
    }
}

#[test]
fn a_connect_four_ending_gets_the_test_sets_verdict() {
    // Line 1 of Pons's End-Easy set: the side to move loses (score -1).
    let v = json(&[
        "search",
        "--game",
        "connect4",
        "--position",
        "2252576253462244111563365343671351441",
        "--algorithm",
        "dfpn",
        "--json",
    ]);
    assert_eq!(v["result"], "loss", "{v}");
    assert!(v["best_move"].is_null());
}

#[test]
fn a_node_limit_says_unknown_and_other_options_are_refused() {
    let v = json(&[
        "search",
        "--game",
        "tictactoe",
        "--algorithm",
        "pns",
        "--nodes",
        "30",
        "--json",
    ]);
    assert!(v["result"].is_null(), "{v}");
    assert_usage_errors(&[
        (
            &[
                "search",
                "--game",
                "othello",
                "--algorithm",
                "dfpn",
                "--depth",
                "3",
            ],
            "--depth: not an option of proof-number search (--algorithm dfpn)",
        ),
        (
            &[
                "search",
                "--game",
                "othello",
                "--algorithm",
                "pns",
                "--preset",
                "full",
            ],
            "not an option of proof-number search",
        ),
    ]);
}

/// `--proof-tree`: the tree that settles the result, printed to a depth; a win one move from
/// the end is that move alone, and the option is refused outside proof-number search.
#[test]
fn the_proof_tree_prints_and_is_refused_elsewhere() {
    let v = json(&[
        "search",
        "--game",
        "tictactoe",
        "--position",
        "XX./OO./...",
        "--algorithm",
        "dfpn",
        "--proof-tree",
        "3",
        "--json",
    ]);
    assert_eq!(v["result"], "win", "{v}");
    let tree = v["proof_tree"].as_str().expect("the tree as text");
    assert!(
        tree.starts_with("proof tree of 'win' (2 positions"),
        "{tree}"
    );
    assert!(tree.contains("\nc1 (game over)\n"), "{tree}");
    // The draw of the empty board: every reply of the defender under the first move.
    let v = json(&[
        "search",
        "--game",
        "tictactoe",
        "--algorithm",
        "pns",
        "--proof-tree",
        "2",
        "--json",
    ]);
    let tree = v["proof_tree"].as_str().unwrap();
    let replies = tree
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .count();
    assert_eq!(replies, 8, "{tree}");
    assert_usage_errors(&[(
        &[
            "search",
            "--game",
            "tictactoe",
            "--algorithm",
            "alphabeta",
            "--proof-tree",
            "2",
        ],
        "--proof-tree: an option of proof-number search",
    )]);
}
