//! The matches of `mcts-vs-alphabeta`: the arenas (a game with the evaluation both players
//! use), the pairings of MCTS against alpha-beta, one match task's games in the play layer's
//! arena, and the matches' table.

use std::time::Duration;

use prune_connect4::ThreatEval;
use prune_games::{LineEval, TicTacToe};
use prune_othello::{Ordered, OthelloEval, Position, StaticOrdering};
use prune_play::agents::{MctsAgent, SearchAgent};
use prune_play::arena;
use prune_play::elo::{signed, EloEstimate};
use prune_play::openings::pick;
use prune_play::playable::distinct_openings;
use prune_play::{AgentSpec, GameRecord, Playable, TimeControl, MCTS};
use prune_registry::RegisteredGame;
use prune_search::mcts::{MctsConfig, Playout};
use prune_search::Evaluator;

use super::{PRESET, TICTACTOE_TIMES_MS, TIMES_MS};
use crate::runner::run_tasks;
use crate::{Cell, Progress, Series, Table};

/// A game with the evaluation both players use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arena {
    TicTacToe,
    Connect4,
    OthelloHand,
    OthelloPattern,
}

impl Arena {
    pub(super) fn name(self) -> &'static str {
        match self {
            Arena::TicTacToe => "tic-tac-toe",
            Arena::Connect4 => "Connect Four",
            Arena::OthelloHand => "Othello, hand-made evaluation",
            Arena::OthelloPattern => "Othello, trained evaluation",
        }
    }

    /// The openings' depth in plies.
    pub(super) fn plies(self) -> u32 {
        match self {
            Arena::TicTacToe | Arena::Connect4 => 2,
            Arena::OthelloHand | Arena::OthelloPattern => 4,
        }
    }

    pub(super) fn times(self) -> [f64; 3] {
        match self {
            Arena::TicTacToe => TICTACTOE_TIMES_MS,
            _ => TIMES_MS,
        }
    }
}

/// One pairing: MCTS with a playout policy against alpha-beta, on one arena.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pairing {
    pub(super) arena: Arena,
    pub(super) playout: Playout,
}

impl Pairing {
    pub(super) fn mcts_name(&self) -> String {
        match self.playout {
            Playout::Random => "MCTS, random playouts".into(),
            Playout::Cutoff { .. } => "MCTS, evaluation at the leaf".into(),
        }
    }

    pub(super) fn name(&self) -> String {
        format!("{}: {}", self.arena.name(), self.mcts_name())
    }
}

pub(super) const PAIRINGS: [Pairing; 6] = [
    Pairing {
        arena: Arena::TicTacToe,
        playout: Playout::Random,
    },
    Pairing {
        arena: Arena::Connect4,
        playout: Playout::Random,
    },
    Pairing {
        arena: Arena::Connect4,
        playout: Playout::Cutoff { plies: 0 },
    },
    Pairing {
        arena: Arena::OthelloHand,
        playout: Playout::Random,
    },
    Pairing {
        arena: Arena::OthelloPattern,
        playout: Playout::Random,
    },
    Pairing {
        arena: Arena::OthelloPattern,
        playout: Playout::Cutoff { plies: 0 },
    },
];

/// `count` of the distinct unfinished positions `plies` plies after `root` (the play layer's
/// openings), spread over them in their order.
pub(super) fn openings<G: RegisteredGame>(root: &G, plies: u32, count: usize) -> Vec<G> {
    let all = distinct_openings(root.clone(), plies);
    pick(&all, count.min(all.len()), None)
        .into_iter()
        .map(|line| line.current().clone())
        .collect()
}

/// One game from `opening`: MCTS's score (1, ½, 0), its playouts and moves, alpha-beta's nodes
/// and moves.
#[derive(Clone, Copy, Debug, Default)]
struct GameResult {
    pub(super) mcts_score: f64,
    pub(super) playouts: u64,
    pub(super) mcts_moves: u64,
    pub(super) nodes: u64,
    pub(super) ab_moves: u64,
}

