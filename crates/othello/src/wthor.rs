//! WTHOR game databases: the format of the Fédération Française d'Othello's game files
//! (`.wtb`) and of the player and tournament names they refer to (`.JOU`, `.TRN`).
//!
//! A `.wtb` file is a 16-byte header followed by one 68-byte record per game (all numbers
//! little-endian):
//!
//! | header bytes | field |
//! |---|---|
//! | 0–3 | century, year, month and day the file was made |
//! | 4–7 | the number of games |
//! | 8–9 | the number of records (0 in game files) |
//! | 10–11 | the year of the games |
//! | 12 | the board size, 8 (0 also means 8) |
//! | 13 | the game type |
//! | 14 | the depth P of the theoretical scores (exact play from P empties; 0: none) |
//!
//! | record bytes | field |
//! |---|---|
//! | 0–1, 2–3, 4–5 | the tournament, black player and white player (indices into the names) |
//! | 6 | black's disc count at the end of the game as played |
//! | 7 | black's theoretical disc count: the final count under perfect play from P empties |
//! | 8–67 | the moves, `10 × rank + file` (11 = a1, 18 = h1, 88 = h8), 0 after the last; passes are not written |
//!
//! A name file is the same 16-byte header with its number of names in bytes 8–9, then the
//! names, NUL-padded, 20 bytes each for players and 26 for tournaments.
//!
//! [`WthorGame::replay`] plays a game's moves from the start position, passing where the side
//! to move has no move, and says which move of which game is not legal.

use crate::board::Board;
use crate::position::Color;
use crate::square::Square;

/// The size of a file header.
pub const HEADER_BYTES: usize = 16;
/// The size of one game's record.
pub const GAME_BYTES: usize = 68;
/// The width of a player's name in a `.JOU` file.
pub const PLAYER_NAME_BYTES: usize = 20;
/// The width of a tournament's name in a `.TRN` file.
pub const TOURNAMENT_NAME_BYTES: usize = 26;

/// A `.wtb` file's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorHeader {
    /// Century, year (of the century), month and day the file was made.
    pub created: [u8; 4],
    /// The number of games the header announces.
    pub games: u32,
    /// The year of the games.
    pub year: u16,
    /// The game type byte.
    pub game_type: u8,
    /// The number of empties from which the theoretical scores are exact play (0: the file
    /// has none).
    pub depth: u8,
}

/// One game of a `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// The tournament's index in the `.TRN` names.
    pub tournament: u16,
    /// Black's index in the `.JOU` names.
    pub black: u16,
    /// White's index in the `.JOU` names.
    pub white: u16,
    /// Black's disc count at the end as recorded (not always the replayed count: see the
    /// data's README).
    pub black_discs: u8,
    /// Black's disc count under perfect play from the position with
    /// [`WthorHeader::depth`] empties (meaningless when the depth is 0).
    pub theoretical: u8,
    /// The moves in order, passes left out.
    pub moves: Vec<Square>,
}

/// A whole `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    /// Its header.
    pub header: WthorHeader,
    /// Its games in file order.
    pub games: Vec<WthorGame>,
}

