//! `prune match`: games between two engine configurations (or an external NBoard engine) from
//! a set of openings with the colours swapped; wins, draws, losses, disc margin and Elo.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use prune_othello::midgame::Selectivity;
use prune_play::arena::{play_match, MatchGame, MatchSummary, Tally};
use prune_play::external::{ExternalEngine, ExternalOptions, StartWait};
use prune_play::openings::{all_openings, pick, DEFAULT_PLIES, MAX_PLIES};
use prune_play::{Agent, EnginePlayer, PlayerOptions, TimeControl};
use prune_search::{Parallel, ParallelKind};
use serde_json::json;

use crate::eval_arg::parse_eval;
use crate::games::GameChoice;
use crate::mcts_args::{MctsArgs, PlayerEngines};
use crate::CliError;

mod report;
pub use report::{elo_line, score_percent, totals_json};
use report::{match_json, print_match, Info};

/// The time per move when no time control is given, in milliseconds.
const DEFAULT_MS_PER_MOVE: u64 = 100;

/// The longest time per move (a million seconds, as the longest clock).
const MAX_MS_PER_MOVE: u64 = 1_000_000_000;

/// The most games of one match.
const MAX_GAMES: u32 = 1_000_000;

/// Forfeits listed under the table (all of them are in the JSON).
const MAX_FORFEITS_SHOWN: usize = 5;

/// Options of `prune match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game: `othello`, `connect4` or `shogi` (openings: the positions after `--openings`
    /// moves, 2 by default; the Connect Four engines solve exactly when they can finish in
    /// time; shogi players are presets of its engine: full, exhaustive, plain, minimal).
    #[arg(long, default_value = "othello")]
    pub game: String,
    /// Player A: `fast` (Othello's fast midgame search), `mcts` (Monte Carlo tree search) or
    /// a preset of the generic search (`prune presets` lists them). The results are A's.
    #[arg(long, value_name = "PRESET")]
    pub a: String,
    /// Player A's evaluation: pattern (the built-in trained weights), hand (the hand-made
    /// evaluation) or a weights file written by `prune train`.
    #[arg(long, value_name = "EVAL", default_value = "pattern")]
    pub a_eval: String,
    /// Player A's forward pruning: off, or Multi-ProbCut's margin in deviations such as 1.0,
    /// 1.5, 2.0 or 2.6 (see `prune lab probcut`); with a preset of the generic search, its
    /// algorithm must be alphabeta or negascout.
    #[arg(long, value_name = "LEVEL", default_value = "off")]
    pub a_selectivity: String,
    /// Player B: `fast`, `mcts` or a preset, as `--a`.
    #[arg(long, value_name = "PRESET", conflicts_with = "b_engine")]
    pub b: Option<String>,
    /// Player B's evaluation (as `--a-eval`).
    #[arg(long, value_name = "EVAL", default_value = "pattern")]
    pub b_eval: String,
    /// Player B's forward pruning, as `--a-selectivity`.
    #[arg(long, value_name = "LEVEL", default_value = "off")]
    pub b_selectivity: String,
    /// Player B: an external engine that speaks the NBoard protocol, started with this command
    /// (a program and its arguments, split on whitespace; no shell).
    #[arg(long, value_name = "COMMAND")]
    pub b_engine: Option<String>,
    /// Games to play: each opening twice with the colours swapped (an odd last game is played
    /// from a new opening with A black).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 20)]
    pub games: u32,
    /// Milliseconds per move for both sides [default: 100].
    #[arg(long, value_name = "MS", conflicts_with_all = ["time", "depth"])]
    pub time_per_move: Option<u64>,
    /// A time control for both sides: SECONDS[+INCREMENT] per game (300, 60+1), move:MS or
    /// depth:N.
    #[arg(long, value_name = "CONTROL", conflicts_with = "depth")]
    pub time: Option<String>,
    /// Search every move to this depth, both sides (exact endgame solves near the end).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// The algorithm of the presets: alphabeta, negascout, mtdf, ...; or `mcts`: both prune
    /// players search with Monte Carlo tree search (a player can also be named `mcts`).
    #[arg(long, default_value = "negascout")]
    pub algorithm: String,
    /// The openings: the distinct positions (up to symmetry) this many plies after the start,
    /// 0 to 8 [default: 4, or more when the games need more openings than 4 plies give].
    #[arg(long, value_name = "PLIES")]
    pub openings: Option<u32>,
    /// Shuffle the openings with this seed (default: spread evenly over the set, in its order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads of each prune player.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Games played at once, each pair of games (one opening, both colours) by its own two
    /// prune players (not with --b-engine). Give each game its own cores: at most the cores
    /// divided by --threads, or the players' time per move is shared.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// An external engine's limit on a move without a time (at a fixed depth), in seconds.
    /// Timed moves may take twice their time plus a second.
    #[arg(long, value_name = "SECONDS", requires = "b_engine")]
    pub engine_timeout: Option<f64>,
    /// How long an external engine may take to start and answer its first `ping`, in seconds
    /// [default: 120] (Edax 4.6 without a book file searches for tens of seconds first). The
    /// wait is shown on stderr every 5 s unless `-q`.
    #[arg(long, value_name = "SECONDS", requires = "b_engine")]
    pub engine_start_timeout: Option<f64>,
    /// The NBoard protocol version sent to an external engine, `nboard 1` or `nboard 2`
    /// [default: 1]: Edax 4.6 expects 1 (it complains about 2 on stderr, then goes on),
    /// `prune nboard` takes either.
    #[arg(long, value_name = "VERSION", requires = "b_engine",
          value_parser = clap::value_parser!(u32).range(1..=2))]
    pub engine_protocol: Option<u32>,
    /// Write every game as GGF to this file, one game per line.
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<PathBuf>,
    /// Print one JSON object (every game included) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Monte Carlo tree search's options (a player named `mcts`, or --algorithm mcts).
    #[command(flatten)]
    pub mcts_args: MctsArgs,
}

