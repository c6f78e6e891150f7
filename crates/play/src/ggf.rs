//! GGF, the Generic Game Format of Othello servers and of the NBoard GUI, for one game:
//! `(;GM[Othello]PC[..]PB[black]PW[white]RE[?]TI[..]TY[8]BO[8 <64 squares> <side>]B[F5]W[F6];)`.
//! The board lists the squares a1, b1, ..., h8 as `*` (black), `O` (white) or `-`, then the side
//! to move; a move is a square or `PA` (pass), optionally followed by `/eval/time`.

use std::fmt;

use prune_othello::{Color, Move, Position};

use crate::GameRecord;

/// Why a GGF text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfError {
    /// The byte offset in the text where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GGF at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for GgfError {}

fn error(offset: usize, message: impl Into<String>) -> GgfError {
    GgfError {
        offset,
        message: message.into(),
    }
}

/// The properties `KEY[value]` of one game, in order, with the offset of each value.
fn properties(text: &str) -> Result<Vec<(String, String, usize)>, GgfError> {
    let start = text
        .find("(;")
        .ok_or_else(|| error(0, "no game: expected '(;' at the start"))?;
    // The end is looked for after the opening: in `(;)` the `;` belongs to the start.
    let end = text[start + 2..]
        .find(";)")
        .map(|e| start + 2 + e)
        .ok_or_else(|| error(text.len(), "unterminated game: expected ';)' at the end"))?;
    let body = &text[start + 2..end];
    let mut out = Vec::new();
    let mut rest = body;
    let mut offset = start + 2;
    loop {
        let trimmed = rest.trim_start();
        offset += rest.len() - trimmed.len();
        rest = trimmed;
        if rest.is_empty() {
            break;
        }
        let open = rest
            .find('[')
            .ok_or_else(|| error(offset, format!("expected KEY[value], found '{rest}'")))?;
        let key = &rest[..open];
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(error(offset, format!("bad property name '{key}'")));
        }
        let close = rest[open..]
            .find(']')
            .map(|c| open + c)
            .ok_or_else(|| error(offset + open, format!("property {key} has no closing ']'")))?;
        out.push((
            key.to_ascii_uppercase(),
            rest[open + 1..close].to_string(),
            offset + open + 1,
        ));
        offset += close + 1;
        rest = &rest[close + 1..];
    }
    Ok(out)
}

