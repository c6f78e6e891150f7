//! A game written in Python, searched by the Rust library.

use std::sync::{Arc, Mutex};

use prune_search::{Evaluator, Game, MoveBits, Score};
use pyo3::prelude::*;

use crate::err;

// ---------------------------------------------------------------------------------------------
// A game written in Python.

/// A move of a Python game: its index in the position's `legal_moves()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MoveIndex(pub(crate) u32);

impl std::fmt::Display for MoveIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl MoveBits for MoveIndex {
    fn to_bits(self) -> u32 {
        self.0
    }
    fn from_bits(bits: u32) -> Option<Self> {
        Some(MoveIndex(bits))
    }
}

/// A game written in Python: an object with `legal_moves()`, `play(move)` (a new object),
/// `outcome()` (`None`, or the final score for the side to move: positive a win),
/// `evaluate()` (an int for the side to move) and `key()` (equal for equal positions).
/// The first exception a method raises is kept; the search then sees the game as over and
/// the exception is raised when it returns.
#[derive(Clone)]
pub(crate) struct PyGame {
    pub(crate) obj: Arc<Py<PyAny>>,
    pub(crate) error: Arc<Mutex<Option<PyErr>>>,
}

impl PyGame {
    pub(crate) fn failed(&self) -> bool {
        self.error.lock().map(|e| e.is_some()).unwrap_or(true)
    }

    pub(crate) fn keep(&self, e: PyErr) {
        if let Ok(mut slot) = self.error.lock() {
            slot.get_or_insert(e);
        }
    }

    pub(crate) fn call<T>(
        &self,
        f: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<T>,
    ) -> Option<T> {
        if self.failed() {
            return None;
        }
        Python::with_gil(|py| match f(py, self.obj.bind(py)) {
            Ok(v) => Some(v),
            Err(e) => {
                self.keep(e);
                None
            }
        })
    }

    fn legal(&self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<PyObject>> {
        let moves = obj.call_method0("legal_moves")?;
        let _ = py;
        moves.try_iter()?.map(|m| m.map(Bound::unbind)).collect()
    }
}

impl Game for PyGame {
    type Move = MoveIndex;

    fn generate_moves(&self, moves: &mut Vec<MoveIndex>) {
        if let Some(n) = self.call(|py, obj| Ok(self.legal(py, obj)?.len())) {
            if n == 0 && self.outcome().is_none() {
                self.keep(err(
                    "a Python game's position that is not over has no legal move",
                ));
            }
            moves.extend((0..n as u32).map(MoveIndex));
        }
    }

    fn play(&self, mv: MoveIndex) -> PyGame {
        let next = self.call(|py, obj| {
            let legal = self.legal(py, obj)?;
            let m = legal
                .get(mv.0 as usize)
                .ok_or_else(|| err("legal_moves() changed between two calls"))?;
            Ok(obj.call_method1("play", (m.bind(py),))?.unbind())
        });
        match next {
            Some(obj) => PyGame {
                obj: Arc::new(obj),
                error: self.error.clone(),
            },
            None => self.clone(),
        }
    }

    fn outcome(&self) -> Option<Score> {
        if self.failed() {
            return Some(Score::DRAW);
        }
        let r = self.call(|_, obj| {
            let o = obj.call_method0("outcome")?;
            if o.is_none() {
                Ok(None)
            } else {
                Ok(Some(o.extract::<i32>()?))
            }
        });
        match r {
            Some(o) => o.map(Score::exact),
            None => Some(Score::DRAW),
        }
    }

    fn hash(&self) -> u64 {
        self.call(|_, obj| Ok(obj.call_method0("key")?.hash()? as u64))
            .unwrap_or(0)
    }
}

/// The evaluation of a Python game: its `evaluate()`.
pub(crate) struct PyEval;

impl Evaluator<PyGame> for PyEval {
    fn evaluate(&self, game: &PyGame) -> Score {
        let v = game.call(|_, obj| obj.call_method0("evaluate")?.extract::<i32>());
        Score::heuristic(v.unwrap_or(0))
    }
}
