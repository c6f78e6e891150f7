//! Table cells and numbers as the command line prints them: right-aligned figures, counts
//! with thousands separators (`2,086,712,457`, by the lab's [`thousands`]), rates.

use std::fmt::Display;
use std::time::Duration;

use comfy_table::{Cell, CellAlignment};
/// Counts with thousands separators, as the lab's reports print them.
pub use prune_lab::thousands;

/// A right-aligned cell.
pub fn right(v: impl Display) -> Cell {
    Cell::new(v.to_string()).set_alignment(CellAlignment::Right)
}

/// A right-aligned count with thousands separators.
pub fn count(n: u64) -> Cell {
    right(thousands(n))
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
    fn a_rate_needs_time() {
        assert_eq!(per_second(10, Duration::ZERO), None);
        assert_eq!(
            rate_text(per_second(3_000, Duration::from_millis(500))),
            "6,000"
        );
        assert_eq!(rate_text(None), "-");
    }
}
