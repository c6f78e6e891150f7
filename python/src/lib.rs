//! The native module of the `prune` Python package (`prune._prune`): the games, the search
//! library (every algorithm, preset and switch of the command line, and Monte Carlo tree
//! search), Othello's exact solver, Connect Four's, perft, search-tree pictures, and games
//! written in Python searched by the Rust library. Searches run with the GIL released.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prune_connect4::Position as C4;
use prune_games::TicTacToe as Ttt;
use prune_lab::tree::{render, Passes, Picture, TreeFormat};
use prune_othello::endgame::EndgameSolver;
use prune_othello::{Position, StaticOrdering};
use prune_registry::{GameError, GameVisitor, NativeLimits, RegisteredGame, Setup, TreeDepth};
use prune_search::mcts::{Mcts, MctsLimits};
use prune_search::{
    Algorithm, Engine, Evaluator, FailMode, Game, Parallel, ParallelKind, Score, SearchConfig,
    SearchLimits, SearchResult, TreeRecorder,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

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

use config::{Plan, PySearchConfig};
use games::{othello_move_name, ConnectFour, Othello, Shogi, TicTacToe};
use pygame::{PyEval, PyGame};

// ---------------------------------------------------------------------------------------------
// Results.

/// What a search found.
#[pyclass(module = "prune._prune", name = "SearchResult", frozen)]
struct PySearchResult {
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
fn json_to_py(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
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

fn score_parts(score: Score) -> (Option<i64>, String) {
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

// ---------------------------------------------------------------------------------------------
// Searching any game.

/// The game a Python object is: one of the registry's (searched through it) or a Python game.
enum AnyGame {
    Native(Native),
    Python(PyGame),
}

/// A position of one of prune's own games, as its Python class holds it.
enum Native {
    Othello(Position),
    Connect4(C4),
    Shogi(Box<prune_shogi::Position>),
    TicTacToe(Ttt),
}

impl Native {
    /// Runs `visitor` on the position with the evaluation called `eval` (the game's default
    /// if `None`), through the registry.
    fn visit<V: GameVisitor>(self, eval: Option<&str>, visitor: V) -> PyResult<V::Output> {
        let setup = Setup {
            eval,
            othello_ordering: StaticOrdering::Mobility,
            ..Setup::default()
        };
        let visited = match self {
            Native::Othello(p) => p.visit(&setup, visitor),
            Native::Connect4(p) => p.visit(&setup, visitor),
            Native::Shogi(p) => (*p).visit(&setup, visitor),
            Native::TicTacToe(p) => p.visit(&setup, visitor),
        };
        visited.map_err(|e| match e {
            GameError::Eval(m) => err(format!("eval: {m}")),
            e => err(e.to_string()),
        })
    }
}

fn any_game(game: &Bound<'_, PyAny>) -> PyResult<AnyGame> {
    if let Ok(g) = game.downcast::<Othello>() {
        return Ok(AnyGame::Native(Native::Othello(g.get().pos)));
    }
    if let Ok(g) = game.downcast::<ConnectFour>() {
        return Ok(AnyGame::Native(Native::Connect4(g.get().pos)));
    }
    if let Ok(g) = game.downcast::<Shogi>() {
        return Ok(AnyGame::Native(Native::Shogi(Box::new(
            g.get().pos.clone(),
        ))));
    }
    if let Ok(g) = game.downcast::<TicTacToe>() {
        return Ok(AnyGame::Native(Native::TicTacToe(g.get().pos)));
    }
    for method in ["legal_moves", "play", "outcome", "evaluate", "key"] {
        if !game.hasattr(method)? {
            return Err(err(format!(
                "{}: not a game of prune, nor a Python game (it has no method {method}(); a \
                 Python game needs legal_moves, play, outcome, evaluate and key)",
                game.get_type().name()?
            )));
        }
    }
    Ok(AnyGame::Python(PyGame {
        obj: Arc::new(game.clone().unbind()),
        error: Arc::new(Mutex::new(None)),
    }))
}

/// The outcome of a search, before the moves become Python objects.
struct Found<M> {
    score: Option<i64>,
    kind: String,
    text: String,
    best: Option<M>,
    pv: Vec<M>,
    depth: u32,
    exhausted: bool,
    stats: Value,
}

fn run_search<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    config: &PySearchConfig,
    limits: SearchLimits,
    playouts: Option<u64>,
    words: fn(Score) -> String,
) -> Result<Found<G::Move>, String> {
    match &config.plan {
        Plan::AlphaBeta(c) => {
            let mut c = *c;
            if limits.time.is_some() || limits.nodes.is_some() {
                c.iterative_deepening = true;
            }
            let parallel = Parallel::new(config.threads, ParallelKind::Ybwc)
                .map_err(|e| format!("threads: {e}"))?;
            let mut engine =
                Engine::<G>::with_parallel(c, parallel).map_err(|e| format!("config: {e}"))?;
            let r: SearchResult<G::Move> = engine
                .search(game, eval, &limits)
                .map_err(|e| e.to_string())?;
            let (score, kind) = score_parts(r.score);
            let mut stats = serde_json::to_value(r.stats.total).unwrap_or(Value::Null);
            stats["time_ms"] = Value::from(r.stats.time.as_secs_f64() * 1e3);
            Ok(Found {
                score,
                kind,
                text: words(r.score),
                best: r.best_move,
                pv: r.pv,
                depth: r.depth,
                exhausted: r.exhausted,
                stats,
            })
        }
        Plan::Mcts(c, configured) => {
            let mut mcts = Mcts::new(*c).map_err(|e| e.to_string())?;
            let playouts = playouts.or(*configured).or(if limits.time.is_none() {
                Some(100_000)
            } else {
                None
            });
            let start = Instant::now();
            let r = mcts.search(
                game,
                eval,
                &MctsLimits {
                    playouts,
                    time: limits.time,
                },
                None,
            );
            let kind = r.proof.map_or("unproven", |p| p.name()).to_string();
            let stats = serde_json::json!({
                "playouts": r.playouts,
                "tree_size": r.tree_size,
                "max_depth": r.max_depth,
                "proven_nodes": r.proven_nodes,
                "value": r.value,
                "time_ms": start.elapsed().as_secs_f64() * 1e3,
            });
            Ok(Found {
                score: None,
                kind,
                text: format!("{:.3}", r.value),
                best: r.best_move,
                pv: r.pv,
                depth: r.max_depth,
                exhausted: r.proof.is_some(),
                stats,
            })
        }
    }
}

fn finish<M>(
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

fn names<M: std::fmt::Display>(
    py: Python<'_>,
    moves: &[M],
    f: impl Fn(&M) -> String,
) -> PyResult<Vec<PyObject>> {
    moves
        .iter()
        .map(|m| Ok(f(m).into_pyobject(py)?.into_any().unbind()))
        .collect()
}

/// Searches `game` (an `Othello`, `ConnectFour`, `Shogi`, `TicTacToe` or a Python game) with
/// `config` (alpha-beta on one thread by default) within the limits: `depth` (the game's own
/// when none of the three is given: to the end, or 6 for Othello and shogi), `time_ms`,
/// `nodes`, `playouts` (MCTS). `eval` names one of the game's evaluations (Othello `pattern`,
/// the default, or `hand`; shogi `hand`, the default, or `material`). The GIL is released while the
/// Rust search runs (a Python game takes it back for each of its methods).
///
/// `engine="native"` searches with the game's own engine instead (Othello's midgame search
/// and exact solver, the shogi engine of `prune usi`; `threads` threads), with no `config`.
#[pyfunction]
#[pyo3(signature = (game, config=None, *, depth=None, time_ms=None, nodes=None, playouts=None, eval=None, engine=None, threads=1))]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    config: Option<PyRef<'_, PySearchConfig>>,
    depth: Option<u32>,
    time_ms: Option<u64>,
    nodes: Option<u64>,
    playouts: Option<u64>,
    eval: Option<&str>,
    engine: Option<&str>,
    threads: usize,
) -> PyResult<PySearchResult> {
    match engine.map(str::trim) {
        None | Some("generic") => {}
        Some("native") => {
            if config.is_some() || playouts.is_some() {
                return Err(err(
                    "engine: the native engine takes no config and no playouts (they configure the \
                     generic search)",
                ));
            }
            if depth == Some(0) {
                return Err(err("depth must be at least 1"));
            }
            // The command line's bound on threads.
            Parallel::new(threads, ParallelKind::Ybwc).map_err(|e| err(format!("threads: {e}")))?;
            let AnyGame::Native(native) = any_game(game)? else {
                return Err(err("engine: a Python game has no native engine"));
            };
            let limits = NativeLimits {
                depth,
                nodes,
                time: time_ms.map(Duration::from_millis),
                threads,
                eval: eval.map(str::to_string),
                selectivity: None,
            };
            return native.visit(eval, NativeVisit { py, limits })?;
        }
        Some(other) => {
            return Err(err(format!(
                "engine: unknown engine '{other}' (expected generic or native)"
            )))
        }
    }
    let config = match config {
        Some(c) => c.clone(),
        None => PySearchConfig {
            plan: Plan::AlphaBeta(SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft))),
            threads: 1,
            text: String::new(),
        },
    };
    if depth == Some(0) {
        return Err(err("depth must be at least 1"));
    }
    let any = any_game(game)?;
    if eval.is_some() && matches!(any, AnyGame::Python(_)) {
        return Err(err(
            "eval: a Python game evaluates itself (its evaluate method)",
        ));
    }
    let limited = time_ms.is_some() || nodes.is_some();
    let limits = |natural: u32| SearchLimits {
        depth: depth.or(if limited { None } else { Some(natural) }),
        nodes,
        time: time_ms.map(Duration::from_millis),
    };
    match any {
        AnyGame::Native(native) => {
            let visit = SearchVisit {
                py,
                config: &config,
                limits: &limits,
                playouts,
            };
            native.visit(eval, visit)?
        }
        AnyGame::Python(g) => {
            if !limited && depth.is_none() && !matches!(config.plan, Plan::Mcts(..)) {
                return Err(err(
                    "a Python game has no natural depth: give depth, time_ms or nodes",
                ));
            }
            let root = g.clone();
            let found = py.allow_threads(|| {
                run_search(&root, &PyEval, &config, limits(1), playouts, |s: Score| {
                    s.to_string()
                })
            });
            if let Some(e) = g.error.lock().ok().and_then(|mut slot| slot.take()) {
                return Err(e);
            }
            let found = found.map_err(err)?;
            // The moves back as the game's own objects, replayed from the root.
            finish(py, found, |_, ms| {
                let mut at = game.clone();
                let mut out = Vec::new();
                for m in ms {
                    let legal: Vec<Bound<'_, PyAny>> = at
                        .call_method0("legal_moves")?
                        .try_iter()?
                        .collect::<PyResult<_>>()?;
                    let mv = legal
                        .get(m.0 as usize)
                        .ok_or_else(|| err("legal_moves() changed during the search"))?
                        .clone();
                    at = at.call_method1("play", (mv.clone(),))?;
                    out.push(mv.unbind());
                }
                Ok(out)
            })
        }
    }
}

/// A search of one of prune's games, through the registry.
struct SearchVisit<'a, 'py, L: Fn(u32) -> SearchLimits> {
    py: Python<'py>,
    config: &'a PySearchConfig,
    limits: &'a L,
    playouts: Option<u64>,
}

impl<L: Fn(u32) -> SearchLimits + Sync> GameVisitor for SearchVisit<'_, '_, L> {
    type Output = PyResult<PySearchResult>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
        _: TreeDepth,
    ) -> Self::Output {
        let limits = (self.limits)(game.default_depth());
        let found = self
            .py
            .allow_threads(|| {
                run_search(
                    &game,
                    &eval,
                    self.config,
                    limits,
                    self.playouts,
                    G::score_text,
                )
            })
            .map_err(err)?;
        finish(self.py, found, |py, ms| {
            names(py, ms, |m| game.move_name(*m))
        })
    }
}