/// What is wrong with a WTHOR file, and where (games and moves are numbered from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WthorError {
    /// Shorter than a header.
    #[error("{len} bytes: too short for the 16-byte header")]
    NoHeader {
        /// The file's length.
        len: usize,
    },
    /// The length does not fit the number of records the header announces.
    #[error(
        "{len} bytes, but the header announces {count} records of {width} bytes \
         ({expected} bytes in all)"
    )]
    Length {
        /// The file's length.
        len: usize,
        /// The records announced.
        count: usize,
        /// One record's size.
        width: usize,
        /// The length they make with the header.
        expected: usize,
    },
    /// A board size other than 8.
    #[error("board size {size}: only 8x8 games are read")]
    BoardSize {
        /// The header's board size byte.
        size: u8,
    },
    /// A move byte that names no square.
    #[error(
        "game {game}, move {ply}: byte {byte} is no square (expected 11-88, rank then file, 1-8)"
    )]
    BadSquare {
        /// The game's number in the file, from 1.
        game: usize,
        /// The move's number in the game, from 1.
        ply: usize,
        /// The byte found.
        byte: u8,
    },
    /// A move after the 0 that ends the moves.
    #[error("game {game}, move {ply}: byte {byte} after the 0 that ended the game's moves")]
    AfterEnd {
        /// The game's number in the file, from 1.
        game: usize,
        /// The move's number in the game, from 1.
        ply: usize,
        /// The byte found.
        byte: u8,
    },
    /// A disc count above 64.
    #[error("game {game}: {what} {count} is above 64")]
    BadCount {
        /// The game's number in the file, from 1.
        game: usize,
        /// Which count.
        what: &'static str,
        /// The value found.
        count: u8,
    },
    /// A move that is not legal where it is played.
    #[error("game {game}, move {ply} ({square}): not legal for {}{after_end}", color_name(*.color))]
    Illegal {
        /// The game's number in the file, from 1.
        game: usize,
        /// The move's number in the game, from 1.
        ply: usize,
        /// The square played.
        square: Square,
        /// The side that had to move.
        color: Color,
        /// Set when the game was already over (neither side could move).
        after_end: &'static str,
    },
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// Checks a header and the file's length against `width`-byte records counted by `count`.
fn check_length(bytes: &[u8], count: usize, width: usize) -> Result<(), WthorError> {
    let expected = HEADER_BYTES + count * width;
    if bytes.len() != expected {
        return Err(WthorError::Length {
            len: bytes.len(),
            count,
            width,
            expected,
        });
    }
    Ok(())
}

/// The square of a move byte (`10 × rank + file`, both 1–8).
fn square_of(byte: u8) -> Option<Square> {
    let (rank, file) = (byte / 10, byte % 10);
    if (1..=8).contains(&rank) && (1..=8).contains(&file) {
        Square::from_coords(file - 1, rank - 1)
    } else {
        None
    }
}

/// Reads a `.wtb` file's bytes: the header and every game's record (the moves' squares are
/// checked, their legality is [`WthorGame::replay`]'s).
pub fn parse_wtb(bytes: &[u8]) -> Result<WthorFile, WthorError> {
    if bytes.len() < HEADER_BYTES {
        return Err(WthorError::NoHeader { len: bytes.len() });
    }
    let header = WthorHeader {
        created: [bytes[0], bytes[1], bytes[2], bytes[3]],
        games: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
        year: u16_at(bytes, 10),
        game_type: bytes[13],
        depth: bytes[14],
    };
    if bytes[12] != 8 && bytes[12] != 0 {
        return Err(WthorError::BoardSize { size: bytes[12] });
    }
    check_length(bytes, header.games as usize, GAME_BYTES)?;
    let mut games = Vec::with_capacity(header.games as usize);
    for (index, record) in bytes[HEADER_BYTES..].chunks_exact(GAME_BYTES).enumerate() {
        let game = index + 1;
        for (what, count) in [
            ("black's disc count", record[6]),
            ("theoretical count", record[7]),
        ] {
            if count > 64 {
                return Err(WthorError::BadCount { game, what, count });
            }
        }
        let mut moves = Vec::with_capacity(60);
        let mut ended = false;
        for (i, &byte) in record[8..].iter().enumerate() {
            let ply = i + 1;
            if byte == 0 {
                ended = true;
            } else if ended {
                return Err(WthorError::AfterEnd { game, ply, byte });
            } else {
                moves.push(square_of(byte).ok_or(WthorError::BadSquare { game, ply, byte })?);
            }
        }
        games.push(WthorGame {
            tournament: u16_at(record, 0),
            black: u16_at(record, 2),
            white: u16_at(record, 4),
            black_discs: record[6],
            theoretical: record[7],
            moves,
        });
    }
    Ok(WthorFile { header, games })
}

