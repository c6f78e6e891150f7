//! OBF position files: one position per line with the exact score of each move, as in Edax's
//! problem files and the FFO test suite.
//!
//! ```text
//! <64 squares> <side to move>; <MOVE>:<score>; <MOVE>:<score>; ...
//! ```
//!
//! The board and side to move are read as in [`crate::notation`]. Each `MOVE:score` pair names
//! a legal move and its final disc difference for the side to move (`+38`, `-2`, `+0`), within
//! `-64..=64`. A trailing `;` is allowed, as is a line with the position only. Blank lines and
//! lines starting with `#` or `%` are skipped.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::notation::ParseErrorKind;
use crate::position::Position;
use crate::square::Move;

/// One OBF line: a position and the exact score of some (usually all) of its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObfEntry {
    /// The position.
    pub position: Position,
    /// Moves with their exact final scores for the side to move, in file order (best first in
    /// the usual files).
    pub moves: Vec<(Move, i32)>,
}

impl ObfEntry {
    /// The best listed score, or `None` if no move is listed.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, score)| score).max()
    }

    /// Every listed move that reaches the best score, in file order.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.best_score();
        self.moves
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|&(mv, _)| mv)
            .collect()
    }

    /// The listed score of `mv`, if it is listed.
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.moves.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

impl fmt::Display for ObfEntry {
    /// The OBF line, moves in upper case as in the published files: `... X; A2:+38; C7:+36;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.moves {
            write!(f, " {}:{score:+};", mv.to_string().to_uppercase())?;
        }
        Ok(())
    }
}

impl FromStr for ObfEntry {
    type Err = ObfError;

    /// Reads one OBF line (errors report it as line 1).
    fn from_str(line: &str) -> Result<ObfEntry, ObfError> {
        parse_line(line, 1)
    }
}

/// What is wrong with an OBF line (see [`ObfError`] for where).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObfErrorKind {
    /// The position, side to move or a move is malformed.
    #[error("{0}")]
    Notation(ParseErrorKind),
    /// A move entry without the `:` before its score.
    #[error("expected `MOVE:score`, found `{0}`")]
    MissingColon(String),
    /// A score that is not an integer.
    #[error("bad score `{0}`; expected an integer such as +12 or -4")]
    BadScore(String),
    /// A score outside `-64..=64`.
    #[error("score {0} is outside -64..=64")]
    ScoreOutOfRange(i64),
    /// A move that is not legal in the line's position.
    #[error("{0} is not a legal move in this position")]
    IllegalMove(Move),
    /// A move listed twice.
    #[error("{0} is listed twice")]
    DuplicateMove(Move),
}

/// An error reading OBF text: what went wrong, on which line and at which column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ObfError {
    /// The 1-based line number.
    pub line: usize,
    /// The 1-based column (in characters) within the line.
    pub column: usize,
    /// What went wrong.
    pub kind: ObfErrorKind,
}

/// Reads every position of an OBF file's text, skipping blank lines and lines starting with
/// `#` or `%`; stops at the first malformed line.
pub fn parse_obf(text: &str) -> Result<Vec<ObfEntry>, ObfError> {
    parse_obf_numbered(text).map(|entries| entries.into_iter().map(|(_, e)| e).collect())
}

/// Like [`parse_obf`], with each entry's 1-based line number (to name positions of a file).
pub fn parse_obf_numbered(text: &str) -> Result<Vec<(usize, ObfEntry)>, ObfError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim_start();
            !(line.is_empty() || line.starts_with('#') || line.starts_with('%'))
        })
        .map(|(index, line)| parse_line(line, index + 1).map(|entry| (index + 1, entry)))
        .collect()
}

/// Every record of an OBF file's text, the good and the bad: unlike [`parse_obf_numbered`],
/// reading goes on after a malformed line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObfRecords {
    /// The well-formed entries, each with its 1-based line number, in file order.
    pub entries: Vec<(usize, ObfEntry)>,
    /// One error per malformed line, in file order.
    pub errors: Vec<ObfError>,
}

