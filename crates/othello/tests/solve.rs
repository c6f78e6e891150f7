//! Both exact solvers ([`prune_othello::Solver`]: the specialised node loop and the generic
//! search) against a plain exhaustive negamax on random small endgames, against each other on
//! larger ones, and against the published FFO results (Gunnar Andersson's FFO endgame test
//! suite, `crates/othello/data/ffo-40-59.obf`).

use prune_othello::{builtin_suite, Move, Position, SolveOptions, SolveWindow, Solver, SolverKind};
use prune_search::Game;

mod common;
use common::random_endgame;

/// The exact value of `p` for the side to move: plain negamax to the end of the game, no
/// pruning, no table, no ordering.
fn negamax(p: &Position) -> i32 {
    match p.outcome() {
        Some(score) => score.margin().expect("a finished game has an exact score"),
        None => p
            .legal_moves()
            .into_iter()
            .map(|mv| -negamax(&Game::play(p, mv)))
            .max()
            .expect("a position that is not over has a move"),
    }
}

/// Every legal move of `p` with its exact value (the oracle's move scores).
fn move_scores(p: &Position) -> Vec<(Move, i32)> {
    p.legal_moves()
        .into_iter()
        .map(|mv| (mv, -negamax(&Game::play(p, mv))))
        .collect()
}

const KINDS: [SolverKind; 2] = [SolverKind::Fast, SolverKind::Generic];

fn solver_of(kind: SolverKind, window: SolveWindow, tt_mib: usize) -> Solver {
    Solver::new(SolveOptions {
        window,
        tt_mib,
        kind,
        search: None,
        parallel: Default::default(),
    })
    .expect("a valid table size")
}

/// The fast solver (the default).
fn solver(window: SolveWindow, tt_mib: usize) -> Solver {
    solver_of(SolverKind::Fast, window, tt_mib)
}

/// Checks that `line` is a legal sequence of moves from `p`.
fn assert_legal_line(p: &Position, line: &[Move]) {
    let mut q = *p;
    for &mv in line {
        q = q
            .play(mv)
            .unwrap_or_else(|e| panic!("pv {line:?} from {p}: {e}"));
    }
}

#[test]
fn exact_and_wdl_agree_with_plain_negamax_on_random_endgames() {
    for kind in KINDS {
        agree_with_plain_negamax(kind);
    }
}

fn agree_with_plain_negamax(kind: SolverKind) {
    // One solver of each window for all positions, with a small table: entries left by
    // earlier positions and collisions must not change any result.
    let mut exact = solver_of(kind, SolveWindow::Exact, 1);
    let mut wdl = solver_of(kind, SolveWindow::WinDrawLoss, 1);
    let mut passes_seen = 0;
    for seed in 0..500u64 {
        let empties = 1 + (seed % 10) as u32;
        let p = random_endgame(seed, empties);
        let scores = move_scores(&p);
        let value = scores.iter().map(|&(_, s)| s).max().expect("a move");
        passes_seen += usize::from(scores.iter().any(|&(mv, _)| mv.is_pass()));

        let r = exact.solve(&p);
        assert_eq!(r.score, value, "{kind:?} seed {seed}: exact value of {p}");
        let best = r
            .best_move
            .expect("a position that is not over has a best move");
        let best_score = scores.iter().find(|&&(mv, _)| mv == best).map(|&(_, s)| s);
        assert_eq!(
            best_score,
            Some(value),
            "seed {seed}: best move {best} of {p}"
        );
        assert_eq!(
            r.pv.first(),
            Some(&best),
            "seed {seed}: pv starts with the best move"
        );
        assert_legal_line(&p, &r.pv);
        assert!(r.stats.total.nodes > 0);

        let w = wdl.solve(&p);
        assert_eq!(w.score, value.signum(), "seed {seed}: win/draw/loss of {p}");
        let best = w.best_move.expect("a best move");
        let best_score = scores.iter().find(|&&(mv, _)| mv == best).map(|&(_, s)| s);
        assert_eq!(
            best_score.map(i32::signum),
            Some(value.signum()),
            "seed {seed}: wdl best move {best} of {p}"
        );
    }
    assert!(
        passes_seen > 0,
        "the random positions include a forced pass"
    );
}

