//! `prune play` as a user meets it: a whole engine-against-engine game with legal moves
//! throughout and the right final score, and a human at the keyboard making mistakes, taking
//! moves back and asking for hints.

mod common;

use std::process::Output;

use common::prune_with_input;

use prune_othello::Position;
use prune_play::GameRecord;

/// Runs `prune play ARGS` with `input` on stdin.
fn play(args: &[&str], input: &str) -> Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    prune_with_input(&all, input)
}

/// The game that the `moves:` line of the output lists, replayed with checked moves.
fn replay(out: &str) -> GameRecord {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("moves:"))
        .unwrap_or_else(|| panic!("no moves line in:\n{out}"));
    let mut game = GameRecord::default();
    for mv in line.split_whitespace() {
        game.play(mv.parse().unwrap())
            .unwrap_or_else(|e| panic!("{e} in:\n{out}"));
    }
    game
}

#[test]
fn an_engine_against_engine_game_is_played_to_the_end() {
    let o = play(
        &[
            "--black",
            "plain",
            "--white",
            "full",
            "--time",
            "depth:2",
            "--threads",
            "1",
        ],
        "",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let game = replay(&out);
    assert!(game.is_over(), "{out}");
    // Every move announced was the next move of the game, in order.
    let announced: Vec<String> = out
        .lines()
        .filter_map(|l| l.split(" plays ").nth(1))
        .map(|rest| rest.split_whitespace().next().unwrap().to_string())
        .collect();
    let passes = out.lines().filter(|l| l.ends_with("passes")).count();
    assert_eq!(announced.len() + passes, game.moves().len(), "{out}");
    let played: Vec<String> = game
        .moves()
        .iter()
        .filter(|m| m.square().is_some())
        .map(|m| m.to_string())
        .collect();
    assert_eq!(announced, played);
    // The final line agrees with the position the moves reach.
    let (b, w) = game.disc_counts();
    let margin = game.black_margin().unwrap();
    let verdict = match margin {
        0 => "a draw".to_string(),
        m if m > 0 => format!("black wins by {m}"),
        m => format!("white wins by {}", -m),
    };
    let expected = format!("game over: {verdict} (black {b} - white {w})");
    assert!(out.contains(&expected), "expected '{expected}' in:\n{out}");
    // The engines solved the end exactly.
    assert!(out.contains("solved"), "{out}");
}

#[test]
fn a_human_gets_errors_undo_and_hints_and_the_game_goes_on() {
    let input = "z9\na1\n\nhint\nf5\nd6\nundo\nc3\nhelp\nundo\nundo\nquit\n";
    let o = play(
        &["--black", "human", "--white", "human", "--time", "depth:2"],
        input,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("move 1 (z9) is not legal for black"), "{out}");
    assert!(out.contains("move 1 (a1) is not legal for black"), "{out}");
    let hint = out
        .lines()
        .find_map(|l| l.split("hint: ").nth(1))
        .unwrap_or_else(|| panic!("no hint in:\n{out}"));
    let hinted = hint.split_whitespace().next().unwrap().parse().unwrap();
    assert!(Position::START.is_legal(hinted), "{hint}");
    assert!(out.contains("type a move"), "{out}");
    // f5 d6, undo: white (a human too) is to move again after f5, and c3 is not legal there;
    // a second undo takes f5 back, a third finds nothing to take back.
    assert!(out.contains("move 2 (c3) is not legal for white"), "{out}");
    assert!(out.contains("no move of yours to take back"), "{out}");
    assert!(out.contains("game stopped"), "{out}");
    assert_eq!(replay(&out).moves().len(), 0, "{out}");
}

#[test]
fn bad_options_are_refused() {
    for (args, expected) in [
        (
            &["--black", "robot"][..],
            "'robot' is neither human nor a player of othello",
        ),
        (&["--time", "soon"][..], "--time"),
        (&["--position", "xyz"][..], "--position"),
        (&["--algorithm", "best"][..], "--algorithm"),
    ] {
        let o = play(args, "quit\n");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn hints_work_whatever_the_algorithm() {
    // Two humans with minimax: the hint engine (preset full) cannot use minimax, which takes
    // no table, and falls back on NegaScout instead of failing.
    let o = play(
        &[
            "--white",
            "human",
            "--algorithm",
            "minimax",
            "--time",
            "depth:3",
        ],
        "hint\nquit\n",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("hint: "), "{out}");
}