/// Reads a name file's bytes (`.JOU` with `width` [`PLAYER_NAME_BYTES`], `.TRN` with
/// [`TOURNAMENT_NAME_BYTES`]): the names in order, NUL padding removed, bytes read as
/// Latin-1.
pub fn parse_names(bytes: &[u8], width: usize) -> Result<Vec<String>, WthorError> {
    if bytes.len() < HEADER_BYTES {
        return Err(WthorError::NoHeader { len: bytes.len() });
    }
    let count = usize::from(u16_at(bytes, 8));
    check_length(bytes, count, width)?;
    Ok(bytes[HEADER_BYTES..]
        .chunks_exact(width)
        .map(|name| {
            let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
            name[..end].iter().map(|&b| char::from(b)).collect()
        })
        .collect())
}

/// A game replayed: every position in which a move was played, and the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Before each move: the board (relative to the side to move) and that side's colour.
    /// Passes are not positions of their own: the board is the one after the pass.
    pub positions: Vec<(Board, Color)>,
    /// The position after the last move, relative to its side to move.
    pub last: (Board, Color),
    /// Whether the game is over there (neither side can move).
    pub finished: bool,
}

impl Replay {
    /// Black's final disc margin (empties to the winner) if the game was played to its end.
    pub fn black_margin(&self) -> Option<i32> {
        let (board, color) = self.last;
        self.finished.then(|| match color {
            Color::Black => board.final_score(),
            Color::White => -board.final_score(),
        })
    }

    /// The position with `empties` empty squares in which a move was played, if the game
    /// reached it.
    pub fn at_empties(&self, empties: u32) -> Option<(Board, Color)> {
        self.positions
            .iter()
            .chain(std::iter::once(&self.last))
            .find(|(b, _)| b.empty_count() == empties)
            .copied()
    }
}

impl WthorGame {
    /// Plays the moves from the start position (black first), passing where the side to move
    /// has no legal move; `game` is the game's number (from 1) for the error.
    pub fn replay(&self, game: usize) -> Result<Replay, WthorError> {
        let mut board = Board::START;
        let mut color = Color::Black;
        let mut positions = Vec::with_capacity(self.moves.len());
        for (i, &square) in self.moves.iter().enumerate() {
            if board.must_pass() && !board.is_game_over() {
                board = board.pass();
                color = color.opposite();
            }
            if !board.is_legal(square) {
                return Err(WthorError::Illegal {
                    game,
                    ply: i + 1,
                    square,
                    color,
                    after_end: if board.is_game_over() {
                        " (the game was over)"
                    } else {
                        ""
                    },
                });
            }
            positions.push((board, color));
            board = board.play_unchecked(square);
            color = color.opposite();
        }
        if board.must_pass() && !board.is_game_over() {
            board = board.pass();
            color = color.opposite();
        }
        Ok(Replay {
            positions,
            last: (board, color),
            finished: board.is_game_over(),
        })
    }

