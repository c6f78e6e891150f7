//! The Connect Four position on two bitboards, its moves and their notation.
//!
//! Bit `7 * c + r` is column `c` (0 = leftmost), row `r` (0 = bottom). Each column has seven
//! bits: six for the cells and a seventh, always empty, that stops a line from running over the
//! top of one column into the bottom of the next. Lines of four are found with four shifts:
//! 1 (vertical), 7 (horizontal), 6 and 8 (the two diagonals).

use std::fmt;
use std::str::FromStr;

use prune_search::{Game, MoveBits, Score};

/// Columns of the board.
pub const WIDTH: u32 = 7;
/// Rows of the board.
pub const HEIGHT: u32 = 6;
/// Cells of the board: the most moves a game can last.
pub const CELLS: u32 = WIDTH * HEIGHT;

/// Bits per column (the cells and the empty sentinel above them).
const STRIDE: u32 = HEIGHT + 1;
/// The bottom cell of every column.
pub(crate) const BOTTOM: u64 = bottom_mask();
/// Every cell of the board (no sentinel).
pub(crate) const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

const fn bottom_mask() -> u64 {
    let mut mask = 0;
    let mut c = 0;
    while c < WIDTH {
        mask |= 1 << (c * STRIDE);
        c += 1;
    }
    mask
}

/// Every cell of column `c`.
pub(crate) const fn column_mask(c: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (c * STRIDE)
}

/// The columns from the centre outwards, the order in which good moves are most often found.
pub const CENTRE_FIRST: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];

/// The cells that would complete a line of four for the owner of `stones` (whether they are
/// empty or not): every cell with three of `stones` in line with it.
pub(crate) fn winning_cells(stones: u64) -> u64 {
    // Vertical: three stones directly below.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [STRIDE, STRIDE - 1, STRIDE + 1] {
        // Pairs of stones `shift` apart, seen from above and from below.
        let up = (stones << shift) & (stones << (2 * shift));
        cells |= up & (stones << (3 * shift)); // three on one side
        cells |= up & (stones >> shift); // two on one side, one on the other
        let down = (stones >> shift) & (stones >> (2 * shift));
        cells |= down & (stones << shift);
        cells |= down & (stones >> (3 * shift));
    }
    cells & BOARD
}

