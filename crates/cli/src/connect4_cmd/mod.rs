//! Connect Four on the command line: `prune solve|perft|play|match --game connect4`. The
//! commands keep their Othello options where they mean the same thing (`--window`, `--only`,
//! `--tt`, `--threads`, `--json`, `--time`, `--depth`, the presets) and refuse, naming them,
//! the ones that are Othello's alone.

pub mod arena;
pub mod perft;
pub mod play;
pub mod solve;

use std::time::{Duration, Instant};

use prune_connect4::{Column, Position, SolveOptions, Solver, ThreatEval, CELLS};
use prune_play::Budget;
use prune_search::{Algorithm, Engine, Parallel, Preset, Score, SearchConfig, SearchLimits};

use crate::CliError;

/// The game's name in messages.
pub const GAME: &str = "connect4";

/// The error for an option that only Othello takes.
pub fn othello_only(option: &str, why: &str) -> CliError {
    CliError::Usage(format!("{option} is not an option of {GAME}: {why}"))
}

/// How a finished game ended, in words: `X wins (four with its 11th stone)` or `a draw`.
pub fn result_text(position: &Position) -> Option<String> {
    let loss = position.final_score()?;
    if loss == 0 {
        return Some("a draw (the board is full)".to_string());
    }
    // The side to move has lost; the winner is the one who moved last.
    let winner = if position.first_player_to_move() {
        "O"
    } else {
        "X"
    };
    let stone = position.moves_played().div_ceil(2);
    Some(format!(
        "{winner} wins (four with its stone {stone}; score {:+} for {winner})",
        -loss
    ))
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

    #[test]
    fn a_finished_game_names_its_winner_and_the_test_sets_score() {
        let won = Position::from_moves("1212121").unwrap();
        assert_eq!(
            result_text(&won).unwrap(),
            "X wins (four with its stone 4; score +18 for X)"
        );
        assert_eq!(result_text(&Position::START), None);
    }

}
