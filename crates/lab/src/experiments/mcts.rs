//! `mcts-vs-alphabeta`: Monte Carlo tree search against the alpha-beta family, on the games of
//! the workbench. Two parts:
//!
//! 1. **Matches at equal time per move.** MCTS (UCT with MCTS-Solver, random playouts or
//!    playouts cut off at once by the evaluation) against the generic search's `full` preset
//!    (NegaScout with iterative deepening, static ordering, the refutation table and a
//!    table) on tic-tac-toe, Connect Four and Othello (the hand-made and the trained
//!    evaluation), each at three times per move, from openings a few plies deep played twice
//!    with the colours swapped: wins, draws, losses, score and Elo with a 95% interval. Every
//!    player is the library's, on one thread, with no opening book and no endgame solver of
//!    its own (alpha-beta's search reaches the end of the game by itself when it can).
//! 2. **Solving power.** How many positions each proves within a time budget: random Othello
//!    endgames at 14 to 18 empties (the exact solver's scores as the truth) and the first
//!    positions of Pons's Connect Four test sets (the files' scores as the truth). MCTS-Solver
//!    proves a win, draw or loss; alpha-beta proves the exact value (a search that finishes).
//!    A proof that contradicts the truth is a problem of the report.

use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use prune_connect4::ThreatEval;
use prune_othello::{Ordered, OthelloEval, Position, StaticOrdering};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits};
use prune_search::{Evaluator, Game};

use super::connect4::data_dir;
use super::jobs_setting;
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Table, XAxis};

mod matches;
mod solving;
use matches::{openings, play_matches, Arena};
use solving::solving_power;

/// The defaults, in words.
pub(super) const DEFAULTS: &str = "24 games per pairing and time (10, 40 and 160 ms per move; \
                                   tic-tac-toe 0.02, 0.1 and 0.5 ms), solving within 1 s: 40 \
                                   Othello endgames of 14-18 empties and the first 20 \
                                   positions of four Connect Four test sets";

/// Games per pairing and time per move.
const DEFAULT_GAMES: usize = 24;
/// The times per move (ms) of Connect Four and Othello.
const TIMES_MS: [f64; 3] = [10.0, 40.0, 160.0];
/// The times per move (ms) of tic-tac-toe, whose whole tree alpha-beta searches in a
/// millisecond.
const TICTACTOE_TIMES_MS: [f64; 3] = [0.02, 0.1, 0.5];
/// The time budget of a solve.
const SOLVE_BUDGET: Duration = Duration::from_secs(1);
/// The empties of the Othello endgames to solve.
const ENDGAME_EMPTIES: RangeInclusive<u32> = 14..=18;
/// Othello endgames per count of empties.
const ENDGAMES_PER_COUNT: usize = 8;
/// The Connect Four sets to solve (keys of [`SETS`]) and the positions of each.
const CONNECT4_SETS: [&str; 4] = ["end-easy", "middle-easy", "middle-medium", "begin-easy"];
/// See [`CONNECT4_SETS`].
const CONNECT4_PER_SET: usize = 20;
/// The alpha-beta side's preset.
const PRESET: &str = "full";

/// Positions per game of the thread measurement.
const PARALLEL_POSITIONS: usize = 6;
/// The time of each search of the thread measurement.
const PARALLEL_TIME: Duration = Duration::from_millis(500);

/// The thread measurement's table and findings: playouts per second of each parallel scheme
/// against one thread, each search `thread_time` long.
fn threads(thread_time: Duration, progress: &dyn Progress) -> (Table, Vec<String>) {
    let mut findings = Vec::new();
    let parallel = parallel_speed(thread_time, progress);
    let mut threads_table = Table::new(
        "mcts-threads",
        &format!(
            "Playouts per second with two threads, tree parallelism (one tree, virtual loss) \
             and root parallelism (a tree per thread), against one thread: {PARALLEL_POSITIONS} \
             positions per game, {} s each, one search at a time",
            thread_time.as_secs_f64()
        ),
        &[
            "game",
            "1 thread",
            "tree (2 threads)",
            "root (2 threads)",
            "tree speed-up",
            "root speed-up",
        ],
    );
    for (game, rates) in &parallel {
        threads_table.push(vec![
            Cell::text(*game),
            Cell::real(rates[0], 0),
            Cell::real(rates[1], 0),
            Cell::real(rates[2], 0),
            Cell::real(rates[1] / rates[0], 2),
            Cell::real(rates[2] / rates[0], 2),
        ]);
        findings.push(format!(
            "{game}, two threads: tree parallelism {:.2} times the playouts per second of one \
             thread, root parallelism {:.2} times.",
            rates[1] / rates[0],
            rates[2] / rates[0]
        ));
    }
    (threads_table, findings)
}