/// Player B as described on the command line.
enum BSpec<'a> {
    Preset(&'a str),
    Engine(&'a str),
}

/// The time control of the options.
pub(crate) fn time_control(args: &MatchArgs) -> Result<TimeControl, CliError> {
    if let Some(ms) = args.time_per_move {
        if !(1..=MAX_MS_PER_MOVE).contains(&ms) {
            return Err(CliError::Usage(format!(
                "--time-per-move must be 1 to {MAX_MS_PER_MOVE} ms"
            )));
        }
        return Ok(TimeControl::PerMove(Duration::from_millis(ms)));
    }
    if let Some(depth) = args.depth {
        return format!("depth:{depth}")
            .parse()
            .map_err(|e| CliError::Usage(format!("--depth: {e}")));
    }
    match &args.time {
        Some(text) => match text.parse() {
            Ok(TimeControl::PerMove(t)) if t > Duration::from_millis(MAX_MS_PER_MOVE) => {
                Err(CliError::Usage(format!(
                    "--time {text}: at most {MAX_MS_PER_MOVE} ms per move"
                )))
            }
            Ok(control) => Ok(control),
            Err(e) => Err(CliError::Usage(format!("--time: {e}"))),
        },
        None => Ok(TimeControl::PerMove(Duration::from_millis(
            DEFAULT_MS_PER_MOVE,
        ))),
    }
}

/// A prune player of `preset`.
fn engine_player(
    option: &str,
    preset: &str,
    (eval, selectivity): (&str, &str),
    engines: &PlayerEngines,
    parallel: Parallel,
) -> Result<EnginePlayer, CliError> {
    let level: Selectivity = selectivity
        .parse()
        .map_err(|e| CliError::Usage(format!("{option}-selectivity: {e}")))?;
    let preset = engines.spec(preset);
    let mut options = PlayerOptions::preset(preset, engines.algorithm)
        .and_then(|o| o.with_selectivity(level))
        .map_err(|e| CliError::Usage(format!("{option}: {e}")))?;
    options.parallel = parallel;
    engines.configure(&mut options)?;
    options.eval = parse_eval(&format!("{option}-eval"), eval)?;
    if eval.trim() != "pattern" {
        options.name = format!("{} ({})", options.name, eval.trim());
    }
    EnginePlayer::new(options).map_err(|e| CliError::Usage(format!("{option} {preset}: {e}")))
}

/// `value` seconds of `option` as a duration: positive and at most a million.
fn seconds(option: &str, value: f64) -> Result<Duration, CliError> {
    if value.is_finite() && value > 0.0 && value <= 1e6 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(CliError::Usage(format!(
            "{option}: '{value}' is not a positive number of seconds (at most 1000000)"
        )))
    }
}