/// Whether `stones` hold a line of four.
pub(crate) fn has_four(stones: u64) -> bool {
    for shift in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let pairs = stones & (stones >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// A column to drop a stone into, `0..7` inside; written `1`–`7` (left to right) as in the
/// test sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(u8);

impl Column {
    /// The column with index `index` (`0..7`), if there is one.
    pub const fn new(index: u8) -> Option<Column> {
        if (index as u32) < WIDTH {
            Some(Column(index))
        } else {
            None
        }
    }

    /// The index, `0..7` from the left.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The number players write, `1..=7`.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The column seen in the mirror (1 ↔ 7).
    pub const fn mirror(self) -> Column {
        Column(WIDTH as u8 - 1 - self.0)
    }
}

impl MoveBits for Column {
    fn to_bits(self) -> u32 {
        u32::from(self.0)
    }
    fn from_bits(bits: u32) -> Option<Self> {
        u8::try_from(bits).ok().and_then(Column::new)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl FromStr for Column {
    type Err = MoveError;
    fn from_str(text: &str) -> Result<Column, MoveError> {
        match text.trim().as_bytes() {
            [digit @ b'1'..=b'7'] => Ok(Column(digit - b'1')),
            _ => Err(MoveError {
                offset: 0,
                kind: MoveErrorKind::NotAColumn(text.trim().to_string()),
            }),
        }
    }
}

/// Why a move (or a move string) was refused, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} (character {character}): {kind}", number = self.offset + 1, character = self.offset + 1)]
pub struct MoveError {
    /// The offset of the offending move in the string, from 0 (each move is one character).
    pub offset: usize,
    /// What is wrong with it.
    pub kind: MoveErrorKind,
}

/// What is wrong with a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveErrorKind {
    /// Not a column number 1–7.
    #[error("'{0}' is not a column (1-7)")]
    NotAColumn(String),
    /// The column has six stones already.
    #[error("column {0} is full")]
    ColumnFull(Column),
    /// A player already has four in a row: the game is over.
    #[error("the game is already won, no move may follow")]
    GameOver,
}

/// A Connect Four position: the stones of the side to move, all the stones, and the number of
/// moves played (which says who is to move: the first player when it is even).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    mover: u64,
    mask: u64,
    moves: u8,
}

impl Position {
    /// The empty board, the first player to move.
    pub const START: Position = Position {
        mover: 0,
        mask: 0,
        moves: 0,
    };

    /// The position after the moves of `text`, each a column `1`–`7`, from the empty board.
    /// Spaces are not allowed inside (the test sets have none); an empty string is the start.
    pub fn from_moves(text: &str) -> Result<Position, MoveError> {
        let mut position = Position::START;
        for (offset, ch) in text.chars().enumerate() {
            let column = match ch {
                '1'..='7' => Column(ch as u8 - b'1'),
                _ => {
                    return Err(MoveError {
                        offset,
                        kind: MoveErrorKind::NotAColumn(ch.to_string()),
                    })
                }
            };
            position = position
                .try_play(column)
                .map_err(|kind| MoveError { offset, kind })?;
        }
        Ok(position)
    }

    /// The position after `column`, or why that move is not allowed.
    pub fn try_play(&self, column: Column) -> Result<Position, MoveErrorKind> {
        if self.is_won() {
            Err(MoveErrorKind::GameOver)
        } else if !self.can_play(column) {
            Err(MoveErrorKind::ColumnFull(column))
        } else {
            Ok(self.play_column(column))
        }
    }

    /// Moves played so far.
    pub const fn moves_played(&self) -> u32 {
        self.moves as u32
    }

    /// Whether the first player (who moved first) is to move.
    pub const fn first_player_to_move(&self) -> bool {
        self.moves & 1 == 0
    }

    /// Whether `column` has room for another stone.
    pub const fn can_play(&self, column: Column) -> bool {
        self.mask & top_cell(column.0 as u32) == 0
    }

    /// The position after dropping a stone into `column`, which must have room.
    pub const fn play_column(&self, column: Column) -> Position {
        self.play_cell(
            (self.mask + (1 << (column.0 as u32 * STRIDE))) & column_mask(column.0 as u32),
        )
    }

    /// The position after the side to move takes `cell` (one bit: the lowest empty cell of a
    /// column).
    pub(crate) const fn play_cell(&self, cell: u64) -> Position {
        Position {
            mover: self.mover ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
        }
    }

    /// The stones of the side to move.
    pub(crate) const fn mover(&self) -> u64 {
        self.mover
    }

    /// Every stone on the board.
    pub(crate) const fn mask(&self) -> u64 {
        self.mask
    }

    /// The stones of the player who just moved.
    pub(crate) const fn opponent(&self) -> u64 {
        self.mover ^ self.mask
    }

    /// The lowest empty cell of every column that has one.
    pub(crate) const fn playable(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// Whether the player who just moved has four in a row.
    pub fn is_won(&self) -> bool {
        has_four(self.opponent())
    }

    /// The cells where the side to move would complete four, playable now or not.
    pub(crate) fn mover_threats(&self) -> u64 {
        winning_cells(self.mover) & !self.mask
    }

    /// The cells where the opponent would complete four, playable now or not.
    pub(crate) fn opponent_threats(&self) -> u64 {
        winning_cells(self.opponent()) & !self.mask
    }

    /// Whether the side to move can connect four with its next stone.
    pub fn can_win_now(&self) -> bool {
        self.mover_threats() & self.playable() != 0
    }

    /// Whether dropping into `column` (which must have room) connects four.
    pub fn is_winning_move(&self, column: Column) -> bool {
        self.mover_threats() & self.playable() & column_mask(column.0 as u32) != 0
    }

    /// The playable cells that do not hand the opponent an immediate win: a cell that blocks
    /// an opponent's four if there is one (none if there are two, the game is lost), never a
    /// cell right below an opponent's four. Only meaningful when the side to move cannot win
    /// at once.
    pub(crate) fn non_losing_cells(&self) -> u64 {
        let playable = self.playable();
        let threats = self.opponent_threats();
        let forced = playable & threats;
        let candidates = if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two cells to block: one of them stays open
            }
            forced
        } else {
            playable
        };
        candidates & !(threats >> 1)
    }

    /// A number unique to the position (the side to move's stones plus one bit above each
    /// column's top stone); below 2⁴⁹.
    pub const fn key(&self) -> u64 {
        self.mover + self.mask
    }

    /// The key of the position seen in the mirror (columns 1 ↔ 7).
    pub const fn mirror_key(&self) -> u64 {
        mirror(self.key())
    }

    /// The stone at `column`, `row` (row 0 at the bottom): `Some(true)` for the first player's,
    /// `Some(false)` for the second's, `None` for an empty cell.
    pub fn stone(&self, column: Column, row: u32) -> Option<bool> {
        if row >= HEIGHT {
            return None;
        }
        let bit = 1u64 << (column.0 as u32 * STRIDE + row);
        if self.mask & bit == 0 {
            return None;
        }
        let mover_owns = self.mover & bit != 0;
        Some(mover_owns == self.first_player_to_move())
    }

    /// The test sets' score of a game that is over, for the side to move: `-(22 - n)` when the
    /// opponent has just connected four with its `n`-th stone, 0 when the board is full
    /// (`None` while the game goes on).
    pub fn final_score(&self) -> Option<i32> {
        if self.is_won() {
            let winner_stones = (self.moves as i32 + 1) / 2;
            Some(-(22 - winner_stones))
        } else if self.moves as u32 == CELLS {
            Some(0)
        } else {
            None
        }
    }

    /// The score of the test sets for a win by the side to move with its next stone: 22 minus
    /// the number of stones it will have played.
    pub const fn win_now_score(&self) -> i32 {
        (CELLS as i32 + 1 - self.moves as i32) / 2
    }
}

/// The topmost cell of column `c`.
const fn top_cell(c: u32) -> u64 {
    1 << (HEIGHT - 1 + c * STRIDE)
}

/// Column `c` of `bits` moved to column `6 - c`.
pub(crate) const fn mirror(bits: u64) -> u64 {
    let col = (1 << STRIDE) - 1;
    let mut out = 0;
    let mut c = 0;
    while c < WIDTH {
        let from = c * STRIDE;
        let to = (WIDTH - 1 - c) * STRIDE;
        out |= ((bits >> from) & col) << to;
        c += 1;
    }
    out
}

impl Game for Position {
    type Move = Column;

    fn generate_moves(&self, moves: &mut Vec<Column>) {
        if self.is_won() {
            return;
        }
        for c in 0..WIDTH as u8 {
            if self.can_play(Column(c)) {
                moves.push(Column(c));
            }
        }
    }

    fn play(&self, column: Column) -> Position {
        self.play_column(column)
    }

    /// A loss by `22 - n` when the opponent has just connected four with its `n`-th stone (the
    /// test sets' score, as a proven margin), a draw when the board is full.
    fn outcome(&self) -> Option<Score> {
        self.final_score().map(Score::exact)
    }

    fn hash(&self) -> u64 {
        prune_search::rng::mix(self.key(), 0xC4)
    }

    fn is_legal(&self, column: Column) -> bool {
        column.0 < WIDTH as u8 && self.can_play(column) && !self.is_won()
    }

    const MOVE_INDICES: usize = WIDTH as usize;

    fn move_index(column: Column) -> Option<usize> {
        (u32::from(column.0) < WIDTH).then_some(usize::from(column.0))
    }
}

/// The moves that lead to a position, in the order they were played, can't be read back from
/// the bitboards; a position prints as six rows of `X` (first player), `O` and `.`, the top row
/// first, then the side to move.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..HEIGHT).rev() {
            for c in 0..WIDTH as u8 {
                let ch = match self.stone(Column(c), row) {
                    Some(true) => 'X',
                    Some(false) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        write!(
            f,
            "1234567  {} to move",
            if self.first_player_to_move() {
                "X"
            } else {
                "O"
            }
        )
    }
}

/// A position written as its moves: `4453` (`""` is the empty board).
impl FromStr for Position {
    type Err = MoveError;
    fn from_str(text: &str) -> Result<Position, MoveError> {
        Position::from_moves(text.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_in_every_direction_is_found_and_three_is_not() {
        let vertical = Position::from_moves("1212121").unwrap();
        assert!(vertical.is_won());
        let horizontal = Position::from_moves("1122334").unwrap();
        assert!(horizontal.is_won());
        let three = Position::from_moves("112233").unwrap();
        assert!(!three.is_won());
        assert!(three.can_win_now());
        assert!(three.is_winning_move(Column(3)));
        // A rising diagonal for X: a1 b2 c3 d4.
        let diagonal = Position::from_moves("12233434464").unwrap();
        assert!(diagonal.is_won(), "{diagonal}");
        // A falling one: d1 c2 b3 a4.
        let falling = Position::from_moves("43322121151").unwrap();
        assert!(falling.is_won(), "{falling}");
    }

    #[test]
    fn lines_do_not_wrap_from_one_column_into_the_next() {
        // Three stones at the top of column 1 and one at the bottom of column 2 are not a line.
        let stones = (0b111 << 3) | (1 << STRIDE);
        assert!(!has_four(stones));
        assert_eq!(winning_cells(0b111 << 3) & (1 << STRIDE), 0);
    }

    #[test]
    fn bad_moves_name_where_and_why() {
        let e = Position::from_moves("44a4").unwrap_err();
        assert_eq!(e.offset, 2);
        assert_eq!(e.kind, MoveErrorKind::NotAColumn("a".into()));
        assert_eq!(
            e.to_string(),
            "move 3 (character 3): 'a' is not a column (1-7)"
        );
        assert_eq!(
            Position::from_moves("1111111").unwrap_err().kind,
            MoveErrorKind::ColumnFull(Column(0))
        );
        assert_eq!(
            Position::from_moves("12121214").unwrap_err().kind,
            MoveErrorKind::GameOver
        );
        assert_eq!(
            Position::from_moves("0").unwrap_err().kind,
            MoveErrorKind::NotAColumn("0".into())
        );
    }

    #[test]
    fn outcome_uses_the_test_sets_scores() {
        // X wins with its 4th stone: 22 - 4 = 18 for X, so O (to move) has lost by 18.
        let p = Position::from_moves("1212121").unwrap();
        assert_eq!(p.outcome(), Some(Score::exact(-18)));
        assert_eq!(Position::START.outcome(), None);
        let before = Position::from_moves("121212").unwrap();
        assert_eq!(before.win_now_score(), 18);
    }

    #[test]
    fn mirror_key_is_the_key_of_the_mirrored_moves() {
        let p = Position::from_moves("4433217").unwrap();
        let m = Position::from_moves("4455671").unwrap();
        assert_eq!(p.mirror_key(), m.key());
        assert_eq!(mirror(mirror(p.key())), p.key());
    }

    #[test]
    fn non_losing_cells_block_and_never_play_under_a_threat() {
        // O threatens column 1 row 4? Build: X 2, O 1, X 2, O 1, X 3, O 1 -> O has three in
        // column 1, X must block.
        let p = Position::from_moves("212131").unwrap();
        assert_eq!(p.non_losing_cells(), 1 << 3, "{p}");
    }

    #[test]
    fn display_draws_the_board() {
        let p = Position::from_moves("4453").unwrap();
        let text = p.to_string();
        assert!(text.contains("...O...\n..OXX..\n"), "{text}");
        assert!(text.ends_with("X to move"), "{text}");
    }
}
