//! The games of the page: a position as the page draws it ([`View`]), read from and written to
//! the same text forms as `--position` on the command line, and moves played by name.

use prune_connect4::Position as C4;
use prune_games::TicTacToe;
use prune_othello::{Color, Move, Position as Othello};
use prune_search::{Game, Score};
use serde::Serialize;

/// The games the page plays (the registry's names).
pub const PAGE_GAMES: [&str; 3] = ["othello", "connect4", "tictactoe"];

/// A legal move and the cell it marks (none for a pass).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LegalMove {
    /// The move's name, as `play` takes it.
    #[serde(rename = "move")]
    pub mv: String,
    /// The row of the cell it marks, from the top.
    pub row: Option<usize>,
    /// The column, from the left.
    pub col: Option<usize>,
}

/// A position as the page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct View {
    /// The game's name.
    pub game: &'static str,
    /// The position's text form, as `--position` takes it.
    pub position: String,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The rows from the top, one character a cell: `X`, `O` or `-`.
    pub cells: Vec<String>,
    /// `X` (the first player: black in Othello) or `O`.
    pub to_move: &'static str,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The result once the game is over.
    pub outcome: Option<Outcome>,
    /// Moves played from the start (Connect Four, tic-tac-toe) or discs on the board less the
    /// four of the start (Othello).
    pub moves_played: usize,
}

/// How a finished game ended.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Outcome {
    /// In words: `X wins 40-24`, `O wins`, `a draw`.
    pub text: String,
}

/// A game of the page: its text form and how it draws.
pub trait PageGame: Game + Sized + 'static {
    /// The registry's name.
    const NAME: &'static str;
    /// Reads a position (`None` or empty text: the start).
    fn read(text: Option<&str>) -> Result<Self, String>;
    /// The position's text form.
    fn text(&self) -> String;
    /// The view of the position whose text form is `text`.
    fn view(&self, text: String) -> View;
    /// The move called `name`, if it names a legal one.
    fn legal_move(&self, name: &str) -> Result<Self::Move, String> {
        let name = name.trim();
        self.legal_moves()
            .into_iter()
            .find(|&m| self.move_name(m).eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let legal: Vec<String> = self
                    .legal_moves()
                    .into_iter()
                    .map(|m| self.move_name(m))
                    .collect();
                if legal.is_empty() {
                    format!("move '{name}': the game is over")
                } else {
                    format!(
                        "move '{name}' is not legal here (legal: {})",
                        legal.join(", ")
                    )
                }
            })
    }

    /// A move's name, as the page and `play` use it.
    fn move_name(&self, mv: Self::Move) -> String {
        mv.to_string()
    }
}

/// The result of a finished game in words, `score` being the side to move's.
fn outcome_text(score: Score, to_move_is_x: bool, margin: Option<String>) -> String {
    let winner_x = match score.cmp(&Score::DRAW) {
        std::cmp::Ordering::Equal => return "a draw".into(),
        std::cmp::Ordering::Greater => to_move_is_x,
        std::cmp::Ordering::Less => !to_move_is_x,
    };
    let who = if winner_x { "X" } else { "O" };
    match margin {
        Some(m) => format!("{who} wins {m}"),
        None => format!("{who} wins"),
    }
}

impl PageGame for Othello {
    const NAME: &'static str = "othello";

    fn read(text: Option<&str>) -> Result<Self, String> {
        // An OBF line is the position, then `;` and the moves' scores.
        let text = text.map(|t| t.split(';').next().unwrap_or(t).trim());
        match text.filter(|t| !t.is_empty()) {
            None => Ok(Othello::START),
            Some(t) => t.parse().map_err(|e| format!("position: {e}")),
        }
    }

    fn text(&self) -> String {
        self.to_string()
    }

    fn move_name(&self, mv: Move) -> String {
        if mv == Move::PASS {
            "pass".into()
        } else {
            mv.to_string()
        }
    }

    fn view(&self, text: String) -> View {
        let (black, white) = (self.discs(Color::Black), self.discs(Color::White));
        let cells = (0..8)
            .map(|row| {
                (0..8)
                    .map(|col| {
                        let bit = 1u64 << (row * 8 + col);
                        if black & bit != 0 {
                            'X'
                        } else if white & bit != 0 {
                            'O'
                        } else {
                            '-'
                        }
                    })
                    .collect()
            })
            .collect();
        let legal = self
            .legal_moves()
            .into_iter()
            .map(|m| LegalMove {
                mv: self.move_name(m),
                row: m.square().map(|s| usize::from(s.rank())),
                col: m.square().map(|s| usize::from(s.file())),
            })
            .collect();
        let x_to_move = self.to_move() == Color::Black;
        let (b, w) = (black.count_ones(), white.count_ones());
        View {
            game: Self::NAME,
            position: text,
            width: 8,
            height: 8,
            cells,
            to_move: if x_to_move { "X" } else { "O" },
            legal,
            outcome: self.outcome().map(|s| Outcome {
                text: outcome_text(s, x_to_move, Some(format!("{}-{}", b.max(w), b.min(w)))),
            }),
            moves_played: (b + w).saturating_sub(4) as usize,
        }
    }
}

impl PageGame for C4 {
    const NAME: &'static str = "connect4";

