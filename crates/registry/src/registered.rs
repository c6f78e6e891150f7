//! [`RegisteredGame`]: what every door needs of a game beyond the search's [`Game`], written
//! once per game here: reading and writing positions, move names, scores in the game's own
//! words, the default search depth, the board to draw and, where the game has one, an exact
//! solver for positions near the end.

use std::sync::atomic::AtomicBool;

use prune_connect4::Position as C4;
use prune_games::{RandomNode, TicTacToe, UniformNode};
use prune_othello::endgame::EndgameSolver;
use prune_othello::{Color, Position as Othello};
use prune_search::{Game, Score};
use prune_shogi::{Kind, Position as Shogi};

use prune_connect4::ThreatEval;
use prune_games::{LineEval, NoisyEval, RandomEval};
use prune_othello::Ordered;

use std::sync::Arc;

use crate::board::{BoardView, Hand, MoveView, Side, Stone};
use crate::catalog::{info, GameError};
use crate::dispatch::{othello_eval, GameVisitor, Setup, TreeDepth};
use crate::native::{NativeEngine, NativeLimits, NativeReport, NativeResult};

/// The depth searched in a game too deep to search to its end when no depth is given.
pub const OPEN_GAME_DEPTH: u32 = 6;

/// An Othello position with at most this many empties is solved exactly by
/// [`RegisteredGame::exact`] (a few milliseconds).
pub const OTHELLO_EXACT_EMPTIES: u32 = 16;

/// A game as the doors (the command line, the page, Python, the lab) see it.
pub trait RegisteredGame: Game + Clone + Send + Sync + 'static {
    /// The registry's name.
    const NAME: &'static str;

    /// Reads a position (the text is trimmed and not empty).
    fn read(text: &str) -> Result<Self, String>;

    /// Runs `visitor` on this position with the evaluation `setup.eval` names (the game's
    /// default when `None`): where a game's evaluations by name become types.
    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError>;

    /// How deep the tree goes from here: to the end within so many plies, or open.
    fn tree_depth(&self) -> TreeDepth {
        TreeDepth::Open
    }

    /// The position's text form, as [`RegisteredGame::read`] takes it (`None`: the game cannot
    /// write one, as Connect Four, whose position keeps no move list, or a synthetic tree).
    fn text(&self) -> Option<String> {
        None
    }

    /// The text form after `mv`, given this position's `text`: the child's own
    /// [`RegisteredGame::text`] by default; Connect Four appends the move.
    fn text_after(&self, text: &str, mv: Self::Move) -> Option<String> {
        let _ = text;
        self.play(mv).text()
    }

    /// A move's name, as the doors take it back.
    fn move_name(&self, mv: Self::Move) -> String {
        mv.to_string()
    }

    /// The legal move called `name` (any case), or an error listing the legal ones.
    fn find_move(&self, name: &str) -> Result<Self::Move, String> {
        let name = name.trim();
        let moves = self.legal_moves();
        moves
            .iter()
            .copied()
            .find(|&m| self.move_name(m).eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                if moves.is_empty() {
                    format!("move '{name}': the game is over")
                } else {
                    let legal: Vec<String> = moves.iter().map(|&m| self.move_name(m)).collect();
                    format!(
                        "move '{name}' is not legal here (legal: {})",
                        legal.join(", ")
                    )
                }
            })
    }

    /// A score of this game in its own words, for the side to move.
    fn score_text(score: Score) -> String {
        score.to_string()
    }

    /// The depth searched when none is given: to the end where the game ends soon, else
    /// [`OPEN_GAME_DEPTH`].
    fn default_depth(&self) -> u32 {
        OPEN_GAME_DEPTH
    }

    /// Moves played from the start, where the position knows (Othello: discs added, so
    /// passes are not counted).
    fn moves_played(&self) -> Option<usize> {
        None
    }

    /// The leaves of the tree `depth` plies below (a game that ends sooner is one leaf): the
    /// generic count by default, a game's own faster one where it has it.
    fn perft(&self, depth: u32) -> u64 {
        prune_search::perft(self, depth)
    }

    /// The board to draw (`None`: a synthetic tree).
    fn board(&self) -> Option<BoardView> {
        None
    }

    /// What a legal move touches on the board.
    fn move_view(&self, mv: Self::Move) -> MoveView {
        MoveView {
            name: self.move_name(mv),
            from: None,
            to: None,
            drop: None,
            promotes: false,
        }
    }

    /// Whose move it is (the first player's in a synthetic tree, which has no board).
    fn side_to_move(&self) -> Side {
        self.board().map_or(Side::First, |b| b.to_move)
    }

    /// The name of the side to move, as the catalogue calls it (`black`, `X`...).
    fn side_name(&self) -> &'static str {
        let sides = info(Self::NAME)
            .expect("every registered game is in the catalogue")
            .sides;
        match self.side_to_move() {
            Side::First => sides[0],
            Side::Second => sides[1],
        }
    }

    /// The result of the finished game in words (`None` while it goes on).
    fn outcome_text(&self) -> Option<String> {
        let score = self.outcome()?;
        let to_move = self.side_to_move();
        let winner = match score.cmp(&Score::DRAW) {
            std::cmp::Ordering::Equal => return Some("a draw".into()),
            std::cmp::Ordering::Greater => to_move,
            std::cmp::Ordering::Less => other(to_move),
        };
        Some(format!("{} wins", winner.letter()))
    }

    /// The game's own engine (the catalogue's `native_engine`), ready to search and kept
    /// between searches (`None`: the game has none).
    fn native_engine() -> Option<Box<dyn NativeEngine<Self>>> {
        None
    }

    /// One search by a fresh engine of the game's own ([`RegisteredGame::native_engine`])
    /// within `limits`, `observe` told of each finished iteration, stopped when `stop` is
    /// raised (`None`: the game has no engine of its own).
    fn native_search(
        &self,
        limits: &NativeLimits,
        stop: &Arc<AtomicBool>,
        observe: &mut dyn FnMut(&NativeReport<Self::Move>),
    ) -> Option<Result<NativeResult<Self::Move>, String>> {
        Some(Self::native_engine()?.search(self, limits, stop, observe))
    }

    /// The exact value and best move when the position is small enough to solve at once
    /// (`None`: not such a game or position, or stopped by `stop`).
    fn exact(&self, stop: &AtomicBool) -> Option<(Score, Option<Self::Move>)> {
        let _ = stop;
        None
    }
}

