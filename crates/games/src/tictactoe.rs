//! Tic-tac-toe on two 9-bit boards relative to the side to move.

use std::fmt;
use std::str::FromStr;

use prune_search::{Evaluator, Game, Score};

/// The eight lines of three.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// A cell, `0..9` in reading order; shown as `a1`..`c3` (file a–c, rank 1–3, rank 1 on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl prune_search::MoveBits for Cell {
    fn to_bits(self) -> u32 {
        u32::from(self.0)
    }
    fn from_bits(bits: u32) -> Option<Self> {
        u8::try_from(bits).ok().filter(|&c| c < 9).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0 % 3) as char, self.0 / 3 + 1)
    }
}

impl FromStr for Cell {
    type Err = ParseTicTacToeError;
    fn from_str(s: &str) -> Result<Self, ParseTicTacToeError> {
        let b = s.trim().as_bytes();
        match b {
            [file @ b'a'..=b'c', rank @ b'1'..=b'3'] => Ok(Cell((rank - b'1') * 3 + (file - b'a'))),
            _ => Err(ParseTicTacToeError(format!(
                "'{s}' is not a tic-tac-toe cell (a1..c3)"
            ))),
        }
    }
}

/// A tic-tac-toe position. X moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    /// Cells of the side to move.
    mover: u16,
    /// Cells of the other side.
    other: u16,
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether X is to move (X moves first, so X moves when both have as many marks).
    pub fn x_to_move(&self) -> bool {
        self.mover.count_ones() == self.other.count_ones()
    }

    fn has_line(cells: u16) -> bool {
        LINES.iter().any(|&l| l & !cells == 0)
    }

    /// What stands on `cell`, as `'X'`, `'O'` or `'.'`.
    pub fn cell(&self, cell: Cell) -> char {
        let bit = 1 << cell.0;
        let (x, o) = if self.x_to_move() {
            (self.mover, self.other)
        } else {
            (self.other, self.mover)
        };
        if x & bit != 0 {
            'X'
        } else if o & bit != 0 {
            'O'
        } else {
            '.'
        }
    }
}

