//! Text forms of squares, moves and positions, and the errors of reading them.
//!
//! * A square is its file letter and rank digit, `a1` to `h8`; it prints in lower case and
//!   reads in either case.
//! * A move is a square or the pass, which prints as `PA` and reads as `PA`, `pa` or `pass`
//!   (in any case).
//! * A position is the 64 squares in the order a1, b1, .., h1, a2, .., h8 (`X` black, `O`
//!   white, `-` empty; `x`, `o` and `.` are read too), then whitespace, then the side to move,
//!   `X` or `O`: the board part of an OBF line.
//!
//! Errors carry the 1-based column (in characters) of the offending text.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::position::{Color, Position};
use crate::square::{Move, Square};

/// What is wrong with a piece of notation (see [`ParseError`] for where).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Nothing to read.
    #[error("empty input")]
    Empty,
    /// A board square that is not `X`, `O` or `-`.
    #[error("expected `X`, `O` or `-` for a square, found {0:?}")]
    BadSquareChar(char),
    /// The board ends before 64 squares.
    #[error("the board has {0} squares; expected 64")]
    ShortBoard(usize),
    /// Something other than whitespace right after the 64th square.
    #[error("expected whitespace after the 64 squares of the board, found {0:?}")]
    NoSpaceAfterBoard(char),
    /// The side to move is missing.
    #[error("missing side to move (`X` or `O`)")]
    MissingSide,
    /// The side to move is not `X` or `O`.
    #[error("bad side to move `{0}`; expected `X` or `O`")]
    BadSide(String),
    /// Text left over after a complete item.
    #[error("unexpected text `{0}`")]
    Trailing(String),
    /// Not a square `a1`..`h8`.
    #[error("bad square `{0}`; expected a1..h8")]
    BadSquare(String),
    /// Not a square or a pass.
    #[error("bad move `{0}`; expected a square a1..h8 or `PA` for a pass")]
    BadMove(String),
}

/// An error reading notation: what went wrong and at which column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct ParseError {
    /// The 1-based column (in characters) where the problem starts.
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    fn at(column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { column, kind }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + self.file());
        let rank = char::from(b'1' + self.rank());
        write!(f, "{file}{rank}")
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

/// The square named by a trimmed two-character token, if it is one.
fn square_from_token(token: &str) -> Option<Square> {
    match token.as_bytes() {
        [file, rank] => {
            let file = file.to_ascii_lowercase().wrapping_sub(b'a');
            let rank = rank.wrapping_sub(b'1');
            Square::from_coords(file, rank)
        }
        _ => None,
    }
}

/// The number of characters of `text` before its first non-whitespace one.
fn leading_space(text: &str) -> usize {
    text.chars().take_while(|c| c.is_whitespace()).count()
}

impl FromStr for Square {
    type Err = ParseError;

    /// Reads `a1`..`h8` in either case; surrounding whitespace is allowed.
    fn from_str(text: &str) -> Result<Square, ParseError> {
        let token = text.trim();
        let column = leading_space(text) + 1;
        if token.is_empty() {
            return Err(ParseError::at(column, ParseErrorKind::Empty));
        }
        square_from_token(token)
            .ok_or_else(|| ParseError::at(column, ParseErrorKind::BadSquare(token.to_string())))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            Some(square) => square.fmt(f),
            None => f.write_str("PA"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// Reads a square (`a1`..`h8`, either case) or a pass (`PA`, `pass`, any case); surrounding
    /// whitespace is allowed.
    fn from_str(text: &str) -> Result<Move, ParseError> {
        let token = text.trim();
        let column = leading_space(text) + 1;
        if token.is_empty() {
            return Err(ParseError::at(column, ParseErrorKind::Empty));
        }
        if token.eq_ignore_ascii_case("pa") || token.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        square_from_token(token)
            .map(Move::from_square)
            .ok_or_else(|| ParseError::at(column, ParseErrorKind::BadMove(token.to_string())))
    }
}

impl fmt::Display for Color {
    /// `X` for black, `O` for white (as in notation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

impl fmt::Display for Position {
    /// The 64 squares, a space and the side to move: `---...XO-- X`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = (self.discs(Color::Black), self.discs(Color::White));
        let mut text = String::with_capacity(66);
        for index in 0..64 {
            let bit = 1u64 << index;
            text.push(if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            });
        }
        text.push(' ');
        text.push(self.to_move().symbol());
        f.write_str(&text)
    }
}

impl FromStr for Position {
    type Err = ParseError;

