//! An evaluation measured against facts (the pieces of `prune eval-check`):
//!
//! - [`start_values`]: the value of the start position at each depth of one iterative
//!   deepening search. Othello's start position is a draw under perfect play (Takizawa's weak
//!   solution, 2023), so every value there is the evaluation's error.
//! - [`suite_rows`]: each position of a file with known exact scores (the FFO suite) searched to
//!   a fixed depth: the error of its value and whether its move is an optimal one.
//! - [`solved_positions`] and [`static_errors`]: positions of games that no training run played
//!   (the first generation's hand-made player from seeds of their own), solved exactly, and the
//!   error of the static evaluation on them, by empties.
//!
//! - [`record_positions`]: the same from the held-out games of recorded games (WTHOR), whose
//!   theoretical scores from 24 empties are exact.
//!
//! Every search is the full preset's NegaScout on one thread, as `prune search --preset full`
//! runs it, so the numbers are reproducible.

use prune_search::{Algorithm, Engine, Preset, SearchLimits};

use crate::board::Board;
use crate::endgame::EndgameSolver;
use crate::obf::ObfEntry;
use crate::ordering::{Ordered, StaticOrdering};
use crate::position::Position;
use crate::square::Move;
use crate::train::{in_discs, self_play, TrainOptions};
use crate::OthelloEval;

/// The engine every check searches with: `prune search --preset full`'s.
fn engine() -> Engine<Position> {
    let config = Preset::find("full")
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the full preset exists");
    Engine::new(config).expect("the full preset is valid")
}

fn ordered(eval: &OthelloEval) -> Ordered<OthelloEval> {
    Ordered {
        eval: eval.clone(),
        ordering: StaticOrdering::Mobility,
    }
}

/// The value (discs, black's view) of the start position after each iteration of one
/// iterative-deepening search to `max_depth`, with its node count so far: `(depth, value,
/// nodes)` for depths 1 to `max_depth`.
pub fn start_values(eval: &OthelloEval, max_depth: u32) -> Vec<(u32, f64, u64)> {
    let r = engine()
        .search(
            &Position::START,
            &ordered(eval),
            &SearchLimits::depth(max_depth),
        )
        .expect("a depth limit is given");
    let mut nodes = 0;
    r.iterations
        .iter()
        .map(|it| {
            nodes += it.row.counters.nodes;
            (it.depth, in_discs(it.score), nodes)
        })
        .collect()
}

/// One position of a suite searched to a fixed depth.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteRow {
    /// The position's number.
    pub number: usize,
    /// Its empty squares.
    pub empties: u32,
    /// The exact score of the position (its best listed move's).
    pub exact: i32,
    /// The search's value, in discs.
    pub value: f64,
    /// The search's move.
    pub best_move: Option<Move>,
    /// Whether that move is listed with the exact score (an optimal move); `None` when the file
    /// lists no score for it (it is then not counted as optimal or not).
    pub optimal: Option<bool>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Each of `entries` (numbered) searched to `depth` with `eval`, from a cleared table. Entries
/// listing no move are skipped.
pub fn suite_rows(eval: &OthelloEval, entries: &[(usize, ObfEntry)], depth: u32) -> Vec<SuiteRow> {
    let mut engine = engine();
    let eval = ordered(eval);
    entries
        .iter()
        .filter_map(|(number, entry)| {
            let exact = entry.best_score()?;
            engine.clear();
            let r = engine
                .search(&entry.position, &eval, &SearchLimits::depth(depth))
                .expect("a depth limit is given");
            let optimal = r
                .best_move
                .and_then(|m| entry.score_of(m))
                .map(|s| s == exact)
                .or_else(|| {
                    // A file listing every move's score says a move it lacks is not optimal;
                    // one listing only the best moves (one score) cannot say.
                    let listed_all =
                        entry.moves.len() as u32 == entry.position.board().moves().count_ones();
                    listed_all.then_some(false)
                });
            Some(SuiteRow {
                number: *number,
                empties: entry.position.empty_count(),
                exact,
                value: in_discs(r.score),
                best_move: r.best_move,
                optimal,
                nodes: r.stats.total.nodes,
            })
        })
        .collect()
}

/// A position with its exact score (side to move's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolvedPosition {
    /// The position.
    pub board: Board,
    /// Its exact score.
    pub score: i32,
}

/// Up to `per_count` positions with each number of `empties`, from games of the first
/// generation's player (a one-ply look at the hand-made evaluation, 10% random moves, 2–20
/// random opening moves) with the seed `seed` (use one no training run used), each solved
/// exactly. The positions of one number of empties come from distinct games.
pub fn solved_positions(seed: u64, empties: &[u32], per_count: usize) -> Vec<SolvedPosition> {
    let options = TrainOptions {
        seed,
        games: per_count * 2 + 16,
        random_plies: (2, 20),
        noise: 0.1,
        play_depth: 0,
        threads: 1,
        ..TrainOptions::default()
    };
    let samples = self_play(&options, &|_| {});
    let mut solver = EndgameSolver::new(16);
    let mut out = Vec::new();
    for &e in empties {
        let mut games = std::collections::HashSet::new();
        for s in samples.iter().filter(|s| s.empties() == e) {
            if games.len() == per_count {
                break;
            }
            if !games.insert(s.game) {
                continue;
            }
            let board = s.board();
            let score = solver.solve(&board, -64, 64).score;
            out.push(SolvedPosition { board, score });
        }
    }
    out
}

