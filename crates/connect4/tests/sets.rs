//! Pascal Pons's test sets ("Solving Connect 4", part 2; read from `../shared/data/connect4/`,
//! never copied here): every position solved with exactly the file's score.
//!
//! The four faster sets run in the default test run (a few seconds in all); Begin-Medium
//! (about a minute) is `#[ignore]`d: `cargo test -p prune-connect4 --test sets -- --ignored`.

use std::path::PathBuf;

use prune_connect4::suite::{self, Record};
use prune_connect4::{Column, Position, SolveOptions, Solver, Step};

fn set(name: &str) -> Vec<Record> {
    let dir = std::env::var_os("PRUNE_CONNECT4_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/connect4"),
        PathBuf::from,
    );
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the test sets live in ../shared/data/connect4)",
            path.display()
        )
    });
    let (records, bad) = suite::parse(&text);
    assert!(bad.is_empty(), "{name}: {bad:?}");
    assert_eq!(records.len(), 1000, "{name}");
    records
}

/// Solves every record and returns how many got a score other than the file's.
fn solve_all(records: &[Record], options: &SolveOptions) -> Vec<String> {
    let mut solver = Solver::new().unwrap();
    let mut wrong = Vec::new();
    for r in records {
        let s = solver.solve(&r.position, options);
        let want = r.score.expect("the sets give scores");
        let want = if options.weak { want.signum() } else { want };
        if !s.complete || s.score != want {
            wrong.push(format!(
                "line {}: {} solved {} (file {want})",
                r.line, r.moves, s.score
            ));
        }
    }
    wrong
}

#[test]
fn end_easy_middle_easy_begin_easy_and_middle_medium_are_solved_exactly() {
    for name in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2"] {
        let wrong = solve_all(&set(name), &SolveOptions::default());
        assert!(wrong.is_empty(), "{name}: {} wrong: {wrong:?}", wrong.len());
    }
}

#[test]
#[ignore = "Begin-Medium takes about a minute in release"]
fn begin_medium_is_solved_exactly() {
    let wrong = solve_all(&set("Test_L1_R2"), &SolveOptions::default());
    assert!(wrong.is_empty(), "{} wrong: {wrong:?}", wrong.len());
}

#[test]
fn the_weak_solver_gets_the_sign_of_every_score() {
    let options = SolveOptions {
        weak: true,
        ..SolveOptions::default()
    };
    for name in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let wrong = solve_all(&set(name), &options);
        assert!(wrong.is_empty(), "{name}: {wrong:?}");
    }
}

#[test]
fn two_threads_find_the_same_scores() {
    let options = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    let records = set("Test_L1_R1");
    let wrong = solve_all(&records[..300], &options);
    assert!(wrong.is_empty(), "{wrong:?}");
    let medium = set("Test_L2_R2");
    let wrong = solve_all(&medium[..50], &options);
    assert!(wrong.is_empty(), "{wrong:?}");
    // Solves long enough (over 100,000 nodes) for the threads to split their probes.
    let hard = set("Test_L1_R2");
    let wrong = solve_all(&hard[..5], &options);
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The best move reaches the score: the position after it is worth the negated score (or the
/// move wins at once with exactly that score).
#[test]
fn the_best_move_reaches_the_score() {
    let mut solver = Solver::new().unwrap();
    let mut checker = Solver::with_table_bits(20).unwrap();
    for name in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        for r in set(name).iter().take(300) {
            let s = solver.solve(&r.position, &SolveOptions::default());
            let column: Column = s.best_move.expect("a solved position has a best move");
            assert!(r.position.can_play(column), "{name} line {}", r.line);
            let after = if r.position.is_winning_move(column) {
                r.position.win_now_score()
            } else {
                let child = r.position.play_column(column);
                -checker.solve(&child, &SolveOptions::default()).score
            };
            assert_eq!(
                after, s.score,
                "{name} line {}: {} then {column}",
                r.line, r.moves
            );
        }
    }
}

/// Every step of the progression, from plain negamax on, finds the same scores on positions
/// near the end (where even plain negamax finishes), and the steps that Pons's tutorial says
/// search fewer nodes do.
#[test]
fn every_step_finds_the_files_score_near_the_end() {
    let records: Vec<Record> = set("Test_L3_R1")
        .into_iter()
        .filter(|r| r.position.moves_played() >= 33)
        .take(25)
        .collect();
    assert!(records.len() >= 10);
    let mut nodes = Vec::new();
    for step in Step::ALL {
        let mut solver = Solver::with_table_bits(20).unwrap();
        let options = SolveOptions {
            step,
            ..SolveOptions::default()
        };
        let mut total = 0;
        for r in &records {
            let s = solver.solve(&r.position, &options);
            assert!(s.complete);
            assert_eq!(
                Some(s.score),
                r.score,
                "{step}: line {} {}",
                r.line,
                r.moves
            );
            total += s.nodes;
        }
        nodes.push((step, total));
    }
    let of = |step: Step| nodes.iter().find(|(s, _)| *s == step).unwrap().1;
    assert!(of(Step::AlphaBeta) < of(Step::Negamax), "{nodes:?}");
    assert!(of(Step::Table) < of(Step::CentreFirst), "{nodes:?}");
    assert!(of(Step::NonLosing) < of(Step::NullWindow), "{nodes:?}");
}

#[test]
fn a_node_limit_stops_the_solve_and_says_so() {
    let p: Position = set("Test_L1_R2")[0].moves.parse().unwrap();
    let mut solver = Solver::with_table_bits(16).unwrap();
    let s = solver.solve(
        &p,
        &SolveOptions {
            node_limit: Some(1000),
            ..SolveOptions::default()
        },
    );
    assert!(!s.complete);
    assert!(s.best_move.is_none());
    assert!(s.nodes <= 1001, "{}", s.nodes);
}