/// The line that shows an external engine's start-up wait.
fn start_wait_line(wait: &StartWait) -> String {
    format!(
        "waiting for {} to start: {:.0} s (at most {:.0} s, --engine-start-timeout) ...",
        wait.engine,
        wait.waited.as_secs_f64(),
        wait.limit.as_secs_f64()
    )
}

/// A progress bar on standard error, one step per game.
pub(crate) fn progress_bar(games: u64, quiet: bool) -> Option<ProgressBar> {
    if quiet {
        return None;
    }
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// Runs `prune match`.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    if args.games == 0 || args.games > MAX_GAMES {
        return Err(CliError::Usage(format!(
            "--games must be at least 1 (and at most {MAX_GAMES})"
        )));
    }
    match args.game.parse::<GameChoice>()? {
        GameChoice::Othello => {}
        GameChoice::Connect4 => return crate::connect4_cmd::arena::run(args),
        GameChoice::Shogi => return crate::shogi_cmd::run_match(args),
        other => {
            return Err(CliError::Usage(format!(
                "--game {other}: prune match plays othello, connect4 and shogi"
            )))
        }
    }
    let b_spec = match (&args.b, &args.b_engine) {
        (Some(preset), None) => BSpec::Preset(preset),
        (None, Some(command)) if !command.trim().is_empty() => BSpec::Engine(command),
        (None, Some(_)) => return Err(CliError::Usage("--b-engine: the command is empty".into())),
        _ => {
            return Err(CliError::Usage(
                "player B is missing: give --b PRESET or --b-engine COMMAND".into(),
            ))
        }
    };
    // (clap's `requires` does not catch these when --b is given.)
    if args.b_engine.is_none() {
        for (given, option) in [
            (args.engine_timeout.is_some(), "--engine-timeout"),
            (
                args.engine_start_timeout.is_some(),
                "--engine-start-timeout",
            ),
            (args.engine_protocol.is_some(), "--engine-protocol"),
        ] {
            if given {
                return Err(CliError::Usage(format!(
                    "{option} concerns an external engine: it needs --b-engine"
                )));
            }
        }
    }
    if args.b_engine.is_some() && args.b_selectivity.trim() != "off" {
        return Err(CliError::Usage(
            "--b-selectivity is a prune player's: it does not apply to --b-engine".into(),
        ));
    }
    if args.jobs == 0 {
        return Err(CliError::Usage("--jobs must be at least 1".into()));
    }
    if args.jobs > 1 && args.b_engine.is_some() {
        return Err(CliError::Usage(
            "--jobs: games are played one at a time against an external engine".into(),
        ));
    }
    let control = time_control(args)?;
    let engines = PlayerEngines::new(
        &args.algorithm,
        &args.mcts_args,
        &[&args.a, args.b.as_deref().unwrap_or("")],
    )?;
    let parallel = Parallel::new(args.threads, ParallelKind::Ybwc)
        .map_err(|e| CliError::Usage(format!("--threads: {e}")))?;
    if args.openings.is_some_and(|p| p > MAX_PLIES) {
        return Err(CliError::Usage(format!(
            "--openings: at most {MAX_PLIES} plies"
        )));
    }
    let defaults = ExternalOptions::default();
    let engine_options = ExternalOptions {
        protocol: args.engine_protocol.unwrap_or(defaults.protocol),
        start_timeout: match args.engine_start_timeout {
            Some(s) => seconds("--engine-start-timeout", s)?,
            None => defaults.start_timeout,
        },
        untimed_limit: match args.engine_timeout {
            Some(s) => seconds("--engine-timeout", s)?,
            None => defaults.untimed_limit,
        },
        ..defaults
    };

    let mut a = engine_player(
        "--a",
        &args.a,
        (&args.a_eval, &args.a_selectivity),
        &engines,
        parallel,
    )?;
    // The progress bar once it is shown, for reports of an external engine's (re)start.
    let bar_slot: Arc<Mutex<Option<ProgressBar>>> = Arc::default();
    let mut b: Box<dyn Agent> = match b_spec {
        BSpec::Preset(preset) => Box::new(engine_player(
            "--b",
            preset,
            (&args.b_eval, &args.b_selectivity),
            &engines,
            parallel,
        )?),
        BSpec::Engine(command) => {
            let shown = Arc::clone(&bar_slot);
            let quiet = args.quiet;
            let engine = ExternalEngine::start_reporting(command, engine_options, move |wait| {
                if quiet {
                    return;
                }
                let line = start_wait_line(&wait);
                match shown.lock().ok().and_then(|bar| bar.clone()) {
                    Some(bar) => bar.println(line),
                    None => eprintln!("{line}"),
                }
            })
            .map_err(|e| {
                let hint = if e.0.contains("no answer in time while starting") {
                    "; a slow engine may need a longer --engine-start-timeout"
                } else {
                    ""
                };
                CliError::Failure(format!("--b-engine: {e}{hint}"))
            })?;
            Box::new(engine)
        }
    };

    // The openings: one per pair of games.
    let games = args.games as usize;
    let pairs = games.div_ceil(2);
    let (plies, all) = match args.openings {
        Some(plies) => (plies, all_openings(plies)),
        None => {
            let mut plies = DEFAULT_PLIES;
            loop {
                let all = all_openings(plies);
                if all.len() >= pairs || plies == MAX_PLIES {
                    break (plies, all);
                }
                plies += 1;
            }
        }
    };
    let openings = pick(&all, pairs, args.seed);

    let (a_name, b_name) = (a.name(), b.name());
    let (a_label, b_label) = if a_name == b_name {
        (format!("{a_name} (A)"), format!("{b_name} (B)"))
    } else {
        (a_name.clone(), b_name.clone())
    };
    let bar = progress_bar(games as u64, args.quiet || args.json);
    if let Ok(mut slot) = bar_slot.lock() {
        slot.clone_from(&bar);
    }
    let tally = Mutex::new(Tally::default());
    let on_game = |g: &MatchGame| {
        let mut tally = tally.lock().expect("no thread panics holding the tally");
        tally.add(g.a_margin());
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "A {}: +{} ={} -{}",
                a_label, tally.wins, tally.draws, tally.losses
            ));
            bar.inc(1);
        }
    };
    let results = if args.jobs > 1 {
        let make = || -> Result<(EnginePlayer, EnginePlayer), CliError> {
            let b_preset = args
                .b
                .as_deref()
                .expect("--jobs is refused with --b-engine");
            Ok((
                engine_player(
                    "--a",
                    &args.a,
                    (&args.a_eval, &args.a_selectivity),
                    &engines,
                    parallel,
                )?,
                engine_player(
                    "--b",
                    b_preset,
                    (&args.b_eval, &args.b_selectivity),
                    &engines,
                    parallel,
                )?,
            ))
        };
        play_in_parallel(args.jobs, &openings, games, control, make, &on_game)?
    } else {
        play_match(&mut a, b.as_mut(), &openings, games, control, on_game)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = MatchSummary::of(&results);

    if let Some(path) = &args.ggf {
        let text: String = results
            .iter()
            .map(|g| g.ggf(&a_label, &b_label) + "\n")
            .collect();
        std::fs::write(path, text)
            .map_err(|e| CliError::Failure(format!("--ggf {}: {e}", path.display())))?;
    }

    let b_json = match b_spec {
        BSpec::Preset(preset) => json!({"name": b_name, "preset": preset}),
        BSpec::Engine(command) => json!({"name": b_name, "engine": command}),
    };
    let info = Info {
        a_label: &a_label,
        b_label: &b_label,
        control,
        plies,
        available: all.len(),
        pairs,
        seed: args.seed,
        b_engine: args.b_engine.as_deref(),
    };
    if args.json {
        let mut v = match_json(&info, &results, &summary);
        v["a"] = json!({"name": a_name, "preset": args.a, "algorithm": engines.name(&args.a)});
        v["b"] = b_json;
        if let BSpec::Preset(preset) = b_spec {
            v["b"]["algorithm"] = json!(engines.name(preset));
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("JSON of plain values")
        );
    } else {
        let b_algorithm = match b_spec {
            BSpec::Preset(preset) => engines.name(preset),
            BSpec::Engine(_) => "",
        };
        print_match(
            &info,
            [engines.name(&args.a), b_algorithm],
            &results,
            &summary,
        );
    }
    Ok(())
}

