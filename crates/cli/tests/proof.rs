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