/// Playouts per second on Othello and Connect Four positions (openings 8 and 4 plies deep):
/// one thread, then two with each scheme. The searches run one at a time (two threads each).
fn parallel_speed(time: Duration, progress: &dyn Progress) -> Vec<(&'static str, [f64; 3])> {
    use prune_search::mcts::MctsParallel;
    let configs = [
        (1, MctsParallel::Tree),
        (2, MctsParallel::Tree),
        (2, MctsParallel::Root),
    ];
    fn rate<G: Game, E: Evaluator<G>>(
        positions: &[G],
        eval: &E,
        (threads, parallel): (usize, MctsParallel),
        budget: Duration,
    ) -> f64 {
        let (mut playouts, mut time) = (0, 0.0);
        for p in positions {
            let config = MctsConfig {
                threads,
                parallel,
                ..MctsConfig::default()
            };
            let mut search = Mcts::new(config).expect("a valid configuration");
            let start = Instant::now();
            playouts += search
                .search(p, eval, &MctsLimits::time(budget), None)
                .playouts;
            time += start.elapsed().as_secs_f64();
        }
        playouts as f64 / time
    }
    progress.start("threads", 2 * configs.len() as u64);
    let othello = openings(&Position::START, 8, PARALLEL_POSITIONS);
    let connect4 = openings(&prune_connect4::Position::START, 4, PARALLEL_POSITIONS);
    let eval = Ordered {
        eval: OthelloEval::default(),
        ordering: StaticOrdering::default(),
    };
    let mut out = Vec::new();
    let mut rates = [0.0; 3];
    for (k, &config) in configs.iter().enumerate() {
        rates[k] = rate(&othello, &eval, config, time);
        progress.advance("othello");
    }
    out.push(("Othello", rates));
    for (k, &config) in configs.iter().enumerate() {
        rates[k] = rate(&connect4, &ThreatEval, config, time);
        progress.advance("connect4");
    }
    out.push(("Connect Four", rates));
    out
}

/// Runs the experiment: the matches (`matches`), the solving power (`solving`), and the
/// thread measurement.
pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let games = options.games.unwrap_or(DEFAULT_GAMES);
    if games == 0 {
        return Err(LabError::Usage("--games must be at least 1".into()));
    }
    // `--time-per-move MS`: one time per move (Connect Four and Othello; tic-tac-toe at a
    // fiftieth of it) instead of three.
    let single = options.time_per_move;
    if single == Some(0) {
        return Err(LabError::Usage(
            "--time-per-move must be at least 1 ms".into(),
        ));
    }
    let time_points: Vec<usize> = match single {
        Some(_) => vec![0],
        None => (0..TIMES_MS.len()).collect(),
    };
    let times_of = |arena: Arena| -> Vec<f64> {
        match single {
            Some(ms) if arena == Arena::TicTacToe => vec![ms as f64 / 50.0],
            Some(ms) => vec![ms as f64],
            None => arena.times().to_vec(),
        }
    };
    // A quick run (`--time-per-move`) scales the other budgets down with its time.
    let budget = single.map_or(SOLVE_BUDGET, |ms| Duration::from_millis(20 * ms));
    let thread_time = single.map_or(PARALLEL_TIME, |ms| Duration::from_millis(10 * ms));
    let dir = data_dir(options)?;
    let jobs = options.jobs();

    let (matches, mut findings, series) =
        play_matches(games, &time_points, &times_of, jobs, progress);
    let solving = solving_power(&dir, budget, jobs, progress)?;
    findings.extend(solving.findings);
    let (threads_table, thread_findings) = threads(thread_time, progress);
    findings.extend(thread_findings);

    let categories: Vec<String> = time_points
        .iter()
        .map(|&t| match single {
            Some(ms) => format!("{ms} ms (tic-tac-toe {:.2})", ms as f64 / 50.0),
            None => format!("{} ms (tic-tac-toe {})", TIMES_MS[t], TICTACTOE_TIMES_MS[t]),
        })
        .collect();
    let plots = vec![Plot {
        name: "mcts-strength".into(),
        title: "MCTS's score against alpha-beta by time per move".into(),
        x_label: "time per move".into(),
        y_label: "MCTS's score, % (50: equal strength)".into(),
        x_axis: XAxis::Categories(categories),
        log_y: false,
        series,
        legend: Legend::UpperRight,
    }];
    Ok(Report {
        experiment: "mcts-vs-alphabeta".into(),
        files: Vec::new(),
        title: "Monte Carlo tree search against alpha-beta".into(),
        reproduces: "The question behind UCT (Kocsis and Szepesvari, 2006) and MCTS-Solver \
                     (Winands, Bjornsson and Saito, 2008) beside the alpha-beta family: at \
                     equal time, where does sampling beat a full-width search with an \
                     evaluation, and how much can each prove exactly?"
            .into(),
        problems: solving.problems,
        settings: vec![
            (
                "matches".into(),
                format!(
                    "{games} games per row, openings {} plies deep (distinct positions, spread \
                     over the list), each played with the colours swapped; MCTS: UCB1 C = \
                     1.414, MCTS-Solver, random playouts or the evaluation read as a win \
                     probability at the new leaf (no random moves), tree reused between \
                     moves; alpha-beta: `{PRESET}` preset, NegaScout, iterative deepening to \
                     the time",
                    "2 (tic-tac-toe, Connect Four) or 4 (Othello)"
                ),
            ),
            (
                "solving".into(),
                format!(
                    "{} s per position; Othello: {} random endgames per count of {}-{} empties; \
                     Connect Four: the first {CONNECT4_PER_SET} positions of {} ({})",
                    budget.as_secs_f64(),
                    ENDGAMES_PER_COUNT,
                    ENDGAME_EMPTIES.start(),
                    ENDGAME_EMPTIES.end(),
                    solving.sets.join(", "),
                    dir.display()
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables: vec![matches, solving.table, threads_table],
        plots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use matches::PAIRINGS;

    #[test]
    fn a_quick_run_proves_nothing_false_and_fills_every_table() {
        let options = LabOptions {
            games: Some(1),
            time_per_move: Some(1),
            ..LabOptions::default()
        };
        let report = run(&options, &NoProgress).unwrap();
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        let matches = report.table("mcts-matches").unwrap();
        assert_eq!(matches.rows.len(), PAIRINGS.len());
        let solving = report.table("mcts-solving").unwrap();
        assert_eq!(
            solving.rows.len(),
            ENDGAME_EMPTIES.count() + CONNECT4_SETS.len()
        );
        assert_eq!(report.table("mcts-threads").unwrap().rows.len(), 2);
    }
}
