//! The native module of the `prune` Python package (`prune._prune`): the games, the search
//! library (every algorithm, preset and switch of the command line, and Monte Carlo tree
//! search), Othello's exact solver, Connect Four's, perft, search-tree pictures, and games
//! written in Python searched by the Rust library. Searches run with the GIL released.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prune_connect4::Position as C4;
use prune_games::{LineEval, TicTacToe as Ttt};
use prune_lab::tree::{render, Passes, Picture, TreeFormat};
use prune_othello::endgame::EndgameSolver;
use prune_othello::{Color, Ordered, OthelloEval, Position, StaticOrdering};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, Playout};
use prune_search::{
    Algorithm, Aspiration, Engine, Evaluator, FailMode, Game, KillerIndex, Killers, MoveBits,
    Parallel, ParallelKind, Preset, Score, SearchConfig, SearchLimits, SearchResult,
    ShallowOrdering, TreeRecorder, TtConfig,
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

fn err(message: impl Into<String>) -> PyErr {
    PruneError::new_err(message.into())
}

// ---------------------------------------------------------------------------------------------
// Pictures of boards.

/// An SVG picture of a board given as rows of `X`, `O` and `-`.
fn board_svg(rows: &[String], style: &str) -> String {
    let h = rows.len();
    let w = rows.first().map_or(0, |r| r.chars().count());
    let cell = 40;
    let (bg, line, x_fill, o_fill) = match style {
        "othello" => ("#1f7a3a", "#0d4020", "#111", "#f4f4f4"),
        "connect4" => ("#1d4fa8", "#1d4fa8", "#d62828", "#f2c80f"),
        _ => ("#ffffff", "#333", "#1d4fa8", "#d62828"),
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\
         <rect width=\"100%\" height=\"100%\" fill=\"{bg}\"/>",
        w * cell,
        h * cell,
        w * cell,
        h * cell
    );
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let (x, y) = (c * cell, r * cell);
            let (cx, cy) = (x + cell / 2, y + cell / 2);
            if style != "connect4" {
                s.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"none\" stroke=\"{line}\"/>"
                ));
            }
            match (style, ch) {
                ("tictactoe", 'X') => s.push_str(&format!(
                    "<text x=\"{cx}\" y=\"{}\" font-size=\"30\" text-anchor=\"middle\" fill=\"{x_fill}\">X</text>",
                    cy + 10
                )),
                ("tictactoe", 'O') => s.push_str(&format!(
                    "<text x=\"{cx}\" y=\"{}\" font-size=\"30\" text-anchor=\"middle\" fill=\"{o_fill}\">O</text>",
                    cy + 10
                )),
                ("tictactoe", _) => {}
                (_, 'X') => s.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"{x_fill}\"/>"
                )),
                (_, 'O') => s.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"{o_fill}\"/>"
                )),
                ("connect4", _) => s.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"16\" fill=\"#ffffff\"/>"
                )),
                _ => {}
            }
        }
    }
    s.push_str("</svg>");
    s
}

// ---------------------------------------------------------------------------------------------
// The games.

/// An Othello position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
struct Othello {
    pos: Position,
}

#[pymethods]
impl Othello {
    /// The position of `text`: 64 squares a1..h8 of `X`, `O`, `-` and the side to move, or an
    /// OBF line (the position, then `;` and scores); the start position by default.
    #[new]
    #[pyo3(signature = (text=None))]
    fn new(text: Option<&str>) -> PyResult<Self> {
        let text = text.map(|t| t.split(';').next().unwrap_or(t).trim());
        match text.filter(|t| !t.is_empty()) {
            None => Ok(Othello {
                pos: Position::START,
            }),
            Some(t) => t
                .parse()
                .map(|pos| Othello { pos })
                .map_err(|e| err(format!("position: {e}"))),
        }
    }

