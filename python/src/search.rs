//! Searching any game from Python: prune's own games through the registry (the generic
//! search, MCTS, each game's own engine, perft), and games written in Python.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::{Plan, PySearchConfig};
use crate::err;
use crate::games::{ConnectFour, Othello, Shogi, TicTacToe};
use crate::pygame::{PyEval, PyGame};
use crate::results::{finish, names, score_parts, Found, PySearchResult};
use prune_connect4::Position as C4;
use prune_games::TicTacToe as Ttt;
use prune_othello::{Position, StaticOrdering};
use prune_registry::{GameError, GameVisitor, NativeLimits, RegisteredGame, Setup};
use prune_search::mcts::{Mcts, MctsLimits};
use prune_search::proof::Wdl;

/// Nodes a proof may visit (df-pn) or keep (PN) when `nodes` does not say (as on the command
/// line).
const DEFAULT_PROOF_NODES: u64 = 2_000_000;
use prune_search::{
    Algorithm, Engine, Evaluator, FailMode, Game, Parallel, ParallelKind, Score, SearchConfig,
    SearchLimits, SearchResult,
};
use pyo3::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Searching any game.

/// The game a Python object is: one of the registry's (searched through it) or a Python game.
pub(crate) enum AnyGame {
    Native(Native),
    Python(PyGame),
}

/// A position of one of prune's own games, as its Python class holds it.
pub(crate) enum Native {
    Othello(Position),
    Connect4(C4),
    Shogi(Box<prune_shogi::Position>),
    TicTacToe(Ttt),
}

impl Native {
    /// Runs `visitor` on the position with the evaluation called `eval` (the game's default
    /// if `None`), through the registry.
    pub(crate) fn visit<V: GameVisitor>(
        self,
        eval: Option<&str>,
        visitor: V,
    ) -> PyResult<V::Output> {
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

pub(crate) fn any_game(game: &Bound<'_, PyAny>) -> PyResult<AnyGame> {
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

pub(crate) fn run_search<G: Game, E: Evaluator<G>>(
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
        Plan::Proof(algorithm) => {
            if limits.time.is_some() {
                return Err(format!(
                    "algorithm {algorithm}: a proof-number search is limited by nodes, not time_ms"
                ));
            }
            let max_nodes = limits.nodes.unwrap_or(DEFAULT_PROOF_NODES);
            let start = Instant::now();
            let (r, proofs) = algorithm.solve(game, eval, max_nodes);
            let result = r.wdl.map_or("unknown", Wdl::name);
            let proofs: Vec<Value> = proofs
                .iter()
                .map(|(goal, p)| {
                    serde_json::json!({
                        "goal": goal.name(),
                        "verdict": p.verdict.name(),
                        "expanded": p.expanded,
                        "nodes": p.nodes,
                        "stored": p.stored,
                        "proof_size": p.proof_size,
                    })
                })
                .collect();
            let stats = serde_json::json!({
                "nodes": r.nodes,
                "node_limit": max_nodes,
                "proofs": proofs,
                "time_ms": start.elapsed().as_secs_f64() * 1e3,
            });
            Ok(Found {
                score: None,
                kind: result.to_string(),
                text: result.to_string(),
                best: r.best_move,
                pv: r.best_move.into_iter().collect(),
                depth: 0,
                exhausted: r.wdl.is_some(),
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
pub(crate) fn search(
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
            if !limited
                && depth.is_none()
                && !matches!(config.plan, Plan::Mcts(..) | Plan::Proof(..))
            {
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
pub(crate) struct SearchVisit<'a, 'py, L: Fn(u32) -> SearchLimits> {
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
pub(crate) struct NativeVisit<'py> {
    py: Python<'py>,
    limits: NativeLimits,
}

impl GameVisitor for NativeVisit<'_> {
    type Output = PyResult<PySearchResult>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        _: E,
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

/// The leaves of `game`'s tree `depth` plies deep (a pass is a ply).
#[pyfunction]
pub(crate) fn perft(py: Python<'_>, game: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
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
pub(crate) struct Perft<'py> {
    py: Python<'py>,
    depth: u32,
}

impl GameVisitor for Perft<'_> {
    type Output = u64;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(self, game: G, _: E) -> u64 {
        self.py.allow_threads(|| game.perft(self.depth))
    }
}
