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
use prune_othello::endgame::EndgameSolver;
use prune_othello::{Ordered, OthelloEval, Position, StaticOrdering};
use prune_play::elo::{signed, EloEstimate};
use prune_search::mcts::{Mcts, MctsConfig, MctsLimits, Proof};
use prune_search::{Algorithm, Engine, Evaluator, Game, Preset, Score, SearchLimits};

use super::connect4::{data_dir, load, SETS};
use super::jobs_setting;
use crate::runner::run_tasks;
use crate::{Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series, Table, XAxis};

mod matches;
use matches::{openings, play_task, Arena, GameResult, MatchTask, PAIRINGS};

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

/// What a solve attempt found: whether it proved the result, and in what time.
#[derive(Clone, Copy, Debug)]
struct SolveResult {
    proved: bool,
    /// Whether the proof agrees with the truth (true when nothing was proved).
    correct: bool,
    time: Duration,
}

/// MCTS-Solver (`mcts`) or alpha-beta on `game` within the budget, checked against `truth`.
fn solve<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    mcts: bool,
    truth: Proof,
    budget: Duration,
) -> SolveResult {
    let start = Instant::now();
    if mcts {
        let mut search = Mcts::new(MctsConfig::default()).expect("a valid configuration");
        let r = search.search(game, eval, &MctsLimits::time(budget), None);
        return SolveResult {
            proved: r.proof.is_some(),
            correct: r.proof.is_none_or(|p| p == truth),
            time: start.elapsed(),
        };
    }
    let config = Preset::find(PRESET)
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the preset exists");
    let limits = SearchLimits {
        depth: Some(SearchLimits::MAX_DEPTH),
        nodes: None,
        time: Some(budget),
    };
    let r = Engine::new(config)
        .expect("a valid preset")
        .search(game, eval, &limits)
        .expect("the limits have a depth");
    let proved = r.exhausted && !r.interrupted;
    SolveResult {
        proved,
        correct: !proved || Proof::of(r.score) == truth,
        time: start.elapsed(),
    }
}

/// A position to solve, with the truth.
#[derive(Clone, Debug)]
enum SolveTask {
    Othello {
        position: Position,
        empties: u32,
        truth: Proof,
        mcts: bool,
    },
    Connect4 {
        position: prune_connect4::Position,
        set: &'static str,
        truth: Proof,
        mcts: bool,
    },
}

