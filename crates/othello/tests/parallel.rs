//! Parallel solves (YBWC, PV splitting, Lazy SMP, any thread count, both split rules) give
//! the sequential solver's exact score and a move that reaches it; many short parallel solves
//! in a loop never crash or go wrong.

use prune_othello::endgame::EAGER_THREADS;
use prune_othello::{builtin_suite, Position, SolveOptions, SolveWindow, Solver, SolverKind};
use prune_search::{Game, Named, Parallel, ParallelKind};

mod common;
use common::random_endgame;

fn solver(kind: SolverKind, parallel: Parallel, window: SolveWindow) -> Solver {
    Solver::new(SolveOptions {
        window,
        tt_mib: 8,
        kind,
        search: None,
        parallel,
    })
    .expect("valid options")
}

/// Checks that `parallel`'s exact solve of `p` equals `score` and that its best move reaches
/// it (the position after the move, solved sequentially, is worth `-score`).
fn check(p: &Position, score: i32, parallel: Parallel, kind: SolverKind, sequential: &mut Solver) {
    let mut s = solver(kind, parallel, SolveWindow::Exact);
    let r = s.solve(p);
    assert_eq!(r.score, score, "{p} with {parallel:?} ({kind:?})");
    let mv = r
        .best_move
        .expect("a position that is not over has a best move");
    let child = Game::play(p, mv);
    let reply = if child.outcome().is_some() {
        child.outcome().unwrap().margin().unwrap()
    } else {
        sequential.solve(&child).score
    };
    assert_eq!(
        -reply, score,
        "{p}: {mv} does not reach {score} ({parallel:?})"
    );
}

#[test]
fn every_scheme_and_thread_count_finds_the_sequential_score() {
    let mut sequential = solver(SolverKind::Fast, Parallel::SEQUENTIAL, SolveWindow::Exact);
    for seed in 0..12 {
        let p = random_endgame(seed, 16 + (seed % 3) as u32);
        let score = sequential.solve(&p).score;
        for &kind in ParallelKind::ALL {
            // From EAGER_THREADS on, nodes split by the eager rule.
            for threads in [2, 3, 5, EAGER_THREADS] {
                let parallel = Parallel::new(threads, kind).unwrap();
                check(&p, score, parallel, SolverKind::Fast, &mut sequential);
            }
        }
        // The generic search, every scheme.
        if p.empty_count() <= 16 {
            for &kind in ParallelKind::ALL {
                let parallel = Parallel::new(2 + seed as usize % 2, kind).unwrap();
                check(&p, score, parallel, SolverKind::Generic, &mut sequential);
            }
        }
    }
}

/// FFO #40 (20 empties, +38 for the side to move: the published score) with every scheme, the
/// split schemes splitting.
#[test]
fn ffo_40_in_parallel() {
    let ffo = builtin_suite("ffo-40-59").unwrap();
    let entry = &ffo[0].entry;
    assert_eq!(entry.best_score(), Some(38));
    for &kind in ParallelKind::ALL {
        let mut s = solver(
            SolverKind::Fast,
            Parallel::new(2, kind).unwrap(),
            SolveWindow::Exact,
        );
        let r = s.solve(&entry.position);
        assert_eq!(r.score, 38, "{kind}");
        // YBWC and PV splitting did hand moves to the other thread (at 20 empties the selective
        // pass runs too, with its own split rule); Lazy SMP never splits.
        let splits = r.stats.total.splits;
        assert_eq!(
            splits > 0,
            kind != ParallelKind::LazySmp,
            "{kind}: {splits} splits"
        );
        assert!(
            entry.best_moves().contains(&r.best_move.unwrap()),
            "{kind}: {:?} is not among the optimal moves {:?}",
            r.best_move,
            entry.best_moves()
        );
    }
}

/// Many short solves on 4 threads, one solver reused (its table carries over), every scheme,
/// both windows: the scores always equal the sequential solver's.
#[test]
fn stress_many_short_parallel_solves() {
    let mut sequential = solver(SolverKind::Fast, Parallel::SEQUENTIAL, SolveWindow::Exact);
    let mut wdl = solver(
        SolverKind::Fast,
        Parallel::SEQUENTIAL,
        SolveWindow::WinDrawLoss,
    );
    for &kind in ParallelKind::ALL {
        let parallel = Parallel::new(4, kind).unwrap();
        let mut exact = solver(SolverKind::Fast, parallel, SolveWindow::Exact);
        let mut wdl_parallel = solver(SolverKind::Fast, parallel, SolveWindow::WinDrawLoss);
        for seed in 0..150 {
            let p = random_endgame(1000 + seed, 12 + (seed % 4) as u32);
            assert_eq!(
                exact.solve(&p).score,
                sequential.solve(&p).score,
                "{kind} seed {seed}"
            );
            assert_eq!(
                wdl_parallel.solve(&p).score,
                wdl.solve(&p).score,
                "{kind} wdl seed {seed}"
            );
        }
    }
}