/// A search of one of prune's games by its own engine, through the registry.
struct NativeVisit<'py> {
    py: Python<'py>,
    limits: NativeLimits,
}

impl GameVisitor for NativeVisit<'_> {
    type Output = PyResult<PySearchResult>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        _: E,
        _: TreeDepth,
    ) -> Self::Output {
        let stop = Arc::new(AtomicBool::new(false));
        let limits = self.limits;
        let r = self
            .py
            .allow_threads(|| game.native_search(&limits, &stop, &mut |_| {}))
            .ok_or_else(|| err(format!("engine: {} has no native engine", G::NAME)))?
            .map_err(err)?;
        let (score, kind) = score_parts(r.last.score);
        let time_ms = r.last.elapsed.as_secs_f64() * 1e3;
        let found = Found {
            score,
            kind,
            text: r.last.score_text.clone(),
            best: r.best,
            pv: r.last.pv.clone(),
            depth: r.last.depth,
            exhausted: r.exact,
            stats: serde_json::json!({
                "nodes": r.last.nodes,
                "time_ms": time_ms,
                "engine": r.engine,
            }),
        };
        finish(self.py, found, |py, ms| {
            names(py, ms, |m| game.move_name(*m))
        })
    }
}

/// An exact solve's result.
#[pyclass(module = "prune._prune", frozen, get_all)]
struct SolveResult {
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
/// Othello table of `tt_mb` MiB. The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (position, *, threads=1, tt_mb=64))]
fn solve(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    threads: usize,
    tt_mb: usize,
) -> PyResult<SolveResult> {
    let parallel =
        Parallel::new(threads, ParallelKind::Ybwc).map_err(|e| err(format!("threads: {e}")))?;
    let start = Instant::now();
    match any_game(position)? {
        AnyGame::Native(Native::Othello(p)) => {
            if !(1..=65_536).contains(&tt_mb) {
                return Err(err(format!("tt_mb must be 1 to 65536, got {tt_mb}")));
            }
            let r = py
                .allow_threads(|| -> Result<_, String> {
                    let mut solver = EndgameSolver::with_parallel(tt_mb, parallel)
                        .map_err(|e| format!("tt_mb: {e}"))?;
                    let never = AtomicBool::new(false);
                    Ok(solver.solve_until(p.board(), -64, 64, &never))
                })
                .map_err(err)?
                .ok_or_else(|| err("the solve was stopped"))?;
            Ok(SolveResult {
                score: r.score,
                best_move: r.best_move.map(othello_move_name),
                nodes: r.counters.nodes,
                time_ms: start.elapsed().as_secs_f64() * 1e3,
            })
        }
        AnyGame::Native(Native::Connect4(p)) => {
            let r = py
                .allow_threads(|| -> Result<_, String> {
                    let mut solver = prune_connect4::Solver::new()
                        .map_err(|e| format!("the solver's table: {e}"))?;
                    let options = prune_connect4::SolveOptions {
                        threads,
                        ..prune_connect4::SolveOptions::default()
                    };
                    Ok(solver.solve(&p, &options))
                })
                .map_err(err)?;
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

/// An exact solver that keeps its tables from one solve to the next (a batch of positions
/// pays for their allocation once): `Solver(threads=1, tt_mb=64).solve(position)`.
#[pyclass(module = "prune._prune")]
struct Solver {
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
                "Solver.solve takes an Othello or a ConnectFour position",
            )),
        }
    }
}

