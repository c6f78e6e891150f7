//! The native module of the `prune` Python package (`prune._prune`): the games, the search
//! library (every algorithm, preset and switch of the command line, and Monte Carlo tree
//! search), Othello's exact solver, Connect Four's, perft, search-tree pictures, and games
//! written in Python searched by the Rust library. Searches run with the GIL released.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _prune,
    PruneError,
    PyValueError,
    "Bad input to prune: a malformed position, an illegal move, an unknown option."
);

pub(crate) fn err(message: impl Into<String>) -> PyErr {
    PruneError::new_err(message.into())
}

mod config;
mod games;
mod pygame;
mod results;
mod search;
mod solve;
mod tree;

use config::PySearchConfig;
use games::{ConnectFour, Othello, Shogi, TicTacToe};
use results::PySearchResult;
use solve::{SolveResult, Solver};
use tree::Tree;

/// The FFO endgame test suite's positions #40-#59 (Gunnar Andersson's suite, as built into
/// prune) as OBF lines with their published best scores.
#[pyfunction]
fn ffo_suite() -> Vec<(u32, String, i32)> {
    prune_othello::builtin_suite("ffo-40-59")
        .unwrap_or_default()
        .iter()
        .map(|p| {
            (
                p.number,
                p.entry.position.to_string(),
                p.entry.best_score().unwrap_or(0),
            )
        })
        .collect()
}

#[pymodule]
fn _prune(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PruneError", m.py().get_type::<PruneError>())?;
    m.add_class::<Othello>()?;
    m.add_class::<ConnectFour>()?;
    m.add_class::<TicTacToe>()?;
    m.add_class::<Shogi>()?;
    m.add_class::<PySearchConfig>()?;
    m.add_class::<PySearchResult>()?;
    m.add_class::<SolveResult>()?;
    m.add_class::<Tree>()?;
    m.add_class::<Solver>()?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::perft, m)?)?;
    m.add_function(wrap_pyfunction!(tree::tree, m)?)?;
    m.add_function(wrap_pyfunction!(ffo_suite, m)?)?;
    Ok(())
}
