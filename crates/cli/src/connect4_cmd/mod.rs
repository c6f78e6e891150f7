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

/// Moves played from which the engine first tries the exact solver (with a node limit) when it
/// plays on time: earlier, a solve rarely finishes in the time of a move.
const SOLVE_FROM_MOVES: u32 = 12;

/// With a fixed search depth, the engine solves exactly when at most this many moves more
/// than the depth are left.
const DEPTH_SOLVE_EXTRA: u32 = 12;

/// Nodes the exact solver may search per second of a move's time (a low guess, so that a
/// move rarely takes much more than its time even in a debug build).
const SOLVE_NODES_PER_SECOND: f64 = 2_000_000.0;

/// The node limit of a solve at a fixed depth, where there is no time to derive one from.
const DEPTH_SOLVE_NODES: u64 = 5_000_000;

/// The fewest nodes a solve attempt is given.
const MIN_SOLVE_NODES: u64 = 50_000;

/// What the engine decided for one move.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The column played.
    pub mv: Column,
    /// The score for the side to move: the test sets' exact score when `exact`, else the
    /// search's score.
    pub score: Score,
    /// Whether the score is proven (solved, the search reached the end of every line, or it
    /// found a forced win or loss).
    pub exact: bool,
    /// The depth of the search (0 for a solve).
    pub depth: u32,
    /// Nodes of the solve attempt and the search together.
    pub nodes: u64,
    /// The time taken.
    pub time: Duration,
}

impl Thought {
    /// One line: `exact win+3 (solved), 1,234 nodes, 0.01 s` or `eval +12, depth 8, ...`.
    pub fn describe(&self) -> String {
        let how = if self.exact && self.depth == 0 {
            format!("exact {} (solved)", self.score)
        } else if self.exact {
            format!("exact {}, depth {}", self.score, self.depth)
        } else {
            format!("eval {}, depth {}", self.score, self.depth)
        };
        format!(
            "{how}, {} nodes, {:.2} s",
            crate::cells::thousands(self.nodes),
            self.time.as_secs_f64()
        )
    }
}

/// A Connect Four engine: the exact solver when it can finish within the move's budget, else
/// a depth-limited search of `prune-search` with [`ThreatEval`] in the preset's configuration.
pub struct C4Engine {
    /// The preset's name, as the reports show it.
    pub name: String,
    solver: Solver,
    engine: Engine<Position>,
    threads: usize,
}

impl C4Engine {
    /// An engine of `preset` with `algorithm` (the search when the solver cannot finish);
    /// `option` names the option that gave the preset, for errors.
    pub fn new(
        option: &str,
        preset: &str,
        algorithm: Algorithm,
        parallel: Parallel,
    ) -> Result<C4Engine, CliError> {
        let preset = if preset.trim().eq_ignore_ascii_case("engine") {
            "full"
        } else {
            preset
        };
        let found = Preset::find(preset).map_err(|e| CliError::Usage(format!("{option}: {e}")))?;
        let mut config: SearchConfig = found
            .config(algorithm)
            .map_err(|e| CliError::Usage(format!("{option} {preset}: {e}")))?;
        // Every move may be played on time: iterate, so that the last finished depth counts.
        config.iterative_deepening = true;
        let engine = Engine::with_parallel(config, parallel)
            .map_err(|e| CliError::Usage(format!("{option} {preset}: {e}")))?;
        let solver =
            Solver::new().map_err(|e| CliError::Failure(format!("the solver's table: {e}")))?;
        Ok(C4Engine {
            name: found.name.to_string(),
            solver,
            engine,
            threads: parallel.threads.max(1),
        })
    }

    /// The move for `position` (not over) within `budget`.
    pub fn think(&mut self, position: &Position, budget: &Budget) -> Thought {
        let began = Instant::now();
        let left = CELLS - position.moves_played();
        let solve_limit = match (budget.depth, budget.time) {
            (Some(depth), _) => (left <= depth + DEPTH_SOLVE_EXTRA).then_some(DEPTH_SOLVE_NODES),
            (None, Some(time)) => (position.moves_played() >= SOLVE_FROM_MOVES).then(|| {
                ((time.as_secs_f64() * SOLVE_NODES_PER_SECOND) as u64).max(MIN_SOLVE_NODES)
            }),
            (None, None) => Some(u64::MAX),
        };
        let mut nodes = 0;
        if let Some(limit) = solve_limit {
            let options = SolveOptions {
                node_limit: (limit != u64::MAX).then_some(limit),
                threads: self.threads,
                ..SolveOptions::default()
            };
            let solution = self.solver.solve(position, &options);
            nodes += solution.nodes;
            if let (true, Some(mv)) = (solution.complete, solution.best_move) {
                return Thought {
                    mv,
                    score: Score::exact(solution.score),
                    exact: true,
                    depth: 0,
                    nodes,
                    time: began.elapsed(),
                };
            }
        }
        let limits = SearchLimits {
            depth: Some(budget.depth.unwrap_or(left).clamp(1, left)),
            nodes: None,
            time: budget.time.map(|t| {
                t.saturating_sub(began.elapsed())
                    .max(Duration::from_millis(1))
            }),
        };
        let result = self.engine.search(position, &ThreatEval, &limits);
        let fallback = first_legal(position);
        match result {
            Ok(r) => Thought {
                mv: r.best_move.unwrap_or(fallback),
                score: r.score,
                // A decisive score is a proven win or loss even when other lines were cut off.
                exact: r.exhausted || r.score.is_decisive(),
                depth: r.depth,
                nodes: nodes + r.stats.total.nodes,
                time: began.elapsed(),
            },
            // The configuration was validated when the engine was made; should a search still
            // refuse to start, any legal move keeps the game going.
            Err(_) => Thought {
                mv: fallback,
                score: Score::DRAW,
                exact: false,
                depth: 0,
                nodes,
                time: began.elapsed(),
            },
        }
    }
}

/// The first column with room (the centre first) of a position that is not over.
fn first_legal(position: &Position) -> Column {
    prune_connect4::CENTRE_FIRST
        .iter()
        .filter_map(|&c| Column::new(c))
        .find(|&c| position.can_play(c))
        .unwrap_or_else(|| Column::new(3).expect("column 4 exists"))
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

    #[test]
    fn the_engine_solves_a_won_ending_and_searches_an_opening() {
        let mut engine = C4Engine::new("--x", "full", Algorithm::NegaScout, Parallel::SEQUENTIAL)
            .expect("the full preset");
        // X to move with three on the bottom row wins at once in column 4.
        let p = Position::from_moves("112233").unwrap();
        let t = engine.think(&p, &Budget::depth(2));
        assert_eq!((t.mv.number(), t.exact), (4, true), "{}", t.describe());
        assert_eq!(t.score, Score::exact(18));
        let t = engine.think(&Position::START, &Budget::depth(2));
        assert!(!t.exact && t.depth == 2, "{}", t.describe());
    }
}
