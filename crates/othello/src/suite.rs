//! Built-in test suites: position sets with known exact results, embedded in the binary.
//!
//! `ffo-40-59` is positions #40 to #59 of Gunnar Andersson's FFO endgame test suite (positions
//! from FForum, the magazine of the Fédération Française d'Othello): 20 to 34 empty squares,
//! the standard speed benchmark for exact endgame solvers. See `data/README.md`.

use serde::{Deserialize, Serialize};

use crate::obf::{parse_obf, ObfEntry};

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

#[cfg(test)]
mod tests {
    use super::*;

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
