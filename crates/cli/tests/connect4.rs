//! `--game connect4` as a user meets it: `solve` of a file with good, wrong and bad lines
//! (tables, JSON, win/draw/loss), `perft` against the published counts, `search` printing the
//! test set's score, a scripted `play`, and a short `match`.
//!
//! Positions come from Pascal Pons's End-Easy set, read at test time from
//! `../shared/data/connect4/Test_L3_R1` (beside the repository; not copied into it).

mod common;

use std::path::PathBuf;

use common::{assert_usage_errors, json, prune, prune_with_input, stderr, stdout};
use serde_json::Value;

/// The End-Easy test set (more than 28 moves played, fewer than 14 left).
fn end_easy_path() -> PathBuf {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/connect4/Test_L3_R1");
    assert!(
        path.exists(),
        "{} is missing: these tests read Pons's End-Easy set from ../shared/data/connect4/",
        path.display()
    );
    path
}

/// The first `n` lines of End-Easy as (moves, score).
fn end_easy(n: usize) -> Vec<(String, i32)> {
    let text = std::fs::read_to_string(end_easy_path()).expect("End-Easy is readable");
    text.lines()
        .take(n)
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
            (moves.to_string(), score.trim().parse().expect("a score"))
        })
        .collect()
}

/// A temporary file for one test, removed when dropped (also when the test fails).
struct Scratch(tempfile::TempPath);

impl Scratch {
    fn new(name: &str, text: &str) -> Scratch {
        let prefix = format!("prune-connect4-{name}-");
        let file = tempfile::Builder::new().prefix(&prefix).tempfile().unwrap();
        std::fs::write(file.path(), text).expect("the temporary file is written");
        Scratch(file.into_temp_path())
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }
}

/// A file of two good lines, one wrong score and four bad lines (lines 4 to 7).
fn mixed_file(name: &str) -> Scratch {
    let lines = end_easy(2);
    let (wrong_moves, right_score) = &lines[1];
    // Line 2 of End-Easy scores +1 for the side to move; +2 is in range but wrong.
    assert_eq!(*right_score, 1);
    let text = format!(
        "# a comment\n{} {}\n{wrong_moves} 2\n8 1\n1111111 0\n12121214 0\n44a3\n{wrong_moves}\n",
        lines[0].0, lines[0].1
    );
    Scratch::new(name, &text)
}

