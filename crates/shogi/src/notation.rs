//! SFEN positions and USI moves.

use std::fmt;
use std::str::FromStr;

use crate::position::{Color, Kind, Move, Piece, Position, Square};

/// The start position in SFEN.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why a position or a move could not be read: what is wrong, and at which character (from 1)
/// when it is about a character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The column of the offending character, from 1 (`None`: the text as a whole).
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "column {c}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

fn at(column: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        column: Some(column),
        message: message.into(),
    }
}

pub(crate) fn whole(message: impl Into<String>) -> ParseError {
    ParseError {
        column: None,
        message: message.into(),
    }
}

/// The SFEN letter of an unpromoted kind (upper case).
pub(crate) fn letter(kind: Kind) -> char {
    match kind.unpromoted() {
        Kind::Pawn => 'P',
        Kind::Lance => 'L',
        Kind::Knight => 'N',
        Kind::Silver => 'S',
        Kind::Gold => 'G',
        Kind::Bishop => 'B',
        Kind::Rook => 'R',
        _ => 'K',
    }
}

fn kind_of(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'P' => Kind::Pawn,
        'L' => Kind::Lance,
        'N' => Kind::Knight,
        'S' => Kind::Silver,
        'G' => Kind::Gold,
        'B' => Kind::Bishop,
        'R' => Kind::Rook,
        'K' => Kind::King,
        _ => return None,
    })
}

impl Kind {
    /// The letter of SFEN and USI (upper case): `P L N S G B R K`; a promoted kind has its
    /// unpromoted kind's letter (SFEN marks the promotion with `+`).
    pub fn letter(self) -> char {
        letter(self.unpromoted())
    }
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        START_SFEN
            .parse()
            .expect("the start position's SFEN is valid")
    }
}

impl FromStr for Position {
    type Err = ParseError;

    /// An SFEN (`board side hands [move number]`), or `startpos`.
    fn from_str(text: &str) -> Result<Position, ParseError> {
        let text = text.trim();
        let text = if text == "startpos" { START_SFEN } else { text };
        let fields: Vec<(usize, &str)> = text
            .split_whitespace()
            .map(|f| (f.as_ptr() as usize - text.as_ptr() as usize + 1, f))
            .collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(whole(format!(
                "expected an SFEN of 3 or 4 fields (board, side, hands, move number), got {}",
                fields.len()
            )));
        }
        let mut board = [None; 81];
        let (start, rows_text) = fields[0];
        let rows: Vec<&str> = rows_text.split('/').collect();
        if rows.len() != 9 {
            return Err(at(
                start,
                format!(
                    "the board has {} ranks; expected 9 separated by '/'",
                    rows.len()
                ),
            ));
        }
        let mut offset = start;
        for (rank, row) in rows.iter().enumerate() {
            let mut file = 9i32;
            let mut promoted = false;
            for (i, c) in row.char_indices() {
                let column = offset + i;
                if c == '+' {
                    promoted = true;
                    continue;
                }
                if let Some(d) = c.to_digit(10) {
                    if promoted || d == 0 {
                        return Err(at(
                            column,
                            format!("'{c}' is not a piece or a count of empty squares here"),
                        ));
                    }
                    file -= d as i32;
                } else {
                    let kind = kind_of(c).ok_or_else(|| {
                        at(
                            column,
                            format!("'{c}' is not a piece (PLNSGBRK, lower case for White)"),
                        )
                    })?;
                    let kind = if promoted {
                        kind.promoted().ok_or_else(|| {
                            at(column, format!("'+{c}': this piece does not promote"))
                        })?
                    } else {
                        kind
                    };
                    promoted = false;
                    if file < 1 {
                        return Err(at(
                            column,
                            format!(
                                "rank {} has more than 9 squares",
                                (b'a' + rank as u8) as char
                            ),
                        ));
                    }
                    let color = if c.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let sq = Square::new(file as u8, rank as u8).expect("on the board");
                    board[sq.0 as usize] = Some(Piece { color, kind });
                    file -= 1;
                }
                if file < 0 {
                    return Err(at(
                        column,
                        format!(
                            "rank {} has more than 9 squares",
                            (b'a' + rank as u8) as char
                        ),
                    ));
                }
            }
            if promoted {
                return Err(at(offset + row.len(), "'+' with no piece after it"));
            }
            if file != 0 {
                return Err(at(
                    offset,
                    format!(
                        "rank {} has {} squares; expected 9",
                        (b'a' + rank as u8) as char,
                        9 - file
                    ),
                ));
            }
            offset += row.len() + 1;
        }
        let (side_at, side) = fields[1];
        let side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            other => {
                return Err(at(
                    side_at,
                    format!("side to move '{other}': expected b or w"),
                ))
            }
        };
        let mut hands = [[0u8; 7]; 2];
        let (hands_at, hands_text) = fields[2];
        if hands_text != "-" {
            let mut count: u32 = 0;
            for (i, c) in hands_text.char_indices() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d;
                    if count > 18 {
                        return Err(at(hands_at + i, "a count in hand above 18"));
                    }
                    continue;
                }
                let kind = kind_of(c).filter(|k| *k != Kind::King).ok_or_else(|| {
                    at(
                        hands_at + i,
                        format!("'{c}' is not a piece that can be in hand"),
                    )
                })?;
                let color = if c.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let n = if count == 0 { 1 } else { count };
                let held = &mut hands[color as usize][kind.hand_index().expect("a hand kind")];
                let most = match kind {
                    Kind::Pawn => 18,
                    Kind::Bishop | Kind::Rook => 2,
                    _ => 4,
                };
                if u32::from(*held) + n > most {
                    return Err(at(
                        hands_at + i,
                        format!("more than {most} of '{c}' in hand (the game has {most})"),
                    ));
                }
                *held += n as u8;
                count = 0;
            }
            if count != 0 {
                return Err(at(
                    hands_at + hands_text.len(),
                    "a count in hand with no piece after it",
                ));
            }
        }
        let ply = match fields.get(3) {
            Some(&(ply_at, n)) => n.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                at(
                    ply_at,
                    format!("move number '{n}': expected a number from 1"),
                )
            })?,
            None => 1,
        };
        let kings = |c: Color| {
            board
                .iter()
                .filter(|p| {
                    **p == Some(Piece {
                        color: c,
                        kind: Kind::King,
                    })
                })
                .count()
        };
        if kings(Color::Black) > 1 || kings(Color::White) > 1 {
            return Err(whole("a side has more than one king"));
        }
        Ok(Position::from_parts(board, hands, side, ply))
    }
}

