//! `prune usi` driven like a shogi GUI drives it (a whole script on stdin, the answers on
//! stdout), and the shogi match's refusals.

mod common;

use prune_shogi::Position;

use common::{prune_with_input, stderr, stdout};

/// Runs `prune usi ARGS` on a script (stdin closes after it) and returns stdout's lines.
fn session(args: &[&str], script: &[&str]) -> Vec<String> {
    let mut all = vec!["usi"];
    all.extend_from_slice(args);
    let o = prune_with_input(&all, &(script.join("\n") + "\n"));
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    stdout(&o).lines().map(str::to_string).collect()
}

/// The position after `moves` (USI notation, each legal) from the start.
fn after(moves: &[&str]) -> Position {
    let mut p = Position::start();
    for text in moves {
        let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p = p.play(mv);
    }
    p
}

/// The move of a `bestmove M` line, which must be legal in `position`.
fn check_bestmove(line: &str, position: &Position) {
    let text = line
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not a bestmove line: {line}"));
    let mv = text.split_whitespace().next().unwrap();
    let parsed = position
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(position.legal_moves().contains(&parsed), "{line}");
}

#[test]
fn a_gui_session_handshakes_sets_a_position_and_gets_a_move() {
    let lines = session(
        &[],
        &[
            "usi",
            "setoption name USI_Hash value 16",
            "setoption name Preset value full",
            "isready",
            "usinewgame",
            "position startpos moves 7g7f 3c3d",
            "go depth 3",
        ],
    );
    let at = |text: &str| lines.iter().position(|l| l == text);
    let usiok = at("usiok").unwrap_or_else(|| panic!("{lines:?}"));
    assert!(lines[..usiok]
        .iter()
        .any(|l| l.starts_with("id name prune")));
    assert!(lines[..usiok]
        .iter()
        .any(|l| l.starts_with("option name USI_Hash type spin")));
    let readyok = at("readyok").unwrap_or_else(|| panic!("{lines:?}"));
    assert!(usiok < readyok);

    // One info line per depth, each with a score, nodes and a principal variation that is
    // playable from the position; then the best move.
    let position = after(&["7g7f", "3c3d"]);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    for (depth, info) in (1..).zip(&infos) {
        let words: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(words[2], depth.to_string(), "{info}");
        assert!(
            words
                .windows(2)
                .any(|w| w[0] == "score" && (w[1] == "cp" || w[1] == "mate")),
            "{info}"
        );
        assert!(
            words
                .windows(2)
                .any(|w| w[0] == "nodes" && w[1].parse::<u64>().is_ok()),
            "{info}"
        );
        let pv = words.iter().position(|w| *w == "pv").expect("a pv");
        let mut p = position.clone();
        for mv in &words[pv + 1..] {
            let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{info}: {e}"));
            assert!(p.legal_moves().contains(&m), "{info}: {mv}");
            p = p.play(m);
        }
    }
    check_bestmove(lines.last().unwrap(), &position);
}

#[test]
fn go_infinite_ends_on_stop_with_a_move() {
    let lines = session(
        &["--preset", "plain"],
        &["position startpos", "go infinite", "stop", "isready"],
    );
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    check_bestmove(&lines[best], &Position::start());
    // The search ended before the next command was answered.
    assert_eq!(lines.last().unwrap(), "readyok", "{lines:?}");
}

#[test]
fn bad_lines_get_an_info_string_and_the_session_goes_on() {
    let lines = session(
        &[],
        &[
            "hello",
            "position sfen lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL x - 1",
            "position startpos moves 7g7f 7g7f",
            "go depth -1",
            "setoption name Threads value 0",
            "position startpos moves 2g2f",
            "go depth 2",
        ],
    );
    let strings: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(strings.len(), 5, "{lines:?}");
    for (line, expected) in strings.iter().zip([
        "unknown command 'hello'",
        "position sfen",
        "move 2 (7g7f)",
        "go depth",
        "Threads",
    ]) {
        assert!(line.contains(expected), "{line} should name {expected}");
    }
    let position = after(&["2g2f"]);
    check_bestmove(lines.last().unwrap(), &position);
}

#[test]
fn an_unknown_preset_is_a_usage_error() {
    common::assert_usage_errors(&[(&["usi", "--preset", "fast"], "--preset")]);
}

#[test]
fn shogi_matches_refuse_bad_settings() {
    common::assert_usage_errors(&[
        (
            &[
                "match", "--game", "shogi", "--a", "nope", "--b", "plain", "--games", "2",
            ],
            "--a: a shogi player is one of full, exhaustive, plain, minimal, fast or mcts, got \
             'nope'",
        ),
        (
            &[
                "match",
                "--game",
                "shogi",
                "--a",
                "full",
                "--b",
                "plain",
                "--openings",
                "7",
            ],
            "--openings: at most 3 plies for shogi",
        ),
    ]);
}

