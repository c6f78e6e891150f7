//! `prune match`: games between two players of any game (engine configurations, or an
//! external engine: NBoard for Othello, USI for shogi) from a set of openings with the sides
//! swapped; wins, draws, losses, the margin where the game has one, and Elo. One code path
//! for every game: the play layer's arena ([`prune_play::arena`]) on the game
//! [`with_playable`] hands over.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use prune_othello::midgame::Selectivity;
use prune_play::arena::Tally;
use prune_play::arena::{play_match, play_match_in_parallel, AgentPair, MatchGame, MatchSummary};
use prune_play::external::{ExternalOptions, StartWait};
use prune_play::openings::pick;
use prune_play::{with_playable, Agent, AgentSpec, Playable, PlayableVisitor, TimeControl};
use prune_registry::{GameVisitor, RegisteredGame, Setup};
use prune_search::{Evaluator, Parallel, ParallelKind};
use serde_json::json;

use crate::games::GameChoice;
use crate::mcts_args::{MctsArgs, PlayerEngines};
use crate::CliError;

mod report;
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
    /// The game: `othello`, `connect4`, `shogi` or `tictactoe`; every game plays through the
    /// same arena (Connect Four's players solve exactly when they can finish in time; shogi's
    /// are presets of its own engine: full, exhaustive, plain, minimal).
    #[arg(long, default_value = "othello")]
    pub game: String,
    /// Player A: `fast` (the game's own engine: Othello's midgame search, shogi's engine),
    /// `mcts` (Monte Carlo tree search) or a preset of the generic search (`prune presets`
    /// lists them; for shogi, a preset of its engine). The results are A's.
    #[arg(long, value_name = "PRESET")]
    pub a: String,
    /// Player A's evaluation by name (`prune games` lists each game's; the first is the
    /// default): Othello's pattern, hand or a weights file written by `prune train`; shogi's
    /// hand or material.
    #[arg(long, value_name = "EVAL")]
    pub a_eval: Option<String>,
    /// Player A's forward pruning: off, or Multi-ProbCut's margin in deviations such as 1.0,
    /// 1.5, 2.0 or 2.6 (see `prune lab probcut`); with a preset of the generic search, its
    /// algorithm must be alphabeta or negascout. Othello's players only.
    #[arg(long, value_name = "LEVEL", default_value = "off")]
    pub a_selectivity: String,
    /// Player B: `fast`, `mcts` or a preset, as `--a`.
    #[arg(long, value_name = "PRESET", conflicts_with = "b_engine")]
    pub b: Option<String>,
    /// Player B's evaluation (as `--a-eval`).
    #[arg(long, value_name = "EVAL")]
    pub b_eval: Option<String>,
    /// Player B's forward pruning, as `--a-selectivity`.
    #[arg(long, value_name = "LEVEL", default_value = "off")]
    pub b_selectivity: String,
    /// Player B: an external engine started with this command (a program and its arguments,
    /// split on whitespace; no shell): an Othello engine that speaks the NBoard protocol
    /// (Edax, `prune nboard`), or a shogi engine that speaks USI (YaneuraOu, `prune usi`).
    #[arg(long, value_name = "COMMAND")]
    pub b_engine: Option<String>,
    /// Games to play: each opening twice with the sides swapped (an odd last game is played
    /// from a new opening with A first).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 20)]
    pub games: u32,
    /// Milliseconds per move for both sides [default: 100].
    #[arg(long, value_name = "MS", conflicts_with_all = ["time", "depth"])]
    pub time_per_move: Option<u64>,
    /// A time control for both sides: SECONDS[+INCREMENT] per game (300, 60+1),
    /// [SECONDS+]byoyomi:MS (byoyomi:100, 60+byoyomi:1000), move:MS, depth:N or nodes:N.
    #[arg(long, value_name = "CONTROL", conflicts_with = "depth")]
    pub time: Option<String>,
    /// Search every move to this depth, both sides (Othello and Connect Four solve exactly
    /// near the end).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// The algorithm of the presets: alphabeta, negascout, mtdf, ...; or `mcts`: both prune
    /// players search with Monte Carlo tree search (a player can also be named `mcts`).
    #[arg(long, default_value = "negascout")]
    pub algorithm: String,
    /// The openings: the distinct positions this many plies after the start (Othello's up to
    /// symmetry, from f5; at most 8, Connect Four 6, shogi 3, tic-tac-toe 4) [default: 4 for
    /// Othello, 2 for Connect Four and shogi, 0 for tic-tac-toe, or more when the games need
    /// more openings].
    #[arg(long, value_name = "PLIES")]
    pub openings: Option<u32>,
    /// Shuffle the openings with this seed (default: spread evenly over the set, in its order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads of each prune player.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Games played at once, each pair of games (one opening, both sides) by its own two
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
    /// An option of the external engine, NAME=VALUE (USI's `setoption`, such as
    /// `USI_Hash=64` or `Threads=1`); may be given again.
    #[arg(long, value_name = "NAME=VALUE", requires = "b_engine")]
    pub engine_option: Vec<String>,
    /// Write every game to this file in the game's record format: GGF for Othello (one game
    /// per line), a PGN-like move list for the others (shogi's moves in USI, its start as an
    /// SFEN).
    #[arg(long, value_name = "FILE", alias = "ggf")]
    pub record: Option<PathBuf>,
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

