//! Connect Four on the command line: `prune solve|perft --game connect4` (`play` and `match` are
//! the play layer's, as for every game). The
//! commands keep their Othello options where they mean the same thing (`--window`, `--only`,
//! `--tt`, `--threads`, `--json`, `--time`, `--depth`, the presets) and refuse, naming them,
//! the ones that are Othello's alone.

pub mod perft;
pub mod solve;

use std::time::Duration;

use crate::CliError;

/// The game's name in messages.
pub const GAME: &str = "connect4";

/// The error for an option that only Othello takes.
pub fn othello_only(option: &str, why: &str) -> CliError {
    CliError::Usage(format!("{option} is not an option of {GAME}: {why}"))
}

/// A duration as people read it: `4.6 µs`, `37.5 µs`, `3.2 ms`, `1.25 s`.
pub fn short_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_their_unit() {
        assert_eq!(short_duration(Duration::from_nanos(4_600)), "4.6 µs");
        assert_eq!(short_duration(Duration::from_micros(3_200)), "3.2 ms");
        assert_eq!(short_duration(Duration::from_millis(1_250)), "1.25 s");
    }
}
