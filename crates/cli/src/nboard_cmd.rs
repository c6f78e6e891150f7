//! `prune nboard` (being written).

use clap::Args;

use crate::CliError;

/// Options of `prune nboard`.
#[derive(Args, Debug)]
pub struct NboardArgs {}

/// Runs `prune nboard`.
pub fn run(_args: &NboardArgs) -> Result<(), CliError> {
    Err(CliError::Failure("prune nboard is not written yet".into()))
}