/// Checks that game `G` has the evaluation `eval` (by the registry), naming `option`.
pub(crate) fn check_eval<G: Playable>(option: &str, eval: Option<&str>) -> Result<(), CliError> {
    struct Nothing;
    impl GameVisitor for Nothing {
        type Output = ();
        fn visit<H: RegisteredGame, E: Evaluator<H> + Clone + 'static>(self, _: H, _: E) {}
    }
    let setup = Setup {
        eval,
        ..Setup::default()
    };
    G::start()
        .visit(&setup, Nothing)
        .map_err(|e| CliError::Usage(format!("{option}: {e}")))
}

/// What a prune player of the command line asks for.
fn agent_spec<G: Playable>(
    option: &str,
    preset: &str,
    (eval, selectivity): (Option<&str>, &str),
    engines: &PlayerEngines,
    parallel: Parallel,
) -> Result<AgentSpec, CliError> {
    let selectivity: Selectivity = selectivity
        .parse()
        .map_err(|e| CliError::Usage(format!("{option}-selectivity: {e}")))?;
    check_eval::<G>(&format!("{option}-eval"), eval)?;
    let preset = if preset.trim().eq_ignore_ascii_case("engine") {
        G::ENGINE_PRESET
    } else {
        preset
    };
    let mut spec = AgentSpec::new(engines.spec(preset));
    spec.algorithm = engines.algorithm;
    spec.eval = eval.map(str::to_string);
    spec.selectivity = Some(selectivity);
    spec.parallel = parallel;
    if spec.is_mcts() {
        spec.mcts = engines.mcts_config(parallel.threads)?;
        spec.mcts_playouts = engines.mcts_playouts();
    }
    Ok(spec)
}

/// The player of `spec`, its errors naming `option`.
fn agent<G: Playable>(option: &str, spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, CliError> {
    G::agent(spec).map_err(|e| CliError::Usage(format!("{option}: {e}")))
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
    let choice = args.game.parse::<GameChoice>()?;
    with_playable(&choice, Match { args }).map_err(|e| CliError::Usage(format!("--game: {e}")))?
}

/// `prune match` on the game the visitor is given.
struct Match<'a> {
    args: &'a MatchArgs,
}

impl PlayableVisitor for Match<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Playable>(self) -> Self::Output {
        run_game::<G>(self.args)
    }
}