    /// Black's theoretical margin (twice the theoretical count minus 64: empties go to the
    /// winner).
    pub fn theoretical_margin(&self) -> i32 {
        2 * i32::from(self.theoretical) - 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `games` records built from move lists.
    fn file(depth: u8, games: &[(&[&str], u8, u8)]) -> Vec<u8> {
        let mut bytes = vec![20, 26, 1, 1];
        bytes.extend((games.len() as u32).to_le_bytes());
        bytes.extend([0, 0]);
        bytes.extend(2026u16.to_le_bytes());
        bytes.extend([8, 0, depth, 0]);
        for (moves, black, theoretical) in games {
            bytes.extend([1, 0, 2, 0, 3, 0, *black, *theoretical]);
            let mut record = [0u8; 60];
            for (slot, m) in record.iter_mut().zip(moves.iter()) {
                let s: Square = m.parse().unwrap();
                *slot = 10 * (s.rank() + 1) + s.file() + 1;
            }
            bytes.extend(record);
        }
        bytes
    }

    #[test]
    fn reads_and_replays_a_game() {
        let bytes = file(24, &[(&["f5", "f6", "e6", "f4"], 34, 33)]);
        let f = parse_wtb(&bytes).unwrap();
        assert_eq!(f.header.games, 1);
        assert_eq!(f.header.depth, 24);
        assert_eq!(f.header.year, 2026);
        let g = &f.games[0];
        assert_eq!((g.tournament, g.black, g.white), (1, 2, 3));
        assert_eq!(g.theoretical_margin(), 2);
        assert_eq!(g.moves.len(), 4);
        let r = g.replay(1).unwrap();
        assert_eq!(r.positions.len(), 4);
        assert_eq!(r.positions[0], (Board::START, Color::Black));
        assert_eq!(r.positions[1].1, Color::White);
        assert!(!r.finished);
        assert_eq!(r.black_margin(), None);
        assert_eq!(r.last.0.empty_count(), 56);
    }

    #[test]
    fn a_game_played_to_its_end_is_scored() {
        // A whole game, each side playing its first legal move (passes left out, as WTHOR
        // writes them), replayed from its record.
        let mut board = Board::START;
        let mut color = Color::Black;
        let mut moves = Vec::new();
        while !board.is_game_over() {
            if board.must_pass() {
                board = board.pass();
                color = color.opposite();
                continue;
            }
            let square = crate::squares(board.moves()).next().unwrap();
            moves.push(square.to_string());
            board = board.play_unchecked(square);
            color = color.opposite();
        }
        let margin = match color {
            Color::Black => board.final_score(),
            Color::White => -board.final_score(),
        };
        let names: Vec<&str> = moves.iter().map(String::as_str).collect();
        let bytes = file(0, &[(&names, 0, 0)]);
        let r = parse_wtb(&bytes).unwrap().games[0].replay(1).unwrap();
        assert!(r.finished);
        assert_eq!(r.positions.len(), moves.len());
        assert_eq!(r.black_margin(), Some(margin));
        assert_eq!(r.at_empties(60).unwrap(), (Board::START, Color::Black));
    }

    #[test]
    fn errors_name_the_game_and_the_move() {
        let bytes = file(24, &[(&["f5"], 0, 0), (&["f5", "a1"], 0, 0)]);
        let err = parse_wtb(&bytes).unwrap().games[1].replay(2).unwrap_err();
        assert_eq!(err.to_string(), "game 2, move 2 (a1): not legal for white");

        let mut bad = file(24, &[(&["f5"], 0, 0)]);
        bad[HEADER_BYTES + 9] = 19;
        assert_eq!(
            parse_wtb(&bad).unwrap_err().to_string(),
            "game 1, move 2: byte 19 is no square (expected 11-88, rank then file, 1-8)"
        );
        let mut bad = file(24, &[(&["f5"], 0, 0)]);
        bad[HEADER_BYTES + 10] = 44;
        assert!(matches!(
            parse_wtb(&bad),
            Err(WthorError::AfterEnd {
                game: 1,
                ply: 3,
                byte: 44
            })
        ));
        let mut bad = file(24, &[(&["f5"], 0, 0)]);
        bad[HEADER_BYTES + 6] = 65;
        assert!(matches!(
            parse_wtb(&bad),
            Err(WthorError::BadCount { game: 1, .. })
        ));
        let mut short = file(24, &[(&["f5"], 0, 0)]);
        short.pop();
        assert!(matches!(
            parse_wtb(&short),
            Err(WthorError::Length {
                len: 83,
                count: 1,
                expected: 84,
                ..
            })
        ));
        assert!(matches!(
            parse_wtb(&[0; 5]),
            Err(WthorError::NoHeader { len: 5 })
        ));
        let mut big = file(24, &[]);
        big[12] = 10;
        assert!(matches!(
            parse_wtb(&big),
            Err(WthorError::BoardSize { size: 10 })
        ));
    }

    #[test]
    fn names() {
        let mut bytes = vec![0u8; HEADER_BYTES];
        bytes[8] = 2;
        bytes.extend(b"Alice\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
        bytes.extend(b"Bob\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
        assert_eq!(
            parse_names(&bytes, PLAYER_NAME_BYTES).unwrap(),
            ["Alice", "Bob"]
        );
        assert!(parse_names(&bytes, TOURNAMENT_NAME_BYTES).is_err());
    }
}