    fn read(text: Option<&str>) -> Result<Self, String> {
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            None => Ok(C4::START),
            Some(t) => C4::from_moves(t).map_err(|e| format!("position: {e}")),
        }
    }

    /// Connect Four positions keep no move list: the page's text form is the moves played,
    /// which the caller keeps ([`play`] appends to it).
    fn text(&self) -> String {
        String::new()
    }

    fn view(&self, text: String) -> View {
        const HEIGHT: usize = prune_connect4::HEIGHT as usize;
        const WIDTH: usize = prune_connect4::WIDTH as usize;
        let column = |c: usize| prune_connect4::Column::new(c as u8).expect("a column");
        let cells = (0..HEIGHT)
            .map(|top| {
                let row = (HEIGHT - 1 - top) as u32;
                (0..WIDTH)
                    .map(|c| match self.stone(column(c), row) {
                        Some(true) => 'X',
                        Some(false) => 'O',
                        None => '-',
                    })
                    .collect()
            })
            .collect();
        let legal = self
            .legal_moves()
            .into_iter()
            .map(|m| {
                let c = usize::from(m.index());
                let height = (0..HEIGHT as u32)
                    .take_while(|&r| self.stone(m, r).is_some())
                    .count();
                LegalMove {
                    mv: m.to_string(),
                    row: Some(HEIGHT - 1 - height),
                    col: Some(c),
                }
            })
            .collect();
        let x_to_move = self.first_player_to_move();
        View {
            game: Self::NAME,
            position: text,
            width: WIDTH,
            height: HEIGHT,
            cells,
            to_move: if x_to_move { "X" } else { "O" },
            legal,
            outcome: self.outcome().map(|s| Outcome {
                text: outcome_text(s, x_to_move, None),
            }),
            moves_played: self.moves_played() as usize,
        }
    }
}

impl PageGame for TicTacToe {
    const NAME: &'static str = "tictactoe";

    fn read(text: Option<&str>) -> Result<Self, String> {
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            None => Ok(TicTacToe::new()),
            Some(t) => t.parse().map_err(|e| format!("position: {e}")),
        }
    }

    fn text(&self) -> String {
        self.to_string().replace('\n', "/")
    }

    fn view(&self, text: String) -> View {
        let cells = self
            .to_string()
            .lines()
            .map(|l| l.replace('.', "-"))
            .collect();
        let legal = self
            .legal_moves()
            .into_iter()
            .map(|m| LegalMove {
                mv: m.to_string(),
                row: Some(usize::from(m.0 / 3)),
                col: Some(usize::from(m.0 % 3)),
            })
            .collect();
        let x_to_move = self.x_to_move();
        let played = self
            .to_string()
            .chars()
            .filter(|c| *c == 'X' || *c == 'O')
            .count();
        View {
            game: Self::NAME,
            position: text,
            width: 3,
            height: 3,
            cells,
            to_move: if x_to_move { "X" } else { "O" },
            legal,
            outcome: self.outcome().map(|s| Outcome {
                text: outcome_text(s, x_to_move, None),
            }),
            moves_played: played,
        }
    }
}

/// The position after the move `name` in the position `text` of game `G`, as a view.
pub fn play<G: PageGame>(text: Option<&str>, name: &str) -> Result<View, String> {
    let game = G::read(text)?;
    let mv = game.legal_move(name)?;
    let after = game.play(mv);
    let after_text = if G::NAME == C4::NAME {
        format!("{}{}", text.unwrap_or("").trim(), game.move_name(mv))
    } else {
        after.text()
    };
    Ok(after.view(after_text))
}

/// The view of the position `text` of game `G`.
pub fn show<G: PageGame>(text: Option<&str>) -> Result<View, String> {
    let game = G::read(text)?;
    let text = if G::NAME == C4::NAME {
        text.unwrap_or("").trim().to_string()
    } else {
        game.text()
    };
    Ok(game.view(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_round_trip_through_their_text() {
        let v = show::<Othello>(None).unwrap();
        assert_eq!(
            (v.width, v.height, v.to_move, v.legal.len()),
            (8, 8, "X", 4)
        );
        assert_eq!(v.cells[3], "---OX---");
        let d3 = v.legal.iter().find(|m| m.mv == "d3").unwrap();
        assert_eq!((d3.row, d3.col), (Some(2), Some(3)));
        let after = play::<Othello>(Some(&v.position), "d3").unwrap();
        assert_eq!(after.to_move, "O");
        assert_eq!(show::<Othello>(Some(&after.position)).unwrap(), after);

        let c = play::<C4>(Some("44"), "3").unwrap();
        assert_eq!(c.position, "443");
        assert_eq!(
            (c.cells[5].as_str(), c.cells[4].as_str()),
            ("--XX---", "---O---")
        );
        assert_eq!(c.to_move, "O");
        let t = play::<TicTacToe>(None, "b2").unwrap();
        assert_eq!(t.cells, vec!["---", "-X-", "---"]);
        assert_eq!(show::<TicTacToe>(Some(&t.position)).unwrap(), t);
    }

    #[test]
    fn an_obf_line_is_an_othello_position() {
        // FFO #40 (crates/othello/data/ffo-40-59.obf): A2 wins by 38.
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let v = show::<Othello>(Some(line)).unwrap();
        assert_eq!(
            (v.to_move, v.legal.iter().any(|m| m.mv == "a2")),
            ("X", true)
        );
        assert!(!v.position.contains(';'));
    }

    #[test]
    fn illegal_moves_and_bad_positions_are_named() {
        let e = play::<Othello>(None, "a1").unwrap_err();
        assert!(e.contains("'a1' is not legal") && e.contains("d3"), "{e}");
        assert!(show::<Othello>(Some("XO"))
            .unwrap_err()
            .starts_with("position:"));
        assert!(play::<C4>(Some("4444444"), "1").is_err());
        let won = show::<TicTacToe>(Some("XXX/OO./...")).unwrap();
        assert_eq!(won.outcome.unwrap().text, "X wins");
        assert!(won.legal.is_empty());
    }
}
