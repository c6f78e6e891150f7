//! Connect Four's player ([`Connect4Player`]): the exact solver when it can finish within the
//! move's budget, else a preset of the generic search with the threat evaluation.

use std::time::{Duration, Instant};

use prune_connect4::{Column, Position, SolveOptions, Solver, ThreatEval, CELLS};
use prune_search::{Algorithm, Engine, Parallel, Preset, Score, SearchConfig, SearchLimits};

use crate::{Agent, AgentError, Budget, GameRecord};

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
            self.nodes,
            self.time.as_secs_f64()
        )
    }
}

/// Connect Four's player: the exact solver when it can finish within the move's budget, else
/// a depth-limited search of `prune-search` with [`ThreatEval`] in the preset's configuration.
pub struct Connect4Player {
    /// The preset's name, as the reports show it.
    pub name: String,
    solver: Solver,
    engine: Engine<Position>,
    threads: usize,
}

impl Connect4Player {
    /// A player of `preset` with `algorithm` (the search when the solver cannot finish).
    pub fn new(
        preset: &str,
        algorithm: Algorithm,
        parallel: Parallel,
    ) -> Result<Connect4Player, String> {
        let preset = if preset.trim().eq_ignore_ascii_case("engine") {
            "full"
        } else {
            preset
        };
        let found = Preset::find(preset).map_err(|e| format!("{e}, or {}", crate::MCTS))?;
        let mut config: SearchConfig = found
            .config(algorithm)
            .map_err(|e| format!("{preset}: {e}"))?;
        // Every move may be played on time: iterate, so that the last finished depth counts.
        config.iterative_deepening = true;
        let engine =
            Engine::with_parallel(config, parallel).map_err(|e| format!("{preset}: {e}"))?;
        let solver = Solver::new().map_err(|e| format!("the solver's table: {e}"))?;
        Ok(Connect4Player {
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
            (None, None) => Some(budget.nodes.unwrap_or(u64::MAX)),
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
            depth: match (budget.depth, budget.nodes) {
                (None, Some(_)) => None,
                (depth, _) => Some(depth.unwrap_or(left).clamp(1, left)),
            },
            nodes: budget.nodes,
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

impl Agent<Position> for Connect4Player {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(
        &mut self,
        game: &GameRecord<Position>,
        budget: &Budget,
    ) -> Result<crate::Thought<Column>, AgentError> {
        let t = self.think(game.current(), budget);
        Ok(crate::Thought {
            mv: t.mv,
            eval: crate::agents::score_value(t.score),
            exact: t.exact,
            depth: t.depth,
            pv: vec![t.mv],
            nodes: t.nodes,
            time: t.time,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_solves_a_won_ending_and_searches_an_opening() {
        let mut player = Connect4Player::new("full", Algorithm::NegaScout, Parallel::SEQUENTIAL)
            .expect("the full preset");
        // X to move with three on the bottom row wins at once in column 4.
        let p = Position::from_moves("112233").unwrap();
        let t = player.think(&p, &Budget::depth(2));
        assert_eq!((t.mv.number(), t.exact), (4, true), "{}", t.describe());
        assert_eq!(t.score, Score::exact(18));
        let t = player.think(&Position::START, &Budget::depth(2));
        assert!(!t.exact && t.depth == 2, "{}", t.describe());
        let t = player.think(&Position::START, &Budget::nodes(2_000));
        assert!(!t.exact && t.nodes < 20_000, "{}", t.describe());
    }
}