/// Plays the games of a match `jobs` at a time: each pair of games (opening `p`, A black
/// then white) is played by a job's own two players from `make`; the games come back in
/// match order, numbered as [`play_match`] numbers them.
fn play_in_parallel(
    jobs: usize,
    openings: &[prune_play::openings::Opening],
    games: usize,
    control: TimeControl,
    make: impl Fn() -> Result<(EnginePlayer, EnginePlayer), CliError> + Sync,
    on_game: &(impl Fn(&MatchGame) + Sync),
) -> Result<Vec<MatchGame>, CliError> {
    let pairs = games.div_ceil(2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let played: Mutex<Vec<MatchGame>> = Mutex::new(Vec::with_capacity(games));
    let failed: Mutex<Option<CliError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(pairs) {
            scope.spawn(|| {
                let (mut a, mut b) = match make() {
                    Ok(players) => players,
                    Err(e) => {
                        *failed.lock().expect("no thread panics holding it") = Some(e);
                        return;
                    }
                };
                loop {
                    let p = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if p >= pairs {
                        break;
                    }
                    let n = (games - 2 * p).min(2);
                    let opening = openings.get(p % openings.len().max(1));
                    let slice = opening.map_or(&[][..], std::slice::from_ref);
                    let mut pair = play_match(&mut a, &mut b, slice, n, control, |_| {});
                    for (k, g) in pair.iter_mut().enumerate() {
                        g.number = 2 * p + k + 1;
                        g.opening = p % openings.len().max(1);
                        on_game(g);
                    }
                    played
                        .lock()
                        .expect("no thread panics holding it")
                        .extend(pair);
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("no thread panicked") {
        return Err(e);
    }
    let mut results = played.into_inner().expect("no thread panicked");
    results.sort_by_key(|g| g.number);
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_wait_is_shown_in_whole_seconds_with_its_limit() {
        let wait = StartWait {
            engine: "edax",
            waited: Duration::from_millis(5_012),
            limit: Duration::from_secs(120),
        };
        assert_eq!(
            start_wait_line(&wait),
            "waiting for edax to start: 5 s (at most 120 s, --engine-start-timeout) ..."
        );
    }

    #[test]
    fn seconds_must_be_positive_and_finite() {
        assert_eq!(seconds("--x", 0.5).unwrap(), Duration::from_millis(500));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 2e6] {
            match seconds("--x", bad) {
                Err(CliError::Usage(err)) => {
                    assert!(err.contains("--x") && err.contains("seconds"), "{err}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
