//! Files of positions in the test sets' format: one position per line, `MOVES [SCORE]`, the
//! moves as columns `1`–`7` from the empty board, the score (if given) the exact value for the
//! side to move. Blank lines and lines starting with `#` are skipped. A bad line is reported
//! with its line and column and does not stop the rest of the file from being read.

use crate::position::{MoveErrorKind, Position};

/// One position of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The line it was read from (from 1).
    pub line: usize,
    /// The moves as written.
    pub moves: String,
    /// The position after them.
    pub position: Position,
    /// The score the file gives, if it gives one.
    pub score: Option<i32>,
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct BadLine {
    /// The line (from 1).
    pub line: usize,
    /// The column of the offending character (from 1).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads every line of `text`: the positions, and the lines that were not positions.
pub fn parse(text: &str) -> (Vec<Record>, Vec<BadLine>) {
    let mut records = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        match parse_line(raw, i + 1) {
            Ok(Some(r)) => records.push(r),
            Ok(None) => {}
            Err(e) => bad.push(e),
        }
    }
    (records, bad)
}

/// Reads one line (`number` from 1): `Ok(None)` for a blank or comment line.
pub fn parse_line(raw: &str, number: usize) -> Result<Option<Record>, BadLine> {
    let line = raw.trim_end_matches(['\r', '\n']);
    let start = line.len() - line.trim_start().len();
    let body = line.trim();
    if body.is_empty() || body.starts_with('#') {
        return Ok(None);
    }
    let bad = |offset: usize, message: String| BadLine {
        line: number,
        column: line[..offset].chars().count() + 1,
        message,
    };
    let mut fields = body.split_whitespace();
    let moves = fields.next().unwrap_or("");
    let position = Position::from_moves(moves).map_err(|e| {
        let offset = start + moves.char_indices().nth(e.offset).map_or(0, |(o, _)| o);
        let message = match e.kind {
            MoveErrorKind::GameOver => format!("move {}: the game is already won", e.offset + 1),
            kind => format!("move {}: {kind}", e.offset + 1),
        };
        bad(offset, message)
    })?;
    let score = match fields.next() {
        None => None,
        Some(text) => {
            let offset = start + body.find(text).unwrap_or(0);
            let score: i32 = text
                .parse()
                .map_err(|_| bad(offset, format!("'{text}' is not a score (an integer)")))?;
            // The best the side to move can do is to win with its next stone, the worst to lose
            // to the opponent's next one.
            let highest = position.win_now_score();
            let lowest = -((42 - position.moves_played() as i32) / 2);
            if !(lowest..=highest).contains(&score) {
                return Err(bad(
                    offset,
                    format!(
                        "score {score} is out of range for a position after {} move{}",
                        position.moves_played(),
                        if position.moves_played() == 1 {
                            ""
                        } else {
                            "s"
                        }
                    ),
                ));
            }
            Some(score)
        }
    };
    if let Some(extra) = fields.next() {
        let offset = start + body.rfind(extra).unwrap_or(0);
        return Err(bad(offset, format!("unexpected '{extra}' after the score")));
    }
    Ok(Some(Record {
        line: number,
        moves: moves.to_string(),
        position,
        score,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_lines_blank_lines_and_comments() {
        let (records, bad) = parse("# a comment\n\n4453 -2\n44\n");
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].line, records[0].score), (3, Some(-2)));
        assert_eq!((records[1].line, records[1].score), (4, None));
    }

    #[test]
    fn bad_lines_name_their_line_and_column() {
        let text = "4453 1\n44x3 0\n1111111 0\n12121214 0\n44 zero\n44 1 2\n 44 99\n";
        let (records, bad) = parse(text);
        assert_eq!(records.len(), 1);
        let got: Vec<String> = bad.iter().map(|b| b.to_string()).collect();
        assert_eq!(
            got,
            [
                "line 2, column 3: move 3: 'x' is not a column (1-7)",
                "line 3, column 7: move 7: column 1 is full",
                "line 4, column 8: move 8: the game is already won",
                "line 5, column 4: 'zero' is not a score (an integer)",
                "line 6, column 6: unexpected '2' after the score",
                "line 7, column 5: score 99 is out of range for a position after 2 moves",
            ]
        );
    }
}