/// The leaves of `game`'s tree `depth` plies deep (a pass is a ply).
#[pyfunction]
fn perft(py: Python<'_>, game: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
    if depth > 20 {
        return Err(err(format!("depth {depth}: at most 20")));
    }
    match any_game(game)? {
        AnyGame::Native(native) => native.visit(None, Perft { py, depth }),
        AnyGame::Python(g) => {
            let n = py.allow_threads(|| prune_search::perft(&g, depth));
            if let Some(e) = g.error.lock().ok().and_then(|mut slot| slot.take()) {
                return Err(e);
            }
            Ok(n)
        }
    }
}

/// Perft of one of prune's games (its own count where it has a faster one).
struct Perft<'py> {
    py: Python<'py>,
    depth: u32,
}

impl GameVisitor for Perft<'_> {
    type Output = u64;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        _: E,
        _: TreeDepth,
    ) -> u64 {
        self.py.allow_threads(|| game.perft(self.depth))
    }
}

/// Draws the tree of one search of one of prune's games.
struct Draw<'py> {
    py: Python<'py>,
    config: SearchConfig,
    depth: u32,
}

impl GameVisitor for Draw<'_> {
    type Output = Result<Tree, String>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
        _: TreeDepth,
    ) -> Self::Output {
        self.py
            .allow_threads(|| draw(&game, &eval, self.config, self.depth))
    }
}