/// Reads the board of a `BO` property: `8 <64 squares> <side>`.
fn parse_board(value: &str, offset: usize) -> Result<Position, GgfError> {
    let mut parts = value.split_whitespace();
    let size = parts.next().unwrap_or("");
    if size != "8" {
        return Err(error(
            offset,
            format!("board size '{size}': only 8 is supported"),
        ));
    }
    let squares: String = parts.next().unwrap_or("").to_string();
    let side = parts.next().unwrap_or("");
    if squares.chars().count() != 64 {
        return Err(error(
            offset,
            format!("the board has {} squares, not 64", squares.chars().count()),
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in squares.chars().enumerate() {
        match c {
            '*' | 'X' | 'x' | 'B' | 'b' => black |= 1 << i,
            'O' | 'o' | 'W' | 'w' => white |= 1 << i,
            '-' | '.' | 'E' | 'e' => {}
            other => {
                return Err(error(
                    offset,
                    format!("square {} is '{other}' (expected *, O or -)", i + 1),
                ))
            }
        }
    }
    let to_move = match side {
        "*" | "X" | "x" | "B" | "b" => Color::Black,
        "O" | "o" | "W" | "w" => Color::White,
        other => {
            return Err(error(
                offset,
                format!("side to move '{other}' (expected * or O)"),
            ))
        }
    };
    Position::from_discs(black, white, to_move)
        .map_err(|e| error(offset, format!("impossible board: {e}")))
}

/// A move value that does not read as a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move '{value}': {source}")]
pub struct BadMove {
    /// The value given.
    pub value: String,
    /// What is wrong with its move.
    pub source: prune_othello::ParseError,
}

/// Reads a move value `F5`, `PA` or `F5/eval/time`.
pub fn parse_move(value: &str) -> Result<Move, BadMove> {
    let mv = value.split('/').next().unwrap_or("").trim();
    mv.parse::<Move>().map_err(|source| BadMove {
        value: value.to_string(),
        source,
    })
}

/// Reads one GGF game: its start position and moves, checked for legality.
pub fn parse_ggf(text: &str) -> Result<GameRecord, GgfError> {
    let props = properties(text)?;
    let mut game: Option<GameRecord> = None;
    for (key, value, offset) in props {
        match key.as_str() {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(error(offset, format!("the game is '{value}', not Othello")));
            }
            "BO" => {
                if game.is_some() {
                    return Err(error(offset, "a second board (BO)"));
                }
                game = Some(GameRecord::new(parse_board(&value, offset)?));
            }
            "B" | "W" => {
                let g = game
                    .as_mut()
                    .ok_or_else(|| error(offset, "a move before the board (BO)"))?;
                let color = if key == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let mv = parse_move(&value).map_err(|m| error(offset, m.to_string()))?;
                if g.current().to_move() != color {
                    // Some writers omit passes: insert the forced one.
                    if g.current().is_legal(Move::PASS) {
                        g.play(Move::PASS)
                            .map_err(|e| error(offset, e.to_string()))?;
                    } else {
                        return Err(error(
                            offset,
                            format!(
                                "{key}[{value}]: it is not {}'s turn",
                                crate::record::color_name(color)
                            ),
                        ));
                    }
                }
                g.play(mv).map_err(|e| error(offset, e.to_string()))?;
            }
            _ => {}
        }
    }
    game.ok_or_else(|| error(0, "no board (BO property)"))
}

/// The board of a `BO` property.
fn board_value(position: &Position) -> String {
    let (black, white) = (position.discs(Color::Black), position.discs(Color::White));
    let squares: String = (0..64)
        .map(|i| {
            if black >> i & 1 == 1 {
                '*'
            } else if white >> i & 1 == 1 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let side = match position.to_move() {
        Color::Black => '*',
        Color::White => 'O',
    };
    format!("8 {squares} {side}")
}

/// Writes `game` as GGF with the players' names (passes written as `PA`).
pub fn to_ggf(game: &GameRecord, black: &str, white: &str) -> String {
    let clean = |s: &str| s.replace(['[', ']'], "");
    let mut out = format!(
        "(;GM[Othello]PC[prune]PB[{}]PW[{}]RE[?]TI[0]TY[8]BO[{}]",
        clean(black),
        clean(white),
        board_value(game.start())
    );
    let mut color = game.start().to_move();
    for mv in game.moves() {
        let key = if color == Color::Black { 'B' } else { 'W' };
        let text = if mv.square().is_some() {
            mv.to_string().to_ascii_uppercase()
        } else {
            "PA".to_string()
        };
        out.push_str(&format!("{key}[{text}]"));
        color = color.opposite();
    }
    out.push_str(";)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example session of the NBoard protocol's documentation.
    const NBOARD_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]\
        PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O------------------\
        --------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn reads_the_nboard_example_and_writes_it_back() {
        let g = parse_ggf(NBOARD_EXAMPLE).unwrap();
        assert_eq!(g.start(), &Position::START);
        assert_eq!(g.moves().len(), 8);
        assert_eq!(g.moves()[0], "f5".parse().unwrap());
        let again = parse_ggf(&to_ggf(&g, "a", "b")).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn passes_and_move_annotations() {
        let mut g = GameRecord::default();
        g.play("f5".parse().unwrap()).unwrap();
        let text = to_ggf(&g, "x", "y").replace("B[F5]", "B[F5/1.50/0.2]");
        assert_eq!(parse_ggf(&text).unwrap(), g);
    }

    #[test]
    fn a_game_whose_start_and_end_share_the_semicolon_is_unterminated() {
        // Found by the `ggf_game` fuzz target: the `;` of `(;` was read as the start of `;)`.
        let text = std::str::from_utf8(b"(;)").unwrap();
        let err = parse_ggf(text).unwrap_err();
        assert_eq!(err.offset, 3);
        assert!(err.message.starts_with("unterminated game"), "{err}");
    }

    #[test]
    fn bad_games_are_refused_with_a_place() {
        for (bad, what) in [
            ("", "no game"),
            ("(;GM[Othello]BO[8 ", "unterminated"),
            ("(;GM[Chess]BO[8 x];)", "not Othello"),
            ("(;GM[Othello]B[F5];)", "before the board"),
            ("(;GM[Othello]BO[8 --- *];)", "not 64"),
            ("(;GM[Othello]BO[10 --- *];)", "only 8"),
            (&NBOARD_EXAMPLE.replace("B[F5]", "B[A1]"), "not legal"),
            (&NBOARD_EXAMPLE.replace("B[F5]", "B[Z9]"), "bad move"),
            (
                &NBOARD_EXAMPLE.replace("W[F6]", "B[F6]"),
                "not black's turn",
            ),
        ] {
            let err = parse_ggf(bad).unwrap_err().to_string();
            assert!(err.contains(what), "{bad}: {err}");
        }
    }
}