/// The name of the evaluation `setup` asks of game `G` (its default when none): one of the
/// catalogue's, or an error listing them.
fn named_eval<G: RegisteredGame>(setup: &Setup) -> Result<&'static str, GameError> {
    let info = info(G::NAME).expect("every registered game is in the catalogue");
    match setup.eval.map(str::trim).filter(|e| !e.is_empty()) {
        None => Ok(info.evals[0].name),
        Some(name) => Ok(info.eval(name).map_err(GameError::Eval)?.name),
    }
}

fn other(side: Side) -> Side {
    match side {
        Side::First => Side::Second,
        Side::Second => Side::First,
    }
}

/// Words for a proven result, `unit` being what the margin counts.
fn proven(score: Score, unit: &str) -> Option<String> {
    let m = score.margin()?;
    Some(match m {
        0 => "draw".into(),
        m if m > 0 => format!("win by {m} {unit}"),
        m => format!("loss by {} {unit}", -m),
    })
}

impl RegisteredGame for Othello {
    const NAME: &'static str = "othello";

    /// `pattern` (the default), `hand`, or a weights file of `prune train`.
    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError> {
        let eval = Ordered {
            eval: othello_eval(setup.eval.unwrap_or("pattern"))?,
            ordering: setup.othello_ordering,
        };
        Ok(visitor.visit(self, eval))
    }

    /// A position, or an OBF line (the position, then `;` and the moves' scores).
    fn read(text: &str) -> Result<Self, String> {
        let text = text.split(';').next().unwrap_or(text).trim();
        text.parse().map_err(|e| format!("{e}"))
    }

    fn text(&self) -> Option<String> {
        Some(self.to_string())
    }

    fn move_name(&self, mv: prune_othello::Move) -> String {
        if mv == prune_othello::Move::PASS {
            "pass".into()
        } else {
            mv.to_string()
        }
    }

    /// Hundredths of a disc shown as discs (`+0.47 discs`); proven results by their margin.
    fn score_text(score: Score) -> String {
        if score.is_infinite() {
            return score.to_string();
        }
        match score.margin() {
            Some(_) if score.is_decisive() => proven(score, "discs").expect("decisive"),
            _ => format!("{:+.2} discs", f64::from(score.raw()) / 100.0),
        }
    }