/// One game in the play layer's arena at `time` per move: MCTS with `playout` against the
/// generic search's [`PRESET`], both with `eval`, on one thread, no endgame solver.
fn play_game<G: Playable, E: Evaluator<G> + Clone>(
    opening: &G,
    eval: &E,
    playout: Playout,
    time: Duration,
    mcts_first: bool,
) -> GameResult {
    let mut spec = AgentSpec::new(MCTS);
    spec.mcts = MctsConfig {
        playout,
        ..MctsConfig::default()
    };
    let mut mcts = MctsAgent::new(&spec, eval.clone()).expect("a valid configuration");
    let mut ab =
        SearchAgent::new(&AgentSpec::new(PRESET), eval.clone()).expect("the preset exists");
    let start = GameRecord::new(opening.clone());
    let control = TimeControl::PerMove(time);
    let game = if mcts_first {
        arena::play_game(&mut mcts, &mut ab, &start, control)
    } else {
        arena::play_game(&mut ab, &mut mcts, &start, control)
    };
    let (m, a, margin) = if mcts_first {
        (game.first, game.second, game.first_margin())
    } else {
        (game.second, game.first, -game.first_margin())
    };
    GameResult {
        mcts_score: match margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        },
        playouts: m.nodes,
        mcts_moves: u64::from(m.moves),
        nodes: a.nodes,
        ab_moves: u64::from(a.moves),
    }
}

/// A match task: a pairing, a time and an opening, played with both colours (or once).
#[derive(Clone, Copy, Debug)]
struct MatchTask {
    pub(super) pairing: usize,
    pub(super) time: usize,
    /// The opening's index among `pairs` spread over the arena's openings.
    pub(super) opening: usize,
    pub(super) pairs: usize,
    pub(super) games: usize,
}

/// The `i`-th of `pairs` openings spread over the distinct positions `plies` deep (round
/// again if there are fewer).
fn opening<G: RegisteredGame>(root: &G, plies: u32, pairs: usize, i: usize) -> G {
    let list = openings(root, plies, pairs);
    list[i % list.len()].clone()
}

/// Plays `task`'s games at `time` per move, MCTS first in the first game.
fn play_task(task: &MatchTask, time: Duration) -> Vec<GameResult> {
    let pairing = PAIRINGS[task.pairing];
    let arena = pairing.arena;
    let (plies, pairs, i) = (arena.plies(), task.pairs, task.opening);
    (0..task.games)
        .map(|g| {
            let first = g == 0;
            match arena {
                Arena::TicTacToe => {
                    let o = opening(&TicTacToe::new(), plies, pairs, i);
                    play_game(&o, &LineEval, pairing.playout, time, first)
                }
                Arena::Connect4 => {
                    let o = opening(&prune_connect4::Position::START, plies, pairs, i);
                    play_game(&o, &ThreatEval, pairing.playout, time, first)
                }
                Arena::OthelloHand | Arena::OthelloPattern => {
                    let eval = Ordered {
                        eval: if arena == Arena::OthelloHand {
                            OthelloEval::Hand
                        } else {
                            OthelloEval::default()
                        },
                        ordering: StaticOrdering::default(),
                    };
                    let o = opening(&Position::START, plies, pairs, i);
                    play_game(&o, &eval, pairing.playout, time, first)
                }
            }
        })
        .collect()
}