#[test]
fn play_in_the_terminal_against_the_engine() {
    let script = "7g7f\nhint\nP*5e\nmoves\n7g7f\nundo\n2g2f\nquit\n";
    let o = prune_with_input(&["play", "--game", "shogi", "--time", "depth:2"], script);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    // The board with file 9 on the left, the engine's replies, a hint, the errors.
    assert!(out.contains("   9  8  7  6  5  4  3  2  1"), "{out}");
    assert_eq!(out.matches("white plays ").count(), 2, "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("error: "), "{out}");
    // `moves` lists the legal moves of the position shown last before it (after the engine's
    // reply, which depends on its evaluation): as many as the rules say.
    let (before, listed) = out.split_once(" legal moves: ").expect("the legal moves");
    let sfen = before
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("sfen "))
        .expect("a position before the list");
    let sfen = sfen.split("   ").next().unwrap();
    let legal = sfen.parse::<Position>().unwrap().legal_moves().len();
    assert!(before.ends_with(&format!("> {legal}")), "{legal}: {before}");
    assert_eq!(
        listed.lines().next().unwrap().split_whitespace().count(),
        legal
    );
    // After the undo the game went on from the start with 2g2f.
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("moves: "))
        .expect("the moves");
    assert!(moves.starts_with("2g2f "), "{moves}");
    assert!(out.contains("game stopped after 2 moves"), "{out}");
}

#[test]
fn play_refuses_othello_options_for_shogi() {
    common::assert_usage_errors(&[
        (
            &["play", "--game", "shogi", "--eval", "pattern"],
            "--eval: unknown evaluation 'pattern' of shogi (expected hand, material)",
        ),
        (
            &["play", "--game", "shogi", "--selectivity", "2.0"],
            "a selectivity is for Othello's players (ProbCut), not shogi's",
        ),
        (
            &["play", "--game", "shogi", "--white", "robot"],
            "--white (--o): 'robot' is neither human nor a player of shogi: a shogi player is \
             one of full, exhaustive, plain, minimal, fast or mcts",
        ),
        (
            &["play", "--game", "shogi", "--position", "9/9 b - 1"],
            "--position",
        ),
    ]);
}

#[test]
fn search_runs_the_shogi_engine_through_the_registry() {
    // A mate in one: Black's gold drop on 1b, held by the pawn of 1c, mates the king of 1a.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "search",
            "--game",
            "shogi",
            "--position",
            "8k/9/8P/9/9/9/9/9/K8 b G 1",
            "--depth",
            "4",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["engine"], "fast");
    assert_eq!(v["best_move"], "G*1b");
    assert_eq!(v["score_text"], "win: mate in 1 ply");
    assert_eq!(v["score"]["kind"], "win");
    // Evaluation names in any case, as the registry takes them; --tt-mb asks for the generic
    // search (the shogi engine's table is its own).
    for args in [
        &[
            "search", "--game", "shogi", "--eval", "Material", "--depth", "2",
        ][..],
        &[
            "search", "--game", "shogi", "--tt-mb", "16", "--depth", "2", "--json",
        ][..],
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // The generic search stays one option away, and options of the other engine are named.
    common::assert_usage_errors(&[
        (
            &[
                "search", "--game", "shogi", "--engine", "fast", "--preset", "full",
            ],
            "drop --engine fast",
        ),
        (
            &[
                "search",
                "--game",
                "shogi",
                "--selectivity",
                "1.0",
                "--depth",
                "2",
            ],
            "only Othello's search has a ProbCut fit",
        ),
    ]);
}

#[test]
fn a_match_against_prune_usi_as_an_external_usi_engine() {
    // The play layer's USI client against `prune usi` itself: the real protocol both ways.
    let usi = format!("{} usi --preset minimal", env!("CARGO_BIN_EXE_prune"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "match",
            "--game",
            "shogi",
            "--a",
            "minimal",
            "--b-engine",
            &usi,
            "--engine-option",
            "USI_Hash=16",
            "--depth",
            "2",
            "-n",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["b"]["engine"], usi.as_str());
    for g in v["games"].as_array().unwrap() {
        assert!(g["forfeit"].is_null(), "{g}");
        // Every move of the record is legal from the start.
        let mut p = Position::start();
        for m in g["moves"].as_str().unwrap().split_whitespace() {
            let mv = p.parse_move(m).unwrap();
            assert!(p.legal_moves().contains(&mv), "{m} in {g}");
            p = p.play(mv);
        }
        let how = g["ending"].as_str().unwrap();
        assert!(
            ["checkmate", "repetition", "perpetual check", "move limit"].contains(&how),
            "{g}"
        );
    }
    common::assert_usage_errors(&[(
        &[
            "match",
            "--game",
            "shogi",
            "--a",
            "minimal",
            "--b-engine",
            "x",
            "--engine-option",
            "novalue",
        ],
        "--engine-option 'novalue': expected NAME=VALUE",
    )]);
}
