//! Positions on the command line: selections such as `40-44` or `40,42,50-52`, and the
//! `--position` option.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::CliError;

/// The game position of a `--position` option: `text` parsed if given, else `default`.
pub fn parse_position<T: FromStr>(text: Option<&str>, default: T) -> Result<T, CliError>
where
    T::Err: fmt::Display,
{
    match text {
        Some(text) => text
            .parse()
            .map_err(|e| CliError::Usage(format!("--position: {e}"))),
        None => Ok(default),
    }
}

/// The most numbers a selection may name (a guard against `1-999999999999`).
const MAX_SELECTED: usize = 1_000_000;

/// A set of position numbers: a list of inclusive ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection(Vec<RangeInclusive<usize>>);

impl Selection {
    /// Whether `number` is selected.
    pub fn contains(&self, number: usize) -> bool {
        self.0.iter().any(|r| r.contains(&number))
    }

    /// Every number selected, range by range.
    pub fn numbers(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().flat_map(|r| r.clone())
    }
}

/// Why a selection was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectionError(String);

impl fmt::Display for SelectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a comma-separated list of numbers and ranges `a-b` (`a <= b`).
pub fn parse_selection(text: &str) -> Result<Selection, SelectionError> {
    let number = |s: &str| {
        s.trim().parse::<usize>().map_err(|_| {
            SelectionError(format!(
                "'{}' is not a number (expected numbers and ranges such as 40-44,47)",
                s.trim()
            ))
        })
    };
    let mut ranges = Vec::new();
    let mut count = 0usize;
    for part in text.split(',') {
        let part = part.trim();
        if part.is_empty() {
            return Err(SelectionError(format!(
                "empty item in '{text}' (expected numbers and ranges such as 40-44,47)"
            )));
        }
        let range = match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(SelectionError(format!(
                        "range '{part}' runs backwards (write {b}-{a})"
                    )));
                }
                a..=b
            }
            None => {
                let n = number(part)?;
                n..=n
            }
        };
        count = count.saturating_add(range.end() - range.start() + 1);
        if count > MAX_SELECTED {
            return Err(SelectionError(format!(
                "'{text}' selects more than {MAX_SELECTED} positions"
            )));
        }
        ranges.push(range);
    }
    Ok(Selection(ranges))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_ranges() {
        let s = parse_selection("40-42, 45").unwrap();
        assert_eq!(s.numbers().collect::<Vec<_>>(), [40, 41, 42, 45]);
        assert!(s.contains(41) && !s.contains(43));
        assert_eq!(parse_selection("7").unwrap().numbers().count(), 1);
    }

    #[test]
    fn bad_selections_say_what_is_wrong() {
        let err = |t: &str| parse_selection(t).unwrap_err().to_string();
        assert!(
            err("40-x").contains("'x' is not a number"),
            "{}",
            err("40-x")
        );
        assert!(err("44-40").contains("backwards"));
        assert!(err("40,,41").contains("empty item"));
        assert!(err("").contains("empty item"));
        assert!(err("-3").contains("'' is not a number"));
        assert!(err("1-99999999999").contains("more than"));
    }
}