/// A picture of the tree one search visited.
#[pyclass(module = "prune._prune", frozen, get_all)]
struct Tree {
    /// The picture, as SVG.
    svg: String,
    /// Nodes and leaves drawn, moves pruned.
    summary: String,
}

#[pymethods]
impl Tree {
    fn _repr_svg_(&self) -> String {
        self.svg.clone()
    }

    fn __repr__(&self) -> String {
        format!("Tree({})", self.summary)
    }
}

fn draw<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    config: SearchConfig,
    depth: u32,
) -> Result<Tree, String> {
    let limits = SearchLimits {
        depth: Some(depth),
        nodes: Some(200_000),
        time: None,
    };
    let mut engine = Engine::<G>::new(config).map_err(|e| format!("config: {e}"))?;
    let mut recorder = TreeRecorder::new();
    let r = engine
        .search_traced(game, eval, &limits, &mut recorder)
        .map_err(|e| e.to_string())?;
    if r.interrupted {
        return Err("the search visited more than 200,000 nodes: search less deep".into());
    }
    let title = format!("{} · depth {depth}: value {}", config.algorithm, r.score);
    let picture = Picture::new(title, &recorder.into_tree(), &r.pv, Passes::Last);
    Ok(Tree {
        svg: render(std::slice::from_ref(&picture), TreeFormat::Svg),
        summary: picture.summary(),
    })
}

