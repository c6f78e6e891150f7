//! The games of the page: a position as the page draws it ([`View`]), read from and written to
//! the same text forms as `--position` on the command line, and moves played by name; all of
//! it from the game registry ([`prune_registry::RegisteredGame`]), so every game with a board
//! is on the page.

use prune_registry::{Hand, RegisteredGame};
use serde::Serialize;

/// A legal move, the cell it marks or reaches and, for shogi, where it comes from.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LegalMove {
    /// The move's name, as `play` takes it.
    #[serde(rename = "move")]
    pub mv: String,
    /// The row of the cell it marks or reaches, from the top (none for a pass).
    pub row: Option<usize>,
    /// The column, from the left.
    pub col: Option<usize>,
    /// The cell a piece leaves (row, column), for moves of a piece on the board.
    pub from: Option<(usize, usize)>,
    /// The kind dropped from the hand.
    pub drop: Option<String>,
    /// Whether the piece promotes.
    pub promotes: bool,
}

/// A position as the page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct View {
    /// The game's name.
    pub game: &'static str,
    /// The position's text form, as `--position` takes it.
    pub position: String,
    /// How the cells are drawn: `discs`, `drops`, `marks` or `pieces`.
    pub style: &'static str,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The rows from the top, one character a cell: `X`, `O` or `-`.
    pub cells: Vec<String>,
    /// The pieces' labels where the game's pieces differ (shogi), row by row.
    pub labels: Option<Vec<Vec<Option<String>>>>,
    /// The hands (shogi), the first player's first.
    pub hands: Vec<Hand>,
    /// The columns' names, from the left.
    pub files: Vec<String>,
    /// The rows' names, from the top.
    pub ranks: Vec<String>,
    /// `X` (the first player: black in Othello and shogi) or `O`.
    pub to_move: &'static str,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The result once the game is over.
    pub outcome: Option<Outcome>,
    /// Moves played from the start (Othello: discs on the board less the four of the start).
    pub moves_played: usize,
}

/// How a finished game ended.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Outcome {
    /// In words: `X wins 40-24`, `O wins`, `a draw`.
    pub text: String,
}

/// The games the page plays: the registry's games with a board.
pub fn page_games() -> Vec<&'static str> {
    prune_registry::board_games().map(|g| g.name).collect()
}

/// The view of the position `text` of the game called `game`, after the move `mv` if one is
/// given.
pub fn page_view(game: &str, text: Option<&str>, mv: Option<&str>) -> Result<View, String> {
    let choice = page_game(game)?;
    let setup = prune_registry::Setup {
        position: text,
        ..Default::default()
    };
    prune_registry::with_game(choice, &setup, Shown { text, mv }).map_err(|e| match e {
        prune_registry::GameError::Position(m) => format!("position: {m}"),
        e => e.to_string(),
    })?
}

/// The page's game called `name` (a name or alias of a game with a board).
pub fn page_game(name: &str) -> Result<prune_registry::GameChoice, String> {
    let unknown = || {
        format!(
            "game: unknown game '{}' (expected {})",
            name.trim(),
            page_games().join(", ")
        )
    };
    let info = prune_registry::info(name)
        .filter(|g| g.board)
        .ok_or_else(unknown)?;
    info.name.parse().map_err(|_| unknown())
}

/// Shows a position, or plays a move in it.
struct Shown<'a> {
    text: Option<&'a str>,
    mv: Option<&'a str>,
}

impl prune_registry::GameVisitor for Shown<'_> {
    type Output = Result<View, String>;
    fn visit<G: RegisteredGame, E: prune_search::Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        _: E,
    ) -> Self::Output {
        match self.mv {
            None => show(&game, self.text),
            Some(mv) => {
                let text = game
                    .text()
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| self.text.unwrap_or("").trim().to_string());
                play(&game, &text, mv)
            }
        }
    }
}