/// The external engine's options from the command line.
fn external_options(args: &MatchArgs) -> Result<ExternalOptions, CliError> {
    let defaults = ExternalOptions::default();
    let settings = args
        .engine_option
        .iter()
        .map(|o| match o.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(CliError::Usage(format!(
                "--engine-option '{o}': expected NAME=VALUE"
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ExternalOptions {
        protocol: args.engine_protocol.unwrap_or(defaults.protocol),
        settings,
        start_timeout: match args.engine_start_timeout {
            Some(s) => seconds("--engine-start-timeout", s)?,
            None => defaults.start_timeout,
        },
        untimed_limit: match args.engine_timeout {
            Some(s) => seconds("--engine-timeout", s)?,
            None => defaults.untimed_limit,
        },
        ..defaults
    })
}

/// Checks the options that concern player B.
fn b_spec(args: &MatchArgs) -> Result<BSpec<'_>, CliError> {
    let spec = match (&args.b, &args.b_engine) {
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
    if args.b_engine.is_some() {
        if args.b_selectivity.trim() != "off" || args.b_eval.is_some() {
            return Err(CliError::Usage(
                "--b-selectivity and --b-eval are a prune player's: they do not apply to \
                 --b-engine"
                    .into(),
            ));
        }
        if args.jobs > 1 {
            return Err(CliError::Usage(
                "--jobs: games are played one at a time against an external engine".into(),
            ));
        }
    }
    if args.jobs == 0 {
        return Err(CliError::Usage("--jobs must be at least 1".into()));
    }
    Ok(spec)
}

/// The openings of a match of `games` games: those of `--openings` plies, or of the game's
/// default, more plies while the set has fewer openings than the pairs of games.
fn openings_of<G: Playable>(
    args: &MatchArgs,
    games: usize,
) -> Result<(u32, Vec<prune_play::GameRecord<G>>), CliError> {
    let pairs = games.div_ceil(2);
    match args.openings {
        Some(plies) if plies > G::MAX_OPENING_PLIES => Err(CliError::Usage(format!(
            "--openings: at most {} plies for {}",
            G::MAX_OPENING_PLIES,
            G::NAME
        ))),
        Some(plies) => Ok((plies, G::openings(plies))),
        None => {
            let mut plies = G::DEFAULT_OPENING_PLIES;
            loop {
                let all = G::openings(plies);
                if all.len() >= pairs || plies >= G::MAX_OPENING_PLIES {
                    break Ok((plies, all));
                }
                plies += 1;
            }
        }
    }
}

/// Runs `prune match` on game `G`.
fn run_game<G: Playable>(args: &MatchArgs) -> Result<(), CliError> {
    let b_spec = b_spec(args)?;
    let control = time_control(args)?;
    let engines = PlayerEngines::new(
        &args.algorithm,
        &args.mcts_args,
        &[&args.a, args.b.as_deref().unwrap_or("")],
    )?;
    let parallel = Parallel::new(args.threads, ParallelKind::Ybwc)
        .map_err(|e| CliError::Usage(format!("--threads: {e}")))?;
    let games = args.games as usize;
    let (plies, all) = openings_of::<G>(args, games)?;
    let engine_options = external_options(args)?;
    let a_spec = agent_spec::<G>(
        "--a",
        &args.a,
        (args.a_eval.as_deref(), &args.a_selectivity),
        &engines,
        parallel,
    )?;
    let b_preset_spec = match b_spec {
        BSpec::Preset(preset) => Some(agent_spec::<G>(
            "--b",
            preset,
            (args.b_eval.as_deref(), &args.b_selectivity),
            &engines,
            parallel,
        )?),
        BSpec::Engine(_) => None,
    };
    let mut a = agent::<G>("--a", &a_spec)?;
    // The progress bar once it is shown, for reports of an external engine's (re)start.
    let bar_slot: Arc<Mutex<Option<ProgressBar>>> = Arc::default();
    let mut b: Box<dyn Agent<G>> = match (&b_spec, &b_preset_spec) {
        (_, Some(spec)) => agent::<G>("--b", spec)?,
        (BSpec::Engine(command), None) => {
            let shown = Arc::clone(&bar_slot);
            let quiet = args.quiet;
            let report = move |wait: StartWait| {
                if quiet {
                    return;
                }
                let line = start_wait_line(&wait);
                match shown.lock().ok().and_then(|bar| bar.clone()) {
                    Some(bar) => bar.println(line),
                    None => eprintln!("{line}"),
                }
            };
            G::external(command, engine_options, Box::new(report)).map_err(|e| {
                let hint = if e.0.contains("no answer in time while starting") {
                    "; a slow engine may need a longer --engine-start-timeout"
                } else {
                    ""
                };
                CliError::Failure(format!("--b-engine: {e}{hint}"))
            })?
        }
        (BSpec::Preset(_), None) => unreachable!("a preset has its spec"),
    };

    let pairs = games.div_ceil(2);
    let openings = pick(&all, pairs, args.seed);
    let (a_name, b_name) = (
        engines.label(&a_spec, a.name()),
        match &b_preset_spec {
            Some(spec) => engines.label(spec, b.name()),
            None => b.name(),
        },
    );
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
    let on_game = |g: &MatchGame<G>| {
        let mut tally = tally.lock().unwrap_or_else(|p| p.into_inner());
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
        let b_spec = b_preset_spec
            .as_ref()
            .expect("--jobs is refused with --b-engine");
        let make = || -> AgentPair<G, CliError> {
            Ok((agent::<G>("--a", &a_spec)?, agent::<G>("--b", b_spec)?))
        };
        play_match_in_parallel(args.jobs, &openings, games, control, make, &on_game)?
    } else {
        play_match(a.as_mut(), b.as_mut(), &openings, games, control, on_game)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = MatchSummary::of(&results);

    if let Some(path) = &args.record {
        let text: String = results
            .iter()
            .map(|g| g.record_text(&a_label, &b_label))
            .collect();
        std::fs::write(path, text)
            .map_err(|e| CliError::Failure(format!("--record {}: {e}", path.display())))?;
    }

    let algorithms = [
        G::algorithm(&a_spec),
        match &b_preset_spec {
            Some(spec) => G::algorithm(spec),
            None => String::new(),
        },
    ];
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
        v["a"] = json!({"name": a_name, "preset": args.a, "algorithm": algorithms[0]});
        v["b"] = match b_spec {
            BSpec::Preset(preset) => {
                json!({"name": b_name, "preset": preset, "algorithm": algorithms[1]})
            }
            BSpec::Engine(command) => json!({"name": b_name, "engine": command}),
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("JSON of plain values")
        );
    } else {
        print_match(&info, [&algorithms[0], &algorithms[1]], &results, &summary);
    }
    Ok(())
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