    /// Reads the 64 squares, whitespace and the side to move; whitespace around the whole is
    /// allowed, nothing else.
    fn from_str(text: &str) -> Result<Position, ParseError> {
        let (position, rest, rest_column) = parse_position_prefix(text)?;
        let trailing = rest.trim();
        if trailing.is_empty() {
            Ok(position)
        } else {
            let column = rest_column + leading_space(rest);
            Err(ParseError::at(
                column,
                ParseErrorKind::Trailing(trailing.to_string()),
            ))
        }
    }
}

/// Reads a position from the start of `text` (leading whitespace allowed) and returns it with
/// the unread rest of `text` and the 1-based column where that rest starts. The side to move
/// is the first whitespace-delimited token after the board.
pub(crate) fn parse_position_prefix(text: &str) -> Result<(Position, &str, usize), ParseError> {
    let mut chars = text.char_indices().peekable();
    let mut column = 1;
    while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {
        column += 1;
    }
    if chars.peek().is_none() {
        return Err(ParseError::at(column, ParseErrorKind::Empty));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for index in 0..64 {
        let Some((_, c)) = chars.next_if(|(_, c)| !c.is_whitespace()) else {
            return Err(ParseError::at(column, ParseErrorKind::ShortBoard(index)));
        };
        match c {
            'X' | 'x' => black |= 1 << index,
            'O' | 'o' => white |= 1 << index,
            '-' | '.' => {}
            _ => return Err(ParseError::at(column, ParseErrorKind::BadSquareChar(c))),
        }
        column += 1;
    }
    let mut spaces = 0;
    while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {
        spaces += 1;
    }
    let side_start = chars.peek().map_or(text.len(), |&(i, _)| i);
    if let (0, Some(&(_, c))) = (spaces, chars.peek()) {
        return Err(ParseError::at(column, ParseErrorKind::NoSpaceAfterBoard(c)));
    }
    column += spaces;
    let side_len = text[side_start..]
        .find(char::is_whitespace)
        .unwrap_or(text.len() - side_start);
    let side = &text[side_start..side_start + side_len];
    let to_move = match side {
        "" => return Err(ParseError::at(column, ParseErrorKind::MissingSide)),
        "X" | "x" => Color::Black,
        "O" | "o" => Color::White,
        _ => return Err(ParseError::at(column, ParseErrorKind::BadSide(side.into()))),
    };
    let (player, opponent) = match to_move {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    // A square holds one character, so the masks cannot overlap.
    let board = Board::from_disjoint_bits(player, opponent);
    let rest = &text[side_start + side_len..];
    Ok((
        Position::new(board, to_move),
        rest,
        column + side.chars().count(),
    ))
}

impl From<Square> for String {
    fn from(square: Square) -> String {
        square.to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = ParseError;
    fn try_from(text: String) -> Result<Square, ParseError> {
        text.parse()
    }
}

impl From<Move> for String {
    fn from(mv: Move) -> String {
        mv.to_string()
    }
}

impl TryFrom<String> for Move {
    type Error = ParseError;
    fn try_from(text: String) -> Result<Move, ParseError> {
        text.parse()
    }
}

impl From<Position> for String {
    fn from(position: Position) -> String {
        position.to_string()
    }
}

impl TryFrom<String> for Position {
    type Error = ParseError;
    fn try_from(text: String) -> Result<Position, ParseError> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::Game;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn squares_round_trip() {
        for index in 0..64 {
            let square = Square::new(index).unwrap();
            let text = square.to_string();
            assert_eq!(text.parse::<Square>(), Ok(square));
            assert_eq!(text.to_uppercase().parse::<Square>(), Ok(square));
        }
        assert_eq!(Square::new(0).unwrap().to_string(), "a1");
        assert_eq!(Square::new(63).unwrap().to_string(), "h8");
        assert_eq!(Square::new(27).unwrap().to_string(), "d4");
    }

    #[test]
    fn moves_round_trip() {
        for index in 0..=64 {
            let mv = Move::new(index).unwrap();
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
        for pass in ["PA", "pa", "pass", "PASS", " Pa "] {
            assert_eq!(pass.parse::<Move>(), Ok(Move::PASS), "{pass}");
        }
        assert_eq!(Move::PASS.to_string(), "PA");
        assert_eq!("H8".parse::<Move>().unwrap().to_string(), "h8");
    }

    #[test]
    fn bad_squares_and_moves() {
        let err = "i1".parse::<Square>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "column 1: bad square `i1`; expected a1..h8"
        );
        let err = "  a9".parse::<Move>().unwrap_err();
        assert_eq!(err.column, 3);
        assert_eq!(err.kind, ParseErrorKind::BadMove("a9".into()));
        assert_eq!("".parse::<Move>().unwrap_err().kind, ParseErrorKind::Empty);
        assert!("pa".parse::<Square>().is_err());
        assert!("a10".parse::<Move>().is_err());
        assert!("é1".parse::<Move>().is_err());
    }

    #[test]
    fn positions_round_trip() {
        let start: Position = START.parse().unwrap();
        assert_eq!(start, Position::START);
        assert_eq!(start.to_string(), START);
        let mut p = start;
        for _ in 0..12 {
            let moves = p.legal_moves();
            let Some(&mv) = moves.last() else { break };
            p = p.play(mv).unwrap();
            assert_eq!(p.to_string().parse::<Position>(), Ok(p), "{p}");
        }
        assert_eq!(p.to_move(), Color::Black, "twelve plies, no passes");
        let loose = format!(
            "  {}\tx  ",
            START.replace('-', ".").split(' ').next().unwrap()
        );
        assert_eq!(loose.parse::<Position>(), Ok(Position::START));
        let white: Position = START.replace(" X", " O").parse().unwrap();
        assert_eq!(white.to_move(), Color::White);
        assert_eq!(white.board().player(), Board::START.opponent());
    }

    #[test]
    fn position_errors_name_the_column() {
        let bad_char = START.replacen('-', "?", 1);
        let err = bad_char.parse::<Position>().unwrap_err();
        assert_eq!(err, ParseError::at(1, ParseErrorKind::BadSquareChar('?')));
        let mut chars: Vec<char> = START.chars().collect();
        chars[40] = 'Z';
        let err = chars
            .iter()
            .collect::<String>()
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "column 41: expected `X`, `O` or `-` for a square, found 'Z'"
        );
        let err = "XO-- X".parse::<Position>().unwrap_err();
        assert_eq!(err, ParseError::at(5, ParseErrorKind::ShortBoard(4)));
        let err = START.replace(" X", " W").parse::<Position>().unwrap_err();
        assert_eq!(err, ParseError::at(66, ParseErrorKind::BadSide("W".into())));
        let err = START.replace(" X", "").parse::<Position>().unwrap_err();
        assert_eq!(err, ParseError::at(65, ParseErrorKind::MissingSide));
        let err = START.replace(" X", "-X").parse::<Position>().unwrap_err();
        assert_eq!(
            err,
            ParseError::at(65, ParseErrorKind::NoSpaceAfterBoard('-'))
        );
        let err = format!("{START} extra").parse::<Position>().unwrap_err();
        assert_eq!(
            err,
            ParseError::at(68, ParseErrorKind::Trailing("extra".into()))
        );
        let err = "   ".parse::<Position>().unwrap_err();
        assert_eq!(err, ParseError::at(4, ParseErrorKind::Empty));
    }

    #[test]
    fn serde_uses_notation() {
        let json = serde_json::to_string(&Position::START).unwrap();
        assert_eq!(json, format!("\"{START}\""));
        assert_eq!(
            serde_json::from_str::<Position>(&json).unwrap(),
            Position::START
        );
        let moves = serde_json::to_string(&[Move::PASS, "c4".parse().unwrap()]).unwrap();
        assert_eq!(moves, r#"["PA","c4"]"#);
        assert!(serde_json::from_str::<Move>("\"z9\"").is_err());
    }
}
