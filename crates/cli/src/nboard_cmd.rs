//! `prune nboard`: prune as an engine of the NBoard GUI, speaking the NBoard protocol on stdin
//! and stdout (the protocol itself is [`prune_play::nboard`]).

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Args;
use prune_othello::midgame::Selectivity;
use prune_play::nboard::{NboardOptions, NboardSession, Reply, DEFAULT_DEPTH, MAX_DEPTH};
use prune_play::{MidgameEngine, PlayerOptions};

use prune_play::DEFAULT_SELECTIVITY;

use crate::config_args::ParallelArgs;
use crate::eval_arg::parse_eval;
use crate::mcts_args::{MctsArgs, PlayerEngines};
use crate::CliError;

/// Options of `prune nboard`.
#[derive(Args, Debug)]
pub struct NboardArgs {
    /// How the engine searches: `fast` (Othello's fast midgame search) or a preset of the
    /// generic search (`prune presets` lists them).
    #[arg(long, value_name = "NAME", default_value = "fast")]
    pub preset: String,
    /// The algorithm of a preset: minimax, negamax, alphabeta, alphabeta-hard, scout,
    /// negascout or mtdf; or `mcts`, Monte Carlo tree search (as `--preset mcts`; the GUI's
    /// `set depth` is then ignored: give --time-per-move or --playouts).
    #[arg(long, short, default_value = "negascout")]
    pub algorithm: String,
    /// The midgame depth until the GUI sends `set depth` (1 to 60).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Think this many milliseconds per move instead of searching to the depth (the GUI's
    /// `set depth` is then ignored; a hint of several moves shares the time between them).
    #[arg(long, value_name = "MS")]
    pub time_per_move: Option<u64>,
    /// The evaluation: pattern (the built-in trained weights), hand (the hand-made evaluation)
    /// or a weights file written by `prune train`.
    #[arg(long, value_name = "EVAL", default_value = "pattern")]
    pub eval: String,
    /// Forward pruning: off, or Multi-ProbCut's margin in deviations such as 1.0, 1.5, 2.0 or
    /// 2.6 [default: 2.0 with `--preset fast`, which played strongest at 100 ms per move in
    /// `prune lab probcut` (docs/lab/probcut); off with a preset of the generic search].
    #[arg(long, value_name = "LEVEL")]
    pub selectivity: Option<Selectivity>,
    /// Threads and parallel scheme.
    #[command(flatten)]
    pub parallel_args: ParallelArgs,
    /// Monte Carlo tree search's options (--algorithm mcts).
    #[command(flatten)]
    pub mcts_args: MctsArgs,
}

impl NboardArgs {
    /// The session's options; every error is a usage error naming the option.
    fn options(&self) -> Result<NboardOptions, CliError> {
        let engines = PlayerEngines::new(&self.algorithm, &self.mcts_args, &[&self.preset])?;
        let player = PlayerOptions::preset(engines.spec(&self.preset), engines.algorithm)
            .map_err(|e| CliError::Usage(format!("--preset: {e}")))?;
        let selectivity = match (player.engine, self.selectivity) {
            (MidgameEngine::Fast, None) => DEFAULT_SELECTIVITY,
            (_, Some(s)) => s,
            (MidgameEngine::Generic | MidgameEngine::Mcts, None) => Selectivity::Off,
        };
        let mut player = player
            .with_selectivity(selectivity)
            .map_err(|e| CliError::Usage(format!("--selectivity: {e}")))?;
        player.parallel = self.parallel_args.build()?;
        player.eval = parse_eval("--eval", &self.eval)?;
        engines.configure(&mut player)?;
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(CliError::Usage(format!(
                "--depth must be 1 to {MAX_DEPTH}, got {}",
                self.depth
            )));
        }
        let time_per_move = match self.time_per_move {
            Some(0) => {
                return Err(CliError::Usage(
                    "--time-per-move must be at least 1 ms".into(),
                ))
            }
            Some(ms) => Some(Duration::from_millis(ms)),
            None => None,
        };
        Ok(NboardOptions {
            player,
            depth: self.depth,
            time_per_move,
        })
    }
}

/// Runs `prune nboard`: reads commands from stdin until `quit` or the end of the input, writes
/// the replies to stdout (flushed after each line) and diagnostics to stderr.
pub fn run(args: &NboardArgs) -> Result<(), CliError> {
    let options = args.options()?;
    let mut session =
        NboardSession::new(options).map_err(|e| CliError::Usage(format!("configuration: {e}")))?;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut stdout = io::stdout().lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CliError::Failure(format!("reading stdin: {e}"))),
        }
        // A line that is not UTF-8 is read as well as it can be (and refused as a command).
        let line = String::from_utf8_lossy(&buffer);
        let mut quit = false;
        let mut failure: Option<io::Error> = None;
        session.handle_with(&line, &mut |reply| match reply {
            Reply::Out(text) => {
                if failure.is_none() {
                    if let Err(e) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
                        failure = Some(e);
                    }
                }
            }
            Reply::Diagnostic(text) => eprintln!("{text}"),
            Reply::Quit => quit = true,
        });
        match failure {
            // The GUI has gone: nobody is left to answer.
            Some(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Some(e) => return Err(CliError::Failure(format!("writing stdout: {e}"))),
            None => {}
        }
        if quit {
            return Ok(());
        }
    }
}