/// Reads every line of an OBF file's text as [`parse_obf_numbered`] does (blank lines and
/// lines starting with `#` or `%` skipped), keeping the good entries and an error for each
/// malformed line.
pub fn parse_obf_records(text: &str) -> ObfRecords {
    let mut records = ObfRecords::default();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
            continue;
        }
        match parse_line(line, index + 1) {
            Ok(entry) => records.entries.push((index + 1, entry)),
            Err(error) => records.errors.push(error),
        }
    }
    records
}

/// Reads one line, numbered `line_number` in errors.
fn parse_line(line: &str, line_number: usize) -> Result<ObfEntry, ObfError> {
    let error = |byte: usize, kind| ObfError {
        line: line_number,
        column: line[..byte].chars().count() + 1,
        kind,
    };
    let (head, tail, tail_start) = match line.find(';') {
        Some(i) => (&line[..i], &line[i + 1..], i + 1),
        None => (line, "", line.len()),
    };
    let position: Position = head.parse().map_err(|e: crate::ParseError| ObfError {
        line: line_number,
        column: e.column,
        kind: ObfErrorKind::Notation(e.kind),
    })?;
    let mut moves: Vec<(Move, i32)> = Vec::new();
    let mut start = tail_start;
    for segment in tail.split(';') {
        let item_start = start + (segment.len() - segment.trim_start().len());
        start += segment.len() + 1;
        let item = segment.trim();
        if item.is_empty() {
            continue;
        }
        let Some((move_text, score_text)) = item.split_once(':') else {
            return Err(error(item_start, ObfErrorKind::MissingColon(item.into())));
        };
        let mv: Move = move_text
            .parse()
            .map_err(|e: crate::ParseError| error(item_start, ObfErrorKind::Notation(e.kind)))?;
        let score_start = item_start + move_text.len() + 1;
        let score_start = score_start + (score_text.len() - score_text.trim_start().len());
        let score_text = score_text.trim();
        let score: i64 = score_text
            .parse()
            .map_err(|_| error(score_start, ObfErrorKind::BadScore(score_text.into())))?;
        if !(-64..=64).contains(&score) {
            return Err(error(score_start, ObfErrorKind::ScoreOutOfRange(score)));
        }
        if !position.is_legal(mv) {
            return Err(error(item_start, ObfErrorKind::IllegalMove(mv)));
        }
        if moves.iter().any(|&(m, _)| m == mv) {
            return Err(error(item_start, ObfErrorKind::DuplicateMove(mv)));
        }
        moves.push((mv, score as i32));
    }
    Ok(ObfEntry { position, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO: &str = include_str!("../data/ffo-40-59.obf");

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn reads_the_ffo_file() {
        let entries = parse_obf(FFO).unwrap();
        assert_eq!(entries.len(), 20);
        let first = &entries[0];
        assert_eq!(first.best_score(), Some(38));
        assert_eq!(first.best_moves(), [mv("a2")]);
        assert_eq!(first.position.empty_count(), 20);
        assert_eq!(first.score_of(mv("c7")), Some(36));
        let last = &entries[19];
        assert_eq!(last.position.empty_count(), 34);
        assert_eq!(last.best_score(), Some(64));
        assert_eq!(last.best_moves(), [mv("h4"), mv("g8"), mv("e8")]);
        assert_eq!(entries[3].best_moves(), [mv("g3"), mv("c7")]);
    }

    #[test]
    fn lists_every_legal_move_and_formats_back_to_the_file() {
        for (entry, line) in parse_obf(FFO).unwrap().iter().zip(FFO.lines()) {
            let mut listed: Vec<Move> = entry.moves.iter().map(|&(m, _)| m).collect();
            listed.sort();
            let legal: Vec<Move> = crate::square::squares(entry.position.board().moves())
                .map(Move::from)
                .collect();
            assert_eq!(listed, legal, "{line}");
            assert_eq!(entry.to_string(), line.trim_end());
            assert_eq!(line.parse::<ObfEntry>().as_ref(), Ok(entry));
        }
    }

    #[test]
    fn skips_blank_and_comment_lines() {
        let first = FFO.lines().next().unwrap();
        let text = format!("# comment\n\n% another\n{first}\r\n   \n");
        let entries = parse_obf(&text).unwrap();
        assert_eq!(entries.len(), 1);
        let numbered = parse_obf_numbered(&text).unwrap();
        assert_eq!(numbered, [(4, entries[0].clone())]);
        let bare = &first[..66];
        assert!(bare.parse::<ObfEntry>().unwrap().moves.is_empty());
    }

    #[test]
    fn records_keep_the_good_lines_and_an_error_for_each_bad_one() {
        let mut lines: Vec<String> = FFO.lines().take(3).map(String::from).collect();
        lines.insert(1, "# a comment".into());
        lines.insert(2, "not a position".into());
        lines.push(lines[0].replacen("A2:+38", "A2:+99", 1));
        let records = parse_obf_records(&lines.join("\n"));
        let good: Vec<usize> = records.entries.iter().map(|(line, _)| *line).collect();
        assert_eq!(good, [1, 4, 5]);
        let bad: Vec<(usize, &ObfErrorKind)> =
            records.errors.iter().map(|e| (e.line, &e.kind)).collect();
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert_eq!(bad[0].0, 3);
        assert_eq!(bad[1], (6, &ObfErrorKind::ScoreOutOfRange(99)));
        let whole = parse_obf_numbered(&lines[..2].join("\n")).unwrap();
        assert_eq!(records.entries[..1], whole[..]);
    }

    /// The error for `line` when it is the third line of a file.
    fn error_of(line: &str) -> ObfError {
        parse_obf(&format!("# header\n\n{line}\n")).unwrap_err()
    }

    #[test]
    fn errors_name_line_and_column() {
        let good = FFO.lines().next().unwrap();
        let bad_char = good.replacen('X', "Q", 1);
        let column = good.find('X').unwrap() + 1;
        let err = error_of(&bad_char);
        assert_eq!((err.line, err.column), (3, column));
        assert_eq!(
            err.kind,
            ObfErrorKind::Notation(ParseErrorKind::BadSquareChar('Q'))
        );
        assert_eq!(
            err.to_string(),
            format!("line 3, column {column}: expected `X`, `O` or `-` for a square, found 'Q'")
        );

        let err = error_of(&good.replacen(" X;", " Y;", 1));
        assert_eq!(
            (err.column, err.kind),
            (
                66,
                ObfErrorKind::Notation(ParseErrorKind::BadSide("Y".into()))
            )
        );

        // "... X; A2:+38; C7:+36; ..." — the board and side take columns 1-66, `;` is 67.
        let err = error_of(&good.replacen("A2:+38", "A9:+38", 1));
        assert_eq!(
            (err.column, err.kind),
            (
                69,
                ObfErrorKind::Notation(ParseErrorKind::BadMove("A9".into()))
            )
        );
        let err = error_of(&good.replacen("A2:+38", "A2:+3x", 1));
        assert_eq!(
            (err.column, err.kind),
            (72, ObfErrorKind::BadScore("+3x".into()))
        );
        let err = error_of(&good.replacen("A2:+38", "A2:+66", 1));
        assert_eq!(
            (err.column, err.kind),
            (72, ObfErrorKind::ScoreOutOfRange(66))
        );
        let err = error_of(&good.replacen("A2:+38", "A2 +38", 1));
        assert_eq!(
            (err.column, err.kind),
            (69, ObfErrorKind::MissingColon("A2 +38".into()))
        );
        let err = error_of(&good.replacen("A2:+38", "A1:+38", 1));
        assert_eq!(
            (err.column, err.kind),
            (69, ObfErrorKind::IllegalMove(mv("a1")))
        );
        let err = error_of(&good.replacen("C7:+36", "A2:+36", 1));
        assert_eq!(
            (err.column, err.kind),
            (77, ObfErrorKind::DuplicateMove(mv("a2")))
        );
        assert_eq!(
            error_of(&good[..40]).kind,
            ObfErrorKind::Notation(ParseErrorKind::ShortBoard(40))
        );
    }
}