#[test]
fn solve_checks_each_line_flags_a_wrong_score_and_names_bad_lines() {
    let file = mixed_file("solve");
    let o = prune(&["solve", "--game", "connect4", file.path()]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    let path = file.path();
    for expected in [
        format!("{path}:4:1: move 1: '8' is not a column (1-7)"),
        format!("{path}:5:7: move 7: column 1 is full"),
        format!("{path}:6:8: move 8: the game is already won"),
        format!("{path}:7:3: move 3: 'a' is not a column (1-7)"),
    ] {
        assert!(err.contains(&expected), "expected '{expected}' in:\n{err}");
    }
    assert!(err.contains("WRONG: line 3"), "{err}");
    assert!(
        err.contains("1 of 3 positions solved WRONG: line 3")
            && err.contains("4 malformed lines")
            && err.contains("(lines 4, 5, 6, 7)"),
        "{err}"
    );
    // The table: each position by its line, the wrong one marked, the unscored one unchecked.
    let row = |line: &str| {
        out.lines()
            .find(|l| l.trim_start_matches('│').trim_start().starts_with(line))
            .unwrap_or_else(|| panic!("no row for line {line} in:\n{out}"))
            .to_string()
    };
    assert!(row("2 ").contains('✓'), "{out}");
    assert!(row("3 ").contains("✗ WRONG"), "{out}");
    assert!(row("8 ").contains("┆ -"), "{out}");
    for totals in [
        "positions: 3 (1 correct, 1 wrong, 1 unchecked, 0 unfinished)",
        "mean time per position:",
        "nodes/s:",
    ] {
        assert!(out.contains(totals), "expected '{totals}' in:\n{out}");
    }
}

#[test]
fn solve_json_lists_the_positions_and_the_totals() {
    let file = mixed_file("json");
    let o = prune(&["solve", "-g", "connect4", file.path(), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let positions = v["positions"].as_array().expect("a positions array");
    let lines: Vec<u64> = positions
        .iter()
        .map(|p| p["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 3, 8]);
    let first = &positions[0];
    let (moves, score) = &end_easy(1)[0];
    assert_eq!(first["moves"], moves.as_str());
    assert_eq!(first["score"], *score);
    assert_eq!(first["expected"], *score);
    assert_eq!(first["verdict"], "correct");
    let best = first["best_move"].as_u64().expect("a column");
    assert!((1..=7).contains(&best));
    assert!(first["nodes"].as_u64().is_some() && first["time_ms"].as_f64().is_some());
    assert_eq!(positions[1]["verdict"], "wrong_score");
    assert_eq!(positions[2]["verdict"], "unchecked");
    let totals = &v["totals"];
    assert_eq!(totals["positions"], 3);
    assert_eq!(totals["wrong"], 1);
    assert!(totals["mean_time_ms"].as_f64().is_some(), "{totals}");
    assert_eq!(v["malformed"].as_array().unwrap().len(), 4);
    assert_eq!(v["malformed"][0]["column"], 1);
}

#[test]
fn solve_wdl_compares_with_the_sign_of_the_files_score() {
    let lines = end_easy(3);
    let text: String = lines
        .iter()
        .map(|(moves, score)| format!("{moves} {score}\n"))
        .collect();
    let file = Scratch::new("wdl", &text);
    let v = json(&[
        "solve",
        "-g",
        "connect4",
        file.path(),
        "--window",
        "wdl",
        "--json",
    ]);
    assert_eq!(v["window"], "wdl");
    assert_eq!(v["totals"]["correct"], 3);
    for (p, (_, score)) in v["positions"].as_array().unwrap().iter().zip(&lines) {
        assert_eq!(p["score"], score.signum(), "{p}");
        assert_eq!(p["expected"], score.signum(), "{p}");
    }
    // The whole End-Easy set, on two threads, exact: every score right.
    let path = end_easy_path();
    let v = json(&[
        "solve",
        "-g",
        "connect4",
        path.to_str().unwrap(),
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(v["totals"]["positions"], 1000);
    assert_eq!(v["totals"]["correct"], 1000);
}

#[test]
fn an_early_step_with_a_node_limit_reports_unfinished_not_wrong() {
    // Four moves in, plain negamax needs far more than 1,000 nodes; End-Easy's line 1 solves.
    let (moves, score) = &end_easy(1)[0];
    let file = Scratch::new("limit", &format!("4453\n{moves} {score}\n"));
    let o = prune(&[
        "solve",
        "-g",
        "connect4",
        file.path(),
        "--step",
        "negamax",
        "--node-limit",
        "1000",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert!(
        out.contains("unfinished") && out.contains("step negamax"),
        "{out}"
    );
    assert!(
        out.contains("1 correct, 0 wrong, 0 unchecked, 1 unfinished"),
        "{out}"
    );
}

#[test]
fn othello_options_and_bad_arguments_are_refused_by_name() {
    let file = Scratch::new("refused", "44\n");
    let path = file.path();
    assert_usage_errors(&[
        (
            &["solve", "-g", "connect4", path, "--engine", "fast"],
            "--engine is not an option of connect4",
        ),
        (
            &["solve", "-g", "connect4", path, "--preset", "full"],
            "--preset full is not an option of connect4",
        ),
        (
            &["solve", "-g", "connect4", path, "--eval", "hand"],
            "--eval is not an option of connect4",
        ),
        (
            &["solve", "-g", "connect4", "ffo-40-59"],
            "built-in Othello suite",
        ),
        (
            &["solve", "-g", "connect4", "no/such/file"],
            "cannot read no/such/file",
        ),
        (&["solve", "-g", "connect4", path, "--only", "3"], "line 3"),
        (
            &["solve", "-g", "connect4", path, "--step", "quick"],
            "quick",
        ),
        (
            &["solve", "ffo-40-59", "--step", "table"],
            "--step is an option of the Connect Four solver",
        ),
        (
            &["search", "-g", "connect4", "-p", "448"],
            "--position: move 3 (character 3): '8' is not a column (1-7)",
        ),
        (
            &["search", "-g", "connect4", "-p", "1111111"],
            "column 1 is full",
        ),
        (
            &["search", "-g", "connect4", "--eval", "hand"],
            "--eval: unknown evaluation 'hand' of connect4 (expected threat)",
        ),
        (
            &["perft", "-g", "connect4", "-d", "43"],
            "--depth must be 1 to 42",
        ),
        (
            &["match", "--game", "connect4", "--a", "full", "--b", "nope"],
            "--b",
        ),
    ]);
}

#[test]
fn perft_counts_paths_and_distinct_positions() {
    let v = json(&["perft", "--game", "connect4", "--depth", "7", "--json"]);
    let depths = v["depths"].as_array().unwrap();
    let leaves: Vec<u64> = depths
        .iter()
        .map(|d| d["leaves"].as_u64().unwrap())
        .collect();
    // 7^n paths until a column can fill (the 7 one-column sequences at the 7th ply).
    assert_eq!(leaves, [7, 49, 343, 2_401, 16_807, 117_649, 823_536]);
    let positions: Vec<u64> = depths
        .iter()
        .map(|d| d["positions"].as_u64().unwrap())
        .collect();
    // OEIS A212693: distinct positions after n plies.
    assert_eq!(positions, [7, 49, 238, 1_120, 4_263, 16_422, 54_859]);
    assert!(depths.iter().all(|d| d["correct"] == true));
    let o = prune(&["perft", "-g", "connect4", "-d", "3", "-p", "444444"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Column 4 is full: six columns at each ply.
    assert!(stdout(&o).contains("216"), "{}", stdout(&o));
}

#[test]
fn search_to_the_end_prints_the_test_sets_score() {
    for (moves, score) in end_easy(3) {
        let v = json(&[
            "search",
            "-g",
            "connect4",
            "-p",
            &moves,
            "--preset",
            "full",
            "-a",
            "negascout",
            "--threads",
            "1",
            "--json",
        ]);
        assert_eq!(v["score"]["value"], score, "{moves}: {v}");
        let o = prune(&[
            "search",
            "-g",
            "connect4",
            "-p",
            &moves,
            "--preset",
            "full",
            "-a",
            "negascout",
            "--threads",
            "1",
        ]);
        // The test set's score in the game's own words (the registry's: "loss, -1 on Pons's
        // scale").
        let text = <prune_connect4::Position as prune_registry::RegisteredGame>::score_text(
            prune_search::Score::exact(score),
        );
        let out = stdout(&o);
        let shown = out
            .lines()
            .find_map(|l| l.strip_prefix("│ score"))
            .and_then(|rest| rest.split('┆').nth(1))
            .map(|cell| cell.trim_end_matches('│').trim().to_string());
        assert_eq!(shown.as_deref(), Some(text.as_str()), "{moves}:\n{out}");
    }
}

#[test]
fn play_takes_columns_refuses_bad_ones_and_plays_to_the_end() {
    // Line 1 of End-Easy: O to move, loses by 1 (X wins with its last stone).
    let (moves, _) = &end_easy(1)[0];
    let input = "8\nx\n5\nhint\n6\nundo\n6\n7\n7\n7\n";
    let o = prune_with_input(
        &[
            "play",
            "-g",
            "connect4",
            "--x",
            "human",
            "--o",
            "human",
            "--position",
            moves,
        ],
        input,
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert!(
        out.contains("error: move 1 (8) is not legal for O (legal: 6 7)"),
        "{out}"
    );
    assert!(
        out.contains("error: move 1 (x) is not legal for O"),
        "{out}"
    );
    assert!(
        out.contains("error: move 1 (5) is not legal for O"),
        "{out}"
    );
    // Four moves from the end the hint is the solver's, exact: the test set's -1 for O.
    assert!(out.contains("hint: 6   exact -1, solved"), "{out}");
    assert!(
        out.contains("exact value of each move for O: 6:-1  7:"),
        "{out}"
    );
    assert!(out.contains("XOOOX..\n"), "{out}");
    // O's 6 taken back and played again, then column 7 until X connects four.
    assert!(out.contains("moves: 6 7 7 7\n"), "{out}");
    assert!(out.contains(&format!("position: {moves}6777\n")), "{out}");
    assert!(out.contains("game over: X wins"), "{out}");

    // An engine on each side plays a whole game from the empty board.
    let o = prune_with_input(
        &[
            "play",
            "-g",
            "connect4",
            "--x",
            "plain",
            "--o",
            "full",
            "--time",
            "depth:2",
            "--threads",
            "1",
        ],
        "",
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("position: "))
        .unwrap_or_else(|| panic!("no position line in\n{out}"));
    let end: Result<prune_connect4::Position, _> = line.parse();
    assert!(end.is_ok(), "{line}");
    assert!(out.contains("game over: "), "{out}");
}

#[test]
fn a_match_reports_wins_draws_losses_and_elo() {
    let v = json(&[
        "match", "--game", "connect4", "--a", "full", "--b", "plain", "--depth", "1", "-n", "2",
        "--json",
    ]);
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    assert_eq!(v["games"][0]["a_first"], true);
    assert_eq!(v["games"][1]["a_first"], false);
    assert_eq!(v["games"][0]["a_side"], "X");
    assert_eq!(v["games"][0]["opening"], v["games"][1]["opening"]);
    assert_eq!(v["openings"]["available"], 49);
    for g in v["games"].as_array().unwrap() {
        let how = g["ending"].as_str().unwrap();
        assert!(["four in a row", "the board is full"].contains(&how), "{g}");
    }
    let t = &v["results"];
    let sum =
        t["wins"].as_u64().unwrap() + t["draws"].as_u64().unwrap() + t["losses"].as_u64().unwrap();
    assert_eq!(sum, 2);
}