impl fmt::Display for Position {
    /// SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in 0..9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("on the board");
                match self.piece(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        if p.kind != p.kind.unpromoted() {
                            f.write_str("+")?;
                        }
                        let c = letter(p.kind);
                        let c = if p.color == Color::Black {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        };
                        write!(f, "{c}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank < 8 {
                f.write_str("/")?;
            }
        }
        let side = if self.side == Color::Black { 'b' } else { 'w' };
        write!(f, " {side} ")?;
        let mut hands = String::new();
        for color in [Color::Black, Color::White] {
            for &kind in Kind::HAND.iter().rev() {
                let n = self.in_hand(color, kind);
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                let c = letter(kind);
                hands.push(if color == Color::Black {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        write!(f, "{hands} {}", self.ply)
    }
}

fn square_at(text: &str, column: usize) -> Result<Square, ParseError> {
    let b = text.as_bytes();
    match b {
        [f @ b'1'..=b'9', r @ b'a'..=b'i'] => {
            Ok(Square::new(f - b'0', r - b'a').expect("in range"))
        }
        _ => Err(at(column, format!("'{text}' is not a square (1a to 9i)"))),
    }
}

/// Reads a USI move and checks it is legal in `position`.
pub(crate) fn parse_usi_move(position: &Position, text: &str) -> Result<Move, ParseError> {
    let t = text.trim();
    let mv = if let Some((piece, to)) = t.split_once('*') {
        let kind = match piece.chars().collect::<Vec<_>>()[..] {
            [c] if c.is_ascii_uppercase() => kind_of(c).filter(|k| k.hand_index().is_some()),
            _ => None,
        }
        .ok_or_else(|| {
            at(
                1,
                format!("'{piece}' is not a piece to drop (P, L, N, S, G, B or R)"),
            )
        })?;
        Move::Drop {
            kind,
            to: square_at(to, piece.len() + 2)?,
        }
    } else {
        let (body, promote) = match t.strip_suffix('+') {
            Some(b) => (b, true),
            None => (t, false),
        };
        if body.len() != 4 || !body.is_ascii() {
            return Err(whole(format!(
                "'{t}' is not a USI move (such as 7g7f, 8h2b+ or P*5e)"
            )));
        }
        Move::Normal {
            from: square_at(&body[..2], 1)?,
            to: square_at(&body[2..], 3)?,
            promote,
        }
    };
    if position.legal_moves().contains(&mv) {
        Ok(mv)
    } else {
        Err(whole(format!(
            "move {t} is not legal here: {}",
            why_illegal(position, mv)
        )))
    }
}

/// Why a well-formed move is not legal in `p`.
fn why_illegal(p: &Position, mv: Move) -> String {
    let us = p.side_to_move();
    let name = |k: Kind| format!("{k:?}").to_ascii_lowercase();
    match mv {
        Move::Drop { kind, to } => {
            if p.in_hand(us, kind) == 0 {
                return format!("no {} in hand", name(kind));
            }
            if p.piece(to).is_some() {
                return format!("{to} is occupied");
            }
        }
        Move::Normal { from, to, .. } => match p.piece(from) {
            None => return format!("no piece on {from}"),
            Some(piece) if piece.color != us => {
                return format!("the piece on {from} is not the side to move's")
            }
            Some(_) if p.piece(to).is_some_and(|q| q.color == us) => {
                return format!("{to} holds a piece of the side to move")
            }
            Some(_) => {}
        },
    }
    let mut pseudo = Vec::new();
    p.pseudo_moves(&mut pseudo, false);
    if !pseudo.contains(&mv) {
        return match mv {
            Move::Normal { from, to, promote } => {
                let other = Move::Normal {
                    from,
                    to,
                    promote: !promote,
                };
                if !pseudo.contains(&other) {
                    format!("the piece on {from} cannot move to {to}")
                } else if promote {
                    "this piece may not promote on this move (it does not promote, or neither \
                     square is in the promotion zone)"
                        .to_string()
                } else {
                    format!("the piece must promote on {to}: it could never move again")
                }
            }
            Move::Drop { kind, to } => {
                if kind == Kind::Pawn
                    && (0..9).any(|rank| {
                        Square::new(to.file(), rank).and_then(|s| p.piece(s))
                            == Some(Piece {
                                color: us,
                                kind: Kind::Pawn,
                            })
                    })
                {
                    format!("a second unpromoted pawn on file {} (nifu)", to.file())
                } else {
                    format!("a {} dropped on {to} could never move", name(kind))
                }
            }
        };
    }
    if matches!(
        mv,
        Move::Drop {
            kind: Kind::Pawn,
            ..
        }
    ) && !p.play(mv).leaves_mover_in_check()
    {
        return "a pawn drop that mates (uchifuzume)".to_string();
    }
    "it leaves the king in check".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_round_trips() {
        let start: Position = "startpos".parse().unwrap();
        assert_eq!(start.to_string(), START_SFEN);
        let many = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
        assert_eq!(many.parse::<Position>().unwrap().to_string(), many);
        let promoted = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
        assert_eq!(promoted.parse::<Position>().unwrap().to_string(), promoted);
    }

    #[test]
    fn bad_sfen_names_what_and_where() {
        let e = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1"
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("rank i has 8 squares"), "{e}");
        let e = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("side to move 'x'"), "{e}");
        let e = "lnsgkgsnl/1r5b1/ppppppppq/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(e.column, Some(25), "{e}");
        assert!("9/9/9 b - 1".parse::<Position>().is_err());
    }

    /// Found by the `shogi_notation` fuzz target: a rank ending in '+' was read as if the '+'
    /// were not there, and a hand could hold more pieces of a kind than the game has (34
    /// bishops, one letter at a time), which then printed as a count the reader refuses.
    #[test]
    fn a_dangling_promotion_and_an_impossible_hand_are_refused() {
        let e = "ln1g1gsnl/1r1s2k2/p1pppp1pp/6p2/1p7/2P6+/PPSPPPPPP/2G4R1/LN2KGSNL b Bb 1"
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("'+' with no piece after it"), "{e}");
        assert_eq!(e.column, Some(41), "{e}");
        let e = "4k4/9/9/9/9/9/9/9/4K4 b BBB 1"
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("more than 2 of 'B' in hand"), "{e}");
        let e = "4k4/9/9/9/9/9/9/9/4K4 b 5g 1"
            .parse::<Position>()
            .unwrap_err();
        assert!(e.to_string().contains("more than 4 of 'g' in hand"), "{e}");
        let p: Position = "4k4/9/9/9/9/9/9/9/4K4 b 2R4G18P 1".parse().unwrap();
        assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
    }

    #[test]
    fn usi_moves_read_and_print() {
        let start: Position = "startpos".parse().unwrap();
        let mv = start.parse_move("7g7f").unwrap();
        assert_eq!(mv.to_string(), "7g7f");
        assert!(start
            .parse_move("7g7e")
            .unwrap_err()
            .to_string()
            .contains("not legal"));
        assert!(start.parse_move("P*5e").is_err());
        assert!(start.parse_move("zz").is_err());
        let after = start
            .play(mv)
            .play(start.play(mv).parse_move("3c3d").unwrap());
        let capture = after.parse_move("8h2b+").unwrap();
        assert_eq!(capture.to_string(), "8h2b+");
        let next = after.play(capture);
        assert_eq!(next.in_hand(Color::Black, Kind::Bishop), 1);
    }

    #[test]
    fn an_illegal_move_says_why() {
        let reason = |sfen: &str, mv: &str| {
            let p: Position = sfen.parse().unwrap();
            p.parse_move(mv).unwrap_err().to_string()
        };
        let start = START_SFEN;
        let cases = [
            (start, "P*5e", "no pawn in hand"),
            (start, "5e5d", "no piece on 5e"),
            (start, "3c3d", "not the side to move's"),
            (start, "7i7g", "7g holds a piece of the side to move"),
            (start, "7g7e", "cannot move to 7e"),
            (start, "7g7f+", "may not promote"),
            // A pawn reaching the last rank must promote.
            ("4k4/8P/9/9/9/9/9/9/4K4 b - 1", "1b1a", "must promote on 1a"),
            ("4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*5b", "could never move"),
            ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5c", "nifu"),
            ("7lk/9/7G1/9/9/9/9/9/K8 b P 1", "P*1b", "uchifuzume"),
            (
                "4k4/9/9/9/9/9/9/4r4/4K4 b G 1",
                "G*1e",
                "leaves the king in check",
            ),
            ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5i", "5i is occupied"),
        ];
        for (sfen, mv, expected) in cases {
            let e = reason(sfen, mv);
            assert!(e.contains(expected), "{sfen} {mv}: {e}");
        }
    }
}