/// Up to `per_count` positions with each number of `empties` from the held-out games of
/// recorded games `files` (those `prune train --games FILES` holds out with `holdout_every`:
/// games numbered across the files in order from 0, every `holdout_every`-th), each with its
/// exact score: the game's theoretical score where `empties` is the file's depth (24 in the
/// WTHOR files), else an exact solve (at most 22 empties; more are skipped). One position per
/// game and number of empties, each distinct position once.
pub fn record_positions(
    files: &[crate::wthor::WthorFile],
    empties: &[u32],
    per_count: usize,
    holdout_every: usize,
) -> Vec<SolvedPosition> {
    let holdout_every = holdout_every.max(2);
    let mut solver = EndgameSolver::new(16);
    let mut out = Vec::new();
    for &e in empties {
        let mut seen = std::collections::HashSet::new();
        let mut number = 0usize;
        'files: for file in files {
            let depth = u32::from(file.header.depth);
            for (i, game) in file.games.iter().enumerate() {
                number += 1;
                if !(number - 1).is_multiple_of(holdout_every) {
                    continue;
                }
                if seen.len() == per_count {
                    break 'files;
                }
                let Ok(replay) = game.replay(i + 1) else {
                    continue;
                };
                let Some((board, color)) = replay.at_empties(e) else {
                    continue;
                };
                let scored = depth > 0 && e == depth;
                if !(scored || e <= 22) || !seen.insert((board.player(), board.opponent())) {
                    continue;
                }
                let score = if scored {
                    let black = game.theoretical_margin();
                    if color == crate::Color::Black {
                        black
                    } else {
                        -black
                    }
                } else {
                    solver.solve(&board, -64, 64).score
                };
                out.push(SolvedPosition { board, score });
            }
        }
    }
    out
}

/// The mean absolute error (discs) of `eval`'s static value on `positions`, per number of
/// empties: `(empties, positions, mean absolute error, mean signed error)`, fewest empties
/// first.
pub fn static_errors(
    eval: &OthelloEval,
    positions: &[SolvedPosition],
) -> Vec<(u32, usize, f64, f64)> {
    let mut by: std::collections::BTreeMap<u32, (usize, f64, f64)> = Default::default();
    for p in positions {
        let value = f64::from(eval.evaluate_board(&p.board)) / 100.0;
        let error = value - f64::from(p.score);
        let e = by.entry(p.board.empty_count()).or_default();
        e.0 += 1;
        e.1 += error.abs();
        e.2 += error;
    }
    by.into_iter()
        .map(|(empties, (n, abs, signed))| (empties, n, abs / n as f64, signed / n as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::builtin_suite;
    use crate::{SolveOptions, SolverKind};

    #[test]
    fn the_start_position_at_depth_one_is_the_best_child_s_evaluation() {
        let eval = OthelloEval::default();
        let values = start_values(&eval, 3);
        let depths: Vec<u32> = values.iter().map(|v| v.0).collect();
        assert_eq!(depths, [1, 2, 3]);
        let board = Position::START.board();
        let best = crate::squares(board.moves())
            .map(|s| -eval.evaluate_board(&board.play_unchecked(s)))
            .max()
            .unwrap();
        assert_eq!(values[0].1, f64::from(best) / 100.0);
        assert!(values[0].2 > 0 && values[2].2 > values[0].2, "{values:?}");
    }

    #[test]
    fn suite_rows_judge_moves_by_the_file_s_scores() {
        let entries: Vec<(usize, ObfEntry)> = builtin_suite("ffo-40-59")
            .unwrap()
            .into_iter()
            .take(4)
            .map(|p| (p.number as usize, p.entry))
            .collect();
        let rows = suite_rows(&OthelloEval::default(), &entries, 2);
        assert_eq!(rows.len(), 4);
        for (row, (number, entry)) in rows.iter().zip(&entries) {
            assert_eq!(row.number, *number);
            assert_eq!(Some(row.exact), entry.best_score());
            assert_eq!(row.empties, entry.position.empty_count());
            let listed = row.best_move.and_then(|m| entry.score_of(m));
            match row.optimal {
                Some(true) => assert_eq!(listed, Some(row.exact)),
                Some(false) => assert_ne!(listed, Some(row.exact)),
                None => assert_eq!(listed, None),
            }
        }
    }

    #[test]
    fn solved_positions_are_exact_and_from_distinct_games() {
        let solved = solved_positions(77, &[8, 11], 4);
        assert_eq!(solved.len(), 8);
        let generic = SolveOptions {
            kind: SolverKind::Generic,
            ..SolveOptions::default()
        };
        for p in &solved {
            let position = Position::new(p.board, crate::Color::Black);
            assert_eq!(crate::solve(&position, &generic).unwrap().score, p.score);
        }
        assert!(solved[..4].iter().all(|p| p.board.empty_count() == 8));
        assert!(solved[4..].iter().all(|p| p.board.empty_count() == 11));
        let distinct: std::collections::HashSet<_> = solved
            .iter()
            .map(|p| (p.board.player(), p.board.opponent()))
            .collect();
        assert_eq!(distinct.len(), 8);
        // The errors by empties: each group's mean absolute error bounds its mean error.
        let errors = static_errors(&OthelloEval::default(), &solved);
        assert_eq!(
            errors.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
            [(8, 4), (11, 4)]
        );
        let by_hand: f64 = solved[..4]
            .iter()
            .map(|p| {
                (f64::from(OthelloEval::default().evaluate_board(&p.board)) / 100.0
                    - f64::from(p.score))
                .abs()
            })
            .sum::<f64>()
            / 4.0;
        assert!((errors[0].2 - by_hand).abs() < 1e-9);
    }
}
