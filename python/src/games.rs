//! The built-in games as Python classes, and pictures of their boards.

use prune_connect4::Position as C4;
use prune_games::TicTacToe as Ttt;
use prune_othello::{Color, Position};
use prune_registry::RegisteredGame;
use prune_search::{Game, Score};
use pyo3::prelude::*;

use crate::err;

// ---------------------------------------------------------------------------------------------
// The games.

/// The legal moves of `game` by their names (the registry's, as `play` takes them back).
fn legal_names<G: RegisteredGame>(game: &G) -> Vec<String> {
    game.legal_moves()
        .into_iter()
        .map(|m| game.move_name(m))
        .collect()
}

/// The legal move of `game` called `name`, or an error listing the legal ones.
fn legal<G: RegisteredGame>(game: &G, name: &str) -> PyResult<G::Move> {
    game.find_move(name).map_err(err)
}

/// An Othello position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
pub(crate) struct Othello {
    pub(crate) pos: Position,
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
        legal_names(&self.pos)
    }

    /// The position after `move` (such as `d3`, or `pass`).
    fn play(&self, r#move: &str) -> PyResult<Othello> {
        let mv = legal(&self.pos, r#move)?;
        Ok(Othello {
            pos: Game::play(&self.pos, mv),
        })
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
        prune_registry::svg(&RegisteredGame::board(&self.pos).expect("a board game"))
    }
}

pub(crate) fn othello_move_name(m: prune_othello::Move) -> String {
    if m == prune_othello::Move::PASS {
        "pass".into()
    } else {
        m.to_string()
    }
}

/// A Connect Four position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
pub(crate) struct ConnectFour {
    pub(crate) pos: C4,
    pub(crate) moves: String,
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
        legal_names(&self.pos)
    }

    /// The position after playing column `move`.
    fn play(&self, r#move: &str) -> PyResult<ConnectFour> {
        let mv = legal(&self.pos, r#move)?;
        ConnectFour::new(&format!("{}{mv}", self.moves))
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
        prune_registry::svg(&RegisteredGame::board(&self.pos).expect("a board game"))
    }
}

/// A tic-tac-toe position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
pub(crate) struct TicTacToe {
    pub(crate) pos: Ttt,
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
        legal_names(&self.pos)
    }

    /// The position after `move`.
    fn play(&self, r#move: &str) -> PyResult<TicTacToe> {
        let mv = legal(&self.pos, r#move)?;
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
        prune_registry::svg(&RegisteredGame::board(&self.pos).expect("a board game"))
    }
}

/// A shogi position.
#[pyclass(module = "prune._prune", frozen)]
#[derive(Clone)]
pub(crate) struct Shogi {
    pub(crate) pos: prune_shogi::Position,
}

#[pymethods]
impl Shogi {
    /// The position of `sfen` (an SFEN such as
    /// `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`, or `startpos`); the
    /// start position by default.
    #[new]
    #[pyo3(signature = (sfen=None))]
    fn new(sfen: Option<&str>) -> PyResult<Self> {
        match sfen.map(str::trim).filter(|t| !t.is_empty()) {
            None => Ok(Shogi {
                pos: prune_shogi::Position::start(),
            }),
            Some(t) => <prune_shogi::Position as RegisteredGame>::read(t)
                .map(|pos| Shogi { pos })
                .map_err(|e| err(format!("sfen: {e}"))),
        }
    }

    /// The legal moves in USI (`7g7f`, `8h2b+`, `P*5e`); none when the side to move is mated.
    fn legal_moves(&self) -> Vec<String> {
        legal_names(&self.pos)
    }

    /// The position after `move` (USI).
    fn play(&self, r#move: &str) -> PyResult<Shogi> {
        let mv = legal(&self.pos, r#move)?;
        Ok(Shogi {
            pos: self.pos.play(mv),
        })
    }

    /// Whether the side to move is mated (repetitions need the game's record: not here).
    fn is_over(&self) -> bool {
        Game::outcome(&self.pos).is_some()
    }

    /// -1 once the side to move is mated, else `None`.
    fn outcome(&self) -> Option<i32> {
        Game::outcome(&self.pos).map(|s| if s.is_loss() { -1 } else { 0 })
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    /// `X` (Black, sente) or `O` (White, gote).
    #[getter]
    fn to_move(&self) -> &'static str {
        match self.pos.side_to_move() {
            prune_shogi::Color::Black => "X",
            prune_shogi::Color::White => "O",
        }
    }

    /// The SFEN.
    #[getter]
    fn sfen(&self) -> String {
        self.pos.to_string()
    }

    /// The pieces in hand: `{"X": {"P": 2}, "O": {}}` (SFEN letters).
    fn hands(
        &self,
    ) -> std::collections::BTreeMap<&'static str, std::collections::BTreeMap<String, u8>> {
        let board = RegisteredGame::board(&self.pos).expect("shogi has a board");
        board
            .hands
            .into_iter()
            .map(|h| {
                let side = if h.owner == prune_registry::Side::First {
                    "X"
                } else {
                    "O"
                };
                (side, h.pieces.into_iter().collect())
            })
            .collect()
    }

    fn __str__(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Shogi('{}')", self.pos)
    }

    fn __eq__(&self, other: &Shogi) -> bool {
        self.pos.key() == other.pos.key()
    }

    fn __hash__(&self) -> u64 {
        self.pos.key()
    }

    /// The board with both hands, as SVG (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        prune_registry::svg(&RegisteredGame::board(&self.pos).expect("shogi has a board"))
    }
}