/// The view of `game`, whose text form is `text`; `None` for a game with no board.
pub fn view<G: RegisteredGame>(game: &G, text: String) -> Option<View> {
    let board = game.board()?;
    let labelled = board
        .cells
        .iter()
        .flatten()
        .flatten()
        .any(|s| s.label.is_some());
    let labels = labelled.then(|| {
        board
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| c.as_ref().and_then(|s| s.label.clone()))
                    .collect()
            })
            .collect()
    });
    let legal = game
        .legal_moves()
        .into_iter()
        .map(|m| {
            let v = game.move_view(m);
            LegalMove {
                mv: v.name,
                row: v.to.map(|t| t.0),
                col: v.to.map(|t| t.1),
                from: v.from,
                drop: v.drop,
                promotes: v.promotes,
            }
        })
        .collect();
    Some(View {
        game: G::NAME,
        position: text,
        style: board.style,
        width: board.width,
        height: board.height,
        cells: board.rows(),
        labels,
        hands: board.hands.clone(),
        files: board.files.clone(),
        ranks: board.ranks.clone(),
        to_move: if board.to_move == prune_registry::Side::First {
            "X"
        } else {
            "O"
        },
        legal,
        outcome: game.outcome_text().map(|text| Outcome { text }),
        moves_played: game.moves_played().unwrap_or(0),
    })
}

/// The position after the move `name` in `game` (whose text form is `text`), as a view.
pub fn play<G: RegisteredGame>(game: &G, text: &str, name: &str) -> Result<View, String> {
    let mv = game.find_move(name)?;
    let after = game.play(mv);
    let after_text = game
        .text_after(text, mv)
        .ok_or_else(|| format!("{} positions have no text form", G::NAME))?;
    view(&after, after_text).ok_or_else(|| format!("{} has no board to show", G::NAME))
}

/// The view of `game`, given as `text` (its own text form where it writes one).
pub fn show<G: RegisteredGame>(game: &G, text: Option<&str>) -> Result<View, String> {
    let text = game
        .text()
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| text.unwrap_or("").trim().to_string());
    view(game, text).ok_or_else(|| format!("{} has no board to show", G::NAME))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show_text(game: &str, text: Option<&str>) -> Result<View, String> {
        page_view(game, text, None)
    }

    fn play_text(game: &str, text: Option<&str>, mv: &str) -> Result<View, String> {
        page_view(game, text, Some(mv))
    }

    #[test]
    fn views_round_trip_through_their_text() {
        let v = show_text("othello", None).unwrap();
        assert_eq!(
            (v.width, v.height, v.to_move, v.legal.len()),
            (8, 8, "X", 4)
        );
        assert_eq!(v.cells[3], "---OX---");
        let d3 = v.legal.iter().find(|m| m.mv == "d3").unwrap();
        assert_eq!((d3.row, d3.col), (Some(2), Some(3)));
        let after = play_text("othello", Some(&v.position), "d3").unwrap();
        assert_eq!(after.to_move, "O");
        assert_eq!(show_text("othello", Some(&after.position)).unwrap(), after);

        let c = play_text("connect4", Some("44"), "3").unwrap();
        assert_eq!(c.position, "443");
        assert_eq!(
            (c.cells[5].as_str(), c.cells[4].as_str()),
            ("--XX---", "---O---")
        );
        assert_eq!(c.to_move, "O");
        let t = play_text("tictactoe", None, "b2").unwrap();
        assert_eq!(t.cells, vec!["---", "-X-", "---"]);
        assert_eq!(show_text("tictactoe", Some(&t.position)).unwrap(), t);
    }

    #[test]
    fn an_obf_line_is_an_othello_position() {
        // FFO #40 (crates/othello/data/ffo-40-59.obf): A2 wins by 38.
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let v = show_text("othello", Some(line)).unwrap();
        assert_eq!(
            (v.to_move, v.legal.iter().any(|m| m.mv == "a2")),
            ("X", true)
        );
        assert!(!v.position.contains(';'));
    }

    #[test]
    fn illegal_moves_and_bad_positions_are_named() {
        let e = play_text("othello", None, "a1").unwrap_err();
        assert!(e.contains("'a1' is not legal") && e.contains("d3"), "{e}");
        assert!(show_text("othello", Some("XO"))
            .unwrap_err()
            .starts_with("position:"));
        assert!(play_text("connect4", Some("4444444"), "1").is_err());
        let won = show_text("tictactoe", Some("XXX/OO./...")).unwrap();
        assert_eq!(won.outcome.unwrap().text, "X wins");
        assert!(won.legal.is_empty());
    }
}