    fn moves_played(&self) -> Option<usize> {
        Some(64 - 4 - self.empty_count() as usize)
    }

    /// On the bitboards, the last ply by a popcount.
    fn perft(&self, depth: u32) -> u64 {
        prune_othello::perft::perft(self, depth)
    }

    fn board(&self) -> Option<BoardView> {
        let (black, white) = (self.discs(Color::Black), self.discs(Color::White));
        let cells = (0..8)
            .map(|row| {
                (0..8)
                    .map(|col| {
                        let bit = 1u64 << (row * 8 + col);
                        let owner = if black & bit != 0 {
                            Side::First
                        } else if white & bit != 0 {
                            Side::Second
                        } else {
                            return None;
                        };
                        Some(Stone { owner, label: None })
                    })
                    .collect()
            })
            .collect();
        Some(BoardView {
            style: "discs",
            width: 8,
            height: 8,
            cells,
            to_move: if self.to_move() == Color::Black {
                Side::First
            } else {
                Side::Second
            },
            hands: Vec::new(),
            files: "abcdefgh".chars().map(String::from).collect(),
            ranks: (1..=8).map(|r| r.to_string()).collect(),
        })
    }

    fn move_view(&self, mv: prune_othello::Move) -> MoveView {
        match mv.square() {
            Some(s) => MoveView::at(
                self.move_name(mv),
                usize::from(s.rank()),
                usize::from(s.file()),
            ),
            None => MoveView {
                name: self.move_name(mv),
                from: None,
                to: None,
                drop: None,
                promotes: false,
            },
        }
    }

    fn outcome_text(&self) -> Option<String> {
        let score = self.outcome()?;
        let (b, w) = (
            self.discs(Color::Black).count_ones(),
            self.discs(Color::White).count_ones(),
        );
        if score == Score::DRAW {
            return Some(format!("a draw {b}-{w}"));
        }
        let winner = if b > w { 'X' } else { 'O' };
        Some(format!("{winner} wins {}-{}", b.max(w), b.min(w)))
    }

    fn native_engine() -> Option<Box<dyn NativeEngine<Self>>> {
        Some(Box::<crate::native::OthelloEngine>::default())
    }

    fn exact(&self, stop: &AtomicBool) -> Option<(Score, Option<prune_othello::Move>)> {
        if self.empty_count() > OTHELLO_EXACT_EMPTIES {
            return None;
        }
        let r = EndgameSolver::new(4).solve_until(self.board(), -64, 64, stop)?;
        Some((Score::exact(r.score), r.best_move))
    }
}

impl RegisteredGame for C4 {
    const NAME: &'static str = "connect4";

    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError> {
        named_eval::<Self>(setup)?;
        Ok(visitor.visit(self, ThreatEval))
    }

    fn tree_depth(&self) -> TreeDepth {
        TreeDepth::Ends(self.default_depth())
    }

    fn read(text: &str) -> Result<Self, String> {
        C4::from_moves(text).map_err(|e| format!("{e}"))
    }

    /// The empty board's text is the empty move list; other positions keep no moves.
    fn text(&self) -> Option<String> {
        (self.moves_played() == 0).then(String::new)
    }

    fn text_after(&self, text: &str, mv: prune_connect4::Column) -> Option<String> {
        Some(format!("{}{mv}", text.trim()))
    }

    /// Proven results on Pons's scale (a win with the winner's k-th stone is 22 − k);
    /// heuristic values as they are.
    fn score_text(score: Score) -> String {
        match score.margin() {
            // A draw and an even heuristic value share the encoding: say neither.
            _ if score.is_infinite() => score.to_string(),
            Some(0) => "0".into(),
            Some(m) if m > 0 => format!("win, {m:+} on Pons's scale"),
            Some(m) => format!("loss, {m:+} on Pons's scale"),
            None => score.to_string(),
        }
    }

    fn default_depth(&self) -> u32 {
        (prune_connect4::CELLS - self.moves_played()).max(1)
    }

    fn moves_played(&self) -> Option<usize> {
        Some(prune_connect4::Position::moves_played(self) as usize)
    }

