//! `prune match` (being written).

use clap::Args;

use crate::CliError;

/// Options of `prune match`.
#[derive(Args, Debug)]
pub struct MatchArgs {}

/// Runs `prune match`.
pub fn run(_args: &MatchArgs) -> Result<(), CliError> {
    Err(CliError::Failure("prune match is not written yet".into()))
}