/// Plays every pairing at each of `time_points` (indices of [`TIMES_MS`]; `times_of` gives an
/// arena's times per move in ms), `games` games a row, on `jobs` threads: the matches' table,
/// one finding a row, and each pairing's score by time for the plot.
pub(super) fn play_matches(
    games: usize,
    time_points: &[usize],
    times_of: &(dyn Fn(Arena) -> Vec<f64> + Sync),
    jobs: usize,
    progress: &dyn Progress,
) -> (Table, Vec<String>, Vec<Series>) {
    let pairs = games.div_ceil(2);
    let tasks: Vec<MatchTask> = (0..PAIRINGS.len())
        .flat_map(|pairing| {
            time_points.iter().flat_map(move |&time| {
                (0..pairs).map(move |p| MatchTask {
                    pairing,
                    time,
                    opening: p,
                    pairs,
                    games: if 2 * p + 1 < games { 2 } else { 1 },
                })
            })
        })
        .collect();
    progress.start("matches: game pairs", tasks.len() as u64);
    let played = run_tasks(
        &tasks,
        jobs,
        progress,
        |t| format!("{} #{}", PAIRINGS[t.pairing].name(), t.opening + 1),
        |t| {
            let ms = times_of(PAIRINGS[t.pairing].arena)[t.time];
            play_task(t, Duration::from_secs_f64(ms / 1e3))
        },
    );
    let mut matches = Table::new(
        "mcts-matches",
        &format!(
            "MCTS (A) against alpha-beta (B: the `{PRESET}` preset, NegaScout) at equal time per \
             move, one thread each, {games} games per row"
        ),
        &[
            "game",
            "MCTS",
            "ms per move",
            "wins",
            "draws",
            "losses",
            "score %",
            "Elo",
            "95% interval",
            "playouts per move",
            "alpha-beta nodes per move",
        ],
    );
    let mut findings = Vec::new();
    let mut series = Vec::new();
    for (pi, pairing) in PAIRINGS.iter().enumerate() {
        let mut points = Vec::new();
        for (k, &t) in time_points.iter().enumerate() {
            let results: Vec<GameResult> = tasks
                .iter()
                .zip(&played)
                .filter(|(task, _)| task.pairing == pi && task.time == t)
                .flat_map(|(_, r)| r.iter().copied())
                .collect();
            let wins = results.iter().filter(|r| r.mcts_score == 1.0).count() as u32;
            let draws = results.iter().filter(|r| r.mcts_score == 0.5).count() as u32;
            let losses = results.len() as u32 - wins - draws;
            let e = EloEstimate::from_results(wins, draws, losses).expect("games were played");
            let sum = |f: fn(&GameResult) -> u64| results.iter().map(f).sum::<u64>() as f64;
            let per = |work: f64, moves: f64| if moves > 0.0 { work / moves } else { 0.0 };
            let ms = times_of(pairing.arena)[k];
            let interval = e.interval_text();
            matches.push(vec![
                Cell::text(pairing.arena.name()),
                Cell::text(pairing.mcts_name()),
                Cell::real(ms, if ms < 1.0 { 2 } else { 0 }),
                Cell::Count(u64::from(wins)),
                Cell::Count(u64::from(draws)),
                Cell::Count(u64::from(losses)),
                Cell::real(100.0 * e.score, 1),
                e.elo.map_or(Cell::Empty, |x| Cell::text(signed(x))),
                Cell::text(interval.clone()),
                Cell::real(per(sum(|r| r.playouts), sum(|r| r.mcts_moves)), 0),
                Cell::real(per(sum(|r| r.nodes), sum(|r| r.ab_moves)), 0),
            ]);
            points.push((k as f64, 100.0 * e.score));
            findings.push(format!(
                "{} at {ms} ms per move: MCTS {}-{}-{} (W-D-L), score {:.1}%, Elo {} ({interval}).",
                pairing.name(),
                wins,
                draws,
                losses,
                100.0 * e.score,
                e.elo.map_or("unbounded".to_string(), signed),
            ));
        }
        series.push(Series::new(pairing.name(), points));
    }
    (matches, findings, series)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune_search::Game;

    #[test]
    fn openings_are_distinct_unfinished_and_spread() {
        let all = openings(&prune_connect4::Position::START, 2, 1000);
        assert_eq!(all.len(), 49, "7 x 7 two-ply positions, all distinct");
        let some = openings(&TicTacToe::new(), 2, 5);
        assert_eq!(some.len(), 5);
        let hashes: std::collections::HashSet<u64> = some.iter().map(|g| g.hash()).collect();
        assert_eq!(hashes.len(), 5);
        assert!(some.iter().all(|g| g.outcome().is_none()));
        // More pairs than openings go round again.
        let a = opening(&prune_connect4::Position::START, 2, 60, 3);
        let b = opening(&prune_connect4::Position::START, 2, 60, 52);
        assert_eq!(a.hash(), b.hash());
    }

    #[test]
    fn a_game_ends_with_a_result_for_mcts() {
        for first in [true, false] {
            let r = play_game(
                &TicTacToe::new(),
                &LineEval,
                Playout::Random,
                Duration::from_millis(2),
                first,
            );
            assert!([0.0, 0.5, 1.0].contains(&r.mcts_score));
            assert!(r.mcts_moves >= 4 && r.ab_moves >= 4, "{r:?}");
            assert!(r.playouts > 0 && r.nodes > 0);
        }
    }
}