impl Game for TicTacToe {
    type Move = Cell;

    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        if self.outcome().is_some() {
            return;
        }
        let mut empty = FULL & !(self.mover | self.other);
        while empty != 0 {
            moves.push(Cell(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
    }

    fn play(&self, mv: Cell) -> Self {
        TicTacToe {
            mover: self.other,
            other: self.mover | (1 << mv.0),
        }
    }

    fn outcome(&self) -> Option<Score> {
        if Self::has_line(self.other) {
            Some(Score::LOSS)
        } else if Self::has_line(self.mover) {
            Some(Score::WIN) // only reachable from a hand-made position
        } else if self.mover | self.other == FULL {
            Some(Score::DRAW)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        crate::mix(u64::from(self.mover) | u64::from(self.other) << 9, 0x7717)
    }

    fn is_legal(&self, cell: Cell) -> bool {
        cell.0 < 9 && (self.mover | self.other) & (1 << cell.0) == 0 && self.outcome().is_none()
    }

    /// The other side to move on the same board. An extra mark never hurts in tic-tac-toe (a
    /// player may always ignore it), so there is no zugzwang and passing is never better than
    /// the best move: the null move's premise holds.
    fn null_move(&self) -> Option<Self> {
        self.outcome().is_none().then_some(TicTacToe {
            mover: self.other,
            other: self.mover,
        })
    }

    /// Tic-tac-toe's "check": the opponent has two marks on a line whose third cell is empty,
    /// and wins next move unless the side to move blocks it.
    fn in_check(&self) -> bool {
        let empty = FULL & !(self.mover | self.other);
        LINES
            .iter()
            .any(|&l| (l & self.other).count_ones() == 2 && (l & empty).count_ones() == 1)
    }

    const MOVE_INDICES: usize = 9;

    fn move_index(cell: Cell) -> Option<usize> {
        (cell.0 < 9).then_some(usize::from(cell.0))
    }
}

/// Three rows of `X`, `O` and `.`, rank 1 on top.
impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in 0..3u8 {
            for file in 0..3u8 {
                write!(f, "{}", self.cell(Cell(rank * 3 + file)))?;
            }
            if rank < 2 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// Why a tic-tac-toe position could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTicTacToeError(pub String);

impl fmt::Display for ParseTicTacToeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseTicTacToeError {}

/// Reads nine cells in reading order (`X`, `O`, `.` or `-`; `/` and whitespace are ignored, so
/// the three rows that [`Display`](fmt::Display) prints read back). The side to move follows
/// from the counts (X moves first).
impl FromStr for TicTacToe {
    type Err = ParseTicTacToeError;
    fn from_str(s: &str) -> Result<Self, ParseTicTacToeError> {
        let (mut x, mut o, mut n) = (0u16, 0u16, 0u32);
        for (col, ch) in s.chars().enumerate() {
            let bit = match ch {
                _ if ch == '/' || ch.is_whitespace() => continue,
                _ if n >= 9 => {
                    return Err(ParseTicTacToeError(format!(
                        "more than 9 cells at column {}",
                        col + 1
                    )))
                }
                _ => 1u16 << n,
            };
            match ch {
                'X' | 'x' => x |= bit,
                'O' | 'o' => o |= bit,
                '.' | '-' => {}
                _ => {
                    return Err(ParseTicTacToeError(format!(
                        "unexpected '{ch}' at column {} (expected X, O, . or -)",
                        col + 1
                    )))
                }
            }
            n += 1;
        }
        if n != 9 {
            return Err(ParseTicTacToeError(format!("expected 9 cells, found {n}")));
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(ParseTicTacToeError(format!(
                "{nx} X and {no} O cannot happen (X moves first)"
            )));
        }
        if TicTacToe::has_line(x) && TicTacToe::has_line(o) {
            return Err(ParseTicTacToeError("both sides have a line".into()));
        }
        Ok(if nx == no {
            TicTacToe { mover: x, other: o }
        } else {
            TicTacToe { mover: o, other: x }
        })
    }
}

/// A heuristic for depth-limited tic-tac-toe: lines still open to the side to move minus lines
/// still open to the opponent, with lines already holding two marks counting triple.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineEval;

impl Evaluator<TicTacToe> for LineEval {
    fn evaluate(&self, g: &TicTacToe) -> Score {
        let weight = |mine: u16, theirs: u16| -> i32 {
            LINES
                .iter()
                .filter(|&&l| l & theirs == 0)
                .map(|&l| if (l & mine).count_ones() == 2 { 3 } else { 1 })
                .sum()
        };
        Score::heuristic(weight(g.mover, g.other) - weight(g.other, g.mover))
    }

    /// Cells on more lines first: the centre, then the corners, then the edges.
    fn order_moves(&self, _: &TicTacToe, moves: &mut [Cell]) {
        moves.sort_by_key(|c| {
            std::cmp::Reverse(LINES.iter().filter(|&&l| l >> c.0 & 1 == 1).count())
        });
    }

    /// Two open lines more than the opponent (or one with two marks) is about a 73% chance.
    fn win_scale(&self) -> f64 {
        2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::perft;

    #[test]
    fn perft_counts_games() {
        // 9! = 362,880 move sequences of nine moves, fewer once wins end games early:
        // the number of complete games of tic-tac-toe is 255,168.
        let start = TicTacToe::new();
        assert_eq!(perft(&start, 1), 9);
        assert_eq!(perft(&start, 2), 72);
        assert_eq!(perft(&start, 9), 255_168);
    }

    #[test]
    fn parse_and_display() {
        let g: TicTacToe = "XO./.X./..O".parse().unwrap();
        assert!(g.x_to_move());
        assert_eq!(g.to_string(), "XO.\n.X.\n..O");
        assert_eq!(g.cell("b1".parse().unwrap()), 'O');
        assert!("XX.......".parse::<TicTacToe>().is_err());
        let err = "XO?......".parse::<TicTacToe>().unwrap_err().to_string();
        assert!(err.contains("column 3"), "{err}");
        assert!("XO".parse::<TicTacToe>().is_err());
    }

    #[test]
    fn a_printed_position_reads_back_as_the_same_position() {
        // Found by the `tictactoe_position` fuzz target: the newlines between the printed rows
        // were refused.
        let g: TicTacToe = std::str::from_utf8(b"XO./.X./..O")
            .unwrap()
            .parse()
            .unwrap();
        let printed = g.to_string();
        assert_eq!(printed, "XO.\n.X.\n..O");
        assert_eq!(printed.parse::<TicTacToe>(), Ok(g));
        assert_eq!("X O .\r\n\t. X .\n. . O".parse::<TicTacToe>(), Ok(g));
    }

    #[test]
    fn a_completed_line_ends_the_game() {
        let g: TicTacToe = "XXX/OO./...".parse().unwrap();
        assert_eq!(g.outcome(), Some(Score::LOSS)); // O to move has lost
        assert!(g.legal_moves().is_empty());
    }
}