/// Random Othello endgames: ENDGAMES_PER_COUNT positions for each count of ENDGAME_EMPTIES.
fn othello_endgames() -> Vec<(Position, u32)> {
    super::random_endgames(0x6d63_7473, ENDGAME_EMPTIES, ENDGAMES_PER_COUNT)
}

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

    // 1. Matches.
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

    // 2. Solving power.
    let mut solve_tasks = Vec::new();
    let mut solver = EndgameSolver::new(64);
    let mut exact_time = Duration::ZERO;
    for (position, empties) in othello_endgames() {
        let start = Instant::now();
        let exact = solver.solve(position.board(), -64, 64).score;
        exact_time += start.elapsed();
        let truth = Proof::of(Score::exact(exact));
        for mcts in [true, false] {
            solve_tasks.push(SolveTask::Othello {
                position,
                empties,
                truth,
                mcts,
            });
        }
    }
    let mut c4_sets = Vec::new();
    for key in CONNECT4_SETS {
        let info = SETS.iter().find(|s| s.key == key).expect("a known set");
        let set = load(&dir, info, CONNECT4_PER_SET)?;
        c4_sets.push(info.name);
        for record in set.records {
            let Some(score) = record.score else { continue };
            let truth = Proof::of(Score::exact(score));
            for mcts in [true, false] {
                solve_tasks.push(SolveTask::Connect4 {
                    position: record.position,
                    set: info.name,
                    truth,
                    mcts,
                });
            }
        }
    }
    progress.start("solving power", solve_tasks.len() as u64);
    let solved = run_tasks(
        &solve_tasks,
        jobs,
        progress,
        |t| match t {
            SolveTask::Othello { empties, .. } => format!("othello {empties} empties"),
            SolveTask::Connect4 { set, .. } => format!("connect4 {set}"),
        },
        |t| match t {
            SolveTask::Othello {
                position,
                truth,
                mcts,
                ..
            } => {
                let eval = Ordered {
                    eval: OthelloEval::default(),
                    ordering: StaticOrdering::default(),
                };
                solve(position, &eval, *mcts, *truth, budget)
            }
            SolveTask::Connect4 {
                position,
                truth,
                mcts,
                ..
            } => solve(position, &ThreatEval, *mcts, *truth, budget),
        },
    );
    let mut solving = Table::new(
        "mcts-solving",
        &format!(
            "Positions proved within {} s each: MCTS-Solver (random playouts) proves the win, \
             draw or loss; alpha-beta (the `{PRESET}` preset, NegaScout) the exact value",
            budget.as_secs_f64()
        ),
        &[
            "positions",
            "count",
            "MCTS-Solver proved",
            "MCTS-Solver mean s",
            "alpha-beta proved",
            "alpha-beta mean s",
        ],
    );
    let mut problems = Vec::new();
    let mut groups: Vec<String> = ENDGAME_EMPTIES
        .map(|e| format!("Othello, {e} empties"))
        .collect();
    groups.extend(c4_sets.iter().map(|s| format!("Connect Four, {s}")));
    let group_of = |t: &SolveTask| match t {
        SolveTask::Othello { empties, .. } => format!("Othello, {empties} empties"),
        SolveTask::Connect4 { set, .. } => format!("Connect Four, {set}"),
    };
    let is_mcts = |t: &SolveTask| match t {
        SolveTask::Othello { mcts, .. } | SolveTask::Connect4 { mcts, .. } => *mcts,
    };
    let mut totals = [(0usize, 0usize); 2];
    for group in &groups {
        let of = |mcts: bool| -> Vec<&SolveResult> {
            solve_tasks
                .iter()
                .zip(&solved)
                .filter(|(t, _)| &group_of(t) == group && is_mcts(t) == mcts)
                .map(|(_, r)| r)
                .collect()
        };
        let (m, a) = (of(true), of(false));
        let proved = |rs: &[&SolveResult]| rs.iter().filter(|r| r.proved).count();
        let mean = |rs: &[&SolveResult]| {
            rs.iter().map(|r| r.time.as_secs_f64()).sum::<f64>() / rs.len().max(1) as f64
        };
        for (name, rs) in [("MCTS-Solver", &m), ("alpha-beta", &a)] {
            let wrong = rs.iter().filter(|r| !r.correct).count();
            if wrong > 0 {
                problems.push(format!("{group}: {name} proved {wrong} results wrong"));
            }
        }
        totals[0].0 += proved(&m);
        totals[0].1 += m.len();
        totals[1].0 += proved(&a);
        totals[1].1 += a.len();
        solving.push(vec![
            Cell::text(group.clone()),
            Cell::Count(m.len() as u64),
            Cell::Count(proved(&m) as u64),
            Cell::real(mean(&m), 3),
            Cell::Count(proved(&a) as u64),
            Cell::real(mean(&a), 3),
        ]);
        findings.push(format!(
            "Solving {group} within {} s: MCTS-Solver proved {} of {}, alpha-beta {} of {}.",
            budget.as_secs_f64(),
            proved(&m),
            m.len(),
            proved(&a),
            a.len()
        ));
    }
    findings.push(format!(
        "In all, MCTS-Solver proved {} of {} positions and alpha-beta {} of {}; Othello's own \
         exact solver took {:.3} s for all {} endgames together.",
        totals[0].0,
        totals[0].1,
        totals[1].0,
        totals[1].1,
        exact_time.as_secs_f64(),
        ENDGAMES_PER_COUNT * ENDGAME_EMPTIES.count(),
    ));

    // 3. Two threads: playouts per second of each parallel scheme against one thread.
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
        problems,
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
                    c4_sets.join(", "),
                    dir.display()
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables: vec![matches, solving, threads_table],
        plots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;

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
