//! Built-in test suites: position sets with known exact results, embedded in the binary.
//!
//! `ffo-40-59` is positions #40 to #59 of Gunnar Andersson's FFO endgame test suite (positions
//! from FForum, the magazine of the Fédération Française d'Othello): 20 to 34 empty squares,
//! the standard speed benchmark for exact endgame solvers. See `data/README.md`.
//!
//! [`load_suite_or_file`] reads the position set a user names: a built-in suite or an OBF
//! file, whose malformed records are each reported with the file and line (`my.obf:7:3: ...`)
//! while the good ones are kept.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::obf::{parse_obf, parse_obf_records, ObfEntry, ObfError};

/// The names [`builtin_suite`] knows.
pub const BUILTIN_SUITES: &[&str] = &["ffo-40-59"];

/// The FFO #40-#59 file; line k is position #(40 + k - 1).
const FFO_40_59: &str = include_str!("../data/ffo-40-59.obf");

/// A numbered position of a suite with the exact scores of its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuitePosition {
    /// The position's number in the suite (40 to 59 for `ffo-40-59`).
    pub number: u32,
    /// The position and its scored moves.
    pub entry: ObfEntry,
}

/// The positions of the built-in suite `name` (one of [`BUILTIN_SUITES`]), or `None` for an
/// unknown name.
pub fn builtin_suite(name: &str) -> Option<Vec<SuitePosition>> {
    match name {
        "ffo-40-59" => Some(numbered(FFO_40_59, 40)),
        _ => None,
    }
}

/// The entries of an embedded file, numbered from `first`. The embedded files are checked by
/// the tests below, so reading them cannot fail at run time.
fn numbered(text: &str, first: u32) -> Vec<SuitePosition> {
    let entries = parse_obf(text).expect("embedded suite files are valid OBF");
    (first..)
        .zip(entries)
        .map(|(number, entry)| SuitePosition { number, entry })
        .collect()
}

/// A position of a [`LoadedPositions`]: its number and the position with its scored moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberedEntry {
    /// The position's number in a suite (`40`), or its 1-based line in a file.
    pub number: usize,
    /// The position and the scores its line lists.
    pub entry: ObfEntry,
}

/// A malformed record of a file, with its place: shown as `path:line:column: what is wrong`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{}:{}: {}", error.line, error.column, error.kind)]
pub struct BadRecord {
    /// The file's path, as given.
    pub path: String,
    /// What is wrong, and on which line and column.
    pub error: ObfError,
}

/// The positions a user named: a built-in suite or an OBF file (see [`load_suite_or_file`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedPositions {
    /// The name given: the suite's name or the file's path.
    pub name: String,
    /// Whether it is a built-in suite (positions numbered by the suite) or a file (numbered
    /// by line).
    pub builtin: bool,
    /// The well-formed positions, in order.
    pub positions: Vec<NumberedEntry>,
    /// The file's malformed records, in order (none for a built-in suite).
    pub bad_records: Vec<BadRecord>,
}

impl LoadedPositions {
    /// How a position's number reads: `#40` in a suite, `line 7` in a file.
    pub fn label(&self, number: usize) -> String {
        if self.builtin {
            format!("#{number}")
        } else {
            format!("line {number}")
        }
    }
}

/// Why [`load_suite_or_file`] found no position to use.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The name is no built-in suite, and no file can be read there.
    #[error("cannot read OBF file '{path}': {source}{}", suites_hint(.not_a_suite))]
    Unreadable {
        /// The name given.
        path: String,
        /// Why reading failed.
        source: std::io::Error,
        /// Whether nothing exists at the path (so the user may have meant a suite).
        not_a_suite: bool,
    },
    /// The file holds no well-formed position (its malformed records, if any, are listed).
    #[error("{}", NoPositionMessage(.path, .bad_records))]
    NoPosition {
        /// The file's path.
        path: String,
        /// Its malformed records.
        bad_records: Vec<BadRecord>,
    },
}

impl LoadError {
    /// The malformed records found before giving up (none if the file could not be read).
    pub fn bad_records(&self) -> &[BadRecord] {
        match self {
            LoadError::Unreadable { .. } => &[],
            LoadError::NoPosition { bad_records, .. } => bad_records,
        }
    }
}

/// The hint after a read error when nothing exists at the path: the names of the suites.
fn suites_hint(not_a_suite: &bool) -> String {
    if *not_a_suite {
        format!(
            " (it is not a built-in suite either; those are: {})",
            BUILTIN_SUITES.join(", ")
        )
    } else {
        String::new()
    }
}

/// Displays a [`LoadError::NoPosition`] with one line per malformed record.
struct NoPositionMessage<'a>(&'a str, &'a [BadRecord]);

impl fmt::Display for NoPositionMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NoPositionMessage(path, bad) = *self;
        if bad.is_empty() {
            return write!(f, "{path}: no position in the file");
        }
        write!(
            f,
            "{path}: no well-formed position in the file ({} malformed)",
            bad.len()
        )?;
        for record in bad {
            write!(f, "\n  {record}")?;
        }
        Ok(())
    }
}