/// The `prune tree` picture of a search of `game` to `depth` with `config` (alpha-beta by
/// default): `_repr_svg_` shows it in Jupyter.
#[pyfunction]
#[pyo3(signature = (game, config=None, *, depth=3))]
fn tree(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    config: Option<PyRef<'_, PySearchConfig>>,
    depth: u32,
) -> PyResult<Tree> {
    if depth == 0 || depth > 10 {
        return Err(err(format!(
            "depth {depth}: a tree to draw is 1 to 10 plies deep"
        )));
    }
    let c = match config.as_deref().map(|c| &c.plan) {
        None => SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft)),
        Some(Plan::AlphaBeta(c)) => *c,
        Some(Plan::Mcts(..)) => return Err(err("tree draws alpha-beta searches, not MCTS")),
    };
    let drawn = match any_game(game)? {
        AnyGame::Native(native) => native.visit(
            None,
            Draw {
                py,
                config: c,
                depth,
            },
        )?,
        AnyGame::Python(g) => {
            let drawn = py.allow_threads(|| draw(&g, &PyEval, c, depth));
            if let Some(e) = g.error.lock().ok().and_then(|mut slot| slot.take()) {
                return Err(e);
            }
            drawn
        }
    };
    drawn.map_err(err)
}

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
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(tree, m)?)?;
    m.add_function(wrap_pyfunction!(ffo_suite, m)?)?;
    Ok(())
}
