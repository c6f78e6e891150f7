//! What a search found, as Python sees it: `SearchResult`, and the moves back as names or as a
//! Python game's own objects.

use prune_search::Score;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Results.

/// What a search found.
#[pyclass(module = "prune._prune", name = "SearchResult", frozen)]
pub(crate) struct PySearchResult {
    /// The value: a heuristic value, or the final margin of a proven result (positive a win).
    #[pyo3(get)]
    score: Option<i64>,
    /// `heuristic`, `win`, `loss`, `draw` (MCTS: `win`, `loss`, `draw` when proven, else
    /// `unproven`).
    #[pyo3(get)]
    score_kind: String,
    /// The value as the command line prints it.
    #[pyo3(get)]
    score_text: String,
    best_move: Option<PyObject>,
    pv: Vec<PyObject>,
    /// The depth of the last completed iteration (MCTS: the deepest path).
    #[pyo3(get)]
    depth: u32,
    /// Whether the whole game tree under the position was searched (the value is exact).
    #[pyo3(get)]
    exhausted: bool,
    stats: Value,
}

#[pymethods]
impl PySearchResult {
    /// The move to play (`None` when the game is over).
    #[getter]
    fn best_move(&self, py: Python<'_>) -> Option<PyObject> {
        self.best_move.as_ref().map(|m| m.clone_ref(py))
    }

    /// The principal variation.
    #[getter]
    fn pv(&self, py: Python<'_>) -> Vec<PyObject> {
        self.pv.iter().map(|m| m.clone_ref(py)).collect()
    }

    /// The statistics, as the command line's JSON has them.
    #[getter]
    fn stats(&self, py: Python<'_>) -> PyResult<PyObject> {
        json_to_py(py, &self.stats)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let best = self
            .best_move
            .as_ref()
            .map_or("None".to_string(), |m| m.bind(py).to_string());
        format!(
            "SearchResult(score={}, best_move={best}, depth={})",
            self.score_text, self.depth
        )
    }
}

/// A JSON value as Python objects.
pub(crate) fn json_to_py(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.into_pyobject(py)?.into_any().unbind(),
            (_, Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (_, _, Some(f)) => f.into_pyobject(py)?.into_any().unbind(),
            _ => py.None(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let items: PyResult<Vec<PyObject>> = a.iter().map(|x| json_to_py(py, x)).collect();
            PyList::new(py, items?)?.into_any().unbind()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

pub(crate) fn score_parts(score: Score) -> (Option<i64>, String) {
    let kind = if score == Score::DRAW {
        "draw"
    } else if score.is_win() {
        "win"
    } else if score.is_loss() {
        "loss"
    } else {
        "heuristic"
    };
    let value = match score.margin() {
        Some(m) => i64::from(m),
        None => i64::from(score.raw()),
    };
    (Some(value), kind.to_string())
}

/// The outcome of a search, before the moves become Python objects.
pub(crate) struct Found<M> {
    pub(crate) score: Option<i64>,
    pub(crate) kind: String,
    pub(crate) text: String,
    pub(crate) best: Option<M>,
    pub(crate) pv: Vec<M>,
    pub(crate) depth: u32,
    pub(crate) exhausted: bool,
    pub(crate) stats: Value,
}

pub(crate) fn finish<M>(
    py: Python<'_>,
    found: Found<M>,
    name: impl Fn(Python<'_>, &[M]) -> PyResult<Vec<PyObject>>,
) -> PyResult<PySearchResult> {
    let best = match &found.best {
        Some(m) => name(py, std::slice::from_ref(m))?.into_iter().next(),
        None => None,
    };
    Ok(PySearchResult {
        score: found.score,
        score_kind: found.kind,
        score_text: found.text,
        best_move: best,
        pv: name(py, &found.pv)?,
        depth: found.depth,
        exhausted: found.exhausted,
        stats: found.stats,
    })
}

pub(crate) fn names<M: std::fmt::Display>(
    py: Python<'_>,
    moves: &[M],
    f: impl Fn(&M) -> String,
) -> PyResult<Vec<PyObject>> {
    moves
        .iter()
        .map(|m| Ok(f(m).into_pyobject(py)?.into_any().unbind()))
        .collect()
}