/// The positions named by `name`: a built-in suite (one of [`BUILTIN_SUITES`], numbered by
/// the suite) or the path of an OBF file (numbered by line). Every malformed line of the file
/// becomes a [`BadRecord`] naming the file, line and column, and reading goes on; it is an
/// error only when the file cannot be read or holds no well-formed position.
pub fn load_suite_or_file(name: &str) -> Result<LoadedPositions, LoadError> {
    if let Some(suite) = builtin_suite(name) {
        return Ok(LoadedPositions {
            name: name.to_string(),
            builtin: true,
            positions: suite
                .into_iter()
                .map(|p| NumberedEntry {
                    number: p.number as usize,
                    entry: p.entry,
                })
                .collect(),
            bad_records: Vec::new(),
        });
    }
    let text = std::fs::read_to_string(name).map_err(|source| LoadError::Unreadable {
        path: name.to_string(),
        source,
        not_a_suite: !Path::new(name).exists(),
    })?;
    let records = parse_obf_records(&text);
    let bad_records: Vec<BadRecord> = records
        .errors
        .into_iter()
        .map(|error| BadRecord {
            path: name.to_string(),
            error,
        })
        .collect();
    if records.entries.is_empty() {
        return Err(LoadError::NoPosition {
            path: name.to_string(),
            bad_records,
        });
    }
    Ok(LoadedPositions {
        name: name.to_string(),
        builtin: false,
        positions: records
            .entries
            .into_iter()
            .map(|(number, entry)| NumberedEntry { number, entry })
            .collect(),
        bad_records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary `.obf` file holding `text`, removed when dropped.
    fn temp_file(text: &str) -> tempfile::TempPath {
        let mut file = tempfile::Builder::new().suffix(".obf").tempfile().unwrap();
        std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
        file.into_temp_path()
    }

    /// The file's path, as the loader takes it.
    fn path(file: &tempfile::TempPath) -> &str {
        file.to_str().unwrap()
    }

    #[test]
    fn a_suite_loads_by_name_numbered_by_the_suite() {
        let ffo = load_suite_or_file("ffo-40-59").unwrap();
        assert!(ffo.builtin && ffo.bad_records.is_empty());
        assert_eq!(ffo.positions.len(), 20);
        assert_eq!(ffo.positions[0].number, 40);
        assert_eq!(ffo.label(40), "#40");
    }

    #[test]
    fn a_file_keeps_its_good_lines_and_names_each_bad_one() {
        let start = crate::Position::START.to_string();
        let file = temp_file(&format!(
            "# comment\n{start}\nnot a position\n\n{start}; A1:+2;\n{start}\n"
        ));
        let set = load_suite_or_file(path(&file)).unwrap();
        assert!(!set.builtin);
        let lines: Vec<usize> = set.positions.iter().map(|p| p.number).collect();
        assert_eq!(lines, [2, 6]);
        assert_eq!(set.label(6), "line 6");
        let bad: Vec<String> = set.bad_records.iter().map(ToString::to_string).collect();
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(
            bad[0].starts_with(&format!("{}:3:", path(&file))),
            "{bad:?}"
        );
        assert!(
            bad[1].starts_with(&format!("{}:5:", path(&file))),
            "{bad:?}"
        );
        assert!(bad[1].contains("a1 is not a legal move"), "{bad:?}");
    }

    #[test]
    fn a_file_without_a_good_position_or_unreadable_is_an_error() {
        let file = temp_file("# only\nnonsense\n");
        let err = load_suite_or_file(path(&file)).unwrap_err();
        assert_eq!(err.bad_records().len(), 1);
        let text = err.to_string();
        assert!(text.contains("no well-formed position"), "{text}");
        assert!(text.contains(&format!("{}:2:", path(&file))), "{text}");
        let empty = temp_file("# nothing\n");
        let text = load_suite_or_file(path(&empty)).unwrap_err().to_string();
        assert!(text.ends_with("no position in the file"), "{text}");
        let text = load_suite_or_file("/no/such/file.obf")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("/no/such/file.obf") && text.contains("ffo-40-59"),
            "{text}"
        );
    }

    #[test]
    fn every_builtin_suite_loads() {
        for name in BUILTIN_SUITES {
            let suite = builtin_suite(name).unwrap();
            assert!(!suite.is_empty(), "{name}");
        }
        assert_eq!(builtin_suite("ffo-1-19"), None);
    }

    #[test]
    fn ffo_numbers_empties_and_best_scores() {
        let suite = builtin_suite("ffo-40-59").unwrap();
        let numbers: Vec<u32> = suite.iter().map(|p| p.number).collect();
        assert_eq!(numbers, (40..=59).collect::<Vec<_>>());
        // The published table (data/README.md): empties and exact score of #40..#59.
        let expected = [
            (20, 38),
            (22, 0),
            (22, 6),
            (23, -12),
            (23, -14),
            (24, 6),
            (24, -8),
            (25, 4),
            (25, 28),
            (26, 16),
            (26, 10),
            (27, 6),
            (27, 0),
            (28, -2),
            (28, -2),
            (29, 0),
            (29, 2),
            (30, -10),
            (30, 4),
            (34, 64),
        ];
        for (p, (empties, score)) in suite.iter().zip(expected) {
            assert_eq!(p.entry.position.empty_count(), empties, "#{}", p.number);
            assert_eq!(p.entry.best_score(), Some(score), "#{}", p.number);
        }
    }
}