/// The specialised solver and the generic search give the same exact score on positions too
/// large for the plain oracle (the style guide's differential test between the two).
#[test]
fn the_fast_solver_agrees_with_the_generic_search() {
    let mut fast = solver_of(SolverKind::Fast, SolveWindow::Exact, 16);
    let mut generic = solver_of(SolverKind::Generic, SolveWindow::Exact, 16);
    for seed in 2000..2040u64 {
        let p = random_endgame(seed, 11 + (seed % 5) as u32);
        let (f, g) = (fast.solve(&p), generic.solve(&p));
        assert_eq!(f.score, g.score, "seed {seed}: {p}");
        let mv = f.best_move.expect("a best move");
        assert_eq!(
            -generic.solve(&Game::play(&p, mv)).score,
            g.score,
            "seed {seed}: {mv}"
        );
    }
}

#[test]
fn a_fresh_solver_agrees_with_a_reused_one() {
    let mut reused = solver(SolveWindow::Exact, 16);
    for seed in 1000..1030u64 {
        let p = random_endgame(seed, 12);
        let fresh = prune_othello::solve(&p, &SolveOptions::default()).expect("valid options");
        let again = reused.solve(&p);
        assert_eq!(fresh.score, again.score, "seed {seed}: {p}");
        assert_eq!(
            fresh.score,
            negamax_with_cutoffs(&p, -64, 64),
            "seed {seed}"
        );
    }
}

