//! Table cells and numbers as the command line prints them: right-aligned figures, counts
//! with thousands separators (`2,086,712,457`), rates.

use std::fmt::Display;
use std::time::Duration;

use comfy_table::{Cell, CellAlignment};

/// A right-aligned cell.
pub fn right(v: impl Display) -> Cell {
    Cell::new(v.to_string()).set_alignment(CellAlignment::Right)
}

/// A right-aligned count with thousands separators.
pub fn count(n: u64) -> Cell {
    right(thousands(n))
}

/// `n` with a comma between each group of three digits: `2086712457` -> `2,086,712,457`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `count` per second of `time` (`None` for no time at all).
pub fn per_second(count: u64, time: Duration) -> Option<f64> {
    let s = time.as_secs_f64();
    (s > 0.0).then(|| count as f64 / s)
}

/// A rate as a whole number with separators, or `-` when there is none.
pub fn rate_text(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".to_string(), |x| thousands(x.round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped_by_three_from_the_right() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(549_946), "549,946");
        assert_eq!(thousands(2_086_712_457), "2,086,712,457");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn a_rate_needs_time() {
        assert_eq!(per_second(10, Duration::ZERO), None);
        assert_eq!(
            rate_text(per_second(3_000, Duration::from_millis(500))),
            "6,000"
        );
        assert_eq!(rate_text(None), "-");
    }
}
