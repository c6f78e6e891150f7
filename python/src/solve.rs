//! Exact solves of Othello and Connect Four positions: `solve`, and `Solver`, which keeps its
//! tables from one solve to the next.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::err;
use crate::games::othello_move_name;
use crate::search::{any_game, AnyGame, Native};
use prune_othello::endgame::EndgameSolver;
use prune_search::{Parallel, ParallelKind};
use pyo3::prelude::*;

/// An exact solve's result.
#[pyclass(module = "prune._prune", frozen, get_all)]
pub(crate) struct SolveResult {
    /// The exact score for the side to move (Othello: the final disc difference; Connect
    /// Four: the test sets' score).
    score: i32,
    /// A best move (`None` when the game is over).
    best_move: Option<String>,
    /// Positions searched.
    nodes: u64,
    /// Milliseconds.
    time_ms: f64,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        format!(
            "SolveResult(score={:+}, best_move={}, nodes={})",
            self.score,
            self.best_move
                .as_ref()
                .map_or("None".to_string(), |m| format!("'{m}'")),
            self.nodes
        )
    }
}

/// Solves an `Othello` or `ConnectFour` position exactly, with `threads` threads and an
/// Othello table of `tt_mb` MiB (a [`Solver`] used once). The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (position, *, threads=1, tt_mb=64))]
pub(crate) fn solve(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    threads: usize,
    tt_mb: usize,
) -> PyResult<SolveResult> {
    Solver::new(threads, tt_mb)?.solve(py, position)
}

/// An exact solver that keeps its tables from one solve to the next (a batch of positions
/// pays for their allocation once): `Solver(threads=1, tt_mb=64).solve(position)`.
#[pyclass(module = "prune._prune")]
pub(crate) struct Solver {
    othello: Option<EndgameSolver>,
    connect4: Option<prune_connect4::Solver>,
    threads: usize,
    tt_mb: usize,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (*, threads=1, tt_mb=64))]
    fn new(threads: usize, tt_mb: usize) -> PyResult<Self> {
        Parallel::new(threads, ParallelKind::Ybwc).map_err(|e| err(format!("threads: {e}")))?;
        if !(1..=65_536).contains(&tt_mb) {
            return Err(err(format!("tt_mb must be 1 to 65536, got {tt_mb}")));
        }
        Ok(Solver {
            othello: None,
            connect4: None,
            threads,
            tt_mb,
        })
    }

    /// Solves an `Othello` or `ConnectFour` position exactly (the GIL released meanwhile).
    fn solve(&mut self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<SolveResult> {
        let start = Instant::now();
        let parallel = Parallel::new(self.threads, ParallelKind::Ybwc)
            .map_err(|e| err(format!("threads: {e}")))?;
        match any_game(position)? {
            AnyGame::Native(Native::Othello(p)) => {
                if self.othello.is_none() {
                    self.othello = Some(
                        EndgameSolver::with_parallel(self.tt_mb, parallel)
                            .map_err(|e| err(format!("tt_mb: {e}")))?,
                    );
                }
                let solver = self.othello.as_mut().expect("made above");
                let r = py
                    .allow_threads(|| {
                        let never = AtomicBool::new(false);
                        solver.solve_until(p.board(), -64, 64, &never)
                    })
                    .ok_or_else(|| err("the solve was stopped"))?;
                Ok(SolveResult {
                    score: r.score,
                    best_move: r.best_move.map(othello_move_name),
                    nodes: r.counters.nodes,
                    time_ms: start.elapsed().as_secs_f64() * 1e3,
                })
            }
            AnyGame::Native(Native::Connect4(p)) => {
                if self.connect4.is_none() {
                    self.connect4 = Some(
                        prune_connect4::Solver::new()
                            .map_err(|e| err(format!("the solver's table: {e}")))?,
                    );
                }
                let solver = self.connect4.as_mut().expect("made above");
                let threads = self.threads;
                let r = py.allow_threads(|| {
                    let options = prune_connect4::SolveOptions {
                        threads,
                        ..prune_connect4::SolveOptions::default()
                    };
                    solver.solve(&p, &options)
                });
                Ok(SolveResult {
                    score: r.score,
                    best_move: r.best_move.map(|m| m.to_string()),
                    nodes: r.nodes,
                    time_ms: start.elapsed().as_secs_f64() * 1e3,
                })
            }
            _ => Err(err(
                "solve takes an Othello or a ConnectFour position; search() solves the others to \
                 their end",
            )),
        }
    }
}