    /// The legal moves (`pass` when the side to move must pass; none when the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .into_iter()
            .map(othello_move_name)
            .collect()
    }

    /// The position after `move` (such as `d3`, or `pass`).
    fn play(&self, r#move: &str) -> PyResult<Othello> {
        let mv: prune_othello::Move = r#move
            .parse()
            .map_err(|e| err(format!("move '{move}': {e}", move = r#move)))?;
        self.pos
            .play(mv)
            .map(|pos| Othello { pos })
            .map_err(|e| err(format!("move '{}': {e}", r#move)))
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.pos.outcome().is_some()
    }

    /// The final disc difference for the side to move once the game is over, else `None`.
    fn outcome(&self) -> Option<i32> {
        self.pos.outcome().and_then(|s| s.margin())
    }

    /// `X` (black) or `O` (white).
    #[getter]
    fn to_move(&self) -> &'static str {
        if self.pos.to_move() == Color::Black {
            "X"
        } else {
            "O"
        }
    }

    /// Empty squares.
    #[getter]
    fn empties(&self) -> u32 {
        self.pos.empty_count()
    }

    /// The rows from rank 1, as strings of `X`, `O` and `-`.
    fn rows(&self) -> Vec<String> {
        let text = self.pos.to_string();
        (0..8).map(|r| text[r * 8..r * 8 + 8].to_string()).collect()
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Othello('{}')", self.pos)
    }

    fn __eq__(&self, other: &Othello) -> bool {
        self.pos == other.pos
    }

    fn __hash__(&self) -> u64 {
        self.pos.hash()
    }

    /// The board as SVG (Jupyter shows it as a picture).
    fn _repr_svg_(&self) -> String {
        board_svg(&self.rows(), "othello")
    }
}

fn othello_move_name(m: prune_othello::Move) -> String {
    if m == prune_othello::Move::PASS {
        "pass".into()
    } else {
        m.to_string()
    }
}

/// A Connect Four position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
struct ConnectFour {
    pos: C4,
    moves: String,
}

#[pymethods]
impl ConnectFour {
    /// The position after `moves`, the columns played from the empty board (1-7, such as
    /// `4453`).
    #[new]
    #[pyo3(signature = (moves=""))]
    fn new(moves: &str) -> PyResult<Self> {
        let moves = moves.trim();
        let pos = C4::from_moves(moves).map_err(|e| err(format!("position: {e}")))?;
        Ok(ConnectFour {
            pos,
            moves: moves.to_string(),
        })
    }

    /// The legal moves: the columns with room, `1`-`7`.
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The position after playing column `move`.
    fn play(&self, r#move: &str) -> PyResult<ConnectFour> {
        let moves = format!("{}{}", self.moves, r#move.trim());
        let legal = self.legal_moves();
        if !legal.iter().any(|m| m == r#move.trim()) {
            return Err(err(format!(
                "move '{}' is not legal here (legal: {})",
                r#move,
                legal.join(", ")
            )));
        }
        ConnectFour::new(&moves)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.pos.outcome().is_some()
    }

    /// The test sets' score for the side to move once the game is over, else `None`.
    fn outcome(&self) -> Option<i32> {
        self.pos.final_score()
    }

    /// `X` (first) or `O`.
    #[getter]
    fn to_move(&self) -> &'static str {
        if self.pos.first_player_to_move() {
            "X"
        } else {
            "O"
        }
    }

    /// The rows from the top.
    fn rows(&self) -> Vec<String> {
        let h = prune_connect4::HEIGHT;
        (0..h)
            .rev()
            .map(|row| {
                (0..prune_connect4::WIDTH as u8)
                    .map(|c| {
                        let col = prune_connect4::Column::new(c).expect("a column");
                        match self.pos.stone(col, row) {
                            Some(true) => 'X',
                            Some(false) => 'O',
                            None => '-',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn __str__(&self) -> String {
        self.moves.clone()
    }

    fn __repr__(&self) -> String {
        format!("ConnectFour('{}')", self.moves)
    }

    fn _repr_svg_(&self) -> String {
        board_svg(&self.rows(), "connect4")
    }
}

/// A tic-tac-toe position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
struct TicTacToe {
    pos: Ttt,
}

#[pymethods]
impl TicTacToe {
    /// The position of `cells`, such as `XO./.X./...` (the empty board by default).
    #[new]
    #[pyo3(signature = (cells=None))]
    fn new(cells: Option<&str>) -> PyResult<Self> {
        match cells.map(str::trim).filter(|t| !t.is_empty()) {
            None => Ok(TicTacToe { pos: Ttt::new() }),
            Some(t) => t
                .parse()
                .map(|pos| TicTacToe { pos })
                .map_err(|e| err(format!("position: {e}"))),
        }
    }

    /// The legal moves, `a1`..`c3`.
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The position after `move`.
    fn play(&self, r#move: &str) -> PyResult<TicTacToe> {
        let legal = self.pos.legal_moves();
        let mv = legal
            .iter()
            .copied()
            .find(|m| m.to_string().eq_ignore_ascii_case(r#move.trim()))
            .ok_or_else(|| {
                let names: Vec<String> = legal.iter().map(ToString::to_string).collect();
                err(format!(
                    "move '{}' is not legal here (legal: {})",
                    r#move,
                    names.join(", ")
                ))
            })?;
        Ok(TicTacToe {
            pos: self.pos.play(mv),
        })
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.pos.outcome().is_some()
    }

    /// 1 if the side to move has won, -1 if lost, 0 for a draw, once the game is over.
    fn outcome(&self) -> Option<i32> {
        self.pos.outcome().map(|s| match s.cmp(&Score::DRAW) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        })
    }

    /// `X` or `O`.
    #[getter]
    fn to_move(&self) -> &'static str {
        if self.pos.x_to_move() {
            "X"
        } else {
            "O"
        }
    }

    /// The rows from the top.
    fn rows(&self) -> Vec<String> {
        self.pos
            .to_string()
            .lines()
            .map(|l| l.replace('.', "-"))
            .collect()
    }

    fn __str__(&self) -> String {
        self.pos.to_string().replace('\n', "/")
    }

    fn __repr__(&self) -> String {
        format!("TicTacToe('{}')", self.__str__())
    }

    fn _repr_svg_(&self) -> String {
        board_svg(&self.rows(), "tictactoe")
    }
}

// ---------------------------------------------------------------------------------------------
// A game written in Python.

/// A move of a Python game: its index in the position's `legal_moves()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct MoveIndex(u32);

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
struct PyGame {
    obj: Arc<Py<PyAny>>,
    error: Arc<Mutex<Option<PyErr>>>,
}

impl PyGame {
    fn failed(&self) -> bool {
        self.error.lock().map(|e| e.is_some()).unwrap_or(true)
    }

    fn keep(&self, e: PyErr) {
        if let Ok(mut slot) = self.error.lock() {
            slot.get_or_insert(e);
        }
    }

    fn call<T>(&self, f: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<T>) -> Option<T> {
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
struct PyEval;

impl Evaluator<PyGame> for PyEval {
    fn evaluate(&self, game: &PyGame) -> Score {
        let v = game.call(|_, obj| obj.call_method0("evaluate")?.extract::<i32>());
        Score::heuristic(v.unwrap_or(0))
    }
}

// ---------------------------------------------------------------------------------------------
// Configurations.

/// A search configuration by the command line's names: `SearchConfig(algorithm="negascout",
/// preset="full", history=True, ...)`; `algorithm="mcts"` is Monte Carlo tree search.
#[pyclass(module = "prune._prune", name = "SearchConfig", frozen)]
#[derive(Clone)]
struct PySearchConfig {
    plan: Plan,
    threads: usize,
    text: String,
}

#[derive(Clone)]
enum Plan {
    AlphaBeta(SearchConfig),
    Mcts(MctsConfig, Option<u64>),
}

#[pymethods]
impl PySearchConfig {
    #[new]
    #[pyo3(signature = (
        algorithm=None, preset=None, *, iterative=false, aspiration=None, tt_mb=None,
        static_ordering=false, killers=None, killer_index=None, staged_killers=false,
        history=false, refutation=false, shallow_order=None, shallow_depth=None, threads=1,
        playouts=None, exploration=None, playout_cutoff=None, transpositions=false, seed=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        algorithm: Option<&str>,
        preset: Option<&str>,
        iterative: bool,
        aspiration: Option<i32>,
        tt_mb: Option<usize>,
        static_ordering: bool,
        killers: Option<usize>,
        killer_index: Option<&str>,
        staged_killers: bool,
        history: bool,
        refutation: bool,
        shallow_order: Option<u32>,
        shallow_depth: Option<u32>,
        threads: usize,
        playouts: Option<u64>,
        exploration: Option<f64>,
        playout_cutoff: Option<u32>,
        transpositions: bool,
        seed: Option<u64>,
    ) -> PyResult<Self> {
        if threads == 0 || threads > 1024 {
            return Err(err(format!("threads must be 1 to 1024, got {threads}")));
        }
        let mut given = Vec::new();
        if algorithm.is_some_and(|a| a.trim().eq_ignore_ascii_case("mcts")) {
            let alpha_beta = preset.is_some()
                || iterative
                || aspiration.is_some()
                || tt_mb.is_some()
                || static_ordering
                || killers.is_some()
                || killer_index.is_some()
                || staged_killers
                || history
                || refutation
                || shallow_order.is_some()
                || shallow_depth.is_some();
            if alpha_beta {
                return Err(err(
                    "algorithm mcts takes playouts, exploration, playout_cutoff, transpositions \
                     and seed, not the alpha-beta options",
                ));
            }
            let default = MctsConfig::default();
            let config = MctsConfig {
                exploration: exploration.unwrap_or(default.exploration),
                seed: seed.unwrap_or(default.seed),
                playout: playout_cutoff.map_or(Playout::Random, |plies| Playout::Cutoff { plies }),
                transpositions,
                threads,
                ..default
            };
            config.validate().map_err(|e| err(e.to_string()))?;
            if playouts == Some(0) {
                return Err(err("playouts must be at least 1"));
            }
            return Ok(PySearchConfig {
                plan: Plan::Mcts(config, playouts),
                threads,
                text: format!("SearchConfig(algorithm='mcts', playouts={playouts:?})"),
            });
        }
        if playouts.is_some()
            || exploration.is_some()
            || playout_cutoff.is_some()
            || transpositions
            || seed.is_some()
        {
            return Err(err(
                "playouts, exploration, playout_cutoff, transpositions and seed are options of \
                 algorithm mcts",
            ));
        }
        let algorithm: Algorithm = match algorithm {
            Some(name) => {
                given.push(format!("algorithm={name}"));
                name.parse().map_err(|e| err(format!("algorithm: {e}")))?
            }
            None => Algorithm::AlphaBeta(FailMode::Soft),
        };
        let preset_name = preset.unwrap_or("plain");
        let found = Preset::find(preset_name).map_err(|e| err(format!("preset: {e}")))?;
        let mut c = found
            .config(algorithm)
            .map_err(|e| err(format!("preset: {e}")))?;
        c.iterative_deepening |= iterative;
        if let Some(half_width) = aspiration {
            c.aspiration = Some(Aspiration { half_width });
        }
        if let Some(size_mib) = tt_mb {
            c.transposition_table = Some(TtConfig { size_mib });
        }
        c.static_ordering |= static_ordering;
        if killers.is_some() || killer_index.is_some() {
            let mut k = c.killers.unwrap_or_else(|| Killers::new(2));
            if let Some(slots) = killers {
                if !(1..=Killers::MAX_SLOTS).contains(&slots) {
                    return Err(err(format!(
                        "killer slots must be 1 to {}, got {slots}",
                        Killers::MAX_SLOTS
                    )));
                }
                k.slots = slots;
            }
            if let Some(index) = killer_index {
                k.index = index
                    .parse::<KillerIndex>()
                    .map_err(|e| err(format!("killer_index: {e}")))?;
            }
            c.killers = Some(k);
        }
        c.staged_killers |= staged_killers;
        c.history |= history;
        c.refutation |= refutation;
        if shallow_order.is_some() || shallow_depth.is_some() {
            let mut s = c.shallow_ordering.unwrap_or_default();
            if let Some(d) = shallow_order {
                s.min_depth = d;
            }
            if let Some(d) = shallow_depth {
                s.depth = d;
            }
            c.shallow_ordering = Some(ShallowOrdering { ..s });
        }
        c.validate()
            .map_err(|e| err(format!("invalid configuration: {e}")))?;
        Ok(PySearchConfig {
            text: format!(
                "SearchConfig(algorithm='{}', preset='{preset_name}', ...)",
                c.algorithm
            ),
            plan: Plan::AlphaBeta(c),
            threads,
        })
    }

    fn __repr__(&self) -> String {
        self.text.clone()
    }
}

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

/// The game a Python object is, with its evaluation.
enum AnyGame {
    Othello(Position),
    Connect4(C4),
    TicTacToe(Ttt),
    Python(PyGame),
}

fn any_game(game: &Bound<'_, PyAny>) -> PyResult<AnyGame> {
    if let Ok(g) = game.downcast::<Othello>() {
        return Ok(AnyGame::Othello(g.get().pos));
    }
    if let Ok(g) = game.downcast::<ConnectFour>() {
        return Ok(AnyGame::Connect4(g.get().pos));
    }
    if let Ok(g) = game.downcast::<TicTacToe>() {
        return Ok(AnyGame::TicTacToe(g.get().pos));
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

fn othello_eval(eval: Option<&str>) -> PyResult<Ordered<OthelloEval>> {
    let eval = match eval.map(str::trim) {
        None | Some("pattern") => OthelloEval::default(),
        Some("hand") => OthelloEval::Hand,
        Some(other) => {
            return Err(err(format!(
                "eval: unknown evaluation '{other}' (expected pattern or hand)"
            )))
        }
    };
    Ok(Ordered {
        eval,
        ordering: StaticOrdering::Mobility,
    })
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
                text: r.score.to_string(),
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

/// Searches `game` (an `Othello`, `ConnectFour`, `TicTacToe` or a Python game) with `config`
/// (alpha-beta on one thread by default) within the limits: `depth` (the game's own when none
/// of the three is given: to the end, or 6 for Othello), `time_ms`, `nodes`, `playouts`
/// (MCTS). Othello takes `eval="pattern"` (default) or `"hand"`. The GIL is released while the
/// Rust search runs (a Python game takes it back for each of its methods).
#[pyfunction]
#[pyo3(signature = (game, config=None, *, depth=None, time_ms=None, nodes=None, playouts=None, eval=None))]
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
) -> PyResult<PySearchResult> {
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
    if eval.is_some() && !matches!(any, AnyGame::Othello(_)) {
        return Err(err("eval: only Othello takes an evaluation"));
    }
    let limited = time_ms.is_some() || nodes.is_some();
    let limits = |natural: u32| SearchLimits {
        depth: depth.or(if limited { None } else { Some(natural) }),
        nodes,
        time: time_ms.map(Duration::from_millis),
    };
    match any {
        AnyGame::Othello(p) => {
            let e = othello_eval(eval)?;
            let found = py
                .allow_threads(|| run_search(&p, &e, &config, limits(6), playouts))
                .map_err(err)?;
            finish(py, found, |py, ms| names(py, ms, |m| othello_move_name(*m)))
        }
        AnyGame::Connect4(p) => {
            let left = prune_connect4::CELLS - p.moves_played();
            let found = py
                .allow_threads(|| {
                    run_search(
                        &p,
                        &prune_connect4::ThreatEval,
                        &config,
                        limits(left.max(1)),
                        playouts,
                    )
                })
                .map_err(err)?;
            finish(py, found, |py, ms| names(py, ms, ToString::to_string))
        }
        AnyGame::TicTacToe(p) => {
            let left = p.legal_moves().len() as u32;
            let found = py
                .allow_threads(|| run_search(&p, &LineEval, &config, limits(left.max(1)), playouts))
                .map_err(err)?;
            finish(py, found, |py, ms| names(py, ms, ToString::to_string))
        }
        AnyGame::Python(g) => {
            if !limited && depth.is_none() && !matches!(config.plan, Plan::Mcts(..)) {
                return Err(err(
                    "a Python game has no natural depth: give depth, time_ms or nodes",
                ));
            }
            let root = g.clone();
            let found =
                py.allow_threads(|| run_search(&root, &PyEval, &config, limits(1), playouts));
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
        AnyGame::Othello(p) => {
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
        AnyGame::Connect4(p) => {
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
            AnyGame::Othello(p) => {
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
            AnyGame::Connect4(p) => {
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
        AnyGame::Othello(p) => Ok(py.allow_threads(|| prune_othello::perft::perft(&p, depth))),
        AnyGame::Connect4(p) => Ok(py.allow_threads(|| prune_search::perft(&p, depth))),
        AnyGame::TicTacToe(p) => Ok(py.allow_threads(|| prune_search::perft(&p, depth))),
        AnyGame::Python(g) => {
            let n = py.allow_threads(|| prune_search::perft(&g, depth));
            if let Some(e) = g.error.lock().ok().and_then(|mut slot| slot.take()) {
                return Err(e);
            }
            Ok(n)
        }
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
        AnyGame::Othello(p) => {
            let e = othello_eval(None)?;
            py.allow_threads(|| draw(&p, &e, c, depth))
        }
        AnyGame::Connect4(p) => {
            py.allow_threads(|| draw(&p, &prune_connect4::ThreatEval, c, depth))
        }
        AnyGame::TicTacToe(p) => py.allow_threads(|| draw(&p, &LineEval, c, depth)),
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