    fn board(&self) -> Option<BoardView> {
        const HEIGHT: usize = prune_connect4::HEIGHT as usize;
        const WIDTH: usize = prune_connect4::WIDTH as usize;
        let column = |c: usize| prune_connect4::Column::new(c as u8).expect("a column");
        let cells = (0..HEIGHT)
            .map(|top| {
                let row = (HEIGHT - 1 - top) as u32;
                (0..WIDTH)
                    .map(|c| {
                        self.stone(column(c), row).map(|first| Stone {
                            owner: if first { Side::First } else { Side::Second },
                            label: None,
                        })
                    })
                    .collect()
            })
            .collect();
        Some(BoardView {
            style: "drops",
            width: WIDTH,
            height: HEIGHT,
            cells,
            to_move: if self.first_player_to_move() {
                Side::First
            } else {
                Side::Second
            },
            hands: Vec::new(),
            files: (1..=WIDTH).map(|c| c.to_string()).collect(),
            ranks: (1..=HEIGHT).rev().map(|r| r.to_string()).collect(),
        })
    }

    fn move_view(&self, m: prune_connect4::Column) -> MoveView {
        const HEIGHT: usize = prune_connect4::HEIGHT as usize;
        let height = (0..HEIGHT as u32)
            .take_while(|&r| self.stone(m, r).is_some())
            .count();
        MoveView::at(m.to_string(), HEIGHT - 1 - height, usize::from(m.index()))
    }
}

/// The label of a shogi piece: its SFEN letter, `+` before a promoted one.
fn shogi_label(kind: Kind) -> String {
    if kind.unpromoted() == kind {
        kind.letter().to_string()
    } else {
        format!("+{}", kind.letter())
    }
}

/// A shogi square as (row from the top, column from the left): rank a on top, file 9 on the
/// left, as diagrams draw the board from Black's side.
fn shogi_cell(s: prune_shogi::Square) -> (usize, usize) {
    (usize::from(s.rank()), usize::from(9 - s.file()))
}

fn shogi_side(c: prune_shogi::Color) -> Side {
    match c {
        prune_shogi::Color::Black => Side::First,
        prune_shogi::Color::White => Side::Second,
    }
}

/// The shogi engine's scores: a pawn is 100; a mate found by the search is a proven result.
const SHOGI_MATE_WORDS: (&str, &str) = ("win: mate", "loss: mated");

impl RegisteredGame for Shogi {
    const NAME: &'static str = "shogi";

    /// `hand` (the default: king safety and danger, mobility) or `material`.
    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError> {
        Ok(match named_eval::<Self>(setup)? {
            "material" => visitor.visit(self, prune_shogi::MaterialEval),
            _ => visitor.visit(self, prune_shogi::HandMadeEval),
        })
    }

    /// An SFEN or `startpos`.
    fn read(text: &str) -> Result<Self, String> {
        text.parse().map_err(|e| format!("{e}"))
    }

    fn text(&self) -> Option<String> {
        Some(self.to_string())
    }

    fn score_text(score: Score) -> String {
        if score.is_infinite() {
            score.to_string()
        } else if score.is_win() {
            SHOGI_MATE_WORDS.0.into()
        } else if score.is_loss() {
            SHOGI_MATE_WORDS.1.into()
        } else {
            format!("{:+} cp", score.raw())
        }
    }

    fn moves_played(&self) -> Option<usize> {
        Some(self.move_number().saturating_sub(1) as usize)
    }

    fn native_engine() -> Option<Box<dyn NativeEngine<Self>>> {
        Some(Box::<crate::native::ShogiEngine>::default())
    }

    fn board(&self) -> Option<BoardView> {
        let cells = (0..9u8)
            .map(|rank| {
                (1..=9u8)
                    .rev()
                    .map(|file| {
                        let square = prune_shogi::Square::new(file, rank).expect("on the board");
                        self.piece(square).map(|p| Stone {
                            owner: shogi_side(p.color),
                            label: Some(shogi_label(p.kind)),
                        })
                    })
                    .collect()
            })
            .collect();
        let hands = [prune_shogi::Color::Black, prune_shogi::Color::White]
            .into_iter()
            .map(|color| Hand {
                owner: shogi_side(color),
                pieces: Kind::HAND
                    .iter()
                    .rev()
                    .filter_map(|&k| {
                        let n = self.in_hand(color, k);
                        (n > 0).then(|| (shogi_label(k), n))
                    })
                    .collect(),
            })
            .collect();
        Some(BoardView {
            style: "pieces",
            width: 9,
            height: 9,
            cells,
            to_move: shogi_side(self.side_to_move()),
            hands,
            files: (1..=9).rev().map(|f| f.to_string()).collect(),
            ranks: "abcdefghi".chars().map(String::from).collect(),
        })
    }

