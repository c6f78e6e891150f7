//! `prune play` (being written).

use clap::Args;

use crate::CliError;

/// Options of `prune play`.
#[derive(Args, Debug)]
pub struct PlayArgs {}

/// Runs `prune play`.
pub fn run(_args: &PlayArgs) -> Result<(), CliError> {
    Err(CliError::Failure("prune play is not written yet".into()))
}