/// Fail-hard alpha-beta to the end, no table: fast enough for 12 empties, simple enough to
/// trust (the plain negamax above is its own check on the smaller positions).
fn negamax_with_cutoffs(p: &Position, mut alpha: i32, beta: i32) -> i32 {
    if let Some(score) = p.outcome() {
        return score.margin().expect("exact").clamp(alpha, beta);
    }
    for mv in p.legal_moves() {
        let v = -negamax_with_cutoffs(&Game::play(p, mv), -beta, -alpha);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// Positions one move into FFO #`number`: every listed move of the OBF line with its exact
/// score, so the child's value is minus that score (a fact from the data).
fn children_of_ffo(number: u32) -> Vec<(Move, Position, i32)> {
    let suite = builtin_suite("ffo-40-59").expect("built-in suite");
    let entry = &suite
        .iter()
        .find(|sp| sp.number == number)
        .expect("the number is in the suite")
        .entry;
    entry
        .moves
        .iter()
        .map(|&(mv, score)| {
            let child = entry.position.play(mv).expect("listed moves are legal");
            (mv, child, -score)
        })
        .collect()
}

/// Solves FFO #`number` and checks its known score and best-move set.
fn check_ffo(kind: SolverKind, number: u32, window: SolveWindow) {
    let suite = builtin_suite("ffo-40-59").expect("built-in suite");
    let sp = suite
        .iter()
        .find(|sp| sp.number == number)
        .expect("the number is in the suite");
    let expected = sp.entry.best_score().expect("scores in the file");
    let r = solver_of(kind, window, 64).solve(&sp.entry.position);
    let mv = r.best_move.expect("a best move");
    match window {
        SolveWindow::Exact => {
            assert_eq!(r.score, expected, "FFO #{number}");
            assert!(sp.entry.best_moves().contains(&mv), "FFO #{number}: {mv}");
        }
        SolveWindow::WinDrawLoss => {
            assert_eq!(r.score, expected.signum(), "FFO #{number}");
            let listed = sp.entry.score_of(mv).map(i32::signum);
            assert_eq!(listed, Some(expected.signum()), "FFO #{number}: {mv}");
        }
    }
}

#[test]
fn ffo_40_after_its_best_move_has_minus_the_published_score() {
    // #40 is 20 empties, +38 for black with a2; after a2, white to move has -38.
    let (mv, child, expected) = children_of_ffo(40)[0];
    assert_eq!((mv.to_string().as_str(), expected), ("a2", -38));
    let r = solver(SolveWindow::Exact, 64).solve(&child);
    assert_eq!(r.score, expected);
    assert_eq!(solver(SolveWindow::WinDrawLoss, 64).solve(&child).score, -1);
}

#[test]
fn ffo_40_children_have_minus_the_published_move_scores() {
    // Two more scored moves of #40 (19 empties after the move); the weaker moves leave
    // white a won position, which the solver must still score to the disc.
    let mut exact = solver(SolveWindow::Exact, 64);
    for (mv, child, expected) in children_of_ffo(40).into_iter().skip(1).take(2) {
        assert_eq!(exact.solve(&child).score, expected, "FFO #40 after {mv}");
    }
}

#[test]
fn ffo_40_to_42_solve_to_their_published_scores() {
    for number in 40..=42 {
        check_ffo(SolverKind::Fast, number, SolveWindow::Exact);
    }
    check_ffo(SolverKind::Fast, 40, SolveWindow::WinDrawLoss);
    check_ffo(SolverKind::Generic, 40, SolveWindow::Exact);
    check_ffo(SolverKind::Generic, 40, SolveWindow::WinDrawLoss);
}

#[test]
#[ignore = "23-27 empties: about 4 minutes in release on one core; run with \
            cargo test --release -p prune-othello --test solve -- --ignored"]
fn ffo_43_to_52_solve_to_their_published_scores() {
    for number in 43..=52 {
        check_ffo(SolverKind::Fast, number, SolveWindow::Exact);
    }
}

/// Two solvers: one with the move-ordering pass and the selective pass from 19 empties, one
/// with neither. The ordering pass is 10 plies deep and its horizon must reach the table's
/// nodes (7 empties or more) for its heuristic values to matter: the tests solve 19 and 20
/// empties.
fn pass_solvers() -> (
    prune_othello::endgame::EndgameSolver,
    prune_othello::endgame::EndgameSolver,
) {
    use prune_othello::endgame::EndgameSolver;
    let mut with_pass = EndgameSolver::new(16);
    with_pass.set_ordering_pass_empties(19);
    with_pass.set_selective_pass_empties(19);
    let mut without = EndgameSolver::new(16);
    without.set_ordering_pass_empties(99);
    without.set_selective_pass_empties(99);
    (with_pass, without)
}

/// Checks that `solver` finds `reference`'s exact score for `p` and a best move whose child
/// has minus that score; returns the solve's counters and whether its node count differs from
/// the reference's.
fn same_score_and_a_best_move(
    solver: &mut prune_othello::endgame::EndgameSolver,
    reference: &mut prune_othello::endgame::EndgameSolver,
    p: &Position,
) -> (prune_search::Counters, bool) {
    let expected = reference.solve(p.board(), -64, 64);
    let r = solver.solve(p.board(), -64, 64);
    assert_eq!(r.score, expected.score, "{p}");
    let best = r.best_move.expect("a move");
    let child = p.play(best).expect("a legal best move");
    let child_score = reference.solve(child.board(), -64, 64).score;
    assert_eq!(-child_score, r.score, "best move {best} of {p}");
    (r.counters, r.counters.nodes != expected.counters.nodes)
}

/// The move-ordering pass and the selective pass (forced on small endgames here; by default
/// they run from 20 empties) change the work, never the result: the same scores as the solver
/// without them, and a best move whose child has minus that score.
#[test]
fn the_ordering_pass_keeps_scores_and_best_moves_exact() {
    let (mut with_pass, mut without) = pass_solvers();
    let mut passes_run = 0;
    for seed in 0..8u64 {
        let empties = 19 + (seed % 2) as u32;
        let p = random_endgame(1000 + seed, empties);
        let (_, differs) = same_score_and_a_best_move(&mut with_pass, &mut without, &p);
        passes_run += usize::from(differs);
    }
    // The pass really ran: it changes the node counts.
    assert!(passes_run >= 6, "only {passes_run} solves differ");
}

/// The selective pass alone (no ordering pass; ProbCut from 11 empties, so from 16 empties
/// many nodes try it) changes the work, never the result, also when the same positions are
/// solved again over the selective bounds of earlier solves. (Windows other than the whole one
/// are checked with both passes by `the_aspiration_window_keeps_every_window_exact`; that the
/// exact search ignores selective bounds, by a unit test in `endgame`.)
#[test]
fn the_selective_pass_keeps_scores_and_best_moves_exact() {
    use prune_othello::endgame::EndgameSolver;
    let mut selective = EndgameSolver::new(16);
    selective.set_ordering_pass_empties(99);
    selective.set_selective_pass_empties(16);
    let mut exact = EndgameSolver::new(16);
    exact.set_ordering_pass_empties(99);
    exact.set_selective_pass_empties(99);
    let (mut differ, mut cuts) = (0, 0);
    for _round in 0..2 {
        for seed in 0..12u64 {
            let p = random_endgame(3000 + seed, 16 + (seed % 3) as u32);
            let (counters, differs) = same_score_and_a_best_move(&mut selective, &mut exact, &p);
            differ += usize::from(differs);
            cuts += counters.forward_cuts;
        }
    }
    // The selective pass really ran (it changes the node counts) and ProbCut really cut.
    assert!(differ >= 20, "only {differ} solves differ");
    assert!(cuts > 0, "ProbCut never cut");
}

/// After the move-ordering pass, the exact search starts from a narrow window around the
/// pass's value and widens it where it fails: whatever window is asked for, the result is the
/// exact score inside it and a bound on the right side outside it.
#[test]
fn the_aspiration_window_keeps_every_window_exact() {
    let (mut with_pass, mut without) = pass_solvers();
    for seed in 0..6u64 {
        let p = random_endgame(2000 + seed, 19 + (seed % 2) as u32);
        let exact = without.solve(p.board(), -64, 64).score;
        let windows = [
            (-64, 64),
            (-1, 1),
            (exact - 1, exact + 1),
            (exact - 6, exact - 2),
            (exact + 2, exact + 6),
            (-64, exact),
            (exact, 64),
        ];
        for (alpha, beta) in windows {
            let (alpha, beta) = (alpha.clamp(-64, 63), beta.clamp(-63, 64));
            let v = with_pass.solve(p.board(), alpha, beta).score;
            if exact <= alpha {
                assert!(
                    exact <= v && v <= alpha,
                    "seed {seed} ({alpha}, {beta}): {v} for {exact}"
                );
            } else if exact >= beta {
                assert!(
                    beta <= v && v <= exact,
                    "seed {seed} ({alpha}, {beta}): {v} for {exact}"
                );
            } else {
                assert_eq!(v, exact, "seed {seed} ({alpha}, {beta})");
            }
        }
    }
}

#[test]
fn every_instruction_set_finds_the_same_scores_with_the_same_work() {
    use prune_othello::endgame::{solve_small_with, EndgameSolver, Isa};
    use prune_search::Named;
    let isas: Vec<Isa> = Isa::ALL
        .iter()
        .copied()
        .filter(|i| i.is_available())
        .collect();
    eprintln!("instruction sets on this CPU: {isas:?}");
    // The leaf search alone, then whole solves (table, ETC, the ordering pass at 20).
    for seed in 0..300u64 {
        let p = random_endgame(seed, 3 + (seed % 6) as u32);
        let results: Vec<(i32, u64)> = isas
            .iter()
            .map(|&isa| solve_small_with(isa, p.board(), -64, 64))
            .collect();
        assert_eq!(results[0].0, negamax(&p), "seed {seed}: {p}");
        assert!(
            results.iter().all(|r| *r == results[0]),
            "seed {seed}: {results:?}"
        );
    }
    for (seed, empties) in [(0u64, 10u32), (1, 12), (2, 16), (3, 18), (4, 20), (5, 21)] {
        let p = random_endgame(2000 + seed, empties);
        let results: Vec<_> = isas
            .iter()
            .map(|&isa| {
                let mut solver = EndgameSolver::new(16);
                solver.set_isa(isa).expect("an available instruction set");
                assert_eq!(solver.isa(), isa);
                solver.solve(p.board(), -64, 64)
            })
            .collect();
        if empties <= 12 {
            let exact = negamax_with_cutoffs(&p, -64, 64);
            assert_eq!(results[0].score, exact, "seed {seed}: {p}");
        }
        for r in &results[1..] {
            assert_eq!(r, &results[0], "seed {seed}: {p}");
        }
    }
}
