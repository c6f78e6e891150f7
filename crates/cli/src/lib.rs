//! The `prune` command's library: every command of `prune` (the binary only calls [`run`]),
//! and [`fuzzing`], the server's request handling for the fuzz targets.

pub mod fuzzing;

mod bench_cmd;
mod cells;
mod config_args;
mod connect4_cmd;
mod eval_arg;
mod eval_check_cmd;
mod games;
mod lab_cmd;
mod match_cmd;
mod mate_cmd;
mod mcts_args;
mod memory;
mod nboard_cmd;
mod perft_cmd;
mod play_cmd;
mod positions;
mod presets_cmd;
mod proof_cmd;
mod report;
mod search_cmd;
mod serve;
mod shogi_cmd;
mod solve_cmd;
mod train_cmd;
mod tree_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// prune — a workbench for game-tree search: the alpha-beta family on real games.
#[derive(Parser, Debug)]
#[command(name = "prune", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search a position with any algorithm and configuration; print the value, the principal
    /// variation and the statistics.
    Search(search_cmd::SearchArgs),
    /// Solve Othello endgames exactly (or win/draw/loss) with the fast solver or the generic
    /// search in any configuration: a built-in suite or an OBF file, checked against the
    /// scores it lists; or, with `--game connect4`, a file of Connect Four positions.
    Solve(solve_cmd::SolveArgs),
    /// Count the leaves of the Othello (or, with `--game connect4`, Connect Four) game tree
    /// depth by depth (perft), with time and speed.
    Perft(perft_cmd::PerftArgs),
    /// List the presets of `--preset`: named sets of enhancements, from the bare algorithm to
    /// the best combination measured.
    Presets(presets_cmd::PresetsArgs),
    /// Run an experiment of the lab (`prune lab list` names them) and write its report:
    /// Markdown with tables and plots, CSV, JSON and SVG.
    Lab(lab_cmd::LabArgs),
    /// Play Othello (or, with `--game connect4`, Connect Four) in the terminal: human against
    /// engine (either colour), engine against engine, or two humans, with a clock; `undo`,
    /// `hint` and `quit` at any prompt.
    Play(play_cmd::PlayArgs),
    /// Speak the NBoard protocol on stdin/stdout, so that the NBoard GUI (or any program that
    /// speaks it) can use prune as its engine.
    Nboard(nboard_cmd::NboardArgs),
    /// Solve tsume-shogi (mate) problems: df-pn over checks and evasions, the shortest mate
    /// against the longest defence; SFENs on the command line or a file of them.
    Mate(mate_cmd::MateArgs),
    /// Speak the USI protocol on stdin/stdout, so that shogi GUIs (or any program that speaks
    /// it) can use prune's shogi engine.
    Usi(shogi_cmd::UsiArgs),
    /// Play a match between two engine configurations (or against an external NBoard engine)
    /// from a set of openings with colours alternated; report wins, draws, losses, disc margin
    /// and the Elo difference with its error bar.
    Match(match_cmd::MatchArgs),
    /// Benchmark: exact endgame solves and fixed-depth midgame searches of a fixed set of
    /// Othello positions; print each one's nodes, time and speed, then the total node count
    /// (the signature, checked against the recorded one) and the overall speed.
    Bench(bench_cmd::BenchArgs),
    /// Learn the pattern evaluation's weights from self-play games (exact solves near the end,
    /// bootstrapped searches before), resumable, deterministic with a seed.
    Train(train_cmd::TrainArgs),
    /// Measure Othello evaluations against facts: the start position (a draw) at each depth,
    /// a suite's exact scores at a fixed depth (error and optimal moves), and solved positions
    /// of games no training played; several `--eval`s side by side.
    EvalCheck(eval_check_cmd::EvalCheckArgs),
    /// Serve the page (play, analyse, watch the search, the lab's reports) and its JSON API on
    /// this machine: `prune serve`, then open the address it prints.
    Serve(serve::ServeArgs),
    /// Draw the game tree a search visited: each node's value and window, the moves on the
    /// edges, re-searches, cutoffs and the moves they pruned, the principal variation (SVG,
    /// Graphviz DOT or text); `--compare alphabeta,minimax` draws two searches.
    Tree(tree_cmd::TreeArgs),
}

/// An error for the user: printed as `error: ...`, exit status 2 for bad input, 1 otherwise.
#[derive(Debug)]
pub enum CliError {
    /// Something the user typed or gave is wrong.
    Usage(String),
    /// The command ran and found something wrong.
    Failure(String),
}

/// The exit status of a program whose reader went away (128 + SIGPIPE), as a shell reports it.
const CLOSED_PIPE_STATUS: i32 = 141;

/// Makes a write to a closed pipe (`prune perft | head`) end the program quietly, as other Unix
/// tools end, instead of with a panic message: Rust ignores SIGPIPE, so `println!` panics.
fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        report(info);
    }));
}

/// The arguments, with `usi` put first when the program was started as `prune-usi` (a link or
/// a copy of that name): shogi software (cshogi, GUIs) starts an engine by its path alone, with
/// no arguments, so `ln -s $(which prune) prune-usi` makes the USI engine such software expects.
fn arguments() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let started_as_usi = args.first().is_some_and(|first| {
        std::path::Path::new(first)
            .file_stem()
            .is_some_and(|stem| stem == "prune-usi")
    });
    if started_as_usi {
        args.insert(1, "usi".into());
    }
    args
}

/// Runs `prune` with the process's arguments: parses them, runs the command, prints an error
/// as `error: ...`; the exit status is 0, 2 for bad input, 1 for a failure.
pub fn run() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse_from(arguments());
    let outcome = match cli.command {
        Command::Search(args) => search_cmd::run(&args),
        Command::Solve(args) => solve_cmd::run(&args),
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Presets(args) => presets_cmd::run(&args),
        Command::Lab(args) => lab_cmd::run(&args),
        Command::Play(args) => play_cmd::run(&args),
        Command::Nboard(args) => nboard_cmd::run(&args),
        Command::Usi(args) => shogi_cmd::run_usi(&args),
        Command::Mate(args) => mate_cmd::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Bench(args) => bench_cmd::run(&args),
        Command::Train(args) => train_cmd::run(&args),
        Command::EvalCheck(args) => eval_check_cmd::run(&args),
        Command::Tree(args) => tree_cmd::run(&args),
        Command::Serve(args) => serve::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(CliError::Failure(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(1)
        }
    }
}