    fn move_view(&self, mv: prune_shogi::Move) -> MoveView {
        let name = self.move_name(mv);
        match mv {
            prune_shogi::Move::Normal { from, to, promote } => MoveView {
                name,
                from: Some(shogi_cell(from)),
                to: Some(shogi_cell(to)),
                drop: None,
                promotes: promote,
            },
            prune_shogi::Move::Drop { kind, to } => MoveView {
                name,
                from: None,
                to: Some(shogi_cell(to)),
                drop: Some(shogi_label(kind)),
                promotes: false,
            },
        }
    }
}

impl RegisteredGame for TicTacToe {
    const NAME: &'static str = "tictactoe";

    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError> {
        named_eval::<Self>(setup)?;
        Ok(visitor.visit(self, LineEval))
    }

    fn tree_depth(&self) -> TreeDepth {
        TreeDepth::Ends(self.default_depth())
    }

    /// Nine cells, rows split by `/` or new lines.
    fn read(text: &str) -> Result<Self, String> {
        text.parse().map_err(|e| format!("{e}"))
    }

    fn text(&self) -> Option<String> {
        Some(self.to_string().replace('\n', "/"))
    }

    fn score_text(score: Score) -> String {
        match score.margin() {
            _ if score.is_infinite() => score.to_string(),
            Some(0) => "0".into(),
            Some(m) if m > 0 => "win".into(),
            Some(_) => "loss".into(),
            None => format!("{:+} open lines", score.raw()),
        }
    }

    fn default_depth(&self) -> u32 {
        (self.legal_moves().len() as u32).max(1)
    }

    fn moves_played(&self) -> Option<usize> {
        Some(
            self.to_string()
                .chars()
                .filter(|&c| c == 'X' || c == 'O')
                .count(),
        )
    }

    fn board(&self) -> Option<BoardView> {
        let cells = self
            .to_string()
            .lines()
            .map(|l| {
                l.chars()
                    .map(|c| match c {
                        'X' => Some(Stone {
                            owner: Side::First,
                            label: None,
                        }),
                        'O' => Some(Stone {
                            owner: Side::Second,
                            label: None,
                        }),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        Some(BoardView {
            style: "marks",
            width: 3,
            height: 3,
            cells,
            to_move: if self.x_to_move() {
                Side::First
            } else {
                Side::Second
            },
            hands: Vec::new(),
            files: "abc".chars().map(String::from).collect(),
            ranks: (1..=3).map(|r| r.to_string()).collect(),
        })
    }

    fn move_view(&self, m: prune_games::Cell) -> MoveView {
        MoveView::at(m.to_string(), usize::from(m.0 / 3), usize::from(m.0 % 3))
    }
}

/// Synthetic trees start at their root, built from their parameters: no text form.
fn no_text<T>(name: &str) -> Result<T, String> {
    Err(format!(
        "{name}: a synthetic tree always starts at its root"
    ))
}

impl RegisteredGame for UniformNode {
    const NAME: &'static str = "uniform";

    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError> {
        named_eval::<Self>(setup)?;
        Ok(visitor.visit(self, NoisyEval::default()))
    }

    fn tree_depth(&self) -> TreeDepth {
        TreeDepth::Ends(self.plies_left())
    }

    fn read(_: &str) -> Result<Self, String> {
        no_text(Self::NAME)
    }
}

impl RegisteredGame for RandomNode {
    const NAME: &'static str = "random";

    fn visit<V: GameVisitor>(self, setup: &Setup, visitor: V) -> Result<V::Output, GameError> {
        named_eval::<Self>(setup)?;
        Ok(visitor.visit(self, RandomEval))
    }

    fn tree_depth(&self) -> TreeDepth {
        TreeDepth::Ends(self.plies_left())
    }

    fn read(_: &str) -> Result<Self, String> {
        no_text(Self::NAME)
    }
}
