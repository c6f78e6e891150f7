//! `prune`: search, solve and compare game-tree search algorithms from the command line.

mod report;
mod search_cmd;

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
}

/// An error for the user: printed as `error: ...`, exit status 2 for bad input, 1 otherwise.
#[derive(Debug)]
pub enum CliError {
    /// Something the user typed or gave is wrong.
    Usage(String),
    /// The command ran and found something wrong.
    Failure(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Search(args) => search_cmd::run(&args),
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
